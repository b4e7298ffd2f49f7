"""The Agility rules (battles/rules/sky_galleons/agility.py and its hooks in combat.py), rule by rule.

Flat-top axial hexes: Hex(0, -n) is n hexes straight ahead (north) of a firer at the origin facing 0. Every
switch of the Agility fire model (``agility.AgilityFireModel``, handed to combat as ``CombatRules.model``) is off by
default, so each test shows the rule on and, where it matters, off.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons import agility
from battles.rules.sky_galleons.agility import AgilityFireModel
from battles.rules.sky_galleons.close_action import ram_hits
from battles.rules.sky_galleons.combat import (
    MARINES,
    CombatRules,
    FireModel,
    FireRefused,
    FireSolution,
    FixedDice,
    fire,
    fire_solution,
    roll_to_hit,
)
from battles.rules.sky_galleons.movement import AHEAD, CLIMB, STARBOARD, Step
from galleons import catalog
from galleons.record import Gun, Moment, ShipRecord, fire_rate, ship_record_from_class

NOW = Moment(2, 1)


def agile(**switches: bool) -> CombatRules:
    """The combat rules with the Agility fire model and these of its switches on."""
    rules = {name: switches.pop(name) for name in ("small_arms", "lob_guns") if name in switches}
    return CombatRules(model=AgilityFireModel(**switches), **rules)


AGILITY = agile(agility=True)
RAKING = agile(raking_fire=True)
EXTREME = agile(extreme_range=True)
LRP = agile(long_range_penetration=True)
COAL = agile(coal_bunker_hits=True)
HULL, CREW = 1, 3  # hit location faces
ROGUE = "1"  # the forward rogue of a Swiftwood or a Fenian Ram: Pen 2/1, DV 3, range 3/6
EIGHT_INCH = "1"  # the Thunderer's forward 8-inch gun: Pen 9/5, DV 8, ROF (1), range 6/12


def ship(
    name: str, cls: str = "Swiftwood", *, at: Hex = ORIGIN, facing: int = 0, altitude: str = "M", **changes: Any
) -> ShipRecord:
    record = ship_record_from_class(cls, name=name, position=at, facing=facing, altitude=altitude)
    return replace(record, **changes) if changes else record


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


def shoot(
    firer: ShipRecord, gun: str, target: ShipRecord, dice: FixedDice, rules: CombatRules, *others: ShipRecord
) -> tuple[dict[str, ShipRecord], list[dict[str, Any]]]:
    ships, happened = fire(
        fleet(firer, target, *others), firer.name, gun, target.name, now=NOW, roller=dice, rules=rules
    )
    assert dice.left == (), f"dice not used: {dice.left}"
    return ships, happened


def locations(happened: list[dict[str, Any]]) -> list[str]:
    return [h["outcome"] for h in happened if h["purpose"].startswith("hit location")]


# --- the agility rating ---------------------------------------------------------------------------------


@pytest.mark.rule("AG-AGI-02", "AG-AGI-03", "AG-AGI-04", "AG-AGI-05", "AG-AGI-06")
@pytest.mark.parametrize(
    ("speed", "size", "rating"),
    [(3, 3, 0), (4, 3, 1), (6, 3, 1), (7, 3, 2), (9, 3, 2), (10, 3, 3), (40, 3, 3), (2, 2, 0), (5, 2, 2)],
)
def test_speed_above_a_multiple_of_the_size_gives_positive_agility(speed: int, size: int, rating: int) -> None:
    assert agility.agility_rating(speed, size) == rating


@pytest.mark.rule("AG-AGI-07", "AG-AGI-08", "AG-AGI-09")
@pytest.mark.parametrize(
    ("speed", "size", "rating"), [(15, 3, 3), (16, 3, 4), (24, 3, 4), (25, 3, 5), (36, 3, 5), (37, 3, 6), (999, 1, 6)]
)
def test_the_gms_extension_goes_to_six_and_no_further(speed: int, size: int, rating: int) -> None:
    assert agility.agility_rating(speed, size, extended=True) == rating
    assert agility.agility_rating(speed, size) == 3


@pytest.mark.rule("AG-AGI-10", "AG-AGI-11", "AG-AGI-12", "AG-AGI-13")
@pytest.mark.parametrize(
    ("speed", "size", "rating"),
    [(1, 6, 0), (1, 7, -1), (2, 13, -1), (1, 12, -1), (1, 13, -2), (1, 25, -3), (1, 99, -3)],
)
def test_size_above_a_multiple_of_the_speed_gives_negative_agility(speed: int, size: int, rating: int) -> None:
    assert agility.agility_rating(speed, size) == rating


@pytest.mark.rule("AG-AGI-14")
@pytest.mark.parametrize(("size", "rating"), [(1, -1), (6, -1), (7, -2), (13, -3), (25, -4)])
def test_a_stopped_ship_counts_speed_1_then_loses_1(size: int, rating: int) -> None:
    assert agility.agility_rating(0, size) == rating


@pytest.mark.rule("AG-AGI-01", "AG-AGI-15")
def test_agility_follows_the_hexes_moved_against_the_hull_size() -> None:
    aphid = ship("Aphid", "Aphid (original)")  # hull size 2, speed 6
    assert agility.ship_agility(aphid) == 2  # not yet moved: its allowance, 6 > 2 x 2
    assert agility.ship_agility(agility.after_move(aphid, 3)) == 1
    assert agility.ship_agility(agility.after_move(aphid, 2)) == 0
    assert agility.ship_agility(agility.after_move(aphid, 0)) == -1
    assert agility.ship_agility(replace(aphid, status="landed")) == -1
    # A kite before it moves counts on the expected die: the Swiftwood runs 5 on a 4, above its hull size 3.
    assert agility.ship_agility(ship("Swiftwood")) == 1
    steps = [
        Step(0, AHEAD, Hex(0, -1), 0, "M", 1),
        Step(1, STARBOARD, Hex(0, -1), 1, "M", 0),
        Step(2, AHEAD, Hex(1, -2), 1, "M", 1),
        Step(3, CLIMB, Hex(1, -2), 1, "H", 2),
    ]
    assert agility.hexes_moved(steps) == 2


# --- agility against traverse ---------------------------------------------------------------------------


@pytest.mark.rule("AG-TRV-04", "AG-TRV-05", "AG-TRV-06", "AG-TRV-07", "AG-TRV-08", "AG-TRV-09")
@pytest.mark.parametrize(
    ("rating", "weapon_traverse", "modifier"),
    [
        (2, 0, -1),
        (2, -3, -1),  # never more than 1
        (2, 2, 0),  # equal: the defence is only negated
        (1, 3, 0),  # higher: no bonus either
        (-1, 0, 1),
        (-3, 3, 1),  # never more than 1
        (-1, -1, 0),
        (-1, -3, 0),  # a lower traverse gives the target nothing
        (0, -3, 0),
        (0, 3, 0),
    ],
)
def test_agility_against_traverse(rating: int, weapon_traverse: int, modifier: int) -> None:
    assert agility.agility_modifier(rating, weapon_traverse) == modifier


@pytest.mark.rule("AG-TRV-02", "AG-TRV-03")
def test_stand_in_traverse_ratings_follow_their_derivation_and_rise_at_long_range() -> None:
    listed = agility.atable("traverse", "weapons")
    for weapon in catalog.weapons():
        if fire_rate(weapon) is not None and weapon.range_hexes is not None:
            assert listed[weapon.id] == agility.derived_traverse(weapon.id), weapon.id
    assert agility.traverse("maxim") == 3 > agility.traverse("6pdr") == 1 > agility.traverse("6in") == -1
    assert agility.traverse("16in") == -3
    assert agility.traverse("6in", "long") == agility.traverse("6in", agility.EXTREME) == 0
    assert agility.traverse("6in", "close") == -1


@pytest.mark.rule("AG-TRV-01", "AG-TRV-04", "AG-AGI-10")
def test_the_aphid_is_harder_to_hit_for_the_fenian_rams_rogue() -> None:
    ram = ship("Fenian Ram", "Fenian Ram")
    aphid = ship("Aphid", "Aphid (original)", at=Hex(0, -2), facing=3)  # agility +2, rogue traverse 0
    solution = fire_solution(ram, ROGUE, aphid, now=NOW, rules=AGILITY)
    assert solution.modifiers == {"agility +2 vs traverse +0": -1}
    assert "AG-TRV-04" in solution.clauses
    assert roll_to_hit(fleet(ram, aphid), solution, roller=FixedDice(3))[0] == []
    basic = fire_solution(ram, ROGUE, aphid, now=NOW)
    assert basic.modifiers == {}
    assert roll_to_hit(fleet(ram, aphid), basic, roller=FixedDice(3))[0] == ["Aphid"]


@pytest.mark.rule("AG-TRV-03", "AG-TRV-07")
def test_at_long_range_a_light_gun_tracks_the_aphid() -> None:
    clearsight = ship("Clearsight", "Clearsight")  # light guns: traverse 1, range 1/2
    close = ship("Aphid", "Aphid (original)", at=Hex(0, -1))
    far = replace(close, position=Hex(0, -2))
    assert fire_solution(clearsight, "1", close, now=NOW, rules=AGILITY).modifiers == {"agility +2 vs traverse +1": -1}
    assert fire_solution(clearsight, "1", far, now=NOW, rules=AGILITY).modifiers == {}


@pytest.mark.rule("AG-TRV-05")
def test_a_big_slow_ship_is_easier_to_hit() -> None:
    ram = ship("Fenian Ram", "Fenian Ram")
    winds = ship("Warm Winds", "Warm Winds", at=Hex(0, -2), agility_speed=3)  # hull size 20 > 6 x 3
    solution = fire_solution(ram, ROGUE, winds, now=NOW, rules=AGILITY)
    assert solution.modifiers == {"agility -1 vs traverse +0": 1}
    assert roll_to_hit(fleet(ram, winds), solution, roller=FixedDice(2))[0] == ["Warm Winds"]
    assert roll_to_hit(fleet(ram, winds), fire_solution(ram, ROGUE, winds, now=NOW), roller=FixedDice(2))[0] == []


@pytest.mark.rule("AG-AGI-07", "AG-TRV-04")
def test_the_gms_ratings_only_with_the_extension() -> None:
    czarina = ship("Czarina", "Czarina")  # 1" Gatling in the port wing: traverse 3
    fast = ship("Fleetfoot", "Fleetfoot", at=Hex(-1, 0), agility_speed=6)  # hull size 1: 6 > 5 x 1
    assert fire_solution(czarina, "3", fast, now=NOW, rules=AGILITY).modifiers == {}
    extended = agile(agility=True, gm_ratings=True)
    assert fire_solution(czarina, "3", fast, now=NOW, rules=extended).modifiers == {"agility +4 vs traverse +3": -1}


def test_the_marines_small_arms_have_no_traverse() -> None:
    ram = ship("Fenian Ram", "Fenian Ram")
    aphid = ship("Aphid", "Aphid (original)", at=Hex(0, -1))
    rules = agile(agility=True, small_arms=True)
    marines = fire_solution(ram, MARINES, aphid, now=NOW, rules=rules)
    assert marines.allowed
    assert not any(name.startswith("agility") for name in marines.modifiers)


# --- raking fire ----------------------------------------------------------------------------------------


@pytest.mark.rule("AG-RAKE-01", "AG-RAKE-02")
@pytest.mark.parametrize(
    ("firer_at", "target_facing", "raking"),
    [
        (ORIGIN, 0, True),  # dead astern of the target
        (ORIGIN, 3, True),  # dead ahead of it
        (ORIGIN, 1, False),  # on its starboard beam
        (Hex(1, -1), 0, False),  # on the line between its stern and starboard aspects
    ],
)
def test_raking_fire_comes_from_the_bow_or_stern_at_minus_1(firer_at: Hex, target_facing: int, raking: bool) -> None:
    firer = ship("Firer", at=firer_at)
    target = ship("T", "Skylord", at=Hex(0, -2), facing=target_facing)
    solution = fire_solution(firer, ROGUE, target, now=NOW, rules=RAKING)
    assert solution.allowed
    assert solution.modifiers == ({"raking fire": -1} if raking else {})
    assert fire_solution(firer, ROGUE, target, now=NOW).modifiers == {}


@pytest.mark.rule("AG-RAKE-03", "AG-RAKE-04")
def test_a_raking_shot_through_the_armor_hits_twice() -> None:
    firer, target = ship("Firer"), ship("T", "Skylord", at=Hex(0, -2))  # armor 2, rogue Pen 2 at close range
    ships, happened = shoot(firer, ROGUE, target, FixedDice(4, HULL, HULL), RAKING)
    assert ships["T"].hull_hits == 6
    assert locations(happened) == ["hull", "hull"]
    assert any("AG-RAKE-04" in h["clauses"] for h in happened)
    # The same shot unraked: one hit, one location.
    ships, happened = shoot(firer, ROGUE, target, FixedDice(4, HULL), CombatRules())
    assert ships["T"].hull_hits == 3


@pytest.mark.rule("AG-RAKE-03", "AG-RAKE-04")
def test_an_unarmored_location_lets_the_raking_shot_through_even_past_thick_armor() -> None:
    firer, target = ship("Firer"), ship("T", "Skylord", at=Hex(0, -2), armor=3)
    # Crew hit (no armor): 2 casualties and the officer check, then the second hit's Hull, halved: 1 + the half (6).
    ships, happened = shoot(firer, ROGUE, target, FixedDice(4, CREW, 1, HULL, 6), RAKING)
    assert locations(happened) == ["crew", "hull"]
    assert target.crew_aboard - ships["T"].crew_aboard == 2
    assert ships["T"].hull_hits == 2


@pytest.mark.rule("AG-RAKE-05")
def test_a_raking_shot_the_armor_stops_hits_once() -> None:
    firer, target = ship("Firer"), ship("T", "Skylord", at=Hex(0, -2), armor=3)  # 3 > Pen 2: halved
    ships, happened = shoot(firer, ROGUE, target, FixedDice(4, HULL, 4), RAKING)
    assert ships["T"].hull_hits == 2
    assert locations(happened) == ["hull"]
    assert any("AG-RAKE-05" in h["clauses"] for h in happened)


def test_a_lob_gun_never_rakes() -> None:
    endtime = ship("Endtime", "Endtime")  # gun 3: the lob gun
    target = ship("T", "Skylord", at=Hex(0, -2))
    rules = agile(raking_fire=True, lob_guns=True)
    assert fire_solution(endtime, "3", target, now=NOW, rules=rules).modifiers == {}
    assert fire_solution(endtime, "1", target, now=NOW, rules=rules).modifiers == {"raking fire": -1}


# --- extreme range --------------------------------------------------------------------------------------


def thunderer() -> ShipRecord:
    return ship("Thunderer", "Thunderer")


@pytest.mark.rule("AG-EXT-01", "AG-EXT-03", "AG-EXT-04")
def test_a_big_gun_may_fire_beyond_long_range_up_to_its_extreme_range() -> None:
    gun = thunderer()
    target = ship("T", "Skylord", at=Hex(0, -13))
    assert fire_solution(gun, EIGHT_INCH, target, now=NOW).clause == "SG-FIRE-07"
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    assert solution.allowed
    assert solution.band == agility.EXTREME
    assert solution.needed == fire_solution(gun, EIGHT_INCH, replace(target, position=Hex(0, -12)), now=NOW).needed
    assert solution.penetration == 5  # the long range figure
    assert agility.extreme_range_of("8in") == 24
    assert fire_solution(gun, EIGHT_INCH, replace(target, position=Hex(0, -25)), now=NOW, rules=EXTREME).clause == (
        "SG-FIRE-07"
    )
    assert agility.extreme_range_of("6in") is None
    assert fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME, ammunition="shrapnel").clause == "AG-EXT-03"


@pytest.mark.rule("AG-EXT-04", "AG-EXT-05")
def test_the_shell_must_land_in_the_hex_then_hit_the_target() -> None:
    gun, target = thunderer(), ship("T", "Skylord", at=Hex(0, -13))
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    ships = fleet(gun, target)
    assert roll_to_hit(ships, solution, roller=FixedDice(5, 5), rules=EXTREME)[0] == ["T"]
    dice = FixedDice(5, 4)
    assert roll_to_hit(ships, solution, roller=dice, rules=EXTREME)[0] == []
    assert dice.left == ()
    # A hit goes on to the normal hit procedure: Hull, Pen 5 against armor 2, all 8 points.
    after, _ = shoot(gun, EIGHT_INCH, target, FixedDice(5, 5, HULL), EXTREME)
    assert after["T"].hull_hits == 8


@pytest.mark.rule("AG-EXT-06")
def test_a_shell_in_the_hex_that_misses_the_target_is_rolled_at_its_hex_mates_in_random_order() -> None:
    gun, target = thunderer(), ship("T", "Skylord", at=Hex(0, -13))
    a, b = ship("A", at=Hex(0, -13)), ship("B", at=Hex(0, -13))
    higher = ship("Up", at=Hex(0, -13), altitude="H")  # not at the target's altitude: never hit
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    # Lands (5), misses T (4); the pick (2 of A, B) takes B, missed (1); A alone is left, hit (6).
    dice = FixedDice(5, 4, 2, 1, 6)
    assert roll_to_hit(fleet(gun, target, a, b, higher), solution, roller=dice, rules=EXTREME)[0] == ["A"]
    assert dice.left == ()


@pytest.mark.rule("AG-EXT-07", "AG-EXT-11", "AG-EXT-15", "AG-EXT-16")
def test_a_shell_off_the_hex_scatters_by_the_distance_table_and_may_hit_a_ship_there() -> None:
    gun, target = thunderer(), ship("T", "Skylord", at=Hex(0, -13))
    ring = hexgrid.ring(Hex(0, -13), 1)
    near = ship("Near", at=ring[2])
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    # Misses the hex (4); distance 4: 1 hex; side 3 of the ring: its third hex, where Near is; hit (5).
    dice = FixedDice(4, 4, 3, 5)
    hits, _ = roll_to_hit(fleet(gun, target, near), solution, roller=dice, rules=EXTREME)
    assert hits == ["Near"]
    assert dice.left == ()
    # The same shell falling on side 4 finds nobody there.
    dice = FixedDice(4, 4, 4)
    assert roll_to_hit(fleet(gun, target, near), solution, roller=dice, rules=EXTREME)[0] == []
    assert dice.left == ()


@pytest.mark.rule("AG-EXT-09", "AG-EXT-15")
def test_a_ring_of_two_picks_the_side_then_the_hex_along_it() -> None:
    gun, target = thunderer(), ship("T", "Skylord", at=Hex(0, -13))
    ring = hexgrid.ring(Hex(0, -13), 2)
    assert len(ring) == 12
    far = ship("Far", at=ring[3])  # side 2, second hex
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    dice = FixedDice(4, 2, 2, 2, 5)
    assert roll_to_hit(fleet(gun, target, far), solution, roller=dice, rules=EXTREME)[0] == ["Far"]
    assert dice.left == ()


@pytest.mark.rule(
    "AG-EXT-07", "AG-EXT-08", "AG-EXT-09", "AG-EXT-10", "AG-EXT-11", "AG-EXT-12", "AG-EXT-13", "AG-EXT-14"
)
@pytest.mark.parametrize(
    ("face", "quality", "hexes"),
    [
        (1, "trained", 3),
        (2, "trained", 2),
        (3, "trained", 2),
        (4, "trained", 1),
        (5, "trained", 1),
        (6, "trained", 1),
        (1, "green", 3),  # 0: off the table, read as 1
        (4, "green", 2),
        (1, "crack", 2),
        (6, "crack", 1),  # 7: off the table, read as 6
    ],
)
def test_the_distance_table_with_only_the_crew_modifiers(face: int, quality: str, hexes: int) -> None:
    assert agility.scatter_distance(face, quality) == hexes


@pytest.mark.rule("AG-EXT-07")
def test_a_crack_gun_crew_scatters_closer() -> None:
    gun, target = replace(thunderer(), crew_quality="crack"), ship("T", "Skylord", at=Hex(0, -13))
    near = ship("Near", at=hexgrid.ring(Hex(0, -13), 1)[0])
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    # Crack +1 to hit: a 3 misses the hex (3 + 1 < 5); a 3 on the table is 4 with the crew: 1 hex; side 1; hit.
    dice = FixedDice(3, 3, 1, 4)
    hits, happened = roll_to_hit(fleet(gun, target, near), solution, roller=dice, rules=EXTREME)
    assert hits == ["Near"]
    assert [h["modifiers"] for h in happened if "how far" in h["purpose"]] == [{"crack crew": 1}]


@pytest.mark.rule("AG-EXT-17")
def test_with_nobody_else_near_a_miss_is_a_miss() -> None:
    gun, target = thunderer(), ship("T", "Skylord", at=Hex(0, -13))
    distant = ship("Distant", at=Hex(0, -17))  # 4 hexes from the target: beyond any scatter
    dice = FixedDice(4)
    solution = fire_solution(gun, EIGHT_INCH, target, now=NOW, rules=EXTREME)
    hits, happened = roll_to_hit(fleet(gun, target, distant), solution, roller=dice, rules=EXTREME)
    assert hits == []
    assert dice.left == ()
    assert "AG-EXT-17" in happened[-1]["clauses"]


# --- long range penetration -----------------------------------------------------------------------------


@pytest.mark.rule("AG-LRP-01")
def test_one_penetration_rating_at_every_range() -> None:
    endtime = ship("Endtime", "Endtime")  # rod gun: Pen 3/2, range 3/6
    far = ship("T", "Skylord", at=Hex(0, -5))
    assert fire_solution(endtime, "1", far, now=NOW).penetration == 2
    assert fire_solution(endtime, "1", far, now=NOW, rules=LRP).penetration == 3
    assert fire_solution(endtime, "1", replace(far, position=Hex(0, -2)), now=NOW, rules=LRP).penetration == 3
    lob = fire_solution(endtime, "3", replace(far, position=Hex(0, -3)), now=NOW, rules=replace(LRP, lob_guns=True))
    assert lob.penetration == 2  # no close figure: the long one


@pytest.mark.rule("AG-LRP-02")
def test_armor_counts_double_at_long_range() -> None:
    endtime = ship("Endtime", "Endtime")  # rod gun: DV 1, Pen 3 under the rule
    far = ship("T", "Skylord", at=Hex(0, -5))  # armor 2, doubled to 4 > 3: halved, the half on 4-6
    ships, _ = shoot(endtime, "1", far, FixedDice(5, HULL, 3), LRP)
    assert ships["T"].hull_hits == 0
    ships, _ = shoot(endtime, "1", far, FixedDice(5, HULL), CombatRules())  # Pen 2 at long range pierces 2
    assert ships["T"].hull_hits == 1
    near = replace(far, position=Hex(0, -2))  # close range: armor 2 against Pen 3
    ships, _ = shoot(endtime, "1", near, FixedDice(3, HULL), LRP)
    assert ships["T"].hull_hits == 1


@pytest.mark.rule("AG-LRP-04")
def test_armor_is_not_doubled_against_a_lower_ship() -> None:
    endtime = ship("Endtime", "Endtime")
    lower = ship("T", "Skylord", at=Hex(0, -5), altitude="L")
    # Different altitude: -1 to hit, so a 6 hits; armor 2 against Pen 3, full.
    ships, _ = shoot(endtime, "1", lower, FixedDice(6, HULL), LRP)
    assert ships["T"].hull_hits == 1
    shooter = ship("S", altitude="M")
    assert agility.armor_doubled("long", shooter, ship("X", altitude="M"))
    assert agility.armor_doubled(agility.EXTREME, shooter, ship("X", altitude="H"))
    assert not agility.armor_doubled("long", shooter, ship("X", altitude="L"))
    assert not agility.armor_doubled("close", shooter, ship("X", altitude="M"))


# --- endurance and coal bunker hits ---------------------------------------------------------------------


def aphid(**changes: Any) -> ShipRecord:
    return agility.with_endurance(ship("Aphid", "Aphid (original)", **changes), 20)  # hull size 2, steam


@pytest.mark.rule("AG-END-01", "AG-END-02")
def test_a_steam_ship_keeps_an_endurance_track_crossed_off_day_by_day() -> None:
    plain = ship("Aphid", "Aphid (original)")
    assert agility.endurance_days_of(plain) == 20
    assert agility.endurance_left(plain) is None
    record = agility.with_endurance(plain, 20)
    assert agility.endurance_left(record) == 20
    assert agility.endurance_left(agility.travel(agility.travel(record), 3)) == 16
    with pytest.raises(ValueError, match="AG-END-02"):
        agility.travel(record, 21)
    with pytest.raises(ValueError, match="AG-END-01"):
        agility.with_endurance(ship("Swiftwood"), 5)
    assert agility.endurance_days_of(ship("Swiftwood")) is None


@pytest.mark.rule("AG-END-01")
def test_the_endurance_figures_round_trip_and_are_written_only_when_set() -> None:
    plain = ship("Aphid", "Aphid (original)")
    assert not set(ShipRecord.AGILITY_KEYS) & set(plain.to_json())
    record = replace(agility.travel(aphid(), 4), coal_lost=2, agility_speed=5)
    data = json.loads(json.dumps(record.to_json()))
    assert {key: data[key] for key in ShipRecord.AGILITY_KEYS} == {
        "agility_speed": 5,
        "endurance": 20,
        "endurance_used": 4,
        "coal_lost": 2,
    }
    again = ShipRecord.from_json(data)
    assert again == record
    assert again.to_json() == data
    no_track = {key: value for key, value in data.items() if key != "endurance"}
    for broken in (dict(data, coal_lost=17), dict(data, endurance_used=-1), no_track):
        with pytest.raises(ValueError, match=r"endurance|below zero"):
            ShipRecord.from_json(broken)


@pytest.mark.rule("AG-END-04", "AG-END-05")
@pytest.mark.parametrize(("face", "left"), [(6, 19), (5, 20), (4, 20)])
def test_a_heavy_enough_hull_hit_holes_the_bunker_on_a_6(face: int, left: int) -> None:
    dice = FixedDice(face)
    after, _ = agility.coal_bunker_check(aphid(), 3, roller=dice)
    assert agility.endurance_left(after) == left
    assert dice.left == ()


@pytest.mark.rule("AG-END-06")
@pytest.mark.parametrize(
    ("where", "face", "left"), [("long_range", 4, 19), ("long_range", 3, 20), ("from_below", 4, 19)]
)
def test_at_long_range_or_from_below_the_bunker_is_holed_on_4_up(where: str, face: int, left: int) -> None:
    after, _ = agility.coal_bunker_check(aphid(), 3, roller=FixedDice(face), **{where: True})
    assert agility.endurance_left(after) == left


@pytest.mark.rule("AG-END-03", "AG-END-04")
def test_no_bunker_check_for_a_light_weapon_a_non_steam_ship_or_a_ship_without_a_track() -> None:
    for record, value in ((aphid(), 1), (ship("Swiftwood"), 9), (ship("Aphid", "Aphid (original)"), 9)):
        dice = FixedDice()
        after, happened = agility.coal_bunker_check(record, value, roller=dice)
        assert after == record
        assert happened == []
    assert agility.coal_bunker_check(aphid(), 2, roller=FixedDice(6))[0].coal_lost == 1  # equal to hull size


@pytest.mark.rule("AG-END-07", "AG-END-08", "AG-END-09")
@pytest.mark.parametrize(("used", "dice", "lost"), [(10, (6, 3), 0), (10, (6, 4), 1), (9, (6,), 1), (15, (6, 1), 0)])
def test_with_half_or_less_left_a_second_roll_may_find_the_bunker_empty(
    used: int, dice: tuple[int, ...], lost: int
) -> None:
    record = agility.travel(aphid(), used)
    roller = FixedDice(*dice)
    after, _ = agility.coal_bunker_check(record, 3, roller=roller)
    assert (after.coal_lost or 0) == lost
    assert roller.left == ()


@pytest.mark.rule("AG-END-10")
def test_the_gms_variant_sets_the_second_chance_by_the_coal_left() -> None:
    record = agility.travel(aphid(), 15)  # 5 of 20 left: 1.5 in 6, rounded to 2: a 5 or 6 finds coal
    assert agility.coal_bunker_check(record, 3, roller=FixedDice(6, 4), proportional=True)[0].coal_lost is None
    assert agility.coal_bunker_check(record, 3, roller=FixedDice(6, 5), proportional=True)[0].coal_lost == 1
    half = agility.travel(aphid(), 10)  # exactly half: the standard 4-6
    assert agility.coal_bunker_check(half, 3, roller=FixedDice(6, 4), proportional=True)[0].coal_lost == 1
    assert agility.coal_bunker_check(half, 3, roller=FixedDice(6, 3), proportional=True)[0].coal_lost is None


@pytest.mark.rule("AG-END-03", "AG-END-04", "AG-END-05")
def test_in_battle_hull_hits_check_the_bunker_and_other_hits_do_not() -> None:
    gun = thunderer()  # 8-inch: DV 8, Pen 9 at close range
    hamburg = agility.with_endurance(ship("Hamburg", "Hamburg", at=Hex(0, -3)), 20)  # hull size 6, armor 3
    ships, _ = shoot(gun, EIGHT_INCH, hamburg, FixedDice(3, HULL, 6), COAL)
    assert ships["Hamburg"].hull_hits == 8
    assert agility.endurance_left(ships["Hamburg"]) == 19
    ships, _ = shoot(gun, EIGHT_INCH, hamburg, FixedDice(3, CREW, 1), COAL)  # a Crew hit: no check
    assert agility.endurance_left(ships["Hamburg"]) == 20
    ships, _ = shoot(gun, EIGHT_INCH, hamburg, FixedDice(3, HULL), CombatRules())  # off: no check
    assert agility.endurance_left(ships["Hamburg"]) == 20


@pytest.mark.rule("AG-END-04")
def test_a_hull_hit_the_armor_stops_scores_no_bunker_check() -> None:
    ram = ship("Fenian Ram", "Fenian Ram")  # gun 2: a heavy gun, DV 2, Pen 0 at long range
    target = aphid(at=Hex(0, -3))  # armor 2 > 1: the hit does nothing
    ships, _ = shoot(ram, "2", target, FixedDice(5, HULL), COAL)
    assert ships["Aphid"].hull_hits == 0
    assert agility.endurance_left(ships["Aphid"]) == 20


# --- ramming speed --------------------------------------------------------------------------------------


@pytest.mark.rule("AG-RSP-01", "AG-RSP-04")
@pytest.mark.parametrize(
    ("speed", "hull", "hits"),
    [
        (4, 3, (2, False)),  # 12 / 6 = 2
        (5, 3, (2, True)),  # 2.5
        (7, 3, (3, True)),  # 3.5
        (1, 2, (0, True)),  # 1/3: nearest half is 1/2
        (1, 1, (0, False)),  # 1/6: nearest half is 0
        (0, 5, (0, False)),
        (8, 5, (6, True)),  # 6 2/3: nearest half is 6 1/2
    ],
)
def test_ram_damage_grows_with_speed_to_the_nearest_half(speed: int, hull: int, hits: tuple[int, bool]) -> None:
    assert agility.ramming_speed_hits(ship("R", "Fenian Ram", hull_size=hull), speed) == hits


@pytest.mark.rule("AG-RSP-04")
def test_faster_rammers_do_more_slower_ones_less() -> None:
    ram = ship("R", "Fenian Ram")  # hull size 5
    damage = [agility.ramming_speed_hits(ram, speed) for speed in range(7)]
    assert damage == sorted(damage)
    assert damage[6] > ram_hits(ram) > damage[2]


# --- heated shot ----------------------------------------------------------------------------------------


def fortress(weapon: str = "sb_15in", **changes: Any) -> ShipRecord:
    base = ship("Fort", "Skylord", emplacement="fortress", **changes)
    return base.with_gun(replace(base.gun("1"), weapon_id=weapon))


READY = agility.forewarned_furnace("full_blast")


@pytest.mark.rule("AG-HEAT-01")
def test_only_a_fortress_fires_heated_shot_and_only_roundshot() -> None:
    agility.check_heated_shot(fortress(), "1", "shell", READY, turn=1)
    agility.check_heated_shot(fortress("heavy_gun"), "1", "shell", READY, turn=1)
    refusals = [
        (replace(fortress(), emplacement=None), "shell"),
        (replace(fortress(), emplacement="battery"), "shell"),
        (fortress("rod_gun"), "shell"),
        (fortress("6in"), "shell"),
        (fortress("sweeper"), "shell"),
        (fortress(), "grape"),
    ]
    for firer, ammunition in refusals:
        with pytest.raises(FireRefused) as refused:
            agility.check_heated_shot(firer, "1", ammunition, READY, turn=1)
        assert refused.value.clause == "AG-HEAT-01"
    with pytest.raises(FireRefused, match="AG-HEAT-10"):
        agility.check_heated_shot(fortress(), "1", "shell", agility.COLD, turn=1)


@pytest.mark.rule("AG-HEAT-02", "AG-HEAT-03")
@pytest.mark.parametrize(("face", "fire"), [(6, 0), (4, 1), (5, 0), (1, 1)])
def test_heated_shot_may_set_a_wooden_ship_alight(face: int, fire: int) -> None:
    wooden = ship("T")  # Swiftwood: wood
    after, _ = agility.heated_shot_hit(wooden, wooden, 4, roller=FixedDice(face))
    assert after.fire == fire


@pytest.mark.rule("AG-HEAT-04", "AG-HEAT-05")
def test_a_fire_hit_on_a_wooden_ship_burns_one_level_hotter_without_a_roll() -> None:
    wooden = ship("T")
    burning = replace(wooden, fire=2)
    dice = FixedDice()
    after, happened = agility.heated_shot_hit(wooden, burning, 1, roller=dice)
    assert after.fire == 3
    assert happened[0]["clauses"] == ["AG-HEAT-04", "AG-HEAT-05"]


@pytest.mark.rule("AG-HEAT-06", "AG-HEAT-07")
def test_a_metal_hull_catches_only_after_a_fire_hit_and_a_roll() -> None:
    steel = ship("Aphid", "Aphid (original)")
    dice = FixedDice()
    assert agility.heated_shot_hit(steel, steel, 6, roller=dice)[0].fire == 0
    burning = replace(steel, fire=1)
    assert agility.heated_shot_hit(steel, burning, 4, roller=FixedDice(4))[0].fire == 2
    assert agility.heated_shot_hit(steel, burning, 4, roller=FixedDice(5))[0].fire == 1
    steel_kite = replace(ship("T"), hull_material="steel")  # a kite catches like a wooden ship
    assert agility.heated_shot_hit(steel_kite, steel_kite, 4, roller=FixedDice(2))[0].fire == 1


def stoke_all(furnace: agility.Furnace, quality: str, faces: list[int]) -> agility.Furnace:
    for turn, face in enumerate(faces, start=1):
        furnace, _ = agility.stoke(furnace, quality, turn=turn, roller=FixedDice(face))
    return furnace


@pytest.mark.rule("AG-HEAT-08", "AG-HEAT-09", "AG-HEAT-10")
def test_the_furnace_is_lit_on_a_6_and_at_full_blast_on_the_next() -> None:
    dice = FixedDice()
    assert agility.stoke(agility.COLD, "trained", turn=1, roller=dice) == (agility.COLD, [])  # not ordered
    ordered = agility.order_lit(agility.COLD)
    lit = stoke_all(ordered, "trained", [3, 6])
    assert (lit.sixes, lit.full_blast_turn) == (1, None)
    blast, happened = agility.stoke(lit, "trained", turn=3, roller=FixedDice(6))
    assert blast.full_blast_turn == 3
    assert happened[-1]["outcome"] == "full blast"
    assert not agility.heated_shot_ready(blast, "trained", 3)
    assert agility.heated_shot_ready(blast, "trained", 4)
    assert agility.stoke(blast, "trained", turn=4, roller=FixedDice()) == (blast, [])


@pytest.mark.rule("AG-HEAT-11", "AG-HEAT-12")
def test_green_crews_need_a_third_6_and_crack_crews_fire_at_once() -> None:
    ordered = agility.order_lit(agility.COLD)
    green = stoke_all(ordered, "green", [6, 6])
    assert green.full_blast_turn is None
    green = stoke_all(green, "green", [6])
    assert green.full_blast_turn == 1
    crack = stoke_all(ordered, "crack", [6, 2, 6])
    assert crack.full_blast_turn == 3
    assert agility.heated_shot_ready(crack, "crack", 3)


@pytest.mark.rule("AG-HEAT-13", "AG-HEAT-14")
def test_a_forewarned_fortress_starts_at_full_blast_or_lit() -> None:
    assert agility.heated_shot_ready(READY, "trained", 1)
    lit = agility.forewarned_furnace("lit")
    assert stoke_all(lit, "trained", [6]).full_blast_turn == 1
    assert stoke_all(lit, "green", [6]).full_blast_turn is None
    furnace = json.loads(json.dumps(lit.to_json()))
    assert agility.Furnace.from_json(furnace) == lit
    with pytest.raises(ValueError, match="furnace"):
        agility.Furnace.from_json({"ordered": True})


# --- the data and the switches --------------------------------------------------------------------------


def test_agility_tables_cite_checklist_clauses_and_explain_their_readings() -> None:
    from battles.checklist import checklist_clauses

    known = checklist_clauses()
    for key, entry in agility.agility_tables().items():
        if key == "meta":
            continue
        assert entry["clauses"], key
        assert all(clause in known for clause in entry["clauses"]), key
        assert entry["decision"], key


def test_every_agility_switch_is_off_by_default() -> None:
    assert CombatRules().model == FireModel()
    assert type(CombatRules().model) is FireModel
    switches = ("agility", "gm_ratings", "raking_fire", "extreme_range", "long_range_penetration", "coal_bunker_hits")
    assert not any(getattr(AgilityFireModel(), name) for name in switches)
    ram, aphid_ = ship("Fenian Ram", "Fenian Ram"), ship("Aphid", "Aphid (original)", at=Hex(0, -2), facing=0)
    basic = fire_solution(ram, ROGUE, aphid_, now=NOW)
    assert basic.extra_clauses == ()
    assert basic == fire_solution(ram, ROGUE, aphid_, now=NOW, rules=COAL)


def test_the_fire_model_is_chosen_once_from_the_battles_options() -> None:
    rules = ("agility", "raking_fire", "extreme_range", "long_range_penetration", "coal_bunker_hits")
    off = dict.fromkeys(rules, False)
    options = {**off, "agility_gm_ratings": False}
    assert type(agility.fire_model(options)) is FireModel
    # The GM's ratings alone change nothing: they extend the agility rule.
    assert type(agility.fire_model({**options, "agility_gm_ratings": True})) is FireModel
    for name in off:
        assert agility.fire_model({**options, name: True}) == AgilityFireModel(**{name: True})
    both = agility.fire_model({**options, "agility": True, "agility_gm_ratings": True})
    assert both == AgilityFireModel(agility=True, gm_ratings=True)


class _Blinkered(FireModel):
    """A test rule set overriding one step: every shot at -6 to hit."""

    def adjust_solution(
        self, solution: FireSolution, target: ShipRecord, gun: Gun, *, beyond_long: bool
    ) -> FireSolution:
        return replace(solution, modifiers={**solution.modifiers, "blinkers": -6})


def test_combat_asks_the_rules_fire_model_and_it_overrides_only_its_own_step() -> None:
    ram, aphid_ = ship("Fenian Ram", "Fenian Ram"), ship("Aphid", "Aphid (original)", at=Hex(0, -2), facing=0)
    blinkered = CombatRules(model=_Blinkered())
    basic = fire_solution(ram, ROGUE, aphid_, now=NOW)
    assert fire_solution(ram, ROGUE, aphid_, now=NOW, rules=blinkered) == replace(
        basic, modifiers={**basic.modifiers, "blinkers": -6}
    )
    hit, _ = shoot(ram, ROGUE, aphid_, FixedDice(6, HULL), CombatRules())
    missed, _ = shoot(ram, ROGUE, aphid_, FixedDice(6), blinkered)  # the rest of the procedure is the basic one
    assert hit["Aphid"].hull_hits > 0
    assert missed["Aphid"] == aphid_
