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

The board is plain immutable data; every change is an event folded by ``apply``. Record changes travel as
``ship`` events carrying the whole new record, so the fold never re-runs a rule. A change of crew assignments
(SG-SEQ-02) is logged to its own side alone; what each side sees of the rest is visibility.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from battles.engine import hexgrid, simulate
from battles.engine.answers import AnswerSchema
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.policies import Policy
from battles.engine.presentation import MapView, RecordSheet
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState
from battles.engine.telling import Names
from battles.engine.words import possessive
from battles.rules.sky_galleons import (
    ai,
    answers,
    avoidance,
    candidates,
    close_action,
    combat,
    flying,
    fold,
    movement,
    ordnance_play,
    plotting,
    prizes,
    queries,
    scenario,
    special_rules,
    validate,
    victory,
)
from battles.rules.sky_galleons.board import (
    Board,
    board_from_json,
    board_to_json,
    move_parts,
    pair_key,
)
from battles.rules.sky_galleons.combat import CombatRules, FireSolution
from battles.rules.sky_galleons.flying import FLY
from battles.rules.sky_galleons.kinds import (
    AVOID,
    AVOIDING,
    BOARD,
    BOARDING,
    CAPTURED,
    COLLIDING,
    CRASH_LANDED,
    CRASHED,
    CREW_STAGE,
    ESCAPED,
    FIRE,
    FIRING,
    FIRST,
    FIRST_STAGE,
    FLYING,
    KEY,
    MOVE,
    MOVING,
    ORDERS_STAGE,
    PHASE_END,
    PHASE_START,
    PLACEMENT,
    PLOTTED,
    POSITION,
    POSITIONS,
    RAM,
    REINFORCING,
    SETUP,
    STRUCK,
    UPKEEP,
)
from battles.rules.sky_galleons.phases import basics, boarding, collisions, fire, initiative_phase, opening, parties
from battles.rules.sky_galleons.presentation import map_view, narration, sheets
from galleons.record import (
    Moment,
    ShipRecord,
    altitude_level,
    altitude_levels,
    combat_tables,
    record_problems,
    tint,
)


class SkyGalleons(BaseRuleset[Board]):
    """Sky Galleons of Mars, Part I basic rules (errata and Cloudships & Gunboats corrections by default)."""

    key = KEY
    version = "1"
    title = "Sky Galleons of Mars (basic rules)"
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
        stage = ctx.board.stage
        if stage == SETUP:
            opening.setup(ctx)
        elif stage == PLACEMENT:
            opening.placement(ctx)
        elif stage == UPKEEP:
            initiative_phase.upkeep(ctx)
        elif stage == ORDERS_STAGE:
            initiative_phase.orders(ctx)
        elif stage == FIRST_STAGE:
            self._first_player(ctx)
        elif stage == PHASE_START:
            self._phase_start(ctx)
        elif stage == MOVING:
            self._moving(ctx)
        elif stage == AVOIDING:
            self._avoiding(ctx)
        elif stage == BOARDING:
            self._boarding(ctx)
        elif stage == POSITIONS:
            self._positions(ctx)
        elif stage == FIRING:
            fire.firing(ctx)
        elif stage == PHASE_END:
            self._phase_end(ctx)
        elif stage == ordnance_play.TORPEDOES:
            ordnance_play.torpedo_stage(self, ctx)
        elif stage == FLYING:
            self._flying(ctx)
        elif stage == COLLIDING:
            self._collision_answered(ctx)
        elif stage == PLOTTED:
            plotting.carry_out(self, ctx)
        elif stage == CREW_STAGE:
            opening.crew_chosen(ctx)
        elif stage == REINFORCING:
            initiative_phase.reinforced(ctx)
        else:  # pragma: no cover - a board can only hold the stages above
            raise ValueError(f"unknown stage {stage!r}")

    def _collision_answered(self, ctx: Context[Board]) -> None:
        """The ships asked have avoided or not (avoidance.py, SG-ERR-04/05); the held move goes ahead: a plotted
        one in the plotted moves (plotting.py), any other as the moving ship's move."""
        avoidance.answered(ctx)
        name = ctx.board.asking
        steps, attack = move_parts(ctx.board.held_move)
        if ctx.board.phase_no == 0:
            plotting.resume(self, ctx, name, steps)
            return
        basics.stage(ctx, MOVING, asking=name)
        self._carry_out(ctx, name, steps, attack)
        self._ask_move(ctx)

    def default_placement(self, state: BattleState[Board], record: ShipRecord) -> JSON:
        return candidates.default_placement(state, record)

    def boarders_on(self, board: Board, name: str) -> list[ShipRecord]:
        return queries.boarders_on(board, name)

    def _first_player(self, ctx: Context[Board]) -> None:
        first = next(str(a.choice) for a in ctx.board.decided if a.kind == FIRST)
        order = list(ctx.board.side_order)
        start = order.index(first)
        rotated = order[start:] + order[:start]  # the rest follow in turn (SG-SEQ-03, SG-SCN-05)
        ctx.emit("movement order", {"order": rotated})
        if ordnance_play.run_torpedoes(ctx):  # torpedoes in flight run before the first move (SG-SMT-03)
            return
        self._moves_begin(ctx)

    def _moves_begin(self, ctx: Context[Board]) -> None:
        """After the torpedo runs: the plotted moves first, if any (SG-ERR-25), else the first Movement Phase."""
        if plotting.begin(ctx):
            return
        self._next_phase(ctx, 1)

    def _next_phase(self, ctx: Context[Board], phase_no: int) -> None:
        while phase_no <= len(ctx.board.order) and not self._moves_at_all(ctx, ctx.board.order[phase_no - 1]):
            phase_no += 1  # a side with nothing left in the fight has no movement phase
        if phase_no > len(ctx.board.order):
            opening.begin_turn(ctx)
            return
        side = ctx.board.order[phase_no - 1]
        ctx.begin_phase(f"movement {phase_no}: {side}")
        basics.stage(ctx, PHASE_START, phase_no=phase_no)

    def _moves_at_all(self, ctx: Context[Board], side: str) -> bool:
        """The side has a movement phase: a ship in the fight, or a flying party in the air, which flies on
        when its side's ships are gone where the battle goes on without them (SG-HM-03: a party moves as it
        will, with no word of its ship; the Great Raid's warbands hold the kraag, SG-SCN-40)."""
        advanced = bool(ctx.option("advanced"))
        return bool(ctx.board.fighting(side)) or (advanced and bool(flying.in_the_air(ctx.board.flyers, side)))

    def _phase_start(self, ctx: Context[Board]) -> None:
        side = ctx.board.moving
        assert side is not None
        for record in ctx.board.fighting():  # shotgun marines reload once their boarding action is over
            reloaded = close_action.reload_shotguns(record, boarded=bool(queries.boarders_on(ctx.board, record.name)))
            if reloaded != record:
                note = basics.note(
                    record.name, f"{possessive(record.name)} shotgun marines reload", "reloaded", ["SG-CG-18"]
                )
                basics.commit(ctx, {record.name: reloaded}, [note])
        boarding.scuttling(ctx, side)
        for kite in [s for s in ctx.board.fighting(side) if s.is_kite]:  # SG-KITE-02/04
            rolled = ctx.roll(
                f"{possessive(kite.name)} movement die (kite)", needed=basics.faces("die"), ships=[kite.name]
            )
            ctx.emit("kite die", {"ship": kite.name, "die": rolled.total, "clauses": ["SG-KITE-02", "SG-KITE-04"]})
        roller = basics.roller(ctx)
        now = queries.now(ctx.state)
        for record in ctx.board.fighting(side):
            changed, happened = combat.fire_reaches_magazine(
                record, now=now, roller=roller, rules=queries.rules(ctx.state)
            )
            basics.commit(ctx, {record.name: changed}, happened)
        for record in ctx.board.fighting(side):
            if record.grappled_with and not self._grappled_drop(ctx, record):
                continue
            record = ctx.board.ship(record.name)
            altitude, ends = movement.forced_drop(record, ctx.board.terrain)
            if altitude != record.altitude:
                # A drop to the land crashes her in the same event: no state has her flying inside the ground.
                crashed = {"crashed": True} if ends else {}
                ctx.emit(
                    "forced drop",
                    {"ship": record.name, "altitude": altitude, "clauses": ["SG-DMG-15"], **crashed},
                    ships=[record.name],
                )
                if ends:
                    basics.out(ctx, record.name, CRASHED, "drops to the ground", ["SG-ALT-10"])
        basics.stage(ctx, MOVING)
        self._ask_move(ctx)

    def _grappled_drop(self, ctx: Context[Board], record: ShipRecord) -> bool:
        """A grappled ship that must drop stays up (SG-GRAP-09) unless the ship it is grappled with must drop
        too (SG-GRAP-10); with its ceiling two levels below it, the grapple breaks and it drops with a loss of
        trim (SG-GRAP-11). True if the drop goes ahead now."""
        if not record.must_drop:
            return False
        if record.must_drop >= 2:
            for other in record.grappled_with:
                ctx.emit("grapple cut", {"pair": [record.name, other], "clauses": ["SG-GRAP-11"]}, ships=[record.name])
            dropped = replace(
                ctx.board.ship(record.name), altitude=altitude_levels()[altitude_level(record.altitude) - 2]
            )
            happened = [basics.note(record.name, f"the grapple breaks and {record.name} drops two levels", "drops", [])]
            basics.commit(ctx, {record.name: dropped}, happened, clauses=["SG-GRAP-11"])
            changed, rolled = combat.lose_trim(
                ctx.board.ship(record.name),
                tint("stations", "untrimmed_damage_value"),
                now=queries.now(ctx.state),
                roller=basics.roller(ctx),
                rules=queries.rules(ctx.state),
                cause="grapple broken",
            )
            basics.commit(ctx, {record.name: changed}, rolled, clauses=["SG-GRAP-11"])
            return True
        if any(ctx.board.ship(other).must_drop for other in record.grappled_with):
            return True
        ctx.emit(
            "move held",
            {"ship": record.name, "why": "grappled: stays at her height", "clauses": ["SG-GRAP-09"]},
            ships=[record.name],
        )
        return False

    def _ask_move(self, ctx: Context[Board]) -> None:
        side = ctx.board.moving
        assert side is not None
        waiting = [s for s in ctx.board.fighting(side) if s.name not in ctx.board.moves_done]
        while waiting and queries.held(ctx.state, waiting[0]):  # SG-GRAP-08: a grappled ship stays where it is
            held = waiting.pop(0)
            tower = ctx.board.tower_of(held.name)
            why = f"in tow of {tower}" if tower else f"grappled with {', '.join(held.grappled_with)}"
            ctx.emit(
                "move held",
                {"ship": held.name, "why": why, "clauses": ["SG-TOW-01"] if tower else ["SG-GRAP-08"]},
                ships=[held.name],
            )
            collisions.moved_done(ctx, held.name, 0)
        if not waiting:
            if not parties.ask_fly(ctx):  # then the side's flying parties (SG-HM-03)
                self._after_movement(ctx)
            return
        record = waiting[0]
        allowed = queries.allowance(ctx.state, record)
        default = candidates.default_move(ctx.state, record)
        ctx.emit("asking", {"ship": record.name})
        ctx.request(
            side,
            MOVE,
            rule="SG-MOV-01",
            default=default,
            prompt=f"plan {possessive(record.name)} move: {allowed.speed} MP; "
            f"steps {', '.join(movement.step_kinds(record))}",
            ships=[record.name],
        )

    def _moving(self, ctx: Context[Board]) -> None:
        answer = next((a for a in ctx.board.decided if a.kind == MOVE), None)
        name = ctx.board.asking
        if answer is not None and name not in ctx.board.moves_done:
            steps, attack = move_parts(answer.choice)
            drops = ordnance_play.drops_of(answer.choice)
            if attack is None or ctx.board.ally(ctx.board.ship(name).side, ctx.board.ship(attack[1])):
                if avoidance.ask(ctx, name, answer.choice):
                    return
                self._carry_out(ctx, name, steps, attack, drops)  # a friendly grapple needs no declaration (SG-TOW-02)
            else:
                ctx.emit(
                    "held move",
                    {"ship": name, "side": ctx.board.ship(name).side, "move": answer.choice, "clauses": ["SG-RAM-04"]},
                    ships=[name, attack[1]],
                )
                if self._ask_avoid(ctx, name, attack) or avoidance.ask(ctx, name, answer.choice):
                    return
                self._carry_out(ctx, name, steps, attack, drops)
        self._ask_move(ctx)

    def ready_tow(self, state: BattleState[Board], tower: str) -> str | None:
        return queries.ready_tow(state, tower)

    def _ask_avoid(self, ctx: Context[Board], name: str, attack: tuple[str, str]) -> bool:
        """Ask the target whether it avoids (SG-RAM-05), unless it cannot or already does this turn."""
        kind, target_name = attack
        target = ctx.board.ship(target_name)
        if (
            target_name in ctx.board.avoiding
            or special_rules.hove_to(ctx.board, target_name)  # SG-SCN-17: she waits to be taken
            or close_action.immobilized(target)
            or target.stunned(queries.now(ctx.state))
            or target.grappled_with
        ):
            return False
        mp = close_action.avoidance_mp(queries.speed(target, ctx.board))
        basics.stage(ctx, AVOIDING, asking=name)
        ctx.request(
            target.side,
            AVOID,
            rule="SG-RAM-05",
            options=ordnance_play.avoid_options(target),  # with mines raised: cut them loose first (SG-TM-04/05)
            prompt=f"{name} tries to {kind} {target_name}: avoid it? "
            f"({mp} of {possessive(target_name)} movement points this turn)",
            ships=[target_name, name],
        )
        return True

    def _avoiding(self, ctx: Context[Board]) -> None:
        answer = next(a for a in ctx.board.decided if a.kind == AVOID)
        name = ctx.board.asking
        steps, attack = move_parts(ctx.board.held_move)
        assert attack is not None
        if answer.choice is True or ordnance_play.cut_before_avoiding(ctx, attack[1], answer.choice):
            target = ctx.board.ship(attack[1])
            mp = close_action.avoidance_mp(queries.speed(target, ctx.board))
            ctx.emit("avoiding", {"ship": target.name, "mp": mp, "clauses": ["SG-RAM-05"]}, ships=[target.name])
        basics.stage(ctx, MOVING, asking=name)
        if avoidance.ask(ctx, name, ctx.board.held_move):
            return
        self._carry_out(ctx, name, steps, attack, ordnance_play.drops_of(ctx.board.held_move))
        self._ask_move(ctx)

    def _carry_out(
        self,
        ctx: Context[Board],
        name: str,
        plan: list[str],
        attack: tuple[str, str] | None = None,
        drops: ordnance_play.Drops | None = None,
    ) -> None:
        """Walk a plan step by step, checking collisions as the ship enters shared hexes (SG-COL-*); a ram is
        tried where the path meets the target, a grapple where the move ends beside it (SG-RAM-04/06,
        SG-GRAP-01)."""
        record = ctx.board.ship(name)
        steps = movement.trace(record, plan, allowed=queries.allowance(ctx.state, record), terrain=ctx.board.terrain)
        start = record.position
        hexes = 0
        drops = drops or ordnance_play.Drops()
        for step in steps:
            before = ctx.board.ship(name)
            if step.token == movement.AHEAD and before.position == start:
                # SG-COL-09: leaving a hex shared since the phase began (with ships at the altitude it is at
                # now; a ship that moved in this phase already checked on the way in), check again
                turned = any(t in movement.TURNS for t in plan[: step.index])
                began_together = [
                    other
                    for other in collisions.sharing(ctx.board, name, start, before.altitude)
                    if other not in ctx.board.moves_done
                ]
                for other in began_together:
                    if collisions.collision(ctx, name, other, entered_from=None, turned=turned, leaving=True):
                        collisions.moved_done(ctx, name, hexes)
                        return
            ctx.emit(
                "moved",
                {
                    "ship": name,
                    "step": step.token,
                    "hex": step.hex.to_json(),
                    "facing": step.facing,
                    "altitude": step.altitude,
                    "cost": step.cost,
                    "ends": step.ends,
                    "clauses": list(step.clauses),
                },
                ships=[name],
            )
            if step.token == movement.AHEAD:
                hexes += 1
            if ordnance_play.after_step(ctx, name, before, step, drops):
                break  # drops made as it leaves a hex; mines or a drogue went off on it: its move ends (SG-TM-07)
            if step.ends:
                collisions.move_ends(ctx, name, step.ends, step.clauses)
                break
            if step.enters_hex or step.changes_altitude:
                entered_from = hexgrid.rotate_facing(before.facing, 3) if step.token == movement.AHEAD else None
                turned = movement.turns_in_hex(plan, step.index + 1)
                sharing = collisions.sharing(ctx.board, name, step.hex, step.altitude)
                if attack is not None and attack[0] == RAM and attack[1] in sharing:
                    target_name, attack = attack[1], None
                    if collisions.ram(ctx, name, target_name):
                        break  # the rammer stops in the target's hex
                    sharing.remove(target_name)  # a ram that misses makes no contact
                collided = False
                for other in sharing:
                    if collisions.collision(ctx, name, other, entered_from=entered_from, turned=turned, leaving=False):
                        collided = True
                        break
                if collided:
                    break
        ordnance_play.move_ended(ctx, name, drops, hexes)
        if attack is not None:
            collisions.grapple_or_miss(ctx, name, attack)
        collisions.moved_done(ctx, name, hexes)

    # --- ramming and grappling (SG-RAM, SG-GRAP) ------------------------------------------------------

    def _after_movement(self, ctx: Context[Board]) -> None:
        basics.stage(ctx, POSITIONS)
        self._ask_position(ctx)

    def _ask_position(self, ctx: Context[Board]) -> None:
        pairs = queries.shared_pairs(ctx.board)
        if not pairs:
            self._ask_board(ctx)
            return
        mine, theirs = pairs[0]
        a, b = ctx.board.ship(mine), ctx.board.ship(theirs)
        options = sorted([list(p) for p in hexgrid.relative_positions(a.facing, b.facing)])
        basics.stage(ctx, POSITIONS, asking=pair_key(mine, theirs))
        side = ctx.board.moving
        assert side is not None
        ctx.request(
            side,
            POSITION,
            rule="SG-MOV-06",
            options=options,
            prompt=f"{mine} shares a hex with {theirs}: [{theirs} is in my aspect, I am in his aspect]",
            ships=[mine, theirs],
        )

    def _positions(self, ctx: Context[Board]) -> None:
        answer = next((a for a in ctx.board.decided if a.kind == POSITION), None)
        if answer is not None and ctx.board.asking:
            mine, theirs = read_list(answer.choice)
            ctx.emit(
                "relative position",
                {"pair": ctx.board.asking, "aspects": [mine, theirs], "clauses": ["SG-MOV-05"]},
                ships=ctx.board.asking.split("|"),
            )
        self._ask_position(ctx)

    # --- boarders crossing (SG-BRD-05..09) -------------------------------------------------------------

    def boarding_options(self, state: BattleState[Board], side: str) -> dict[str, dict[str, int]]:
        return queries.boarding_options(state, side)

    def crossing_limit(self, board: Board, a: ShipRecord, b: ShipRecord) -> int:
        return queries.crossing_limit(board, a, b)

    def _ask_board(self, ctx: Context[Board]) -> None:
        side = ctx.board.moving
        assert side is not None
        if not ctx.option("advanced") or not queries.boarding_options(ctx.state, side):
            fire.ask_fire(ctx)
            return
        basics.stage(ctx, BOARDING)
        ctx.request(
            side,
            BOARD,
            rule="SG-BRD-05",
            default={"boardings": []},
            prompt='send boarders across: {"boardings": [{"ship": ..., "target": ..., "men": n}]}',
            ships=list(queries.boarding_options(ctx.state, side)),
        )

    def _boarding(self, ctx: Context[Board]) -> None:
        answer = next(a for a in ctx.board.decided if a.kind == BOARD)
        for each in read_list(read_object(answer.choice)["boardings"]):
            order = read_object(each)
            name, target, men = str(order["ship"]), str(order["target"]), read_int(order["men"])
            leap = [] if target in ctx.board.ship(name).grappled_with else ["SG-HM-01"]
            ctx.emit(
                "crossing",
                {"ship": name, "target": target, "men": men, "clauses": ["SG-BRD-05", "SG-BRD-07", *leap]},
                ships=[name, target],
            )
        fire.ask_fire(ctx)

    # --- fire -------------------------------------------------------------------------------------------

    def solutions(self, state: BattleState[Board], side: str) -> list[FireSolution]:
        return validate.solutions(state, side)

    def _phase_end(self, ctx: Context[Board]) -> None:
        """SG-SEQ-07: the moving side's boarders cross and fight; SG-SEQ-08: its fire fighting and repairs;
        SG-CREW-09: the untrimmed check."""
        side = ctx.board.moving
        assert side is not None
        boarding.cross(ctx)
        boarding.boarding_actions(ctx, side)
        if initiative_phase.check_victory(ctx):
            return
        roller = basics.roller(ctx)
        now = queries.now(ctx.state)
        for record in ctx.board.fighting(side):
            changed, happened = combat.fight_fire(record, now=now, roller=roller)
            basics.commit(ctx, {record.name: changed}, happened)
            changed, happened = combat.repair(ctx.board.ship(record.name), roller=roller)
            basics.commit(ctx, {record.name: changed}, happened)
            changed, happened = combat.check_untrimmed(
                ctx.board.ship(record.name), now=now, roller=roller, rules=queries.rules(ctx.state)
            )
            basics.commit(ctx, {record.name: changed}, happened)
        if initiative_phase.check_victory(ctx):
            return
        self._next_phase(ctx, ctx.board.phase_no + 1)

    # --- prizes (SG-BRD-21..24, prizes.py) ---------------------------------------------------------------

    # --- High Martians and flying parties (flying.py: SG-HM, SG-THR-01, SG-ERR-13, SG-SHR-06) -----------

    def _flying(self, ctx: Context[Board]) -> None:
        answer = next(a for a in ctx.board.decided if a.kind == FLY)
        parties.fly(ctx, ctx.board.asking, answer.choice)
        if not parties.ask_fly(ctx):
            self._after_movement(ctx)

    # --- ends ---------------------------------------------------------------------------------------------

    def _check_victory(self, ctx: Context[Board], *, initiative: bool = False) -> bool:
        return initiative_phase.check_victory(ctx, initiative=initiative)

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
        problems: list[str] = []
        board = state.board
        for ship in board.ships:
            problems += [f"{ship.name}: {p}" for p in record_problems(ship)]
            if ship.position is not None and not board.terrain.on_map(ship.position) and ship.name not in board.out:
                problems.append(f"{ship.name} is off the map but still in the fight")
            if (
                ship.afloat
                and ship.status == "flying"
                and altitude_level(ship.altitude)
                <= altitude_level(board.terrain.ground(ship.position) if ship.position else "G")
                and ship.name not in board.out
            ):
                problems.append(f"{ship.name} flies inside the ground at {ship.altitude}")
        for ship in board.ships:
            for other in ship.grappled_with:
                if other not in board.by_name or ship.name not in board.ship(other).grappled_with:
                    problems.append(f"{ship.name} is grappled with {other}, but not {other} with {ship.name}")
            if ship.boarding is not None and ship.boarding not in board.by_name:
                problems.append(
                    f"{possessive(ship.name)} boarders are aboard {ship.boarding}, which is not in the battle"
                )
        problems += flying.problems(board.flyers, board.by_name, board.terrain)
        if state.turn > board.turn_limit:
            problems.append(f"turn {state.turn} past the limit {board.turn_limit}")
        if (
            state.over
            and victory.ends_only_with_one_side(board)
            and len(board.sides_fighting()) > 1
            and state.turn < board.turn_limit
        ):
            problems.append("the battle ended with two sides still in the fight before the turn limit")
        return problems

    def battle_result(self, initial: BattleState[Board], final: BattleState[Board]) -> JSONObject:
        """What the battle hands the campaign: each ship's fate, damage, losses and stores (results.py)."""
        from battles.rules.sky_galleons import results  # results reads this module's board and fates

        return results.result(initial, final)

    def tally(self, state: BattleState[Board]) -> JSONObject:
        """The odds calculator's figures: winner, turns, each side's losses, each ship's fate and damage."""
        board = state.board
        ships: list[dict[str, Any]] = []
        for ship in board.ships:
            if ship.emplacement is not None:
                continue  # the ground is reported on its own (ordnance_play.outcome_extra)
            fate = board.out.get(ship.name, "fighting" if ship.afloat else CRASHED)
            # A prize is her first owner's ship, captured, even when her prize crew fights on (SG-BRD-21).
            prize = board.prizes.get(ship.name)
            crewed = prize is not None and prize.order == prizes.CREW
            away = prizes.men_away(board.prizes, ship.name) + flying.men_out(board.flyers, ship.name)
            away += sum(special_rules.ashore(board, ship.name).values())  # a landing party, alive (SG-SCN-38)
            alive = prize.prisoners if crewed and prize else ship.men_alive + away
            ships.append(
                {
                    "name": ship.name,
                    "side": prize.owner if prize else ship.side,
                    "class": ship.class_name,
                    "fate": CAPTURED if prize else fate,
                    "hull_hits": ship.hull_hits,
                    "hull_boxes": ship.hull_boxes,
                    # Men lost, never below none: men who joined her from elsewhere (a warband landing on
                    # her, SG-HM-05) are no casualties given back (results.py keeps them as joined).
                    "crew_lost": max(board.crew_at_start[ship.name] - alive, 0),
                    "captured_by": board.captured.get(ship.name),
                    "crew_at_start": board.crew_at_start[ship.name],
                    "fire": ship.fire,
                    "prize": prize.status if prize else None,
                    "prize_fate": fate if crewed else None,
                }
            )
        sides = {}
        for side in board.side_order:
            mine = [s for s in ships if s["side"] == side]
            sides[side] = {
                "ships": len(mine),
                "lost": sum(1 for s in mine if s["fate"] in (CRASHED, CRASH_LANDED)),
                "captured": sum(1 for s in mine if s["fate"] in (STRUCK, CAPTURED)),
                "prizes": sum(1 for s in ships if s["captured_by"] == side),
                "prizes_crewed": sum(1 for p in board.prizes.values() if p.captor == side and p.status == "crewed"),
                "prizes_scuttled": sum(1 for p in board.prizes.values() if p.captor == side and p.status == "scuttled"),
                "escaped": sum(1 for s in mine if s["fate"] == ESCAPED),
                "hull_hits": sum(int(s["hull_hits"]) for s in mine),
                "crew_lost": sum(int(s["crew_lost"]) for s in mine),
            }
        return {
            "scenario": board.scenario,
            "winner": state.winner,
            "reason": state.result,
            "turns": state.turn,
            "over": state.over,
            "sides": sides,
            "ships": ships,
            **ordnance_play.outcome_extra(board),
            "flying_parties": [flying.outcome(party) for party in board.flyers],
        }


# --- small pieces ---------------------------------------------------------------------------------------------


SKY_GALLEONS = SkyGalleons()
