"""The Sky Galleons of Mars ruleset: the sequence of play driving the record, movement and combat modules.

A turn (SG-SEQ-01..12): the Initiative Phase (fires grow and boilers recover; each side's crew changes, and
colours struck, decided at once and in secret; each side rolls 1d6 for the initiative, the tied highest
rolling again; the winner picks who moves first, and the rest follow in the scenario's side order); then one
movement phase per side in that order. In a side's movement phase: fire reaching a magazine and forced drops
(SG-CRIT-20, SG-DMG-15); the moving side plans each of its ships' moves, one ship at a time, and each move is
carried out with its collision checks; the moving side declares where its ships sit in a hex shared with an
enemy (SG-MOV-05/06); every side declares its fire at once, in secret, and the shots are resolved on the
solutions found at declaration (simultaneous fire); then the moving side's fire fighting, repairs and the
untrimmed check (SG-SEQ-08, SG-CRIT-21, SG-CREW-09). Boarding (SG-SEQ-07) joins with the advanced rules.

This module is the ruleset as the engine and the app see it (the protocol's members, the options, the
registration object) and delegates: the board and its JSON (board.py), the fold (fold.py, a table of event
folds: record changes travel as ``ship`` events carrying the whole new record, so a fold never re-runs a rule),
the sequence (sequence.py, dispatch to phases/), the checks (validate.py), the answers worth trying
(candidates.py), the read-only questions (queries.py), the answers schema (answers.py), the AI (ai.py) and the
presentation (presentation/). A change of crew assignments (SG-SEQ-02) is logged to its own side alone; what
each side sees of the rest is visibility.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from battles.engine import simulate
from battles.engine.answers import AnswerSchema
from battles.engine.bridge import CampaignBridge
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_object
from battles.engine.outcome import BattleOutcome
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet, ShipOverlays
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup, SidesWeighed
from battles.engine.state import BattleState
from battles.engine.telling import Names
from battles.rules.sky_galleons import (
    ai,
    answers,
    candidates,
    fold,
    gunnery,
    movement,
    queries,
    results,
    scenario,
    sequence,
    special_rules,
    standing,
    validate,
)
from battles.rules.sky_galleons import campaign as sg_campaign
from battles.rules.sky_galleons.board import (
    Board,
    board_from_json,
    board_to_json,
)
from battles.rules.sky_galleons.combat import CombatRules, FireSolution
from battles.rules.sky_galleons.kinds import (
    FIRE,
    KEY,
)
from battles.rules.sky_galleons.presentation import map_view, narration, sheets
from galleons.record import (
    Moment,
    ShipRecord,
    combat_tables,
)


class SkyGalleons(BaseRuleset[Board]):
    """Sky Galleons of Mars, Part I basic rules (errata and Cloudships & Gunboats corrections by default)."""

    key = KEY
    version = "1"
    title = "Sky Galleons of Mars (basic rules)"
    campaign_bridge: CampaignBridge | None = sg_campaign.BRIDGE  # the campaign's ship is this ruleset's (campaign.py)
    # Web play proposes standing orders: two submissions a turn (standing.py).
    play_defaults: Mapping[str, JSON] = MappingProxyType({standing.OPTION: True})
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "errata",
            True,
            "apply the Challenge #43 errata where they correct a rule (loss of trim against heavy hits)",
            choices=(True, False),
            clause="SG-ERR-07",
        ),
        OptionSpec(
            "two_range_penetration",
            True,
            "Cloudships & Gunboats penetration by range (long range uses the long figure)",
            choices=(True, False),
            clause="SG-CG-06",
        ),
        OptionSpec(
            standing.OPTION,
            False,
            "web play: each turn a side sends its orders with standing orders for what the rules ask later (fire, "
            "avoiding, who moves first) and, in its Movement Phase, all its ships' moves at once",
            choices=(True, False),
            clause="SG-SEQ-02",
        ),
        OptionSpec(
            "advanced",
            True,
            "Part II advanced rules: ramming, grappling, boarding parties and boarding actions",
            choices=(True, False),
            clause="SG-RAM-01",
        ),
        OptionSpec(
            "nonexploding_rounds",
            False,
            "optional rule: some shells fail to burst (SG-NEX)",
            choices=(True, False),
            clause="SG-NEX-01",
        ),
        OptionSpec(
            "restricted_arcs",
            False,
            "optional rule: pivot and half mounts fire over narrower arcs (SG-ARC)",
            choices=(True, False),
            clause="SG-ARC-01",
        ),
        OptionSpec(
            "green_machineguns_flat_out",
            False,
            "optional rule: Green crews always fire machineguns at the maximum rate",
            choices=(True, False),
            clause="SG-CG-54",
        ),
        OptionSpec(
            "agility",
            False,
            "Agility rules: a ship's size and speed against the gun's traverse at long range",
            choices=(True, False),
            clause="AG-AGI-01",
        ),
        OptionSpec(
            "agility_gm_ratings",
            False,
            "Agility rules: the game master's extended agility ratings (+4 to +6)",
            choices=(True, False),
            clause="AG-AGI-05",
        ),
        OptionSpec(
            "raking_fire",
            False,
            "Agility rules: fire from dead ahead or astern rakes the target for a second hit",
            choices=(True, False),
            clause="AG-RAKE-01",
        ),
        OptionSpec(
            "extreme_range",
            False,
            "Agility rules: the big rifled guns fire at extreme range, with the scatter table",
            choices=(True, False),
            clause="AG-EXT-01",
        ),
        OptionSpec(
            "long_range_penetration",
            False,
            "Agility rules: one penetration rating, armor doubled at long range",
            choices=(True, False),
            clause="AG-LRP-01",
        ),
        OptionSpec(
            "coal_bunker_hits",
            False,
            "Agility rules (campaign battles): hull hits may cut a steamer's coal endurance",
            choices=(True, False),
            clause="AG-END-03",
        ),
        OptionSpec(
            "ramming_speed",
            False,
            "Agility rules: a fitted ram does damage by the rammer's speed",
            choices=(True, False),
            clause="AG-RSP-01",
        ),
        OptionSpec(
            "officer_led_boarding",
            False,
            "a boarding party goes home as soon as its officers are dead (the basic rule), not only when no "
            "officer or petty officer is left",
            choices=(True, False),
            clause="SG-CREW-02",
        ),
        OptionSpec(
            "line_of_sight",
            False,
            "optional rule: intervening ships block the line of fire (SG-LOS)",
            choices=(True, False),
            clause="SG-LOS-01",
        ),
        OptionSpec(
            "plotted_movement",
            False,
            "errata variant: half of each move is plotted in secret and carried out after the initiative",
            choices=(True, False),
            clause="SG-ERR-24",
        ),
        OptionSpec(
            "signals",
            False,
            "optional signal rule: each side hoists one signal of six words a turn, read by who can see it",
            choices=(True, False),
            clause="SG-SIG-04",
        ),
        OptionSpec(
            "naval_codes",
            True,
            "optional signal rule: only the sender's own side can read its signals",
            choices=(True, False),
            clause="SG-SIG-05",
        ),
    )

    def __init__(self) -> None:
        self.tables: Mapping[str, JSON] = dict(combat_tables())

    # --- set-up and serialisation ---------------------------------------------------------------------

    def setup(self, scenario_data: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        found = scenario.parse(dict(scenario_data))
        ships = found.ships
        board = Board(
            scenario=found.slug,
            title=found.title,
            terrain=found.terrain,
            ships=ships,
            roles={s.record.name: s.role for side in found.sides for s in side.ships},
            side_order=tuple(side.id for side in found.sides),
            side_names={side.id: side.name for side in found.sides},
            ai={side.id: dict(side.ai) for side in found.sides},
            turn_limit=found.turn_limit,
            setup_kind=found.setup,
            min_distance=found.min_distance,
            victory=found.victory,
            crew_at_start={s.name: s.crew_aboard for s in ships},
            # Kites need a wind: a scenario that sets none rolls it (SG-WIND-01, SG-KITE-01).
            victory_side=found.victory_side,
            flyers=found.flyers,
            wind_rule="roll"
            if found.wind is None and (any(s.is_kite for s in ships) or special_rules.kites_may_join(found.rules))
            else found.wind,
            scenario_rules=found.rules_json(),
        )
        return Setup(sides=board.side_order, board=board)

    def board_to_json(self, board: Board) -> JSON:
        return board_to_json(board)

    def board_from_json(self, data: JSON) -> Board:
        return board_from_json(data)

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        """The AI captain for a side (battles.engine.simulate.policy_for): ai.py, tactics.Captain."""
        return ai.captain(seed, side)

    def leaving_policy(self, seed: bytes, side: str, how: str) -> Policy:
        """Who answers for a side that surrendered or withdraws in the battle app (ai.py, tactics.Leaving)."""
        return ai.leaving(seed, side, how)

    def deadline_default(self, state: BattleState[Board], request: DecisionRequest, seed: bytes) -> JSON:
        """Hold course and fire at will: the request's default, but the AI captain's shots for fire."""
        if request.kind == FIRE:
            return simulate.ai_answer(self, state, request, seed)
        return request.default

    def standing_answer(self, state: BattleState[Board], request: DecisionRequest, seed: bytes) -> JSON | None:
        """What the side's standing orders answer (standing.py): the AI captain's judgement where they say
        so, seeing what the side sees."""
        if not state.options.get(standing.OPTION):
            return None  # every decision put to the side as the rules ask it (table play)
        return standing.answer(
            state,
            request,
            lambda: simulate.ai_answer(self, state, request, seed),
            lambda: validate.solutions(state, request.side),
        )

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [scenario.load_data(slug) for slug in scenario.available()]

    def roster(self, state: BattleState[Board]) -> list[JSONObject]:
        """The sides by their names and their vessels (ground batteries and targets are not ships)."""
        board = state.board
        return [
            {
                "side": side,
                "name": board.side_names.get(side, side),
                "ships": [
                    {"name": s.name, "class": s.class_name}
                    for s in board.ships
                    if s.side == side and s.emplacement is None
                ],
            }
            for side in board.side_order
        ]

    def board_view(self, state: BattleState[Board], side: str | None) -> JSON:
        """The board as ``side`` sees it: the enemy as seen across the sky (visibility.py)."""
        from battles.rules.sky_galleons import visibility  # visibility reads this module's kinds

        return visibility.board_seen(read_object(self.board_to_json(state.board)), state, side)

    def event_view(self, event: Event, side: str | None) -> JSONObject | None:
        """One logged event as ``side`` sees it, or None where it is withheld (visibility.py)."""
        from battles.rules.sky_galleons import visibility

        return visibility.event_seen(event, side)

    # --- presentation (presentation/) ------------------------------------------------------------------

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
        return sheets.ship_sheet(view, piece, start=start, turn=turn, status=status)

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        return gunnery.ship_overlays(view, options=options, turn=turn)

    # --- helpers ----------------------------------------------------------------------------------------

    def rules(self, state: BattleState[Board]) -> CombatRules:
        return queries.rules(state)

    def now(self, state: BattleState[Board]) -> Moment:
        return queries.now(state)

    def speed(self, record: ShipRecord, board: Board | None = None) -> int:
        return queries.speed(record, board)

    def allowance(self, state: BattleState[Board], record: ShipRecord, *, plotted: bool = True) -> movement.Allowance:
        return queries.allowance(state, record, plotted=plotted)

    # --- the sequence of play ---------------------------------------------------------------------------

    def advance(self, ctx: Context[Board]) -> None:
        sequence.advance(ctx)

    def default_placement(self, state: BattleState[Board], record: ShipRecord) -> JSON:
        return candidates.default_placement(state, record)

    def boarders_on(self, board: Board, name: str) -> list[ShipRecord]:
        return queries.boarders_on(board, name)

    def ready_tow(self, state: BattleState[Board], tower: str) -> str | None:
        return queries.ready_tow(state, tower)

    # --- ramming and grappling (SG-RAM, SG-GRAP) ------------------------------------------------------

    # --- boarders crossing (SG-BRD-05..09) -------------------------------------------------------------

    def boarding_options(self, state: BattleState[Board], side: str) -> dict[str, dict[str, int]]:
        return queries.boarding_options(state, side)

    def crossing_limit(self, board: Board, a: ShipRecord, b: ShipRecord) -> int:
        return queries.crossing_limit(board, a, b)

    # --- fire -------------------------------------------------------------------------------------------

    def solutions(self, state: BattleState[Board], side: str) -> list[FireSolution]:
        return validate.solutions(state, side)

    # --- prizes (SG-BRD-21..24, prizes.py) ---------------------------------------------------------------

    # --- High Martians and flying parties (flying.py: SG-HM, SG-THR-01, SG-ERR-13, SG-SHR-06) -----------

    # --- ends ---------------------------------------------------------------------------------------------

    # --- dice and records ------------------------------------------------------------------------------

    def apply(self, state: BattleState[Board], event: Event) -> Board:
        return fold.apply(state, event)

    # --- decisions ------------------------------------------------------------------------------------------

    def validate(self, state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
        return validate.validate(state, request, choice)

    def signal_links(self, state: BattleState[Board]) -> dict[str, dict[str, JSON]]:
        return validate.signal_links(state)

    def answer_schema(
        self,
        state: BattleState[Board],
        request: DecisionRequest,
        *,
        partial: JSON = None,
        sides: Mapping[str, str] | None = None,
    ) -> AnswerSchema:
        """What an answer to ``request`` may be, as fields offering only legal choices (answers.py)."""
        return answers.schema(self, state, request, partial=partial, sides=sides)

    def candidates(self, state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
        found = candidates.candidates(state, request)
        return super().candidates(state, request) if found is None else found

    def default_move(self, state: BattleState[Board], record: ShipRecord) -> list[str]:
        return candidates.default_move(state, record)

    def traced_moves(
        self, state: BattleState[Board], record: ShipRecord, *, max_turns: int | None = None
    ) -> list[tuple[list[str], list[movement.Step]]]:
        return candidates.traced_moves(state, record, max_turns=max_turns)

    # --- invariants and outcome -----------------------------------------------------------------------------

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        return queries.check_invariants(state)

    def battle_result(self, initial: BattleState[Board], final: BattleState[Board]) -> JSONObject:
        """What the battle hands the campaign: each ship's fate, damage, losses and stores (results.py)."""
        from battles.rules.sky_galleons import results  # results reads this module's board and fates

        return results.result(initial, final)

    def outcome(self, initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
        """The typed outcome the campaign reads: fates, crews, captains and records (outcome.py)."""
        from battles.rules.sky_galleons import outcome  # outcome reads this module's board, through results

        return outcome.battle_outcome(initial, final)

    def weigh_sides(self, scenario: Mapping[str, JSON]) -> SidesWeighed | None:
        """The designer's advice on balancing scenarios (SG-SCN-48..50, scenario_balance.py)."""
        from battles.rules.sky_galleons import scenario_balance  # only --balance weighs: not loaded for play

        weighed = scenario_balance.balance(scenario)
        return SidesWeighed(weighed.to_json(), scenario_balance.describe(weighed))

    def tally(self, state: BattleState[Board]) -> JSONObject:
        return results.tally(state)


# --- small pieces ---------------------------------------------------------------------------------------------


SKY_GALLEONS = SkyGalleons()
