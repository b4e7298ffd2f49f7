"""JSON API for the Parhoon yard: what it builds (``api/yard/classes/``), a design's rating with no side effects
(``api/yard/quote/``), buying or commissioning a ship (``api/captains/<id>/ships/``), and a ship with her record and
repair bill, her repairs, refits and sale (``api/ships/<id>/...``).

Thin over campaign.yard (writes) and campaign.yard_selectors (reads). Another player's captain or ship answers
404 (captain_selectors), a service's refusal 400 with its reason (config.api.api_exception_handler); the
umpire may read a ship but only her captain's player orders work on her (403).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from campaign import captain_selectors, yard
from campaign import yard_selectors as sel
from campaign.captain_api import ServiceApi
from campaign.models import CampaignShip, ShipStatus
from config.api import StrictRequestSerializer


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class NumberOrText(serializers.Field[Any, Any, Any, Any]):
    """A speed: a number, or "K" for a kite (rolled each turn)."""

    def to_representation(self, value: Any) -> Any:
        return value


class ViolationSerializer(serializers.Serializer[Any]):
    clause = serializers.CharField()
    field = serializers.CharField()
    message = serializers.CharField()


class ClassOfferSerializer(serializers.Serializer[Any]):
    class_id = serializers.CharField()
    name = serializers.CharField()
    propulsion = serializers.CharField()
    hull_size = serializers.IntegerField()
    price = serializers.IntegerField()
    buildable = serializers.BooleanField()
    problems = ViolationSerializer(many=True)
    tonnage = serializers.IntegerField()
    speed = NumberOrText()
    max_altitude = serializers.CharField()
    crew = serializers.IntegerField()
    guns = serializers.ListField(child=serializers.CharField())


class VerdictSerializer(serializers.Serializer[Any]):
    buildable = serializers.BooleanField()
    price = serializers.IntegerField()
    problems = ViolationSerializer(many=True)


class QuoteRequestSerializer(StrictRequestSerializer):
    design = serializers.DictField(help_text="A design in the rater's JSON format (docstring of design.py).")


class QuoteSerializer(serializers.Serializer[Any]):
    input_errors = serializers.ListField(child=serializers.CharField())
    rating = serializers.DictField(allow_null=True, help_text="The engine's rating (null when it cannot be rated).")
    parhoon = VerdictSerializer(allow_null=True)


class BuySerializer(StrictRequestSerializer):
    name = serializers.CharField(max_length=80)
    class_id = serializers.CharField(max_length=80, required=False)
    design = serializers.DictField(required=False, help_text="A design to commission instead of a catalog class.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("class_id" in attrs) == ("design" in attrs):
            raise serializers.ValidationError("Name a catalog class (class_id) or give a design, one of the two.")
        return attrs


class RepairLineSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    what = serializers.CharField()
    clause = serializers.CharField()
    quantity = serializers.IntegerField()
    unit_price = serializers.IntegerField()
    price = serializers.IntegerField()
    # DRF's metaclass takes declared fields off the class, so this does not shadow Serializer.partial.
    partial = serializers.BooleanField()  # type: ignore[assignment]
    available = serializers.BooleanField()
    why_not = serializers.CharField()


class RepairBillSerializer(serializers.Serializer[Any]):
    lines = RepairLineSerializer(many=True)
    cleared = serializers.ListField(child=serializers.CharField())
    total = serializers.IntegerField()


class ShipDetailSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    captain = serializers.IntegerField(allow_null=True)
    class_id = serializers.CharField()
    design = serializers.DictField(allow_null=True)
    status = serializers.CharField(help_text="in_port, at_sea, in_battle, prize, crown, sold or lost")
    city = serializers.CharField()
    crew_quality = serializers.CharField()
    original_crew = serializers.IntegerField()
    original_price = serializers.IntegerField()
    hull_price = serializers.IntegerField()
    coal_days = serializers.IntegerField(allow_null=True)
    cargo_tons = serializers.IntegerField()
    record = serializers.DictField(help_text="The engine's ship record, damage and all.")
    bill = RepairBillSerializer(allow_null=True, help_text="None for a ship lost or sold: no yard mends her")
    sale_price = serializers.IntegerField(allow_null=True, help_text="What the Parhoon yard would pay; null if gone.")


class RepairSerializer(StrictRequestSerializer):
    lines = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        allow_null=True,
        help_text='Bill line keys ("hull:3" for part of a line); omitted or null: every line Parhoon can do.',
    )
    idempotency_key = serializers.CharField(max_length=100)


class RefitSerializer(StrictRequestSerializer):
    changes = serializers.ListField(
        child=serializers.DictField(),
        help_text='{"action": "add", "weapon", "mount", "turret_armor"?}, {"action": "remove", "gun"}, '
        '{"action": "replace", "gun", "weapon", "mount"?, "turret_armor"?}',
    )


def ship_data(ship: CampaignShip) -> dict[str, Any]:
    bill = None if ship.status in sel.GONE_FROM_THE_YARD else sel.repair_bill(ship)
    return {
        "id": ship.pk,
        "name": ship.name,
        "captain": ship.captain_id,
        "class_id": ship.class_id,
        "design": ship.design,
        "status": ship.status,
        "city": ship.city,
        "crew_quality": ship.crew_quality,
        "original_crew": ship.original_crew,
        "original_price": ship.original_price,
        "hull_price": ship.hull_price,
        "coal_days": ship.coal_days,
        "cargo_tons": ship.cargo_tons,
        "record": ship.record,
        "bill": bill.to_json() if bill is not None else None,
        "sale_price": sel.sale_price(ship, bill) if bill is not None and ship.status == ShipStatus.IN_PORT else None,
    }


def _ship_response(ship: CampaignShip, *, code: int = status.HTTP_200_OK) -> Response:
    return Response(ShipDetailSerializer(ship_data(ship)).data, status=code)


class YardClassesApi(ServiceApi):
    @extend_schema(operation_id="yard_classes", responses=ClassOfferSerializer(many=True), tags=["yard"])
    def get(self, request: Request) -> Response:
        _user(request)
        offers = [offer.to_json() for offer in sel.parhoon_catalog()]
        return Response(ClassOfferSerializer(offers, many=True).data)


class YardQuoteApi(ServiceApi):
    @extend_schema(operation_id="yard_quote", request=QuoteRequestSerializer, responses=QuoteSerializer, tags=["yard"])
    def post(self, request: Request) -> Response:
        _user(request)
        given = QuoteRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        return Response(QuoteSerializer(sel.design_quote(given.validated_data["design"])).data)


class CaptainShipsApi(ServiceApi):
    @extend_schema(
        operation_id="captains_ships_create",
        request=BuySerializer,
        responses={201: ShipDetailSerializer},
        tags=["yard"],
    )
    def post(self, request: Request, captain_id: int) -> Response:
        captain = captain_selectors.captain_for_user(user=_user(request), captain_id=captain_id)
        given = BuySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        if "class_id" in data:
            ship = yard.ship_buy_class(
                captain_id=captain.pk, user=_user(request), class_id=data["class_id"], name=data["name"]
            )
        else:
            ship = yard.ship_commission_design(
                captain_id=captain.pk, user=_user(request), design=data["design"], name=data["name"]
            )
        return _ship_response(ship, code=status.HTTP_201_CREATED)


class ShipDetailApi(ServiceApi):
    @extend_schema(operation_id="ships_retrieve", responses=ShipDetailSerializer, tags=["yard"])
    def get(self, request: Request, ship_id: int) -> Response:
        return _ship_response(captain_selectors.ship_for_user(user=_user(request), ship_id=ship_id))


class ShipRepairApi(ServiceApi):
    @extend_schema(operation_id="ships_repair", request=RepairSerializer, responses=ShipDetailSerializer, tags=["yard"])
    def post(self, request: Request, ship_id: int) -> Response:
        ship = captain_selectors.ship_for_user(user=_user(request), ship_id=ship_id)
        given = RepairSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ship = yard.ship_repair(
            ship_id=ship.pk,
            user=_user(request),
            lines=given.validated_data.get("lines"),
            idempotency_key=given.validated_data["idempotency_key"],
        )
        return _ship_response(ship)


class ShipRefitApi(ServiceApi):
    @extend_schema(operation_id="ships_refit", request=RefitSerializer, responses=ShipDetailSerializer, tags=["yard"])
    def post(self, request: Request, ship_id: int) -> Response:
        ship = captain_selectors.ship_for_user(user=_user(request), ship_id=ship_id)
        given = RefitSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ship = yard.ship_refit(ship_id=ship.pk, user=_user(request), changes=given.validated_data["changes"])
        return _ship_response(ship)


class ShipSellApi(ServiceApi):
    @extend_schema(operation_id="ships_sell", request=None, responses=ShipDetailSerializer, tags=["yard"])
    def post(self, request: Request, ship_id: int) -> Response:
        ship = captain_selectors.ship_for_user(user=_user(request), ship_id=ship_id)
        return _ship_response(yard.ship_sell(ship_id=ship.pk, user=_user(request)))
