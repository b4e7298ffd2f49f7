"""Writes for battles: create, submit a decision, resolve, deadlines, corrections, leaving, the result.

The engine decides everything; these functions store what it decided. Each is atomic and locks the battle
row first (SELECT ... FOR UPDATE), so two submissions, or a submission and a resolution, never interleave.

A submitted decision is checked against the battle's current state and stored; the engine folds it into the
log when the battle resolves: in a Celery task queued after commit (``battles.tasks.resolve_battle``), once
every open decision of a side that a person controls has its answer. Resolution answers the AI's sides
itself and carries on until a person must decide again or the battle ends, then stores the new events, the
state snapshot and, at the end, the result, all in one transaction: a worker killed half way leaves the
battle as it was, and the task, run again, does the work once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from battles import announcements, engine_io, signals
from battles.engine import dice, resolver, simulate
from battles.engine.decisions import ALREADY_DECIDED, BATTLE_OVER, NO_SUCH_DECISION, DecisionRequest, Rejection
from battles.engine.events import JSON, Event, canonical, plain
from battles.engine.resolver import EngineError
from battles.engine.ruleset import OptionError, Ruleset
from battles.engine.state import BattleState, pending_from_json, redact
from battles.models import (
    LIVE_WINDOWS,
    Battle,
    BattleEvent,
    BattleMode,
    BattleResult,
    BattleShip,
    BattleSide,
    BattleStatus,
    Controller,
    Correction,
    DeadlineDefault,
    Decision,
    DecisionSource,
    persons_play,
)
from campaign.models import Campaign, Membership, Role
from config import task_queue

DEFAULT_RULESET: str = settings.DEFAULT_RULESET

logger = logging.getLogger(__name__)


class BattleRefused(Exception):
    """A request the battle cannot take. ``message`` says why in words for the user; ``clause`` names the
    rule (or engine clause) it breaks; ``status`` is the HTTP status an API answers with."""

    def __init__(self, message: str, *, clause: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.clause = clause
        self.status = status


@dataclass(frozen=True)
class SideControl:
    """Who decides for one side: a player (with the user), the umpire, or the AI."""

    controller: str
    user: User | None = None


# --- creating --------------------------------------------------------------------------------------------


def _require_umpire(*, campaign: Campaign, user: User) -> None:
    if not Membership.objects.filter(campaign=campaign, user=user, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire may do this.")


def shipped_scenarios(ruleset_key: str = DEFAULT_RULESET) -> dict[str, Mapping[str, JSON]]:
    """The ruleset's own scenarios (``example_scenarios``) by slug: a scenario's own ``slug``, else its place in
    the ruleset's list (``scenario-1``...), so a ruleset whose scenarios name no slug is offered all the same. An
    unknown ruleset has none."""
    try:
        rs = engine_io.ruleset_for(ruleset_key)
    except KeyError:
        return {}
    found: dict[str, Mapping[str, JSON]] = {}
    for number, scenario in enumerate(rs.example_scenarios(), start=1):
        slug = scenario.get("slug") if isinstance(scenario, Mapping) else None
        found.setdefault(str(slug) if slug else f"scenario-{number}", scenario)
    return found


def scenario_title(slug: str, scenario: Mapping[str, JSON]) -> str:
    """A scenario's name for lists: its own title, else its slug in words."""
    return str(scenario.get("title") or slug.replace("-", " ").capitalize())


def scenario_sides(ruleset_key: str, scenario: Mapping[str, JSON]) -> list[tuple[str, str]]:
    """The sides a scenario gives under its ruleset, as (key, name) in the ruleset's order: read from the battle
    it would start (setup and roster: no dice), so every ruleset's scenario format is read by its own rules. A
    scenario that cannot be set up gives none (starting it says why)."""
    try:
        rs = engine_io.ruleset_for(ruleset_key)
        initial = resolver.new_battle(rs, scenario, seed_commitment="")
    except (KeyError, OptionError, EngineError, ValueError, TypeError, AssertionError):
        return []
    return [(side, rs.side_name(initial, side)) for side in initial.sides]


@transaction.atomic
def battle_create(
    *,
    campaign: Campaign,
    created_by: User,
    scenario_slug: str = "",
    scenario: Mapping[str, JSON] | None = None,
    title: str = "",
    ruleset_key: str = DEFAULT_RULESET,
    options: Mapping[str, JSON] | None = None,
    mode: str = BattleMode.ASYNC,
    sides: Mapping[str, SideControl] | None = None,
    decision_hours: int = 48,
    deadline_default: str = DeadlineDefault.AI,
    private: bool = False,
    turn_minutes: int | None = None,
    hand_over_at: datetime | None = None,
    live_minutes: int = 5,
) -> Battle:
    """Start a battle from a shipped scenario (``scenario_slug``) or a scenario document. Only the
    campaign's umpire may. Sides not named in ``sides`` are run by the AI (in table mode, by the umpire).
    ``private``: only the players of its sides and the umpire may know of it (an encounter at sea).
    ``turn_minutes``/``hand_over_at``: a battle on a clock (an encounter's window, _deadline): every decision of
    a turn shares one deadline, and at ``hand_over_at`` the AI captains are to fight it out for every side.
    Set-up dice are rolled by the first resolution, queued after commit like every other."""
    _require_umpire(campaign=campaign, user=created_by)
    try:
        rs = engine_io.ruleset_for(ruleset_key)
    except KeyError as error:
        raise BattleRefused(f"There is no ruleset {ruleset_key!r}.") from error
    data = _scenario_data(ruleset_key, scenario_slug, scenario)
    if mode not in BattleMode.values:
        raise BattleRefused(f"Unknown mode {mode!r}: one of {', '.join(BattleMode.values)}.")
    if deadline_default not in DeadlineDefault.values:
        raise BattleRefused(f"Unknown deadline default {deadline_default!r}.")
    if not 1 <= decision_hours <= 24 * 14:
        raise BattleRefused("Decision hours must be between 1 and 336 (two weeks).")
    if turn_minutes is not None and turn_minutes < 1:
        raise BattleRefused("A turn's minutes must be at least 1.")
    _check_live_minutes(live_minutes)
    if mode != BattleMode.TABLE:  # played on the web: the ruleset's proposals where nobody chose (standing orders)
        options = {**rs.play_defaults, **(options or {})}
    seed = dice.new_seed()
    try:
        initial = resolver.new_battle(rs, data, seed_commitment=dice.commitment(seed), options=options)
    except (OptionError, EngineError, ValueError, KeyError, TypeError) as error:
        raise BattleRefused(f"This scenario cannot be played: {error}") from error
    text = engine_io.state_text(rs, initial)
    battle = Battle.objects.create(
        campaign=campaign,
        title=title.strip() or str(data.get("title") or scenario_slug or "Battle"),
        scenario_slug=scenario_slug,
        scenario=plain(dict(data)),
        ruleset_key=rs.key,
        ruleset_version=rs.version,
        options=dict(initial.options),
        mode=mode,
        status=BattleStatus.RESOLVING,
        seed=seed.hex(),
        seed_commitment=initial.seed_commitment,
        initial_state=text,
        state=text,
        decision_hours=decision_hours,
        deadline_default=deadline_default,
        created_by=created_by,
        private=private,
        turn_minutes=turn_minutes,
        hand_over_at=hand_over_at,
        live_minutes=live_minutes,
    )
    _create_sides(battle, rs, initial, sides or {})
    _queue_resolution(battle)
    return battle


def _scenario_data(ruleset_key: str, slug: str, scenario: Mapping[str, JSON] | None) -> Mapping[str, JSON]:
    if bool(slug) == (scenario is not None):
        raise BattleRefused("Give either a shipped scenario or a scenario document, not both or neither.")
    if scenario is not None:
        if not isinstance(scenario, Mapping):
            raise BattleRefused("A scenario is a JSON object.")
        return scenario
    shipped = shipped_scenarios(ruleset_key)
    if slug not in shipped:
        raise BattleRefused(f"No scenario {slug!r}; the scenarios are {', '.join(sorted(shipped))}.")
    return shipped[slug]


def _create_sides(
    battle: Battle, rs: Ruleset[Any], initial: BattleState[Any], chosen: Mapping[str, SideControl]
) -> None:
    roster = {str(entry["side"]): entry for entry in rs.roster(initial)}
    unknown = sorted(set(chosen) - set(initial.sides))
    if unknown:
        raise BattleRefused(f"This battle has no side {', '.join(unknown)}; its sides are {', '.join(initial.sides)}.")
    members = set(Membership.objects.filter(campaign=battle.campaign).values_list("user_id", flat=True))
    fallback = Controller.UMPIRE if battle.mode == BattleMode.TABLE else Controller.AI
    for order, key in enumerate(initial.sides):
        control = chosen.get(key, SideControl(fallback))
        if control.controller not in Controller.values:
            raise BattleRefused(f"Unknown controller {control.controller!r} for {key}.")
        if control.controller == Controller.PLAYER and (control.user is None or control.user.pk not in members):
            raise BattleRefused(f"The player of {key} must be a member of the campaign.")
        if battle.mode == BattleMode.AUTO and control.controller != Controller.AI:
            raise BattleRefused("In an auto-resolved battle the AI decides for every side.")
        entry = roster.get(key, {})
        side = BattleSide.objects.create(
            battle=battle,
            key=key,
            name=str(entry.get("name") or key),
            order=order,
            controller=control.controller,
            user=control.user if control.controller == Controller.PLAYER else None,
        )
        _sync_ships(battle, side, entry)


def _sync_ships(battle: Battle, side: BattleSide, entry: Mapping[str, JSON]) -> None:
    ships = entry.get("ships")
    known = set(BattleShip.objects.filter(battle=battle).values_list("name", flat=True))
    new = [
        BattleShip(battle=battle, side=side, name=str(ship["name"]), class_name=str(ship.get("class") or ""))
        for ship in (ships if isinstance(ships, list) else [])
        if isinstance(ship, dict) and str(ship["name"]) not in known
    ]
    BattleShip.objects.bulk_create(new)


def _check_live_minutes(minutes: int) -> None:
    if minutes not in LIVE_WINDOWS:
        raise BattleRefused(f"A live window is one of {', '.join(str(m) for m in LIVE_WINDOWS)} minutes.")


def _queue_resolution(battle: Battle) -> None:
    task_queue.after_commit("battles.resolve_battle", battle.pk)  # by name: battles.tasks imports this module


# --- deciding --------------------------------------------------------------------------------------------


def _locked(battle_id: int) -> Battle:
    return Battle.objects.select_for_update().get(pk=battle_id)


def may_decide_for(battle: Battle, side: BattleSide, user: User) -> bool:
    """A player decides for his own side; the umpire for the umpire's sides, and for every side at the
    table (table mode); nobody decides for the AI (BattleSide.decided_by)."""
    if side.controller == Controller.PLAYER and side.user_id == user.pk:
        return True
    return side.decided_by(user.pk, umpire=_is_umpire(battle, user), mode=battle.mode)


def may_answer(battle: Battle, request: DecisionRequest, user: User, *, side: BattleSide | None = None) -> bool:
    """May the user answer this open decision? The umpire's own (DecisionRequest.umpire: the go-ahead before a
    card) only the battle's umpire, in every mode, whoever's side it is logged under; any other, whoever decides
    for its side (may_decide_for). ``side``: the request's side, when the caller has it."""
    if request.umpire:
        return _is_umpire(battle, user)
    side = side if side is not None else battle.sides.filter(key=request.side).first()
    return side is not None and may_decide_for(battle, side, user)


def is_umpire(battle: Battle, user: User) -> bool:
    """Is the user the umpire of the battle's campaign?"""
    return _is_umpire(battle, user)


def _is_umpire(battle: Battle, user: User) -> bool:
    return Membership.objects.filter(campaign_id=battle.campaign_id, user=user, role=Role.UMPIRE).exists()


@dataclass(frozen=True)
class Submitted:
    """A stored answer, and whether this submission was the same idempotency key again (the first answer
    given back: it counts once)."""

    decision: Decision
    replayed: bool = False


def battle_submit_decision(
    *, battle_id: int, user: User, request_id: str, choice: Any, idempotency_key: str = ""
) -> Decision:
    """Answer one open decision (battle_submit); the stored decision."""
    return battle_submit(
        battle_id=battle_id, user=user, request_id=request_id, choice=choice, idempotency_key=idempotency_key
    ).decision


@transaction.atomic
def battle_submit(*, battle_id: int, user: User, request_id: str, choice: Any, idempotency_key: str = "") -> Submitted:
    """Answer one open decision. The engine judges it at once (an illegal answer is refused with the rule's
    reason and changes nothing); a legal one is stored, and once every decision a person owes is in, the
    battle resolves. The same idempotency key twice gives back the first decision: it counts once. A key
    already spent on another decision is refused rather than silently answering the wrong one."""
    battle = _locked(battle_id)
    idempotency_key = idempotency_key.strip()[:80]
    if idempotency_key:
        earlier = Decision.objects.filter(battle=battle, submitted_by=user, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.refused or earlier.superseded_by_id is not None:
                why = f"refused when it came to be applied ({earlier.refused})" if earlier.refused else "set aside"
                raise BattleRefused(
                    f"The answer sent with this idempotency key was {why}; answer again from a fresh form.",
                    status=409,
                )
            if earlier.request_id != request_id:
                raise BattleRefused(
                    f"Idempotency key {idempotency_key!r} was already used for decision {earlier.request_id}.",
                    status=409,
                )
            return Submitted(earlier, replayed=True)
    if battle.is_finished:
        raise BattleRefused("The battle is over.", clause=BATTLE_OVER, status=409)
    state = engine_io.current_state(battle)
    request = state.request(request_id)
    if request is None or request_id in state.answers:
        raise BattleRefused(f"There is no open decision {request_id!r}.", clause=NO_SUCH_DECISION, status=409)
    side = BattleSide.objects.get(battle=battle, key=request.side)
    if not may_answer(battle, request, user, side=side):
        # The page and the API show every side the open decisions and whose they are: this tells nothing new.
        raise PermissionDenied(
            "This decision is the umpire's to make." if request.umpire else "This decision is not yours to make."
        )
    if Decision.objects.live().filter(battle=battle, request_id=request_id).exists():
        raise BattleRefused(f"Decision {request_id} is already made.", clause=ALREADY_DECIDED, status=409)
    rejection = resolver.check_decision(
        engine_io.rules_of(battle), state, side=request.side, request_id=request_id, choice=choice
    )
    if rejection is not None:
        raise BattleRefused(rejection.reason, clause=rejection.clause)
    source = (
        DecisionSource.PLAYER
        if side.controller == Controller.PLAYER and side.user_id == user.pk and not request.umpire
        else DecisionSource.UMPIRE
    )
    decision = _store_decision(battle, side, request, state, plain(choice), source, user, idempotency_key)
    if _ready_to_resolve(battle, state):
        battle.status = BattleStatus.RESOLVING
        battle.save(update_fields=["status"])
        _queue_resolution(battle)
    return Submitted(decision)


def _store_decision(
    battle: Battle,
    side: BattleSide,
    request: DecisionRequest,
    state: BattleState[Any],
    choice: JSON,
    source: str,
    user: User | None,
    idempotency_key: str = "",
) -> Decision:
    return Decision.objects.create(
        battle=battle,
        side=side,
        request_id=request.id,
        kind=request.kind,
        turn=state.turn,
        phase=state.phase,
        choice=choice,
        source=source,
        submitted_by=user,
        idempotency_key=idempotency_key,
    )


def _ready_to_resolve(battle: Battle, state: BattleState[Any]) -> bool:
    """Every open decision of a side a person controls has its stored answer (the AI answers its own), and so has
    every decision of the umpire's own while a person plays (persons_play: else the AI gives it)."""
    people = set(battle.sides.exclude(controller=Controller.AI).filter(left="").values_list("key", flat=True))
    waiting = {r.id for r in state.pending() if (bool(people) if r.umpire else r.side in people)}
    answered = set(
        Decision.objects.live().filter(battle=battle, request_id__in=waiting).values_list("request_id", flat=True)
    )
    return waiting <= answered


# --- resolving -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    events: int
    status: str


@transaction.atomic
def battle_resolve(*, battle_id: int) -> Resolution:
    """Fold every stored answer into the log, let the AI answer for its sides, and carry the battle on until a
    person must decide or it ends. Safe to run twice: a second run finds nothing to do."""
    battle = _locked(battle_id)
    if battle.is_finished:
        return Resolution(0, battle.status)
    rs = engine_io.rules_of(battle)
    seed = engine_io.seed_bytes(battle)
    state = engine_io.current_state(battle)
    sides = {side.key: side for side in battle.sides.all()}
    stored = {d.request_id: d for d in Decision.objects.live().filter(battle=battle, applied_seq__isnull=True)}
    new_events: list[Event] = []
    applied: list[Decision] = []
    first = resolver.resolve(rs, state, seed)
    state = first.state
    new_events.extend(first.events)
    while not state.over:
        step = _next_answer(battle, rs, state, seed, sides, stored)
        if step is None:
            break
        request, choice, decision = step
        outcome = resolver.submit(rs, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
        if isinstance(outcome, Rejection):
            if decision is None:
                raise EngineError(f"the AI's answer to {request.id} was refused: {outcome}")
            # A stored answer the engine now refuses (cannot happen while the state only changes here): kept
            # with the engine's reason, out of the live answers, so the side is asked again rather than the
            # battle wedging, and the umpire can see what was sent.
            decision.refused = f"{outcome.clause}: {outcome.reason}"[:500]
            decision.save(update_fields=["refused"])
            stored.pop(request.id, None)
            continue
        if decision is None:
            decision = _store_decision(battle, sides[request.side], request, state, choice, DecisionSource.AI, None)
        decision.applied_seq = state.seq
        applied.append(decision)
        stored.pop(request.id, None)
        state = outcome.state
        new_events.extend(outcome.events)
    _save_events(battle, new_events)
    for decision in applied:
        decision.save(update_fields=["applied_seq"])
    _save_state(battle, rs, state)
    return Resolution(len(new_events), battle.status)


def _next_answer(
    battle: Battle,
    rs: Ruleset[Any],
    state: BattleState[Any],
    seed: bytes,
    sides: Mapping[str, BattleSide],
    stored: Mapping[str, Decision],
) -> tuple[DecisionRequest, JSON, Decision | None] | None:
    """The next open decision that has an answer: a stored one, or the AI's for an AI side (and for the umpire's
    own where no person plays: persons_play)."""
    for request in state.pending():
        side = sides[request.side]
        if request.umpire:  # the umpire's, whatever became of the side it is logged under
            decision = stored.get(request.id)
            if decision is not None:
                return request, decision.choice, decision
            if not persons_play(sides.values()):
                return request, ai_choice(rs, state, request, seed), None
            continue
        if side.left:
            return request, leaving_choice(rs, state, request, seed, side.left), None
        decision = stored.get(request.id)
        if decision is not None:
            return request, decision.choice, decision
        if side.controller == Controller.AI:
            return request, ai_choice(rs, state, request, seed), None
    return None


def ai_choice(rs: Ruleset[Any], state: BattleState[Any], request: DecisionRequest, seed: bytes) -> JSON:
    """The ruleset's AI captain's answer for the request's side (its dice derive from the battle's seed)."""
    return simulate.ai_answer(rs, state, request, seed)


def leaving_choice(rs: Ruleset[Any], state: BattleState[Any], request: DecisionRequest, seed: bytes, how: str) -> JSON:
    """The answer of a side that surrendered or withdraws (the ruleset's leaving policy)."""
    policy = rs.leaving_policy(seed + b"|" + request.side.encode(), request.side, how)
    choice: JSON = policy.choose(rs, redact(state, request.side), request)
    return choice


def _save_events(battle: Battle, new_events: Sequence[Event]) -> None:
    BattleEvent.objects.bulk_create(
        [
            BattleEvent(
                battle=battle,
                seq=event.seq,
                turn=event.turn,
                phase=event.phase,
                kind=event.kind,
                visibility=event.visibility,
                data=engine_io.event_row_data(event),
            )
            for event in new_events
        ],
        batch_size=500,
    )


def _save_state(battle: Battle, rs: Ruleset[Any], state: BattleState[Any]) -> None:
    turn_before = battle.turn
    # The window the sides were answering is still open if any of its decisions still is (a side answered part).
    open_before = {r.id for r in pending_from_json(battle.state)} if battle.state_seq else set()
    same_window = bool(open_before & {r.id for r in state.requests})
    battle.state = engine_io.state_text(rs, state)
    battle.state_seq = state.seq
    battle.turn = state.turn
    battle.phase = state.phase
    for entry in rs.roster(state):  # reinforcements join during the battle
        side = battle.sides.filter(key=str(entry["side"])).first()
        if side is not None:
            _sync_ships(battle, side, entry)
    if state.over:
        battle.status = BattleStatus.FINISHED
        battle.winner = state.winner or ""
        battle.result_reason = state.result[:200]
        battle.finished_at = timezone.now()
        battle.deadline = None
        _store_result(battle, rs, state)
    else:
        battle.status = BattleStatus.RESOLVING if _ready_to_resolve(battle, state) else BattleStatus.WAITING
        battle.deadline = _deadline(battle, state, same_turn=turn_before == state.turn, same_window=same_window)
    battle.save()
    announcements.announce(battle, state)


def _deadline(battle: Battle, state: BattleState[Any], *, same_turn: bool, same_window: bool) -> Any:
    """When the open decisions fall to the deadline default (None: never).

    A battle on a clock (``turn_minutes`` set, an encounter's window): every decision of one turn shares the
    deadline set when the turn began, ``turn_minutes`` later, never later than ``hand_over_at``. A later batch of
    the same turn (fire after movement) keeps it, even once passed: a side that let the turn's deadline go plays
    the rest of that turn by its default (battle_apply_deadline keeps the deadline for this). A new turn gets a
    new one. Otherwise each submission window (the decisions open together, answered with one "Send orders")
    has ``live_minutes`` (live) or ``decision_hours`` (web play) from when it opened, however many decisions it
    holds."""
    if battle.mode not in (BattleMode.ASYNC, BattleMode.LIVE) or not state.pending():
        return None
    if battle.turn_minutes:
        if same_turn and battle.deadline is not None and battle.state_seq:
            return battle.deadline
        deadline = timezone.now() + timedelta(minutes=battle.turn_minutes)
        return deadline if battle.hand_over_at is None else min(deadline, battle.hand_over_at)
    if same_window and battle.deadline is not None:
        return battle.deadline  # a side answered part of the window: its deadline stands
    if battle.mode == BattleMode.LIVE:
        return timezone.now() + timedelta(minutes=battle.live_minutes)
    return timezone.now() + timedelta(hours=battle.decision_hours)


def _store_result(battle: Battle, rs: Ruleset[Any], state: BattleState[Any]) -> None:
    data = battle_result_data(rs, engine_io.initial_state(battle), state)
    BattleResult.objects.update_or_create(battle=battle, defaults={"data": data})
    # The campaign (strategic_map) carries the result back; the battles app does not know it is listening.
    signals.battle_finished.send(sender=Battle, battle_id=battle.pk)


def battle_result_data(rs: Ruleset[Any], initial: BattleState[Any], final: BattleState[Any]) -> JSON:
    """The ruleset's result, and beside it the typed outcome the campaign reads (battles.engine.outcome)."""
    data = dict(rs.battle_result(initial, final))
    data[BattleResult.OUTCOME_KEY] = rs.outcome(initial, final).to_json()
    return plain(data)


# --- deadlines -------------------------------------------------------------------------------------------


@transaction.atomic
def battle_apply_deadline(*, battle_id: int, now: Any = None) -> int:
    """A side missed its deadline: answer its open decisions with the battle's default (the AI captain's
    choice, or hold course and fire at will) and resolve. Returns how many answers were given. The umpire's own
    decisions fall to it too (the go-ahead: the card is turned), so an umpire away from the battle stalls it for
    no longer than a player would."""
    battle = _locked(battle_id)
    now = now or timezone.now()
    if battle.is_finished or battle.deadline is None or battle.deadline > now:
        return 0
    rs = engine_io.rules_of(battle)
    seed = engine_io.seed_bytes(battle)
    state = engine_io.current_state(battle)
    answered = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    sides = {side.key: side for side in battle.sides.all()}
    given = 0
    people = persons_play(sides.values())
    for request in state.pending():
        side = sides[request.side]
        if request.id in answered or not (people if request.umpire else _decided_by_a_person(side)):
            continue  # the AI answers it when the battle resolves
        choice = deadline_choice(battle, rs, state, request, seed)
        _store_decision(battle, sides[request.side], request, state, choice, DecisionSource.DEADLINE, None)
        given += 1
    battle.status = BattleStatus.RESOLVING
    if not battle.turn_minutes:
        # On a clock the turn's deadline stands for the rest of the turn (_deadline); otherwise it is spent.
        battle.deadline = None
    battle.save(update_fields=["status", "deadline"])
    _queue_resolution(battle)
    return given


def _decided_by_a_person(side: BattleSide) -> bool:
    return side.controller != Controller.AI and not side.left


def deadline_choice(
    battle: Battle, rs: Ruleset[Any], state: BattleState[Any], request: DecisionRequest, seed: bytes
) -> JSON:
    """Hold course (the ruleset's deadline default: SG fires at will), or the AI for all."""
    if battle.deadline_default == DeadlineDefault.HOLD:
        return rs.deadline_default(state, request, seed)
    return ai_choice(rs, state, request, seed)


def battles_past_deadline(*, now: Any = None) -> list[int]:
    now = now or timezone.now()
    return list(Battle.objects.filter(status=BattleStatus.WAITING, deadline__lte=now).values_list("pk", flat=True))


@transaction.atomic
def battle_set_pace(*, battle_id: int, user: User, live: bool, live_minutes: int) -> Battle:
    """The umpire (or whoever started the battle) switches a web battle between live play (minutes per decision,
    both players online) and web play with deadlines in hours. The open decisions get a fresh deadline at the new
    pace, from now: a window cut short by the switch would fall to the default before anyone could answer."""
    battle = _locked(battle_id)
    if battle.created_by_id != user.pk and not _is_umpire(battle, user):
        raise PermissionDenied("Only the umpire sets a battle's pace.")
    if battle.is_finished:
        raise BattleRefused("The battle is over.", clause=BATTLE_OVER, status=409)
    if battle.mode not in (BattleMode.ASYNC, BattleMode.LIVE):
        raise BattleRefused(f"A battle in {battle.get_mode_display().lower()} has no deadlines to set.", status=409)
    _check_live_minutes(live_minutes)
    battle.mode = BattleMode.LIVE if live else BattleMode.ASYNC
    battle.live_minutes = live_minutes
    if battle.deadline is not None and not battle.turn_minutes:
        battle.deadline = timezone.now() + (
            timedelta(minutes=live_minutes) if live else timedelta(hours=battle.decision_hours)
        )
    battle.save(update_fields=["mode", "live_minutes", "deadline"])
    return battle


def past_deadline_at(status: str, deadline: datetime | None, *, now: datetime | None = None) -> bool:
    """Whether a battle in this status waits on a deadline that has passed (battle_apply_deadline would act)."""
    return status == BattleStatus.WAITING and deadline is not None and deadline <= (now or timezone.now())


# --- the umpire's corrections ------------------------------------------------------------------------------


@transaction.atomic
def battle_correct_decision(*, battle_id: int, user: User, request_id: str, choice: Any, reason: str) -> Correction:
    """Correct a wrong entry: rewind the battle to just before the decision was folded and go on with the
    corrected answer. The events and decisions after it are set aside (kept, pointing at the correction), and
    the decisions they asked for are asked again. The dice do not change: the same seed and counters give the
    same faces, so a correction that changes nothing would be a re-roll and is refused."""
    battle = _locked(battle_id)
    if not _is_umpire(battle, user):
        raise PermissionDenied("Only the campaign's umpire may correct a battle.")
    reason = reason.strip()
    if not reason:
        raise BattleRefused("A correction needs a reason.")
    if battle.is_finished:
        raise BattleRefused("The battle is over; its log is final.", status=409)
    decision = Decision.objects.live().filter(battle=battle, request_id=request_id).first()
    if decision is None or decision.applied_seq is None:
        raise BattleRefused(f"Decision {request_id} has not been folded into the log; nothing to correct.", status=409)
    if canonical(plain(choice)) == canonical(decision.choice):
        raise BattleRefused("The corrected answer is the same as the old one: that would only be a re-roll.")
    rs = engine_io.rules_of(battle)
    rewound = _fold_until(battle, rs, decision.applied_seq)
    request = rewound.request(request_id)
    assert request is not None
    rejection = resolver.check_decision(rs, rewound, side=request.side, request_id=request_id, choice=choice)
    if rejection is not None:
        raise BattleRefused(rejection.reason, clause=rejection.clause)
    correction = Correction.objects.create(
        battle=battle,
        made_by=user,
        reason=reason,
        request_id=request_id,
        old_choice=decision.choice,
        new_choice=plain(choice),
        rewound_to_seq=decision.applied_seq,
    )
    BattleEvent.objects.filter(battle=battle, seq__gte=decision.applied_seq, superseded_by__isnull=True).update(
        superseded_by=correction
    )
    later = Decision.objects.live().filter(battle=battle, applied_seq__gte=decision.applied_seq)
    unapplied = Decision.objects.live().filter(battle=battle, applied_seq__isnull=True)
    (later | unapplied).update(superseded_by=correction)
    side = BattleSide.objects.get(battle=battle, key=request.side)
    _store_decision(battle, side, request, rewound, plain(choice), DecisionSource.UMPIRE, user)
    battle.state = engine_io.state_text(rs, rewound)
    battle.state_seq = rewound.seq
    battle.turn = rewound.turn
    battle.phase = rewound.phase
    battle.status = BattleStatus.RESOLVING
    battle.save(update_fields=["state", "state_seq", "turn", "phase", "status"])
    _queue_resolution(battle)
    return correction


def _fold_until(battle: Battle, rs: Ruleset[Any], seq: int) -> BattleState[Any]:
    """The state after the live events before ``seq``."""
    rows = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True, seq__lt=seq).order_by("seq")
    return resolver.replay(rs, engine_io.initial_state(battle), (engine_io.event_from_row(r.data) for r in rows))


# --- leaving the battle ----------------------------------------------------------------------------------


LEAVING = ("concede", "surrender", "withdraw")


@transaction.atomic
def battle_hand_to_ai(*, battle_id: int, user: User, side_key: str) -> BattleSide:
    """The side's player lets the AI captain fight the rest of the battle for him (auto-resolve from here on).
    He keeps the side's view; only who decides changes. The side's next decisions are resolved at once."""
    battle = _locked(battle_id)
    if battle.is_finished:
        raise BattleRefused("The battle is over.", status=409)
    side = BattleSide.objects.filter(battle=battle, key=side_key).first()
    if side is None:
        raise BattleRefused(f"No side {side_key!r} in this battle.", status=404)
    if not may_decide_for(battle, side, user):
        raise PermissionDenied("This side is not yours.")
    side.controller = Controller.AI
    side.save(update_fields=["controller"])
    battle.status = BattleStatus.RESOLVING
    battle.save(update_fields=["status"])
    _queue_resolution(battle)
    return side


@transaction.atomic
def battle_hand_over_to_ai(*, battle_id: int, reason: str) -> Resolution:
    """The battle's time is up (an encounter's window has closed): the AI captains fight the rest of it for every
    side, now, to its end, in this transaction (no queued task: the caller goes on with the result). Like a player's
    hand-over, each side keeps its player and its view; only who decides changes. ``reason`` is logged with the
    sides handed over. Stored answers not yet folded are played first. Safe to run twice: a finished battle is
    left as it is."""
    battle = _locked(battle_id)
    if battle.is_finished:
        return Resolution(0, battle.status)
    handed = list(battle.sides.exclude(controller=Controller.AI).filter(left="").order_by("order"))
    for side in handed:
        side.controller = Controller.AI
        side.save(update_fields=["controller"])
    logger.info(
        "battle %s handed to the AI captains (%s): %s",
        battle.pk,
        ", ".join(side.key for side in handed) or "every side was the AI's already",
        reason,
    )
    battle.status = BattleStatus.RESOLVING
    battle.deadline = None
    battle.save(update_fields=["status", "deadline"])
    resolution = battle_resolve(battle_id=battle.pk)
    if resolution.status != BattleStatus.FINISHED:
        raise EngineError(f"battle {battle.pk} did not end with the AI deciding for every side")
    return resolution


@transaction.atomic
def battle_leave(*, battle_id: int, user: User, side_key: str, how: str) -> BattleSide:
    """A side concedes, surrenders or withdraws. The engine carries it out through its own decisions where
    the rules have them (struck colours, leaving by the map edge); here the side's control passes to the AI
    with that standing order, so the battle plays on to its end under the rules."""
    if how not in LEAVING:
        raise BattleRefused(f"Leave the battle how? One of {', '.join(LEAVING)}.")
    battle = _locked(battle_id)
    if battle.is_finished:
        raise BattleRefused("The battle is over.", status=409)
    side = BattleSide.objects.filter(battle=battle, key=side_key).first()
    if side is None:
        raise BattleRefused(f"No side {side_key!r} in this battle.", status=404)
    if not may_decide_for(battle, side, user):
        raise PermissionDenied("This side is not yours.")
    if side.left:
        raise BattleRefused(f"{side.name} has already left the battle ({side.left}).", status=409)
    side.left = how
    side.save(update_fields=["left"])
    rs = engine_io.rules_of(battle)
    if how == "concede":
        state = engine_io.current_state(battle)
        conceded = resolver.concede(rs, state, side=side.key, seed=engine_io.seed_bytes(battle))
        _save_events(battle, conceded.events)
        _save_state(battle, rs, conceded.state)
        return side
    battle.status = BattleStatus.RESOLVING
    battle.save(update_fields=["status"])
    _queue_resolution(battle)
    return side
