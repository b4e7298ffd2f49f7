"""Each ship's arcs, range bands and targets for the battle map (gunnery.py, the protocol's ship_overlays): the
bands from the guns' data and the fire model, the number to hit from the fire rules' own solutions, and nothing
computed from what the viewer may not see."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.presentation import ShipOverlays
from battles.engine.ruleset import resolve_options
from battles.rules.sky_galleons import agility, gunnery, validate
from tests.rules.sky_galleons.battle_harness import RS, scenario, ship, start

SEED = b"g" * 32


def _battle(options: dict[str, Any] | None = None, swift_altitude: str = "M") -> Any:
    """The Aphid (side a) amidships on a 16 by 12 map facing north, the Swiftwood (b) three hexes ahead."""
    data = scenario(
        [ship("Aphid", "aphid", (8, 7), 0)],
        [ship("Swiftwood", "swiftwood", (8, 4), 3, altitude=swift_altitude)],
    )
    return start(data, SEED, options)[1]


def _overlays(state: Any, side: str | None) -> dict[str, ShipOverlays]:
    found = RS.ship_overlays(RS.board_view(state, side), options=state.options, turn=state.turn)
    return {o.ship: o for o in found}


def _layer(found: ShipOverlays, look: str) -> set[Hex]:
    return {h for o in found.overlays if o.look == look for h in o.hexes}


def _line(state: Any, name: str, facing_offset: int, k: int) -> Hex:
    record = state.board.ship(name)
    found = record.position
    for _ in range(k):
        found = hexgrid.neighbour(found, (record.facing + facing_offset) % 6)
    return found


@pytest.mark.rule("SG-FIRE-02")
@pytest.mark.rule("SG-FIRE-07")
def test_a_ships_arcs_are_banded_by_her_guns_ranges_in_their_aspects() -> None:
    state = _battle()
    aphid = _overlays(state, "a")["Aphid"]
    close, long = _layer(aphid, "arc--close"), _layer(aphid, "arc--long")
    # Gun 1, the 4in short (bow, port, starboard), reaches 3 hexes close and 6 long; the 1-pdr HRCs (guns 2 and
    # 3, on the stern too) 2 close and 4 long; the Nordenfelts 1 and 2.
    assert _line(state, "Aphid", 0, 2) in close
    assert _line(state, "Aphid", 0, 5) in long
    assert _line(state, "Aphid", 0, 6) in long
    assert _line(state, "Aphid", 3, 2) in close  # astern: the HRCs' close range
    assert _line(state, "Aphid", 3, 3) in long
    assert _line(state, "Aphid", 3, 4) in long
    astern_beyond = _line(state, "Aphid", 3, 5)
    assert astern_beyond not in close | long  # nothing on the stern reaches 5 hexes
    assert state.board.ship("Aphid").position not in close | long
    assert not close & long  # each hex in its best band only
    long_ring = next(o for o in aphid.overlays if o.look == "ring--long" and _line(state, "Aphid", 0, 6) in o.hexes)
    assert long_ring.outline
    assert "6 hexes" in long_ring.title


@pytest.mark.rule("SG-FIRE-09")
@pytest.mark.rule("SG-FIRE-17")
def test_a_targets_number_is_the_best_of_the_fire_rules_solutions() -> None:
    state = _battle(swift_altitude="H")  # a level higher: -1 to hit and a hex further (SG-FIRE-15/17)
    mark = next(t for t in _overlays(state, "a")["Aphid"].targets if t.target == "Swiftwood")
    shots = [s for s in validate.solutions(state, "a") if s.firer == "Aphid" and s.target == "Swiftwood"]
    assert shots, "the Swiftwood is in reach of the Aphid's guns"
    assert any("different altitude" in s.modifiers for s in shots)
    best = min(s.needed - sum(s.modifiers.values()) for s in shots)
    assert mark.label == f"{best}+"
    assert mark.hex == state.board.ship("Swiftwood").position
    assert "different altitude -1" in mark.title


def test_a_ship_out_of_every_arc_is_no_target() -> None:
    state = _battle()
    # The Swiftwood turned and moved far astern of the Aphid: out of reach of every gun.
    far = replace(state.board.ship("Swiftwood"), position=_line(state, "Aphid", 3, 5))
    state = replace(state, board=state.board.with_ship(far))
    assert not [s for s in validate.solutions(state, "a") if s.firer == "Aphid"]
    assert _overlays(state, "a")["Aphid"].targets == ()


# A hex direction (hexgrid's numbering, from the bow) lying in each aspect.
IN_ASPECT = {"bow": 0, "starboard": 1, "stern": 3, "port": 5}


@pytest.mark.rule("AG-EXT-03")
def test_under_the_extreme_range_rule_the_arcs_reach_further() -> None:
    options = resolve_options(RS, {"extreme_range": True})
    data = scenario([ship("Thunderer", "thunderer", (30, 24), 0)], [ship("Aphid", "aphid", (2, 2), 3)])
    data["map"] = {"cols": 60, "rows": 50}
    state = start(data, SEED, options)[1]
    record = state.board.ship("Thunderer")
    gun = next(g for g in record.guns if agility.extreme_range_of(g.weapon_id) is not None)
    extreme = agility.extreme_range_of(gun.weapon_id)
    ranges = gun.weapon.range_hexes
    assert extreme is not None
    assert ranges is not None
    assert ranges.long is not None
    offset = IN_ASPECT[gun.arcs[0]]
    thunderer = _overlays(state, "a")["Thunderer"]
    far = _layer(thunderer, "arc--extreme")
    assert _line(state, "Thunderer", offset, ranges.long + 1) in far
    assert _line(state, "Thunderer", offset, extreme) in far
    assert _line(state, "Thunderer", offset, extreme + 1) not in far | _layer(thunderer, "arc--long")
    assert any(o.look == "ring--extreme" and f"{extreme} hexes" in o.title for o in thunderer.overlays)
    basic = start(data, SEED)[1]
    assert not _layer(_overlays(basic, "a")["Thunderer"], "arc--extreme")


def test_a_player_never_gets_a_number_from_what_he_may_not_see() -> None:
    state = _battle()
    # The Swiftwood's gunners are all gone: the rules say she cannot fire (SG-CREW-10), but how many men are at
    # her guns is hidden from side a (visibility.py), so a's map may not know it.
    swift = state.board.ship("Swiftwood")
    for gun in swift.guns:
        swift = swift.with_gun(replace(gun, manned=0))
    state = replace(state, board=state.board.with_ship(swift))
    assert _overlays(state, None)["Swiftwood"].targets == ()  # the umpire sees it all
    assert _overlays(state, "b")["Swiftwood"].targets == ()  # and so does her own side
    seen_by_a = _overlays(state, "a")["Swiftwood"]
    assert [t.target for t in seen_by_a.targets] == ["Aphid"]


def test_a_ship_the_view_does_not_place_gives_no_overlay_and_is_no_target() -> None:
    state = _battle()
    view: Any = RS.board_view(state, "a")
    for data in view["ships"]:
        if data["name"] == "Swiftwood":
            data["position"] = None  # as a side sees a ship it may not see
    found = {o.ship: o for o in RS.ship_overlays(view, options=state.options, turn=state.turn)}
    assert set(found) == {"Aphid"}
    assert found["Aphid"].targets == ()


def test_die_words() -> None:
    assert [gunnery.die_words(n) for n in (0, 1, 2, 6, 7)] == ["any", "any", "2+", "6+", "none"]
