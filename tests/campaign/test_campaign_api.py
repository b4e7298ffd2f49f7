"""The JSON API: /api/me/, my campaigns, one campaign (404 for non-members), and the OpenAPI schema."""

import pytest
from django.urls import reverse

from campaign.models import Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_api_needs_sign_in(client):
    for url in (reverse("api_me"), reverse("api_campaign_list")):
        assert client.get(url).status_code == 403


def test_me(client):
    user = UserFactory(username="ada", display_name="Captain Ada")
    client.force_login(user)

    data = client.get(reverse("api_me")).json()

    assert data["username"] == "ada"
    assert data["public_name"] == "Captain Ada"
    assert "password" not in data


def test_campaign_list_has_only_mine_with_my_role(client):
    me = UserFactory()
    MembershipFactory(user=me, role=Role.UMPIRE, campaign__name="A", campaign__slug="a")
    MembershipFactory(user=me, role=Role.PLAYER, campaign__name="B", campaign__slug="b")
    CampaignFactory(name="C", slug="c")
    client.force_login(me)

    data = client.get(reverse("api_campaign_list")).json()

    assert data["count"] == 2
    assert [(c["slug"], c["role"], c["member_count"]) for c in data["results"]] == [
        ("a", "umpire", 1),
        ("b", "player", 1),
    ]


def test_campaign_detail_for_a_member(client):
    membership = MembershipFactory(role=Role.PLAYER)
    umpire = MembershipFactory(campaign=membership.campaign, role=Role.UMPIRE)
    client.force_login(membership.user)

    response = client.get(reverse("api_campaign_detail", kwargs={"slug": membership.campaign.slug}))

    assert response.status_code == 200
    data = response.json()
    assert data["name"] == membership.campaign.name
    assert data["role"] == "player"
    assert [m["username"] for m in data["members"]] == [umpire.user.username, membership.user.username]
    assert "invitations" not in data


def test_campaign_detail_is_404_for_a_non_member(client):
    campaign = CampaignFactory()
    client.force_login(UserFactory())

    response = client.get(reverse("api_campaign_detail", kwargs={"slug": campaign.slug}))

    assert response.status_code == 404
    assert campaign.name not in response.content.decode()


def test_schema_includes_the_campaign_endpoints(client):
    client.force_login(UserFactory())

    response = client.get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/me/" in paths
    assert "/api/campaigns/" in paths
    assert "/api/campaigns/{slug}/" in paths
    detail = paths["/api/campaigns/{slug}/"]["get"]
    assert detail["operationId"] == "campaigns_retrieve"
