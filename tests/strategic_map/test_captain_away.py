"""A captain who falls or sets out on an epic trek is out of the auction room and off the yard and the voyage
planner until he is back: his bids in escrow come back to his bank in the same transaction (ledger entries), he
cannot bid, and no ship is offered him to sail (strategic_map.arrival, strategic_map.treks, campaign.captains)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign import auctions, captains, ledger
from campaign.models import (
    Auction,
    AuctionStyle,
    Bid,
    BidStatus,
    CampaignShip,
    CaptainStatus,
    EntryKind,
    LedgerEntry,
    LotKind,
    Membership,
    ShipStatus,
)
from strategic_map import map_selectors, treks
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.arrival_fixtures import fates

table = arrival_fixtures.table
fight = arrival_fixtures.fight

pytestmark = pytest.mark.django_db

PIRATE = ("Pirate Ship", "clearsight", "Black Wing", "Trained")
PRIZE_IN_TOW = ("Prize Ship in Tow", "warm_winds", "Golden Dawn", "")


def _drakes_prize(table, *, sealed: bool = False) -> Auction:
    """A small prize of Drake's in the auction room at Parhoon (a real auction: Jack is a rival)."""
    if sealed:
        table.campaign.auction_style = AuctionStyle.SEALED
        table.campaign.save(update_fields=["auction_style"])
    ship = CampaignShip.objects.create(
        campaign=table.campaign,
        name="Little Dart",
        class_id="fleetfoot",
        record={"hull_hits": 0},
        original_price=4_000,
        status=ShipStatus.PRIZE,
        captured_by=table.drake,
    )
    (auction,) = [a for a in auctions.prize_land(ship_id=ship.pk, city="Parhoon") if a.lot == LotKind.SHIP]
    return auction


def _jack_bids(table, auction: Auction, amount: int) -> Bid:
    captains.captain_adjust_money(captain_id=table.jack.pk, umpire=table.umpire, amount=5_000, reason="Prize money")
    return auctions.bid_place(auction_id=auction.pk, captain_id=table.jack.pk, user=table.alice, amount=amount)


def _released(table, bid: Bid) -> None:
    bid.refresh_from_db()
    table.refresh()
    assert bid.status == BidStatus.OUTBID
    release = LedgerEntry.objects.get(captain=table.jack, kind=EntryKind.ESCROW_RELEASE, auction=bid.auction)
    assert release.amount == bid.amount
    assert ledger.check_campaign(table.campaign) == 2  # every captain's balance is his ledger's sum


def test_a_captain_who_falls_in_action_has_his_bids_released_and_bids_no_more(fight, table):
    auction = _drakes_prize(table)
    bid = _jack_bids(table, auction, 2_500)
    table.refresh()
    before = table.jack.balance + 2_500  # his bank with the bid back

    encounter = fight([PIRATE, PRIZE_IN_TOW], seed="arrival-0")
    assert fates(encounter)["Gull"] == "crashed", "the engine changed: pick a seed where the Gull is shot down"

    assert table.jack.status == CaptainStatus.LOST
    _released(table, bid)
    assert table.jack.balance == before
    with pytest.raises(ValidationError, match="lost: he cannot bid"):
        auctions.bid_place(auction_id=auction.pk, captain_id=table.jack.pk, user=table.alice, amount=3_000)


@pytest.mark.rule("SGC-TREK-01")
def test_a_captain_put_over_the_side_walks_home_with_his_bids_released(fight, table):
    auction = _drakes_prize(table)
    bid = _jack_bids(table, auction, 2_500)

    fight([PIRATE], result="Pirate Ship", surrender="british")

    assert table.jack.status == CaptainStatus.TREKKING
    _released(table, bid)
    with pytest.raises(ValidationError, match="on an epic trek: he cannot bid"):
        auctions.bid_place(auction_id=auction.pk, captain_id=table.jack.pk, user=table.alice, amount=3_000)


def test_a_sealed_lead_released_passes_to_the_next_highest_bid(table):
    auction = _drakes_prize(table, sealed=True)
    bid = _jack_bids(table, auction, 2_500)
    captains.captain_adjust_money(captain_id=table.drake.pk, umpire=table.umpire, amount=5_000, reason="Prize money")
    drakes = auctions.bid_place(auction_id=auction.pk, captain_id=table.drake.pk, user=table.bob, amount=2_100)
    assert (Bid.objects.get(pk=bid.pk).status, Bid.objects.get(pk=drakes.pk).status) == ("held", "sealed")

    treks.trek_start(captain_id=table.jack.pk, cause="crash_landing", q=12, r=2, party=5, day=2)

    _released(table, bid)
    drakes.refresh_from_db()
    assert drakes.status == BidStatus.HELD
    closed = auctions.auction_close(auction_id=auction.pk, day=auction.closes_on_day)  # the tick of its day
    assert (closed.winner_id, closed.price) == (table.drake.pk, 2_100)


def test_the_umpire_sending_a_captain_on_a_trek_releases_his_bids_and_audits_it(table):
    auction = _drakes_prize(table)
    bid = _jack_bids(table, auction, 2_500)

    captains.captain_set_status(captain_id=table.jack.pk, umpire=table.umpire, status="captured", reason="Taken")

    _released(table, bid)


def test_no_ship_is_offered_to_sail_nor_built_for_a_captain_on_a_trek(client, table):
    jack = table.jack
    # Home from the voyage, then off again on foot: his Gull lies at Parhoon.
    CampaignShip.objects.filter(pk=table.gull.pk).update(status=ShipStatus.IN_PORT, city="parhoon")
    jack.status, jack.city = CaptainStatus.ASHORE, "parhoon"
    jack.save(update_fields=["status", "city"])
    membership = Membership.objects.get(user=table.alice, campaign=table.campaign)
    assert [s.name for s in map_selectors.own_ships_in_port(membership=membership)] == ["Gull"]

    treks.trek_start(captain_id=jack.pk, cause="crash_landing", q=12, r=2, party=5, day=2)

    assert list(map_selectors.own_ships_in_port(membership=membership)) == []
    client.force_login(table.alice)
    page = client.get(reverse("campaign_map", args=[table.campaign.slug])).content.decode()
    assert 'value="ship:' not in page
    yard = client.get(reverse("captain_yard", args=[jack.pk])).content.decode()
    assert "on an epic trek: the Parhoon yard deals with him when he is ashore at Parhoon" in yard
    assert "captain_yard_buy" not in yard
    assert 'name="class_id"' not in yard


def test_the_auction_room_offers_no_bid_form_for_a_captain_on_a_trek(client, table):
    auction = _drakes_prize(table)
    client.force_login(table.alice)
    room = reverse("auction_room", args=[table.campaign.slug])
    assert f'<option value="{table.jack.pk}">Captain Jack</option>' in client.get(room).content.decode()

    treks.trek_start(captain_id=table.jack.pk, cause="crash_landing", q=12, r=2, party=5, day=2)

    page = client.get(room).content.decode()
    assert f'<option value="{table.jack.pk}">Captain Jack</option>' not in page
    assert auction.pk  # the lot is still open for the others
