"""The umpire's desk in a real browser: pause and resume the calendar, give British territory encounter numbers
from its row of the table (the row's fields belong to the row's form), change a cell of the trek table grid, and
extend a captain's orders with the browser's date and time picker; a player's tab is told the desk is the umpire's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from campaign import captains
from campaign.models import AuditEntry, Role
from strategic_map import calendar, map_rules
from tests.browser.campaign_steps import signed_in_tab
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk_club(chromium, live_server, transactional_db):
    umpire = UserFactory(username="hargreaves", display_name="Commodore Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    campaign.next_tick_at = (timezone.now() + timedelta(hours=10)).replace(second=0, microsecond=0)
    campaign.save(update_fields=["next_tick_at"])
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Captain Alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    page = signed_in_tab(chromium, live_server, umpire)
    yield {"page": page, "campaign": campaign, "alice": alice, "jack": jack}
    page.context.close()


@pytest.mark.rule("SGC-MAP-03")
def test_the_umpire_runs_the_calendar_and_edits_the_maps_numbers_from_the_desk(desk_club, live_server, chromium):
    page, campaign = desk_club["page"], desk_club["campaign"]
    page.goto(f"{live_server.url}/campaigns/syrtis/")
    page.get_by_role("link", name="Umpire's desk").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Umpire's desk")

    page.get_by_label("Reason").first.fill("Easter")
    page.get_by_role("button", name="Pause the campaign").click()
    expect(page.get_by_role("status")).to_contain_text("The campaign is paused")
    page.locator("#resume-reason").fill("Back from Easter")
    page.get_by_role("button", name="Resume the campaign").click()
    expect(page.get_by_role("status")).to_contain_text("The campaign runs again")

    row = page.locator('[data-desk-territory="British"]')
    row.get_by_label("British, moving through").select_option("1")
    row.get_by_label("British, patrolling").select_option("2")
    row.get_by_label("Reason for British").fill("Raiders off the plateau")
    row.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("British: an encounter on 1 or less moving through")
    campaign.refresh_from_db()
    assert (map_rules.territory_numbers(campaign)["British"].patrol) == 2

    page.get_by_label("hostile hills, die 1").fill("a3")
    page.locator("#trek-reason").fill("Deadlier hills")
    page.get_by_role("button", name="Save the trek table").click()
    expect(page.get_by_role("status")).to_contain_text("The trek table is saved.")
    expect(page.get_by_label("hostile hills, die 1")).to_have_value("A:3")
    campaign.refresh_from_db()
    assert map_rules.trek_table(campaign).result(allegiance="hostile", row="hills", die=1) == "A:3"

    until = campaign.next_tick_at + timedelta(hours=2)
    form = page.locator("form", has=page.get_by_role("button", name="Grant the extension"))
    form.get_by_label("Captain").select_option(label="Captain Jack (Captain Alice)")
    form.get_by_label("Orders due by").fill(f"{until:%Y-%m-%dT%H:%M}")
    form.get_by_label("Reason").fill("Jack's player is travelling")
    form.get_by_role("button", name="Grant the extension").click()
    expect(page.get_by_role("status")).to_contain_text("Captain Jack may send orders for day 1 until")
    assert calendar.order_deadline(campaign, desk_club["jack"]) == until

    actions = set(AuditEntry.objects.filter(campaign=campaign).values_list("action", flat=True))
    assert actions == {
        "campaign paused",
        "campaign resumed",
        "territory numbers set",
        "trek table set",
        "orders extended",
    }
    expect(page.locator("#audit")).to_contain_text("Raiders off the plateau")

    player = signed_in_tab(chromium, live_server, desk_club["alice"])
    response = player.goto(f"{live_server.url}/campaigns/syrtis/desk/")
    assert response is not None
    assert response.status == 403
    expect(player.get_by_role("main")).to_contain_text("The umpire's desk is the umpire's page")
    player.context.close()
