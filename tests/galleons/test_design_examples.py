"""Golden tests: every worked example of the ship design rules (SGD-*), with the text's inputs and results."""

from __future__ import annotations

import pytest

from galleons import catalog
from galleons.design import (
    design_from_catalog,
    halved_galley_speed,
    halved_steam_speed,
    hull_rows,
    maneuver_rows,
    parse_design,
    rate_design,
    reload_turns_short_handed,
    steam_speed,
)


@pytest.mark.rule("SGD-SPD-02", "SGD-SPD-01")
@pytest.mark.parametrize(("calculated", "speed"), [(7, 6), (9, 7)])
def test_design_step_example_steam_speed_above_6(calculated: int, speed: int) -> None:
    # 7 -> 6 1/2 -> 6; 9 -> 7 1/2 -> 7.
    assert halved_steam_speed(calculated) == speed


@pytest.mark.rule("SGD-SPD-02")
def test_design_step_example_from_engine_and_hull() -> None:
    # 6 x 7 / 6 = 7 -> 6; 6 x 3 / 2 = 9 -> 7.
    assert steam_speed(7, 6) == 6
    assert steam_speed(3, 2) == 7


@pytest.mark.rule("SGD-SPD-03", "SGD-SPD-07")
@pytest.mark.parametrize(("calculated", "speed"), [(7, 6), (8, 7), (9, 7), (10, 8), (11, 8)])
def test_rating_example_steam_speed_above_6(calculated: int, speed: int) -> None:
    assert halved_steam_speed(calculated) == speed


@pytest.mark.rule("SGD-SPD-05", "SGD-SPD-07")
@pytest.mark.parametrize(("calculated", "speed"), [(6, 5), (7, 5)])
def test_rating_example_galley_speed_above_4(calculated: int, speed: int) -> None:
    assert halved_galley_speed(calculated) == speed


@pytest.mark.rule("SGD-MCH-03", "SGD-MCH-07")
def test_maneuvering_crew_example_rows_6_4_4() -> None:
    # Hull size 4, top speed 3, 14 turncranks -> three rows of four, the top row with the two extra.
    assert maneuver_rows(14, 4, 3) == (6, 4, 4)


@pytest.mark.rule("SGD-MCH-03", "SGD-MCH-07")
def test_maneuvering_crew_example_from_a_rated_galley() -> None:
    galley = parse_design(
        {
            "yard": "martian",
            "hull": "wood",
            "hull_size": 4,
            "propulsion": {"type": "screw_galley", "turncranks": 14},
        }
    )
    rating = rate_design(galley)
    assert rating.speed == 3  # 14 / 4 = 3.5, rounded down
    assert rating.maneuver_rows == (6, 4, 4)


@pytest.mark.rule("SGD-ARMT-21", "SG-CG-92")
def test_weapon_table_example_short_one_crewman() -> None:
    # ROF (1) short one crewman -> effective ROF (2).
    assert reload_turns_short_handed(1, 1) == 2
    assert reload_turns_short_handed(1, 0) == 1


@pytest.mark.rule("SG-DMG-12", "SG-DMG-11")
def test_hull_boxes_example_hull_3_high() -> None:
    rows = hull_rows(3, "H")
    assert [(row.altitude, row.boxes) for row in rows] == [("VL", 3), ("L", 3), ("M", 3), ("H", 3)]
    assert sum(row.boxes for row in rows) == 12


@pytest.mark.rule("SG-DMG-12")
def test_hull_boxes_example_from_a_rated_ship() -> None:
    # Hull size 3 loaded to 270 t: LV 1.11 -> High -> the same four rows of three.
    ship = parse_design(
        {
            "yard": "martian",
            "hull": "wood",
            "hull_size": 3,
            "propulsion": {"type": "screw_galley", "turncranks": 15},
            "weapons": [
                {"weapon": "Heavy Gun", "mount": "forward"},
                {"weapon": "Heavy Gun", "mount": "port wing"},
                {"weapon": "Heavy Gun", "mount": "starboard wing"},
            ],
        }
    )
    rating = rate_design(ship)
    assert rating.tonnage == 270
    assert rating.max_altitude == "H"
    assert rating.hull_boxes == 12


@pytest.mark.rule("SG-CLS-24", "SGD-CREW-11", "SGD-CREW-08")
def test_derived_check_hull_14_with_42_turncranks() -> None:
    # The Skyfire-sized galley: Hs 14, 42 turncranks -> speed 3; 1,400 t -> LV 1.0 -> High;
    # (30 gunners + 42 + 14 + 3) / 15 -> 5 additional officers (only with the 3-man bridge); 6+2+87.
    rating = rate_design(design_from_catalog(catalog.ship_class("Skyfire")))
    assert rating.speed == 3
    assert rating.tonnage == 1400
    assert rating.max_altitude == "H"
    assert rating.crew.officer_basis == 30 + 42 + 14 + 3
    assert rating.crew.additional_officers == 5
    assert rating.crew.summary == "6+2+87"


@pytest.mark.rule("SGD-PROP-08", "SGD-SPD-04")
def test_published_clearsight_confirms_the_galley_halving() -> None:
    # 12 turncranks on hull size 2: 6 -> 5, as the Clearsight's stat block says.
    rating = rate_design(design_from_catalog(catalog.ship_class("Clearsight")))
    assert rating.speed == 5
    assert catalog.ship_class("Clearsight").speed == 5
