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


def read_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


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


class DataFile:
    """A JSON data file of tables, read once, with typed readers by key path: ``tables.whole("ram",
    "succeeds_at_most")``. A value of the wrong type fails loudly, naming the file and the path. Read-only by
    convention: callers must not mutate what ``data`` and ``get`` return."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: dict[str, Any] | None = None
        self._wholes: dict[tuple[str, ...], int] = {}
        self._texts: dict[tuple[str, ...], tuple[str, ...]] = {}

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = read_json_object(self.path)
        return self._data

    def get(self, *path: str) -> Any:
        node: Any = self.data
        for key in path:
            node = node[key]
        return node

    def _wrong(self, path: tuple[str, ...], expected: str, value: Any) -> TypeError:
        return TypeError(f"{self.path.name} {'/'.join(path)}: expected {expected}, got {value!r}")

    def whole(self, *path: str) -> int:
        """A whole number."""
        if path not in self._wholes:
            value = self.get(*path)
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._wrong(path, "a whole number", value)
            self._wholes[path] = value
        return self._wholes[path]

    def wholes(self, *path: str) -> tuple[int, ...]:
        """A list of whole numbers."""
        value = self.get(*path)
        if not isinstance(value, list) or not all(type(item) is int for item in value):
            raise self._wrong(path, "a list of whole numbers", value)
        return tuple(value)

    def texts(self, *path: str) -> tuple[str, ...]:
        """A list of text."""
        if path not in self._texts:
            value = self.get(*path)
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise self._wrong(path, "a list of text", value)
            self._texts[path] = tuple(value)
        return self._texts[path]
