"""JSON API for the auction room (``api/campaigns/<slug>/auctions/``, ``api/auctions/<id>/``, its ``bids/`` and
``buy/``). What a member reads is campaign.auction_selectors' view: in a sealed auction another captain's bid,
its amount and whether it leads are never in a response. An auction outside the user's campaigns, or a captain
not his own, answers 404; a bid the service refuses (too low, over the balance, closed) answers 400 with the
reason."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from campaign import auction_selectors, auctions
from campaign.auction_selectors import AuctionView
from campaign.captain_api import ServiceApi
from campaign.models import Auction, AuctionStyle, Campaign, LotKind
from campaign.selectors import campaign_for_user
from config.api import StrictRequestSerializer

# The largest bid taken: far above any prize, well inside the database's integers.
MAX_BID = 10**12


class BidViewSerializer(serializers.Serializer[Any]):
    captain = serializers.CharField()
    amount = serializers.IntegerField()
    status = serializers.CharField(
        help_text="held (the highest, in escrow), outbid (released), won; in a sealed auction until the close, "
        "sealed (in escrow, leading or not)"
    )
    placed_at = serializers.DateTimeField()


class AuctionSerializer(serializers.Serializer[Any]):
    """An auction as the member may see it: a player sees only his own bids, and in a sealed auction each says
    only "sealed" until the close; the umpire sees every bid."""

    id = serializers.IntegerField()
    lot = serializers.ChoiceField(choices=LotKind.choices)
    ship = serializers.CharField()
    class_id = serializers.CharField(allow_blank=True)
    class_name = serializers.CharField()
    damage = serializers.CharField()
    city = serializers.CharField()
    captor = serializers.CharField(allow_null=True)
    # DRF's metaclass takes declared fields off the class, so this does not shadow Field.style at run time.
    style = serializers.ChoiceField(choices=AuctionStyle.choices)  # type: ignore[assignment]
    reserve = serializers.IntegerField()
    cargo_tons = serializers.IntegerField()
    opened_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField(
        help_text="When the tick of the closing day is expected (the close itself, once closed)."
    )
    closes_on_day = serializers.IntegerField(
        allow_null=True, help_text="The campaign day at whose end (its tick) the auction closes."
    )
    closes = serializers.CharField(help_text='In words: "at the end of day 5 (about 28 Nov, 20:00 UTC)", or "closed".')
    bidding = serializers.BooleanField(help_text="Whether bids are taken: open, and its closing day not passed.")
    status = serializers.CharField(help_text="open or closed")
    highest_bid = serializers.IntegerField(allow_null=True)
    highest_bidder = serializers.CharField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    price = serializers.IntegerField(allow_null=True)
    bought_outright = serializers.BooleanField()
    bids = BidViewSerializer(many=True)


class BidRequestSerializer(StrictRequestSerializer):
    captain = serializers.IntegerField(help_text="The id of your captain who bids.")
    amount = serializers.IntegerField(min_value=1, max_value=MAX_BID, help_text="Whole pounds.")
    idempotency_key = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text="The same key again moves no money."
    )


class BuyRequestSerializer(StrictRequestSerializer):
    captain = serializers.IntegerField(help_text="The id of your captain who took the prize.")


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def _data(views: list[AuctionView], campaign: Campaign) -> list[dict[str, Any]]:
    ships = auction_selectors.lot_ships(campaign=campaign, auction_id=views[0].id if len(views) == 1 else None)
    rows = []
    for view in views:
        ship = ships[view.id]
        rows.append({**asdict(view), "class_name": ship.class_name, "damage": ship.damage})
    return list(AuctionSerializer(rows, many=True).data)


def _member_auction(request: Request, auction_id: int) -> tuple[Auction, AuctionView]:
    """The auction and the user's view of it; 404 unless he is a member of its campaign."""
    view = auction_selectors.auction_for_member(user=_user(request), auction_id=auction_id)
    return Auction.objects.select_related("campaign").get(pk=auction_id), view


class AuctionListApi(ServiceApi):
    @extend_schema(operation_id="auctions_list", responses=AuctionSerializer(many=True), tags=["auctions"])
    def get(self, request: Request, slug: str) -> Response:
        campaign = campaign_for_user(user=_user(request), slug=slug)
        views = auction_selectors.auctions_for_member(user=_user(request), campaign=campaign)
        return Response(_data(views, campaign) if views else [])


class AuctionDetailApi(ServiceApi):
    @extend_schema(operation_id="auctions_retrieve", responses=AuctionSerializer, tags=["auctions"])
    def get(self, request: Request, auction_id: int) -> Response:
        auction, view = _member_auction(request, auction_id)
        return Response(_data([view], auction.campaign)[0])


class AuctionBidApi(ServiceApi):
    @extend_schema(
        operation_id="auctions_bid", request=BidRequestSerializer, responses={201: AuctionSerializer}, tags=["auctions"]
    )
    def post(self, request: Request, auction_id: int) -> Response:
        auction, _ = _member_auction(request, auction_id)
        given = BidRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        user = _user(request)
        captain = auction_selectors.own_captain(user=user, campaign=auction.campaign, captain_id=data["captain"])
        auctions.bid_place(
            auction_id=auction.pk,
            captain_id=captain.pk,
            user=user,
            amount=data["amount"],
            idempotency_key=data["idempotency_key"],
        )
        # The auction as the bidder may now see it: in a sealed one his bid says "sealed", leading or not.
        view = auction_selectors.auction_for_member(user=user, auction_id=auction.pk)
        return Response(_data([view], auction.campaign)[0], status=status.HTTP_201_CREATED)


class AuctionBuyApi(ServiceApi):
    @extend_schema(
        operation_id="auctions_buy_outright",
        request=BuyRequestSerializer,
        responses=AuctionSerializer,
        tags=["auctions"],
    )
    def post(self, request: Request, auction_id: int) -> Response:
        auction, _ = _member_auction(request, auction_id)
        given = BuyRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = _user(request)
        captain = auction_selectors.own_captain(
            user=user, campaign=auction.campaign, captain_id=given.validated_data["captain"]
        )
        auctions.prize_buy_outright(auction_id=auction.pk, captain_id=captain.pk, user=user)
        view = auction_selectors.auction_for_member(user=user, auction_id=auction.pk)
        return Response(_data([view], auction.campaign)[0])
