"""The reference duel's game with nothing else: the package's rules (battles/rules/duel) without its answer
schemas, presentation or battle-app hooks, so the tests of the protocol's generic defaults have a real game that
says nothing of its own. Not registered: the registered duel is the whole package (battles.rules.duel.DUEL)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, Setup
from battles.engine.state import BattleState
from battles.rules.duel import fold, sequence, validate
from battles.rules.duel.board import Board
from battles.rules.duel.ruleset import DUEL as WHOLE


class BareDuel(BaseRuleset[Board]):
    key = WHOLE.key
    version = WHOLE.version
    title = "Duel, bare (the generic defaults' test)"
    options = WHOLE.options
    tables = WHOLE.tables

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        return WHOLE.setup(scenario, options)

    def board_to_json(self, board: Board) -> JSON:
        return board.to_json()

    def board_from_json(self, data: JSON) -> Board:
        return Board.from_json(data)

    def advance(self, ctx: Context[Board]) -> None:
        sequence.advance(ctx)

    def apply(self, state: BattleState[Board], event: Event) -> Board:
        return fold.apply(state, event)

    def validate(self, state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
        return validate.validate(state, request, choice)

    def candidates(self, state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
        return validate.candidates(state, request)

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        return WHOLE.check_invariants(state)

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return WHOLE.example_scenarios()


BARE_DUEL = BareDuel()
