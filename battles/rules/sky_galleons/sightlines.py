"""Line of sight, the optional rule (SG-LOS-01..08): may one ship fire at another past the ships between them?

Pure geometry over hexes and altitudes; the ruleset asks :func:`blocked_by` for every shot when the option
``line_of_sight`` is on (it is off by default: the basic rules never block fire, SG-LOS-01).

The map is flat-top axial hexes (battles.engine.hexgrid). Everything here is exact integer arithmetic: hex
centres and corners in a frame scaled so that both are whole numbers (x = 3q, y = 2r + q; a linear map of
the pixel plane, so it keeps lines, crossings and which side of a line a point lies on).

* The line of sight runs between the centres of the firer's and the target's hexes.
* Which hexsides of a hex the line crosses is decided on the line nudged by a tiny fixed step, as Red Blob
  Games' hex line drawing does (and ``hexgrid.line``: +1e-6 in q, +2e-6 in r), so a line passing exactly
  through a hex corner always falls to the same side of it. The one case the nudge must not decide is a
  line running exactly along a hexside: it touches both hexes sharing that hexside, and for each it is the
  "adjacent hexsides" case (the limit of a slanted line clipping a corner of each).
* Same altitude (SG-LOS-02/03): an intervening ship blocks if the line crosses two nonadjacent hexsides of
  its hex (:data:`THROUGH`); crossing two adjacent ones (:data:`GRAZE`) does not, but the line passing
  through any part of two hexes holding ships does.
* Different altitudes (SG-LOS-06/07/08): the lost altitude gauge is designed as a grid of boxes, one column
  per hex of distance from the firer and one row per altitude level. The line runs between the centres of
  the firer's and the target's boxes; an intervening ship blocks if the line passes inside the bottom half
  of its box and (the rule's reminder) crosses two nonadjacent hexsides of its hex; two ships whose boxes'
  bottom halves the line passes, both in hexes it touches, block together.

The readings are in data/optional-rules.json ``line_of_sight``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Final

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import DataFile
from galleons.record import ShipRecord, altitude_level

OPTIONAL_RULES = DataFile(Path(__file__).parent / "data" / "optional-rules.json")

# How the line of sight meets a hex.
MISSES: Final = "misses"
GRAZE: Final = "adjacent hexsides"  # a corner clipped, or along a hexside: SG-LOS-02's "adjacent" case
THROUGH: Final = "nonadjacent hexsides"  # crosses two hexsides that do not touch: SG-LOS-02 blocks

# A hex's corners in the scaled frame (x = 3q, y = 2r + q), clockwise on the map from the east corner.
_CORNERS: Final = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


@dataclass(frozen=True)
class Obstacle:
    """A ship that may stand in the way: its name, hex and altitude."""

    name: str
    hex: Hex
    altitude: str


@dataclass(frozen=True)
class Blocked:
    """Why the line of sight is blocked: the ships in the way and the clause that applies."""

    ships: tuple[str, ...]
    clause: str
    reason: str


def _scaled(hex_: Hex) -> tuple[int, int]:
    return 3 * hex_.q, 2 * hex_.r + hex_.q


def _nudge() -> tuple[int, int, int]:
    """The nudge in the scaled frame, as (dx, dy, scale): q and r steps of ``per``-ths of a hex."""
    q = OPTIONAL_RULES.whole("line_of_sight", "nudge", "q")
    r = OPTIONAL_RULES.whole("line_of_sight", "nudge", "r")
    return 3 * q, 2 * r + q, OPTIONAL_RULES.whole("line_of_sight", "nudge", "per")


def _orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
    """Which side of the line a->b the point c lies on: >0 one side, <0 the other, 0 on it."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _side(direction: int) -> tuple[int, int]:
    """The corner indices of the hexside facing hexgrid direction ``direction`` (0 = north, clockwise)."""
    first = (direction + 4) % 6
    return first, (first + 1) % 6


def _corners(hex_: Hex, scale: int = 1) -> list[tuple[int, int]]:
    x, y = _scaled(hex_)
    return [(scale * (x + cx), scale * (y + cy)) for cx, cy in _CORNERS]


def along_hexside(start: Hex, end: Hex, hex_: Hex) -> int | None:
    """The hexside of ``hex_`` (a hexgrid direction) the line from ``start`` to ``end`` runs along, if any:
    the line lies on the hexside's line and shares more than a point with it."""
    a, b = _scaled(start), _scaled(end)
    corners = _corners(hex_)
    for direction in range(6):
        i, j = _side(direction)
        c, d = corners[i], corners[j]
        if _orient(a, b, c) or _orient(a, b, d):
            continue
        # Collinear: overlap of more than a point along the line's own direction.
        axis = (b[0] - a[0], b[1] - a[1])

        def at(p: tuple[int, int], axis: tuple[int, int] = axis) -> int:
            return axis[0] * (p[0] - a[0]) + axis[1] * (p[1] - a[1])

        low, high = sorted((at(c), at(d)))
        if min(high, at(b)) > max(low, 0):
            return direction
    return None


def crossed_hexsides(start: Hex, end: Hex, hex_: Hex) -> frozenset[int]:
    """The hexsides of ``hex_`` (hexgrid directions) the nudged line from ``start`` to ``end`` crosses.

    The nudge moves the whole line off any hex corner it passes exactly through, always the same way, so
    every hexside is either crossed or not; never called for a line along a hexside (``along_hexside``).
    """
    dx, dy, per = _nudge()
    sx, sy = _scaled(start)
    ex, ey = _scaled(end)
    a, b = (per * sx + dx, per * sy + dy), (per * ex + dx, per * ey + dy)
    corners = _corners(hex_, per)
    crossed = set()
    for direction in range(6):
        i, j = _side(direction)
        c, d = corners[i], corners[j]
        if _orient(a, b, c) * _orient(a, b, d) < 0 and _orient(c, d, a) * _orient(c, d, b) < 0:
            crossed.add(direction)
    return frozenset(crossed)


@cache
def passage(start: Hex, end: Hex, hex_: Hex) -> str:
    """How the line of sight from ``start`` to ``end`` meets ``hex_`` (neither end's hex): :data:`MISSES`,
    :data:`GRAZE` (two adjacent hexsides, or along a hexside) or :data:`THROUGH` (two nonadjacent hexsides)."""
    if along_hexside(start, end, hex_) is not None:
        return GRAZE
    sides = sorted(crossed_hexsides(start, end, hex_))
    if not sides:
        return MISSES
    if len(sides) != 2:  # pragma: no cover - a line between two other hexes' centres enters and leaves once
        raise AssertionError(f"the line {start}-{end} crosses {len(sides)} hexsides of {hex_}")
    apart = (sides[1] - sides[0]) % 6
    return GRAZE if apart in (1, 5) else THROUGH


def touched(start: Hex, end: Hex) -> dict[Hex, str]:
    """Every hex between the two ends that the line of sight meets, and how (:func:`passage`)."""
    near = {n for h in hexgrid.line(start, end) for n in (h, *hexgrid.neighbours(h))} - {start, end}
    found = {}
    for hex_ in sorted(near):
        how = passage(start, end, hex_)
        if how != MISSES:
            found[hex_] = how
    return found


def bottom_half_crossed(distance: int, firer_altitude: str, target_altitude: str, at: int, altitude: str) -> bool:
    """On the altitude gauge (SG-LOS-06/08, designed): does the line from the centre of the firer's box
    (column 0, its altitude's row) to the centre of the target's (column ``distance``) pass inside the bottom
    half of the box at column ``at`` and ``altitude``'s row? Box edges and its middle line do not count."""
    y0, y1 = altitude_level(firer_altitude), altitude_level(target_altitude)
    level = altitude_level(altitude)
    if distance == 0:
        return False

    def height(x: Fraction) -> Fraction:
        return y0 + (y1 - y0) * x / distance

    half = Fraction(1, 2)
    left, right = max(Fraction(at) - half, Fraction(0)), min(Fraction(at) + half, Fraction(distance))
    if left >= right:
        return False
    low, high = sorted((height(left), height(right)))
    bottom, middle = level - half, Fraction(level)
    if low == high:
        return bottom < low < middle
    return low < middle and high > bottom


def obstacle(record: ShipRecord) -> Obstacle:
    assert record.position is not None, f"{record.name} is not on the map"
    return Obstacle(record.name, record.position, record.altitude)


def blocked_by(
    firer: Obstacle,
    target: Obstacle,
    others: Iterable[Obstacle],
    *,
    lob_gun: bool = False,
) -> Blocked | None:
    """Is the line of sight from ``firer`` to ``target`` blocked by ``others`` (SG-LOS-01..08)? None if clear.

    Ships in the firer's or the target's hex are not between them and never block."""
    if lob_gun and bool(OPTIONAL_RULES.get("line_of_sight", "lob_guns_fire_over")):
        return None
    if firer.hex == target.hex:
        return None
    met = touched(firer.hex, target.hex)
    level = firer.altitude == target.altitude
    distance = hexgrid.distance(firer.hex, target.hex)
    in_way: list[tuple[Obstacle, str]] = []
    for ship in others:
        how = met.get(ship.hex)
        if how is None or ship.name in (firer.name, target.name):
            continue
        if level:
            if ship.altitude != firer.altitude:
                continue  # the line runs level along the middle of its row: above or below it, clear
        elif not bottom_half_crossed(
            distance, firer.altitude, target.altitude, hexgrid.distance(firer.hex, ship.hex), ship.altitude
        ):
            continue
        in_way.append((ship, how))
    through = [ship.name for ship, how in in_way if how == THROUGH]
    if through:
        clause = "SG-LOS-02" if level else "SG-LOS-06"
        what = "two nonadjacent hexsides of its hex" if level else "the bottom half of its box"
        return Blocked(tuple(through), clause, f"{', '.join(through)} blocks the line of sight: it crosses {what}")
    hexes = {ship.hex for ship, _ in in_way}
    if len(hexes) >= 2:
        names = tuple(ship.name for ship, _ in in_way)
        return Blocked(
            names, "SG-LOS-03", f"the line of sight passes through {len(hexes)} hexes holding ships: {', '.join(names)}"
        )
    return None
