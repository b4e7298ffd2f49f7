"""Scenarios as data (docs/scenarios.md): the loader's checks and Scenario 1, Thieves Fall Out (SG-SCN-01..06)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from battles.engine import dice, hexgrid, resolver
from battles.engine.decisions import Rejection
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.kinds import FIRST, ORDERS, PLACE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SLUG = "thieves-fall-out"


def thieves() -> dict[str, Any]:
    return copy.deepcopy(scenario.load_data(SLUG))


def test_every_shipped_scenario_loads_and_is_listed():
    assert SLUG in scenario.available()
    scenario.catalog_check()
    slugs = [s["slug"] for s in SKY_GALLEONS.example_scenarios()]
    assert slugs == scenario.available()


@pytest.mark.rule("SG-SCN-01", "SG-SCN-02", "SG-SCN-03")
def test_thieves_fall_out_is_identical_sky_runners_over_open_ground_crewed_trained():
    found = scenario.load(SLUG)
    assert found.terrain.heights == {}  # no city, every hex at ground level
    assert len(found.sides) >= 3  # a multiplayer scenario
    records = found.ships
    assert {r.class_name for r in records} == {"Sky Runner"}
    assert {r.propulsion for r in records} == {"screw_galley"}
    assert {r.crew_quality for r in records} == {"trained"}
    first = records[0]
    for other in records[1:]:  # every captain has the same record sheet
        assert other.hull_rows == first.hull_rows
        assert other.guns == first.guns
        assert other.crew == first.crew
        assert other.speed == first.speed


@pytest.mark.rule("SG-SCN-04")
def test_set_up_lowest_roll_first_then_in_turn_and_never_within_four_hexes():
    seed = b"set-up"
    initial = resolver.new_battle(SKY_GALLEONS, thieves(), seed_commitment=dice.commitment(seed))
    started = resolver.resolve(SKY_GALLEONS, initial, seed)
    rolls = {
        str(e.data["purpose"]).split(": ")[1]: int(str(e.data["total"]))
        for e in started.events
        if e.kind == "roll" and str(e.data["purpose"]).startswith("set-up order")
    }
    order = next(e for e in started.events if e.kind == "placement order").data["sides"]
    assert isinstance(order, list)
    assert rolls[str(order[0])] == min(rolls.values())
    sides = list(started.state.board.side_order)
    start = sides.index(str(order[0]))
    assert order == sides[start:] + sides[:start]  # the others follow in turn
    state = started.state
    [request] = state.pending()
    assert request.kind == PLACE
    assert request.side == order[0]
    # Place the first ship in the middle, then try to put the next one 3 hexes away: refused.
    state = _submit(state, request, {"hex": [15, 11], "facing": 0, "altitude": "M"}, seed)
    [request] = state.pending()
    too_close = resolver.submit(
        SKY_GALLEONS,
        state,
        side=request.side,
        request_id=request.id,
        choice={"hex": [18, 11], "facing": 0, "altitude": "M"},
        seed=seed,
    )
    assert isinstance(too_close, Rejection)
    assert too_close.clause == "SG-SCN-04"
    assert hexgrid.distance(hexgrid.from_odd_q(15, 11), hexgrid.from_odd_q(18, 11)) == 3
    state = _submit(state, request, {"hex": [19, 11], "facing": 3, "altitude": "M"}, seed)  # 4 away: fine
    [request] = state.pending()
    state = _submit(state, request, request.default, seed)  # the default is legal
    placed = [s.position for s in state.board.ships]
    assert all(a is not None for a in placed)
    for a in state.board.ships:
        for b in state.board.ships:
            if a.name < b.name:
                assert a.position is not None
                assert b.position is not None
                assert hexgrid.distance(a.position, b.position) >= 4
    assert state.pending()[0].kind == ORDERS  # the game starts once set-up is complete


def _submit(state: Any, request: Any, choice: Any, seed: bytes) -> Any:
    outcome = resolver.submit(SKY_GALLEONS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert not isinstance(outcome, Rejection), outcome
    return outcome.state


@pytest.mark.rule("SG-SCN-05")
def test_multiplayer_initiative_winner_picks_the_first_mover_and_the_rest_follow_in_turn():
    seed = b"three captains"
    initial = resolver.new_battle(SKY_GALLEONS, thieves(), seed_commitment=dice.commitment(seed))
    state = resolver.resolve(SKY_GALLEONS, initial, seed).state
    while not any(r.kind == FIRST for r in state.pending()):
        request = state.pending()[0]
        state = _submit(state, request, request.default, seed)
    [first] = state.pending()
    sides = list(state.board.side_order)
    assert set(first.options or ()) == set(sides)
    chosen = next(s for s in sides if s != first.side)
    outcome = resolver.submit(SKY_GALLEONS, state, side=first.side, request_id=first.id, choice=chosen, seed=seed)
    assert isinstance(outcome, resolver.Accepted)
    order = next(e for e in outcome.events if e.kind == "movement order").data["order"]
    start = sides.index(chosen)
    assert order == sides[start:] + sides[:start]
    # Three movement phases in a turn, one per captain.
    phases = [e.phase for e in outcome.events if e.kind == "phase"]
    assert phases[0] == f"movement 1: {chosen}"


@pytest.mark.rule("SG-SCN-06")
def test_the_last_captain_flying_wins():
    seed = b"last flying"
    data = thieves()
    initial = resolver.new_battle(SKY_GALLEONS, data, seed_commitment=dice.commitment(seed))
    state = resolver.resolve(SKY_GALLEONS, initial, seed).state
    sides = list(state.board.side_order)
    while not any(r.kind == ORDERS for r in state.pending()):
        request = state.pending()[0]
        state = _submit(state, request, request.default, seed)
    # Two captains strike: the battle goes on while two fly, and ends when one is left.
    for request in state.pending():
        strike = [s.name for s in state.board.fighting(request.side)] if request.side != sides[0] else []
        state = _submit(state, request, {"crew": [], "strike": strike}, seed)
    assert state.over
    assert state.winner == sides[0]
    outcome = SKY_GALLEONS.tally(state)
    assert [s["fate"] for s in outcome["ships"]] == ["fighting", "struck", "struck"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["sides"][0]["ships"][0].update({"class": "No Such Ship"}), "No Such Ship"),
        (lambda d: d["sides"][0]["ships"][0].update({"altitude": "VH"}), "ceiling"),
        (lambda d: d["sides"][1]["ships"][0].update({"name": "Belle Etoile"}), "names must differ"),
        (lambda d: d["sides"][0]["ships"][0].update({"position": [40, 3]}), "off the 30 x 22 map"),
        (lambda d: d["sides"][0]["ships"][0].update({"facing": 6}), "facing"),
        (lambda d: d.update({"special_rules": ["ramming"]}), "not played yet"),
        (lambda d: d.update({"victory": {"kind": "capture"}}), "victory.kind"),
        (lambda d: d["sides"][1]["ships"][0].update({"position": [16, 5]}), "set-up asks for 4"),
        (lambda d: d.update({"sides": d["sides"][:1]}), "two or more sides"),
        (lambda d: d["sides"][0]["ships"][0].update({"colour": "red"}), "unknown keys"),
        (lambda d: d["map"].update({"terrain": [{"hex": [15, 4], "height": "H"}]}), "in the ground"),
    ],
)
def test_a_scenario_that_cannot_be_played_is_refused_with_the_reason(change, message):
    data = thieves()
    change(data)
    with pytest.raises(scenario.ScenarioError, match=message):
        scenario.parse(data)


def test_a_ship_may_come_from_a_design_instead_of_the_catalog():
    data = thieves()
    data["sides"][0]["ships"][0] = {
        "name": "Homebuilt",
        "design": {
            "yard": "martian",
            "hull": "wood",
            "hull_size": 3,
            "ram": False,
            "armor": 0,
            "propulsion": {"type": "screw_galley", "turncranks": 12},
            "weapons": [{"weapon": "Heavy Gun", "mount": "forward"}],
            "exotics": [],
            "marines": 0,
        },
        "position": [7, 5],
        "facing": 2,
        "altitude": "L",
    }
    found = scenario.parse(data)
    homebuilt = found.ships[0]
    assert homebuilt.name == "Homebuilt"
    assert homebuilt.class_id is None
    assert [g.name for g in homebuilt.guns] == ["Heavy Gun"]
