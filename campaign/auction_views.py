"""The auction room (SGC-AUCT, SGC-CARGO): the campaign's prizes and cargoes under the hammer, a bid form per lot
for each of the player's captains, the captor's outright purchase, and the umpire's landing of a prize.

Thin: campaign.auction_selectors reads (sealed bids already hidden from everyone but their bidder and the
umpire), campaign.auctions writes. A service's refusal comes back as a message in its own words. Each lot's
highest bid is a small partial that HTMX polls every few seconds; it answers 204 while nothing a member may see
has changed, so a second browser sees a new high bid without reloading, and the page reloads itself once the
lot closes.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from battles.engine.words import possessive
from campaign import auction_selectors, auctions, economy
from campaign.auction_selectors import AuctionView, LotShip
from campaign.map_link import the_map
from campaign.models import AuctionStatus, AuctionStyle, Campaign, Captain, LotKind, Membership
from campaign.refusals import refusal_words
from campaign.selectors import membership_for_user

# The largest bid a form takes: far above any prize, well inside the database's integers.
MAX_BID = 10**12


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


class BidForm(forms.Form):
    captain = forms.IntegerField()
    amount = forms.IntegerField(min_value=1, max_value=MAX_BID)
    idempotency_key = forms.CharField(max_length=120, required=False)


class BuyForm(forms.Form):
    captain = forms.IntegerField()


class LandForm(forms.Form):
    ship = forms.IntegerField()
    city = forms.CharField(max_length=60)


def friendly_cities() -> list[str]:
    """The cities with a prize court (the map's friendly cities), Parhoon first."""
    names = [city.name for city in the_map().cities() if city.friendly]
    return sorted(names, key=lambda name: (name != "Parhoon", name))


@dataclass(frozen=True)
class Lot:
    """One auction as the room shows it: the selector's view, her ship, and what this user may do."""

    view: AuctionView
    ship: LotShip
    closes_in: str
    token: str
    may_buy: bool
    buy_net_cost: int
    bidding: bool  # open, and the campaign not past the closing day

    @property
    def sealed(self) -> bool:
        return self.view.style == AuctionStyle.SEALED

    @property
    def min_bid(self) -> int:
        """The least bid the service takes now, as far as this viewer may know: above the reserve, and in an open
        auction above the highest bid."""
        return max(self.view.reserve, self.view.highest_bid or 0) + 1

    @property
    def is_cargo(self) -> bool:
        return self.view.lot == LotKind.CARGO


def live_token(view: AuctionView, closes_in: str) -> str:
    """A digest of everything the live partial shows this viewer: equal digests mean nothing new to show."""
    seen = (
        view.status,
        view.highest_bid,
        view.highest_bidder,
        view.winner,
        view.price,
        view.bought_outright,
        tuple((bid.captain, bid.amount, bid.status) for bid in view.bids),
        closes_in,
    )
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


def _lot(view: AuctionView, ship: LotShip, user: User) -> Lot:
    closes_in = view.closes  # the campaign day it closes at the end of (campaign.auctions), and about when
    bidding = view.bidding
    return Lot(
        view=view,
        ship=ship,
        closes_in=closes_in,
        token=live_token(view, closes_in),
        may_buy=bidding and view.lot == LotKind.SHIP and ship.captor_player_id == user.pk,
        buy_net_cost=economy.own_prize_net_cost(view.reserve),
        bidding=bidding,
    )


def _room(request: HttpRequest, membership: Membership) -> HttpResponse:
    user, campaign = _user(request), membership.campaign
    ships = auction_selectors.lot_ships(campaign=campaign)
    lots = [
        _lot(view, ships[view.id], user)
        for view in auction_selectors.auctions_for_membership(user=user, membership=membership)
    ]
    bidders = list(auction_selectors.bidding_captains(user=user, campaign=campaign))
    escrow = auction_selectors.escrow_by_captain(captains=bidders)
    context = {
        "campaign": campaign,
        "membership": membership,
        "open_lots": [lot for lot in lots if lot.view.status == AuctionStatus.OPEN],
        "closed_lots": [lot for lot in lots if lot.view.status == AuctionStatus.CLOSED],
        "bidders": [(captain, escrow.get(captain.pk, 0)) for captain in bidders],
        "new_key": uuid.uuid4().hex,
        "prizes": list(auction_selectors.prizes_to_land(campaign=campaign)) if membership.is_umpire else [],
        "cities": friendly_cities() if membership.is_umpire else [],
    }
    return render(request, "campaign/auctions.html", context)


@login_required
@require_GET
def auction_room(request: HttpRequest, slug: str) -> HttpResponse:
    return _room(request, membership_for_user(user=_user(request), slug=slug))


@login_required
@require_GET
def auction_live(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One lot's highest bid and deadline for HTMX polling: 204 while the viewer's token still holds; the lot
    re-rendered when it has moved on; a reload of the whole page once it has closed (its forms are done)."""
    user = _user(request)
    membership = membership_for_user(user=user, slug=slug)
    view = auction_selectors.auction_for_membership(user=user, membership=membership, auction_id=pk)
    closes_in = view.closes
    token = live_token(view, closes_in)
    if token == request.GET.get("v"):
        return HttpResponse(status=204)
    if view.status == AuctionStatus.CLOSED and request.headers.get("HX-Request"):
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        return response
    lot = Lot(
        view=view,
        ship=LotShip(class_name="", damage="", captor_id=None, captor_player_id=None),
        closes_in=closes_in,
        token=token,
        may_buy=False,
        buy_net_cost=0,
        bidding=view.bidding,
    )
    bidders = list(auction_selectors.bidding_captains(user=user, campaign=membership.campaign))
    escrow = auction_selectors.escrow_by_captain(captains=bidders)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "lot": lot,
        "oob": True,
        "bidders": [(captain, escrow.get(captain.pk, 0)) for captain in bidders],
    }
    return render(request, "campaign/_auction_live.html", context)


def _back(campaign: Campaign, pk: int | None = None) -> HttpResponse:
    anchor = f"#auction-{pk}" if pk is not None else ""
    return redirect(reverse("auction_room", kwargs={"slug": campaign.slug}) + anchor)


def _captain_name(campaign: Campaign, captain_id: int) -> str:
    captain = Captain.objects.filter(pk=captain_id, campaign=campaign).only("name").first()
    return captain.name if captain is not None else "?"


@login_required
@require_POST
def auction_bid_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    user = _user(request)
    membership = membership_for_user(user=user, slug=slug)
    auction_selectors.auction_in_campaign(campaign=membership.campaign, auction_id=pk)
    form = BidForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"A bid needs your captain and a whole number of pounds, up to £{MAX_BID:,}.")
        return _back(membership.campaign, pk)
    data = form.cleaned_data
    try:
        bid = auctions.bid_place(
            auction_id=pk,
            captain_id=data["captain"],
            user=user,
            amount=data["amount"],
            idempotency_key=data["idempotency_key"] or "",
        )
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        # Worded the same whether it leads or not: in a sealed auction that is the secret.
        name = _captain_name(membership.campaign, bid.captain_id)
        messages.success(request, f"Captain {possessive(name)} bid of £{bid.amount:,} is in, held in escrow.")
    return _back(membership.campaign, pk)


@login_required
@require_POST
def auction_buy_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    user = _user(request)
    membership = membership_for_user(user=user, slug=slug)
    auction_selectors.auction_in_campaign(campaign=membership.campaign, auction_id=pk)
    form = BuyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the captain who took the prize.")
        return _back(membership.campaign, pk)
    try:
        auction = auctions.prize_buy_outright(auction_id=pk, captain_id=form.cleaned_data["captain"], user=user)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        messages.success(
            request,
            f"The {auction.ship.name} is yours for £{auction.price or 0:,}, "
            f"a tenth of it back as the captor's share (SGC-AUCT-03/04).",
        )
    return _back(membership.campaign, pk)


@login_required
@require_POST
def auction_land_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The umpire brings a captured ship into a friendly city: she and her cargo go under the hammer."""
    membership = membership_for_user(user=_user(request), slug=slug)
    campaign = membership.campaign
    if not membership.is_umpire:
        messages.error(request, "Only the umpire brings prizes in to the prize court.")
        return _back(campaign)
    form = LandForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the prize and the friendly city she is brought into.")
        return _back(campaign)
    ship = auction_selectors.prizes_to_land(campaign=campaign).filter(pk=form.cleaned_data["ship"]).first()
    if ship is None:
        messages.error(request, "That ship is not a prize of this campaign awaiting sale.")
        return _back(campaign)
    try:
        landed = auctions.prize_land(ship_id=ship.pk, city=form.cleaned_data["city"])
    except ValidationError as error:
        messages.error(request, refusal_words(error))
        return _back(campaign)
    if all(auction.status == AuctionStatus.CLOSED for auction in landed):
        messages.success(request, f"The {ship.name} is landed; with no rival bidder the crown buys her.")
    else:
        messages.success(request, f"The {ship.name} is landed and under the hammer.")
    return _back(campaign, landed[0].pk)
