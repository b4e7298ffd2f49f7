"""Auctions on the campaign clock (issue 18): an auction runs the campaign's auction days and closes at the tick of
its closing day (campaign.auctions, strategic_map.tick), not by real time."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from campaign import auctions, settings_service
from campaign.models import Auction, AuctionStatus, Campaign, Captain, EntryKind, LedgerEntry
from strategic_map import calendar, tick
from strategic_map.models import CampaignDay
from tests.campaign.auction_tables import SWIFTWOOD_PRICE, bid, land
from tests.campaign.auction_tables import table as auction_table

pytestmark = pytest.mark.django_db

RESERVE = SWIFTWOOD_PRICE // 2


@pytest.fixture
def table():
    found = auction_table()
    Campaign.objects.filter(pk=found["campaign"].pk).update(day=4)  # the campaign is on day 4
    found["campaign"].refresh_from_db()
    return found


def day_of(table) -> int:
    return Campaign.objects.get(pk=table["campaign"].pk).day


def status(auction: Auction) -> str:
    return Auction.objects.get(pk=auction.pk).status


def ledger_of(auction: Auction) -> list[tuple[str, int]]:
    return list(LedgerEntry.objects.filter(auction=auction).order_by("pk").values_list("kind", "amount"))


@pytest.mark.rule("SGC-AUCT-01")
def test_an_auction_landed_on_day_d_closes_at_the_tick_of_d_plus_its_days_not_before_and_the_crown_buys(table):
    auction = land(table)
    assert auction.closes_on_day == 4 + 2
    assert tick.campaign_tick(campaign_id=table["campaign"].pk) == [5]
    assert status(auction) == AuctionStatus.OPEN  # the tick of day 5 is not its closing day
    with pytest.raises(ValidationError, match="runs until the end of day 6"):
        auctions.auction_close(auction_id=auction.pk)

    assert tick.campaign_tick(campaign_id=table["campaign"].pk) == [6]
    closed = Auction.objects.get(pk=auction.pk)
    # No bid: the crown buys at the reserve, half her price, and the captor has his tenth (SGC-AUCT-01/02).
    assert (closed.status, closed.winner, closed.price) == (AuctionStatus.CLOSED, None, RESERVE)
    assert ledger_of(auction) == [(EntryKind.PRIZE_SHARE, RESERVE // 10)]


@pytest.mark.rule("SGC-AUCT-01", "SGC-AUCT-02")
def test_the_held_bid_wins_at_the_closing_tick_and_bids_are_taken_until_then(table):
    auction = land(table)
    tick.campaign_tick(campaign_id=table["campaign"].pk)  # day 5
    bid(table, auction, "bob", RESERVE + 100)
    bid(table, auction, "carol", RESERVE + 200)
    tick.campaign_tick(campaign_id=table["campaign"].pk)  # day 6: the close
    closed = Auction.objects.get(pk=auction.pk)
    assert (closed.winner, closed.price) == (table["captains"]["carol"], RESERVE + 200)
    with pytest.raises(ValidationError, match="is closed"):
        bid(table, auction, "bob", RESERVE + 300)


def test_a_prize_landed_during_the_tick_of_day_d_closes_at_the_tick_of_d_plus_its_days(table):
    """The arrival that lands a prize runs inside the tick of day 5 (its CampaignDay open): day 5 is its day."""
    CampaignDay.objects.create(campaign=table["campaign"], day=5)
    auction = land(table)
    assert auction.closes_on_day == 7


def test_the_closing_step_run_again_closes_nothing_twice(table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 100)
    campaign_id = table["campaign"].pk
    assert auctions.auctions_close_due(campaign_id=campaign_id, day=5) == 0
    assert auctions.auctions_close_due(campaign_id=campaign_id, day=6) == 1
    entries = ledger_of(auction)
    assert auctions.auctions_close_due(campaign_id=campaign_id, day=6) == 0
    auctions.auction_close(auction_id=auction.pk, day=6)
    assert ledger_of(auction) == entries
    assert [kind for kind, _ in entries].count(EntryKind.AUCTION_PURCHASE) == 1
    assert [kind for kind, _ in entries].count(EntryKind.PRIZE_SHARE) == 1


def test_a_paused_campaigns_auction_stays_open_however_long_real_time_runs(table):
    campaign = table["campaign"]
    auction = land(table)
    Campaign.objects.filter(pk=campaign.pk).update(paused=True, next_tick_at=timezone.now() - timedelta(days=30))
    long_after = timezone.now() + timedelta(days=365)
    assert campaign.pk not in [due.pk for due in calendar.campaigns_due(long_after)]
    Auction.objects.filter(pk=auction.pk).update(closes_at=timezone.now() - timedelta(days=3))  # its old estimate
    bid(table, auction, "bob", RESERVE + 100)  # still taken: the day has not come
    assert status(auction) == AuctionStatus.OPEN
    assert Captain.objects.get(pk=table["captains"]["bob"].pk).balance == 30_000 - RESERVE - 100


def test_the_room_and_the_api_say_the_closing_day_and_about_when(client, table):
    campaign = table["campaign"]
    at = (timezone.now() + timedelta(days=1)).replace(hour=9, minute=30, second=0, microsecond=0)
    Campaign.objects.filter(pk=campaign.pk).update(next_tick_at=at, hours_per_day=12)
    auction = land(table)
    expected = at + timedelta(hours=12)  # the tick of day 5 at `at`, day 6's half a day later
    assert auction.closes_at == expected
    client.force_login(table["bob"])
    html = client.get(reverse("auction_room", args=["syrtis"])).content.decode()
    words = f"at the end of day 6 (about {expected:%-d %b, %H:%M} UTC)"
    assert f"Closes {words}" in html
    data = client.get(f"/api/auctions/{auction.pk}/").json()
    assert (data["closes_on_day"], data["closes"], data["bidding"]) == (6, words, True)

    Campaign.objects.filter(pk=campaign.pk).update(paused=True)
    html = client.get(reverse("auction_room", args=["syrtis"])).content.decode()
    assert "at the end of day 6 (the campaign is paused" in html


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("auction_days", 0, "An auction runs from 1 to 28 campaign days."),
        ("auction_days", 29, "An auction runs from 1 to 28 campaign days."),
        ("trek_days_per_roll", 0, "An epic trek rolls once every 1 to 28 campaign days."),
        ("encounter_battle_days", 40, "An encounter's battle is fought within 1 to 28 campaign days."),
        ("encounter_battle_turns", 41, "An encounter's battle is expected to take from 1 to 40 turns."),
    ],
)
def test_the_clocks_settings_are_checked_with_a_message_in_words(table, setting, value, message):
    with pytest.raises(ValidationError) as refused:
        settings_service.campaign_update_settings(
            campaign_id=table["campaign"].pk, umpire=table["umpire"], changes={setting: value}, reason="Faster"
        )
    assert refused.value.message_dict == {setting: [message]}


def test_the_migration_gives_an_open_auction_the_first_tick_at_or_after_its_old_deadline(table):
    """campaign 0017: an auction opened by real time closes at the tick at or after its old deadline."""
    migration = importlib.import_module("campaign.migrations.0017_auctions_on_the_campaign_clock")
    at = (timezone.now() + timedelta(hours=3)).replace(microsecond=0)
    Campaign.objects.filter(pk=table["campaign"].pk).update(next_tick_at=at, hours_per_day=24)
    auction = land(table)
    done = land(table, name="Sister")
    Auction.objects.filter(pk=auction.pk).update(closes_on_day=None, closes_at=at + timedelta(hours=30))
    Auction.objects.filter(pk=done.pk).update(closes_on_day=None, status=AuctionStatus.CLOSED, price=1)
    migration.closing_days(django_apps, None)
    # Day 5 ticks at `at`, day 6 a day later, day 7 the first tick past the old deadline (30 hours after `at`).
    auction.refresh_from_db()
    assert (auction.closes_on_day, auction.closes_at) == (7, at + timedelta(days=2))
    assert Auction.objects.get(pk=done.pk).closes_on_day is None  # a closed auction keeps its history
