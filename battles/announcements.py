"""Telling people about a battle: whose decision it awaits, a deadline drawing near, the end.

Written from what every side may know (the battle's title, turn, the sides' names, the winner once it is
over), never from a side's secrets. Only the people of a battle are told of it (its sides' players and the
umpire); the campaign's chat hears of a battle's end unless the battle is private (a campaign encounter at sea,
which would place a captain's ship). Called by the services inside their transaction; the notifications
module sends after commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from accounts.models import User
from battles import engine_io
from battles.engine.decisions import DecisionRequest
from battles.engine.words import and_list, capfirst, possessive
from battles.models import Battle, BattleMode, BattleSide, BattleStatus, Controller, DeadlineDefault, Decision
from campaign.models import NotificationKind
from campaign.notifications import notify, post_to_webhook, umpires_of


def battle_url(battle: Battle) -> str:
    try:
        return reverse("battle_detail", args=[battle.pk])
    except NoReverseMatch:  # the pages are not routed (the API alone)
        return f"/battles/{battle.pk}/"


def owing(battle: Battle, state: Any) -> list[tuple[BattleSide, list[DecisionRequest]]]:
    """Each side a person decides for with the open decisions it has not answered yet, in side order (not the
    umpire's own decisions logged under it: umpire_owes)."""
    answered = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    waiting = [r for r in state.pending() if r.id not in answered and not r.umpire]
    return [
        (side, [r for r in waiting if r.side == side.key])
        for side in battle.sides.all()
        if side.controller != Controller.AI and not side.left and any(r.side == side.key for r in waiting)
    ]


def umpire_owes(battle: Battle, state: Any) -> list[DecisionRequest]:
    """The umpire's own open decisions (the go-ahead before a card) not answered yet, while the battle waits for
    him (Battle.umpire_decides; else the AI gives them and nobody is told)."""
    waiting = [r for r in state.pending() if r.umpire]
    if not waiting or not battle.umpire_decides():
        return []
    answered = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    return [r for r in waiting if r.id not in answered]


def deciders(battle: Battle, sides: list[BattleSide]) -> list[User]:
    """Who decides for these sides: a side's player, or the umpires (their sides, and every side at the table)."""
    people: list[User] = []
    for side in sides:
        if _player_decides(battle, side):
            assert side.user is not None
            people.append(side.user)
        else:
            people.extend(umpires_of(battle.campaign))
    return people


def _player_decides(battle: Battle, side: BattleSide) -> bool:
    return side.controller == Controller.PLAYER and side.user is not None and battle.mode != BattleMode.TABLE


def decisions_url(battle: Battle) -> str:
    """The battle page at its decisions (templates/battles/detail.html keeps the id on that section)."""
    return f"{battle_url(battle)}#decisions"


@dataclass(frozen=True)
class Owed:
    """What one person (a player), or the umpires together, owe a battle now: the sides and their open decisions."""

    users: list[User]
    sides: list[BattleSide]
    requests: list[DecisionRequest]
    yours: bool  # a player's own sides ("your"), or the umpire's for sides named (his own alone: "your")

    @property
    def key(self) -> str:
        """Whose notification it is, for its dedupe key: the sides', or the umpire's own decisions'."""
        return "+".join(s.key for s in self.sides) or "umpire"


def owed_by_whom(battle: Battle, state: Any) -> list[Owed]:
    """The open decisions grouped by who makes them, each told in one notification: a player's sides together,
    and every side the umpires decide for together with their own decisions (one unread notification a page,
    campaign.notifications)."""
    groups: dict[int, tuple[list[BattleSide], list[DecisionRequest]]] = {}
    for side, requests in owing(battle, state):
        key = side.user_id if _player_decides(battle, side) and side.user_id is not None else 0
        sides, wanted = groups.setdefault(key, ([], []))
        sides.append(side)
        wanted.extend(requests)
    if own := umpire_owes(battle, state):
        groups.setdefault(0, ([], []))[1].extend(own)
    return [
        Owed(
            deciders(battle, sides) if sides else umpires_of(battle.campaign),
            sides,
            requests,
            yours=key != 0 or not sides,
        )
        for key, (sides, requests) in groups.items()
    ]


def announce(battle: Battle, state: Any) -> None:
    """After a resolution: the end, or the decisions now awaited."""
    if battle.status == BattleStatus.FINISHED:
        _announce_end(battle)
        return
    for owed in owed_by_whom(battle, state):
        notify(
            users=owed.users,
            campaign=battle.campaign,
            kind=NotificationKind.DECISION_NEEDED,
            title=wanted_words(battle, owed, turn=state.turn),
            body=_wanted_body(battle, owed.requests),
            url=decisions_url(battle),
            dedupe_key=f"battle:{battle.pk}:decide:{owed.key}:{state.seq}",
            refresh_unread=True,
        )


def _announce_end(battle: Battle) -> None:
    everyone = [s.user for s in battle.sides.select_related("user") if s.user] + umpires_of(battle.campaign)
    title = end_words(battle)
    key = f"battle:{battle.pk}:ended"
    notify(
        users=everyone,
        campaign=battle.campaign,
        kind=NotificationKind.BATTLE_ENDED,
        title=title,
        body=f"It ended on turn {battle.turn}. Replay it turn by turn from the battle page.",
        url=battle_url(battle),
        dedupe_key=key,
    )
    if not battle.private:  # the club's chat is every member's: a private battle's end is its sides' alone
        post_to_webhook(campaign=battle.campaign, text=title, dedupe_key=key)


def end_words(battle: Battle) -> str:
    """The end in a line: "The Ambush at Gorovaan is over: Red Squadron won (Blue struck)", or a draw."""
    winner = battle.sides.filter(key=battle.winner).values_list("name", flat=True).first() if battle.winner else None
    outcome = f"{winner} won" if winner else "a draw"
    why = f" ({battle.result_reason})" if battle.result_reason else ""
    return f"{battle.title} is over: {outcome}{why}"


def wanted_words(battle: Battle, owed: Owed, *, turn: int, reminder: bool = False) -> str:
    """What is wanted of whom, for which turn of which battle, by when: "Your fire decision for turn 5 of The
    Ambush at Gorovaan is due in 6 hours". The decisions are named by their kind, the ruleset's own word for
    them (the generic protocol's DecisionRequest.kind); the umpire deciding for sides reads their names."""
    kinds = and_list(dict.fromkeys(r.kind for r in owed.requests))
    many = len(owed.requests) > 1
    what = f"{kinds} {'decisions' if many else 'decision'}"
    sides_named = and_list(possessive(side.name) for side in owed.sides)
    whose = ("your" if reminder else "Your") if owed.yours else sides_named
    when = "the set-up" if turn == 0 else f"turn {turn}"
    due = f"due {time_left_words(battle.deadline - timezone.now())}" if battle.deadline is not None else "awaited"
    text = f"{whose} {what} for {when} of {battle.title} {'are' if many else 'is'} {due}"
    return f"Reminder: {text}" if reminder else text


def time_left_words(left: timedelta) -> str:
    """How long is left, in round words: "in 5 minutes", "in 6 hours", "in 2 days" ("now" once it is up)."""
    minutes = round(left.total_seconds() / 60)
    if minutes < 1:
        return "now"
    if minutes < 90:
        return f"in {minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    if hours < 48:
        return f"in {hours} hours"
    return f"in {round(hours / 24)} days"


def _wanted_body(battle: Battle, requests: list[DecisionRequest]) -> str:
    """Each decision's prompt in the ruleset's words ("Place the Dart in one of her deployment hexes."), then the
    deadline and what happens after it."""
    prompts = " ".join(f"{capfirst(r.prompt).rstrip('.')}." for r in requests if r.prompt)
    deadline = _deadline_text(battle)
    return " ".join(part for part in (prompts, deadline) if part)


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


def battles_to_remind(*, now: Any = None, within: timedelta = timedelta(hours=12)) -> list[Battle]:
    """The battles waiting on a deadline within ``within``, a battle on a clock only in its turn's last quarter.

    The quarter is judged here, not in SQL: SQLite (the embedded default) cannot multiply a duration."""
    now = now or timezone.now()
    near = (
        Battle.objects.filter(status=BattleStatus.WAITING, deadline__gt=now, deadline__lte=now + within)
        # Live play: both players are at the page, which shows the window; a reminder a window would be noise.
        .exclude(mode=BattleMode.LIVE)
        .order_by("pk")
    )
    return [battle for battle in near if _in_reminder_time(battle, now)]


def _in_reminder_time(battle: Battle, now: Any) -> bool:
    if battle.turn_minutes is None or battle.deadline is None:
        return True
    quarter = timedelta(seconds=battle.turn_minutes * TURN_REMINDER_SECONDS_PER_MINUTE)
    return bool(battle.deadline - quarter <= now)


def remind(battle: Battle) -> int:
    """A deadline draws near: remind whoever still owes a decision, once per deadline."""
    if battle.deadline is None:
        return 0
    state = engine_io.current_state(battle)
    made = 0
    for owed in owed_by_whom(battle, state):
        made += len(
            notify(
                users=owed.users,
                campaign=battle.campaign,
                kind=NotificationKind.DEADLINE_NEAR,
                title=wanted_words(battle, owed, turn=state.turn, reminder=True),
                body=_wanted_body(battle, owed.requests),
                url=decisions_url(battle),
                dedupe_key=f"battle:{battle.pk}:deadline:{owed.key}:{battle.deadline.isoformat()}",
            )
        )
    return made
