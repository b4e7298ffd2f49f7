"""The schema fuzzing's figures in the pytest output, so a log shows how much of the API was walked."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_schema_fuzz import SUMMARY


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The fuzz tests' figures travel as a report property, so they arrive from a pytest-xdist worker too."""
    lines = [
        value
        for outcome in ("passed", "failed")
        for report in terminalreporter.stats.get(outcome, [])
        if report.when == "call"
        for name, value in report.user_properties
        if name == SUMMARY
    ]
    if lines:
        terminalreporter.section("schemathesis")
        for line in sorted(lines):
            terminalreporter.write_line(line)
