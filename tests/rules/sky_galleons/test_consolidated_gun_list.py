"""SG-CG-80, SG-CG-81 and SG-CG-84, the Cloudships & Gunboats consolidated gun list, every row and every number.

The two tables (European naval and field guns, sky-galleons-of-mars.txt:2918-2942; Martian guns and old Earth
smoothbores, 2944-2959) are transcribed below by hand from the supplement, naval mount then field gun columns,
the asterisked corrections kept (SG-CG-05). Each row is checked against
three things: the source line the catalog stored for it (so the transcription and the data read the same
text), the catalog's parsed figures (galleons/data/weapons.json through catalog.weapon), and
what the figures do: the design rating's tons and pounds, and on a ship record the rate of fire and reload,
every range band, and the penetration and damage value at close and long range. test_weapon_tables.py checks
the Sky Galleons tables (SG-FIRE-19..39) the same way; this file is the consolidated list's own rows. The
machinegun table (SG-CG-84) is checked against its text, the catalog and the design bill (its guns fire as small
arms, which test_weapon_tables.py and test_small_arms.py cover).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from battles.rules.sky_galleons.combat import fire_gun_marked
from galleons import catalog
from galleons.design import parse_design, rate_design
from galleons.record import FireRate, Moment, fire_rate
from tests.rules.sky_galleons.test_weapon_tables import GUN, SINGLE_PEN, armed, shoot

CONSOLIDATED = "cloudships_and_gunboats_consolidated_list"
NONE = "—"  # a dash or an empty cell in the text: no such figure


class GunRow(NamedTuple):
    """One row as printed: the naval mount's Wt, Pen (close/long), DV, ROF, Crew, Range (close/long), Cost, then
    the field gun's ROF, range (yards), burst, Wt and Cost; text cells as the table writes them."""

    printed: str
    weapon_id: str
    weight: int
    pen: str
    dv: int | None
    rof: str
    crew: int
    range_hexes: str
    cost: int
    field_rof: str
    field_range: int
    burst: int
    field_weight: int | None
    field_cost: str | None


NAVAL_GUNS = [
    GunRow("1-pdr PP", "1pdr_pp", 10, "0/0", 1, "4", 1, "2/4", 250, "3", 400, 2, 300, "250"),
    GunRow("1-pdr HRC", "1pdr_hrc", 10, "0/0", 1, "3", 1, "2/4", 160, "2", 400, 2, 300, "160"),
    GunRow("3-pdr HRC", "3pdr_hrc", 10, "1/0", 1, "3", 1, "2/4", 180, "2", 400, 4, 400, "180"),
    GunRow("6-pdr HRC", "6pdr_hrc", 15, "1/0", 1, "3", 1, "3/6", 220, "2", 600, 4, 800, "220"),
    GunRow("6-pdr", "6pdr", 10, "1/0", 1, "1", 2, "3/6", 200, "(3)*", 600, 4, 600, "200"),
    GunRow("9-pdr", "9pdr", 10, "1/1", 1, "1", 2, "3/6", 220, "(3)", 600, 6, 800, "220*"),
    GunRow('12-pdr/3"', "12pdr_3in", 20, "2/1", 1, "1", 2, "3/6", 240, "(3)", 600, 8, 1000, "240*"),
    # The text's ROF cell reads "l", a misread 1.
    GunRow("15-pdr", "15pdr", 25, "2/1", 1, "1", 2, "3/6", 260, "(3)", 600, 10, 1200, "260*"),
    GunRow('20-pdr/4" S', "4in_short", 30, "2/1", 2, "1", 2, "3/6", 300, "(3)", 600, 12, 1600, "300*"),
    GunRow('4" L', "4in_long", 40, "3/2", 2, "1", 2, "4/8", 400, "(3)", 800, 10, None, None),
    GunRow("40-pdr", "40pdr", 60, "3/2", 3, "1", 2, "4/8", 600, "(3)", 800, 14, 3500, "600*"),
    GunRow('4.7" QF', "4_7in_qf", 100, "4/2", 3, "2", 2, "4/8", 1000, "(1)", 800, 14, None, None),
    GunRow('5"', "5in", 80, "4/2", 4, "1", 2, "5/10*", 800, "(3)", 1000, 16, None, None),
    GunRow('6"', "6in", 100, "5/3", 6, "1", 2, "5/10", 1000, "(3)", 1000, 20, None, None),
    GunRow('8"', "8in", 300, "9/5", 8, "(1)", 3, "6/12", 3000, "(6)", 1200, 24, None, None),
    GunRow('10"', "10in", 600, "10/5", 10, "(1)", 4, "7/14", 6000, "(6)", 1400, 28, None, None),
    GunRow('12"', "12in", 900, "12/6", 12, "(1)", 5, "8/16", 9000, "(6)", 1600, 32, None, None),
    GunRow('14"', "14in", 1300, "14/7", 14, "(1)", 6, "9/18", 12000, "(6)", 1800, 36, None, None),
    GunRow('16"', "16in", 2250, "16/8", 16, "(2)", 6, "10/20", 24000, "(12)", 2000, 40, None, None),
    # The mountain howitzer and the 5" howitzer have no close range and no close penetration ("—/6", "—/0").
    GunRow("7-pdr MH", "7pdr_mh", 15, "—/0", 1, "2", 2, "—/6", 200, "(1)", 600, 4, 400, "200"),
    GunRow('5" Hwtzr', "5in_howitzer", 60, "—/1", 3, "1", 2, "—/8", 1000, "(3)", 800, 14, 3000, "600*"),
]
MARTIAN_GUNS_AND_SMOOTHBORES = [
    # The Sweeper's P (personnel only) is in the Pen column and its DV is blank (SG-FIRE-39).
    GunRow("Sweeper", "sweeper", 10, "P", None, "2", 1, "0/1", 200, "(1)", 100, 2, 1, "200"),
    # One Pen figure: the same at all ranges.
    GunRow("Light Gun", "light_gun", 20, "0", 1, "1", 2, "1/2", 400, "(3)", 200, 4, 2, "400"),
    GunRow("Heavy Gun", "heavy_gun", 40, "1/0", 2, "1", 2, "2/4", 1000, "(4)", 300, 6, 4, "1000"),
    GunRow("Rod Gun", "rod_gun", 30, "3/2", 1, "(1)", 2, "3/6", 800, "(5)", 400, 4, 3, "800"),
    GunRow("Rogue", "rogue", 60, "2/1", 3, "(1)", 3, "3/6", 2000, "(6)", 400, 8, 6, "2000"),
    GunRow('9" SB', "sb_9in", 60, "1/1", 2, "1", 2, "2/4", 1000, "(4)", 400, 6, None, None),
    GunRow('10" SB', "sb_10in", 80, "2/1", 4, "(1)", 3, "3/6", 2000, "(6)", 600, 10, None, None),
    GunRow('11" SB', "sb_11in", 150, "3/1", 5, "(1)", 3, "3/6", 3500, "(6)", 600, 12, None, None),
    GunRow('15" SB', "sb_15in", 300, "4/2", 7, "(2)", 4, "4/8", 6000, "(8)", 800, 14, None, None),
    # No close range ("/3", its dash lost): its one Pen figure is a long-range one (SG-CG-86).
    GunRow("Lob Gun", "lob_gun", 200, "—/2", 4, "(1)", 3, "—/3", 2000, "(6)", 300, 10, 20, "2000"),
]
TABLES = {"SG-CG-80": NAVAL_GUNS, "SG-CG-81": MARTIAN_GUNS_AND_SMOOTHBORES}
ROWS = [
    pytest.param(row, marks=pytest.mark.rule(clause), id=row.weapon_id)
    for clause, rows in TABLES.items()
    for row in rows
]
GUN_ROWS = [param for param in ROWS if param.values[0].pen != "P"]  # the Sweeper fires as small arms


def pair(text: str) -> tuple[int | None, int]:
    """ "4/2" -> (4, 2); "—/6" -> (None, 6); "0" -> (0, 0), one figure for all ranges; an asterisk (a correction)
    is not part of the figure."""
    if "/" not in text:
        return int(text), int(text)
    close, long = text.rstrip("*").split("/")
    return (None if close == NONE else int(close)), int(long)


def rof(text: str) -> FireRate:
    """ "3" -> three shots a turn; "(1)" -> one shot, then a turn of reloading."""
    if text.startswith("("):
        return FireRate(1, int(text.strip("()")))
    return FireRate(int(text), 0)


def cells(row: GunRow) -> list[str]:
    return [
        row.printed,
        *(str(v) for v in (row.weight, row.pen)),
        NONE if row.dv is None else str(row.dv),
        *(str(v) for v in (row.rof, row.crew, row.range_hexes, row.cost)),
        row.field_rof,
        str(row.field_range),
        str(row.burst),
        NONE if row.field_weight is None else str(row.field_weight),
        row.field_cost or NONE,
    ]


def read_cell(cell: str) -> str:
    """A cell of the text as the table means it: its OCR slips undone ("l" for 1, '' for ", 12,000, "_" or an
    empty cell for a dash, "/1" with its dash lost), nothing else."""
    cell = cell.strip().replace("''", '"').replace(",", "")
    if cell in ("", "_", NONE):
        return NONE
    if cell == "l":
        return "1"
    if cell == "\u0420":  # a Cyrillic capital Er, the scan's P
        return "P"
    if cell.startswith("_/"):
        return NONE + cell[1:]
    return NONE + cell if cell.startswith("/") else cell


def text_row(weapon_id: str) -> list[str]:
    source = catalog.weapon(weapon_id).raw["sources"][CONSOLIDATED]
    assert 2918 <= source["line"] <= 2959
    found = [read_cell(cell) for cell in source["row_text"].split("\t")]
    while found and found[-1] == NONE:  # the text keeps some trailing empty cells and drops others
        found.pop()
    return found + [NONE] * (13 - len(found))


@pytest.mark.rule("SG-CG-80", "SG-CG-81")
def test_the_tables_have_every_gun_of_their_kinds_in_the_catalog_and_no_other():
    def kind(*categories: str) -> set[str]:
        return {weapon.id for weapon in catalog.weapons() if weapon.category in categories}

    assert kind("naval_gun") == {row.weapon_id for row in NAVAL_GUNS}
    assert kind("martian_cannon", "old_earth_smoothbore") == {row.weapon_id for row in MARTIAN_GUNS_AND_SMOOTHBORES}
    assert (len(NAVAL_GUNS), len(MARTIAN_GUNS_AND_SMOOTHBORES)) == (21, 10)


@pytest.mark.parametrize("row", ROWS)
def test_the_transcription_is_the_texts_row(row: GunRow):
    expected = cells(row)
    found = text_row(row.weapon_id)
    if row.weapon_id == "5in_howitzer":
        found[0] = '5" Hwtzr'  # the printed 5" mark is garbled beyond reading ("5 ^{,;} Hwtzr")
    assert found == expected


@pytest.mark.rule("SG-CG-05")
@pytest.mark.parametrize("row", ROWS)
def test_the_catalog_holds_every_figure_of_the_row(row: GunRow):
    weapon = catalog.weapon(row.weapon_id)
    assert weapon.authoritative_source == CONSOLIDATED
    assert weapon.weight_tons == row.weight
    if row.pen == "P":
        assert (weapon.raw["penetration"], weapon.penetration, weapon.personnel_only) == ("P", None, True)
    else:
        assert weapon.penetration is not None
        assert (weapon.penetration.close, weapon.penetration.long) == pair(row.pen)
    assert weapon.damage_value == row.dv
    assert weapon.rate_of_fire is not None
    rate = rof(row.rof)
    shots, reload = rate.shots, rate.reload_turns
    if reload:
        assert (weapon.rate_of_fire.shots, weapon.rate_of_fire.reload_turns) == (None, reload)
    else:
        assert (weapon.rate_of_fire.shots, weapon.rate_of_fire.reload_turns) == (shots, None)
    assert weapon.crew == row.crew
    assert weapon.range_hexes is not None
    assert (weapon.range_hexes.close, weapon.range_hexes.long) == pair(row.range_hexes)
    assert weapon.cost_pounds == row.cost
    field = weapon.field_gun
    assert field is not None
    assert (field.rate_of_fire, field.range_yards, field.burst) == (row.field_rof, row.field_range, row.burst)
    field_cost = None if row.field_cost is None else int(row.field_cost.rstrip("*"))
    assert (field.weight, field.cost) == (row.field_weight, field_cost)
    assert field.has_carriage == (row.field_weight is not None)
    # The asterisked cells are the corrections (SG-CG-05), and only those.
    starred = {cell for cell in cells(row)[8:] if cell.endswith("*")}
    assert set(field.corrected) == starred


def a_ship_with(weapon_name: str, *, martian: bool) -> dict[str, Any]:
    """A British steel steamer, or a Martian screw galley, carrying the one gun (too heavy for some of them: the
    bill is read all the same)."""
    ship: dict[str, Any] = {
        "yard": "british",
        "hull": "steel",
        "hull_size": 4,
        "ram": False,
        "armor": 0,
        "propulsion": {"type": "steam", "engine_size": 4, "forced_draught": False, "bunker_size": 8},
        "weapons": [{"weapon": weapon_name, "mount": "forward"}],
        "exotics": [],
        "marines": 0,
    }
    if martian:
        ship |= {"yard": "martian", "hull": "wood", "propulsion": {"type": "screw_galley", "turncranks": 12}}
    return ship


def martian_built(row: GunRow) -> bool:
    return not catalog.weapon(row.weapon_id).british_yard


@pytest.mark.parametrize("row", ROWS)
def test_the_design_rating_charges_the_rows_weight_and_cost(row: GunRow):
    name = catalog.weapon(row.weapon_id).name
    rating = rate_design(parse_design(a_ship_with(name, martian=martian_built(row))))
    [gun] = [c for c in rating.components if c.name.startswith(f"1 x {name} [")]
    assert (gun.tons, gun.pounds) == (row.weight, row.cost)


@pytest.mark.parametrize("row", GUN_ROWS)
def test_the_row_takes_effect_when_the_gun_fires(row: GunRow):
    firer = armed(row.weapon_id, martian=martian_built(row))
    assert firer.gun(GUN).crew == row.crew
    rate = rof(row.rof)
    assert fire_rate(catalog.weapon(row.weapon_id)) == rate == firer.gun(GUN).rate
    close, long = pair(row.range_hexes)
    pen_close, pen_long = pair(row.pen)
    for distance in range(long + 2):
        solution = shoot(firer, distance)
        single = shoot(firer, distance, rules=SINGLE_PEN)
        if distance > long:
            assert (solution.allowed, solution.clause) == (False, "SG-FIRE-07"), distance
            continue
        band = "close" if close is not None and distance <= close else "long"
        assert (solution.allowed, solution.band, solution.shots) == (True, band, rate.shots), distance
        assert solution.damage_value == single.damage_value == row.dv
        # Penetration by range (SG-CG-06): the close figure in close range, the long one beyond; with it switched
        # off the first printed figure applies everywhere (for a gun with no close range, its long one).
        assert solution.penetration == (pen_close if band == "close" else pen_long)
        assert single.penetration == (pen_close if pen_close is not None else pen_long)
    # A "(n)" gun is not ready for n turns after it fires; a plain ROF fires again the next turn.
    fired = fire_gun_marked(firer, GUN, Moment(1))
    assert [fired.gun(GUN).ready(turn) for turn in range(2, rate.reload_turns + 3)] == [False] * rate.reload_turns + [
        True
    ]


# --- SG-CG-84, the machineguns ------------------------------------------------------------------------------


class MachinegunRow(NamedTuple):
    """One row of the machinegun table (sky-galleons-of-mars.txt:3000-3011): Wt (None: blank), Pen, DV, ROF
    (normal/maximum for a jam-prone gun), Crew ("(1)": a man with no quarters of his own), Range, Cost."""

    printed: str
    weapon_id: str
    weight: int | None
    pen: str | None
    dv: str
    rof: str
    crew: str
    range_hexes: str
    cost: int


MACHINEGUNS = [
    MachinegunRow('0.5" Gatling', "gatling_05in", 3, None, "P", "3/5", "1", "1/2", 40),
    MachinegunRow('1" Gatling', "gatling_1in", 5, "0/0", "1", "3/4", "1", "1/2", 70),
    MachinegunRow("Mitrailleuse", "mitrailleuse", 5, None, "P", "3", "1", "1/2", 60),
    MachinegunRow("Nord. 5-B", "nordenfelt_5b", 5, None, "P", "5", "1", "1/2", 100),
    MachinegunRow("Nord. 3-B", "nordenfelt_3b", 3, None, "P", "3", "1", "1/2", 60),
    # The weights of the 1-barrel Nordenfelt, the Gardner and the Maxim are blank in the text: read as nothing.
    MachinegunRow("Nord. 1-B", "nordenfelt_1b", None, None, "P", "2", "(1)", "0/1", 40),
    MachinegunRow("Gardner", "gardner", None, None, "P", "2/3", "(1)", "1/2", 50),
    MachinegunRow("Maxim", "maxim", None, None, "P", "6", "(1)", "1/2", 150),
]
MACHINEGUN_ROWS = [pytest.param(row, id=row.weapon_id) for row in MACHINEGUNS]


@pytest.mark.rule("SG-CG-84")
def test_the_machinegun_table_has_every_machinegun_of_the_catalog():
    assert {w.id for w in catalog.weapons() if w.category == "machinegun"} == {r.weapon_id for r in MACHINEGUNS}


@pytest.mark.rule("SG-CG-84")
@pytest.mark.parametrize("row", MACHINEGUN_ROWS)
def test_the_machinegun_transcription_is_the_texts_row(row: MachinegunRow):
    source = catalog.weapon(row.weapon_id).raw["sources"][CONSOLIDATED]
    assert 3000 <= source["line"] <= 3011
    found = [read_cell(cell) for cell in source["row_text"].split("\t")]
    expected = [row.printed, NONE if row.weight is None else str(row.weight), row.pen or NONE, row.dv]
    expected += [row.rof, row.crew, row.range_hexes, str(row.cost)]
    assert found == expected


@pytest.mark.rule("SG-CG-84")
@pytest.mark.parametrize("row", MACHINEGUN_ROWS)
def test_the_catalog_and_the_design_bill_hold_every_machinegun_figure(row: MachinegunRow):
    weapon = catalog.weapon(row.weapon_id)
    assert weapon.authoritative_source == CONSOLIDATED
    assert weapon.weight_tons == (row.weight or 0)
    if row.pen is None:
        assert weapon.penetration is None
    else:
        assert weapon.penetration is not None
        assert (weapon.penetration.close, weapon.penetration.long) == pair(row.pen)
    assert str(weapon.damage_value) == row.dv
    assert weapon.personnel_only == (row.dv == "P")
    assert weapon.rate_of_fire is not None
    if "/" in row.rof:
        normal, maximum = (int(n) for n in row.rof.split("/"))
        assert (weapon.rate_of_fire.normal, weapon.rate_of_fire.maximum) == (normal, maximum)
    else:
        assert weapon.rate_of_fire.shots == int(row.rof)
    assert weapon.crew == int(row.crew.strip("()"))
    assert weapon.crew_quarters_provided == (not row.crew.startswith("("))
    assert weapon.range_hexes is not None
    assert (weapon.range_hexes.close, weapon.range_hexes.long) == pair(row.range_hexes)
    assert weapon.cost_pounds == row.cost
    rating = rate_design(parse_design(a_ship_with(weapon.name, martian=False)))
    [gun] = [c for c in rating.components if c.name.startswith(f"1 x {weapon.name} [")]
    assert (gun.tons, gun.pounds) == (row.weight or 0, row.cost)
