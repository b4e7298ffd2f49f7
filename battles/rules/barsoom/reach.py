"""What the battle page shows when a ship is selected (docs/rulesets.md section 4): her guns' range bands shaded
(BR-WPN-04..07; her guns are not tied to arcs, only to 45 degrees of elevation, so a band is all round her), a ring
at her longest reach, and each enemy her ready guns bear on with the 2D6 a shot needs. Built from a side's board view
(Battle.view) and the turn alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.presentation import Overlay, ShipOverlays, TargetMark, hex_of
from battles.rules.barsoom import weapons

# The band looks, by the range band's modifier: +0 close, -1 long, -2 and -3 beyond.
BAND_LOOKS = {0: "arc--close", -1: "arc--long", -2: "arc--extreme"}
TO_HIT = 7  # 2D6 - 6 above 0: a 7 at +0 (BR-HIT-01)


def ship_overlays(view: JSON, *, turn: int) -> tuple[ShipOverlays, ...]:
    if not isinstance(view, Mapping):
        return ()
    board: Any = view  # plain JSON, as Battle.view writes it
    cols, rows = int(board["cols"]), int(board["rows"])
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    pieces = [p for p in board["ships"] if hex_of(p["hex"]) in on_map]
    found = []
    for piece in pieces:
        guns = _ready(board["aboard"][piece["name"]], turn)
        if not guns:
            found.append(ShipOverlays(ship=str(piece["name"]), title=f"{piece['name']}: no gun ready"))
            continue
        found.append(_overlays(piece, guns, pieces, on_map))
    return tuple(found)


def _ready(entry: Mapping[str, Any], turn: int) -> list[weapons.Weapon]:
    lost = set(entry["condition"]["weapons_lost"])
    return [weapons.weapon(g["weapon"]) for g in entry["guns"] if g["key"] not in lost and int(g["ready_on"]) <= turn]


def _overlays(
    piece: Mapping[str, Any], guns: list[weapons.Weapon], pieces: list[Mapping[str, Any]], on_map: set[hexgrid.Hex]
) -> ShipOverlays:
    centre = hex_of(piece["hex"])
    assert centre is not None
    reach = max(gun.reach for gun in guns)
    bands: dict[int, list[hexgrid.Hex]] = {}
    for hex_ in hexgrid.within(centre, reach):
        if hex_ in on_map:
            modifier = weapons.range_modifier(hexgrid.distance(centre, hex_))
            if modifier in BAND_LOOKS:
                bands.setdefault(modifier, []).append(hex_)
    shaded = tuple(
        Overlay(BAND_LOOKS[m], tuple(hexes), f"range band {m:+d}") for m, hexes in sorted(bands.items(), reverse=True)
    )
    ring = Overlay(
        "ring--long", tuple(h for h in hexgrid.ring(centre, reach) if h in on_map), f"reach {reach} hexes", True
    )
    marks = []
    for other in pieces:
        if other["side"] == piece["side"]:
            continue
        target = hex_of(other["hex"])
        assert target is not None
        hexes, levels = hexgrid.distance(centre, target), int(other["altitude"]) - int(piece["altitude"])
        small = other["class"] == "small"
        bearing = [
            g for g in guns if weapons.refusal(g, hexes=hexes, levels=levels, at_ship=True, small_craft=small) is None
        ]
        if not bearing:
            continue
        distance = weapons.range_between(hexes, levels)
        modifier = weapons.range_modifier(distance)
        title = f"{len(bearing)} gun{'s' if len(bearing) != 1 else ''} bear at {distance} hexes (range {modifier:+d})"
        marks.append(TargetMark(str(other["name"]), target, f"{TO_HIT - modifier}+", title))
    return ShipOverlays(
        ship=str(piece["name"]), overlays=(*shaded, ring), targets=tuple(marks), title=str(piece["name"])
    )
