"""An Ironclads 1850-1890 battle in a real browser, end to end in web play: the umpire starts "Monitor and Virginia"
from the New battle form (the ruleset and the scenario chosen by key and slug); Alice commands the Union's Monitor and
Bob the Confederacy's Virginia, each in a browser of his own, and the umpire watches.

In the first Game Turns each move is built on the board: a speed button, a click on a hex beside the ship she must
turn to face (the one nearest the enemy), then clicks on the hex ahead until the rules take the path (IC-SPD-08,
IC-MOV-01..04). Fire orders are given on the page every turn, each arc or turret laid on the enemy (IC-FIRE-01);
while one side has given its orders and the other has not, the other's page and his API view show none of them
(IC-SEQ-08, fire is simultaneous). A damage allocation is answered through its form as it comes (IC-DMG-02). After
the first turns the moves take the default button. The Data Card record sheet shows the stats crossed off, and its
PDF link answers a PDF; the outcome shows and the replay verifies the seed and the dice.

Screenshots go to var/screenshots/ (ironclads-*.png), at desktop width and at a phone's 390 px.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from battles import selectors
from battles.models import Battle, BattleEvent, BattleStatus, Decision, DecisionSource
from battles.rules.ironclads.kinds import DAMAGE_ALLOCATION, DAMAGE_RESOLVED, FIRE_ORDERS, MOVE_ORDER
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_battle_board import HIGHLIGHTED, in_sight, inside_frame
from tests.browser.test_battle_play import decisions, ready, visit
from tests.browser.test_cloudships_play import PHONE, shot, shot_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = "ironclads"
SCENARIO = "monitor-and-virginia"
SIDES = {"union": "Captain Alice (player)", "confederacy": "Captain Bob (player)"}
SHIPS = {"union": "Monitor", "confederacy": "Virginia"}
ENEMY = {"union": "Virginia", "confederacy": "Monitor"}
REAL_MOVES = 2  # Game Turns whose moves are built on the board before the default button takes over
MAX_ACTIONS = 120
SPEED_UP = re.compile(r"^Speed \d+ \(up 1\)$")
HOLD = re.compile(r"^Speed \d+ \(hold\)$")
# The page's elements that run past the right of a phone's screen (the first few, named).
WIDE = """width => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 1)
    .slice(0, 5).map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


def new_ironclads_battle(page: Page, live_server: Any) -> Battle:
    """The umpire starts the scenario under Ironclads in web play, Alice and Bob playing, from the New battle form."""
    page.goto(f"{live_server.url}/campaigns/syrtis/")
    page.get_by_role("link", name="New battle").click()
    expect(page.get_by_role("heading", name="New battle")).to_be_visible()
    ready(page)
    page.get_by_label("Battle rules", exact=True).select_option(KEY)
    expect(page.get_by_label("Scenario").locator(f"option[value={SCENARIO}]")).to_have_count(1)  # by HTMX
    page.get_by_label("Scenario").select_option(SCENARIO)
    expect(page.locator("select[name=side_confederacy]")).to_have_count(1)  # its sides, by HTMX
    expect(page.get_by_label("Scenario")).to_have_value(SCENARIO)
    page.get_by_label("How it is played").select_option("async")
    for side, who in SIDES.items():
        page.locator(f"select[name=side_{side}]").select_option(label=who)
    shot(page, "ironclads-new-battle")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.order_by("-pk").first()
    assert battle is not None
    assert (battle.ruleset_key, battle.scenario_slug, battle.mode) == (KEY, SCENARIO, "async")
    return battle


def kind_of(section: Locator) -> str:
    found = re.search(r"decision--(\w+)", section.get_attribute("class") or "")
    return found.group(1) if found else ""


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_nearest(page: Page, css: str, towards: str) -> bool:
    """Click the hex the board highlights with ``css`` nearest the ship ``towards`` (on the map, in view); False when
    none is highlighted."""
    for _ in range(2):
        spots = [p for p in page.evaluate(HIGHLIGHTED, css) if inside_frame(page, p)]
        if spots:
            x, y = centre(page, f'#battle-map g.counter[data-ship="{towards}"]')
            spot = min(spots, key=lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2)
            page.mouse.click(*in_sight(page, spot))
            return True
        if not page.evaluate(HIGHLIGHTED, css):
            return False
        page.get_by_role("button", name="Fit the whole map").click()
    return False


def build_move(page: Page, section: Locator, enemy: str) -> list[str]:
    """Her move on the board: the speed button (up 1 where she may, else hold), her counter picked, a click on the hex
    beside her nearest the enemy that she must turn to face, then the hex ahead until the path is one the rules take.
    Returns the plan."""
    request = section.get_attribute("data-request")
    move = page.locator(f"#decision-{request} [data-board-move]")
    ship = move.get_attribute("data-ship")
    for speed in (SPEED_UP, HOLD):
        button = page.locator(f"#decision-{request}").get_by_role("button", name=speed)
        if button.count():
            button.click()
            expect(move).to_have_attribute("data-plan", re.compile(r'^\["speed \d+"\]$'))
            break
    counter = page.locator(f'#battle-map g.counter[data-ship="{ship}"]')
    counter.click()
    expect(counter).to_have_attribute("aria-pressed", "true")
    plan = move.get_attribute("data-plan")
    if click_nearest(page, "board__next:not(.board__next--ahead)", enemy):
        expect(move).not_to_have_attribute("data-plan", plan or "")
    for _ in range(6):
        if move.get_attribute("data-complete") == "1":
            break
        plan = move.get_attribute("data-plan")
        if not click_nearest(page, "board__next--ahead", enemy):
            break
        expect(move).not_to_have_attribute("data-plan", plan or "")
    assert move.get_attribute("data-complete") == "1", page.locator(f"#decision-{request} .plan").inner_text()
    return [str(s) for s in json.loads(move.get_attribute("data-plan") or "[]")]


def lay_guns(section: Locator, enemy: str) -> int:
    """Every arc and turret that bears laid on the enemy (the radio naming him). Returns the guns laid."""
    laid = 0
    for group in section.locator("fieldset.choices").all():
        target = group.locator("label.choice", has_text=enemy).locator("input[type=radio]")
        if target.count():
            target.first.check()
            laid += 1
    return laid


def answer(page: Page, key: str, *, real_move: bool, seen: dict[str, int]) -> None:
    """Every decision on the page answered and sent with the one "Send orders": the move built on the board (or its
    default), the guns laid on the enemy, a damage allocation sent as its form offers it."""
    ready(page)
    ids = [section.get_attribute("id") for section in decisions(page).all()]
    for section_id in ids:
        here = page.locator(f"#{section_id}")
        title = here.locator("h3").inner_text()
        form = kind_of(here)
        if form == "move" and real_move:
            build_move(page, here, ENEMY[key])
            seen["built"] = seen.get("built", 0) + 1
            if seen["built"] <= 2:
                shot(page, f"ironclads-move-{key}")
                shot_of(page, "#battle-map", f"ironclads-move-{key}-map")
        elif form == "move":
            here.locator("input[name$=use_default]").check()
        elif title.startswith("Fire"):
            seen["laid"] = seen.get("laid", 0) + lay_guns(here, ENEMY[key])
            if "fire-shot" not in seen:
                seen["fire-shot"] = 1
                shot_of(page, f"#{section_id}", f"ironclads-fire-{key}")
        elif title.startswith("Damage"):
            seen["allocated"] = seen.get("allocated", 0) + 1
            if seen["allocated"] == 1:
                shot_of(page, f"#{section_id}", f"ironclads-damage-{key}")
        else:
            here.locator("input[name$=use_default]").check()
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{ids[0]}")).to_have_count(0)  # sent: the page updates in place
    expect(page.locator(".errorlist")).to_have_count(0)


def fire_kept_from(other: Page, url: str, battle: Battle, side: str) -> bool:
    """When ``side`` has given its fire orders and the other side has not, the other's page and API view hold none of
    them (IC-SEQ-08): no form of theirs, and through the API only that a decision of theirs is open and sent; the
    board he sees holds no fire orders. True when the moment came (both sides had fire orders open)."""
    given = Decision.objects.filter(battle=battle, kind=FIRE_ORDERS, side__key=side, turn=battle.turn)
    if not given.exists():
        return False
    visit(other, url)
    for decision in given:
        expect(other.locator(f"#decision-{decision.request_id}")).to_have_count(0)
    expect(other.locator(".log")).not_to_contain_text("fire at", ignore_case=False)
    seen = other.request.get(url.split("/battles/")[0] + f"/api/battles/{battle.pk}/").json()
    theirs = [e for e in seen["pending"] if e["side"] == side]
    for entry in theirs:
        assert set(entry) == {"id", "side", "kind", "umpire", "yours", "submitted"}, entry
    assert theirs
    assert all(e["submitted"] for e in theirs), theirs
    assert not seen["board"].get("fire_orders"), seen["board"]["fire_orders"]
    return True


def at_a_phones_width(page: Page, url: str, name: str, *, orders: bool = True) -> None:
    """The battle page at 390 px: nothing wider than the screen; the orders (if any) below the map. Closed after."""
    visit(page, url)
    if orders:
        expect(decisions(page).first).to_be_visible()
        shot_of(page, "#decisions", f"ironclads-phone-{name}-orders")
    shot(page, f"ironclads-phone-{name}")
    page.screenshot(path=str(SCREENSHOTS / f"ironclads-phone-{name}-full.png"), full_page=True)
    wide = page.evaluate(WIDE, PHONE["width"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    page.context.close()


def record_sheet_crossed_off(page: Page, url: str, live_server: Any, battle: Battle) -> str:
    """A damaged ship's Data Card on the battle page shows boxes crossed off; its PDF link answers a PDF. Returns the
    ship."""
    damaged = BattleEvent.objects.filter(battle=battle, kind=DAMAGE_RESOLVED).order_by("seq").first()
    assert damaged is not None, "no damage was crossed off in the whole battle"
    ship = str(damaged.data["ship"])
    visit(page, url)
    sheet = page.locator(f".sheet[data-ship='{ship}']").first
    expect(sheet.locator(".box--lost").first).to_be_attached()
    sheet.scroll_into_view_if_needed()
    shot_of(page, f".sheet[data-ship='{ship}']", "ironclads-sheet-damaged")
    expect(sheet).to_contain_text("crossed off")
    link = page.get_by_role("link", name="PDF", exact=True).and_(page.locator(f"a[href$='/ships/{ship}/sheet.pdf']"))
    expect(link).to_have_count(1)
    href = link.get_attribute("href")
    pdf = page.request.get(f"{live_server.url}{href}")
    assert pdf.ok, pdf.status
    assert pdf.headers["content-type"].startswith("application/pdf")
    assert pdf.body()[:5] == b"%PDF-"
    return ship


@pytest.mark.rule("IC-SEQ-07", "IC-SEQ-08", "IC-MOV-03", "IC-FIRE-01", "IC-DMG-02")
def test_two_players_fight_monitor_and_virginia_in_web_play(
    live_server: Any, club: dict[str, Any], tab: Callable[..., Page]
) -> None:
    umpire, alice, bob = tab(club["umpire"]), tab(club["alice"]), tab(club["bob"])
    battle = new_ironclads_battle(umpire, live_server)
    url = f"{live_server.url}/battles/{battle.pk}/"
    pages = {"union": alice, "confederacy": bob}
    users = {"union": club["alice"], "confederacy": club["bob"]}

    visit(umpire, url)
    shot(umpire, "ironclads-umpire-watching")
    expect(decisions(umpire)).to_have_count(0)  # the umpire watches: nothing is his to decide

    seen: dict[str, int] = {}
    kept = 0
    phoned: set[str] = set()
    for _ in range(MAX_ACTIONS):
        battle.refresh_from_db()
        if battle.status == BattleStatus.FINISHED:
            break
        awaited = [key for key in selectors.awaited_sides(battle) if key in pages]
        assert awaited, "nobody has anything to decide in a battle that is not over"
        for key in awaited:
            page = pages[key]
            visit(page, url)
            if not decisions(page).count():
                continue
            form = kind_of(decisions(page).first)
            title = decisions(page).first.locator("h3").inner_text()
            moment = "move" if form == "move" else title.split(":")[0].lower()
            if f"{key}-{moment}" not in phoned:  # each side's first move, fire and damage, at a phone's width
                phoned.add(f"{key}-{moment}")
                shot(page, f"ironclads-{moment}-{key}-desktop")
                at_a_phones_width(tab(users[key], viewport=PHONE, touch=True), url, f"{moment}-{key}")
            firing = title.startswith("Fire")
            answer(page, key, real_move=battle.turn <= REAL_MOVES, seen=seen)
            battle.refresh_from_db()
            if firing and len(awaited) == 2 and key == awaited[0]:
                other = next(k for k in awaited if k != key)
                kept += fire_kept_from(pages[other], url, battle, key)
    else:
        raise AssertionError(f"the battle did not end in {MAX_ACTIONS} actions: {seen}")

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    made = Decision.objects.filter(battle=battle)
    assert set(made.values_list("source", flat=True)) == {DecisionSource.PLAYER}
    moves = made.filter(kind=MOVE_ORDER, turn=1)
    assert moves.count() == 2
    for move in moves:  # built on the board: a speed, one turn, then ahead (IC-MOV-03/04)
        steps = move.choice["steps"]
        assert steps[0].startswith("speed "), steps
        assert any(s in ("port", "starboard", "hard port", "hard starboard") for s in steps), steps
        assert "ahead" in steps, steps
    assert made.filter(kind=FIRE_ORDERS).exists()
    assert seen.get("laid", 0) > 0, seen
    assert kept, "fire orders were never open to both sides at once: the secret was never put to the test"
    if BattleEvent.objects.filter(battle=battle, kind=DAMAGE_RESOLVED).exists():
        assert made.filter(kind=DAMAGE_ALLOCATION).exists()

    visit(umpire, url)
    shot(umpire, "ironclads-over-umpire")
    record_sheet_crossed_off(alice, url, live_server, battle)
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    alice.evaluate("window.scrollTo(0, 0)")  # the sheet was scrolled to: the outcome is at the top
    shot(alice, "ironclads-over-alice")
    at_a_phones_width(tab(club["alice"], viewport=PHONE, touch=True), url, "over-alice", orders=False)
    alice.get_by_role("link", name="Replay it turn by turn").click()
    ready(alice)
    expect(alice.get_by_role("heading", name=f"After turn {battle.turn}")).to_be_visible()
    shot(alice, "ironclads-replay")
    checked = alice.request.get(f"{live_server.url}/api/battles/{battle.pk}/verification/").json()
    assert (checked["verified"], checked["seed"], checked["problems"]) == (True, battle.seed, [])
    assert checked["dice"] > 0
    for page in (umpire, alice, bob):
        assert page.offsite_requests == []  # type: ignore[attr-defined]  # set on the tab by conftest
