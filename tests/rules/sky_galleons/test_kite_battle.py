"""Kites in a battle: the movement die rolled at the start of the kite's movement phase, the wind rolled at the
start when the scenario sets none, and the move allowed by the point of sail (SG-KITE-01..04, SG-WIND-01)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import Rejection
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.ruleset import FIRST, MOVE
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
