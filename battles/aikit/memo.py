"""Values worked out from immutable objects, kept while those objects live.

The board is rebuilt by ``dataclasses.replace`` after every event, but a ship that did not change is the very
same object in the new board. A captain that keys what it works out from a ship by the ship's identity finds
it again on the next decision at the cost of one dict lookup, where hashing the whole record would cost
more than the work saved. The memo holds the objects it keys by, so an identity cannot be reused by another
object while its entry is kept; it belongs to one captain, who plays one battle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """``get(of, key, make)``: the value ``make()`` gave for the objects ``of`` (by identity) and ``key``."""

    def __init__(self, limit: int = 50_000) -> None:
        self._found: dict[tuple[tuple[int, ...], Hashable], tuple[tuple[object, ...], V]] = {}
        self._limit = limit  # a long game's captain starts afresh rather than grow without end

    def get(self, of: tuple[object, ...], key: Hashable, make: Callable[[], V]) -> V:
        index = (tuple(map(id, of)), key)
        found = self._found.get(index)
        if found is not None:
            return found[1]
        if len(self._found) >= self._limit:
            self._found.clear()
        value = make()
        self._found[index] = (of, value)
        return value

    def __len__(self) -> int:
        return len(self._found)
