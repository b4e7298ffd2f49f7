"""JSON API for the signed-in user: who am I, my campaigns, one of my campaigns.

Session authentication and IsAuthenticated come from the REST_FRAMEWORK defaults. Every queryset is the
requesting user's own: a campaign the user is not in answers 404, never 403, so the API does not even
confirm that it exists.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from campaign.models import Membership
from campaign.selectors import campaign_members, membership_for_user, memberships_for_user
from campaign.serializers import CampaignDetailSerializer, CampaignListItemSerializer, MeSerializer


def _user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):  # IsAuthenticated has already refused anonymous requests
        raise NotAuthenticated()
    return user


class MeApi(APIView):
    @extend_schema(operation_id="me_retrieve", responses=MeSerializer, tags=["accounts"])
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(_user(request)).data)


class CampaignListApi(ListAPIView[Membership]):
    serializer_class = CampaignListItemSerializer

    def get_queryset(self) -> QuerySet[Membership]:
        return memberships_for_user(user=_user(self.request))

    @extend_schema(operation_id="campaigns_list", tags=["campaigns"], description="My campaigns, with my role.")
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)


class CampaignDetailApi(APIView):
    @extend_schema(
        operation_id="campaigns_retrieve",
        responses=CampaignDetailSerializer,
        tags=["campaigns"],
        description="One of my campaigns, with my role and its members; 404 if I am not a member.",
    )
    def get(self, request: Request, slug: str) -> Response:
        membership = membership_for_user(user=_user(request), slug=slug)
        members = campaign_members(campaign=membership.campaign)
        return Response(CampaignDetailSerializer(membership, context={"members": members}).data)
