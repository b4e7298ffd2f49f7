"""A campaign week fought under Cloudships of Mars, in a real browser (issue 22): the umpire chooses Cloudships as
the campaign's battle rules on the settings page; Alice founds a captain and buys a Sky Runner, the Gull, at the
Parhoon yard; she sails into the Neutral Northeast (the voyage through the services: the map's planner is the Sky
Galleons week's, tests/browser/test_campaign_week.py) and the umpire runs the days from his desk; the Gull meets a
pirate with a prize in tow, the battle is fought on Cloudships control panels, the AI captain fighting for Alice;
her damage comes back onto her Sky Galleons record, and the pirates' prize, hove to, comes home in tow
(battles/rules/cloudships_2023/campaign.py). Alice reads it on her ship's page, at desktop and phone width.

The dice are fixed (tests/browser/cloudships_week_seeds.py).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from battles import engine_io
from battles.engine import dice as battle_dice
from battles.models import Battle, BattleStatus
from campaign import yard_selectors
from campaign.models import Campaign, CampaignShip, Captain, Role, ShipStatus
from galleons.record import ShipRecord, check_record
from strategic_map import desk, voyages
from strategic_map.models import Encounter
from tests.browser import cloudships_week_seeds as seeds
from tests.browser.campaign_steps import buy_ship, found_captain, signed_in_tab
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = seeds.SLUG
RESEARCH = "re-run the seed search: PYTHONPATH=$PWD .venv/bin/python -m tests.browser.cloudships_week_seeds"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def week(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    umpire = UserFactory(username="hargreaves", display_name="Commodore Hargreaves")
    campaign = CampaignFactory(
        created_by=umpire,
        slug=SLUG,
        name="Hellas Planitia",
        seed=seeds.campaign_seed(seeds.CAMPAIGN_SEED),
        holdback_voyages=seeds.HOLDBACK_VOYAGES,
    )
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice", display_name="Alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    monkeypatch.setattr(battle_dice, "new_seed", lambda: seeds.fixed_battle_seed(seeds.BATTLE_SEED))
    return {"campaign": campaign, "umpire": umpire, "alice": alice}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def run_day(umpire: Page, base: str, day: int) -> None:
    """The umpire runs the next campaign day from the desk."""
    umpire.goto(f"{base}/campaigns/{SLUG}/desk/")
    umpire.locator("#run-reason").fill(f"The week's day {day}")
    umpire.get_by_role("button", name=f"Run day {day} now").click()
    expect(umpire.get_by_role("status")).to_contain_text(f"Day {day} has run.")


def test_an_umpire_sets_cloudships_and_a_captains_encounter_is_fought_on_it_and_comes_home(
    chromium: Any, live_server: Any, week: dict[str, Any]
) -> None:
    started = time.monotonic()
    campaign, base = week["campaign"], live_server.url
    umpire, alice = (signed_in_tab(chromium, live_server, week[who]) for who in ("umpire", "alice"))

    # --- The umpire chooses the battle rules on the settings page ---------------------------------------------
    umpire.goto(f"{base}{reverse('campaign_settings', args=[SLUG])}")
    umpire.get_by_label("Battle rules").select_option(label=seeds.RULES_TITLE)
    umpire.get_by_label("Reason").fill("The club plays Cloudships this season")
    umpire.get_by_role("button", name="Save the settings").click()
    expect(umpire.get_by_role("status")).to_contain_text("Settings saved and audited.")
    assert Campaign.objects.get(pk=campaign.pk).tactical_ruleset == seeds.RULES
    umpire.goto(f"{base}{reverse('campaign_detail', args=[SLUG])}")
    expect(umpire.locator("body")).to_contain_text(f"Battles are fought under {seeds.RULES_TITLE}")

    # --- Alice's captain and ship; her voyage; the days run from the desk ------------------------------------
    found_captain(alice, live_server, SLUG, "Jack")
    buy_ship(alice, seeds.ALICE_CLASS_NAME, "Gull")
    jack, gull = Captain.objects.get(name="Jack"), CampaignShip.objects.get(name="Gull")
    desk.territory_numbers_set(
        campaign_id=campaign.pk,
        umpire=week["umpire"],
        territory=seeds.ENCOUNTER_TERRITORY,
        move_through=6,
        patrol=6,
        reason="Corsairs off Gorovaan",
    )
    voyages.voyage_start(captain_id=jack.pk, ship_id=gull.pk, user=week["alice"], plan=seeds.VOYAGE_PLAN)
    for day in range(1, seeds.OUT_DAYS + 1):
        run_day(umpire, base, day)
    encounter = Encounter.objects.filter(campaign=campaign).first()
    assert encounter is not None, f"no encounter; {RESEARCH}"
    assert encounter.battle_id is not None
    battle = Battle.objects.get(pk=encounter.battle_id)
    assert battle.ruleset_key == seeds.RULES
    before = ShipRecord.from_json(CampaignShip.objects.get(pk=gull.pk).record)

    # --- The battle, on Cloudships control panels: the AI captain fights for her ------------------------------
    alice.goto(f"{base}/battles/{battle.pk}/")
    expect(alice.locator("#battle-status")).to_be_visible()
    expect(alice.locator("body")).to_contain_text("Gull")
    shot(alice, "cloudships-week-battle-before")
    alice.get_by_role("button", name="Let the AI captain fight for Jack").click()
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    shot(alice, "cloudships-week-battle-after")
    battle.refresh_from_db()
    encounter.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert encounter.applied_at is not None

    # --- Her damage and her prize come home onto the campaign's records ---------------------------------------
    gull.refresh_from_db()
    assert gull.status == ShipStatus.AT_SEA, f"the Gull is {gull.status}; {RESEARCH}"
    after = ShipRecord.from_json(gull.record)
    check_record(after)
    outcome = engine_io.battle_outcome(battle)
    assert outcome is not None
    entry = outcome.ship("Gull")
    assert entry is not None
    bridge = engine_io.campaign_bridge(seeds.RULES)
    assert gull.record == bridge.record_after(entry, before.to_json(), crew_quality=gull.crew_quality)
    bill = yard_selectors.repair_bill(gull)
    assert bill.lines, f"the Gull came out of it with nothing to mend; {RESEARCH}"
    prize = CampaignShip.objects.filter(campaign=campaign, captured_by=jack, status=ShipStatus.PRIZE).first()
    assert prize is not None, f"no prize taken; {RESEARCH}"
    assert prize.towed_by_id == gull.pk
    check_record(ShipRecord.from_json(prize.record))

    # --- Alice reads it on her pages: the news, her ship's record sheet and panel, at desktop and phone width ---
    alice.goto(f"{base}/ships/{gull.pk}/")
    expect(alice.get_by_role("heading", level=1)).to_have_text("The Gull")
    expect(alice.locator(".in-tow")).to_have_text(f"In tow: the {prize.name} (Warm Winds, a prize)")
    expect(alice.get_by_role("heading", name=f"In battle: {seeds.RULES_TITLE}")).to_be_visible()
    expect(alice.locator("[data-bill-total]")).to_have_attribute("data-bill-total", str(bill.total))
    shot(alice, "cloudships-week-ship")
    alice.set_viewport_size(PHONE)
    alice.reload()
    expect(alice.get_by_role("heading", name=f"In battle: {seeds.RULES_TITLE}")).to_be_visible()
    wide = alice.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the ship page is {wide} px wide at phone width"
    shot(alice, "cloudships-week-ship-phone")
    for page in (umpire, alice):
        assert page.offsite_requests == []  # type: ignore[attr-defined]
        page.context.close()
    print(f"\nthe Cloudships campaign week took {time.monotonic() - started:.1f} s")
