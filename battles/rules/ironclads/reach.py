"""What the battle page shows when a ship is selected (docs/rulesets.md section 4): the hexes her guns bear on out to
their reach, shaded by range band (close 1-6 hexes, middle 7-12, long 13-25: scale.band), a ring at each band's
edge, and each enemy afloat her guns bear on with its band. Built from a side's board view (Battle.view) alone; where
the guns bear is bearing.py's estimate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.jsonread import read_object
from battles.engine.presentation import Overlay, ShipOverlays, TargetMark
from battles.rules.ironclads import scale
from battles.rules.ironclads.bearing import tracks_bearing
from battles.rules.ironclads.board import Ship

BAND_LOOKS = {scale.CLOSE: "arc--close", scale.MIDDLE: "arc--long", scale.LONG: "arc--extreme"}
RINGS = ((scale.CLOSE_HEXES, "ring--close"), (scale.MIDDLE_HEXES, "ring--long"), (scale.REACH_HEXES, "ring--extreme"))


def ship_overlays(view: JSON) -> tuple[ShipOverlays, ...]:
    if not isinstance(view, Mapping):
        return ()
    board: Any = view  # plain JSON, as Battle.view writes it
    on_map = set(hexgrid.rectangle_odd_q(int(board["cols"]), int(board["rows"])))
    ships = [Ship.from_json(read_object(s)) for s in board["ships"]]
    afloat = [s for s in ships if s.afloat and s.hex in on_map]
    return tuple(_overlays(ship, afloat, on_map) for ship in afloat)


def _overlays(ship: Ship, afloat: list[Ship], on_map: set[hexgrid.Hex]) -> ShipOverlays:
    bands: dict[str, list[hexgrid.Hex]] = {}
    for hex_ in hexgrid.within(ship.hex, scale.REACH_HEXES):
        if hex_ == ship.hex or hex_ not in on_map or not tracks_bearing(ship, hex_):
            continue
        band = scale.band(hexgrid.distance(ship.hex, hex_))
        if band is not None:
            bands.setdefault(band, []).append(hex_)
    if not bands:
        return ShipOverlays(ship=ship.name, title=f"{ship.name}: no gun left to bear")
    shaded = tuple(Overlay(BAND_LOOKS[b], tuple(bands[b]), f"{b} range") for b in BAND_LOOKS if b in bands)
    rings = tuple(
        Overlay(look, tuple(h for h in hexgrid.ring(ship.hex, radius) if h in on_map), f"{radius} hexes", True)
        for radius, look in RINGS
    )
    marks = []
    for other in afloat:
        if other.side == ship.side:
            continue
        distance = hexgrid.distance(ship.hex, other.hex)
        band = scale.band(distance)
        bearing = tracks_bearing(ship, other.hex)
        if band is None or not bearing:
            continue
        title = f"{', '.join(bearing)} bear at {distance} hexes ({scale.to_cm(distance)} cm, {band} range)"
        marks.append(TargetMark(other.name, other.hex, band, title))
    return ShipOverlays(ship=ship.name, overlays=(*shaded, *rings), targets=tuple(marks), title=ship.name)
