"""Battles in a real browser: two players and an umpire fight Scenario 2 (John Bull's Tyranny) from the umpire's
new battle form to the replay of the end, in web play; the umpire enters both sides' decisions at the table and
corrects one; and an umpire auto-resolves a third battle from the form.

The players give real orders for the first turns (set-up, moves built step by step, guns laid on targets) and
then, to keep the battle short, answer with the default buttons (hold course) but for the guns, which they keep
laying on the enemy until one ship is out of the fight.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from battles import selectors
from battles.models import Battle, BattleEvent, BattleMode, BattleStatus, Correction, Decision, DecisionSource
from tests.browser.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REAL_TURNS = 2  # turns fought with real orders before the default buttons take over
MAX_ACTIONS = 600


def shot(page: Page, name: str) -> None:
    """A full-page screenshot of this tab under var/screenshots/ (the suite's ``screenshot`` fixture shoots its
    own ``page``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def visit(page: Page, url: str) -> None:
    """Go to ``url``, even if the page is reloading itself (an answer's HX-Refresh or the poll) just then.

    The way is through a blank page: a battle page's script can start a reload after ``goto`` began and
    interrupt it, and waiting for the load state does not help when the reload has not started yet; a blank
    page runs no script, so the second ``goto`` is never interrupted."""
    for attempt in range(5):
        try:
            page.goto("about:blank")
            page.goto(url)
            return
        except PlaywrightError:
            if attempt == 4:
                raise
            page.wait_for_timeout(250)


def ready(page: Page) -> None:
    """HTMX is loaded (deferred) and has processed the page."""
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")


def new_battle(page: Page, live_server, scenario: str, mode: str, sides: dict[str, str]) -> Battle:
    """The umpire starts a battle from the campaign page's New battle form."""
    page.goto(f"{live_server.url}/campaigns/syrtis/")
    page.get_by_role("link", name="New battle").click()
    expect(page.get_by_role("heading", name="New battle")).to_be_visible()
    ready(page)
    page.get_by_label("Scenario").select_option(scenario)
    first_side = next(iter(sides))
    expect(page.locator(f"select[name=side_{first_side}]")).to_have_count(1)  # the scenario's sides, by HTMX
    page.get_by_label("How it is played").select_option(mode)
    for key, who in sides.items():
        page.locator(f"select[name=side_{key}]").select_option(label=who)
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    return Battle.objects.order_by("-pk").first()


def decisions(page: Page):
    return page.locator("section.decision")


def answer(page: Page, *, real: bool) -> list[str]:
    """Answer every decision on the page, sent together with the one "Send orders": with real orders (a move built
    step by step with the step buttons, each gun laid on a target) or with each decision's default ticked. Returns
    the decisions' kinds of form."""
    ready(page)
    ids = [section.get_attribute("id") for section in decisions(page).all()]
    forms = []
    for section_id in ids:
        here = page.locator(f"#{section_id}")
        form = re.search(r"decision--(\w+)", here.get_attribute("class") or "").group(1)
        forms.append(form)
        if not real:
            here.locator("input[name$=use_default]").check()
        elif form == "move":
            for _ in range(2):
                ahead = here.get_by_role("button", name=re.compile(r"^Ahead"))
                if ahead.count() == 0:
                    break
                steps = here.locator(".plan__steps").inner_text()
                ahead.click()
                expect(here.locator(".plan__steps")).not_to_have_text(steps)  # the section built a step further
            if here.locator("[data-board-move]").get_attribute("data-complete") != "1":
                here.locator("input[name$=use_default]").check()
        elif form == "fire":
            for group in here.locator("fieldset.choices").all():
                targets = group.locator("input[type=radio]")
                if targets.count() > 1:
                    targets.nth(1).check()  # the first target the gun may fire at
    page.get_by_role("button", name="Send orders", exact=True).click()
    # Legal answers update the page in place (its regions swapped); a refused one comes back with its reason.
    expect(page.locator(f"#{ids[0]}")).to_have_count(0)
    return forms


def firing(page: Page) -> bool:
    return "decision--fire" in (decisions(page).first.get_attribute("class") or "")


def play_to_the_end(pages: dict[str, Page], battle: Battle, url: str) -> dict[str, int]:
    """Each side answers what its page asks of it until the battle ends: real orders for the first turns, then
    the default buttons (hold course) but for the guns, laid on a target every turn so the fight comes to an
    end before the turn limit. Only the page of a side the battle awaits is visited; after each answer the page
    reloads itself."""
    done: dict[str, int] = {}
    for _ in range(MAX_ACTIONS):
        battle.refresh_from_db()
        if battle.status == BattleStatus.FINISHED:
            return done
        awaited = [key for key in selectors.awaited_sides(battle) if key in pages]
        assert awaited or battle.status != BattleStatus.WAITING, "nobody has anything to decide in a waiting battle"
        for key in awaited:
            page = pages[key]
            visit(page, url)
            while decisions(page).count():
                for form in answer(page, real=battle.turn <= REAL_TURNS or firing(page)):
                    done[form] = done.get(form, 0) + 1
                page.wait_for_load_state()
                battle.refresh_from_db()
    raise AssertionError(f"the battle did not end in {MAX_ACTIONS} actions: {done}")


def test_two_players_fight_john_bulls_tyranny_in_web_play_to_the_end(live_server, club, tab):
    umpire, alice, bob = tab(club["umpire"]), tab(club["alice"]), tab(club["bob"])
    battle = new_battle(
        umpire,
        live_server,
        "john-bulls-tyranny",
        BattleMode.ASYNC,
        {"irish": "Captain Alice (player)", "british": "Captain Bob (player)"},
    )
    url = f"{live_server.url}/battles/{battle.pk}/"
    expect(umpire.locator(".sides__name", has_text="Liam O'Connor")).to_be_visible()

    # Alice finds the battle from the home page and sets up first; Bob's page waits for her.
    alice.goto(f"{live_server.url}/")
    alice.get_by_role("link", name="Your battles").click()
    expect(alice.get_by_role("cell", name="You")).to_be_visible()
    alice.get_by_role("link", name="John Bull's Tyranny").click()
    bob.goto(url)
    expect(bob.get_by_text("Nothing for you to decide now")).to_be_visible()
    shot(alice, "battle-setup-alice")
    assert answer(alice, real=True) == ["place"]
    # Bob's page updates itself (asking for changes every 15 s in web play) once Alice has set up: his own set-up
    # is asked.
    expect(decisions(bob)).to_have_count(1, timeout=25_000)
    expect(bob.get_by_text("Fenian Ram is set up at")).to_be_visible()

    played = play_to_the_end({"irish": alice, "british": bob}, battle, url)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    # Two submissions a turn: the orders and the moves; the guns fired, and who moved first was settled, by the
    # sides' standing orders (web play), never asked.
    assert set(played) == {"place", "orders", "move"}, played
    assert BattleEvent.objects.filter(battle=battle, kind="fire").exists()
    assert not Decision.objects.filter(battle=battle, kind__in=["fire", "first player"]).exists()
    moves = Decision.objects.filter(battle=battle, kind="move", source=DecisionSource.PLAYER)
    assert any(d.choice and d.choice[:1] == ["ahead"] for d in moves)  # built step by step in the browser
    assert not Decision.objects.filter(battle=battle).exclude(source=DecisionSource.PLAYER).exists()

    visit(alice, url)
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    expect(alice.locator(".log").get_by_text(re.compile(r"rolled \d")).first).to_be_attached()
    shot(alice, "battle-over-alice")
    alice.get_by_role("link", name="Replay it turn by turn").click()
    ready(alice)
    expect(alice.get_by_role("heading", name=f"After turn {battle.turn}")).to_be_visible()
    alice.get_by_role("link", name="Previous turn").click()
    expect(alice.get_by_role("heading", name=f"After turn {battle.turn - 1}")).to_be_visible()
    alice.locator("#replay-turn").fill("1")
    expect(alice.get_by_role("heading", name="After turn 1")).to_be_visible()
    expect(alice.get_by_text("Turn 1 begins.")).to_be_visible()
    shot(alice, "battle-replay")
    for page in (umpire, alice, bob):
        assert page.offsite_requests == []


def test_the_umpire_enters_both_sides_decisions_at_the_table_and_corrects_one(live_server, club, tab):
    umpire = tab(club["umpire"])
    battle = new_battle(
        umpire,
        live_server,
        "john-bulls-tyranny",
        BattleMode.TABLE,
        {"irish": "Captain Alice (player)", "british": "The umpire"},
    )
    expect(umpire.get_by_role("heading", name="Decisions at the table")).to_be_visible()

    sides = set()
    # Set-up, the first initiative orders and first player; stop at the first move of turn 1.
    while not (battle.turn >= 1 and "decision--move" in (decisions(umpire).first.get_attribute("class") or "")):
        assert decisions(umpire).count(), "at the table the umpire has every decision"
        sides.add(decisions(umpire).first.locator(".decision__side").inner_text())
        answer(umpire, real=True)
        battle.refresh_from_db()
    assert sides == {"Liam O'Connor", "Royal Navy"}
    assert set(Decision.objects.filter(battle=battle).values_list("source", flat=True)) == {DecisionSource.UMPIRE}
    move = decisions(umpire).first
    expect(move.locator(".plan__steps")).to_have_text("no steps yet")
    move.get_by_role("button", name=re.compile(r"^Ahead")).click()
    expect(move.locator(".plan__steps")).to_have_text("ahead")
    expect(move.locator("[data-board-move]")).to_have_attribute("data-complete", "1")
    expect(umpire.get_by_role("button", name="Send orders", exact=True)).to_be_enabled()
    shot(umpire, "battle-table-move")

    umpire.get_by_role("link", name="Correct a wrong entry…").click()
    expect(umpire.get_by_role("heading", name="Correct a wrong entry")).to_be_visible()
    chosen = umpire.get_by_label("The decision entered wrongly")
    orders = next(o for o in chosen.locator("option").all_inner_texts() if "initiative orders" in o)
    chosen.select_option(label=orders)
    umpire.get_by_label("Or type the right answer").fill('{"crew": [], "strike": [], "ram": 1}')
    umpire.get_by_label("Reason").fill("The Irish declared a ram at the table")
    umpire.get_by_role("button", name="Correct and carry on").click()
    expect(umpire.get_by_text("Corrected:")).to_be_visible()
    correction = Correction.objects.get(battle=battle)
    assert correction.new_choice["ram"] == 1
    assert correction.reason == "The Irish declared a ram at the table"


def test_the_umpire_auto_resolves_a_battle_from_the_form(live_server, club, tab):
    umpire = tab(club["umpire"])
    battle = new_battle(
        umpire,
        live_server,
        "thieves-fall-out",
        BattleMode.AUTO,
        {"roquette": "The AI", "tharn": "The AI", "blackwood": "The AI"},
    )

    expect(umpire.locator(".battle-result")).to_contain_text("The battle is over")
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    expect(umpire.locator(".log__line").first).to_be_attached()
    umpire.get_by_role("link", name="Replay it turn by turn").click()
    expect(umpire.get_by_role("heading", name=re.compile(r"After turn \d+"))).to_be_visible()
    shot(umpire, "battle-auto-replay")
