"""The captains' API: my captains and their books, never another player's (404), the umpire's audited writes,
bad input answered 400 with the reason, and the public standings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import captains
from campaign.models import AuditEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack, "mary": mary}


def test_a_player_lists_and_reads_only_his_own_captains(client, club):
    client.force_login(club["alice"])
    listed = client.get(reverse("api_captain_list", args=["syrtis"])).json()
    assert [c["name"] for c in listed] == ["Jack"]
    mine = client.get(reverse("api_captain_detail", args=[club["jack"].pk])).json()
    assert (mine["balance"], mine["ships"]) == (30_000, [])
    ledger = client.get(reverse("api_captain_ledger", args=[club["jack"].pk])).json()
    assert [(e["kind"], e["amount"], e["balance_after"]) for e in ledger] == [("advance", 30_000, 30_000)]


@pytest.mark.parametrize("name", ["api_captain_detail", "api_captain_ledger"])
def test_another_players_captain_answers_404(client, club, name):
    client.force_login(club["alice"])
    assert client.get(reverse(name, args=[club["mary"].pk])).status_code == 404
    assert client.get(reverse(name, args=[club["mary"].pk + 1000])).status_code == 404


@pytest.mark.parametrize("name", ["api_captain_adjust", "api_captain_status"])
def test_another_players_captain_cannot_be_written_to(client, club, name):
    client.force_login(club["alice"])
    body = {"amount": 5, "status": "ashore", "reason": "mine now"}
    assert client.post(reverse(name, args=[club["mary"].pk]), body, content_type="application/json").status_code == 404


def test_outside_the_campaign_everything_answers_404(client, club):
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("api_captain_list", args=["syrtis"])).status_code == 404
    assert client.get(reverse("api_standings", args=["syrtis"])).status_code == 404
    assert client.get(reverse("api_captain_detail", args=[club["jack"].pk])).status_code == 404
    found = client.post(
        reverse("api_captain_list", args=["syrtis"]), {"name": "Stowaway"}, content_type="application/json"
    )
    assert found.status_code == 404


def test_the_umpire_sees_every_captain_and_adjusts_with_a_reason(client, club):
    client.force_login(club["umpire"])
    assert len(client.get(reverse("api_captain_list", args=["syrtis"])).json()) == 2
    url = reverse("api_captain_adjust", args=[club["mary"].pk])
    done = client.post(url, {"amount": 750, "reason": "Salvage money"}, content_type="application/json")
    assert done.status_code == 200
    assert done.json()["balance"] == 30_750
    assert AuditEntry.objects.get(captain=club["mary"]).reason == "Salvage money"


def test_bad_input_is_a_400_with_the_reason_never_a_500(client, club):
    client.force_login(club["umpire"])
    url = reverse("api_captain_adjust", args=[club["mary"].pk])
    overdrawn = client.post(url, {"amount": -40_000, "reason": "Fine"}, content_type="application/json")
    assert overdrawn.status_code == 400
    assert "30,000" in str(overdrawn.json())
    blank = client.post(url, {"amount": 10, "reason": " "}, content_type="application/json")
    assert blank.status_code == 400
    nonsense = client.post(url, {"amount": "lots"}, content_type="application/json")
    assert nonsense.status_code == 400
    carol = UserFactory(username="carol")
    MembershipFactory(campaign=club["campaign"], user=carol, role=Role.PLAYER)
    client.force_login(carol)
    again = client.post(reverse("api_captain_list", args=["syrtis"]), {"name": "Jack"}, content_type="application/json")
    assert again.status_code == 400
    assert "already a Captain Jack" in str(again.json())
    client.force_login(club["bob"])
    assert client.post(url, {"amount": 10, "reason": "self-help"}, content_type="application/json").status_code == 403


def test_a_player_founds_a_captain_through_the_api(client, club):
    carol = UserFactory(username="carol")
    MembershipFactory(campaign=club["campaign"], user=carol, role=Role.PLAYER)
    client.force_login(carol)
    made = client.post(reverse("api_captain_list", args=["syrtis"]), {"name": "Anne"}, content_type="application/json")
    assert made.status_code == 201
    assert made.json()["balance"] == 30_000


def test_the_standings_are_public_to_members_and_show_no_ledgers(client, club):
    client.force_login(club["alice"])
    data = client.get(reverse("api_standings", args=["syrtis"])).json()
    assert {row["name"] for row in data["leaderboard"]} == {"Jack", "Mary"}
    assert data["wealth"]["Mary"] == [[0, 30_000]]
    assert "takes a Red Captain" in data["chronicle"][0]["text"]
    assert "reason" not in str(data["leaderboard"])
