"""An organiser's first hour in a real browser, without a shell or the admin: a club member who is no superuser signs
in, starts a campaign from the home page (a mistake on the form is shown on it), invites two players with a link,
both register with it and found captains (the advance the organiser chose in the bank, SGC-START-09), one buys a
ship at Parhoon and sets out on a voyage, and the organiser runs the campaign's first day from the desk."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, EncounterControl, Membership, Role
from strategic_map.models import CampaignDay, Voyage, VoyageStatus
from tests.browser.campaign_steps import buy_ship, found_captain
from tests.browser.conftest import DESKTOP, SCREENSHOTS
from tests.browser.week_seeds import BOB_ROUTE
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "lift-and-ceiling-77"


def fresh_tab(chromium: Browser, live_server: Any) -> Page:
    """A tab of its own, signed in as nobody, that may only talk to the live server."""
    context = chromium.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    live = urlsplit(live_server.url)

    def only_live_server(route: Any) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (live.hostname, live.port):
            route.continue_()
        else:
            route.abort()

    tab.route("**/*", only_live_server)
    return tab


def register_with(tab: Page, link: str, username: str, shown_as: str) -> None:
    """Open the invitation link, create an account with it; ends on the campaign's page as a player."""
    tab.goto(link)
    tab.get_by_label("Username").fill(username)
    tab.get_by_label("Name shown to other players").fill(shown_as)
    tab.get_by_label("Email address").fill(f"{username}@example.com")
    tab.get_by_label("Password:", exact=True).fill(NEW_PASSWORD)
    tab.get_by_label("Password confirmation").fill(NEW_PASSWORD)
    tab.get_by_role("button", name="Create account and join").click()
    expect(tab.locator(".page-header__role")).to_contain_text("Player")


@pytest.mark.rule("SGC-START-09")
def test_an_organiser_starts_a_campaign_invites_two_players_and_runs_the_first_day(
    chromium: Browser, live_server: Any, page: Page, screenshot: Any
) -> None:
    organiser = UserFactory(username="organiser", display_name="Commodore Blake")
    assert not organiser.is_staff
    assert not organiser.is_superuser
    base = live_server.url

    # --- Sign in through the form and start a campaign from the home page ---------------------------------------
    page.goto(f"{base}/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    expect(page.get_by_role("link", name="Admin")).to_have_count(0)
    screenshot("new-campaign-home")
    page.get_by_role("link", name="New campaign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New campaign")
    expect(page.get_by_label("Starting money, £ (the advance)")).to_have_value("30000")
    screenshot("new-campaign-form")

    page.get_by_label("Name:", exact=True).fill("The Meroe Station")
    page.get_by_label("Description").fill("Privateers out of Parhoon, hunting the Astusapes pirates.")
    page.get_by_label("Real hours in a campaign day").fill("12")  # with orders due 20 hours in: a mistake
    page.get_by_label("Starting money, £ (the advance)").fill("25000")
    page.get_by_label("Who commands the ships met").select_option(EncounterControl.UMPIRE)
    page.get_by_role("button", name="Found the campaign").click()
    orders_due = page.get_by_label("Orders due, hours into the day")
    expect(page.locator(".errorlist")).to_contain_text("Orders are due within the day: at most 12 hours into it.")
    assert Campaign.objects.count() == 0
    screenshot("new-campaign-mistake")
    orders_due.fill("10")
    page.get_by_role("button", name="Found the campaign").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("The Meroe Station")
    expect(page.get_by_role("status")).to_contain_text("you are its umpire")
    expect(page.locator(".page-header__role")).to_contain_text("Umpire")
    campaign = Campaign.objects.get()
    assert campaign.slug == "the-meroe-station"
    assert (campaign.hours_per_day, campaign.order_deadline_hours, campaign.starting_advance) == (12, 10, 25_000)
    assert campaign.encounter_control == EncounterControl.UMPIRE
    assert Membership.objects.get(campaign=campaign, user=organiser).role == Role.UMPIRE

    # --- One link for both players ----------------------------------------------------------------------------
    page.get_by_label("Uses allowed").fill("2")
    page.get_by_role("button", name="Create link").click()
    link = page.locator(".invitation__url")
    expect(link).to_have_count(1)
    invitation_url = link.input_value()
    screenshot("new-campaign-invitation")

    # --- The two players join with it and found captains; one buys a ship and sets out ---------------------------
    alice, bob = fresh_tab(chromium, live_server), fresh_tab(chromium, live_server)
    register_with(alice, invitation_url, "alice", "Alice Fairweather")
    register_with(bob, invitation_url, "bob", "Robert Drummond")
    found_captain(alice, live_server, campaign.slug, "Jack Fairweather")
    expect(alice.locator("main")).to_contain_text("£25,000")
    found_captain(bob, live_server, campaign.slug, "Robert Drake")
    assert sorted(Captain.objects.filter(campaign=campaign).values_list("balance", flat=True)) == [25_000, 25_000]

    alice.goto(f"{base}/captains/{Captain.objects.get(name='Jack Fairweather').pk}/")
    buy_ship(alice, "Fleetfoot", "Dart")
    dart = CampaignShip.objects.get(campaign=campaign, name="Dart")
    alice.goto(f"{base}/campaigns/{campaign.slug}/map/")
    alice.get_by_label("Ship", exact=True).select_option(f"ship:{dart.pk}")
    expect(alice.locator("#planner-status")).to_contain_text("Click hexes")
    for q, r in BOB_ROUTE:
        alice.locator(f'#strategic-map g.smap__hex[data-q="{q}"][data-r="{r}"]').click()
    expect(alice.locator("#planner-days tbody tr")).to_have_count(1)
    alice.get_by_role("button", name="Confirm the voyage").click()
    expect(alice.locator("#planner-status")).to_have_text(re.compile("The Dart sails"))
    voyage = Voyage.objects.get(campaign=campaign, status=VoyageStatus.UNDER_WAY)

    # A player finds the desk is the umpire's page.
    answer = bob.goto(f"{base}/campaigns/{campaign.slug}/desk/")
    assert answer is not None
    assert answer.status == 403
    expect(bob.get_by_role("main")).to_contain_text("The umpire's desk is the umpire's page")
    bob.screenshot(path=str(SCREENSHOTS / "new-campaign-player-at-the-desk.png"), full_page=True)
    alice.context.close()
    bob.context.close()

    # --- The organiser runs the first day from the desk -------------------------------------------------------
    page.goto(f"{base}/campaigns/{campaign.slug}/")
    expect(page.locator('[aria-labelledby="members-heading"] .members__item')).to_have_count(3)
    expect(page.locator("#member-change")).to_be_visible()  # roles and removals without the admin
    screenshot("new-campaign-members")
    page.get_by_role("link", name="Umpire's desk").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Umpire's desk")
    expect(page.locator("#voyages, main")).to_contain_text("Dart")
    page.locator("#run-reason").fill("The Meroe Station's first day")
    page.get_by_role("button", name="Run day 1 now").click()
    expect(page.get_by_role("status")).to_contain_text("Day 1 has run.")
    expect(page.get_by_role("button", name="Run day 2 now")).to_be_visible()
    screenshot("new-campaign-day-one")

    campaign.refresh_from_db()
    assert campaign.day == 1
    assert CampaignDay.objects.get(campaign=campaign, day=1).finished_at is not None
    voyage.refresh_from_db()
    assert (voyage.q, voyage.r) == BOB_ROUTE[-1], "the Dart did not sail her first day"
    assert Captain.objects.get(name="Robert Drake").status == CaptainStatus.ASHORE
    assert page.offsite_requests == []
