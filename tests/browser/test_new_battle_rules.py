"""The New battle page in a real browser: the umpire picks another ruleset and HTMX brings its own scenarios, sides
and options in place of the last ones; the battle starts under it."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from battles.models import Battle
from campaign.models import Role
from tests.browser.conftest import DESKTOP
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def umpires_tab(chromium, live_server, umpire) -> Page:
    context = chromium.new_context(viewport=DESKTOP)
    client = Client()
    client.force_login(umpire)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_the_umpire_changes_the_rules_and_the_scenarios_sides_and_options_follow(chromium, live_server):
    umpire = UserFactory(username="hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    page = umpires_tab(chromium, live_server, umpire)

    page.goto(f"{live_server.url}/campaigns/syrtis/battles/new/")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
    expect(page.locator("select[name=side_irish]")).to_have_count(0)
    page.get_by_label("Scenario").select_option("john-bulls-tyranny")
    expect(page.locator("select[name=side_irish]")).to_have_count(1)  # Sky Galleons' scenario 2, by HTMX

    page.get_by_label("Battle rules", exact=True).select_option("duel")

    expect(page.locator("select[name=side_red]")).to_have_count(1)
    expect(page.locator("select[name=side_irish]")).to_have_count(0)
    expect(page.get_by_label("Scenario")).to_have_value("open-water")
    expect(page.locator("select[name=option_long_range]")).to_have_value("4")  # the duel's default range
    expect(page.locator("input[name=option_advanced]")).to_have_count(0)  # Sky Galleons' options are gone
    page.get_by_text("Rules options").click()  # the options are folded away until asked for
    page.locator("select[name=option_long_range]").select_option("5")
    page.get_by_label("How it is played").select_option("table")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.get()
    assert (battle.ruleset_key, battle.scenario_slug) == ("duel", "open-water")
    assert battle.options["long_range"] == 5
    page.context.close()


def test_the_umpire_starts_a_cloudships_battle_at_the_table_turning_the_cards_himself(chromium, live_server):
    """Cloudships of Mars (registered by its package like the others): its scenario, sides and yes/no options come
    in by HTMX; at the table with umpire_turns_cards the battle waits for his go-ahead before the first card."""
    umpire = UserFactory(username="hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    page = umpires_tab(chromium, live_server, umpire)

    page.goto(f"{live_server.url}/campaigns/syrtis/battles/new/")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
    page.get_by_label("Battle rules", exact=True).select_option("cloudships_2023")
    expect(page.locator("select[name=side_martians]")).to_have_count(1)
    expect(page.get_by_label("Scenario")).to_have_value("raid-on-the-canal")
    page.get_by_text("Rules options").click()
    page.locator("input[name=option_umpire_turns_cards]").check()
    page.get_by_label("How it is played").select_option("table")
    for side in ("british", "martians"):
        page.locator(f"select[name=side_{side}]").select_option("umpire")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.get()
    assert (battle.ruleset_key, battle.scenario_slug, battle.mode) == ("cloudships_2023", "raid-on-the-canal", "table")
    assert battle.options["umpire_turns_cards"] is True
    expect(page.locator('[data-ship="Aphid"]').first).to_be_visible()  # the map
    expect(page.locator("[id^=decision-]").first).to_contain_text("card")  # the go-ahead, asked of the umpire
    page.context.close()
