"""The captain's page, founding a captain, the umpire's forms, and the standings page (campaign/captain_views.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import captains
from campaign.models import AuditEntry, Captain, CaptainStatus, Role
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
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob}


def test_a_player_founds_a_captain_and_sees_his_advance_in_the_statement(client, club):
    client.force_login(club["alice"])
    page = client.get(reverse("campaign_detail", args=["syrtis"]))
    assert "Found a captain" in page.content.decode()

    response = client.post(reverse("captain_found", args=["syrtis"]), {"name": "Jack <b>Harkness</b>"})

    captain = Captain.objects.get(player=club["alice"])
    assert response.status_code == 302
    assert response["Location"] == reverse("captain_detail", args=[captain.pk])
    html = client.get(response["Location"]).content.decode()
    assert "£30,000" in html
    assert "Advance from the colonial administration" in html
    assert "Jack &lt;b&gt;Harkness&lt;/b&gt;" in html  # escaped
    assert "Adjust money" not in html  # the umpire's forms are the umpire's


def test_another_players_captain_answers_404_and_a_stranger_sees_nothing(client, club):
    captain = captains.captain_found(campaign=club["campaign"], user=club["alice"], name="Jack")
    client.force_login(club["bob"])
    assert client.get(reverse("captain_detail", args=[captain.pk])).status_code == 404
    assert client.post(reverse("captain_adjust", args=[captain.pk]), {"amount": 5, "reason": "x"}).status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("captain_detail", args=[captain.pk])).status_code == 404
    assert client.get(reverse("campaign_standings", args=["syrtis"])).status_code == 404
    assert client.post(reverse("captain_found", args=["syrtis"]), {"name": "Stowaway"}).status_code == 404


def test_the_owner_cannot_adjust_his_own_money(client, club):
    captain = captains.captain_found(campaign=club["campaign"], user=club["alice"], name="Jack")
    client.force_login(club["alice"])
    response = client.post(
        reverse("captain_adjust", args=[captain.pk]), {"amount": 1_000_000, "reason": "Greed"}, follow=True
    )
    assert "umpire" in response.content.decode()
    captain.refresh_from_db()
    assert captain.balance == 30_000


def test_the_umpire_adjusts_money_and_status_with_reasons_from_the_captains_page(client, club):
    captain = captains.captain_found(campaign=club["campaign"], user=club["alice"], name="Jack")
    client.force_login(club["umpire"])
    html = client.get(reverse("captain_detail", args=[captain.pk])).content.decode()
    assert "Adjust money" in html

    client.post(reverse("captain_adjust", args=[captain.pk]), {"amount": -2_500, "reason": "Fined at Parhoon"})
    client.post(
        reverse("captain_status", args=[captain.pk]),
        {"status": CaptainStatus.CAPTURED, "city": "thoth", "reason": "Taken by the Oenotrians"},
    )
    refused = client.post(
        reverse("captain_adjust", args=[captain.pk]), {"amount": -99_999, "reason": "Ruin"}, follow=True
    )

    captain.refresh_from_db()
    assert (captain.balance, captain.status, captain.city) == (27_500, CaptainStatus.CAPTURED, "thoth")
    assert AuditEntry.objects.filter(captain=captain).count() == 2
    assert "27,500" in refused.content.decode()  # the refusal says what is in the bank


def test_the_standings_page_ranks_the_captains_draws_the_chart_and_tells_the_chronicle(client, club):
    captains.captain_found(campaign=club["campaign"], user=club["alice"], name="Jack")
    captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Mary <i>Read</i>")
    client.force_login(club["bob"])
    html = client.get(reverse("campaign_standings", args=["syrtis"])).content.decode()
    assert html.count("£30,000") >= 2
    assert 'class="wealth-chart"' in html
    assert "Mary &lt;i&gt;Read&lt;/i&gt;" in html
    assert "<i>Read</i>" not in html
    assert "takes a Red Captain" in html
    assert "the umpire declares the winner" in html


def test_the_standings_page_costs_as_many_queries_with_many_captains_as_with_two(client, club):
    captains.captain_found(campaign=club["campaign"], user=club["alice"], name="Jack")
    captains.captain_found(campaign=club["campaign"], user=club["bob"], name="Mary")
    client.force_login(club["umpire"])
    url = reverse("campaign_standings", args=["syrtis"])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for i in range(6):
        player = UserFactory(username=f"late{i}")
        MembershipFactory(campaign=club["campaign"], user=player, role=Role.PLAYER)
        captains.captain_found(campaign=club["campaign"], user=player, name=f"Latecomer {i}")
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many.captured_queries) == len(few.captured_queries)
