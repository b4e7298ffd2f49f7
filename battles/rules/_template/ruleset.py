"""The ruleset class: its key, version, title, options and tables, and the protocol's members, each handing
over to the package's rooms. Keep it thin; what it does not override, BaseRuleset's generic default serves
(battles/engine/ruleset.py lists them; docs/rulesets.md says which to fill in first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.engine import answers as engine_answers
from battles.engine.bridge import CampaignBridge
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_json_object, read_list, read_object
from battles.engine.policies import Policy
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState
from battles.engine.telling import ENGINE_TELLERS, Names, tell
from battles.rules._template import ai, answers, campaign, fold, outcome, presentation, sequence, validate
from battles.rules._template.board import Board, Piece

PACKAGE_DIR = Path(__file__).resolve().parent


class Template(BaseRuleset[Board]):
    key = "template"
    version = "1"
    title = "Template (copy me)"
    options: tuple[OptionSpec, ...] = ()
    tables: Mapping[str, JSON] = read_json_object(PACKAGE_DIR / "data" / "tables.json")
    campaign_bridge: CampaignBridge | None = campaign.CAMPAIGN_BRIDGE

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        pieces = tuple(Piece.from_json(read_object(p)) for p in read_list(scenario["pieces"]))
        board = Board.from_json({**scenario, "pieces": [p.to_json() for p in pieces], "stances": {}})
        return Setup(sides=tuple(p.side for p in pieces), board=board)

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

    def answer_schema(
        self,
        state: BattleState[Board],
        request: DecisionRequest,
        *,
        partial: JSON = None,
        sides: Mapping[str, str] | None = None,
    ) -> engine_answers.AnswerSchema:
        return answers.answer_schema(state, request)

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        return [f"{p.name}: {p.points} points" for p in state.board.pieces if not 0 <= p.points <= state.turn]

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [read_json_object(path) for path in sorted((PACKAGE_DIR / "scenarios").glob("*.json"))]

    def roster(self, state: BattleState[Board]) -> list[JSONObject]:
        return outcome.roster(state)

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None:
        return tell(presentation.TELLERS, event, names) or tell(ENGINE_TELLERS, event, names)

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        return ai.Captain(seed, side)

    def tally(self, state: BattleState[Board]) -> JSONObject:
        return outcome.tally(state)


RULESET = Template()
