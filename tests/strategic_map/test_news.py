"""The news of a player's own ship and trek (strategic_map.news): told to him alone, in the app (and by email),
never to the other players and never to the campaign's chat webhook (fog of war: the news says where)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from campaign.models import Notification, NotificationKind, WebhookDelivery
from strategic_map import arrival, news, treks
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.arrival_fixtures import fates
from tests.strategic_map.test_treks import WILDS, club, set_table, start

pytestmark = pytest.mark.django_db

table = arrival_fixtures.table
fight = arrival_fixtures.fight
__all__ = ["club"]  # the trek tests' club fixture, used below

MERCHANT = ("Enemy Merchantman", "warm_winds", "Golden Dawn", "Green")
PIRATE = ("Pirate Ship", "clearsight", "Black Wing", "Trained")


def news_of(user, kind: str = NotificationKind.SHIP_NEWS) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("pk"))


def test_the_captain_hears_of_his_action_and_his_homecoming_and_nobody_else_does(fight, table):
    table.campaign.webhook_url = "https://chat.example.com/hook"
    table.campaign.save(update_fields=["webhook_url"])
    encounter = fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")
    assert fates(encounter)["Golden Dawn"] == "struck"

    (action,) = news_of(table.alice)
    assert action.title == f"The action of day {encounter.day} is over"
    assert "Taken in tow: the Golden Dawn." in action.body
    assert "The voyage goes on." in action.body
    assert action.url == f"/battles/{encounter.battle_id}/#battle-status"

    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=4)
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=4)  # the task run twice: told once
    _, home = news_of(table.alice)
    assert home.title == "Day 4: the Gull is in Parhoon"
    assert home.body.startswith("Prizes to the auction room: the Golden Dawn.")
    assert home.url == f"/ships/{table.gull.pk}/"

    # Bob's captain was ashore all along: nothing of the Gull's voyage reaches him, nor the club's chat.
    assert news_of(table.bob) == []
    assert not WebhookDelivery.objects.filter(text__contains="Gull").exists()
    assert not WebhookDelivery.objects.filter(text__contains="Golden Dawn").exists()


@pytest.mark.rule("SGC-TREK-01")
def test_a_captain_put_over_the_side_is_told_of_his_trek_and_sent_to_its_page(fight, table):
    encounter = fight([PIRATE], result="Pirate Ship", surrender="british")
    assert fates(encounter)["Gull"] == "struck"

    (action,) = news_of(table.alice)
    assert "Lost: the Gull." in action.body
    assert "set out on an epic trek home" in action.body
    trek = table.jack.treks.get()
    assert action.url == f"/campaigns/{table.campaign.slug}/treks/{trek.pk}/#week-1"


@pytest.mark.rule("SGC-TREK-03", "SGC-TREK-20")
def test_each_week_of_a_trek_is_news_of_its_own_and_the_end_says_how_it_ended(club):
    campaign = club["campaign"]
    set_table(campaign, "L")
    trek = start(club["jack"], where=WILDS)
    treks.treks_advance(campaign_id=campaign.pk, day=1)
    treks.treks_advance(campaign_id=campaign.pk, day=1)  # the day run twice: one roll, one notification
    set_table(campaign, "F")
    treks.treks_advance(campaign_id=campaign.pk, day=8)  # a week on

    first, second = news_of(club["alice"], NotificationKind.TREK_NEWS)
    assert first.title == "Captain Jack's epic trek, week 1"
    assert first.body.startswith("Day 1. The landing hex.")
    assert first.url.endswith(f"/treks/{trek.pk}/#week-1")
    # Unread, the first week does not swallow the second (one unread notification a page: each week its anchor).
    assert first.read_at is None
    assert second.title == "Captain Jack's epic trek, week 2: safe home"
    assert second.url.endswith("#week-2")
    assert news_of(club["bob"], NotificationKind.TREK_NEWS) == []


def test_the_end_of_the_action_is_told_even_when_its_call_to_action_is_still_unread(fight, table):
    """The "action!" notice leads to the battle, and so does the action's end; one unread notification a page
    (campaign.notifications) must not let the first swallow the second: the end has the result's own anchor."""
    encounter = fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")
    (told,) = news_of(table.alice)
    told.delete()
    captain = table.voyage.captain
    when = timezone.now()
    news.tell_encounter_battle(
        table.campaign,
        captain,
        battle_id=encounter.battle_id,
        title="a merchant",
        day=2,
        ends_day=3,
        hand_over_at=when,
        turn_minutes=60,
    )
    news.tell_action(table.campaign, captain, encounter_id=encounter.pk, day=2, summary="Taken in tow.", url=told.url)
    assert [n.title for n in news_of(table.alice)] == ["Day 2: action! a merchant", "The action of day 2 is over"]
