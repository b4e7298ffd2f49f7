"""The Sky Galleons battle map as data (a MapView): the land by height and the named zones, each ship as a
counter with her facing and her altitude badge, struck, wrecked, landed or burning; the wind; and on request
a selected gun's firing arcs and range rings.

Built from the board JSON a side may see (``SkyGalleons.board_view``); the app's SVG renderer draws it. The
arcs: every map hex within the gun's long range (the whole map for a gun with no range) lying in one of its
aspects by ``hexgrid.aspects`` (SG-FACE-04/05: bow and stern 60 degrees, the broadsides 120), by range band,
with the aspect's dividing lines where an arc ends; the rings: the hexes exactly at its close and long range
(SG-FIRE-07/08; a shot across altitudes counts further, SG-FIRE-17, which the shot's own odds say).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.presentation import Badge, Counter, MapView, Overlay, Ray, Terrain, counter_labels, wind_from
from battles.engine.words import capfirst
from galleons import catalog
from galleons.record import table

# Why a ship is out of the fight (the board's ``out``) or how she rests (her record's status), as the map
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


def altitude_name(code: str | None) -> str:
    names: Mapping[str, str] = table("altitude", "names")
    return names.get(code or "", code or "unknown altitude")


def _level_index(level: str) -> int:
    levels: Sequence[str] = table("altitude", "levels_low_to_high")
    return levels.index(level) if level in levels else len(levels)


def _hex(value: Any) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return Hex(value[0], value[1])
    return None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "zone"


def map_view(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    """The map of a Sky Galleons board view. ``focus``: ``selected`` (a ship's name), with ``gun`` (one of
    her gun ids), ``arcs`` and ``rings`` (booleans) for that gun's overlays."""
    board: Mapping[str, Any] = view if isinstance(view, dict) else {}
    focus = focus or {}
    terrain = board["terrain"]
    cols, rows = int(terrain["cols"]), int(terrain["rows"])
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    ships = [s for s in board["ships"] if _drawn(board, s, on_map)]
    selected = focus.get("selected")
    return MapView(
        title=str(board.get("title") or "Battle map"),
        cols=cols,
        rows=rows,
        terrain=_heights(terrain) + _zones(terrain),
        counters=_counters(board, ships, selected if isinstance(selected, str) else None),
        wind=wind_from(board.get("wind")),
        overlays=_overlays(ships, focus, on_map),
        off_map=tuple(str(s["name"]) for s in board["ships"] if not _drawn(board, s, on_map)),
        sides=tuple(str(side) for side in board.get("side_order", [])),
        piece_word="ship",
        look="sky_galleons",
    )


def _heights(terrain: Mapping[str, Any]) -> tuple[Terrain, ...]:
    by_level: dict[str, list[Hex]] = {}
    for q, r, level in terrain.get("heights", []):
        by_level.setdefault(str(level), []).append(Hex(int(q), int(r)))
    return tuple(
        Terrain("height", level, tuple(hexes), f"Land rising to {altitude_name(level)}")
        for level, hexes in sorted(by_level.items(), key=lambda item: _level_index(item[0]))
    )


def _zones(terrain: Mapping[str, Any]) -> tuple[Terrain, ...]:
    return tuple(
        Terrain("zone", _slug(name), tuple(h for h in (_hex(v) for v in hexes) if h is not None), capfirst(name))
        for name, hexes in sorted(terrain.get("zones", {}).items())
    )


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
    board: Mapping[str, Any], ships: Sequence[Mapping[str, Any]], selected: str | None
) -> tuple[Counter, ...]:
    names: Mapping[str, str] = board.get("side_names", {})
    captured: Mapping[str, str] = board.get("captured", {})
    labels = counter_labels([s["name"] for s in ships])
    counters = []
    for ship in ships:
        hex_ = _hex(ship["position"])
        assert hex_ is not None  # _drawn let only placed ships through
        side = str(ship.get("side", ""))
        facing = int(ship.get("facing") or 0) % 6
        state = _state(board, ship)
        marks = tuple(m for m, on in (("burning", ship.get("fire")), ("emplacement", ship.get("emplacement"))) if on)
        altitude = str(ship.get("altitude") or "?")
        counters.append(
            Counter(
                key=ship["name"],
                hex=hex_,
                label=labels[ship["name"]],
                side=side,
                side_name=names.get(side, side),
                title=_title(ship, names.get(side, side), state, captured.get(ship["name"]), hex_, facing),
                facing=facing,
                badges=(Badge(altitude, altitude_name(ship.get("altitude"))),),
                state=state,
                marks=marks,
                shape="square" if ship.get("emplacement") else "round",
                selected=ship["name"] == selected,
                data={"altitude": altitude},
            )
        )
    return tuple(counters)


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
    col, row = hexgrid.to_odd_q(hex_)
    parts.append(f"hex {col},{row}")
    if state:
        parts.append(
            STATE_WORDS.get(state, state) + (f" (taken by {captor})" if captor and state == "captured" else "")
        )
    if ship.get("fire"):
        parts.append(f"on fire (level {ship['fire']})")
    return ", ".join(parts)


# --- a gun's overlays -------------------------------------------------------------------------------------


def _overlays(ships: Sequence[Mapping[str, Any]], focus: Mapping[str, JSON], on_map: set[Hex]) -> tuple[Overlay, ...]:
    target = next((s for s in ships if s["name"] == focus.get("selected")), None)
    gun_id = focus.get("gun")
    if target is None or gun_id is None:
        return ()
    gun = next((g for g in target.get("guns") or [] if g.get("id") == gun_id), None)
    if gun is None:
        return ()
    found: tuple[Overlay, ...] = ()
    if focus.get("arcs"):
        found += _arcs(target, gun, on_map)
    if focus.get("rings"):
        found += _rings(target, gun, on_map)
    return found


def _gun_reach(gun: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The gun's close and long range in hexes (catalog weapon data); None where it has no such band."""
    try:
        ranges = catalog.weapon(str(gun.get("weapon"))).range_hexes
    except (KeyError, ValueError):
        return None, None
    if ranges is None:
        return None, None
    return ranges.close, ranges.long


def _gun_name(gun: Mapping[str, Any]) -> str:
    try:
        weapon = catalog.weapon(str(gun.get("weapon"))).name
    except (KeyError, ValueError):
        weapon = str(gun.get("weapon"))
    return f"gun {gun.get('id')} ({weapon})"


def _arcs(ship: Mapping[str, Any], gun: Mapping[str, Any], on_map: set[Hex]) -> tuple[Overlay, ...]:
    origin = _hex(ship["position"])
    assert origin is not None
    facing = int(ship.get("facing") or 0)
    arcs = {str(a) for a in gun.get("arcs") or []}
    close, long = _gun_reach(gun)
    reach = long if long is not None else close
    bands: dict[str, list[Hex]] = {"close": [], "long": [], "any": []}
    for hex_ in on_map:
        d = hexgrid.distance(origin, hex_)
        if hex_ == origin or (reach is not None and d > reach):
            continue
        if not {a.value for a in hexgrid.aspects(origin, facing, hex_)} & arcs:
            continue
        band = "any" if reach is None else ("close" if close is not None and d <= close else "long")
        bands[band].append(hex_)
    words = {"close": "close range", "long": "long range", "any": "no range given"}
    name = _gun_name(gun)
    layers = tuple(
        Overlay(f"arc--{band}", tuple(hexes), f"{name}: {', '.join(sorted(arcs))}, {words[band]}")
        for band, hexes in bands.items()
        if hexes
    )
    length = reach + 0.5 if reach is not None else 2 * max(1, len(on_map)) ** 0.5
    rays = tuple(
        Ray(origin, 60 * facing + offset, length)
        for offset, before, after in DIVIDERS
        if (before in arcs) != (after in arcs)  # an edge of the arc, not a line inside it
    )
    return (*layers, Overlay("arc-edges", (), f"{name}: the edges of its arcs", rays=rays)) if rays else layers


def _rings(ship: Mapping[str, Any], gun: Mapping[str, Any], on_map: set[Hex]) -> tuple[Overlay, ...]:
    origin = _hex(ship["position"])
    assert origin is not None
    close, long = _gun_reach(gun)
    name = _gun_name(gun)
    layers = []
    for band, reach in (("close", close), ("long", long)):
        if reach:
            hexes = tuple(h for h in hexgrid.ring(origin, reach) if h in on_map)
            title = f"{name}: {band} range, {reach} {'hex' if reach == 1 else 'hexes'}"
            layers.append(Overlay(f"ring--{band}", hexes, title, outline=True))
    return tuple(layers)
