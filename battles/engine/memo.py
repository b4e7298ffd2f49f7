"""A memo of a pure function's last few answers, for the questions a ruleset asks again and again of one board
while it resolves (a ship's movement allowance, the trace of her move, a gun's fire solution): the same question
is answered at the request, at the answer's check and again when the answer is carried out.

An answer is found again only for the very same immutable objects (``same``, matched by identity: a board, a
record, the map) and equal small values (``equal``: a turn number, a plan's steps). Identity cannot go stale:
an immutable object never changes, and the memo holds it, so its id is never another object's. A function is
memoised here only if its answer depends on nothing but these arguments.
"""

from __future__ import annotations

from operator import is_
from typing import Generic, TypeVar

R = TypeVar("R")


class Recent(Generic[R]):
    """The last ``size`` answers of one function, newest first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: list[tuple[tuple[object, ...], tuple[object, ...], R]] = []

    def recall(self, same: tuple[object, ...], equal: tuple[object, ...]) -> R | None:
        """The answer kept for these arguments, or None."""
        for kept_same, kept_equal, answer in self._entries:
            if all(map(is_, kept_same, same)) and kept_equal == equal:
                return answer
        return None

    def keep(self, same: tuple[object, ...], equal: tuple[object, ...], answer: R) -> R:
        """Keep ``answer`` for these arguments (dropping the oldest beyond ``size``); returns it."""
        # One list, replaced whole: a reader on another thread sees the old list or the new, never half of one.
        self._entries = [(same, equal, answer), *self._entries[: self._size - 1]]
        return answer
