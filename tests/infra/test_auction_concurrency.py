"""Prize auctions under real row locking on PostgreSQL: many captains bidding on one auction at once, one captain
spending the same balance on several auctions at once, and the close raced against itself and against the last
bids. Never an overspent bank, never a lost bid (every accepted bid is held, released or won, and the one left
held is the highest accepted), never two winners, never a deadlock."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.db.models import Sum
from django.utils import timezone

from campaign import auctions, captains, ledger
from campaign.models import (
    Auction,
    AuctionStatus,
    Bid,
    BidStatus,
    CampaignShip,
    Captain,
    EntryKind,
    LedgerEntry,
    Role,
    ShipStatus,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 12


@pytest.fixture(autouse=True)
def slow_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the window between reading an auction's state and locking the captains' banks, as a slow database
    would: without the auction's row lock two bids would then both beat the same highest bid."""
    lock_captains = ledger.lock_captains

    def slowly(ids):
        time.sleep(random.random() / 100)
        return lock_captains(ids)

    monkeypatch.setattr(ledger, "lock_captains", slowly)


def race(work: Callable[[int], object], count: int) -> list[object]:
    start = threading.Barrier(count)

    def run(i: int) -> object:
        start.wait()
        try:
            return work(i)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def table(players: int, *, price: int = 40_000, prizes: int = 1):
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    found = []
    for i in range(players):
        player = UserFactory(username=f"player{i}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name=f"Captain {i}"))
    lots = []
    for n in range(prizes):
        ship = CampaignShip.objects.create(
            campaign=campaign,
            name=f"Warm Winds {n}",
            record={},
            original_price=price,
            status=ShipStatus.PRIZE,
            captured_by=found[0],
        )
        lots.append(auctions.prize_land(ship_id=ship.pk, city="Parhoon")[0])
    return found, lots


def place(captain: Captain, auction: Auction, amount: int) -> Bid | None:
    try:
        return auctions.bid_place(auction_id=auction.pk, captain_id=captain.pk, user=captain.player, amount=amount)
    except ValidationError:
        return None


def assert_no_bid_lost(auction: Auction, accepted: list[Bid]) -> None:
    stored = {bid.pk: bid for bid in Bid.objects.filter(auction=auction)}
    assert sorted(stored) == sorted(bid.pk for bid in accepted)
    leaders = [bid for bid in stored.values() if bid.status in (BidStatus.HELD, BidStatus.WON)]
    assert len(leaders) == 1
    assert leaders[0].amount == max(bid.amount for bid in accepted)
    for bid in stored.values():
        holds = LedgerEntry.objects.filter(
            auction=auction, captain_id=bid.captain_id, idempotency_key=f"bid:{bid.pk}:hold"
        )
        releases = LedgerEntry.objects.filter(idempotency_key=f"bid:{bid.pk}:release", captain_id=bid.captain_id)
        assert holds.get().amount == -bid.amount
        assert releases.count() == (0 if bid.status == BidStatus.HELD else 1)


def test_captains_bidding_on_one_auction_at_once_never_overspend_and_never_lose_a_bid():
    found, (lot,) = table(4)  # 30,000 each; reserve 20,000

    def bidder(i: int) -> list[Bid]:
        rng = random.Random(i)
        captain = found[i % len(found)]
        placed = []
        for _ in range(6):
            highest = Bid.objects.filter(auction=lot, status=BidStatus.HELD).values_list("amount", flat=True).first()
            bid = place(captain, lot, max(highest or 0, 20_000) + rng.randrange(1, 10) * 100)
            if bid is not None:
                placed.append(bid)
        return placed

    accepted = [bid for placed in race(bidder, RACERS) for bid in placed]

    assert accepted
    assert_no_bid_lost(lot, accepted)
    held = Bid.objects.get(auction=lot, status=BidStatus.HELD)
    total = Captain.objects.aggregate(total=Sum("balance"))["total"]
    assert total + held.amount == 4 * 30_000  # money is only ever in a bank or in escrow
    assert Captain.objects.filter(balance__lt=0).count() == 0
    assert ledger.check_campaign(found[0].campaign) == 4


def test_one_captain_bidding_on_several_auctions_at_once_never_spends_more_than_he_has():
    found, lots = table(2, prizes=4, price=20_000)  # reserve 10,000
    spender = found[1]  # 30,000: room for two bids of 12,000, not three

    def bidder(i: int) -> bool:
        return place(spender, lots[i % len(lots)], 12_000 + i) is not None

    outcomes = race(bidder, 8)

    assert outcomes.count(True) >= 2  # a raise of his own bid on the same auction may also be taken
    spender.refresh_from_db()
    holding = Bid.objects.filter(captain=spender, status=BidStatus.HELD)
    assert holding.count() == 2  # two of his bids fit in his bank, never a third
    held = holding.aggregate(total=Sum("amount"))["total"]
    assert spender.balance == 30_000 - held
    assert spender.balance >= 0
    ledger.check(spender)


def test_the_close_raced_against_itself_and_the_last_bids_makes_one_winner_and_takes_no_late_bid():
    found, (lot,) = table(4)
    # The tick of the closing day comes in 1.5 seconds: every closer runs the tick's auction step then, at once.
    closing_day = found[0].campaign.day + 1
    Auction.objects.filter(pk=lot.pk).update(closes_on_day=closing_day)
    tick_at = timezone.now() + timedelta(seconds=1.5)

    def work(i: int) -> list[Bid]:
        rng = random.Random(i)
        placed: list[Bid] = []
        if i % 2:  # a closer: the tick's step, run by several workers at once
            while timezone.now() < tick_at:
                time.sleep(0.05)
            auctions.auctions_close_due(campaign_id=lot.campaign_id, day=closing_day)
            return placed
        captain = found[i % len(found)]
        while timezone.now() < tick_at + timedelta(seconds=0.3):  # a bidder: on until past the tick
            bid = place(captain, lot, 20_000 + rng.randrange(1, 100) * 100)
            if bid is not None:
                placed.append(bid)
            time.sleep(rng.random() / 20)
        return placed

    accepted = [bid for placed in race(work, RACERS) for bid in placed]

    lot.refresh_from_db()
    assert lot.status == AuctionStatus.CLOSED
    assert lot.closed_at is not None
    assert all(bid.created_at < lot.closed_at for bid in accepted)  # none taken after the close
    assert not Bid.objects.filter(auction=lot, status=BidStatus.HELD).exists()
    if accepted:
        assert_no_bid_lost(lot, accepted)
        winner = Bid.objects.get(auction=lot, status=BidStatus.WON)
        assert (lot.winner_id, lot.price) == (winner.captain_id, winner.amount)
    assert LedgerEntry.objects.filter(auction=lot, kind=EntryKind.AUCTION_PURCHASE).count() == (1 if accepted else 0)
    assert LedgerEntry.objects.filter(auction=lot, kind=EntryKind.PRIZE_SHARE).count() == 1
    total = Captain.objects.aggregate(total=Sum("balance"))["total"]
    share = lot.price // 10
    assert total == 4 * 30_000 - (lot.price if accepted else 0) + share
    assert ledger.check_campaign(found[0].campaign) == 4
