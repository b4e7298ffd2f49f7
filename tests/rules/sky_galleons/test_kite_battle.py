"""Kites in a battle: the movement die rolled at the start of the kite's movement phase, the wind rolled at the
start when the scenario sets none, and the move allowed by the point of sail (SG-KITE-01..04, SG-WIND-01)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import Rejection
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.kinds import FIRST, MOVE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS

SEED = b"kites"


def kites(wind: int | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "slug": "kite-test",
        "title": "Kite test",
        "map": {"cols": 20, "rows": 16},
        "turn_limit": 3,
        "sides": [
            {"id": "a", "ships": [{"name": "Swift", "class": "Swiftwood", "position": [5, 8], "facing": 0}]},
            {"id": "b", "ships": [{"name": "Runner", "class": "Sky Runner", "position": [15, 8], "facing": 0}]},
        ],
    }
    if wind is not None:
        data["wind"] = wind
    return data


@pytest.mark.rule("SG-WIND-01")
def test_a_scenario_with_kites_and_no_wind_rolls_the_wind() -> None:
    initial = resolver.new_battle(RS, kites(None), seed_commitment=dice.commitment(SEED))
    events = resolver.resolve(RS, initial, SEED).events
    rolled = [e for e in events if e.kind == "roll" and str(e.data["purpose"]).startswith("wind")]
    assert len(rolled) == 1
    wind = next(e for e in events if e.kind == "wind")
    assert wind.data["direction"] == rolled[0].data["dice"][0] - 1


@pytest.mark.rule("SG-KITE-01", "SG-KITE-02", "SG-KITE-04", "SG-KITE-05")
@pytest.mark.parametrize("wind", [3, 0])  # from the south: the kite faces north and runs; from the north: into it
def test_the_kite_rolls_its_die_in_its_phase_and_sails_by_the_wind(wind: int) -> None:
    initial = resolver.new_battle(RS, kites(wind), seed_commitment=dice.commitment(SEED))
    state = resolver.resolve(RS, initial, SEED).state
    events = []
    while True:
        request = state.pending()[0]
        if request.kind == MOVE and request.side == "a":
            break
        choice = "a" if request.kind == FIRST else request.default
        outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=SEED)
        assert not isinstance(outcome, Rejection)
        state, events = outcome.state, events + list(outcome.events)
    rolled = next(e for e in events if e.kind == "roll" and "movement die (kite)" in str(e.data["purpose"]))
    die = rolled.data["dice"][0]
    assert state.board.kite_dice["Swift"] == die
    swift = state.board.ship("Swift")
    allowed = RS.allowance(state, swift)
    assert allowed.sail is not None
    if wind == 3:  # running: 1 + the die
        assert allowed.sail.on(swift.facing) == swift.effective_speed(die, with_wind=True)
        plan = [movement.AHEAD] * allowed.sail.on(swift.facing)
        assert RS.validate(state, request, plan) is None
        assert RS.validate(state, request, [*plan, movement.AHEAD]) is not None
    else:  # facing into the wind: no move ahead at all
        assert allowed.sail.on(swift.facing) == 0
        assert RS.validate(state, request, [movement.AHEAD]) is not None


@pytest.mark.rule("SG-KITE-02", "SG-KITE-04", "SG-KITE-06")
@pytest.mark.parametrize(("number", "run"), [(3, 0), (1, 3)])
def test_in_the_pitched_battle_no_kite_rolled_on_a_beat_moves_past_her_beating_allowance(number: int, run: int) -> None:
    """The issue 18 audit: in the Pitched Battle (simulation 3, turn 6) a kite whose die was rolled on a
    beat bore away and ran on past her beating allowance. Every move of the AI's battle is checked against
    the heading she had when her die was rolled (her allowance can only be lower: towing, avoiding, drogues)."""
    from battles.engine import simulate
    from battles.rules.sky_galleons import scenario as scenarios

    played = simulate.simulate(RS, scenarios.load_data("pitched-battle"), seed=simulate.seed_for(number, run))
    state = played.initial
    rolled: dict[str, int] = {}
    spent: dict[str, int] = {}
    beating: dict[str, int | None] = {}  # the beating allowance of a kite rolled on a beat; None on a run
    checked = 0
    for event in played.events:
        name = str(event.data.get("ship", ""))
        if event.kind == "kite die":
            rolled[name], spent[name] = int(str(event.data["die"])), 0
            beating.pop(name, None)
        elif event.kind == "moved" and name in rolled:
            if name not in beating:  # her first step: the state still has her heading at the roll
                kite = state.board.ship(name)
                assert state.board.wind is not None
                on_a_beat = movement.point_of_sail(kite.facing, state.board.wind) == movement.BEAT
                beating[name] = kite.effective_speed(rolled[name], with_wind=False) if on_a_beat else None
            spent[name] += int(str(event.data["cost"]))
            allowance = beating[name]
            if allowance is not None:
                checked += 1
                assert spent[name] <= allowance, (name, state.turn, spent[name], allowance)
        state = resolver.apply_event(RS, state, event)
    assert checked > 0, "some kite moved on a beat"
