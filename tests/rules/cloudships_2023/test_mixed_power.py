"""Mixed power, steam and sail (CM-MOV-18..23; docs/cloudships.md section 6): no catalog panel has it, so the Aphid
is given it here as a scenario or the umpire would: steam 3 guaranteed, the sail's die adding 0, 1 or 2."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.events import ROLL
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import panels, tactics, validate
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import MOVE, RAM_TRIED, STATUS, STATUS_CHECKED
from battles.rules.cloudships_2023.phases.turn import status_of
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, of_kind, resolve
from tests.rules.cloudships_2023.test_movement import (
    AHEAD,
    MIDDLE,
    PORT,
    POWER_PORT,
    STARBOARD,
    TWO_AHEAD,
    answer,
    clause,
)

STEAM = 3


def mixed(board: Board, name: str = "Aphid") -> Board:
    """``name`` refitted with steam engines and sails: steam speed 3 (CM-MOV-18)."""
    panel = replace(board.ship_named(name).panel, motive=panels.MIXED, movement=STEAM)
    return changed(board, name, panel=panel)


def under_way(sail_roll: int, seed: bytes = b"cm-seed") -> BattleState[Board]:
    """The mixed Aphid at step 2 of her turn in the middle of the map facing north, her sail having rolled
    ``sail_roll``."""
    st = new(seed)
    board = mixed(changed(mid_round(st, active="Aphid"), "Aphid", hex=MIDDLE, facing=0))
    status = status_of(board.ship_named("Aphid"), sail_roll=sail_roll)
    return at_stage(st, MOVE, replace(board, status=status))


def test_a_mixed_panel_goes_to_json_and_back():
    panel = mixed(new().board).ship_named("Aphid").panel
    assert panels.ControlPanel.from_json(panel.to_json()) == panel


@pytest.mark.rule("CM-MOV-18")
def test_a_mixed_power_ship_has_her_steam_speed_whatever_the_wind_and_power_turns_with_it():
    st = under_way(sail_roll=1)
    assert st.board.status is not None
    assert (st.board.status.movement, st.board.status.sail) == (STEAM, 0)
    assert clause(st, "Aphid", [AHEAD] * STEAM) is None
    assert clause(st, "Aphid", [AHEAD] * (STEAM + 1)) == "CM-SEQ-06"
    assert clause(st, "Aphid", [POWER_PORT, AHEAD, POWER_PORT]) is None  # a steamer's power turns


@pytest.mark.rule("CM-MOV-19", "CM-MOV-20", "CM-MOV-21")
def test_the_sail_die_adds_nothing_on_1_to_4_one_point_on_a_5_and_two_on_a_6():
    aphid = mixed(new().board).ship_named("Aphid")
    assert [status_of(aphid, sail_roll=roll).movement for roll in range(1, 7)] == [3, 3, 3, 3, 4, 5]
    assert [status_of(aphid, sail_roll=roll).sail for roll in range(1, 7)] == [0, 0, 0, 0, 1, 2]
    speed_box = replace(aphid, panel=replace(aphid.panel, track=((panels.SPEED, panels.GROUND),)), crossed=1)
    assert status_of(speed_box, sail_roll=6).movement == STEAM - 1 + 2  # damage takes the engines', not the wind's


@pytest.mark.rule("CM-MOV-19", "CM-SEQ-05")
def test_the_sail_die_is_rolled_and_logged_at_the_status_check():
    for n in range(8):
        seed = b"sail-%d" % n
        board = mixed(mid_round(new(seed), active="Aphid"))
        done = resolve(at_stage(new(seed), STATUS, board), seed)
        roll = next(e for e in done.events if e.kind == ROLL and "sail" in e.data["purpose"])
        status = of_kind(done.events, STATUS_CHECKED)[0].data
        bonus = {5: 1, 6: 2}.get(roll.data["total"], 0)
        assert status["movement"] == STEAM + bonus
        assert status.get("sail", 0) == bonus


@pytest.mark.rule("CM-MOV-22")
def test_no_power_turn_with_the_sails_points_but_one_hexside_turn_once():
    st = under_way(sail_roll=6)  # 3 + 2
    assert clause(st, "Aphid", [AHEAD, POWER_PORT, AHEAD, AHEAD, AHEAD]) is None  # the turn paid by steam
    assert clause(st, "Aphid", [AHEAD, AHEAD, AHEAD, POWER_PORT]) == "CM-MOV-22"
    assert clause(st, "Aphid", [AHEAD] * 4 + [PORT, AHEAD]) is None
    assert clause(st, "Aphid", [AHEAD] * 4 + [PORT, AHEAD, PORT]) == "CM-MOV-22"
    zigzag = [AHEAD, PORT, AHEAD, STARBOARD, AHEAD, PORT, AHEAD, STARBOARD, AHEAD]  # the 4th hex's turn: the sail's
    assert clause(st, "Aphid", zigzag) is None
    assert clause(st, "Aphid", [*zigzag, PORT]) == "CM-MOV-22"
    plans = validate.move_candidates(st, "Aphid")
    assert plans
    assert all(validate.move_problem(st, "Aphid", plan) is None for plan in plans)


@pytest.mark.rule("CM-MOV-23", "CM-RAM-02")
def test_a_mixed_power_ship_rolls_as_a_steamer_when_she_rams():
    for n in range(4):
        seed = b"mixed-ram-%d" % n
        st = under_way(sail_roll=1, seed=seed)
        board = changed(st.board, "Aphid", band=panels.MEDIUM)
        st = st.evolve(board=changed(board, "Locust", hex=TWO_AHEAD, band=panels.MEDIUM))
        done = answer(st, {"steps": [AHEAD, AHEAD], "ram": "Locust"}, seed)
        assert of_kind(done.events, RAM_TRIED)
        rolls = [e.data for e in done.events if e.kind == ROLL and "ram" in e.data["purpose"]]
        assert [roll["modifiers"] for roll in rolls] == [{"steam": 1}, {"steam": 1}]
    assert tactics.ram_odds(st.board.ship_named("Aphid"), st.board.ship_named("Locust")) == pytest.approx(15 / 36)
