"""The pure strategic map loader (strategic_map.mapdata)."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from battles.rules.sky_galleons import datafiles
from galleons import catalog
from strategic_map import mapdata
from strategic_map.mapdata import mars_map

PROJECT_DIR = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = ("config", "accounts", "campaign", "strategic_map", "battles", "galleons")

ENCOUNTER_NUMBERS = {
    "Neutral West": (1, 3),
    "Neutral Northeast": (1, 2),
    "Neutral Southeast": (1, 2),
    "Astusapes": (2, 5),
    "Shastapsh": (3, 6),
    "Oenotria": (2, 6),
    "Shistomik": (1, 3),
}

AXIAL_NEIGHBOURS = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


@pytest.mark.rule("SGC-MAP-01")
def test_map_is_20_by_25_hexes_of_100_miles():
    mars = mars_map()
    assert (mars.width, mars.height, mars.hex_size_miles) == (20, 25, 100)
    assert len(mars.hexes) == 500
    assert {(h.col, h.row) for h in mars.hexes} == {(c, r) for c in range(20) for r in range(25)}


def test_every_hex_axial_matches_the_files_odd_q_rule():
    mars = mars_map()
    assert mars.coordinate_system["offset"].startswith("odd-q")
    for h in mars.hexes:
        # The file's own formula: r = row - (col - (col & 1)) / 2.
        assert (h.q, h.r) == (h.col, h.row - (h.col - (h.col & 1)) // 2), h.label
        assert mapdata.offset_to_axial(h.col, h.row) == (h.q, h.r)


def test_labels_are_one_based_column_then_row():
    mars = mars_map()
    for h in mars.hexes:
        assert h.label == f"{h.col + 1:02d}{h.row + 1:02d}"
    assert mars.hex_by_label("1016").city == "Syrtis Major"


def test_lookups_by_axial_offset_and_label_agree():
    mars = mars_map()
    parhoon = mars.city("Parhoon")
    by_label = mars.hex_by_label(parhoon.label)
    assert mars.hex_at(by_label.q, by_label.r) is by_label
    assert mars.hex_at_offset(parhoon.col, parhoon.row) is by_label
    with pytest.raises(KeyError, match="not on the map"):
        mars.hex_at(100, 100)
    with pytest.raises(mapdata.UnknownMapName):
        mars.hex_by_label("9999")


@pytest.mark.rule(
    "SGC-ENC-02",
    "SGC-ENC-08",
    "SGC-ENC-09",
    "SGC-ENC-10",
    "SGC-ENC-11",
    "SGC-ENC-12",
    "SGC-ENC-13",
    "SGC-ENC-14",
)
def test_the_seven_territories_have_the_rules_encounter_numbers():
    territories = mars_map().territories
    stated = {name: (t.move_through, t.patrol) for name, t in territories.items() if t.has_encounters}
    assert stated == ENCOUNTER_NUMBERS
    for name in ENCOUNTER_NUMBERS:
        assert territories[name].provenance.status == mapdata.STATED


@pytest.mark.rule("SGC-MAP-03")
def test_british_territory_has_no_encounter_roll_and_says_it_is_a_stand_in():
    british = mars_map().territory("british")
    assert (british.move_through, british.patrol) == (None, None)
    assert not british.has_encounters
    assert british.provenance.is_stand_in


def test_each_hex_carries_its_territorys_encounter_numbers():
    mars = mars_map()
    for h in mars.hexes:
        territory = mars.territories[h.territory]
        expected = (territory.move_through, territory.patrol) if territory.has_encounters else None
        assert h.encounter == expected, h.label
    assert all(h.british == (h.territory == "British") for h in mars.hexes)


@pytest.mark.rule("SGC-START-02", "SGC-START-12", "SGC-REPAIR-01")
def test_parhoon_is_the_start_city_with_the_martian_yard():
    mars = mars_map()
    parhoon = mars.city("parhoon")
    assert mars.start_city is parhoon
    assert parhoon.has_martian_yard
    assert [city.name for city in mars.cities if city.has_martian_yard] == ["Parhoon"]
    parhoon_hex = mars.hex_at_offset(parhoon.col, parhoon.row)
    assert parhoon_hex.city == "Parhoon"
    assert parhoon_hex.british
    assert not mars.provenance["start_city"].is_stand_in


def test_cities_and_sites_sit_on_hexes_that_name_them():
    mars = mars_map()
    assert len(mars.cities) == 20
    for city in mars.cities:
        assert mars.hex_by_label(city.label).city == city.name
        assert mars.hex_at_offset(city.col, city.row).label == city.label
    for site in mars.sites:
        assert mars.hex_at_offset(site.col, site.row).site == site.name
    assert Counter(h.city is not None for h in mars.hexes)[True] == len(mars.cities)


def test_canals_run_hex_to_adjacent_hex_and_tag_their_hexes():
    mars = mars_map()
    assert len(mars.canals) == 13
    for canal in mars.canals:
        axial = [mapdata.offset_to_axial(col, row) for col, row in canal.hexes]
        for (q1, r1), (q2, r2) in itertools.pairwise(axial):
            assert (q2 - q1, r2 - r1) in AXIAL_NEIGHBOURS, canal.id
        for col, row in canal.hexes:
            assert canal.id in mars.hex_at_offset(col, row).canal_ids
        if canal.type == "grand":
            assert {mars.hex_at_offset(c, r).canal_type for c, r in canal.hexes} == {"grand"}
    by_id = {canal.id: canal for canal in mars.canals}
    assert by_id["sm_crocea_gorklimisk"].waypoints == ("Syrtis Major", "Crocea", "Gorklimisk")
    assert by_id["sm_crocea_gorklimisk"].edge_exit == (0, 14)


@pytest.mark.rule("SGC-TREK-05", "SGC-TREK-06")
def test_allegiance_follows_the_trek_definitions():
    mars = mars_map()
    for h in mars.hexes:
        if h.british:
            assert h.allegiance == "friendly", h.label
        if h.region == "Astusapes Highlands":
            assert h.allegiance == "hostile", h.label
    shastapsh = mars.city("Shastapsh")
    assert mars.hex_by_label(shastapsh.label).allegiance == "hostile"


@pytest.mark.rule("SGC-TREK-04")
def test_epic_trek_table_is_a_designed_stand_in_covering_every_hex():
    mars = mars_map()
    trek = mars.epic_trek_table
    assert trek.is_stand_in
    assert mars.provenance["epic_trek_table"].status == mapdata.DESIGNED_STAND_IN
    code = re.compile(r"^(P|F|C|L:\d|A:\d)$")
    for allegiance, rows in trek.table.items():
        for row, results in rows.items():
            assert len(results) == 6, (allegiance, row)
            assert all(code.match(r) for r in results), (allegiance, row)
    for h in mars.hexes:
        assert trek.result(allegiance=h.allegiance, row=h.trek_row, die=1)
    assert mars.hex_by_label("0812").trek_row == "city"
    with pytest.raises(ValueError, match=r"1\.\.6"):
        trek.result(allegiance="neutral", row="clear", die=0)


@pytest.mark.rule("SGC-MAP-02")
def test_hex_positions_are_flagged_as_designed_stand_ins():
    provenance = mars_map().provenance
    assert provenance["hexes"].is_stand_in
    assert provenance["cities"].is_stand_in
    assert provenance["canals"].is_stand_in
    assert not provenance["territories"].is_stand_in
    assert not provenance["frame"].is_stand_in


def test_map_loader_parses_once():
    assert mars_map() is mars_map()


def test_no_project_module_builds_a_path_into_the_shared_folder():
    # The shared folder sits beside the project in development only; a deployed site has no such folder.
    path_into_shared = re.compile(r"""\.\./shared|/work/shared|["'](?:\.{0,2}/)?shared(?:/data)?["'/]""")
    offenders = []
    for package in PROJECT_PACKAGES:
        for path in (PROJECT_DIR / package).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if path_into_shared.search(line):
                    offenders.append(f"{path.relative_to(PROJECT_DIR).as_posix()}:{number}")
    assert offenders == []
    for data_dir in (mapdata.DATA_DIR, catalog.DATA_DIR, datafiles.DATA_DIR):
        assert data_dir.is_relative_to(PROJECT_DIR)
        assert data_dir.is_dir()


def test_nothing_opens_a_shared_file_at_run_time():
    """Start Django, import the URL tree (every view and admin) and load all the reference data, recording
    every file opened: none may lie in the shared folder."""
    probe = f"""
import os, sys
shared = {str(PROJECT_DIR.parent / "shared")!r}
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        name = os.fsdecode(args[0])
        if os.path.realpath(name).startswith(shared):
            opened.append(name)
sys.addaudithook(hook)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
import config.urls
from galleons import catalog
from strategic_map import mapdata
catalog.ship_classes(); catalog.weapons(); catalog.small_arms(); catalog.encounter_tables()
mapdata.mars_map()
print("OPENED", opened)
"""
    result = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT_DIR, capture_output=True, text=True, check=True)
    assert "OPENED []" in result.stdout, result.stdout
