"""The conversion from the campaign's Sky Galleons ship to a Cloudships of Mars control panel, rule by rule
(battles/rules/cloudships_2023/conversion.py; docs/cloudships.md)."""

from dataclasses import replace

import pytest

from battles.rules.cloudships_2023 import conversion, panels
from battles.rules.cloudships_2023.panels import ControlPanel
from galleons import catalog
from galleons.record import ship_record_from_class


def record(class_id: str, **changes: object):
    ship = ship_record_from_class(class_id, name=class_id)
    return ship.evolve(**changes) if changes else ship


@pytest.mark.rule("CM-ALT-01")
@pytest.mark.parametrize(
    ("level", "band"), [("VH", "High"), ("H", "High"), ("M", "Medium"), ("L", "Low"), ("VL", "Low")]
)
def test_sg_levels_fold_into_the_three_flying_bands(level, band):
    assert conversion.band_of(level) == band


def test_the_ceiling_is_the_band_of_the_top_hull_row():
    assert conversion.ceiling(record("locust")) == "High"  # Very High in SG
    assert conversion.ceiling(record("endtime")) == "Medium"


@pytest.mark.rule("CM-MOV-01", "CM-MOV-12")
def test_movement_is_the_sg_speed_and_a_kite_rolls():
    assert conversion.movement(record("locust")) == 6
    assert conversion.movement(record("hullcutter")) == 3
    assert conversion.movement(record("skylord")) is None
    assert [conversion.motive(record(c)) for c in ("locust", "hullcutter", "skylord")] == [
        "steam",
        "screw galley",
        "kite",
    ]


@pytest.mark.rule("CM-SUP-07")
def test_a_crack_crew_is_superior_and_the_others_are_not():
    assert conversion.superior(record("locust", crew_quality="crack"))
    assert not conversion.superior(record("locust", crew_quality="trained"))
    assert not conversion.superior(record("locust", crew_quality="green"))


@pytest.mark.rule("CM-RAM-05", "CM-COL-03")
@pytest.mark.parametrize(
    ("hull_size", "fitted", "ram"),
    [(7, True, 4), (14, True, 7), (2, True, 1), (2, False, 1), (6, False, 1), (12, False, 2), (20, False, 3)],
)
def test_ram_value_is_the_sg_ram_or_collision_damage(hull_size, fitted, ram):
    assert conversion.ram_value(hull_size, fitted) == ram


@pytest.mark.rule("CM-MAG-03", "CM-MAG-04", "CM-FIRE-13")
def test_main_gun_damage_is_damage_value_plus_penetration_as_the_magazine_examples_need():
    assert conversion.main_gun_damage(catalog.weapon("4in_short")) == 4  # DV 2 + Pen 2
    assert conversion.main_gun_damage(catalog.weapon("1pdr_hrc")) == 1  # DV 1 + Pen 0
    assert conversion.main_gun_dice(catalog.weapon("1pdr_hrc")) == 3  # three shells
    # A lob gun has no close range: its long penetration counts.
    assert conversion.main_gun_damage(catalog.weapon("lob_gun")) == 6


@pytest.mark.rule("CM-FIRE-06", "CM-FIRE-01")
def test_a_gun_that_reloads_in_sg_rolls_one_die_every_turn():
    assert conversion.main_gun_dice(catalog.weapon("rogue")) == 1
    assert conversion.main_gun_dice(catalog.weapon("4_7in_qf")) == 2


@pytest.mark.rule("CM-AP-01", "CM-MAG-05")
@pytest.mark.parametrize(
    ("weapon", "dice"),
    [("nordenfelt_5b", 5), ("gatling_05in", 5), ("gatling_1in", 4), ("sweeper", 4), ("mitrailleuse", 4)],
)
def test_anti_personnel_dice_are_the_sg_rate_within_four_to_six(weapon, dice):
    assert conversion.anti_personnel_dice(catalog.weapon(weapon)) == dice


@pytest.mark.rule("CM-AP-01", "CM-BRD-16")
def test_machineguns_and_the_sweeper_are_anti_personnel_and_cannon_are_not():
    assert conversion.is_anti_personnel(catalog.weapon("gatling_1in"))  # hull-hurting in SG, AP in CM
    assert conversion.is_anti_personnel(catalog.weapon("sweeper"))
    assert not conversion.is_anti_personnel(catalog.weapon("3pdr_hrc"))


@pytest.mark.rule("CM-DMG-10")
def test_boarding_parties_are_ten_fighting_men_with_a_marine_counting_two():
    assert conversion.fighting_men(record("hullcutter")) == 7 + 0 + 2 * 10
    assert conversion.boarding_parties(record("hullcutter")) == 3  # 27 men: a part party counts
    assert conversion.boarding_parties(record("locust")) == 1  # 3 men, and never fewer than one


def test_marines_beyond_five_per_hull_size_stay_below_and_do_not_fight():
    ship = record("locust")
    crowded = ship.evolve(crew=replace(ship.crew, marines=50))
    assert conversion.fighting_men(crowded) == 3 + 2 * 10  # hull size 2: ten marines on deck (SG-ERR-03)


@pytest.mark.rule("CM-PG-03")
def test_a_power_grapnel_is_a_fitting_and_no_gun():
    ship = record("swiftwood")
    assert conversion.power_grapnel(ship)
    assert "power_grapnel" not in [gun.source for gun in conversion.panel_guns(ship)]
    assert not conversion.power_grapnel(record("hullcutter"))


@pytest.mark.rule("CM-GUN-01")
def test_guns_are_numbered_from_the_bow_clockwise():
    guns = conversion.panel_guns(record("hullcutter"))
    assert [(g.number, g.source, g.position) for g in guns] == [
        (1, "rogue", "starboard bow"),
        (2, "heavy_gun", "starboard"),
        (3, "rod_gun", "stern"),
        (4, "heavy_gun", "port"),
        (5, "rogue", "port bow"),
        (6, "lob_gun", "amidships"),
    ]


@pytest.mark.rule("CM-GUN-06", "CM-BOMB-05", "CM-SMT-11")
def test_every_firing_system_is_a_gun_and_spare_loads_are_left_off():
    eagle = conversion.panel_guns(record("eagle"))
    assert sum(g.kind == panels.ROCKETS for g in eagle) == 16
    assert sum(g.kind == panels.BOMBS for g in eagle) == 2  # two loaded racks; the spare loads never reload
    triumph = conversion.panel_guns(record("triumph"))
    assert [g.roll for g in triumph if g.kind == panels.SMUTTS] == ["1d6+2"]  # the discharger, once


@pytest.mark.rule("CM-RKT-01", "CM-TM-08", "CM-TM-09", "CM-DT-04")
def test_exotics_keep_their_fitting_and_roll_their_own_damage():
    locust = conversion.panel_guns(record("locust"))
    rockets = [g for g in locust if g.kind == panels.ROCKETS]
    assert [(r.arcs, r.angle, r.roll, r.one_shot) for r in rockets] == [(("port",), "down", "1d6", True)]
    gloire = conversion.panel_guns(record("gloire"))
    assert {g.roll for g in gloire if g.kind == panels.TETHER_MINE} == {"1d6+2"}  # British mines
    assert {g.roll for g in gloire if g.kind == panels.DROGUE} == {"2d6"}
    skyfire = conversion.panel_guns(record("skyfire"))
    assert {g.roll for g in skyfire if g.kind == panels.TETHER_MINE} == {"1d6"}  # Martian mines


@pytest.mark.rule("CM-DMG-01", "CM-DMG-02", "CM-DMG-07", "CM-DMG-08", "CM-ALT-02")
def test_the_track_has_a_row_a_band_with_a_system_box_after_every_second_hull_box():
    assert conversion.damage_track(record("locust")) == (
        ("Hull", "Hull", "Gun", "Hull", "Hull", "Critical", "Hull", "Medium"),
        ("Hull", "Hull", "Speed", "Hull", "Low"),
        ("Hull", "Hull", "Boarding Party", "Hull", "Hull", "Gun", "Hull", "Ground"),
    )


def test_hull_boxes_are_the_sg_boxes_of_each_band_plus_the_armor():
    assert conversion.hull_boxes(record("locust")) == {"High": 2 + 2 + 1, "Medium": 2 + 1, "Low": 2 + 2 + 1}
    assert conversion.hull_boxes(record("endtime")) == {"Medium": 5, "Low": 10}


@pytest.mark.rule("CM-AP-07")
def test_the_crew_chart_shrugs_off_two_hits_then_a_party_a_step():
    assert conversion.crew_chart(3, 60) == (5, 8, 11)
    assert conversion.crew_chart(1, 17) == (3,)
    assert conversion.crew_chart(0, 17) == ()


@pytest.mark.rule("CM-DMG-11", "CM-MAG-07", "CM-BOMB-04")
def test_the_critical_chart_gives_each_fitted_special_its_own_point():
    plain = conversion.critical_chart(())
    assert plain[0] == plain[8] == "Magazine Hit"  # rolls 2 and 10
    fitted = conversion.critical_chart({panels.ROCKETS, panels.BOMBS, panels.MAIN})
    assert fitted[8] == "Rocket Magazine"  # roll 10
    assert fitted[10] == "Bomb Racks Hit"  # roll 12
    assert fitted[0] == "Magazine Hit"


def test_every_catalog_class_with_figures_has_a_panel():
    ids = [panel.class_id for panel in conversion.catalog_panels()]
    with_figures = [c.id for c in catalog.ship_classes() if c.has_figures]
    assert ids == with_figures
    assert "intrepid" not in ids  # name only in the catalog


def test_the_panels_data_file_is_what_the_conversion_gives():
    """data/panels.json cannot drift from the conversion: rewrite it with
    ``python -m battles.rules.cloudships_2023.conversion``."""
    assert conversion.PANELS_FILE.read_text(encoding="utf-8") == conversion.panels_json()
    assert conversion.stored_panels() == conversion.catalog_panels()


def test_a_design_converts_like_a_class():
    from galleons.design import design_from_catalog
    from galleons.record import ship_record_from_design

    designed = ship_record_from_design(design_from_catalog(catalog.ship_class("hullcutter")), name="Copy")
    panel = conversion.panel_from_record(designed)
    assert isinstance(panel, ControlPanel)
    assert panel.guns == conversion.panel_guns(record("hullcutter"))
    assert panel.class_id is None
