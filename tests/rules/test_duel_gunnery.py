"""The duel's broadside reach and targets for the battle map (duel/gunnery.py, the protocol's ship_overlays):
abeam within the battle's long range, banded by the to-hit table's close range, the number the fire phase's own
needed_to_hit gives, and nothing for a ship the view does not place."""

from __future__ import annotations

from typing import Any

from battles.engine import hexgrid, ruleset
from battles.engine.hexgrid import Hex
from battles.engine.presentation import ShipOverlays
from battles.rules.duel.board import Ship
from battles.rules.duel.phases.fire import needed_to_hit, reaches

ruleset.discover()
DUEL = ruleset.get("duel")
OPTIONS = ruleset.resolve_options(DUEL, {"long_range": 4})


def _view(aphid: tuple[int, int, int], swiftwood: tuple[int, int, int]) -> dict[str, Any]:
    """A duel board view: each ship's axial q, r and facing, on a 12 by 12 map."""
    ships = []
    for name, side, (q, r, facing) in (("Aphid", "red", aphid), ("Swiftwood", "blue", swiftwood)):
        ships.append({"name": name, "side": side, "hex": [q, r], "facing": facing, "speed": 2, "hull": 4})
    return {"title": "Test", "cols": 12, "rows": 12, "turns": 8, "long_range": 4, "ships": ships}


def _overlays(view: dict[str, Any]) -> dict[str, ShipOverlays]:
    return {o.ship: o for o in DUEL.ship_overlays(view, options=OPTIONS, turn=2)}


def _layer(found: ShipOverlays, look: str) -> set[Hex]:
    return {h for o in found.overlays if o.look == look for h in o.hexes}


def test_the_broadsides_reach_abeam_banded_close_and_long() -> None:
    # The Aphid at (5, 5) facing north: starboard is direction 1 and 2, port 4 and 5; ahead and astern nothing.
    aphid = _overlays(_view((5, 5, 0), (0, 0, 0)))["Aphid"]
    close, long = _layer(aphid, "arc--close"), _layer(aphid, "arc--long")
    origin = Hex(5, 5)
    east = [origin]
    for _ in range(5):
        east.append(hexgrid.neighbour(east[-1], 2))
    assert east[1] in close
    assert east[2] in close
    assert east[3] in long
    assert east[4] in long
    assert east[5] not in close | long
    assert hexgrid.neighbour(origin, 0) not in close | long  # dead ahead: no broadside bears
    assert all(hexgrid.distance(origin, h) <= 4 for h in close | long)
    assert {o.look for o in aphid.overlays if o.outline} == {"ring--close", "ring--long"}


def test_an_enemy_abeam_is_marked_with_the_fire_phases_number() -> None:
    for distance, expected in ((2, "4+"), (4, "6+")):
        target = Hex(5 + distance, 5 - distance // 2)  # off the starboard beam
        view = _view((5, 5, 0), (target.q, target.r, 3))
        aphid, swift = (Ship.from_json(data) for data in view["ships"])
        assert reaches(aphid, swift, 4)
        mark = next(iter(_overlays(view)["Aphid"].targets))
        assert mark.target == "Swiftwood"
        assert mark.hex == target
        assert mark.label == f"{needed_to_hit(DUEL.tables, aphid, swift)}+" == expected


def test_an_enemy_ahead_or_out_of_range_is_no_target() -> None:
    assert _overlays(_view((5, 5, 0), (5, 3, 0)))["Aphid"].targets == ()  # dead ahead
    assert _overlays(_view((5, 5, 0), (10, 2, 0)))["Aphid"].targets == ()  # abeam but 5 hexes off


def test_a_ship_the_view_does_not_place_gives_no_overlay_and_is_no_target() -> None:
    view = _view((5, 5, 0), (7, 4, 3))
    view["ships"][1]["hex"] = None
    found = _overlays(view)
    assert set(found) == {"Aphid"}
    assert found["Aphid"].targets == ()
