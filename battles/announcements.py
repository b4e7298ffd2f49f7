"""Telling people about a battle: whose decision it awaits, a deadline drawing near, the end.

Written from what every side may know (the battle's title, turn, the sides' names, the winner once it is
over), never from a side's secrets. Only the people of a battle are told of it (its sides' players and the
umpire); the campaign's chat hears of a battle's end unless the battle is private (a campaign encounter at sea,
which would place a captain's ship). Called by the services inside their transaction; the notifications
module sends after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Q, QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from accounts.models import User
from battles import engine_io
from battles.engine.words import possessive
from battles.models import Battle, BattleMode, BattleSide, BattleStatus, Controller, DeadlineDefault, Decision
from campaign.models import NotificationKind
from campaign.notifications import notify, post_to_webhook, umpires_of


def battle_url(battle: Battle) -> str:
    try:
        return reverse("battle_detail", args=[battle.pk])
    except NoReverseMatch:  # the pages are not routed (the API alone)
        return f"/battles/{battle.pk}/"


def owing_sides(battle: Battle, state: Any) -> list[BattleSide]:
    """The sides a person decides for that have an open decision without a stored answer."""
    answered = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    keys = {r.side for r in state.pending() if r.id not in answered}
    return [s for s in battle.sides.all() if s.key in keys and s.controller != Controller.AI and not s.left]


def deciders(battle: Battle, sides: list[BattleSide]) -> list[User]:
    """Who decides for these sides: a side's player, or the umpires (their sides, and every side at the table)."""
    people: list[User] = []
    for side in sides:
        if side.controller == Controller.PLAYER and side.user is not None and battle.mode != BattleMode.TABLE:
            people.append(side.user)
        else:
            people.extend(umpires_of(battle.campaign))
    return people


def announce(battle: Battle, state: Any) -> None:
    """After a resolution: the end, or the decisions now awaited."""
    url = battle_url(battle)
    if battle.status == BattleStatus.FINISHED:
        everyone = [s.user for s in battle.sides.select_related("user") if s.user] + umpires_of(battle.campaign)
        winner = battle.sides.filter(key=battle.winner).values_list("name", flat=True).first() or "nobody"
        title = f"{battle.title} is over: {winner} won ({battle.result_reason})"
        key = f"battle:{battle.pk}:ended"
        notify(
            users=everyone,
            campaign=battle.campaign,
            kind=NotificationKind.BATTLE_ENDED,
            title=title,
            url=url,
            dedupe_key=key,
        )
        if not battle.private:  # the club's chat is every member's: a private battle's end is its sides' alone
            post_to_webhook(campaign=battle.campaign, text=title, dedupe_key=key)
        return
    sides = owing_sides(battle, state)
    for side in sides:
        notify(
            users=deciders(battle, [side]),
            campaign=battle.campaign,
            kind=NotificationKind.DECISION_NEEDED,
            title=f"{battle.title}, {'set-up' if state.turn == 0 else f'turn {state.turn}'}: {side.name} to decide",
            body=_deadline_text(battle),
            url=url,
            dedupe_key=f"battle:{battle.pk}:decide:{side.key}:{state.seq}",
        )


DEADLINE_AFTER: dict[str, str] = {
    DeadlineDefault.AI: "the AI captain decides for a side still to answer",
    DeadlineDefault.HOLD: "a side still to answer holds its course and fires at will",
}


def _deadline_text(battle: Battle) -> str:
    if battle.deadline is None:
        return ""
    # The choice's own words as a clause ("the AI captain decides"): lower-casing its label gave "the the ai ...".
    after = DEADLINE_AFTER.get(str(battle.deadline_default), str(battle.get_deadline_default_display()))
    text = f"Deadline {battle.deadline:%a %d %b %H:%M} UTC; after it {after}."
    handing = hand_over_text(battle)
    return f"{text} {handing}" if handing else text


def hand_over_words(ends_day: int | None, hand_over_at: datetime | None) -> str:
    """When the AI captains take a battle on the campaign's clock over, in the players' words: the campaign day
    whose end closes the window (strategic_map.encounter_clock), and about when that is expected."""
    if ends_day is None and hand_over_at is None:
        return ""
    about = f"{hand_over_at:%a %d %b %H:%M} UTC" if hand_over_at is not None else ""
    if ends_day is None:
        when = f"by {about}"
    else:
        when = f"by the end of day {ends_day}" + (f" (about {about})" if about else "")
    return f"If the battle is not over {when}, the AI captains will fight it out for both sides."


def hand_over_day(battle: Battle) -> int | None:
    """The last campaign day of the battle's window, when it is a campaign encounter's (strategic_map's Encounter
    links itself to the battle; the battles app only reads the link back)."""
    try:
        encounter = battle.encounter
    except ObjectDoesNotExist:
        return None
    day = getattr(encounter, "window_ends_day", None)
    return day if isinstance(day, int) else None


def hand_over_text(battle: Battle) -> str:
    """The players' words for when the AI captains will finish this battle, or "" when it is on no clock."""
    if battle.is_finished or battle.hand_over_at is None:
        return ""
    return hand_over_words(hand_over_day(battle), battle.hand_over_at)


# A battle on a clock is reminded in the last quarter of its turn (a turn of three hours: 45 minutes before), not
# ``within`` (twelve hours would remind every turn the moment it began, beside its decision's notification).
TURN_REMINDER_SECONDS_PER_MINUTE = 15


def battles_to_remind(*, now: Any = None, within: timedelta = timedelta(hours=12)) -> QuerySet[Battle]:
    now = now or timezone.now()
    quarter = ExpressionWrapper(
        F("turn_minutes") * timedelta(seconds=TURN_REMINDER_SECONDS_PER_MINUTE), output_field=DurationField()
    )
    return (
        Battle.objects.filter(status=BattleStatus.WAITING, deadline__gt=now, deadline__lte=now + within)
        .annotate(remind_from=ExpressionWrapper(F("deadline") - quarter, output_field=DateTimeField()))
        .filter(Q(turn_minutes__isnull=True) | Q(remind_from__lte=now))
    )


def remind(battle: Battle) -> int:
    """A deadline draws near: remind whoever still owes a decision, once per deadline."""
    if battle.deadline is None:
        return 0
    state = engine_io.current_state(battle)
    made = 0
    for side in owing_sides(battle, state):
        made += len(
            notify(
                users=deciders(battle, [side]),
                campaign=battle.campaign,
                kind=NotificationKind.DEADLINE_NEAR,
                title=f"{battle.title}: {possessive(side.name)} deadline is near",
                body=_deadline_text(battle),
                url=battle_url(battle),
                dedupe_key=f"battle:{battle.pk}:deadline:{side.key}:{battle.deadline.isoformat()}",
            )
        )
    return made
