"""Duel (reference ruleset): two ships fight it out on a hex map. Our own small game, not a published one:
it exists to show and test that the battle app plays any ruleset through the protocol alone, and as the
worked example a new ruleset is built from (docs/rulesets.md, battles/rules/_template/).

A battle: the wind is rolled and both sides place their ships in secret (DUEL-SET-01, -02); each turn both
roll for initiative (DUEL-SEQ-01), plot their moves in secret (DUEL-MOV-01), move in initiative order
(DUEL-SEQ-02), then decide in turn whether to fire their broadsides, resolved together (DUEL-FIRE-01 to -03,
DUEL-DMG-01). A ship with no hull left sinks and ends the battle (DUEL-END-01); so does the turn limit
(DUEL-END-02). The clause ids are the duel's own.

This class only ties the package's rooms together: board.py, sequence.py and phases/, fold.py, validate.py,
answers.py, presentation.py, ai.py, outcome.py, campaign.py; data/ and scenarios/ hold its tables and battles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from battles.engine import answers as engine_answers
from battles.engine import hexgrid
from battles.engine.bridge import CampaignBridge
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_int, read_json_object, read_list, read_object, read_str
from battles.engine.outcome import BattleOutcome
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet, ShipOverlays
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState
from battles.engine.telling import ENGINE_TELLERS, Names, tell
from battles.rules.duel import ai, answers, campaign, fold, gunnery, outcome, presentation, sequence, validate
from battles.rules.duel.board import Board, Ship

PACKAGE_DIR = Path(__file__).resolve().parent
# The scenarios in the order the app lists them; the first is the one the app's tests play.
SCENARIOS = ("open-water", "close-quarters")


@cache
def scenario_documents() -> tuple[JSONObject, ...]:
    return tuple(read_json_object(PACKAGE_DIR / "scenarios" / f"{slug}.json") for slug in SCENARIOS)


def _ship(data: Mapping[str, Any]) -> Ship:
    """A scenario's ship: its hexes as the map's [column, row], turned into the board's axial hexes."""
    col, row = read_list(data["hex"])
    return Ship.from_json({**data, "hex": hexgrid.from_odd_q(read_int(col), read_int(row)).to_json()})


def board_from_scenario(scenario: Mapping[str, JSON], long_range: int) -> Board:
    ships = tuple(_ship(read_object(s)) for s in read_list(scenario["ships"]))
    if len(ships) != 2 or ships[0].side == ships[1].side:
        raise ValueError("a duel is two ships of two sides")
    names = {read_str(s["id"]): read_str(s["name"]) for s in map(read_object, read_list(scenario.get("sides", [])))}
    board = Board(
        title=read_str(scenario.get("title", "A duel")),
        cols=read_int(scenario["cols"]),
        rows=read_int(scenario["rows"]),
        turns=read_int(scenario["turns"]),
        ships=ships,
        side_names=names,
        long_range=long_range,
    )
    for ship in ships:
        spots = [ship.hex, *(hexgrid.from_odd_q(c, r) for c, r in ship.deploy)]
        if not all(board.on_map(h) for h in spots):
            raise ValueError(f"{ship.name} must start and deploy on the map")
        if not 0 < ship.hull <= ship.hull_max:
            raise ValueError(f"{ship.name}: hull {ship.hull} must be from 1 to {ship.hull_max}")
    return board


class Duel(BaseRuleset[Board]):
    key = "duel"
    version = "1"
    title = "Duel (reference ruleset)"
    options: tuple[OptionSpec, ...] = (
        OptionSpec("secret_plots", True, "both sides plot movement in secret", choices=(True, False)),
        OptionSpec("long_range", 4, "longest range a broadside reaches, in hexes", choices=(3, 4, 5)),
    )
    tables: Mapping[str, JSON] = read_json_object(PACKAGE_DIR / "data" / "tables.json")
    campaign_bridge: CampaignBridge | None = campaign.CAMPAIGN_BRIDGE

    # --- the game ---

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        board = board_from_scenario(scenario, read_int(options["long_range"]))
        return Setup(sides=tuple(s.side for s in board.ships), board=board)

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
        return answers.answer_schema(state, request, self.tables, partial=partial, sides=sides)

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        problems = []
        for ship in state.board.ships:
            if not 0 <= ship.hull <= ship.hull_max:
                problems.append(f"{ship.name}: hull {ship.hull} outside 0..{ship.hull_max}")
            if not state.board.on_map(ship.hex):
                problems.append(f"{ship.name}: off the map at {ship.hex}")
            if ship.facing not in range(6):
                problems.append(f"{ship.name}: facing {ship.facing}")
        if not state.over and any(not s.afloat for s in state.board.ships) and state.phase != "fire":
            problems.append("a sunk ship but the battle goes on")
        if state.turn > state.board.turns:
            problems.append(f"turn {state.turn} past the limit {state.board.turns}")
        return problems

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return scenario_documents()

    # --- presentation ---

    def roster(self, state: BattleState[Board]) -> list[JSONObject]:
        return outcome.roster(state)

    def names(self, view: JSON, sides: Mapping[str, str]) -> Names:
        return Names({**presentation.side_names(view), **sides}, {})

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None:
        return tell(presentation.TELLERS, event, names) or tell(ENGINE_TELLERS, event, names)

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
        return presentation.map_view(view, focus)

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None:
        return presentation.record_sheet(view, piece, start=start, turn=turn)

    # --- the battle app's hooks ---

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        return gunnery.ship_overlays(view, tables=self.tables, long_range=read_int(options["long_range"]))

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        return ai.DuelCaptain(seed, side)

    def summary(self, state: BattleState[Board]) -> str:
        return outcome.summary(state)

    def tally(self, state: BattleState[Board]) -> JSONObject:
        return outcome.tally(state)

    def outcome(self, initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
        return outcome.outcome(initial, final)


DUEL = Duel()
