"""A live battle on a club night, in a real browser: the umpire starts a Duel as live play (two minutes a decision)
from the New battle form; Alice and Bob, each in a browser of their own, answer in turn, and each page updates
itself in place when the other side answers (no reload: a mark left on the page's window survives), the new
turn's decision appearing on its own.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from battles.models import Battle, BattleMode, BattleStatus, Decision, DecisionSource

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UPDATE = 10_000  # ms: a live page asks every 2 s; an answer and its resolution are well inside this


def ready(page: Page) -> None:
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")


def settled(page: Page) -> None:
    """No HTMX request in flight nor a swap under way."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def start_live_duel(umpire: Page, live_server) -> Battle:
    """The umpire's New battle form: the Duel, live play at two minutes a decision, Alice for Red, Bob for Blue."""
    umpire.goto(f"{live_server.url}/campaigns/syrtis/battles/new/")
    ready(umpire)
    # Each choice reloads the fields below it by HTMX: wait for each reload to be swapped in before choosing on,
    # or a late swap would put back the defaults (the AI for both sides).
    with umpire.expect_response(lambda response: "/battles/new/scenario/" in response.url):
        umpire.get_by_label("Battle rules").select_option("duel")
    settled(umpire)
    with umpire.expect_response(lambda response: "/battles/new/scenario/" in response.url):
        umpire.get_by_label("Scenario").select_option("close-quarters")
    settled(umpire)
    expect(umpire.get_by_label("Scenario")).to_have_value("close-quarters")
    umpire.get_by_label("Title (optional)").fill("The Ambush at Gorovaan")
    umpire.get_by_label("How it is played").select_option(BattleMode.LIVE)
    umpire.get_by_label("Minutes for each decision (live play)").select_option("2")
    umpire.locator("select[name=side_red]").select_option(label="Captain Alice (player)")
    umpire.locator("select[name=side_blue]").select_option(label="Captain Bob (player)")
    umpire.get_by_role("button", name="Begin the battle").click()
    expect(umpire.locator("#battle-status")).to_contain_text("2 minutes a decision")
    battle = Battle.objects.get(title="The Ambush at Gorovaan")
    assert {side.key: side.user.username for side in battle.sides.all() if side.user} == {"red": "alice", "blue": "bob"}
    return battle


def open_page(page: Page, url: str) -> None:
    """Open the battle page and leave a mark on its window: a reload would wipe it."""
    page.goto(url)
    ready(page)
    page.evaluate("window.__marker = 1")


def not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"


def answer_with_default(page: Page) -> None:
    """Send the default answer of the first open decision on the page; it goes from the page in place."""
    section = page.locator("section.decision").first
    ident = section.get_attribute("id")
    section.locator("input[name$=use_default]").check()
    page.get_by_role("button", name="Send orders", exact=True).click()
    expect(page.locator(f"#{ident}")).to_have_count(0)


def test_two_players_play_live_and_each_page_updates_itself_when_the_other_answers(live_server, club, tab):
    umpire, alice, bob = tab(club["umpire"]), tab(club["alice"]), tab(club["bob"])
    battle = start_live_duel(umpire, live_server)
    url = f"{live_server.url}/battles/{battle.pk}/"
    open_page(alice, url)
    open_page(bob, url)
    for page in (alice, bob):
        expect(page.locator("#battle-changes")).to_have_attribute("hx-trigger", "every 2s")
        expect(page.locator("section.decision")).to_have_count(1)  # both place their ships at once, in secret
        expect(page.locator("#battle-status")).to_contain_text("Turn 0 · Deployment")

    # Alice places the Aphid. Her page updates in place; Bob's learns nothing of her secret answer and keeps his
    # placement form as it is.
    answer_with_default(alice)
    expect(alice.get_by_text("Nothing for you to decide now")).to_be_visible()
    bob.wait_for_timeout(4_500)  # two of his page's asks
    expect(bob.locator("section.decision")).to_have_count(1)
    expect(bob.locator("#battle-status")).to_contain_text("Turn 0 · Deployment")

    # Bob places the Swiftwood: the placements are revealed and turn 1 begins. Alice's page learns of it by
    # asking, without a reload: the new turn and her new decision appear on their own.
    alice.evaluate("document.getElementById('battle-map').dataset.drawn = 'before'")
    answer_with_default(bob)
    expect(alice.locator("#battle-status")).to_contain_text("Turn 1", timeout=UPDATE)
    expect(alice.locator("section.decision")).to_have_count(1, timeout=UPDATE)
    expect(alice.locator("#battle-log")).to_contain_text("Aphid", timeout=UPDATE)
    expect(bob.locator("#battle-status")).to_contain_text("Turn 1")
    # The map was drawn again, as a map: the new SVG in place of the old, once.
    expect(alice.locator("#battle-map")).to_have_count(1)
    expect(alice.locator("#battle-map")).not_to_have_attribute("data-drawn", "before")
    assert alice.evaluate("document.querySelector('#battle-map svg').namespaceURI") == "http://www.w3.org/2000/svg"
    assert alice.locator("#battle-map").bounding_box()["width"] > 100
    not_reloaded(alice)
    not_reloaded(bob)

    # Now Bob plots first and Alice second: Bob's page updates itself when she answers (the ships move; what is
    # asked next, if anything, of him appears).
    answer_with_default(bob)
    expect(bob.get_by_text("Nothing for you to decide now")).to_be_visible()
    log_before = bob.locator("#battle-log").inner_text()
    answer_with_default(alice)
    expect(bob.locator("#battle-log")).not_to_have_text(log_before, timeout=UPDATE)
    battle.refresh_from_db()
    assert battle.status != BattleStatus.RESOLVING
    expect(bob.locator("#battle-status")).to_contain_text(f"Turn {battle.turn}", timeout=UPDATE)
    not_reloaded(alice)
    not_reloaded(bob)

    assert set(Decision.objects.filter(battle=battle).values_list("source", flat=True)) == {DecisionSource.PLAYER}
    for page in (umpire, alice, bob):
        assert page.offsite_requests == []
