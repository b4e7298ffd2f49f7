"""An epic trek in a real browser: the captain's page links the trek; on the trek page the player clicks a hex of the
neighbourhood map to choose where his party walks next, then asks for the shortest way home instead; a day later the
party walks it and the log says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from campaign import captains
from campaign.models import Role
from strategic_map import trek_rules, treks
from strategic_map.mapdata import mars_map
from strategic_map.models import EpicTrek
from tests.browser.campaign_steps import signed_in_tab
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARS = mars_map()
# Neutral mountains west of Parhoon.
START = MARS.hex_by_label("0409")


@pytest.fixture
def trekking(chromium, live_server, transactional_db):
    umpire = UserFactory(username="hargreaves", display_name="Umpire Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Captain Alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack Harkness")
    trek = treks.trek_start(captain_id=jack.pk, cause="crash_landing", q=START.q, r=START.r, party=9, day=0)
    page = signed_in_tab(chromium, live_server, alice)
    yield {"page": page, "campaign": campaign, "jack": jack, "trek": trek}
    page.context.close()


@pytest.mark.rule("SGC-TREK-28")
def test_a_player_chooses_a_hex_on_the_map_then_asks_for_the_shortest_way_home(trekking, live_server):
    page, trek = trekking["page"], trekking["trek"]
    page.goto(f"{live_server.url}/captains/{trekking['jack'].pk}/")
    page.get_by_role("link", name="The epic trek").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The epic trek of Captain Jack Harkness")
    expect(page.locator(".trek-route")).to_contain_text("No hex chosen")

    # Click the hex south-east of the party on the small map (an SVG hex, posted by HTMX).
    here = Hex(START.q, START.r)
    chosen = hexgrid.neighbour(here, 2)
    label = MARS.hex_at(chosen.q, chosen.r).label
    page.locator(f'.trek-hex--choice[data-hex="{label}"]').click()
    expect(page.get_by_role("status")).to_contain_text(f"The party will walk into {label} next.")
    expect(page.locator(".trek-route")).to_contain_text(f"Chosen: {label}")
    expect(page.locator(f'.trek-hex--chosen[data-hex="{label}"]')).to_be_visible()
    assert EpicTrek.objects.get(pk=trek.pk).route == [chosen.to_json()]

    page.get_by_role("button", name="Shortest way home").click()
    home = trek_rules.way_home(MARS, here)
    expect(page.get_by_role("status")).to_contain_text(f"shortest way home: {len(home.path)} hexes")
    labels = [MARS.hex_at(h.q, h.r).label for h in home.path]
    expect(page.locator(".trek-route")).to_contain_text(" → ".join(labels))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "trek-desktop.png"), full_page=True)

    # The days go by: the landing hex is rolled for, and the log tells it in words.
    treks.treks_advance(campaign_id=trekking["campaign"].pk, day=1)
    page.reload()
    expect(page.locator(".trek-log")).to_contain_text("The landing hex. 0409 (mountains, neutral): rolled")
    assert page.offsite_requests == []
