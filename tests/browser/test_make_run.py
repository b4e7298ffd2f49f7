"""The newcomer's first hour: the server `make run` starts serves a working, styled site.

pytest-django's live_server serves static files by itself, so the other browser tests cannot tell whether the
development server does. This one runs the Makefile's own `run` target (migrate, load_reference_data, seed_demo,
runserver with its autoreloader, development settings) on a free port against a temporary SQLite database, reads
the links and logins seed_demo prints, and then uses the site in Chromium the way a newcomer would: signs in as a
demo player, sees the site's stylesheet applied, plans a voyage with the map planner's buttons (planner.js), and
opens the API docs (Swagger UI's assets). Every static file a page asks for must answer 200, and the favicon too.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response, expect

from tests.browser.conftest import DESKTOP, SCREENSHOTS
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.browser

PROJECT_DIR = Path(__file__).resolve().parents[2]
# What a newcomer's shell does not have: the test's own settings switches, and an outer make's flags and
# variables (under `make test` this test runs inside make, and a sub-make would inherit them).
NOT_IN_A_FRESH_SHELL = (
    "DJANGO_ENV",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "SECRET_KEY",
    "DEBUG",
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "SITE_URL",
    "STATIC_ROOT",
    "EMAIL_HOST",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
    "MAKEOVERRIDES",
)
START_TIMEOUT = 300.0  # a fresh database: every migration, the reference data and the demo campaign
PARCHMENT = "rgb(243, 233, 210)"  # site.css's --parchment, the page background


@dataclass
class RunningSite:
    url: str
    log: Path
    var_dir: Path

    def printed(self) -> str:
        return self.log.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_is_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def http_status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return None


def stop(server: subprocess.Popen[bytes], port: int) -> None:
    """End make, runserver's autoreloader and the server it runs: they share the process group make leads."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):  # the whole group has ended already
            os.killpg(server.pid, sig)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (server.poll() is None or port_is_open(port)):
            time.sleep(0.2)
        if server.poll() is not None and not port_is_open(port):
            return
    raise AssertionError(f"the development server on port {port} would not stop")


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[RunningSite]:
    """`make run` on a free port, its database under a temporary RED_CAPTAIN_VAR_DIR.

    `-o install` treats the install step as done: the suite already runs in the installed environment, and
    PY names its interpreter. Everything after it is the target's own recipe: the same commands, in order.
    """
    if shutil.which("make") is None:
        skip_or_fail("needs GNU make, as `make run` does")
    port = free_port()
    var_dir = tmp_path / "var"
    env = {key: value for key, value in os.environ.items() if key not in NOT_IN_A_FRESH_SHELL}
    env.update(RED_CAPTAIN_VAR_DIR=str(var_dir), PYTHONUNBUFFERED="1")
    args = ["make", "--no-print-directory", "-o", "install", "run"]
    args += [f"PY={sys.executable}", "HOST=127.0.0.1", f"PORT={port}"]
    log = tmp_path / "make-run.log"
    with log.open("wb") as out:
        # A session of its own, so that stop() reaches make's children (the autoreloader and its server) too.
        server = subprocess.Popen(
            args, cwd=PROJECT_DIR, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    site = RunningSite(url=f"http://127.0.0.1:{port}", log=log, var_dir=var_dir)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while http_status(f"{site.url}/healthz") != 200:
            if server.poll() is not None:
                pytest.fail(f"make run stopped (exit {server.returncode}) before serving:\n{site.printed()}")
            if time.monotonic() > deadline:
                pytest.fail(f"make run did not serve within {START_TIMEOUT:.0f}s:\n{site.printed()}")
            time.sleep(0.5)
        yield site
    finally:
        stop(server, port)
    assert not port_is_open(port)


@dataclass
class Tab:
    page: Page
    responses: list[Response]
    problems: list[str]


def new_tab(chromium: Browser, site: RunningSite) -> Tab:
    """A tab that may only talk to the development server, recording every response and every error."""
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(20_000)
    server = urlsplit(site.url)
    tab = Tab(page=page, responses=[], problems=[])

    def only_the_server(route: Any) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (server.hostname, server.port):
            route.continue_()
        else:
            tab.problems.append(f"offsite request {route.request.url}")
            route.abort()

    page.route("**/*", only_the_server)
    page.on("response", lambda response: tab.responses.append(response))
    page.on("pageerror", lambda error: tab.problems.append(f"script error: {error}"))

    def console_error(message: ConsoleMessage) -> None:
        if message.type == "error":  # a failed request (a 404 script or stylesheet) is one, too
            tab.problems.append(f"console: {message.text}")

    page.on("console", console_error)
    return tab


def static_answers(tab: Tab) -> dict[str, set[int]]:
    """Each static file the tab asked for, and the statuses it got (a later page may revalidate it: 304)."""
    answers: dict[str, set[int]] = {}
    for response in tab.responses:
        path = urlsplit(response.url).path
        if path.startswith("/static/"):
            answers.setdefault(path, set()).add(response.status)
    return answers


def served(tab: Tab, path: str) -> bool:
    return 200 in static_answers(tab).get(path, set())


def shoot(page: Page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def test_make_run_serves_a_styled_working_site(chromium: Browser, make_run: RunningSite) -> None:
    printed = make_run.printed()
    # seed_demo's links name the address make run serves on, and its logins are the ones a newcomer types.
    sign_in_url = re.search(r"Sign in at (\S+) as:", printed)
    assert sign_in_url, printed
    assert sign_in_url.group(1) == f"{make_run.url}/accounts/login/"
    campaign_url = re.search(r"Campaign: .*\n\s+(\S+)", printed)
    assert campaign_url, printed
    assert campaign_url.group(1).startswith(f"{make_run.url}/campaigns/")
    password = re.search(r"^\s+alice\s+password (\S+)\s+player", printed, re.MULTILINE)
    assert password, printed

    tab = new_tab(chromium, make_run)
    page = tab.page
    page.goto(sign_in_url.group(1))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(password.group(1))
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()

    # The stylesheet is served and applied: parchment behind the page, the masthead's mark a small emblem
    # (unstyled, the SVG logo fills the first screen). The heading shows before the page's load event, so wait
    # for that (the stylesheet and scripts arrived, or failed) first.
    page.wait_for_load_state("load")
    expect(page.locator("body")).to_have_css("background-color", PARCHMENT)
    mark = page.locator(".brand__mark").bounding_box()
    assert mark is not None
    assert mark["height"] < 60
    assert served(tab, "/static/css/site.css")
    assert served(tab, "/static/js/htmx.min.js")
    shoot(page, "make-run-home")

    # The favicon, both the page's SVG icon and the /favicon.ico browsers and tools ask for unprompted.
    icon = page.locator('link[rel="icon"]').first.get_attribute("href")
    assert icon
    icon_answer = page.request.get(f"{make_run.url}{icon}")
    assert icon_answer.status == 200
    assert icon_answer.headers["content-type"].startswith("image/svg+xml")
    ico_answer = page.request.get(f"{make_run.url}/favicon.ico")
    assert ico_answer.status == 200
    assert ico_answer.headers["content-type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    assert ico_answer.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file's header

    # The map planner (planner.js) changes the orders of Alice's Dart, at sea in the demo (a campaign in motion,
    # strategic_map.demo): her plan home is read back, cleared and given again hex by hex to Parhoon (0812).
    page.goto(f"{campaign_url.group(1)}map/")
    expect(page.locator("#strategic-map g.smap__hex")).to_have_count(500)
    ship = page.locator("#planner-ship option", has_text=re.compile(r"^Dart at "))
    expect(ship).to_have_attribute("value", re.compile(r"^voyage:"))
    page.get_by_label("Ship", exact=True).select_option(ship.get_attribute("value"))
    rows = page.locator("#planner-days tbody tr")
    expect(rows).to_have_count(2)  # the demo's two days home
    page.get_by_role("button", name="Clear").click()
    expect(rows).to_have_count(0)
    for q, r in ((7, 7), (7, 8)):
        page.locator(f'#strategic-map g.smap__hex[data-q="{q}"][data-r="{r}"]').click()
    expect(rows.first.locator("td").first).to_contain_text("Sail")
    confirm = page.get_by_role("button", name="Confirm the new orders")
    expect(confirm).to_be_enabled()
    assert served(tab, "/static/strategic_map/planner.js")
    assert served(tab, "/static/strategic_map/map.css")
    shoot(page, "make-run-planner")
    # Once the orders are stored the planner reloads the page, which then says so.
    with page.expect_navigation():
        confirm.click()
    expect(page.locator("#planner-status")).to_have_text(re.compile("The Dart's new orders stand"))

    # The API docs: Swagger UI (drf-spectacular-sidecar's assets) renders the operations.
    page.goto(f"{make_run.url}/api/docs/")
    operations = page.locator(".swagger-ui .opblock")
    expect(operations.first).to_be_visible()
    assert operations.count() > 10
    expect(page.locator(".swagger-ui .opblock-summary-path", has_text="/api/campaigns/").first).to_be_visible()
    swagger_assets = [path for path in static_answers(tab) if path.startswith("/static/drf_spectacular_sidecar/")]
    assert swagger_assets
    shoot(page, "make-run-api-docs", full_page=False)  # the first screen: the whole list is 10,000 pixels

    # The admin's stylesheet (its sign-in page, for a player is no staff).
    assert page.request.get(f"{make_run.url}/static/admin/css/base.css").status == 200

    failed = {path: statuses for path, statuses in static_answers(tab).items() if statuses - {200, 304}}
    assert failed == {}
    assert tab.problems == []
    # Served straight from the source folders: no collectstatic was needed.
    assert not (make_run.var_dir / "staticfiles").exists()
    page.context.close()
