"""JSON API of the encounter reports (``api/campaigns/<slug>/encounters/``, ``api/encounters/<id>/``): what the
requesting member may see, from strategic_map.encounter_selectors (a player his own ships' encounters, the
umpire all); anything else 404."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from campaign.captain_api import ServiceApi
from campaign.selectors import campaign_for_user
from strategic_map import encounter_selectors


class ShipMetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    category = serializers.CharField(help_text="High Martian Pirate, Pirate Ship, Cloud Captain, Warship...")
    class_id = serializers.CharField()
    class_name = serializers.CharField()
    crew_quality = serializers.CharField()
    boarding_quality = serializers.CharField(allow_blank=True)
    high_martian = serializers.BooleanField()
    towed_by = serializers.CharField(allow_blank=True, help_text="The ship towing her, for a prize in tow.")


class EncounterReportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    campaign = serializers.CharField()
    day = serializers.IntegerField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    hex = serializers.CharField(allow_blank=True, help_text="The hex's CCRR label on the map.")
    territory = serializers.CharField()
    result = serializers.CharField(help_text="The encounter table's line.")
    table_die = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    captains = serializers.ListField(child=serializers.CharField())
    our_ships = serializers.ListField(child=serializers.CharField())
    ships_met = ShipMetSerializer(many=True)
    battle_id = serializers.IntegerField(allow_null=True)
    battle_url = serializers.CharField(allow_null=True)


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


class EncounterListApi(ServiceApi):
    @extend_schema(operation_id="encounters_list", responses=EncounterReportSerializer(many=True), tags=["encounters"])
    def get(self, request: Request, slug: str) -> Response:
        user = _user(request)
        campaign = campaign_for_user(user=user, slug=slug)
        reports = encounter_selectors.encounters_for_member(user=user, campaign=campaign)
        return Response(EncounterReportSerializer([asdict(report) for report in reports], many=True).data)


class EncounterDetailApi(ServiceApi):
    @extend_schema(operation_id="encounters_retrieve", responses=EncounterReportSerializer, tags=["encounters"])
    def get(self, request: Request, encounter_id: int) -> Response:
        report = encounter_selectors.encounter_for_member(user=_user(request), encounter_id=encounter_id)
        return Response(EncounterReportSerializer(asdict(report)).data)
