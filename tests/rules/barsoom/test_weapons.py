"""Weapons: the three classes, reach and elevation in hexes and levels, the range bands, the roll to hit and the
stand-in severity, what a hit owes a ship (small craft too) or crew, automatic fire's jams and heavy reloads."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from battles.rules.barsoom import weapons
from battles.rules.barsoom.damage import DamageDue
from battles.rules.barsoom.weapons import CrewHit, Severity, WeaponClass

TWO_POUNDER = weapons.weapon("2-pounder cannon")
RADIUM_CANNON = weapons.weapon("Radium cannon")
PULSE_GUN = weapons.weapon("Martian pulse gun")
QUICK_FIRER = weapons.weapon("Quick-firing cannon")
GARDNER = weapons.weapon("Gardner machinegun")
RIFLE = weapons.weapon("Radium rifle")
BOMB = weapons.weapon("Bomb")
INCHES_PER_HEX = 2


@pytest.mark.rule("BR-WPN-01")
def test_armament_comes_in_three_classes_and_every_weapon_belongs_to_one():
    assert [member.value for member in WeaponClass] == ["heavy", "medium", "light"]
    assert {w.weapon_class for w in weapons.catalogue().values()} == set(WeaponClass)


@pytest.mark.rule("BR-WPN-12", "BR-WPN-16", "BR-WPN-18")
@pytest.mark.parametrize(
    ("weapon_class", "hexes", "inches"), [("heavy", 36, 72), ("medium", 30, 60), ("light", 24, 48)]
)
def test_each_class_reaches_the_texts_inches_in_hexes_of_2_inches(weapon_class: str, hexes: int, inches: int):
    rules = weapons.class_rules(WeaponClass(weapon_class))
    assert (rules["reach"], rules["reach_inches"]) == (hexes, inches)
    assert abs(hexes * INCHES_PER_HEX - inches) <= INCHES_PER_HEX / 2
    gun = {"heavy": TWO_POUNDER, "medium": PULSE_GUN, "light": GARDNER}[weapon_class]
    assert weapons.refusal(gun, hexes=hexes, levels=0, at_ship=False) is None
    beyond = weapons.refusal(gun, hexes=hexes + 1, levels=0, at_ship=False)
    assert beyond is not None
    assert beyond.clause == {"heavy": "BR-WPN-12", "medium": "BR-WPN-16", "light": "BR-WPN-18"}[weapon_class]


@pytest.mark.rule("BR-WPN-12", "BR-WPN-16", "BR-WPN-18")
def test_the_named_examples_sit_in_their_texts_class():
    classes = {name: w.weapon_class.value for name, w in weapons.catalogue().items()}
    assert classes["2-pounder cannon"] == classes["Martian shock cannon"] == "heavy"
    assert classes["Quick-firing cannon"] == classes["Martian pulse gun"] == classes["Bomb"] == "medium"
    assert classes["Gardner machinegun"] == classes["Nordenfelt machinegun"] == classes["Grenade"] == "light"


@pytest.mark.rule("BR-WPN-04", "BR-WPN-05", "BR-WPN-06", "BR-WPN-07")
@pytest.mark.parametrize(
    ("hexes", "modifier"), [(0, 0), (1, 0), (9, 0), (10, -1), (18, -1), (19, -2), (27, -2), (28, -3), (36, -3)]
)
def test_range_bands_at_9_18_and_27_hexes_the_edge_taking_the_nearer_band(hexes: int, modifier: int):
    assert weapons.range_modifier(hexes) == modifier


@pytest.mark.rule("BR-WPN-04", "BR-WPN-05", "BR-WPN-06", "BR-WPN-07")
def test_the_band_edges_are_the_texts_inches_exactly():
    edges = [band["up_to"] for band in weapons.DATA.get("range_bands")]
    assert [edge * INCHES_PER_HEX for edge in edges[:-1]] == [18, 36, 54]
    assert edges[-1] is None


@pytest.mark.rule("BR-WPN-04", "BR-WPN-05", "BR-WPN-06", "BR-WPN-07")
def test_range_in_three_dimensions_is_the_straight_line_within_half_a_hex():
    for hexes, levels in itertools.product(range(40), range(-6, 7)):
        straight = math.hypot(hexes, levels)
        assert abs(weapons.range_between(hexes, levels) - straight) <= 0.5
    assert weapons.range_between(9, 0) == 9
    assert weapons.range_between(6, 6) == 8
    assert weapons.range_between(9, 4) == 10  # up 4 levels pushes a short shot into the -1 band


@pytest.mark.rule("BR-WPN-02")
@pytest.mark.parametrize(
    ("hexes", "levels", "bears"), [(3, 3, True), (3, -3, True), (3, 4, False), (0, 1, False), (0, 0, True)]
)
def test_a_fixed_gun_bears_up_and_down_45_degrees_no_more_levels_than_hexes(hexes: int, levels: int, bears: bool):
    assert weapons.in_elevation(TWO_POUNDER, hexes, levels) is bears
    refused = weapons.refusal(TWO_POUNDER, hexes=hexes, levels=levels, at_ship=True)
    assert (refused is None) is bears
    if not bears:
        assert refused is not None
        assert refused.clause == "BR-WPN-02"
    assert weapons.in_elevation(RIFLE, hexes, levels)  # a hand weapon is no fixed gun


@pytest.mark.rule("BR-WPN-08", "BR-WPN-17", "BR-CLS-09")
def test_heavy_and_medium_harm_every_ship_light_only_small_craft():
    for small in (False, True):
        assert weapons.harms(TWO_POUNDER, small_craft=small)
        assert weapons.harms(PULSE_GUN, small_craft=small)
    assert not weapons.harms(GARDNER, small_craft=False)
    assert weapons.harms(GARDNER, small_craft=True)
    refused = weapons.refusal(GARDNER, hexes=3, levels=0, at_ship=True)
    assert refused is not None
    assert refused.clause == "BR-WPN-17"
    assert weapons.refusal(GARDNER, hexes=3, levels=0, at_ship=True, small_craft=True) is None
    assert weapons.refusal(GARDNER, hexes=3, levels=0, at_ship=False) is None  # crew, as normal


@pytest.mark.rule("BR-HIT-01")
@pytest.mark.parametrize(("faces", "result"), [((1, 1), -4), ((3, 3), 0), ((3, 4), 1), ((6, 6), 6)])
def test_a_roll_to_hit_is_2D6_less_6_and_above_0_hits(faces: tuple[int, int], result: int):
    assert weapons.hit_result(faces, {}) == result
    assert (weapons.severity(result) is not None) is (result > 0)
    with pytest.raises(ValueError, match="2D6"):
        weapons.hit_result((6,), {})


@pytest.mark.rule("BR-HIT-01", "BR-WPN-05")
def test_modifiers_add_to_the_roll_to_hit():
    modifiers = weapons.to_hit_modifiers(TWO_POUNDER, distance=12, at_crew=False)
    assert modifiers == {"range": -1}
    assert weapons.hit_result((3, 4), modifiers) == 0  # a 7 at -1 misses


@pytest.mark.rule("BR-HIT-02")
def test_no_movement_modifier_enters_a_roll_to_hit():
    for gun, at_crew in itertools.product(weapons.catalogue().values(), (False, True)):
        names = set(weapons.to_hit_modifiers(gun, distance=5, at_crew=at_crew))
        assert names <= {"range", "heavy weapon at crew"}


@pytest.mark.rule("BR-HIT-03", "BR-HIT-04", "BR-HIT-05", "BR-HIT-06", "BR-HIT-07")
@pytest.mark.parametrize(
    ("result", "found"),
    [
        (0, None),
        (-3, None),
        (1, Severity.STUNNED),
        (2, Severity.LIGHT),
        (3, Severity.LIGHT),
        (4, Severity.GRIEVOUS),
        (5, Severity.GRIEVOUS),
        (6, Severity.CRITICAL),
        (9, Severity.CRITICAL),
    ],
)
def test_the_stand_in_severity_is_the_size_of_the_positive_result(result: int, found: Severity | None):
    assert weapons.severity(result) == found


@pytest.mark.rule("BR-HIT-07")
def test_the_stand_in_severity_odds_at_short_range():
    counts: dict[Severity | None, int] = {}
    for faces in itertools.product(range(1, 7), repeat=2):
        found = weapons.severity(weapons.hit_result(faces, {"range": 0}))
        counts[found] = counts.get(found, 0) + 1
    odds = {key: Fraction(value, 36) for key, value in counts.items()}
    assert odds == {
        None: Fraction(15, 36),
        Severity.STUNNED: Fraction(6, 36),
        Severity.LIGHT: Fraction(9, 36),
        Severity.GRIEVOUS: Fraction(5, 36),
        Severity.CRITICAL: Fraction(1, 36),
    }


@pytest.mark.rule("BR-HIT-03", "BR-HIT-04", "BR-HIT-05", "BR-HIT-06", "BR-WPN-08")
@pytest.mark.parametrize(
    ("found", "due"),
    [
        (Severity.STUNNED, DamageDue(0, ded=True)),
        (Severity.LIGHT, DamageDue(1)),
        (Severity.GRIEVOUS, DamageDue(2)),
        (Severity.CRITICAL, DamageDue(3)),
    ],
)
def test_a_hit_on_a_ship_owes_one_DED_or_1_2_or_3_d10(found: Severity, due: DamageDue):
    assert weapons.ship_damage(TWO_POUNDER, found, small_craft=False) == due


@pytest.mark.rule("BR-WPN-09")
def test_a_heavier_weapon_adds_its_extra_damage_rolls_to_every_hit_but_a_stun():
    assert weapons.ship_damage(RADIUM_CANNON, Severity.LIGHT, small_craft=False) == DamageDue(2)
    assert weapons.ship_damage(RADIUM_CANNON, Severity.CRITICAL, small_craft=False) == DamageDue(4)
    assert weapons.ship_damage(RADIUM_CANNON, Severity.STUNNED, small_craft=False) == DamageDue(0, ded=True)


@pytest.mark.rule("BR-WPN-13", "BR-BOMB-05")
def test_medium_weapons_roll_at_minus_2_on_the_damage_table():
    assert weapons.ship_damage(PULSE_GUN, Severity.GRIEVOUS, small_craft=False) == DamageDue(2, -2)
    assert weapons.ship_damage(BOMB, Severity.LIGHT, small_craft=False) == DamageDue(1, -2)
    assert weapons.ship_damage(PULSE_GUN, Severity.LIGHT, small_craft=True) == DamageDue(1, -2)


@pytest.mark.rule("BR-CLS-09", "BR-CLS-10", "BR-WPN-17")
def test_small_craft_take_light_hits_at_minus_4_and_heavy_hits_at_plus_1():
    assert weapons.ship_damage(GARDNER, Severity.LIGHT, small_craft=True) == DamageDue(1, -4)
    assert weapons.ship_damage(GARDNER, Severity.CRITICAL, small_craft=False) == DamageDue(0)
    assert weapons.ship_damage(GARDNER, Severity.STUNNED, small_craft=False) == DamageDue(0)
    assert weapons.ship_damage(TWO_POUNDER, Severity.GRIEVOUS, small_craft=True) == DamageDue(2, 1)


@pytest.mark.rule("BR-WPN-10")
def test_a_heavy_weapon_at_crew_is_minus_2_to_hit_and_any_hit_kills():
    assert weapons.to_hit_modifiers(TWO_POUNDER, distance=4, at_crew=True) == {"range": 0, "heavy weapon at crew": -2}
    assert weapons.to_hit_modifiers(TWO_POUNDER, distance=4, at_crew=False) == {"range": 0}
    assert weapons.crew_hit(TWO_POUNDER) == CrewHit(kills=True, wound_modifier=0)


@pytest.mark.rule("BR-WPN-14", "BR-WPN-17")
def test_medium_weapons_wound_crew_at_plus_3_and_light_ones_as_normal():
    assert weapons.to_hit_modifiers(PULSE_GUN, distance=4, at_crew=True) == {"range": 0}
    assert weapons.crew_hit(PULSE_GUN) == CrewHit(kills=False, wound_modifier=3)
    assert weapons.crew_hit(QUICK_FIRER) == CrewHit(kills=False, wound_modifier=3)
    assert weapons.crew_hit(RIFLE) == CrewHit(kills=False, wound_modifier=0)


@pytest.mark.rule("BR-WPN-11")
def test_a_heavy_gun_always_spends_the_turn_after_firing_reloading():
    assert weapons.ready_on(TWO_POUNDER, 3) == 5
    assert weapons.ready_on(RIFLE, 3) == 4
    assert weapons.ready_on(PULSE_GUN, 3) == 4


@pytest.mark.rule("BR-WPN-15")
def test_an_automatic_weapon_throws_all_its_dice_at_once_and_two_1s_jam_it_for_a_turn():
    assert weapons.dice_to_roll(PULSE_GUN) == 6
    faces = (1, 4, 6, 1, 3, 3)
    assert weapons.shots_of(faces) == [(1, 4), (6, 1), (3, 3)]
    assert weapons.jammed(PULSE_GUN, faces)
    assert weapons.jammed(GARDNER, (1, 1, 5, 5))  # both 1s in one roll count too
    assert not weapons.jammed(PULSE_GUN, (1, 4, 6, 2, 3, 3))
    assert not weapons.jammed(TWO_POUNDER, (1, 1))  # not automatic
    assert weapons.ready_on(PULSE_GUN, 3, jammed=True) == 5
    assert weapons.ready_on(GARDNER, 3, jammed=True) == 5
    with pytest.raises(ValueError, match="pairs"):
        weapons.shots_of((1, 2, 3))


@pytest.mark.rule("BR-BOMB-03")
def test_a_bomb_is_never_fired_at_range():
    refused = weapons.refusal(BOMB, hexes=2, levels=-1, at_ship=True)
    assert refused is not None
    assert refused.clause == "BR-BOMB-03"
