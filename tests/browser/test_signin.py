"""The demo umpire signs in through the real form in a real browser and reaches the campaign page."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from campaign.models import Invitation
from strategic_map.demo import DEMO_CAMPAIGN_NAME, DEMO_CAMPAIGN_SLUG, DEMO_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}  # a common phone width in CSS pixels


def sign_in_as_umpire(page, live_server, screenshot=None):
    page.goto(f"{live_server.url}/")
    # Not signed in: the home page sends us to the sign-in form.
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    if screenshot:
        screenshot("login-desktop")
    page.get_by_label("Username").fill("umpire")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_demo_umpire_signs_in_and_sees_the_campaign(live_server, transactional_db, page, screenshot):
    call_command("seed_demo", stdout=StringIO())

    sign_in_as_umpire(page, live_server, screenshot)
    screenshot("home-desktop")
    page.get_by_role("link", name=DEMO_CAMPAIGN_NAME).click()

    expect(page.get_by_role("heading", level=1)).to_have_text(DEMO_CAMPAIGN_NAME)
    expect(page.locator(".page-header__role")).to_contain_text("Umpire")
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    expect(page.get_by_role("heading", name="Invitation links")).to_be_visible()
    screenshot("campaign-desktop")

    page.set_viewport_size(PHONE)
    expect(page.get_by_text(DEMO_CAMPAIGN_NAME).first).to_be_visible()
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("campaign-phone")
    page.goto(f"{live_server.url}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("home-phone")

    assert page.offsite_requests == []


def test_umpire_creates_an_invitation_in_place_with_htmx(live_server, transactional_db, page, screenshot):
    call_command("seed_demo", stdout=StringIO())
    sign_in_as_umpire(page, live_server)
    page.get_by_role("link", name=DEMO_CAMPAIGN_NAME).click()
    links = page.locator(".invitation__url")
    expect(links).to_have_count(1)
    page.evaluate("window.__notReloaded = true")

    page.get_by_label("Uses allowed").fill("4")
    page.get_by_role("button", name="Create link").click()

    expect(links).to_have_count(2)
    expect(page.get_by_text("0 of 4 used")).to_be_visible()
    assert page.evaluate("window.__notReloaded") is True  # swapped in place, not a page load
    screenshot("campaign-invitation-created")
    assert page.offsite_requests == []


def test_newcomer_registers_with_the_demo_invitation_on_a_phone(live_server, transactional_db, page, screenshot):
    call_command("seed_demo", stdout=StringIO())
    invitation = Invitation.objects.get(campaign__slug=DEMO_CAMPAIGN_SLUG, revoked=False)
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}{reverse('campaign_join', kwargs={'token': invitation.token})}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Join {DEMO_CAMPAIGN_NAME}")
    page.get_by_label("Username").fill("carruthers")
    page.get_by_label("Name shown to other players").fill("Captain Carruthers")
    page.get_by_label("Email address").fill("carruthers@example.com")
    page.get_by_label("Password:", exact=True).fill("lift-and-ceiling-77")
    page.get_by_label("Password confirmation").fill("lift-and-ceiling-77")
    screenshot("join-phone")
    page.get_by_role("button", name="Create account and join").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(DEMO_CAMPAIGN_NAME)
    expect(page.locator(".page-header__role")).to_contain_text("Player")
    expect(page.get_by_role("status")).to_contain_text("Welcome aboard")
    expect(page.get_by_role("heading", name="Invitation links")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("campaign-player-phone")
    invitation.refresh_from_db()
    assert invitation.uses == 1
