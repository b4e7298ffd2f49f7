"""Telling a captain's player the news of his ship and of his epic trek: in the app and by email
(campaign.notifications), to him alone.

The news may say where (it is his own ship's), so it never goes to the campaign's chat webhook: the public
hears of an action or a homecoming through the chronicle, which never places a ship (fog of war)."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse

from battles.announcements import hand_over_words
from battles.engine.words import possessive
from campaign.models import Campaign, Captain, NotificationKind
from campaign.notifications import notify


def tell_player(campaign: Campaign, captain: Captain, *, kind: str, title: str, body: str, url: str, key: str) -> None:
    """One notification to the captain's player, once per ``key``. Inside the caller's transaction."""
    if captain.player_id is None:
        return
    notify(
        users=[captain.player],
        campaign=campaign,
        kind=kind,
        title=title,
        body=body,
        url=url,
        dedupe_key=key,
    )


def ship_url(ship_id: int) -> str:
    return reverse("ship_detail", args=[ship_id])


def trek_url(slug: str, trek_id: int, week: int) -> str:
    # Each week's news its own page anchor: an unread week does not swallow the next (campaign.notifications
    # keeps one unread notification a page).
    return f"{reverse('trek_detail', args=[slug, trek_id])}#week-{week}"


def tell_arrival(
    campaign: Campaign, captain: Captain, *, ship_id: int, ship_name: str, city: str, prizes: list[str], day: int
) -> None:
    if prizes:
        landed = ", ".join(f"the {name}" for name in prizes)
        body = f"Prizes to the auction room: {landed}. Repairs and refits at the yard."
    else:
        body = "Repairs and refits at the yard."
    tell_player(
        campaign,
        captain,
        kind=NotificationKind.SHIP_NEWS,
        title=f"Day {day}: the {ship_name} is in {city}",
        body=body,
        url=ship_url(ship_id),
        key=f"voyage-arrived:{ship_id}:{day}",
    )


def tell_action(campaign: Campaign, captain: Captain, *, encounter_id: int, day: int, summary: str, url: str) -> None:
    tell_player(
        campaign,
        captain,
        kind=NotificationKind.SHIP_NEWS,
        title=f"The action of day {day} is over",
        body=summary,
        url=url,
        key=f"encounter-applied:{encounter_id}:{captain.pk}",
    )


def tell_encounter_battle(
    campaign: Campaign,
    captain: Captain,
    *,
    battle_id: int,
    title: str,
    day: int,
    ends_day: int,
    hand_over_at: datetime,
    turn_minutes: int,
) -> None:
    """The battle of his encounter is open: where to fight it, each turn's time, and when the AI takes over."""
    tell_player(
        campaign,
        captain,
        kind=NotificationKind.SHIP_NEWS,
        title=f"Day {day}: action! {title}",
        body=(
            f"Each turn's orders are due within {_duration(turn_minutes)} of the turn's start. "
            f"{hand_over_words(ends_day, hand_over_at)}"
        ),
        url=reverse("battle_detail", args=[battle_id]),
        key=f"encounter-battle:{battle_id}",
    )


def _duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if hours and rest:
        return f"{hours} h {rest} min"
    return f"{hours} {'hour' if hours == 1 else 'hours'}" if hours else f"{rest} min"


def tell_trek_week(
    campaign: Campaign, captain: Captain, *, trek_id: int, week: int, day: int, words: str, ended: str
) -> None:
    title = f"Captain {possessive(captain.name)} epic trek, week {week}" + (f": {ended}" if ended else "")
    tell_player(
        campaign,
        captain,
        kind=NotificationKind.TREK_NEWS,
        title=title,
        body=f"Day {day}. {words}",
        url=trek_url(campaign.slug, trek_id, week),
        key=f"trek:{trek_id}:week:{week}",
    )
