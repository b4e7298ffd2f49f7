"""The umpire's corrections in the app (campaign.corrections), which staff could make only in the admin and without
an audit: a captain's name; a ship's name and her crew's quality, her record following."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaign import captains, yard
from campaign import yard_selectors as sel
from campaign.corrections import captain_rename, ship_correct
from campaign.models import AuditEntry, CampaignShip, Captain, Role, ShipStatus
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jakc")
    bob = UserFactory(username="bob")
    MembershipFactory(campaign=campaign, user=bob, role=Role.PLAYER)
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    gull = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="clearsight", name="Gul")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "jack": jack, "mary": mary, "gull": gull}


def test_the_umpire_corrects_a_captains_name_audited(club):
    captain_rename(captain_id=club["jack"].pk, umpire=club["umpire"], name=" Jack ", reason="Spelt wrong")

    assert Captain.objects.get(pk=club["jack"].pk).name == "Jack"
    audit = AuditEntry.objects.get(action="captain renamed")
    assert (audit.reason, audit.data) == ("Spelt wrong", {"before": {"name": "Jakc"}, "after": {"name": "Jack"}})


def test_a_captains_name_stays_unique_and_only_the_umpire_corrects_it(club):
    with pytest.raises(ValidationError, match="already a Captain Mary"):
        captain_rename(captain_id=club["jack"].pk, umpire=club["umpire"], name="Mary", reason="Oops")
    with pytest.raises(PermissionDenied):
        captain_rename(captain_id=club["jack"].pk, umpire=club["alice"], name="Jack", reason="Mine")
    with pytest.raises(ValidationError, match="reason"):
        captain_rename(captain_id=club["jack"].pk, umpire=club["umpire"], name="Jack", reason=" ")
    with pytest.raises(ValidationError, match="no such captain"):
        captain_rename(captain_id=0, umpire=club["umpire"], name="Jack", reason="x")
    assert Captain.objects.get(pk=club["jack"].pk).name == "Jakc"
    assert not AuditEntry.objects.exists()


def test_the_umpire_corrects_a_ships_name_and_crew_and_her_record_follows(club):
    ship_correct(ship_id=club["gull"].pk, umpire=club["umpire"], name="Gull", crew_quality="trained", reason="Slip")

    gull = CampaignShip.objects.get(pk=club["gull"].pk)
    record = sel.ship_record(gull)
    assert (gull.name, gull.crew_quality) == ("Gull", "trained")
    assert (record.name, record.crew_quality) == ("Gull", "trained")
    audit = AuditEntry.objects.get(action="ship corrected")
    assert audit.data["before"] == {"name": "Gul", "crew_quality": "green"}
    assert audit.captain == club["jack"]


def test_a_ship_in_battle_or_a_bad_correction_is_refused(club):
    gull = club["gull"]
    with pytest.raises(ValidationError, match="crew is one of"):
        ship_correct(ship_id=gull.pk, umpire=club["umpire"], name="Gull", crew_quality="elite", reason="x")
    with pytest.raises(ValidationError, match="needs a name"):
        ship_correct(ship_id=gull.pk, umpire=club["umpire"], name="  ", crew_quality="green", reason="x")
    with pytest.raises(PermissionDenied):
        ship_correct(ship_id=gull.pk, umpire=club["alice"], name="Gull", crew_quality="crack", reason="x")
    CampaignShip.objects.filter(pk=gull.pk).update(status=ShipStatus.IN_BATTLE)
    with pytest.raises(ValidationError, match="in a battle"):
        ship_correct(ship_id=gull.pk, umpire=club["umpire"], name="Gull", crew_quality="green", reason="x")
    assert CampaignShip.objects.get(pk=gull.pk).name == "Gul"
    assert not AuditEntry.objects.exists()


def test_the_pages_offer_the_corrections_to_the_umpire_only(client, club):
    captain_url, ship_url = (
        reverse("captain_rename", args=[club["jack"].pk]),
        reverse("ship_correct", args=[club["gull"].pk]),
    )
    client.force_login(club["alice"])
    assert captain_url not in client.get(reverse("captain_detail", args=[club["jack"].pk])).content.decode()
    assert ship_url not in client.get(reverse("ship_detail", args=[club["gull"].pk])).content.decode()
    refused = client.post(ship_url, {"name": "Mine", "crew_quality": "crack", "reason": "x"}, follow=True)
    assert "Only the campaign&#x27;s umpire may correct this." in refused.content.decode()
    client.force_login(UserFactory(username="stranger"))
    assert client.post(captain_url, {"name": "X", "reason": "x"}).status_code == 404

    client.force_login(club["umpire"])
    assert captain_url in client.get(reverse("captain_detail", args=[club["jack"].pk])).content.decode()
    page = client.post(captain_url, {"name": "Jack", "reason": "Spelt wrong"}, follow=True).content.decode()
    assert "The captain&#x27;s name is corrected and audited." in page
    page = client.post(ship_url, {"name": "Gull", "crew_quality": "crack", "reason": "Slip"}, follow=True)
    assert "The ship is corrected and audited." in page.content.decode()
    incomplete = client.post(ship_url, {"name": "Gull", "crew_quality": "crack"}, follow=True).content.decode()
    assert "A correction needs every field filled in and a reason." in incomplete
    assert (Captain.objects.get(pk=club["jack"].pk).name, CampaignShip.objects.get(pk=club["gull"].pk).name) == (
        "Jack",
        "Gull",
    )


@pytest.mark.rule("SGC-START-14")
def test_a_corrected_name_keeps_no_typed_rank_nor_article(club):
    """The umpire's correction keeps names as founding and the yard do: no doubled "Captain", no "the The Gull"."""
    captain_rename(captain_id=club["jack"].pk, umpire=club["umpire"], name="Captain  Jack", reason="Spelt wrong")
    ship_correct(ship_id=club["gull"].pk, umpire=club["umpire"], name="The Gull", crew_quality="green", reason="Slip")

    assert Captain.objects.get(pk=club["jack"].pk).name == "Jack"
    assert CampaignShip.objects.get(pk=club["gull"].pk).name == "Gull"
