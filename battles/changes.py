"""What a battle page compares to know whether its viewer has anything new to see: the change mark.

A page is rendered at a mark and asks ``/battles/<pk>/changes/?since=<mark>`` every few seconds; the same mark
means nothing the viewer may see has changed (a 204), another means the page's regions are sent again. The mark
is read in one query (two for a player whose page did not name his side), from the battle row and indexed
subqueries, and it is made only of what the viewer may know:

- the last event of the live log he may see (a side's own secrets and the public ones; every event for the
  umpire): the other side's secret answer, folded into the log, moves nothing here until it is made public;
- the battle's status, its mode, pace and deadline, and the umpire's corrections, which the page shows;
- the answers stored for the sides the viewer decides for (the umpire: every side's, as he sees them all), so a
  second tab learns of an answer given in the first. Another side's answer waiting to be folded is not counted:
  it would tell the viewer when the other side answered, before the battle says so.

A battle the user may not see is a 404 here exactly as on its page (selectors.visible_battles, viewer_for).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404

from accounts.models import User
from battles.engine.events import PUBLIC, side_only
from battles.models import BattleEvent, BattleMode, BattleSide, BattleStatus, Correction, Decision
from battles.selectors import PUBLIC_ONLY, visible_battles
from campaign.models import Membership, Role

# How often an open battle's page asks for changes: every few seconds when both players are online (live play),
# now and then in web play (a reload catches up anyway; a held connection would tie up a server worker).
POLL_SECONDS: dict[str, int] = {BattleMode.LIVE: 2, BattleMode.TABLE: 5}
POLL_SECONDS_OTHERWISE = 15


def poll_seconds(mode: str) -> int:
    return POLL_SECONDS.get(mode, POLL_SECONDS_OTHERWISE)


@dataclass(frozen=True)
class ChangeMark:
    """A battle as one viewer's page last saw it, and the few fields the changes view acts on."""

    battle_id: int
    mark: str
    side: str | None  # the side whose view it is; None for the umpire seeing everything
    mode: str
    status: str
    deadline: datetime | None

    @property
    def finished(self) -> bool:
        return self.status == BattleStatus.FINISHED


def _count(queryset: Any) -> Coalesce:
    """A correlated COUNT(*) of ``queryset`` (already filtered on the outer battle), 0 when there are none."""
    counted = queryset.order_by().values("battle").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def _last_seen_seq(visibility: list[str] | None) -> Coalesce:
    """The seq of the last live event of the outer battle with one of these visibilities (None: any)."""
    events = BattleEvent.objects.filter(battle=OuterRef("pk"), superseded_by__isnull=True)
    if visibility is not None:
        events = events.filter(visibility__in=visibility)
    return Coalesce(Subquery(events.order_by("-seq").values("seq")[:1]), Value(-1))


def _row(user: User, battle_id: int, side: str | None) -> Mapping[str, Any] | None:
    """The battle row with what the mark is made of, as one query; None when the user may not see it."""
    seen = [PUBLIC] if side is None or side == PUBLIC_ONLY else [PUBLIC, side_only(side)]
    sides = BattleSide.objects.filter(battle=OuterRef("pk"))
    answers = Decision.objects.live().filter(battle=OuterRef("pk"))
    return (
        visible_battles(user=user)
        .filter(pk=battle_id)
        .annotate(
            umpired=Exists(Membership.objects.filter(campaign=OuterRef("campaign"), user=user, role=Role.UMPIRE)),
            side_known=Exists(sides.filter(key=side or "")),
            side_mine=Exists(sides.filter(key=side or "", user=user)),
            first_side=Subquery(sides.filter(user=user).order_by("order").values("key")[:1]),
            side_seq=_last_seen_seq(seen),
            all_answers=_count(answers),
            my_answers=_count(answers.filter(side__user=user)),
            corrections_made=_count(Correction.objects.filter(battle=OuterRef("pk"))),
        )
        .values(
            "pk",
            "state_seq",
            "status",
            "mode",
            "live_minutes",
            "deadline",
            "umpired",
            "side_known",
            "side_mine",
            "first_side",
            "side_seq",
            "all_answers",
            "my_answers",
            "corrections_made",
        )
        .first()
    )


def change_mark(*, user: User, battle_id: int, side: str | None = None) -> ChangeMark:
    """The viewer's change mark (module doc): ``side`` as the page asks for it (``as``), None for the default view
    (the umpire's whole battle, a player's first side, a member's public view). Http404 as viewer_for does."""
    row = _row(user, battle_id, side)
    if row is None:
        raise Http404("No such battle.")
    if row["umpired"]:
        if side is not None and not row["side_known"]:
            raise Http404("No such side.")
        return _mark(row, side, seq=row["state_seq"] if side is None else row["side_seq"], answers=row["all_answers"])
    if side is not None and not row["side_mine"]:
        raise Http404("No such side.")
    if side is None and row["first_side"]:  # a player's page that did not name his side: read it for that side
        return change_mark(user=user, battle_id=battle_id, side=row["first_side"])
    return _mark(row, side, seq=row["side_seq"], answers=row["my_answers"])


def _mark(row: Mapping[str, Any], side: str | None, *, seq: int, answers: int) -> ChangeMark:
    deadline: datetime | None = row["deadline"]
    stamp = int(deadline.timestamp()) if deadline is not None else 0
    pace = f"{row['mode']}{row['live_minutes']}"
    return ChangeMark(
        battle_id=row["pk"],
        mark=f"{seq}.{row['status']}.{row['corrections_made']}.{answers}.{pace}.{stamp}",
        side=side,
        mode=row["mode"],
        status=row["status"],
        deadline=deadline,
    )


def open_ids(text: str) -> frozenset[str]:
    """The open decisions a page shows, as it sends them back (``open=r12,r13``)."""
    return frozenset(part for part in text.split(",") if part)
