"""The schema fuzzing's figures in the pytest output, so a log shows how much of the API was walked."""

from __future__ import annotations

import sys
from typing import Any

import pytest


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    fuzzing = sys.modules.get("tests.api.test_schema_fuzz")
    if fuzzing is not None and fuzzing.RESULTS:
        terminalreporter.section("schemathesis")
        for who, figures in fuzzing.RESULTS.items():
            terminalreporter.write_line(figures.line(who))
