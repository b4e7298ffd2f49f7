"""Judging answers. A request that lists its options is checked by the engine (the answer must be one of
them); an open-ended one (a plot, a placement) is judged here, each refusal naming the clause it breaks:
``Rejection("TPL-MOV-01", "why, in words")``. ``candidates`` gives the legal answers an AI may pick from."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules._template.board import Board


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    return None  # the example's only decision lists its options


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    return request.options if request.options is not None else [request.default]
