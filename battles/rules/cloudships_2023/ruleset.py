"""The Cloudships of Mars ruleset object: key, version, title, options and the protocol's members, each handing
over to the package's rooms. Registered in ``__init__.py``, as every ruleset is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.engine.answers import AnswerSchema
from battles.engine.bridge import CampaignBridge
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_json_object
from battles.engine.outcome import BattleOutcome
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet, ShipOverlays
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.ship_editor import ShipEditor
from battles.engine.state import BattleState
from battles.engine.telling import Names
from battles.rules.cloudships_2023 import ai, answers, campaign, fold, invariants, outcome, sequence, setup, validate
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import GUN_IN_CAPITALS, REALLY_LOW_BAND, UMPIRE_TURNS_CARDS
from battles.rules.cloudships_2023.panel_edits import PANEL_EDITOR
from battles.rules.cloudships_2023.presentation import map_view, narration, sheets

PACKAGE_DIR = Path(__file__).resolve().parent

OPTIONS = (
    OptionSpec(
        UMPIRE_TURNS_CARDS,
        False,
        "the battle waits for a go-ahead before each card is turned (for the club table, where the umpire answers "
        "it); otherwise the app turns the next card as soon as a ship's turn is over",
        choices=(False, True),
        clause="CM-SEQ-03",
    ),
    OptionSpec(
        REALLY_LOW_BAND,
        False,
        "advanced: a Really Low band below Low that ships may fly in (the damage track is unchanged)",
        choices=(False, True),
        clause="CM-ALT-06",
    ),
    OptionSpec(
        GUN_IN_CAPITALS,
        False,
        "variant, agreed by every player before the battle: where a panel prints GUN in capitals the firing captain "
        "chooses which of his victim's guns bearing on him is lost (his fire orders name them); otherwise a die",
        choices=(False, True),
        clause="CM-GUN-05",
    ),
)


class Cloudships(BaseRuleset[Board]):
    key = "cloudships_2023"
    version = "1"
    title = "Cloudships of Mars (2023 v3)"
    options: tuple[OptionSpec, ...] = OPTIONS
    campaign_bridge: CampaignBridge | None = campaign.BRIDGE  # campaign.py: the campaign's encounters fought here
    # The umpire edits a scenario's control panels before the battle (panel_edits.py).
    ship_editor: ShipEditor | None = PANEL_EDITOR

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        board = setup.board_from_scenario(scenario)
        return Setup(sides=tuple(board.side_names), board=board)

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
    ) -> AnswerSchema:
        return answers.schema(state, request, partial=partial, sides=sides)

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        return invariants.problems(state)

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [read_json_object(path) for path in sorted((PACKAGE_DIR / "scenarios").glob("*.json"))]

    def roster(self, state: BattleState[Board]) -> list[JSONObject]:
        return outcome.roster(state)

    def outcome(self, initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
        return outcome.battle_outcome(initial, final)

    def tally(self, state: BattleState[Board]) -> JSONObject:
        return outcome.tally(state)

    # --- presentation (presentation/: the log in words, the map, the control panels) ----------------------------

    def names(self, view: JSON, sides: Mapping[str, str]) -> Names:
        return narration.names_for(view, sides)

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None:
        return narration.narrate(event, names)

    def is_detail(self, event: Mapping[str, Any]) -> bool:
        return narration.is_detail(event)

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
        return map_view.map_view(view, focus)

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None:
        return sheets.ship_sheet(view, piece, status)

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        return map_view.ship_overlays(view)

    # --- the AI (ai.py over tactics.py) ----------------------------------------------------------------------

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        """The AI captain for a side (battles.engine.simulate.policy_for): ai.py's Captain."""
        return ai.captain(seed, side)

    def leaving_policy(self, seed: bytes, side: str, how: str) -> Policy:
        """Who answers for a side that surrendered or withdraws in the battle app (ai.py's Leaving)."""
        return ai.leaving(seed, side, how)


CLOUDSHIPS = Cloudships()
