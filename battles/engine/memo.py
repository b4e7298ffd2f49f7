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
from threading import Lock
from typing import Generic, TypeVar

R = TypeVar("R")


class Recent(Generic[R]):
    """The answers for the last ``size`` sets of objects asked about, each with its last ``size`` sets of values,
    newest first.

    The answers are filed by the ids of their objects, so that one is found at the cost of a look-up however many
    are kept (a side's whole volley of shots is checked, then fired: two dozen solutions). While an entry is kept
    it holds its objects, so an id filed is no other object's."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict[tuple[int, ...], list[tuple[tuple[object, ...], tuple[object, ...], R]]] = {}
        self._lock = Lock()

    def recall(self, same: tuple[object, ...], equal: tuple[object, ...]) -> R | None:
        """The answer kept for these arguments, or None."""
        found = self._entries.get(tuple(map(id, same)))
        if found is not None:
            for kept_same, kept_equal, answer in found:
                if kept_equal == equal and all(map(is_, kept_same, same)):
                    return answer
        return None

    def keep(self, same: tuple[object, ...], equal: tuple[object, ...], answer: R) -> R:
        """Keep ``answer`` for these arguments (dropping the oldest beyond ``size``); returns it."""
        key = tuple(map(id, same))
        # A reader on another thread finds a key's list as it was or as it is now, never half of one: each is
        # replaced whole, and only under the lock.
        with self._lock:
            entries = self._entries
            found = entries.pop(key, [])
            entries[key] = [(same, equal, answer), *found[: self._size - 1]]
            while len(entries) > self._size:
                del entries[next(iter(entries))]
        return answer
