"""Steps 1, 4 and 5 of a ship's turn and the end of the round, on boards made for the purpose: the status a ship's
track and lights give, damage crossed box by box, ambers, the light cycle, fires and crew repairs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import dice
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, DamageDue
from battles.rules.cloudships_2023.kinds import (
    AMBER_LIT,
    AMBERS,
    BOX_CROSSED,
    CRASHED,
    CRITICAL,
    DAMAGE,
    DROPPED,
    END_OF_ROUND,
    FATE,
    FIRE_BURNS,
    GUN_LOST,
    LIGHTS_CYCLED,
    PARTY_LOST,
    REPAIRED,
    STATUS,
    STATUS_CHECKED,
)
from battles.rules.cloudships_2023.panels import AMBER, GREEN, RED
from battles.rules.cloudships_2023.phases.turn import status_of
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, of_kind, resolve, ship

NAC, NDC, BRIDGE, FIRE = panels.NO_ALTITUDE_CHANGE, panels.NO_DIRECTION_CHANGE, panels.BRIDGE_HIT, panels.FIRE


def board_at_turn(active: str = "Aphid") -> Board:
    return mid_round(new(umpire=True), active=active)


def run(stage: str, board: Board, seed: bytes = b"cm-seed"):
    """Resolve from ``stage`` with ``board`` up to the next go-ahead for a card (the umpire option is on)."""
    return resolve(at_stage(new(seed, umpire=True), stage, board), seed)


def track_with(board: Board, name: str, boxes: tuple[str, ...]) -> Board:
    """The ship's damage track replaced by one row of ``boxes``."""
    s = ship(board, name)
    return changed(board, name, panel=replace(s.panel, track=(boxes,)))


# --- step 1 ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-SEQ-05", "CM-DMG-09", "CM-LIGHT-05")
def test_the_status_check_reads_the_speed_boxes_crossed_and_the_lit_lights_amber_or_red_alike():
    board = track_with(board_at_turn(), "Aphid", ("Speed", "Hull", "Speed", "Hull", "Ground"))
    aphid = replace(ship(board, "Aphid"), crossed=3).with_lights({NDC: RED, BRIDGE: AMBER})
    status = status_of(aphid)
    assert aphid.panel.movement == 6
    assert (status.movement, status.no_direction_change, status.whole_movement) == (4, True, True)
    assert not status.no_altitude_change
    assert status_of(replace(aphid, criticals=("Motive Power Hit",))).movement == 3


@pytest.mark.rule("CM-MOV-12")
def test_a_kite_rolls_its_movement_at_the_status_check_and_a_steamer_does_not():
    board = board_at_turn("Skylord")
    assert ship(board, "Skylord").panel.movement is None
    done = run(STATUS, board)
    roll = next(e for e in done.events if e.kind == "roll")
    status = of_kind(done.events, STATUS_CHECKED)[0].data
    assert "kite rolls" in roll.data["purpose"]
    assert status["kite_roll"] == roll.data["dice"][0] == status["movement"]
    steamer = run(STATUS, board_at_turn("Aphid"))
    assert of_kind(steamer.events, STATUS_CHECKED)[0].data["movement"] == 6
    assert not [e for e in steamer.events if e.kind == "roll" and "kite" in e.data["purpose"]]


# --- step 4 ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-DMG-01", "CM-DMG-03", "CM-SEQ-11")
def test_damage_crosses_the_track_left_to_right_then_the_next_row_in_the_order_scored():
    board = board_at_turn()
    reliant = ship(board, "Reliant")
    board = replace(board, due=(DamageDue("Reliant", 2, "Locust"), DamageDue("Reliant", 1, "Skylord")))
    done = run(DAMAGE, board)
    crossed = of_kind(done.events, BOX_CROSSED)
    assert [e.data["box"] for e in crossed] == list(reliant.boxes()[:3])
    assert [e.data["by"] for e in crossed] == ["Locust", "Locust", "Skylord"]
    assert ship(done.state.board, "Reliant").crossed == 3
    assert done.state.board.due == ()  # the turn is over: nothing is left due


@pytest.mark.rule("CM-DMG-04", "CM-DMG-05", "CM-DMG-06", "CM-GUN-01")
def test_a_gun_box_loses_a_gun_picked_by_a_logged_die_among_those_bearing_on_the_firer():
    board = track_with(board_at_turn(), "Locust", ("Gun", "Hull", "Ground"))
    board = replace(board, due=(DamageDue("Locust", 1, "Aphid"),))
    locust, aphid = ship(board, "Locust"), ship(board, "Aphid")
    bearing = {gun.number for gun in locust.guns_bearing_on(aphid.hex)}
    assert bearing
    assert bearing != {gun.number for gun in locust.panel.guns}
    for seed in (b"g1", b"g2", b"g3", b"g4"):
        done = run(DAMAGE, board, seed)
        lost = of_kind(done.events, GUN_LOST)[0].data["gun"]
        pick = next(e for e in done.events if e.kind == "roll")
        assert "guns is hit" in pick.data["purpose"]
        assert pick.data["sides"] == len(bearing)
        assert lost in bearing
        assert ship(done.state.board, "Locust").guns_lost == (lost,)


@pytest.mark.rule("CM-DMG-07", "CM-DMG-08", "CM-ALT-03")
def test_a_medium_box_lowers_the_ceiling_and_a_ship_above_it_drops_at_once():
    board = track_with(board_at_turn(), "Reliant", ("Medium", "Low", "Ground"))
    assert ship(board, "Reliant").band == panels.HIGH
    done = run(DAMAGE, replace(board, due=(DamageDue("Reliant", 1, ""),)))
    assert [e.data["band"] for e in of_kind(done.events, DROPPED)] == [panels.MEDIUM]
    assert ship(done.state.board, "Reliant").band == ship(done.state.board, "Reliant").ceiling == panels.MEDIUM
    lower = run(DAMAGE, replace(board, due=(DamageDue("Reliant", 2, ""),)))
    assert ship(lower.state.board, "Reliant").band == panels.LOW


@pytest.mark.rule("CM-ALT-04")
def test_a_grappled_ship_does_not_drop_with_her_ceiling():
    board = track_with(board_at_turn(), "Reliant", ("Medium", "Low", "Ground"))
    board = changed(board, "Reliant", grappled=("Hullcutter",))
    done = run(DAMAGE, replace(board, due=(DamageDue("Reliant", 1, ""),)))
    assert not of_kind(done.events, DROPPED)
    assert ship(done.state.board, "Reliant").band == panels.HIGH


@pytest.mark.rule("CM-DMG-10", "CM-PG-04", "CM-FLY-25")
def test_a_boarding_party_box_costs_a_party_and_the_power_grapnel_then_a_flight_when_no_party_is_left():
    board = track_with(board_at_turn(), "Reliant", ("Boarding Party", "Boarding Party", "Hull", "Ground"))
    board = changed(board, "Reliant", parties=1, flights=1, grapnel=True)
    done = run(DAMAGE, replace(board, due=(DamageDue("Reliant", 2, ""),)))
    assert [e.data["flight"] for e in of_kind(done.events, PARTY_LOST)] == [False, True]
    after = ship(done.state.board, "Reliant")
    assert (after.parties, after.flights, after.grapnel) == (0, 0, False)


@pytest.mark.rule("CM-ALT-02")
def test_the_last_box_of_the_track_brings_the_ship_down_and_she_takes_no_more():
    board = track_with(board_at_turn(), "Locust", ("Hull", "Ground"))
    done = run(DAMAGE, replace(board, due=(DamageDue("Locust", 5, "Aphid"),)))
    assert [e.data["status"] for e in of_kind(done.events, FATE)] == [CRASHED]
    locust = ship(done.state.board, "Locust")
    assert (locust.status, locust.band, locust.crossed) == (CRASHED, panels.GROUND, 2)


@pytest.mark.rule("CM-DMG-11", "CM-DMG-12", "CM-SEQ-12", "CM-LIGHT-02", "CM-LIGHT-03", "CM-LIGHT-04", "CM-LIGHT-07")
def test_a_critical_box_rolls_two_dice_on_the_chart_and_step_5_lights_its_lights_amber():
    board = track_with(board_at_turn(), "Reliant", ("Critical", "Hull", "Ground"))
    chart = ship(board, "Reliant").panel.criticals
    seen = set()
    for n in range(40):
        seed = b"crit-%d" % n
        done = run(DAMAGE, replace(board, due=(DamageDue("Reliant", 1, "Locust"),)), seed)
        roll = next(e for e in done.events if e.kind == "roll" and "critical" in e.data["purpose"])
        critical = of_kind(done.events, CRITICAL)[0].data["critical"]
        assert critical == chart[sum(roll.data["dice"]) - 2]
        reliant = ship(done.state.board, "Reliant")
        lit = {light for light, colour in reliant.lights if colour == AMBER}
        assert lit == set(panels.CRITICAL_LIGHTS.get(critical, ()))  # Lifters: one; Bridge Hit: three
        assert reliant.criticals == (() if critical in panels.CRITICAL_LIGHTS else (critical,))
        assert reliant.pending == ()
        if critical in panels.CRITICAL_LIGHTS:
            assert of_kind(done.events, AMBER_LIT)[0].phase == AMBERS
        seen.add(critical)
    assert {"Lifters Damaged", "Bridge Hit"} <= seen


@pytest.mark.rule("CM-LIGHT-03", "CM-LIGHT-04")
def test_lifters_damaged_lights_no_altitude_change_and_a_bridge_hit_lights_three():
    board = changed(board_at_turn(), "Reliant", pending=("Lifters Damaged",))
    board = changed(board, "Locust", pending=("Bridge Hit",))
    done = run(AMBERS, board)
    assert ship(done.state.board, "Reliant").lights == ((NAC, AMBER), (NDC, GREEN), (BRIDGE, GREEN), (FIRE, GREEN))
    assert ship(done.state.board, "Locust").lights == ((NAC, AMBER), (NDC, AMBER), (BRIDGE, AMBER), (FIRE, GREEN))


# --- the end of the round -------------------------------------------------------------------------------------


@pytest.mark.rule("CM-SEQ-14", "CM-SEQ-15", "CM-SEQ-16", "CM-LIGHT-06")
def test_at_the_end_of_the_round_reds_go_out_ambers_turn_red_and_the_fired_markers_come_off():
    board = mid_round(new(umpire=True))
    board = changed(board, "Aphid", lights=((NAC, RED), (NDC, AMBER), (BRIDGE, GREEN), (FIRE, GREEN)), fired=(1, 2))
    board = changed(board, "Aphid", parties=0)  # no crew to mend anything
    done = run(END_OF_ROUND, board)
    assert of_kind(done.events, LIGHTS_CYCLED)
    aphid = ship(done.state.board, "Aphid")
    assert aphid.lights == ((NAC, GREEN), (NDC, RED), (BRIDGE, GREEN), (FIRE, GREEN))
    assert aphid.fired == ()
    assert done.state.turn == 2  # and the next round has begun


def test_a_fire_burns_a_box_at_each_end_of_round_while_lit_and_goes_out_with_the_cycle():
    board = mid_round(new(umpire=True))
    board = track_with(board, "Aphid", ("Hull",) * 5 + ("Ground",))
    board = changed(board, "Aphid", lights=((NAC, GREEN), (NDC, GREEN), (BRIDGE, GREEN), (FIRE, AMBER)), parties=0)
    first = run(END_OF_ROUND, board)
    assert [e.data["ship"] for e in of_kind(first.events, FIRE_BURNS)] == ["Aphid"]
    aphid = ship(first.state.board, "Aphid")
    assert (aphid.crossed, aphid.light(FIRE)) == (1, RED)
    second = run(END_OF_ROUND, replace(mid_round(first.state), ships=first.state.board.ships))
    aphid = ship(second.state.board, "Aphid")
    assert (aphid.crossed, aphid.light(FIRE)) == (2, GREEN)


def repair_board(parties: int, *, superior: bool = False, grappled: tuple[str, ...] = ()) -> Board:
    board = mid_round(new(umpire=True))
    reliant = ship(board, "Reliant")
    return changed(
        board,
        "Reliant",
        parties=parties,
        grappled=grappled,
        panel=replace(reliant.panel, superior=superior),
        lights=((NAC, AMBER), (NDC, GREEN), (BRIDGE, GREEN), (FIRE, GREEN)),
    )


@pytest.mark.rule("CM-REP-03", "CM-REP-04", "CM-REP-05", "CM-REP-07", "CM-REP-08")
def test_worked_example_three_blue_squares_mend_a_red_light_on_a_1_or_2_and_nothing_on_3_or_more():
    """The amber turns red first, then the crew rolls: with three blue squares a 1 or 2 takes the red light off,
    a 3 or more does nothing (the text's example). The die is the battle's next, so each seed's face is known."""
    board = repair_board(3)
    assert ship(board, "Reliant").panel.hexagon > 3  # the hexagon (anti-personnel guns too) is not the number
    faces = set()
    for n in range(30):
        seed = b"repair-%d" % n
        face = dice.face(seed, dice.MAIN, 0)
        done = run(END_OF_ROUND, board, seed)
        roll = next(e for e in done.events if e.kind == "roll")
        assert roll.data["dice"] == [face]
        assert "repairs" in roll.data["purpose"]
        mended = [e.data["light"] for e in of_kind(done.events, REPAIRED)]
        assert mended == ([NAC] if face <= 2 else [])
        assert ship(done.state.board, "Reliant").light(NAC) == (GREEN if face <= 2 else RED)
        faces.add(face)
    assert faces == set(range(1, 7))


@pytest.mark.rule("CM-REP-06")
def test_a_superior_crew_mends_on_one_more():
    board = repair_board(3, superior=True)
    for n in range(30):
        seed = b"repair-%d" % n
        face = dice.face(seed, dice.MAIN, 0)
        done = run(END_OF_ROUND, board, seed)
        assert bool(of_kind(done.events, REPAIRED)) == (face <= 3)


@pytest.mark.rule("CM-REP-01")
def test_a_crew_in_a_boarding_action_makes_no_repair():
    done = run(END_OF_ROUND, repair_board(3, grappled=("Hullcutter",)))
    assert not [e for e in done.events if e.kind == "roll" and "repairs" in e.data["purpose"]]


@pytest.mark.rule("CM-REP-02", "CM-REP-09")
def test_the_crew_fights_the_fire_before_it_mends_a_light_one_attempt_a_round():
    board = repair_board(6)
    board = changed(board, "Reliant", lights=((NAC, AMBER), (NDC, GREEN), (BRIDGE, AMBER), (FIRE, AMBER)))
    done = run(END_OF_ROUND, board)
    rolls = [e for e in done.events if e.kind == "roll" and "repairs" in e.data["purpose"]]
    assert len(rolls) == 1
    assert "Fire" in rolls[0].data["purpose"]
