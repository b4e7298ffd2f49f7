"""Movement plans (battles/rules/sky_galleons/movement.py): costs, turns, altitude, landing and crashing.

Pure tests of ``trace``, ``plan_cost``, ``allowance``, ``forced_drop``, ``collision_modifiers`` and
``turns_in_hex``; the dice-driven collision checks are in test_battle_movement.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.movement import (
    AHEAD,
    CLIMB,
    CRASH_LANDED,
    CRASHED,
    DESCEND,
    LANDED,
    LEFT_MAP,
    PORT,
    POWER_PORT,
    POWER_STARBOARD,
    STARBOARD,
    Allowance,
    PlanError,
    Step,
    Terrain,
    allowance,
    collision_modifiers,
    forced_drop,
    plan_cost,
    trace,
    turns_in_hex,
)
from galleons.record import (
    Criticals,
    HullRow,
    Moment,
    ShipRecord,
    altitude_level,
    altitude_levels,
    ship_record_from_class,
    surface,
)

NOW = Moment(1, 1)
MAP = Terrain(20, 20)
CENTRE = hexgrid.from_odd_q(10, 10)


def ship(
    cls: str = "Sky Runner",
    *,
    at: Hex = CENTRE,
    facing: int = 0,
    altitude: str = "M",
    name: str = "Mover",
) -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=facing, altitude=altitude)


def free(record: ShipRecord, speed: int | None = None) -> Allowance:
    """The allowance of a ship with nothing wrong with it, at its rated speed unless told."""
    return allowance(record, now=NOW, speed=record.effective_speed() if speed is None else speed, last_hexes=0)


def run(
    record: ShipRecord,
    plan: Sequence[str],
    *,
    speed: int | None = None,
    terrain: Terrain = MAP,
    allowed: Allowance | None = None,
) -> list[Step]:
    return trace(record, list(plan), allowed=allowed or free(record, speed), terrain=terrain)


def refused(
    record: ShipRecord,
    plan: Sequence[str],
    *,
    speed: int | None = None,
    terrain: Terrain = MAP,
    allowed: Allowance | None = None,
) -> PlanError:
    with pytest.raises(PlanError) as caught:
        run(record, plan, speed=speed, terrain=terrain, allowed=allowed)
    return caught.value


def ahead_of(hex_: Hex, facing: int, n: int = 1) -> Hex:
    for _ in range(n):
        hex_ = hexgrid.neighbour(hex_, facing)
    return hex_


# --- facing ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-FACE-01", "SG-MOV-02")
@pytest.mark.parametrize("facing", range(6))
def test_facing_is_always_one_of_the_six_hexsides(facing: int) -> None:
    # Turning past north either way wraps round: the bow always points at one of hexsides 0-5.
    record = ship("aphid", facing=facing)
    steps = run(record, [AHEAD, STARBOARD, AHEAD, STARBOARD, POWER_STARBOARD, AHEAD, PORT])
    assert all(step.facing in range(6) for step in steps)
    assert [s.facing for s in steps] == [
        facing,
        (facing + 1) % 6,
        (facing + 1) % 6,
        (facing + 2) % 6,
        (facing + 3) % 6,
        (facing + 3) % 6,
        (facing + 2) % 6,
    ]
    port = run(ship(facing=0), [AHEAD, PORT])
    assert port[-1].facing == 5  # north turned to port is north-west, not -1


@pytest.mark.rule("SG-FACE-02", "SG-MOV-02")
@pytest.mark.parametrize("facing", range(6))
def test_the_first_hex_entered_is_the_one_ahead_of_the_bow(facing: int) -> None:
    steps = run(ship(facing=facing), [AHEAD, AHEAD])
    assert steps[0].hex == hexgrid.neighbour(CENTRE, facing)
    assert steps[1].hex == ahead_of(CENTRE, facing, 2)
    assert hexgrid.distance(CENTRE, steps[0].hex) == 1


@pytest.mark.rule("SG-FACE-02", "SG-FACE-03", "SG-MOV-02")
@pytest.mark.parametrize("turn", [PORT, STARBOARD])
def test_no_turn_before_the_first_hex(turn: str) -> None:
    # Turning first would make the first hex entered one that is not ahead of the bow.
    error = refused(ship(), [turn, AHEAD])
    assert error.clause == "SG-MOV-02"
    # After the first hex the turn is allowed, and the next hex is ahead of the new bow.
    steps = run(ship(), [AHEAD, turn, AHEAD])
    new_facing = movement.TURNS[turn] % 6
    assert steps[2].hex == hexgrid.neighbour(steps[0].hex, new_facing)


@pytest.mark.rule("SG-FACE-03")
def test_facing_changes_only_by_turning_steps() -> None:
    record = ship("Fleetfoot", facing=2)
    steps = run(record, [AHEAD, AHEAD, CLIMB, DESCEND, AHEAD])
    # Moving straight on, climbing and descending leave the bow where it was.
    assert {step.facing for step in steps} == {2}
    # Tracing a plan is only a plan: the record itself is unchanged.
    assert (record.position, record.facing) == (CENTRE, 2)
    # An empty plan keeps facing and hex.
    assert run(record, []) == []


# --- movement allowance and costs -----------------------------------------------------------------------


@pytest.mark.rule("SG-MOV-01", "SG-MOV-03")
def test_movement_allowance_is_the_most_a_ship_may_spend() -> None:
    runner = ship()  # Sky Runner, movement allowance 4
    assert runner.speed == 4
    assert free(runner).speed == 4
    steps = run(runner, [AHEAD] * 4)
    assert sum(step.cost for step in steps) == 4
    error = refused(runner, [AHEAD] * 5)
    assert error.clause == "SG-MOV-01"
    assert "allowance is 4" in error.reason
    # A reduced allowance binds the same way.
    assert refused(runner, [AHEAD] * 3, speed=2).clause == "SG-MOV-01"
    assert len(run(runner, [AHEAD] * 2, speed=2)) == 2


@pytest.mark.rule("SG-MOV-01")
def test_allowance_follows_the_ships_damage() -> None:
    runner = ship()
    # Speed lost to damage is what the ruleset hands to allowance(); the plan is judged against it.
    slowed = replace(runner, criticals=replace(runner.criticals, screw_mast_hits=1))
    assert slowed.effective_speed() < runner.effective_speed()
    lowered = free(slowed)
    assert lowered.speed == slowed.effective_speed()
    assert refused(slowed, [AHEAD] * runner.effective_speed()).clause == "SG-MOV-01"


@pytest.mark.rule("SG-MOV-02", "SG-MOV-03")
def test_each_hex_costs_one_point_turning_or_not() -> None:
    assert plan_cost([AHEAD]) == 1
    assert plan_cost([AHEAD, STARBOARD]) == 1  # the turn rides on the hex's point
    assert plan_cost([AHEAD, AHEAD, PORT, AHEAD]) == 3
    steps = run(ship(), [AHEAD, STARBOARD, AHEAD, AHEAD, PORT])
    assert [s.cost for s in steps] == [1, 0, 1, 1, 0]
    # Each point moves exactly one hex.
    hexes = [s.hex for s in steps if s.token == AHEAD]
    assert [hexgrid.distance(a, b) for a, b in zip([CENTRE, *hexes], hexes, strict=False)] == [1, 1, 1]


@pytest.mark.rule("SG-MOV-02")
def test_one_hexside_turn_per_point() -> None:
    # One point: one hex and at most one hexside of turn.
    assert refused(ship(), [AHEAD, STARBOARD, STARBOARD]).clause == "SG-MOV-02"
    assert refused(ship(), [AHEAD, PORT, STARBOARD]).clause == "SG-MOV-02"
    steps = run(ship(), [AHEAD, STARBOARD, AHEAD, STARBOARD])
    assert steps[-1].facing == 2


@pytest.mark.rule("SG-MOV-04")
def test_power_turn_costs_a_point_and_stays_in_the_hex() -> None:
    aphid = ship("aphid", facing=0)
    assert aphid.is_steam
    assert plan_cost([POWER_STARBOARD]) == 1
    steps = run(aphid, [POWER_STARBOARD, POWER_STARBOARD, AHEAD])
    assert [(s.hex, s.facing, s.cost) for s in steps[:2]] == [(CENTRE, 1, 1), (CENTRE, 2, 1)]
    # The first hex entered afterwards is ahead of the turned bow.
    assert steps[2].hex == hexgrid.neighbour(CENTRE, 2)
    # Power turns spend the allowance like hexes do: Aphid's 6 points.
    assert refused(aphid, [POWER_PORT] * 3 + [AHEAD] * 4).clause == "SG-MOV-01"
    # A power turn earns no free turn after it.
    assert refused(aphid, [POWER_PORT, PORT]).clause == "SG-MOV-02"


@pytest.mark.rule("SG-MOV-04")
@pytest.mark.parametrize("cls", ["Sky Runner", "Fleetfoot", "Hullcutter"])
def test_only_steam_ships_power_turn(cls: str) -> None:
    galley = ship(cls)
    assert not galley.is_steam
    for turn in (POWER_PORT, POWER_STARBOARD):
        error = refused(galley, [turn])
        assert error.clause == "SG-MOV-04"
        assert refused(galley, [AHEAD, turn]).clause == "SG-MOV-04"


# --- altitude -------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-ALT-01")
def test_six_altitudes_from_very_high_to_the_ground() -> None:
    assert altitude_levels() == ("G", "VL", "L", "M", "H", "VH")
    assert surface() == "G"
    # A Fleetfoot (ceiling VH) at VH descending level by level passes through all six and lands.
    fleetfoot = ship("Fleetfoot", altitude="VH")
    steps = run(fleetfoot, [DESCEND] * 5, speed=5)
    assert [s.altitude for s in steps] == ["H", "M", "L", "VL", "G"]
    # There is nothing below the ground: a ship on it cannot descend.
    landed = replace(ship(altitude="G"), status="landed")
    assert refused(landed, [DESCEND]).clause == "SG-ALT-01"


@pytest.mark.rule("SG-ALT-04", "SG-ALT-06")
def test_first_level_down_is_free_each_further_one_costs_a_point() -> None:
    assert plan_cost([DESCEND]) == 0
    assert plan_cost([DESCEND, DESCEND]) == 1
    assert plan_cost([DESCEND, DESCEND, DESCEND]) == 2
    assert plan_cost([AHEAD, DESCEND, AHEAD, DESCEND]) == 3  # the free level need not come first
    steps = run(ship(altitude="H"), [DESCEND, DESCEND, DESCEND])
    assert [(s.altitude, s.cost) for s in steps] == [("M", 0), ("L", 1), ("VL", 1)]
    # Every ship, even one whose speed is gone, may drop its free level.
    stopped = run(ship(), [DESCEND], speed=0)
    assert stopped[0].altitude == "L"
    assert refused(ship(), [DESCEND, DESCEND], speed=0).clause == "SG-MOV-01"
    # With the free level: four hexes and a level down fit a Sky Runner's 4 points, two levels do not.
    assert len(run(ship(), [AHEAD, AHEAD, DESCEND, AHEAD, AHEAD])) == 5
    assert refused(ship(), [AHEAD, AHEAD, DESCEND, DESCEND, AHEAD, AHEAD]).clause == "SG-MOV-01"


@pytest.mark.rule("SG-ALT-05", "SG-ALT-03")
def test_climbing_costs_two_points_a_level_up_to_the_ceiling() -> None:
    assert plan_cost([CLIMB]) == 2
    assert plan_cost([CLIMB, CLIMB]) == 4
    runner = ship(altitude="L")  # ceiling H
    steps = run(runner, [CLIMB, CLIMB])
    assert [(s.altitude, s.cost) for s in steps] == [("M", 2), ("H", 2)]
    # A climb and a hex are 3 points; a climb and three hexes are 5, more than a Sky Runner's 4.
    assert len(run(runner, [CLIMB, AHEAD, AHEAD])) == 3
    assert refused(runner, [CLIMB, AHEAD, AHEAD, AHEAD]).clause == "SG-MOV-01"
    # No higher than the ceiling, whatever the points.
    assert refused(ship(altitude="H"), [CLIMB]).clause == "SG-ALT-03"


@pytest.mark.rule("SG-ALT-07", "SG-ALT-05", "SG-MOV-01")
def test_golden_movement_allowance_5_hexes_or_climbs() -> None:
    """Worked example (SG-ALT-07): five movement points buy five hexes, or three hexes plus one level up, or
    one hex plus two levels up. Here a Fleetfoot (MA 5, ceiling VH) starting at Low."""
    fleetfoot = ship("Fleetfoot", altitude="L")
    assert fleetfoot.speed == 5
    five = run(fleetfoot, [AHEAD] * 5)
    assert five[-1].hex == ahead_of(CENTRE, 0, 5)
    assert five[-1].altitude == "L"
    three_and_one = run(fleetfoot, [AHEAD, AHEAD, AHEAD, CLIMB])
    assert (three_and_one[-1].hex, three_and_one[-1].altitude) == (ahead_of(CENTRE, 0, 3), "M")
    one_and_two = run(fleetfoot, [AHEAD, CLIMB, CLIMB])
    assert (one_and_two[-1].hex, one_and_two[-1].altitude) == (ahead_of(CENTRE, 0, 1), "H")
    for plan in ([AHEAD] * 5, [AHEAD] * 3 + [CLIMB], [AHEAD, CLIMB, CLIMB]):
        assert plan_cost(plan) == 5
    # Any more is beyond the allowance.
    for plan in ([AHEAD] * 6, [AHEAD] * 4 + [CLIMB], [AHEAD, AHEAD, CLIMB, CLIMB]):
        assert refused(fleetfoot, plan).clause == "SG-MOV-01"


@pytest.mark.rule("SG-ALT-08")
def test_speed_one_may_climb_a_level_instead_of_moving() -> None:
    runner = ship(altitude="L")
    steps = run(runner, [CLIMB], speed=1)
    assert (steps[0].hex, steps[0].altitude) == (CENTRE, "M")
    # Instead of moving, not as well as moving.
    assert refused(runner, [CLIMB, AHEAD], speed=1).clause == "SG-ALT-08"
    assert refused(runner, [AHEAD, CLIMB], speed=1).clause == "SG-ALT-08"
    # One level only.
    assert refused(runner, [CLIMB, CLIMB], speed=1).clause == "SG-MOV-01"
    # The exception is for speed 1: at speed 0 the ship cannot climb at all.
    assert refused(runner, [CLIMB], speed=0).clause == "SG-MOV-01"


@pytest.mark.rule("SG-ALT-09", "SG-ALT-04", "SG-ALT-06")
def test_paid_altitude_changes_give_a_turn_the_free_drop_does_not() -> None:
    runner = ship(altitude="M")
    climbed = run(runner, [CLIMB, STARBOARD])
    assert (climbed[-1].hex, climbed[-1].facing) == (CENTRE, 1)
    # The free first drop gives no turn ...
    assert refused(runner, [DESCEND, STARBOARD]).clause == "SG-MOV-02"
    # ... the second, paid level does.
    dropped = run(runner, [DESCEND, DESCEND, PORT])
    assert (dropped[-1].altitude, dropped[-1].facing) == ("VL", 5)
    # One hexside per level, no more.
    assert refused(runner, [CLIMB, STARBOARD, STARBOARD]).clause == "SG-MOV-02"
    two_levels = run(ship(altitude="L"), [CLIMB, STARBOARD, CLIMB, STARBOARD])
    assert two_levels[-1].facing == 2
    assert two_levels[-1].hex == CENTRE


# --- landing and crashing --------------------------------------------------------------------------------


@pytest.mark.rule("SG-ALT-11")
@pytest.mark.parametrize("before", [[], [AHEAD], [AHEAD, STARBOARD]])
def test_dropping_one_level_to_the_ground_after_at_most_one_hex_is_a_landing(before: list[str]) -> None:
    steps = run(ship(altitude="VL"), [*before, DESCEND])
    assert steps[-1].altitude == "G"
    assert steps[-1].ends == LANDED
    assert "SG-ALT-11" in steps[-1].clauses
    # Descending after the first hex is allowed too: one hex moved either way.
    after = run(ship(altitude="VL"), [DESCEND] if before else [AHEAD, DESCEND])
    assert after[-1].ends == LANDED


@pytest.mark.rule("SG-ALT-11")
def test_a_landed_ship_climbs_before_it_moves() -> None:
    landed = replace(ship(altitude="G"), status="landed")
    assert refused(landed, [AHEAD]).clause == "SG-ALT-11"
    assert refused(replace(ship("aphid", altitude="G"), status="landed"), [POWER_PORT]).clause == "SG-ALT-11"
    steps = run(landed, [CLIMB, AHEAD])
    assert steps[-1].altitude == "VL"
    assert not steps[-1].ends


@pytest.mark.rule("SG-ALT-12", "SG-ALT-11")
@pytest.mark.parametrize(
    ("altitude", "plan"),
    [
        ("VL", [AHEAD, AHEAD, DESCEND]),  # two hexes moved
        ("VL", [AHEAD, AHEAD, AHEAD, DESCEND]),
        ("L", [DESCEND, DESCEND]),  # two levels dropped
        ("L", [AHEAD, DESCEND, DESCEND]),
        ("VL", [CLIMB, DESCEND, DESCEND]),  # two levels dropped this turn, though one was climbed
    ],
)
def test_reaching_the_ground_faster_is_a_crash_landing(altitude: str, plan: list[str]) -> None:
    steps = run(ship(altitude=altitude), plan)
    assert steps[-1].altitude == "G"
    assert steps[-1].ends == CRASH_LANDED
    assert "SG-ALT-12" in steps[-1].clauses
    assert all(not s.ends for s in steps[:-1])


@pytest.mark.rule("SG-ALT-11", "SG-ALT-12")
def test_nothing_follows_a_landing() -> None:
    # The move ends on the ground: a hex planned after the landing is refused, not flown.
    assert refused(ship(altitude="VL"), [DESCEND, AHEAD]).clause == "SG-MOV-01"


@pytest.mark.rule("SG-ALT-02")
def test_the_land_can_stand_above_the_ground_level() -> None:
    hill = ahead_of(CENTRE, 0)
    terrain = Terrain(20, 20, {hill: "VL"})
    assert terrain.ground(hill) == "VL"
    assert terrain.ground(CENTRE) == "G"
    # Over a hill at Very Low the surface is one level higher: a ship at Low drops onto it and lands.
    steps = run(ship(altitude="L"), [AHEAD, DESCEND], terrain=terrain)
    assert (steps[-1].altitude, steps[-1].ends) == ("VL", LANDED)
    # Over the plain the same drop is only a drop.
    plain = run(ship(altitude="L"), [DESCEND], terrain=terrain)
    assert (plain[-1].altitude, plain[-1].ends) == ("VL", "")


@pytest.mark.rule("SG-ALT-13", "SG-ALT-02")
@pytest.mark.parametrize("height", ["L", "M"])
def test_entering_land_as_high_as_the_ship_at_speed_one_lands(height: str) -> None:
    cliff = ahead_of(CENTRE, 0)
    terrain = Terrain(20, 20, {cliff: height})
    steps = run(ship(altitude="L"), [AHEAD], terrain=terrain)
    assert steps[-1].hex == cliff
    assert steps[-1].ends == LANDED
    assert "SG-ALT-13" in steps[-1].clauses
    # It sits on the land, at the land's height, not inside the cliff.
    assert steps[-1].altitude == height
    # Taking off again: one level up clears the land, and it flies on.
    landed = replace(ship(at=cliff, altitude=steps[-1].altitude), status="landed")
    off = run(landed, [CLIMB, AHEAD], terrain=terrain)
    assert altitude_level(off[0].altitude) == altitude_level(height) + 1
    assert [s.ends for s in off] == ["", ""]


@pytest.mark.rule("SG-ALT-14", "SG-ALT-02")
@pytest.mark.parametrize("height", ["L", "M"])
def test_entering_land_as_high_as_the_ship_faster_crashes(height: str) -> None:
    cliff = ahead_of(CENTRE, 0, 2)
    terrain = Terrain(20, 20, {cliff: height})
    steps = run(ship(altitude="L"), [AHEAD, AHEAD], terrain=terrain)
    assert steps[-1].hex == cliff
    assert steps[-1].ends == CRASHED
    assert "SG-ALT-14" in steps[-1].clauses
    # Nothing can follow the crash.
    assert refused(ship(altitude="L"), [AHEAD, AHEAD, AHEAD], terrain=terrain).clause == "SG-MOV-01"


@pytest.mark.rule("SG-ALT-13", "SG-ALT-14")
def test_land_below_the_ship_is_flown_over() -> None:
    hill = ahead_of(CENTRE, 0)
    terrain = Terrain(20, 20, {hill: "VL"})
    steps = run(ship(altitude="L"), [AHEAD, AHEAD], terrain=terrain)
    assert [s.ends for s in steps] == ["", ""]
    assert [s.altitude for s in steps] == ["L", "L"]
    # Climbing above a cliff before reaching it keeps the ship clear of it.
    cliff = Terrain(20, 20, {ahead_of(CENTRE, 0, 2): "L"})
    assert run(ship(altitude="L"), [AHEAD, AHEAD], terrain=cliff)[-1].ends == CRASHED
    climbed = run(ship(altitude="L"), [CLIMB, AHEAD, AHEAD], terrain=cliff)
    assert [s.ends for s in climbed] == ["", "", ""]


@pytest.mark.rule("SG-ALT-10", "SG-ALT-02")
def test_an_involuntary_drop_onto_the_land_is_a_crash() -> None:
    # A Sky Runner at Medium whose Medium and High rows are full must drop to its new ceiling, Low.
    runner = ship(altitude="M")
    rows = tuple(
        HullRow(row.altitude, row.boxes, row.boxes if row.altitude in ("H", "M") else 0) for row in runner.hull_rows
    )
    damaged = replace(runner, hull_rows=rows)
    assert (damaged.max_altitude, damaged.must_drop) == ("L", 1)
    # Over the plain it only drops.
    assert forced_drop(damaged, MAP) == ("L", "")
    # Over a hill reaching Low the drop puts it on the land: it crashes, it does not land.
    hill = Terrain(20, 20, {CENTRE: "L"})
    assert forced_drop(damaged, hill) == ("L", CRASHED)
    # Nothing to drop: nothing happens.
    assert forced_drop(runner, hill) == ("M", "")


@pytest.mark.rule("SG-ALT-10")
def test_an_involuntary_drop_to_the_ground_is_a_crash() -> None:
    fleetfoot = ship("Fleetfoot", altitude="VL")
    # Every row above Very Low is full: no harm at Very Low ...
    rows = tuple(HullRow(r.altitude, r.boxes, r.boxes if r.altitude != "VL" else 0) for r in fleetfoot.hull_rows)
    assert forced_drop(replace(fleetfoot, hull_rows=rows), MAP) == ("VL", "")
    # ... but at Low, with only the Very Low row left, it must drop one level, to Very Low.
    held = replace(fleetfoot, hull_rows=rows, altitude="L")
    assert forced_drop(held, MAP) == ("VL", "")
    # Over land at Very Low the same drop meets the land.
    assert forced_drop(held, Terrain(20, 20, {CENTRE: "VL"})) == ("VL", CRASHED)


# --- leaving the map -------------------------------------------------------------------------------------


@pytest.mark.rule("SG-MOV-02", "SG-FACE-02")
def test_leaving_the_map_ends_the_move() -> None:
    edge = hexgrid.from_odd_q(0, 0)
    steps = run(ship(at=edge, facing=0), [AHEAD])
    assert steps[0].ends == LEFT_MAP
    assert not MAP.on_map(steps[0].hex)
    assert not steps[0].enters_hex
    assert refused(ship(at=edge, facing=0), [AHEAD, AHEAD]).clause == "SG-MOV-01"
    assert refused(ship(at=edge, facing=0), [AHEAD, STARBOARD]).clause == "SG-MOV-01"
    # Along the edge the ship stays on the map.
    along = run(ship(at=edge, facing=3), [AHEAD, AHEAD])
    assert [s.ends for s in along] == ["", ""]


# --- what the ship's state allows -----------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-08", "SG-MOV-01")
def test_nobody_at_the_helm_holds_last_turns_speed_straight_ahead() -> None:
    runner = ship()
    helmless = replace(runner, crew=replace(runner.crew, helmsman=0))
    assert not helmless.helm_manned
    allowed = allowance(helmless, now=NOW, speed=4, last_hexes=3)
    assert allowed.held_speed == 3
    assert not allowed.course
    assert len(run(helmless, [AHEAD] * 3, allowed=allowed)) == 3
    for plan in ([AHEAD] * 2, [AHEAD] * 4, [AHEAD, STARBOARD, AHEAD, AHEAD], []):
        assert refused(helmless, plan, allowed=allowed).clause == "SG-CREW-08"
    # Held speed cannot exceed what the ship can now make.
    assert allowance(helmless, now=NOW, speed=2, last_hexes=3).held_speed == 2


@pytest.mark.rule("SG-CREW-08", "SG-CRIT-37")
def test_a_stunned_crew_holds_even_a_helmless_ship_still() -> None:
    # Nobody at the helm would hold last turn's speed; a crew stunned by a loss of trim cannot move at all.
    runner = ship()
    stunned = replace(
        runner,
        crew=replace(runner.crew, helmsman=0),
        criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index + 1),
    )
    allowed = allowance(stunned, now=NOW, speed=4, last_hexes=3)
    assert allowed.held_speed == 0
    assert run(stunned, [], allowed=allowed) == []
    assert refused(stunned, [AHEAD] * 3, allowed=allowed).clause == "SG-CRIT-37"
    # Once the crew recovers, the helmless ship holds its speed again.
    later = Moment(NOW.turn + 1, 2)
    assert allowance(stunned, now=later, speed=4, last_hexes=3).held_speed == 3


@pytest.mark.rule("SG-CRIT-38", "SG-FACE-03")
def test_a_jammed_rudder_forbids_every_turn() -> None:
    aphid = ship("aphid")
    jammed = replace(aphid, criticals=Criticals(rudder_jam=2))
    allowed = free(jammed)
    assert not allowed.course
    for plan in ([AHEAD, STARBOARD], [POWER_PORT], [CLIMB, PORT]):
        assert refused(jammed, plan).clause == "SG-CRIT-38"
    # Straight on, and up or down, it still goes.
    assert len(run(jammed, [AHEAD, AHEAD, CLIMB, DESCEND])) == 4


@pytest.mark.rule("SG-CRIT-42")
def test_jammed_lifters_forbid_changing_altitude() -> None:
    jammed = replace(ship(), criticals=Criticals(lifters_jam=1))
    assert not free(jammed).altitude
    for plan in ([CLIMB], [DESCEND], [AHEAD, DESCEND]):
        assert refused(jammed, plan).clause == "SG-CRIT-42"
    assert len(run(jammed, [AHEAD, STARBOARD, AHEAD])) == 3


@pytest.mark.rule("SG-CREW-09")
def test_nobody_trimming_forbids_changing_altitude() -> None:
    runner = ship()
    untrimmed = replace(runner, crew=replace(runner.crew, trimsman=0))
    assert not untrimmed.trim_manned
    assert refused(untrimmed, [DESCEND]).clause == "SG-CREW-09"
    assert refused(untrimmed, [CLIMB]).clause == "SG-CREW-09"


@pytest.mark.rule("SG-CRIT-16")
def test_a_bridge_hit_forbids_course_and_altitude_changes_this_turn() -> None:
    hit = replace(ship(), criticals=Criticals(helm_locked_turn=NOW.turn))
    assert refused(hit, [AHEAD, PORT]).clause == "SG-CRIT-16"
    assert refused(hit, [CLIMB]).clause == "SG-CRIT-16"
    assert len(run(hit, [AHEAD, AHEAD])) == 2
    # Next turn it is free again.
    later = allowance(hit, now=Moment(NOW.turn + 1, 1), speed=4, last_hexes=0)
    assert later.course
    assert later.altitude


@pytest.mark.rule("SG-CRIT-37")
def test_a_stunned_crew_cannot_move_at_all() -> None:
    stunned = replace(ship(), criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index + 1))
    assert free(stunned).stunned
    for plan in ([AHEAD], [DESCEND], [CLIMB]):
        assert refused(stunned, plan).clause == "SG-CRIT-37"
    assert run(stunned, []) == []


def test_unknown_steps_and_ships_not_flying_are_refused() -> None:
    assert refused(ship(), ["backwards"]).clause == "SG-MOV-02"
    assert refused(replace(ship(), status="crashed"), [AHEAD]).clause == "SG-DMG-16"


# --- collision modifiers ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-COL-02", "SG-COL-03")
@pytest.mark.parametrize("other_facing", range(6))
@pytest.mark.parametrize("entered_from", range(6))
def test_collision_modifiers(other_facing: int, entered_from: int) -> None:
    # +1 for crossing the other ship's bow or stern hexside, -2 for turning in its hex; both may apply.
    across_ends = entered_from in (other_facing, (other_facing + 3) % 6)
    plain = collision_modifiers(entered_from=entered_from, other_facing=other_facing, turned_in_hex=False)
    turning = collision_modifiers(entered_from=entered_from, other_facing=other_facing, turned_in_hex=True)
    assert sum(plain.values()) == (1 if across_ends else 0)
    assert sum(turning.values()) == (1 if across_ends else 0) - 2
    # Without a hexside crossed (a change of altitude, leaving a shared hex) only the turn counts.
    assert collision_modifiers(entered_from=None, other_facing=other_facing, turned_in_hex=False) == {}
    assert sum(collision_modifiers(entered_from=None, other_facing=other_facing, turned_in_hex=True).values()) == -2


@pytest.mark.rule("SG-COL-03")
def test_turns_in_hex_looks_only_until_the_next_hex() -> None:
    plan = [AHEAD, AHEAD, STARBOARD, AHEAD, CLIMB, PORT]
    assert not turns_in_hex(plan, 1)  # after the first hex: straight on
    assert turns_in_hex(plan, 2)  # after the second: turns before moving on
    assert turns_in_hex(plan, 4)  # after the third: climbs, then turns, still in the hex
    assert not turns_in_hex(plan, 6)
    assert turns_in_hex(["power port", AHEAD], 0)


def test_every_step_kind_is_known() -> None:
    assert set(movement.STEPS) == {AHEAD, PORT, STARBOARD, POWER_PORT, POWER_STARBOARD, CLIMB, DESCEND}
    assert altitude_level("G") == 0
