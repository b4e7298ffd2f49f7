"""The historical scenarios (battles/rules/ironclads/scenarios/: Hampton Roads on 8 and 9 March 1862, Lissa 1866,
Angamos 1879; docs/ironclads.md "Scenarios"): every ship names a fleet-list entry that rates by Appendix A, each
scenario places its fleets as it says (IC-SEQ-03/04: the scenario is the agreed placement, each ship with her Data
Card), an aground ship starts with her Propulsion crossed off, and a short random play of each ends with every
invariant holding."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from battles.engine import dice, hexgrid, policies, resolver, state
from battles.engine.jsonread import read_json_object
from battles.rules.ironclads import cards, fleet, setup
from battles.rules.ironclads.ruleset import IRONCLADS, PACKAGE_DIR
from tests.conformance.test_conformance import MAX_DECISIONS, fold_checking

SLUGS = ("hampton-roads", "hampton-roads-monitor", "lissa", "angamos")
SCENARIOS = {slug: read_json_object(PACKAGE_DIR / "scenarios" / f"{slug.replace('-', '_')}.json") for slug in SLUGS}
SEEDS = tuple(f"ironclads-scenario-{n}".encode() for n in range(3))


def ships(slug: str) -> list[dict[str, Any]]:
    return [dict(s) for s in SCENARIOS[slug]["ships"]]  # type: ignore[union-attr]


def test_the_package_offers_each_historical_scenario() -> None:
    offered = {str(s["slug"]) for s in IRONCLADS.example_scenarios()}
    assert set(SLUGS) <= offered


@pytest.mark.rule("IC-SEQ-03")
@pytest.mark.parametrize("slug", SLUGS)
def test_every_ship_names_a_fleet_list_entry_and_her_card_is_the_appendix_a_rating(slug: str) -> None:
    for entry in ships(slug):
        named = fleet.find(str(entry["fleet"]))
        assert named.name == entry["fleet"]  # spelt as the list spells her, not found by a near miss
        assert fleet.card_for(named.name) == named.rating().card
        assert named.sources


def test_card_for_any_case_and_a_missing_name_says_so() -> None:
    assert fleet.card_for("css virginia").name == "CSS VIRGINIA"
    with pytest.raises(KeyError, match="no ship"):
        fleet.card_for("CSS JAMESTOWN")


@pytest.mark.rule("IC-SEQ-04")
@pytest.mark.rule("IC-SEQ-03")
@pytest.mark.parametrize("slug", SLUGS)
def test_the_scenario_places_each_fleet_where_it_says_with_her_data_card(slug: str) -> None:
    scenario = SCENARIOS[slug]
    made_up = IRONCLADS.setup(scenario, {})
    sides, made = made_up.sides, made_up.board
    assert sides == tuple(str(s["key"]) for s in scenario["sides"])  # type: ignore[union-attr]
    board = made.board
    assert (board.cols, board.rows) == (scenario["cols"], scenario["rows"])
    assert made.turns == scenario["turns"]
    for entry in ships(slug):
        ship = board.ship(str(entry["name"]))
        assert ship.side == entry["side"]
        assert hexgrid.to_odd_q(ship.hex) == tuple(entry["hex"])
        assert (ship.facing, ship.speed) == (entry["facing"], entry["speed"])
        assert ship.card.name == entry["fleet"]
        assert ship.hex not in board.land
    assert {s.side for s in board.ships} == set(sides)


@pytest.mark.rule("IC-SEQ-04")
@pytest.mark.parametrize("slug", SLUGS)
def test_the_squadrons_hold_when_appendix_d_is_played(slug: str) -> None:
    _, made = setup.battle(SCENARIOS[slug], with_formations=True)
    assert made.formations is not None
    named = [str(item["name"]) for item in SCENARIOS[slug].get("squadrons", [])]  # type: ignore[union-attr]
    assert [unit.name for unit in made.formations.squadrons] == named


@pytest.mark.rule("IC-SEQ-04")
@pytest.mark.rule("IC-SPD-02")
def test_an_aground_ship_starts_with_her_propulsion_crossed_off_so_she_cannot_get_under_way() -> None:
    made = IRONCLADS.setup(SCENARIOS["hampton-roads"], {}).board
    minnesota = made.board.ship("Minnesota")
    assert minnesota.card.track(cards.PROPULSION).stats == 13
    assert minnesota.card.left(cards.PROPULSION) == 0
    assert made.board.ship("Cumberland").card.track(cards.PROPULSION).stats == 0  # a sailing ship at anchor


def test_a_lost_figure_beyond_her_card_is_refused() -> None:
    scene = dict(SCENARIOS["angamos"])
    scene["ships"] = [dict(s) for s in ships("angamos")]
    scene["ships"][0]["lost"] = {"hull": 9}
    with pytest.raises(ValueError, match="cannot lose"):
        IRONCLADS.setup(scene, {})


@cache
def played(slug: str, seed: bytes) -> tuple[Any, Any]:
    initial = resolver.new_battle(IRONCLADS, SCENARIOS[slug], seed_commitment=dice.commitment(seed))
    chosen = {side: policies.RandomPolicy(seed + side.encode()) for side in initial.sides}
    return initial, policies.auto_play(IRONCLADS, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_of_each_scenario_ends_with_every_invariant_holding(slug: str, seed: bytes) -> None:
    initial, outcome = played(slug, seed)
    assert outcome.state.over
    assert outcome.state.turn <= SCENARIOS[slug]["turns"]
    assert outcome.state.winner in (None, *outcome.state.sides)
    rebuilt = fold_checking(IRONCLADS, initial, outcome.events, every=25)
    assert state.state_to_json(IRONCLADS, rebuilt) == state.state_to_json(IRONCLADS, outcome.state)
