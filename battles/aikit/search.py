"""The best-scored candidates without scoring them all: branch and bound.

A captain weighs hundreds of candidates whose exact score is dear (every gun against every foe) but for which a
cheap upper bound exists (every gun bearing). ``within`` scores exactly only the candidates whose bound could
still reach the best found: those within ``near`` of the best, all that ``ties.alike`` keeps, come out scored as
a full scoring would score them, and every other candidate gets None. The bound must never fall below the
score; then the result is exact, not a pruned guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def within(
    candidates: Sequence[T],
    bound: Callable[[T], float],
    score: Callable[[T], float],
    near: float,
    *,
    finer: Callable[[T], float] | None = None,
) -> list[float | None]:
    """Each candidate's exact score if it may be within ``near`` of the best, else None, in the order given.

    ``bound`` is asked of every candidate and orders them; ``finer``, a tighter bound dearer to work out, is asked
    only of those ``bound`` could not rule out, before their score."""
    bounds = [bound(candidate) for candidate in candidates]
    scores: list[float | None] = [None] * len(candidates)
    best = float("-inf")
    for index in sorted(range(len(candidates)), key=lambda i: -bounds[i]):
        if bounds[index] < best - near:
            break  # sorted by bound: no candidate left can come within ``near`` of the best
        if finer is not None and finer(candidates[index]) < best - near:
            continue
        exact = score(candidates[index])
        scores[index] = exact
        best = max(best, exact)
    return [value if value is not None and value >= best - near else None for value in scores]
