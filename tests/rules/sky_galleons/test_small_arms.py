"""Small arms fire and marines (battles/rules/sky_galleons/combat.py): "P" guns and the marines' pseudo-gun.

Small arms fire is an advanced rule: it is switched on with ``CombatRules(small_arms=True)``. Flat-top axial
hexes around a firer at (0, 0) facing north: ``AHEAD[n]`` is n hexes ahead, ``STARBOARD[n]`` n hexes to
starboard (north-east), ``ASTERN[n]`` n hexes astern.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.combat import (
    MARINES,
    CombatRules,
    FixedDice,
    fire,
    fire_solution,
    firing_ids,
    marine_arms,
    marines_firing,
    resolve_fire,
    save_made,
    to_hit_modifiers,
    trim_modifiers,
)
from galleons.record import Crew, Criticals, Moment, ShipRecord, ship_record_from_class

NOW = Moment(2, 1)
SMALL_ARMS = CombatRules(small_arms=True)
NO_ERRATA = CombatRules(small_arms=True, errata=False)
AHEAD = {n: Hex(0, -n) for n in range(0, 4)}
STARBOARD = {1: Hex(1, -1), 2: Hex(2, -2), 3: Hex(3, -3)}
ASTERN = {n: Hex(0, n) for n in range(1, 4)}
# The Aphid's gun 5 is a 5-barrel Nordenfelt ("P", ROF 5, range 1/2) on the starboard broadside.
NORDENFELT = "5"
SWEEPER = "4"  # the Swiftwood's stern tower sweeper ("P", ROF 2, range 0/1)


def ship(
    name: str, cls: str = "Swiftwood", *, at: Hex = ORIGIN, altitude: str = "M", quality: str = "trained"
) -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=0, altitude=altitude, crew_quality=quality)


def aphid(quality: str = "trained") -> ShipRecord:
    return ship("Aphid", "Aphid (original)", quality=quality)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


def with_marines(record: ShipRecord, men: int, officers: int = 0, arms: str | None = None) -> ShipRecord:
    crew: Crew = replace(record.crew, marines=men, marine_officers=officers)
    return replace(record, crew=crew, marine_arms=arms)


# --- "P" guns: small arms only --------------------------------------------------------------------------


@pytest.mark.rule("SG-SAF-01", "SG-SAF-03", "SG-SAF-04", "SG-FIRE-25")
def test_p_guns_fire_small_arms_dice_equal_to_their_rate_of_fire() -> None:
    firer, target = aphid(), ship("T", at=STARBOARD[1])
    # Basic rules: no gunfire from a "P" gun at all.
    assert fire_solution(firer, NORDENFELT, target, now=NOW).clause == "SG-FIRE-25"
    solution = fire_solution(firer, NORDENFELT, target, now=NOW, rules=SMALL_ARMS)
    assert solution.allowed
    assert solution.small_arms
    assert (solution.shots, solution.needed, solution.band) == (5, 5, "close")
    assert (solution.damage_value, solution.penetration) == (0, 0)
    assert "SG-SAF-03" in solution.clauses


@pytest.mark.rule("SG-SAF-01", "SG-SAF-10", "SG-SAF-13")
def test_small_arms_hits_kill_crew_after_saves_and_never_touch_the_ship() -> None:
    firer, target = aphid(), ship("T", at=STARBOARD[1])
    # Five hit dice: 5 and 6 hit at close range; saves 3 (lost) and 1 (saved); the officer check 2.
    dice = FixedDice(5, 6, 4, 1, 2, 3, 1, 2)
    ships, happened = fire(fleet(firer, target), "Aphid", NORDENFELT, "T", now=NOW, roller=dice, rules=SMALL_ARMS)
    hit = ships["T"]
    assert dice.left == ()
    assert target.crew_aboard - hit.crew_aboard == 1
    assert hit.crew.deckhands == target.crew.deckhands - 1
    assert (hit.hull_hits, hit.guns, hit.fire) == (0, target.guns, 0)
    # Only the officer check is marked among the criticals: no critical damage.
    assert replace(hit.criticals, officer_check_phase=None) == target.criticals
    assert not any(h["purpose"].startswith("hit location") for h in happened)
    assert happened[0]["outcome"] == "hit:2,miss:3"
    assert happened[1]["outcome"] == "saved:1,casualties:1"
    assert ships["Aphid"].gun(NORDENFELT).last_fired == NOW.turn


@pytest.mark.rule("SG-SAF-10", "SG-SAF-11")
def test_long_range_small_arms_hit_only_on_a_6() -> None:
    firer, target = aphid(), ship("T", at=STARBOARD[2])
    solution = fire_solution(firer, NORDENFELT, target, now=NOW, rules=SMALL_ARMS)
    assert (solution.band, solution.needed) == ("long", 6)
    dice = FixedDice(5, 5, 5, 5, 6, 6, 1)  # one hit; its save a 6; the officer check 1
    ships, _ = resolve_fire(fleet(firer, target), solution, now=NOW, roller=dice, rules=SMALL_ARMS)
    assert target.crew_aboard - ships["T"].crew_aboard == 1
    beyond = fire_solution(firer, NORDENFELT, ship("T", at=STARBOARD[3]), now=NOW, rules=SMALL_ARMS)
    assert beyond.clause == "SG-SAF-11"


@pytest.mark.rule("SG-SAF-02", "SG-FIRE-13")
def test_small_arms_never_fire_at_a_higher_ship() -> None:
    firer = aphid()
    higher = fire_solution(firer, NORDENFELT, ship("T", at=STARBOARD[2], altitude="H"), now=NOW, rules=SMALL_ARMS)
    assert (higher.allowed, higher.clause) == (False, "SG-SAF-02")
    lower = fire_solution(firer, NORDENFELT, ship("T", at=STARBOARD[1], altitude="L"), now=NOW, rules=SMALL_ARMS)
    assert lower.allowed
    # Lower targets add no range; the altitude limit still holds.
    assert lower.effective_range == 1
    too_low = fire_solution(firer, NORDENFELT, ship("T", at=STARBOARD[1], altitude="VL"), now=NOW, rules=SMALL_ARMS)
    assert too_low.clause == "SG-FIRE-13"


@pytest.mark.rule("SG-SAF-17", "SG-CQ-02", "SG-CQ-06", "SG-CRIT-19", "SG-FIRE-17")
def test_small_arms_hit_modifiers_are_altitude_and_fire_never_crew_quality() -> None:
    lower = ship("T", at=STARBOARD[1], altitude="L")
    for quality in ("green", "crack"):
        firer = replace(aphid(quality), fire=2)
        solution = fire_solution(firer, NORDENFELT, lower, now=NOW, rules=SMALL_ARMS)
        assert solution.modifiers == {"different altitude": -1, "burning": -1}
        # The same ship's gunfire does feel its crew quality.
        assert f"{quality} crew" in to_hit_modifiers(firer, lower)
    # A 6 less 2 misses: no saving throws are rolled.
    dice = FixedDice(6, 6, 6, 6, 6)
    burning = replace(aphid("crack"), fire=1)
    ships, happened = fire(fleet(burning, lower), "Aphid", NORDENFELT, "T", now=NOW, roller=dice, rules=SMALL_ARMS)
    assert ships["T"] == lower
    assert happened[0]["outcome"] == "hit:0,miss:5"


# --- marines --------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-MAR-01", "SG-SAF-01")
def test_marines_are_a_pseudo_gun_listed_when_aboard() -> None:
    swiftwood = ship("Firer")
    assert firing_ids(swiftwood) == ["1", "2", "3", "4", "5", MARINES]
    assert firing_ids(with_marines(swiftwood, 0)) == ["1", "2", "3", "4", "5"]
    target = ship("T", at=AHEAD[1])
    assert fire_solution(swiftwood, MARINES, target, now=NOW).clause == "SG-SAF-01"
    assert fire_solution(with_marines(swiftwood, 0), MARINES, target, now=NOW, rules=SMALL_ARMS).clause == ("SG-MAR-01")
    solution = fire_solution(swiftwood, MARINES, target, now=NOW, rules=SMALL_ARMS)
    assert solution.allowed
    assert (solution.gun_id, solution.small_arms, solution.weapon) == (MARINES, True, "musket")


@pytest.mark.rule("SG-SAF-05")
def test_british_marines_carry_rifles_martians_muskets_unless_the_record_says_otherwise() -> None:
    assert marine_arms(ship("R", "Reliant")) == "modern_rifle"
    assert marine_arms(ship("S")) == "musket"
    assert marine_arms(ship("G", "Glory Sled")) == "musket"  # High Martians
    # The Irish of Scenario 2 fly a Martian-built ship with modern rifles.
    assert marine_arms(ship("F", "Fenian Ram")) == "modern_rifle"
    assert marine_arms(replace(ship("S"), marine_arms="bow")) == "bow"


@pytest.mark.rule("SG-SAF-06", "SG-SAF-07", "SG-SAF-08", "SG-SAF-09", "SG-SAF-15")
@pytest.mark.parametrize(
    ("arms", "men", "dice"),
    [
        ("modern_rifle", 10, 5),
        ("modern_rifle", 9, 4),
        ("bow", 10, 3),
        ("bow", 8, 2),
        ("musket", 10, 3),
        ("musket", 6, 2),
        ("rifle_musket", 10, 2),
        ("rifle_musket", 7, 1),
    ],
)
def test_marines_roll_a_die_per_complete_group(arms: str, men: int, dice: int) -> None:
    firer = with_marines(ship("Firer"), men - 1, 1, arms)  # the marine officer fires with his men
    solution = fire_solution(firer, MARINES, ship("T", at=ORIGIN), now=NOW, rules=SMALL_ARMS)
    assert solution.shots == dice
    assert "SG-SAF-15" in solution.clauses


@pytest.mark.rule("SG-SAF-15")
def test_an_incomplete_group_rolls_nothing() -> None:
    firer = with_marines(ship("Firer"), 3, 0, "rifle_musket")
    refused = fire_solution(firer, MARINES, ship("T", at=ORIGIN), now=NOW, rules=SMALL_ARMS)
    assert (refused.allowed, refused.clause) == (False, "SG-SAF-15")


@pytest.mark.rule("SG-SAF-11", "SG-SAF-12", "SG-FIRE-08")
@pytest.mark.parametrize(
    ("arms", "bands"),
    [
        ("modern_rifle", ["close", "close", "long", None]),
        ("musket", ["close", "long", None, None]),
        ("rifle_musket", ["close", "close", "long", None]),
        # Bows: their own hex only; the lost long range is read as none.
        ("bow", ["close", None, None, None]),
    ],
)
def test_small_arms_ranges(arms: str, bands: list[str | None]) -> None:
    firer = with_marines(ship("Firer"), 12, 0, arms)
    found = []
    for distance in range(4):
        solution = fire_solution(firer, MARINES, ship("T", at=AHEAD[distance]), now=NOW, rules=SMALL_ARMS)
        found.append(solution.band if solution.allowed else None)
        if not solution.allowed:
            assert solution.clause == "SG-SAF-11"
    assert found == bands


@pytest.mark.rule("SG-SAF-11", "SG-FIRE-19")
def test_the_sweeper_fires_small_arms_in_its_own_hex_close_and_one_hex_long() -> None:
    firer = ship("Firer")
    close = fire_solution(firer, SWEEPER, ship("T", at=ORIGIN), now=NOW, rules=SMALL_ARMS, same_hex=("stern", "bow"))
    long = fire_solution(firer, SWEEPER, ship("T", at=ASTERN[1]), now=NOW, rules=SMALL_ARMS)
    beyond = fire_solution(firer, SWEEPER, ship("T", at=ASTERN[2]), now=NOW, rules=SMALL_ARMS)
    assert (close.band, close.needed, close.shots) == ("close", 5, 2)
    assert (long.band, long.needed) == ("long", 6)
    assert beyond.clause == "SG-SAF-11"


def test_marines_fire_into_any_aspect() -> None:
    firer = with_marines(ship("Firer"), 10, 0, "modern_rifle")
    for at in (AHEAD[2], ASTERN[2], STARBOARD[2], Hex(-2, 2)):
        assert fire_solution(firer, MARINES, ship("T", at=at), now=NOW, rules=SMALL_ARMS).allowed, at


@pytest.mark.rule("SG-SEQ-06")
def test_marines_fire_once_a_turn_and_the_record_keeps_it() -> None:
    firer, target = ship("Firer"), ship("T", at=AHEAD[1])
    dice = FixedDice(1, 1, 1)
    ships, _ = fire(fleet(firer, target), "Firer", MARINES, "T", now=NOW, roller=dice, rules=SMALL_ARMS)
    fired = ships["Firer"]
    assert fired.marines_fired == NOW.turn
    again = fire_solution(fired, MARINES, target, now=Moment(NOW.turn, 2), rules=SMALL_ARMS)
    assert (again.allowed, again.clause) == (False, "SG-SEQ-06")
    assert fire_solution(fired, MARINES, target, now=Moment(NOW.turn + 1), rules=SMALL_ARMS).allowed
    # The state survives the JSON round trip; a record that never fired its marines has no such key.
    assert ShipRecord.from_json(fired.to_json()) == fired
    assert fired.to_json()["marines_fired"] == NOW.turn
    assert "marines_fired" not in firer.to_json()
    assert "marine_arms" not in firer.to_json()
    armed = replace(firer, marine_arms="bow")
    assert ShipRecord.from_json(armed.to_json()) == armed


def test_unknown_marine_arms_are_refused_by_the_record() -> None:
    data = replace(ship("Firer"), marine_arms="bow").to_json()
    data["marine_arms"] = "halberd"
    with pytest.raises(ValueError, match="halberd"):
        ShipRecord.from_json(data)
    # An optional key is left out, never null, so every record read writes back the same JSON.
    data["marine_arms"] = None
    with pytest.raises(ValueError, match="rather than write null"):
        ShipRecord.from_json(data)


@pytest.mark.rule("SG-CRIT-48", "SG-CRIT-37")
def test_a_stunned_crew_fires_no_small_arms() -> None:
    stunned = replace(ship("Firer"), criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index + 1))
    target = ship("T", at=AHEAD[1])
    assert fire_solution(stunned, MARINES, target, now=NOW, rules=SMALL_ARMS).clause == "SG-CRIT-48"
    assert fire_solution(stunned, SWEEPER, ship("T", at=ASTERN[1]), now=NOW, rules=SMALL_ARMS).clause == ("SG-CRIT-37")


@pytest.mark.rule("SG-CG-16")
def test_marines_with_shotguns_make_no_small_arms_fire() -> None:
    firer = replace(ship("Firer"), marine_arms="shotgun")
    refused = fire_solution(firer, MARINES, ship("T", at=AHEAD[1]), now=NOW, rules=SMALL_ARMS)
    assert (refused.allowed, refused.clause) == (False, "SG-CG-16")


@pytest.mark.rule("SG-ERR-03")
def test_with_the_errata_at_most_five_marines_per_hull_size_fight() -> None:
    crowded = with_marines(ship("Firer"), 20, 1, "musket")  # hull size 3: 15 fight
    assert marines_firing(crowded, SMALL_ARMS) == 15
    assert marines_firing(crowded, NO_ERRATA) == 21
    target = ship("T", at=AHEAD[1])
    assert fire_solution(crowded, MARINES, target, now=NOW, rules=SMALL_ARMS).shots == 5
    assert fire_solution(crowded, MARINES, target, now=NOW, rules=NO_ERRATA).shots == 7


# --- saving throws --------------------------------------------------------------------------------------


@pytest.mark.rule("SG-SAF-13", "SG-SAF-14", "SG-SAF-16", "SG-CQ-01", "SG-CQ-05")
@pytest.mark.parametrize(
    ("quality", "arms", "modifiers", "saved_faces"),
    [
        ("trained", "musket", {}, [1, 2]),
        ("green", "musket", {"green firers": -1}, [1, 2, 3]),
        ("crack", "musket", {"crack firers": 1}, [1]),
        ("trained", "bow", {"bowmen": -1}, [1, 2, 3]),
        ("green", "bow", {"bowmen": -1, "green firers": -1}, [1, 2, 3, 4]),
    ],
)
def test_saving_throws_go_by_the_firing_troops(
    quality: str, arms: str, modifiers: dict[str, int], saved_faces: list[int]
) -> None:
    firer = replace(ship("Firer", quality=quality), marine_arms=arms)
    target = ship("T", at=ORIGIN)  # armor 0
    solution = fire_solution(firer, MARINES, target, now=NOW, rules=SMALL_ARMS)
    assert dict(solution.save_modifiers) == modifiers
    assert solution.save_number == 2
    # Behaviour: three hits, then saves rolled with the faces 1..6 in turn tell which are saved.
    for face in range(1, 7):
        dice = FixedDice(6, 6, 6, face, 6, 6, 1)  # 3 hits; saves face, 6, 6; officer check 1
        ships, happened = resolve_fire(fleet(firer, target), solution, now=NOW, roller=dice, rules=SMALL_ARMS)
        lost = target.crew_aboard - ships["T"].crew_aboard
        assert lost == (2 if face in saved_faces else 3), face
        assert happened[1]["modifiers"] == modifiers


@pytest.mark.rule("SG-ERR-10", "SG-ERR-11")
def test_errata_armor_adds_to_the_save_and_a_6_never_saves() -> None:
    firer = aphid()
    armored = replace(ship("T", at=STARBOARD[1]), armor=2)
    with_errata = fire_solution(firer, NORDENFELT, armored, now=NOW, rules=SMALL_ARMS)
    without = fire_solution(firer, NORDENFELT, armored, now=NOW, rules=NO_ERRATA)
    assert (with_errata.save_number, without.save_number) == (4, 2)
    assert save_made(4, 0, 4, SMALL_ARMS)
    assert not save_made(4, 0, 2, NO_ERRATA)
    # A natural 6 never saves, however good the save number.
    assert not save_made(6, -1, 6, SMALL_ARMS)
    assert save_made(6, -1, 6, NO_ERRATA)
    # In play: one hit, the save die a 4 against armor 2: saved with the errata, lost without.
    for rules, lost in ((SMALL_ARMS, 0), (NO_ERRATA, 1)):
        solution = fire_solution(firer, NORDENFELT, armored, now=NOW, rules=rules)
        dice = FixedDice(6, 1, 1, 1, 1, 4, *([1] if lost else []))
        ships, _ = resolve_fire(fleet(firer, armored), solution, now=NOW, roller=dice, rules=rules)
        assert armored.crew_aboard - ships["T"].crew_aboard == lost
        assert dice.left == ()


@pytest.mark.rule("SG-DMG-18", "SG-DMG-19")
def test_small_arms_casualties_go_by_the_casualty_order_and_roll_the_officer_check() -> None:
    firer = with_marines(ship("Firer"), 12, 0, "modern_rifle")  # 6 dice
    target = replace(ship("T", at=AHEAD[1]), casualty_order=("marines",))
    dice = FixedDice(6, 6, 6, 1, 1, 1, 3, 3, 3, 6)  # 3 hits, none saved; officer check 6
    ships, happened = fire(fleet(firer, target), "Firer", MARINES, "T", now=NOW, roller=dice, rules=SMALL_ARMS)
    hit = ships["T"]
    assert dice.left == ()
    # The officer check came up 6: the first man lost is the marine officer, then two marines.
    assert (hit.crew.marine_officers, hit.crew.marines) == (0, target.crew.marines - 2)
    assert happened[-1]["clauses"] == ["SG-DMG-18"]


@pytest.mark.rule("SG-CQ-01")
def test_a_trained_crew_is_the_baseline() -> None:
    trained = ship("Firer")
    target = ship("T", at=AHEAD[1])
    assert to_hit_modifiers(trained, target) == {}
    assert fire_solution(trained, MARINES, target, now=NOW, rules=SMALL_ARMS).save_modifiers == {}
    assert trim_modifiers(trained) == {}
    assert trim_modifiers(replace(trained, crew_quality="green")) == {"green crew": -1}
