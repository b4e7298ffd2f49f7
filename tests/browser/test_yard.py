"""The Parhoon yard in a real browser: a player founds a captain on the campaign page, watches the design rater
answer as he edits a design, buys a ship within the advance and finds her on his captain's page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign.models import CampaignShip, Role
from galleons import catalog
from tests.browser.campaign_steps import buy_ship, found_captain, signed_in_tab
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def alice_tab(chromium, live_server, transactional_db):
    umpire = UserFactory(username="hargreaves", display_name="Umpire Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Captain Alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    page = signed_in_tab(chromium, live_server, alice)
    yield page
    page.context.close()


@pytest.mark.rule("SGC-START-09", "SGD-HULL-05")
def test_a_player_founds_a_captain_buys_a_ship_within_the_advance_and_sees_her_on_his_page(alice_tab, live_server):
    page = alice_tab
    found_captain(page, live_server, "syrtis", "Jack Harkness")
    expect(page.locator(".balance")).to_have_text("£30,000")

    page.get_by_role("link", name="The Parhoon yard").click()
    # HTMX wires the rater's form up once the page has loaded: a change made before that would go unheard.
    expect(page.get_by_role("heading", level=1)).to_have_text("The Parhoon yard")
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("window.__notReloaded = true")
    page.get_by_label("Hull:", exact=True).select_option("steel")
    # The rater answers in place as the design is edited (HTMX), with the rule the steel hull breaks.
    expect(page.locator("#design-quote")).to_contain_text("SGD-HULL-05")
    expect(page.locator("#design-quote")).to_contain_text("Parhoon will not build her")
    page.get_by_label("Hull:", exact=True).select_option("wood")
    expect(page.locator("#design-quote")).to_contain_text("Parhoon will build her")
    assert page.evaluate("window.__notReloaded") is True
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "yard-desktop.png"), full_page=True)
    page.get_by_role("link", name="Captain Jack Harkness").click()

    buy_ship(page, "Fleetfoot", "Dart")
    expect(page.get_by_role("status")).to_contain_text("The Dart is yours")
    expect(page.locator(".sheet__name")).to_have_text("Dart")
    page.screenshot(path=str(SCREENSHOTS / "ship-desktop.png"), full_page=True)

    page.get_by_role("link", name="Captain Jack Harkness").click()
    expect(page.get_by_role("rowheader", name="Dart")).to_be_visible()
    price = catalog.ship_class("fleetfoot").price or 0
    expect(page.locator(".balance")).to_have_text(f"£{30_000 - price:,}")
    assert CampaignShip.objects.get(name="Dart").captain.name == "Jack Harkness"
    assert page.offsite_requests == []
