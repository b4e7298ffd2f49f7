"""Hex geometry in axial coordinates (after Red Blob Games' hex guide). Pure, shared by every map.

Axial ``Hex(q, r)``; the third cube coordinate is ``s = -q - r``.

Directions are numbered 0-5 clockwise, always over the same six axial steps (``DIRECTIONS``), so facing,
rotation, aspects and paths never depend on how the map is drawn. Only the compass names and the pixel
layout depend on the orientation:

- flat-top (the tactical map and the strategic map): direction 0 is the north (top) hexside, then
  1 NE, 2 SE, 3 S, 4 SW, 5 NW. The wind die (DESIGN.md "Wind": 1 = north, then clockwise) is
  ``direction = die - 1``.
- pointy-top: the top is a vertex; direction 0 is the hexside just anticlockwise of it, then
  0 NW, 1 NE, 2 E, 3 SE, 4 SW, 5 W.

Offset coordinates: the strategic map file is flat-top "odd-q" (odd columns shoved down half a hex).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import NamedTuple


class Hex(NamedTuple):
    """A hex in axial coordinates. A named tuple: made, hashed and compared in C, as the AI and the rules do
    hundreds of thousands of times a battle (issue 21); it hashes, orders and compares as the (q, r) tuple the
    frozen dataclass it replaces did, so sets and sorts of hexes come out in the same order."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    # Vector sum, not the tuple's concatenation: a hex plus a direction is the hex that way.
    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def to_json(self) -> list[int]:
        return [self.q, self.r]

    @classmethod
    def from_json(cls, data: object) -> Hex:
        if not (isinstance(data, list | tuple) and len(data) == 2 and all(type(v) is int for v in data)):
            raise ValueError(f"not an axial hex: {data!r}")
        return cls(data[0], data[1])


ORIGIN = Hex(0, 0)

# Clockwise; index 0 is north on a flat-top map.
DIRECTIONS: tuple[Hex, ...] = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))


class Orientation(StrEnum):
    FLAT_TOP = "flat-top"
    POINTY_TOP = "pointy-top"


DIRECTION_NAMES: dict[Orientation, tuple[str, ...]] = {
    Orientation.FLAT_TOP: ("N", "NE", "SE", "S", "SW", "NW"),
    Orientation.POINTY_TOP: ("NW", "NE", "E", "SE", "SW", "W"),
}


def direction_name(direction: int, orientation: Orientation = Orientation.FLAT_TOP) -> str:
    return DIRECTION_NAMES[orientation][direction % 6]


# --- basic geometry -------------------------------------------------------------------------------


def neighbour(hex_: Hex, direction: int) -> Hex:
    return hex_ + DIRECTIONS[direction % 6]


def neighbours(hex_: Hex) -> list[Hex]:
    return [hex_ + step for step in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r  # cube coordinates' third is -(q + r); no Hex made: the AI asks this a lot
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate_facing(facing: int, steps: int) -> int:
    """Turn a facing by ``steps`` hexsides, positive = clockwise (starboard), negative = port."""
    return (facing + steps) % 6


def rotate(hex_: Hex, steps: int, centre: Hex = ORIGIN) -> Hex:
    """Rotate a hex about ``centre`` by ``steps`` sixths of a turn, positive = clockwise."""
    v = hex_ - centre
    q, r, s = v.q, v.r, v.s
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q  # one sixth clockwise in cube coordinates
    return centre + Hex(q, r)


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` away: 6 x radius of them, clockwise from the one due south-west."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [centre]
    result = []
    hex_ = centre + Hex(DIRECTIONS[4].q * radius, DIRECTIONS[4].r * radius)
    for side in range(6):
        for _ in range(radius):
            result.append(hex_)
            hex_ = neighbour(hex_, side)
    return result


def within(centre: Hex, radius: int) -> list[Hex]:
    """Every hex at distance <= ``radius``, the centre first, ring by ring."""
    return [h for n in range(radius + 1) for h in ring(centre, n)]


def cube_round(fq: float, fr: float) -> Hex:
    """The hex holding the fractional axial point (fq, fr) (Red Blob Games' cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from ``a`` to ``b`` passes through, both ends included.

    Sampled by linear interpolation; both ends are nudged by an unequal epsilon on each cube axis
    (q +1e-6, r +2e-6, s -3e-6), so that a line running exactly along a hexside never rounds to a tie
    and always falls to the same side.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a.q + 1e-6, a.r + 2e-6
    bq, br = b.q + 1e-6, b.r + 2e-6
    return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def direction_to(a: Hex, b: Hex) -> int:
    """The direction from ``a`` whose 60-degree wedge (centred on that hexside) holds ``b``.

    For a neighbour this is exactly the step between them. A hex lying on the line between two wedges
    goes to the clockwise one, so the answer is always unique.
    """
    if a == b:
        raise ValueError("no direction from a hex to itself")
    for d in range(6):
        v = rotate(b - a, -d)
        # In the frame where direction d points north: inside the wedge, its anticlockwise edge included.
        ahead = -(2 * v.r + v.q)
        if -3 * v.q <= ahead and 3 * v.q < ahead:
            return d
    raise AssertionError("unreachable: the six wedges cover the plane")


# --- firing aspects ---------------------------------------------------------------------------------


class Aspect(StrEnum):
    BOW = "bow"
    STARBOARD = "starboard"
    STERN = "stern"
    PORT = "port"


ALL_ASPECTS: frozenset[Aspect] = frozenset(Aspect)


def aspects(ship: Hex, facing: int, target: Hex) -> frozenset[Aspect]:
    """Which of the ship's firing aspects hold ``target`` (SG-FACE-04, SG-FACE-05 stand-in).

    DESIGN.md "Firing aspects": bow is the 60-degree wedge centred ahead, stern the 60-degree wedge
    astern, the broadsides the 120-degree wedges between. A hex centre exactly on a dividing line is in
    both aspects. The target's own hex is in every aspect: who is where inside one hex is declared
    (SG-MOV-05), not computed. Exact integer arithmetic, no floating point at the boundaries.
    """
    if ship == target:
        return ALL_ASPECTS
    return _aspects_towards(target.q - ship.q, target.r - ship.r, facing % 6)


@functools.lru_cache(maxsize=1 << 16)
def _aspects_towards(dq: int, dr: int, facing: int) -> frozenset[Aspect]:
    """The aspects of a ship facing ``facing`` that hold the hex (dq, dr) away. Kept: they depend on that
    offset alone, and the AI weighs the same bearings for every spot it could end a move in."""
    v = rotate(Hex(dq, dr), -facing)
    # Pixel frame of a flat-top map with the bow pointing up: x = 3/2 q, y = sqrt(3) (r + q/2);
    # the dividing lines are at 30 degrees either side of the bow and of the stern.
    ahead = -(2 * v.r + v.q)  # proportional to -y / sqrt(3) * 2
    side = 3 * v.q  # proportional to x, on the same scale
    found = set()
    if ahead >= abs(side):
        found.add(Aspect.BOW)
    if -ahead >= abs(side):
        found.add(Aspect.STERN)
    if side >= abs(ahead):
        found.add(Aspect.STARBOARD)
    if -side >= abs(ahead):
        found.add(Aspect.PORT)
    return frozenset(found)


def relative_positions(facing: int, other_facing: int) -> frozenset[tuple[Aspect, Aspect]]:
    """Two ships sharing a hex: every possible (aspect the other is in, aspect I am in of his).

    For the declaration of SG-MOV-05/06. Every aspect boundary lies at an odd multiple of 30 degrees
    from a hexside direction, so sampling the twelve bearings of ring 2 (each 30 degrees) visits every
    boundary and every open wedge between them.
    """
    found = set()
    for offset in ring(ORIGIN, 2):
        back = Hex(-offset.q, -offset.r)
        for mine in aspects(ORIGIN, facing, offset):
            for theirs in aspects(ORIGIN, other_facing, back):
                found.add((mine, theirs))
    return frozenset(found)


# --- offset coordinates and pixels --------------------------------------------------------------


def from_odd_q(col: int, row: int) -> Hex:
    """Flat-top odd-q offset (the strategic map file) to axial."""
    return Hex(col, row - (col - (col & 1)) // 2)


def to_odd_q(hex_: Hex) -> tuple[int, int]:
    """Axial to flat-top odd-q offset: (col, row)."""
    return hex_.q, hex_.r + (hex_.q - (hex_.q & 1)) // 2


def to_pixel(hex_: Hex, size: float, orientation: Orientation = Orientation.FLAT_TOP) -> tuple[float, float]:
    """Centre of the hex in screen pixels (y grows downwards), ``size`` = centre to corner."""
    if orientation is Orientation.FLAT_TOP:
        return size * 1.5 * hex_.q, size * math.sqrt(3) * (hex_.r + hex_.q / 2)
    return size * math.sqrt(3) * (hex_.q + hex_.r / 2), size * 1.5 * hex_.r


def rectangle_odd_q(cols: int, rows: int) -> Iterator[Hex]:
    """Every hex of a cols x rows flat-top odd-q map, column by column."""
    for col in range(cols):
        for row in range(rows):
            yield from_odd_q(col, row)


# --- pathfinding ------------------------------------------------------------------------------------


def find_path(
    start: Hex,
    goal: Hex,
    *,
    cost: Callable[[Hex, Hex], float],
    passable: Callable[[Hex], bool],
    min_step_cost: float = 1.0,
    max_expansions: int = 100_000,
) -> list[Hex] | None:
    """A* from ``start`` to ``goal``: the cheapest path as a list of hexes (both ends), or None.

    ``cost(a, b)`` is the price of stepping from ``a`` to its neighbour ``b``; ``passable(h)`` bounds the
    map. ``min_step_cost`` must not exceed any step's cost, or the heuristic overestimates and the path
    may not be the cheapest. ``max_expansions`` stops the search on an unbounded ``passable``. Ties are
    broken by insertion order, so the same inputs always give the same path.
    """
    if not passable(goal) or not passable(start):
        return None
    counter = itertools.count()
    frontier: list[tuple[float, int, Hex]] = [(0.0, next(counter), start)]
    came_from: dict[Hex, Hex | None] = {start: None}
    best: dict[Hex, float] = {start: 0.0}
    expansions = 0
    while frontier:
        _, _, current = heapq.heappop(frontier)
        if current == goal:
            path = [current]
            while (previous := came_from[path[-1]]) is not None:
                path.append(previous)
            return path[::-1]
        expansions += 1
        if expansions > max_expansions:
            return None
        for step in DIRECTIONS:
            nxt = current + step
            if not passable(nxt):
                continue
            price = best[current] + cost(current, nxt)
            if nxt not in best or price < best[nxt]:
                best[nxt] = price
                came_from[nxt] = current
                heapq.heappush(frontier, (price + distance(nxt, goal) * min_step_cost, next(counter), nxt))
    return None
