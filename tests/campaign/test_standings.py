"""The leaderboard, the wealth chart's series and the winner (campaign/standings.py, SGC-WIN)."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign import captains, ledger, standings
from campaign.models import CampaignShip, EntryKind, Role, ShipStatus, WinnerBy
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


def prize(captain, status: str) -> CampaignShip:
    return CampaignShip.objects.create(
        campaign=captain.campaign,
        name=f"Prize {status}",
        record={},
        original_price=1,
        status=status,
        captured_by=captain,
    )


@pytest.mark.rule("SGC-WIN-01")
def test_the_leaderboard_ranks_by_money_then_prizes_and_counts_only_prizes_brought_in():
    campaign, (a, b, c) = fleet_of_captains(3)
    earn(b, 5_000, 3)
    prize(a, ShipStatus.CROWN)
    prize(a, ShipStatus.LOST)  # lost on the way home
    prize(c, ShipStatus.PRIZE)
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
