"""The umpire's campaign settings page and service: only the umpire, with a reason, audited before and after."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaign.models import AuditEntry, Campaign, Role
from campaign.settings_service import campaign_update_settings
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "alice": alice}


def page_data(campaign: Campaign, **changes) -> dict:
    from campaign.captain_views import SettingsForm

    initial = SettingsForm(instance=campaign).initial
    data = {key: ("" if value is None else value) for key, value in initial.items()}
    data["tactical_options"] = "{}"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not False}


def test_the_umpire_changes_settings_with_a_reason_and_the_audit_keeps_before_and_after(client, club):
    client.force_login(club["umpire"])
    assert client.get(reverse("campaign_settings", args=["syrtis"])).status_code == 200
    data = page_data(
        club["campaign"], auction_style="sealed", auction_days=3, trek_days_per_roll=2, reason="Sealed bids this season"
    )

    response = client.post(reverse("campaign_settings", args=["syrtis"]), data)

    assert response.status_code == 302
    campaign = Campaign.objects.get(pk=club["campaign"].pk)
    assert (campaign.auction_style, campaign.auction_days, campaign.trek_days_per_roll) == ("sealed", 3, 2)
    audit = AuditEntry.objects.get(action="settings changed")
    assert audit.reason == "Sealed bids this season"
    assert audit.data == {
        "before": {"auction_style": "open", "auction_days": 2, "trek_days_per_roll": 7},
        "after": {"auction_style": "sealed", "auction_days": 3, "trek_days_per_roll": 2},
    }


def test_hours_past_the_calendars_end_are_refused_on_the_field(client, club):
    # The next tick (now + a campaign day) and an auction's close (now + its hours) would be past the year 9999:
    # the tick, resuming on the desk and every landed prize would fail with a 500.
    client.force_login(club["umpire"])
    endless = client.post(
        reverse("campaign_settings", args=["syrtis"]),
        page_data(club["campaign"], hours_per_day="2147483647", reason="Slow"),
    )
    assert endless.status_code == 422
    assert "A campaign day lasts from an hour to 8,760 (a year)." in endless.content.decode()
    assert Campaign.objects.get(pk=club["campaign"].pk).hours_per_day == 24


@pytest.mark.parametrize(
    ("setting", "value", "words"),
    [
        ("auction_days", "0", "An auction runs from 1 to 28 campaign days."),
        ("trek_days_per_roll", "29", "An epic trek rolls once every 1 to 28 campaign days."),
        ("encounter_battle_days", "0", "An encounter&#x27;s battle is fought within 1 to 28 campaign days."),
        ("encounter_battle_turns", "41", "An encounter&#x27;s battle is expected to take from 1 to 40 turns."),
    ],
)
def test_the_clocks_settings_out_of_range_are_refused_on_the_field(client, club, setting, value, words):
    client.force_login(club["umpire"])
    page = client.get(reverse("campaign_settings", args=["syrtis"])).content.decode()
    assert 'name="trek_days_per_roll"' in page
    assert "Campaign days between an epic trek&#x27;s rolls" in page
    refused = client.post(
        reverse("campaign_settings", args=["syrtis"]), page_data(club["campaign"], **{setting: value}, reason="Try")
    )
    assert refused.status_code == 422
    assert words in refused.content.decode()
    assert not AuditEntry.objects.exists()


def test_a_player_gets_no_settings_page(client, club):
    client.force_login(club["alice"])
    assert client.get(reverse("campaign_settings", args=["syrtis"])).status_code == 403
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("campaign_settings", args=["syrtis"])).status_code == 404


def test_bad_settings_are_refused_with_the_reason(client, club):
    client.force_login(club["umpire"])
    no_reason = client.post(reverse("campaign_settings", args=["syrtis"]), page_data(club["campaign"], auction_days=6))
    assert no_reason.status_code == 422
    bad = client.post(
        reverse("campaign_settings", args=["syrtis"]),
        page_data(club["campaign"], merchant_cargo_fraction="1.5", reason="More cargo"),
    )
    assert bad.status_code == 422
    assert Campaign.objects.get(pk=club["campaign"].pk).merchant_cargo_fraction < 1

    with pytest.raises(ValidationError, match="money goal"):
        campaign_update_settings(
            campaign_id=club["campaign"].pk, umpire=club["umpire"], changes={"winner_by": "goal"}, reason="Race"
        )
    with pytest.raises(PermissionDenied):
        campaign_update_settings(
            campaign_id=club["campaign"].pk, umpire=club["alice"], changes={"auction_days": 1}, reason="Mine"
        )
    with pytest.raises(ValidationError, match="Not settings"):
        campaign_update_settings(campaign_id=club["campaign"].pk, umpire=club["umpire"], changes={"day": 9}, reason="x")


@pytest.mark.rule("SGC-ENC-20")
def test_the_umpire_chooses_who_commands_the_ships_met_and_the_trek_losses_reading(client, club):
    client.force_login(club["umpire"])
    data = page_data(
        club["campaign"], encounter_control="umpire", trek_losses="worked_example", reason="I run the enemies myself"
    )

    response = client.post(reverse("campaign_settings", args=["syrtis"]), data)

    assert response.status_code == 302
    campaign = Campaign.objects.get(pk=club["campaign"].pk)
    assert (campaign.encounter_control, campaign.trek_losses) == ("umpire", "worked_example")
    assert AuditEntry.objects.get(action="settings changed").data["after"] == {
        "encounter_control": "umpire",
        "trek_losses": "worked_example",
    }


def test_the_umpire_lets_the_dead_rank_by_their_money_on_the_settings_page_and_it_is_audited(client, club):
    assert club["campaign"].rank_dead_below_living  # the default
    client.force_login(club["umpire"])
    page = client.get(reverse("campaign_settings", args=["syrtis"])).content.decode()
    assert 'name="rank_dead_below_living"' in page
    data = page_data(club["campaign"], rank_dead_below_living=False, reason="A dead man's prize money still counts")

    response = client.post(reverse("campaign_settings", args=["syrtis"]), data)

    assert response.status_code == 302
    assert not Campaign.objects.get(pk=club["campaign"].pk).rank_dead_below_living
    audit = AuditEntry.objects.get(action="settings changed")
    assert audit.data == {"before": {"rank_dead_below_living": True}, "after": {"rank_dead_below_living": False}}
    assert audit.reason == "A dead man's prize money still counts"
