"""Lob guns, shrapnel and grape, machineguns (battles/rules/sky_galleons/combat.py).

Lob guns are an advanced rule (``CombatRules(lob_guns=True)``); shrapnel and grape are chosen when a shot is
declared (``ammunition=``); the machineguns' maximum rate likewise (``rate="max"``). Flat-top axial hexes
around a firer at (0, 0) facing north.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.agility import AgilityFireModel
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FixedDice,
    ammunition_for,
    clear_jams,
    fire,
    fire_solution,
    is_portable,
    resolve_fire,
    roll_to_hit,
    train_portable_gun,
    weapon_limit_problems,
)
from galleons.record import (
    Criticals,
    Gun,
    Moment,
    ShipRecord,
    assign_gun_crew,
    ship_record_from_class,
)

NOW = Moment(2, 1)
LOB_RULES = CombatRules(lob_guns=True)
SMALL_ARMS = CombatRules(small_arms=True)
AHEAD = {n: Hex(0, -n) for n in range(0, 6)}
ASTERN_2 = Hex(0, 2)
STARBOARD = {1: Hex(1, -1), 2: Hex(2, -2)}
PORT = {1: Hex(-1, 0), 2: Hex(-2, 0)}
LOB = "3"  # the Endtime's lob gun, amidships
ROGUE = "1"  # the Swiftwood's rogue: DV 3, range 3/6, forward pivot
FOUR_INCH = "1"  # the Aphid's 4" short: DV 2, Pen 2/1, range 3/6, forward pivot
HULL, CREW, GUN, CRITICAL = 1, 3, 5, 6


def ship(
    name: str, cls: str = "Swiftwood", *, at: Hex = ORIGIN, altitude: str = "M", quality: str = "trained"
) -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=0, altitude=altitude, crew_quality=quality)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


def endtime() -> ShipRecord:
    return ship("Endtime", "Endtime")


def refit(record: ShipRecord, gun_id: str, weapon_id: str, *, manned: int | None = None) -> ShipRecord:
    """The record with gun ``gun_id`` replaced by one weapon of ``weapon_id`` (crew 1)."""
    gun = record.gun(gun_id)
    return record.with_gun(replace(gun, weapon_id=weapon_id, crew=1, manned=1 if manned is None else manned))


# --- lob guns -------------------------------------------------------------------------------------------


def test_under_the_basic_rules_the_lob_gun_is_an_ordinary_gun() -> None:
    solution = fire_solution(endtime(), LOB, ship("T", at=AHEAD[2], altitude="L"), now=NOW)
    assert (solution.needed, solution.lob_gun) == (5, False)
    assert solution.modifiers == {"different altitude": -1}


@pytest.mark.rule("SG-LOB-02", "SG-FIRE-24")
def test_a_lob_gun_hits_only_on_a_6_at_every_range() -> None:
    for distance in (1, 2, 3):
        solution = fire_solution(endtime(), LOB, ship("T", at=AHEAD[distance]), now=NOW, rules=LOB_RULES)
        assert (solution.needed, solution.band, solution.lob_gun) == (6, "long", True), distance
        target = ship("T", at=AHEAD[distance])
        assert roll_to_hit(fleet(endtime(), target), solution, roller=FixedDice(5))[0] == []
        assert roll_to_hit(fleet(endtime(), target), solution, roller=FixedDice(6))[0] == ["T"]


def _lob_hits_on(firer: ShipRecord, target: ShipRecord, rules: CombatRules = LOB_RULES) -> list[int]:
    """The die faces, 1 to 6, on which the firer's lob gun hits the target."""
    solution = fire_solution(firer, LOB, target, now=NOW, rules=rules)
    assert (solution.allowed, solution.lob_gun) == (True, True), solution.describe
    ships = fleet(firer, target)
    return [face for face in range(1, 7) if roll_to_hit(ships, solution, roller=FixedDice(face))[0] == [target.name]]


@pytest.mark.rule("SG-LOB-02", "SG-CQ-02", "SG-CQ-06")
def test_a_lob_gun_hits_on_a_natural_6_whatever_the_crew() -> None:
    """SG-LOB-02: a green crew's lob gun still hits on a 6 and a crack crew's does not hit on a 5."""
    for quality in ("green", "trained", "crack"):
        firer = replace(endtime(), crew_quality=quality)
        assert _lob_hits_on(firer, ship("T", at=AHEAD[2])) == [6], quality
        assert fire_solution(firer, LOB, ship("T", at=AHEAD[2]), now=NOW, rules=LOB_RULES).modifiers == {}


@pytest.mark.rule("SG-LOB-02", "SG-LOB-04", "SG-CRIT-19", "SG-FIRE-17", "AG-TRV-04")
def test_no_fire_modifier_moves_a_lob_gun_off_its_6() -> None:
    """SG-LOB-02: burning, a different altitude, the range and the Agility rules' traverse modifier leave the
    lob gun hitting on exactly a 6."""
    burning = replace(endtime(), crew_quality="green", fire=2)
    for distance in (1, 2, 3):
        for altitude in ("L", "M", "H"):
            assert _lob_hits_on(burning, ship("T", at=AHEAD[distance], altitude=altitude)) == [6], (distance, altitude)
    # A nimble kite against the lob gun's slow traverse: the agility rule takes 1 off another gun's roll.
    agile = CombatRules(lob_guns=True, model=AgilityFireModel(agility=True))
    target = ship("T", "Swiftwood", at=AHEAD[3])
    assert _lob_hits_on(replace(endtime(), crew_quality="crack"), target, agile) == [6]


@pytest.mark.rule("SG-LOB-04")
def test_altitude_has_no_effect_on_a_lob_gun() -> None:
    far_above = ship("T", at=AHEAD[1], altitude="VH")  # 2 levels above at 1 hex
    assert fire_solution(endtime(), LOB, far_above, now=NOW).clause == "SG-FIRE-13"
    lob = fire_solution(endtime(), LOB, far_above, now=NOW, rules=LOB_RULES)
    assert lob.allowed
    assert (lob.effective_range, lob.modifiers, lob.from_below) == (1, {}, False)
    # Range is not stretched by height: 3 hexes and a level up is still range 3.
    above = ship("T", at=AHEAD[3], altitude="H")
    assert fire_solution(endtime(), LOB, above, now=NOW).clause == "SG-FIRE-07"
    assert fire_solution(endtime(), LOB, above, now=NOW, rules=LOB_RULES).effective_range == 3


@pytest.mark.rule("SG-LOB-05")
def test_a_lob_gun_may_not_fire_into_its_own_hex() -> None:
    beside = ship("T", at=ORIGIN)
    refused = fire_solution(endtime(), LOB, beside, now=NOW, rules=LOB_RULES, same_hex=("bow", "stern"))
    assert (refused.allowed, refused.clause) == (False, "SG-LOB-05")


@pytest.mark.rule("SG-LOB-01", "SGD-EXO-05")
def test_a_lob_gun_fires_all_round_and_a_ship_carries_one() -> None:
    astern = ship("T", at=ASTERN_2)
    assert fire_solution(endtime(), LOB, astern, now=NOW, rules=LOB_RULES).allowed
    # Its turntable is all round whatever the record's arcs say.
    narrowed = endtime().with_gun(replace(endtime().gun(LOB), arcs=("bow",)))
    assert fire_solution(narrowed, LOB, astern, now=NOW).clause == "SG-FIRE-02"
    assert fire_solution(narrowed, LOB, astern, now=NOW, rules=LOB_RULES).allowed
    assert weapon_limit_problems([endtime()]) == []
    two = refit(endtime(), "4", "lob_gun")
    assert weapon_limit_problems([two]) == ["Endtime carries 2 lob guns; a ship has room for one (SG-LOB-01)"]


@pytest.mark.rule("SG-LOB-03")
def test_every_lob_gun_hit_costs_a_loss_of_trim_even_through_heavy_armor() -> None:
    target = replace(ship("T", "Whisperdeath", at=AHEAD[2]), armor=5)  # more than twice the lob gun's Pen 2
    # To hit 6; Hull hit, which the armor stops; trim rolls (hull size +1) 3 (4: fails, drops) then 4 (5: recovers).
    dice = FixedDice(6, HULL, 3, 4)
    ships, happened = fire(fleet(endtime(), target), "Endtime", LOB, "T", now=NOW, roller=dice, rules=LOB_RULES)
    hit = ships["T"]
    assert dice.left == ()
    assert hit.hull_hits == 0
    assert hit.altitude == "L"
    assert hit.stunned(Moment(NOW.turn, 2))
    assert any("SG-LOB-03" in h["clauses"] for h in happened)
    trim_rolls = [h for h in happened if "recovers trim" in h["purpose"]]
    assert [h["needed"] for h in trim_rolls] == ["more than 4 (a natural 6 always)"] * 2
    # Under the basic rules the same hit does nothing more.
    basic = FixedDice(6, HULL)
    ships, _ = fire(fleet(endtime(), target), "Endtime", LOB, "T", now=NOW, roller=basic)
    assert ships["T"].altitude == "M"
    assert basic.left == ()


# --- shrapnel and grape ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-SHR-01", "SG-CG-11")
def test_british_guns_carry_shrapnel_martian_guns_and_howitzers_grape() -> None:
    aphid = ship("Aphid", "Aphid (original)")
    assert ammunition_for(aphid.gun(FOUR_INCH)) == ("shell", "shrapnel")
    assert ammunition_for(ship("S").gun(ROGUE)) == ("shell", "grape")
    assert ammunition_for(endtime().gun(LOB)) == ("shell",)
    assert ammunition_for(aphid.gun("5")) == ("shell",)  # a Nordenfelt
    howitzer = refit(aphid, FOUR_INCH, "5in_howitzer")
    assert ammunition_for(howitzer.gun(FOUR_INCH)) == ("shell", "grape")
    target = ship("T", at=AHEAD[2])
    assert fire_solution(howitzer, FOUR_INCH, target, now=NOW, ammunition="shrapnel").clause == "SG-CG-11"
    assert fire_solution(aphid, FOUR_INCH, target, now=NOW, ammunition="grape").clause == "SG-SHR-01"
    assert fire_solution(ship("S"), ROGUE, target, now=NOW, ammunition="shrapnel").clause == "SG-SHR-01"


@pytest.mark.rule("SG-SHR-01", "SG-CG-14")
def test_grape_only_at_close_range_shrapnel_at_either() -> None:
    swiftwood, aphid = ship("S"), ship("Aphid", "Aphid (original)")
    assert fire_solution(swiftwood, ROGUE, ship("T", at=AHEAD[3]), now=NOW, ammunition="grape").band == "close"
    long = fire_solution(swiftwood, ROGUE, ship("T", at=AHEAD[4]), now=NOW, ammunition="grape")
    assert (long.allowed, long.clause) == (False, "SG-SHR-01")
    shrapnel = fire_solution(aphid, FOUR_INCH, ship("T", at=AHEAD[5]), now=NOW, ammunition="shrapnel")
    assert (shrapnel.allowed, shrapnel.band) == (True, "long")
    # A howitzer counts every ship as long range: its grape never reaches one.
    howitzer = refit(aphid, FOUR_INCH, "5in_howitzer")
    assert fire_solution(howitzer, FOUR_INCH, ship("T", at=AHEAD[1]), now=NOW, ammunition="grape").clause == (
        "SG-SHR-01"
    )


@pytest.mark.rule("SG-SHR-02", "SG-FIRE-40")
def test_shrapnel_and_grape_add_one_to_hit() -> None:
    target = ship("T", at=AHEAD[2])
    grape = fire_solution(ship("S"), ROGUE, target, now=NOW, ammunition="grape")
    assert grape.modifiers == {"grape": 1}
    assert grape.ammunition == "grape"
    assert roll_to_hit(fleet(ship("S"), target), grape, roller=FixedDice(2))[0] == ["T"]
    shell = fire_solution(ship("S"), ROGUE, target, now=NOW)
    assert roll_to_hit(fleet(ship("S"), target), shell, roller=FixedDice(2))[0] == []
    shrapnel = fire_solution(ship("Aphid", "Aphid (original)"), FOUR_INCH, target, now=NOW, ammunition="shrapnel")
    assert shrapnel.modifiers == {"shrapnel": 1}


@pytest.mark.rule("SG-SHR-03")
@pytest.mark.parametrize("location", [(HULL,), (2,), (CRITICAL,)])
def test_shrapnel_and_grape_do_nothing_to_hull_or_criticals(location: tuple[int]) -> None:
    target = ship("T", at=AHEAD[2])
    dice = FixedDice(3, *location)  # no armor roll, no critical table roll
    ships, happened = fire(fleet(ship("S"), target), "S", ROGUE, "T", now=NOW, roller=dice, ammunition="grape")
    assert ships["T"] == target
    assert dice.left == ()
    assert happened[-1]["clauses"] == ["SG-SHR-03"]


@pytest.mark.rule("SG-SHR-04", "SG-SHR-05")
@pytest.mark.parametrize("location", [CREW, GUN])
def test_shrapnel_and_grape_gun_and_crew_hits_kill_the_full_damage_value(location: int) -> None:
    target = ship("T", "Skylord", at=AHEAD[2])  # plenty of deckhands
    dice = FixedDice(3, location, 1)  # to hit, location, officer check
    ships, _ = fire(fleet(ship("S"), target), "S", ROGUE, "T", now=NOW, roller=dice, ammunition="grape")
    hit = ships["T"]
    assert dice.left == ()
    assert target.crew_aboard - hit.crew_aboard == 3  # the rogue's damage value, not half
    assert hit.guns == target.guns
    # Shell kills half, rounded up.
    shell, _ = fire(fleet(ship("S"), target), "S", ROGUE, "T", now=NOW, roller=FixedDice(3, CREW, 1))
    assert target.crew_aboard - shell["T"].crew_aboard == 2


@pytest.mark.rule("SG-SHR-03", "SG-DMG-07")
def test_shrapnel_from_below_does_nothing() -> None:
    aphid = ship("Aphid", "Aphid (original)")
    above = ship("T", at=AHEAD[2], altitude="H")
    for location in (CREW, GUN):
        dice = FixedDice(4, location)  # 4 - 1 (altitude) + 1 (shrapnel) hits
        ships, _ = fire(fleet(aphid, above), "Aphid", FOUR_INCH, "T", now=NOW, roller=dice, ammunition="shrapnel")
        assert ships["T"] == above
        assert dice.left == ()


# --- machineguns ----------------------------------------------------------------------------------------


def aphid_with(weapon_id: str, *, manned: int = 1) -> ShipRecord:
    """The Aphid with its starboard broadside Nordenfelt (gun 5) swapped for ``weapon_id``."""
    return refit(ship("Aphid", "Aphid (original)"), "5", weapon_id, manned=manned)


@pytest.mark.rule("SG-MG-01", "SG-MG-03", "SG-MG-05", "SG-CG-55")
def test_the_maxim_needs_a_gunner_and_fires_six_small_arms_dice() -> None:
    unmanned = aphid_with("maxim", manned=0)
    target = ship("T", at=STARBOARD[2])
    assert fire_solution(unmanned, "5", target, now=NOW, rules=SMALL_ARMS).clause == "SG-CREW-10"
    manned = assign_gun_crew(unmanned, "5", 1)
    assert manned.crew.deckhands == unmanned.crew.deckhands - 1
    solution = fire_solution(manned, "5", target, now=NOW, rules=SMALL_ARMS)
    assert (solution.small_arms, solution.shots, solution.band) == (True, 6, "long")
    assert fire_solution(manned, "5", ship("T", at=Hex(3, -3)), now=NOW, rules=SMALL_ARMS).clause == "SG-SAF-11"


@pytest.mark.rule("SG-MG-03")
def test_at_most_one_maxim_in_a_battle() -> None:
    one = aphid_with("maxim")
    assert weapon_limit_problems([one, ship("S")]) == []
    two = weapon_limit_problems([one, replace(one, name="Other")])
    assert two == ["2 maxim guns in the battle; at most 1 (SG-MG-03)"]


@pytest.mark.rule("SG-MG-04", "SG-MG-07", "SG-CG-55", "SG-CG-56")
def test_a_portable_machinegun_moved_to_an_aspect_waits_a_turn_and_fires_only_there() -> None:
    assert [is_portable(Gun("x", w, "port broadside", ("port",), 1, 1)) for w in ("maxim", "gardner")] == [True, True]
    assert is_portable(Gun("x", "nordenfelt_1b", "port broadside", ("port",), 1, 1))
    assert not is_portable(Gun("x", "nordenfelt_5b", "port broadside", ("port",), 1, 1))
    maxim = aphid_with("maxim")  # on the starboard broadside
    port_target = ship("T", at=PORT[1])
    assert fire_solution(maxim, "5", port_target, now=NOW, rules=SMALL_ARMS).clause == "SG-FIRE-02"
    moved = train_portable_gun(maxim, "5", "port", now=NOW)
    assert (moved.gun("5").arcs, moved.gun("5").trained_turn) == (("port",), NOW.turn)
    assert fire_solution(moved, "5", port_target, now=NOW, rules=SMALL_ARMS).clause == "SG-MG-04"
    next_turn = Moment(NOW.turn + 1)
    assert fire_solution(moved, "5", port_target, now=next_turn, rules=SMALL_ARMS).allowed
    assert fire_solution(moved, "5", ship("T", at=STARBOARD[1]), now=next_turn, rules=SMALL_ARMS).clause == (
        "SG-FIRE-02"
    )
    # Trained where it already points is no move.
    assert train_portable_gun(moved, "5", "port", now=next_turn) == moved
    with pytest.raises(ValueError, match="SG-CG-55"):
        train_portable_gun(ship("Aphid", "Aphid (original)"), "5", "port", now=NOW)
    with pytest.raises(ValueError, match="aspect"):
        train_portable_gun(maxim, "5", "up", now=NOW)
    # The record keeps the turn through JSON; an untouched gun writes no such key.
    assert ShipRecord.from_json(moved.to_json()) == moved
    assert "trained_turn" not in maxim.gun("5").to_json()


@pytest.mark.rule("SG-MG-02", "SG-MG-08", "SG-CG-50", "SG-CG-51", "SG-CG-52")
def test_the_gardner_jams_only_at_its_maximum_rate() -> None:
    gardner = aphid_with("gardner")
    target = ship("T", at=STARBOARD[1])
    normal = fire_solution(gardner, "5", target, now=NOW, rules=SMALL_ARMS)
    assert (normal.shots, normal.rate) == (2, "normal")
    dice = FixedDice(1, 1)
    ships, _ = resolve_fire(fleet(gardner, target), normal, now=NOW, roller=dice, rules=SMALL_ARMS)
    assert not ships["Aphid"].gun("5").jammed
    flat_out = fire_solution(gardner, "5", target, now=NOW, rules=SMALL_ARMS, rate="max")
    assert (flat_out.shots, flat_out.rate) == (3, "max")
    assert "SG-CG-52" in flat_out.clauses
    # 1, 5, 6: two hits and a jam; the saves 3, 3 both fail; the officer check 1.
    dice = FixedDice(1, 5, 6, 3, 3, 1)
    ships, happened = resolve_fire(fleet(gardner, target), flat_out, now=NOW, roller=dice, rules=SMALL_ARMS)
    assert dice.left == ()
    assert ships["Aphid"].gun("5").jammed
    assert target.crew_aboard - ships["T"].crew_aboard == 2
    assert happened[1]["outcome"] == "jammed"
    assert fire_solution(ships["Aphid"], "5", target, now=Moment(3), rules=SMALL_ARMS).clause == "SG-CG-52"
    # No 1: no jam.
    ships, _ = resolve_fire(fleet(gardner, target), flat_out, now=NOW, roller=FixedDice(2, 2, 2), rules=SMALL_ARMS)
    assert not ships["Aphid"].gun("5").jammed


@pytest.mark.rule("SG-CG-51", "SG-CG-52")
def test_a_gatling_firing_shells_flat_out_jams_too_and_single_rate_guns_have_no_maximum() -> None:
    locust = ship("Locust", "Locust")  # gun 6: a 1" Gatling (DV 1, ROF 3/4) on the starboard broadside
    target = ship("T", at=STARBOARD[1])
    assert fire_solution(locust, "6", target, now=NOW).shots == 3
    flat_out = fire_solution(locust, "6", target, now=NOW, rate="max")
    assert (flat_out.shots, flat_out.small_arms, flat_out.damage_value) == (4, False, 1)
    dice = FixedDice(1, 6, 2, 2, HULL)  # one hit, a jam; the hit on the hull
    ships, _ = resolve_fire(fleet(locust, target), flat_out, now=NOW, roller=dice)
    assert dice.left == ()
    assert ships["Locust"].gun("6").jammed
    assert ships["T"].hull_hits == 1
    assert fire_solution(locust, "1", ship("T", at=AHEAD[2]), now=NOW, rate="max").clause == "SG-CG-51"
    assert fire_solution(locust, "6", target, now=NOW, rate="fast").clause == "SG-CG-51"


@pytest.mark.rule("SG-MG-09", "SG-CG-53")
def test_a_jammed_gun_clears_on_4_or_more_each_fire_phase() -> None:
    jammed = aphid_with("gardner")
    jammed = jammed.with_gun(replace(jammed.gun("5"), jammed=True))
    still, happened = clear_jams(jammed, now=NOW, roller=FixedDice(3))
    assert still.gun("5").jammed
    assert happened[0]["needed"] == "4+"
    cleared, _ = clear_jams(jammed, now=NOW, roller=FixedDice(4))
    assert not cleared.gun("5").jammed
    assert fire_solution(cleared, "5", ship("T", at=STARBOARD[1]), now=NOW, rules=SMALL_ARMS).allowed
    # Nobody at the gun, or a stunned crew: no attempt.
    unmanned = jammed.with_gun(replace(jammed.gun("5"), manned=0))
    stunned = replace(jammed, criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index))
    for record in (unmanned, stunned):
        dice = FixedDice()
        after, _ = clear_jams(record, now=NOW, roller=dice)
        assert after.gun("5").jammed
    # Nothing jammed, nothing rolled.
    assert clear_jams(aphid_with("gardner"), now=NOW, roller=FixedDice()) == (aphid_with("gardner"), [])


@pytest.mark.rule("SG-CG-54")
def test_optionally_green_crews_fire_machineguns_flat_out() -> None:
    target = ship("T", at=STARBOARD[1])
    green = replace(aphid_with("gardner"), crew_quality="green")
    optional = CombatRules(small_arms=True, green_machineguns_at_max=True)
    assert fire_solution(green, "5", target, now=NOW, rules=optional).shots == 3
    assert fire_solution(green, "5", target, now=NOW, rules=SMALL_ARMS).shots == 2
    assert fire_solution(aphid_with("gardner"), "5", target, now=NOW, rules=optional).shots == 2
    # A single-rate machinegun is unaffected.
    green_nordenfelt = replace(aphid_with("nordenfelt_5b"), crew_quality="green")
    assert fire_solution(green_nordenfelt, "5", target, now=NOW, rules=optional).rate == "normal"
