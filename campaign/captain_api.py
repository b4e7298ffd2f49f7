"""JSON API for captains, their books and the standings (``api/campaigns/<slug>/captains/``, ``api/captains/<id>/``,
``api/campaigns/<slug>/standings/``). A player's queryset is his own captains; another's answers 404; the umpire
sees all. Services refuse bad input with Django's ValidationError, answered here as 400 with the message."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from campaign import captain_selectors, captains, standings
from campaign.models import CampaignShip, Captain, CaptainStatus, ChronicleEntry, LedgerEntry
from campaign.selectors import campaign_for_user, membership_for_user
from config.api import StrictRequestSerializer

LEDGER_LIMIT = 500


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


class ServiceApi(APIView):
    """An API view over the campaign's services. Their Django ValidationError (the caller's mistake) is a 400 with
    the messages, never a 500: config.api.api_exception_handler, the API's handler."""


class ShipSerializer(serializers.ModelSerializer[CampaignShip]):
    class Meta:
        model = CampaignShip
        fields = (
            "id",
            "name",
            "class_id",
            "status",
            "city",
            "crew_quality",
            "original_crew",
            "coal_days",
            "cargo_tons",
        )
        read_only_fields = fields


class CaptainSerializer(serializers.ModelSerializer[Captain]):
    player = serializers.CharField(source="player.username", read_only=True)

    class Meta:
        model = Captain
        fields: tuple[str, ...] = (
            "id",
            "name",
            "player",
            "status",
            "city",
            "balance",
            "advance_owed",
            "fame_weeks",
            "voyages",
        )
        read_only_fields: tuple[str, ...] = fields


class CaptainDetailSerializer(CaptainSerializer):
    ships = serializers.SerializerMethodField()

    class Meta(CaptainSerializer.Meta):
        fields = (*CaptainSerializer.Meta.fields, "ships")
        read_only_fields = fields

    def get_ships(self, captain: Captain) -> list[dict[str, Any]]:
        return list(ShipSerializer(captain_selectors.captain_ships(captain=captain), many=True).data)


class LedgerEntrySerializer(serializers.ModelSerializer[LedgerEntry]):
    class Meta:
        model = LedgerEntry
        fields = ("id", "day", "kind", "amount", "balance_after", "memo", "reason", "ship", "auction", "created_at")
        read_only_fields = fields


class FoundSerializer(StrictRequestSerializer):
    name = serializers.CharField(max_length=80)


class AdjustSerializer(StrictRequestSerializer):
    amount = serializers.IntegerField()
    reason = serializers.CharField(max_length=300)


class StatusSerializer(StrictRequestSerializer):
    status = serializers.ChoiceField(choices=CaptainStatus.choices)
    reason = serializers.CharField(max_length=300)
    city = serializers.CharField(max_length=60, required=False, default="")


class ChronicleSerializer(serializers.ModelSerializer[ChronicleEntry]):
    class Meta:
        model = ChronicleEntry
        fields = ("day", "kind", "text", "created_at")
        read_only_fields = fields


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 for the first: by the campaign's winning criterion")
    name = serializers.CharField()
    player = serializers.CharField()
    money = serializers.IntegerField()
    prizes = serializers.IntegerField()
    fame_weeks = serializers.IntegerField()
    status = serializers.CharField(help_text="What every member is told: Alive, On an epic trek, Dead or Captive")


class StandingsSerializer(serializers.Serializer[Any]):
    leaderboard = StandingSerializer(many=True)
    winner = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    ranked_by = serializers.CharField()
    wealth = serializers.DictField(
        child=serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    )
    chronicle = ChronicleSerializer(many=True)


class CaptainListApi(ServiceApi):
    @extend_schema(operation_id="captains_list", responses=CaptainSerializer(many=True), tags=["captains"])
    def get(self, request: Request, slug: str) -> Response:
        campaign = campaign_for_user(user=_user(request), slug=slug)
        found = captain_selectors.captains_for_user(user=_user(request), campaign=campaign)
        return Response(CaptainSerializer(found, many=True).data)

    @extend_schema(
        operation_id="captains_found", request=FoundSerializer, responses={201: CaptainSerializer}, tags=["captains"]
    )
    def post(self, request: Request, slug: str) -> Response:
        campaign = campaign_for_user(user=_user(request), slug=slug)
        given = FoundSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        captain = captains.captain_found(campaign=campaign, user=_user(request), name=given.validated_data["name"])
        return Response(CaptainSerializer(captain).data, status=status.HTTP_201_CREATED)


class CaptainDetailApi(ServiceApi):
    @extend_schema(operation_id="captains_retrieve", responses=CaptainDetailSerializer, tags=["captains"])
    def get(self, request: Request, captain_id: int) -> Response:
        captain = captain_selectors.captain_for_user(user=_user(request), captain_id=captain_id)
        return Response(CaptainDetailSerializer(captain).data)


class CaptainLedgerApi(ServiceApi):
    @extend_schema(operation_id="captains_ledger", responses=LedgerEntrySerializer(many=True), tags=["captains"])
    def get(self, request: Request, captain_id: int) -> Response:
        captain = captain_selectors.captain_for_user(user=_user(request), captain_id=captain_id)
        entries = captain_selectors.captain_ledger(captain=captain)[:LEDGER_LIMIT]
        return Response(LedgerEntrySerializer(entries, many=True).data)


class CaptainAdjustApi(ServiceApi):
    @extend_schema(
        operation_id="captains_adjust", request=AdjustSerializer, responses=CaptainSerializer, tags=["captains"]
    )
    def post(self, request: Request, captain_id: int) -> Response:
        captain = captain_selectors.captain_for_user(user=_user(request), captain_id=captain_id)
        given = AdjustSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        captain = captains.captain_adjust_money(captain_id=captain.pk, umpire=_user(request), **given.validated_data)
        return Response(CaptainSerializer(captain).data)


class CaptainStatusApi(ServiceApi):
    @extend_schema(
        operation_id="captains_status", request=StatusSerializer, responses=CaptainSerializer, tags=["captains"]
    )
    def post(self, request: Request, captain_id: int) -> Response:
        captain = captain_selectors.captain_for_user(user=_user(request), captain_id=captain_id)
        given = StatusSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        captain = captains.captain_set_status(captain_id=captain.pk, umpire=_user(request), **given.validated_data)
        return Response(CaptainSerializer(captain).data)


class StandingsApi(ServiceApi):
    @extend_schema(operation_id="campaigns_standings", responses=StandingsSerializer, tags=["campaigns"])
    def get(self, request: Request, slug: str) -> Response:
        membership = membership_for_user(user=_user(request), slug=slug)
        campaign = membership.campaign
        verdict = standings.winner(campaign=campaign)
        data = {
            "leaderboard": [vars(row) for row in standings.leaderboard(campaign=campaign)],
            "winner": verdict.winner,
            "reason": verdict.reason,
            "ranked_by": standings.ranked_by(campaign),
            "wealth": {k: [list(p) for p in v] for k, v in standings.wealth_over_time(campaign=campaign).items()},
            "chronicle": captain_selectors.chronicle(membership=membership)[:200],
        }
        return Response(StandingsSerializer(data).data)
