"""Reads for prize auctions, as a member of the campaign may see them (DESIGN.md section 5).

A player sees every auction of his campaign: the lot, the crown's reserve, the deadline. In an open auction he
also sees the highest bid and its bidder. In a sealed one he sees only his own bids, and not whether they lead:
"sealed" is all a bid says until the close, when the winner and the winning price are told to everyone. The
umpire, who runs the auctions, sees every bid. A campaign the user is not in answers 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet, Sum
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from campaign.map_link import the_map
from campaign.models import (
    CAPTAIN_AWAY,
    Auction,
    AuctionStatus,
    AuctionStyle,
    Bid,
    BidStatus,
    Campaign,
    CampaignShip,
    Captain,
    Membership,
    Role,
    ShipStatus,
)
from galleons.record import ShipRecord

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
    closes_at: datetime  # when the tick of closes_on_day is expected (campaign.auctions)
    closes_on_day: int | None
    closes: str  # "at the end of day 5 (about 28 Nov, 20:00 UTC)"
    bidding: bool  # open, and the campaign not yet past the closing day
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


_ASK = object()


def tick_expected_at(campaign: Campaign, day: int, *, now: datetime, next_tick: object = _ASK) -> datetime:
    """When the tick that runs ``day`` is expected: the next tick (day campaign.day + 1) when the calendar has it
    (its extensions too; ``next_tick`` if the caller read it already), now if it is overdue, and each later day
    ``hours_per_day`` after. A paused or unscheduled campaign is reckoned as if its next tick were a day away."""
    step = timedelta(hours=max(campaign.hours_per_day, 1))
    if next_tick is _ASK:
        next_tick = the_map().next_tick_at(campaign)
    assert next_tick is None or isinstance(next_tick, datetime)
    start = now + step if next_tick is None else max(next_tick, now)
    return start + step * max(day - campaign.day - 1, 0)


def closing_words(campaign: Campaign, day: int, *, expected: datetime) -> str:
    """When an open auction closes, in the room's words: the day, and about when its tick comes."""
    if campaign.paused:
        return f"at the end of day {day} (the campaign is paused: the auction stays open until its clock runs)"
    return f"at the end of day {day} (about {expected:%-d %b, %H:%M} UTC)"


def _view(
    auction: Auction, bids: list[Bid], *, user: User, umpire: bool, next_ticks: dict[int, datetime | None]
) -> AuctionView:
    closed = auction.status == AuctionStatus.CLOSED
    campaign, now = auction.campaign, timezone.now()
    day = auction.closes_on_day
    if closed:
        closes_at, closes = auction.closed_at or auction.closes_at, "closed"
    elif day is None:  # not on the clock (an auction made by hand): its stored time is all there is
        closes_at, closes = auction.closes_at, f"about {auction.closes_at:%-d %b, %H:%M} UTC"
    else:
        if campaign.pk not in next_ticks:
            next_ticks[campaign.pk] = the_map().next_tick_at(campaign)
        closes_at = tick_expected_at(campaign, day, now=now, next_tick=next_ticks[campaign.pk])
        closes = closing_words(campaign, day, expected=closes_at)
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
        closes_at=closes_at,
        closes_on_day=day,
        closes=closes,
        bidding=not closed and (day is None or campaign.day < day),
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
    rows = list(auctions.select_related("campaign", "ship", "captor", "winner"))
    bids: dict[int, list[Bid]] = {auction.pk: [] for auction in rows}
    for bid in Bid.objects.filter(auction__in=rows).select_related("captain").order_by("pk"):
        bids[bid.auction_id].append(bid)
    next_ticks: dict[int, datetime | None] = {}  # one calendar read per campaign, not per lot
    return [_view(auction, bids[auction.pk], user=user, umpire=umpire, next_ticks=next_ticks) for auction in rows]


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


def auctions_due(*, campaign_id: int, day: int) -> list[int]:
    """The campaign's open auctions whose closing day is ``day`` or earlier, in pk order: the tick's work."""
    return list(
        Auction.objects.filter(campaign_id=campaign_id, status=AuctionStatus.OPEN, closes_on_day__lte=day)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


# --- for the auction room's pages ---------------------------------------------------------------------------------

# Bids whose money is still in escrow (as campaign.auctions counts them).
_IN_ESCROW = (BidStatus.HELD, BidStatus.SEALED)


@dataclass(frozen=True)
class LotShip:
    """What every member may know of a lot's ship: she is on show at the auction, damage and all."""

    class_name: str
    damage: str
    captor_id: int | None
    captor_player_id: int | None


def damage_summary(record: Any, original_crew: int = 0) -> str:
    """The prize's damage in a line: hull boxes hit, guns destroyed, men aboard of her original crew. A record
    the engine cannot read says so rather than failing the page."""
    try:
        sheet = ShipRecord.from_json(record)
    except (ValueError, KeyError, TypeError):
        return "record sheet unreadable"
    parts = [f"hull {sheet.hull_hits} of {sheet.hull_boxes} boxes hit" if sheet.hull_hits else "hull whole"]
    destroyed = sum(1 for gun in sheet.guns if gun.destroyed)
    if destroyed:
        parts.append(f"{destroyed} gun{'s' if destroyed != 1 else ''} destroyed")
    men = sheet.men_alive
    parts.append(f"{men} of {original_crew} men" if original_crew else f"{men} men")
    return ", ".join(parts)


def _class_name(record: Any, class_id: str) -> str:
    """The class as the catalog spells it (CampaignShip.class_name)."""
    return CampaignShip(record=record, class_id=class_id).class_name


def lot_ships(*, campaign: Campaign, auction_id: int | None = None) -> dict[int, LotShip]:
    """Each of the campaign's auctions' ship (or the one auction's), by auction id, in one query however many."""
    auctions = Auction.objects.filter(campaign=campaign)
    if auction_id is not None:
        auctions = auctions.filter(pk=auction_id)
    rows = auctions.values_list(
        "pk", "ship__record", "ship__class_id", "ship__original_crew", "captor_id", "captor__player_id"
    )
    return {
        pk: LotShip(
            class_name=_class_name(record, class_id),
            damage=damage_summary(record, original_crew),
            captor_id=captor_id,
            captor_player_id=captor_player_id,
        )
        for pk, record, class_id, original_crew, captor_id, captor_player_id in rows
    }


def auctions_for_membership(*, user: User, membership: Membership) -> list[AuctionView]:
    """The member's campaign's auctions as he may see them, the open first and the soonest to close first: as
    auctions_for_member, for a caller who has his membership already (one query fewer)."""
    auctions = Auction.objects.filter(campaign_id=membership.campaign_id).order_by("status", "closes_at", "pk")
    return _views(auctions, user=user, umpire=membership.role == Role.UMPIRE)


def auction_for_membership(*, user: User, membership: Membership, auction_id: int) -> AuctionView:
    """One auction of the member's campaign as he may see it; Http404 for another campaign's (or none). Two
    queries, however many bids: what the auction room's live partial polls."""
    auctions = Auction.objects.filter(pk=auction_id, campaign_id=membership.campaign_id)
    views = _views(auctions, user=user, umpire=membership.role == Role.UMPIRE)
    if not views:
        raise Http404("No such auction.")
    return views[0]


def auction_in_campaign(*, campaign: Campaign, auction_id: int) -> Auction:
    """The campaign's auction of this id; Http404 for another campaign's (or none)."""
    auction = Auction.objects.filter(pk=auction_id, campaign=campaign).first()
    if auction is None:
        raise Http404("No such auction.")
    return auction


def own_captain(*, user: User, campaign: Campaign, captain_id: int) -> Captain:
    """The user's own captain of this id in this campaign; Http404 for anyone else's (the umpire's included: he
    runs the auction and bids for nobody)."""
    captain = Captain.objects.filter(pk=captain_id, campaign=campaign, player=user).first()
    if captain is None:
        raise Http404("No such captain.")
    return captain


def bidding_captains(*, user: User, campaign: Campaign) -> QuerySet[Captain]:
    """The user's captains who may bid: his own, and only while he can reach the prize court (not lost, retired,
    captured or on an epic trek: campaign.auctions refuses their bids)."""
    return (
        Captain.objects.filter(campaign=campaign, player=user).exclude(status__in=CAPTAIN_AWAY).order_by("name", "pk")
    )


def prizes_to_land(*, campaign: Campaign) -> QuerySet[CampaignShip]:
    """Captured ships not yet brought to auction: what the umpire may land."""
    return (
        CampaignShip.objects.filter(campaign=campaign, status=ShipStatus.PRIZE, captured_by__isnull=False)
        .filter(auctions__isnull=True)
        .select_related("captured_by")
        .order_by("name", "pk")
    )


def escrow_held(*, captain: Captain) -> int:
    """The captain's money held in escrow for his bids still standing."""
    total = Bid.objects.filter(captain=captain, status__in=_IN_ESCROW).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


def escrow_by_captain(*, captains: list[Captain]) -> dict[int, int]:
    """The same for several captains, in one query."""
    rows = (
        Bid.objects.filter(captain__in=captains, status__in=_IN_ESCROW)
        .values("captain_id")
        .annotate(total=Sum("amount"))
        .values_list("captain_id", "total")
    )
    return {captain_id: int(total) for captain_id, total in rows}
