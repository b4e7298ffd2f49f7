"""Small typed readers for the project's JSON: data files (catalog, weapons, map) and saved boards.

They turn ``Any`` from ``json.load`` into checked Python values, so a malformed data file fails loudly at
load time with what was expected, not later with an AttributeError deep in a rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def read_opt_int(value: Any) -> int | None:
    return None if value is None else read_int(value)


def read_str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {value!r}")
    return value


def read_opt_str(value: Any) -> str | None:
    return None if value is None else read_str(value)


def read_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def read_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {value!r}")
    return value


def read_json_object(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict):
        raise TypeError(f"{path.name}: expected a JSON object at the top")
    return data
