"""JSON API for voyages: preview a plan, set out, list, read and re-plan a voyage, and ask for the shortest way.

    POST  api/campaigns/<slug>/voyages/preview/   {"ship", "plan", "voyage"}  -> the plan checked day by day
    POST  api/campaigns/<slug>/voyages/           {"ship", "plan"}            -> 201 the voyage (200: already so)
    GET   api/campaigns/<slug>/voyages/                                       -> own voyages (the umpire: all)
    GET   api/campaigns/<slug>/voyages/route/?ship=&to=q,r | city= | home=1 [&voyage=] -> {"plan": [...]}
    GET   api/voyages/<id>/                                                   -> the voyage
    PATCH api/voyages/<id>/                       {"plan"}                    -> the voyage

A plan day is {"kind": "move", "path": [[q, r], ...]} (the hexes entered, in order) or {"kind": "patrol"}. Fog of
war: another player's voyage or ship answers 404, exactly as one that does not exist. A plan that cannot be
sailed answers 400 {"plan": [messages], "detail": "plan: ..."}; orders the state of things forbids now (already at
sea, not in port, a voyage over) 409 {"detail": "messages"}. Every refusal has its detail in words (config.api).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from campaign import sailing_repairs
from campaign.models import Campaign, CampaignShip
from campaign.selectors import campaign_for_user
from campaign.yard_api import RepairLineSerializer
from config.api import StrictRequestSerializer, api_exception_handler, bounded_int
from strategic_map import voyage_rules, voyage_selectors, voyages
from strategic_map.mapdata import UnknownMapName, mars_map
from strategic_map.models import Voyage, VoyageStatus

MAX_ID = voyage_selectors.MAX_ID
# An id in a query: a whole number a bigint can hold (anything else is a 400, config.api.bounded_int).
ID_PARAMETER = {"type": "integer", "minimum": 1, "maximum": MAX_ID}

# --- shapes ------------------------------------------------------------------------------------------------------


class PlanDaySerializer(serializers.Serializer[Any]):
    """One day of a plan (documentation: the plan itself is checked by strategic_map.voyage_rules)."""

    kind = serializers.ChoiceField(choices=[("move", "Move"), ("patrol", "Patrol")])
    path = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        help_text="A move's hexes entered, in order, each [q, r] (axial) and next to the one before.",
    )


@extend_schema_field(PlanDaySerializer(many=True))
class PlanField(serializers.JSONField):
    """A plan as the player sent it: any JSON, checked day by day with messages the player can act on."""


class HexField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(), min_length=2, max_length=2, **kwargs)


class PreviewRequestSerializer(StrictRequestSerializer):
    ship = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The id of your ship.")
    # Any JSON, as the schema says: the preview's point is to answer what is wrong with a plan (200, valid false,
    # with the reasons), where setting out (PlanField, documented as the days) refuses it with a 400.
    plan = serializers.JSONField(help_text="The plan to check, in any shape: the answer says what is wrong with it.")
    voyage = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="Her voyage under way, to plan from her position.",
    )


class StartRequestSerializer(StrictRequestSerializer):
    ship = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The id of your ship, in port at a city.")
    plan = PlanField()


class PlanRequestSerializer(StrictRequestSerializer):
    plan = PlanField()


class DayCheckSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="The day's place in the plan, from 0.")
    kind = serializers.CharField()
    path = serializers.ListField(child=HexField())
    end = HexField()
    end_label = serializers.CharField(help_text="The map's CCRR label of the hex she ends the day in.")
    territory = serializers.CharField()
    encounter_number = serializers.IntegerField(allow_null=True, help_text="An encounter on 1D6 <= this.")
    encounter_chance = serializers.CharField(help_text='"2 in 6", or "none" where no die is rolled.')
    coal_after = serializers.IntegerField(allow_null=True, help_text="A steam ship's days of coal left after it.")
    allowance = serializers.IntegerField(help_text="Her hexes a day (a kite's points: 1 a hex, 2 against the wind).")
    hexes_used = serializers.IntegerField()
    problems = serializers.ListField(child=serializers.CharField())


class PreviewSerializer(serializers.Serializer[Any]):
    valid = serializers.BooleanField()
    # DRF's metaclass takes declared fields off the class, so these do not shadow Serializer.errors or Field.label
    # at run time.
    errors = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]
    start = HexField()
    days = DayCheckSerializer(many=True)


class NamedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class VoyageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    ship = NamedSerializer()
    captain = NamedSerializer()
    status = serializers.CharField(help_text="under_way, arrived or lost")
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    label = serializers.CharField(help_text="The CCRR label of her hex.")  # type: ignore[assignment]
    plan = PlanDaySerializer(many=True)
    plan_locked_days = serializers.IntegerField(
        help_text="How many days at the head of the plan are past their order deadline: send them back unchanged."
    )
    order_deadline = serializers.DateTimeField(allow_null=True)
    start_city = serializers.CharField()
    end_city = serializers.CharField()
    started_day = serializers.IntegerField()


class SailingRepairsSerializer(serializers.Serializer[Any]):
    paid = serializers.IntegerField(help_text="Pounds paid to the Parhoon yard before she sailed (SGC-MONEY-03).")
    repaired = serializers.ListField(child=serializers.CharField(), help_text="What the yard repaired.")
    left = RepairLineSerializer(many=True, help_text="What stays damaged: the money ran out, or no yard here.")
    words = serializers.CharField(help_text="The same in words (empty: she sails whole).")


class StartedVoyageSerializer(VoyageSerializer):
    repairs = SailingRepairsSerializer(
        help_text="Leaving Parhoon she is first repaired as far as her captain's money goes, hull first "
        "(SGC-MONEY-03/07); from another city she sails as she is (SGC-REPAIR-01)."
    )


class RouteSerializer(serializers.Serializer[Any]):
    plan = PlanDaySerializer(many=True)


# --- helpers -----------------------------------------------------------------------------------------------------


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def voyage_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """A VoyageConflict is 409; any other service refusal 400 with its messages (never a 500)."""
    if isinstance(exc, voyages.VoyageConflict):
        return Response({"detail": " ".join(exc.messages)}, status=status.HTTP_409_CONFLICT)
    return api_exception_handler(exc, context)


class VoyageApiBase(APIView):
    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return voyage_exception_handler


def _label(q: int, r: int) -> str:
    try:
        return mars_map().hex_at(q, r).label
    except UnknownMapName:
        return ""


def voyage_json(voyage: Voyage, *, deadline: Any) -> dict[str, Any]:
    """The voyage as its player (or the umpire) reads it; a voyage over has no deadline and nothing locked."""
    if voyage.status != VoyageStatus.UNDER_WAY:
        deadline = None
    return {
        "id": voyage.pk,
        "ship": {"id": voyage.ship_id, "name": voyage.ship.name},
        "captain": {"id": voyage.captain_id, "name": voyage.captain.name},
        "status": voyage.status,
        "q": voyage.q,
        "r": voyage.r,
        "label": _label(voyage.q, voyage.r),
        "plan": voyage.plan,
        "plan_locked_days": voyage_selectors.locked_days(voyage=voyage, deadline=deadline),
        "order_deadline": deadline,
        "start_city": voyage.start_city,
        "end_city": voyage.end_city,
        "started_day": voyage.started_day,
    }


def _voyage_response(voyage: Voyage, *, code: int = status.HTTP_200_OK) -> Response:
    deadlines = voyage_selectors.order_deadlines(campaign=voyage.campaign, captain_ids=[voyage.captain_id])
    body = voyage_json(voyage, deadline=deadlines[voyage.captain_id])
    return Response(VoyageSerializer(body).data, status=code)


def _campaign_voyage(campaign: Campaign, user: User, voyage_id: object, ship: CampaignShip) -> Voyage:
    """The user's own voyage in this campaign (Http404 otherwise), which must be this ship's (400 otherwise)."""
    voyage = voyage_selectors.voyage_for_user(user=user, voyage_id=voyage_id)
    if voyage.campaign_id != campaign.pk or voyage.captain.player_id != user.pk:
        raise Http404("No such voyage.")
    if voyage.ship_id != ship.pk:
        raise DjangoValidationError({"voyage": f"Voyage {voyage.pk} is not the {possessive(ship.name)}."})
    return voyage


def _start_for(ship: CampaignShip, voyage: Voyage | None) -> voyage_selectors.PlanStart:
    try:
        return voyage_selectors.plan_start(ship=ship, voyage=voyage)
    except ValueError as error:
        raise voyages.VoyageConflict(str(error)) from error


# --- views -------------------------------------------------------------------------------------------------------


class VoyagePreviewApi(VoyageApiBase):
    @extend_schema(
        operation_id="voyages_preview",
        request=PreviewRequestSerializer,
        responses=PreviewSerializer,
        tags=["voyages"],
        description="Check a plan day by day before setting out or re-planning: each day's end, territory, "
        "encounter chance, coal and problems. A bad plan still answers 200, with valid false and its errors.",
    )
    def post(self, request: Request, slug: str) -> Response:
        user = _user(request)
        campaign = campaign_for_user(user=user, slug=slug)
        given = PreviewRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ship = voyage_selectors.own_ship(user=user, campaign=campaign, ship_id=given.validated_data["ship"])
        voyage_id = given.validated_data["voyage"]
        voyage = None if voyage_id is None else _campaign_voyage(campaign, user, voyage_id, ship)
        start = _start_for(ship, voyage)
        check = voyage_selectors.plan_check(
            ship=ship, plan=given.validated_data["plan"], start=start, campaign=campaign
        )
        return Response(PreviewSerializer(check.to_json()).data)


class VoyageListApi(VoyageApiBase):
    @extend_schema(operation_id="voyages_list", responses=VoyageSerializer(many=True), tags=["voyages"])
    def get(self, request: Request, slug: str) -> Response:
        user = _user(request)
        campaign = campaign_for_user(user=user, slug=slug)
        found = list(voyage_selectors.voyages_for_user(user=user, campaign=campaign))
        deadlines = voyage_selectors.order_deadlines(
            campaign=campaign, captain_ids=sorted({voyage.captain_id for voyage in found})
        )
        bodies = [voyage_json(voyage, deadline=deadlines[voyage.captain_id]) for voyage in found]
        return Response(VoyageSerializer(bodies, many=True).data)

    @extend_schema(
        operation_id="voyages_start",
        request=StartRequestSerializer,
        responses={201: StartedVoyageSerializer, 200: StartedVoyageSerializer},
        tags=["voyages"],
        description="Set out from the city she is in port at. A damaged ship leaving Parhoon is first repaired as "
        "far as her captain's money goes (hull boxes, destroyed guns, the rest of the bill, new men last), paid "
        "from his bank; repairs says what was done and what stays damaged. The same orders again answer 200 with "
        "the voyage they started, paying nothing again.",
    )
    def post(self, request: Request, slug: str) -> Response:
        user = _user(request)
        campaign = campaign_for_user(user=user, slug=slug)
        given = StartRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ship = voyage_selectors.own_ship(user=user, campaign=campaign, ship_id=given.validated_data["ship"])
        assert ship.captain_id is not None
        voyage, created = voyages.voyage_start(
            captain_id=ship.captain_id, ship_id=ship.pk, user=user, plan=given.validated_data["plan"]
        )
        voyage = voyage_selectors.voyage_for_user(user=user, voyage_id=voyage.pk)
        deadlines = voyage_selectors.order_deadlines(campaign=voyage.campaign, captain_ids=[voyage.captain_id])
        body = voyage_json(voyage, deadline=deadlines[voyage.captain_id])
        repairs = sailing_repairs.sailing_repairs_paid(
            ship=voyage.ship, voyage_id=voyage.pk, start_city=voyage.start_city
        )
        body["repairs"] = repairs.to_json()
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(StartedVoyageSerializer(body).data, status=code)


class VoyageDetailApi(VoyageApiBase):
    @extend_schema(operation_id="voyages_retrieve", responses=VoyageSerializer, tags=["voyages"])
    def get(self, request: Request, voyage_id: int) -> Response:
        voyage = voyage_selectors.voyage_for_user(user=_user(request), voyage_id=voyage_id)
        return _voyage_response(voyage)

    @extend_schema(
        operation_id="voyages_plan",
        request=PlanRequestSerializer,
        responses=VoyageSerializer,
        tags=["voyages"],
        description="Replace the standing plan. After the next day's order deadline its first day is locked "
        "(plan_locked_days): send it back unchanged, then the new days.",
    )
    def patch(self, request: Request, voyage_id: int) -> Response:
        user = _user(request)
        voyage = voyage_selectors.voyage_for_user(user=user, voyage_id=voyage_id)
        given = PlanRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        voyages.voyage_plan_set(voyage_id=voyage.pk, user=user, plan=given.validated_data["plan"])
        return _voyage_response(voyage_selectors.voyage_for_user(user=user, voyage_id=voyage.pk))


def _hex_param(text: str) -> Hex:
    parts = text.split(",")
    if len(parts) != 2 or not all(part.strip().lstrip("-").isdigit() for part in parts):
        raise DjangoValidationError({"to": f"to is q,r (two whole numbers), not {text[:20]!r}."})
    hex_ = Hex(int(parts[0]), int(parts[1]))
    if not voyage_rules.on_map(mars_map(), hex_):
        raise DjangoValidationError({"to": f"({hex_.q}, {hex_.r}) is off the map."})
    return hex_


class VoyageRouteApi(VoyageApiBase):
    @extend_schema(
        operation_id="voyages_route",
        parameters=[
            OpenApiParameter("ship", ID_PARAMETER, required=True, description="The id of your ship."),
            OpenApiParameter("to", OpenApiTypes.STR, description="The hex to sail to, as q,r (axial)."),
            OpenApiParameter("city", OpenApiTypes.STR, description="The city to sail to, by name."),
            OpenApiParameter("home", OpenApiTypes.BOOL, description="1: to the nearest friendly city."),
            OpenApiParameter("voyage", ID_PARAMETER, description="Her voyage under way: from her position."),
        ],
        responses=RouteSerializer,
        tags=["voyages"],
        description="The shortest way (the wind counted for a kite) split into days as far as she sails in each. "
        "Give one of to, city or home.",
    )
    def get(self, request: Request, slug: str) -> Response:
        user = _user(request)
        campaign = campaign_for_user(user=user, slug=slug)
        params = request.query_params
        if not params.get("ship"):
            raise DjangoValidationError({"ship": "Give ship=<the id of your ship>."})
        ship_id = bounded_int(params, "ship", default=0, low=1, high=MAX_ID)
        voyage_id = bounded_int(params, "voyage", default=0, low=1, high=MAX_ID)
        ship = voyage_selectors.own_ship(user=user, campaign=campaign, ship_id=ship_id)
        voyage = _campaign_voyage(campaign, user, voyage_id, ship) if voyage_id else None
        start = _start_for(ship, voyage)
        movement = voyage_selectors.ship_movement(ship, at_sea=start.voyage is not None)
        if not movement.can_sail:
            raise voyages.VoyageRefused(movement.cannot_sail_because or f"The {ship.name} cannot sail.")
        atlas = mars_map()
        # The way is planned from the end of any locked day: that day will be sailed as it stands.
        origin = start.hex
        if start.locked_plan:
            locked = voyage_rules.plan_check(start.locked_plan, start=start.hex, ship=movement, atlas=atlas, numbers={})
            origin = locked.days[-1].end
        if params.get("home") in ("1", "true", "yes"):
            found = voyage_rules.nearest_friendly_city(origin, ship=movement, atlas=atlas)
            if found is None:
                raise DjangoValidationError({"home": "No friendly city can be reached."})
            plan = found[1]
        elif params.get("city"):
            try:
                city = atlas.city(params["city"][:60])
            except UnknownMapName as error:
                raise DjangoValidationError({"city": f"There is no city called {params['city'][:60]!r}."}) from error
            plan = voyage_rules.route_plan(origin, voyage_rules.city_hex(atlas, city), ship=movement, atlas=atlas) or []
        elif params.get("to"):
            plan = voyage_rules.route_plan(origin, _hex_param(params["to"]), ship=movement, atlas=atlas) or []
        else:
            raise DjangoValidationError({"to": "Give to=q,r, city=<name> or home=1."})
        return Response(RouteSerializer({"plan": [*start.locked_plan, *plan]}).data)
