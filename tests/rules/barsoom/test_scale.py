"""The hex adaptation (battles/rules/barsoom/scale.py, docs/barsoom.md section 2): every converted speed, range and
distance stays within half a hex (1 inch) of the text's."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from battles.rules.barsoom import scale
from battles.rules.barsoom.kinds import CAPITAL, MEDIUM, SMALL

HALF_A_HEX = Fraction(scale.INCHES_PER_HEX, 2)  # 1 inch
QUARTER_INCHES = [Fraction(n, 4) for n in range(0, 4 * 120 + 1)]  # 0 to 120 inches by quarters


def test_a_hex_is_two_inches_and_a_level_as_high_as_a_hex_is_long():
    assert (scale.INCHES_PER_HEX, scale.INCHES_PER_LEVEL) == (2, 2)
    assert (scale.GROUND, scale.CEILING) == (0, 6)


@pytest.mark.rule("BR-CLS-02", "BR-CLS-05", "BR-CLS-06", "BR-MOV-03", "BR-MOV-04")
def test_class_speeds_convert_exactly():
    assert {k: scale.speed_hexes(v) for k, v in scale.CLASS_SPEED_INCHES.items()} == {CAPITAL: 2, MEDIUM: 3, SMALL: 4}
    assert scale.CLASS_SPEED_INCHES == {CAPITAL: 4, MEDIUM: 6, SMALL: 8}
    for inches in scale.CLASS_SPEED_INCHES.values():
        assert abs(scale.to_inches(scale.speed_hexes(inches)) - inches) <= HALF_A_HEX


@pytest.mark.rule("BR-CLS-12")
def test_the_designers_speeds_are_whole_hexes_and_odd_inches_are_refused():
    assert [scale.speed_hexes(inches) for inches in (4, 6, 8)] == [2, 3, 4]
    for bad in (0, 5, 7, -2):
        with pytest.raises(ValueError, match="even number of inches"):
            scale.speed_hexes(bad)


def test_every_distance_converts_to_within_half_a_hex():
    for inches in QUARTER_INCHES:
        assert abs(scale.to_inches(scale.to_hexes(inches)) - inches) <= HALF_A_HEX, inches
        assert abs(scale.to_levels(inches) * scale.INCHES_PER_LEVEL - inches) <= HALF_A_HEX, inches


def test_a_half_hex_rounds_down_never_farther_than_the_text():
    assert [scale.to_hexes(n) for n in range(8)] == [0, 0, 1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError, match="never negative"):
        scale.to_hexes(-1)


@pytest.mark.rule("BR-WPN-04", "BR-WPN-05", "BR-WPN-06", "BR-WPN-07")
def test_the_range_bands_fall_on_whole_hexes():
    assert scale.BAND_EDGES_HEXES == (9, 18, 27)
    assert [scale.to_inches(edge) for edge in scale.BAND_EDGES_HEXES] == list(scale.TEXT_BAND_EDGES_INCHES)
    assert [scale.band(d) for d in (0, 9, 10, 18, 19, 27, 28, 60)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [scale.text_band(x) for x in (0, 17, 18, 19, 36, 37, 54, 55)] == [0, 0, 0, 1, 1, 2, 2, 3]
    for hexes in range(61):
        assert scale.band(hexes) == scale.text_band(scale.to_inches(hexes)), hexes


@pytest.mark.rule("BR-WPN-04", "BR-WPN-05", "BR-WPN-06", "BR-WPN-07")
def test_a_measured_distance_gets_the_text_band_of_a_distance_within_half_a_hex():
    for inches in QUARTER_INCHES:
        near = {scale.text_band(inches + delta) for delta in (-HALF_A_HEX, 0, HALF_A_HEX) if inches + delta >= 0}
        assert scale.band(scale.to_hexes(inches)) in near, inches


@pytest.mark.rule("BR-WPN-12", "BR-WPN-16", "BR-WPN-18")
def test_weapon_reach_converts_exactly():
    assert scale.REACH_HEXES == {scale.HEAVY: 36, scale.MEDIUM_WEAPON: 30, scale.LIGHT: 24}
    for weapon, inches in scale.TEXT_REACH_INCHES.items():
        assert scale.to_inches(scale.REACH_HEXES[weapon]) == inches
        reach = scale.REACH_HEXES[weapon]
        assert scale.in_reach(reach, weapon)
        assert not scale.in_reach(reach + 1, weapon)


@pytest.mark.rule("BR-GRAP-02")
def test_crossing_over_within_3_inches_is_one_hex_and_one_level():
    assert scale.to_hexes(scale.TEXT_CROSSING_INCHES) == scale.CROSSING_HEXES == 1
    assert scale.to_levels(scale.TEXT_CROSSING_INCHES) == scale.CROSSING_LEVELS == 1
    assert abs(scale.to_inches(scale.CROSSING_HEXES) - scale.TEXT_CROSSING_INCHES) <= HALF_A_HEX


def test_range_in_three_dimensions_is_within_half_a_hex_of_the_straight_line():
    for hexes in range(40):
        for levels in range(scale.CEILING + 1):
            assert abs(scale.range_3d(hexes, levels) - math.hypot(hexes, levels)) <= 0.5, (hexes, levels)
    assert [scale.range_3d(3, 4), scale.range_3d(9, 0), scale.range_3d(0, 2), scale.range_3d(1, 1)] == [5, 9, 2, 1]


@pytest.mark.rule("BR-WPN-02")
def test_a_gun_elevates_and_depresses_one_level_a_hex():
    assert [scale.within_elevation(3, levels) for levels in (3, -3, 0, 4, -4)] == [True, True, True, False, False]
    assert not scale.within_elevation(0, 1)


@pytest.mark.rule("BR-MOV-05")
def test_a_turn_card_is_the_nearest_hexside_turn_to_45_degrees():
    options = (0, 60, 120)  # what a hex grid offers
    assert min(options, key=lambda degrees: abs(degrees - scale.TEXT_TURN_DEGREES)) == scale.TURN_DEGREES
    assert [scale.turn_error_degrees(n) for n in (1, 2, 3)] == [15, 30, 45]
