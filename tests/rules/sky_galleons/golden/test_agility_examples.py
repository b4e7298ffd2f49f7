"""Golden tests: every worked example of the Agility rules (agility-rules.txt), reproduced exactly.

One test per clause tagged "(worked example)" in the AG-* section of docs/rules/CHECKLIST.md: the 8-inch
against three 6-inch guns (AG-EXT-02), armor 0 doubled at long range (AG-LRP-03), ram damage at speeds 6
and 3 (AG-RSP-02/03).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons import agility
from battles.rules.sky_galleons.agility import AgilityFireModel
from battles.rules.sky_galleons.close_action import ram_hits
from battles.rules.sky_galleons.combat import CombatRules, FixedDice, fire
from galleons import catalog
from galleons.record import Moment, ShipRecord, ship_record_from_class


def ship(name: str, cls: str, *, at: Hex = ORIGIN) -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=0, altitude="M")


@pytest.mark.rule("AG-EXT-02")
def test_one_8_inch_gun_against_three_6_inch_guns_of_its_weight() -> None:
    eight, six = catalog.weapon("8in"), catalog.weapon("6in")
    # 300 tons, ROF (1), damage 8: firing every other turn, 4 a turn.
    assert (eight.weight_tons, eight.damage_value) == (300, 8)
    assert agility.mean_damage_per_turn("8in") == 4
    # 100 tons, damage 6, every turn: three in the 8-inch gun's weight, 18 a turn.
    assert (six.weight_tons, six.damage_value) == (100, 6)
    three = Fraction(eight.weight_tons, six.weight_tons)
    assert three == 3
    assert three * agility.mean_damage_per_turn("6in") == 18
    assert 4 * agility.mean_damage_per_turn("8in") < 18  # over four times as much


@pytest.mark.rule("AG-LRP-03", "AG-LRP-02")
def test_armor_0_counts_as_half_of_1_and_doubles_to_1_at_long_range() -> None:
    assert agility.long_range_armor(0) == 1
    assert agility.long_range_armor(1) == 2
    clearsight = ship("Clearsight", "Clearsight")  # light gun: Pen 0, DV 1, range 1/2
    swiftwood = ship("Swiftwood", "Swiftwood", at=Hex(0, -2))  # armor 0, at long range
    rules = CombatRules(model=AgilityFireModel(long_range_penetration=True))
    # Armor 1 against Pen 0: halved (SG-ARM-08): DV 1 leaves only the half point, which a 3 does not make.
    dice = FixedDice(5, 1, 3)
    ships, happened = fire(
        {s.name: s for s in (clearsight, swiftwood)},
        "Clearsight",
        "1",
        "Swiftwood",
        now=Moment(1),
        roller=dice,
        rules=rules,
    )
    assert dice.left == ()
    assert ships["Swiftwood"].hull_hits == 0
    assert any("armor 1 halves" in h["purpose"] for h in happened)
    # Without the rule the unarmored hull takes the point.
    ships, _ = fire(
        {s.name: s for s in (clearsight, swiftwood)},
        "Clearsight",
        "1",
        "Swiftwood",
        now=Moment(1),
        roller=FixedDice(5, 1),
    )
    assert ships["Swiftwood"].hull_hits == 1


@pytest.mark.rule("AG-RSP-02")
@pytest.mark.parametrize("hull_size", [1, 2, 3, 5, 7, 14])
def test_at_speed_6_the_ram_does_the_full_hull_size(hull_size: int) -> None:
    rammer = replace(ship("R", "Fenian Ram"), hull_size=hull_size)
    assert agility.ramming_speed_hits(rammer, 6) == (hull_size, False)


@pytest.mark.rule("AG-RSP-03")
@pytest.mark.parametrize("hull_size", range(1, 16))
def test_at_speed_3_the_ram_does_what_the_original_game_gives(hull_size: int) -> None:
    rammer = replace(ship("R", "Fenian Ram"), hull_size=hull_size)
    assert agility.ramming_speed_hits(rammer, 3) == ram_hits(rammer)
