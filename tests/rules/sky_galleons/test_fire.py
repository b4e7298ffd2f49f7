"""Fire combat (battles/rules/sky_galleons/combat.py): who may fire, range, altitude, to-hit, several ships in a hex."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.combat import (
    CombatRules,
    DiceExhausted,
    FireRefused,
    FixedDice,
    fire_gun_marked,
    fire_solution,
    penetration_at,
    range_band,
    roll_to_hit,
    sight_lines,
)
from galleons.record import Criticals, Moment, ShipRecord, ship_record_from_class

NOW = Moment(2, 1)
# Flat-top axial hexes around a ship at (0, 0) facing 0 (north): ahead, astern, to starboard, to port.
AHEAD = {n: Hex(0, -n) for n in range(0, 8)}
ASTERN_2 = Hex(0, 2)
STARBOARD_2 = Hex(2, -1)

# Swiftwood's guns: 1 rogue (forward pivot), 2/3 light guns (port/starboard wing), 4 sweeper (stern tower),
# 5 power grapnel (forward starboard).
ROGUE, LIGHT_PORT, LIGHT_STARBOARD, SWEEPER, GRAPNEL = "1", "2", "3", "4", "5"


def ship(name: str, cls: str = "Swiftwood", *, at: Hex = ORIGIN, facing: int = 0, altitude: str = "M") -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=facing, altitude=altitude)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


@pytest.fixture
def firer() -> ShipRecord:
    return ship("Firer")


# --- may it fire ----------------------------------------------------------------------------------------


@pytest.mark.rule("SG-FIRE-07", "SG-FIRE-09", "SG-FIRE-10")
def test_close_and_long_range(firer: ShipRecord) -> None:
    # The rogue's range is 3/6: close up to 3 hexes (hits on 3+), long up to 6 (5+), nothing beyond.
    close = fire_solution(firer, ROGUE, ship("T", at=AHEAD[3]), now=NOW)
    long = fire_solution(firer, ROGUE, ship("T", at=AHEAD[4]), now=NOW)
    beyond = fire_solution(firer, ROGUE, ship("T", at=AHEAD[7]), now=NOW)
    assert (close.band, close.needed, close.effective_range) == ("close", 3, 3)
    assert (long.band, long.needed) == ("long", 5)
    assert not beyond.allowed
    assert beyond.clause == "SG-FIRE-07"


@pytest.mark.rule("SG-FIRE-08", "SG-CG-86")
def test_close_range_zero_is_the_own_hex_and_no_close_range_is_long_only(firer: ShipRecord) -> None:
    sweeper = firer.gun(SWEEPER)  # range 0/1
    assert range_band(sweeper, 0) == "close"
    assert range_band(sweeper, 1) == "long"
    lob = replace(firer.gun(ROGUE), weapon_id="lob_gun")  # range "/3"
    assert range_band(lob, 0) == "long"
    assert range_band(lob, 3) == "long"
    assert range_band(lob, 4) is None


@pytest.mark.rule("SG-FIRE-02", "SG-FACE-04")
def test_guns_fire_only_into_their_aspects(firer: ShipRecord) -> None:
    astern = ship("T", at=ASTERN_2)
    refused = fire_solution(firer, ROGUE, astern, now=NOW)
    assert not refused.allowed
    assert refused.clause == "SG-FIRE-02"
    # The wing guns fire into bow, stern and their own broadside.
    assert fire_solution(firer, LIGHT_PORT, astern, now=NOW).allowed
    starboard = ship("T", at=STARBOARD_2)
    assert fire_solution(firer, LIGHT_STARBOARD, starboard, now=NOW).allowed
    assert fire_solution(firer, LIGHT_PORT, starboard, now=NOW).clause == "SG-FIRE-02"


@pytest.mark.rule("SG-MOV-05", "SG-FIRE-02")
def test_same_hex_aspects_are_the_declared_ones(firer: ShipRecord) -> None:
    beside = ship("T", at=Hex(0, 0), facing=3)
    assert sight_lines(firer, beside) == (("bow", "starboard", "stern", "port"),) * 2
    assert sight_lines(firer, beside, ("stern", "bow")) == (("stern",), ("bow",))
    assert not fire_solution(firer, ROGUE, beside, now=NOW, same_hex=("stern", "bow")).allowed
    assert fire_solution(firer, ROGUE, beside, now=NOW, same_hex=("bow", "stern")).allowed


@pytest.mark.rule("SG-FIRE-15")
def test_lower_targets_add_no_range_and_higher_add_a_hex_a_level(firer: ShipRecord) -> None:
    lower = fire_solution(firer, ROGUE, ship("T", at=AHEAD[3], altitude="VL"), now=NOW)
    higher = fire_solution(firer, ROGUE, ship("T", at=AHEAD[3], altitude="H"), now=NOW)
    assert lower.effective_range == 3
    assert lower.band == "close"
    assert higher.effective_range == 4
    assert higher.band == "long"


@pytest.mark.rule("SG-FIRE-13")
def test_no_fire_when_altitude_difference_exceeds_range(firer: ShipRecord) -> None:
    # Same hex, different altitude: 1 level apart at 0 hexes.
    above = fire_solution(firer, ROGUE, ship("T", at=Hex(0, 0), altitude="H"), now=NOW)
    assert above.clause == "SG-FIRE-13"
    assert fire_solution(firer, ROGUE, ship("T", at=AHEAD[1], altitude="H"), now=NOW).allowed


@pytest.mark.rule("SG-FIRE-17", "SG-FIRE-40", "SG-CQ-02", "SG-CQ-06", "SG-CRIT-19")
def test_to_hit_modifiers(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[2], altitude="L")
    assert fire_solution(firer, ROGUE, target, now=NOW).modifiers == {"different altitude": -1}
    green = replace(firer, crew_quality="green", fire=2)
    assert fire_solution(green, ROGUE, target, now=NOW).modifiers == {
        "different altitude": -1,
        "green crew": -1,
        "burning": -1,
    }
    crack = replace(firer, crew_quality="crack", altitude="L")
    assert fire_solution(crack, ROGUE, target, now=NOW).modifiers == {"crack crew": 1}
    assert fire_solution(firer, ROGUE, replace(target, altitude="M"), now=NOW).modifiers == {}


@pytest.mark.rule("SG-FIRE-25", "SG-DMG-08", "SG-CREW-10", "SG-CRIT-37", "SG-SEQ-06", "SG-FIRE-05", "SG-DMG-16")
def test_refusals_name_their_clause(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[1])

    def clause(record: ShipRecord, gun: str = ROGUE, at: ShipRecord = target) -> str:
        return fire_solution(record, gun, at, now=NOW).clause

    assert clause(firer, SWEEPER, ship("T", at=ASTERN_2)) == "SG-FIRE-25"
    assert clause(firer.with_gun(replace(firer.gun(ROGUE), destroyed=True))) == "SG-DMG-08"
    assert clause(firer.with_gun(replace(firer.gun(ROGUE), manned=0))) == "SG-CREW-10"
    assert clause(firer.with_gun(replace(firer.gun(ROGUE), jammed=True))) == "SG-CG-52"
    assert clause(replace(firer, criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index + 1))) == (
        "SG-CRIT-37"
    )
    assert clause(fire_gun_marked(firer, ROGUE, NOW)) == "SG-SEQ-06"
    assert clause(fire_gun_marked(firer, ROGUE, Moment(1, 2))) == "SG-FIRE-05"
    assert clause(firer, GRAPNEL) == "SG-CG-89"
    assert clause(replace(firer, status="crashed")) == "SG-DMG-16"
    assert clause(firer, ROGUE, replace(target, name="Firer")) == "SG-FIRE-04"


def test_refused_fire_raises_with_the_clause(firer: ShipRecord) -> None:
    solution = fire_solution(firer, ROGUE, ship("T", at=ASTERN_2), now=NOW)
    with pytest.raises(FireRefused, match="SG-FIRE-02") as refused:
        roll_to_hit(fleet(firer), solution, roller=FixedDice())
    assert refused.value.clause == "SG-FIRE-02"


@pytest.mark.rule("SG-CG-06", "SG-CG-07", "SG-CG-88")
def test_penetration_by_range_band(firer: ShipRecord) -> None:
    heavy = replace(firer.gun(ROGUE), weapon_id="heavy_gun")  # Pen 1/0
    assert penetration_at(heavy, "close", CombatRules()) == 1
    assert penetration_at(heavy, "long", CombatRules()) == 0
    assert penetration_at(heavy, "long", CombatRules(two_range_penetration=False)) == 1
    lob = replace(heavy, weapon_id="lob_gun")  # Pen -/2
    assert penetration_at(lob, "long", CombatRules(two_range_penetration=False)) == 2
    assert penetration_at(lob, "long", CombatRules()) == 2
    long = fire_solution(firer, ROGUE, ship("T", at=AHEAD[5]), now=NOW)  # rogue Pen 2/1
    assert long.penetration == 1


# --- rolling to hit ------------------------------------------------------------------------------------


@pytest.mark.rule("SG-FIRE-09", "SG-FIRE-10")
def test_one_shot_hits_or_misses(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[2])
    ships = fleet(firer, target)
    solution = fire_solution(firer, ROGUE, target, now=NOW)
    assert roll_to_hit(ships, solution, roller=FixedDice(3))[0] == ["T"]
    hits, happened = roll_to_hit(ships, solution, roller=FixedDice(2))
    assert hits == []
    assert happened[0]["needed"] == "3+"
    assert happened[0]["outcome"] == "miss"
    assert happened[0]["faces"] == [2]
    assert "SG-FIRE-09" in happened[0]["clauses"]


@pytest.mark.rule("SG-FIRE-04")
def test_rate_of_fire_above_one_rolls_every_shot_at_one_target() -> None:
    aphid = ship("Aphid", "Aphid (original)")
    hrc = next(gun.id for gun in aphid.guns if gun.weapon_id == "1pdr_hrc" and "starboard" in gun.arcs)
    target = ship("T", at=STARBOARD_2)
    solution = fire_solution(aphid, hrc, target, now=NOW)
    assert solution.shots == 3
    dice = FixedDice(3, 1, 6)
    hits, happened = roll_to_hit(fleet(aphid, target), solution, roller=dice)
    assert hits == ["T", "T"]
    assert happened[0]["outcome"] == "hit:2,miss:1"
    assert dice.left == ()
    short = aphid.with_gun(replace(aphid.gun(hrc), manned=0))
    assert fire_solution(short, hrc, target, now=NOW).clause == "SG-CREW-10"


@pytest.mark.rule("SG-FIRE-11")
def test_a_missed_shot_may_hit_the_other_ship_in_the_hex(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[2])
    other = ship("Other", at=AHEAD[2], facing=3)
    solution = fire_solution(firer, ROGUE, target, now=NOW)
    ships = fleet(firer, target, other)
    dice = FixedDice(1, 4)
    assert roll_to_hit(ships, solution, roller=dice)[0] == ["Other"]
    assert dice.purposes[1].startswith("missed shot, second roll")
    assert roll_to_hit(ships, solution, roller=FixedDice(1, 2))[0] == []
    # A hit on the target needs no second roll.
    assert roll_to_hit(ships, solution, roller=FixedDice(5))[0] == ["T"]


@pytest.mark.rule("SG-FIRE-12")
def test_with_several_other_ships_a_die_picks_the_one_hit(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[2])
    first, second = ship("A", at=AHEAD[2]), ship("B", at=AHEAD[2])
    solution = fire_solution(firer, ROGUE, target, now=NOW)
    ships = fleet(firer, target, first, second)
    dice = FixedDice(2, 6, 2)
    hits, happened = roll_to_hit(ships, solution, roller=dice)
    assert hits == ["B"]
    assert dice.calls[2] == ("which ship the stray shot hits", (2,), 2)
    assert happened[2]["outcome"] == "B"
    assert dice.left == ()


def test_other_ships_at_another_altitude_or_the_firer_are_not_hit_by_strays(firer: ShipRecord) -> None:
    target = ship("T", at=AHEAD[1])
    above = ship("Above", at=AHEAD[1], altitude="VH")
    alongside = replace(firer, position=AHEAD[1])
    solution = fire_solution(alongside, ROGUE, target, now=NOW, same_hex=("bow", "stern"))
    dice = FixedDice(1)
    assert roll_to_hit(fleet(alongside, target, above), solution, roller=dice)[0] == []
    assert dice.left == ()


def test_fixed_dice_refuse_impossible_faces_and_run_out() -> None:
    dice = FixedDice(7)
    with pytest.raises(ValueError, match="6-sided"):
        dice("to hit", 1, 6)
    with pytest.raises(DiceExhausted):
        FixedDice()("to hit", 1, 6)
