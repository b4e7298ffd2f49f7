"""The weapon characteristics tables (SG-FIRE-19..39): Martian cannon and Royal Navy guns.

Each table row is checked twice: the catalog figures (galleons/catalog.py) equal the
clause's figures, and the figures take effect on a ship record: the shots and reload of ``fire_rate`` and
``Gun.ready``, the range band, penetration and damage value of ``fire_solution``, the dice ``roll_to_hit``
throws. The weapon under test is put in gun 1 of a catalog ship (a forward pivot firing bow, port and
starboard) and fired at a target straight ahead.

Where the Cloudships & Gunboats consolidated list corrects a Sky Galleons row, the catalog follows the
consolidated list (SG-CG-01); the row below holds the project's figure and a comment names the clause.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FireSolution,
    FixedDice,
    fire_gun_marked,
    fire_solution,
    range_band,
    roll_to_hit,
)
from galleons import catalog
from galleons.record import FireRate, Moment, ShipRecord, fire_rate, ship_record_from_class

GUN = "1"  # gun 1 of the Swiftwood (a rogue) and of the Aphid (a 4" short): forward pivot, bow/port/starboard
ALTITUDE = "M"
# Penetration by range switched off: the close figure applies at every range (SG-CG-07), as in Sky Galleons.
SINGLE_PEN = CombatRules(two_range_penetration=False)
TURN_1 = Moment(1)


@dataclass(frozen=True, slots=True)
class Row:
    """One gun row as the project applies it."""

    weapon_id: str
    # The table's single Pen figure. The consolidated list splits it into close/long (SG-CG-06, SG-CG-81/80);
    # its close figure is the Sky Galleons one and `pen_long` is the consolidated long-range figure.
    pen: int
    pen_long: int
    dv: int
    shots: int  # shots a turn; 1 for a gun with a parenthesised ROF
    reload: int  # the "(n)" turns of reloading after each shot; 0 for a plain ROF
    close: int | None  # None: no close range at all ("/3")
    long: int
    martian: bool


MARTIAN_GUNS = [
    pytest.param(Row("light_gun", 0, 0, 1, 1, 0, 1, 2, True), marks=pytest.mark.rule("SG-FIRE-20"), id="light"),
    pytest.param(Row("rod_gun", 3, 2, 1, 1, 1, 3, 6, True), marks=pytest.mark.rule("SG-FIRE-21"), id="rod_gun"),
    pytest.param(Row("heavy_gun", 1, 0, 2, 1, 0, 2, 4, True), marks=pytest.mark.rule("SG-FIRE-22"), id="heavy"),
    pytest.param(Row("rogue", 2, 1, 3, 1, 1, 3, 6, True), marks=pytest.mark.rule("SG-FIRE-23"), id="rogue"),
    # "/3": no close range, long range 3 (SG-CG-86); its one Pen figure is a long-range figure.
    pytest.param(Row("lob_gun", 2, 2, 4, 1, 1, None, 3, True), marks=pytest.mark.rule("SG-FIRE-24"), id="lob_gun"),
]
ROYAL_NAVY_GUNS = [
    pytest.param(Row("1pdr_hrc", 0, 0, 1, 3, 0, 2, 4, False), marks=pytest.mark.rule("SG-FIRE-27"), id="1pdr_hrc"),
    pytest.param(Row("3pdr_hrc", 1, 0, 1, 3, 0, 2, 4, False), marks=pytest.mark.rule("SG-FIRE-28"), id="3pdr_hrc"),
    pytest.param(Row("6pdr_hrc", 1, 0, 1, 3, 0, 3, 6, False), marks=pytest.mark.rule("SG-FIRE-29"), id="6pdr_hrc"),
    pytest.param(Row("4in_short", 2, 1, 2, 1, 0, 3, 6, False), marks=pytest.mark.rule("SG-FIRE-30"), id="4in_short"),
    pytest.param(Row("4in_long", 3, 2, 2, 1, 0, 4, 8, False), marks=pytest.mark.rule("SG-FIRE-31"), id="4in_long"),
    # Sky Galleons prints 4/8; the consolidated list's asterisked correction gives the 5" 5/10 (SG-CG-05).
    pytest.param(Row("5in", 4, 2, 4, 1, 0, 5, 10, False), marks=pytest.mark.rule("SG-FIRE-32", "SG-CG-05"), id="5in"),
    pytest.param(Row("6in", 5, 3, 6, 1, 0, 5, 10, False), marks=pytest.mark.rule("SG-FIRE-33"), id="6in"),
    pytest.param(Row("8in", 9, 5, 8, 1, 1, 6, 12, False), marks=pytest.mark.rule("SG-FIRE-34"), id="8in"),
    pytest.param(Row("10in", 10, 5, 10, 1, 1, 7, 14, False), marks=pytest.mark.rule("SG-FIRE-35"), id="10in"),
    pytest.param(Row("12in", 12, 6, 12, 1, 1, 8, 16, False), marks=pytest.mark.rule("SG-FIRE-36"), id="12in"),
    pytest.param(Row("14in", 14, 7, 14, 1, 1, 9, 18, False), marks=pytest.mark.rule("SG-FIRE-37"), id="14in"),
    # Sky Galleons prints ROF (1); the consolidated list (authoritative, SG-CG-01/80) gives the 16" (2).
    pytest.param(
        Row("16in", 16, 8, 16, 1, 2, 10, 20, False), marks=pytest.mark.rule("SG-FIRE-38", "SG-CG-80"), id="16in"
    ),
]
GUN_ROWS = MARTIAN_GUNS + ROYAL_NAVY_GUNS


@dataclass(frozen=True, slots=True)
class PersonnelRow:
    """A "P" weapon: no damage value, fires as small arms; `pen_column` says which column holds the P."""

    weapon_id: str
    pen_column: bool
    shots: int  # its ROF (for the Gardner the normal rate, SG-CG-51)
    close: int
    long: int
    martian: bool


PERSONNEL_ROWS = [
    pytest.param(
        PersonnelRow("sweeper", True, 2, 0, 1, True),
        marks=pytest.mark.rule("SG-FIRE-19", "SG-FIRE-25", "SG-FIRE-39"),
        id="sweeper",
    ),
    pytest.param(
        PersonnelRow("nordenfelt_5b", False, 5, 1, 2, False),
        marks=pytest.mark.rule("SG-FIRE-26", "SG-FIRE-25", "SG-FIRE-39"),
        id="nordenfelt",
    ),
    pytest.param(
        PersonnelRow("maxim", False, 6, 1, 2, False), marks=pytest.mark.rule("SG-FIRE-25", "SG-FIRE-39"), id="maxim"
    ),
    pytest.param(
        PersonnelRow("gardner", False, 2, 1, 2, False), marks=pytest.mark.rule("SG-FIRE-25", "SG-FIRE-39"), id="gardner"
    ),
]


# --- helpers -------------------------------------------------------------------------------------------


def ahead(distance: int) -> Hex:
    """The hex `distance` hexes dead ahead of a ship at (0, 0) facing 0."""
    return Hex(0, -distance)


def armed(weapon_id: str, *, martian: bool) -> ShipRecord:
    """A catalog ship with the weapon in gun 1, fully manned, at altitude M."""
    record = ship_record_from_class(
        "Swiftwood" if martian else "Aphid (original)", name="Firer", position=ahead(0), altitude=ALTITUDE
    )
    men = max(catalog.weapon(weapon_id).crew, 1)
    return record.with_gun(replace(record.gun(GUN), weapon_id=weapon_id, crew=men, manned=men))


def target(distance: int) -> ShipRecord:
    return ship_record_from_class("Swiftwood", name="Target", position=ahead(distance), facing=3, altitude=ALTITUDE)


def shoot(firer: ShipRecord, distance: int, *, now: Moment = TURN_1, rules: CombatRules | None = None) -> FireSolution:
    # In the target's own hex the aspects are the declared ones (SG-MOV-05): bow for the firer.
    same_hex = ("bow", "stern") if distance == 0 else None
    return fire_solution(firer, GUN, target(distance), now=now, rules=rules, same_hex=same_hex)


def expected_band(row: Row | PersonnelRow, distance: int) -> str | None:
    if row.close is not None and distance <= row.close:
        return "close"
    return "long" if distance <= row.long else None


# --- the gun rows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", GUN_ROWS)
def test_catalog_figures_are_the_table_row(row: Row) -> None:
    weapon = catalog.weapon(row.weapon_id)
    assert weapon.penetration is not None
    if row.close is None:
        # No close range, so the single Pen figure is read as the long-range one (SG-CG-86).
        assert (weapon.penetration.close, weapon.penetration.long) == (None, row.pen)
    else:
        assert (weapon.penetration.close, weapon.penetration.long) == (row.pen, row.pen_long)
    assert weapon.damage_value == row.dv
    assert weapon.rate_of_fire is not None
    if row.reload:
        assert (weapon.rate_of_fire.shots, weapon.rate_of_fire.reload_turns) == (None, row.reload)
    else:
        assert (weapon.rate_of_fire.shots, weapon.rate_of_fire.reload_turns) == (row.shots, None)
    assert weapon.range_hexes is not None
    assert (weapon.range_hexes.close, weapon.range_hexes.long) == (row.close, row.long)
    assert not weapon.personnel_only
    # The row sits in the right table: Martian cannon, or European naval guns (the Royal Navy table).
    assert weapon.category == ("martian_cannon" if row.martian else "naval_gun")


@pytest.mark.parametrize("row", GUN_ROWS)
def test_range_bands_take_effect_in_the_fire_solution(row: Row) -> None:
    # Every distance from the own hex to one past long range: close hits on 3+, long on 5+, beyond refused.
    firer = armed(row.weapon_id, martian=row.martian)
    for distance in range(row.long + 2):
        solution = shoot(firer, distance)
        band = expected_band(row, distance)
        assert range_band(firer.gun(GUN), distance) == band
        if band is None:
            assert (solution.allowed, solution.clause) == (False, "SG-FIRE-07"), distance
        else:
            assert solution.allowed, solution.describe
            assert (solution.band, solution.needed, solution.effective_range) == (
                band,
                {"close": 3, "long": 5}[band],
                distance,
            )


@pytest.mark.parametrize("row", GUN_ROWS)
def test_rate_of_fire_and_reload_take_effect(row: Row) -> None:
    weapon = catalog.weapon(row.weapon_id)
    assert fire_rate(weapon) == FireRate(row.shots, row.reload)
    firer = armed(row.weapon_id, martian=row.martian)
    assert firer.gun(GUN).rate == FireRate(row.shots, row.reload)

    # Turn 1: the gun throws one to-hit die per shot, all at the one target.
    distance = row.long
    solution = shoot(firer, distance)
    assert solution.shots == row.shots
    dice = FixedDice(*[6] * row.shots)
    hits, _ = roll_to_hit({"Firer": firer, "Target": target(distance)}, solution, roller=dice)
    assert hits == ["Target"] * row.shots
    assert dice.left == ()

    # A "(n)" gun spends the next n turns reloading and fires again on turn n + 2; a plain ROF fires every turn.
    fired = fire_gun_marked(firer, GUN, Moment(1))
    for turn in range(2, row.reload + 2):
        assert not fired.gun(GUN).ready(turn)
        assert shoot(fired, distance, now=Moment(turn)).clause == "SG-FIRE-05"
    next_turn = row.reload + 2
    assert fired.gun(GUN).ready(next_turn)
    assert shoot(fired, distance, now=Moment(next_turn)).allowed


@pytest.mark.parametrize("row", GUN_ROWS)
def test_penetration_and_damage_value_take_effect(row: Row) -> None:
    firer = armed(row.weapon_id, martian=row.martian)
    bands = {"long": row.long} if row.close is None else {"close": row.close, "long": row.long}
    for band, distance in bands.items():
        by_range = shoot(firer, distance)
        single = shoot(firer, distance, rules=SINGLE_PEN)
        assert (by_range.band, single.band) == (band, band)
        assert by_range.damage_value == single.damage_value == row.dv
        # With one Pen figure for all ranges the table's figure applies everywhere (SG-CG-07).
        assert single.penetration == row.pen
        # Penetration by range (on by default, SG-CG-06) drops to the consolidated long figure at long range.
        assert by_range.penetration == (row.pen_long if band == "long" else row.pen)


@pytest.mark.parametrize(
    ("weapon_id", "source_figure", "field"),
    [
        pytest.param("5in", {"close": 4, "long": 8}, "range_hexes", marks=pytest.mark.rule("SG-FIRE-32", "SG-CG-05")),
        pytest.param("16in", {"reload_turns": 1}, "rate_of_fire", marks=pytest.mark.rule("SG-FIRE-38", "SG-CG-80")),
    ],
)
def test_the_sky_galleons_figure_is_kept_but_the_consolidated_one_applies(
    weapon_id: str, source_figure: dict[str, int], field: str
) -> None:
    weapon = catalog.weapon(weapon_id)
    chart = weapon.raw["sources"]["sgom_basic_combat_chart"]["values"][field]
    assert {key: chart[key] for key in source_figure} == source_figure
    assert weapon.authoritative_source == "cloudships_and_gunboats_consolidated_list"
    differences = [d for d in weapon.raw["sgom_vs_consolidated_differences"] if d["field"] == field]
    assert differences, f"{weapon_id}: the {field} difference is not recorded"
    firer = armed(weapon_id, martian=False)
    if weapon_id == "5in":
        # Close out to 5 and long out to 10, where the Sky Galleons row would give long at 5 and nothing at 9.
        assert shoot(firer, 5).band == "close"
        assert shoot(firer, 9).band == "long"
        assert shoot(firer, 10).band == "long"
        assert shoot(firer, 11).clause == "SG-FIRE-07"
    else:
        # Fired on turn 1: by the Sky Galleons row it would be ready on turn 3; by the consolidated list on 4.
        fired = fire_gun_marked(firer, GUN, Moment(1))
        assert [fired.gun(GUN).ready(turn) for turn in (2, 3, 4)] == [False, False, True]


@pytest.mark.rule("SG-FIRE-21", "SG-FIRE-05", "SG-FIRE-07")
def test_rod_gun_worked_through_three_turns() -> None:
    # A (1) gun fired on turn 1 is not ready on turn 2 but is on turn 3; its 3/6 range
    # is close at 3, long at 6 and out of range at 7.
    firer = armed("rod_gun", martian=True)
    assert (shoot(firer, 3).band, shoot(firer, 6).band, shoot(firer, 7).allowed) == ("close", "long", False)
    fired = fire_gun_marked(firer, GUN, Moment(1))
    assert shoot(fired, 3, now=Moment(1)).clause == "SG-SEQ-06"
    assert shoot(fired, 3, now=Moment(2)).clause == "SG-FIRE-05"
    again = shoot(fired, 3, now=Moment(3))
    assert (again.allowed, again.shots, again.penetration, again.damage_value) == (True, 1, 3, 1)


# --- the personnel-only ("P") weapons ------------------------------------------------------------------


@pytest.mark.parametrize("row", PERSONNEL_ROWS)
def test_p_weapons_have_no_damage_value_and_keep_their_rof_and_range(row: PersonnelRow) -> None:
    weapon = catalog.weapon(row.weapon_id)
    assert weapon.personnel_only
    # The P is in the Pen column for the Sweeper, in the DV column for the Royal Navy machine weapons (SG-FIRE-39).
    if row.pen_column:
        assert (weapon.raw["penetration"], weapon.damage_value) == ("P", None)
    else:
        assert (weapon.raw["penetration"], weapon.damage_value) == (None, "P")
    assert weapon.penetration is None
    assert weapon.range_hexes is not None
    assert (weapon.range_hexes.close, weapon.range_hexes.long) == (row.close, row.long)
    # Its ROF is the number of small-arms dice it throws: the record keeps it, though it never rolls as a gun.
    assert fire_rate(weapon) == FireRate(row.shots, 0)
    gun = armed(row.weapon_id, martian=row.martian).gun(GUN)
    assert gun.damage_value is None
    assert gun.rate == FireRate(row.shots, 0)
    for distance in range(row.long + 2):
        assert range_band(gun, distance) == expected_band(row, distance), distance


@pytest.mark.parametrize("row", PERSONNEL_ROWS)
def test_p_weapons_are_refused_gunfire(row: PersonnelRow) -> None:
    firer = armed(row.weapon_id, martian=row.martian)
    # In arc, in range, manned and loaded, and still no gunfire: small arms only (SG-FIRE-25).
    assert firer.gun(GUN).ready(1)
    for distance in range(row.long + 1):
        solution = shoot(firer, distance)
        assert (solution.allowed, solution.clause) == (False, "SG-FIRE-25"), distance
        assert "small arms" in solution.reason


@pytest.mark.rule("SG-FIRE-19", "SG-FIRE-08")
def test_sweeper_close_range_is_its_own_hex_only() -> None:
    sweeper = armed("sweeper", martian=True).gun(GUN)
    assert [range_band(sweeper, distance) for distance in (0, 1, 2)] == ["close", "long", None]


@pytest.mark.rule("SG-FIRE-39", "SG-FIRE-25", "SG-FIRE-19", "SG-FIRE-26")
def test_p_in_either_column_means_the_same_rating() -> None:
    sweeper = catalog.weapon("sweeper")
    nordenfelt = catalog.weapon("nordenfelt_5b")
    # Printed in different columns...
    assert sweeper.raw["penetration"] == "P"
    assert sweeper.damage_value is None
    assert nordenfelt.raw["penetration"] is None
    assert nordenfelt.damage_value == "P"
    # ...read as one rating: personnel only, no penetration, no damage value, no gunfire.
    assert sweeper.personnel_only
    assert nordenfelt.personnel_only
    assert sweeper.penetration is None
    assert nordenfelt.penetration is None
    solutions = [shoot(armed("sweeper", martian=True), 1), shoot(armed("nordenfelt_5b", martian=False), 1)]
    assert [(s.allowed, s.clause) for s in solutions] == [(False, "SG-FIRE-25")] * 2
    guns = [armed(weapon.id, martian=weapon is sweeper).gun(GUN) for weapon in (sweeper, nordenfelt)]
    assert [gun.damage_value for gun in guns] == [None, None]
