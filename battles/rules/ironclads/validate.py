"""Judging answers. The ship to move is listed (the engine checks it, naming IC-SEQ-07); a move order is open-ended
and judged here (orders.py, movement.judge, formations.judge), each refusal naming the clause it breaks.
``candidates``: the legal answers an AI or random play picks from."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.ironclads import orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import MOVE_ORDER


def validate(state: BattleState[Battle], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind != MOVE_ORDER:
        return None  # listed: the engine has checked it
    read = orders.read_answer(choice)
    if isinstance(read, Rejection):
        return read
    name, plan = read
    if name != request.ships[0]:
        return Rejection("IC-SEQ-07", f"this order is for {request.ships[0]}, the ship chosen to move")
    order = orders.order_of(state.board, name, plan)
    if isinstance(order, Rejection):
        return order
    return orders.judge(state.board, name, order)


def candidates(state: BattleState[Battle], request: DecisionRequest) -> Sequence[JSON]:
    """Every legal order of hers, her speed spelled out."""
    if request.kind != MOVE_ORDER:
        return request.options if request.options is not None else [request.default]
    name = request.ships[0]
    return [orders.answer(name, order) for order in orders.legal_orders(state.board, name)]
