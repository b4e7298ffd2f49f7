"""Sky Ships of Barsoom as the app plays it: the protocol's members, each handing over to the package's rooms
(docs/rulesets.md; docs/barsoom.md section 9). Thin. Registered in ``__init__.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.engine import answers as engine_answers
from battles.engine.bridge import CampaignBridge
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import DECISION, JSON, Event, JSONObject
from battles.engine.jsonread import read_json_object
from battles.engine.outcome import BattleOutcome
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet, ShipOverlays
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState
from battles.engine.telling import ENGINE_TELLERS, Names, tell
from battles.rules.barsoom import ai, answers, campaign, fold, outcome, presentation, reach, sequence, setup, validate
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.kinds import CRASH_REPAIRABLE, GUN_LOST, IGNORE_ONE, OWNER_CHOOSES_GUN
from battles.rules.barsoom.tables import MOVEMENT

PACKAGE_DIR = Path(__file__).resolve().parent


class SkyShipsOfBarsoom(BaseRuleset[Battle]):
    key = "barsoom"
    version = "1"
    title = "Sky Ships of Barsoom"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            IGNORE_ONE,
            False,
            "A plot may break one movement restriction a turn, at the price of a Damage-table roll",
            choices=(False, True),
            clause="BR-OPT-01",
        ),
        # A battle stored before this option has none, and keeps the automatic choice it was played with.
        OptionSpec(
            OWNER_CHOOSES_GUN,
            True,
            "Row 8 of the Damage table asks the ship's owner which gun she loses (else her least gun goes)",
            choices=(False, True),
            clause="BR-DMG-10",
        ),
        OptionSpec(
            CRASH_REPAIRABLE,
            True,
            "A crashed ship can be repaired: three 6s of her repair crew and she has landed (else a crash is for good)",
            choices=(False, True),
            clause="BR-LAND-04",
        ),
    )
    tables: Mapping[str, JSON] = {"movement": MOVEMENT.data}
    campaign_bridge: CampaignBridge | None = campaign.CAMPAIGN_BRIDGE

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Battle]:
        sides, board = setup.battle(scenario)
        return Setup(sides=sides, board=board)

    def board_to_json(self, board: Battle) -> JSON:
        return board.to_json()

    def board_from_json(self, data: JSON) -> Battle:
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
        return answers.answer_schema(state, request)

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
        if event.get("kind") == DECISION and event.get("decision") == GUN_LOST:
            return False  # the gun her owner gives up is news to the table, not bookkeeping (BR-DMG-10)
        return str(event.get("kind")) in presentation.DETAIL or super().is_detail(event)

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
        return presentation.map_view(view, focus)

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None:
        return presentation.record_sheet(view, piece)

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        return reach.ship_overlays(view, turn=turn)

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        return ai.Captain(seed, side)

    def outcome(self, initial: BattleState[Battle], final: BattleState[Battle]) -> BattleOutcome:
        return outcome.outcome(initial, final)

    def tally(self, state: BattleState[Battle]) -> JSONObject:
        return outcome.tally(state)


def invariants(battle: Battle) -> list[str]:
    """What must hold after every event: the map's own rules (board.problems), every ship with her records, no
    crew post below none, bombs never below none, no more cards revealed than plotted."""
    found = battle.board.problems()
    for ship in battle.board.ships:
        entry = battle.aboard.get(ship.name)
        if entry is None:
            found.append(f"{ship.name} has no record of crew and damage")
            continue
        crew = entry.crew
        posts = (crew.men, crew.helm, crew.grapplers, crew.repair.men, crew.repair.sixes)
        if min(posts) < 0 or any(party.men <= 0 for party in crew.away):
            found.append(f"{ship.name}: a crew post below none ({crew})")
        if entry.bombs < 0:
            found.append(f"{ship.name} has {entry.bombs} bombs")
        plot = battle.plots.get(ship.name)
        if battle.revealed.get(ship.name, 0) > (len(plot.cards) if plot else 0):
            found.append(f"{ship.name} revealed more cards than she plotted")
    return found


BARSOOM = SkyShipsOfBarsoom()
