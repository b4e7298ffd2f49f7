"""A Cloudships of Mars battle in a real browser, end to end in web play: the umpire starts the Raid on the canal from
the New battle form with the option umpire_turns_cards, and turns every card from his own page (the go-ahead is his
alone: DecisionRequest.umpire); Alice flies the British squadron and Bob the Martian raiders, each in a browser of his
own. The first round is fought with real orders given on the page (moves built step by step, guns laid on targets,
return fire), the rest with the default buttons but for the guns; the outcome shows and the replay verifies the seed.

Screenshots go to var/screenshots/ (cloudships-*.png), at desktop width and at a phone's 390 px (the umpire's card
and the first move).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from battles import selectors
from battles.models import Battle, BattleStatus, Decision, DecisionSource
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_battle_play import decisions, ready, visit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = "cloudships_2023"
REAL_ROUNDS = 1  # rounds fought with real orders before the default buttons take over
MAX_ACTIONS = 200
PHONE = {"width": 390, "height": 844}
TURN_IT = "Turn the next card"
PLAYERS = {"british": "alice", "martians": "bob"}
RETURN_FIRE = re.compile(r"^\s*Return fire")
PORT = re.compile(r"^(Power turn|Turn) to port")
# The raid's squadrons start heading south-east and north-west, on lines that never meet: the Martians turn to port,
# south-west, across the British course, so the fight comes (and with it fire orders and return fire).
TURNS = {"british": None, "martians": PORT}
AHEAD = re.compile(r"^Ahead")


def shot(page: Page, name: str) -> None:
    """What the tab shows, the window only (a Cloudships page runs to some 11,000 px with its five control panels,
    and a full-page picture of it is slow to take and to look at)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def shot_of(page: Page, selector: str, name: str) -> None:
    """One part of the page (scrolled to, as a person would), e.g. the orders beside or below the map."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def at_a_phones_width(page: Page, url: str, name: str) -> None:
    """The battle page at 390 px, as the umpire or a player holds it in his hand: nothing wider than the screen, the
    orders below the map in reach. The tab is closed after."""
    visit(page, url)
    expect(decisions(page).first).to_be_visible()
    shot(page, f"cloudships-phone-{name}")
    shot_of(page, "#decisions", f"cloudships-phone-{name}-orders")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


def new_cloudships_battle(page: Page, live_server) -> Battle:
    """The umpire starts the Raid on the canal under Cloudships, turning the cards himself, Alice and Bob playing."""
    page.goto(f"{live_server.url}/campaigns/syrtis/")
    page.get_by_role("link", name="New battle").click()
    expect(page.get_by_role("heading", name="New battle")).to_be_visible()
    ready(page)
    page.get_by_label("Battle rules", exact=True).select_option(KEY)
    expect(page.locator("select[name=side_martians]")).to_have_count(1)  # its scenario and sides, by HTMX
    expect(page.get_by_label("Scenario")).to_have_value("raid-on-the-canal")
    page.get_by_text("Rules options").click()
    page.locator("input[name=option_umpire_turns_cards]").check()
    page.get_by_label("How it is played").select_option("async")
    page.locator("select[name=side_british]").select_option(label="Captain Alice (player)")
    page.locator("select[name=side_martians]").select_option(label="Captain Bob (player)")
    page.get_by_role("button", name="Begin the battle").click()
    expect(page.locator("#battle-status")).to_be_visible()
    battle = Battle.objects.order_by("-pk").first()
    assert battle is not None
    assert (battle.ruleset_key, battle.scenario_slug, battle.mode) == (KEY, "raid-on-the-canal", "async")
    assert battle.options["umpire_turns_cards"] is True
    return battle


def turn_the_card(umpire: Page, url: str = "") -> None:
    """The umpire's page (``url`` visited afresh, else as it is) offers the go-ahead as one clear button; pressing
    it turns the card in place."""
    if url:
        visit(umpire, url)
    ready(umpire)
    button = umpire.get_by_role("button", name=TURN_IT, exact=True)
    button.click()
    expect(button).to_have_count(0)


def move(section, *, turn: re.Pattern[str] | None) -> None:
    """A real move built with the step buttons: the turn asked for where she may make it (a power turn at High),
    then ahead until the rules take the plan or no step ahead is left."""
    plan = section.locator(".plan__steps")
    for label in ([turn] if turn else []) + [AHEAD] * 6:
        if label is AHEAD and section.locator("[data-board-move]").get_attribute("data-complete") == "1":
            break
        step = section.get_by_role("button", name=label)
        if step.count() == 0:
            continue
        steps = plan.inner_text()
        step.first.click()
        expect(plan).not_to_have_text(steps)  # the section built a step further
    if section.locator("[data-board-move]").get_attribute("data-complete") != "1":
        section.locator("input[name$=use_default]").check()


def answer(page: Page, *, real: bool, turn: re.Pattern[str] | None = None) -> list[str]:
    """Every decision on the player's page, sent with the one "Send orders": real orders (a move built, every gun
    laid on its first target) or the defaults. Returns the decisions' titles."""
    ready(page)
    ids = [section.get_attribute("id") for section in decisions(page).all()]
    titles = []
    for section_id in ids:
        here = page.locator(f"#{section_id}")
        titles.append(here.locator("h3").inner_text())
        form = re.search(r"decision--(\w+)", here.get_attribute("class") or "").group(1)
        if form == "fire":  # the guns are laid every round, so the fight comes to an end
            for group in here.locator("fieldset.choices").all():
                targets = group.locator("input[type=radio]")
                if targets.count() > 1:
                    targets.nth(1).check()  # the first target the gun may fire at
        elif not real:
            here.locator("input[name$=use_default]").check()
        elif form == "move":
            move(here, turn=turn)
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{ids[0]}")).to_have_count(0)  # sent: the page updates in place
    return titles


def return_fire_kept_from(attacker: Page, url: str, defender: Page) -> None:
    """While the defender's return fire is asked (secret, CM-SEQ-08), the attacker's page and his view through the
    API show none of it: no form, no choices, no default; only that a decision of the other side is open."""
    asked = [s.get_attribute("data-request") for s in decisions(defender).filter(has_text=RETURN_FIRE).all()]
    assert asked
    visit(attacker, url)
    expect(attacker.locator("section.decision").filter(has_text=RETURN_FIRE)).to_have_count(0)
    for request_id in asked:
        expect(attacker.locator(f"#decision-{request_id}")).to_have_count(0)
    battle_id = url.rstrip("/").rsplit("/", 1)[-1]
    seen = attacker.request.get(url.split("/battles/")[0] + f"/api/battles/{battle_id}/").json()
    for entry in (e for e in seen["pending"] if e["id"] in asked):
        assert set(entry) == {"id", "side", "kind", "umpire", "yours", "submitted"}, entry


def test_two_players_and_the_umpire_fight_a_cloudships_raid_in_web_play(live_server, club, tab):
    umpire, alice, bob = tab(club["umpire"]), tab(club["alice"]), tab(club["bob"])
    battle = new_cloudships_battle(umpire, live_server)
    url = f"{live_server.url}/battles/{battle.pk}/"
    pages = {"british": alice, "martians": bob}

    # Before the first card: the players wait for the umpire; his page has the button, and it is his alone.
    for page in (alice, bob):
        visit(page, url)
        expect(page.get_by_text("Waiting for the umpire to turn the next card.")).to_be_visible()
        expect(page.get_by_role("button", name=TURN_IT)).to_have_count(0)
    shot(alice, "cloudships-waiting-alice")
    visit(umpire, url)
    expect(umpire.get_by_role("heading", name="The umpire's decisions")).to_be_visible()
    expect(umpire.get_by_role("button", name=TURN_IT, exact=True)).to_be_visible()
    shot(umpire, "cloudships-umpire-card")
    at_a_phones_width(tab(club["umpire"], viewport=PHONE, touch=True), url, "umpire-card")
    turn_the_card(umpire)

    titles: list[str] = []
    returned = 0
    for _ in range(MAX_ACTIONS):
        battle.refresh_from_db()
        if battle.status == BattleStatus.FINISHED:
            break
        if selectors.umpire_awaited(battle):
            turn_the_card(umpire, url)
            continue
        awaited = [key for key in selectors.awaited_sides(battle) if key in pages]
        assert awaited or battle.status != BattleStatus.WAITING, "nobody has anything to decide in a waiting battle"
        for key in awaited:
            page = pages[key]
            visit(page, url)
            if battle.turn == 1 and not titles:
                shot(page, f"cloudships-first-move-{key}")
                at_a_phones_width(tab(club[PLAYERS[key]], viewport=PHONE, touch=True), url, f"first-move-{key}")
            if decisions(page).filter(has_text=RETURN_FIRE).count():
                other = next(p for k, p in pages.items() if k != key)
                return_fire_kept_from(other, url, page)
                if not returned:
                    shot(page, f"cloudships-return-fire-{key}")
                returned += 1
            while decisions(page).count():
                titles += answer(page, real=battle.turn <= REAL_ROUNDS, turn=TURNS[key])
                page.wait_for_load_state()
                battle.refresh_from_db()
    else:
        raise AssertionError(f"the battle did not end in {MAX_ACTIONS} actions")

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    made = Decision.objects.filter(battle=battle)
    cards = made.filter(kind="turn the next card")
    assert cards.exists()
    assert set(cards.values_list("source", flat=True)) == {DecisionSource.UMPIRE}
    assert set(cards.values_list("submitted_by", flat=True)) == {club["umpire"].pk}
    assert set(made.exclude(kind="turn the next card").values_list("source", flat=True)) == {DecisionSource.PLAYER}
    moves = made.filter(kind="move", turn=1)
    # Built step by step in the browser: the Martians' turn to port first, which holding course never makes.
    assert any(str(d.choice[0]).endswith("port") for d in moves if isinstance(d.choice, list) and d.choice)
    assert any(t.startswith("Fire orders") for t in titles), titles
    assert returned, "no return fire was asked: the secret was never put to the test"

    visit(alice, url)
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    shot(alice, "cloudships-over-alice")
    alice.get_by_role("link", name="Replay it turn by turn").click()
    ready(alice)
    expect(alice.get_by_role("heading", name=f"After turn {battle.turn}")).to_be_visible()
    shot(alice, "cloudships-replay")
    # The seed, published now, re-rolls every die of the log (the verification the replay page's battle offers).
    checked = alice.request.get(f"{live_server.url}/api/battles/{battle.pk}/verification/").json()
    assert (checked["verified"], checked["seed"], checked["problems"]) == (True, battle.seed, [])
    assert checked["dice"] > 0
    for page in (umpire, alice, bob):
        assert page.offsite_requests == []
