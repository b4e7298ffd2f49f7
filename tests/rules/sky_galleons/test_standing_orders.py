"""Standing orders and moves written at once (battle option ``standing_orders``, web play): a side answers the
turn's orders and its ships' moves, and its standing orders answer the rest (standing.py, SG-SEQ-02..05).

The battles are two frigates and a gunboat a few hexes apart, broadside on, so that guns bear from the first
turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import resolver, windows
from battles.engine.decisions import STANDING, DecisionRequest
from battles.engine.events import DECISION, DECISIONS, Event
from battles.engine.state import BattleState
from battles.rules.sky_galleons import standing
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import AVOID_COLLISION, FIRE, FIRST, MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from tests.rules.sky_galleons.battle_harness import at, drive, scenario, ship, start, submit

State = BattleState[Board]
SEED = b"standing-orders"
ON = {standing.OPTION: True}


def fleets(turns: int = 3) -> dict[str, Any]:
    a = [ship("Gull", "Endtime", (6, 6)), ship("Tern", "Endtime", (6, 8))]
    b = [ship("Dart", "Dauntless (original design)", (9, 6)), ship("Wasp", "Dauntless (original design)", (9, 8))]
    return scenario(a, b, turns=turns)


def orders_with(own: dict[str, Any]) -> Any:
    """Every side's initiative orders are the default, side a's with these standing orders."""

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == ORDERS and request.side == "a":
            return {"crew": [], "strike": [], standing.KEY: own}
        return None

    return decide


def played(options: dict[str, Any] | None = None, decide: Any = None) -> tuple[State, State, list[Event]]:
    initial, state = start(fleets(), SEED, {**ON, **(options or {})})
    events = list(resolver.resolve(RS, initial, SEED).events)
    final, more, _ = drive(state, decide or (lambda s, r: None), SEED, lambda s, r: False)
    return initial, final, events + more


@pytest.mark.rule("SG-SEQ-02", "SG-SEQ-04", "SG-SEQ-05")
def test_with_standing_orders_a_side_answers_its_orders_and_its_moves_and_nothing_else() -> None:
    initial, _, events = played()
    asked = [e.data["request"] for e in events if e.kind == "decision_requested" and e.turn >= 1]
    by_hand = {str(e.data["request"]) for e in events if e.kind == DECISION and not e.data.get(STANDING)}
    assert {r["kind"] for r in asked if r["id"] in by_hand} == {ORDERS, MOVE}
    assert any(e.kind == "fire" for e in events), "the guns fired at will, by standing order"
    counted = windows.windows(events)
    assert counted
    assert max(counted.values()) == 2
    assert resolver.rerun(RS, initial, events, SEED) == events  # the standing answers are made again on re-run


@pytest.mark.rule("SG-SEQ-04")
def test_a_sides_ships_are_asked_their_moves_all_at_once_and_made_in_that_order() -> None:
    _, state = start(fleets(), SEED, ON)
    state, _, request = drive(state, lambda s, r: None, SEED, at(MOVE))
    assert request is not None
    moves = [r for r in state.pending() if r.kind == MOVE]
    assert sorted(r.ships[0] for r in moves) == sorted(s.name for s in state.board.fighting(request.side))
    assert all(r.secret and r.sealed == ("*",) for r in moves)
    events: list[Event] = []
    for r in moves:
        state, more = submit(state, r, ["ahead"], SEED)
        events += more
    batch = next(e for e in events if e.kind == DECISIONS)
    assert all(a["choice"] is None for a in batch.data["answers"].values())  # the plan stays with its side
    written = next(e for e in events if e.kind == "moves written")
    assert written.visibility.endswith(request.side)
    assert written.data["order"] == [r.ships[0] for r in moves]
    made = [e.data["ship"] for e in events if e.kind == "moved"]
    assert made == [r.ships[0] for r in moves]  # each in turn, in the order written


@pytest.mark.rule("SG-SEQ-05")
@pytest.mark.parametrize(("order", "fires"), [("at will", True), ("hold", False)])
def test_the_guns_fire_at_will_or_hold_by_standing_order(order: str, fires: bool) -> None:
    _, _, events = played(decide=orders_with({"fire": order}))
    fired = [e for e in events if e.kind == "fire" and e.data["ship"] in ("Gull", "Tern")]
    assert bool(fired) is fires


@pytest.mark.rule("SG-SEQ-05")
def test_a_ship_ordered_to_ask_puts_the_fire_decision_to_its_side() -> None:
    _, state = start(fleets(), SEED, ON)
    state, _, request = drive(state, orders_with({"ships": {"Tern": {"fire": "ask"}}}), SEED, at(FIRE))
    assert request is not None
    assert request.side == "a"


@pytest.mark.rule("SG-SEQ-05", "SG-FIRE-01")
def test_guns_are_laid_on_the_first_priority_target_they_bear_on() -> None:
    for target in ("Dart", "Wasp"):
        _, _, events = played(decide=orders_with({"ships": {"Gull": {"targets": [target]}}}))
        first = [e for e in events if e.kind == "fire" and e.data["ship"] == "Gull"][:2]
        assert first
        assert {e.data["target"] for e in first} == {target}


def test_held_guns_do_not_fire() -> None:
    gull = RS.setup(fleets(), {}).board.ship("Gull")
    held = [gun.id for gun in gull.guns]
    _, _, events = played(decide=orders_with({"ships": {"Gull": {"hold_guns": held}}}))
    assert not [e for e in events if e.kind == "fire" and e.data["ship"] == "Gull"]
    assert [e for e in events if e.kind == "fire" and e.data["ship"] == "Tern"]


def request(kind: str, side: str = "a", options: tuple[Any, ...] | None = None) -> DecisionRequest:
    return DecisionRequest(id="d99", side=side, kind=kind, phase="", rule="", default=None, options=options)


def with_orders(orders: dict[str, Any]) -> State:
    _, state = start(fleets(), SEED, ON)
    return state.evolve(board=replace(state.board, standing={"a": orders}))


@pytest.mark.rule("SG-SEQ-03", "SG-ERR-04")
def test_who_moves_first_and_collision_avoidance_by_standing_order() -> None:
    def captain() -> Any:
        return "captain's choice"

    asked = request(FIRST, options=("a", "b"))
    assert standing.answer(with_orders({"first": "first"}), asked, captain, list) == "a"
    assert standing.answer(with_orders({"first": "second"}), asked, captain, list) == "b"
    assert standing.answer(with_orders({}), asked, captain, list) == "captain's choice"
    avoid = request(AVOID_COLLISION, options=(False, True))
    assert standing.answer(with_orders({"avoid_collisions": "yes"}), avoid, captain, list) is True
    assert standing.answer(with_orders({"avoid_collisions": "no"}), avoid, captain, list) is False
    assert standing.answer(with_orders({"avoid_collisions": "ask"}), avoid, captain, list) is None
    assert standing.answer(with_orders({}), request(MOVE), captain, list) is None  # moves are always asked


@pytest.mark.parametrize(
    "orders",
    [
        {"fire": "sometimes"},
        {"colours": "strike"},
        {"ships": {"Dart": {"fire": "hold"}}},  # the other side's ship
        {"ships": {"Gull": {"targets": ["Nobody"]}}},
        {"ships": {"Gull": {"hold_guns": ["no such gun"]}}},
        "fire at will",
    ],
)
def test_standing_orders_the_rules_cannot_read_are_refused(orders: Any) -> None:
    _, state = start(fleets(), SEED, ON)
    state, _, ask = drive(state, lambda s, r: None, SEED, at(ORDERS, "a"))
    assert ask is not None
    rejection = RS.validate(state, ask, {"crew": [], "strike": [], standing.KEY: orders})
    assert rejection is not None
    assert rejection.clause == standing.CLAUSE


def test_standing_orders_stay_with_their_side() -> None:
    _, state = start(fleets(), SEED, ON)
    state, _, ask = drive(state, lambda s, r: None, SEED, at(ORDERS, "a"))
    assert ask is not None
    state, events = submit(state, ask, {"crew": [], "strike": [], standing.KEY: {"fire": "hold"}}, SEED)
    other = next(r for r in state.pending() if r.kind == ORDERS)
    state, events = submit(state, other, other.default, SEED)
    batch = next(e for e in events if e.kind == DECISIONS)
    assert all(standing.KEY not in a["choice"] for a in batch.data["answers"].values())
    assert state.board.standing["a"] == {"fire": "hold"}
    assert RS.board_view(state, "b")["standing"] == {}  # type: ignore[index]
    assert RS.board_view(state, "a")["standing"] == {"a": {"fire": "hold"}}  # type: ignore[index]
    given = next(e for e in events if e.kind == "standing orders")
    assert RS.event_view(given, "b") is None
    assert RS.event_view(given, "a") is not None


def test_the_orders_form_shows_the_standing_orders_as_they_stand() -> None:
    state = with_orders({"fire": "hold", "ships": {"Gull": {"targets": ["Wasp"]}}})
    group = standing.schema(state, "a", ["Dart", "Wasp"])
    fields = {f.key: f for f in group.fields}
    assert fields["fire"].default == "hold"  # type: ignore[attr-defined]
    gull = next(f for f in fields["ships"].fields if f.key == "Gull")  # type: ignore[attr-defined]
    targets = next(f for f in gull.fields if f.key == "targets")
    assert targets.items[0].default == "Wasp"
