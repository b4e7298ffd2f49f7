"""Playwright (sync API) driving Debian's chromium against pytest-django's live server.

Never `playwright install`: the browser is the system's /usr/bin/chromium, and the tests run offline.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def chromium():
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium package (never `playwright install`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an asyncio loop in this thread while the browser is open; Django would
    # otherwise refuse the ORM calls (seed_demo, assertions) made from it. Only for as long as it runs,
    # so no later test (or the subprocesses they start) inherits the switch.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            yield browser
            browser.close()


@pytest.fixture
def page(chromium, live_server):
    """A fresh browser tab at desktop size that may only talk to the live server.

    Any request elsewhere (a CDN script, a web font) is blocked and recorded in page.offsite_requests,
    so a test can assert the pages work offline.
    """
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    live = urlsplit(live_server.url)
    offsite: list[str] = []

    def only_live_server(route):
        url = urlsplit(route.request.url)
        if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (live.hostname, live.port):
            route.continue_()
        else:
            offsite.append(route.request.url)
            route.abort()

    page.route("**/*", only_live_server)
    page.offsite_requests = offsite
    yield page
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a full-page screenshot under var/screenshots/ and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def club(transactional_db):
    """The Syrtis Major station for the battle tests: an umpire and two players, Alice and Bob."""
    from campaign.models import Role
    from tests.factories import CampaignFactory, MembershipFactory, UserFactory

    umpire = UserFactory(username="hargreaves", display_name="Umpire Hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Captain Alice")
    bob = UserFactory(username="bob", display_name="Captain Bob")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=bob, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob}


@pytest.fixture
def tab(chromium, live_server):
    """A signed-in browser tab of its own (cookies apart) for a user, at desktop size or another, talking only to
    the live server (anything else is blocked and kept in ``page.offsite_requests``); closed at the end."""
    from django.test import Client

    contexts = []
    live = urlsplit(live_server.url)

    def open_for(user, viewport=DESKTOP, touch: bool = False):
        context = chromium.new_context(viewport=viewport, has_touch=touch)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.offsite_requests = []

        def only_live_server(route):
            url = urlsplit(route.request.url)
            if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (live.hostname, live.port):
                route.continue_()
            else:
                page.offsite_requests.append(route.request.url)
                route.abort()

        page.route("**/*", only_live_server)
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
        return page

    yield open_for
    for context in contexts:
        context.close()
