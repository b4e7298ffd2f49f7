"""Kites sailing (battles/rules/sky_galleons/movement.py): points of sail, the allowance from the die, and
what a kite's plan may do: run, beat, never into the wind, tack, change altitude one level a turn.

The wind is the hexside it blows from, 0 = north, clockwise (DESIGN.md "Wind": the die less 1).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.movement import (
    AHEAD,
    BEAT,
    CLIMB,
    CRASH_LANDED,
    DESCEND,
    INTO_THE_WIND,
    KITE_STEPS,
    LANDED,
    PORT,
    POWER_PORT,
    RUN,
    STARBOARD,
    STEPS,
    TACK_PORT,
    TACK_STARBOARD,
    Allowance,
    PlanError,
    Step,
    Terrain,
    allowance,
    plan_cost,
    point_of_sail,
    step_kinds,
    trace,
    turns_in_hex,
)
from galleons.record import Criticals, Moment, ShipRecord, ship_record_from_class, tint

NOW = Moment(1, 1)
MAP = Terrain(30, 30)
CENTRE = hexgrid.from_odd_q(15, 15)
NORTH = 0  # the wind die's 1: the wind blows from the north hexside


def kite(cls: str = "Swiftwood", *, facing: int = 3, altitude: str = "M", at: Hex = CENTRE) -> ShipRecord:
    """A kite, by default facing south: dead downwind in a north wind."""
    return ship_record_from_class(cls, name="Kite", position=at, facing=facing, altitude=altitude)


def sails(record: ShipRecord, die: int, *, wind: int = NORTH, last_hexes: int = 0) -> Allowance:
    return allowance(record, now=NOW, last_hexes=last_hexes, kite_die=die, wind=wind)


def run(record: ShipRecord, plan: Sequence[str], *, die: int = 6, wind: int = NORTH, changed: int = 0) -> list[Step]:
    return trace(
        record, list(plan), allowed=sails(record, die, wind=wind), terrain=MAP, levels_changed_this_turn=changed
    )


def refused(record: ShipRecord, plan: Sequence[str], *, die: int = 6, wind: int = NORTH, changed: int = 0) -> str:
    with pytest.raises(PlanError) as caught:
        run(record, plan, die=die, wind=wind, changed=changed)
    return caught.value.clause


# --- points of sail -------------------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-01", "SG-KITE-02", "SG-KITE-04", "SG-KITE-05", "SG-WIND-03")
def test_points_of_sail_in_a_north_wind() -> None:
    # The wind blows from the north: heading north is into it, NE and NW are the two beats beside it,
    # SE, S and SW the three downwind hexsides.
    assert [point_of_sail(facing, NORTH) for facing in range(6)] == [INTO_THE_WIND, BEAT, RUN, RUN, RUN, BEAT]


@pytest.mark.rule("SG-KITE-01", "SG-KITE-02", "SG-KITE-04", "SG-KITE-05")
@pytest.mark.parametrize("wind", range(6))
def test_points_of_sail_turn_with_the_wind(wind: int) -> None:
    assert point_of_sail(wind, wind) == INTO_THE_WIND
    assert point_of_sail((wind + 3) % 6, wind) == RUN  # dead downwind
    assert {point_of_sail((wind + side) % 6, wind) for side in (1, 5)} == {BEAT}
    assert {point_of_sail((wind + side) % 6, wind) for side in (2, 3, 4)} == {RUN}


def test_point_of_sail_takes_hexsides_only() -> None:
    with pytest.raises(ValueError, match="0-5"):
        point_of_sail(6, 0)
    with pytest.raises(ValueError, match="0-5"):
        point_of_sail(0, -1)


# --- the allowance from the die ---------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-02", "SG-KITE-03")
def test_running_the_allowance_is_one_plus_the_die() -> None:
    allowed = sails(kite(facing=3), 4)
    assert allowed.speed == 5  # the rule's own example: a 4 gives 5
    assert allowed.sail is not None
    assert (allowed.sail.die, allowed.sail.run, allowed.sail.on(3)) == (4, 5, 5)
    assert [sails(kite(), die).speed for die in range(1, 7)] == [2, 3, 4, 5, 6, 7]


@pytest.mark.rule("SG-KITE-04")
def test_beating_the_allowance_is_the_die_halved_rounded_up() -> None:
    beats = [sails(kite(facing=1), die).sail for die in range(1, 7)]
    assert [s.beat for s in beats if s is not None] == [1, 1, 2, 2, 3, 3]
    assert [s.on(1) for s in beats if s is not None] == [1, 1, 2, 2, 3, 3]
    assert [s.on(5) for s in beats if s is not None] == [1, 1, 2, 2, 3, 3]


@pytest.mark.rule("SG-KITE-05")
def test_into_the_wind_there_is_no_allowance() -> None:
    allowed = sails(kite(facing=NORTH), 6)
    assert allowed.sail is not None
    assert allowed.sail.on(NORTH) == 0
    assert allowed.speed == 7  # what it may spend at most, once it bears away on a run


@pytest.mark.rule("SG-CRIT-29", "SGD-MCH-05")
def test_mast_hits_and_topmen_lost_come_off_the_kite() -> None:
    swiftwood = kite()
    masted = replace(swiftwood, criticals=Criticals(screw_mast_hits=1))
    assert sails(masted, 4).speed == 4  # the die counts 3: 1 + 3
    sail = sails(masted, 4).sail
    assert sail is not None
    assert sail.beat == 2
    short = replace(swiftwood, crew=replace(swiftwood.crew, maneuver_lost=1))
    assert sails(short, 4).speed == 4  # a topman lost: 1 speed off
    short_sail = sails(short, 4).sail
    assert short_sail is not None
    assert short_sail.beat == 1


def test_a_kites_allowance_needs_its_die_and_the_wind() -> None:
    swiftwood = kite()
    with pytest.raises(ValueError, match="movement die and the wind"):
        allowance(swiftwood, now=NOW, last_hexes=0)
    with pytest.raises(ValueError, match="movement die and the wind"):
        allowance(swiftwood, now=NOW, last_hexes=0, kite_die=3)
    with pytest.raises(ValueError, match="not a speed"):
        allowance(swiftwood, now=NOW, speed=4, last_hexes=0, kite_die=3, wind=0)
    with pytest.raises(ValueError, match="1-6"):
        allowance(swiftwood, now=NOW, last_hexes=0, kite_die=7, wind=0)
    with pytest.raises(ValueError, match="allowance needs"):
        trace(swiftwood, [AHEAD], allowed=Allowance(7, True, True, None, False), terrain=MAP)


def test_other_ships_roll_no_die_and_ignore_the_wind() -> None:
    runner = ship_record_from_class("Sky Runner", name="Runner", position=CENTRE, facing=0, altitude="M")
    plain = allowance(runner, now=NOW, last_hexes=0)
    assert plain == allowance(runner, now=NOW, speed=runner.effective_speed(), last_hexes=0, wind=0)
    assert plain.sail is None
    assert plain.speed == runner.effective_speed()
    with pytest.raises(ValueError, match="no kite"):
        allowance(runner, now=NOW, last_hexes=0, kite_die=3, wind=0)
    # Into the wind or not, it moves as ever; it may not tack.
    assert trace(runner, [AHEAD, AHEAD], allowed=plain, terrain=MAP)[-1].facing == 0
    with pytest.raises(PlanError) as caught:
        trace(runner, [TACK_PORT], allowed=plain, terrain=MAP)
    assert caught.value.clause == "SG-KITE-07"


@pytest.mark.rule("SG-CREW-08", "SG-KITE-05")
def test_nobody_at_the_helm_a_kite_holds_its_course_as_far_as_its_heading_allows() -> None:
    swiftwood = kite()
    helmless = replace(swiftwood, crew=replace(swiftwood.crew, helmsman=0))
    assert sails(helmless, 1, last_hexes=3).held_speed == 2  # running on a 1: 2 hexes
    assert sails(helmless, 6, last_hexes=3).held_speed == 3
    in_irons = replace(helmless, facing=NORTH)
    assert sails(in_irons, 6, last_hexes=3).held_speed == 0
    assert run(in_irons, []) == []


# --- running, beating, and a change of heading in the move -----------------------------------------------


@pytest.mark.rule("SG-KITE-02", "SG-KITE-03")
def test_a_running_kite_moves_up_to_one_plus_the_die() -> None:
    steps = run(kite(facing=3), [AHEAD] * 5, die=4)
    assert steps[-1].hex == CENTRE + Hex(0, 5)
    assert [s.cost for s in steps] == [1] * 5
    assert "SG-KITE-02" in steps[0].clauses
    assert refused(kite(facing=3), [AHEAD] * 6, die=4) == "SG-KITE-02"


@pytest.mark.rule("SG-KITE-04")
def test_a_beating_kite_moves_up_to_half_the_die() -> None:
    steps = run(kite(facing=1), [AHEAD, AHEAD], die=3)
    assert steps[-1].hex == CENTRE + Hex(2, -2)
    assert "SG-KITE-04" in steps[0].clauses
    assert refused(kite(facing=1), [AHEAD] * 3, die=3) == "SG-KITE-04"


@pytest.mark.rule("SG-KITE-02", "SG-KITE-04", "SG-KITE-06")
def test_a_kite_rolled_on_a_beat_keeps_her_beating_allowance_when_she_bears_away() -> None:
    """SG-KITE-04: the die is rolled at the start of her move, facing a beat, so the allowance is the beat's
    for the whole phase (issue 18: a kite that rolled on a beat ran 5 hexes downwind after bearing away)."""
    # A 4: 5 running, 2 beating. Beating NE, she bears away to SE (a run) after one hex, then to S.
    beating = kite(facing=1)
    assert sails(beating, 4).speed == 2
    steps = run(beating, [AHEAD, STARBOARD, AHEAD], die=4)
    assert (steps[-1].facing, point_of_sail(steps[-1].facing, NORTH)) == (2, RUN)
    assert refused(beating, [AHEAD, STARBOARD, AHEAD, STARBOARD, AHEAD], die=4) == "SG-KITE-04"
    assert refused(beating, [AHEAD, AHEAD, STARBOARD, AHEAD], die=4) == "SG-KITE-04"
    # Bearing away before the first hex changes nothing either: the die was rolled facing the beat.
    assert refused(beating, [AHEAD, STARBOARD, AHEAD, AHEAD], die=4) == "SG-KITE-04"


@pytest.mark.rule("SG-KITE-02", "SG-KITE-04", "SG-KITE-06")
def test_a_kite_rolled_on_a_run_keeps_her_running_allowance_when_she_hauls_onto_a_beat() -> None:
    """SG-KITE-02: rolled facing a run, the running allowance holds for the phase, on a beat too."""
    running = kite(facing=2)
    assert sails(running, 4).speed == 5
    steps = run(running, [AHEAD, AHEAD, AHEAD, PORT, AHEAD, AHEAD], die=4)
    assert (steps[-1].facing, point_of_sail(steps[-1].facing, NORTH)) == (1, BEAT)
    assert refused(running, [AHEAD, AHEAD, AHEAD, PORT, AHEAD, AHEAD, AHEAD], die=4) == "SG-KITE-02"


@pytest.mark.rule("SG-KITE-02", "SG-KITE-03", "SG-KITE-06")
def test_the_rules_example_a_4_running_is_5_hexes_whatever_her_turns() -> None:
    """The worked example (SG-KITE-03): a 4 rolled running gives 5 for that movement phase; she may turn
    a hexside a hex within the downwind hexsides and still has exactly 5."""
    plan = [AHEAD, STARBOARD, AHEAD, AHEAD, PORT, AHEAD, PORT, AHEAD]
    steps = run(kite(facing=3), plan, die=4)
    assert sum(s.cost for s in steps) == 5
    assert [point_of_sail(s.facing, NORTH) for s in steps] == [RUN] * len(plan)
    assert refused(kite(facing=3), [*plan, AHEAD], die=4) == "SG-KITE-02"


@pytest.mark.rule("SG-KITE-04", "SG-KITE-07")
def test_a_tack_keeps_the_beating_allowance() -> None:
    """A tack takes a beating kite across the wind onto the other beat: still the beat's allowance."""
    assert run(kite(facing=1), [AHEAD, TACK_PORT, AHEAD], die=4)[-1].facing == 5
    assert refused(kite(facing=1), [AHEAD, TACK_PORT, AHEAD, AHEAD], die=4) == "SG-KITE-04"


# --- never into the wind ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-05")
def test_a_kite_never_turns_into_the_wind() -> None:
    # Beating NE in a north wind: one hexside to port is dead into the wind.
    assert refused(kite(facing=1), [AHEAD, PORT]) == "SG-KITE-05"
    # In a south-east wind (from hexside 2) the same turn is fine; to starboard it is not.
    assert run(kite(facing=1), [AHEAD, PORT], wind=2)[-1].facing == 0
    assert refused(kite(facing=1), [AHEAD, STARBOARD], wind=2) == "SG-KITE-05"


@pytest.mark.rule("SG-KITE-05", "SG-KITE-07", "SG-KITE-08")
def test_a_kite_found_facing_into_the_wind_cannot_move_ahead() -> None:
    in_irons = kite(facing=NORTH)
    assert refused(in_irons, [AHEAD]) == "SG-KITE-05"
    # It may climb or drop where it is, or tack out onto a run and sail.
    assert run(in_irons, [CLIMB])[-1].altitude == "H"
    steps = run(in_irons, [TACK_STARBOARD, AHEAD, AHEAD], die=1)
    assert [s.facing for s in steps] == [2, 2, 2]
    assert refused(in_irons, [TACK_PORT, AHEAD, AHEAD, AHEAD], die=1) == "SG-KITE-02"  # running on a 1: 2


# --- tacking ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-07")
def test_a_tack_crosses_the_wind_two_hexsides_at_no_cost() -> None:
    # Beating NE, tack to port: across the north wind onto the other beat, NW, and beat on.
    steps = run(kite(facing=1), [AHEAD, TACK_PORT, AHEAD], die=4)
    assert [s.facing for s in steps] == [1, 5, 5]
    assert [s.cost for s in steps] == [1, 0, 1]
    assert steps[1].clauses == ("SG-KITE-07",)
    assert steps[1].hex == steps[0].hex  # in the hex it is in
    assert plan_cost([AHEAD, TACK_PORT, AHEAD], kite=True) == 2
    # It needs no hex moved first, and may be the last step.
    assert run(kite(facing=5), [TACK_STARBOARD])[-1].facing == 1
    assert run(kite(facing=5), [AHEAD, TACK_STARBOARD])[-1].facing == 1


@pytest.mark.rule("SG-KITE-07")
def test_a_tack_is_only_to_avoid_the_wind() -> None:
    # Beating NE, a tack to starboard does not cross the wind: it would be a free 2-hexside turn.
    assert refused(kite(facing=1), [TACK_STARBOARD]) == "SG-KITE-07"
    # Nor from a run.
    assert refused(kite(facing=3), [AHEAD, TACK_PORT]) == "SG-KITE-07"
    assert refused(kite(facing=2), [TACK_PORT]) == "SG-KITE-07"


@pytest.mark.rule("SG-KITE-07")
def test_after_a_tack_no_other_turn_that_phase() -> None:
    assert refused(kite(facing=1), [AHEAD, TACK_PORT, AHEAD, PORT]) == "SG-KITE-07"
    assert refused(kite(facing=2), [AHEAD, PORT, TACK_PORT]) == "SG-KITE-07"  # nor before it
    assert refused(kite(facing=1), [TACK_PORT, AHEAD, TACK_STARBOARD]) == "SG-KITE-07"  # one tack


@pytest.mark.rule("SG-KITE-07", "SG-CRIT-38")
def test_a_jammed_rudder_forbids_a_tack() -> None:
    jammed = replace(kite(facing=1), criticals=Criticals(rudder_jam=2))
    assert refused(jammed, [TACK_PORT]) == "SG-CRIT-38"


@pytest.mark.rule("SG-COL-03", "SG-KITE-07")
def test_a_tack_is_a_turn_in_the_hex() -> None:
    plan = [AHEAD, TACK_PORT, AHEAD]
    assert turns_in_hex(plan, 1)
    assert not turns_in_hex(plan, 2)
    assert run(kite(facing=1), plan)[1].turns


def test_a_tack_turns_the_hexsides_the_tables_give() -> None:
    hexsides = tint("movement", "kite", "tack_hexsides")
    assert (movement.TURNS[TACK_PORT], movement.TURNS[TACK_STARBOARD]) == (-hexsides, hexsides)


# --- turning ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-06")
def test_a_kite_turns_one_hexside_a_hex_moved() -> None:
    steps = run(kite(facing=3), [AHEAD, PORT, AHEAD, STARBOARD, AHEAD])
    assert [s.facing for s in steps] == [3, 2, 2, 3, 3]
    assert steps[1].clauses == ("SG-KITE-06",)
    assert refused(kite(facing=3), [AHEAD, PORT, PORT]) == "SG-KITE-06"
    assert refused(kite(facing=3), [PORT, AHEAD]) == "SG-KITE-06"
    # Its free change of altitude neither gives a turn nor takes away the one its hex gave.
    assert refused(kite(facing=3), [CLIMB, PORT]) == "SG-KITE-06"
    assert run(kite(facing=3), [AHEAD, CLIMB, PORT])[-1].facing == 2


@pytest.mark.rule("SG-MOV-04")
def test_a_kite_has_no_power_turn() -> None:
    assert refused(kite(facing=3), [POWER_PORT]) == "SG-MOV-04"


# --- altitude --------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-08")
def test_a_kite_changes_altitude_one_level_free() -> None:
    steps = run(kite(facing=3), [CLIMB, *[AHEAD] * 5], die=4)  # all 5 MP still go on hexes
    assert steps[0].altitude == "H"
    assert steps[0].cost == 0
    assert steps[0].clauses == ("SG-KITE-08",)
    assert run(kite(facing=3), [AHEAD, DESCEND])[-1].altitude == "L"
    assert plan_cost([CLIMB], kite=True) == plan_cost([DESCEND], kite=True) == 0


@pytest.mark.rule("SG-KITE-08")
def test_a_kite_never_changes_more_than_one_level_a_turn() -> None:
    assert refused(kite(), [CLIMB, CLIMB]) == "SG-KITE-08"
    assert refused(kite(), [DESCEND, AHEAD, DESCEND]) == "SG-KITE-08"
    assert refused(kite(), [CLIMB, DESCEND]) == "SG-KITE-08"
    # Already changed a level of its own will this turn: none left.
    assert refused(kite(), [CLIMB], changed=1) == "SG-KITE-08"
    assert run(kite(), [AHEAD], changed=1)[-1].altitude == "M"


@pytest.mark.rule("SG-KITE-08", "SG-ALT-03", "SG-CRIT-42")
def test_a_kites_altitude_still_obeys_its_ceiling_and_its_lifters() -> None:
    assert refused(kite(altitude="VH"), [CLIMB]) == "SG-ALT-03"
    jammed = replace(kite(), criticals=Criticals(lifters_jam=1))
    assert refused(jammed, [DESCEND]) == "SG-CRIT-42"


@pytest.mark.rule("SG-KITE-08", "SG-ALT-11", "SG-ALT-12")
def test_a_kite_lands_or_crash_lands_as_other_ships_do() -> None:
    assert run(kite(altitude="VL"), [AHEAD, DESCEND])[-1].ends == LANDED
    assert run(kite(altitude="VL"), [AHEAD, AHEAD, DESCEND])[-1].ends == CRASH_LANDED


# --- the step kinds --------------------------------------------------------------------------------------


def test_kites_name_two_more_step_kinds() -> None:
    assert step_kinds(kite()) == (*STEPS, *KITE_STEPS)
    runner = ship_record_from_class("Sky Runner", name="Runner", position=CENTRE, facing=0, altitude="M")
    assert step_kinds(runner) == STEPS
    assert set(KITE_STEPS) == {TACK_PORT, TACK_STARBOARD}


# --- every legal plan, every heading ----------------------------------------------------------------------


@pytest.mark.rule("SG-KITE-02", "SG-KITE-04", "SG-KITE-05", "SG-KITE-06", "SG-KITE-07")
@pytest.mark.parametrize("facing", range(6))
def test_no_legal_plan_sails_into_the_wind_or_past_its_heading(facing: int) -> None:
    tokens = [AHEAD, PORT, STARBOARD, TACK_PORT, TACK_STARBOARD, CLIMB]
    record = kite(facing=facing)
    allowed = sails(record, 3)
    assert allowed.sail is not None
    legal = 0
    for length in range(5):
        for plan in itertools.product(tokens, repeat=length):
            try:
                steps = trace(record, list(plan), allowed=allowed, terrain=MAP)
            except PlanError:
                continue
            legal += 1
            spent = 0
            for step in steps:
                spent += step.cost
                heading = point_of_sail(step.facing, NORTH)
                if step.turns:
                    assert heading != INTO_THE_WIND, plan
                if step.token == AHEAD:
                    assert heading != INTO_THE_WIND, plan
                    # The allowance of her heading when the die was rolled, on every heading (SG-KITE-02/04).
                    assert spent <= (allowed.sail.on(facing) or allowed.sail.run), plan
            assert sum(token in (TACK_PORT, TACK_STARBOARD) for token in plan) <= 1
    assert legal > 1
