"""Bombs dropped straight down with a roll to hit, their wound and damage, grenades thrown, and the bombs each
class carries."""

from __future__ import annotations

import pytest

from battles.rules.barsoom import boarding, bombs, weapons
from battles.rules.barsoom.crew import TABLES
from battles.rules.barsoom.damage import DamageDue
from battles.rules.barsoom.weapons import CrewHit, Severity


@pytest.mark.rule("BR-BOMB-03")
@pytest.mark.parametrize(
    ("hexes", "levels", "falls"), [(0, -1, True), (0, -6, True), (0, 0, False), (0, 1, False), (1, -1, False)]
)
def test_a_bomb_falls_only_straight_down_any_levels_below(hexes: int, levels: int, falls: bool):
    refused = bombs.drop_refusal(hexes=hexes, levels=levels)
    assert (refused is None) is falls
    if refused is not None:
        assert refused.clause == "BR-BOMB-03"


@pytest.mark.rule("BR-BOMB-03")
def test_a_bomb_is_too_heavy_to_throw():
    assert bombs.BOMB.dropped
    assert not bombs.BOMB.thrown
    assert bombs.GRENADE.thrown


@pytest.mark.rule("BR-BOMB-04")
@pytest.mark.parametrize("levels_below", [1, 3, 6])
def test_a_dropped_bomb_still_rolls_to_hit_with_2_more_on_a_stationary_target(levels_below: int):
    assert bombs.to_hit_modifiers(levels_below=levels_below, stationary=False) == {"range": 0}
    modifiers = bombs.to_hit_modifiers(levels_below=levels_below, stationary=True)
    assert modifiers == {"range": 0, "stationary target": 2}
    assert weapons.hit_result((2, 3), modifiers) == 1  # a 5 hits a stationary target
    assert weapons.hit_result((2, 3), {"range": 0}) == -1  # and misses a moving one


@pytest.mark.rule("BR-BOMB-02")
def test_a_bomb_wounds_crew_at_plus_2():
    assert weapons.crew_hit(bombs.BOMB) == CrewHit(kills=False, wound_modifier=2)


@pytest.mark.rule("BR-BOMB-05", "BR-WPN-16")
def test_a_bomb_is_a_medium_weapon_at_minus_2_on_the_damage_table():
    assert bombs.BOMB.weapon_class == weapons.WeaponClass.MEDIUM
    assert weapons.ship_damage(bombs.BOMB, Severity.GRIEVOUS, small_craft=False) == DamageDue(2, -2)


@pytest.mark.rule("BR-BOMB-01", "BR-WPN-18", "BR-GRAP-05")
def test_a_grenade_is_a_light_weapon_thrown_as_far_as_a_grapnel_at_any_angle():
    """The text sends grenades (BR-BOMB-01) and grapnels (BR-GRAP-05) to the same host-game throwing range: one
    figure, 3 hexes (6 inches), by the one measure of distance between ships."""
    assert bombs.GRENADE.weapon_class == weapons.WeaponClass.LIGHT
    assert bombs.GRENADE.reach == 3 == TABLES.whole("grapple", "throwing_range")
    assert bombs.throw_refusal(hexes=3, levels=0, at_ship=False) is None
    assert bombs.throw_refusal(hexes=1, levels=-3, at_ship=False) is None  # down onto a deck below
    assert bombs.throw_refusal(hexes=2, levels=-2, at_ship=False) is None  # 2.8 hexes: within 3
    assert boarding.within_throw(2, -2)
    for hexes in range(6):
        for rise in range(-6, 7):
            thrown = bombs.throw_refusal(hexes=hexes, levels=rise, at_ship=False) is None
            assert thrown == boarding.within_throw(hexes, rise), (hexes, rise)
    too_far = bombs.throw_refusal(hexes=4, levels=0, at_ship=False)
    assert too_far is not None
    assert too_far.clause == "BR-WPN-18"
    hull = bombs.throw_refusal(hexes=2, levels=0, at_ship=True)
    assert hull is not None
    assert hull.clause == "BR-WPN-17"
    assert bombs.throw_refusal(hexes=2, levels=0, at_ship=True, small_craft=True) is None


@pytest.mark.rule("BR-CLS-04")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_a_capital_ship_carries_a_D6_of_bombs(face: int):
    assert bombs.bomb_die("capital") == 6
    assert bombs.bombs_carried("capital", face) == face


@pytest.mark.rule("BR-CLS-05")
@pytest.mark.parametrize("face", [1, 2, 3])
def test_a_medium_ship_carries_a_D3_of_bombs(face: int):
    assert bombs.bomb_die("medium") == 3
    assert bombs.bombs_carried("medium", face) == face
    with pytest.raises(ValueError, match="D3"):
        bombs.bombs_carried("medium", 4)


@pytest.mark.rule("BR-CLS-11")
def test_a_small_craft_carries_one_bomb_without_a_roll():
    assert bombs.bomb_die("small") is None
    assert bombs.bombs_carried("small") == 1
