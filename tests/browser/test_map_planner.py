"""The map page in a real browser: pan by dragging, zoom with the wheel and the buttons, click a hex for its
particulars; then plan a voyage by clicking hexes, read the planner's table of days (from the voyages API's
preview), add a patrol day, confirm, and find the voyage stored and drawn; another player never sees her."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from campaign import captains, yard
from campaign.models import Role
from strategic_map import mapdata
from strategic_map.models import Voyage
from tests.browser.campaign_steps import signed_in_tab
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club(transactional_db):
    umpire = UserFactory(username="hargreaves", display_name="Umpire Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    dart = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="clearsight", name="Dart")
    return {"campaign": campaign, "alice": alice, "bob": bob, "dart": dart}


def _view_box(page) -> list[float]:
    return [float(n) for n in page.locator("#strategic-map").get_attribute("viewBox").split()]


def _hex(page, q: int, r: int):
    return page.locator(f'#strategic-map g.smap__hex[data-q="{q}"][data-r="{r}"]')


def test_the_map_pans_zooms_and_tells_a_clicked_hexs_particulars(chromium, live_server, club):
    page = signed_in_tab(chromium, live_server, club["alice"])
    page.goto(f"{live_server.url}/campaigns/syrtis/map/")
    expect(page.get_by_role("heading", level=1)).to_have_text("The map")
    expect(page.locator("#strategic-map g.smap__hex")).to_have_count(500)
    whole = _view_box(page)

    page.get_by_role("button", name="Zoom in").click()
    zoomed = _view_box(page)
    assert zoomed[2] < whole[2]

    # Drag the map right and down: the view moves left and up over the map.
    box = page.locator("#smap-viewport").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=6)
    page.mouse.up()
    panned = _view_box(page)
    assert panned[0] < zoomed[0]
    assert panned[1] < zoomed[1]
    assert panned[2] == pytest.approx(zoomed[2])

    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"document.querySelector('#strategic-map').viewBox.baseVal.width < {panned[2] - 1}")

    page.get_by_role("button", name="Whole map").click()
    assert _view_box(page) == pytest.approx(whole, abs=0.2)

    # Parhoon's hex, by the "go to" box, then a click on a neighbour.
    page.get_by_label("Go to hex").fill("0812")
    page.get_by_role("button", name="Show").click()
    details = page.locator("#hex-details")
    expect(details.locator('[data-field="city"]')).to_have_text("Parhoon")
    expect(details.locator('[data-field="territory"]')).to_have_text("British")
    expect(details.locator('[data-field="encounters"]')).to_have_text("no encounter roll")
    _hex(page, 10, 6).click()
    expect(details.locator('[data-field="label"]')).to_have_text("1112")
    expect(details.locator('[data-field="territory"]')).to_have_text("Neutral Northeast")
    expect(details.locator('[data-field="encounters"]')).to_have_text("1 in 6 moving, 2 in 6 patrolling")
    # The legend is the player's key: his ship, not where the map's data comes from (that is in the docs).
    expect(page.locator("#strategic-map .smap__legend")).to_contain_text("Your ship")
    expect(page.locator("#strategic-map .smap__legend")).not_to_contain_text("stand-in")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "map-desktop.png"), full_page=True)
    assert page.offsite_requests == []
    page.context.close()


def test_a_player_plans_a_voyage_by_clicking_hexes_and_confirms_it(chromium, live_server, club):
    page = signed_in_tab(chromium, live_server, club["alice"])
    page.goto(f"{live_server.url}/campaigns/syrtis/map/")
    page.get_by_label("Ship", exact=True).select_option(f"ship:{club['dart'].pk}")
    expect(page.locator("#planner-status")).to_contain_text("Click hexes")

    # East from Parhoon (0812): 0912, 1012, then 1112 over the British border into Neutral Northeast.
    for q, r in ((8, 7), (9, 7), (10, 6)):
        _hex(page, q, r).click()
    rows = page.locator("#planner-days tbody tr")
    # A screw galley sails 2 hexes a day (SGC-MOVE-03): two days, the second ending in Neutral Northeast.
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("1012")
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("British")
    expect(rows.nth(0).locator("td").nth(3)).to_have_text("none")
    expect(rows.nth(1).locator("td").nth(1)).to_have_text("1112")
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("Neutral Northeast")
    expect(rows.nth(1).locator("td").nth(3)).to_have_text("1 in 6")
    # The route is drawn on the map: Parhoon and the three hexes.
    assert len(page.locator(".smap__planner-path").get_attribute("points").split()) == 4

    page.get_by_role("button", name="Patrol here a day").click()
    expect(rows).to_have_count(3)
    expect(rows.nth(2).locator("td").nth(0)).to_have_text("Patrol")
    expect(rows.nth(2).locator("td").nth(3)).to_have_text("2 in 6")
    expect(page.get_by_role("button", name="Confirm the voyage")).to_be_enabled()
    page.screenshot(path=str(SCREENSHOTS / "map-planner.png"), full_page=True)

    page.get_by_role("button", name="Confirm the voyage").click()
    expect(page.locator("#planner-status")).to_have_text(re.compile("The Dart sails"))
    voyage = Voyage.objects.get(ship=club["dart"])
    assert voyage.plan == [
        {"kind": "move", "path": [[8, 7], [9, 7]]},
        {"kind": "move", "path": [[10, 6]]},
        {"kind": "patrol"},
    ]
    expect(page.locator(f'#strategic-map g.smap__ship[data-ship="{club["dart"].pk}"]')).to_have_count(1)
    page.context.close()

    # Bob's browser never shows her.
    bob = signed_in_tab(chromium, live_server, club["bob"])
    bob.goto(f"{live_server.url}/campaigns/syrtis/map/")
    expect(bob.locator("#strategic-map g.smap__hex")).to_have_count(500)
    assert "Dart" not in bob.content()
    expect(bob.locator("#strategic-map g.smap__ship")).to_have_count(0)
    bob.context.close()


def test_a_player_reroutes_a_ship_at_sea_home_and_her_new_orders_stand(chromium, live_server, club):
    dart = club["dart"]
    dart.status = "at_sea"
    dart.save(update_fields=["status"])
    voyage = Voyage.objects.create(
        campaign=club["campaign"],
        captain=dart.captain,
        ship=dart,
        start_city="Parhoon",
        started_day=0,
        q=10,
        r=6,
        plan=[{"kind": "patrol"}],
    )
    page = signed_in_tab(chromium, live_server, club["alice"])
    page.goto(f"{live_server.url}/campaigns/syrtis/map/")
    expect(page.locator(f'#strategic-map g.smap__ship[data-ship="{dart.pk}"]')).to_have_count(1)
    page.get_by_label("Ship", exact=True).select_option(f"voyage:{voyage.pk}")
    rows = page.locator("#planner-days tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td").nth(0)).to_have_text(re.compile("^Patrol"))

    page.get_by_role("button", name="Clear").click()
    page.get_by_role("button", name="Home").click()
    expect(page.get_by_role("button", name="Confirm the new orders")).to_be_enabled()
    days = rows.count()
    assert days >= 1
    page.get_by_role("button", name="Confirm the new orders").click()
    expect(page.locator("#planner-status")).to_have_text(re.compile("new orders stand"))
    voyage.refresh_from_db()
    last = [day for day in voyage.plan if day["kind"] == "move"][-1]["path"][-1]
    home = mapdata.mars_map().hex_at(*last)
    assert home.city is not None
    assert home.allegiance == "friendly"
    assert len(voyage.plan) == days
    page.context.close()
