"""What each duel ship's broadsides reach, for the battle page to show when she is selected (the protocol's
``ship_overlays``): the hexes abeam within the battle's long range, shaded close and long by the to-hit table's
close range, the rings where each band ends, and the enemy abeam and in range with the die her broadside needs.

The reach is the fire phase's own test (``phases.fire.reaches``, DUEL-FIRE-03) and the number its own
(``phases.fire.needed_to_hit``, DUEL-FIRE-02), read from the board view the viewer may see: a ship the view does
not place is neither drawn nor a target.
"""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int
from battles.engine.presentation import Overlay, ShipOverlays, TargetMark, hex_of, pieces_of
from battles.engine.telling import plural
from battles.engine.words import possessive
from battles.rules.duel.board import Ship
from battles.rules.duel.phases.fire import needed_to_hit, reaches

ABEAM = frozenset({hexgrid.Aspect.PORT, hexgrid.Aspect.STARBOARD})
DIE_FACES = 6


def ship_overlays(view: JSON, *, tables: Mapping[str, JSON], long_range: int) -> tuple[ShipOverlays, ...]:
    """Per ship afloat on the board view, her broadsides' reach and the enemy she may fire at."""
    board: Mapping[str, JSON] = view if isinstance(view, Mapping) else {}
    cols, rows = board.get("cols"), board.get("rows")
    if type(cols) is not int or type(rows) is not int:
        return ()
    on_map = frozenset(hexgrid.rectangle_odd_q(cols, rows))
    ships = [s for s in (_seen(p) for p in pieces_of(view)) if s is not None and s.hex in on_map]
    close_range = read_int(tables["close_range"])
    return tuple(_overlays_of(ship, ships, tables, close_range, long_range, on_map) for ship in ships if ship.afloat)


def _seen(piece: Mapping[str, JSON]) -> Ship | None:
    """A piece of the view as a ship; None where the view does not say where she is or how she stands."""
    if hex_of(piece.get("hex")) is None or any(type(piece.get(k)) is not int for k in ("facing", "hull", "speed")):
        return None
    return Ship.from_json(piece)


def _overlays_of(
    ship: Ship, ships: list[Ship], tables: Mapping[str, JSON], close_range: int, long_range: int, on_map: frozenset[Hex]
) -> ShipOverlays:
    bands: dict[str, list[Hex]] = {"close": [], "long": []}
    for hex_ in hexgrid.within(ship.hex, long_range):
        if hex_ != ship.hex and hex_ in on_map and hexgrid.aspects(ship.hex, ship.facing, hex_) & ABEAM:
            bands["close" if hexgrid.distance(ship.hex, hex_) <= close_range else "long"].append(hex_)
    name = possessive(ship.name)
    layers = tuple(
        Overlay(f"arc--{band}", tuple(sorted(hexes)), f"{name} broadsides at {band} range")
        for band, hexes in bands.items()
        if hexes
    )
    rings = tuple(
        Overlay(
            f"ring--{band}",
            tuple(h for h in hexgrid.ring(ship.hex, reach) if h in on_map),
            f"{name} {band} range ends at {plural(reach, 'hex')}",
            outline=True,
        )
        for band, reach in (("close", min(close_range, long_range)), ("long", long_range))
        if reach > 0
    )
    targets = tuple(
        _mark(ship, enemy, tables) for enemy in ships if enemy.side != ship.side and reaches(ship, enemy, long_range)
    )
    return ShipOverlays(
        ship=ship.name,
        overlays=layers + rings,
        targets=targets,
        title=f"{name} broadsides" + ("; " + ", ".join(t.target for t in targets) + " in reach" if targets else ""),
    )


def _mark(ship: Ship, enemy: Ship, tables: Mapping[str, JSON]) -> TargetMark:
    needed = needed_to_hit(tables, ship, enemy)
    label = f"{needed}+" if needed <= DIE_FACES else "none"
    distance = hexgrid.distance(ship.hex, enemy.hex)
    return TargetMark(
        target=enemy.name,
        hex=enemy.hex,
        label=label,
        title=f"{enemy.name} abeam of {ship.name} at {plural(distance, 'hex')}: her broadside needs {label} to hit",
        look="target",
    )
