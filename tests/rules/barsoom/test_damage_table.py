"""The Damage table, row by row, over a ship's Condition: what each face does, what it owes, what a repair gives
back, the two 10s of a turn, fires, and the rolls owed by crashes, collisions and rams."""

from __future__ import annotations

import pytest

from battles.rules.barsoom import damage
from battles.rules.barsoom.damage import (
    DESCEND,
    ROLL_AGAIN,
    ROLL_DED,
    WRECK_FALLS,
    Condition,
    DamageDue,
    Harm,
    apply,
)

FRESH = Condition()


@pytest.mark.rule("BR-DMG-01")
def test_the_table_is_a_d10_with_every_row_from_1_to_10_each_naming_its_clause():
    assert damage.TABLE.whole("die") == 10
    rows = damage.rows()
    assert sorted(rows) == list(range(1, 11))
    assert [rows[face].clause for face in range(1, 11)] == [f"BR-DMG-{n:02d}" for n in range(3, 13)]


@pytest.mark.rule("BR-DMG-05", "BR-DMG-06", "BR-DMG-07", "BR-DMG-08", "BR-DMG-09", "BR-DMG-10", "BR-DED-02")
def test_rows_3_to_8_owe_a_DED_and_no_other_row_does():
    assert [face for face, row in damage.rows().items() if row.ded] == [3, 4, 5, 6, 7, 8]
    owing = [face for face in range(1, 11) if ROLL_DED in apply(FRESH, face, turn_card="Turn left").owed]
    assert owing == [3, 4, 5, 6, 7, 8]


@pytest.mark.rule("BR-REP-01", "BR-DMG-10", "BR-DMG-12", "BR-REP-07")
def test_rows_3_to_7_and_the_fire_are_repairable_8_and_10_never():
    repairable = [face for face, row in damage.rows().items() if row.repairable]
    assert repairable == [3, 4, 5, 6, 7, 9]


@pytest.mark.rule("BR-DMG-03")
def test_row_1_does_nothing():
    assert apply(FRESH, 1) == damage.Applied(1, FRESH, ())


@pytest.mark.rule("BR-DMG-04", "BR-LAND-05")
def test_row_2_aloft_owes_one_involuntary_descent_and_changes_nothing_else():
    assert apply(FRESH, 2) == damage.Applied(2, FRESH, (DESCEND,))


@pytest.mark.rule("BR-DMG-04")
def test_row_2_on_the_ground_owes_another_roll_and_a_1_or_2_on_it_is_ignored():
    assert apply(FRESH, 2, on_the_ground=True).owed == (ROLL_AGAIN,)
    assert apply(FRESH, 2, on_the_ground=True, rolled_again=True) == damage.Applied(2, FRESH, ())
    assert apply(FRESH, 1, on_the_ground=True, rolled_again=True) == damage.Applied(1, FRESH, ())
    # any other face on the roll again counts as usual
    again = apply(FRESH, 7, on_the_ground=True, rolled_again=True)
    assert again.condition.holds("Ahead") == 2
    assert again.owed == (ROLL_DED,)


@pytest.mark.rule("BR-DMG-05", "BR-CARD-10")
def test_row_3_discards_the_reverse_card():
    after = apply(FRESH, 3).condition
    assert after.holds("Reverse") == 0
    assert after.discarded == ("Reverse",)
    assert after.harms == (Harm(3, ("Reverse",)),)


@pytest.mark.rule("BR-DMG-06", "BR-CARD-10")
def test_row_4_discards_the_ascend_and_a_small_crafts_extra_ascend_and_strands_a_ship_on_the_ground():
    aloft = apply(FRESH, 4).condition
    assert (aloft.holds("Ascend"), aloft.stranded) == (0, False)
    small = apply(Condition(small_craft=True), 4).condition
    assert (small.holds("Ascend"), small.holds("Extra Ascend")) == (0, 0)
    assert small.discarded == ("Ascend", "Extra Ascend")
    grounded = apply(FRESH, 4, on_the_ground=True).condition
    assert grounded.stranded
    assert not damage.repair(grounded, grounded.harms[0]).stranded


@pytest.mark.rule("BR-DMG-07", "BR-CARD-10")
def test_row_5_discards_the_turn_card_drawn_at_random():
    assert damage.turn_cards_held(FRESH) == ("Turn right", "Turn right", "Turn left", "Turn left")
    after = apply(FRESH, 5, turn_card="Turn left").condition
    assert (after.holds("Turn left"), after.holds("Turn right")) == (1, 2)
    assert damage.turn_cards_held(after) == ("Turn right", "Turn right", "Turn left")
    with pytest.raises(ValueError, match="Turn right"):
        apply(FRESH, 5, turn_card="Ahead")
    for card in ("Turn right", "Turn right", "Turn left"):
        after = apply(after, 5, turn_card=card).condition
    assert damage.turn_cards_held(after) == ()
    assert apply(after, 5, turn_card=None) == damage.Applied(5, after, (ROLL_DED,))


@pytest.mark.rule("BR-DMG-08", "BR-MOV-14")
def test_row_6_takes_one_movement_option_a_time_down_to_none():
    condition = FRESH
    seen = [condition.options]
    for _ in range(4):
        condition = apply(condition, 6).condition
        seen.append(condition.options)
    assert seen == [3, 2, 1, 0, 0]
    assert condition.control_damage == 3  # the fourth had nothing left to take (BR-DMG-15)


@pytest.mark.rule("BR-DMG-09", "BR-CARD-10")
def test_row_7_discards_one_ahead_card_a_time():
    condition = FRESH
    for left in (2, 1, 0, 0):
        condition = apply(condition, 7).condition
        assert condition.holds("Ahead") == left
    assert condition.discarded == ("Ahead", "Ahead", "Ahead")


@pytest.mark.rule("BR-DMG-15", "BR-DMG-05")
def test_a_card_already_gone_is_not_lost_twice_but_the_DED_still_comes():
    once = apply(FRESH, 3).condition
    twice = apply(once, 3)
    assert twice.condition == once
    assert twice.owed == (ROLL_DED,)


@pytest.mark.rule("BR-DMG-10")
def test_row_8_loses_the_weapon_the_owner_gives_up_for_good():
    after = apply(FRESH, 8, weapon="Port pulse gun")
    assert after.condition.weapons_lost == ("Port pulse gun",)
    assert after.condition.harms == ()  # nothing to repair
    assert apply(FRESH, 8, weapon=None).condition == FRESH  # no weapon on that side


@pytest.mark.rule("BR-DMG-11", "BR-REP-07")
def test_row_9_lights_a_fire_that_rolls_once_a_turn_until_put_out():
    one = apply(FRESH, 9)
    assert one.owed == ()
    assert damage.fire_rolls(one.condition) == 1
    two = apply(one.condition, 9).condition
    assert damage.fire_rolls(two) == 2
    out = damage.repair(two, Harm(9))
    assert damage.fire_rolls(out) == 1


@pytest.mark.rule("BR-DMG-12", "BR-DMG-13")
def test_a_lone_10_does_nothing_and_the_second_in_the_same_turn_wrecks_her():
    first = apply(FRESH, 10)
    assert first.owed == ()
    assert not first.condition.wrecked
    second = apply(first.condition, 10)
    assert second.condition.wrecked
    assert second.owed == (WRECK_FALLS,)
    # a wreck takes nothing more, fires included; her crew fight on (the Condition says nothing of them)
    assert apply(second.condition, 7).condition == second.condition
    assert damage.fire_rolls(apply(apply(FRESH, 9).condition, 10).condition) == 1


@pytest.mark.rule("BR-DMG-12")
def test_two_10s_in_different_turns_do_nothing():
    first = apply(FRESH, 10).condition
    later = apply(damage.new_turn(first), 10).condition
    assert not later.wrecked
    assert later.tens_this_turn == 1


@pytest.mark.rule("BR-DMG-14")
@pytest.mark.parametrize(
    ("natural", "modifier", "row"),
    [(1, -2, 1), (2, -2, 1), (3, -2, 1), (10, -2, 8), (9, 2, 10), (10, 2, 10), (8, 2, 10), (4, -4, 1), (10, -4, 6)],
)
def test_a_modified_roll_reads_a_row_held_within_1_and_10(natural: int, modifier: int, row: int):
    assert damage.table_row(natural, modifier) == row
    assert apply(FRESH, natural, modifier=modifier, turn_card="Turn right").row == row


@pytest.mark.rule("BR-REP-01")
def test_a_repair_gives_back_the_cards_that_harm_took_and_only_a_standing_harm_can_be_repaired():
    condition = apply(apply(FRESH, 7).condition, 5, turn_card="Turn right").condition
    fixed = damage.repair(condition, Harm(5, ("Turn right",)))
    assert fixed.discarded == ("Ahead",)
    assert fixed.holds("Turn right") == 2
    with pytest.raises(ValueError, match="not a repairable result"):
        damage.repair(fixed, Harm(3, ("Reverse",)))


@pytest.mark.rule("BR-CARD-08")
def test_only_a_small_crafts_deck_holds_the_extra_ascend():
    assert FRESH.holds("Extra Ascend") == 0
    assert Condition(small_craft=True).holds("Extra Ascend") == 1


@pytest.mark.rule("BR-DED-01")
def test_the_DED_has_two_stops_two_arrows_and_two_turns():
    symbols = [damage.ded(face).symbol for face in range(1, 7)]
    assert symbols == ["stop", "stop", "arrow", "arrow", "turn", "turn"]
    with pytest.raises(ValueError, match="faces 1 to 6"):
        damage.ded(7)


@pytest.mark.rule("BR-DED-03", "BR-DED-04")
def test_each_DED_face_is_an_extra_move_for_the_movement_phase():
    moves = [damage.ded(face).move for face in range(1, 7)]
    assert moves == ["Stop", "Stop", "Ahead", "Ahead", "Turn right", "Turn left"]


@pytest.mark.rule("BR-LAND-03")
@pytest.mark.parametrize("descends", [1, 2, 3])
def test_a_crash_owes_one_roll_a_consecutive_descend(descends: int):
    assert damage.crash(descends) == DamageDue(descends, 0)


@pytest.mark.rule("BR-COL-02", "BR-COL-03")
def test_a_collision_owes_one_roll_an_ahead_and_head_on_both_runs_added():
    assert damage.collision(2) == DamageDue(2, 0)
    assert damage.collision(2, head_on_aheads=3) == DamageDue(5, 0)
    assert damage.collision(0) == DamageDue(1, 0)  # touching at all costs one roll


@pytest.mark.rule("BR-RAM-02", "BR-RAM-03", "BR-RAM-04")
def test_a_ram_owes_d10_minus_2_an_ahead_and_the_rammed_ship_one_d10_plus_2():
    assert damage.ram(3) == DamageDue(3, -2)
    assert damage.ram(1, head_on_aheads=2) == DamageDue(3, -2)
    assert damage.rammed() == DamageDue(1, 2)


@pytest.mark.rule("BR-DED-05", "BR-DMG-04")
def test_the_DED_never_descends_a_ship_loses_height_through_row_2_instead():
    assert "Descend" not in {damage.ded(face).move for face in range(1, 7)}
    assert apply(FRESH, 2).owed == (DESCEND,)
    # a ship with every option gone still rolls on the table and still owes DEDs (BR-MOV-14)
    crippled = FRESH
    for _ in range(3):
        crippled = apply(crippled, 6).condition
    assert crippled.options == 0
    assert apply(crippled, 7).owed == (ROLL_DED,)
    assert apply(crippled, 2).owed == (DESCEND,)
