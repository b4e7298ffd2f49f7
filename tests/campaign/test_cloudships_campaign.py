"""A campaign fought under Cloudships of Mars: offered (it has a campaign bridge), chosen by the umpire on the
settings page from a list of the rules that can fight a campaign's battles, and a ship's page showing her Sky
Galleons record sheet (the campaign's ship) and her control panel as she would enter a Cloudships battle, her
damage carried across (battles/rules/cloudships_2023/campaign.py)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from battles import engine_io
from campaign import captains
from campaign.models import AuditEntry, Campaign, CampaignShip, Role, ShipStatus
from galleons.record import HullRow, ship_record_from_class
from tests.campaign.test_campaign_rules import offered
from tests.campaign.test_campaign_settings import page_data
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

CLOUDSHIPS = "cloudships_2023"


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "alice": alice}


def test_cloudships_is_offered_for_a_campaigns_battles(client):
    client.force_login(UserFactory())
    html = client.get(reverse("campaign_new")).content.decode()
    assert CLOUDSHIPS in offered(html)
    assert engine_io.campaign_bridge(CLOUDSHIPS).ruleset == CLOUDSHIPS


def test_the_umpire_chooses_cloudships_on_the_settings_page_from_the_rules_on_offer(client, club):
    campaign = club["campaign"]
    client.force_login(club["umpire"])
    page = client.get(reverse("campaign_settings", args=["syrtis"])).content.decode()
    assert offered(page) == [rs.key for rs in engine_io.campaign_rulesets()]
    assert re.search(r'<option value="sky_galleons" selected>Sky Galleons', page)

    saved = client.post(
        reverse("campaign_settings", args=["syrtis"]),
        page_data(campaign, tactical_ruleset=CLOUDSHIPS, reason="The club plays Cloudships this season"),
    )

    assert saved.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).tactical_ruleset == CLOUDSHIPS
    audit = AuditEntry.objects.get(action="settings changed")
    assert audit.data["after"] == {"tactical_ruleset": CLOUDSHIPS}
    refused = client.post(
        reverse("campaign_settings", args=["syrtis"]), page_data(campaign, tactical_ruleset="whist", reason="Cards")
    )
    assert refused.status_code == 422
    assert "Select a valid choice" in refused.content.decode()


def test_her_page_shows_her_record_sheet_and_her_control_panel_with_her_damage(client, club):
    campaign = club["campaign"]
    Campaign.objects.filter(pk=campaign.pk).update(tactical_ruleset=CLOUDSHIPS)
    jack = captains.captain_found(campaign=campaign, user=club["alice"], name="Jack")
    record = ship_record_from_class("swiftwood", name="Gull")
    # Her Very High row and one High box shot away.
    rows = tuple(HullRow(row.altitude, row.boxes, {0: 3, 1: 1}.get(n, 0)) for n, row in enumerate(record.hull_rows))
    gull = CampaignShip.objects.create(
        campaign=campaign,
        captain=jack,
        name="Gull",
        class_id="swiftwood",
        record=replace(record, hull_rows=rows).to_json(),
        original_price=10_000,
        status=ShipStatus.IN_PORT,
        city="parhoon",
    )
    client.force_login(club["alice"])

    html = client.get(reverse("ship_detail", args=[gull.pk])).content.decode()

    assert "Record sheet" in html
    assert "In battle: Cloudships of Mars (2023 v3)" in html
    assert "control-panel" in html  # the Cloudships sheet's own look
    # Her panel: VH + H (3 + 3 SG boxes) are the High row's six Hull boxes; four of six hit are four crossed.
    panel = html[html.index("In battle:") :]
    assert panel.count("box--lost") >= 4
    # Off the battle board: her campaign status, no battle's hex, band or card.
    assert "<dt>Status</dt><dd>In port at Parhoon</dd>" in panel
    assert "<dt>Hex</dt>" not in panel
    assert "<dt>Card</dt>" not in panel
    pdf = client.get(reverse("ship_sheet_pdf", args=[gull.pk]))
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")
