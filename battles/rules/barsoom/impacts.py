"""What a move runs into: another ship (a collision or a ram, BR-COL-01..03, BR-RAM-01..04) or the ground (a
landing or a crash, BR-LAND-01..05, BR-CLS-03). Pure; the damage they call for comes back as DamageOwed, never
applied (docs/barsoom.md section 5)."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from battles.rules.barsoom.board import STILL, Board, Ship
from battles.rules.barsoom.kinds import (
    COLLIDED,
    COLLISION,
    CRASH,
    CRASHED,
    HARD_LANDING,
    LANDED,
    RAMMED,
    RAMMED_SHIP,
    RAMMING,
)
from battles.rules.barsoom.owed import DamageOwed, fixed_rolls, owed


class Moved(NamedTuple):
    """What a card did: the board after it, what happened (kinds.MOVED ... COUNTERED), the damage owed, the ship she
    came into contact with (if any), the clauses applied, and why nothing happened when nothing did."""

    board: Board
    outcome: str
    damage: tuple[DamageOwed, ...] = ()
    contact: str = ""
    clauses: tuple[str, ...] = ()
    why: str = ""


class Impact(NamedTuple):
    """The ships as they are after the impact, what it was (kinds.COLLIDED, RAMMED_SHIP, LANDED, CRASHED) and the
    damage owed."""

    ships: tuple[Ship, ...]
    outcome: str
    damage: tuple[DamageOwed, ...]


def head_on(heading: int, other: Ship) -> bool:
    """Is ``other`` coming the opposite way to a ship travelling ``heading``? Only a ship moving this turn can
    meet another head-on (BR-COL-03, BR-RAM-03)."""
    return other.heading == (heading + 3) % 6


def contact(mover: Ship, run: int, heading: int, other: Ship, *, ram: bool) -> Impact:
    """``mover``, travelling ``heading`` after ``run`` Aheads (or Reverses) in a row, meets ``other`` at her level.

    A ram is intended bow or stern contact (BR-RAM-01): an Ahead brings the bow, a Reverse the stern, so any
    declared ram that makes contact is one. The rammer rolls d10-2 once for each move leading up to it, the rammed
    ship one D10+2, as the text writes it (BR-RAM-02/04). Unintended contact is a collision: both ships roll a d10
    for each move leading up to it (BR-COL-02). Head-on, the other ship's moves this turn are added (BR-COL-03,
    BR-RAM-03). Contact stops the mover, and a ship met head-on: her way is spent in the impact."""
    meeting = head_on(heading, other)
    count = run + (other.way.aheads + other.way.reverses if meeting else 0)
    if ram:
        damage = (
            owed(mover.name, count, RAMMING, "BR-RAM-03" if meeting else "BR-RAM-02"),
            owed(other.name, fixed_rolls(RAMMED), RAMMED, "BR-RAM-04"),
        )
    else:
        clause = "BR-COL-03" if meeting else "BR-COL-02"
        damage = (owed(mover.name, count, COLLISION, clause), owed(other.name, count, COLLISION, clause))
    stopped = replace(mover, way=STILL)
    met = replace(other, way=STILL) if meeting else other
    return Impact((stopped, met), RAMMED_SHIP if ram else COLLIDED, damage)


def touch_down(ship: Ship, *, forced: bool) -> Impact:
    """``ship`` has just come down to the ground (level 0), her way counting the Descends in a row that brought
    her there (this one included).

    By choice she lands (BR-LAND-01), safely after no more Descends in a row than her class takes (a capital ship
    2, the others 1: BR-CLS-03); more is a hard landing: landed, but a d10 for each of those Descends. Forced down
    (damage, out of control, a grapple dragging her: BR-LAND-05) she crashes: a d10 for each Descend in the row
    (BR-LAND-02/03), and she is a wreck that cannot move until repaired (BR-LAND-04)."""
    descends = ship.way.descends
    grounded = replace(ship, way=STILL._replace(descends=descends))
    if forced:
        crashed = replace(grounded, crashed=True, landed=False)
        clause = "BR-LAND-03"
        return Impact((crashed,), CRASHED, (owed(ship.name, descends, CRASH, clause),))
    landed = replace(grounded, landed=True)
    if descends <= ship.ship_class.safe_landing_descends:
        return Impact((landed,), LANDED, ())
    return Impact((landed,), LANDED, (owed(ship.name, descends, HARD_LANDING, "BR-CLS-03"),))
