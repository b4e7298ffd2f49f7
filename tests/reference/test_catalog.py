"""The pure ship catalog and weapon loaders (galleons.catalog)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter

import pytest

from galleons import catalog
from strategic_map import mapdata

FULLY_STATED = {"whisperdeath", "warm_winds", "clearsight", "hullcutter", "hamburg", "eagle", "ranger"}


def test_catalog_has_35_classes_by_status():
    statuses = Counter(ship.data_status for ship in catalog.ship_classes())
    assert len(catalog.ship_classes()) == 35
    # The boarding launch is a designed stand-in (SG-CLS-06), so only the Intrepid is a name alone.
    assert statuses == {"stated": 7, "partially_stated": 8, "reconstructed": 19, "name_only": 1}


def test_the_seven_published_classes_are_flagged_stated():
    stated = {ship.id for ship in catalog.ship_classes() if ship.is_stated}
    assert stated == FULLY_STATED
    assert catalog.ship_class("Ranger").name == "Ranger (USS Ranger)"


def test_hamburg_keeps_its_published_figures():
    hamburg = catalog.ship_class("Hamburg")
    assert (hamburg.hull_size, hamburg.armor_value, hamburg.speed) == (6, 3, 5)
    assert (hamburg.tonnage, hamburg.price, hamburg.max_altitude) == (600, 69_400, "High")
    assert hamburg.crew is not None
    assert (hamburg.crew.officers, hamburg.crew.petty_officers, hamburg.crew.ratings) == (5, 4, 40)
    assert hamburg.crew.marines == 20
    assert hamburg.propulsion is not None
    assert hamburg.propulsion.engine_size == 5
    assert hamburg.provenance["tonnage"].is_stated
    assert 2689 in hamburg.provenance["tonnage"].lines


def test_whisperdeath_is_a_kite_with_rolled_speed():
    whisperdeath = catalog.ship_class("whisperdeath")
    assert whisperdeath.is_kite
    assert whisperdeath.speed == "K"
    assert (whisperdeath.tonnage, whisperdeath.price) == (695, 59_340)


def test_confidence_is_the_weakest_reconstructed_figure():
    assert catalog.ship_class("Whisperdeath").confidence == "high"
    assert catalog.ship_class("Glory Sled").confidence == "very_low"
    assert catalog.ship_class("Hamburg").confidence == "medium"  # the ram is inferred, not stated
    assert {ship.confidence for ship in catalog.ship_classes() if ship.data_status == "name_only"} == {"none"}


def test_name_only_classes_have_no_figures():
    intrepid = catalog.ship_class("intrepid")
    assert not intrepid.has_figures
    assert intrepid.crew is None
    assert intrepid.propulsion is None
    assert intrepid.mounts == ()


def test_every_mount_names_a_known_weapon():
    for ship in catalog.ship_classes():
        for mount in ship.mounts:
            assert catalog.weapon(mount.weapon_id).name == mount.weapon_name, ship.id


def test_hamburg_mounts_count_its_guns():
    guns = Counter()
    for mount in catalog.ship_class("Hamburg").mounts:
        guns[mount.weapon_id] += mount.count
    assert guns == {"6in": 1, "4in_short": 4}


def test_ship_class_lookup_by_short_name_only_when_unambiguous():
    assert catalog.ship_class("Ranger (USS Ranger)").id == "ranger"
    assert catalog.ship_class("dauntless (ORIGINAL design)").id == "dauntless"
    assert catalog.ship_class("Intrepid class").id == "intrepid"
    # Both Aphids shorten to "Aphid", so neither claims it as an alias ("aphid" is the original's id).
    assert catalog.ship_class("aphid_improved").aliases == ()
    assert catalog.ship_class("aphid").aliases == ()


def test_weapon_lookup_is_case_insensitive_by_id_name_or_alias():
    assert catalog.weapon("heavy gun") is catalog.weapon("Heavy Gun") is catalog.weapon("HEAVY_GUN")
    assert catalog.weapon("9 INCH sb SMOOTHBORE").id == "sb_9in"
    assert catalog.weapon("  10 inch SB   smoothbore ").id == "sb_10in"


def test_unknown_weapon_says_what_is_known():
    with pytest.raises(KeyError) as raised:
        catalog.weapon("Death Ray")
    error = raised.value
    assert isinstance(error, catalog.UnknownWeapon)
    assert "Death Ray" in str(error)
    assert "Heavy Gun" in error.known
    assert "Heavy Gun" in str(error)


def test_unknown_ship_class_is_a_lookup_error_with_known_names():
    with pytest.raises(LookupError, match="Whisperdeath"):
        catalog.ship_class("Nautilus")


def test_weapon_table_counts_and_categories():
    categories = Counter(w.category for w in catalog.weapons())
    assert len(catalog.weapons()) == 51
    assert categories["martian_cannon"] == 6
    assert categories["old_earth_smoothbore"] == 4
    assert categories["machinegun"] == 8


def test_consolidated_list_is_authoritative_for_prices():
    # Sky Galleons prices Hale rockets at 100 pounds; Cloudships & Gunboats, which wins, at 50.
    hale = catalog.weapon("Hale Rocket Battery")
    assert hale.cost_pounds == 50
    assert hale.authoritative_source == "cloudships_and_gunboats_consolidated_list"
    assert {w.authoritative_source for w in catalog.weapons()} == {"cloudships_and_gunboats_consolidated_list"}


@pytest.mark.rule("SGC-START-06")
def test_british_weapons_are_not_sold_in_martian_yards():
    assert not catalog.weapon('4" L (4" long)').martian_yard
    assert catalog.weapon("Rogue").martian_yard
    assert catalog.weapon("Rogue").british_yard


def test_weapon_fields_are_typed():
    sweeper = catalog.weapon("Sweeper")
    assert sweeper.personnel_only
    assert sweeper.penetration is None
    assert sweeper.range_hexes == catalog.RangeBands(close=0, long=1)
    rod_gun = catalog.weapon("Rod Gun")
    assert rod_gun.rate_of_fire == catalog.RateOfFire(reload_turns=1)
    assert rod_gun.penetration == catalog.RangeBands(close=3, long=2)
    gatling = catalog.weapon('0.5" Gatling')
    assert gatling.rate_of_fire == catalog.RateOfFire(normal=3, maximum=5)
    assert catalog.weapon("Smutts Aerial Torpedo").range_total_hexes == 30


def test_small_arms():
    arms = {arm.name: arm for arm in catalog.small_arms()}
    assert set(arms) == {"Modern Rifle", "Bows", "Muskets", "Rifle Muskets"}
    assert arms["Modern Rifle"].men_per_die == 2
    assert arms["Bows"].range_hexes.long is None


@pytest.mark.rule("SGC-ENC-16")
def test_encounter_categories_draw_from_known_classes():
    names = {category.name for category in catalog.encounter_categories()}
    assert names == {
        "High Martian Pirate",
        "Pirate Ship",
        "Cloud Captain",
        "Warship",
        "Enemy Merchantman",
        "Prize Ship in Tow",
    }
    for category in catalog.encounter_categories():
        assert category.class_ids, category.name
        for class_id in category.class_ids:
            assert catalog.ship_class(class_id).has_figures
    assert catalog.encounter_category("pirate ship").crew_quality == "Trained"
    assert "bloodrunner" in catalog.encounter_category("Pirate Ship").class_ids


def test_encounter_tables_agree_with_the_map_territories():
    tables = {table.territory: table for table in catalog.encounter_tables()}
    territories = mapdata.mars_map().territories
    assert set(tables) == {name for name, t in territories.items() if t.has_encounters}
    for name, table in tables.items():
        assert (table.move_through, table.patrol) == (
            territories[name].move_through,
            territories[name].patrol,
        )


@pytest.mark.rule("SGC-ENC-15")
def test_encounter_type_roll():
    oenotria = catalog.encounter_table("oenotria")
    assert oenotria.encounter_for(6) == "Three Enemy Merchantmen"
    assert oenotria.encounter_for(1) == "Warship"
    with pytest.raises(ValueError, match=r"1\.\.6"):
        oenotria.encounter_for(7)
    with pytest.raises(catalog.UnknownTerritory):
        catalog.encounter_table("British")


def test_loaders_parse_once_and_records_are_frozen():
    assert catalog.ship_classes() is catalog.ship_classes()
    assert catalog.weapons() is catalog.weapons()
    hamburg = catalog.ship_class("Hamburg")
    with pytest.raises(dataclasses.FrozenInstanceError):
        hamburg.price = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        hamburg.raw["price"] = 1  # type: ignore[index]
    assert hash(hamburg) == hash(catalog.ship_class("hamburg"))


def test_the_pure_loaders_import_no_django():
    probe = (
        "import sys\n"
        "import galleons.catalog as c, strategic_map.mapdata as m\n"
        "c.ship_classes(); c.weapons(); m.mars_map()\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'campaign', 'accounts', 'config'}"
        " or n in {'battles.models', 'strategic_map.models'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
