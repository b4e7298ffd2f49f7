"""The strategic map as SVG: a pure function of the map data, the campaign's encounter numbers and the overlays.

No Django here: the page, the umpire's desk and the tests call :func:`map_svg` with what the fog of war lets the
reader see (``strategic_map.map_selectors``) already decided, so nothing hidden can reach the drawing.

Geometry is ``battles.engine.hexgrid`` exactly: flat-top hexes, odd-q offsets in the map file
(``hexgrid.from_odd_q``), pixel centres by ``hexgrid.to_pixel`` with the origin at the centre of hex (0, 0), so the
page's script can read ``data-q``/``data-r``/``data-cx``/``data-cy`` off any hex.

The drawing has two parts. The map itself (terrain, territory borders with their names and this campaign's
encounter numbers, British territory, canals, cities and sites, the prevailing wind) depends only on the encounter
numbers, so it is built once per set of numbers and kept; its legend (the key a reader needs: a player's ships are
his own, the umpire's every captain's) once per kind of reader. The overlays (ships, routes, encounter reports,
treks) are drawn on top per request. Which parts of the map are designed stand-ins is not in the legend: that is
the data's provenance (docs/strategic-map.md, the map API, the umpire's desk).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Protocol

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from strategic_map import mapdata

SIZE = 20.0  # pixels from a hex's centre to a corner
SQRT3 = math.sqrt(3)
LEGEND_WIDTH = 300.0
MARGIN = 12.0

# Terrain fills: light ground, darker and browner as it climbs; snow near white. A city hex shows its ground.
TERRAIN_FILL: Mapping[str, str] = {
    "clear": "#ecdcaa",
    "steppe": "#d9c47c",
    "hills": "#c8a165",
    "highlands": "#b3875a",
    "mountains": "#8d6747",
    "snow": "#f6f4ee",
}
TERRAIN_WORDS: Mapping[str, str] = {
    "clear": "Clear",
    "steppe": "Steppe",
    "hills": "Hills",
    "highlands": "Highlands",
    "mountains": "Mountains",
    "snow": "Snow",
}
CANAL_STYLE: Mapping[str, tuple[str, float, str]] = {
    # type -> (colour, width, dash pattern)
    "grand": ("#2b6c8f", 3.2, ""),
    "petty": ("#4f8fb0", 1.8, "5 3"),
}
ALLEGIANCE_WORDS: Mapping[str, str] = {"friendly": "friendly", "neutral": "neutral", "hostile": "hostile"}


class Numbers(Protocol):
    """A territory's encounter numbers (``map_rules.EncounterNumbers`` has this shape)."""

    @property
    def move_through(self) -> int | None: ...

    @property
    def patrol(self) -> int | None: ...


# --- overlays: what the reader may see, decided before the drawing -----------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipMark:
    """A ship at sea (or in port) where the reader may see her."""

    id: int
    name: str
    captain: str
    q: int
    r: int
    own: bool = True
    status: str = ""


@dataclass(frozen=True, slots=True)
class RouteMark:
    """A planned route: the start hex, then each day's hexes (a patrol day is an empty tuple)."""

    ship: str
    start: tuple[int, int]
    days: tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True, slots=True)
class EncounterMark:
    id: int
    day: int
    q: int
    r: int
    result: str
    territory: str


@dataclass(frozen=True, slots=True)
class TrekMark:
    id: int
    captain: str
    q: int
    r: int
    party: int
    status: str


@dataclass(frozen=True, slots=True)
class Overlays:
    ships: Sequence[ShipMark] = field(default_factory=tuple)
    routes: Sequence[RouteMark] = field(default_factory=tuple)
    encounters: Sequence[EncounterMark] = field(default_factory=tuple)
    treks: Sequence[TrekMark] = field(default_factory=tuple)


# --- small helpers ------------------------------------------------------------------------------------------------


def num(value: float) -> str:
    """A pixel value as short SVG text: one decimal at most, no trailing zeros."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def centre(q: int, r: int) -> tuple[float, float]:
    return hexgrid.to_pixel(Hex(q, r), SIZE)


def corners(cx: float, cy: float, size: float = SIZE) -> list[tuple[float, float]]:
    """A flat-top hexagon's corners, at 0, 60, ... 300 degrees (y grows downwards)."""
    return [(cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i))) for i in range(6)]


def _edge(cx: float, cy: float, direction: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The hexside facing hexgrid's ``direction`` (0 north, clockwise): between corners d+4 and d+5."""
    points = corners(cx, cy)
    return points[(direction + 4) % 6], points[(direction + 5) % 6]


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def numbers_words(numbers: Numbers | None) -> str:
    """'2 moving / 5 patrolling', or why there is no roll."""
    if numbers is None or numbers.move_through is None:
        return "no encounter roll"
    patrol = "—" if numbers.patrol is None else str(numbers.patrol)
    return f"{numbers.move_through} moving / {patrol} patrolling"


def offset_label(col: int, row: int) -> str:
    """The wargame label CCRR: 1-based column then row."""
    return f"{col + 1:02d}{row + 1:02d}"


def axial_label(q: int, r: int) -> str:
    col, row = hexgrid.to_odd_q(Hex(q, r))
    return offset_label(col, row)


@dataclass(frozen=True, slots=True)
class Frame:
    """The map's pixel bounds (hexes only) and the whole drawing's viewBox (legend included)."""

    min_x: float
    min_y: float
    max_x: float
    max_y: float

    @property
    def legend_x(self) -> float:
        return self.max_x + MARGIN * 2

    @property
    def viewbox(self) -> tuple[float, float, float, float]:
        return (
            self.min_x - MARGIN,
            self.min_y - MARGIN,
            self.legend_x + LEGEND_WIDTH - (self.min_x - MARGIN),
            self.max_y - self.min_y + 2 * MARGIN,
        )


def frame(mars: mapdata.MarsMap) -> Frame:
    xs, ys = [], []
    for h in mars.hexes:
        x, y = centre(h.q, h.r)
        xs.append(x)
        ys.append(y)
    return Frame(min(xs) - SIZE, min(ys) - SIZE * SQRT3 / 2, max(xs) + SIZE, max(ys) + SIZE * SQRT3 / 2)


# --- the map itself (kept per set of encounter numbers) -----------------------------------------------------------


def _hex_title(h: mapdata.MapHex, numbers: Numbers | None) -> str:
    ground = TERRAIN_WORDS.get(h.base_terrain, h.base_terrain)
    parts = [h.label, ground]
    if h.city:
        parts.append(f"city of {h.city}")
    if h.site:
        parts.append(h.site)
    if h.canal_type:
        parts.append(f"{h.canal_type} canal")
    parts.append(f"{h.territory} territory ({numbers_words(numbers)})")
    parts.append(ALLEGIANCE_WORDS.get(h.allegiance, h.allegiance))
    if h.british:
        parts.append("British")
    return " · ".join(parts)


def _hexes(mars: mapdata.MarsMap, numbers: Mapping[str, Numbers]) -> list[str]:
    out = ['<g class="smap__hexes">']
    for h in mars.hexes:
        cx, cy = centre(h.q, h.r)
        points = " ".join(f"{num(x)},{num(y)}" for x, y in corners(cx, cy))
        fill = TERRAIN_FILL.get(h.base_terrain, "#ddd")
        css = f"smap__hex smap__hex--{h.base_terrain}" + (" smap__hex--british" if h.british else "")
        out.append(
            f'<g class="{css}" data-q="{h.q}" data-r="{h.r}" data-label="{h.label}" data-cx="{num(cx)}" '
            f'data-cy="{num(cy)}"><polygon points="{points}" fill="{fill}"/>'
            f"<title>{_attr(_hex_title(h, numbers.get(h.territory)))}</title></g>"
        )
    out.append("</g>")
    return out


def _british(mars: mapdata.MarsMap) -> list[str]:
    """British territory hatched over the terrain (SGC-MAP-04's stand-in)."""
    d = []
    for h in mars.hexes:
        if h.british:
            cx, cy = centre(h.q, h.r)
            pts = corners(cx, cy)
            d.append("M" + " L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z")
    return [f'<path class="smap__british" d="{"".join(d)}" fill="url(#smap-british)" pointer-events="none"/>']


def _borders(mars: mapdata.MarsMap) -> list[str]:
    """Territory borders: every hexside whose neighbour is in another territory (or off the map)."""
    by_axial = {(h.q, h.r): h for h in mars.hexes}
    d = []
    for h in mars.hexes:
        cx, cy = centre(h.q, h.r)
        for direction, step in enumerate(hexgrid.DIRECTIONS):
            other = by_axial.get((h.q + step.q, h.r + step.r))
            # Draw a shared side once (from the hex with the smaller key); the map's edge always.
            if other is not None and (other.territory == h.territory or (other.q, other.r) < (h.q, h.r)):
                continue
            (x1, y1), (x2, y2) = _edge(cx, cy, direction)
            d.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
    return [
        f'<path class="smap__borders" d="{"".join(d)}" fill="none" stroke="#6b2d10" stroke-width="2.2" '
        'stroke-linecap="round" pointer-events="none"/>'
    ]


def _territory_names(mars: mapdata.MarsMap, numbers: Mapping[str, Numbers]) -> list[str]:
    """Each territory's name and numbers at the hex nearest the middle of its hexes."""
    members: dict[str, list[mapdata.MapHex]] = {}
    for h in mars.hexes:
        members.setdefault(h.territory, []).append(h)
    # A name keeps clear of the places' own names (drawn under their marks, about 70 pixels wide).
    places = [centre(h.q, h.r) for h in mars.hexes if h.city or h.site]

    def crowded(x: float, y: float) -> bool:
        return any(abs(x - px) < 70 and -20 < y - py < 40 for px, py in places)

    out = ['<g class="smap__territories" pointer-events="none">']
    for name, hexes in members.items():
        points = [centre(h.q, h.r) for h in hexes]
        mx = sum(x for x, _ in points) / len(points)
        my = sum(y for _, y in points) / len(points)
        clear = [p for p in points if not crowded(*p)] or points
        x, y = min(clear, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
        territory_numbers = numbers.get(name)
        if territory_numbers is None or territory_numbers.move_through is None:
            figures = "no encounters"
        else:
            patrol = "—" if territory_numbers.patrol is None else territory_numbers.patrol
            figures = f"{territory_numbers.move_through} / {patrol}"
        out.append(
            f'<text class="smap__territory" x="{num(x)}" y="{num(y - 3)}" text-anchor="middle" '
            f'data-territory="{_attr(name)}">{_attr(name)}'
            f'<tspan class="smap__numbers" x="{num(x)}" dy="12">{_attr(figures)}</tspan></text>'
        )
    out.append("</g>")
    return out


def _canals(mars: mapdata.MarsMap) -> list[str]:
    out = ['<g class="smap__canals" fill="none" stroke-linecap="round" stroke-linejoin="round" pointer-events="none">']
    for canal in mars.canals:
        colour, width, dash = CANAL_STYLE.get(canal.type, CANAL_STYLE["petty"])
        cells = list(canal.hexes)
        if canal.edge_exit is not None and (not cells or cells[-1] != canal.edge_exit):
            cells.append(canal.edge_exit)
        points = []
        for col, row in cells:
            hex_ = hexgrid.from_odd_q(col, row)
            x, y = centre(hex_.q, hex_.r)
            points.append(f"{num(x)},{num(y)}")
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="smap__canal smap__canal--{_attr(canal.type)}" points="{" ".join(points)}" '
            f'stroke="{colour}" stroke-width="{width}"{dash_attr}><title>{_attr(canal.name)}</title></polyline>'
        )
    out.append("</g>")
    return out


def _places(mars: mapdata.MarsMap) -> list[str]:
    out = ['<g class="smap__places" pointer-events="none">']
    for city in mars.cities:
        hex_ = hexgrid.from_odd_q(city.col, city.row)
        x, y = centre(hex_.q, hex_.r)
        british = city.owner == "british"
        css = (
            "smap__city"
            + (" smap__city--british" if british else "")
            + (" smap__city--optional" if city.optional else "")
        )
        fill = "#8a3412" if british else "#2a1e14"
        name = city.name + (" (optional)" if city.optional else "")
        out.append(
            f'<g class="{css}" data-city="{_attr(city.name)}">'
            f'<rect x="{num(x - 5)}" y="{num(y - 5)}" width="10" height="10" fill="{fill}" stroke="#fffaf0" '
            f'stroke-width="1.5"/><text x="{num(x)}" y="{num(y + 15)}" text-anchor="middle">{_attr(name)}</text></g>'
        )
    for site in mars.sites:
        hex_ = hexgrid.from_odd_q(site.col, site.row)
        x, y = centre(hex_.q, hex_.r)
        out.append(
            f'<g class="smap__site" data-site="{_attr(site.name)}"><path d="M{num(x)} {num(y - 7)}L{num(x + 6)} '
            f'{num(y + 4)}L{num(x - 6)} {num(y + 4)}Z" fill="#5b3a78" stroke="#fffaf0" stroke-width="1.2"/>'
            f'<text x="{num(x)}" y="{num(y + 15)}" text-anchor="middle">{_attr(site.name)}</text></g>'
        )
    out.append("</g>")
    return out


def _wind(box: Frame) -> list[str]:
    """The prevailing wind blows from west to east (SGC-MOVE-08): an arrow pointing east, top left."""
    x, y = box.min_x + 8, box.min_y + 4
    return [
        '<g class="smap__wind" pointer-events="none">'
        "<title>The prevailing wind blows from the west: eastward is with the wind, westward against it</title>"
        f'<rect x="{num(x - 4)}" y="{num(y - 2)}" width="118" height="26" rx="4" fill="#fffaf0" opacity="0.85"/>'
        f'<path d="M{num(x)} {num(y + 11)}H{num(x + 34)}" stroke="#2a1e14" stroke-width="2.5"/>'
        f'<path d="M{num(x + 34)} {num(y + 5)}L{num(x + 44)} {num(y + 11)}L{num(x + 34)} {num(y + 17)}Z" '
        'fill="#2a1e14"/>'
        f'<text x="{num(x + 50)}" y="{num(y + 15)}">West wind</text></g>'
    ]


def _legend(mars: mapdata.MarsMap, box: Frame, *, umpire: bool = False) -> list[str]:
    """What the colours and marks mean, in the reader's words: what he needs to read the map. Which parts of the
    map are designed stand-ins is the data's provenance, for the docs (docs/strategic-map.md), the API
    (``provenance``) and the umpire's desk, not the player's key."""
    x = box.legend_x
    y = box.min_y + 6
    out = [
        f'<g class="smap__legend" transform="translate({num(x)} {num(y)})">',
        '<text class="smap__legend-title" y="4">Legend</text>',
    ]
    line = 24.0
    for terrain in ("clear", "steppe", "hills", "highlands", "mountains", "snow"):
        out.append(
            f'<rect x="0" y="{num(line - 10)}" width="16" height="12" fill="{TERRAIN_FILL[terrain]}" stroke="#b08a3e"/>'
            f'<text x="24" y="{num(line)}">{TERRAIN_WORDS[terrain]}</text>'
        )
        line += 17
    for kind, words in (("grand", "Grand canal"), ("petty", "Petty canal")):
        colour, width, dash = CANAL_STYLE[kind]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<path d="M0 {num(line - 4)}H16" stroke="{colour}" stroke-width="{width}"{dash_attr}/>'
            f'<text x="24" y="{num(line)}">{words}</text>'
        )
        line += 17
    out.append(
        f'<rect x="0" y="{num(line - 10)}" width="16" height="12" fill="url(#smap-british)" stroke="#8a3412"/>'
        f'<text x="24" y="{num(line)}">British territory (no encounter roll)</text>'
    )
    line += 17
    out.append(
        f'<path d="M0 {num(line - 4)}H16" stroke="#6b2d10" stroke-width="2.2"/>'
        f'<text x="24" y="{num(line)}">Territory border; name, then encounter</text>'
        f'<text x="24" y="{num(line + 13)}">number moving / patrolling (1D6)</text>'
    )
    line += 30
    out.append(
        f'<rect x="3" y="{num(line - 9)}" width="10" height="10" fill="#8a3412"/>'
        f'<text x="24" y="{num(line)}">British city</text>'
    )
    line += 17
    out.append(
        f'<rect x="3" y="{num(line - 9)}" width="10" height="10" fill="#2a1e14"/>'
        f'<text x="24" y="{num(line)}">Other city</text>'
    )
    line += 17
    out.append(
        f'<path d="M8 {num(line - 11)}L14 {num(line)}L2 {num(line)}Z" fill="#5b3a78"/>'
        f'<text x="24" y="{num(line)}">Kraag or haven</text>'
    )
    line += 17
    # A player sees only his own ships; the umpire sees every captain's, none his own (_ships' colours).
    fill, words = ("#5b3a78", "A captain's ship") if umpire else ("#234a5c", "Your ship")
    out.append(
        f'<circle cx="8" cy="{num(line - 4)}" r="6" fill="{fill}" stroke="#fffaf0"/>'
        f'<text x="24" y="{num(line)}">{words}</text>'
    )
    line += 17
    out.append(
        f'<path d="M8 {num(line - 11)}L15 {num(line - 4)}L8 {num(line + 3)}L1 {num(line - 4)}Z" fill="#b3261e"/>'
        f'<text x="24" y="{num(line)}">Encounter report</text>'
    )
    line += 17
    out.append(
        f'<rect x="3" y="{num(line - 9)}" width="10" height="10" fill="#2f5d3a" '
        f'transform="rotate(45 8 {num(line - 4)})"/>'
        f'<text x="24" y="{num(line)}">Epic trek</text>'
    )
    out.append("</g>")
    return out


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="smap-british" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#8a3412" opacity="0.10"/>'
        '<path d="M0 0V8" stroke="#8a3412" stroke-width="1.6" opacity="0.35"/></pattern>'
        '<marker id="smap-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto">'
        '<path d="M0 0L10 5L0 10Z" fill="#1d3f8f"/></marker>'
        "</defs>"
    )


STYLE = (
    "<style>"
    ".smap text{font-family:system-ui,sans-serif;font-size:10px;fill:#2a1e14}"
    ".smap__hex polygon{stroke:#b08a3e;stroke-width:.6}"
    ".smap__hex:hover polygon{stroke:#8a3412;stroke-width:2}"
    ".smap__hex--selected polygon{stroke:#1d3f8f;stroke-width:2.5}"
    ".smap__territory{font-size:11px;font-weight:700;fill:#6b2d10;paint-order:stroke;stroke:#fffaf0;"
    "stroke-width:3px;letter-spacing:.04em}"
    ".smap__numbers{font-weight:400;font-size:10px}"
    ".smap__places text{font-size:10px;font-weight:600;paint-order:stroke;stroke:#fffaf0;stroke-width:2.5px}"
    ".smap__city--optional text{font-style:italic}"
    ".smap__legend text{font-size:11px}"
    ".smap__legend-title{font-weight:700;font-size:12px}"
    ".smap__provenance--stand-in{fill:#8a3412}"
    ".smap__legend-note{font-style:italic}"
    ".smap__ship text,.smap__trek text{font-size:9px;font-weight:700;paint-order:stroke;stroke:#fffaf0;"
    "stroke-width:2.5px}"
    "</style>"
)


@lru_cache(maxsize=64)
def _base(numbers_key: tuple[tuple[str, int | None, int | None], ...]) -> tuple[str, str, Frame]:
    """The map without overlays, as (the part under the overlays, the part over them, the frame)."""
    mars = mapdata.mars_map()
    numbers = {name: _Numbers(move, patrol) for name, move, patrol in numbers_key}
    box = frame(mars)
    under = [STYLE, _defs()]
    under += _hexes(mars, numbers)
    under += _british(mars)
    under += _canals(mars)
    under += _borders(mars)
    over = _territory_names(mars, numbers) + _places(mars) + _wind(box)
    return "".join(under), "".join(over), box


@lru_cache(maxsize=2)
def _legend_svg(umpire: bool) -> str:
    mars = mapdata.mars_map()
    return "".join(_legend(mars, frame(mars), umpire=umpire))


@dataclass(frozen=True, slots=True)
class _Numbers:
    move_through: int | None
    patrol: int | None


# --- the overlays -------------------------------------------------------------------------------------------------


def _ships(ships: Iterable[ShipMark]) -> list[str]:
    out = ['<g class="smap__ships">']
    # Ships sharing a hex fan out a little so each stays visible.
    seen: dict[tuple[int, int], int] = {}
    for ship in ships:
        x, y = centre(ship.q, ship.r)
        n = seen.get((ship.q, ship.r), 0)
        seen[(ship.q, ship.r)] = n + 1
        x += 7 * n
        colour = "#234a5c" if ship.own else "#5b3a78"
        title = f"The {ship.name} (Captain {ship.captain}) at {axial_label(ship.q, ship.r)}"
        if ship.status:
            title += f", {ship.status}"
        out.append(
            f'<g class="smap__ship{" smap__ship--own" if ship.own else ""}" data-ship="{ship.id}" data-q="{ship.q}" '
            f'data-r="{ship.r}"><title>{_attr(title)}</title>'
            f'<circle cx="{num(x)}" cy="{num(y - 4)}" r="6" fill="{colour}" stroke="#fffaf0" stroke-width="1.5"/>'
            f'<text x="{num(x)}" y="{num(y - 12)}" text-anchor="middle">{_attr(ship.name)}</text></g>'
        )
    out.append("</g>")
    return out


def route_points(
    start: tuple[int, int], days: Sequence[Sequence[tuple[int, int]]]
) -> tuple[list[str], list[tuple[float, float, int]]]:
    """The route's polyline points, and each day's end (x, y, day number)."""
    x, y = centre(*start)
    points = [f"{num(x)},{num(y)}"]
    ends: list[tuple[float, float, int]] = []
    for index, day in enumerate(days, start=1):
        for q, r in day:
            x, y = centre(q, r)
            points.append(f"{num(x)},{num(y)}")
        ends.append((x, y, index))
    return points, ends


def _routes(routes: Iterable[RouteMark]) -> list[str]:
    out = ['<g class="smap__routes" pointer-events="none">']
    for route in routes:
        points, ends = route_points(route.start, route.days)
        out.append(
            f'<g class="smap__route" data-ship-name="{_attr(route.ship)}">'
            f"<title>{_attr(f'The {route.ship}: standing plan')}</title>"
            f'<polyline points="{" ".join(points)}" fill="none" stroke="#1d3f8f" stroke-width="2.5" '
            'stroke-dasharray="6 3" marker-end="url(#smap-arrow)"/>'
        )
        for x, y, index in ends:
            out.append(
                f'<circle cx="{num(x)}" cy="{num(y)}" r="6" fill="#fffaf0" stroke="#1d3f8f"/>'
                f'<text x="{num(x)}" y="{num(y + 3)}" text-anchor="middle" font-size="8">{index}</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _encounters(encounters: Iterable[EncounterMark]) -> list[str]:
    out = ['<g class="smap__encounters">']
    for found in encounters:
        x, y = centre(found.q, found.r)
        x, y = x - 8, y + 6
        title = f"Day {found.day}: {found.result} at {axial_label(found.q, found.r)} ({found.territory})"
        out.append(
            f'<g class="smap__encounter" data-encounter="{found.id}" data-q="{found.q}" data-r="{found.r}">'
            f"<title>{_attr(title)}</title>"
            f'<path d="M{num(x)} {num(y - 7)}L{num(x + 7)} {num(y)}L{num(x)} {num(y + 7)}L{num(x - 7)} {num(y)}Z" '
            'fill="#b3261e" stroke="#fffaf0" stroke-width="1.2"/></g>'
        )
    out.append("</g>")
    return out


def _treks(treks: Iterable[TrekMark]) -> list[str]:
    out = ['<g class="smap__treks">']
    for trek in treks:
        x, y = centre(trek.q, trek.r)
        x, y = x + 8, y + 6
        where = axial_label(trek.q, trek.r)
        title = f"Captain {trek.captain} on an epic trek at {where}: {trek.party} left ({trek.status})"
        out.append(
            f'<g class="smap__trek" data-trek="{trek.id}" data-q="{trek.q}" data-r="{trek.r}">'
            f"<title>{_attr(title)}</title>"
            f'<rect x="{num(x - 5)}" y="{num(y - 5)}" width="10" height="10" fill="#2f5d3a" stroke="#fffaf0" '
            f'transform="rotate(45 {num(x)} {num(y)})"/></g>'
        )
    out.append("</g>")
    return out


# --- the whole drawing -----------------------------------------------------------------------------------------------


def numbers_key(numbers: Mapping[str, Numbers]) -> tuple[tuple[str, int | None, int | None], ...]:
    return tuple(sorted((name, n.move_through, n.patrol) for name, n in numbers.items()))


def map_svg(
    numbers: Mapping[str, Numbers],
    overlays: Overlays | None = None,
    *,
    svg_id: str = "strategic-map",
    label: str = "The strategic map around Syrtis Major",
    umpire: bool = False,
) -> str:
    """The strategic map as one ``<svg>`` element, with the overlays given (and nothing else) on top.

    ``numbers`` are the campaign's territory encounter numbers (``map_rules.territory_numbers``)."""
    overlays = overlays or Overlays()
    under, over, box = _base(numbers_key(numbers))
    x, y, w, h = box.viewbox
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="smap" id="{_attr(svg_id)}" '
        f'viewBox="{num(x)} {num(y)} {num(w)} {num(h)}" data-size="{num(SIZE)}" data-map-width="{num(box.max_x - x)}" '
        f'preserveAspectRatio="xMidYMid meet" role="group" aria-roledescription="map" aria-label="{_attr(label)}">',
        f"<title>{_attr(label)}</title>",
        under,
    ]
    parts += _routes(overlays.routes)
    parts.append(
        '<g class="smap__planner" id="smap-planner" pointer-events="none">'
        '<polyline class="smap__planner-path" points="" fill="none" stroke="#b3261e" stroke-width="3" '
        'stroke-linejoin="round" marker-end="url(#smap-arrow)"/><g class="smap__planner-days"></g></g>'
    )
    parts.append(over)
    parts.append(_legend_svg(umpire))
    parts += _encounters(overlays.encounters)
    parts += _treks(overlays.treks)
    parts += _ships(overlays.ships)
    parts.append("</svg>")
    return "".join(parts)
