"""Reads for prize auctions, as a member of the campaign may see them (DESIGN.md section 5).

A player sees every auction of his campaign: the lot, the crown's reserve, the deadline. In an open auction he
also sees the highest bid and its bidder. In a sealed one he sees only his own bids, and not whether they lead:
"sealed" is all a bid says until the close, when the winner and the winning price are told to everyone. The
umpire, who runs the auctions, sees every bid. A campaign the user is not in answers 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from campaign.models import Auction, AuctionStatus, AuctionStyle, Bid, BidStatus, Campaign, Membership, Role

# What a sealed bid says of itself while the auction is open, whether it leads or not.
SEALED = "sealed"


@dataclass(frozen=True)
class BidView:
    captain: str
    amount: int
    status: str
    placed_at: datetime


@dataclass(frozen=True)
class AuctionView:
    id: int
    lot: str
    ship: str
    class_id: str
    city: str
    captor: str | None
    style: str
    reserve: int
    cargo_tons: int
    opened_at: datetime
    closes_at: datetime
    status: str
    highest_bid: int | None  # open auctions while open; the winning price after the close
    highest_bidder: str | None
    winner: str | None  # after the close; None with a price means the crown bought
    price: int | None
    bought_outright: bool
    bids: tuple[BidView, ...]  # the viewer's own (a player's), or all of them (the umpire's)


def _membership(user: User, campaign: Campaign) -> Membership:
    membership = Membership.objects.filter(user=user, campaign=campaign).first()
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def _view(auction: Auction, bids: list[Bid], *, user: User, umpire: bool) -> AuctionView:
    closed = auction.status == AuctionStatus.CLOSED
    sealed = auction.style == AuctionStyle.SEALED
    if closed:
        top_amount = auction.price
        top_bidder = auction.winner.name if auction.winner is not None else None
    else:
        held = next((bid for bid in bids if bid.status == BidStatus.HELD), None)
        visible = held is not None and (umpire or not sealed)
        top_amount = held.amount if visible and held is not None else None
        top_bidder = held.captain.name if visible and held is not None else None
    shown = bids if umpire else [bid for bid in bids if bid.captain.player_id == user.pk]
    mask = sealed and not closed and not umpire
    return AuctionView(
        id=auction.pk,
        lot=auction.lot,
        ship=auction.ship.name,
        class_id=auction.ship.class_id,
        city=auction.city,
        captor=auction.captor.name if auction.captor is not None else None,
        style=auction.style,
        reserve=auction.reserve,
        cargo_tons=auction.cargo_tons,
        opened_at=auction.opened_at,
        closes_at=auction.closes_at,
        status=auction.status,
        highest_bid=top_amount,
        highest_bidder=top_bidder,
        winner=auction.winner.name if closed and auction.winner is not None else None,
        price=auction.price if closed else None,
        bought_outright=auction.bought_outright,
        bids=tuple(
            BidView(
                captain=bid.captain.name,
                amount=bid.amount,
                status=SEALED if mask and bid.status in (BidStatus.HELD, BidStatus.SEALED) else bid.status,
                placed_at=bid.created_at,
            )
            for bid in sorted(shown, key=lambda bid: bid.pk)
        ),
    )


def _views(auctions: QuerySet[Auction], *, user: User, umpire: bool) -> list[AuctionView]:
    rows = list(auctions.select_related("ship", "captor", "winner"))
    bids: dict[int, list[Bid]] = {auction.pk: [] for auction in rows}
    for bid in Bid.objects.filter(auction__in=rows).select_related("captain").order_by("pk"):
        bids[bid.auction_id].append(bid)
    return [_view(auction, bids[auction.pk], user=user, umpire=umpire) for auction in rows]


def auctions_for_member(*, user: User, campaign: Campaign, open_only: bool = False) -> list[AuctionView]:
    """The campaign's auctions as this member may see them, the soonest to close first."""
    umpire = _membership(user, campaign).role == Role.UMPIRE
    auctions = Auction.objects.filter(campaign=campaign).order_by("status", "closes_at", "pk")
    if open_only:
        auctions = auctions.filter(status=AuctionStatus.OPEN)
    return _views(auctions, user=user, umpire=umpire)


def auction_for_member(*, user: User, auction_id: int) -> AuctionView:
    """One auction as this member may see it; 404 if there is none in a campaign of his."""
    auction = Auction.objects.filter(pk=auction_id).select_related("campaign").first()
    if auction is None:
        raise Http404("No such auction.")
    umpire = _membership(user, auction.campaign).role == Role.UMPIRE
    return _views(Auction.objects.filter(pk=auction.pk), user=user, umpire=umpire)[0]


def auctions_due(*, now: datetime | None = None) -> QuerySet[Auction]:
    """Open auctions whose deadline has passed: the close task's work."""
    return Auction.objects.filter(status=AuctionStatus.OPEN, closes_at__lte=now or timezone.now()).order_by(
        "closes_at", "pk"
    )
