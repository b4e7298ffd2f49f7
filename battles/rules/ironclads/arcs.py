"""Gun arcs on hexes (IC-ARC-01..10; docs/ironclads.md "Fire and damage"). Pure geometry over plain hexes and
facings, so it needs no board.

The text lays an Arc Device (15 degrees, IC-ARC-10) against the base. On the map a ship fills her hex, and the
bearing of the target hex's centre is measured from her facing (clockwise positive, dead ahead 0):

- fixed arcs (IC-ARC-01..03): forward within 15 degrees of dead ahead, rear likewise astern, port and starboard
  the rest of each side. A target counts when "partly in", so each arc is widened by the target hex's half-width
  as seen from her (the angle half a hex subtends at the centre distance); a hex straddling a line is in both
  arcs, and each arc's guns may fire at it (IC-ARC-04 decision);
- turret arcs (IC-ARC-05/06): four quadrants of 90 degrees split by the base's diagonals; forward and rear
  partly (widened), broadsides wholly (narrowed). Every hex then lies in exactly one turret quadrant.

Turrets fire only into the arcs agreed for them before the game (IC-ARC-08/09, ``DataCard.bears``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Final

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.ironclads.cards import ARCS, FORWARD, PORT, REAR, STARBOARD, TURRETS, DataCard

ARC_DEVICE_DEGREES: Final = 15.0  # Appendix C: the forward and rear arcs' half-angle (IC-ARC-10)
QUADRANT_DEGREES: Final = 45.0  # the base's diagonals, taken as a square's (IC-ARC-05)

_SQRT3: Final = math.sqrt(3)
_HALF_HEX: Final = _SQRT3 / 2  # half the distance between neighbouring centres, in the pixel frame's units


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an order is not allowed: the clause and words a player can read (shared by salvo and damage)."""

    clause: str
    reason: str


def _ahead_and_right(ship: Hex, facing: int, target: Hex) -> tuple[float, float]:
    """The target's centre in the ship's frame: (ahead, to starboard), in the units of a hex of size 1."""
    if ship == target:
        raise ValueError("a ship does not fire at her own hex")
    v = hexgrid.rotate(target - ship, -facing)
    # Flat-top pixels with her bow pointing up (y grows downwards): x = 3/2 q, y = sqrt(3) (r + q/2).
    return -_SQRT3 * (v.r + v.q / 2), 1.5 * v.q


def bearing(ship: Hex, facing: int, target: Hex) -> float:
    """Degrees from dead ahead to the target hex's centre, clockwise (starboard) positive, in (-180, 180]."""
    ahead, right = _ahead_and_right(ship, facing, target)
    degrees = math.degrees(math.atan2(right, ahead))
    return 180.0 if degrees == -180.0 else degrees


def half_width(ship: Hex, target: Hex) -> float:
    """Degrees either side of its centre that the target's hex spans, seen from her centre (the "partly in")."""
    ahead, right = _ahead_and_right(ship, 0, target)
    return math.degrees(math.atan2(_HALF_HEX, math.hypot(ahead, right)))


def fixed_arcs(ship: Hex, facing: int, target: Hex) -> tuple[str, ...]:
    """The fixed gun arcs the target hex is partly or wholly in (IC-ARC-03), in the card's order. Usually one;
    two where the hex straddles a line (IC-ARC-04); a ship in the very next hex dead ahead or astern is wide
    enough to lie across both lines of that arc, so she is in three."""
    b, w = bearing(ship, facing, target), half_width(ship, target)
    edge = ARC_DEVICE_DEGREES
    port = 180.0 if b == 180.0 else -b  # the port side read as the starboard side's mirror image

    def broadside(side: float) -> bool:
        return side + w > edge and side - w < 180 - edge

    found = {
        FORWARD: abs(b) - w < edge,
        PORT: broadside(port),
        STARBOARD: broadside(b),
        REAR: abs(b) + w > 180 - edge,
    }
    return tuple(arc for arc in ARCS if found[arc])


def turret_arc(ship: Hex, facing: int, target: Hex) -> str:
    """The one turret quadrant the target hex counts as in (IC-ARC-06): forward or rear if partly in it, else
    the broadside it is then wholly in."""
    b, w = bearing(ship, facing, target), half_width(ship, target)
    if abs(b) - w < QUADRANT_DEGREES:
        return FORWARD
    if abs(b) + w > 180 - QUADRANT_DEGREES:
        return REAR
    return STARBOARD if b > 0 else PORT


def turret_bears(data_card: DataCard, turret: str, arc: str) -> bool:
    """Was this turret agreed to fire into this arc (IC-ARC-08/09)? A turret with no stats bears nowhere."""
    return arc in data_card.bears(turret)


@functools.lru_cache(maxsize=16384)
def _arcs_seen(offset: Hex, facing: int) -> tuple[tuple[str, ...], str]:
    """The fixed arcs and the turret quadrant of a hex ``offset`` from her, facing ``facing``. They depend on nothing
    else, so they are worked once per offset and facing (a few thousand within reach) for every look the phases,
    the forms, the map and the AI make."""
    origin = Hex(0, 0)
    return fixed_arcs(origin, facing, offset), turret_arc(origin, facing, offset)


def bearing_tracks(data_card: DataCard, ship: Hex, facing: int, target: Hex) -> tuple[str, ...]:
    """The gun tracks of hers that bear on the target hex: each fixed arc the target is in (IC-ARC-07), and each
    turret agreed to fire into the turret quadrant it is in (IC-ARC-08/09). Whether a track has stats left to fire
    is the salvo's question (IC-FIRE-04)."""
    if ship == target:
        raise ValueError("a ship does not fire at her own hex")
    fixed, quadrant = _arcs_seen(target - ship, facing % 6)
    turrets = tuple(t for t in TURRETS if turret_bears(data_card, t, quadrant))
    return fixed + turrets


def fired_into(target: Hex, target_facing: int, firer: Hex) -> tuple[str, ...]:
    """The target's own fixed arcs that hold the firer: the arc her hits were fired into (IC-DMG-11..13)."""
    return fixed_arcs(target, target_facing, firer)


def mirror(ship: Hex, facing: int, target: Hex) -> Hex:
    """The target hex reflected across her fore-and-aft line (port and starboard swapped): for symmetry checks."""
    v = hexgrid.rotate(target - ship, -facing)
    return ship + hexgrid.rotate(Hex(-v.q, v.r + v.q), facing)


SIDES: Final = {PORT: STARBOARD, STARBOARD: PORT, FORWARD: FORWARD, REAR: REAR}
