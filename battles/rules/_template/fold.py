"""The fold: a table from event kind to a pure function of the board and the event's data. Kinds it does not
list (most of the engine's) leave the board alone. Replaying the log through it rebuilds any state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from battles.engine.events import DECISIONS, TURN, Event
from battles.engine.jsonread import read_object, read_str
from battles.engine.state import BattleState
from battles.rules._template.board import Board
from battles.rules._template.kinds import SCORED, STANCE


def _new_turn(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, stances={})


def _decided(board: Board, data: Mapping[str, Any]) -> Board:
    stances = dict(board.stances)
    for answer in read_object(data["answers"]).values():
        given = read_object(answer)
        if given["decision"] == STANCE:
            stances[read_str(given["side"])] = read_str(given["choice"])
    return replace(board, stances=stances)


def _scored(board: Board, data: Mapping[str, Any]) -> Board:
    piece = next(p for p in board.pieces if p.name == data["piece"])
    return board.with_piece(replace(piece, points=piece.points + 1))


FOLDS: dict[str, Callable[[Board, Mapping[str, Any]], Board]] = {TURN: _new_turn, DECISIONS: _decided, SCORED: _scored}


def apply(state: BattleState[Board], event: Event) -> Board:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state.board, event.data)
