"""Reads for battles, always for a requesting user.

A battle outside the user's campaigns is indistinguishable from one that does not exist (Http404). Inside,
a player sees the battle as his side may see it (the ruleset's ``board_view`` and ``event_view``); the
umpire sees everything but the dice seed, which nobody sees before the battle ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from accounts.models import User
from battles import engine_io
from battles.engine import dice, resolver
from battles.engine.events import JSON, JSONObject, canonical
from battles.engine.state import redact
from battles.models import Battle, BattleEvent, BattleSide, Controller, Decision
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


PUBLIC_ONLY = "\x00public"  # the view of a member with no side: what every side may see


def battles_for_user(*, user: User) -> QuerySet[Battle]:
    """The battles of every campaign the user is in, newest first, with their campaign (one query)."""
    return (
        Battle.objects.filter(campaign__memberships__user=user)
        .select_related("campaign")
        .annotate(
            umpired=Exists(Membership.objects.filter(campaign=OuterRef("campaign"), user=user, role=Role.UMPIRE)),
            mine=Exists(BattleSide.objects.filter(battle=OuterRef("pk"), user=user)),
        )
        .distinct()
        .order_by("-created_at", "-pk")
    )


def battle_for_user(*, user: User, battle_id: int) -> Battle:
    battle = Battle.objects.filter(pk=battle_id, campaign__memberships__user=user).select_related("campaign").first()
    if battle is None:
        raise Http404("No such battle.")
    return battle


def viewer_for(*, battle: Battle, user: User, side: str | None = None) -> Viewer:
    """The user's view of the battle. A player sees his own side (or, with several, the one asked for); the
    umpire sees all, or one side's view when he asks for it; anyone else in the campaign sees the public view."""
    is_umpire = Membership.objects.filter(campaign_id=battle.campaign_id, user=user, role=Role.UMPIRE).exists()
    all_sides = list(battle.sides.all())
    mine = tuple(s for s in all_sides if s.user_id == user.pk or (is_umpire and s.controller != Controller.PLAYER))
    if is_umpire:
        if side is not None and side not in {s.key for s in all_sides}:
            raise Http404("No such side.")
        return Viewer(battle, user, True, tuple(all_sides) if battle.mode == "table" else mine, side)
    players = tuple(s for s in all_sides if s.user_id == user.pk)
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
    answered = set(
        Decision.objects.filter(
            battle=battle, superseded_by__isnull=True, request_id__in=[r.id for r in state.requests]
        ).values_list("request_id", flat=True)
    )
    pending: list[JSON] = []
    for request in seen.pending():
        entry: dict[str, JSON] = {
            "id": request.id,
            "side": request.side,
            "kind": request.kind,
            "submitted": request.id in answered,
        }
        if request.side in mine or viewer.sees_all:
            entry.update(request.to_json())
            entry["submitted"] = request.id in answered
            entry["candidates"] = _candidates(rs, seen, request) if request.side in mine else None
        pending.append(entry)
    return {
        "id": battle.pk,
        "title": battle.title,
        "campaign": battle.campaign.slug,
        "ruleset": {"key": battle.ruleset_key, "version": battle.ruleset_version, "options": battle.options},
        "mode": battle.mode,
        "status": battle.status,
        "turn": state.turn,
        "phase": state.phase,
        "seq": state.seq,
        "deadline": battle.deadline.isoformat() if battle.deadline else None,
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


def _candidates(rs: Any, state: Any, request: Any) -> JSON:
    """The legal answers a form can offer: the listed options, else the ruleset's candidates (a sample of
    legal answers for an open-ended decision, always including the default)."""
    if request.options is not None:
        return list(request.options)
    return list(rs.candidates(state, request))


def event_log(viewer: Viewer, *, after: int = -1, limit: int = 2000) -> list[JSONObject]:
    """The live log after ``after``, each event as the viewer may see it; withheld events are left out."""
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    rows = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True, seq__gt=after).order_by("seq")[:limit]
    side = None if viewer.sees_all else viewer.side
    seen: list[JSONObject] = []
    for row in rows:
        view = rs.event_view(engine_io.event_from_row(row.data), side)
        if view is not None:
            seen.append(view)
    return seen


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
    problems += dice.verify_log(seed, [e.to_json() for e in log], battle.seed_commitment)
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
    battle = viewer.battle
    rs = engine_io.rules_of(battle)
    state = engine_io.current_state(battle)
    side = None if viewer.sees_all else viewer.side
    board = rs.board_view(state, side)
    ship = _ship_named(board, name)
    if ship is None or not isinstance(board, dict):
        raise Http404("No such ship.")
    # A ship that joined later (a reinforcement) is not on the first board: no start, the sheet falls back.
    start = _ship_named(rs.board_view(engine_io.initial_state(battle), side), name)
    return ShipSeen(ship=ship, start=start, board=board, turn=state.turn)


def _ship_named(board: JSON, name: str) -> JSONObject | None:
    ships = board.get("ships") if isinstance(board, dict) else None
    if not isinstance(ships, list):
        return None
    return next((s for s in ships if isinstance(s, dict) and s.get("name") == name), None)
