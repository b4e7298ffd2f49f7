"""A ship wrecked by the moves made before hers in the same phase makes no move (SG-SEQ-04, SG-DMG-16).

Found by the conformance suite's random play: with standing orders a side writes all its moves at once, and
they are made one after another; Dauntless's move wrecked Daring, whose written move was then carried out
anyway and the trace refused a ship that was not flying. The battle is that random play, replayed."""

from __future__ import annotations

import pytest

from battles.engine import dice, policies, resolver
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SEED = b"\x18"
SWITCHES = {
    "errata": False,
    "two_range_penetration": True,
    "standing_orders": True,
    "advanced": True,
    "nonexploding_rounds": True,
    "restricted_arcs": True,
    "green_machineguns_flat_out": True,
    "agility": True,
    "agility_gm_ratings": True,
    "raking_fire": True,
    "extreme_range": True,
    "long_range_penetration": True,
    "coal_bunker_hits": True,
    "ramming_speed": True,
    "officer_led_boarding": True,
    "line_of_sight": True,
    "plotted_movement": True,
    "signals": True,
    "naval_codes": True,
}


@pytest.mark.rule("SG-SEQ-04")
def test_a_ship_wrecked_before_her_written_move_is_made_makes_none():
    scenario = SKY_GALLEONS.example_scenarios()[0]
    initial = resolver.new_battle(SKY_GALLEONS, scenario, seed_commitment=dice.commitment(SEED), options=SWITCHES)
    players = {side: policies.RandomPolicy(SEED + side.encode()) for side in initial.sides}
    done = policies.auto_play(SKY_GALLEONS, initial, seed=SEED, policies=players, max_decisions=2000)
    assert done.state.over
    wrecked = [s.name for s in done.state.board.ships if s.status == "crashed"]
    assert "Daring" in wrecked  # the ship the bug was about went down, and the battle still ended
    assert SKY_GALLEONS.check_invariants(done.state) == []
