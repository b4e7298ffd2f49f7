"""Every page on a phone: at 390x844 no page scrolls sideways, for every role that may see it.

A campaign in motion (the campaign week of tests/browser/week_seeds.py played through the services: captains,
ships, voyages, an encounter fought by the AI, a prize home in tow and under the hammer, repairs due; then a trek,
a web battle half fought, an odds run and an invitation) fills every URL pattern of the resolver with real ids.
Each role walks every page in one browser tab of its own at 390x844: the anonymous visitor, a player (Alice), a
player on an epic trek (Carol), the umpire, and a signed-in stranger holding an invitation (the join page). On
each page ``document.documentElement.scrollWidth`` must not exceed ``window.innerWidth``: wide things (tables, the
hex board, the map) scroll or pan inside their own frame, never the page. A screenshot of each page goes to
var/screenshots/phone/<role>/<url name>.png for a person to look at.

A URL pattern the walk cannot fill fails the test, so a page added later is walked too; the patterns that are no
page (form actions, HTMX fragments, PDFs) are listed in NOT_PAGES with the reason, and the walk checks that each of
them indeed answers a GET with no page of its own. The JSON API (api/...) is skipped but for its documentation page;
the admin (Django's own pages, the operator's tool at a desk) is skipped. Beyond the page's width, no panel may have
content sticking out of it, and the strategic map's frame must leave no empty band around the map, which pans and
zooms inside it (the + button, a drag, a two-finger pinch).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Browser, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError

from accounts.models import User
from battles import engine_io, odds
from battles import services as battle_services
from battles.engine import dice as battle_dice
from battles.engine import ruleset as registry
from battles.models import Battle, BattleMode, OddsRun
from battles.services import SideControl
from campaign.models import Auction, AuctionStatus, Campaign, CampaignShip, Captain, Invitation, Role, ShipStatus
from strategic_map import treks
from strategic_map.mapdata import mars_map
from strategic_map.models import EpicTrek
from tests.browser import week_seeds
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory
from tests.url_walk import Route, routes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}
SHOTS = SCREENSHOTS / "phone"

# URL patterns that are no page to read on a phone, by name, with the reason. The walk GETs each of them once (as
# the umpire) and checks the reason still holds: "POST" answers 405, "fragment" answers HTML without the site's
# frame (no <html>), "redirect" sends the browser on to a page walked anyway, "other" answers something not HTML.
NOT_PAGES: dict[str, tuple[str, str]] = {
    "healthz": ("other", "the load balancer's health check (plain text)"),
    "logout": ("POST", "the masthead's Sign out button; it sends to the sign-in page"),
    # Form actions: a POST whose answer is a redirect to a page walked anyway, or that page with the form's errors.
    "invitation_create": ("POST", "the campaign page's invitation form"),
    "invitation_revoke": ("POST", "the campaign page's withdraw button"),
    "captain_found": ("POST", "the campaign page's form founding a captain"),
    "captain_adjust": ("POST", "the umpire's adjustment form on the captain page"),
    "captain_status": ("POST", "the umpire's status form on the captain page"),
    "captain_rename": ("POST", "the umpire's correction of the name on the captain page"),
    "ship_correct": ("POST", "the umpire's correction form on the ship page"),
    "member_change": ("POST", "the umpire's members form on the campaign page"),
    "captain_yard_buy": ("POST", "the yard's buy buttons"),
    "captain_yard_commission": ("POST", "the yard's design form"),
    "ship_refit": ("POST", "the ship page's refit form"),
    "ship_repair": (
        "POST",
        "the ship page's repair form: its answer, the bill to confirm, is walked by pressing the form's button",
    ),
    "notification_read": ("POST", "the notifications page's mark-read button"),
    "auction_land": ("POST", "the umpire's landing form in the auction room"),
    "auction_bid": ("POST", "the auction room's bid form"),
    "auction_buy": ("POST", "the auction room's buy form"),
    "battle_hand_to_ai": ("POST", "the battle page's hand-to-the-AI button"),
    "odds_for_battle": ("POST", "the battle page's odds button; the run's page is odds_detail"),
    "odds_stop": ("POST", "the odds page's Stop button; it sends back to odds_detail"),
    "desk_pause": ("POST", "a desk form"),
    "desk_resume": ("POST", "a desk form"),
    "desk_extend": ("POST", "a desk form"),
    "desk_run_day": ("POST", "a desk form"),
    "desk_territory_numbers": ("POST", "a desk form"),
    "desk_trek_cell": ("POST", "a desk form (one cell of the trek table, HTMX)"),
    "desk_trek_table": ("POST", "a desk form"),
    "trek_step": ("POST", "the trek page's hex choice (HTMX)"),
    "trek_home": ("POST", "the trek page's shortest-way-home button"),
    # HTMX fragments swapped into a page walked anyway (the first two answer a POST only).
    "captain_yard_quote": ("POST", "the yard's live design rating"),
    "ship_repair_total": ("POST", "the repair form's live total"),
    "auction_live": ("fragment", "an auction lot's live highest bid"),
    "battle_changes": ("fragment", "the battle page's changes since its mark (HTMX out-of-band swaps)"),
    "battle_pace": ("POST", "the umpire's pace switch on the battle page"),
    "battle_new_sides": ("fragment", "the new battle form's scenarios, sides and options for a ruleset"),
    "campaign_new_tactical": ("fragment", "the new campaign form's options of the battle rules chosen"),
    "battle_decision": ("redirect", "a decision form (HTMX); a browser is sent to the battle page"),
    "battle_orders": ("POST", "the battle page's one orders form (Send orders, and its step buttons without script)"),
    # Record sheets printed on paper.
    "ship_sheet_pdf": ("other", "a ship's record sheet as PDF"),
    "battle_ship_sheet_pdf": ("other", "a battle ship's record sheet as PDF"),
}


# Alice's side of the web battle, and how many decisions are made before the walk (a turn or so: a log to read).
ALICE_SIDE = "irish"
DECISIONS_BEFORE = 8


# The JSON API (every pattern under api/, the OpenAPI schema among them) answers programs, not people; its
# documentation page (Swagger UI, served from the site) is a page and is walked.
API_PREFIX = "api/"
API_PAGES = {"api-docs"}


def is_page(route: Route) -> bool:
    # A regular-expression route reads "^api/..." (the API's JSON 404 for any path no route matches).
    under_api = route.route.removeprefix("^").startswith(API_PREFIX)
    return route.name not in NOT_PAGES and (not under_api or route.name in API_PAGES)


@dataclass
class Motion:
    """The campaign in motion and what its URLs are filled with."""

    campaign: Campaign
    umpire: User
    alice: User
    carol: User
    stranger: User
    jack: Captain
    gull: CampaignShip
    battle: Battle  # fought on the web, under way
    fought: Battle  # the encounter's, fought by the AI for Alice and over: its replay
    odds_run: OddsRun
    trek: EpicTrek
    auction: Auction
    invitation: Invitation
    reset: tuple[str, str]  # Alice's password reset link: uidb64 and token
    roles: dict[str, User | None] = field(default_factory=dict)


def campaign_in_motion() -> Motion:
    """The campaign week played through the services (week_seeds.play_week), then more of a campaign on top."""
    week = week_seeds.play_week(week_seeds.CAMPAIGN_SEED, week_seeds.BATTLE_SEED, n=1)
    assert week.captured, f"the campaign week did not go as its seeds promise: {week}"
    assert week.home, f"the campaign week did not go as its seeds promise: {week}"
    Campaign.objects.filter(slug=f"{week_seeds.SLUG}-1").update(name="Syrtis Major")
    campaign = Campaign.objects.get(slug=f"{week_seeds.SLUG}-1")
    umpire, alice, bob, carol = (User.objects.get(username=f"{who}1") for who in ("u", "alice", "bob", "carol"))
    # Names as long as a club's: they widen the tables.
    for user, name in (
        (umpire, "Commodore Hargreaves"),
        (alice, "Alice Pemberton-Smythe"),
        (bob, "Robert Ashdown"),
        (carol, "Caroline Wexford-Hale"),
    ):
        User.objects.filter(pk=user.pk).update(display_name=name)
        user.refresh_from_db()
    jack, anne = Captain.objects.get(player=alice), Captain.objects.get(player=carol)
    gull = CampaignShip.objects.get(campaign=campaign, name="Gull")
    auction = Auction.objects.filter(campaign=campaign, status=AuctionStatus.OPEN).order_by("pk").first()
    assert auction is not None, "the prize home in tow went under the hammer"

    # Carol's Skylark is wrecked in the hills west of Parhoon and her captain walks home.
    CampaignShip.objects.filter(campaign=campaign, captain=anne).update(status=ShipStatus.LOST)
    start = mars_map().hex_by_label("0409")
    trek = treks.trek_start(captain_id=anne.pk, cause="crash_landing", q=start.q, r=start.r, party=9, day=campaign.day)
    treks.treks_advance(campaign_id=campaign.pk, day=campaign.day + 1)

    # A battle fought on the web between Alice and Bob, a few decisions in.
    battle = battle_services.battle_create(
        campaign=campaign,
        created_by=umpire,
        scenario_slug="john-bulls-tyranny",
        mode=BattleMode.ASYNC,
        sides={ALICE_SIDE: SideControl("player", alice), "british": SideControl("player", bob)},
    )
    for _ in range(40):
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
        pending = [r for r in state.pending() if r.id not in stored]
        assert pending, f"the battle waits for nothing ({battle.status})"
        request = pending[0]
        if request.side == ALICE_SIDE and len(stored) >= DECISIONS_BEFORE:
            break  # her orders for the turn are open on her page
        side = battle.sides.get(key=request.side)
        battle_services.battle_submit_decision(
            battle_id=battle.pk, user=side.user or umpire, request_id=request.id, choice=request.default
        )
    battle.refresh_from_db()

    run = odds.odds_request(user=alice, campaign=campaign, battle=battle, runs=4)
    odds_run = odds.odds_play(run_id=run.pk)

    stranger = UserFactory(username="dora", display_name="Dora Stranger")
    invitation = InvitationFactory(campaign=campaign, created_by=umpire)
    reset = (urlsafe_base64_encode(force_bytes(alice.pk)), default_token_generator.make_token(alice))
    fought = Battle.objects.get(campaign=campaign, private=True)
    motion = Motion(
        campaign, umpire, alice, carol, stranger, jack, gull, battle, fought, odds_run, trek, auction, invitation, reset
    )
    motion.roles = {
        "anonymous": None,
        "player": alice,
        "trekking-player": carol,
        "umpire": umpire,
        "stranger": stranger,
    }
    return motion


# --- every URL of the site ----------------------------------------------------------------------------------------


def value_for(motion: Motion, route: Route, kwarg: str) -> str:
    """The real id, slug or token for one argument of a URL; fails for an argument the walk does not know."""
    battle = motion.fought if route.name == "battle_replay" else motion.battle
    if kwarg == "pk":
        kind = route.name.split("_")[0]
    elif kwarg == "token":
        kind = "reset-token" if route.name == "password_reset_confirm" else "invitation-token"
    else:
        kind = kwarg.removesuffix("_id")
    values: dict[str, Callable[[], Any]] = {
        "slug": lambda: motion.campaign.slug,
        "captain": lambda: motion.jack.pk,
        "ship": lambda: motion.gull.pk,
        "battle": lambda: battle.pk,
        "trek": lambda: motion.trek.pk,
        "invitation": lambda: motion.invitation.pk,
        "auction": lambda: motion.auction.pk,
        "run": lambda: motion.odds_run.pk,
        "name": lambda: battle.ships.order_by("pk").first().name,  # type: ignore[union-attr]
        "request": lambda: engine_io.current_state(battle).pending()[0].id,  # a decision of the battle
        "invitation-token": lambda: motion.invitation.token,
        "uidb64": lambda: motion.reset[0],
        "reset-token": lambda: motion.reset[1],
        "key": designer_key,  # a ruleset's key: one with a card designer, so its page is pictured
    }
    if kind not in values:
        pytest.fail(f"URL {route.name} ({route.route}): the phone walk has no value for its argument {kwarg!r}")
    return str(values[kind]())


def designer_key() -> str:
    engine_io.discover_rulesets()
    return next((rs.key for rs in registry.all_rulesets() if rs.card_designer), "sky_galleons")


def url_for(motion: Motion, route: Route) -> str:
    path = route.route
    for kwarg in route.kwargs:
        start = path.index("<")
        path = path[:start] + value_for(motion, route, kwarg) + path[path.index(">", start) + 1 :]
    return "/" + path.lstrip("^").rstrip("$")


# --- the browser ----------------------------------------------------------------------------------------------------


def phone_tab(chromium: Browser, live_server: Any, user: User | None) -> Page:
    """A tab at 390x844 (a phone, touch) of its own, signed in as ``user`` (or nobody), talking only to the live
    server."""
    # Not is_mobile: a mobile browser zooms out a page too wide for it, and window.innerWidth grows with it (the test
    # would pass what a phone shows as a page in small print).
    context = chromium.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    live = urlsplit(live_server.url)

    def only_live_server(route: Any) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in {"data", "blob"} or (url.hostname, url.port) == (live.hostname, live.port):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_live_server)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return page


WIDTHS = "() => [document.documentElement.scrollWidth, window.innerWidth]"
# The boxes of the page (panels, cards, record sheets, forms) whose content sticks out of them: a table wider than
# its panel shows past the panel's edge even when the page itself does not scroll. What sits in a scroll container
# of its own (a table's wrapper, the map's frame) is clipped by it and does not count.
OVERFLOWING = """() => {
  const out = [];
  for (const box of document.querySelectorAll("main .panel, main .card, main .sheet, main section, main form")) {
    if (getComputedStyle(box).overflowX !== "visible" || box.clientWidth === 0) continue;
    if (box.scrollWidth > box.clientWidth + 1) {
      const name = box.id ? "#" + box.id : box.tagName.toLowerCase() + "." + [...box.classList].join(".");
      out.push(`${name} ${box.scrollWidth}px in ${box.clientWidth}px`);
    }
  }
  return out;
}"""
# Each strategic map's frame against the map drawn in it (preserveAspectRatio "meet"): the empty band left where
# the frame's shape differs from the map's, in pixels.
MAP_BANDS = """() => [...document.querySelectorAll(".smap-viewport")].map((frame) => {
  const svg = frame.querySelector("svg");
  const box = svg.viewBox.baseVal;
  const scale = Math.min(frame.clientWidth / box.width, frame.clientHeight / box.height);
  return Math.round(Math.max(frame.clientWidth - box.width * scale, frame.clientHeight - box.height * scale));
})"""
# What reaches past the right edge of the screen, for the failure message (the widest first; clipped or not, a hint).
CULPRITS = """() => [...document.querySelectorAll("body *")]
  .map((e) => [e, Math.round(e.getBoundingClientRect().right)])
  .filter(([e, right]) => right > window.innerWidth)
  .sort((a, b) => b[1] - a[1]).slice(0, 4)
  .map(([e, right]) => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")}: ${right}px`)"""
MAP_VIEW = "() => document.querySelector('#smap-viewport svg').getAttribute('viewBox')"
MAP_BAND_ALLOWED = 4  # px: rounding
# Two touch pointers on the map at (x +- 20, y), spread to (x +- 40, y) (twice as near), lifted.
PINCH = """([x, y]) => {
  const svg = document.querySelector("#smap-viewport svg");
  const fire = (type, id, px) => svg.dispatchEvent(new PointerEvent(type, {
    pointerId: id, pointerType: "touch", isPrimary: id === 1, clientX: px, clientY: y,
    button: type === "pointermove" ? -1 : 0, bubbles: true, cancelable: true,
  }));
  fire("pointerdown", 1, x - 20);
  fire("pointerdown", 2, x + 20);
  for (let d = 25; d <= 40; d += 5) { fire("pointermove", 1, x - d); fire("pointermove", 2, x + d); }
  fire("pointerup", 1, x - 40);
  fire("pointerup", 2, x + 40);
}"""


@dataclass
class Visit:
    role: str
    name: str
    url: str
    status: int
    scroll_width: int
    inner_width: int
    overflowing: list[str]
    map_bands: list[int]
    culprits: list[str]


def look(page: Page, role: str, name: str, url: str, status: int, shot: bool = True) -> Visit:
    """Measure the page as loaded, and save its screenshot."""
    page.wait_for_load_state("load")
    scroll_width, inner_width = page.evaluate(WIDTHS)
    culprits = page.evaluate(CULPRITS) if scroll_width > inner_width else []
    visit = Visit(
        role,
        name,
        url,
        status,
        scroll_width,
        inner_width,
        page.evaluate(OVERFLOWING),
        page.evaluate(MAP_BANDS),
        culprits,
    )
    if shot:
        folder = SHOTS / role
        folder.mkdir(parents=True, exist_ok=True)
        suffix = "" if status == 200 else f"-{status}"
        page.screenshot(path=str(folder / f"{name}{suffix}.png"), full_page=True)
    return visit


def check_not_pages(motion: Motion, found: list[Route]) -> list[str]:
    """Each NOT_PAGES entry still exists and still answers a GET with no page of its own."""
    problems = []
    names = {route.name for route in found}
    client = Client()
    client.force_login(motion.umpire)
    for name, (kind, why) in NOT_PAGES.items():
        if name not in names:
            problems.append(f"NOT_PAGES names {name!r}, which is no URL pattern any more")
            continue
        route = next(route for route in found if route.name == name)
        response = client.get(url_for(motion, route), headers={"HX-Request": "true"} if kind == "fragment" else {})
        body = b"".join(response.streaming_content) if response.streaming else response.content
        content_type = response.get("Content-Type", "")
        ok = {
            "POST": response.status_code == 405,
            "fragment": response.status_code == 200 and b"<html" not in body,
            "redirect": response.status_code == 302,
            "other": not content_type.startswith("text/html"),
        }[kind]
        if not ok:
            problems.append(f"{name} is listed as {kind} ({why}) but answers {response.status_code} {content_type}")
    return problems


def pans_and_zooms(page: Page, frame_at: str, view: str, pinch: str, what: str, *, fixed: str = "xywh") -> list[str]:
    """The + button, a drag and two fingers spread move the map inside its frame (``frame_at``; ``view``: script
    reading its view box; ``pinch``: script spreading two synthetic touch pointers, Playwright having no
    multi-touch); the frame keeps its place and size (the ``fixed`` of x, y, w, h) and the page never scrolls
    sideways. The problems found, each starting with ``what``."""
    problems = []
    frame = page.locator(frame_at)
    frame.scroll_into_view_if_needed()  # its middle on the screen, where a finger would drag it
    before_box, before_view = frame.bounding_box(), page.evaluate(view)
    assert before_box is not None
    page.get_by_role("button", name="Zoom in").click()
    zoomed = page.evaluate(view)
    if float(zoomed.split()[2]) >= float(before_view.split()[2]):
        problems.append(f"{what}: Zoom in left the view at {zoomed} (was {before_view})")
    x, y = before_box["x"] + before_box["width"] / 2, before_box["y"] + before_box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 80, y + 30, steps=6)
    page.mouse.up()
    panned = page.evaluate(view)
    if panned.split()[:2] == zoomed.split()[:2]:
        problems.append(f"{what}: a drag did not pan the view ({panned})")
    page.evaluate(pinch, [x, y])
    pinched = page.evaluate(view)
    if float(pinched.split()[2]) >= float(panned.split()[2]):
        problems.append(f"{what}: spreading two fingers left the view at {pinched} (was {panned})")
    after_box = frame.bounding_box()
    assert after_box is not None
    # The view's corners are written to a tenth of a unit: its shape, so the frame's height, may differ by a hair.
    keys = [k for k, letter in (("x", "x"), ("y", "y"), ("width", "w"), ("height", "h")) if letter in fixed]
    if any(abs(after_box[k] - before_box[k]) > 1 for k in keys):
        problems.append(f"{what}: the frame moved or changed size ({before_box} -> {after_box})")
    scroll_x, (scroll_width, inner_width) = page.evaluate("window.scrollX"), page.evaluate(WIDTHS)
    if scroll_x != 0 or scroll_width > inner_width:
        problems.append(f"{what}: panning scrolled the page sideways ({scroll_x}px, {scroll_width}px wide)")
    return problems


def test_every_page_fits_a_phone_for_every_role(
    chromium: Browser, live_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # The campaign week's encounter battle is fought with the seed its search found (tests/browser/week_seeds.py).
    monkeypatch.setattr(battle_dice, "new_seed", lambda: week_seeds.fixed_battle_seed(week_seeds.BATTLE_SEED))
    shutil.rmtree(SHOTS, ignore_errors=True)
    motion = campaign_in_motion()
    found = routes(require_names=True)
    problems = check_not_pages(motion, found)
    pages = [route for route in found if is_page(route)]
    urls = {route.name: url_for(motion, route) for route in pages}

    visits: list[Visit] = []
    for role, user in motion.roles.items():
        page = phone_tab(chromium, live_server, user)
        pictured: set[str] = set()
        for name, url in urls.items():
            try:
                response = page.goto(f"{live_server.url}{url}")
            except PlaywrightError as error:
                problems.append(f"{role} {name} {url}: the browser could not load it: {error.message.splitlines()[0]}")
                # The tab may be stuck on Chromium's error page: go on in a fresh one, signed in the same.
                page.context.close()
                page = phone_tab(chromium, live_server, user)
                continue
            assert response is not None
            # A page the role is sent away to (the sign-in page for the anonymous), or an error page (a 404 for
            # the stranger), is pictured once.
            seen = urlsplit(page.url).path if response.status == 200 else str(response.status)
            shot = seen == url or seen not in pictured
            visits.append(look(page, role, name, url, response.status, shot=shot))
            pictured.add(seen)
        if user == motion.alice:
            # The repair bill to confirm is a POST's answer: press the ship page's button for it.
            page.goto(f"{live_server.url}{urls['ship_detail']}")
            page.get_by_role("button", name="Price these repairs").click()
            page.wait_for_url(f"**{urls['ship_detail']}repair/")
            visits.append(look(page, role, "ship_repair", f"{urls['ship_detail']}repair/", 200))
            page.goto(f"{live_server.url}{urls['campaign_map']}")
            page.wait_for_function("() => document.querySelector('#smap-viewport svg') !== null")
            problems += pans_and_zooms(page, "#smap-viewport", MAP_VIEW, PINCH, "map")
            page.locator("#smap-viewport").screenshot(path=str(SHOTS / role / "campaign_map-zoomed-and-panned.png"))
        page.context.close()

    for visit in visits:
        where = f"{visit.role} {visit.name} {visit.url} ({visit.status})"
        if visit.scroll_width > visit.inner_width or visit.inner_width != PHONE["width"]:
            problems.append(
                f"{where}: the page is {visit.scroll_width}px wide on a {visit.inner_width}px screen {visit.culprits}"
            )
        if visit.overflowing:
            problems.append(f"{where}: sticks out of its box: {visit.overflowing}")
        for band in visit.map_bands:
            if band > MAP_BAND_ALLOWED:
                problems.append(f"{where}: the map leaves an empty band of {band}px in its frame")
    for name in urls:
        if not any(v.name == name and v.status == 200 for v in visits):
            statuses = sorted({v.status for v in visits if v.name == name})
            problems.append(f"{name} {urls[name]}: no role sees the page ({statuses}): fill it with something seen")
    assert problems == [], "\n".join(problems)


# --- the battle page's board ------------------------------------------------------------------------------------

# Every tap target on the page that is seen, smaller than 44x44 CSS px: links, buttons, fields (a radio button or a
# checkbox by its label), summaries, and the ship counters inside the map's frame at the default zoom (each by the
# circle a tap on it counts in).
SMALL_TAPS = """() => {
  const small = [];
  const frame = document.querySelector("#battle-map .board__frame").getBoundingClientRect();
  const targets = "a[href], button, select, textarea, input:not([type=hidden]), summary, #battle-map g.counter";
  for (const e of document.querySelectorAll(targets)) {
    if (e.closest("[aria-hidden=true]") || e.closest("details:not([open]) > :not(summary)")) continue;
    let box = e.getBoundingClientRect();
    if (getComputedStyle(e).visibility === "hidden" || box.width === 0 || box.height === 0) continue;
    const label = e.matches("input[type=radio], input[type=checkbox]") && e.closest("label");
    if (label) box = label.getBoundingClientRect();
    if (e.matches("g.counter")) {
      box = e.querySelector(".counter__hit").getBoundingClientRect();
      const outside = box.right < frame.left || box.left > frame.right;
      if (outside || box.bottom < frame.top || box.top > frame.bottom) continue;
    }
    if (box.width < 43.5 || box.height < 43.5) {
      const name = (e.getAttribute("aria-label") || e.textContent || e.name || "").trim().slice(0, 40);
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${name}": ${size}`);
    }
  }
  return small;
}"""
# The tops of the page's regions, in the order a phone shows them.
REGIONS = """() => ["battle-status", "battle-map", "decisions", "battle-log"].map(
  (id) => document.getElementById(id).getBoundingClientRect().top + window.scrollY)"""
BOARD_VIEW = "() => document.querySelector('#battle-map svg').getAttribute('viewBox')"
BOARD_PINCH = PINCH.replace("#smap-viewport svg", "#battle-map svg")


def battle_under_way() -> tuple[Battle, User]:
    """A Sky Galleons battle on the web, set up and under way, with decisions open for Alice."""
    umpire, alice, bob = UserFactory(username="umpire"), UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", name="Syrtis Major")
    for user, role in ((umpire, Role.UMPIRE), (alice, Role.PLAYER), (bob, Role.PLAYER)):
        MembershipFactory(campaign=campaign, user=user, role=role)
    battle = battle_services.battle_create(
        campaign=campaign,
        created_by=umpire,
        scenario_slug="john-bulls-tyranny",
        mode=BattleMode.ASYNC,
        sides={ALICE_SIDE: SideControl("player", alice), "british": SideControl("player", bob)},
    )
    for _ in range(40):  # defaults until the set-up is over and Alice has a decision open
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        pending = state.pending()
        if state.turn >= 1 and any(r.side == ALICE_SIDE for r in pending):
            break
        request = pending[0]
        side = battle.sides.get(key=request.side)
        battle_services.battle_submit_decision(
            battle_id=battle.pk, user=side.user, request_id=request.id, choice=request.default
        )
    return battle, alice


def test_the_battle_page_fits_a_phone_map_first_and_every_tap_target_is_big_enough(
    chromium: Browser, live_server: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    battle, alice = battle_under_way()
    page = phone_tab(chromium, live_server, alice)
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    page.wait_for_function("() => document.querySelector('#battle-map.board--live') !== null")
    (SCREENSHOTS / "phone").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "board-phone.png"), full_page=True)
    page.screenshot(path=str(SCREENSHOTS / "board-phone-screen.png"))

    problems = []
    scroll_width = page.evaluate("() => document.scrollingElement.scrollWidth")
    if scroll_width > PHONE["width"]:
        problems.append(f"the page is {scroll_width}px wide: {page.evaluate(CULPRITS)}")
    problems += [f"sticks out of its box: {box}" for box in page.evaluate(OVERFLOWING)]
    problems += [f"too small to tap: {tap}" for tap in page.evaluate(SMALL_TAPS)]
    status, board, orders, log = page.evaluate(REGIONS)
    if not status < board < orders < log:
        problems.append(f"not status, map, orders, then the log: {[status, board, orders, log]}")
    if page.locator("#battle-map g.counter").count() == 0:
        problems.append("no ship on the map")

    # The map pans and zooms inside its frame: +, a drag, two fingers spread; the page stays where it is.
    problems += pans_and_zooms(
        page, "#battle-map .board__frame", BOARD_VIEW, BOARD_PINCH, "the battle map", fixed="xwh"
    )

    # A tap on a ship picks her and says her name under the map.
    page.get_by_role("button", name="Fit the whole map").click()
    counter = page.locator("#battle-map g.counter").first
    name = counter.get_attribute("data-ship") or ""
    box = counter.locator(".counter__hit").bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if counter.get_attribute("aria-pressed") != "true" or name not in page.locator("#board-info").inner_text():
        problems.append(f"a tap on {name} did not pick her")
    page.context.close()
    assert problems == [], "\n".join(problems)
