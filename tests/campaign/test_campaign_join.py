"""Joining a campaign by invitation link: registration, signed-in acceptance, and closed links."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.models import Membership, Role
from campaign.services import (
    InvitationClosedError,
    campaign_create,
    invitation_accept,
    invitation_create,
    user_register_with_invitation,
)
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "sails-over-syrtis-42"


def join_url(invitation):
    return reverse("campaign_join", kwargs={"token": invitation.token})


def registration(username="newcomer", **overrides):
    data = {
        "username": username,
        "display_name": "Captain Newcomer",
        "email": f"{username}@example.com",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    }
    data.update(overrides)
    return data


def test_anonymous_visitor_sees_a_labelled_registration_form(client):
    invitation = InvitationFactory(role=Role.PLAYER)

    response = client.get(join_url(invitation))

    assert response.status_code == 200
    html = response.content.decode()
    assert invitation.campaign.name in html
    for field in ("username", "display_name", "email", "password1", "password2"):
        assert f'<label for="id_{field}"' in html


@pytest.mark.parametrize("role", [Role.PLAYER, Role.UMPIRE])
def test_registration_creates_user_and_membership_and_uses_the_link_once(client, role):
    invitation = InvitationFactory(role=role, max_uses=3)

    response = client.post(join_url(invitation), registration())

    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", kwargs={"slug": invitation.campaign.slug})
    user = User.objects.get(username="newcomer")
    assert user.check_password(NEW_PASSWORD)
    assert user.display_name == "Captain Newcomer"
    assert Membership.objects.get(user=user, campaign=invitation.campaign).role == role
    invitation.refresh_from_db()
    assert invitation.uses == 1
    # Signed in straight away.
    assert client.get(response["Location"]).status_code == 200


def test_registration_with_a_taken_name_or_weak_password_is_a_400_with_messages(client):
    UserFactory(username="taken")
    invitation = InvitationFactory()

    taken = client.post(join_url(invitation), registration(username="taken"))
    weak = client.post(join_url(invitation), registration(password1="password", password2="password"))

    assert taken.status_code == 400
    assert "already exists" in taken.content.decode()
    assert weak.status_code == 400
    assert "too common" in weak.content.decode()
    invitation.refresh_from_db()
    assert invitation.uses == 0
    assert not User.objects.filter(username="newcomer").exists()


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"expires_at": timezone.now() - timedelta(minutes=1)}, "expired"),
        ({"revoked": True}, "withdrawn"),
        ({"max_uses": 2, "uses": 2}, "used as many times"),
    ],
    ids=["expired", "revoked", "used-up"],
)
def test_closed_invitations_are_refused_with_410(client, overrides, reason):
    invitation = InvitationFactory(**overrides)

    page = client.get(join_url(invitation))
    post = client.post(join_url(invitation), registration())

    assert page.status_code == 410
    assert reason in page.content.decode()
    assert post.status_code == 410
    assert not User.objects.filter(username="newcomer").exists()


def test_unknown_token_is_404(client):
    assert client.get(reverse("campaign_join", kwargs={"token": "no-such-token"})).status_code == 404


def test_last_use_goes_to_one_person_only(client):
    invitation = InvitationFactory(max_uses=1)

    first = client.post(join_url(invitation), registration(username="first"))
    client.logout()
    second = client.post(join_url(invitation), registration(username="second"))

    assert first.status_code == 302
    assert second.status_code == 410
    assert Membership.objects.filter(campaign=invitation.campaign).count() == 1


def test_signed_in_user_confirms_and_joins(client):
    invitation = InvitationFactory(role=Role.PLAYER)
    user = UserFactory()
    client.force_login(user)

    page = client.get(join_url(invitation))
    assert page.status_code == 200
    assert "Join the campaign" in page.content.decode()
    assert not Membership.objects.filter(user=user).exists()  # a GET changes nothing

    response = client.post(join_url(invitation))

    assert response.status_code == 302
    assert Membership.objects.get(user=user, campaign=invitation.campaign).role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_a_member_accepting_again_keeps_the_role_and_the_use(client):
    membership = MembershipFactory(role=Role.UMPIRE)
    invitation = InvitationFactory(campaign=membership.campaign, role=Role.PLAYER)
    client.force_login(membership.user)

    response = client.post(join_url(invitation))

    assert response.status_code == 302
    membership.refresh_from_db()
    assert membership.role == Role.UMPIRE
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_services_refuse_closed_invitations():
    invitation = InvitationFactory(revoked=True)

    with pytest.raises(InvitationClosedError):
        invitation_accept(token=invitation.token, user=UserFactory())
    with pytest.raises(InvitationClosedError):
        user_register_with_invitation(token=invitation.token, username="x", password=NEW_PASSWORD)


def test_only_an_umpire_creates_invitations():
    campaign = CampaignFactory()
    umpire = MembershipFactory(campaign=campaign, role=Role.UMPIRE).user
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER).user

    invitation = invitation_create(campaign=campaign, created_by=umpire, role=Role.PLAYER, max_uses=5)

    assert invitation.is_open()
    assert invitation.max_uses == 5
    with pytest.raises(PermissionDenied):
        invitation_create(campaign=campaign, created_by=player)
    with pytest.raises(PermissionDenied):
        invitation_create(campaign=campaign, created_by=UserFactory())
    with pytest.raises(ValidationError):
        invitation_create(campaign=campaign, created_by=umpire, max_uses=0)


def test_campaign_create_makes_the_creator_umpire_with_a_unique_slug():
    creator = UserFactory()

    first = campaign_create(name="Raiders of Meroe", created_by=creator)
    second = campaign_create(name="Raiders of Meroe", created_by=creator, description="Again")

    assert (first.slug, second.slug) == ("raiders-of-meroe", "raiders-of-meroe-2")
    assert Membership.objects.get(campaign=first, user=creator).role == Role.UMPIRE
    with pytest.raises(ValidationError):
        campaign_create(name="   ", created_by=creator)
