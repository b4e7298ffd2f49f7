"""The battle page's board in a real browser: two players fight by clicking the map, never a list.

A Duel is fought to its end and a Sky Galleons battle through its first turns in web play (async): each set-up is
answered by a click on one of the hexes the map highlights, each move by a click on the ship and then on the hexes
ahead of her (the board turns them into steps, judged by the server as they are added), and all of a side's open
decisions go with one "Send orders". The drop-down lists and the step buttons stay on the page as the fallback:
these tests never touch them. Screenshots at desktop and phone size go to var/screenshots/board-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from battles import selectors
from battles import services as battle_services
from battles.models import Battle, BattleMode, BattleStatus, Decision, DecisionSource
from battles.services import SideControl
from tests.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PICTURED: set[str] = set()  # the screenshots taken once in a run
MAX_ROUNDS = 80  # pages of orders sent before a battle must be over (a duel lasts eight turns)

# The centre of each hex the board highlights, in the page's pixels: the allowed hexes of the hex field the map
# answers now, or the hexes a move may go to next (the hex ahead first).
HIGHLIGHTED = """(css) => [...document.querySelectorAll(`#battle-map .board__overlay .${css}`)].map((hex) => {
  const box = hex.getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
})"""
FRAME = """() => {
  const b = document.querySelector('#battle-map .board__frame').getBoundingClientRect();
  return [b.left, b.top, b.right, b.bottom];
}"""


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def visit(page: Page, url: str) -> None:
    """Go to the battle page (through a blank page: the page's own refresh may be starting) and wait for the board."""
    for attempt in range(5):
        try:
            page.goto("about:blank")
            page.goto(url)
            break
        except PlaywrightError:
            if attempt == 4:
                raise
            page.wait_for_timeout(250)
    page.wait_for_function("() => document.querySelector('#battle-map.board--live') !== null")


def start(club, ruleset: str, scenario: str, sides: tuple[str, str], options=None) -> Battle:
    return battle_services.battle_create(
        campaign=club["campaign"],
        created_by=club["umpire"],
        scenario_slug=scenario,
        ruleset_key=ruleset,
        options=options,
        mode=BattleMode.ASYNC,
        sides={sides[0]: SideControl("player", club["alice"]), sides[1]: SideControl("player", club["bob"])},
    )


def inside_frame(page: Page, point: list[float]) -> bool:
    left, top, right, bottom = page.evaluate(FRAME)
    return left + 4 < point[0] < right - 4 and top + 4 < point[1] < bottom - 4


def in_sight(page: Page, point: list[float]) -> list[float]:
    """The point, after scrolling the page (never the map) so that it is on the screen."""
    height = page.evaluate("window.innerHeight")
    if 8 < point[1] < height - 8:
        return point
    shift = page.evaluate(
        "(dy) => { const y = window.scrollY; window.scrollBy(0, dy); return window.scrollY - y; }",
        point[1] - height / 2,
    )
    return [point[0], point[1] - shift]


def click_highlighted(page: Page, css: str) -> bool:
    """Click the first hex the board highlights with ``css``, fitting the whole map in view if it is out of it."""
    for _ in range(2):
        spots = [p for p in page.evaluate(HIGHLIGHTED, css) if inside_frame(page, p)]
        if spots:
            point = in_sight(page, spots[0])
            # A ship standing in the hex is picked by the first click; the second is a click on her hex.
            other = page.evaluate(
                "([x, y]) => { const c = document.elementFromPoint(x, y).closest('g.counter');"
                " return c && c.getAttribute('aria-pressed') !== 'true' ? c.dataset.ship : null; }",
                point,
            )
            page.mouse.click(*point)
            if other:
                expect(page.locator(f'#battle-map g.counter[data-ship="{other}"]')).to_have_attribute(
                    "aria-pressed", "true"
                )
                page.mouse.click(*point)
            return True
        if not page.evaluate(HIGHLIGHTED, css):
            return False
        page.get_by_role("button", name="Fit the whole map").click()
    return False


def place_by_clicking(page: Page, section) -> None:
    """A set-up: the hex field's allowed hexes are highlighted; click one (the one after the default, so that the
    click is seen to change the answer)."""
    select = section.locator("select[data-board-hex]")
    before = select.input_value()
    section.locator("[data-board-pick]").click()
    spots = [p for p in page.evaluate(HIGHLIGHTED, "board__allowed") if inside_frame(page, p)]
    if not spots:
        page.get_by_role("button", name="Fit the whole map").click()
        spots = [p for p in page.evaluate(HIGHLIGHTED, "board__allowed") if inside_frame(page, p)]
    assert spots, "the set-up hexes are highlighted on the map"
    page.mouse.click(*in_sight(page, spots[len(spots) // 2]))
    expect(select).not_to_have_value(before)
    expect(section.locator(".board-pick__hex")).to_contain_text("Hex [")


def move_by_clicking(page: Page, section, hexes: int, turning: bool = False) -> None:
    """A move: click the ship, then (``turning``) a hex beside her she must turn to face, then the hex ahead
    (highlighted) up to ``hexes`` times; the server judges each step."""
    move = section.locator("[data-board-move]")
    ship = move.get_attribute("data-ship")
    page.locator(f'#battle-map g.counter[data-ship="{ship}"]').click()
    expect(page.locator(f'#battle-map g.counter[data-ship="{ship}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board-info")).to_contain_text(ship)
    request = section.get_attribute("data-request")
    if turning and click_highlighted(page, "board__next:not(.board__next--ahead)"):
        # The turns to face that hex, then ahead as far as the rules take it.
        try:
            expect(page.locator(f"#decision-{request} [data-board-move]")).to_have_attribute(
                "data-plan", re.compile(r'^\["(port|starboard)"')
            )
        except AssertionError:
            shot(page, "board-DEBUG")
            raise AssertionError(page.locator("#board-info").inner_text()) from None
    for _ in range(hexes):
        request = section.get_attribute("data-request")
        plan = page.locator(f"#decision-{request} [data-board-move]").get_attribute("data-plan")
        if not click_highlighted(page, "board__next--ahead"):
            break
        try:
            expect(page.locator(f"#decision-{request} [data-board-move]")).not_to_have_attribute("data-plan", plan)
        except AssertionError:
            shot(page, "board-DEBUG")
            raise AssertionError(page.locator("#board-info").inner_text()) from None
        expect(page.locator("#battle-map .board__path")).to_have_count(1)
    request = section.get_attribute("data-request")
    if "move" not in PICTURED:  # the first move built on the map, as its player sees it before sending it
        PICTURED.add("move")
        shot(page, f"board-move-{page.viewport_size['width'] if page.viewport_size else 0}")
    if page.locator(f"#decision-{request} [data-board-move]").get_attribute("data-complete") != "1":
        page.locator(f"#decision-{request} input[name$=use_default]").check()


def give_orders(page: Page, hexes: int, turning: bool = False) -> dict[str, int]:
    """Answer every decision on the page on the map (or leave its offered answer) and send them all at once."""
    done: dict[str, int] = {}
    sections = page.locator("#orders-form section.decision")
    for index in range(sections.count()):
        section = sections.nth(index)
        kind = (section.get_attribute("class") or "").split("decision--")[-1].split()[0]
        if section.locator("select[data-board-hex]").count():
            place_by_clicking(page, section)
            kind = "place"
        elif section.locator("[data-board-move]").count():
            move_by_clicking(page, section, hexes, turning)
            kind = "move"
        done[kind] = done.get(kind, 0) + 1
    first = sections.first.get_attribute("id")
    page.get_by_role("button", name="Send orders", exact=True).click()
    # The orders go from the page in place (no reload): the answered decisions leave it.
    expect(page.locator(f"#{first}")).to_have_count(0)
    return done


def fight(
    pages: dict[str, Page], battle: Battle, url: str, turns: int, hexes: int = 2, turning: bool = False
) -> dict[str, int]:
    """Each awaited side gives its orders on its page until the battle ends or ``turns`` are fought; ``turning``:
    each move of an even turn begins with a click on a hex beside the ship she must turn to face."""
    done: dict[str, int] = {}
    for _ in range(MAX_ROUNDS):
        battle.refresh_from_db()
        if battle.status == BattleStatus.FINISHED or battle.turn > turns:
            return done
        for key in [k for k in selectors.awaited_sides(battle) if k in pages]:
            page = pages[key]
            visit(page, url)
            expect(page.locator("#orders-form")).to_be_visible()
            for kind, n in give_orders(page, hexes, turning and battle.turn % 2 == 0).items():
                done[kind] = done.get(kind, 0) + n
            expect(page.locator("#battle-status")).to_be_visible()
            expect(page.locator(".errorlist")).to_have_count(0)
            battle.refresh_from_db()
    raise AssertionError(f"no end after {MAX_ROUNDS} rounds of orders: {done}")


# Gun arcs and range bands drawn for each ship, as the overlay's contract has them: hidden until she is picked.
# The page draws them for a ship with guns; one without gets an empty group here, so the contract is checked for both.
ARCS = """(ships) => {
  const svg = document.querySelector("#battle-map svg");
  for (const ship of ships) {
    if (svg.querySelector(`g.hexmap__arcs[data-for-ship="${ship}"]`)) continue;
    const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
    g.setAttribute("class", "hexmap__arcs");
    g.setAttribute("data-for-ship", ship);
    g.setAttribute("hidden", "");
    svg.appendChild(g);
  }
}"""
SHOWN_ARCS = """() => [...document.querySelectorAll("#battle-map g.hexmap__arcs")]
  .filter((g) => !g.hasAttribute("hidden")).map((g) => g.dataset.forShip)"""


def picks_a_ship_and_shows_her_arcs_alone(page: Page, ship: str, other: str) -> None:
    page.evaluate(ARCS, [ship, other])
    counter = page.locator(f'#battle-map g.counter[data-ship="{ship}"]')
    counter.click()
    expect(counter).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f'#battle-map g.counter[data-ship="{other}"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#board-info")).to_contain_text(ship)
    assert page.evaluate(SHOWN_ARCS) == [ship]
    assert counter.locator(":scope > title").text_content()  # her name on hover too (her tags have titles of their own)
    box = counter.locator("circle.counter__body").bounding_box()
    assert box is not None
    assert box["width"] >= 28  # readable at the default zoom


def test_a_duel_is_fought_to_its_end_by_clicking_the_map(live_server, club, tab):
    battle = start(club, "duel", "open-water", ("red", "blue"))
    alice, bob = tab(club["alice"]), tab(club["bob"])
    url = f"{live_server.url}/battles/{battle.pk}/"
    visit(alice, url)
    shot(alice, "board-duel-setup-desktop")
    picks_a_ship_and_shows_her_arcs_alone(alice, "Swiftwood", "Aphid")

    played = fight({"red": alice, "blue": bob}, battle, url, turns=99, turning=True)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert played.get("place") == 2, played
    assert played.get("move", 0) >= 2, played
    plots = Decision.objects.filter(battle=battle, kind="plot movement", source=DecisionSource.PLAYER)
    assert any(d.choice and d.choice[:1] == ["ahead"] for d in plots)  # built by clicks on the hex ahead
    assert any(d.choice and d.choice[0] in ("port", "starboard") for d in plots)  # on a hex to turn to
    visit(alice, url)
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    assert alice.offsite_requests == []
    assert bob.offsite_requests == []


def test_the_first_turns_of_sky_galleons_are_fought_by_clicking_the_map(live_server, club, tab):
    battle = start(club, "sky_galleons", "john-bulls-tyranny", ("irish", "british"))
    alice, bob = tab(club["alice"]), tab(club["bob"])
    url = f"{live_server.url}/battles/{battle.pk}/"
    visit(alice, url)
    shot(alice, "board-sg-setup-desktop")

    played = fight({"irish": alice, "british": bob}, battle, url, turns=2)

    assert played.get("place", 0) >= 2, played
    assert played.get("move", 0) >= 2, played
    moves = Decision.objects.filter(battle=battle, kind="move", source=DecisionSource.PLAYER)
    assert any(d.choice and d.choice[:1] == ["ahead"] for d in moves)
    battle.refresh_from_db()
    waiting = next(iter(k for k in selectors.awaited_sides(battle)), "irish")
    user = club["alice"] if waiting == "irish" else club["bob"]
    page = alice if waiting == "irish" else bob
    visit(page, url)
    shot(page, "board-sg-turn-desktop")
    phone = tab(user, PHONE, touch=True)
    visit(phone, url)
    shot(phone, "board-sg-turn-phone")
    phone.screenshot(path=str(SCREENSHOTS / "board-sg-turn-phone-screen.png"))
