"""The advanced fire rules as the ruleset offers them: marines' small arms among the solutions, shrapnel and
grape in the fire declaration, the optional rules as battle options (SG-SAF-01, SG-SHR-01, SG-NEX, SG-ARC)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import Rejection
from battles.engine.state import BattleState
from battles.rules.sky_galleons import combat
from battles.rules.sky_galleons.agility import AgilityFireModel
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import FIRE, FIRST
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS

SEED = b"advanced-fire"


def close_quarters(options: dict[str, Any] | None = None) -> BattleState[Board]:
    """An Endtime (a marine officer and nine marines) and a British Dauntless a hex apart, broadside on."""
    data = {
        "slug": "advanced-fire-test",
        "title": "Advanced fire test",
        "map": {"cols": 16, "rows": 12},
        "turn_limit": 2,
        "sides": [
            {"id": "a", "ships": [{"name": "Gull", "class": "Endtime", "position": [6, 6], "facing": 0}]},
            {
                "id": "b",
                "ships": [{"name": "Dart", "class": "Dauntless (original design)", "position": [7, 6], "facing": 0}],
            },
        ],
    }
    state = resolver.resolve(
        RS, resolver.new_battle(RS, data, seed_commitment=dice.commitment(SEED), options=options), SEED
    ).state
    while state.pending()[0].kind != FIRE:
        request = state.pending()[0]
        choice = "a" if request.kind == FIRST else request.default
        outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=SEED)
        assert not isinstance(outcome, Rejection)
        state = outcome.state
    return state


@pytest.mark.rule("SG-SAF-01", "SG-MAR-01")
def test_marines_fire_small_arms_with_the_advanced_rules_only() -> None:
    advanced = close_quarters()
    assert any(s.gun_id == combat.MARINES for s in RS.solutions(advanced, "a"))
    basic = close_quarters({"advanced": False})
    assert not any(s.gun_id == combat.MARINES for s in RS.solutions(basic, "a"))


@pytest.mark.rule("SG-SHR-01")
def test_a_british_gun_may_be_declared_with_shrapnel_with_the_advanced_rules() -> None:
    for options, allowed in (({}, True), ({"advanced": False}, False)):
        state = close_quarters(options)
        request = next(r for r in state.pending() if r.side == "b")
        guns = [s for s in RS.solutions(state, "b") if s.gun_id != combat.MARINES]
        shrapnel = next(s for s in guns if "shrapnel" in combat.ammunition_for(state.board.ship("Dart").gun(s.gun_id)))
        shot = {"ship": "Dart", "gun": shrapnel.gun_id, "target": "Gull", "ammunition": "shrapnel"}
        problem = RS.validate(state, request, {"shots": [shot]})
        assert (problem is None) == allowed, problem


@pytest.mark.rule("SG-NEX-01", "SG-ARC-01")
def test_the_optional_fire_rules_are_battle_options() -> None:
    state = close_quarters({"nonexploding_rounds": True, "restricted_arcs": True})
    rules = RS.rules(state)
    assert rules.nonexploding_rounds
    assert rules.restricted_arcs
    plain = RS.rules(close_quarters())
    assert not plain.nonexploding_rounds
    assert not plain.restricted_arcs


@pytest.mark.rule("AG-AGI-01", "AG-RAKE-01", "AG-EXT-01", "AG-LRP-01")
def test_the_agility_rules_are_battle_options_and_a_move_sets_the_agility_speed() -> None:
    options = {"agility": True, "raking_fire": True, "extreme_range": True, "long_range_penetration": True}
    state = close_quarters(options)
    model = RS.rules(state).model
    assert isinstance(model, AgilityFireModel)
    assert (model.agility, model.raking_fire, model.extreme_range, model.long_range_penetration) == (
        True,
        True,
        True,
        True,
    )
    assert state.board.ship("Gull").agility_speed == 0  # it held still in its move
    assert type(RS.rules(close_quarters()).model) is combat.FireModel
    assert close_quarters().board.ship("Gull").agility_speed is None
