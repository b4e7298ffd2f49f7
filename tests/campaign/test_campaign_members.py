"""The umpire's members, from the campaign's page rather than the admin: make a member a player or a fellow umpire,
or take one who joined by mistake out of the campaign; each with a reason, audited, and refused in words where it
would leave a captain without his player, a battle side without its decider, or the campaign without an umpire."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, BattleSide, BattleStatus
from campaign import captains
from campaign.models import AuditEntry, Membership, Role
from campaign.services import membership_remove, membership_set_role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire", display_name="Commodore Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    umpire_m = MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = MembershipFactory(campaign=campaign, user=UserFactory(username="alice", display_name="Alice"))
    newcomer = MembershipFactory(campaign=campaign, user=UserFactory(username="newcomer", display_name="Newcomer"))
    captains.captain_found(campaign=campaign, user=alice.user, name="Jack")
    return {"campaign": campaign, "umpire": umpire, "umpire_m": umpire_m, "alice": alice, "newcomer": newcomer}


def test_the_umpire_makes_a_newcomer_a_fellow_umpire_and_back_audited(club):
    campaign, umpire, newcomer = club["campaign"], club["umpire"], club["newcomer"]

    membership_set_role(
        campaign_id=campaign.pk, umpire=umpire, membership_id=newcomer.pk, role=Role.UMPIRE, reason="Co-umpire"
    )
    assert Membership.objects.get(pk=newcomer.pk).role == Role.UMPIRE
    # Two umpires: either may now step down.
    membership_set_role(
        campaign_id=campaign.pk, umpire=newcomer.user, membership_id=club["umpire_m"].pk, role=Role.PLAYER, reason="Go"
    )
    assert Membership.objects.get(pk=club["umpire_m"].pk).role == Role.PLAYER

    entries = list(AuditEntry.objects.filter(action="member role changed").order_by("pk"))
    assert [(e.actor, e.reason, e.data) for e in entries] == [
        (umpire, "Co-umpire", {"before": {"member": "newcomer", "role": "player"}, "after": {"role": "umpire"}}),
        (newcomer.user, "Go", {"before": {"member": "umpire", "role": "umpire"}, "after": {"role": "player"}}),
    ]


def test_a_captains_player_stays_a_player_and_the_last_umpire_stays(club):
    campaign, umpire = club["campaign"], club["umpire"]

    with pytest.raises(ValidationError, match="Alice plays Captain Jack"):
        membership_set_role(
            campaign_id=campaign.pk, umpire=umpire, membership_id=club["alice"].pk, role=Role.UMPIRE, reason="Help"
        )
    with pytest.raises(ValidationError, match="needs an umpire"):
        membership_set_role(
            campaign_id=campaign.pk, umpire=umpire, membership_id=club["umpire_m"].pk, role=Role.PLAYER, reason="Off"
        )
    with pytest.raises(ValidationError, match="needs an umpire"):
        membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=club["umpire_m"].pk, reason="Off")
    assert not AuditEntry.objects.exists()


def test_the_umpire_takes_a_member_out_unless_he_plays_a_captain_or_decides_a_battle(club):
    campaign, umpire, newcomer = club["campaign"], club["umpire"], club["newcomer"]
    with pytest.raises(ValidationError, match="Captain Jack"):
        membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=club["alice"].pk, reason="Out")
    battle = Battle.objects.create(
        campaign=campaign, title="Skirmish", scenario={}, ruleset_key="sky_galleons", created_by=umpire
    )
    side = BattleSide.objects.create(battle=battle, key="b", name="Newcomer's side", user=newcomer.user)
    with pytest.raises(ValidationError, match="battle not yet over"):
        membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=newcomer.pk, reason="Out")

    Battle.objects.filter(pk=side.battle_id).update(status=BattleStatus.FINISHED, finished_at=timezone.now())
    membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=newcomer.pk, reason="Joined by mistake")

    assert not Membership.objects.filter(pk=newcomer.pk).exists()
    audit = AuditEntry.objects.get(action="member removed")
    assert (audit.reason, audit.data["before"]) == ("Joined by mistake", {"member": "newcomer", "role": "player"})


def test_only_the_umpire_changes_members_with_a_reason_and_of_his_own_campaign(club):
    campaign, umpire = club["campaign"], club["umpire"]
    elsewhere = MembershipFactory(user=UserFactory(username="elsewhere"))

    with pytest.raises(PermissionDenied):
        membership_remove(
            campaign_id=campaign.pk, umpire=club["alice"].user, membership_id=club["newcomer"].pk, reason="x"
        )
    with pytest.raises(ValidationError, match="reason"):
        membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=club["newcomer"].pk, reason="  ")
    with pytest.raises(ValidationError, match="no such member"):
        membership_remove(campaign_id=campaign.pk, umpire=umpire, membership_id=elsewhere.pk, reason="x")
    with pytest.raises(ValidationError, match="player or umpire"):
        membership_set_role(
            campaign_id=campaign.pk, umpire=umpire, membership_id=club["newcomer"].pk, role="admiral", reason="x"
        )
    assert Membership.objects.filter(pk=elsewhere.pk).exists()
    assert Membership.objects.filter(campaign=campaign).count() == 3


def test_the_campaign_page_changes_a_member_for_the_umpire(client, club):
    url = reverse("member_change", args=["syrtis"])
    client.force_login(club["umpire"])
    page = client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()
    assert url in page

    response = client.post(url, {"member": club["newcomer"].pk, "change": "umpire", "reason": "Co-umpire"})
    assert response.status_code == 302
    assert Membership.objects.get(pk=club["newcomer"].pk).role == Role.UMPIRE
    assert "Newcomer is umpire of the campaign now." in client.get(response["Location"]).content.decode()

    refused = client.post(url, {"member": club["alice"].pk, "change": "remove", "reason": "Out"}, follow=True)
    assert "Alice plays Captain Jack" in refused.content.decode()
    incomplete = client.post(url, {"member": "nobody", "change": "remove"}, follow=True)
    assert "Choose a member and a change, and give a reason." in incomplete.content.decode()
    assert Membership.objects.filter(campaign=club["campaign"]).count() == 3

    # With a fellow umpire, the first may leave; he is sent home, the campaign no longer his.
    left = client.post(url, {"member": club["umpire_m"].pk, "change": "remove", "reason": "Moving away"})
    assert left["Location"] == reverse("home")
    assert not Membership.objects.filter(pk=club["umpire_m"].pk).exists()


def test_a_player_is_refused_and_a_stranger_finds_no_campaign(client, club):
    url = reverse("member_change", args=["syrtis"])
    client.force_login(club["alice"].user)
    assert url not in client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()
    assert client.post(url, {"member": club["newcomer"].pk, "change": "remove", "reason": "x"}).status_code == 403
    client.force_login(UserFactory(username="stranger"))
    assert client.post(url, {"member": club["newcomer"].pk, "change": "remove", "reason": "x"}).status_code == 404
    assert Membership.objects.filter(pk=club["newcomer"].pk).exists()
