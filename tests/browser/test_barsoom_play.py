"""A Sky Ships of Barsoom battle in a real browser, end to end in web play: the umpire starts "A patrol meets a
raider" from the New battle form; Alice commands the Zodangan patrol and Bob the black pirates, each in a browser
of his own. In the first turn they choose their ships' three Movement Cards on the page by clicking the card tiles
(BR-MOV-01), at a phone's width too; while Alice
has plotted and Bob has not, Bob's page and his view through the API show none of her cards (BR-MOV-02). Then the
default buttons answer until the battle ends, but for the first fire form that offers to split a ship's fire: that
split is chosen by its words, at a phone's width too, and her guns fire on both marks. The outcome shows and the
replay verifies the seed.

Screenshots go to var/screenshots/ (barsoom-*.png), at desktop width and at a phone's 390 px.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from playwright.sync_api import Locator, Page, expect

from battles import selectors
from battles.engine import answers
from battles.models import Battle, BattleEvent, BattleStatus, Decision, DecisionSource
from battles.rules.barsoom.kinds import (
    AHEAD,
    CARD_REVEALED,
    FIRE_ORDERS,
    GUN_FIRED,
    PLOT_CARDS,
    STOP,
    TURN_LEFT,
    TURN_RIGHT,
)
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_battle_play import decisions, ready, visit
from tests.browser.test_cloudships_play import PHONE, shot, shot_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = "barsoom"
SCENARIO = "patrol-meets-raider"
MAX_ACTIONS = 80
ALICE_OR_BOB = {"zodanga": "alice", "pirates": "bob"}
# The first turn's plots, chosen on the page: each breaks no restriction (a Turn straight after an Ahead,
# BR-MOV-10), and none takes a ship near the map's edge.
PLOTS = {
    "Kantos": (AHEAD, TURN_RIGHT, AHEAD),
    "Swift": (AHEAD, TURN_LEFT, AHEAD),
    "Black Shadow": (AHEAD, TURN_LEFT, AHEAD),
}


def at_a_phones_width(page: Page, url: str, name: str, *, open_orders: bool = True) -> None:
    """The battle page at 390 px, as a player holds it in her hand: nothing wider than the screen, the orders (if
    any are open) below the map in reach. The tab is closed after."""
    visit(page, url)
    if open_orders:
        expect(decisions(page).first).to_be_visible()
        shot_of(page, "#decisions", f"barsoom-phone-{name}-orders")
        # Cards chosen by a tap on their tiles, on the phone as on the desktop (not sent: the desktop tab sends).
        section = decisions(page).first
        choose_tiles(section, PLOTS[section.get_attribute("data-ship") or ""])
        shot_of(page, f"#{section.get_attribute('id')}", f"barsoom-phone-{name}-chosen")
        tiles = page.locator(".card-tile__face").evaluate_all(
            "faces => faces.filter(f => f.getBoundingClientRect().right > window.innerWidth).length"
        )
        assert tiles == 0  # the rows of cards wrap within the screen
    page.screenshot(path=str(SCREENSHOTS / f"barsoom-phone-{name}.png"), full_page=True)
    wide = page.evaluate(
        """width => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > width + 1)
            .slice(0, 5).map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)""",
        PHONE["width"],
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    # The record sheets' Movement Cards: each card's name whole beside its boxes, none cut off ("Descer").
    cut = page.locator(".sheet__section--cards .sheet-row__label").evaluate_all(
        "labels => labels.filter(l => l.scrollWidth > l.clientWidth).map(l => l.textContent)"
    )
    assert cut == [], cut
    page.context.close()


def new_barsoom_battle(page: Page, live_server: Any) -> Battle:
    """The umpire starts the patrol scenario under Sky Ships of Barsoom in web play, Alice and Bob playing."""
    page.goto(f"{live_server.url}/campaigns/syrtis/")
    page.get_by_role("link", name="New battle").click()
    expect(page.get_by_role("heading", name="New battle")).to_be_visible()
    ready(page)
    page.get_by_label("Battle rules", exact=True).select_option(KEY)
    expect(page.get_by_label("Scenario").locator(f"option[value={SCENARIO}]")).to_have_count(1)  # by HTMX
    page.get_by_label("Scenario").select_option(SCENARIO)
    expect(page.locator("select[name=side_pirates]")).to_have_count(1)  # its sides, by HTMX
    expect(page.get_by_label("Scenario")).to_have_value(SCENARIO)
    page.get_by_label("How it is played").select_option("async")
    page.locator("select[name=side_zodanga]").select_option(label="Captain Alice (player)")
    page.locator("select[name=side_pirates]").select_option(label="Captain Bob (player)")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.order_by("-pk").first()
    assert battle is not None
    assert (battle.ruleset_key, battle.scenario_slug, battle.mode) == (KEY, SCENARIO, "async")
    return battle


def plot(page: Page) -> list[str]:
    """Every plot on the player's page chosen card by card (PLOTS), sent with the one "Send orders". Returns the
    ships plotted."""
    ready(page)
    sections = decisions(page)
    ships = []
    for section in sections.all():
        ship = section.get_attribute("data-ship") or ""
        ships.append(ship)
        choose_tiles(section, PLOTS[ship])
    shot_of(page, "#decisions", f"barsoom-plot-{ship_owner(ships)}-chosen")
    first = sections.first.get_attribute("id")
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{first}")).to_have_count(0)  # sent: the page updates in place
    return ships


def ship_owner(ships: list[str]) -> str:
    return "alice" if "Kantos" in ships else "bob"


def choose_tiles(section: Locator, cards: tuple[str, ...]) -> None:
    """A ship's plot chosen card by card by clicking the card tiles (real radio buttons under their faces): each slot
    opens at the default plot's Stop, nobody's choice, and the tile clicked is the one checked."""
    for n, card in enumerate(cards):
        slot = section.get_by_role("group", name=f"{('First', 'Second', 'Third')[n]} card")
        checked = slot.locator("input.card-tile__input:checked")
        expect(checked).to_have_count(1)
        expect(checked).to_have_value(answers.encode(STOP))  # the form opens at the default plot, nobody's choice
        slot.locator("label.card-tile").filter(has=slot.page.locator(f"input[value='{answers.encode(card)}']")).click()
        expect(checked).to_have_value(answers.encode(card))


def by_default(page: Page) -> None:
    """Every decision on the page answered with its default button, sent together."""
    ready(page)
    ids = [section.get_attribute("id") for section in decisions(page).all()]
    for section_id in ids:
        page.locator(f"#{section_id} input[name$=use_default]").check()
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{ids[0]}")).to_have_count(0)


def split_fire(page: Page) -> str | None:
    """Where a fire form on the page offers to split her fire ("...; the guns left on ..."), choose it by clicking its
    words, answer the page's other decisions with their defaults and send them together. Returns the ship whose fire
    was split, or None where no form offers it."""
    ready(page)
    split = page.locator("section.decision label").filter(has_text="the guns left on")
    if not split.count():
        return None
    section = decisions(page).filter(has_text="the guns left on").first
    ship, mine = section.get_attribute("data-ship"), section.get_attribute("id")
    split.first.click()
    expect(split.first.locator("input")).to_be_checked()
    shot_of(page, f"#{mine}", "barsoom-fire-split")
    for other in decisions(page).all():
        if other.get_attribute("id") != mine:
            other.locator("input[name$=use_default]").check()
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{mine}")).to_have_count(0)
    return ship


def fire_form_on_a_phone(page: Page, url: str) -> None:
    """The fire orders at 390 px: the split's longer words wrap within the screen."""
    visit(page, url)
    expect(page.locator("section.decision label").filter(has_text="the guns left on").first).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "barsoom-phone-fire.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


def plot_kept_from(bob: Page, url: str, battle: Battle) -> None:
    """While Alice has plotted and Bob has not, Bob's page and his API view hold none of her cards (BR-MOV-02): no
    form of hers, no card revealed in the log, no card on her ships' record sheets; through the API her requests
    are only "a decision of the other side", sent, and the board he sees holds no plot of hers."""
    hers = list(Decision.objects.filter(battle=battle, kind=PLOT_CARDS, side__key="zodanga").order_by("request_id"))
    assert [cast(dict[str, Any], d.choice)["cards"] for d in hers] == [list(PLOTS["Kantos"]), list(PLOTS["Swift"])]
    visit(bob, url)
    expect(decisions(bob)).to_have_count(1)  # his own plot, still open
    for decision in hers:
        expect(bob.locator(f"#decision-{decision.request_id}")).to_have_count(0)
    expect(bob.locator(".log__line--card-revealed")).to_have_count(0)
    for ship in ("kantos", "swift"):  # her ships' record sheets: "This turn's cards" holds none
        expect(bob.locator(f"#sheet-{ship}-plot + .sheet__none")).to_have_text("No cards plotted.")
    seen = bob.request.get(url.split("/battles/")[0] + f"/api/battles/{battle.pk}/").json()
    for entry in (e for e in seen["pending"] if e["side"] == "zodanga"):
        assert set(entry) == {"id", "side", "kind", "umpire", "yours", "submitted"}, entry
        assert entry["submitted"] is True
    plots = seen["board"]["plots"]
    assert all(not plots.get(ship, {}).get("cards") for ship in ("Kantos", "Swift")), plots


@pytest.mark.rule("BR-MOV-01", "BR-MOV-02", "BR-SEQ-03")
def test_two_players_plot_cards_and_fight_a_barsoom_patrol_in_web_play(
    live_server: Any, club: dict[str, Any], tab: Callable[..., Page]
) -> None:
    umpire, alice, bob = tab(club["umpire"]), tab(club["alice"]), tab(club["bob"])
    battle = new_barsoom_battle(umpire, live_server)
    url = f"{live_server.url}/battles/{battle.pk}/"
    pages = {"zodanga": alice, "pirates": bob}

    visit(alice, url)
    expect(decisions(alice)).to_have_count(2)
    shot(alice, "barsoom-plot-alice")
    shot_of(alice, "#decisions", "barsoom-plot-alice-orders")
    at_a_phones_width(tab(club["alice"], viewport=PHONE, touch=True), url, "plot-alice")
    assert plot(alice) == ["Kantos", "Swift"]
    plot_kept_from(bob, url, battle)
    shot(bob, "barsoom-plot-bob")
    at_a_phones_width(tab(club["bob"], viewport=PHONE, touch=True), url, "plot-bob")
    assert plot(bob) == ["Black Shadow"]

    played, split_by = 0, None
    for _ in range(MAX_ACTIONS):
        battle.refresh_from_db()
        if battle.status == BattleStatus.FINISHED:
            break
        awaited = [key for key in selectors.awaited_sides(battle) if key in pages]
        assert awaited, "nobody has anything to decide in a battle that is not over"
        for key in awaited:
            page = pages[key]
            visit(page, url)
            if played == 0:
                shot(page, f"barsoom-orders-{key}")
                sheet = page.locator(".sheet", has=page.locator(".card-tiles--sheet")).first
                expect(sheet.locator(".card-tile--revealed")).to_have_count(3)  # this turn's cards, face up
                shot_of(page, f".sheet[data-ship='{sheet.get_attribute('data-ship')}']", f"barsoom-sheet-{key}")
            while decisions(page).count():
                offered = split_by is None and page.locator("section.decision label", has_text="the guns left on")
                if offered and offered.count():
                    fire_form_on_a_phone(tab(club[ALICE_OR_BOB[key]], viewport=PHONE, touch=True), url)
                    split_by = split_fire(page)
                else:
                    by_default(page)
                played += 1
                page.wait_for_load_state()
    else:
        raise AssertionError(f"the battle did not end in {MAX_ACTIONS} actions")

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    made = Decision.objects.filter(battle=battle)
    assert set(made.values_list("source", flat=True)) == {DecisionSource.PLAYER}
    # One ship's fire split on the page: her cannon on a hull, the guns it left idle on a crew (docs/barsoom.md 9).
    assert split_by is not None, "no fire form offered a split"
    split = Decision.objects.get(battle=battle, kind=FIRE_ORDERS, choice__then__isnull=False)
    fired = BattleEvent.objects.filter(battle=battle, kind=GUN_FIRED, turn=split.turn, data__ship=split_by)
    marks = {(e.data["target"], e.data["at"]) for e in fired}
    then = cast(dict[str, Any], split.choice)["then"]
    assert (then["target"], then["at"]) in marks, marks
    assert len(marks) == 2, marks
    revealed = BattleEvent.objects.filter(battle=battle, kind=CARD_REVEALED, turn=1)
    assert [e.data["card"] for e in revealed if e.data.get("ship") == "Kantos"] == list(PLOTS["Kantos"])

    visit(alice, url)
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    shot(alice, "barsoom-over-alice")
    at_a_phones_width(tab(club["alice"], viewport=PHONE, touch=True), url, "over-alice", open_orders=False)
    alice.get_by_role("link", name="Replay it turn by turn").click()
    ready(alice)
    expect(alice.get_by_role("heading", name=f"After turn {battle.turn}")).to_be_visible()
    shot(alice, "barsoom-replay")
    checked = alice.request.get(f"{live_server.url}/api/battles/{battle.pk}/verification/").json()
    assert (checked["verified"], checked["seed"], checked["problems"]) == (True, battle.seed, [])
    assert checked["dice"] > 0
    for page in (umpire, alice, bob):
        assert page.offsite_requests == []  # type: ignore[attr-defined]  # set on the tab by conftest
