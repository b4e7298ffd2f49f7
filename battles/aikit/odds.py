"""The chances a captain weighs his answers by: one die against a score, two dice against each other.

Exact fractions of six-sided dice, worked out once (the tables are small): what a ruleset's AI needs to turn a
gun's dice into expected hits, or an opposed roll (a ram, a boarding melee) into the chance of winning it.
"""

from __future__ import annotations

from functools import cache

SIDES = 6


def at_least(needed: int, *, bonus: int = 0) -> float:
    """The chance that one die plus ``bonus`` scores ``needed`` or more (0 and 1 at the ends)."""
    faces = SIDES - max(needed - bonus, 1) + 1
    return min(max(faces, 0), SIDES) / SIDES


@cache
def beats(bonus: int = 0, against: int = 0) -> float:
    """The chance that a die plus ``bonus`` scores strictly more than another die plus ``against``."""
    wins = sum(1 for mine in range(1, SIDES + 1) for theirs in range(1, SIDES + 1) if mine + bonus > theirs + against)
    return wins / (SIDES * SIDES)


def any_of(chance: float, dice: int) -> float:
    """The chance that at least one of ``dice`` independent dice, each succeeding with ``chance``, succeeds."""
    return 1.0 - (1.0 - chance) ** dice
