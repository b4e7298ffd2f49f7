"""Steps of the campaign played in a real browser, shared by the campaign's browser tests: a signed-in tab for a
user, founding a captain from the campaign page, buying a ship at the Parhoon yard."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP


def signed_in_tab(chromium: Browser, live_server: Any, user: Any) -> Page:
    """A tab of its own (cookies apart) signed in as ``user``, talking only to the live server (requests elsewhere
    are blocked and listed in ``page.offsite_requests``). Close it with ``page.context.close()``."""
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    live = urlsplit(live_server.url)
    offsite: list[str] = []

    def only_live_server(route: Any) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (live.hostname, live.port):
            route.continue_()
        else:
            offsite.append(route.request.url)
            route.abort()

    page.route("**/*", only_live_server)
    page.offsite_requests = offsite  # type: ignore[attr-defined]
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return page


def found_captain(page: Page, live_server: Any, slug: str, name: str) -> None:
    """From the campaign page, take a Red Captain's commission; ends on the new captain's page."""
    page.goto(f"{live_server.url}{reverse('campaign_detail', args=[slug])}")
    page.get_by_label("Take a Red Captain's commission as").fill(name)
    page.get_by_role("button", name="Found a captain").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Captain {name}")


def buy_ship(page: Page, class_name: str, ship_name: str) -> None:
    """From the captain's page, buy a catalog class at the Parhoon yard; ends on the new ship's page."""
    page.get_by_role("link", name="The Parhoon yard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The Parhoon yard")
    row = page.locator("tr", has=page.get_by_role("rowheader", name=re.compile(f"^{re.escape(class_name)}\\b")))
    row.get_by_placeholder("Her name").fill(ship_name)
    row.get_by_role("button", name="Buy").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"The {ship_name}")
