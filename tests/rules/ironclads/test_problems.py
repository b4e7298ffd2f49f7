"""The problems table (IC-PROB-01..10) and sinking (IC-END-01)."""

from __future__ import annotations

import pytest

from battles.rules.ironclads import cards, problems, salvo
from battles.rules.ironclads.cards import ARMOUR, HULL, PORT
from battles.rules.ironclads.damage import Noted
from battles.rules.ironclads.salvo import Score


@pytest.mark.rule("IC-PROB-01")
def test_only_a_ship_with_an_unsaved_hit_rolls_once_ic_prob_01() -> None:
    assert not problems.rolls_for_problems(Noted())
    assert problems.rolls_for_problems(Noted().note(Score(hits=1), (PORT,)))
    assert problems.rolls_for_problems(Noted().note(Score(criticals=1), (PORT,)))


@pytest.mark.rule("IC-PROB-02", "IC-PROB-03")
def test_a_2_is_steering_problems_then_major_ic_prob_02_ic_prob_03() -> None:
    first = problems.problem(2, armour_left=7, steering_problems=0)
    assert (first.name, first.clause, first.max_turn) == (problems.STEERING, "IC-PROB-02", 1)
    second = problems.problem(2, armour_left=7, steering_problems=1)
    assert (second.name, second.clause, second.max_turn) == (problems.MAJOR_STEERING, "IC-PROB-03", 0)


@pytest.mark.rule("IC-PROB-04")
def test_a_3_wrecks_the_smokestacks_speed_6_at_most_ic_prob_04() -> None:
    result = problems.problem(3, armour_left=7, steering_problems=0)
    assert (result.name, result.speed_cap) == (problems.SMOKESTACKS, 6)


@pytest.mark.parametrize("total", [9, 10])
@pytest.mark.rule("IC-PROB-05", "IC-PROB-06")
def test_a_9_or_10_sets_her_on_fire_only_under_3_armour_ic_prob_05_ic_prob_06(total: int) -> None:
    burning = problems.problem(total, armour_left=2, steering_problems=0)
    assert (burning.name, burning.fire, burning.clause) == (problems.FIRE, True, "IC-PROB-05")
    safe = problems.problem(total, armour_left=3, steering_problems=0)
    assert (safe.name, safe.fire, safe.clause) == (problems.NOTHING, False, "IC-PROB-06")
    assert problems.burns(cards.card("T", {ARMOUR: 2, HULL: 2}))
    assert not problems.burns(cards.card("I", {ARMOUR: 3, HULL: 2}))


@pytest.mark.rule("IC-PROB-05", "IC-FIRE-08")
def test_a_fire_halves_her_salvoes_for_the_next_1d3_turns_ic_prob_05_ic_fire_08() -> None:
    until = problems.fire_until(4, face=3)  # breaks out in turn 4; a 3 is 2 turns: 5 and 6
    assert until == 6
    assert [problems.on_fire(turn, until) for turn in (4, 5, 6, 7)] == [True, True, True, False]
    # Turn 4's salvoes are all fired before the fire breaks out in its Phase 3B: the board asks from turn 5.
    assert salvo.salvo_dice(11, 0, on_fire=problems.on_fire(5, until)) == 6
    assert problems.fire_until(5, face=1, burning_until=until) == 6  # a second fire does not shorten the first
    assert problems.fire_until(5, face=6, burning_until=until) == 8


@pytest.mark.parametrize("total", [11, 12])
@pytest.mark.rule("IC-PROB-07")
def test_an_11_or_12_hits_the_bridge_for_the_next_turn_only_ic_prob_07(total: int) -> None:
    result = problems.problem(total, armour_left=7, steering_problems=0)
    assert (result.name, result.bridge, result.max_turn, result.speed_cap) == (problems.BRIDGE, True, None, None)
    assert problems.bridge_turn(3) == 4


@pytest.mark.parametrize("total", range(4, 9))
@pytest.mark.rule("IC-PROB-08")
def test_4_to_8_do_nothing_ic_prob_08(total: int) -> None:
    result = problems.problem(total, armour_left=0, steering_problems=0)
    assert (result.name, result.max_turn, result.speed_cap, result.fire, result.bridge) == (
        problems.NOTHING,
        None,
        None,
        False,
        False,
    )


@pytest.mark.rule("IC-PROB-10")
def test_the_main_text_governs_the_quick_reference_ic_prob_10() -> None:
    # The quick reference has smokestacks on 3 or 4 and no bridge row: here 4 is nothing and 11-12 the bridge.
    assert problems.problem(4, armour_left=7, steering_problems=0).name == problems.NOTHING
    assert problems.problem(3, armour_left=7, steering_problems=0).name == problems.SMOKESTACKS
    table = problems.needed()
    assert [table.judge(t) for t in range(2, 13)] == [
        "steering problems", "smokestacks", *["nothing"] * 5, "fire", "fire", "bridge", "bridge",
    ]  # fmt: skip
    # A ship with 3 Armour or more lights no fire on 9-10 (IC-PROB-05): her roll's log never reads "fire".
    assert [problems.needed(3).judge(t) for t in (8, 9, 10, 11)] == ["nothing", "nothing", "nothing", "bridge"]
    assert problems.needed(2).judge(9) == "fire"


def test_a_total_off_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 12"):
        problems.problem(13, armour_left=0, steering_problems=0)


@pytest.mark.rule("IC-END-01")
def test_a_ship_with_no_hull_left_sinks_ic_end_01() -> None:
    ship = cards.card("SHIP", {ARMOUR: 2, HULL: 2})
    assert not problems.sinks(ship)
    holed, _ = ship.cross_off(HULL, 1)
    assert not problems.sinks(holed)
    sunk, _ = holed.cross_off(HULL, 3)
    assert problems.sinks(sunk)
