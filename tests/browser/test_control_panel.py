"""A Cloudships of Mars control panel in a real browser, drawn by the app's record-sheet renderer with the site's
style sheet: its lamps show their colours (the lit one amber), the boarding squares are blue, the arcs red. The
screenshot is kept under var/screenshots/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from battles.drawing.record_sheet import render_record_sheet
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.browser.conftest import SCREENSHOTS
from tests.rules.cloudships_2023.battle_kit import changed, mid_round, new

pytestmark = [pytest.mark.browser]

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"


def test_the_control_panel_shows_its_lamps_squares_and_arcs_in_their_colours(chromium) -> None:
    board = mid_round(new(), active="Locust")
    lights = ((panels.NO_ALTITUDE_CHANGE, panels.GREEN), (panels.NO_DIRECTION_CHANGE, panels.RED))
    board = changed(board, "Locust", lights=(*lights, (panels.BRIDGE_HIT, panels.GREEN), (panels.FIRE, panels.AMBER)))
    sheet = CLOUDSHIPS.record_sheet(board.to_json(), "Locust")
    assert sheet is not None
    page = chromium.new_page(viewport={"width": 900, "height": 900})
    try:
        page.set_content(f"<!doctype html><style>{CSS.read_text()}</style><body>{render_record_sheet(sheet)}</body>")
        fire = page.locator(".sheet-row--lamps", has_text="Fire").locator(".box")
        colours = [fire.nth(i).evaluate("e => getComputedStyle(e).backgroundColor") for i in range(3)]
        assert colours[1] == "rgb(217, 142, 4)"  # lit amber
        assert colours[0] != colours[1]
        assert colours[2] != colours[1]
        assert fire.nth(0).evaluate("e => getComputedStyle(e).borderRadius") == "50%"
        blue = page.locator(".box--blue.box--whole").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert blue == "rgb(31, 95, 168)"
        wedge = page.locator(".sheet-gun__arcs--red .sheet-gun__wedge--on").first
        assert wedge.evaluate("e => getComputedStyle(e).fill").startswith("rgba(192, 40, 28")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "cloudships-locust-panel.png"), full_page=True)
    finally:
        page.close()
