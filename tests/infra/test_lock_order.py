"""One lock order for campaign, auction, captain and ship rows, proven on PostgreSQL: a prize's ship lot and
cargo lot closed at the same instant, twenty times, never deadlock, and the money comes out exactly as the
rules pay it (the captor's tenths, the bidder's payments, the crown's purchases)."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from campaign import auctions, captains, economy, ledger
from campaign.models import (
    Auction,
    AuctionStatus,
    CampaignRoll,
    CampaignShip,
    Captain,
    EntryKind,
    LotKind,
    Role,
    ShipStatus,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TRIES = 20
PRICE = 20_000  # the crown pays half: a reserve of 10,000 for the ship
TONS = 4  # a cargo reserve of 4 x 1D6 x 100: at most 2,400


def close_together(first: Auction, second: Auction) -> list[BaseException]:
    """Close both lots at once, each on its own connection: each thread begins its transaction, takes its
    snapshot, and only then waits for the other, so the two closes start locking at the same instant."""
    barrier = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def close(auction: Auction) -> None:
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SELECT 1")  # BEGIN is sent with the first statement: make it now
                barrier.wait()
                auctions.auction_close(auction_id=auction.pk)
        except OperationalError as error:  # psycopg's DeadlockDetected arrives as Django's OperationalError
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=close, args=(lot,)) for lot in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.rule("SGC-AUCT-02", "SGC-CARGO-01", "SGC-CARGO-03")
def test_a_prizes_ship_and_cargo_lots_closed_together_never_deadlock_and_pay_exactly():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    found = []
    for i in range(2):
        player = UserFactory(username=f"player{i}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name=f"Captain {i}"))
    captor, bidder = found
    with transaction.atomic():  # the umpire's purse: enough for every bid of the twenty prizes
        ledger.post(ledger.lock_captain(bidder.pk), 500_000, EntryKind.ADJUSTMENT, memo="Bidding money")
    start = {c.pk: Captain.objects.get(pk=c.pk).balance for c in found}
    # What the rules pay, added up lot by lot: the captor's tenth of every price, the bidder's price and the
    # cargo he sells on, the crown's purchase costing nobody anything.
    expected = dict(start)
    deadlocks: list[BaseException] = []

    for n in range(TRIES):
        ship = CampaignShip.objects.create(
            campaign=campaign,
            name=f"Warm Winds {n}",
            record={},
            original_price=PRICE,
            status=ShipStatus.PRIZE,
            captured_by=captor,
            cargo_tons=TONS,
        )
        lots = {lot.lot: lot for lot in auctions.prize_land(ship_id=ship.pk, city="Parhoon")}
        ship_lot, cargo_lot = lots[LotKind.SHIP], lots[LotKind.CARGO]
        # The cargo always has a bid, so its close rolls the die for the sale on; the ship has one every other
        # prize and goes to the crown otherwise.
        cargo_bid = cargo_lot.reserve + 100
        auctions.bid_place(auction_id=cargo_lot.pk, captain_id=bidder.pk, user=bidder.player, amount=cargo_bid)
        ship_bid = None
        if n % 2 == 0:
            ship_bid = ship_lot.reserve + 500
            auctions.bid_place(auction_id=ship_lot.pk, captain_id=bidder.pk, user=bidder.player, amount=ship_bid)
        # Their closing day comes: both close at its tick (the campaign's day reaches it).
        Auction.objects.filter(pk__in=[ship_lot.pk, cargo_lot.pk]).update(closes_on_day=campaign.day)

        errors = close_together(ship_lot, cargo_lot) if n % 4 < 2 else close_together(cargo_lot, ship_lot)
        deadlocks += errors
        for lot in (ship_lot, cargo_lot):  # a deadlock's victim is closed again, alone, as a retry would
            lot.refresh_from_db()
            if lot.status != AuctionStatus.CLOSED:
                auctions.auction_close(auction_id=lot.pk)

        ship_price = ship_bid if ship_bid is not None else ship_lot.reserve
        resale = CampaignRoll.objects.get(campaign=campaign, purpose__contains=f"(auction {cargo_lot.pk})").result
        expected[captor.pk] += economy.captain_share(ship_price) + economy.cargo_share(cargo_bid)
        expected[bidder.pk] += -cargo_bid + economy.cargo_sale(TONS, resale)
        if ship_bid is not None:
            expected[bidder.pk] -= ship_bid

    assert not deadlocks, f"{len(deadlocks)} of {TRIES} concurrent closes deadlocked: {deadlocks[0]}"
    assert {c.pk: c.balance for c in Captain.objects.filter(campaign=campaign)} == expected
    assert ledger.check_campaign(campaign) == 2
    assert Auction.objects.filter(campaign=campaign, status=AuctionStatus.CLOSED).count() == 2 * TRIES
