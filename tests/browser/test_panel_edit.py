"""The umpire edits the Locust's control panel on the New battle page in a real browser (issue 22): he opens the
ships' panels, then the Locust, changes her movement and a gun's dice, and the battle's control-panel sheet shows
them. Screenshots of the page at desktop and phone width are kept under var/screenshots/ for a person to look at."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from battles.models import Battle
from tests.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def open_the_locust(page, live_server) -> None:
    page.goto(f"{live_server.url}/campaigns/syrtis/battles/new/")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
    page.get_by_label("Battle rules", exact=True).select_option("cloudships_2023")
    expect(page.locator("select[name=side_martians]")).to_have_count(1)
    page.get_by_text("Ships' panels").click()
    locust = page.locator('details.ship-edit[data-ship="Locust"]')
    expect(locust).to_contain_text("movement 6 · ceiling High")
    locust.locator("summary").click()
    expect(locust.locator("input[name=ship2-movement]")).to_be_visible()


def test_the_umpire_edits_the_locusts_panel_and_her_sheet_shows_it(tab, live_server, club):
    page = tab(club["umpire"])
    open_the_locust(page, live_server)
    locust = page.locator('details.ship-edit[data-ship="Locust"]')
    locust.locator("input[name=ship2-movement]").fill("5")
    gun = locust.locator("fieldset", has_text="Gun 2: 3-pdr HRC")
    gun.get_by_label("Dice").fill("2")
    gun.get_by_label("stern").uncheck()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    locust.screenshot(path=str(SCREENSHOTS / "new-battle-locust-panel.png"))

    # An edit the rules refuse comes back on the form, the Locust opened where it is wrong, nothing started.
    gun.get_by_label("Short range").fill("5")
    page.get_by_label("How it is played").select_option("table")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator(".errorlist").first).to_contain_text("short range (5) is beyond its long range (4)")
    locust = page.locator('details.ship-edit[data-ship="Locust"]')
    expect(locust).to_have_attribute("open", "")
    assert not Battle.objects.exists()

    gun = locust.locator("fieldset", has_text="Gun 2: 3-pdr HRC")
    expect(gun.get_by_label("Dice")).to_have_value("2")  # what he typed is kept
    gun.get_by_label("Short range").fill("2")
    for side in ("british", "martians"):
        page.locator(f"select[name=side_{side}]").select_option("umpire")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.get()
    assert battle.title == "Raid on the canal (edited: Locust)"

    page.goto(live_server.url + reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": "Locust"}))
    sheet = page.locator('[data-ship="Locust"]').first
    expect(sheet).to_contain_text(re.compile(r"Movement\s*5\s*Ceiling High"))
    expect(sheet).to_contain_text("2 dice · damage 2")
    expect(sheet).to_contain_text("arcs starboard, bow ·")
    page.screenshot(path=str(SCREENSHOTS / "locust-edited-sheet.png"), full_page=True)


def test_the_ships_panels_fit_a_phone(tab, live_server, club):
    page = tab(club["umpire"], viewport=PHONE, touch=True)
    open_the_locust(page, live_server)
    locust = page.locator('details.ship-edit[data-ship="Locust"]')
    locust.screenshot(path=str(SCREENSHOTS / "new-battle-locust-panel-phone.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
