"""JSON API for epic treks (``api/campaigns/<slug>/treks/``, ``api/treks/<id>/``, its ``route/`` and ``home/``).
A player reads his own captains' treks, the umpire every trek of his campaign; anything else answers 404. Only the
captain's player chooses the route (403 for the umpire); a route the party cannot walk is a 400 with the reason."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from battles.engine.hexgrid import Hex
from campaign.captain_api import ServiceApi
from campaign.selectors import campaign_for_user
from config.api import StrictRequestSerializer
from strategic_map import mapdata, trek_rules, trek_selectors, treks
from strategic_map.models import EpicTrek, TrekRoll, TrekStatus


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def _label(q: int, r: int) -> str:
    return mapdata.mars_map().hex_at(q, r).label


class TrekSerializer(serializers.ModelSerializer[EpicTrek]):
    captain = serializers.CharField(source="captain.name", read_only=True)
    hex = serializers.SerializerMethodField()
    weeks = serializers.IntegerField(read_only=True)
    # Plain text, not an enum: several models have a "status" and the schema's enum names would collide.
    status = serializers.CharField(read_only=True, help_text="under_way, safe, captured or perished")

    class Meta:
        model = EpicTrek
        fields: tuple[str, ...] = (
            "id",
            "captain",
            "captain_id",
            "cause",
            "status",
            "started_day",
            "ended_day",
            "q",
            "r",
            "hex",
            "party_start",
            "party",
            "weeks",
            "route",
            "end_city",
        )
        read_only_fields: tuple[str, ...] = fields

    def get_hex(self, trek: EpicTrek) -> str:
        return _label(trek.q, trek.r)


class TrekRollSerializer(serializers.ModelSerializer[TrekRoll]):
    hex = serializers.SerializerMethodField()
    die = serializers.IntegerField(source="roll.result", read_only=True)
    words = serializers.CharField(source="note", read_only=True)
    allegiance = serializers.CharField(read_only=True, help_text="friendly, neutral or hostile")

    class Meta:
        model = TrekRoll
        fields = ("seq", "day", "q", "r", "hex", "row", "allegiance", "die", "result", "losses", "party_after", "words")
        read_only_fields = fields

    def get_hex(self, roll: TrekRoll) -> str:
        return _label(roll.q, roll.r)


class WayHomeSerializer(serializers.Serializer[Any]):
    city = serializers.CharField()
    route = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class TrekDetailSerializer(TrekSerializer):
    rolls = serializers.SerializerMethodField()
    way_home = serializers.SerializerMethodField()

    class Meta(TrekSerializer.Meta):
        fields = (*TrekSerializer.Meta.fields, "rolls", "way_home")
        read_only_fields = fields

    @extend_schema_field(TrekRollSerializer(many=True))
    def get_rolls(self, trek: EpicTrek) -> list[dict[str, Any]]:
        return list(TrekRollSerializer(trek_selectors.trek_rolls(trek=trek), many=True).data)

    @extend_schema_field(WayHomeSerializer(allow_null=True))
    def get_way_home(self, trek: EpicTrek) -> dict[str, Any] | None:
        if trek.status != TrekStatus.UNDER_WAY:
            return None
        home = trek_rules.way_home(mapdata.mars_map(), Hex(trek.q, trek.r))
        return {"city": home.city, "route": treks.route_to_json(home.path)}


class RouteSerializer(StrictRequestSerializer):
    route = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        max_length=trek_rules.MAX_ROUTE,
        allow_empty=True,
    )


class TrekListApi(ServiceApi):
    @extend_schema(operation_id="treks_list", responses=TrekSerializer(many=True), tags=["treks"])
    def get(self, request: Request, slug: str) -> Response:
        campaign = campaign_for_user(user=_user(request), slug=slug)
        found = trek_selectors.treks_for_user(user=_user(request), campaign=campaign)
        return Response(TrekSerializer(found, many=True).data)


class TrekDetailApi(ServiceApi):
    @extend_schema(operation_id="treks_retrieve", responses=TrekDetailSerializer, tags=["treks"])
    def get(self, request: Request, trek_id: int) -> Response:
        trek = trek_selectors.trek_for_user(user=_user(request), trek_id=trek_id)
        return Response(TrekDetailSerializer(trek).data)


class TrekRouteApi(ServiceApi):
    @extend_schema(operation_id="treks_route", request=RouteSerializer, responses=TrekDetailSerializer, tags=["treks"])
    def patch(self, request: Request, trek_id: int) -> Response:
        trek = trek_selectors.trek_for_user(user=_user(request), trek_id=trek_id)
        given = RouteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        treks.trek_route_set(trek_id=trek.pk, user=_user(request), route=given.validated_data["route"])
        return Response(TrekDetailSerializer(trek_selectors.trek_for_user(user=_user(request), trek_id=trek.pk)).data)


class TrekHomeApi(ServiceApi):
    @extend_schema(operation_id="treks_home", request=None, responses=TrekDetailSerializer, tags=["treks"])
    def post(self, request: Request, trek_id: int) -> Response:
        trek = trek_selectors.trek_for_user(user=_user(request), trek_id=trek_id)
        treks.trek_route_home(trek_id=trek.pk, user=_user(request))
        return Response(TrekDetailSerializer(trek_selectors.trek_for_user(user=_user(request), trek_id=trek.pk)).data)
