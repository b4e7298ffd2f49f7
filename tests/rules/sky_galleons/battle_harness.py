"""A small harness for driving a whole Sky Galleons battle from a scenario dict with scripted decisions
(the pattern of test_boarding_battle.py), shared by the tests of the optional rules and variants."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from battles.engine import dice, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import AVOID, FIRE, FIRST, MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS

State = BattleState[Board]
Decide = Callable[[State, DecisionRequest], Any]


def ship(name: str, cls: str, at: tuple[int, int], facing: int = 0, altitude: str = "M") -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude}


def scenario(a: list[dict[str, Any]], b: list[dict[str, Any]], turns: int = 4, **extra: Any) -> dict[str, Any]:
    return {
        "slug": "variant-test",
        "title": "Variant test",
        "map": {"cols": 16, "rows": 12},
        "turn_limit": turns,
        "sides": [{"id": "a", "ships": a}, {"id": "b", "ships": b}],
        **extra,
    }


def start(data: Mapping[str, Any], seed: bytes, options: Mapping[str, Any] | None = None) -> tuple[State, State]:
    """The initial state and the state once the battle has run to its first decision."""
    initial = resolver.new_battle(RS, dict(data), seed_commitment=dice.commitment(seed), options=options)
    return initial, resolver.resolve(RS, initial, seed).state


def submit(state: State, request: DecisionRequest, choice: Any, seed: bytes) -> tuple[State, list[Event]]:
    outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert not isinstance(outcome, Rejection), outcome
    return outcome.state, list(outcome.events)


def refused(state: State, request: DecisionRequest, choice: Any) -> Rejection:
    rejection = RS.validate(state, request, choice)
    assert rejection is not None, "expected a rejection"
    return rejection


def drive(
    state: State, decide: Decide, seed: bytes, until: Callable[[State, DecisionRequest], bool]
) -> tuple[State, list[Event], DecisionRequest | None]:
    """Answer decisions with ``decide`` (None: the default) until ``until`` holds for the next one."""
    events: list[Event] = []
    while not state.over:
        request = state.pending()[0]
        if until(state, request):
            return state, events, request
        choice = decide(state, request)
        state, more = submit(state, request, request.default if choice is None else choice, seed)
        events += more
    return state, events, None


def calm(orders: Mapping[str, Mapping[str, Any]] | None = None, first: str = "a") -> Decide:
    """Initiative orders per side (``orders``), ``first`` moves first, ships hold still, nobody fires or avoids."""

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == ORDERS:
            return {"crew": [], "strike": [], **(orders or {}).get(request.side, {})}
        if request.kind == FIRST:
            return first if first in (request.options or ()) else None
        if request.kind == MOVE:
            return []
        if request.kind == FIRE:
            return {"shots": []}
        if request.kind == AVOID:
            return False
        return None

    return decide


def at(kind: str, side: str | None = None, turn: int | None = None) -> Callable[[State, DecisionRequest], bool]:
    return lambda state, request: (
        request.kind == kind and (side is None or request.side == side) and (turn is None or state.turn == turn)
    )


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
