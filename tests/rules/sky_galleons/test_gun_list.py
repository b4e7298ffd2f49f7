"""The Cloudships & Gunboats consolidated gun list as the engine reads it (SG-CG-01..04) and its rules at the
personal combat scale (SG-CG-08..13, personal_scale.py)."""

from __future__ import annotations

import pytest

from battles.rules.sky_galleons import personal_scale
from battles.rules.sky_galleons.personal_scale import Area, IndirectFire, NoFieldRating
from galleons import catalog


@pytest.mark.rule("SG-CG-01", "SG-CG-05")
def test_where_the_books_differ_the_weapon_figures_are_the_consolidated_lists() -> None:
    differing = [w for w in catalog.weapons() if w.raw["sgom_vs_consolidated_differences"]]
    assert len(differing) >= 10
    for weapon in differing:
        assert weapon.authoritative_source == "cloudships_and_gunboats_consolidated_list", weapon.id
        authoritative = weapon.raw["sources"]["cloudships_and_gunboats_consolidated_list"]["values"]
        if "range_hexes" in authoritative:
            ranges = authoritative["range_hexes"]
            assert weapon.range_hexes == catalog.RangeBands(ranges["close"], ranges["long"]), weapon.id
        if "penetration" in authoritative and isinstance(authoritative["penetration"], dict):
            pen = authoritative["penetration"]
            assert weapon.penetration == catalog.RangeBands(pen["close"], pen["long"]), weapon.id
    # The examples the text names: the 5" reaches further, the heavy gun loses penetration at long range,
    # the 16" reloads for two turns, the Hale battery costs 50 (Sky Galleons: 4/8, 1, (1), 100).
    assert catalog.weapon('5"').range_hexes == catalog.RangeBands(5, 10)
    assert catalog.weapon("Heavy Gun").penetration == catalog.RangeBands(1, 0)
    assert catalog.weapon('16"').rate_of_fire == catalog.RateOfFire(reload_turns=2)
    assert catalog.weapon("Hale Rocket Battery").cost_pounds == 50


@pytest.mark.rule("SG-CG-02")
def test_every_gun_carries_naval_and_personal_figures() -> None:
    light = catalog.weapon("Light Gun")
    # Naval mount: 20 t, Pen 0, DV 1, ROF 1, crew 2, range 1/2 hexes, 400 pounds.
    assert (light.weight_tons, light.damage_value, light.crew, light.cost_pounds) == (20, 1, 2, 400)
    assert light.range_hexes == catalog.RangeBands(1, 2)
    # Field gun: ROF (3), 200 yards, burst 4, 2 (the carriage's weight), 400 pounds.
    assert light.field_gun == catalog.FieldGun("(3)", 200, 4, 2, 400, ())
    three_inch = catalog.weapon('12-pdr/3"')
    assert three_inch.field_gun is not None
    # The field gun weighs far less than the naval mount, which counts crew, magazine and stores.
    assert (three_inch.weight_tons, three_inch.field_gun.weight) == (20, 1000)
    assert three_inch.field_gun.corrected == ("240*",)  # a corrected cell (SG-CG-05)
    # Machineguns and exotic weapons have no field-gun columns.
    assert catalog.weapon("Maxim").field_gun is None


@pytest.mark.rule("SG-CG-03")
def test_a_dash_in_the_field_columns_means_no_wheeled_carriage() -> None:
    carriages = {w.id: w.field_gun.has_carriage for w in catalog.weapons() if w.field_gun is not None}
    assert all(carriages[gun] for gun in ("12pdr_3in", "40pdr", "5in_howitzer", "light_gun"))
    for naval_only in ("4in_long", "4_7in_qf", "5in", "6in", "8in", "16in", "sb_9in", "sb_15in"):
        assert not carriages[naval_only], naval_only
    sixteen = catalog.weapon('16"').field_gun
    assert sixteen is not None
    assert (sixteen.weight, sixteen.cost) == (None, None)
    assert sixteen.range_yards == 2000  # still rated for fortress use


@pytest.mark.rule("SG-CG-04")
def test_a_dual_designation_names_one_gun_either_way() -> None:
    assert catalog.designations('12-pdr/3"') == ("12-pdr", '3"')
    assert catalog.designations('20-pdr/4" S (4" short)') == ("20-pdr", '4" S')
    assert catalog.designations("Heavy Gun") == ()
    three_inch = catalog.weapon('12-pdr/3"')
    assert catalog.weapon("12-pdr") is three_inch is catalog.weapon('3"')
    assert catalog.weapon("20-pdr") is catalog.weapon('4" s') is catalog.weapon("4in_short")
    assert catalog.weapon("4in_long") is not catalog.weapon('4" S')


@pytest.mark.rule("SG-CG-09", "SG-CG-10")
def test_the_martian_light_guns_grapeshot_is_8_by_100_yards() -> None:
    area = personal_scale.grapeshot_area("Light Gun")
    assert area == Area(width_yards=8, length_yards=100)
    assert area.squares == (4, 50)


@pytest.mark.rule("SG-CG-09")
def test_grapeshot_is_twice_the_burst_wide_and_half_the_close_range_long() -> None:
    # Rogue: burst 8, 400 yards; 12-pdr: burst 8, 600 yards; 7-pdr mountain howitzer: burst 4, 600 yards.
    assert personal_scale.grapeshot_area("Rogue") == Area(16, 200)
    assert personal_scale.grapeshot_area("12-pdr") == Area(16, 300)
    assert personal_scale.grapeshot_area("7pdr_mh") == Area(8, 300)
    with pytest.raises(NoFieldRating):
        personal_scale.grapeshot_area("Maxim")


@pytest.mark.rule("SG-CG-08")
def test_shrapnel_is_twice_the_burst_wide_and_four_times_it_long() -> None:
    assert personal_scale.shrapnel_area("12-pdr") == Area(16, 32)
    assert personal_scale.shrapnel_area('5" Howitzer') == Area(28, 56)


@pytest.mark.rule("SG-CG-12")
def test_howitzer_shells_count_close_as_medium_and_medium_as_long() -> None:
    assert personal_scale.range_band("5in_howitzer", "close") == "medium"
    assert personal_scale.range_band("5in_howitzer", "medium") == "long"
    assert personal_scale.range_band("7pdr_mh", "long") == "long"
    # Grapeshot and other guns fire at the band the range gives.
    assert personal_scale.range_band("5in_howitzer", "close", "grapeshot") == "close"
    assert personal_scale.range_band("12-pdr", "close") == "close"
    with pytest.raises(ValueError, match="range bands"):
        personal_scale.range_band("12-pdr", "extreme")


@pytest.mark.rule("SG-CG-13", "SG-CG-11")
def test_howitzers_lob_shells_over_troops_and_obstacles() -> None:
    assert personal_scale.fire_over("5in_howitzer", observed=True) == IndirectFire(True, 0)
    # Unseen, but its rough place known: one difficulty level harder; unknown: no shot.
    assert personal_scale.fire_over("7pdr_mh", observed=False, location_known=True) == IndirectFire(True, 1)
    assert not personal_scale.fire_over("7pdr_mh", observed=False).allowed
    # Only a howitzer, and only its shells.
    assert not personal_scale.fire_over("12-pdr", observed=True).allowed
    assert not personal_scale.fire_over("5in_howitzer", ammunition="grapeshot", observed=True).allowed
    shrapnel = personal_scale.fire_over("5in_howitzer", ammunition="shrapnel", observed=True)
    assert (shrapnel.allowed, shrapnel.clause) == (False, "SG-CG-11")
    assert personal_scale.howitzer_ammunition() == ("shell", "grapeshot")
