"""A campaign table for the auction room's tests: an umpire and three players, a captain each with the rules'
30,000 pound advance, and a damaged Swiftwood taken by Alice's captain, ready to land."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from campaign import auctions, captains
from campaign.models import Auction, AuctionStyle, Campaign, CampaignShip, LotKind, Role, ShipStatus
from galleons.record import ShipRecord, ship_record_from_class
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

PLAYERS = ("alice", "bob", "carol")
SWIFTWOOD_PRICE = 20_200  # the catalog's Swiftwood: the crown's reserve is half, within an advance
HULL_HITS = 2  # of the three boxes of her top row


def table(*, style: str = AuctionStyle.OPEN, slug: str = "syrtis") -> dict[str, Any]:
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug=slug, auction_style=style)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    found: dict[str, Any] = {"campaign": campaign, "umpire": umpire, "captains": {}}
    for name in PLAYERS:
        player = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found[name] = player
        found["captains"][name] = captains.captain_found(campaign=campaign, user=player, name=name.title())
    return found


def damaged_record(name: str = "Swiftwood") -> dict[str, Any]:
    """A Swiftwood's record sheet after a fight: hull boxes hit on her top row and her first gun destroyed."""
    record = ship_record_from_class("swiftwood", name=name).to_json()
    record["hull_rows"][0]["hits"] = HULL_HITS
    record["guns"][0]["destroyed"] = True
    return record


def prize(
    found: dict[str, Any], *, name: str = "Swiftwood", captor: str = "alice", cargo_tons: int = 0
) -> CampaignShip:
    record = damaged_record(name)
    return CampaignShip.objects.create(
        campaign=found["campaign"],
        name=name,
        class_id="swiftwood",
        record=record,
        original_price=SWIFTWOOD_PRICE,
        original_crew=ShipRecord.from_json(record).men_alive,
        status=ShipStatus.PRIZE,
        captured_by=found["captains"][captor],
        cargo_tons=cargo_tons,
    )


def land(found: dict[str, Any], **kwargs: Any) -> Auction:
    landed = auctions.prize_land(ship_id=prize(found, **kwargs).pk, city="Parhoon")
    return next(auction for auction in landed if auction.lot == LotKind.SHIP)


def bid(found: dict[str, Any], auction: Auction, who: str, amount: int) -> None:
    user: User = found[who]
    auctions.bid_place(auction_id=auction.pk, captain_id=found["captains"][who].pk, user=user, amount=amount)


def deadline_passes(auction: Auction) -> None:
    """The auction's closing day comes: as if the campaign's day were its closing day (campaign.auctions)."""
    Auction.objects.filter(pk=auction.pk).update(closes_on_day=Campaign.objects.get(pk=auction.campaign_id).day)
