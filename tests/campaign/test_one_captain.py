"""One Red Captain per player (SGC-START-14): a second is refused by the service, the page and the API; after a loss
or a retirement a new one only as the umpire's setting allows; and the rank typed into a name is not doubled."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign import captains, settings_service
from campaign.models import AuditEntry, Captain, ChronicleEntry, LedgerEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.rule("SGC-START-14")]


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    bob = UserFactory(username="bob")
    MembershipFactory(campaign=campaign, user=bob, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "bob": bob}


def _lose(captain: Captain, umpire, status: str = "lost") -> None:
    captains.captain_set_status(captain_id=captain.pk, umpire=umpire, status=status, reason="Fell at Shastapsh")


def test_a_player_cannot_found_a_second_captain_nor_draw_a_second_advance(club):
    captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")

    with pytest.raises(ValidationError, match="already hold a Red Captain's commission"):
        captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Another Drummond")

    assert Captain.objects.filter(player=club["bob"]).count() == 1
    assert LedgerEntry.objects.filter(captain__player=club["bob"], kind="advance").count() == 1


def test_the_page_hides_the_form_and_refuses_a_second_captain_with_a_message(client, club):
    captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")
    client.force_login(club["bob"])

    page = html.unescape(client.get(reverse("campaign_detail", args=["syrtis"])).content.decode())
    assert "Found a captain" not in page
    assert "You already hold a Red Captain's commission in this campaign: Captain Robert Drummond." in page

    refused = client.post(reverse("captain_found", args=["syrtis"]), {"name": "Second Son"}, follow=True)
    assert "already hold a Red Captain&#x27;s commission" in refused.content.decode()
    assert Captain.objects.filter(player=club["bob"]).count() == 1


def test_the_api_refuses_a_second_captain_with_a_400(client, club):
    client.force_login(club["bob"])
    url = reverse("api_captain_list", args=["syrtis"])
    assert client.post(url, {"name": "Robert Drummond"}, content_type="application/json").status_code == 201

    again = client.post(url, {"name": "Second Son"}, content_type="application/json")

    assert again.status_code == 400
    assert "already hold" in str(again.json())
    assert Captain.objects.filter(player=club["bob"]).count() == 1


def test_after_his_loss_a_new_captain_gets_a_fresh_advance_by_default(client, club):
    first = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")
    _lose(first, club["umpire"])
    client.force_login(club["bob"])
    assert "Found a captain" in client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()

    second = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Hugh Drummond")

    assert second.balance == club["campaign"].starting_advance == 30_000


def test_a_retired_captain_may_be_followed_without_an_advance_when_the_umpire_says_so(client, club):
    first = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")
    _lose(first, club["umpire"], status="retired")
    settings_service.campaign_update_settings(
        campaign_id=club["campaign"].pk,
        umpire=club["umpire"],
        changes={"new_captain_after_death": "no_advance"},
        reason="Dead men's shoes are not free",
    )
    client.force_login(club["bob"])
    assert "no advance" in client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()

    second = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Hugh Drummond")

    assert second.balance == 0
    assert not LedgerEntry.objects.filter(captain=second).exists()


def test_a_campaign_may_give_no_new_commission_after_a_death(client, club):
    first = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")
    _lose(first, club["umpire"])
    client.force_login(club["umpire"])
    saved = client.post(
        reverse("campaign_settings", args=["syrtis"]),
        {**_settings_form(club["campaign"]), "new_captain_after_death": "never", "reason": "Iron rules"},
    )
    assert saved.status_code == 302
    audit = AuditEntry.objects.get(action="settings changed")
    assert audit.data["after"] == {"new_captain_after_death": "never"}

    with pytest.raises(ValidationError, match="gives no new commission"):
        captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Hugh Drummond")
    client.force_login(club["bob"])
    page = client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()
    assert "Found a captain" not in page
    assert "Captain Robert Drummond is lost" in page


def _settings_form(campaign) -> dict[str, object]:
    from campaign.captain_views import SettingsForm

    form = SettingsForm(instance=campaign)
    data: dict[str, object] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = value if not isinstance(value, dict) else "{}"
    return data


def test_the_umpire_cannot_bring_a_lost_captain_back_beside_a_living_one(club):
    first = captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Robert Drummond")
    _lose(first, club["umpire"])
    captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Hugh Drummond")

    with pytest.raises(ValidationError, match="already has a living captain, Captain Hugh Drummond"):
        captains.captain_set_status(captain_id=first.pk, umpire=club["umpire"], status="ashore", reason="Found alive")


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Captain Robert Drummond", "Robert Drummond"),
        ("captain  Captain Robert Drummond", "Robert Drummond"),
        ("Capt. Robert Drummond", "Robert Drummond"),
        ("Captains Courageous", "Captains Courageous"),
    ],
)
def test_a_rank_typed_into_the_name_is_not_doubled(client, club, typed, kept):
    client.force_login(club["bob"])

    response = client.post(reverse("captain_found", args=["syrtis"]), {"name": typed}, follow=True)

    captain = Captain.objects.get(player=club["bob"])
    assert captain.name == kept
    page = response.content.decode()
    assert f"Captain {kept}" in page
    assert "Captain Captain " not in page
    assert "Captain Capt. " not in page
    chronicle = ChronicleEntry.objects.get(captain=captain).text
    assert chronicle == f"Captain {kept} takes a Red Captain's commission at Parhoon."


def test_a_name_that_is_only_the_rank_is_refused(club):
    with pytest.raises(ValidationError, match="needs a name"):
        captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Captain ")
