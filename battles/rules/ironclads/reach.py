"""What the battle page shows when a ship is selected (docs/rulesets.md section 4): the hexes her guns could fire into
out to their reach, shaded by range band (close 1-6 hexes, middle 7-12, long 13-25: scale.band), a ring at each
band's edge, and each enemy her guns may fire at with its band. The same rules as the fire orders: a hex is shaded
when a gun track of hers with stats left bears on it (arcs.bearing_tracks, IC-ARC) and its Zone of Fire holds no
other ship or land (zone.clear, IC-ZOF-01/02); the enemies marked are exactly gunnery.targets, the targets her fire
orders offer on the board as it stands. Built from a side's board view (Battle.view) alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.presentation import Overlay, ShipOverlays, TargetMark
from battles.rules.ironclads import arcs, gunnery, scale, zone
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import GUN_TRACKS

BAND_LOOKS = {scale.CLOSE: "arc--close", scale.MIDDLE: "arc--long", scale.LONG: "arc--extreme"}
RINGS = ((scale.CLOSE_HEXES, "ring--close"), (scale.MIDDLE_HEXES, "ring--long"), (scale.REACH_HEXES, "ring--extreme"))


def ship_overlays(view: JSON) -> tuple[ShipOverlays, ...]:
    if not isinstance(view, Mapping):
        return ()
    board: Any = view  # plain JSON, as Battle.view writes it
    battle = Battle.from_json(board)
    on_map = set(hexgrid.rectangle_odd_q(battle.board.cols, battle.board.rows))
    afloat = [s for s in battle.board.afloat if s.hex in on_map]
    return tuple(_overlays(battle, ship, on_map) for ship in afloat)


def _overlays(battle: Battle, ship: Ship, on_map: set[hexgrid.Hex]) -> ShipOverlays:
    armed = {t for t in GUN_TRACKS if ship.card.left(t)}
    if not armed:
        return ShipOverlays(ship=ship.name, title=f"{ship.name}: no gun left to bear")
    obstacles = {s.hex for s in battle.board.afloat if s.name != ship.name} | set(battle.board.land)
    bands: dict[str, list[hexgrid.Hex]] = {}
    for hex_ in hexgrid.within(ship.hex, scale.REACH_HEXES):
        if hex_ == ship.hex or hex_ not in on_map or hex_ in battle.board.land:
            continue
        if armed.isdisjoint(arcs.bearing_tracks(ship.card, ship.hex, ship.facing, hex_)):
            continue
        if not zone.clear(ship.hex, hex_, obstacles - {hex_}):
            continue
        band = scale.band(hexgrid.distance(ship.hex, hex_))
        if band is not None:
            bands.setdefault(band, []).append(hex_)
    shaded = tuple(Overlay(BAND_LOOKS[b], tuple(bands[b]), f"{b} range") for b in BAND_LOOKS if b in bands)
    rings = tuple(
        Overlay(look, tuple(h for h in hexgrid.ring(ship.hex, radius) if h in on_map), f"{radius} hexes", True)
        for radius, look in RINGS
    )
    able: dict[str, list[str]] = {}
    for track, targets in gunnery.targets(battle, ship.name).items():
        for target in targets:
            able.setdefault(target, []).append(track)
    marks = []
    for name, tracks in able.items():
        other = battle.ship(name)
        distance = hexgrid.distance(ship.hex, other.hex)
        band = scale.band(distance)
        assert band is not None  # gunnery.targets offers only targets in reach
        title = f"{', '.join(tracks)} bear at {distance} hexes ({scale.to_cm(distance)} cm, {band} range)"
        marks.append(TargetMark(other.name, other.hex, band, title))
    title = ship.name if not ship.collided else f"{ship.name}: in a collision, no fire this turn (IC-COL-08)"
    return ShipOverlays(ship=ship.name, overlays=(*shaded, *rings), targets=tuple(marks), title=title)
