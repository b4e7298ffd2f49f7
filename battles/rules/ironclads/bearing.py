"""Where a ship's guns bear, as the AI and the map's overlays estimate it until the fire rules (arcs.py) are wired:
the fixed arcs 15 degrees either side of bow and stern, the broadsides the rest, a target hex partly in an arc
counting (IC-ARC-04); turret quadrants of 90 degrees, forward and rear partly, the broadsides wholly (IC-ARC-06).
Measured from hex centre to hex centre; the zone of fire (ships and land between) is not looked at here. Pure."""

from __future__ import annotations

import math
from typing import Final

from battles.engine import hexgrid
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import ARCS, FORWARD, PORT, REAR, STARBOARD, TURRETS

HALF_HEX: Final = math.sqrt(3) / 2  # half a hex's width, in to_pixel units of size 1


def relative_bearing(ship: Ship, target: hexgrid.Hex) -> tuple[float, float]:
    """The target's bearing from her bow in degrees (-180..180, starboard positive) and the half-width of its hex
    seen from her, in degrees."""
    x0, y0 = hexgrid.to_pixel(ship.hex, 1.0)
    x1, y1 = hexgrid.to_pixel(target, 1.0)
    bearing = math.degrees(math.atan2(x1 - x0, y0 - y1))
    relative = (bearing - 60 * ship.facing + 180) % 360 - 180
    half = math.degrees(math.atan2(HALF_HEX, math.hypot(x1 - x0, y1 - y0)))
    return relative, half


def arcs_bearing(ship: Ship, target: hexgrid.Hex) -> frozenset[str]:
    """The fixed arcs the target is in, partly in counting (IC-ARC-04, her estimate)."""
    rel, half = relative_bearing(ship, target)
    off = abs(rel)
    found = set()
    if off <= 15 + half:
        found.add(FORWARD)
    if off >= 165 - half:
        found.add(REAR)
    if 15 - half < off < 165 + half:
        found.add(STARBOARD if rel > 0 else PORT)
    return frozenset(found)


def quadrants(ship: Ship, target: hexgrid.Hex) -> frozenset[str]:
    """The turret quadrants the target is in: forward and rear partly, the broadsides wholly (IC-ARC-06)."""
    rel, half = relative_bearing(ship, target)
    off = abs(rel)
    found = set()
    if off <= 45 + half:
        found.add(FORWARD)
    if off >= 135 - half:
        found.add(REAR)
    if 45 + half < off < 135 - half:
        found.add(STARBOARD if rel > 0 else PORT)
    return frozenset(found)


def bearing_stats(ship: Ship, target: hexgrid.Hex) -> int:
    """Her gun stats that bear on the target: each fixed arc it is in, each turret bearing into its quadrant."""
    fixed = arcs_bearing(ship, target)
    quadrant = quadrants(ship, target)
    guns = sum(ship.card.left(arc) for arc in ARCS if arc in fixed)
    return guns + sum(ship.card.left(t) for t in TURRETS if set(ship.card.bears(t)) & quadrant)


def tracks_bearing(ship: Ship, target: hexgrid.Hex) -> tuple[str, ...]:
    """Her gun tracks with stats left that bear on the target: each fixed arc it is in, each turret bearing into its
    quadrant."""
    fixed = arcs_bearing(ship, target)
    quadrant = quadrants(ship, target)
    found = [arc for arc in ARCS if arc in fixed and ship.card.left(arc)]
    return (*found, *(t for t in TURRETS if ship.card.left(t) and set(ship.card.bears(t)) & quadrant))
