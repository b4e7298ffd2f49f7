"""The optional fire rules (battles/rules/sky_galleons/combat.py): nonexploding rounds and restricted arcs.

Both are off by default (``CombatRules``); flat-top axial hexes around a firer at (0, 0) facing north.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.combat import CombatRules, FixedDice, fire, fire_solution
from galleons.record import Moment, ShipRecord, ship_record_from_class

NOW = Moment(2, 1)
NEX = CombatRules(nonexploding_rounds=True)
ARCS = CombatRules(restricted_arcs=True)
CREW = 3


def ship(name: str, cls: str = "Swiftwood", *, at: Hex = ORIGIN, armor: int | None = None) -> ShipRecord:
    record = ship_record_from_class(cls, name=name, position=at, facing=0, altitude="M")
    return record if armor is None else replace(record, armor=armor)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


def casualties(
    firer: ShipRecord, gun: str, target: ShipRecord, dice: FixedDice, rules: CombatRules, ammunition: str = "shell"
) -> int:
    ships, _ = fire(
        fleet(firer, target), firer.name, gun, target.name, now=NOW, roller=dice, rules=rules, ammunition=ammunition
    )
    assert dice.left == ()
    return target.crew_aboard - ships[target.name].crew_aboard


# --- nonexploding rounds --------------------------------------------------------------------------------


@pytest.mark.rule("SG-NEX-01", "SG-NEX-02", "SG-NEX-03", "SG-CG-78")
def test_a_round_piercing_twice_the_armor_may_pass_through_at_damage_value_1() -> None:
    # The rogue (Pen 2 close, DV 3) against an unarmored ship 2 hexes ahead; each hit a Crew hit.
    firer, target = ship("Firer"), ship("T", "Skylord", at=Hex(0, -2), armor=0)
    # 4-6: passes through, damage value 1: one casualty. Dice: to hit, through?, location, officer check.
    assert casualties(firer, "1", target, FixedDice(3, 4, CREW, 1), NEX) == 1
    # 1-3: resolved as usual, damage value 3: two casualties.
    assert casualties(firer, "1", target, FixedDice(3, 3, CREW, 1), NEX) == 2
    # Off by default: no roll at all.
    assert casualties(firer, "1", target, FixedDice(3, CREW, 1), CombatRules()) == 2


@pytest.mark.rule("SG-NEX-01")
def test_exactly_twice_the_armor_does_not_trigger_and_penetration_is_the_range_bands() -> None:
    firer = ship("Firer")
    armor_1 = ship("T", "Skylord", at=Hex(0, -2), armor=1)  # Pen 2 is exactly twice 1
    assert casualties(firer, "1", armor_1, FixedDice(3, CREW, 1), NEX) == 2
    # The heavy gun pierces 1 at close range (triggers against armor 0) and 0 at long (does not).
    bloodrunner = ship("Bloodrunner", "Bloodrunner")
    close = ship("T", "Skylord", at=Hex(0, -2), armor=0)
    assert casualties(bloodrunner, "1", close, FixedDice(3, 6, CREW, 1), NEX) == 1
    long = ship("T", "Skylord", at=Hex(0, -3), armor=0)
    assert casualties(bloodrunner, "1", long, FixedDice(5, CREW, 1), NEX) == 1  # DV 2: half is 1 anyway
    assert fire_solution(bloodrunner, "1", long, now=NOW).penetration == 0


@pytest.mark.rule("SG-NEX-04")
def test_rounds_of_damage_value_1_are_unaffected() -> None:
    endtime = ship("Endtime", "Endtime")  # gun 1: a rod gun, Pen 3, DV 1
    target = ship("T", "Skylord", at=Hex(0, -2), armor=0)
    assert casualties(endtime, "1", target, FixedDice(3, CREW, 1), NEX) == 1


def test_shrapnel_and_grape_do_not_pass_through() -> None:
    firer, target = ship("Firer"), ship("T", "Skylord", at=Hex(0, -2), armor=0)
    assert casualties(firer, "1", target, FixedDice(3, CREW, 1), NEX, ammunition="grape") == 3


@pytest.mark.rule("SG-NEX-03", "SG-LOB-03")
def test_a_lob_gun_round_passing_through_still_costs_the_trim() -> None:
    endtime = ship("Endtime", "Endtime")
    target = ship("T", at=Hex(0, -2))  # Swiftwood, armor 0, hull size 3
    rules = CombatRules(nonexploding_rounds=True, lob_guns=True)
    # To hit 6; passes through (5); Crew hit at damage value 1; officer check; trim roll 5 beats 4.
    dice = FixedDice(6, 5, CREW, 1, 5)
    ships, happened = fire(fleet(endtime, target), "Endtime", "3", "T", now=NOW, roller=dice, rules=rules)
    assert dice.left == ()
    assert target.crew_aboard - ships["T"].crew_aboard == 1
    assert [h["needed"] for h in happened if "recovers trim" in h["purpose"]] == ["more than 4 (a natural 6 always)"]


# --- restricted firing arcs -----------------------------------------------------------------------------


@pytest.mark.rule("SG-ARC-01", "SG-ARC-02", "SG-CG-79")
@pytest.mark.parametrize(
    ("cls", "gun", "at", "basic", "restricted"),
    [
        # The Swiftwood's forward pivot (bow, port, starboard): the half ahead of the beam.
        ("Swiftwood", "1", Hex(2, -2), True, True),
        ("Swiftwood", "1", Hex(2, -1), True, True),  # on the beam line: inside
        ("Swiftwood", "1", Hex(2, 0), True, False),  # starboard, abaft the beam
        # Its starboard wing pivot (bow, starboard, stern): the starboard half.
        ("Swiftwood", "3", Hex(0, -2), True, True),  # dead ahead, on the keel line
        ("Swiftwood", "3", Hex(-1, -1), True, False),  # in the bow aspect, to port of the keel
        ("Swiftwood", "3", Hex(1, 1), True, True),  # astern, to starboard
        # The Hullcutter's forward starboard half mount (bow, starboard): the quarter ahead to starboard.
        ("Hullcutter", "2", Hex(2, -2), True, True),
        ("Hullcutter", "2", Hex(2, 0), True, False),
        # Broadside guns are already narrower than 180 degrees: unchanged.
        ("Gloire", "7", Hex(2, 0), True, True),
        # The lob gun's turntable fires all round.
        ("Endtime", "3", Hex(0, 2), True, True),
    ],
)
def test_restricted_arcs_narrow_the_wide_mounts(cls: str, gun: str, at: Hex, basic: bool, restricted: bool) -> None:
    firer, target = ship("Firer", cls), ship("T", at=at)
    assert fire_solution(firer, gun, target, now=NOW).allowed is basic
    solution = fire_solution(firer, gun, target, now=NOW, rules=ARCS)
    assert solution.allowed is restricted
    if not restricted:
        assert solution.clause == "SG-ARC-01"


@pytest.mark.rule("SG-ARC-01", "SG-MOV-05")
def test_in_the_firers_own_hex_the_declared_aspect_decides() -> None:
    firer, beside = ship("Firer"), ship("T")
    assert fire_solution(firer, "1", beside, now=NOW, rules=ARCS, same_hex=("starboard", "port")).allowed
    assert fire_solution(firer, "1", beside, now=NOW, rules=ARCS, same_hex=("stern", "bow")).clause == "SG-FIRE-02"
