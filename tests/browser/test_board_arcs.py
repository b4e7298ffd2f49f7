"""The battle map in a real browser: a player clicks her ship and sees its arcs and range bands and the enemy in
reach marked with the number to hit; the replay's turn slider, dragged, changes the map and the turn's log
without reloading the page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from battles import services
from battles.models import Battle, BattleMode
from battles.services import SideControl
from tests.browser.conftest import DESKTOP, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCENARIO: dict[str, Any] = {
    "slug": "arcs-browser",
    "title": "Arcs in the browser",
    "map": {"cols": 16, "rows": 12},
    "turn_limit": 4,
    "sides": [
        {"id": "a", "ships": [{"name": "Aphid", "class": "aphid", "position": [8, 7], "facing": 0, "altitude": "M"}]},
        {
            "id": "b",
            "ships": [{"name": "Swiftwood", "class": "swiftwood", "position": [8, 4], "facing": 3, "altitude": "M"}],
        },
    ],
}


def _battle(club: dict[str, Any], mode: str) -> Battle:
    sides = {"a": SideControl("player", club["alice"]), "b": SideControl("player", club["bob"])}
    battle = services.battle_create(
        campaign=club["campaign"],
        created_by=club["umpire"],
        scenario=SCENARIO,
        ruleset_key="sky_galleons",
        mode=mode,
        sides=sides if mode == BattleMode.ASYNC else {},
    )
    battle.refresh_from_db()
    return battle


def _signed_in(chromium: Any, live_server: Any, user: Any) -> Page:
    context = chromium.new_context(viewport=DESKTOP)
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_clicking_a_ship_shows_her_arcs_and_the_enemy_in_reach_with_its_number(chromium, live_server, club):
    battle = _battle(club, BattleMode.ASYNC)
    page = _signed_in(chromium, live_server, club["alice"])
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    arcs = page.locator('svg#battle-hexmap g.hexmap__arcs[data-for-ship="Aphid"]')
    expect(arcs).to_be_hidden()
    page.wait_for_function("() => document.readyState === 'complete'")

    page.locator('svg#battle-hexmap .counter[data-ship="Aphid"]').click()

    expect(arcs).to_be_visible()
    expect(arcs.locator("path.hexmap__arc--close")).to_have_count(1)
    target = arcs.locator('g.hexmap__target[data-target="Swiftwood"]')
    expect(target).to_be_visible()
    expect(target.locator("text.hexmap__target-label")).to_have_text(re.compile(r"^[2-6]\+$"))
    expect(page.locator('svg#battle-hexmap g.hexmap__arcs[data-for-ship="Swiftwood"]')).to_be_hidden()
    page.locator("section.battle-map").screenshot(path=str(SCREENSHOTS / "arcs-aphid-selected.png"))
    _shot(page, "arcs-battle-page")

    # The other ship by keyboard: her group replaces the first; Escape hides them both.
    page.locator('svg#battle-hexmap .counter[data-ship="Swiftwood"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('svg#battle-hexmap g.hexmap__arcs[data-for-ship="Swiftwood"]')).to_be_visible()
    expect(arcs).to_be_hidden()
    page.keyboard.press("Escape")
    expect(page.locator("svg#battle-hexmap g.hexmap__arcs:visible")).to_have_count(0)
    page.context.close()


def test_dragging_the_replay_slider_changes_the_map_and_the_log(chromium, live_server, club):
    battle = _battle(club, BattleMode.AUTO)
    assert battle.is_finished, "the AI captains fought it out"
    page = _signed_in(chromium, live_server, club["umpire"])
    page.goto(f"{live_server.url}/battles/{battle.pk}/replay/")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
    heading = page.locator("#replay-heading")
    expect(heading).to_have_text(f"After turn {battle.turn}")
    slider = page.locator("#replay-turn")
    url = page.url
    map_before = page.locator("svg#replay-map .hexmap__ships").inner_html()
    page.evaluate("() => { window.notReloaded = true; }")

    box = slider.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2, steps=12)
    page.mouse.up()

    expect(slider).to_have_value("0")
    expect(heading).to_have_text("After the set-up")
    expect(page.locator("#replay-turn-output")).to_have_text(f"0 of {battle.turn}")
    assert page.locator("svg#replay-map .hexmap__ships").inner_html() != map_before
    assert page.evaluate("() => window.notReloaded") is True  # swapped in place, not a new page
    assert page.url != url
    assert page.url.endswith("?turn=0")
    expect(page.locator(".replay__step[rel=prev]")).to_have_attribute("aria-disabled", "true")
    _shot(page, "replay-set-up")

    page.locator(".replay__step[rel=next]").click()
    expect(heading).to_have_text("After turn 1")
    expect(slider).to_have_value("1")
    expect(page.locator("h3", has_text="What happened in turn 1")).to_be_visible()
    assert page.evaluate("() => window.notReloaded") is True
    _shot(page, "replay-turn-1")
    page.context.close()
