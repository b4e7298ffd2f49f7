"""Judging answers. This slice's one decision, the go-ahead to turn the next card, lists its only answer and the
engine checks it; the movement and fire slices add their open-ended answers here, each refusal naming its clause."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.cloudships_2023.board import Board


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    return None


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    return request.options if request.options is not None else [request.default]
