"""Judging answers: a side's order of moving (every ship of hers waiting, once), a move order (orders.py,
movement.judge, formations.judge), fire orders and an allocation (gunnery.py), each refusal naming the clause it
breaks.
``candidates``: the legal answers an AI or random play picks from."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.ironclads import gunnery, orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import DAMAGE_ALLOCATION, FIRE_ORDERS, MOVE_ORDER, ORDER_OF_MOVING


def validate(state: BattleState[Battle], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind == FIRE_ORDERS:
        return _fire(state.board, request, choice)
    if request.kind == DAMAGE_ALLOCATION:
        return _allocation(state.board, request, choice)
    if request.kind == ORDER_OF_MOVING:
        return orders.judge_order_of_moving(state.board, request.side, choice)
    if request.kind != MOVE_ORDER:
        return None  # listed: the engine has checked it
    read = orders.read_answer(choice)
    if isinstance(read, Rejection):
        return read
    name, plan = read
    if name != request.ships[0]:
        return Rejection("IC-SEQ-07", f"this order is for {request.ships[0]}, the ship chosen to move")
    refused = orders.judge_break_off(state.board, name, plan)
    if refused is not None:
        return refused
    battle = orders.as_ordered(state.board, name, plan)
    order = orders.order_of(battle, name, plan)
    if isinstance(order, Rejection):
        return order
    return orders.judge(battle, name, order)


def _fire(battle: Battle, request: DecisionRequest, choice: JSON) -> Rejection | None:
    read = gunnery.read_fire_answer(choice)
    if isinstance(read, Rejection):
        return read
    name, targets = read
    if name != request.ships[0]:
        return Rejection("IC-FIRE-01", f"these are the fire orders of {request.ships[0]}")
    return gunnery.judge_orders(battle, name, targets)


def _allocation(battle: Battle, request: DecisionRequest, choice: JSON) -> Rejection | None:
    read = gunnery.read_allocation(choice)
    if isinstance(read, Rejection):
        return read
    name, allocation = read
    if name != request.ships[0]:
        return Rejection("IC-DMG-02", f"this is the allocation of the hits on {request.ships[0]}")
    return gunnery.judge_allocation(battle, name, allocation)


def candidates(state: BattleState[Battle], request: DecisionRequest) -> Sequence[JSON]:
    """Every legal order of hers, her speed spelled out; fire at will, hold, or every gun at one target; each ship
    first in an order of moving; the default allocation."""
    if request.kind == FIRE_ORDERS:
        return _fire_candidates(state.board, request.ships[0])
    if request.kind == ORDER_OF_MOVING:  # each ship first in turn, the rest as listed
        names = list(request.ships)
        return [orders.order_of_moving(names[n:] + names[:n]) for n in range(len(names))]
    if request.kind != MOVE_ORDER:
        return request.options if request.options is not None else [request.default]
    name = request.ships[0]
    return [orders.answer(name, order) for order in orders.legal_orders(state.board, name)]


def _fire_candidates(battle: Battle, name: str) -> list[JSON]:
    able = gunnery.targets(battle, name)
    found: list[JSON] = [gunnery.fire_answer(name, gunnery.default_orders(battle, name))]
    found.append(gunnery.fire_answer(name, dict.fromkeys(able)))
    for target in dict.fromkeys(t for targets in able.values() for t in targets):
        found.append(gunnery.fire_answer(name, {track: target if target in ts else None for track, ts in able.items()}))
    return found
