"""API output shapes. Read-only: the API's writes, when they come, go through campaign.services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import User
from campaign.models import Membership, Role


class MeSerializer(serializers.ModelSerializer[User]):
    public_name = serializers.CharField(read_only=True)

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "public_name", "email", "is_staff")
        read_only_fields = fields


class CampaignListItemSerializer(serializers.Serializer[Membership]):
    """One of my campaigns, from my membership of it."""

    slug = serializers.SlugField(source="campaign.slug")
    name = serializers.CharField(source="campaign.name")
    description = serializers.CharField(source="campaign.description")
    role = serializers.ChoiceField(choices=Role.choices, help_text="My role in this campaign.")
    member_count = serializers.IntegerField()
    joined_at = serializers.DateTimeField()


class MemberSerializer(serializers.Serializer[Membership]):
    username = serializers.CharField(source="user.username")
    public_name = serializers.CharField(source="user.public_name")
    role = serializers.ChoiceField(choices=Role.choices)


class CampaignDetailSerializer(serializers.Serializer[Membership]):
    """A campaign I am a member of, with my role and its members."""

    slug = serializers.SlugField(source="campaign.slug")
    name = serializers.CharField(source="campaign.name")
    description = serializers.CharField(source="campaign.description")
    created_at = serializers.DateTimeField(source="campaign.created_at")
    role = serializers.ChoiceField(choices=Role.choices, help_text="My role in this campaign.")
    members = serializers.SerializerMethodField()

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, membership: Membership) -> list[dict[str, object]]:
        # The view passes the members in, fetched by the campaign_members selector in one query.
        return list(MemberSerializer(self.context["members"], many=True).data)
