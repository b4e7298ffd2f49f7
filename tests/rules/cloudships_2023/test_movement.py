"""Step 2, the move: plans of steps judged with the clause they break (manoeuvre.py, validate.py), the worked
examples as golden tests, the lights and the ceiling, the map edge, the default move and the candidates."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import answers as engine_answers
from battles.engine import hexgrid, resolver
from battles.engine.events import JSON, ROLL
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import manoeuvre, panels, validate
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import (
    BOX_CROSSED,
    COLLISION_CHECK,
    DAMAGE_DUE,
    FATE,
    LEFT,
    MOVE,
    MOVE_DECISION,
    MOVE_DONE,
    MOVE_HELD,
    MOVED,
    RAM_TRIED,
    REALLY_LOW_BAND,
)
from battles.rules.cloudships_2023.phases.turn import status_of
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, of_kind, resolve

MIDDLE = hexgrid.from_odd_q(15, 11)


def moving(name: str, *, seed: bytes = b"cm-seed", options: dict[str, Any] | None = None, **status: Any) -> Any:
    """The state at step 2 of ``name``'s turn, in the middle of the map facing north, her status as checked
    (``status`` overrides: movement, kite_roll, no_altitude_change, no_direction_change, whole_movement)."""
    st = new(seed)
    if options:
        st = st.evolve(options={**st.options, **options})
    board = changed(mid_round(st, active=name), name, hex=MIDDLE, facing=0)
    ship = board.ship_named(name)
    checked = replace(status_of(ship, status.pop("kite_roll", None)), **status)
    return at_stage(st, MOVE, replace(board, status=checked))


def with_board(state: BattleState[Board], board: Board) -> BattleState[Board]:
    return state.evolve(board=board)


def clause(state: BattleState[Board], name: str, plan: JSON) -> str | None:
    """The clause a plan breaks, or None if it is legal."""
    problem = validate.move_problem(state, name, plan)
    return None if problem is None else problem.clause


def end(state: BattleState[Board], name: str, plan: list[str]) -> manoeuvre.Step:
    return manoeuvre.trace(validate.mover_of(state, name), plan)[-1]


AHEAD, PORT, STARBOARD = manoeuvre.AHEAD, manoeuvre.PORT, manoeuvre.STARBOARD
POWER_PORT, POWER_STARBOARD = manoeuvre.POWER_PORT, manoeuvre.POWER_STARBOARD
CLIMB, DESCEND = manoeuvre.CLIMB, manoeuvre.DESCEND
CLIMB_AHEAD, DESCEND_AHEAD = manoeuvre.CLIMB_AHEAD, manoeuvre.DESCEND_AHEAD


# --- the movement points ----------------------------------------------------------------------------------------


@pytest.mark.rule("CM-MOV-02", "CM-SEQ-06")
def test_a_ship_may_stay_or_move_less_than_her_allowance_but_never_more():
    st = moving("Aphid")  # steam, 6 MP
    assert clause(st, "Aphid", []) is None
    assert clause(st, "Aphid", [AHEAD] * 3) is None
    assert clause(st, "Aphid", [AHEAD] * 6) is None
    assert clause(st, "Aphid", [AHEAD] * 7) == "CM-SEQ-06"
    assert clause(st, "Aphid", ["fly"]) == "CM-SEQ-06"
    assert clause(st, "Aphid", {"steps": [AHEAD]}) == "CM-SEQ-06"


@pytest.mark.rule("CM-MOV-03", "CM-MOV-04")
def test_each_point_moves_a_hex_forward_and_the_free_turn_comes_after_the_hex_is_entered():
    st = moving("Hullcutter")  # a screw galley: free turns only
    step = end(st, "Hullcutter", [AHEAD, STARBOARD])
    assert (step.hex, step.facing, step.cost) == (hexgrid.neighbour(MIDDLE, 0), 1, 0)
    assert end(st, "Hullcutter", [AHEAD, STARBOARD, AHEAD]).hex == hexgrid.neighbour(hexgrid.neighbour(MIDDLE, 0), 1)
    assert clause(st, "Hullcutter", [STARBOARD, AHEAD]) == "CM-PT-07"  # before the hex: refused
    assert clause(st, "Hullcutter", [AHEAD, PORT, PORT]) == "CM-PT-07"  # one a hex
    assert clause(moving("Aphid"), "Aphid", [PORT, AHEAD]) == "CM-MOV-04"


@pytest.mark.rule("CM-MOV-05", "CM-MOV-06")
def test_a_climb_in_place_costs_a_point_and_only_a_steamer_turns_there_by_power_turns():
    st = moving("Hullcutter")
    board = changed(st.board, "Hullcutter", band=panels.LOW)
    st = with_board(st, board)
    step = end(st, "Hullcutter", [CLIMB])
    assert (step.hex, step.band, step.cost) == (MIDDLE, panels.MEDIUM, 1)
    assert clause(st, "Hullcutter", [CLIMB, PORT]) == "CM-MOV-06"
    assert clause(st, "Hullcutter", [CLIMB, POWER_PORT]) == "CM-PT-06"
    steamer = moving("Aphid")  # at Medium
    turned = end(steamer, "Aphid", [CLIMB, POWER_PORT, POWER_PORT])
    assert (turned.band, turned.facing, manoeuvre.cost([CLIMB, POWER_PORT, POWER_PORT])) == (panels.HIGH, 4, 3)


@pytest.mark.rule("CM-MOV-07", "CM-MOV-08")
def test_a_climb_while_moving_costs_two_points_the_hex_included_and_keeps_the_free_turn():
    st = moving("Aphid")
    step = end(st, "Aphid", [CLIMB_AHEAD, PORT])
    assert (step.hex, step.band, step.facing) == (hexgrid.neighbour(MIDDLE, 0), panels.HIGH, 5)
    assert manoeuvre.cost([CLIMB_AHEAD, PORT]) == 2
    assert clause(st, "Aphid", [CLIMB_AHEAD, *[AHEAD] * 4]) is None  # 6 MP: 2 + 4
    assert clause(st, "Aphid", [CLIMB_AHEAD, *[AHEAD] * 5]) == "CM-SEQ-06"


@pytest.mark.rule("CM-MOV-09", "CM-MOV-10", "CM-MOV-11")
def test_a_descent_while_moving_is_free_and_one_in_place_costs_a_point():
    st = moving("Aphid")  # at Medium, 6 MP
    step = end(st, "Aphid", [DESCEND_AHEAD, STARBOARD, *[AHEAD] * 5])
    assert (step.band, manoeuvre.cost([DESCEND_AHEAD, STARBOARD, *[AHEAD] * 5])) == (panels.LOW, 6)
    in_place = end(st, "Aphid", [DESCEND, POWER_STARBOARD])
    assert (in_place.hex, in_place.band, in_place.facing) == (MIDDLE, panels.LOW, 1)
    assert manoeuvre.cost([DESCEND, POWER_STARBOARD]) == 2
    galley = moving("Hullcutter")
    galley = with_board(galley, changed(galley.board, "Hullcutter", band=panels.MEDIUM))
    assert clause(galley, "Hullcutter", [DESCEND, STARBOARD]) == "CM-MOV-11"


# --- kites ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-MOV-12", "CM-MOV-13", "CM-MOV-14")
def test_a_kite_moves_up_to_her_die_and_one_that_has_not_moved_may_not_turn():
    st = moving("Skylord", kite_roll=3, movement=3)
    assert clause(st, "Skylord", [AHEAD] * 3) is None
    assert clause(st, "Skylord", [AHEAD]) is None
    assert clause(st, "Skylord", [AHEAD] * 4) == "CM-MOV-12"
    assert clause(st, "Skylord", [PORT]) == "CM-MOV-14"
    assert clause(st, "Skylord", [POWER_PORT]) == "CM-PT-09"


@pytest.mark.rule("CM-MOV-15", "CM-MOV-16", "CM-MOV-17")
def test_a_kite_turns_once_a_move_and_on_a_six_twice_both_the_same_way():
    five = moving("Skylord", kite_roll=5, movement=5)
    assert clause(five, "Skylord", [AHEAD, PORT, AHEAD]) is None
    assert clause(five, "Skylord", [AHEAD, PORT, AHEAD, PORT]) == "CM-MOV-15"
    six = moving("Skylord", kite_roll=6, movement=6)
    # the worked example: a 6 gives two changes of facing, the same way, each after a hex entered
    golden = end(six, "Skylord", [AHEAD, STARBOARD, AHEAD, STARBOARD, AHEAD])
    assert golden.facing == 2
    assert clause(six, "Skylord", [AHEAD, STARBOARD, AHEAD, PORT]) == "CM-MOV-17"
    assert clause(six, "Skylord", [AHEAD, PORT, AHEAD, PORT, AHEAD, PORT]) == "CM-MOV-16"
    assert clause(six, "Skylord", [AHEAD, PORT, PORT]) == "CM-MOV-04"  # still one a hex


# --- power turns and screw galleys ------------------------------------------------------------------------------


@pytest.mark.rule("CM-PT-01", "CM-PT-02", "CM-PT-03", "CM-PT-04", "CM-PT-05")
def test_a_steamer_power_turns_for_a_point_before_a_hex_several_in_a_hex_and_as_well_as_her_free_turn():
    st = moving("Aphid")
    turned = end(st, "Aphid", [POWER_STARBOARD, AHEAD])  # before entering the hex
    assert (turned.hex, turned.facing) == (hexgrid.neighbour(MIDDLE, 1), 1)
    about = [AHEAD, STARBOARD, POWER_STARBOARD, POWER_STARBOARD]  # free turn and two power turns: about face
    assert (end(st, "Aphid", about).facing, manoeuvre.cost(about)) == (3, 3)
    assert clause(st, "Aphid", [*[POWER_PORT] * 6, AHEAD]) == "CM-SEQ-06"  # the points run out


@pytest.mark.rule("CM-PT-06", "CM-PT-07", "CM-PT-08", "CM-PT-09")
def test_worked_example_a_screw_galley_moving_two_of_her_three_hexes_gets_two_turns():
    st = moving("Hullcutter")
    assert st.board.ship_named("Hullcutter").panel.movement == 3
    assert clause(st, "Hullcutter", [AHEAD, PORT, AHEAD, PORT]) is None
    assert clause(st, "Hullcutter", [AHEAD, PORT, AHEAD, PORT, PORT]) == "CM-PT-07"
    assert clause(st, "Hullcutter", [AHEAD, PORT, AHEAD, PORT, AHEAD, PORT]) is None  # three hexes, three turns
    assert clause(st, "Hullcutter", [AHEAD, POWER_PORT]) == "CM-PT-06"
    assert clause(moving("Skylord", kite_roll=4, movement=4), "Skylord", [AHEAD, POWER_PORT]) == "CM-PT-09"


# --- lights, ceiling, Ground, the map's edge ---------------------------------------------------------------------


@pytest.mark.rule("CM-LIGHT-02", "CM-LIGHT-03", "CM-LIGHT-05", "CM-LIGHT-08")
def test_the_lights_stop_turns_band_changes_and_a_lit_bridge_hit_spends_every_point():
    assert clause(moving("Aphid", no_direction_change=True), "Aphid", [AHEAD, PORT]) == "CM-LIGHT-02"
    assert clause(moving("Aphid", no_direction_change=True), "Aphid", [POWER_PORT]) == "CM-LIGHT-02"
    assert clause(moving("Aphid", no_altitude_change=True), "Aphid", [CLIMB_AHEAD]) == "CM-LIGHT-03"
    assert clause(moving("Aphid", no_altitude_change=True), "Aphid", [DESCEND]) == "CM-LIGHT-03"
    bridge = moving("Aphid", whole_movement=True)
    assert clause(bridge, "Aphid", [AHEAD] * 5) == "CM-LIGHT-08"
    assert clause(bridge, "Aphid", [AHEAD] * 6) is None
    assert clause(bridge, "Aphid", [CLIMB_AHEAD, *[AHEAD] * 4]) is None  # every point, spent any way


@pytest.mark.rule("CM-ALT-01", "CM-DMG-07", "CM-DMG-08")
def test_no_ship_climbs_above_high_or_the_ceiling_her_damage_left():
    st = moving("Aphid")
    high = with_board(st, changed(st.board, "Aphid", band=panels.HIGH))
    assert clause(high, "Aphid", [CLIMB]) == "CM-ALT-01"
    aphid = st.board.ship_named("Aphid")
    lowered = replace(aphid.panel, track=((panels.MEDIUM, panels.LOW, panels.HULL, panels.GROUND),))
    medium = with_board(st, changed(st.board, "Aphid", panel=lowered, crossed=1))
    assert medium.board.ship_named("Aphid").ceiling == panels.MEDIUM
    assert clause(medium, "Aphid", [CLIMB_AHEAD]) == "CM-DMG-07"
    low = with_board(st, changed(st.board, "Aphid", panel=lowered, crossed=2, band=panels.LOW))
    assert clause(low, "Aphid", [CLIMB]) == "CM-DMG-08"


@pytest.mark.rule("CM-ALT-02", "CM-ALT-06")
def test_a_ship_never_goes_down_to_ground_by_choice_and_really_low_is_an_option():
    st = moving("Aphid")
    low = with_board(st, changed(st.board, "Aphid", band=panels.LOW))
    assert clause(low, "Aphid", [DESCEND]) == "CM-ALT-02"
    assert clause(low, "Aphid", [DESCEND_AHEAD]) == "CM-ALT-02"
    option = moving("Aphid", options={REALLY_LOW_BAND: True})
    really = with_board(option, changed(option.board, "Aphid", band=panels.LOW))
    assert end(really, "Aphid", [DESCEND]).band == panels.REALLY_LOW
    assert clause(really, "Aphid", [DESCEND, DESCEND]) == "CM-ALT-02"


def answer(state: BattleState[Board], choice: JSON, seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    """Ask the active ship's move at ``state`` and answer it with ``choice``."""
    asked = resolve(state, seed)
    request = asked.state.pending()[0]
    assert request.kind == MOVE_DECISION
    done = resolver.submit(CLOUDSHIPS, asked.state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert isinstance(done, resolver.Accepted), done
    return done


@pytest.mark.rule("CM-SEQ-06")
def test_off_the_map_edge_a_ship_leaves_the_battle_and_her_move_ends():
    st = moving("Aphid")
    edge = hexgrid.from_odd_q(15, 1)
    st = with_board(st, changed(st.board, "Aphid", hex=edge))
    assert clause(st, "Aphid", [AHEAD, AHEAD, AHEAD]) == "CM-SEQ-06"  # nothing after leaving
    assert end(st, "Aphid", [AHEAD, AHEAD]).ends == manoeuvre.LEFT_MAP
    done = answer(st, [AHEAD, AHEAD])
    assert [e.data["hex"] for e in of_kind(done.events, MOVED)] == [hexgrid.from_odd_q(15, 0).to_json()]
    fate = of_kind(done.events, FATE)
    assert [(e.data["ship"], e.data["status"]) for e in fate] == [("Aphid", LEFT)]
    assert not done.state.board.ship_named("Aphid").flying


@pytest.mark.rule("CM-SEQ-06", "CM-MOV-03")
def test_the_move_is_made_step_by_step_and_the_board_follows():
    st = moving("Aphid")
    done = answer(st, [AHEAD, STARBOARD, CLIMB, POWER_PORT])
    steps = of_kind(done.events, MOVED)
    assert [e.data["step"] for e in steps] == [AHEAD, STARBOARD, CLIMB, POWER_PORT]
    aphid = done.state.board.ship_named("Aphid")
    assert (aphid.hex, aphid.facing, aphid.band) == (hexgrid.neighbour(MIDDLE, 0), 0, panels.HIGH)
    assert of_kind(done.events, MOVE_DONE)[0].data == {"ship": "Aphid", "hexes": 1}
    assert done.state.board.move is None


# --- the default move and the candidates --------------------------------------------------------------------------


def test_the_default_move_holds_course_straight_ahead_stopping_short_of_the_map_edge():
    st = moving("Aphid")
    assert validate.default_move(st, "Aphid") == [AHEAD] * 6
    near = with_board(st, changed(st.board, "Aphid", hex=hexgrid.from_odd_q(15, 2)))
    assert validate.default_move(near, "Aphid") == [AHEAD] * 2
    bridge = moving("Aphid", whole_movement=True, no_direction_change=True)
    bridge = with_board(bridge, changed(bridge.board, "Aphid", hex=hexgrid.from_odd_q(15, 2)))
    assert validate.default_move(bridge, "Aphid") == [AHEAD] * 3  # she must: off the map she goes


@pytest.mark.parametrize("name", ["Aphid", "Hullcutter", "Skylord"])
def test_every_candidate_is_legal_and_they_reach_every_end_a_short_move_can(name: str):
    st = moving(name, kite_roll=6, movement=6) if name == "Skylord" else moving(name)
    found = validate.move_candidates(st, name)
    assert found
    assert len(found) <= 1 + manoeuvre.MOST_PLANS + validate.MOST_RAMS * 5
    assert found[0] == validate.default_move(st, name)  # full ahead, which the cheapest 400 ends may not hold
    assert all(validate.move_problem(st, name, plan) is None for plan in found)
    ends = {(s.hex, s.band) for plan in found if isinstance(plan, list) and plan for s in [end(st, name, plan)]}
    assert (hexgrid.neighbour(MIDDLE, 0), st.board.ship_named(name).band) in ends
    assert [] in found


# --- rams and collisions ------------------------------------------------------------------------------------------

TWO_AHEAD = hexgrid.neighbour(hexgrid.neighbour(MIDDLE, 0), 0)


def facing_locust(rammer: str, seed: bytes = b"cm-seed", band: str = panels.MEDIUM) -> BattleState[Board]:
    """``rammer`` at step 2 in the middle of the map at Medium facing north, the Locust two hexes ahead at
    ``band``."""
    st = moving(rammer, seed=seed)
    board = changed(st.board, rammer, band=panels.MEDIUM)
    return with_board(st, changed(board, "Locust", hex=TWO_AHEAD, band=band))


@pytest.mark.rule("CM-RAM-01")
def test_a_ram_is_declared_on_a_ship_whose_hex_the_move_enters_at_her_band():
    st = facing_locust("Hullcutter")
    assert clause(st, "Hullcutter", {"steps": [AHEAD, AHEAD], "ram": "Locust"}) is None
    assert clause(st, "Hullcutter", {"steps": [AHEAD], "ram": "Locust"}) == "CM-RAM-01"
    assert clause(st, "Hullcutter", {"steps": [AHEAD, AHEAD], "ram": "Hullcutter"}) == "CM-RAM-01"
    assert clause(st, "Hullcutter", {"steps": [AHEAD, AHEAD], "ram": "Nobody"}) == "CM-RAM-01"
    higher = facing_locust("Hullcutter", band=panels.HIGH)
    assert clause(higher, "Hullcutter", {"steps": [AHEAD, AHEAD], "ram": "Locust"}) == "CM-RAM-01"


@pytest.mark.rule("CM-RAM-02", "CM-RAM-03", "CM-RAM-04", "CM-RAM-05")
def test_a_ram_hits_only_on_the_higher_score_steam_adding_one_and_deals_ram_value_plus_speed():
    seen: dict[str, int] = {}
    for n in range(60):
        seed = b"ram-%d" % n
        done = answer(facing_locust("Hullcutter", seed), {"steps": [AHEAD, AHEAD, AHEAD], "ram": "Locust"}, seed)
        tried = of_kind(done.events, RAM_TRIED)[0].data
        rolls = [e.data for e in done.events if e.kind == ROLL and "ram" in e.data["purpose"]]
        assert [roll["modifiers"] for roll in rolls] == [{}, {"steam": 1}]  # the Locust is steam, the galley not
        mine, theirs = tried["scores"]
        assert tried["hit"] == (mine > theirs)
        due = [e.data for e in of_kind(done.events, DAMAGE_DUE)]
        crossed = [e for e in of_kind(done.events, BOX_CROSSED) if e.data["ship"] == "Locust"]
        last = of_kind(done.events, MOVED)[-1].data["hex"]
        if tried["hit"]:
            # the Hullcutter's ram 4 plus her speed: two hexes, the rammed one included; she stops there
            assert due == [{"ship": "Locust", "points": 4 + 2, "by": "Hullcutter"}]
            assert len(crossed) == 6  # marked at step 4
            assert last == TWO_AHEAD.to_json()
        else:
            assert (due, crossed) == ([], [])
            assert last == hexgrid.neighbour(TWO_AHEAD, 0).to_json()  # she slides by
            assert not of_kind(done.events, COLLISION_CHECK)
        kind = "tie" if mine == theirs else "hit" if tried["hit"] else "miss"
        seen[kind] = seen.get(kind, 0) + 1
        if len(seen) == 3:
            break
    assert set(seen) == {"hit", "miss", "tie"}


@pytest.mark.rule("CM-COL-01", "CM-COL-02", "CM-COL-03")
def test_coming_into_a_ships_hex_and_band_both_roll_and_equal_scores_collide_each_taking_the_others_ram():
    outcomes = set()
    for n in range(60):
        seed = b"collide-%d" % n
        done = answer(facing_locust("Hullcutter", seed), [AHEAD, AHEAD, AHEAD], seed)
        check = of_kind(done.events, COLLISION_CHECK)[0].data
        assert (check["ship"], check["other"]) == ("Hullcutter", "Locust")
        mine, theirs = check["scores"]
        assert check["collided"] == (mine == theirs)
        due = [e.data for e in of_kind(done.events, DAMAGE_DUE)]
        last = of_kind(done.events, MOVED)[-1].data["hex"]
        if check["collided"]:
            assert due == [
                {"ship": "Hullcutter", "points": 1, "by": "Locust"},  # the Locust's ram value
                {"ship": "Locust", "points": 4, "by": "Hullcutter"},  # the Hullcutter's
            ]
            assert last == TWO_AHEAD.to_json()  # her move stops there
        else:
            assert due == []
            assert last == hexgrid.neighbour(TWO_AHEAD, 0).to_json()
        outcomes.add(check["collided"])
        if len(outcomes) == 2:
            break
    assert outcomes == {True, False}


@pytest.mark.rule("CM-COL-01")
def test_no_collision_check_at_another_band_and_one_on_climbing_into_a_ships_band_in_her_hex():
    passing = answer(facing_locust("Hullcutter", band=panels.HIGH), [AHEAD, AHEAD, AHEAD])
    assert not of_kind(passing.events, COLLISION_CHECK)
    st = facing_locust("Hullcutter", band=panels.HIGH)
    climbing = answer(st, [AHEAD, AHEAD, CLIMB])
    assert [e.data["other"] for e in of_kind(climbing.events, COLLISION_CHECK)] == ["Locust"]


# --- the answer schema -----------------------------------------------------------------------------------------------


def test_the_move_schema_offers_the_steps_the_rules_take_next_and_a_ram_and_spells_the_answer():
    st = facing_locust("Hullcutter")
    asked = resolve(st)
    request = asked.state.pending()[0]
    fresh = CLOUDSHIPS.answer_schema(asked.state, request).to_json()
    path = fresh["root"]["fields"][0]
    assert fresh["layout"] == "move"
    assert set(path["progress"]["accepted"]) == {
        AHEAD,
        CLIMB,
        DESCEND,
        CLIMB_AHEAD,
        DESCEND_AHEAD,
    }  # a galley: no power turn
    two = CLOUDSHIPS.answer_schema(asked.state, request, partial=[AHEAD, AHEAD])
    built = two.to_json()["root"]
    assert {PORT, STARBOARD} <= set(built["fields"][0]["progress"]["accepted"])
    rams = [o["value"] for o in built["fields"][1]["options"]]
    assert rams == [None, {"ram": "Locust"}]
    posted = {"steps": ['["ahead","ahead"]'], "attack": ['{"ram":"Locust"}']}
    assert engine_answers.assemble(two, posted) == {"steps": [AHEAD, AHEAD], "ram": "Locust"}
    assert engine_answers.assemble(two, {"steps": ['["ahead"]'], "attack": [""]}) == [AHEAD]
    spelled = engine_answers.disassemble(two, {"steps": [AHEAD, AHEAD], "ram": "Locust"})
    assert engine_answers.assemble(two, spelled) == {"steps": [AHEAD, AHEAD], "ram": "Locust"}


@pytest.mark.rule("CM-BRD-18")
def test_a_grappled_ship_is_not_asked_to_move_and_holds_her_hex():
    st = moving("Aphid")
    board = changed(st.board, "Aphid", grappled=("Locust",))
    done = resolve(with_board(st, changed(board, "Locust", grappled=("Aphid",))))
    assert of_kind(done.events, MOVE_HELD)[0].data["ship"] == "Aphid"
    assert not of_kind(done.events, MOVED)
    assert all(r.ships != ("Aphid",) or r.kind != MOVE_DECISION for r in done.state.pending())


def _every_end_step_by_step(move: manoeuvre.Mover) -> set[tuple[Any, ...]]:
    """The reference: every way a move can go, one step at a time, each way state grown once and nothing pruned
    (the breadth-first walk every_plan made before it searched cheapest first); the ends the rules accept."""
    ends: set[tuple[Any, ...]] = set()
    seen = {manoeuvre.start(move)}
    layer = [manoeuvre.start(move)]
    while layer:
        grown = []
        for way in layer:
            try:
                manoeuvre.check_whole(move, way)
                ends.add((way.hex, way.facing, way.band, way.ended))
            except manoeuvre.PlanError:
                pass
            for token in manoeuvre.STEPS:
                try:
                    after, _ = manoeuvre.take(move, way, token, 0)
                except manoeuvre.PlanError:
                    continue
                if after not in seen:
                    seen.add(after)
                    grown.append(after)
        layer = grown
    return ends


@pytest.mark.parametrize(
    ("name", "status", "options"),
    [
        ("Aphid", {"movement": 4}, {}),
        ("Aphid", {"movement": 3, "no_direction_change": True}, {}),
        ("Aphid", {"movement": 3, "no_altitude_change": True}, {}),
        ("Aphid", {"movement": 3, "whole_movement": True}, {}),
        ("Hullcutter", {"movement": 4}, {REALLY_LOW_BAND: True}),
        ("Skylord", {"movement": 5, "kite_roll": 6}, {}),
    ],
)
def test_every_plan_reaches_every_end_a_step_by_step_walk_does_each_plan_legal_cheapest_first(name, status, options):
    """manoeuvre.every_plan (the random player's candidates and the AI's courses) searches cheapest first and
    drops a way reached for no fewer points: it must still find every end, each by a plan the rules accept."""
    state = moving(name, options=options, **status)
    move = validate.mover_of(state, name)
    found = manoeuvre.every_plan(move, most=None)
    ends = {
        (s[-1].hex, s[-1].facing, s[-1].band, s[-1].ends) if s else (MIDDLE, 0, move.ship.band, "") for _, s in found
    }
    assert ends == _every_end_step_by_step(move)
    assert len(ends) == len(found)  # one plan an end
    assert [manoeuvre.cost(plan) for plan, _ in found] == sorted(manoeuvre.cost(plan) for plan, _ in found)
    for plan, steps in found:
        assert manoeuvre.trace(move, plan) == steps
    assert manoeuvre.every_plan(move, most=5) == found[:5]
