"""Sky Galleons tactical maps as data: the map files in ``maps/``, named zones, and the map edges.

The book's two maps (the canal map and the highland map) are not in our sources; ``maps/canal.json`` and
``maps/highland.json`` are designed stand-ins (data/README.md says what each holds and why). A scenario
names one with ``"map": {"base": "canal"}`` and may add terrain and zones of its own.

A map is an object: ``cols`` and ``rows`` (flat-top odd-q hexes), ``terrain`` (entries in order, a later
one overriding an earlier one on the same hex: ``{"hex": [col, row]}`` or ``{"hexes": [parts]}``, with the
``height`` its land rises to and a free ``kind``) and ``zones`` (name -> parts, or ``{"parts": [...],
"except": [...]}``). A part is one hex ``[col, row]``, ``{"within": [col, row], "radius": n}`` (a hex and
everything up to n away), ``{"ring": [col, row], "radius": n}`` (exactly n away), ``{"row": r, "cols":
[first, last]}`` (a row of hexes, which on an odd-q map runs straight across) or ``{"zone": name}`` (a zone
named earlier in the file).

Zones every map has without naming them: the four edges, ``north``, ``east``, ``south`` and ``west`` (the
outermost row or column, without the four corner hexes, which belong to two edges), and ``centre`` (the
middle hex and its six neighbours) unless the map names its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import altitude_levels

MAP_DIR = Path(__file__).parent / "maps"
MAP_FORMAT = "red-captain/sky-galleons-map"
DEFAULT_SIZE = (30, 22)  # DESIGN.md "Tactical map"

EDGES = ("north", "east", "south", "west")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
# The facings that point a ship on an edge onto the map and away from that edge (0 = north, clockwise).
INWARD = {"north": (2, 3, 4), "south": (0, 1, 5), "west": (1, 2), "east": (4, 5)}
CENTRE = "centre"


class MapError(ValueError):
    """A map (file or scenario map object) that cannot be read; the message says where and why."""


# --- edges and computed zones --------------------------------------------------------------------------


def edge_hexes(terrain: Terrain, edge: str) -> frozenset[Hex]:
    """The hexes along one edge, the corners left out (a corner is on two edges)."""
    last_col, last_row = terrain.cols - 1, terrain.rows - 1
    if edge in ("north", "south"):
        row = 0 if edge == "north" else last_row
        return frozenset(hexgrid.from_odd_q(col, row) for col in range(1, last_col))
    if edge in ("west", "east"):
        col = 0 if edge == "west" else last_col
        return frozenset(hexgrid.from_odd_q(col, row) for row in range(1, last_row))
    raise MapError(f"no edge {edge!r}; the edges are {list(EDGES)}")


def edge_of(terrain: Terrain, hex_: Hex) -> str | None:
    """The edge a map hex lies on; None inland and on the four corners."""
    for edge in EDGES:
        if hex_ in edge_hexes(terrain, edge):
            return edge
    return None


def edge_left_by(terrain: Terrain, off_map: Hex) -> str:
    """The edge a ship crossed to reach ``off_map``, the hex just off the map it moved into."""
    col, row = hexgrid.to_odd_q(off_map)
    if col < 0:
        return "west"
    if col >= terrain.cols:
        return "east"
    return "north" if row < 0 else "south"


def middle_of_edge(terrain: Terrain, edge: str) -> frozenset[Hex]:
    """The middle third of an edge (SG-SCN-16: "the middle of any board edge")."""
    hexes = sorted(edge_hexes(terrain, edge), key=hexgrid.to_odd_q)
    third = len(hexes) // 3
    return frozenset(hexes[third : len(hexes) - third])


def centre(terrain: Terrain) -> frozenset[Hex]:
    middle = hexgrid.from_odd_q(terrain.cols // 2, terrain.rows // 2)
    return frozenset(hexgrid.within(middle, 1))


def zone(terrain: Terrain, name: str) -> frozenset[Hex]:
    """A named zone: the map's own, an edge, or the centre. Unknown names are a MapError."""
    if name in terrain.zones:
        return terrain.zones[name]
    if name in EDGES:
        return edge_hexes(terrain, name)
    if name == CENTRE:
        return centre(terrain)
    raise MapError(f"the map has no zone {name!r}; it has {zone_names(terrain)}")


def zone_names(terrain: Terrain) -> list[str]:
    return sorted({*terrain.zones, *EDGES, CENTRE})


def inward(terrain: Terrain, hex_: Hex, facing: int) -> bool:
    """Facing onto the map: the hex straight ahead is on it (an entering ship does not face off the map)."""
    return terrain.on_map(hexgrid.neighbour(hex_, facing))


# --- reading maps --------------------------------------------------------------------------------------


def available() -> list[str]:
    return sorted(path.stem for path in MAP_DIR.glob("*.json"))


@cache
def _map_text(slug: str) -> str:
    path = MAP_DIR / f"{slug}.json"
    if not path.is_file():
        raise MapError(f"no map {slug!r}; the maps are {', '.join(available())}")
    return path.read_text(encoding="utf-8")


def load_map_data(slug: str) -> dict[str, Any]:
    data = json.loads(_map_text(slug))
    if not isinstance(data, dict) or data.get("format") != MAP_FORMAT:
        raise MapError(f"maps/{slug}.json: a map file is an object with format {MAP_FORMAT!r}")
    return data


MAP_KEYS = ("cols", "rows", "terrain", "zones", "note")
FILE_KEYS = ("format", "version", "slug", "title", "source", "description")


def build_terrain(data: Any, where: str = "map") -> Terrain:
    """A Terrain from a scenario's map object: a base map file (``"base": slug``) with the scenario's own
    terrain and zones laid over it, or a map of its own."""
    if not isinstance(data, dict):
        raise MapError(f"{where}: must be an object")
    _unknown(data, (*MAP_KEYS, "base"), where)
    base: Terrain | None = None
    if "base" in data:
        if not isinstance(data["base"], str):
            raise MapError(f"{where}: base is the name of a map file, one of {available()}")
        file = load_map_data(data["base"])
        _unknown(file, (*MAP_KEYS, *FILE_KEYS), f"maps/{data['base']}.json")
        base = _terrain(file, f"maps/{data['base']}.json", None)
        if "cols" in data or "rows" in data:
            raise MapError(f"{where}: the size comes from the base map {data['base']!r}")
    return _terrain(data, where, base)


def _terrain(data: Mapping[str, Any], where: str, base: Terrain | None) -> Terrain:
    cols = base.cols if base else _size(data, "cols", where, DEFAULT_SIZE[0])
    rows = base.rows if base else _size(data, "rows", where, DEFAULT_SIZE[1])
    bare = Terrain(cols, rows)
    heights: dict[Hex, str] = dict(base.heights) if base else {}
    entries = data.get("terrain", [])
    if not isinstance(entries, list):
        raise MapError(f"{where}.terrain: must be a list")
    for n, entry in enumerate(entries):
        spot = f"{where}.terrain[{n}]"
        if not isinstance(entry, dict):
            raise MapError(f"{spot}: must be an object")
        _unknown(entry, ("hex", "hexes", "height", "kind"), spot)
        if ("hex" in entry) == ("hexes" in entry):
            raise MapError(f"{spot}: give one 'hex' [col, row] or 'hexes' [parts]")
        height = entry.get("height")
        if height not in altitude_levels():
            raise MapError(f"{spot}: height {height!r} is not one of {list(altitude_levels())}")
        parts = [entry["hex"]] if "hex" in entry else entry["hexes"]
        for hex_ in _parts(parts, spot, bare, {}):
            heights[hex_] = str(height)
    heights = {h: level for h, level in heights.items() if level != altitude_levels()[0]}
    zones: dict[str, frozenset[Hex]] = dict(base.zones) if base else {}
    given = data.get("zones", {})
    if not isinstance(given, dict):
        raise MapError(f"{where}.zones: must be an object of zone name -> parts")
    for name, value in given.items():
        spot = f"{where}.zones.{name}"
        if name in EDGES:
            raise MapError(f"{spot}: {name!r} is an edge; every map has it")
        if isinstance(value, dict):
            _unknown(value, ("parts", "except"), spot)
            hexes = _parts(value.get("parts", []), spot, bare, zones) - _parts(
                value.get("except", []), f"{spot}.except", bare, zones
            )
        else:
            hexes = _parts(value, spot, bare, zones)
        if not hexes:
            raise MapError(f"{spot}: a zone needs at least one hex on the map")
        zones[str(name)] = hexes
    return Terrain(cols, rows, heights, zones)


def _parts(parts: Any, where: str, terrain: Terrain, zones: Mapping[str, frozenset[Hex]]) -> frozenset[Hex]:
    if not isinstance(parts, list):
        raise MapError(f"{where}: a list of parts ([col, row], within, ring, row or zone)")
    found: set[Hex] = set()
    for n, part in enumerate(parts):
        spot = f"{where}[{n}]"
        if isinstance(part, list):
            found.add(_hex(part, spot, terrain))
        elif isinstance(part, dict) and set(part) in ({"within", "radius"}, {"ring", "radius"}):
            radius = part["radius"]
            if type(radius) is not int or radius < 0:
                raise MapError(f"{spot}: radius is a whole number of hexes")
            if "within" in part:
                found.update(hexgrid.within(_hex(part["within"], spot, terrain), radius))
            else:
                found.update(hexgrid.ring(_hex(part["ring"], spot, terrain), radius))
        elif isinstance(part, dict) and set(part) == {"row", "cols"}:
            row, span = part["row"], part["cols"]
            if type(row) is not int or not (
                isinstance(span, list) and len(span) == 2 and all(type(c) is int for c in span)
            ):
                raise MapError(f"{spot}: a row part is {{'row': r, 'cols': [first, last]}}")
            found.update(_hex([col, row], spot, terrain) for col in range(span[0], span[1] + 1))
        elif isinstance(part, dict) and set(part) == {"zone"}:
            if part["zone"] not in zones:
                raise MapError(f"{spot}: zone {part['zone']!r} must be named before it is used")
            found.update(zones[part["zone"]])
        else:
            raise MapError(f"{spot}: {part!r} is not a part ([col, row], within, ring, row or zone)")
    return frozenset(h for h in found if terrain.on_map(h))


def _hex(value: Any, where: str, terrain: Terrain) -> Hex:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise MapError(f"{where}: a hex is [col, row], not {value!r}")
    hex_ = hexgrid.from_odd_q(value[0], value[1])
    if not terrain.on_map(hex_):
        raise MapError(f"{where}: {value} is off the {terrain.cols} x {terrain.rows} map")
    return hex_


def _size(data: Mapping[str, Any], key: str, where: str, default: int) -> int:
    value = data.get(key, default)
    if type(value) is not int or value < 4:
        raise MapError(f"{where}: {key!r} must be an integer of at least 4, not {value!r}")
    return value


def _unknown(data: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    extra = sorted(set(data) - set(known))
    if extra:
        raise MapError(f"{where}: unknown keys {extra}; allowed {sorted(known)}")


def zones_to_json(terrain: Terrain) -> dict[str, JSON]:
    """The map's own zones for a saved board, axial, each sorted."""
    return {name: [list[JSON](h.to_json()) for h in sorted(hexes)] for name, hexes in sorted(terrain.zones.items())}


def zones_from_json(data: Any) -> dict[str, frozenset[Hex]]:
    if not isinstance(data, dict):
        raise TypeError(f"expected an object of zones, got {data!r}")
    return {str(name): frozenset(Hex.from_json(h) for h in hexes) for name, hexes in data.items()}
