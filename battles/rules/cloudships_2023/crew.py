"""Crew rules that read only a panel's boarding parties: repairs by the crew and the boarding winner's own
losses. Pure functions over numbers; the boarding and end-of-round phases come later.
"""

from __future__ import annotations


def repair_number(blue_squares: int, *, superior: bool) -> int:
    """A repair succeeds on a die below this: the boarding-party squares left undestroyed, not the hexagon (its
    anti-personnel guns do not count), one more for a superior crew (CM-REP-04..06)."""
    return blue_squares + (1 if superior else 0)


def repair_succeeds(roll: int, blue_squares: int, *, superior: bool) -> bool:
    """A fire put out early or a red light removed: a die strictly below the repair number (CM-REP-04/07). With
    three squares left a 1 or 2 mends, 3 or more does nothing (CM-REP-08)."""
    return roll < repair_number(blue_squares, superior=superior)


def winners_loss(roll: int) -> int:
    """The boarding value the higher scorer loses too: 1 on a die of 1-4, 2 on a 5, 3 on a 6 (CM-BRD-12..14)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a die is 1 to 6, not {roll}")
    return {5: 2, 6: 3}.get(roll, 1)
