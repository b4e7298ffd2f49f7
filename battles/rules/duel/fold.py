"""The duel's fold: how each event changes the board, as a table from event kind to a pure function (the
engine's kinds it does not list leave the board as it is). Nothing here rolls or decides: replaying the log
through this table rebuilds any state of the battle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from battles.engine.events import DECISIONS, TURN, Event
from battles.engine.hexgrid import Hex, from_odd_q
from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.engine.state import BattleState
from battles.rules.duel.board import Board
from battles.rules.duel.kinds import FIRE, HIT, INITIATIVE, MOVED, PLACE, PLACED, PLOT, WIND

Fold = Callable[[Board, Mapping[str, Any]], Board]


def _new_turn(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, first=None, plots={}, shots={})


def _wind(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, wind=read_int(data["direction"]))


def _placed(board: Board, data: Mapping[str, Any]) -> Board:
    ship = board.ship_named(read_str(data["ship"]))
    placements = {k: v for k, v in board.placements.items() if k != ship.side}
    moved = replace(ship, hex=Hex.from_json(data["hex"]), facing=read_int(data["facing"]))
    return replace(board.with_ship(moved), placements=placements)


def _initiative(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, first=read_str(data["first"]))


def _moved(board: Board, data: Mapping[str, Any]) -> Board:
    ship = board.ship_named(read_str(data["ship"]))
    return board.with_ship(replace(ship, hex=Hex.from_json(data["hex"]), facing=read_int(data["facing"])))


def _hit(board: Board, data: Mapping[str, Any]) -> Board:
    ship = board.ship_named(read_str(data["ship"]))
    return board.with_ship(replace(ship, hull=ship.hull - read_int(data["boxes"])))


def _decided(board: Board, data: Mapping[str, Any]) -> Board:
    """A batch of answers revealed: placements, plots and fire decisions are held until carried out."""
    placements, plots, shots = dict(board.placements), dict(board.plots), dict(board.shots)
    for answer in read_object(data["answers"]).values():
        given = read_object(answer)
        side, choice = read_str(given["side"]), given["choice"]
        if given["decision"] == PLACE:
            spot = read_object(choice)
            col, row = read_list(spot["hex"])
            placements[side] = (from_odd_q(read_int(col), read_int(row)), read_int(spot["facing"]))
        elif given["decision"] == PLOT:
            plots[side] = tuple(read_str(step) for step in read_list(choice))
        elif given["decision"] == FIRE:
            shots[side] = bool(read_object(choice)["fire"])
    return replace(board, placements=placements, plots=plots, shots=shots)


FOLDS: dict[str, Fold] = {
    TURN: _new_turn,
    WIND: _wind,
    PLACED: _placed,
    INITIATIVE: _initiative,
    MOVED: _moved,
    HIT: _hit,
    DECISIONS: _decided,
}


def apply(state: BattleState[Board], event: Event) -> Board:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state.board, event.data)
