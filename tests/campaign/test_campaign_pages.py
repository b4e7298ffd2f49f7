"""The campaign home, the campaign page, and the umpire's invitation panel (with HTMX)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Invitation, Role
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def detail_url(campaign):
    return reverse("campaign_detail", kwargs={"slug": campaign.slug})


def test_home_lists_only_my_campaigns_with_my_role(client):
    me = UserFactory()
    umpiring = MembershipFactory(user=me, role=Role.UMPIRE, campaign__name="Aboard the Aphid")
    playing = MembershipFactory(user=me, role=Role.PLAYER, campaign__name="Beyond the Astusapes")
    other = CampaignFactory(name="Not Mine At All")
    client.force_login(me)

    response = client.get(reverse("home"))

    assert response.status_code == 200
    listed = [(m.campaign.name, m.role) for m in response.context["memberships"]]
    assert listed == [(umpiring.campaign.name, Role.UMPIRE), (playing.campaign.name, Role.PLAYER)]
    html = response.content.decode()
    assert other.name not in html
    assert "Umpire" in html
    assert "Player" in html


def test_home_with_no_campaigns_says_how_to_join(client):
    client.force_login(UserFactory())

    response = client.get(reverse("home"))

    assert "invitation link" in response.content.decode()


def test_non_member_gets_404_on_the_campaign_page(client):
    campaign = CampaignFactory()
    client.force_login(UserFactory())

    assert client.get(detail_url(campaign)).status_code == 404
    assert client.get(reverse("campaign_detail", kwargs={"slug": "no-such-campaign"})).status_code == 404


def test_campaign_page_shows_campaign_role_and_members(client):
    campaign = CampaignFactory(name="The Syrtis Major Station")
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE, user__display_name="Commodore Hargreaves")
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER, user__display_name="Captain Fairweather")
    client.force_login(player.user)

    response = client.get(detail_url(campaign))

    assert response.status_code == 200
    html = response.content.decode()
    assert "The Syrtis Major Station" in html
    assert "Commodore Hargreaves" in html
    assert "Captain Fairweather" in html
    assert [m.user for m in response.context["members"]] == [umpire.user, player.user]  # umpire first


def test_players_do_not_see_invitation_links(client):
    campaign = CampaignFactory()
    invitation = InvitationFactory(campaign=campaign)
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER)
    client.force_login(player.user)

    html = client.get(detail_url(campaign)).content.decode()

    assert invitation.token not in html
    assert "Invitation links" not in html


def test_umpire_sees_invitation_links(client):
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE)
    invitation = InvitationFactory(campaign=campaign, created_by=umpire.user)
    client.force_login(umpire.user)

    html = client.get(detail_url(campaign)).content.decode()

    assert "Invitation links" in html
    assert reverse("campaign_join", kwargs={"token": invitation.token}) in html
    assert 'hx-post="' in html


def test_umpire_creates_an_invitation_with_htmx(client):
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE)
    client.force_login(umpire.user)

    response = client.post(
        reverse("invitation_create", kwargs={"slug": campaign.slug}),
        {"role": Role.PLAYER, "max_uses": 3, "expires_in_days": 7},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    invitation = Invitation.objects.get(campaign=campaign)
    assert (invitation.role, invitation.max_uses, invitation.created_by) == (Role.PLAYER, 3, umpire.user)
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel" id="invitations"')  # the panel alone
    assert invitation.token in html


def test_invitation_form_errors_are_a_422_in_place(client):
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE)
    client.force_login(umpire.user)
    url = reverse("invitation_create", kwargs={"slug": campaign.slug})

    htmx = client.post(url, {"role": "admiral", "max_uses": 0, "expires_in_days": 7}, headers={"HX-Request": "true"})
    plain = client.post(url, {"role": Role.PLAYER, "max_uses": "many", "expires_in_days": 7})

    assert htmx.status_code == 422
    assert "errorlist" in htmx.content.decode()
    assert plain.status_code == 422
    assert not Invitation.objects.exists()


def test_plain_post_creates_and_redirects_with_a_message(client):
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE)
    client.force_login(umpire.user)

    response = client.post(
        reverse("invitation_create", kwargs={"slug": campaign.slug}),
        {"role": Role.UMPIRE, "max_uses": 1, "expires_in_days": 3},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == detail_url(campaign)
    assert "Invitation link created." in response.content.decode()


def test_players_and_strangers_cannot_create_or_revoke_invitations(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER)
    invitation = InvitationFactory(campaign=campaign)
    create_url = reverse("invitation_create", kwargs={"slug": campaign.slug})
    revoke_url = reverse("invitation_revoke", kwargs={"slug": campaign.slug, "pk": invitation.pk})
    data = {"role": Role.UMPIRE, "max_uses": 1, "expires_in_days": 3}

    client.force_login(player.user)
    assert client.post(create_url, data).status_code == 403
    assert client.post(revoke_url).status_code == 403

    client.force_login(UserFactory())
    assert client.post(create_url, data).status_code == 404
    assert client.post(revoke_url).status_code == 404

    assert Invitation.objects.count() == 1
    invitation.refresh_from_db()
    assert not invitation.revoked


def test_umpire_revokes_an_invitation_and_the_link_stops_working(client):
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE)
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(umpire.user)

    response = client.post(
        reverse("invitation_revoke", kwargs={"slug": campaign.slug, "pk": invitation.pk}),
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert "Withdrawn" in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.revoked
    client.logout()
    assert client.get(reverse("campaign_join", kwargs={"token": invitation.token})).status_code == 410


def test_an_umpire_cannot_revoke_another_campaigns_invitation(client):
    mine = MembershipFactory(role=Role.UMPIRE)
    theirs = InvitationFactory()
    client.force_login(mine.user)

    response = client.post(reverse("invitation_revoke", kwargs={"slug": mine.campaign.slug, "pk": theirs.pk}))

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert not theirs.revoked


def make_campaigns(user, count):
    for index in range(count):
        membership = MembershipFactory(user=user, role=Role.UMPIRE if index % 2 else Role.PLAYER)
        MembershipFactory(campaign=membership.campaign)


@pytest.mark.parametrize("url_name", ["home", "api_campaign_list"])
def test_query_count_does_not_grow_with_campaigns(client, django_assert_num_queries, url_name):
    few, many = UserFactory(), UserFactory()
    make_campaigns(few, 2)
    make_campaigns(many, 20)
    url = reverse(url_name)

    client.force_login(few)
    with CaptureQueriesContext(connection) as few_queries:
        assert client.get(url).status_code == 200
    client.force_login(many)
    with django_assert_num_queries(len(few_queries)):
        assert client.get(url).status_code == 200
