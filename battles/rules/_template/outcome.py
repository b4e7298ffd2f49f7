"""What a finished battle hands on: BaseRuleset's outcome (the engine's result and the roster's ships) serves
until the ruleset knows fates, crews and captures (then build a BattleOutcome of ShipOutcomes here, as
battles/rules/duel/outcome.py does); the roster, a summary for lists and the odds calculator's tally."""

from __future__ import annotations

from battles.engine.events import JSONObject
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules._template.board import Board


def roster(state: BattleState[Board]) -> list[JSONObject]:
    return [{"side": side, "name": side, "ships": [{"name": state.board.piece_of(side).name}]} for side in state.sides]


def tally(state: BattleState[Board]) -> JSONObject:
    sides: JSONObject = {p.side: {"points": p.points} for p in state.board.pieces}
    return {**engine_result(state), "sides": sides}
