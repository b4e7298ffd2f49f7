"""The fold: a table from event kind to a pure function of the board and the event; kinds it does not list leave the
board alone. The phases put in each event what it leaves behind (the ships a move changed, whole; the squadrons
after it), so the fold copies results rather than working the rules again, and a replay of the log rebuilds any
state."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from battles.engine.events import DECISION, TURN, Event
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_bool, read_list, read_object, read_str
from battles.engine.state import BattleState
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.formations import Formations
from battles.rules.ironclads.kinds import (
    FORMATIONS_CHECKED,
    INITIATIVE_WON,
    MOVE_ORDER,
    SEA_STATE,
    SHIP_CHOSEN,
    SHIP_MOVED,
    SHIP_SUNK,
    SHIP_TO_MOVE,
)

Fold = Callable[[BattleState[Battle], Event], Battle]


def _new_turn(state: BattleState[Battle], event: Event) -> Battle:
    """A Game Turn: nobody has moved or turned, last turn's collisions are over, the Initiative is rolled anew."""
    battle = state.board
    board = evolve(battle.board.next_turn(), turn=event.turn)
    return evolve(battle, board=board, initiative="", last_moved="", chosen="", ordered=False, plan=())


def _sea(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    return battle.with_board(evolve(battle.board, rough=read_bool(event.data["rough"])))


def _initiative(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, initiative=read_str(event.data["side"]))


def _checked(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, formations=Formations.from_json(read_object(event.data["formations"])))


def _chosen(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, chosen=read_str(event.data["ship"]))


def _decided(state: BattleState[Battle], event: Event) -> Battle:
    """A side's answer as it is given: the ship it moves next, or her order (carried out by the next advance)."""
    battle, kind, choice = state.board, event.data["decision"], event.data["choice"]
    if kind == SHIP_TO_MOVE:
        return evolve(battle, chosen=read_str(choice))
    if kind == MOVE_ORDER:
        order = read_object(choice)
        plan = tuple(read_str(t) for t in read_list(order["steps"]))
        return evolve(battle, chosen=read_str(order["ship"]), ordered=True, plan=plan)
    return battle


def _moved(state: BattleState[Battle], event: Event) -> Battle:
    battle, data = state.board, event.data
    board = battle.board
    for record in read_list(data["changed"]):
        board = board.with_ship(Ship.from_json(read_object(record)))
    squadrons = data.get("formations")
    return evolve(
        battle,
        board=board,
        last_moved=read_str(data["side"]),
        chosen="",
        ordered=False,
        plan=(),
        formations=battle.formations if squadrons is None else Formations.from_json(read_object(squadrons)),
    )


def _sunk(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    name = read_str(event.data["ship"])
    return battle.with_board(battle.board.with_ship(evolve(battle.ship(name), sunk=True)))


FOLDS: Mapping[str, Fold] = {
    TURN: _new_turn,
    DECISION: _decided,
    SEA_STATE: _sea,
    INITIATIVE_WON: _initiative,
    FORMATIONS_CHECKED: _checked,
    SHIP_CHOSEN: _chosen,
    SHIP_MOVED: _moved,
    SHIP_SUNK: _sunk,
}


def apply(state: BattleState[Battle], event: Event) -> Battle:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state, event)
