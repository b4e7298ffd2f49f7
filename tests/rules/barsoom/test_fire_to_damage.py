"""A shot from the roll to hit to the Damage table and the DED, every die through the engine's dice as a phase will
roll them, and the side row 8 takes a weapon from."""

from __future__ import annotations

import pytest

from battles.engine import dice, hexgrid
from battles.rules.barsoom import damage, weapons
from battles.rules.barsoom.damage import ROLL_DED, WRECK_FALLS, Condition, DamageDue
from battles.rules.barsoom.weapons import Severity

SEED = b"barsoom damage"


@pytest.mark.rule("BR-HIT-01", "BR-HIT-03", "BR-HIT-04", "BR-HIT-05", "BR-HIT-06")
def test_the_logged_roll_to_hit_names_the_severity_the_rules_read():
    needed = weapons.needed()
    for counter in range(200):
        modifiers = weapons.to_hit_modifiers(weapons.weapon("2-pounder cannon"), distance=counter % 30, at_crew=False)
        roll = dice.make_roll(SEED, "to hit", stream="fire", counter=counter * 2, count=2, modifiers=modifiers)
        found = weapons.severity(weapons.hit_result(roll.dice, modifiers))
        assert needed.judge(roll.total) == (found.value if found else "miss")


@pytest.mark.rule("BR-DMG-01", "BR-DMG-14")
def test_the_logged_damage_roll_names_the_row_apply_reads():
    needed = damage.needed()
    for natural in range(1, 11):
        for modifier in (-4, -2, 0, 1, 2):
            row = damage.apply(Condition(), natural, modifier=modifier, turn_card="Turn left").row
            assert needed.judge(natural + modifier) == damage.rows()[row].effect


@pytest.mark.rule("BR-DED-01", "BR-DED-03")
def test_the_logged_DED_names_the_extra_move():
    needed = damage.ded_needed()
    assert [needed.judge(face) for face in range(1, 7)] == ["Stop", "Stop", "Ahead", "Ahead", "Turn right", "Turn left"]


@pytest.mark.rule("BR-HIT-05", "BR-DMG-02", "BR-DMG-12", "BR-DED-02")
def test_a_grievous_heavy_hit_rolls_two_d10_applied_at_once_and_two_10s_wreck_her():
    cannon = weapons.weapon("2-pounder cannon")
    modifiers = weapons.to_hit_modifiers(cannon, distance=12, at_crew=False)
    result = weapons.hit_result((6, 5), modifiers)
    assert (result, weapons.severity(result)) == (4, Severity.GRIEVOUS)
    due = weapons.ship_damage(cannon, Severity.GRIEVOUS, small_craft=False)
    assert due == DamageDue(2, 0)
    condition, owed = Condition(), []
    for natural in (10, 10):
        applied = damage.apply(condition, natural, modifier=due.modifier)
        condition, owed = applied.condition, [*owed, *applied.owed]
    assert condition.wrecked
    assert owed == [WRECK_FALLS]


@pytest.mark.rule("BR-HIT-03", "BR-DED-02")
def test_a_stunned_hit_owes_one_DED_and_no_damage_roll():
    due = weapons.ship_damage(weapons.weapon("Martian pulse gun"), Severity.STUNNED, small_craft=False)
    assert (due.rolls, due.ded) == (0, True)


@pytest.mark.rule("BR-DMG-10")
@pytest.mark.parametrize(
    ("source", "sides"),
    [
        (hexgrid.Hex(0, -3), {"bow"}),  # dead ahead of a ship facing north
        (hexgrid.Hex(0, 3), {"stern"}),
        (hexgrid.Hex(3, -1), {"starboard"}),
        (hexgrid.Hex(-3, 1), {"port"}),
        (hexgrid.Hex(0, 0), {"bow", "stern", "port", "starboard"}),  # from her own hex: the owner's pick of any
    ],
)
def test_row_8_takes_a_weapon_from_the_side_the_damage_came_from(source: hexgrid.Hex, sides: set[str]):
    assert damage.sides_hit(hexgrid.ORIGIN, 0, source) == sides


@pytest.mark.rule("BR-DMG-08", "BR-DED-02")
def test_damage_rolled_through_the_dice_changes_the_condition_and_owes_DEDs_for_rows_3_to_8():
    table, condition = dice.Dice(SEED), Condition()
    owed_deds = 0
    for _ in range(30):
        roll, table = table.roll("damage", sides=10, needed=damage.needed(), stream="damage")
        held = damage.turn_cards_held(condition)
        applied = damage.apply(condition, roll.dice[0], turn_card=held[0] if held else "Turn right", weapon="gun")
        assert applied.row == roll.dice[0]
        owed_deds += applied.owed.count(ROLL_DED)
        condition = damage.new_turn(applied.condition)
    assert owed_deds > 0
    assert dice.verify(SEED, roll)
    assert condition.options == max(0, 3 - condition.control_damage)
