"""load_reference_data: the reference tables mirror the pure data, idempotently and in a few queries."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from battles.models import ShipClass, WeaponType
from strategic_map.models import City, MapHex, Provenance, Territory
from strategic_map.services import reference_data_load

pytestmark = pytest.mark.django_db

TABLES = {
    "territories": Territory,
    "hexes": MapHex,
    "cities": City,
    "ship_classes": ShipClass,
    "weapon_types": WeaponType,
}
EXPECTED_ROWS = {"territories": 8, "hexes": 500, "cities": 20, "ship_classes": 35, "weapon_types": 51}

# One read per table, two id re-reads, the savepoint pair, and the inserts in batches: 100 rows a statement,
# or on SQLite (999 parameters a statement) 55 hexes, so 10 statements for the hexes. 23 on SQLite.
MAX_QUERIES_FIRST_LOAD = 25
# A load that changes nothing only reads: one query per table, the two id re-reads, the savepoint pair.
MAX_QUERIES_RELOAD = 9


def _row_counts() -> dict[str, int]:
    return {table: model.objects.count() for table, model in TABLES.items()}


def test_first_load_creates_every_row(django_assert_max_num_queries):
    with django_assert_max_num_queries(MAX_QUERIES_FIRST_LOAD):
        counts = reference_data_load()
    assert {table: counts[f"{table}_created"] for table in TABLES} == EXPECTED_ROWS
    assert _row_counts() == EXPECTED_ROWS


def test_second_load_changes_nothing(django_assert_max_num_queries):
    reference_data_load()
    before = {table: sorted(model.objects.values_list("pk", flat=True)) for table, model in TABLES.items()}
    with django_assert_max_num_queries(MAX_QUERIES_RELOAD):
        counts = reference_data_load()
    assert {table: counts[f"{table}_unchanged"] for table in TABLES} == EXPECTED_ROWS
    assert sum(counts[f"{table}_{what}"] for table in TABLES for what in ("created", "updated", "stale")) == 0
    after = {table: sorted(model.objects.values_list("pk", flat=True)) for table, model in TABLES.items()}
    assert after == before


def test_rewriting_every_hex_takes_batches_not_a_query_per_hex(django_assert_max_num_queries):
    reference_data_load()
    MapHex.objects.update(terrain="swamp", canal_ids=[])
    with django_assert_max_num_queries(MAX_QUERIES_FIRST_LOAD):
        counts = reference_data_load()
    assert counts["hexes_updated"] == 500
    assert not MapHex.objects.filter(terrain="swamp").exists()


def test_reload_repairs_an_edited_row_and_restores_a_missing_one():
    reference_data_load()
    Territory.objects.filter(name="Oenotria").update(patrol=1)
    MapHex.objects.filter(label="0101").delete()
    counts = reference_data_load()
    assert counts["territories_updated"] == 1
    assert counts["hexes_created"] == 1
    assert Territory.objects.get(name="Oenotria").patrol == 6
    assert MapHex.objects.get(label="0101").territory.name == "Neutral West"


def test_territories_keep_the_rules_numbers_and_british_has_none():
    reference_data_load()
    numbers = {t.name: (t.move_through, t.patrol) for t in Territory.objects.all()}
    assert numbers["Shastapsh"] == (3, 6)
    assert numbers["Neutral West"] == (1, 3)
    assert numbers["British"] == (None, None)
    british = Territory.objects.get(name="British")
    assert british.is_stand_in
    assert not british.has_encounters
    assert not Territory.objects.get(name="Astusapes").is_stand_in


def test_hexes_keep_coordinates_and_stand_in_flag():
    reference_data_load()
    syrtis_major = MapHex.objects.select_related("territory").get(label="1016")
    assert (syrtis_major.col, syrtis_major.row, syrtis_major.q, syrtis_major.r) == (9, 15, 9, 11)
    assert syrtis_major.city_name == "Syrtis Major"
    assert syrtis_major.territory.name == "British"
    assert syrtis_major.canal_type == "grand"
    assert "nilosyrtis" in syrtis_major.canal_ids
    assert not MapHex.objects.exclude(provenance=Provenance.DESIGNED_STAND_IN).exists()


def test_parhoon_is_loaded_as_the_start_city_with_the_martian_yard():
    reference_data_load()
    parhoon = City.objects.select_related("hex").get(name="Parhoon")
    assert parhoon.is_start_city
    assert parhoon.has_martian_yard
    assert parhoon.hex.label == "0812"
    assert list(City.objects.filter(has_martian_yard=True).values_list("name", flat=True)) == ["Parhoon"]
    assert "Parhoon" in parhoon.provenance_note


def test_ship_classes_and_weapons_keep_their_provenance():
    reference_data_load()
    stated = set(ShipClass.objects.filter(data_status="stated").values_list("slug", flat=True))
    assert stated == {"whisperdeath", "warm_winds", "clearsight", "hullcutter", "hamburg", "eagle", "ranger"}
    hamburg = ShipClass.objects.get(slug="hamburg")
    assert (hamburg.tonnage, hamburg.price, hamburg.speed, hamburg.max_altitude) == (600, 69_400, "5", "High")
    assert hamburg.spec["crew"]["total"] == 49
    assert hamburg.provenance["tonnage"]["flag"] == "stated"
    assert ShipClass.objects.get(slug="bloodrunner").speed == "K"
    assert ShipClass.objects.get(slug="intrepid").tonnage is None
    hale = WeaponType.objects.get(slug="hale_rockets")
    assert hale.cost == 50
    assert hale.authoritative_source == "cloudships_and_gunboats_consolidated_list"
    assert hale.provenance["source_lines"]["cloudships_and_gunboats_consolidated_list"] > 0


def test_command_reports_unchanged_counts_on_rerun():
    call_command("load_reference_data", stdout=StringIO())
    out = StringIO()
    call_command("load_reference_data", stdout=out)
    assert "hexes: 0 created, 0 updated, 500 unchanged" in out.getvalue()
    assert "ship_classes: 0 created, 0 updated, 35 unchanged" in out.getvalue()


@pytest.mark.parametrize("model", [Territory, MapHex, City, ShipClass, WeaponType], ids=lambda m: m.__name__)
def test_admin_shows_the_reference_read_only(admin_client, model):
    reference_data_load()
    meta = model._meta
    changelist = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert changelist.status_code == 200
    assert admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 403
