"""Reference figures the campaign's map and encounters rest on: the Umbra run, the merchant drawn, the tables' copy."""

from __future__ import annotations

import pytest

from galleons import catalog
from galleons.record import ship_record_from_class
from strategic_map import mapdata, voyage_rules


@pytest.mark.rule("SGC-MAP-05", "SGC-MOVE-02", "SGC-MOVE-04")
@pytest.mark.parametrize("class_id", ["eagle", "warm_winds"])
def test_umbra_to_syrtis_major_is_about_five_days_by_steam_or_kite(class_id):
    atlas = mapdata.mars_map()
    ship = voyage_rules.ship_movement(
        ship_record_from_class(class_id, name="Courier", crew_quality="trained", side="british"), coal_days=30
    )
    umbra = voyage_rules.city_hex(atlas, atlas.city("Umbra"))
    syrtis = voyage_rules.city_hex(atlas, atlas.city("Syrtis Major"))

    plan = voyage_rules.route_plan(umbra, syrtis, ship=ship, atlas=atlas)

    # The rebuilt map keeps the text's calibration: "about five days", read as four to six.
    assert plan is not None
    assert 4 <= len(plan) <= 6


@pytest.mark.rule("SGC-ETYPE-15", "SGC-ETYPE-11")
def test_the_merchant_drawn_is_the_warm_winds_as_published():
    warm_winds = catalog.ship_class("Warm Winds")
    assert catalog.encounter_category("Enemy Merchantman").class_ids == ("warm_winds",)
    assert (warm_winds.hull_size, warm_winds.armor_value, warm_winds.tonnage, warm_winds.price) == (
        20,
        0,
        1950,
        112_600,
    )
    assert warm_winds.propulsion is not None
    assert warm_winds.propulsion.type == "kite"
    assert warm_winds.max_altitude == "Medium"
    assert warm_winds.crew is not None
    assert (warm_winds.crew.officers, warm_winds.crew.petty_officers, warm_winds.crew.ratings) == (3, 2, 41)
    assert warm_winds.mounts == ()


@pytest.mark.rule("SGC-ENC-22")
def test_the_encounter_tables_come_from_the_clean_second_copy():
    tables = catalog.encounter_tables()
    assert len(tables) == 7
    for table in tables:
        clean_line, first_line = table.lines
        # The second copy (lines 1352-1414) is read; the first copy's line is kept for reference only.
        assert 1352 <= clean_line <= 1414
        assert first_line < 1352 or table.territory == "Shastapsh"
    shastapsh = catalog.encounter_table("Shastapsh")
    assert (shastapsh.move_through, shastapsh.patrol) == (3, 6)
