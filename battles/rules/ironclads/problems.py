"""The problems table (IC-PROB-01..10) and sinking (IC-END-01); docs/ironclads.md "Fire and damage".

Once a ship's unsaved hits are resolved she rolls 2D6 once (IC-PROB-01); the phase rolls them with ``needed`` and
passes the total to ``problem``, which says what befalls her as data the board applies. The main text governs where
the quick reference differs (IC-PROB-10): 3 wrecks the smokestacks, 4 does nothing, 11-12 hit the bridge.
Durations are given as the last Game Turn an effect lasts, so nothing needs counting down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from battles.engine import dice
from battles.rules.ironclads.cards import ARMOUR, HULL, DataCard
from battles.rules.ironclads.damage import Noted, d3

NOTHING, STEERING, MAJOR_STEERING, SMOKESTACKS, FIRE, BRIDGE = (
    "nothing",
    "steering problems",
    "major steering problems",
    "smokestacks",
    "fire",
    "bridge",
)
SMOKESTACK_SPEED: Final = 6  # the most current speed with wrecked smokestacks (IC-PROB-04)
BURNS_BELOW_ARMOUR: Final = 3  # a fire breaks out only with fewer Armour stats left than this (IC-PROB-05/06)
STEERING_HEXSIDES: Final = 1  # docs "Hex play": 4 cm round the Turn Device is one hexside at most (IC-PROB-02)


@dataclass(frozen=True, slots=True)
class Problem:
    """What a 2D6 total does to her (IC-PROB-02..08). ``max_turn`` is the most hexsides she may turn from now on
    (None: no new limit); ``speed_cap`` the most current speed from now on; ``fire``: a 1D3 is rolled for how
    long she burns (``fire_until``); ``bridge``: her orders are frozen next turn (``bridge_turn``)."""

    total: int
    name: str
    clause: str
    max_turn: int | None = None
    speed_cap: int | None = None
    fire: bool = False
    bridge: bool = False


def rolls_for_problems(noted: Noted) -> bool:
    """Only a ship with an unsaved hit on her card this turn rolls (IC-PROB-01)."""
    return bool(noted)


def needed(armour_left: int | None = None) -> dice.Needed:
    """The table as the roll's log reads it (the main text's rows, IC-PROB-10); for a ship with ``armour_left`` of
    3 or more, 9-10 is nothing (IC-PROB-05), so her log never reads "fire" on a roll that lit none."""
    if armour_left is not None and armour_left >= BURNS_BELOW_ARMOUR:
        return dice.table(
            f"2 steering, 3 smokestacks, 11-12 bridge (no fire: Armour {armour_left})",
            ((2, 2, STEERING), (3, 3, SMOKESTACKS), (4, 10, NOTHING), (11, 12, BRIDGE)),
            NOTHING,
        )
    return dice.table(
        "2 steering, 3 smokestacks, 9-10 fire (under 3 Armour), 11-12 bridge",
        ((2, 2, STEERING), (3, 3, SMOKESTACKS), (4, 8, NOTHING), (9, 10, FIRE), (11, 12, BRIDGE)),
        NOTHING,
    )


def problem(total: int, *, armour_left: int, steering_problems: int) -> Problem:
    """The row for a 2D6 total. ``steering_problems`` is how many steering results she already has: a second is
    major, and she cannot turn at all (IC-PROB-03)."""
    if not 2 <= total <= 12:
        raise ValueError(f"2D6 total 2 to 12, not {total}")
    if total == 2:
        if steering_problems:
            return Problem(total, MAJOR_STEERING, "IC-PROB-03", max_turn=0)
        return Problem(total, STEERING, "IC-PROB-02", max_turn=STEERING_HEXSIDES)
    if total == 3:
        return Problem(total, SMOKESTACKS, "IC-PROB-04", speed_cap=SMOKESTACK_SPEED)
    if total in (9, 10):
        if armour_left < BURNS_BELOW_ARMOUR:
            return Problem(total, FIRE, "IC-PROB-05", fire=True)
        return Problem(total, NOTHING, "IC-PROB-06")
    if total >= 11:
        return Problem(total, BRIDGE, "IC-PROB-07", bridge=True)
    return Problem(total, NOTHING, "IC-PROB-08")  # 4 to 8, the quick reference's 4 included (IC-PROB-10)


def fire_until(turn: int, face: int, burning_until: int = 0) -> int:
    """The last Game Turn a fire breaking out in ``turn`` halves her salvoes: the next 1D3 turns (IC-PROB-05).
    A fire already burning is not doubled: she burns until the later of the two."""
    return max(burning_until, turn + d3(face))


def on_fire(turn: int, burning_until: int) -> bool:
    """Does she halve her salvoes this turn (IC-FIRE-08)?"""
    return turn <= burning_until


def bridge_turn(turn: int) -> int:
    """The one Game Turn a bridge hit in ``turn`` freezes her orders: the next (IC-PROB-07). No turn and no chosen
    speed change then; a forced cut (IC-SPD-07) still happens, as the engines fail, not the orders."""
    return turn + 1


def sinks(data_card: DataCard) -> bool:
    """With no Hull left she sinks and is removed in the End Phase (IC-END-01)."""
    return data_card.left(HULL) == 0


def burns(data_card: DataCard) -> bool:
    """Could a 9 or 10 set her on fire: fewer than 3 Armour stats left (IC-PROB-05/06)?"""
    return data_card.left(ARMOUR) < BURNS_BELOW_ARMOUR
