"""The Zone of Fire and the range (IC-ZOF-01..04; docs/ironclads.md "Fire and damage").

The text's zone is the widest area between lines joining the two bases' outer corners. A ship fills her hex, so
the zone is every hex that either of two straight lines between the two centres passes through, the lines nudged
by +epsilon and -epsilon so that a line running along a hexside takes the hexes on both sides of it (the widest
area); computed exactly, as the hexes holding a stretch of the centre line, so a hex the line cuts across a
corner of counts, and one it only touches at a corner does not. The two ships' own hexes are not in it. Any ship
or land hex in the zone blocks fire at that target (IC-ZOF-02). Range is the hex distance, standing for 4 cm a hex
(IC-ZOF-04), banded by ``scale.band``; beyond 25 hexes (100 cm) no gun reaches (IC-ZOF-03).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection
from typing import Final

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import scale

_SQRT3: Final = math.sqrt(3)
_APOTHEM: Final = _SQRT3 / 2  # centre to side of a hex of size 1 (centre to corner)
_SIDE_NORMALS: Final = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(30, 360, 60))
_TOUCH: Final = 1e-9  # how far outside a side still counts as on it
_STRETCH: Final = 1e-6  # the least length of line inside a hex that is more than touching a corner

Point = tuple[float, float]


def _pixel(hex_: Hex) -> Point:
    return 1.5 * hex_.q, _SQRT3 * (hex_.r + hex_.q / 2)


def _stretch_inside(start: Point, end: Point, centre: Point) -> float:
    """The length of the segment lying inside the closed hex at ``centre`` (Cyrus-Beck clipping against its six
    sides), 0 when it misses."""
    low, high = 0.0, 1.0
    dx, dy = end[0] - start[0], end[1] - start[1]
    for nx, ny in _SIDE_NORMALS:
        at = (start[0] - centre[0]) * nx + (start[1] - centre[1]) * ny  # inside while at + t * rate <= apothem
        rate = dx * nx + dy * ny
        room = _APOTHEM + _TOUCH - at
        if rate == 0:
            if room < 0:
                return 0.0
        elif rate > 0:
            high = min(high, room / rate)
        else:
            low = max(low, room / rate)
    return max(0.0, high - low) * math.hypot(dx, dy)


def _passes_through(a: Hex, b: Hex) -> frozenset[Hex]:
    """Every hex holding a stretch of the straight line between the two centres: the hexes either line nudged
    by +epsilon or -epsilon passes through (a line along a hexside takes both sides), and not a hex the line only
    touches at a corner. More than hexgrid.line's sampled n + 1 where the line cuts across a hex's corner."""
    start, end = _pixel(a), _pixel(b)
    near = {n for h in hexgrid.line(a, b) for n in (h, *hexgrid.neighbours(h))}
    return frozenset(h for h in near if _stretch_inside(start, end, _pixel(h)) > _STRETCH)


@functools.lru_cache(maxsize=8192)
def _zone_from_origin(offset: Hex) -> tuple[Hex, ...]:
    """The zone between the origin and ``offset``, both excluded. The zone depends only on where the target lies
    from the firer, so every pair of hexes the same way apart shares it: computed once per offset (a few thousand
    within the guns' reach) rather than once per look, which the phases, the forms, the map and the AI make
    hundreds of thousands of times a battle."""
    origin = Hex(0, 0)
    return tuple(sorted(_passes_through(origin, offset) - {origin, offset}))


@functools.lru_cache(maxsize=8192)
def _zone_set(offset: Hex) -> frozenset[Hex]:
    return frozenset(_zone_from_origin(offset))


def zone_of_fire(firer: Hex, target: Hex) -> frozenset[Hex]:
    """The hexes between the two ships that must be clear (IC-ZOF-01), both ships' own hexes excluded."""
    if firer == target:
        raise ValueError("a ship does not fire at her own hex")
    return frozenset(firer + h for h in _zone_from_origin(target - firer))


def blocking(firer: Hex, target: Hex, obstacles: Collection[Hex]) -> tuple[Hex, ...]:
    """The ship and land hexes in the zone (IC-ZOF-02), in a fixed order; none means the zone is clear."""
    if not obstacles:
        return ()
    return tuple(sorted(zone_of_fire(firer, target) & set(obstacles)))


def clear(firer: Hex, target: Hex, obstacles: Collection[Hex]) -> bool:
    """May she see to fire at the target: no ship (friend or foe) and no land in the zone (IC-ZOF-02)."""
    if firer == target:
        raise ValueError("a ship does not fire at her own hex")
    if not obstacles:
        return True
    offset = target - firer
    q, r = firer
    if isinstance(obstacles, (set, frozenset)) and len(_zone_from_origin(offset)) < len(obstacles):
        # fewer hexes between than obstacles (a close target, a crowded sea): look up each hex between instead
        return not any((q + h[0], r + h[1]) in obstacles for h in _zone_from_origin(offset))
    between = _zone_set(offset)
    return not any((o[0] - q, o[1] - r) in between for o in obstacles)  # a Hex is the (q, r) tuple it compares as


def range_hexes(firer: Hex, target: Hex) -> int:
    """The range in hexes, measured across anything between (IC-ZOF-04)."""
    return hexgrid.distance(firer, target)


def range_cm(firer: Hex, target: Hex) -> int:
    """The range as the text's table would read it, 4 cm a hex (IC-ZOF-04)."""
    return scale.to_cm(range_hexes(firer, target))


def range_band(firer: Hex, target: Hex) -> str | None:
    """Close, middle or long (IC-FIRE-09..11, IC-SAVE-03..05), or None beyond the guns' reach (IC-ZOF-03)."""
    return scale.band(range_hexes(firer, target))
