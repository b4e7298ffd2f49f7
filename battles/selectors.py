"""Reads for battles, always for a requesting user.

A battle outside the user's campaigns is indistinguishable from one that does not exist (Http404), and so is a
private battle (a campaign encounter at sea) to a member who neither plays one of its sides nor umpires. Inside,
a player sees the battle as his side may see it (the ruleset's ``board_view`` and ``event_view``); the
umpire sees everything but the dice seed, which nobody sees before the battle ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import Http404

from accounts.models import User
from battles import announcements, decision_forms, engine_io, narration, services
from battles.engine import answers, dice, resolver
from battles.engine.answers import AnswerSchema, Posted
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, PUBLIC, JSONObject, canonical, side_only
from battles.engine.presentation import pieces_of
from battles.engine.state import pending_from_json, redact
from battles.models import (
    Battle,
    BattleEvent,
    BattleMode,
    BattleResult,
    BattleSide,
    Controller,
    Decision,
    persons_play,
)
from campaign.models import Membership, Role


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a battle: the umpire (``side`` None, sees all), a side's player, or a campaign
    member with no side (sees what is public: the map and the public log)."""

    battle: Battle
    user: User
    is_umpire: bool
    sides: tuple[BattleSide, ...]  # the sides this user decides for
    side: str | None  # the side whose view this is; None for the umpire

    @property
    def sees_all(self) -> bool:
        return self.is_umpire and self.side is None


# The view of a member with no side: what every side may see. Not a side key any scenario can have (scenario
# ids are slugs), and plain text a database column can hold.
PUBLIC_ONLY = ":public"


def _umpires(user: User) -> Exists:
    """Is the user the umpire of the battle's campaign (a subquery of the battle row)?"""
    return Exists(Membership.objects.filter(campaign=OuterRef("campaign"), user=user, role=Role.UMPIRE))


def _plays_a_side(user: User) -> Exists:
    """Is the user the player of one of the battle's sides (a subquery of the battle row)?"""
    return Exists(BattleSide.objects.filter(battle=OuterRef("pk"), user=user))


def visible_battles(*, user: User) -> QuerySet[Battle]:
    """The battles the user may know of: those of his campaigns, except a private one (an encounter at sea, which
    would place a captain's ship: DESIGN.md section 5) that he neither plays a side of nor umpires. Any other
    battle, however it is asked for, answers 404: one filter, in the battle's own query."""
    return Battle.objects.filter(campaign__memberships__user=user).filter(
        Q(private=False) | _plays_a_side(user) | _umpires(user)
    )


def battles_for_user(*, user: User) -> QuerySet[Battle]:
    """The battles the user may know of (visible_battles), newest first, with their campaign, the user's role in
    it and the sides with their players (one query, and one for all the sides). The seed, scenario and states are
    not loaded: a list needs none of them (battle_summaries and battle_rows read those of the battles in play)."""
    return (
        visible_battles(user=user)
        .select_related("campaign")
        .defer("seed", "scenario", "initial_state", "state")
        .prefetch_related(Prefetch("sides", queryset=BattleSide.objects.select_related("user").order_by("order")))
        .annotate(
            umpired=_umpires(user),
            mine=_plays_a_side(user),
            role=Subquery(Membership.objects.filter(campaign=OuterRef("campaign"), user=user).values("role")[:1]),
        )
        .distinct()
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class BattleSummary:
    """One line of the user's list of battles."""

    battle: Battle
    role: str  # the user's role in the battle's campaign
    my_sides: tuple[BattleSide, ...]  # the sides the user decides for
    waiting_for_me: bool  # an open decision of one of my sides has no answer yet


def battle_summaries(*, user: User, battles: Sequence[Battle]) -> list[BattleSummary]:
    """Summaries of battles from ``battles_for_user``: two queries however many battles (the open decisions
    of those in play, read from their state without building a board, and the answers already stored)."""
    in_play = [b.pk for b in battles if not b.is_finished]
    states = dict(Battle.objects.filter(pk__in=in_play).values_list("pk", "state")) if in_play else {}
    answered = set(
        Decision.objects.live()
        .filter(battle__in=in_play, applied_seq__isnull=True)
        .values_list("battle_id", "request_id")
        if in_play
        else ()
    )
    summaries = []
    for battle in battles:
        umpire = bool(getattr(battle, "umpired", False))
        mine = tuple(s for s in battle.sides.all() if s.decided_by(user.pk, umpire=umpire, mode=battle.mode))
        keys = {s.key for s in mine if not s.left}
        umpire_awaited = umpire and persons_play(battle.sides.all())  # his own decisions (the go-ahead) wait for him
        waiting = battle.pk in states and any(
            (umpire_awaited if r.umpire else r.side in keys) and (battle.pk, r.id) not in answered
            for r in pending_from_json(states[battle.pk])
        )
        summaries.append(BattleSummary(battle, str(getattr(battle, "role", "")), mine, waiting))
    return summaries


def battle_for_user(*, user: User, battle_id: int) -> Battle:
    """The battle, if the user may know of it (visible_battles); Http404 otherwise, as for no battle at all."""
    battle = visible_battles(user=user).filter(pk=battle_id).select_related("campaign").first()
    if battle is None:
        raise Http404("No such battle.")
    return battle


def viewer_for(*, battle: Battle, user: User, side: str | None = None) -> Viewer:
    """The user's view of a battle from ``battle_for_user``. A player sees his own side (or, with several, the one
    asked for); the umpire sees all, or one side's view when he asks for it; anyone else in the campaign sees the
    public view (of a battle that is not private: battle_for_user has turned him away from a private one)."""
    is_umpire = Membership.objects.filter(campaign_id=battle.campaign_id, user=user, role=Role.UMPIRE).exists()
    all_sides = list(battle.sides.all())
    mine = tuple(s for s in all_sides if s.decided_by(user.pk, umpire=is_umpire, mode=battle.mode))
    if is_umpire:
        if side is not None and side not in {s.key for s in all_sides}:
            raise Http404("No such side.")
        return Viewer(battle, user, True, mine, side)
    players = tuple(s for s in all_sides if s.user_id == user.pk)
    if battle.private and not players:
        raise Http404("No such battle.")  # as battle_for_user says, should a caller have found it another way
    if side is None:
        side = players[0].key if players else PUBLIC_ONLY
    elif side not in {s.key for s in players}:
        raise Http404("No such side.")
    return Viewer(battle, user, False, players, side)


def battle_view(viewer: Viewer) -> JSONObject:
    """The battle's state as the viewer may see it: the envelope, the board as his side sees it, the roster,
    and the decisions open (with their legal options only for the sides he decides for)."""
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    state = engine_io.current_state(battle)
    side = None if viewer.sees_all else viewer.side
    seen = redact(state, side) if side is not None and side != PUBLIC_ONLY else state
    mine = {s.key for s in viewer.sides}
    pending: list[JSON] = list(_pending(viewer, rs, seen))
    return {
        "id": battle.pk,
        "title": battle.title,
        "campaign": battle.campaign.slug,
        "ruleset": {"key": battle.ruleset_key, "version": battle.ruleset_version, "options": battle.options},
        "mode": battle.mode,
        "status": battle.status,
        "turn": state.turn,
        "phase": state.phase,
        "seq": state.seq if viewer.sees_all else served_count(viewer),
        "deadline": battle.deadline.isoformat() if battle.deadline else None,
        "turn_minutes": battle.turn_minutes,
        "live_minutes": battle.live_minutes if battle.mode == BattleMode.LIVE else None,
        "hand_over_at": battle.hand_over_at.isoformat() if battle.hand_over_at else None,
        "hand_over_day": announcements.hand_over_day(battle),
        "hand_over": announcements.hand_over_text(battle),
        "over": state.over,
        "winner": state.winner,
        "result": state.result,
        "seed_commitment": battle.seed_commitment,
        "seed": battle.seed if battle.is_finished else None,
        "viewing_as": "umpire" if viewer.sees_all else (None if side == PUBLIC_ONLY else side),
        "my_sides": list[JSON](sorted(mine)),
        "sides": [
            {
                "key": s.key,
                "name": s.name,
                "controller": s.controller,
                "player": s.user.public_name if s.user else None,
                "left": s.left,
            }
            for s in battle.sides.select_related("user")
        ],
        # A member with no side sees the board as a side that owns nothing would (PUBLIC_ONLY).
        "board": rs.board_view(state, None if viewer.sees_all else side),
        "pending": pending,
    }


def pending_decisions(viewer: Viewer) -> list[JSONObject]:
    """The open decisions the viewer answers (his sides', and the umpire's own for the umpire), each with its
    legal options or candidates and whether an answer is already in (waiting for the rest of its batch)."""
    state = engine_io.current_state(viewer.battle)
    side = None if viewer.sees_all else viewer.side
    seen = redact(state, side) if side is not None and side != PUBLIC_ONLY else state
    return [entry for entry in _pending(viewer, engine_io.rules_of(viewer.battle), seen) if entry["yours"]]


def answered_by(viewer: Viewer, request: DecisionRequest) -> bool:
    """Does the viewer answer this open decision? The umpire's own (DecisionRequest.umpire) the umpire alone, a
    side's whoever decides for the side (services.may_answer, from what the viewer already holds)."""
    if request.umpire:
        return viewer.is_umpire
    return request.side in {s.key for s in viewer.sides}


def _pending(viewer: Viewer, rs: Any, seen: Any) -> Iterable[JSONObject]:
    """Every open decision: the viewer's own (and all of them for the umpire) in full, with the candidates
    for his own; another side's only by id, side, kind and whether it is the umpire's."""
    mine = {s.key for s in viewer.sides}
    answered = set(
        Decision.objects.live()
        .filter(battle=viewer.battle, request_id__in=[r.id for r in seen.requests])
        .values_list("request_id", flat=True)
    )
    names = {s.key: s.name for s in viewer.battle.sides.all()}
    for request in seen.pending():
        yours = answered_by(viewer, request)
        entry: JSONObject = {"id": request.id, "side": request.side, "kind": request.kind, "umpire": request.umpire}
        if yours or request.side in mine or viewer.sees_all:
            entry.update(request.to_json())
            entry["umpire"] = request.umpire  # to_json writes it only when set
            entry["candidates"] = _candidates(rs, seen, request) if yours else None
            entry["schema"] = _schema(rs, seen, request, names) if yours else None
        entry["submitted"] = request.id in answered
        entry["yours"] = yours
        yield entry


def judge_partial_answer(*, battle: Battle, user: User, request_id: str, posted: Posted, partial: JSON) -> JSONObject:
    """A partial answer to an open decision judged for live feedback (answers.judge_partial), on the state as the
    decision's side sees it; once complete, with the rules' verdict on it (resolver.check_decision). Only who may
    make the decision may ask: for anyone else, and for a decision not open, Http404 (nothing is told of it)."""
    state = engine_io.current_state(battle)
    request = state.request(request_id) if not battle.is_finished else None
    answered = Decision.objects.live().filter(battle=battle, request_id=request_id).exists()
    if request is None or request_id in state.answers or answered:
        raise Http404("No such open decision of yours.")
    if not services.may_answer(battle, request, user):
        raise Http404("No such open decision of yours.")
    rs = engine_io.rules_of(battle)
    names = {s.key: s.name for s in battle.sides.all()}
    schema: AnswerSchema = rs.answer_schema(redact(state, request.side), request, partial=partial, sides=names)
    judged = answers.judge_partial(schema, posted)
    refused = None
    if judged.complete:
        refused = resolver.check_decision(rs, state, side=request.side, request_id=request.id, choice=judged.answer)
    found = judged.to_json()
    found["refused"] = None if refused is None else {"clause": refused.clause, "reason": refused.reason}
    found["schema"] = schema.to_json()
    return found


def _schema(rs: Any, state: Any, request: Any, sides: dict[str, str]) -> JSON:
    """How an answer to the request is spelled (battles.engine.answers), on the state as its side sees it."""
    schema: AnswerSchema = rs.answer_schema(redact(state, request.side), request, sides=sides)
    return schema.to_json()


def _candidates(rs: Any, state: Any, request: Any) -> JSON:
    """The legal answers a form can offer: the listed options, else the ruleset's candidates (a sample of
    legal answers for an open-ended decision, always including the default)."""
    if request.options is not None:
        return list(request.options)
    return list(rs.candidates(state, request))


def event_log(viewer: Viewer, *, after: int = -1, limit: int = 2000) -> list[JSONObject]:
    """The live log after ``after``, each event as the viewer may see it; withheld events are left out."""
    return list(event_page(viewer, after=after, limit=limit).events)


@dataclass(frozen=True)
class EventPage:
    """Up to ``limit`` events of the live log after a seq, as the viewer may see them. ``last_seq`` is the
    last event read (seen or withheld: the next page starts after it); ``more`` says whether the log goes on."""

    events: tuple[JSONObject, ...]
    last_seq: int
    more: bool


def event_page(viewer: Viewer, *, after: int = -1, limit: int = 2000) -> EventPage:
    """A side is served its own log, numbered 0, 1, 2... in the ``seq`` of each event it sees: the engine's
    numbering runs over the whole log, and its gaps would tell the side how many events were kept from it. The
    umpire's log is the whole live log, numbered as logged."""
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    side = None if viewer.sees_all else viewer.side
    live = _served(battle, side).order_by("seq")
    start = after + 1
    rows = list(live.values_list("data", flat=True)[start : start + limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    seen: list[JSONObject] = []
    for n, data in enumerate(rows, start=start):
        view = rs.event_view(engine_io.event_from_row(data), side)
        if view is not None:
            seen.append({**view, "seq": n})
    return EventPage(tuple(seen), start + len(rows) - 1, more)


def _served(battle: Battle, side: str | None) -> QuerySet[BattleEvent]:
    """The live events a side may see at all (the umpire: every one). What a ruleset only trims is still served."""
    live = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True)
    if side is None:
        return live
    if side == PUBLIC_ONLY:
        return live.filter(visibility=PUBLIC)
    return live.filter(visibility__in=[PUBLIC, side_only(side)])


def served_count(viewer: Viewer) -> int:
    """How many events the viewer's log holds: the battle's position as his side may know it."""
    return _served(viewer.battle, None if viewer.sees_all else viewer.side).count()


def battle_verify(*, battle: Battle) -> list[str]:
    """Problems found re-running the finished battle from its published seed over its logged decisions: every
    die and every consequence must come out the same. Empty when the log is true."""
    problems: list[str] = []
    seed = engine_io.seed_bytes(battle)
    if dice.commitment(seed) != battle.seed_commitment:
        problems.append("the seed does not match the commitment published at the start")
    rs = engine_io.rules_of(battle)
    rows = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True).order_by("seq")
    log = [engine_io.event_from_row(r.data) for r in rows]
    problems += dice.verify_log(seed, [e.to_json() for e in log])  # the commitment is checked above
    try:
        again = resolver.rerun(rs, engine_io.initial_state(battle), log, seed)
    except resolver.EngineError as error:
        return [*problems, f"the re-run stopped: {error}"]
    if len(again) != len(log):
        problems.append(f"the re-run made {len(again)} events; the log has {len(log)}")
    for logged, remade in zip(log, again, strict=False):
        if canonical(logged.to_json()) != canonical(remade.to_json()):
            problems.append(f"event {logged.seq} ({logged.kind}) differs on re-run")
            break
    final = resolver.replay(rs, engine_io.initial_state(battle), log)
    if engine_io.state_text(rs, final) != battle.state:
        problems.append("the stored state is not the fold of the log")
    return problems


@dataclass(frozen=True)
class ShipSeen:
    """One ship's record as a viewer may see it, with what a record sheet needs besides: the same ship as he saw
    her when the battle began (for the boxes crossed off since), the board she is on, and the turn."""

    ship: JSONObject
    start: JSONObject | None
    board: JSONObject
    turn: int


def ship_for_viewer(viewer: Viewer, name: str) -> ShipSeen:
    """The ship called ``name`` on the board as the viewer sees it (the ruleset's ``board_view``: an enemy as
    seen, hidden values blanked); Http404 when that board has no such ship."""
    state = engine_io.current_state(viewer.battle)
    board = sheet_board(viewer)
    ship = _ship_named(board, name)
    if ship is None or not isinstance(board, dict):
        raise Http404("No such ship.")
    # A ship that joined later (a reinforcement) is not on the first board: no start, the sheet falls back.
    start = ships_at_start(viewer).get(name)
    return ShipSeen(ship=ship, start=start, board=board, turn=state.turn)


def sheet_board(viewer: Viewer) -> JSON:
    """The board the record sheets are drawn from: the board view, with the answers the viewer's side has given and
    the battle keeps until the rest of their batch is in folded in (resolver.with_answers), so a side sees its own
    orders on its own sheets (a Barsoom ship's plotted cards) and never another side's; the umpire's whole view
    folds every stored answer, as he sees them all."""
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    state = engine_io.current_state(battle)
    side = None if viewer.sees_all else viewer.side
    stored = Decision.objects.live().filter(battle=battle, applied_seq__isnull=True)
    if side is not None:
        stored = stored.filter(side__key=side)
    given = {d.request_id: d.choice for d in stored}
    if given and not state.over:
        state = resolver.with_answers(rs, state, given)
    return rs.board_view(state, side)


def ships_at_start(viewer: Viewer) -> dict[str, JSONObject]:
    """Each ship as the viewer saw her when the battle began, by name: her record sheet crosses off the boxes
    she has lost since. A reinforcement that came later is not among them."""
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    board = rs.board_view(engine_io.initial_state(battle), None if viewer.sees_all else viewer.side)
    return {str(ship["name"]): dict(ship) for ship in pieces_of(board) if "name" in ship}


def _ship_named(board: JSON, name: str) -> JSONObject | None:
    """A piece of a board view by name, from its "ships" or "pieces" (whichever the ruleset keeps)."""
    return next((dict(s) for s in pieces_of(board) if s.get("name") == name), None)


@dataclass(frozen=True)
class Verification:
    """What anyone may check once a battle is over: the seed, the commitment published at the start, and
    what re-running the battle from them over its logged decisions found."""

    seed: str
    seed_commitment: str
    events: int
    dice: int
    problems: tuple[str, ...]

    @property
    def verified(self) -> bool:
        return not self.problems


def battle_verification(*, battle: Battle) -> Verification:
    """Re-run the battle (battle_verify) and count what was checked: the live events and the dice thrown."""
    rows = list(BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True).values_list("kind", "data"))
    dice_thrown = sum(len(data.get("dice") or ()) for kind, data in rows if kind == "roll")
    problems = battle_verify(battle=battle)
    return Verification(battle.seed, battle.seed_commitment, len(rows), dice_thrown, tuple(problems))


def battle_result(*, battle: Battle) -> BattleResult | None:
    """The stored result of a finished battle (every end stores one), or None."""
    return BattleResult.objects.select_related("battle").filter(battle=battle).first()


# --- the battle pages -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRow:
    """A battle in a list: who is awaited (side names, with the player's), and whether it is the viewer."""

    battle: Battle
    awaited: tuple[str, ...]
    mine: bool  # the viewer owes a decision


def _open_requests(state: str) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """A stored state's side keys in order, its open requests not yet answered in it, as (id, side), and the
    umpire's own among them (DecisionRequest.umpire) apart, by id: those await the umpire, not their side."""
    data = json.loads(state)
    answered = set(data.get("answers", {}))
    open_ = [r for r in data.get("requests", []) if str(r["id"]) not in answered]
    sides = [(str(r["id"]), str(r["side"])) for r in open_ if not r.get("umpire")]
    return [str(key) for key in data.get("sides", [])], sides, [str(r["id"]) for r in open_ if r.get("umpire")]


def _awaited(sides: list[str], open_: list[tuple[str, str]], stored: set[str]) -> list[str]:
    waiting = {side for rid, side in open_ if rid not in stored}
    return [key for key in sides if key in waiting]


def awaited_sides(battle: Battle) -> list[str]:
    """The keys of the sides with an open decision not yet answered (nor stored), in side order (the umpire's own
    decisions logged under a side are not its: umpire_awaited)."""
    if battle.is_finished:
        return []
    sides, open_, _ = _open_requests(battle.state)
    stored = set(
        Decision.objects.live()
        .filter(battle=battle, request_id__in=[rid for rid, _ in open_])
        .values_list("request_id", flat=True)
    )
    return _awaited(sides, open_, stored)


def umpire_awaited(battle: Battle) -> bool:
    """Does the battle wait for one of the umpire's own decisions (the go-ahead before a card), not yet answered?"""
    if battle.is_finished:
        return False
    _, _, own = _open_requests(battle.state)
    return bool(own) and battle.umpire_decides() and not _all_stored(battle, own)


def umpire_awaited_words(battle: Battle, state: Any) -> list[str]:
    """ "the umpire to turn the next card": the umpire awaited for his own decision, in words for "Waiting for ..."
    (its prompt where the ruleset writes one in lower case, the way Cloudships does), or nothing."""
    if not umpire_awaited(battle):
        return []
    prompts = [r.prompt.rstrip(".") for r in state.pending() if r.umpire and r.prompt]
    said = prompts[0] if prompts and prompts[0][:1].islower() else ""
    return [f"{UMPIRE_AWAITED} to {said}" if said else UMPIRE_AWAITED]


def _all_stored(battle: Battle, request_ids: list[str]) -> bool:
    stored = Decision.objects.live().filter(battle=battle, request_id__in=request_ids)
    return set(stored.values_list("request_id", flat=True)) >= set(request_ids)


def awaited_by_battle(battles: Sequence[Battle]) -> dict[int, list[BattleSide]]:
    """The sides each battle in play waits for (an open decision with no answer stored), in side order, read from
    the battles' loaded states and their sides prefetched: one query for the stored answers however many."""
    in_play = [b for b in battles if not b.is_finished and b.state]
    open_by_battle = {b.pk: _open_requests(b.state) for b in in_play}
    open_ids = {rid for _, open_, _ in open_by_battle.values() for rid, _ in open_}
    stored: set[tuple[int, str]] = (
        set(
            Decision.objects.live()
            .filter(battle__in=[b.pk for b in in_play], request_id__in=open_ids)
            .values_list("battle_id", "request_id")
        )
        if open_ids
        else set()
    )
    awaited: dict[int, list[BattleSide]] = {}
    for battle in battles:
        sides = {s.key: s for s in battle.sides.all()}
        keys, open_, _ = open_by_battle.get(battle.pk, ([], [], []))
        answered = {rid for rid, _ in open_ if (battle.pk, rid) in stored}
        awaited[battle.pk] = [sides[key] for key in _awaited(keys, open_, answered) if key in sides]
    return awaited


def umpire_awaited_by_battle(battles: Sequence[Battle]) -> set[int]:
    """The battles in play waiting for one of the umpire's own decisions (umpire_awaited), read from their loaded
    states and their sides prefetched: one query for the stored answers however many."""
    own = {
        b.pk: ids
        for b in battles
        if not b.is_finished and b.state and (ids := _open_requests(b.state)[2]) and persons_play(b.sides.all())
    }
    if not own:
        return set()
    stored = set(
        Decision.objects.live()
        .filter(battle__in=list(own), request_id__in={rid for ids in own.values() for rid in ids})
        .values_list("battle_id", "request_id")
    )
    return {pk for pk, ids in own.items() if any((pk, rid) not in stored for rid in ids)}


# Who is awaited when it is the umpire's own decision (the go-ahead before a card), in a list of battles.
UMPIRE_AWAITED = "the umpire"


def awaited_words(side: BattleSide) -> str:
    """An awaited side in a list: its name and who decides for it."""
    return f"{side.name} ({_who(side)})"


def battle_rows(*, battles: Iterable[Battle], user: User) -> list[BattleRow]:
    """The rows of a list of battles from ``battles_for_user`` (its sides prefetched with their players, its
    ``umpired`` annotation): the same queries for forty battles as for two, the states of those in play and
    their stored answers read for all of them at once."""
    battles = list(battles)
    in_play = [b.pk for b in battles if not b.is_finished]
    states = dict(Battle.objects.filter(pk__in=in_play).values_list("pk", "state")) if in_play else {}
    for battle in battles:
        if battle.pk in states:
            battle.state = states[battle.pk]
    awaited = awaited_by_battle(battles)
    umpire_waited = umpire_awaited_by_battle(battles)
    rows = []
    for battle in battles:
        waiting = awaited[battle.pk]
        names = tuple(awaited_words(s) for s in waiting)
        umpire = getattr(battle, "umpired", None)
        if umpire is None:  # not from battles_for_user: ask the services, as the battle page does
            mine = any(services.may_decide_for(battle, s, user) for s in waiting)
        else:
            mine = any(s.decided_by(user.pk, umpire=bool(umpire), mode=battle.mode) for s in waiting)
        if battle.pk in umpire_waited:
            names += (UMPIRE_AWAITED,)
            mine = mine or (services.is_umpire(battle, user) if umpire is None else bool(umpire))
        rows.append(BattleRow(battle, names, mine))
    return rows


def _who(side: BattleSide) -> str:
    if side.controller == Controller.PLAYER and side.user is not None:
        return side.user.public_name
    return side.get_controller_display()


def battle_names(battle: Battle, board: JSON) -> narration.Names:
    """How the log and the forms call the battle's sides and guns."""
    return narration.names_for({s.key: s.name for s in battle.sides.all()}, board, engine_io.rules_of(battle))


def decision_forms_for(
    viewer: Viewer,
    *,
    compose: str = "",
    plan: Sequence[str] | None = None,
    plans: Mapping[str, Sequence[str]] | None = None,
    only: str = "",
) -> list[decision_forms.DecisionForm]:
    """A form for each open decision the viewer may make and has not yet answered, built on the state as the
    deciding side sees it. ``compose``/``plan``: the move being built for that request; ``plans``: the moves
    being built, by request (the orders form holds several); ``only``: that request's form alone."""
    battle = viewer.battle
    if battle.is_finished:
        return []
    rs = engine_io.rules_of(battle)
    state = engine_io.current_state(battle)
    stored = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    sides = {s.key: s for s in battle.sides.all()}
    names = battle_names(battle, rs.board_view(state, None if viewer.sees_all else viewer.side))
    building = dict(plans or {})
    if compose and plan is not None:
        building[compose] = plan
    forms = []
    for request in state.pending():
        side = sides.get(request.side)
        if request.id in stored or side is None or (only and request.id != only):
            continue
        if not answered_by(viewer, request) or (side.left and not request.umpire):
            continue  # another's, or a side gone whose decisions its leaving answers
        seen = redact(state, request.side)
        forms.append(decision_forms.build(rs, seen, request, names=names, plan=building.get(request.id)))
    return forms


def answered_requests(battle: Battle, request_ids: Iterable[str]) -> set[str]:
    """Which of these requests have a live (stored, not set aside) answer."""
    live = Decision.objects.live().filter(battle=battle, request_id__in=list(request_ids))
    return set(live.values_list("request_id", flat=True))


def decision_form(viewer: Viewer, request_id: str, *, plan: Sequence[str] | None = None) -> decision_forms.DecisionForm:
    """One open decision's form, or Http404 if the viewer has no such decision to make now."""
    for form in decision_forms_for(viewer, compose=request_id, plan=plan, only=request_id):
        if form.id == request_id:
            return form
    raise Http404("No such decision open for you.")


@dataclass(frozen=True)
class TurnLog:
    turn: int
    lines: tuple[narration.Line, ...]


def narrated_log(viewer: Viewer, *, details: bool = False, events: Sequence[JSONObject] | None = None) -> list[TurnLog]:
    """The log as the viewer may see it, in sentences, turn by turn (newest last). ``details``: the
    bookkeeping lines too."""
    battle = viewer.battle
    seen = event_log(viewer) if events is None else events
    rs = engine_io.rules_of(battle)
    board = rs.board_view(engine_io.current_state(battle), None if viewer.sees_all else viewer.side)
    lines = narration.narrate_log(seen, battle_names(battle, board), rs)
    turns: dict[int, list[narration.Line]] = {}
    for line in lines:
        if details or not line.detail:
            turns.setdefault(line.turn, []).append(line)
    return [TurnLog(turn, tuple(found)) for turn, found in sorted(turns.items())]


@dataclass(frozen=True)
class ReplayFrame:
    """The board after one turn of a finished battle, as the viewer may see it, and that turn's log."""

    turn: int
    turns: tuple[int, ...]
    board: JSON
    log: TurnLog


def replay_frame(viewer: Viewer, turn: int | None = None) -> ReplayFrame:
    """Replay the finished battle's log up to the end of ``turn`` (the first event of the next turn): the board
    then and the narration of that turn. Turn 0 is the set-up. Http404 before the battle ends."""
    battle = viewer.battle
    if not battle.is_finished:
        raise Http404("The replay opens once the battle is over.")
    rs = engine_io.rules_of(battle)
    rows = list(BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True).order_by("seq"))
    turns = tuple(sorted({row.turn for row in rows}))
    chosen = turns[-1] if turn is None or turn not in turns else turn
    upto = [engine_io.event_from_row(row.data) for row in rows if row.turn <= chosen]
    state = resolver.replay(rs, engine_io.initial_state(battle), upto)
    side = None if viewer.sees_all else viewer.side
    seen = [v for e in upto if e.turn == chosen and (v := rs.event_view(e, side)) is not None]
    lines = narration.narrate_log(seen, battle_names(battle, rs.board_view(state, side)), rs)
    return ReplayFrame(
        turn=chosen,
        turns=turns,
        board=rs.board_view(state, side),
        log=TurnLog(chosen, tuple(line for line in lines if not line.detail)),
    )


def correctable_decisions(*, battle: Battle) -> list[Decision]:
    """The decisions of the current turn already folded into the log: the ones the umpire may correct."""
    return list(
        Decision.objects.live()
        .filter(battle=battle, applied_seq__isnull=False, turn=battle.turn)
        .select_related("side")
        .order_by("applied_seq")
    )


def correction_form(*, battle: Battle, request_id: str) -> decision_forms.DecisionForm:
    """The form of a decision already folded into the log, on the battle as it stood when it was asked (as its
    side saw it): the umpire picks the right answer from the legal ones. Http404 if it cannot be corrected."""
    decision = next((d for d in correctable_decisions(battle=battle) if d.request_id == request_id), None)
    if decision is None or decision.applied_seq is None:
        raise Http404("No such decision to correct.")
    rs = engine_io.rules_of(battle)
    rows = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True, seq__lt=decision.applied_seq)
    rewound = resolver.replay(
        rs, engine_io.initial_state(battle), (engine_io.event_from_row(r.data) for r in rows.order_by("seq"))
    )
    request = rewound.request(request_id)
    if request is None:
        raise Http404("No such decision to correct.")
    names = battle_names(battle, rs.board_view(rewound, None))
    return decision_forms.build(rs, redact(rewound, request.side), request, names=names, step_by_step=False)
