"""The Sky Galleons sequence of play as the registered ruleset drives it (SG-SEQ-*, SG-FIRE-01, SG-CREW-03)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import Rejection
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.sky_galleons import combat
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import FIRE, FIRST, MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from galleons.record import Crew

SEED = b"sequence"


def duel(*, distance: int = 3, turn_limit: int = 6, sides: int = 2) -> dict[str, Any]:
    """Sky Runners in a row along the map's middle, each facing north, ``distance`` columns apart: their
    broadsides bear on each other (Heavy Guns to port and starboard)."""
    names = ["red", "blue", "green"][:sides]
    return {
        "slug": "test-duel",
        "title": "test duel",
        "map": {"cols": 24, "rows": 16},
        "turn_limit": turn_limit,
        "sides": [
            {
                "id": side,
                "ships": [
                    {"name": f"{side} galley", "class": "Sky Runner", "position": [6 + n * distance, 8], "facing": 0}
                ],
            }
            for n, side in enumerate(names)
        ],
    }


def start(scenario: dict[str, Any], seed: bytes = SEED) -> BattleState[Board]:
    initial = resolver.new_battle(SKY_GALLEONS, scenario, seed_commitment=dice.commitment(seed))
    return resolver.resolve(SKY_GALLEONS, initial, seed).state


def answer(
    state: BattleState[Board], choices: dict[str, Any] | None = None, seed: bytes = SEED
) -> tuple[BattleState[Board], list[Event]]:
    """Answer every open decision: ``choices`` by kind, else the default. Returns the state and the events."""
    events: list[Event] = []
    for request in list(state.pending()):
        choice = (choices or {}).get(request.kind, request.default)
        if callable(choice):
            choice = choice(state, request)
        outcome = resolver.submit(
            SKY_GALLEONS, state, side=request.side, request_id=request.id, choice=choice, seed=seed
        )
        assert not isinstance(outcome, Rejection), outcome
        state = outcome.state
        events += outcome.events
    return state, events


def play_turns(
    state: BattleState[Board], turns: int, choices: dict[str, Any] | None = None
) -> tuple[BattleState[Board], list[Event]]:
    events: list[Event] = []
    target = state.turn + turns
    while not state.over and state.turn < target:
        state, more = answer(state, choices)
        events += more
    return state, events


def fire_everything(state: BattleState[Board], request: Any) -> dict[str, Any]:
    shots = {}
    for solution in SKY_GALLEONS.solutions(state, request.side):
        shots.setdefault((solution.firer, solution.gun_id), solution)
    return {"shots": [{"ship": s.firer, "gun": s.gun_id, "target": s.target} for s in shots.values()]}


@pytest.mark.rule("SG-SEQ-01", "SG-SEQ-09", "SG-SEQ-10")
def test_a_turn_is_initiative_then_one_movement_phase_per_side_then_the_next_turn():
    initial = resolver.new_battle(SKY_GALLEONS, duel(), seed_commitment=dice.commitment(SEED))
    first = resolver.resolve(SKY_GALLEONS, initial, SEED)
    _state, events = play_turns(first.state, 2)
    phases = [(e.turn, e.phase) for e in first.events + events if e.kind == "phase"]
    turn_one = [phase for turn, phase in phases if turn == 1]
    assert turn_one[0] == "initiative"
    movement = [p for p in turn_one if p.startswith("movement")]
    assert [p.split(":")[0] for p in movement] == ["movement 1", "movement 2"]
    assert {p.split(": ")[1] for p in movement} == {"red", "blue"}
    # The next turn opens with a new initiative phase (SG-SEQ-09).
    assert (2, "initiative") in phases


@pytest.mark.rule("SG-SEQ-02")
def test_crew_changes_are_made_in_the_initiative_phase_by_both_sides_at_once():
    state = start(duel())
    orders = [r for r in state.pending() if r.kind == ORDERS]
    assert {r.side for r in orders} == {"red", "blue"}
    assert all(r.secret and r.phase == "initiative" for r in orders)
    # Blue's helmsman is dead: an officer takes the helm in the initiative phase.
    board = state.board
    blue = board.ship("blue galley")
    state = state.evolve(board=board.with_ship(replace(blue, crew=replace(blue.crew, helmsman=0))))
    change = {"crew": [{"ship": "blue galley", "relief": "helm", "rank": "officer"}], "strike": []}
    blue_order = next(r for r in orders if r.side == "blue")
    bad = resolver.submit(
        SKY_GALLEONS,
        state,
        side="blue",
        request_id=blue_order.id,
        seed=SEED,
        choice={"crew": [{"ship": "red galley", "relief": "helm", "rank": "officer"}], "strike": []},
    )
    assert isinstance(bad, Rejection)
    assert bad.clause == "SG-SEQ-02"
    state, _ = answer(state, {ORDERS: lambda s, r: change if r.side == "blue" else r.default})
    crew: Crew = state.board.ship("blue galley").crew
    assert crew.helm_relief == "officer"
    assert crew.helm_manned


@pytest.mark.rule("SG-SEQ-03")
def test_initiative_each_side_rolls_and_the_high_roller_picks_who_moves_first():
    for n in range(20):
        seed = b"initiative %d" % n
        state = start(duel(), seed)
        state, events = answer(state, seed=seed)
        rolls = [e for e in events if e.kind == "roll" and str(e.data["purpose"]).startswith("initiative")]
        assert len(rolls) >= 2
        last_two = {str(e.data["purpose"]).split(": ")[1]: int(str(e.data["total"])) for e in rolls[-2:]}
        winner = max(last_two, key=last_two.__getitem__)
        assert last_two[winner] > min(last_two.values())  # ties roll again
        [first] = state.pending()
        assert first.kind == FIRST
        assert first.side == winner
        assert set(first.options or ()) == {"red", "blue"}
        # The winner may send the other side first.
        other = "blue" if winner == "red" else "red"
        state, events = answer(state, {FIRST: other}, seed=seed)
        assert next(e for e in events if e.kind == "movement order").data["order"][0] == other


@pytest.mark.rule("SG-SEQ-04", "SG-SEQ-05", "SG-FIRE-01", "SG-SEQ-11", "SG-SEQ-12")
def test_only_the_moving_side_moves_then_both_sides_fire_then_the_mover_repairs():
    scenario = duel()
    scenario["sides"][0]["ships"].append(
        {"name": "red consort", "class": "Sky Runner", "position": [6, 12], "facing": 0}
    )
    state = start(scenario)
    state, _ = answer(state)  # orders
    state, _ = answer(state, {FIRST: "red"})
    seen: list[tuple[str, str, tuple[str, ...]]] = []
    while state.board.phase_no <= 2 and state.turn == 1:
        pending = state.pending()
        seen += [(r.kind, r.side, r.ships) for r in pending]
        state, _ = answer(state, {FIRE: fire_everything, MOVE: []})
    moves_first_phase = [s for s in seen if s[0] == MOVE][:2]
    assert [(side, ships) for _, side, ships in moves_first_phase] == [
        ("red", ("red galley",)),
        ("red", ("red consort",)),
    ]  # every red ship moves in red's phase, and no blue ship does (SG-SEQ-04)
    fire_batches = [s for s in seen if s[0] == FIRE]
    assert {side for _, side, _ in fire_batches} == {"red", "blue"}  # both sides fire (SG-SEQ-05, SG-FIRE-01)
    order = [kind for kind, _, _ in seen]
    assert order.index(FIRE) > order.index(MOVE) + 1  # fire only after all of red's movement


@pytest.mark.rule("SG-SEQ-05", "SG-SEQ-11", "SG-SEQ-08")
def test_phase_order_moves_then_fire_then_the_moving_sides_repairs():
    state = start(duel(distance=2))
    # Red's galley is burning and its rudder is jammed: its fire fighting and repair come after the fire.
    red = state.board.ship("red galley")
    red = replace(red, fire=1, criticals=replace(red.criticals, rudder_jam=1))
    state = state.evolve(board=state.board.with_ship(red))
    state, _ = answer(state)
    state, events = answer(state, {FIRST: "red"})
    log: list[Event] = events
    while state.board.phase_no == 1 and not state.over:
        state, more = answer(state, {FIRE: fire_everything, MOVE: ["ahead"]})
        log += more
    kinds = [e.kind for e in log]
    purposes = [str(e.data.get("purpose", "")) for e in log]
    fired = kinds.index("fire")
    fighting = next(i for i, p in enumerate(purposes) if p.startswith("fire fighting on red galley"))
    freeing = next(i for i, p in enumerate(purposes) if p.startswith("free red galley's jammed rudder"))
    assert kinds.index("moved") < fired < fighting < freeing
    assert not any(p.startswith("fire fighting on blue") for p in purposes)


@pytest.mark.rule("SG-SEQ-06")
def test_a_gun_that_fired_in_the_first_phase_cannot_fire_in_the_second():
    state = start(duel(distance=2))
    state, _ = answer(state)
    state, _ = answer(state, {FIRST: "red"})
    while state.board.phase_no == 1:
        state, _ = answer(state, {FIRE: fire_everything, MOVE: []})
    red = state.board.ship("red galley")
    fired = [gun.id for gun in red.guns if gun.last_fired == 1]
    assert fired, "red fired in its own phase"
    assert state.board.phase_no == 2
    assert state.turn == 1
    bearing_now = {s.gun_id for s in SKY_GALLEONS.solutions(state, "red")}
    assert not bearing_now & set(fired)
    refusal = combat.fire_solution(
        red, fired[0], state.board.ship("blue galley"), now=SKY_GALLEONS.now(state), same_hex=None
    )
    assert refusal.clause == "SG-SEQ-06"


@pytest.mark.rule("SG-CREW-03")
def test_a_ship_with_every_officer_lost_and_no_way_to_move_strikes():
    state = start(duel())
    blue = state.board.ship("blue galley")
    crew = replace(blue.crew, captain=0, officers=0, maneuver_lost=sum(blue.crew.maneuver_rows))
    state = state.evolve(board=state.board.with_ship(replace(blue, crew=crew)))
    # The strike happens at the next turn's upkeep.
    state, events = play_turns(state, 1)
    state, more = answer(state)
    outs = [e for e in events + more if e.kind == "out"]
    assert [(e.data["ship"], e.data["reason"]) for e in outs] == [("blue galley", "struck")]
    assert state.over
    assert state.winner == "red"


@pytest.mark.rule("SG-SEQ-02", "SG-CREW-03")
def test_a_side_may_strike_its_colours_and_the_battle_ends():
    state = start(duel())
    state, _events = answer(
        state, {ORDERS: lambda s, r: {"crew": [], "strike": ["blue galley"]} if r.side == "blue" else r.default}
    )
    assert state.over
    assert state.winner == "red"
    assert SKY_GALLEONS.tally(state)["sides"]["blue"]["captured"] == 1


def test_the_turn_limit_ends_the_battle_undecided():
    state = start(duel(distance=8, turn_limit=2))
    state, _ = play_turns(state, 5)
    assert state.over
    assert state.winner is None
    assert "turn limit" in state.result
    assert state.turn == 2


def test_orders_fire_and_moves_refuse_bad_answers_naming_the_rule():
    state = start(duel(distance=2))
    order = state.pending()[0]
    for bad in ({"crew": "x"}, {"crew": [], "strike": ["nobody"]}, [1, 2]):
        outcome = resolver.submit(SKY_GALLEONS, state, side=order.side, request_id=order.id, choice=bad, seed=SEED)
        assert isinstance(outcome, Rejection)
        assert outcome.clause.startswith("SG-")
    state, _ = answer(state)
    state, _ = answer(state, {FIRST: "red"})
    move = state.pending()[0]
    outcome = resolver.submit(SKY_GALLEONS, state, side="red", request_id=move.id, choice=["ahead"] * 9, seed=SEED)
    assert isinstance(outcome, Rejection)
    assert outcome.clause == "SG-MOV-01"
    while not any(r.kind == FIRE for r in state.pending()):
        state, _ = answer(state, {MOVE: []})
    fire = next(r for r in state.pending() if r.kind == FIRE and r.side == "red")
    twice = {"shots": [{"ship": "red galley", "gun": "3", "target": "blue galley"}] * 2}
    outcome = resolver.submit(SKY_GALLEONS, state, side="red", request_id=fire.id, choice=twice, seed=SEED)
    assert isinstance(outcome, Rejection)
    assert outcome.clause == "SG-FIRE-04"
    own = {"shots": [{"ship": "red galley", "gun": "3", "target": "red galley"}]}
    outcome = resolver.submit(SKY_GALLEONS, state, side="red", request_id=fire.id, choice=own, seed=SEED)
    assert isinstance(outcome, Rejection)
    assert outcome.clause == "SG-FIRE-04"
