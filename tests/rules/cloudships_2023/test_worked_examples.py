"""The CM text's worked examples this slice can already say as pure functions, each a golden test."""

import pytest

from battles.rules.cloudships_2023 import crew, gunnery, panels
from battles.rules.cloudships_2023.panels import Gun

GROUND, LOW, MEDIUM, HIGH = range(4)


def gun(kind: str, dice: int, damage: int | None, roll: str | None = None) -> Gun:
    return Gun(1, "gun", kind, "bow", ("bow",), 3, 6, dice, damage, roll, None, "x")


@pytest.mark.rule("CM-RKT-03", "CM-RKT-02")
def test_a_locust_firing_rockets_from_high_at_the_ground_must_be_exactly_3_hexes_away():
    assert gunnery.rocket_reach(3, HIGH, GROUND)
    assert not gunnery.rocket_reach(2, HIGH, GROUND)
    assert not gunnery.rocket_reach(4, HIGH, GROUND)
    assert gunnery.rocket_angle(HIGH, GROUND) == "down"


@pytest.mark.rule("CM-RKT-02")
def test_rockets_cannot_engage_a_target_at_their_own_band_and_fire_up_at_a_higher_one():
    assert not gunnery.rocket_reach(0, MEDIUM, MEDIUM)
    assert not gunnery.rocket_reach(1, MEDIUM, MEDIUM)
    assert gunnery.rocket_reach(1, LOW, MEDIUM)
    assert gunnery.rocket_angle(LOW, MEDIUM) == "up"


@pytest.mark.rule("CM-MAG-02", "CM-MAG-03")
def test_a_magazine_hit_on_a_4_inch_short_does_4():
    assert gunnery.magazine_points(gun(panels.MAIN, 1, 4), vulnerable=False) == 4


@pytest.mark.rule("CM-MAG-04")
def test_a_magazine_hit_on_a_1_pounder_qf_does_3_from_three_shells():
    assert gunnery.magazine_points(gun(panels.MAIN, 3, 1), vulnerable=False) == 3


@pytest.mark.rule("CM-MAG-05")
def test_a_magazine_hit_on_a_nordenfelt_is_5_hits_on_the_crew_chart():
    assert gunnery.magazine_points(gun(panels.ANTI_PERSONNEL, 5, None), vulnerable=False) == 5


@pytest.mark.rule("CM-MAG-06")
def test_a_vulnerable_ship_takes_double_gun_damage_from_a_magazine_hit():
    assert gunnery.magazine_points(gun(panels.MAIN, 1, 4), vulnerable=True) == 8


@pytest.mark.rule("CM-MAG-08")
def test_a_rocket_magazine_rolls_its_damage():
    with pytest.raises(ValueError, match="1d6"):
        gunnery.magazine_points(gun(panels.ROCKETS, 1, None, "1d6"), vulnerable=False)


@pytest.mark.rule("CM-FIRE-07", "CM-FIRE-08", "CM-SUP-01", "CM-SUP-02")
def test_main_guns_hit_on_3_short_and_5_long_and_a_superior_crew_one_less():
    assert gunnery.score_to_hit(panels.MAIN, short=True, superior=False) == 3
    assert gunnery.score_to_hit(panels.MAIN, short=False, superior=False) == 5
    assert gunnery.score_to_hit(panels.MAIN, short=True, superior=True) == 2
    assert gunnery.score_to_hit(panels.MAIN, short=False, superior=True) == 4


@pytest.mark.rule("CM-AP-02", "CM-AP-03", "CM-SUP-03", "CM-SUP-04")
def test_anti_personnel_guns_hit_on_5_short_and_6_long_and_a_superior_crew_one_less():
    assert gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=True, superior=False) == 5
    assert gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=False, superior=False) == 6
    assert gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=True, superior=True) == 4
    assert gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=False, superior=True) == 5


@pytest.mark.rule("CM-AP-04", "CM-AP-05")
def test_anti_personnel_dice_1_2_4_5_6_are_2_hits_short_and_1_long():
    assert gunnery.anti_personnel_hits([1, 2, 4, 5, 6], short=True, superior=False) == 2
    assert gunnery.anti_personnel_hits([1, 2, 4, 5, 6], short=False, superior=False) == 1


@pytest.mark.rule("CM-AP-11", "CM-AP-10", "CM-SUP-05")
def test_a_superior_crew_turns_those_dice_into_4_hits_short():
    assert gunnery.anti_personnel_hits([1, 2, 4, 5, 6], short=True, superior=True) == 4


@pytest.mark.rule("CM-AP-10")
def test_a_superior_crew_gets_no_extra_hit_out_of_nothing():
    assert gunnery.anti_personnel_hits([1, 1, 2, 3, 1], short=True, superior=True) == 0


@pytest.mark.rule("CM-REP-08", "CM-REP-04", "CM-REP-07")
def test_three_blue_squares_mend_on_a_1_or_2_and_not_on_3_or_more():
    assert [crew.repair_succeeds(roll, 3, superior=False) for roll in range(1, 7)] == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]


@pytest.mark.rule("CM-REP-06", "CM-REP-05")
def test_a_superior_crew_adds_one_to_the_repair_number_and_the_hexagon_does_not_count():
    assert crew.repair_number(3, superior=True) == 4
    assert crew.repair_succeeds(3, 3, superior=True)


@pytest.mark.rule("CM-BRD-12", "CM-BRD-13", "CM-BRD-14")
def test_the_boarding_winner_loses_1_on_1_to_4_2_on_5_and_3_on_6():
    assert [crew.winners_loss(roll) for roll in range(1, 7)] == [1, 1, 1, 1, 2, 3]
