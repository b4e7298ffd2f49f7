"""Ironclads 1850-1890 as the app plays it: the protocol's members, each handing over to the package's rooms
(docs/rulesets.md; docs/ironclads.md "The turn, in the app"). Thin."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.engine import answers as engine_answers
from battles.engine.bridge import CampaignBridge
from battles.engine.card_designer import CardDesigner
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_json_object
from battles.engine.outcome import BattleOutcome
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet, ShipOverlays
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState
from battles.engine.telling import ENGINE_TELLERS, Names, tell
from battles.rules.ironclads import ai, answers, campaign, fold, outcome, presentation, reach, sequence, setup, validate
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.designer import CARD_DESIGNER
from battles.rules.ironclads.kinds import FORMATIONS_OPTION

PACKAGE_DIR = Path(__file__).resolve().parent


class Ironclads(BaseRuleset[Battle]):
    key = "ironclads"
    version = "1"
    title = "Ironclads 1850-1890"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            FORMATIONS_OPTION,
            False,
            "Squadrons keep line ahead or line abreast (Appendix D): ships out of formation must steer back",
            choices=(False, True),
            clause="IC-FORM-01",
        ),
    )
    campaign_bridge: CampaignBridge | None = campaign.CAMPAIGN_BRIDGE  # standalone battles only
    card_designer: CardDesigner | None = CARD_DESIGNER  # Appendix A: a Data Card from a ship's particulars

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Battle]:
        sides, board = setup.battle(scenario, with_formations=bool(options.get(FORMATIONS_OPTION, False)))
        return Setup(sides=sides, board=board)

    def board_to_json(self, board: Battle) -> JSON:
        return board.to_json()

    def board_from_json(self, data: JSON) -> Battle:
        assert isinstance(data, dict)
        return Battle.from_json(data)

    def advance(self, ctx: Context[Battle]) -> None:
        sequence.advance(ctx)

    def apply(self, state: BattleState[Battle], event: Event) -> Battle:
        return fold.apply(state, event)

    def validate(self, state: BattleState[Battle], request: DecisionRequest, choice: JSON) -> Rejection | None:
        return validate.validate(state, request, choice)

    def candidates(self, state: BattleState[Battle], request: DecisionRequest) -> Sequence[JSON]:
        return validate.candidates(state, request)

    def answer_schema(
        self,
        state: BattleState[Battle],
        request: DecisionRequest,
        *,
        partial: JSON = None,
        sides: Mapping[str, str] | None = None,
    ) -> engine_answers.AnswerSchema:
        return answers.answer_schema(state, request, partial)

    def check_invariants(self, state: BattleState[Battle]) -> list[str]:
        return invariants(state.board)

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [read_json_object(path) for path in sorted((PACKAGE_DIR / "scenarios").glob("*.json"))]

    def board_view(self, state: BattleState[Battle], side: str | None) -> JSON:
        return state.board.view(side)

    def roster(self, state: BattleState[Battle]) -> list[JSONObject]:
        return outcome.roster(state)

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None:
        return tell(presentation.TELLERS, event, names) or tell(ENGINE_TELLERS, event, names)

    def is_detail(self, event: Mapping[str, Any]) -> bool:
        return str(event.get("kind")) in presentation.DETAIL or super().is_detail(event)

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
        return presentation.map_view(view, focus)

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None:
        return presentation.record_sheet(view, piece)

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        return reach.ship_overlays(view)

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        return ai.Captain(seed, side)

    def outcome(self, initial: BattleState[Battle], final: BattleState[Battle]) -> BattleOutcome:
        return outcome.outcome(initial, final)

    def tally(self, state: BattleState[Battle]) -> JSONObject:
        return outcome.tally(state)


def invariants(battle: Battle) -> list[str]:
    """What must hold after every event: one ship afloat to a hex and none on land or off the map, every track
    within its stats, a carry of 0-3 cm, a speed never negative and astern only at 1, the chosen ship afloat."""
    found: list[str] = []
    board = battle.board
    held = [s.hex for s in board.afloat]
    if len(set(held)) != len(held) or set(held) & board.land:
        found.append("two ships, or a ship and land, share a hex")
    for ship in board.ships:
        if ship.afloat and not board.on_map(ship.hex):
            found.append(f"{ship.name} is afloat off the map")
        if any(not 0 <= t.lost <= t.stats for t in ship.card.tracks):
            found.append(f"{ship.name}: a track lost more than it had")
        if ship.speed < 0 or (ship.astern and ship.speed != 1) or not 0 <= ship.carry < 4:
            found.append(f"{ship.name}: speed {ship.speed}, astern {ship.astern}, carry {ship.carry}")
        if ship.sunk and ship.broken_off:
            found.append(f"{ship.name} is both sunk and broken off")
    if battle.chosen and not battle.ship(battle.chosen).afloat:
        found.append(f"{battle.chosen} is chosen to move but is not afloat")
    return found


IRONCLADS = Ironclads()
