"""Any ruleset's battle map as SVG: terrain, pieces as counters, the wind, and overlays.

The ruleset says what is on the map as data (a :class:`~battles.engine.presentation.MapView`, from its
``map_view`` of the board JSON a side may see); :func:`hexmap` computes every pixel from it, the template
``battles/_hexmap.svg`` only writes them out, and :func:`render_hexmap` does both. Nothing here knows a
ruleset: a map's ``look`` and its terrain's and overlays' looks become style classes.

The map is flat-top "odd-q" (scenarios and the paper map count ``[col, row]``); pieces stand on axial hexes.
Pixels are ``hexgrid.to_pixel`` exactly, in a viewBox whose origin is the centre of hex (0, 0), so a page script
can turn a counter's ``data-q``/``data-r`` into pixels with the same formula. Facing and wind follow hexgrid's
numbering: 0 is north (up), clockwise in sixths of a turn. A planned move's path and the hex coordinates are
drawn on request.

Accessibility: the root ``<svg>`` is a labelled group (``role="group"``, ``aria-roledescription="map"``)
rather than an image, because an image's children are presentational and the counters must stay reachable;
the terrain layer is the ``role="img"`` with the map's description. Each counter is focusable
(``tabindex="0"``, ``role="button"``, ``aria-label``) and carries ``data-ship``, ``data-side``, ``data-q``,
``data-r``, ``data-col``, ``data-row``, ``data-facing``, ``data-altitude``, ``data-state`` and its hex's
pixel centre ``data-cx``/``data-cy`` for the page's script.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.presentation import COLOURS, Badge, MapView, Overlay, ShipOverlays, TargetMark, Wind
from battles.engine.presentation import Counter as Piece

SIZE = 24.0  # pixels from a hex's centre to a corner
SQRT3 = math.sqrt(3)

# Side colours by the scenario's side order; white text on each keeps 4.5:1 contrast (WCAG AA).
SIDE_COLOURS = ("#234a5c", "#8a3412", "#2f5d3a", "#5b3a78", "#6e5310", "#4a4a4a")

# --- the pieces the template writes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Layer:
    """Hexes drawn as one path (terrain of one height, a zone, an overlay band)."""

    css: str
    d: str
    title: str


@dataclass(frozen=True)
class Tag:
    """A counter's second or later badge, drawn small beside it: its box, its text and its colour's class."""

    x: str
    y: str
    width: str
    height: str
    text_x: str
    text_y: str
    text: str
    title: str
    css: str


@dataclass(frozen=True)
class Counter:
    """One piece on the map: where the counter is drawn (``x``, ``y``) and the centre of its hex."""

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
    badge_label: str
    state: str
    css: str
    title: str
    emplacement: bool
    pointed: bool
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
    hit: str  # the radius a click or a tap on the counter counts in: the hex's own for a piece alone in it
    # Badges after the first: small tags down the counter's left side.
    tags: tuple[Tag, ...] = ()


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
class WindRose:
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
class TargetLabel:
    """An enemy in reach of the selected ship: a ring round her hex and the number to hit in a tag beside it."""

    name: str
    cx: str
    cy: str
    radius: str
    tag: tuple[str, str, str, str]
    text: tuple[str, str]
    font: str
    label: str
    title: str
    css: str


@dataclass(frozen=True)
class ShipArcs:
    """One ship's overlays as the template writes them, in a group the page shows when she is selected."""

    ship: str
    title: str
    arcs: tuple[Layer, ...]
    arc_rays: tuple[Ray, ...]
    rings: tuple[Layer, ...]
    targets: tuple[TargetLabel, ...]


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
    wind: WindRose | None
    coordinates: tuple[CoordinateLabel, ...]
    # Each ship's arcs, rings and targets, drawn hidden until the page selects her (:func:`ship_arcs`).
    ship_arcs: tuple[ShipArcs, ...] = ()


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


def hex_label(hex_: Hex) -> str:
    """The hex as the scenarios and the paper map count it: column and row."""
    col, row = hexgrid.to_odd_q(hex_)
    return f"{col},{row}"


# --- the map ------------------------------------------------------------------------------------------------


def hexmap(
    view: MapView,
    *,
    path: Sequence[Hex | Sequence[int]] = (),
    coordinates: bool = False,
    size: float = SIZE,
    uid: str = "hexmap",
    ship_overlays: Sequence[ShipOverlays] = (),
) -> HexMap:
    """Everything the map template draws, from a ruleset's map view.

    ``path`` is a planned move's hexes in order (axial ``Hex`` or ``[q, r]``), its start first. ``coordinates``
    writes each hex's column and row. ``uid`` keeps the element ids unique when a page holds several maps.
    ``ship_overlays``: the ruleset's per-ship overlays (``ship_overlays``), drawn for the ships on the map.
    """
    cols, rows = view.cols, view.rows
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    xs, ys = zip(*(centre(h, size) for h in on_map), strict=True)
    band = 2.4 * size  # room above the map for the wind rose
    min_x, min_y = min(xs) - size * 1.25, min(ys) - size * SQRT3 / 2 - band
    width, height = max(xs) + size * 1.25 - min_x, max(ys) + size * SQRT3 / 2 + size * 0.5 - min_y
    heights = tuple(
        Layer(f"hexmap__height hexmap__height--{t.look}", hexes_path(t.hexes, size), t.title)
        for t in view.terrain
        if t.kind == "height"
    )
    zones = tuple(
        Layer(f"hexmap__zone hexmap__zone--{t.look}", hexes_path(t.hexes, size), t.title)
        for t in view.terrain
        if t.kind != "height"
    )
    counters = _counters(view, size)
    wind = _wind(view.wind, max(xs) + size * 0.25, min(ys) - size * SQRT3 / 2 - band / 2, size)
    label = f"{view.title}: a map of {cols} by {rows} hexes with {_count(len(counters), view.piece_word)}" + (
        f"; {wind.title.lower()}" if wind else ""
    )
    desc = "; ".join(c.title for c in counters)
    if view.off_map:
        desc += ("; " if desc else "") + "not on the map: " + ", ".join(view.off_map)
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
        title=view.title,
        label=label,
        desc=desc,
        terrain_label="Terrain: " + "; ".join(terrain_parts),
        grid=hexes_path(on_map, size),
        heights=heights,
        zones=zones,
        arcs=tuple(_layer(o, size) for o in view.overlays if o.hexes and not o.outline),
        arc_rays=tuple(_ray(ray, size) for o in view.overlays for ray in o.rays),
        rings=tuple(_layer(o, size) for o in view.overlays if o.hexes and o.outline),
        path=_path(path, size),
        counters=counters,
        wind=wind,
        coordinates=_coordinates(on_map, size) if coordinates else (),
        ship_arcs=ship_arcs(ship_overlays, {c.key for c in view.counters}, size),
    )


def render_hexmap(view: MapView, **options: Any) -> SafeString:
    """The map as SVG markup to put in a page (see :func:`hexmap` for the options)."""
    return SafeString(render_to_string("battles/_hexmap.svg", {"map": hexmap(view, **options)}).strip())


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('x') else 's'}"


def _layer(overlay: Overlay, size: float) -> Layer:
    """An overlay's hexes; its look ("arc--close") names its kind before the dashes."""
    kind = overlay.look.split("--")[0]
    return Layer(f"hexmap__{kind} hexmap__{overlay.look}", hexes_path(overlay.hexes, size), overlay.title)


def _ray(ray: Any, size: float) -> Ray:
    x, y = centre(ray.origin, size)
    length, angle = ray.reach * SQRT3 * size, math.radians(ray.bearing)
    return Ray(num(x), num(y), num(x + length * math.sin(angle)), num(y - length * math.cos(angle)))


def _counters(view: MapView, size: float) -> tuple[Counter, ...]:
    order = list(view.sides)
    stacks: dict[Hex, list[Piece]] = {}
    for piece in view.counters:
        stacks.setdefault(piece.hex, []).append(piece)
    counters: list[Counter] = []
    for hex_, stack in stacks.items():
        cx, cy = centre(hex_, size)
        n = len(stack)
        # Pieces sharing a hex are drawn smaller, round its centre, so that each stays visible and clickable.
        radius = size * (0.62 if n == 1 else 0.4)
        spread = 0.0 if n == 1 else size * 0.42
        for i, piece in enumerate(stack):
            angle = math.radians(-90 + 360 * i / n)
            index = order.index(piece.side) if piece.side in order else len(order)
            counters.append(_counter(piece, SIDE_COLOURS[index % len(SIDE_COLOURS)], (cx, cy), angle, spread, radius))
    return tuple(sorted(counters, key=lambda c: (c.selected, c.name)))


def _counter(piece: Piece, colour: str, at: tuple[float, float], angle: float, spread: float, radius: float) -> Counter:
    cx, cy = at
    col, row = hexgrid.to_odd_q(piece.hex)
    facing = piece.facing or 0
    mods = ([piece.state] if piece.state else []) + list(piece.marks) + (["selected"] if piece.selected else [])
    badge = piece.badges[0].text if piece.badges else ""
    return Counter(
        name=piece.key,
        label=piece.label,
        side=piece.side,
        side_name=piece.side_name,
        colour=colour,
        x=num(cx + spread * math.cos(angle)),
        y=num(cy + spread * math.sin(angle)),
        cx=num(cx),
        cy=num(cy),
        radius=num(radius),
        q=piece.hex.q,
        r=piece.hex.r,
        col=col,
        row=row,
        facing=facing,
        rotation=60 * facing,
        altitude=piece.data.get("altitude", badge),
        badge_label=badge,
        state=piece.state,
        css=" ".join(f"counter--{m}" for m in mods),
        title=piece.title,
        emplacement=piece.shape == "square",
        pointed=piece.facing is not None and piece.shape != "square",
        selected=piece.selected,
        arrow=_arrow(radius),
        square=_square(radius),
        badge=(num(radius * 0.2), num(radius * 0.32), num(radius * 1.05), num(radius * 0.78)),
        badge_text=(num(radius * 0.725), num(radius * 0.93)),
        badge_font=num(radius * 0.55),
        label_y=num(radius * 0.2),
        font_size=num(radius * 0.72),
        mark=_mark(piece.state, radius),
        mark_css=f"counter__mark counter__mark--{piece.state}" if piece.state else "",
        hit=num(radius * (1.4 if spread == 0 else 1.6)),
        tags=_tags(piece.badges[1:], radius),
    )


def _tags(badges: Sequence[Badge], radius: float) -> tuple[Tag, ...]:
    """Badges after the first as small tags stacked down the counter's left, each as wide as its text."""
    height, font = radius * 0.62, radius * 0.5
    tags = []
    for i, badge in enumerate(badges):
        width = radius * (0.3 + 0.34 * len(badge.text))
        x, y = -radius * 1.02 - width, -radius * 0.95 + i * (height + radius * 0.08)
        colour = f" counter__tag--{badge.colour}" if badge.colour in COLOURS else ""
        tags.append(
            Tag(
                x=num(x),
                y=num(y),
                width=num(width),
                height=num(height),
                text_x=num(x + width / 2),
                text_y=num(y + height * 0.5 + font * 0.36),
                text=badge.text,
                title=badge.title,
                css=f"counter__tag{colour}",
            )
        )
    return tuple(tags)


def _arrow(radius: float) -> str:
    """The facing arrow pointing north from the counter's rim; the template rotates it by the facing."""
    tip, base, half = -radius * 1.45, -radius * 0.78, radius * 0.42
    return f"M0 {num(tip)}L{num(half)} {num(base)}L{num(-half)} {num(base)}Z"


def _square(radius: float) -> str:
    """A square counter (a battery, a city or fortress hex)."""
    half = num(radius * 0.85)
    return f"M-{half} -{half}H{half}V{half}H-{half}Z"


def _mark(state: str, radius: float) -> str:
    """Path data marking the state as a shape, not only a colour: a cross for a wreck, a flag for colours
    struck (or a captured piece), a line of ground under a landed one."""
    r = radius
    if state in ("crashed", "crash-landed"):
        a = num(r * 0.8)
        return f"M-{a} -{a}L{a} {a}M{a} -{a}L-{a} {a}"
    if state in ("struck", "captured"):
        return f"M{num(-0.95 * r)} {num(-0.1 * r)}V{num(-1.35 * r)}H{num(-0.25 * r)}V{num(-0.95 * r)}H{num(-0.95 * r)}"
    if state == "landed":
        return f"M{num(-r)} {num(1.2 * r)}H{num(r)}"
    return ""


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


def _wind(wind: Wind | None, x: float, y: float, size: float) -> WindRose | None:
    if wind is None:
        return None
    # The wind blows from its hexside; the arrow points the way it blows.
    return WindRose(x=num(x), y=num(y), rotation=60 * ((wind.direction + 3) % 6), label=wind.label, title=wind.title)


def _coordinates(on_map: set[Hex], size: float) -> tuple[CoordinateLabel, ...]:
    labels = []
    for hex_ in sorted(on_map, key=hexgrid.to_odd_q):
        x, y = centre(hex_, size)
        col, row = hexgrid.to_odd_q(hex_)
        labels.append(CoordinateLabel(num(x), num(y - size * 0.55), f"{col:02d}{row:02d}"))
    return tuple(labels)


# --- each ship's arcs and targets, shown when she is selected ------------------------------------------------


def ship_arcs(per_ship: Sequence[ShipOverlays], drawn: set[str], size: float = SIZE) -> tuple[ShipArcs, ...]:
    """The per-ship overlays of the ships drawn on the map (``drawn``: their counters' keys), in pixels: the
    arcs and rings as overlay layers, each target as a ring round its hex with the number to hit beside it."""
    return tuple(
        ShipArcs(
            ship=found.ship,
            title=found.title or f"Arcs of {found.ship}",
            arcs=tuple(_layer(o, size) for o in found.overlays if o.hexes and not o.outline),
            arc_rays=tuple(_ray(ray, size) for o in found.overlays for ray in o.rays),
            rings=tuple(_layer(o, size) for o in found.overlays if o.hexes and o.outline),
            targets=tuple(_target_label(mark, size) for mark in found.targets),
        )
        for found in per_ship
        if found.ship in drawn
    )


def _target_label(mark: TargetMark, size: float) -> TargetLabel:
    """A ring just inside the target's hex (round a stack too) and a tag at its upper right for the number."""
    cx, cy = centre(mark.hex, size)
    width, height = size * (0.5 + 0.32 * len(mark.label)), size * 0.62
    left, top = cx + size * 0.35, cy - size * 0.95
    return TargetLabel(
        name=mark.target,
        cx=num(cx),
        cy=num(cy),
        radius=num(size * 0.82),
        tag=(num(left), num(top), num(width), num(height)),
        text=(num(left + width / 2), num(top + height * 0.74)),
        font=num(size * 0.5),
        label=mark.label,
        title=mark.title,
        css=f"hexmap__target hexmap__target--{mark.look}" if mark.look else "hexmap__target",
    )
