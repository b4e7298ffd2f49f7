"""The leaderboard, the wealth chart's series and the winner (campaign/standings.py, SGC-WIN)."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.utils import timezone

from campaign import captains, chart, ledger, standings
from campaign.models import (
    Auction,
    CampaignShip,
    Captain,
    CaptainStatus,
    EntryKind,
    LotKind,
    Role,
    ShipStatus,
    WinnerBy,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def fleet_of_captains(count: int, **settings):
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, **settings)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    found = []
    for i in range(count):
        player = UserFactory(username=f"player{i}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name=f"Hand {i}"))
    return campaign, found


def earn(captain, amount: int, day: int) -> None:
    campaign = captain.campaign
    campaign.day = day
    campaign.save(update_fields=["day"])
    with transaction.atomic():
        ledger.post(ledger.lock_captain(captain.pk), amount, EntryKind.PRIZE_SHARE)


def prize(captain, status: str, *, landed: bool = True) -> CampaignShip:
    """A prize the captain took; ``landed``: brought to a friendly city, her ship and her cargo at auction."""
    ship = CampaignShip.objects.create(
        campaign=captain.campaign,
        name=f"Prize {status} {landed}",
        record={},
        original_price=1,
        status=status,
        captured_by=captain,
    )
    if landed:
        for lot in (LotKind.SHIP, LotKind.CARGO):
            Auction.objects.create(
                campaign=captain.campaign, ship=ship, lot=lot, captor=captain, reserve=1, closes_at=timezone.now()
            )
    return ship


@pytest.mark.rule("SGC-WIN-01")
def test_the_leaderboard_ranks_by_money_then_prizes_and_counts_only_prizes_landed():
    campaign, (a, b, c) = fleet_of_captains(3)
    earn(b, 5_000, 3)
    prize(a, ShipStatus.CROWN)
    prize(a, ShipStatus.LOST, landed=False)  # lost on the way home
    prize(b, ShipStatus.PRIZE, landed=False)  # in tow, at sea
    prize(c, ShipStatus.PRIZE)  # landed, awaiting sale
    prize(c, ShipStatus.IN_PORT)  # bought back by her captor

    board = standings.leaderboard(campaign=campaign)

    assert [(s.name, s.money, s.prizes) for s in board] == [
        ("Hand 1", 35_000, 0),
        ("Hand 2", 30_000, 2),
        ("Hand 0", 30_000, 1),
    ]


def test_the_leaderboard_and_the_chart_take_one_query_however_many_captains(django_assert_num_queries):
    campaign, _found = fleet_of_captains(2)
    with django_assert_num_queries(1):
        standings.leaderboard(campaign=campaign)
    with django_assert_num_queries(1):
        standings.wealth_over_time(campaign=campaign)
    more, many = fleet_of_captains_more(campaign, 6)
    for captain in many:
        earn(captain, 100, 2)
    with django_assert_num_queries(1):
        assert len(standings.leaderboard(campaign=more)) == 8
    with django_assert_num_queries(1):
        assert len(standings.wealth_over_time(campaign=more)) == 8


def fleet_of_captains_more(campaign, count: int):
    found = []
    for i in range(count):
        player = UserFactory(username=f"late{i}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name=f"Latecomer {i}"))
    return campaign, found


def test_the_chart_has_each_captains_balance_at_the_end_of_each_day():
    campaign, (a, _b) = fleet_of_captains(2)
    earn(a, 1_000, 2)
    earn(a, 2_000, 2)
    earn(a, 500, 5)
    series = standings.wealth_over_time(campaign=campaign)
    assert series["Hand 0"] == [(0, 30_000), (2, 33_000), (5, 33_500)]
    assert series["Hand 1"] == [(0, 30_000)]


@pytest.mark.rule("SGC-WIN-02")
def test_with_a_time_limit_the_richest_wins_when_it_comes():
    campaign, (_a, b) = fleet_of_captains(2, time_limit_weeks=2, winner_by=WinnerBy.MONEY)
    earn(b, 1_000, 13)
    assert standings.winner(campaign=campaign).winner is None
    campaign.day = 14
    campaign.save()
    verdict = standings.winner(campaign=campaign)
    assert verdict.winner == "Hand 1"
    assert "2-week limit" in verdict.reason


@pytest.mark.rule("SGC-WIN-03")
def test_with_a_money_goal_the_first_to_reach_it_wins():
    campaign, (a, b) = fleet_of_captains(2, money_goal=40_000, winner_by=WinnerBy.GOAL)
    assert standings.winner(campaign=campaign).winner is None
    earn(b, 10_000, 3)
    earn(a, 20_000, 4)
    assert standings.winner(campaign=campaign).winner == "Hand 1"


@pytest.mark.rule("SGC-WIN-04", "SGC-WIN-05")
def test_an_epic_trek_longer_than_the_time_limit_wins_outright():
    campaign, (a, b) = fleet_of_captains(2, time_limit_weeks=3, winner_by=WinnerBy.MONEY)
    campaign.day = 21
    campaign.save()
    earn(b, 50_000, 21)
    a.fame_weeks = 4
    a.save()
    verdict = standings.winner(campaign=campaign)
    assert verdict.winner == "Hand 0"
    assert "epic trek of 4 weeks" in verdict.reason


def fall(captain, status: str = CaptainStatus.LOST) -> None:
    Captain.objects.filter(pk=captain.pk).update(status=status)


@pytest.mark.rule("SGC-WIN-01", "SGC-WIN-02")
def test_the_living_rank_above_the_dead_and_the_captive_by_default_and_by_money_when_the_umpire_says_so():
    campaign, (a, b, _c, d) = fleet_of_captains(4, time_limit_weeks=1, winner_by=WinnerBy.MONEY)
    assert campaign.rank_dead_below_living
    earn(a, 9_000, 7)
    earn(b, 5_000, 7)
    fall(a)  # the richest, dead
    fall(b, CaptainStatus.CAPTURED)
    fall(d, CaptainStatus.TREKKING)  # walking home: alive
    earn(d, 1_000, 7)
    campaign.refresh_from_db()  # day 7: the one-week limit has come

    board = standings.leaderboard(campaign=campaign)
    assert [(s.rank, s.name, s.money, s.status) for s in board] == [
        (1, "Hand 3", 31_000, "On an epic trek"),
        (2, "Hand 2", 30_000, "Alive"),
        (3, "Hand 0", 39_000, "Dead"),
        (4, "Hand 1", 35_000, "Captive"),
    ]
    verdict = standings.winner(campaign=campaign)
    assert verdict.winner == "Hand 3"  # the verdict is the board's first
    assert "the living above the dead" in standings.ranked_by(campaign)

    campaign.rank_dead_below_living = False
    campaign.save()
    assert [s.name for s in standings.leaderboard(campaign=campaign)] == [
        "Hand 0",
        "Hand 1",
        "Hand 3",
        "Hand 2",
    ]
    assert standings.winner(campaign=campaign).winner == "Hand 0"
    assert "dead" not in standings.ranked_by(campaign)


@pytest.mark.rule("SGC-WIN-03")
def test_with_a_money_goal_the_first_to_reach_it_ranks_first_though_another_is_richer_now():
    campaign, (a, b, _c) = fleet_of_captains(3, money_goal=40_000, winner_by=WinnerBy.GOAL)
    earn(b, 10_000, 3)  # first to £40,000
    earn(a, 20_000, 4)  # there later, and richer
    board = standings.leaderboard(campaign=campaign)
    assert [s.name for s in board] == ["Hand 1", "Hand 0", "Hand 2"]
    assert standings.winner(campaign=campaign).winner == board[0].name
    fall(b)  # dead after he won: the goal was reached, the campaign won
    assert standings.leaderboard(campaign=campaign)[0].name == "Hand 1"
    assert standings.winner(campaign=campaign).winner == "Hand 1"


@pytest.mark.rule("SGC-WIN-03", "SGC-AUCT-02")
def test_money_held_in_escrow_counts_toward_the_goal():
    campaign, (a, b) = fleet_of_captains(2, money_goal=40_000, winner_by=WinnerBy.GOAL)
    with transaction.atomic():
        # a bid in escrow, as campaign.auctions holds it
        ledger.post(ledger.lock_captain(a.pk), -25_000, EntryKind.ESCROW_HOLD)
    earn(a, 10_000, 2)  # his fortune is £40,000, his bank £15,000
    earn(b, 10_000, 3)
    with transaction.atomic():
        ledger.post(ledger.lock_captain(a.pk), 25_000, EntryKind.ESCROW_RELEASE)
    assert standings.winner(campaign=campaign).winner == "Hand 0"
    assert [s.name for s in standings.leaderboard(campaign=campaign)] == ["Hand 0", "Hand 1"]


@pytest.mark.rule("SGC-WIN-04")
def test_a_trek_longer_than_the_limit_ranks_first_but_not_while_he_walks_or_once_he_is_dead():
    campaign, (a, b) = fleet_of_captains(2, time_limit_weeks=3, winner_by=WinnerBy.MONEY)
    earn(b, 50_000, 2)
    Captain.objects.filter(pk=a.pk).update(fame_weeks=4)
    assert [s.name for s in standings.leaderboard(campaign=campaign)] == ["Hand 0", "Hand 1"]
    fall(a, CaptainStatus.TREKKING)
    assert [s.name for s in standings.leaderboard(campaign=campaign)] == ["Hand 1", "Hand 0"]
    fall(a)
    assert [s.name for s in standings.leaderboard(campaign=campaign)] == ["Hand 1", "Hand 0"]


def test_the_chart_writes_its_pounds_short_and_keeps_its_legend_outside_the_drawing():
    assert [chart.pounds_short(m) for m in (0, 750, 2_000, 500_000, 1_200_000, 10_000_000)] == [
        "£0",
        "£750",
        "£2k",
        "£500k",
        "£1.2M",
        "£10M",
    ]
    series = {f"Captain {'x' * 70} {n}": [(0, 30_000), (3, 30_000 + n * 1_000)] for n in range(9)}
    svg = str(chart.wealth_chart_svg(series, today=5))
    drawing, legend = svg.split("</svg>")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", drawing)
    assert texts
    assert all(t.startswith(("£", "day ")) for t in texts)  # no name is drawn as text: it would be cut off
    assert legend.count("<li>") == 9
    assert legend.count("wealth-legend__swatch--dashed") == 1  # the ninth line is dashed: eight colours
    assert drawing.count('stroke-dasharray="6 3"') == 1
