"""The map's JSON API: ``api/campaigns/<slug>/map/`` (the map itself, with this campaign's encounter numbers and
which parts are designed stand-ins) and ``api/campaigns/<slug>/map/positions/`` (what the reader may see on it:
the fog of war of ``strategic_map.map_selectors``). A non-member gets 404 from both."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from strategic_map import map_selectors, mapdata
from strategic_map.drawing import axial_label


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


class MapWithLabel(serializers.Serializer[Any]):
    """Adds the hex's CCRR ``label``: a class attribute of that name would shadow ``Field.label``."""

    label_null = False

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["label"] = serializers.CharField(allow_null=self.label_null, help_text="The hex, CCRR.")
        return fields


# --- the map itself ----------------------------------------------------------------------------------------------


class MapHexSerializer(MapWithLabel):
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    col = serializers.IntegerField()
    row = serializers.IntegerField()
    terrain = serializers.CharField()
    base_terrain = serializers.CharField()
    region = serializers.CharField(allow_null=True)
    territory = serializers.CharField()
    allegiance = serializers.CharField()
    british = serializers.BooleanField()
    city = serializers.CharField(allow_null=True)
    site = serializers.CharField(allow_null=True)
    canal = serializers.CharField(allow_null=True, help_text="grand, petty or null")


class MapTerritorySerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    move_through = serializers.IntegerField(allow_null=True, help_text="Encounter on 1D6 <= this when moving.")
    patrol = serializers.IntegerField(allow_null=True, help_text="Encounter on 1D6 <= this when patrolling.")
    stand_in = serializers.BooleanField()
    note = serializers.CharField(allow_null=True)


class MapCitySerializer(MapWithLabel):
    name = serializers.CharField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    owner = serializers.CharField()
    optional = serializers.BooleanField()
    is_start_city = serializers.BooleanField()


class MapCanalSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    hexes = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class MapProvenanceSerializer(serializers.Serializer[Any]):
    part = serializers.CharField()
    status = serializers.CharField()
    stand_in = serializers.BooleanField()
    note = serializers.CharField()


class MapSerializer(serializers.Serializer[Any]):
    title = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    hex_size_miles = serializers.IntegerField()
    orientation = serializers.CharField()
    wind = serializers.CharField()
    hexes = MapHexSerializer(many=True)
    territories = MapTerritorySerializer(many=True)
    cities = MapCitySerializer(many=True)
    canals = MapCanalSerializer(many=True)
    provenance = MapProvenanceSerializer(many=True)


def _hex_json(h: mapdata.MapHex) -> dict[str, Any]:
    return {
        "q": h.q,
        "r": h.r,
        "col": h.col,
        "row": h.row,
        "label": h.label,
        "terrain": h.terrain,
        "base_terrain": h.base_terrain,
        "region": h.region,
        "territory": h.territory,
        "allegiance": h.allegiance,
        "british": h.british,
        "city": h.city,
        "site": h.site,
        "canal": h.canal_type,
    }


def map_json(sight: map_selectors.MapSight) -> dict[str, Any]:
    """The map as the API and the page's script read it, with this campaign's encounter numbers."""
    mars = mapdata.mars_map()
    territories = []
    for name, territory in mars.territories.items():
        numbers = sight.numbers.get(name)
        territories.append(
            {
                "name": name,
                "move_through": numbers.move_through if numbers else None,
                "patrol": numbers.patrol if numbers else None,
                "stand_in": territory.provenance.is_stand_in,
                "note": territory.note,
            }
        )
    cities = []
    for city in mars.cities:
        where = mars.hex_at_offset(city.col, city.row)
        cities.append(
            {
                "name": city.name,
                "q": where.q,
                "r": where.r,
                "label": city.label,
                "owner": city.owner,
                "optional": city.optional,
                "is_start_city": city.is_start_city,
            }
        )
    canals = [
        {
            "id": canal.id,
            "name": canal.name,
            "type": canal.type,
            "hexes": [list(mars.hex_at_offset(col, row).axial) for col, row in canal.hexes],
        }
        for canal in mars.canals
    ]
    return {
        "title": mars.title,
        "width": mars.width,
        "height": mars.height,
        "hex_size_miles": mars.hex_size_miles,
        "orientation": "flat-top, odd-q offsets; axial q, r",
        "wind": "west",
        "hexes": [_hex_json(h) for h in mars.hexes],
        "territories": territories,
        "cities": cities,
        "canals": canals,
        "provenance": [
            {"part": p.part, "status": p.status, "stand_in": p.is_stand_in, "note": p.note}
            for p in mars.provenance.values()
        ],
    }


class MapApi(APIView):
    @extend_schema(operation_id="campaigns_map", responses=MapSerializer, tags=["map"])
    def get(self, request: Request, slug: str) -> Response:
        sight = map_selectors.map_sight(user=_user(request), slug=slug)
        return Response(map_json(sight))


# --- what the reader may see on it --------------------------------------------------------------------------------


class MapNamedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MapVoyageSerializer(MapWithLabel):
    id = serializers.IntegerField()
    ship = MapNamedSerializer()
    captain = MapNamedSerializer()
    status = serializers.CharField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    plan = serializers.ListField(child=serializers.DictField())
    start_city = serializers.CharField()
    started_day = serializers.IntegerField()


class MapShipInPortSerializer(MapWithLabel):
    label_null = True

    id = serializers.IntegerField()
    name = serializers.CharField()
    captain = MapNamedSerializer(allow_null=True)
    city = serializers.CharField()
    q = serializers.IntegerField(allow_null=True)
    r = serializers.IntegerField(allow_null=True)
    coal_days = serializers.IntegerField(allow_null=True)


class MapEncounterSerializer(MapWithLabel):
    id = serializers.IntegerField()
    day = serializers.IntegerField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    territory = serializers.CharField()
    result = serializers.CharField()
    status = serializers.CharField()
    battle = serializers.IntegerField(allow_null=True)
    ships = serializers.ListField(child=serializers.CharField(), help_text="The reader's own ships in it.")


class MapTrekSerializer(MapWithLabel):
    id = serializers.IntegerField()
    captain = MapNamedSerializer()
    status = serializers.CharField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    party = serializers.IntegerField()
    weeks = serializers.IntegerField()
    route = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class MapPositionsSerializer(serializers.Serializer[Any]):
    day = serializers.IntegerField()
    umpire = serializers.BooleanField()
    voyages = MapVoyageSerializer(many=True)
    ships_in_port = MapShipInPortSerializer(many=True)
    encounters = MapEncounterSerializer(many=True)
    treks = MapTrekSerializer(many=True)


def positions_json(sight: map_selectors.MapSight) -> dict[str, Any]:
    """The overlays one reader may see, as JSON: built only from ``sight`` (already fog-filtered)."""
    ships_in_port = []
    for ship in sight.ships_in_port:
        where = map_selectors.city_hex(ship.city)
        captain = ship.captain
        ships_in_port.append(
            {
                "id": ship.pk,
                "name": ship.name,
                "captain": {"id": captain.pk, "name": captain.name} if captain else None,
                "city": ship.city,
                "q": where.q if where else None,
                "r": where.r if where else None,
                "label": where.label if where else None,
                "coal_days": ship.coal_days,
            }
        )
    return {
        "day": sight.campaign.day,
        "umpire": sight.is_umpire,
        "voyages": [
            {
                "id": v.pk,
                "ship": {"id": v.ship_id, "name": v.ship.name},
                "captain": {"id": v.captain_id, "name": v.captain.name},
                "status": v.status,
                "q": v.q,
                "r": v.r,
                "label": axial_label(v.q, v.r),
                "plan": v.plan if isinstance(v.plan, list) else [],
                "start_city": v.start_city,
                "started_day": v.started_day,
            }
            for v in sight.voyages
        ],
        "ships_in_port": ships_in_port,
        "encounters": [
            {
                "id": e.pk,
                "day": e.day,
                "q": e.q,
                "r": e.r,
                "label": axial_label(e.q, e.r),
                "territory": e.territory,
                "result": e.result,
                "status": e.status,
                "battle": e.battle_id,
                "ships": [v.ship.name for v in getattr(e, "seen_voyages", ())],
            }
            for e in sight.encounters
        ],
        "treks": [
            {
                "id": t.pk,
                "captain": {"id": t.captain_id, "name": t.captain.name},
                "status": t.status,
                "q": t.q,
                "r": t.r,
                "label": axial_label(t.q, t.r),
                "party": t.party,
                "weeks": t.weeks,
                "route": t.route if isinstance(t.route, list) else [],
            }
            for t in sight.treks
        ],
    }


class MapPositionsApi(APIView):
    @extend_schema(operation_id="campaigns_map_positions", responses=MapPositionsSerializer, tags=["map"])
    def get(self, request: Request, slug: str) -> Response:
        sight = map_selectors.map_sight(user=_user(request), slug=slug)
        return Response(positions_json(sight))
