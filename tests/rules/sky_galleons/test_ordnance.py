"""Exotic ordnance (battles/rules/sky_galleons/ordnance.py): Hale rockets, liquid fire, spike droppers, bombs,
tether mines, drogue torpedoes, Smutts torpedoes, the power grapnel, bombardment and ground batteries.

Flat-top axial hexes around a ship at (0, 0) facing north (direction 0). The hit location die: 1-2 Hull,
3-4 Crew, 5 Gun, 6 Critical; the first crew casualty of a movement phase rolls the officer check (1: none).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons import ordnance
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FireRefused,
    FixedDice,
    Shot,
    apply_critical,
    apply_hit,
    fire,
    fire_solution,
    resolve_fire,
)
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.ordnance import (
    BOMB_RACK,
    DROGUE,
    LIQUID_FIRE,
    SPIKES,
    OrdnanceError,
    Torpedo,
)
from galleons.design import parse_design, rate_design
from galleons.record import (
    Moment,
    ShipRecord,
    assign_gun_crew,
    build_ordnance,
    ordnance_tables,
    ship_record_from_class,
    ship_record_from_design,
)

NOW = Moment(2, 1)
NO_ERRATA = CombatRules(errata=False)
AHEAD = {n: Hex(0, -n) for n in range(0, 7)}
PORT = {n: Hex(-n, 0) for n in range(1, 6)}
STARBOARD = {1: Hex(1, -1), 2: Hex(2, -2)}
HULL, CREW, GUN, CRITICAL = 1, 3, 5, 6
NO_OFFICER, RECOVERS = 1, 6  # the officer check's miss; a natural 6 recovers trim
MAP = Terrain(cols=40, rows=40)


def ship(name: str, cls: str = "Sky Runner", *, at: Hex = ORIGIN, altitude: str = "M", facing: int = 0) -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=facing, altitude=altitude)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


def states(record: ShipRecord, *weapons: str) -> list[str]:
    return [item.state for item in record.items_of(*weapons)]


def carrying(record: ShipRecord, *exotics: tuple[str, int]) -> ShipRecord:
    return replace(record, ordnance=build_ordnance(list(exotics)))


# --- the record keeps its ordnance ----------------------------------------------------------------------


@pytest.mark.rule("SG-HALE-07", "SG-SMT-09", "SG-CG-32", "SG-CG-83", "SG-CLS-02")
def test_records_built_from_the_catalog_keep_their_exotic_ordnance() -> None:
    triumph = ship("Triumph", "Triumph")
    assert [g.weapon_id for g in triumph.guns if ordnance.is_discharger(g)] == ["smutts_discharger"]
    assert states(triumph, "smutts_torpedo") == ["stowed"] * 6
    assert [(i.id, i.aspect, i.angle) for i in triumph.items_of("hale_rockets")] == [
        ("H1", "port", "down"),
        ("H2", "starboard", "down"),
        ("H3", "port", "up"),
        ("H4", "starboard", "up"),
    ]
    whisperdeath = ship("W", "Whisperdeath")
    assert states(whisperdeath, LIQUID_FIRE) == ["loaded", "loaded"]
    assert states(whisperdeath, DROGUE) == ["raised", "raised"]  # aboard and harmless until lowered
    assert states(ship("S", "Skyfire"), "tether_mine_martian") == ["lowered"] * 3
    assert states(ship("G", "Gloire"), "tether_mine_british") == ["lowered"] * 4
    # The Eagle's sixteen batteries: twelve down and four up, half to each broadside.
    eagle = ship("E", "Eagle")
    layout = Counter((b.aspect, b.angle) for b in eagle.items_of("hale_rockets"))
    assert layout == {("port", "down"): 6, ("starboard", "down"): 6, ("port", "up"): 2, ("starboard", "up"): 2}
    # Its four loads: one in each rack, two spare.
    assert states(eagle, BOMB_RACK) == ["loaded", "loaded"]
    assert states(eagle, "bomb_load") == ["spare", "spare"]
    # A ship without exotics carries none and writes none.
    runner = ship("R")
    assert runner.ordnance == ()
    assert "ordnance" not in runner.to_json()


@pytest.mark.rule("SG-CG-83")
def test_records_built_from_a_design_keep_their_exotics() -> None:
    data: dict[str, Any] = {
        "yard": "british",
        "hull": "steel",
        "hull_size": 4,
        "ram": False,
        "armor": 0,
        "propulsion": {"type": "steam", "engine_size": 4, "forced_draught": False, "bunker_size": 8},
        "weapons": [{"weapon": "Smutts Discharger", "mount": "fixed bow"}],
        "exotics": [
            {"weapon": "Hale Rockets", "count": 2},
            {"weapon": "Smutts Torpedo", "count": 2},
            {"weapon": "Bomb Rack", "count": 1},
        ],
    }
    record = ship_record_from_design(data, name="Test")
    assert [i.id for i in record.ordnance] == ["H1", "H2", "B1", "T1", "T2"]
    assert states(record, BOMB_RACK) == ["empty"]  # no load bought for it


def test_ordnance_round_trips_through_json_and_refuses_nonsense() -> None:
    record = ship("Triumph", "Triumph")
    record = record.with_items(replace(record.item("H2"), state="fired", since=3))
    data = json.loads(json.dumps(record.to_json()))
    assert data["ordnance"][1] == {
        "id": "H2",
        "weapon": "hale_rockets",
        "state": "fired",
        "aspect": "starboard",
        "angle": "down",
        "since": 3,
    }
    again = ShipRecord.from_json(data)
    assert again == record
    assert again.to_json() == data
    for bad, message in (
        ({"ordnance": []}, "leave out"),
        ({"ordnance": [{"id": "T1", "weapon": "smutts_torpedo", "state": "raised"}]}, "state"),
        ({"ordnance": [{"id": "H1", "weapon": "hale_rockets", "state": "loaded"}]}, "aspect and an angle"),
        ({"ordnance": [{"id": "1", "weapon": "smutts_torpedo", "state": "stowed"}]}, "not a gun's id"),
        ({"emplacement": "castle"}, "emplacement"),
    ):
        with pytest.raises(ValueError, match=message):
            ShipRecord.from_json(dict(data, **bad))


# --- Hale rocket batteries ----------------------------------------------------------------------------------


def locust(altitude: str = "M") -> ShipRecord:
    """The Locust: one Hale battery, H1, facing port and angled down; two deckhands."""
    return ship("L", "Locust", altitude=altitude)


@pytest.mark.rule("SG-HALE-02", "SG-HALE-03", "SG-HALE-04", "SG-CG-58", "SG-CG-59")
def test_a_battery_fires_only_into_its_aspect_and_angle_within_the_levels_between() -> None:
    firer = locust()
    assert ordnance.rocket_solution(firer, "H1", ship("T", at=PORT[2], altitude="VL"), now=NOW).allowed
    # Two hexes away needs two levels: one is not enough.
    assert ordnance.rocket_solution(firer, "H1", ship("T", at=PORT[2], altitude="L"), now=NOW).clause == "SG-HALE-03"
    # Angled down: never at the same altitude or above.
    for altitude in ("M", "H"):
        refused = ordnance.rocket_solution(firer, "H1", ship("T", at=PORT[1], altitude=altitude), now=NOW)
        assert refused.clause == "SG-HALE-02", altitude
    # Faced to port: not into the starboard aspect.
    starboard = ship("T", at=STARBOARD[2], altitude="VL")
    assert ordnance.rocket_solution(firer, "H1", starboard, now=NOW).clause == "SG-HALE-02"
    # Aimed up instead, it engages a higher ship and no longer a lower one.
    up = ordnance.aim_battery(firer, "H1", "port", "up")
    assert ordnance.rocket_solution(up, "H1", ship("T", at=PORT[1], altitude="H"), now=NOW).allowed
    assert ordnance.rocket_solution(up, "H1", ship("T", at=PORT[1], altitude="L"), now=NOW).clause == "SG-HALE-02"


@pytest.mark.rule("SG-HALE-05", "SG-CG-60")
def test_rockets_reach_four_hexes_and_height_does_not_add_to_the_range() -> None:
    high = locust("VH")
    on_the_ground = ship("T", at=PORT[4], altitude="G")
    assert ordnance.rocket_solution(high, "H1", on_the_ground, now=NOW).allowed
    farther = ship("T", at=PORT[5], altitude="G")  # five levels below, but five hexes away
    assert ordnance.rocket_solution(high, "H1", farther, now=NOW).clause == "SG-HALE-05"
    # Four hexes and four levels up: a gun would count range 8; rockets count 4.
    low = ordnance.aim_battery(locust("VL"), "H1", "port", "up")
    assert ordnance.rocket_solution(low, "H1", ship("T", at=PORT[4], altitude="VH"), now=NOW).allowed


@pytest.mark.rule("SG-HALE-06", "SG-CG-61")
def test_rockets_fire_into_their_own_hex_whatever_the_aspect() -> None:
    below = ship("T", altitude="VL")
    # Declared in the starboard aspect, away from the battery's port facing: still allowed.
    assert ordnance.rocket_solution(locust(), "H1", below, now=NOW, same_hex=("starboard", "port")).allowed
    level = ship("T", altitude="M")
    assert ordnance.rocket_solution(locust(), "H1", level, now=NOW).clause == "SG-HALE-02"


@pytest.mark.rule("SG-HALE-01", "SG-HALE-08", "SG-HALE-09", "SG-CG-62", "SG-CG-63", "SG-CG-94")
def test_a_salvo_hits_with_the_die_and_empties_the_battery() -> None:
    firer, target = locust(), ship("T", at=PORT[1], altitude="L")
    solution = ordnance.rocket_solution(firer, "H1", target, now=NOW)
    # Three rockets hit: two Hull (DV 1 each against armor 0) and a Crew hit (half of 1, rounded up).
    ships, happened = ordnance.fire_rockets(
        fleet(firer, target), solution, now=NOW, roller=FixedDice(3, HULL, HULL, CREW, NO_OFFICER)
    )
    assert ships["T"].hull_hits == 2
    assert ships["T"].crew_aboard == target.crew_aboard - 1
    assert states(ships["L"], "hale_rockets") == ["fired"]
    assert "3 hits" in [h["outcome"] for h in happened]
    # Fired, it is empty for the rest of the battle.
    assert ordnance.rocket_solution(ships["L"], "H1", target, now=Moment(5)).clause == "SG-HALE-09"
    # A deckhand fires each battery: none free, none fired; two batteries need two.
    idle = replace(firer, crew=replace(firer.crew, deckhands=0))
    assert ordnance.rocket_solution(idle, "H1", target, now=NOW).clause == "SG-HALE-09"
    assert ordnance.rocket_crew_problem(firer, 2) is None
    assert ordnance.rocket_crew_problem(firer, 3) is not None
    with pytest.raises(FireRefused):
        ordnance.fire_rockets(
            fleet(idle, target), ordnance.rocket_solution(idle, "H1", target, now=NOW), now=NOW, roller=FixedDice()
        )


@pytest.mark.rule("SG-HALE-10", "SG-CG-64")
def test_all_the_hale_batteries_are_one_gun_for_a_gun_hit_which_destroys_one() -> None:
    reliant = ship("R", "Reliant")  # six batteries; five guns bear to port
    assert ordnance.gun_hit_targets(reliant) == ["ordnance:hale_rockets"]
    dice = FixedDice(GUN, 6, 2, NO_OFFICER)  # the sixth of six bearing is the batteries; the second battery
    hit, _ = apply_hit(reliant, Shot(2, penetration=10, incoming=("port",)), now=NOW, roller=dice)
    assert dice.calls[1][2] == 6
    assert states(hit, "hale_rockets") == ["loaded", "destroyed", "loaded", "loaded", "loaded", "loaded"]
    assert hit.crew_aboard == reliant.crew_aboard - 1  # the damage point past the first
    assert all(g == h for g, h in zip(reliant.guns, hit.guns, strict=True))


@pytest.mark.rule("SG-HALE-11", "SG-CG-65")
def test_a_magazine_hit_on_the_rockets_sets_one_battery_off_aboard() -> None:
    firer = locust()
    # Six guns with a magazine and the battery: the seventh goes up, and two of its rockets strike home.
    dice = FixedDice(7, 2, HULL, HULL)
    hit, _ = apply_critical(firer, "magazine", Shot(4, penetration=10), now=NOW, roller=dice)
    assert dice.calls[0][2] == 7
    assert states(hit, "hale_rockets") == ["detonated"]
    assert hit.hull_hits == 2  # from inside: the armor does not halve them
    # A fired battery is empty: nothing to explode.
    fired = firer.with_items(replace(firer.item("H1"), state="fired"))
    assert ordnance.magazine_targets(fired) == []


# --- liquid fire and spike droppers -------------------------------------------------------------------------


def whisperdeath(altitude: str = "H") -> ShipRecord:
    """Two liquid fire racks (F1, F2) and two drogues (D1, D2)."""
    return ship("W", "Whisperdeath", altitude=altitude)


@pytest.mark.rule("SG-LF-01", "SG-LF-02", "SG-LF-03", "SG-LF-05", "SG-CG-66", "SG-CG-67", "SG-CG-69")
def test_liquid_fire_starts_a_fire_of_the_die_less_the_levels_between() -> None:
    dropper, target = whisperdeath(), ship("T", altitude="L")  # two levels below
    solution = ordnance.drop_solution(dropper, target, LIQUID_FIRE)
    assert (solution.allowed, solution.levels, solution.items) == (True, 2, ("F1",))
    ships, _ = ordnance.drop(fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(5))
    assert ships["T"].fire == 3
    assert states(ships["W"], LIQUID_FIRE) == ["dropped", "loaded"]
    ships, _ = ordnance.drop(fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(2))
    assert ships["T"].fire == 0  # 2 - 2: no effect
    # Only on a lower ship in the dropper's own hex.
    assert ordnance.drop_solution(dropper, ship("T", at=AHEAD[1], altitude="L"), LIQUID_FIRE).clause == "SG-LF-01"
    assert ordnance.drop_solution(whisperdeath("L"), ship("T", altitude="H"), LIQUID_FIRE).clause == "SG-LF-01"


@pytest.mark.rule("SG-LF-04", "SG-CG-68")
def test_leaving_across_the_hexside_the_target_faces_adds_one() -> None:
    dropper, target = whisperdeath(), ship("T", altitude="L", facing=2)
    solution = ordnance.drop_solution(dropper, target, LIQUID_FIRE)
    ships, _ = ordnance.drop(fleet(dropper, target), solution, exits_across=2, now=NOW, roller=FixedDice(3))
    assert ships["T"].fire == 2
    ships, _ = ordnance.drop(fleet(dropper, target), solution, exits_across=5, now=NOW, roller=FixedDice(3))
    assert ships["T"].fire == 1


@pytest.mark.rule("SG-LF-06", "SG-CG-70")
def test_each_rack_is_used_once_and_the_bridge_alone_releases_it() -> None:
    dropper = whisperdeath()
    nobody = replace(dropper.crew, captain=0, officers=0, helmsman=0, trimsman=0, signalman=0, deckhands=0)
    dropper = replace(dropper, crew=nobody)
    target = ship("T", altitude="L")
    both = ordnance.drop_solution(dropper, target, LIQUID_FIRE, count=2)
    ships, _ = ordnance.drop(fleet(dropper, target), both, exits_across=None, now=NOW, roller=FixedDice(4, 6))
    assert ships["T"].fire == 6  # each rack rolls alone: 2 + 4
    assert ordnance.drop_solution(ships["W"], target, LIQUID_FIRE).clause == "SG-LF-06"
    assert ordnance.drop_solution(dropper, target, LIQUID_FIRE, count=3).clause == "SG-LF-06"


@pytest.mark.rule("SG-LF-07", "SG-LF-08", "SG-CG-71")
def test_liquid_fire_racks_are_one_gun_and_a_magazine_hit_on_one_starts_a_fire() -> None:
    dropper = whisperdeath()
    assert ordnance.gun_hit_targets(dropper) == ["ordnance:liquid_fire_rack"]
    # Five guns with magazines, then the racks, then the drogues aboard: the sixth; the second rack; 1d6 = 4.
    dice = FixedDice(6, 2, 4)
    hit, _ = apply_critical(dropper, "magazine", Shot(4, penetration=10), now=NOW, roller=dice)
    assert dice.calls[0][2] == 7
    assert states(hit, LIQUID_FIRE) == ["loaded", "detonated"]
    assert hit.fire == 4


@pytest.mark.rule("SG-CG-72", "SG-CG-73", "SG-ERR-21", "SG-ERR-22")
def test_spike_droppers_fall_like_liquid_fire_and_kill_crew() -> None:
    dropper = carrying(whisperdeath(), (SPIKES, 2))
    target = ship("T", altitude="L")
    solution = ordnance.drop_solution(dropper, target, SPIKES)
    ships, _ = ordnance.drop(fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(5, 1))
    assert ships["T"].crew_aboard == target.crew_aboard - 3
    assert ships["T"].fire == 0
    assert states(ships["W"], SPIKES) == ["dropped", "loaded"]
    assert ordnance.drop_solution(ships["W"], target, SPIKES, count=2).clause == "SG-CG-73"


@pytest.mark.rule("SG-CG-74", "SG-ERR-23")
def test_each_spike_hopper_counts_as_a_gun_for_hit_location() -> None:
    dropper = carrying(whisperdeath(), (SPIKES, 2))
    assert ordnance.gun_hit_targets(dropper) == ["ordnance:S1", "ordnance:S2"]
    dice = FixedDice(GUN, 5)  # three guns bear on the bow, then the two hoppers: the fifth
    hit, _ = apply_hit(dropper, Shot(1, incoming=("bow",)), now=NOW, roller=dice)
    assert dice.calls[1][2] == 5
    assert states(hit, SPIKES) == ["loaded", "destroyed"]


# --- bombs ---------------------------------------------------------------------------------------------------


def czarina(altitude: str = "H") -> ShipRecord:
    """One bomb rack, loaded (B1), six spare loads (L1-L6), four deckhands."""
    return ship("C", "Czarina", altitude=altitude)


@pytest.mark.rule("SG-CG-76", "SG-ERR-20")
def test_a_rack_scores_a_die_less_the_levels_in_bomb_hits() -> None:
    dropper, target = czarina(), ship("T", altitude="L")
    solution = ordnance.drop_solution(dropper, target, BOMB_RACK)
    # 5 - 2 = 3 hits, each Pen 1 / DV 2: three Hull hits of two boxes on the unarmored galley.
    ships, _ = ordnance.drop(
        fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(5, HULL, HULL, 2)
    )
    assert ships["T"].hull_hits == 6
    assert states(ships["C"], BOMB_RACK) == ["empty"]
    # No +1 for leaving across the bow: 3 - 2 = 1 hit even so.
    solution = ordnance.drop_solution(dropper, replace(target, facing=1), BOMB_RACK)
    ships, _ = ordnance.drop(
        fleet(dropper, replace(target, facing=1)), solution, exits_across=1, now=NOW, roller=FixedDice(3, HULL)
    )
    assert ships["T"].hull_hits == 2


@pytest.mark.rule("SG-CG-75", "SG-ERR-18", "SG-ERR-19")
def test_bombs_fall_on_moving_ships_only_under_the_errata_less_their_movement() -> None:
    dropper, target = czarina(), ship("T", altitude="L")
    moving = ordnance.drop_solution(dropper, target, BOMB_RACK, target_mp=2)
    assert (moving.allowed, moving.target_mp) == (True, 2)
    ships, _ = ordnance.drop(fleet(dropper, target), moving, exits_across=None, now=NOW, roller=FixedDice(4))
    assert ships["T"] == target  # 4 - 2 levels - 2 MP: no hit
    assert ordnance.drop_solution(dropper, target, BOMB_RACK, target_mp=2, rules=NO_ERRATA).clause == "SG-CG-75"
    assert ordnance.drop_solution(dropper, target, BOMB_RACK, target_mp=0, rules=NO_ERRATA).allowed


@pytest.mark.rule("SG-CG-77")
def test_four_deckhands_reload_an_empty_rack_from_a_spare_load_in_five_turns() -> None:
    dropper = czarina()
    empty = dropper.with_items(replace(dropper.item("B1"), state="empty"))
    with pytest.raises(OrdnanceError, match="not empty"):
        ordnance.start_bomb_reload(dropper, "B1", now=Moment(3))
    short = replace(empty, crew=replace(empty.crew, deckhands=3))
    with pytest.raises(OrdnanceError, match="free deckhands"):
        ordnance.start_bomb_reload(short, "B1", now=Moment(3))
    record, _ = ordnance.start_bomb_reload(empty, "B1", now=Moment(3))
    assert states(record, BOMB_RACK) == ["reloading"]
    assert states(record, "bomb_load")[:2] == ["used", "spare"]
    assert ordnance.free_deckhands(record) == 0
    for turn in (4, 5, 6, 7):
        record, _ = ordnance.advance_reloads(record, now=Moment(turn))
        assert states(record, BOMB_RACK) == ["reloading"], turn
    record, _ = ordnance.advance_reloads(record, now=Moment(8))
    assert states(record, BOMB_RACK) == ["loaded"]
    assert ordnance.drop_solution(record, ship("T", altitude="L"), BOMB_RACK).allowed
    # A turn begun with too few deckhands does not count.
    stalled, _ = ordnance.start_bomb_reload(empty, "B1", now=Moment(3))
    stalled = replace(stalled, crew=replace(stalled.crew, deckhands=3))
    stalled, _ = ordnance.advance_reloads(stalled, now=Moment(4))
    stalled = replace(stalled, crew=replace(stalled.crew, deckhands=4))
    for turn in (5, 6, 7, 8):
        stalled, _ = ordnance.advance_reloads(stalled, now=Moment(turn))
    assert states(stalled, BOMB_RACK) == ["reloading"]
    stalled, _ = ordnance.advance_reloads(stalled, now=Moment(9))
    assert states(stalled, BOMB_RACK) == ["loaded"]
    # No spare load left: no reload.
    bare = empty.with_items(*(replace(i, state="used") for i in empty.items_of("bomb_load")))
    with pytest.raises(OrdnanceError, match="spare"):
        ordnance.start_bomb_reload(bare, "B1", now=Moment(3))


@pytest.mark.rule("SG-ERR-17")
def test_a_drogue_may_be_dropped_as_a_bomb_under_the_errata() -> None:
    dropper, target = whisperdeath(), ship("T", altitude="L")
    solution = ordnance.drop_solution(dropper, target, DROGUE)
    # 3 - 2 = 1: one hit at the drogue's DV 10, a Crew hit of five men.
    ships, _ = ordnance.drop(
        fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(3, CREW, NO_OFFICER)
    )
    assert ships["T"].crew_aboard == target.crew_aboard - 5
    assert states(ships["W"], DROGUE) == ["released", "raised"]
    # 6 - 2 = 4 is still one hit.
    ships, _ = ordnance.drop(
        fleet(dropper, target), solution, exits_across=None, now=NOW, roller=FixedDice(6, CREW, NO_OFFICER)
    )
    assert ships["T"].crew_aboard == target.crew_aboard - 5
    assert ordnance.drop_solution(dropper, target, DROGUE, rules=NO_ERRATA).clause == "SG-ERR-17"


# --- tether mines ---------------------------------------------------------------------------------------------


def skyfire(altitude: str = "L", at: Hex = ORIGIN, *, raised: bool = True) -> ShipRecord:
    """Three Martian tether mines (M1-M3), raised or lowered."""
    record, _ = ordnance.declare_mines(ship("S", "Skyfire", at=at, altitude=altitude), raised, now=NOW)
    return record


@pytest.mark.rule("SG-TM-03", "SG-TM-04", "SG-TM-05", "SG-CG-34", "SG-CG-35", "SG-CG-36")
def test_raised_mines_slow_the_ship_and_stop_it_avoiding_until_cut_loose() -> None:
    raised = skyfire()
    assert states(raised, "tether_mine_martian") == ["raised"] * 3
    limits = ordnance.movement_limits(raised)
    assert (limits.max_hexes, limits.may_avoid, limits.allowance_lost) == (3, False, 0)
    assert ordnance.may_avoid(raised, now=NOW) == (False, "SG-TM-04")
    lowered = skyfire(raised=False)
    assert ordnance.movement_limits(lowered) == ordnance.Limits()
    cut, _ = ordnance.cut_mines(fleet(raised), "S", now=NOW, roller=FixedDice())
    assert states(cut["S"], "tether_mine_martian") == ["cut"] * 3
    assert ordnance.movement_limits(cut["S"]).may_avoid
    with pytest.raises(OrdnanceError):
        ordnance.cut_mines(cut, "S", now=NOW, roller=FixedDice())
    with pytest.raises(OrdnanceError):
        ordnance.declare_mines(cut["S"], True, now=NOW)  # lost with the cut
    with pytest.raises(OrdnanceError):
        ordnance.declare_mines(ship("R"), True, now=NOW)


@pytest.mark.rule(
    "SG-TM-01", "SG-TM-02", "SG-TM-06", "SG-TM-07", "SG-TM-11", "SG-CG-37", "SG-CG-38", "SG-CG-42", "SG-ERR-14"
)
def test_arriving_at_raised_mines_sets_them_off_for_certain() -> None:
    owner = skyfire("L")  # mines at Medium, a level above
    before = ship("R", at=AHEAD[1], altitude="M")
    after = replace(before, position=ORIGIN)
    contacts = ordnance.device_contacts(fleet(owner, after), "R", before, after)
    assert [(c.victim, c.owner, c.sure) for c in contacts] == [("R", "S", True)]
    # With the errata all three go off as one hit of DV 12: a Crew hit of six, then a loss of trim.
    ships, _, struck = ordnance.spring_devices(
        fleet(owner, after), contacts, now=NOW, roller=FixedDice(CREW, NO_OFFICER, RECOVERS)
    )
    assert struck == ["R"]
    assert ships["R"].crew_aboard == after.crew_aboard - 6
    assert ships["R"].stunned(Moment(2, 2))
    assert states(ships["S"], "tether_mine_martian") == ["detonated"] * 3
    # Without it one Martian mine of DV 4 goes off; the others stay raised.
    ships, _, _ = ordnance.spring_devices(
        fleet(owner, after), contacts, now=NOW, roller=FixedDice(CREW, NO_OFFICER, RECOVERS), rules=NO_ERRATA
    )
    assert ships["R"].crew_aboard == after.crew_aboard - 2
    assert states(ships["S"], "tether_mine_martian") == ["detonated", "raised", "raised"]
    # A British mine is DV 6.
    gloire, _ = ordnance.declare_mines(ship("G", "Gloire", altitude="L"), True, now=NOW)
    contacts = ordnance.device_contacts(fleet(gloire, after), "R", before, after)
    ships, _, _ = ordnance.spring_devices(
        fleet(gloire, after), contacts, now=NOW, roller=FixedDice(CREW, NO_OFFICER, RECOVERS), rules=NO_ERRATA
    )
    assert ships["R"].crew_aboard == after.crew_aboard - 3
    # Dropping into them in the hex is certain too; entering at the owner's own altitude is not a mine contact.
    above = ship("R", altitude="H")
    assert ordnance.device_contacts(fleet(owner), "R", above, replace(above, altitude="M"))[0].sure
    level = ship("R", at=AHEAD[1], altitude="L")
    assert ordnance.device_contacts(fleet(owner), "R", level, replace(level, position=ORIGIN)) == []


@pytest.mark.rule("SG-TM-08", "SG-CG-39")
def test_mines_brought_onto_a_ship_go_off_only_on_a_6() -> None:
    victim = ship("R", altitude="M")
    before = skyfire("L", AHEAD[1])
    after = replace(before, position=ORIGIN)
    contacts = ordnance.device_contacts(fleet(before, victim), "S", before, after)
    assert [(c.victim, c.sure, c.on) for c in contacts] == [("R", False, 6)]
    ships, _, struck = ordnance.spring_devices(fleet(after, victim), contacts, now=NOW, roller=FixedDice(5))
    assert (struck, ships["R"]) == ([], victim)
    ships, _, struck = ordnance.spring_devices(
        fleet(after, victim), contacts, now=NOW, roller=FixedDice(6, CREW, NO_OFFICER, RECOVERS)
    )
    assert struck == ["R"]
    # Climbing under a ship so that the mines reach it counts the same.
    low = skyfire("VL")
    climbed = replace(low, altitude="L")
    assert [c.on for c in ordnance.device_contacts(fleet(low, victim), "S", low, climbed)] == [6]


@pytest.mark.rule("SG-TM-09", "SG-CG-40")
def test_a_ship_that_starts_at_the_mines_leaves_freely() -> None:
    owner = skyfire("L")
    there = ship("R", altitude="M")  # at the mines' altitude in their hex
    leaving = replace(there, position=AHEAD[1])
    assert ordnance.device_contacts(fleet(owner, there), "R", there, leaving) == []
    turning = replace(owner, facing=1)
    assert ordnance.device_contacts(fleet(owner, there), "S", owner, turning) == []


@pytest.mark.rule("SG-TM-10", "SG-CG-41", "SG-ERR-15")
def test_cut_mines_each_roll_a_6_against_every_ship_above_the_owner() -> None:
    owner = skyfire("L")
    high, higher, low = ship("A", altitude="H"), ship("B", altitude="VH"), ship("C", altitude="VL")
    dice = FixedDice(6, CREW, NO_OFFICER, RECOVERS, 1, 1, 1, 6, CREW, NO_OFFICER, RECOVERS)
    ships, _ = ordnance.cut_mines(fleet(owner, high, higher, low), "S", now=NOW, roller=dice)
    assert states(ships["S"], "tether_mine_martian") == ["detonated", "cut", "detonated"]
    assert ships["A"].crew_aboard == high.crew_aboard - 2  # one mine, DV 4, whatever the errata
    assert ships["B"].crew_aboard == higher.crew_aboard - 2
    assert ships["C"] == low
    tried = [p.split(" against ")[1] for p in dice.purposes if p.startswith("S's released mine")]
    assert tried == ["A", "A", "B", "A", "B"]


@pytest.mark.rule("SG-TM-12", "SG-CG-43")
def test_mines_aboard_go_up_only_with_a_magazine_hit_each_on_its_own() -> None:
    lowered = skyfire(raised=False)
    assert ordnance.gun_hit_targets(lowered) == []
    assert ordnance.magazine_targets(lowered) == ["ordnance:tether_mine"]
    assert ordnance.magazine_targets(skyfire()) == []  # raised mines are not aboard
    # Fourteen guns with magazines, then the mines: each of the three a Hull hit of DV 4 from inside.
    dice = FixedDice(15, HULL, HULL, HULL)
    hit, _ = apply_critical(lowered, "magazine", Shot(4, penetration=10), now=NOW, roller=dice)
    assert dice.calls[0][2] == 15
    assert hit.hull_hits == 12
    assert states(hit, "tether_mine_martian") == ["detonated"] * 3


# --- drogue torpedoes -----------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DT-02", "SG-DT-03", "SG-DT-04", "SG-CG-44", "SG-CG-45")
def test_a_lowered_drogue_costs_a_movement_point_and_hangs_a_level_below() -> None:
    owner, _ = ordnance.declare_drogues(whisperdeath("H"), True, now=NOW)
    assert states(owner, DROGUE) == ["lowered", "lowered"]
    assert ordnance.movement_limits(owner) == ordnance.Limits(None, 1, True, ("SG-DT-03", "SG-CG-45"))
    raised, _ = ordnance.declare_drogues(owner, False, now=NOW)
    assert ordnance.movement_limits(raised).allowance_lost == 0
    arriving = {altitude: ship("R", at=AHEAD[1], altitude=altitude) for altitude in ("H", "M", "L")}
    found = {
        altitude: ordnance.device_contacts(fleet(owner), "R", before, replace(before, position=ORIGIN))
        for altitude, before in arriving.items()
    }
    assert (len(found["H"]), len(found["M"]), len(found["L"])) == (0, 1, 0)
    assert ordnance.device_contacts(fleet(raised), "R", arriving["M"], replace(arriving["M"], position=ORIGIN)) == []


@pytest.mark.rule("SG-DT-05", "SG-DT-06", "SG-DT-09", "SG-CG-46", "SG-CG-47")
def test_a_drogue_strikes_on_a_6_whoever_moves() -> None:
    owner, _ = ordnance.declare_drogues(whisperdeath("H"), True, now=NOW)
    before = ship("R", at=AHEAD[1], altitude="M")
    after = replace(before, position=ORIGIN)
    contacts = ordnance.device_contacts(fleet(owner, after), "R", before, after)
    assert [(c.sure, c.on) for c in contacts] == [(False, 6)]
    _, _, struck = ordnance.spring_devices(fleet(owner, after), contacts, now=NOW, roller=FixedDice(5))
    assert struck == []  # a 5 would do under the Sky Galleons text; C&G needs the 6
    # The drogue's ship bringing it onto another: the same 6.
    moving = replace(owner, position=AHEAD[1])
    victim = ship("R", altitude="M")
    contacts = ordnance.device_contacts(fleet(moving, victim), "W", moving, owner)
    assert [(c.victim, c.on) for c in contacts] == [("R", 6)]


@pytest.mark.rule("SG-DT-01", "SG-DT-07", "SG-CG-48", "SG-ERR-16")
def test_a_drogue_goes_off_as_a_mine_of_damage_value_10() -> None:
    owner, _ = ordnance.declare_drogues(whisperdeath("H"), True, now=NOW)
    before = ship("R", at=AHEAD[1], altitude="M")
    after = replace(before, position=ORIGIN)
    contacts = ordnance.device_contacts(fleet(owner, after), "R", before, after)
    one, _, _ = ordnance.spring_devices(
        fleet(owner, after), contacts, now=NOW, roller=FixedDice(6, CREW, NO_OFFICER, RECOVERS), rules=NO_ERRATA
    )
    assert one["R"].crew_aboard == after.crew_aboard - 5
    assert states(one["W"], DROGUE) == ["detonated", "lowered"]
    both, _, _ = ordnance.spring_devices(
        fleet(owner, after), contacts, now=NOW, roller=FixedDice(6, CREW, NO_OFFICER, RECOVERS)
    )
    assert both["R"].crew_aboard == after.crew_aboard - 10  # errata: one hit of DV 20
    assert both["R"].stunned(Moment(2, 2))  # and the loss of trim


@pytest.mark.rule("SG-DT-08", "SG-CG-49")
def test_drogues_aboard_go_up_only_with_a_magazine_hit() -> None:
    aboard = whisperdeath()
    assert "ordnance:drogue_torpedo" in ordnance.magazine_targets(aboard)
    assert "ordnance:drogue_torpedo" not in ordnance.gun_hit_targets(aboard)
    lowered, _ = ordnance.declare_drogues(aboard, True, now=NOW)
    assert "ordnance:drogue_torpedo" not in ordnance.magazine_targets(lowered)
    # Five guns, the racks, the drogues: the seventh; each drogue a Hull hit of DV 10 from inside.
    hit, _ = apply_critical(aboard, "magazine", Shot(4, penetration=10), now=NOW, roller=FixedDice(7, HULL, HULL))
    assert hit.hull_hits == 20
    assert states(hit, DROGUE) == ["detonated", "detonated"]


# --- Smutts dischargers and torpedoes -----------------------------------------------------------------------


START = hexgrid.from_odd_q(20, 36)
DISCHARGER = "9"  # the Triumph's Smutts discharger, fixed bow


def triumph(at: Hex = START, facing: int = 0, altitude: str = "M") -> ShipRecord:
    return ship("Triumph", "Triumph", at=at, facing=facing, altitude=altitude)


def ahead_of(start: Hex, n: int, facing: int = 0) -> Hex:
    for _ in range(n):
        start = hexgrid.neighbour(start, facing)
    return start


@pytest.mark.rule("SG-SMT-02", "SG-SMT-03", "SG-CG-25", "SG-CG-27")
def test_a_torpedo_runs_six_hexes_straight_ahead_a_turn_for_five_turns() -> None:
    firer = triumph(facing=0)
    firer, torpedo, _ = ordnance.launch_torpedo(firer, DISCHARGER, now=NOW)
    assert (torpedo.hex, torpedo.facing, torpedo.altitude, torpedo.runs) == (START, 0, "M", 0)
    assert states(firer, "smutts_torpedo") == ["launched"] + ["stowed"] * 5
    running: Torpedo | None = torpedo
    for run in range(1, 6):
        assert running is not None
        outcome = ordnance.run_torpedo(fleet(firer), running, terrain=MAP, avoiding={}, now=NOW, roller=FixedDice())
        running = outcome.torpedo
        if run < 5:
            assert running is not None
            assert (running.hex, running.runs) == (ahead_of(START, 6 * run), run)
    assert running is None  # after its fifth run it goes off harmlessly
    # Launched on another heading it keeps the firer's heading: dead ahead.
    _, torpedo, _ = ordnance.launch_torpedo(triumph(facing=1), DISCHARGER, now=NOW)
    assert ordnance.torpedo_path(torpedo, MAP)[0][-1] == ahead_of(START, 6, 1)
    # Steam-powered ships only.
    kite = ship("K", "Swiftwood")
    kite = replace(kite, guns=(*kite.guns, replace(firer.gun(DISCHARGER), id="9")))
    assert ordnance.fitting_problems(kite)
    assert not ordnance.fitting_problems(firer)
    assert ordnance.launch_problem(firer, "1", now=NOW) is not None


@pytest.mark.rule("SG-SMT-09", "SG-CG-32")
def test_the_discharger_reloads_and_is_done_when_the_torpedoes_are() -> None:
    firer, _, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=Moment(2))
    assert ordnance.launch_problem(firer, DISCHARGER, now=Moment(2)) == (
        "SG-SEQ-06",
        "the discharger has already launched this turn",
    )
    assert ordnance.launch_problem(firer, DISCHARGER, now=Moment(3)) == (
        "SG-FIRE-05",
        "the discharger is still reloading",
    )
    assert ordnance.launch_problem(firer, DISCHARGER, now=Moment(4)) is None
    spent = firer.with_items(*(replace(t, state="launched") for t in firer.items_of("smutts_torpedo")))
    assert ordnance.launch_problem(spent, DISCHARGER, now=Moment(4)) == ("SG-SMT-09", "no Smutts torpedo left aboard")


@pytest.mark.rule("SG-SMT-04")
def test_a_torpedo_threatens_ships_at_its_altitude_or_one_below() -> None:
    _, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    ships = fleet(
        ship("Level", at=ahead_of(START, 4), altitude="M"),
        ship("Below", at=ahead_of(START, 2), altitude="L"),
        ship("Far below", at=ahead_of(START, 3), altitude="VL"),
        ship("Above", at=ahead_of(START, 1), altitude="H"),
        ship("Beyond", at=ahead_of(START, 7), altitude="M"),
    )
    assert ordnance.torpedo_threats(ships, torpedo, MAP) == ["Below", "Level"]


@pytest.mark.rule("SG-SMT-01", "SG-SMT-08", "SG-CG-28", "SG-CG-31")
def test_a_torpedo_strikes_with_a_rams_chance_and_costs_the_ship_its_trim() -> None:
    firer, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    target = ship("T", at=ahead_of(START, 2))
    missed = ordnance.run_torpedo(fleet(firer, target), torpedo, terrain=MAP, avoiding={}, now=NOW, roller=FixedDice(5))
    assert missed.records["T"] == target  # 5 is no ram; the Sky Galleons text's 2+ would have struck
    assert missed.torpedo is not None
    struck = ordnance.run_torpedo(
        fleet(firer, target),
        torpedo,
        terrain=MAP,
        avoiding={},
        now=NOW,
        roller=FixedDice(4, CREW, NO_OFFICER, RECOVERS),
    )
    assert (struck.torpedo, struck.struck) == (None, "T")
    assert struck.records["T"].crew_aboard == target.crew_aboard - 6  # DV 12
    assert struck.records["T"].stunned(Moment(2, 2))


@pytest.mark.rule("SG-SMT-05", "SG-CG-28")
def test_avoiding_a_torpedo_is_avoiding_a_ram() -> None:
    firer, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    target, later = ship("T", at=ahead_of(START, 2)), ship("U", at=ahead_of(START, 5))
    outcome = ordnance.run_torpedo(
        fleet(firer, target, later),
        torpedo,
        terrain=MAP,
        avoiding={"T": 2},
        now=NOW,
        roller=FixedDice(3, 4, CREW, NO_OFFICER, RECOVERS),
    )
    assert outcome.struck == "U"  # 3 + 2 MP misses T; U, not avoiding, is struck on a 4
    assert outcome.avoided == ("T",)
    # A ship the torpedo never reaches does not pay for its avoidance.
    outcome = ordnance.run_torpedo(
        fleet(firer, target, later),
        torpedo,
        terrain=MAP,
        avoiding={"U": 2},
        now=NOW,
        roller=FixedDice(4, CREW, NO_OFFICER, RECOVERS),
    )
    assert (outcome.struck, outcome.avoided) == ("T", ())
    # A ship stopped by damage cannot get out of the way.
    wreck = replace(target, crew=replace(target.crew, maneuver_lost=sum(target.crew.maneuver_rows)))
    assert ordnance.may_avoid(wreck, now=NOW) == (False, "SG-RAM-09")
    outcome = ordnance.run_torpedo(
        fleet(firer, wreck), torpedo, terrain=MAP, avoiding={}, now=NOW, roller=FixedDice(CREW, NO_OFFICER, RECOVERS)
    )
    assert outcome.struck == "T"


@pytest.mark.rule("SG-SMT-06", "SG-CG-29")
def test_two_ships_in_the_hex_are_tried_in_an_order_picked_by_die() -> None:
    firer, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    hex_ = ahead_of(START, 3)
    a, b = ship("A", at=hex_, altitude="M"), ship("B", at=hex_, altitude="L")
    dice = FixedDice(2, 5, 4, CREW, NO_OFFICER, RECOVERS)  # B first, missed; then A, struck
    outcome = ordnance.run_torpedo(fleet(firer, a, b), torpedo, terrain=MAP, avoiding={}, now=NOW, roller=dice)
    assert outcome.struck == "A"
    assert [p for p in dice.purposes if p.startswith("Smutts torpedo")] == [
        f"Smutts torpedo {torpedo.id} at B",
        f"Smutts torpedo {torpedo.id} at A",
    ]


@pytest.mark.rule("SG-SMT-07", "SG-CG-30")
def test_ships_dodging_in_one_hex_may_collide_and_lose_their_avoidance() -> None:
    firer, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    hex_ = ahead_of(START, 3)
    a, b = ship("A", at=hex_), ship("B", at=hex_)
    # The collision check of a ship turning in the hex: 3 - 2 = 1, a collision; damage 4 (none) and 1 (a hull
    # hit on B); A is tried first and, its avoidance lost, is struck on a 3.
    dice = FixedDice(3, 4, 1, 1, 3, CREW, NO_OFFICER, RECOVERS)
    outcome = ordnance.run_torpedo(fleet(firer, a, b), torpedo, terrain=MAP, avoiding={"A": 2}, now=NOW, roller=dice)
    assert outcome.struck == "A"
    assert outcome.records["B"].hull_hits == 1
    # Clear of each other, A keeps its 2 MP: 3 + 2 misses it, and B is tried.
    dice = FixedDice(6, 1, 3, 5)
    outcome = ordnance.run_torpedo(fleet(firer, a, b), torpedo, terrain=MAP, avoiding={"A": 2}, now=NOW, roller=dice)
    assert outcome.struck is None
    assert outcome.torpedo is not None


@pytest.mark.rule("SG-SMT-10", "SG-CG-33")
def test_the_discharger_magazine_sets_off_every_torpedo_aboard() -> None:
    firer = triumph()
    assert ordnance.magazine_targets(firer) == ["ordnance:hale_rockets", "ordnance:smutts_torpedo"]
    # Four guns with magazines, the rockets, the torpedoes: the sixth. Each torpedo a Hull hit of DV 12 from
    # inside: five fill the sixty boxes and the ship goes down before the sixth is located.
    dice = FixedDice(6, HULL, HULL, HULL, HULL, HULL)
    hit, _ = apply_critical(firer, "magazine", Shot(4, penetration=10), now=NOW, roller=dice)
    assert dice.calls[0][2] == 6
    assert states(hit, "smutts_torpedo") == ["detonated"] * 6
    assert not hit.afloat
    # The discharger is a gun for Gun hits (a die among the guns bearing on the bow includes it).
    assert ordnance.is_discharger(firer.gun(DISCHARGER))
    dice = FixedDice(GUN, 4)  # guns 1, 3, 4 and the discharger bear on the bow, then the rocket batteries
    hit, _ = apply_hit(firer, Shot(1, penetration=3, incoming=("bow",)), now=NOW, roller=dice)  # under the armor
    assert dice.calls[1][2] == 5
    assert hit.gun(DISCHARGER).destroyed


@pytest.mark.rule("SG-CG-26")
def test_the_improved_discharger_is_lighter_dearer_and_launches_the_same() -> None:
    def design(discharger: str) -> dict[str, Any]:
        return {
            "yard": "british",
            "hull": "steel",
            "hull_size": 6,
            "ram": False,
            "armor": 0,
            "propulsion": {"type": "steam", "engine_size": 6, "forced_draught": False, "bunker_size": 8},
            "weapons": [{"weapon": discharger, "mount": "fixed bow"}],
            "exotics": [{"weapon": "Smutts Torpedo", "count": 1}],
        }

    old = rate_design(parse_design(design("Smutts Discharger")))
    new = rate_design(parse_design(design("Smutts Discharger+ (improved)")))
    assert old.tonnage - new.tonnage == 100
    assert new.price - old.price == 500
    record = ship_record_from_design(design("Smutts Discharger+ (improved)"), name="N", position=START)
    launched, torpedo, _ = ordnance.launch_torpedo(record, "1", now=NOW)
    assert torpedo.owner == "N"
    assert states(launched, "smutts_torpedo") == ["launched"]


def test_a_torpedo_round_trips_through_json() -> None:
    _, torpedo, _ = ordnance.launch_torpedo(triumph(), DISCHARGER, now=NOW)
    data = json.loads(json.dumps(torpedo.to_json()))
    assert Torpedo.from_json(data) == torpedo
    with pytest.raises(ValueError, match="facing"):
        Torpedo.from_json(dict(data, facing=7))


# --- the power grapnel --------------------------------------------------------------------------------------


GRAPNEL = "5"  # the Swiftwood's, forward starboard (bow and starboard aspects), crew (2)


def swiftwood(men: int = 2) -> ShipRecord:
    record = ship("S", "Swiftwood")
    return assign_gun_crew(record, GRAPNEL, men) if men else record


@pytest.mark.rule("SG-PG-01", "SG-PG-03", "SG-PG-04", "SG-CG-20", "SG-CG-21", "SG-CG-24")
def test_the_grapnel_is_a_gun_manned_from_other_posts_reaching_one_hex() -> None:
    target = ship("T", "Skylord", at=AHEAD[1])
    assert ordnance.grapnel_solution(swiftwood(0), GRAPNEL, target, now=NOW).clause == "SG-PG-03"
    manned = swiftwood()
    assert manned.crew.deckhands == ship("S", "Swiftwood").crew.deckhands - 2
    long = ordnance.grapnel_solution(manned, GRAPNEL, target, now=NOW)
    assert (long.allowed, long.band, long.needed) == (True, "long", 5)
    beside = ship("T", "Skylord")
    close = ordnance.grapnel_solution(manned, GRAPNEL, beside, now=NOW, same_hex=("bow", "stern"))
    assert (close.band, close.needed) == ("close", 3)
    assert ordnance.grapnel_solution(manned, GRAPNEL, ship("T", at=AHEAD[2]), now=NOW).clause == "SG-PG-04"
    assert ordnance.grapnel_solution(manned, GRAPNEL, ship("T", at=Hex(-1, 1)), now=NOW).clause == "SG-FIRE-02"
    # An ordinary fire declaration refuses it: it has no damage value of its own.
    assert not fire_solution(manned, GRAPNEL, target, now=NOW).allowed


@pytest.mark.rule("SG-PG-05", "SG-PG-06", "SG-CG-22")
def test_a_grapnel_hit_grapples_and_at_long_range_hauls_the_smaller_ship_in() -> None:
    firer = swiftwood()  # hull size 3
    big = ship("T", "Skylord", at=AHEAD[1])  # hull size 14
    solution = ordnance.grapnel_solution(firer, GRAPNEL, big, now=NOW)
    ships, _ = ordnance.fire_grapnel(fleet(firer, big), solution, now=NOW, roller=FixedDice(5))
    assert ships["S"].grappled_with == ("T",)
    assert ships["T"].grappled_with == ("S",)
    assert (ships["S"].position, ships["S"].altitude, ships["T"].position) == (AHEAD[1], "M", AHEAD[1])
    # Equal hull sizes: a die picks which is hauled in (here the target, to the firer's hex).
    equal = ship("T", at=AHEAD[1])
    solution = ordnance.grapnel_solution(firer, GRAPNEL, equal, now=NOW)
    ships, _ = ordnance.fire_grapnel(fleet(firer, equal), solution, now=NOW, roller=FixedDice(5, 2))
    assert (ships["S"].position, ships["T"].position) == (ORIGIN, ORIGIN)
    # A miss grapples nothing.
    ships, _ = ordnance.fire_grapnel(fleet(firer, big), solution, now=NOW, roller=FixedDice(4))
    assert ships["S"].grappled_with == ()
    assert ships["S"].gun(GRAPNEL).last_fired == NOW.turn


@pytest.mark.rule("SG-PG-02", "SG-PG-07", "SG-CG-23")
def test_the_grapnel_reloads_two_turns_can_be_destroyed_and_has_no_magazine() -> None:
    target = ship("T", "Skylord", at=AHEAD[1])
    fired = swiftwood()
    fired = fired.with_gun(replace(fired.gun(GRAPNEL), last_fired=2))
    for turn, clause in ((3, "SG-PG-02"), (4, "SG-PG-02"), (5, "")):
        assert ordnance.grapnel_solution(fired, GRAPNEL, target, now=Moment(turn)).clause == clause, turn
    # One man short: a turn more.
    short = fired.with_gun(replace(fired.gun(GRAPNEL), manned=1))
    assert ordnance.grapnel_solution(short, GRAPNEL, target, now=Moment(5)).clause == "SG-PG-02"
    assert ordnance.grapnel_solution(short, GRAPNEL, target, now=Moment(6)).allowed
    # A Gun hit from starboard: four guns bear, the grapnel the fourth.
    hit, _ = apply_hit(fired, Shot(1, incoming=("starboard",)), now=NOW, roller=FixedDice(GUN, 4))
    assert hit.gun(GRAPNEL).destroyed
    assert ordnance.grapnel_solution(hit, GRAPNEL, target, now=Moment(5)).clause == "SG-PG-07"
    # A Magazine picks among the three guns with a damage value; the grapnel is not one.
    dice = FixedDice(2, 3, 4)
    apply_critical(fired, "magazine", Shot(3, penetration=10), now=NOW, roller=dice)
    assert dice.calls[0][2] == 3


# --- bombardment and ground batteries -------------------------------------------------------------------------


@pytest.mark.rule("SG-BOMB-01", "SG-BOMB-02")
def test_a_bombardment_hex_is_fired_at_as_a_ship_and_scores_the_guns_damage_value() -> None:
    city = ordnance.ground_target("Syrtis", kind="city", position=AHEAD[2], points=10, side="red")
    aphid = ship("A", "Aphid (original)", altitude="VL")  # a 4" short forward: DV 2, range 3/6
    solution = fire_solution(aphid, "1", city, now=NOW)
    assert (solution.allowed, solution.band, solution.modifiers) == (True, "close", {"different altitude": -1})
    ships, _ = fire(fleet(aphid, city), "A", "1", "Syrtis", now=NOW, roller=FixedDice(4))  # no location die
    assert ordnance.bombardment_points(ships["Syrtis"]) == (2, 10)
    ships, _ = fire(fleet(aphid, city), "A", "1", "Syrtis", now=NOW, roller=FixedDice(3))
    assert ordnance.bombardment_points(ships["Syrtis"]) == (0, 10)  # 3 - 1 misses
    # Enough points destroy the hex.
    done, _ = apply_hit(ships["Syrtis"], Shot(12), now=NOW, roller=FixedDice())
    assert ordnance.bombardment_points(done) == (10, 10)
    assert not done.afloat
    with pytest.raises(ValueError, match="city"):
        ordnance.ground_target("X", kind="village", position=ORIGIN, points=3)


@pytest.mark.rule("SG-BOMB-03")
def test_liquid_fire_scores_its_level_on_a_bombardment_hex_and_rockets_and_bombs_their_hits() -> None:
    city = ordnance.ground_target("Syrtis", kind="fortress", position=ORIGIN, points=20)
    dropper = whisperdeath("H")  # four levels up
    solution = ordnance.drop_solution(dropper, city, LIQUID_FIRE)
    ships, _ = ordnance.drop(fleet(dropper, city), solution, exits_across=None, now=NOW, roller=FixedDice(6))
    assert ordnance.bombardment_points(ships["Syrtis"]) == (2, 20)
    assert ships["Syrtis"].fire == 0
    bomber = czarina("VH")
    solution = ordnance.drop_solution(bomber, city, BOMB_RACK)
    ships, _ = ordnance.drop(fleet(bomber, city), solution, exits_across=None, now=NOW, roller=FixedDice(6))
    assert ordnance.bombardment_points(ships["Syrtis"]) == (2, 20)  # 6 - 5 levels: one bomb, DV 2
    spikes = carrying(whisperdeath("H"), (SPIKES, 1))
    solution = ordnance.drop_solution(spikes, city, SPIKES)
    ships, _ = ordnance.drop(fleet(spikes, city), solution, exits_across=None, now=NOW, roller=FixedDice(6))
    assert ordnance.bombardment_points(ships["Syrtis"]) == (0, 20)


def battery(armor: int = 4) -> ShipRecord:
    return ordnance.ground_battery("Fort", guns=["4in_long"], armor=armor, position=ORIGIN, side="red")


@pytest.mark.rule("SG-GB-01", "SG-GB-02")
def test_a_ground_battery_fires_high_angle_at_any_higher_target_within_range() -> None:
    fort = battery()
    steep = ship("T", "Swiftwood", at=AHEAD[2], altitude="VH")  # five levels up, two hexes away
    assert fire_solution(fort, "1", steep, now=NOW).clause == "SG-FIRE-13"
    solution = ordnance.battery_fire_solution(fort, "1", steep, now=NOW)
    assert (solution.allowed, solution.effective_range, solution.band) == (True, 7, "long")
    assert solution.modifiers == {"different altitude": -1}
    too_far = ship("T", "Swiftwood", at=AHEAD[4], altitude="VH")  # 4 + 5 = 9, beyond 8
    assert ordnance.battery_fire_solution(fort, "1", too_far, now=NOW).clause == "SG-GB-02"
    # The shot is resolved as any gun's: 6 - 1 hits; from below, the Crew hit is a Hull hit of DV 2.
    ships, _ = resolve_fire(fleet(fort, steep), solution, now=NOW, roller=FixedDice(6, CREW))
    assert ships["T"].hull_hits == 2


@pytest.mark.rule("SG-GB-03", "SG-GB-04")
def test_hull_hits_do_nothing_to_a_ground_battery_and_its_armor_covers_crew_and_guns() -> None:
    fort = battery()
    light = Shot(2, penetration=1)
    for location in (HULL, CREW, GUN):
        hit, _ = apply_hit(fort, light, now=NOW, roller=FixedDice(location))
        assert hit == fort, location
    heavy = Shot(2, penetration=5)
    hit, _ = apply_hit(fort, heavy, now=NOW, roller=FixedDice(HULL))
    assert hit == fort
    hit, _ = apply_hit(fort, heavy, now=NOW, roller=FixedDice(CREW, NO_OFFICER))
    assert hit.crew_aboard == fort.crew_aboard - 1
    hit, _ = apply_hit(fort, heavy, now=NOW, roller=FixedDice(GUN, NO_OFFICER))
    assert hit.gun("1").destroyed
    assert hit.crew_aboard == fort.crew_aboard - 1  # the point past the first, its own crew first


@pytest.mark.rule("SG-GB-05", "SG-GB-06", "SG-GB-07")
def test_only_fire_and_magazine_criticals_touch_a_battery() -> None:
    fort, target = battery(), ship("T", "Swiftwood", at=AHEAD[2], altitude="VH")
    shot = Shot(2, penetration=5)
    for faces in ((3, 3), (2, 3), (4, 5), (4, 4)):  # rudder, bridge, screw/mast, lifters
        hit, _ = apply_hit(fort, shot, now=NOW, roller=FixedDice(CRITICAL, *faces))
        assert hit == fort, faces
    blown, _ = apply_hit(fort, shot, now=NOW, roller=FixedDice(CRITICAL, 1, 1))
    assert not blown.afloat
    burning, _ = apply_hit(fort, shot, now=NOW, roller=FixedDice(CRITICAL, 3, 4))
    assert burning.fire == 2
    assert ordnance.battery_fire_solution(burning, "1", target, now=NOW).clause == "SG-GB-07"
    assert not ordnance.in_action(burning)
    burning, _ = ordnance.emplacement_turn(burning)
    assert burning.fire == 1  # it dies down instead of growing
    burning, happened = ordnance.emplacement_turn(burning)
    assert (burning.fire, happened[0]["outcome"]) == (0, "out: back in action")
    assert ordnance.battery_fire_solution(burning, "1", target, now=NOW).allowed
    # Liquid fire puts it out of action the same way.
    dropper = whisperdeath("H")
    solution = ordnance.drop_solution(dropper, fort, LIQUID_FIRE)
    ships, _ = ordnance.drop(fleet(dropper, fort), solution, exits_across=None, now=NOW, roller=FixedDice(6))
    assert not ordnance.in_action(ships["Fort"])


# --- old Earth smoothbores -----------------------------------------------------------------------------------


@pytest.mark.rule("SG-CG-15")
def test_old_earth_smoothbores_are_martian_ordnance_fired_as_guns() -> None:
    galley: dict[str, Any] = {
        "yard": "martian",
        "hull": "wood",
        "hull_size": 4,
        "ram": False,
        "armor": 0,
        "propulsion": {"type": "screw_galley", "turncranks": 16},
        "weapons": [{"weapon": '10" SB', "mount": "forward"}],
    }
    rating = rate_design(parse_design(galley))
    assert "SGD-ARMT-15" not in [e.clause for e in rating.errors]
    british = rate_design(parse_design(dict(galley, weapons=[{"weapon": '4" long', "mount": "forward"}])))
    assert "SGD-ARMT-15" in [e.clause for e in british.errors]
    record = ship_record_from_design(galley, name="Prince", position=ORIGIN, altitude="M")
    close = fire_solution(record, "1", ship("T", at=AHEAD[3]), now=NOW)
    long = fire_solution(record, "1", ship("T", at=AHEAD[5]), now=NOW)
    assert (close.damage_value, close.penetration, long.penetration) == (4, 2, 1)


def test_ordnance_tables_cite_checklist_clauses_and_say_their_readings() -> None:
    from battles.checklist import checklist_clauses

    known = checklist_clauses()
    for key, entry in ordnance_tables().items():
        if key == "meta":
            continue
        assert entry["clauses"], key
        assert all(clause in known for clause in entry["clauses"]), key
        assert entry["decision"], key
