"""The campaign's money and crew rules (campaign/economy.py): the worked examples of the text as golden tests."""

from __future__ import annotations

import pytest

from campaign import economy


@pytest.mark.rule("SGC-AUCT-01", "SGC-AUCT-02", "SGC-AUCT-03", "SGC-AUCT-04", "SGC-AUCT-06", "SGC-MONEY-02")
def test_the_captured_warm_winds_sells_to_the_crown_for_half_and_her_captor_nets_a_tenth() -> None:
    sale = economy.crown_price(112_600)
    assert sale == 56_300
    assert economy.captain_share(sale) == 5_630
    assert economy.own_prize_net_cost(sale) == 50_670


def test_odd_prices_round_down_to_the_pound_for_the_crown_and_the_share() -> None:
    assert economy.crown_price(1_001) == 500
    assert economy.captain_share(1_009) == 100


@pytest.mark.rule("SGC-CARGO-01", "SGC-CARGO-02", "SGC-CARGO-03", "SGC-CARGO-04")
def test_a_hundred_tons_of_cargo_on_a_four_sells_for_forty_thousand_and_four_to_the_captain() -> None:
    sale = economy.cargo_sale(100, 4)
    assert sale == 40_000
    assert economy.cargo_share(sale) == 4_000
    with pytest.raises(ValueError, match="1 to 6"):
        economy.cargo_sale(100, 7)


@pytest.mark.rule("SGC-CARGO-05")
def test_a_merchants_cargo_is_a_fifth_of_her_tonnage_unless_the_umpire_says_otherwise() -> None:
    from fractions import Fraction

    assert economy.merchant_cargo_tons(560) == 112
    assert economy.merchant_cargo_tons(560, Fraction(1, 2)) == 280


@pytest.mark.rule("SGC-REPAIR-02", "SGC-REPAIR-03")
def test_a_destroyed_two_thousand_pound_rogue_costs_a_thousand_to_replace() -> None:
    assert economy.component_repair_cost(2_000) == 1_000
    assert economy.component_repair_cost(1_001) == 501  # rounded up


@pytest.mark.rule("SGC-REPAIR-04", "SGC-REPAIR-05")
def test_a_hull_hit_on_a_size_two_wooden_hull_to_high_costs_a_hundred_and_twenty_five() -> None:
    assert economy.hull_hit_repair_cost(10_000, 8) == 125
    assert economy.hull_hit_repair_cost(10_000, 12) == 84  # 83.33 rounded up
    with pytest.raises(ValueError, match="hit box"):
        economy.hull_hit_repair_cost(10_000, 0)


@pytest.mark.rule("SGC-EXP-02", "SGC-EXP-03", "SGC-EXP-04", "SGC-EXP-05", "SGC-EXP-12")
def test_a_crew_of_forty_back_with_a_prize_rises_by_its_losses_as_the_worked_example_says() -> None:
    assert economy.experience_threshold(40) == 6
    five = economy.experience_check(quality="green", original_crew=40, losses=5, prize=True)
    assert (five.needs_roll, five.after(None)) == (False, "trained")
    seven = economy.experience_check(quality="green", original_crew=40, losses=7, prize=True)
    assert (seven.needs_roll, seven.fails_at) == (True, 1)
    assert [seven.after(roll) for roll in range(1, 7)] == ["green"] + ["trained"] * 5
    thirteen = economy.experience_check(quality="trained", original_crew=40, losses=13, prize=True)
    assert [thirteen.after(roll) for roll in range(1, 7)] == ["trained"] * 2 + ["crack"] * 4


@pytest.mark.rule("SGC-EXP-06", "SGC-EXP-07")
def test_six_thresholds_lost_never_rise_and_crack_is_the_top() -> None:
    bloody = economy.experience_check(quality="green", original_crew=12, losses=12, prize=True)
    assert bloody.band == 6
    assert not bloody.needs_roll
    assert bloody.after(None) == "green"
    crack = economy.experience_check(quality="crack", original_crew=40, losses=0, prize=True)
    assert crack.after(None) == "crack"


@pytest.mark.rule("SGC-EXP-08", "SGC-EXP-09", "SGC-EXP-10", "SGC-EXP-11")
def test_without_a_prize_losses_may_lower_a_crew_above_green() -> None:
    green = economy.experience_check(quality="green", original_crew=40, losses=30, prize=False)
    assert (green.needs_roll, green.after(None)) == (False, "green")
    light = economy.experience_check(quality="crack", original_crew=40, losses=5, prize=False)
    assert (light.needs_roll, light.after(None)) == (False, "crack")
    one = economy.experience_check(quality="crack", original_crew=40, losses=6, prize=False)
    assert [one.after(roll) for roll in range(1, 7)] == ["trained"] + ["crack"] * 5
    two = economy.experience_check(quality="trained", original_crew=40, losses=12, prize=False)
    assert [two.after(roll) for roll in range(1, 7)] == ["green"] * 2 + ["trained"] * 4
    all_lost = economy.experience_check(quality="trained", original_crew=12, losses=12, prize=False)
    assert (all_lost.needs_roll, all_lost.after(None)) == (False, "green")


@pytest.mark.rule("SGC-EXP-13")
def test_a_crew_under_six_counts_every_man_lost() -> None:
    assert economy.experience_threshold(5) == 1
    check = economy.experience_check(quality="trained", original_crew=5, losses=2, prize=False)
    assert check.fails_at == 2


def test_a_check_needing_a_die_refuses_to_go_without_one() -> None:
    seven = economy.experience_check(quality="green", original_crew=40, losses=7, prize=True)
    with pytest.raises(ValueError, match="die roll"):
        seven.after(None)
    with pytest.raises(ValueError, match="crew quality"):
        economy.experience_check(quality="veteran", original_crew=40, losses=0, prize=True)
