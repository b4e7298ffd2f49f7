"""The Sky Galleons battle map as SVG: terrain, ships as counters, the wind, and overlays on request.

:func:`hexmap` computes every coordinate from the board JSON a side may see (``SkyGalleons.board_view``);
the template ``battles/_hexmap.svg`` only writes them out; :func:`render_hexmap` does both.

The board keeps hexes in axial coordinates (``[q, r]``); the map is flat-top "odd-q" (scenarios and the
paper map count ``[col, row]``). Pixels are ``hexgrid.to_pixel`` exactly, in a viewBox whose origin is the
centre of hex (0, 0), so a page script can turn a counter's ``data-q``/``data-r`` into pixels with the same
formula. Facing and wind follow hexgrid's numbering: 0 is north (up), clockwise in sixths of a turn.

Overlays, each only when asked for:

* the firing arcs of a selected ship's gun: every map hex within its long range (the whole map for a gun with
  no range) lying in one of the gun's aspects by ``hexgrid.aspects`` (SG-FACE-04/05; DESIGN.md "Firing
  aspects": bow and stern 60 degrees, the broadsides 120), shaded by range band, with the aspect's dividing
  lines drawn where an arc ends;
* the gun's range rings: the hexes exactly at its close and its long range (SG-FIRE-07/08). The bands are
  the plain hex distance; a shot across altitudes counts further (SG-FIRE-17), which the shot's own odds say;
* a planned move: the hexes it passes through, in order.

Accessibility: the root ``<svg>`` is a labelled group (``role="group"``, ``aria-roledescription="map"``)
rather than an image, because an image's children are presentational and the ship counters must stay
reachable; the terrain layer is the ``role="img"`` with the map's description. Each counter is focusable
(``tabindex="0"``, ``role="button"``, ``aria-label``) and carries ``data-ship``, ``data-side``, ``data-q``,
``data-r``, ``data-col``, ``data-row``, ``data-facing``, ``data-altitude``, ``data-state`` and its hex's
pixel centre ``data-cx``/``data-cy`` for the page's script.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.words import capfirst
from galleons import catalog
from galleons.record import table

SIZE = 24.0  # pixels from a hex's centre to a corner
SQRT3 = math.sqrt(3)

# Side colours by the scenario's side order; white text on each keeps 4.5:1 contrast (WCAG AA).
SIDE_COLOURS = ("#234a5c", "#8a3412", "#2f5d3a", "#5b3a78", "#6e5310", "#4a4a4a")

# Why a ship is out of the fight (the ruleset's board.out) or how she rests (her record's status), as the map
# says it. A ship that left the map is not drawn on it.
STATE_WORDS = {
    "struck": "colours struck",
    "captured": "captured",
    "crashed": "crashed",
    "crash-landed": "crash-landed",
    "landed": "landed",
    "escaped": "left the map",
}
GONE = "escaped"

# Dividing lines between aspects, in degrees clockwise from the bow, with the aspects either side
# (hexgrid.aspects: 30 degrees either side of the bow and of the stern).
DIVIDERS: tuple[tuple[int, str, str], ...] = (
    (30, "bow", "starboard"),
    (150, "starboard", "stern"),
    (210, "stern", "port"),
    (330, "port", "bow"),
)


# --- the pieces the template writes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Layer:
    """Hexes drawn as one path (terrain of one height, a zone, an overlay band)."""

    css: str
    d: str
    title: str


@dataclass(frozen=True)
class Counter:
    """One ship on the map: where the counter is drawn (``x``, ``y``) and the centre of its hex."""

    name: str
    label: str
    side: str
    side_name: str
    colour: str
    x: str
    y: str
    cx: str
    cy: str
    radius: str
    q: int
    r: int
    col: int
    row: int
    facing: int
    rotation: int
    altitude: str
    state: str
    css: str
    title: str
    emplacement: bool
    selected: bool
    # Shapes relative to the counter's centre: the facing arrow (pointing north, the template rotates it),
    # a ground target's square body, the altitude badge, and the mark of a struck, wrecked or landed ship.
    arrow: str
    square: str
    badge: tuple[str, str, str, str]
    badge_text: tuple[str, str]
    badge_font: str
    label_y: str
    font_size: str
    mark: str
    mark_css: str


@dataclass(frozen=True)
class Ray:
    x1: str
    y1: str
    x2: str
    y2: str


@dataclass(frozen=True)
class PathPreview:
    points: str
    steps: tuple[tuple[str, str], ...]
    end: Layer
    title: str


@dataclass(frozen=True)
class Wind:
    x: str
    y: str
    rotation: int
    label: str
    title: str


@dataclass(frozen=True)
class CoordinateLabel:
    x: str
    y: str
    text: str


@dataclass(frozen=True)
class HexMap:
    uid: str
    viewbox: str
    width: str
    height: str
    size: str
    cols: int
    rows: int
    title: str
    label: str
    desc: str
    terrain_label: str
    grid: str
    heights: tuple[Layer, ...]
    zones: tuple[Layer, ...]
    arcs: tuple[Layer, ...]
    arc_rays: tuple[Ray, ...]
    rings: tuple[Layer, ...]
    path: PathPreview | None
    counters: tuple[Counter, ...]
    wind: Wind | None
    coordinates: tuple[CoordinateLabel, ...]


# --- small helpers ------------------------------------------------------------------------------------------


def num(value: float) -> str:
    """A pixel value as short SVG text: two decimals at most, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def centre(hex_: Hex, size: float = SIZE) -> tuple[float, float]:
    """The hex's centre in the map's pixels (``hexgrid.to_pixel``, flat-top)."""
    return hexgrid.to_pixel(hex_, size)


@cache
def _outline_steps(size: float) -> str:
    """A flat-top hexagon's outline after its first corner, as relative path steps (the same for every hex):
    corners at 0, 60, ... 300 degrees from the centre."""
    corners = [(size * math.cos(math.radians(60 * i)), size * math.sin(math.radians(60 * i))) for i in range(6)]
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(corners)]
    return "".join(f"l{num(dx)} {num(dy)}" for dx, dy in steps) + "z"


def hexes_path(hexes: Iterable[Hex], size: float = SIZE) -> str:
    """The outlines of ``hexes`` as one path's data, each from its east corner."""
    steps = _outline_steps(size)
    return "".join(f"M{num(x + size)} {num(y)}{steps}" for x, y in (centre(h, size) for h in sorted(hexes)))


def _hex(value: Any) -> Hex | None:
    if isinstance(value, Hex):
        return value
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return Hex(value[0], value[1])
    return None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "zone"


def altitude_name(code: str | None) -> str:
    names: Mapping[str, str] = table("altitude", "names")
    return names.get(code or "", code or "unknown altitude")


def hex_label(hex_: Hex) -> str:
    """The hex as the scenarios and the paper map count it: column and row."""
    col, row = hexgrid.to_odd_q(hex_)
    return f"{col},{row}"


def counter_labels(names: Sequence[str]) -> dict[str, str]:
    """Short labels for counters: a numbered ship by initial and number ("Hullcutter 2" -> "H2"), another by
    its first two letters ("Triumph" -> "Tr"); lengthened where two ships on the board would share one."""

    def short(name: str, extra: int) -> str:
        words = name.split()
        if len(words) > 1 and words[-1].isdigit():
            return words[0][: 1 + extra] + words[-1]
        return name.replace(" ", "")[: 2 + extra]

    labels: dict[str, str] = {}
    for name in names:
        extra = 0
        while True:
            label = short(name, extra)
            clash = any(short(other, extra) == label for other in names if other != name)
            if not clash or extra >= len(name):
                break
            extra += 1
        labels[name] = label
    return labels


# --- the map ------------------------------------------------------------------------------------------------


def hexmap(
    board: Mapping[str, Any],
    *,
    selected: str | None = None,
    gun: str | None = None,
    arcs: bool = False,
    rings: bool = False,
    path: Sequence[Hex | Sequence[int]] = (),
    coordinates: bool = False,
    size: float = SIZE,
    uid: str = "hexmap",
) -> HexMap:
    """Everything the map template draws, from the board JSON a side may see.

    ``selected`` names a ship to highlight; with ``gun`` (one of its gun ids) ``arcs`` shades the gun's firing
    arcs and ``rings`` outlines its close and long range. ``path`` is a planned move's hexes in order (axial
    ``Hex`` or ``[q, r]``), its start first. ``coordinates`` writes each hex's column and row. ``uid`` keeps
    the element ids unique when a page holds several maps.
    """
    terrain = board["terrain"]
    cols, rows = int(terrain["cols"]), int(terrain["rows"])
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    xs, ys = zip(*(centre(h, size) for h in on_map), strict=True)
    band = 2.4 * size  # room above the map for the wind rose
    min_x, min_y = min(xs) - size * 1.25, min(ys) - size * SQRT3 / 2 - band
    width, height = max(xs) + size * 1.25 - min_x, max(ys) + size * SQRT3 / 2 + size * 0.5 - min_y
    grid = hexes_path(on_map, size)

    by_level: dict[str, list[Hex]] = {}
    for q, r, level in terrain.get("heights", []):
        by_level.setdefault(str(level), []).append(Hex(int(q), int(r)))
    heights = tuple(
        Layer(
            f"hexmap__height hexmap__height--{level}", hexes_path(hexes, size), f"Land rising to {altitude_name(level)}"
        )
        for level, hexes in sorted(by_level.items(), key=lambda item: _level_index(item[0]))
    )
    zones = tuple(
        Layer(
            f"hexmap__zone hexmap__zone--{_slug(name)}",
            hexes_path((h for h in (_hex(v) for v in hexes) if h is not None), size),
            capfirst(name),
        )
        for name, hexes in sorted(terrain.get("zones", {}).items())
    )

    ships = [s for s in board["ships"] if _drawn(board, s, on_map)]
    counters = _counters(board, ships, selected, size)
    target = next((s for s in ships if s["name"] == selected), None)
    arc_layers: tuple[Layer, ...] = ()
    rays: tuple[Ray, ...] = ()
    ring_layers: tuple[Layer, ...] = ()
    if target is not None and gun is not None:
        found = next((g for g in target.get("guns") or [] if g.get("id") == gun), None)
        if found is not None:
            if arcs:
                arc_layers, rays = _arcs(target, found, on_map, size)
            if rings:
                ring_layers = _rings(target, found, on_map, size)

    wind = _wind(board.get("wind"), max(xs) + size * 0.25, min(ys) - size * SQRT3 / 2 - band / 2, size)
    off = [s["name"] for s in board["ships"] if not _drawn(board, s, on_map)]
    title = str(board.get("title") or "Battle map")
    label = f"{title}: a map of {cols} by {rows} hexes with {_count(len(counters), 'ship')}" + (
        f"; {wind.title.lower()}" if wind else ""
    )
    desc = "; ".join(c.title for c in counters)
    if off:
        desc += ("; " if desc else "") + "not on the map: " + ", ".join(off)
    terrain_parts = [f"{cols} by {rows} hexes"]
    terrain_parts += [layer.title.lower() for layer in heights]
    terrain_parts += [f"zone: {layer.title}" for layer in zones]
    return HexMap(
        uid=uid,
        viewbox=" ".join(num(v) for v in (min_x, min_y, width, height)),
        width=num(width),
        height=num(height),
        size=num(size),
        cols=cols,
        rows=rows,
        title=title,
        label=label,
        desc=desc,
        terrain_label="Terrain: " + "; ".join(terrain_parts),
        grid=grid,
        heights=heights,
        zones=zones,
        arcs=arc_layers,
        arc_rays=rays,
        rings=ring_layers,
        path=_path(path, size),
        counters=counters,
        wind=wind,
        coordinates=_coordinates(on_map, size) if coordinates else (),
    )


def render_hexmap(board: Mapping[str, Any], **options: Any) -> SafeString:
    """The map as SVG markup to put in a page (see :func:`hexmap` for the options)."""
    return SafeString(render_to_string("battles/_hexmap.svg", {"map": hexmap(board, **options)}).strip())


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('x') else 's'}"


def _level_index(level: str) -> int:
    levels: Sequence[str] = table("altitude", "levels_low_to_high")
    return levels.index(level) if level in levels else len(levels)


def _drawn(board: Mapping[str, Any], ship: Mapping[str, Any], on_map: set[Hex]) -> bool:
    """On the map: placed, on a map hex, and not gone off it."""
    hex_ = _hex(ship.get("position"))
    return hex_ is not None and hex_ in on_map and board.get("out", {}).get(ship["name"]) != GONE


def _state(board: Mapping[str, Any], ship: Mapping[str, Any]) -> str:
    out = board.get("out", {}).get(ship["name"])
    if out:
        return str(out)
    status = str(ship.get("status") or "flying")
    return "" if status == "flying" else status


def _counters(
    board: Mapping[str, Any], ships: Sequence[Mapping[str, Any]], selected: str | None, size: float
) -> tuple[Counter, ...]:
    order: list[str] = list(board.get("side_order", []))
    names: Mapping[str, str] = board.get("side_names", {})
    captured: Mapping[str, str] = board.get("captured", {})
    labels = counter_labels([s["name"] for s in ships])
    stacks: dict[Hex, list[Mapping[str, Any]]] = {}
    for ship in ships:
        hex_ = _hex(ship["position"])
        assert hex_ is not None  # _drawn let only placed ships through
        stacks.setdefault(hex_, []).append(ship)

    counters: list[Counter] = []
    for hex_, stack in stacks.items():
        cx, cy = centre(hex_, size)
        n = len(stack)
        # Ships sharing a hex are drawn smaller, round its centre, so that each stays visible and clickable.
        radius = size * (0.62 if n == 1 else 0.4)
        spread = 0.0 if n == 1 else size * 0.42
        for i, ship in enumerate(stack):
            angle = math.radians(-90 + 360 * i / n)
            x, y = cx + spread * math.cos(angle), cy + spread * math.sin(angle)
            side = str(ship.get("side", ""))
            index = order.index(side) if side in order else len(order)
            facing = int(ship.get("facing") or 0) % 6
            state = _state(board, ship)
            col, row = hexgrid.to_odd_q(hex_)
            mods = [state] if state else []
            if ship.get("fire"):
                mods.append("burning")
            if ship.get("emplacement"):
                mods.append("emplacement")
            if ship["name"] == selected:
                mods.append("selected")
            title = _title(ship, names.get(side, side), state, captured.get(ship["name"]), hex_, facing)
            counters.append(
                Counter(
                    name=ship["name"],
                    label=labels[ship["name"]],
                    side=side,
                    side_name=names.get(side, side),
                    colour=SIDE_COLOURS[index % len(SIDE_COLOURS)],
                    x=num(x),
                    y=num(y),
                    cx=num(cx),
                    cy=num(cy),
                    radius=num(radius),
                    q=hex_.q,
                    r=hex_.r,
                    col=col,
                    row=row,
                    facing=facing,
                    rotation=60 * facing,
                    altitude=str(ship.get("altitude") or "?"),
                    state=state,
                    css=" ".join(f"counter--{m}" for m in mods),
                    title=title,
                    emplacement=bool(ship.get("emplacement")),
                    selected=ship["name"] == selected,
                    arrow=_arrow(radius),
                    square=_square(radius),
                    badge=(num(radius * 0.2), num(radius * 0.32), num(radius * 1.05), num(radius * 0.78)),
                    badge_text=(num(radius * 0.725), num(radius * 0.93)),
                    badge_font=num(radius * 0.55),
                    label_y=num(radius * 0.2),
                    font_size=num(radius * 0.72),
                    mark=_mark(state, radius),
                    mark_css=f"counter__mark counter__mark--{state}" if state else "",
                )
            )
    return tuple(sorted(counters, key=lambda c: (c.selected, c.name)))


def _arrow(radius: float) -> str:
    """The facing arrow pointing north from the counter's rim; the template rotates it by the facing."""
    tip, base, half = -radius * 1.45, -radius * 0.78, radius * 0.42
    return f"M0 {num(tip)}L{num(half)} {num(base)}L{num(-half)} {num(base)}Z"


def _square(radius: float) -> str:
    """A ground target's square counter (a battery, a city or fortress hex)."""
    half = num(radius * 0.85)
    return f"M-{half} -{half}H{half}V{half}H-{half}Z"


def _mark(state: str, radius: float) -> str:
    """Path data marking the state as a shape, not only a colour: a cross for a wreck, a flag for colours
    struck (or a captured ship), a line of ground under a landed one."""
    r = radius
    if state in ("crashed", "crash-landed"):
        a = num(r * 0.8)
        return f"M-{a} -{a}L{a} {a}M{a} -{a}L-{a} {a}"
    if state in ("struck", "captured"):
        return f"M{num(-0.95 * r)} {num(-0.1 * r)}V{num(-1.35 * r)}H{num(-0.25 * r)}V{num(-0.95 * r)}H{num(-0.95 * r)}"
    if state == "landed":
        return f"M{num(-r)} {num(1.2 * r)}H{num(r)}"
    return ""


def _title(ship: Mapping[str, Any], side_name: str, state: str, captor: str | None, hex_: Hex, facing: int) -> str:
    parts = [str(ship["name"])]
    if ship.get("emplacement"):
        parts.append(str(ship["emplacement"]))
    elif ship.get("class_name") and ship.get("class_name") != ship["name"]:
        parts.append(f"{ship['class_name']} class")
    parts.append(side_name)
    parts.append(altitude_name(ship.get("altitude")))
    if not ship.get("emplacement"):
        parts.append(f"facing {hexgrid.direction_name(facing)}")
    parts.append(f"hex {hex_label(hex_)}")
    if state:
        parts.append(
            STATE_WORDS.get(state, state) + (f" (taken by {captor})" if captor and state == "captured" else "")
        )
    if ship.get("fire"):
        parts.append(f"on fire (level {ship['fire']})")
    return ", ".join(parts)


def _gun_reach(gun: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The gun's close and long range in hexes (catalog weapon data); None where it has no such band."""
    try:
        ranges = catalog.weapon(str(gun.get("weapon"))).range_hexes
    except (KeyError, ValueError):
        return None, None
    if ranges is None:
        return None, None
    return ranges.close, ranges.long


def _arcs(
    ship: Mapping[str, Any], gun: Mapping[str, Any], on_map: set[Hex], size: float
) -> tuple[tuple[Layer, ...], tuple[Ray, ...]]:
    origin = _hex(ship["position"])
    assert origin is not None
    facing = int(ship.get("facing") or 0)
    arcs = {str(a) for a in gun.get("arcs") or []}
    close, long = _gun_reach(gun)
    reach = long if long is not None else close
    bands: dict[str, list[Hex]] = {"close": [], "long": [], "any": []}
    for hex_ in on_map:
        if hex_ == origin:
            continue
        d = hexgrid.distance(origin, hex_)
        if reach is not None and d > reach:
            continue
        if not {a.value for a in hexgrid.aspects(origin, facing, hex_)} & arcs:
            continue
        band = "any" if reach is None else ("close" if close is not None and d <= close else "long")
        bands[band].append(hex_)
    words = {"close": "close range", "long": "long range", "any": "no range given"}
    name = _gun_name(gun)
    layers = tuple(
        Layer(
            f"hexmap__arc hexmap__arc--{band}",
            hexes_path(hexes, size),
            f"{name}: {', '.join(sorted(arcs))}, {words[band]}",
        )
        for band, hexes in bands.items()
        if hexes
    )
    x, y = centre(origin, size)
    length = (reach + 0.5 if reach is not None else 2 * max(1, len(on_map)) ** 0.5) * SQRT3 * size
    rays = []
    for offset, before, after in DIVIDERS:
        if (before in arcs) != (after in arcs):  # an edge of the arc, not a line inside it
            angle = math.radians(60 * facing + offset)
            rays.append(Ray(num(x), num(y), num(x + length * math.sin(angle)), num(y - length * math.cos(angle))))
    return layers, tuple(rays)


def _rings(ship: Mapping[str, Any], gun: Mapping[str, Any], on_map: set[Hex], size: float) -> tuple[Layer, ...]:
    origin = _hex(ship["position"])
    assert origin is not None
    close, long = _gun_reach(gun)
    name = _gun_name(gun)
    layers = []
    for band, reach in (("close", close), ("long", long)):
        if reach:
            hexes = [h for h in hexgrid.ring(origin, reach) if h in on_map]
            title = f"{name}: {band} range, {_count(reach, 'hex')}"
            layers.append(Layer(f"hexmap__ring hexmap__ring--{band}", hexes_path(hexes, size), title))
    return tuple(layers)


def _gun_name(gun: Mapping[str, Any]) -> str:
    try:
        weapon = catalog.weapon(str(gun.get("weapon"))).name
    except (KeyError, ValueError):
        weapon = str(gun.get("weapon"))
    return f"gun {gun.get('id')} ({weapon})"


def _path(path: Sequence[Hex | Sequence[int]], size: float) -> PathPreview | None:
    hexes = [h for h in (_hex(step) for step in path) if h is not None]
    if not hexes:
        return None
    points = [centre(h, size) for h in hexes]
    moved = sum(1 for a, b in itertools.pairwise(hexes) if a != b)
    return PathPreview(
        points=" ".join(f"{num(x)},{num(y)}" for x, y in points),
        steps=tuple((num(x), num(y)) for x, y in points[1:]),
        end=Layer("hexmap__path-end", hexes_path([hexes[-1]], size), f"ends in hex {hex_label(hexes[-1])}"),
        title=f"Planned move: {_count(moved, 'hex')}, from hex {hex_label(hexes[0])} to {hex_label(hexes[-1])}",
    )


def _wind(direction: Any, x: float, y: float, size: float) -> Wind | None:
    if type(direction) is not int:
        return None
    name = hexgrid.direction_name(direction)
    # The wind blows from its hexside; the arrow points the way it blows.
    return Wind(
        x=num(x),
        y=num(y),
        rotation=60 * ((direction + 3) % 6),
        label=f"Wind from {name}",
        title=f"Wind from the {_compass(name)}, blowing {_compass(hexgrid.direction_name(direction + 3))}",
    )


def _compass(short: str) -> str:
    return {"N": "north", "NE": "north-east", "SE": "south-east", "S": "south", "SW": "south-west", "NW": "north-west"}[
        short
    ]


def _coordinates(on_map: set[Hex], size: float) -> tuple[CoordinateLabel, ...]:
    labels = []
    for hex_ in sorted(on_map, key=hexgrid.to_odd_q):
        x, y = centre(hex_, size)
        col, row = hexgrid.to_odd_q(hex_)
        labels.append(CoordinateLabel(num(x), num(y - size * 0.55), f"{col:02d}{row:02d}"))
    return tuple(labels)
