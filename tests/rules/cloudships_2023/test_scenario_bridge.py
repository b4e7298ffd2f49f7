"""The Sky Galleons scenarios translated to Cloudships (scenario_bridge.py, docs/cloudships.md section 12): the
files in scenarios/ are what the conversion gives; each keeps its forces, map, positions and victory; each loads
and plays an AI battle to its end, every state keeping the invariants; and the victory kinds it needs
(victory.py) decide as they say."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, hexgrid, policies, resolver
from battles.engine.jsonread import read_json_object
from battles.rules.cloudships_2023 import panels, scenario_bridge, setup, tactics, victory
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import CRASHED, LEFT, STRUCK
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.test_ai import captains

SLUGS = scenario_bridge.SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_the_translated_file_is_what_the_conversion_gives(slug):
    """Rewrite with `python -m battles.rules.cloudships_2023.scenario_bridge`."""
    assert scenario_bridge.path_for(slug).read_text(encoding="utf-8") == scenario_bridge.translated_json(slug)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_forces_map_and_places_carry_over(slug):
    sg = scenario_bridge.sg_scenario(slug)
    cm = scenario_bridge.translate(sg)
    board = setup.board_from_scenario(cm)
    assert (board.cols, board.rows) == scenario_bridge.map_size(sg) == (30, 22)
    assert board.rounds == sg["turn_limit"]
    assert list(board.side_names) == [side["id"] for side in sg["sides"]]
    stand_ins = scenario_bridge.STAND_INS.get(slug, {})
    sg_ships = [(side["id"], ship) for side in sg["sides"] for ship in (*side["ships"], *stand_ins.get(side["id"], []))]
    assert cm["stand_ins"] == [ship["name"] for ships in stand_ins.values() for ship in ships]
    assert [ship.name for ship in board.ships] == [ship["name"] for _, ship in sg_ships]
    for ship, (side, entry) in zip(board.ships, sg_ships, strict=True):
        assert ship.side == side
        assert ship.panel.class_id == scenario_bridge.panel_of(entry["class"]).class_id
        assert hexgrid.to_odd_q(ship.hex) == tuple(entry["position"])
        assert ship.facing == entry.get("facing", 0)
        expected = panels.LOW if entry.get("landed") else scenario_bridge.band_of_level(entry.get("altitude", "M"))
        assert ship.band in (expected, ship.ceiling)


def test_crack_crews_are_superior_high_martians_and_warbands_fly_aboard_as_flights():
    pitched = setup.board_from_scenario(scenario_bridge.translate(scenario_bridge.sg_scenario("pitched-battle")))
    superior = {ship.name for ship in pitched.ships if ship.panel.superior}
    assert superior == {"Triumph", "Dauntless", "Aphid", "Hullcutter 1"}  # all British Crack; the Martian choice
    raid = setup.board_from_scenario(scenario_bridge.translate(scenario_bridge.sg_scenario("the-great-raid")))
    martians = [ship for ship in raid.ships if ship.side == "high_martians"]
    assert len(martians) == 6  # two galleys, four Small Birds standing in for the Rogue batteries
    crew_flights = sum(-(-ship.panel.boarding_parties // 2) for ship in martians)  # a flight for two parties
    assert sum(ship.flights for ship in martians) == crew_flights + 6  # and one for each of six warbands
    assert all(ship.band == panels.LOW for ship in martians)  # landed: Low
    hearts = setup.board_from_scenario(scenario_bridge.translate(scenario_bridge.sg_scenario("hearts-of-oak")))
    assert [ship.flights for ship in hearts.ships] == [0, 2, 3, 3, 2]  # the Thunderer none; Small Birds 3, Sleds 5
    assert hearts.ship_named("Thunderer").panel.superior  # a Crack crew


def test_the_victory_kinds_carry_over_with_the_turn_limits_winner():
    found = {slug: scenario_bridge.translate(scenario_bridge.sg_scenario(slug))["victory"] for slug in SLUGS}
    assert found["john-bulls-tyranny"] == {
        "kind": victory.ESCAPE,
        "ship": "Fenian Ram",
        "pursuer": "Aphid",
        "round_limit_winner": None,
    }
    assert found["diplomatic-incident"]["kind"] == victory.CAPTURE
    assert found["diplomatic-incident"]["round_limit_winner"] == "british"
    withdraw = {"kind": victory.WITHDRAW_AT_HALF, "flagship": "Triumph", "round_limit_winner": None}
    assert found["pitched-battle"] == withdraw
    assert found["slash-and-run"]["round_limit_winner"] == "martians"
    assert found["the-great-raid"]["round_limit_winner"] == "high_martians"
    assert found["thieves-fall-out"]["kind"] == found["hearts-of-oak"]["kind"] == victory.LAST_SIDE_FLYING


@pytest.mark.parametrize("slug", SLUGS)
def test_each_translated_scenario_plays_an_ai_battle_to_its_end_keeping_the_invariants(slug):
    scenario = read_json_object(scenario_bridge.path_for(slug))
    seed = b"bridge-" + slug.encode()
    initial = resolver.new_battle(CLOUDSHIPS, scenario, seed_commitment=dice.commitment(seed))
    chosen = captains(seed, initial.sides)
    done = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=dict(chosen))
    assert done.state.over
    assert done.state.winner in (*initial.sides, None)
    current = initial
    for event in done.events:
        current = resolver.apply_event(CLOUDSHIPS, current, event)
        assert CLOUDSHIPS.check_invariants(current) == [], event.kind


# --- the victory kinds (victory.py) ------------------------------------------------------------------------------


def winner(ending: victory.Ending | None) -> str | None:
    assert ending is not None, "the battle goes on"
    return ending.winner


def board_of(slug: str) -> Board:
    return setup.board_from_scenario(scenario_bridge.translate(scenario_bridge.sg_scenario(slug)))


def fate(board: Board, name: str, status: str, **more: Any) -> Board:
    return board.with_ship(replace(board.ship_named(name), status=status, **more))


def test_escape_the_ship_wins_once_the_pursuer_is_crippled_and_loses_when_she_is_out():
    board = board_of("john-bulls-tyranny")
    assert victory.decided(board) is None
    disarmed = board.ship_named("Aphid")
    unarmed = board.with_ship(replace(disarmed, guns_lost=tuple(gun.number for gun in disarmed.panel.guns)))
    assert victory.decided(unarmed) == victory.Ending("irish", "Aphid is crippled: Fenian Ram slips away")
    assert winner(victory.decided(fate(board, "Fenian Ram", LEFT))) == "british"  # gone before the Aphid is crippled


def test_capture_the_prize_struck_to_the_ships_side_wins_lost_otherwise_or_the_ship_lost():
    board = board_of("diplomatic-incident")
    assert victory.decided(board) is None
    assert winner(victory.decided(fate(board, "Passenger Kite", STRUCK, taken_by="Hamburg"))) == "germans"
    assert winner(victory.decided(fate(board, "Passenger Kite", CRASHED))) == "british"
    assert winner(victory.decided(fate(board, "Hamburg", CRASHED))) == "british"
    assert winner(victory.round_limit(board, board.rounds)) == "british"


def test_withdraw_at_half_the_first_side_to_lose_half_loses_and_the_flagship_at_once():
    board = board_of("pitched-battle")
    assert victory.decided(board) is None
    assert winner(victory.decided(fate(board, "Triumph", CRASHED))) == "oenotrians"
    martians = [ship.name for ship in board.ships if ship.side == "oenotrians"]
    three = board
    for name in martians[:3]:
        three = fate(three, name, CRASHED)
    assert victory.decided(three) is None  # 3 of 8
    four = fate(three, martians[3], CRASHED)
    assert winner(victory.decided(four)) == "british"
    both = fate(fate(four, "Dauntless", CRASHED), "Aphid", CRASHED)
    assert winner(victory.decided(both)) is None


def test_an_unknown_victory_kind_or_a_ship_not_in_the_battle_is_refused():
    scenario = scenario_bridge.translate(scenario_bridge.sg_scenario("pitched-battle"))
    with pytest.raises(ValueError, match="victory kinds"):
        setup.board_from_scenario({**scenario, "victory": {"kind": "bombardment"}})
    with pytest.raises(ValueError, match="flagship"):
        setup.board_from_scenario({**scenario, "victory": {"kind": victory.WITHDRAW_AT_HALF, "flagship": "Nobody"}})


def test_the_default_is_the_last_side_flying_and_a_draw_at_the_round_limit():
    board = replace(board_of("hearts-of-oak"), victory={})
    assert victory.decided(board) is None
    assert winner(victory.round_limit(board, board.rounds)) is None


def test_a_sides_ai_caution_carries_over_and_the_captain_weighs_the_enemys_fire_by_it():
    hearts = board_of("hearts-of-oak")
    assert hearts.captains == {"high_martians": {"caution": 0.0}}  # SG: they ignore the danger and close
    assert board_of("pitched-battle").captains == {"british": {"caution": 1.3}}
    assert tactics.caution_of(hearts, "high_martians") == 0.0
    assert tactics.caution_of(hearts, "british") == tactics.CAUTION == 0.5  # both games' default weight
    galley = hearts.ship_named("Glory Sled 1")
    assert tactics.sight(hearts, galley).caution == 0.0
    fire_everywhere = 10.0
    view = tactics.sight(hearts, galley)
    course = tactics.Course((), ())
    fearless = tactics.score_course(hearts, view, course, lambda hex_, band: fire_everywhere)
    careful = tactics.score_course(hearts, replace(view, caution=0.5), course, lambda hex_, band: fire_everywhere)
    assert fearless - careful == pytest.approx(0.5 * fire_everywhere)
