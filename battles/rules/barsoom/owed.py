"""Damage owed: what a move or a plot makes a ship roll on the Damage table, as data (the damage rules roll and
apply it, damage.py). Movement never applies damage itself: it says who rolls how many d10, with what modifier,
why and under which clause, and the phase rolls them through the engine's dice, logged."""

from __future__ import annotations

from typing import NamedTuple

from battles.engine.events import JSONObject
from battles.rules.barsoom.tables import MOVEMENT


class DamageOwed(NamedTuple):
    """``rolls`` d10 on the Damage table for ``ship``, each with ``modifier`` added; ``reason`` in the game's words
    (kinds.COLLISION, RAMMING, RAMMED, CRASH, HARD_LANDING, RESTRICTION_IGNORED) and the clause that calls for it."""

    ship: str
    rolls: int
    modifier: int
    reason: str
    clause: str

    def to_json(self) -> JSONObject:
        return {
            "ship": self.ship,
            "rolls": self.rolls,
            "modifier": self.modifier,
            "reason": self.reason,
            "clause": self.clause,
        }


def modifier(reason: str) -> int:
    """The Damage-table modifier a reason carries (data/movement.json): a ram's -2 and +2 (BR-RAM-02/04)."""
    return MOVEMENT.whole("damage", reason, "modifier")


def fixed_rolls(reason: str) -> int:
    """Rolls a reason always calls for, whatever the moves: the rammed ship's one (BR-RAM-04), the optional rule's
    one (BR-OPT-02)."""
    return MOVEMENT.whole("damage", reason, "rolls")


def owed(ship: str, rolls: int, reason: str, clause: str) -> DamageOwed:
    return DamageOwed(ship, rolls, modifier(reason), reason, clause)
