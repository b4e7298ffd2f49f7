"""Avoiding a collision as a ship avoids a ram (the errata, SG-ERR-04/05): battles/rules/sky_galleons/avoidance.py
and the ruleset's "avoid collision" decision.

Two Sky Runners (speed 4, so avoiding costs 2 MP) at Medium: the Mover (side a) at (6, 8) facing north, the
Runner (side b) two hexes north at (6, 6). The Mover's plan ["ahead", "ahead"] ends in the Runner's hex.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine.decisions import DecisionRequest
from battles.engine.hexgrid import Hex
from battles.engine.state import redact
from battles.rules.sky_galleons import avoidance, movement
from battles.rules.sky_galleons.kinds import AVOID_COLLISION, MOVE, ORDERS
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import Moment, ship_record_from_class
from tests.rules.sky_galleons.battle_harness import State, at, calm, drive, kinds, scenario, ship, start

INTO = ["ahead", "ahead"]


def battle(seed: bytes, options: dict[str, Any] | None = None, friend: bool = False, cls: str = "Sky Runner") -> State:
    mover = ship("Mover", "Sky Runner", (6, 8))
    runner = ship("Runner", cls, (6, 6), facing=2)
    a, b = ([mover, runner], [ship("Far", "Sky Runner", (14, 2))]) if friend else ([mover], [runner])
    return start(scenario(a, b), seed, options)[1]


def plays(avoid: bool, first: str = "a", turns: int = 1) -> Any:
    """The Mover runs into the Runner's hex on turn 1; everything else holds still."""

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == MOVE and request.ships[0] == "Mover" and state.turn == 1:
            return INTO
        if request.kind == AVOID_COLLISION:
            return avoid
        return calm(first=first)(state, request)

    return decide


def test_the_ships_a_move_will_check_are_found_before_it_is_made() -> None:
    mover = ship_record_from_class("Sky Runner", name="Mover", position=Hex(5, 10), facing=0, altitude="M")
    sitting = ship_record_from_class("Sky Runner", name="Sitting", position=Hex(5, 8), facing=0, altitude="M")
    above = ship_record_from_class("Sky Runner", name="Above", position=Hex(5, 9), facing=0, altitude="H")
    alongside = ship_record_from_class("Sky Runner", name="Alongside", position=Hex(5, 10), facing=0, altitude="M")
    allowed = movement.allowance(mover, now=Moment(1), last_hexes=0)
    path = movement.trace(mover, INTO, allowed=allowed, terrain=Terrain(40, 40))
    others = [sitting, above, alongside]
    assert avoidance.met_on_the_way(mover, path, others, ["Alongside"]) == ["Alongside", "Sitting"]
    assert avoidance.met_on_the_way(mover, path, others, []) == ["Sitting"]  # alongside since it moved: no check
    assert avoidance.cost(4) == 2
    assert avoidance.cost(5) == 3
    assert avoidance.check_modifiers(sitting, 2) == {"Sitting avoiding (2 MP)": 2}


@pytest.mark.rule("SG-ERR-04")
def test_a_ship_about_to_be_run_into_may_avoid_the_collision_as_it_would_a_ram() -> None:
    seed = b"avoid"
    state, events, request = drive(battle(seed), plays(True), seed, at(AVOID_COLLISION))
    assert request is not None
    assert (request.side, request.rule, request.ships, request.options) == (
        "b",
        "SG-ERR-04",
        ("Runner", "Mover"),
        (False, True),
    )
    assert not kinds(events, "moved") or all(e.data["ship"] != "Mover" for e in kinds(events, "moved"))
    state, events, _ = drive(state, plays(True), seed, at(MOVE, "b"))
    assert kinds(events, "avoiding")[0].data == {
        "ship": "Runner",
        "mp": 2,
        "next_turn": False,
        "clauses": ["SG-ERR-04"],
    }
    check = next(e for e in events if e.kind == "roll" and "collision check: Mover" in str(e.data["purpose"]))
    assert check.data["modifiers"] == {"Runner avoiding (2 MP)": 2}
    assert check.data["outcome"] == ("collision" if check.data["total"] <= 2 else "clear")
    runner = state.board.ship("Runner")
    assert RS.allowance(state, runner).speed == RS.speed(runner) - 2  # paid from its own Movement Phase


@pytest.mark.rule("SG-ERR-04")
def test_a_ship_that_does_not_avoid_takes_the_plain_check() -> None:
    seed = b"no-avoid"
    state, events, _ = drive(battle(seed), plays(False), seed, at(MOVE, "b"))
    assert not kinds(events, "avoiding")
    check = next(e for e in events if e.kind == "roll" and "collision check: Mover" in str(e.data["purpose"]))
    assert "Runner avoiding (2 MP)" not in check.data["modifiers"]
    assert RS.allowance(state, state.board.ship("Runner")).speed == 4


@pytest.mark.rule("SG-ERR-04", "SG-ERR-01")
def test_without_the_errata_nobody_is_asked() -> None:
    seed = b"basic"
    _, events, request = drive(battle(seed, {"errata": False}), plays(True), seed, at(AVOID_COLLISION))
    assert request is None or request.kind != AVOID_COLLISION
    assert not kinds(events, "collision ahead")


@pytest.mark.rule("SG-ERR-05")
def test_a_ship_that_has_already_moved_pays_from_next_turns_allowance() -> None:
    seed = b"moved"

    def decide(state: State, request: DecisionRequest) -> Any:
        return plays(True, first="b")(state, request)

    state, events, request = drive(battle(seed), decide, seed, at(AVOID_COLLISION))
    assert request is not None
    assert state.board.phase_no == 2  # the Runner (side b) moved in the first phase
    state, events, _ = drive(state, decide, seed, at(ORDERS, turn=2))
    assert kinds(events, "avoiding")[0].data == {
        "ship": "Runner",
        "mp": 2,
        "next_turn": True,
        "clauses": ["SG-ERR-04", "SG-ERR-05"],
    }
    state, _, _ = drive(state, decide, seed, at(MOVE, "b", turn=2))
    runner = state.board.ship("Runner")
    assert RS.allowance(state, runner).speed == RS.speed(runner) - 2
    state, _, _ = drive(state, decide, seed, at(MOVE, "b", turn=3))
    assert RS.allowance(state, state.board.ship("Runner")).speed == RS.speed(state.board.ship("Runner"))


@pytest.mark.rule("SG-ERR-04")
def test_a_ship_already_avoiding_is_not_asked_again_and_its_avoidance_counts() -> None:
    seed = b"twice"
    state = battle(seed)
    state = replace(state, board=replace(state.board, avoiding={"Runner": 2}))  # avoiding a ram, say
    _, events, _ = drive(state, plays(True), seed, at(MOVE, "b"))
    assert not kinds(events, "collision ahead")
    check = next(e for e in events if e.kind == "roll" and "collision check: Mover" in str(e.data["purpose"]))
    assert check.data["modifiers"] == {"Runner avoiding (2 MP)": 2}


@pytest.mark.rule("SG-ERR-04")
def test_the_captain_avoids_a_friend_and_a_bigger_ship_but_not_a_smaller_enemy() -> None:
    seed = b"captain"
    state, _, request = drive(battle(seed, friend=True), plays(True), seed, at(AVOID_COLLISION))
    assert request is not None
    assert Captain(seed).choose(RS, redact(state, request.side), request) is True
    state, _, request = drive(battle(seed), plays(True), seed, at(AVOID_COLLISION))
    assert request is not None
    assert Captain(seed).choose(RS, redact(state, "b"), request) is True  # as big as she is
    state, _, request = drive(battle(seed, cls="Hullcutter"), plays(True), seed, at(AVOID_COLLISION))
    assert request is not None
    assert Captain(seed).choose(RS, redact(state, "b"), request) is False  # the small enemy gets the worse
