"""Current speed against maximum speed (IC-SPD-01..11, IC-SEA-04, IC-PROB-04, IC-PROB-07, IC-MOV-08/09): which
speeds a ship may set when she is chosen to move (IC-SPD-08, docs/ironclads.md "Movement"). Pure.

A ship's maximum is her Propulsion left (IC-SPD-02), lowered to 6 in a rough sea (IC-SEA-04) or with wrecked
smokestacks (IC-PROB-04): her *ceiling*. Above her ceiling she must cut her speed by 2 each turn (IC-SPD-07), which
also answers a ship whose smokestacks are wrecked while she steams above 6: the steam fails as a lost Propulsion stat
would. Otherwise she may go up 1, keep her speed, or come down 1 or 2 (IC-SPD-05), between 0 and her ceiling. A
bridge hit forbids a chosen change for the one Game Turn (IC-PROB-07), not the forced cut: the engines fail, not the
orders.

Astern (IC-MOV-08/09): a ship going ahead must stop first (speed 0); from a later turn, that is from speed 0 at the
start of her move, she may go astern at speed 1 (never more, nor above her ceiling). Going astern she may keep it or
stop; to go ahead again she must stop again and wait a turn. A stopped ship is neither ahead nor astern.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from battles.engine.decisions import Rejection
from battles.rules.ironclads.cards import PROPULSION, DataCard

LIMITED_SPEED: Final = 6  # a rough sea (IC-SEA-04) and wrecked smokestacks (IC-PROB-04)
ASTERN_SPEED: Final = 1  # the most she backs at (IC-MOV-08)
FORCED_CUT: Final = 2  # IC-SPD-07
CHANGES: Final = (1, 0, -1, -2)  # the player's options each turn, in the text's order (IC-SPD-05)


class Setting(NamedTuple):
    """A current speed and whether she is going astern. Speed 0 is stopped, never astern."""

    speed: int
    astern: bool = False

    def __str__(self) -> str:
        if self.speed == 0:
            return "stopped"
        return f"{self.speed} astern" if self.astern else f"{self.speed} ahead"


STOPPED: Final = Setting(0)


def maximum(card: DataCard) -> int:
    """Her maximum speed: the Propulsion stats she has left (IC-SPD-02)."""
    return card.left(PROPULSION)


def ceiling(top: int, *, rough: bool = False, smokestacks: bool = False) -> int:
    """The most her current speed may be: her maximum, or 6 if the sea is rough or her smokestacks are wrecked."""
    return min(top, LIMITED_SPEED) if rough or smokestacks else top


def next_settings(
    current: Setting,
    top: int,
    *,
    rough: bool = False,
    smokestacks: bool = False,
    bridge: bool = False,
) -> tuple[Setting, ...]:
    """Every speed she may set this turn, the text's order (up, same, down 1, down 2; astern last).

    ``top`` is her maximum (Propulsion left); ``bridge``: her bridge was hit last turn (IC-PROB-07).
    """
    limit = ceiling(top, rough=rough, smokestacks=smokestacks)
    if current.speed > limit:  # IC-SPD-07: forced, whatever else holds her (astern, at 1, this stops her)
        return (Setting(max(current.speed - FORCED_CUT, 0)),)
    if bridge:  # IC-PROB-07: no new orders
        return (current,)
    if current.astern:  # IC-MOV-09: keep backing or stop
        return (current, STOPPED)
    speeds = [current.speed + change for change in CHANGES]
    found = [Setting(s) for s in speeds if 0 <= s <= limit]
    if current.speed == 0 and limit >= ASTERN_SPEED:  # IC-MOV-08: stopped since a turn before, so she may back
        found.append(Setting(ASTERN_SPEED, astern=True))
    return tuple(dict.fromkeys(found))


def judge(
    current: Setting,
    chosen: Setting,
    top: int,
    *,
    rough: bool = False,
    smokestacks: bool = False,
    bridge: bool = False,
) -> Rejection | None:
    """Why ``chosen`` is no speed she may set now, naming the clause; None when it is one."""
    legal = next_settings(current, top, rough=rough, smokestacks=smokestacks, bridge=bridge)
    if chosen in legal:
        return None
    limit = ceiling(top, rough=rough, smokestacks=smokestacks)
    if chosen.speed < 0 or (chosen.astern and chosen.speed == 0):
        return Rejection("IC-SPD-03", f"a current speed is a whole number from 0 up; not {chosen.speed}")
    if current.speed > limit:
        return Rejection("IC-SPD-07", f"at {current} above her maximum {limit} she must cut her speed by 2: {legal[0]}")
    if bridge:
        return Rejection("IC-PROB-07", f"her bridge was hit: she keeps {current} this turn")
    if chosen.astern and current.speed != 0:
        return Rejection("IC-MOV-08", "to go astern she must first stop, then back from a later turn")
    if chosen.astern:
        return Rejection("IC-MOV-08", f"astern she makes at most {min(ASTERN_SPEED, limit)}")
    if current.astern:
        return Rejection("IC-MOV-09", "to go ahead again she must first stop, then go ahead from a later turn")
    if chosen.speed > limit:
        clause = "IC-SEA-04" if rough and limit < top else "IC-PROB-04" if smokestacks and limit < top else "IC-SPD-03"
        return Rejection(clause, f"her current speed may not be above {limit}")
    return Rejection("IC-SPD-05", f"from {current} she may set {', '.join(str(s) for s in legal)}")
