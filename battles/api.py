"""JSON API for battles: my battles, one battle as my side sees it, its open decisions and its log; answers,
leaving, the umpire's corrections and new battles; and, once a battle is over, its seed and result.

Session authentication and IsAuthenticated come from the REST_FRAMEWORK defaults. Views are thin: parse,
call one selector or service, answer. A battle outside my campaigns, and a side of it that is not mine,
answer 404 (selectors.battle_for_user, selectors.viewer_for); a refusal of the engine or the services
answers its status with ``{"detail": why, "clause": rule}`` (services.BattleRefused).

Bodies are JSON of bounded size and depth (config.api.BoundedJSONParser, as for the whole API): anything else
is a 400, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from battles import selectors, services
from battles.models import Battle
from battles.serializers import (
    BattleCreateSerializer,
    BattleListItemSerializer,
    BattleViewSerializer,
    CorrectionSerializer,
    CorrectionSubmitSerializer,
    DecisionSerializer,
    DecisionSubmitSerializer,
    ErrorSerializer,
    EventPageSerializer,
    JudgementSerializer,
    LeaveSerializer,
    MySideSerializer,
    PartialAnswerSerializer,
    PendingDecisionSerializer,
    ResultSerializer,
    VerificationSerializer,
)
from battles.services import BattleRefused, SideControl
from campaign.models import Role
from campaign.selectors import campaign_members, membership_for_user
from config.api import api_exception_handler

EVENT_PAGE = 500
MAX_SEQ = 10**9  # past any battle's log, inside the database's integers
MAX_EVENT_PAGE = 2000

TAGS = ["battles"]
SIDE_PARAMETER = OpenApiParameter(
    "side",
    str,
    description="View as this side: one of mine (a player with several), or any side for the umpire. "
    "404 for a side that is not mine.",
)


def _refused(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


NOT_FOUND = _refused("Not a battle of my campaigns, or a side that is not mine.")


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):  # IsAuthenticated has already refused anonymous requests
        raise NotAuthenticated()
    return user


def _valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _viewer(request: Request, battle_id: int) -> selectors.Viewer:
    user = _user(request)
    battle = selectors.battle_for_user(user=user, battle_id=battle_id)
    return selectors.viewer_for(battle=battle, user=user, side=request.query_params.get("side") or None)


def _finished(request: Request, battle_id: int, what: str) -> Battle:
    battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)
    if not battle.is_finished:
        raise BattleRefused(f"The {what} is published when the battle is over.", status=409)
    return battle


def battle_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The API's handler (config.api), with the battle services' refusals as ``{"detail", "clause"}`` at their
    status."""
    if isinstance(exc, BattleRefused):
        return Response({"detail": exc.message, "clause": exc.clause}, status=exc.status)
    return api_exception_handler(exc, context)


class BattleApiMixin:
    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return battle_exception_handler


class BattleApi(BattleApiMixin, APIView):
    pass


# --- my battles, a new battle --------------------------------------------------------------------------------


class BattleListApi(BattleApiMixin, GenericAPIView[Battle]):
    def get_queryset(self) -> QuerySet[Battle]:
        return selectors.battles_for_user(user=_user(self.request))

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        # What OPTIONS describes (DRF's metadata asks for it): the list's items, and a new battle for POST.
        return BattleCreateSerializer if self.request.method == "POST" else BattleListItemSerializer

    @extend_schema(
        operation_id="battles_list",
        tags=TAGS,
        responses=BattleListItemSerializer(many=True),
        description="Every battle of my campaigns, newest first, with my role, the sides I decide for and "
        "whether a decision of mine is waiting.",
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        summaries = selectors.battle_summaries(user=_user(request), battles=page or [])
        return self.get_paginated_response(BattleListItemSerializer(summaries, many=True).data)

    @extend_schema(
        operation_id="battles_create",
        tags=TAGS,
        request=BattleCreateSerializer,
        responses={
            201: BattleListItemSerializer,
            400: _refused("Bad input, or a battle the scenario cannot give."),
            403: _refused("Only the campaign's umpire starts battles."),
            404: _refused("Not one of my campaigns."),
        },
        description="The umpire starts a battle from a scenario shipped with the ruleset.",
    )
    def post(self, request: Request) -> Response:
        data = _valid(BattleCreateSerializer, request.data)
        user = _user(request)
        membership = membership_for_user(user=user, slug=data["campaign"])
        if membership.role != Role.UMPIRE:
            raise PermissionDenied("Only the campaign's umpire may start a battle.")
        battle = services.battle_create(
            campaign=membership.campaign,
            created_by=user,
            scenario_slug=data["scenario"],
            title=data["title"],
            ruleset_key=data["ruleset"],
            options=data["options"],
            mode=data["mode"],
            sides=_side_controls(membership.campaign, data["sides"]),
            decision_hours=data["decision_hours"],
            live_minutes=data["live_minutes"],
            deadline_default=data["deadline_default"],
        )
        summary = selectors.battle_summaries(
            user=user, battles=[selectors.battles_for_user(user=user).get(pk=battle.pk)]
        )
        return Response(BattleListItemSerializer(summary[0]).data, status=201)


def _side_controls(campaign: Any, chosen: Mapping[str, Mapping[str, Any]]) -> dict[str, SideControl]:
    """Who decides for each side, the players named by username among the campaign's members."""
    members = {m.user.username: m.user for m in campaign_members(campaign=campaign)}
    controls = {}
    for key, control in chosen.items():
        player = control.get("player")
        if control["controller"] != "player":
            if player:
                raise ValidationError({"sides": {key: "Only a side a player controls has a player."}})
            controls[key] = SideControl(control["controller"])
        elif player not in members:
            raise ValidationError({"sides": {key: "The player must be a member of the campaign (by username)."}})
        else:
            controls[key] = SideControl("player", members[player])
    return controls


# --- one battle --------------------------------------------------------------------------------------------


class BattleDetailApi(BattleApi):
    @extend_schema(
        operation_id="battles_retrieve",
        tags=TAGS,
        parameters=[SIDE_PARAMETER],
        responses={200: BattleViewSerializer, 404: NOT_FOUND},
        description="The battle as my side may see it: the board, the sides, the open decisions (mine with "
        "their legal answers). The umpire sees everything; nobody sees the seed before the end.",
    )
    def get(self, request: Request, battle_id: int) -> Response:
        return Response(BattleViewSerializer(selectors.battle_view(_viewer(request, battle_id))).data)


class BattleDecisionsApi(BattleApi):
    @extend_schema(
        operation_id="battles_decisions_list",
        tags=TAGS,
        parameters=[SIDE_PARAMETER],
        responses={200: PendingDecisionSerializer(many=True), 404: NOT_FOUND},
        description="The open decisions of the sides I decide for, with their legal options or candidates.",
    )
    def get(self, request: Request, battle_id: int) -> Response:
        pending = selectors.pending_decisions(_viewer(request, battle_id))
        return Response(PendingDecisionSerializer(pending, many=True).data)

    @extend_schema(
        operation_id="battles_decisions_create",
        tags=TAGS,
        request=DecisionSubmitSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key", str, OpenApiParameter.HEADER, description="As idempotency_key in the body."
            )
        ],
        responses={
            201: DecisionSerializer,
            200: OpenApiResponse(DecisionSerializer, description="The same idempotency key again: the first answer."),
            400: _refused("Bad input, or an answer the rules do not allow (with the rule's clause)."),
            403: _refused("Not a decision of my side, or the umpire's own (umpire: true) and I am not the umpire."),
            404: NOT_FOUND,
            409: _refused("No such open decision, already answered, or the battle is over."),
        },
        description="Answer one of my open decisions (yours: true). The engine judges it at once; the battle "
        "resolves when every decision a person owes is in. The umpire's own decisions (umpire: true, the go-ahead "
        "before a card) are the battle's umpire's alone.",
    )
    def post(self, request: Request, battle_id: int) -> Response:
        # The battle first: one the user may not know of is 404 whatever the body (not a 400 saying it is there).
        battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)
        data = _valid(DecisionSubmitSerializer, request.data)
        key = _idempotency_key(request, data["idempotency_key"])
        submitted = services.battle_submit(
            battle_id=battle.pk,
            user=_user(request),
            request_id=data["request"],
            choice=data["choice"],
            idempotency_key=key,
        )
        return Response(DecisionSerializer(submitted.decision).data, status=200 if submitted.replayed else 201)


class BattleJudgementApi(BattleApi):
    @extend_schema(
        operation_id="battles_judgement_create",
        tags=TAGS,
        request=PartialAnswerSerializer,
        responses={
            200: JudgementSerializer,
            400: _refused("Bad input: not JSON, or fields not as the body's schema says."),
            404: _refused("Not a battle of my campaigns, or not an open decision of a side I decide for."),
        },
        description="Judge a partial answer to one of my open decisions, for live feedback while it is built: the "
        "answer the fields make so far, the fields missing and those filled in wrong, and once complete the rules' "
        "verdict with the clause. Nothing is stored; answer with battles_decisions_create.",
    )
    def post(self, request: Request, battle_id: int) -> Response:
        # The battle first: one the user may not know of is 404 whatever the body.
        battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)
        data = _valid(PartialAnswerSerializer, request.data)
        judged = selectors.judge_partial_answer(
            battle=battle,
            user=_user(request),
            request_id=data["request"],
            posted=data["fields"],
            partial=data["partial"],
        )
        return Response(JudgementSerializer(judged).data)


def _idempotency_key(request: Request, in_body: str) -> str:
    header = request.headers.get("Idempotency-Key", "")
    if header and in_body and header != in_body:
        raise ValidationError({"idempotency_key": "The body and the Idempotency-Key header disagree."})
    key = header or in_body
    if len(key) > 80:
        raise ValidationError({"idempotency_key": "At most 80 characters."})
    return key


class EventQuerySerializer(serializers.Serializer[Any]):
    after = serializers.IntegerField(
        min_value=-1, max_value=MAX_SEQ, default=-1, help_text="Events after this seq (-1: from the start)."
    )
    limit = serializers.IntegerField(min_value=1, max_value=MAX_EVENT_PAGE, default=EVENT_PAGE)


class BattleEventsApi(BattleApi):
    @extend_schema(
        operation_id="battles_events_list",
        tags=TAGS,
        parameters=[EventQuerySerializer, SIDE_PARAMETER],
        responses={200: EventPageSerializer, 400: _refused("Bad after or limit."), 404: NOT_FOUND},
        description="The live log as my side may see it, by seq: events kept to another side are left out.",
    )
    def get(self, request: Request, battle_id: int) -> Response:
        viewer = _viewer(request, battle_id)  # 404 before any 400
        query = _valid(EventQuerySerializer, request.query_params)
        page = selectors.event_page(viewer, after=query["after"], limit=query["limit"])
        return Response(
            EventPageSerializer(
                {"results": page.events, "after": query["after"], "last_seq": page.last_seq, "more": page.more}
            ).data
        )


class BattleVerificationApi(BattleApi):
    @extend_schema(
        operation_id="battles_verification_retrieve",
        tags=TAGS,
        responses={200: VerificationSerializer, 404: NOT_FOUND, 409: _refused("The battle is not over.")},
        description="Once the battle is over: its seed, the commitment published at the start, and the result "
        "of re-running every die and every decision from them (manage.py verify_battle does the same).",
    )
    def get(self, request: Request, battle_id: int) -> Response:
        battle = _finished(request, battle_id, "seed")
        return Response(VerificationSerializer(selectors.battle_verification(battle=battle)).data)


class BattleResultApi(BattleApi):
    @extend_schema(
        operation_id="battles_result_retrieve",
        tags=TAGS,
        responses={200: ResultSerializer, 404: NOT_FOUND, 409: _refused("The battle is not over.")},
        description="Once the battle is over: the winner and what the campaign takes from it.",
    )
    def get(self, request: Request, battle_id: int) -> Response:
        result = selectors.battle_result(battle=_finished(request, battle_id, "result"))
        if result is None:
            raise BattleRefused("This battle has no result stored.", status=409)
        return Response(ResultSerializer(result).data)


class BattleLeaveApi(BattleApi):
    @extend_schema(
        operation_id="battles_leave_create",
        tags=TAGS,
        request=LeaveSerializer,
        responses={
            200: MySideSerializer,
            400: _refused("Bad input."),
            403: _refused("Not my side."),
            404: NOT_FOUND,
            409: _refused("The battle is over, or the side has left already."),
        },
        description="My side concedes (the battle ends), or surrenders or withdraws (the AI carries it out "
        "under the rules).",
    )
    def post(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)  # 404 before any 400
        data = _valid(LeaveSerializer, request.data)
        side = services.battle_leave(battle_id=battle.pk, user=_user(request), side_key=data["side"], how=data["how"])
        return Response(MySideSerializer(side).data)


class BattleCorrectionsApi(BattleApi):
    @extend_schema(
        operation_id="battles_corrections_create",
        tags=TAGS,
        request=CorrectionSubmitSerializer,
        responses={
            201: CorrectionSerializer,
            400: _refused("Bad input, no reason, the same answer again, or an answer the rules do not allow."),
            403: _refused("Only the umpire corrects."),
            404: NOT_FOUND,
            409: _refused("Nothing to correct, or the battle is over."),
        },
        description="The umpire corrects a wrong entry: the battle is rewound to just before it and goes on with "
        "the corrected answer (the dice stay the same).",
    )
    def post(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)  # 404 before any 400
        data = _valid(CorrectionSubmitSerializer, request.data)
        correction = services.battle_correct_decision(
            battle_id=battle.pk,
            user=_user(request),
            request_id=data["request"],
            choice=data["choice"],
            reason=data["reason"],
        )
        return Response(CorrectionSerializer(correction).data, status=201)
