"""SGC-TREK-06 on the real map: the hostile south-west, below the Syrtis Major-Crocea-Gorklimisk Canal.

The canal runs from Syrtis Major (1016) west to the map's west edge (0115), so the ground "west and/or south" of
it is the ground below it in the columns it crosses; east of Syrtis Major's column nothing is south of it. The
canal's own hexes are not hostile, nor are British hexes and the Aerian Hills. The trek reads a hex's allegiance
from the map (strategic_map.mapdata, via trek_rules.table_code), so these are the columns a trek party rolls on.
"""

from __future__ import annotations

import pytest

from strategic_map import trek_rules
from strategic_map.mapdata import mars_map

MARS = mars_map()
CANAL = next(canal for canal in MARS.canals if canal.id == "sm_crocea_gorklimisk")
REASON = "west/south of Syrtis Major-Crocea-Gorklimisk Canal"


def at(label: str):
    return MARS.hex_by_label(label)


@pytest.mark.rule("SGC-TREK-06")
@pytest.mark.parametrize(
    ("label", "allegiance", "why"),
    [
        ("0115", "neutral", "the canal's hex at the west edge"),
        ("0215", "neutral", "Gorklimisk, on the canal"),
        ("0614", "neutral", "Crocea, on the canal"),
        ("0414", "neutral", "a canal hex where the canal bends north"),
        ("0715", "neutral", "a canal hex"),
        ("0116", "hostile", "just south of the canal's west end"),
        ("0216", "hostile", "just south of Gorklimisk"),
        ("0317", "hostile", "south of the canal, clear"),
        ("1020", "hostile", "south of Syrtis Major, below the British ground"),
        ("0415", "neutral", "Aerian Hills, just south of the canal"),
        ("0716", "neutral", "Aerian Hills, south of the canal"),
        ("0717", "neutral", "Aerian Hills, further south"),
        ("0816", "friendly", "British, south of the canal"),
        ("0919", "friendly", "Avenel, a British city south of the canal"),
        ("1016", "friendly", "Syrtis Major, the canal's British end"),
        ("0514", "neutral", "just north of the canal"),
        ("0513", "neutral", "the Shistomik Mountains, north of the canal"),
        ("1120", "neutral", "east of Syrtis Major's column: not south of the canal"),
        ("0812", "friendly", "Parhoon, north-east of the canal"),
    ],
)
def test_the_south_west_below_the_canal_is_hostile_on_real_hexes(label, allegiance, why):
    hex_ = at(label)
    assert hex_.allegiance == allegiance, why
    # The trek rolls on the column of that allegiance (the reference table's Passage/Lost/... for this row).
    for die in range(1, 7):
        expected = MARS.epic_trek_table.result(allegiance=allegiance, row=hex_.trek_row, die=die)
        assert trek_rules.table_code(MARS.epic_trek_table, hex_, die) == trek_rules.parse_code(expected)
    assert trek_rules.hex_words(hex_).endswith(f"{allegiance})")


@pytest.mark.rule("SGC-TREK-06")
def test_every_hex_below_the_canal_is_hostile_but_british_ground_and_the_aerian_hills():
    """The whole map, against the rule read independently from the canal's hexes (not the file's reasons)."""
    lowest_canal_row: dict[int, int] = {}
    for col, row in CANAL.hexes:
        lowest_canal_row[col] = max(row, lowest_canal_row.get(col, row))
    assert sorted(lowest_canal_row) == list(range(10)), "the canal crosses every column from Syrtis Major west"
    on_canal = set(CANAL.hexes)
    below = {(h.col, h.row) for h in MARS.hexes if h.col in lowest_canal_row and h.row > lowest_canal_row[h.col]}
    assert len(below) > 60
    excepted = 0
    for hex_ in MARS.hexes:
        where = (hex_.col, hex_.row)
        if where in on_canal:
            # The canal itself is excluded: only British ground on it is anything but neutral.
            assert hex_.allegiance == ("friendly" if hex_.british else "neutral"), hex_.label
        elif where in below and hex_.british:
            assert hex_.allegiance == "friendly", hex_.label
            excepted += 1
        elif where in below and hex_.region == "Aerian Hills":
            assert hex_.allegiance != "hostile", hex_.label
            excepted += 1
        elif where in below:
            assert hex_.allegiance == "hostile", hex_.label
        else:
            assert hex_.allegiance_reason != REASON, hex_.label
    assert excepted > 10  # British ground and the hills south of the canal were really met


@pytest.mark.rule("SGC-TREK-06", "SGC-TREK-10")
def test_a_trek_below_the_canal_finds_no_friendly_city_but_the_british_ones():
    """The cities south of the canal: a British one (Avenel) ends a trek, the others (all hostile) do not."""
    friendly = {city.name for city in trek_rules.friendly_cities(MARS)}
    south = {
        city.name
        for city in MARS.cities
        if city.col < 10 and city.row > max(row for col, row in CANAL.hexes if col == city.col)
    }
    assert south >= {"Astrapsk", "Oenotria", "Deltoton", "Skorosia", "Avenel"}
    assert south & friendly == {name for name in south if at(MARS.city(name).label).british}
    assert "Avenel" in friendly
    assert not {"Astrapsk", "Oenotria", "Deltoton", "Skorosia"} & friendly
