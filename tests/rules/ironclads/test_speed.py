"""Current speed against maximum speed (IC-SPD-01..11, IC-SEA-04, IC-PROB-04, IC-PROB-07, IC-MOV-08/09)."""

from __future__ import annotations

import pytest

from battles.engine.decisions import Rejection
from battles.rules.ironclads import cards, speed
from battles.rules.ironclads.cards import PROPULSION
from battles.rules.ironclads.speed import STOPPED, Setting


def clause(refusal: Rejection | None) -> str | None:
    return None if refusal is None else refusal.clause


def ahead(*speeds: int) -> tuple[Setting, ...]:
    return tuple(Setting(s) for s in speeds)


@pytest.mark.rule("IC-SPD-01", "IC-SPD-02")
def test_a_ship_has_a_maximum_and_a_current_speed_ic_spd_01_ic_spd_02() -> None:
    """IC-SPD-01/02: the maximum is the Propulsion left, and falls as stats are crossed off."""
    ship = cards.card("GLOIRE", {PROPULSION: 13})
    assert speed.maximum(ship) == 13
    hit, _ = ship.cross_off(PROPULSION, 4)
    assert speed.maximum(hit) == 9
    assert Setting(10) == (10, False)


@pytest.mark.rule("IC-SPD-03")
def test_current_speed_is_a_whole_number_from_0_to_the_maximum_ic_spd_03() -> None:
    """IC-SPD-03: never above the maximum by choice, never below 0."""
    assert speed.next_settings(Setting(12), 12) == ahead(12, 11, 10)
    assert speed.next_settings(Setting(1), 12) == ahead(2, 1, 0)
    assert clause(speed.judge(Setting(12), Setting(13), 12)) == "IC-SPD-03"
    assert clause(speed.judge(Setting(1), Setting(-1), 12)) == "IC-SPD-03"


@pytest.mark.rule("IC-SPD-05")
def test_the_changes_are_up_one_same_down_one_or_two_ic_spd_05() -> None:
    """IC-SPD-05: +1, 0, -1, -2 and nothing else."""
    assert speed.next_settings(Setting(5), 20) == ahead(6, 5, 4, 3)
    assert clause(speed.judge(Setting(5), Setting(2), 20)) == "IC-SPD-05"
    assert clause(speed.judge(Setting(5), Setting(7), 20)) == "IC-SPD-05"
    assert speed.judge(Setting(5), Setting(3), 20) is None


@pytest.mark.rule("IC-SPD-09")
def test_the_worked_example_max_12_current_10_ic_spd_09() -> None:
    """IC-SPD-09: Propulsion 12 of 20 left, current 10 -> 11, 10, 9 or 8."""
    ship, _ = cards.card("EXAMPLE", {PROPULSION: 20}).cross_off(PROPULSION, 8)
    assert speed.maximum(ship) == 12
    assert speed.next_settings(Setting(10), speed.maximum(ship)) == ahead(11, 10, 9, 8)


@pytest.mark.rule("IC-SPD-07", "IC-SPD-10")
def test_the_worked_example_lose_3_propulsion_forced_to_8_then_up_to_9_ic_spd_07_ic_spd_10() -> None:
    """IC-SPD-07/10: max 12 -> 9 while at 10: next turn she must drop by 2 to 8 (undershooting 9); a later turn she
    may rise by 1 to 9."""
    ship, _ = cards.card("EXAMPLE", {PROPULSION: 12}).cross_off(PROPULSION, 3)
    top = speed.maximum(ship)
    assert top == 9
    assert speed.next_settings(Setting(10), top) == ahead(8)  # turn 1: forced
    assert clause(speed.judge(Setting(10), Setting(9), top)) == "IC-SPD-07"
    assert speed.next_settings(Setting(8), top) == ahead(9, 8, 7, 6)  # turn 2: her choice again
    assert speed.judge(Setting(8), Setting(9), top) is None


@pytest.mark.rule("IC-SPD-11")
def test_the_worked_example_lose_4_more_forced_to_7_then_5_ic_spd_11() -> None:
    """IC-SPD-11: max 9 -> 5 at current 9: forced to 7 the next turn, to 5 the turn after, then free within 5."""
    ship, _ = cards.card("EXAMPLE", {PROPULSION: 9}).cross_off(PROPULSION, 4)
    top = speed.maximum(ship)
    current = Setting(9)
    for expected in (7, 5):
        (current,) = speed.next_settings(current, top)
        assert current == Setting(expected)
    assert speed.next_settings(current, top) == ahead(5, 4, 3)


@pytest.mark.rule("IC-SPD-07")
def test_the_forced_cut_stops_at_0_ic_spd_07() -> None:
    """IC-SPD-07: a ship at 1 with no Propulsion left stops; one backing at 1 stops too."""
    assert speed.next_settings(Setting(1), 0) == (STOPPED,)
    assert speed.next_settings(Setting(1, astern=True), 0) == (STOPPED,)
    assert speed.next_settings(STOPPED, 0) == (STOPPED,)


@pytest.mark.rule("IC-SEA-04")
def test_a_rough_sea_holds_every_ship_to_6_ic_sea_04() -> None:
    """IC-SEA-04: whatever her Propulsion, never above 6 in a rough sea."""
    assert speed.ceiling(14, rough=True) == 6
    assert speed.ceiling(4, rough=True) == 4
    assert speed.next_settings(Setting(6), 14, rough=True) == ahead(6, 5, 4)
    assert clause(speed.judge(Setting(6), Setting(7), 14, rough=True)) == "IC-SEA-04"


@pytest.mark.rule("IC-PROB-04")
def test_wrecked_smokestacks_hold_her_to_6_and_cut_her_by_2_from_above_ic_prob_04() -> None:
    """IC-PROB-04: her speed at most 6 for the rest of the game; a ship at 10 when they are wrecked is cut by 2 a
    turn, as any ship above her maximum is (IC-SPD-07), down to 6."""
    assert speed.next_settings(Setting(6), 14, smokestacks=True) == ahead(6, 5, 4)
    assert clause(speed.judge(Setting(6), Setting(7), 14, smokestacks=True)) == "IC-PROB-04"
    assert speed.next_settings(Setting(10), 14, smokestacks=True) == ahead(8)
    assert speed.next_settings(Setting(8), 14, smokestacks=True) == ahead(6)


@pytest.mark.rule("IC-PROB-07")
def test_a_bridge_hit_freezes_her_speed_for_a_turn_but_not_the_forced_cut_ic_prob_07() -> None:
    """IC-PROB-07 (decision): no chosen change for the turn; a forced cut (IC-SPD-07) still happens."""
    assert speed.next_settings(Setting(10), 14, bridge=True) == ahead(10)
    assert clause(speed.judge(Setting(10), Setting(11), 14, bridge=True)) == "IC-PROB-07"
    assert speed.next_settings(Setting(10), 9, bridge=True) == ahead(8)
    assert speed.next_settings(STOPPED, 9, bridge=True) == (STOPPED,)


@pytest.mark.rule("IC-MOV-08")
def test_astern_needs_a_stop_first_then_at_most_1_from_a_later_turn_ic_mov_08() -> None:
    """IC-MOV-08: from ahead she cannot back in the same turn; stopped since a turn before, she may back at 1."""
    assert Setting(1, astern=True) not in speed.next_settings(Setting(1), 12)
    assert clause(speed.judge(Setting(1), Setting(1, astern=True), 12)) == "IC-MOV-08"
    # turn 1: she stops; turn 2: from 0 she may go astern
    (stop,) = [s for s in speed.next_settings(Setting(1), 12) if s.speed == 0]
    assert speed.next_settings(stop, 12) == (Setting(1), STOPPED, Setting(1, astern=True))
    assert clause(speed.judge(STOPPED, Setting(2, astern=True), 12)) == "IC-MOV-08"


@pytest.mark.rule("IC-MOV-09")
def test_backing_she_keeps_1_or_stops_and_goes_ahead_only_after_a_stop_ic_mov_09() -> None:
    """IC-MOV-09: astern -> astern 1 or stop; ahead again only from 0 on a later turn."""
    backing = Setting(1, astern=True)
    assert speed.next_settings(backing, 12) == (backing, STOPPED)
    assert clause(speed.judge(backing, Setting(1), 12)) == "IC-MOV-09"
    assert Setting(1) in speed.next_settings(STOPPED, 12)
    assert [str(s) for s in (backing, STOPPED, Setting(4))] == ["1 astern", "stopped", "4 ahead"]
