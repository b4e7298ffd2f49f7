"""A campaign week in real browsers (the issue's acceptance test): an umpire and two players, Alice and Bob, play a
week of the campaign through the pages; a third player, Carol, never sees their ships.

Alice and Bob found captains, buy ships at the Parhoon yard and plan voyages by clicking hexes on the map; the
umpire raises the Neutral Northeast's encounter numbers from the desk (SGC-MAP-03) and runs the days from it;
Alice's Gull meets a merchant (SGC-ENC-15), Alice lets the AI captain fight for her from the battle page, and the
merchant comes home in tow as a prize (SGC-MONEY-08); Alice routes her home to Parhoon on the map, she arrives on a
tick and the prize goes under the hammer (SGC-MONEY-01); Bob bids for her in the auction room, the auction closes
(the close task, as the beat runs it), Alice has her tenth (SGC-MONEY-02, SGC-AUCT-02) and repairs the Gull at the
Parhoon yard, the bill shown first (SGC-REPAIR-01). Carol's map, battle list, campaign pages and the API she may
call never show Alice's or Bob's ships, voyages, encounter or battle.

The dice are fixed (tests/browser/week_seeds.py): the campaign's seed, and the battle's seed through
battles.engine.dice.new_seed. Everything else is asserted as it happened.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from battles.engine import dice as battle_dice
from battles.models import Battle, BattleStatus
from campaign import auctions, economy, ledger, yard_selectors
from campaign.models import (
    Auction,
    AuctionStatus,
    Bid,
    CampaignShip,
    Captain,
    ChronicleEntry,
    LedgerEntry,
    LotKind,
    Role,
    ShipStatus,
)
from strategic_map.mapdata import mars_map
from strategic_map.models import Encounter, Voyage, VoyageStatus
from tests.browser import week_seeds
from tests.browser.campaign_steps import buy_ship, found_captain, signed_in_tab
from tests.browser.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = week_seeds.SLUG
RESEARCH = "re-run the seed search: PYTHONPATH=$PWD .venv/bin/python -m tests.browser.week_seeds (see its docstring)"


# Encounter battles become private to their sides' players on the branch `fog` (Battle.private). Until it is
# merged, a campaign's battle list and the battle page are open to every member; the assertions that need it run
# once the field exists.
@pytest.fixture
def week(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    umpire = UserFactory(username="hargreaves", display_name="Commodore Hargreaves")
    campaign = CampaignFactory(
        created_by=umpire,
        slug=SLUG,
        name="Syrtis Major",
        seed=week_seeds.campaign_seed(week_seeds.CAMPAIGN_SEED),
        holdback_voyages=week_seeds.HOLDBACK_VOYAGES,
    )
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    players = {}
    for name in ("alice", "bob", "carol"):
        players[name] = UserFactory(username=name, display_name=name.title())
        MembershipFactory(campaign=campaign, user=players[name], role=Role.PLAYER)
    # The live server runs in this process (Celery eager): the encounter's battle is created with this seed.
    monkeypatch.setattr(battle_dice, "new_seed", lambda: week_seeds.fixed_battle_seed(week_seeds.BATTLE_SEED))
    return {"campaign": campaign, "umpire": umpire, **players}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def hex_at(page: Page, q: int, r: int) -> Any:
    return page.locator(f'#strategic-map g.smap__hex[data-q="{q}"][data-r="{r}"]')


def balance(captain: Captain) -> int:
    return Captain.objects.get(pk=captain.pk).balance


def plan_by_clicks(page: Page, live_server: Any, ship: CampaignShip, route: tuple[tuple[int, int], ...]) -> Any:
    """On the map, choose a ship in port and click the route's hexes; returns the table of days' rows."""
    page.goto(f"{live_server.url}/campaigns/{SLUG}/map/")
    page.get_by_label("Ship", exact=True).select_option(f"ship:{ship.pk}")
    expect(page.locator("#planner-status")).to_contain_text("Click hexes")
    for q, r in route:
        hex_at(page, q, r).click()
    rows = page.locator("#planner-days tbody tr")
    expect(rows.last.locator("td").nth(1)).to_have_text(mars_map().hex_at(*route[-1]).label)
    return rows


def run_day(umpire: Page, live_server: Any, day: int) -> None:
    """The umpire runs the next campaign day from the desk."""
    umpire.goto(f"{live_server.url}/campaigns/{SLUG}/desk/")
    umpire.locator("#run-reason").fill(f"The week's day {day}")
    umpire.get_by_role("button", name=f"Run day {day} now").click()
    expect(umpire.get_by_role("status")).to_contain_text(f"Day {day} has run.")
    expect(umpire.get_by_role("button", name=f"Run day {day + 1} now")).to_be_visible()


def carol_sees_none_of_them(
    carol: Page, live_server: Any, ships: list[CampaignShip], voyages: list[Voyage], encounter: Encounter | None
) -> None:
    """Carol's map page, battle pages, campaign pages and the API she may call show none of the ships at sea, their
    voyages, the encounter or its battle (the fog of war)."""
    base = live_server.url
    names = [ship.name for ship in ships]

    carol.goto(f"{base}/campaigns/{SLUG}/map/")
    expect(carol.locator("#strategic-map g.smap__hex")).to_have_count(500)
    for ship in ships:
        expect(carol.locator(f'#strategic-map g.smap__ship[data-ship="{ship.pk}"]')).to_have_count(0)
    expect(carol.locator("#voyages-at-sea")).to_have_count(0)
    expect(carol.locator("#encounter-reports")).to_have_count(0)
    page_text = carol.content()
    for name in names:
        assert name not in page_text, f"Carol's map page names the {name}"

    positions = carol.request.get(f"{base}/api/campaigns/{SLUG}/map/positions/")
    assert positions.status == 200
    body = positions.json()
    assert body["voyages"] == []
    assert body["encounters"] == []
    assert [ship["name"] for ship in body["ships_in_port"]] == ["Skylark"]
    mine = carol.request.get(f"{base}/api/campaigns/{SLUG}/voyages/")
    assert mine.status == 200
    assert mine.json() == []
    for voyage in voyages:
        assert carol.request.get(f"{base}/api/voyages/{voyage.pk}/").status == 404
    for url in (f"/api/campaigns/{SLUG}/encounters/", f"/api/campaigns/{SLUG}/map/positions/", "/api/battles/"):
        answer = carol.request.get(f"{base}{url}")
        text = answer.text()
        for name in names:
            assert name not in text, f"{url} names the {name} to Carol"
    for ship in ships:
        assert carol.request.get(f"{base}/api/ships/{ship.pk}/").status in (403, 404)

    carol.goto(f"{base}/battles/")
    for name in names:
        assert name not in carol.content(), f"Carol's battles page names the {name}"
    # The campaign pages: the public chronicle names the ships bought at Parhoon (and one brought home), never
    # where a ship is or what she met; nothing else on them names Alice's or Bob's ships.
    places = {mars_map().hex_at(voyage.q, voyage.r).label for voyage in voyages}
    places |= {mars_map().hex_at(q, r).label for q, r in (*week_seeds.ALICE_ROUTE, *week_seeds.BOB_ROUTE)}
    for url in (f"/campaigns/{SLUG}/", f"/campaigns/{SLUG}/standings/"):
        carol.goto(f"{base}{url}")
        outside = carol.evaluate(
            "() => { const b = document.body.cloneNode(true);"
            " b.querySelectorAll('.chronicle').forEach(e => e.remove()); return b.innerText; }"
        )
        for name in names:
            assert name not in outside, f"{url} names the {name} to Carol"
        chronicle = " ".join(carol.locator(".chronicle").all_inner_texts())
        for place in places:
            assert place not in chronicle, f"{url}'s chronicle tells Carol of hex {place}"
        if encounter is not None:
            assert encounter.territory not in carol.content(), f"{url} tells Carol where the encounter was"

    if encounter is not None and encounter.battle_id is not None:
        battle_url = f"{base}/battles/{encounter.battle_id}/"
        assert carol.request.get(f"{base}/api/encounters/{encounter.pk}/").status == 404
        # Alice's encounter battle is private to its sides' players and the umpire (Battle.private).
        assert carol.request.get(battle_url).status == 404, "Carol can open Alice's encounter battle"
        carol.goto(f"{base}/campaigns/{SLUG}/battles/")
        assert f"/battles/{encounter.battle_id}/" not in carol.content(), "Carol's battle list shows Alice's"
        answer = carol.request.get(f"{base}/api/battles/{encounter.battle_id}/")
        assert answer.status == 404, "the battles API shows Carol Alice's encounter battle"
        listed = carol.request.get(f"{base}/api/battles/").json()
        rows = listed["results"] if isinstance(listed, dict) else listed
        assert encounter.battle_id not in [row["id"] for row in rows], "the battles API lists Alice's to Carol"


def test_two_players_and_an_umpire_play_a_campaign_week_and_a_third_sees_none_of_it(
    chromium: Any, live_server: Any, week: dict[str, Any]
) -> None:
    started = time.monotonic()
    campaign = week["campaign"]
    umpire, alice, bob, carol = (
        signed_in_tab(chromium, live_server, week[who]) for who in ("umpire", "alice", "bob", "carol")
    )
    base = live_server.url

    # --- Captains and ships, at the Parhoon yard --------------------------------------------------------------
    found_captain(alice, live_server, SLUG, "Jack")
    buy_ship(alice, week_seeds.ALICE_CLASS_NAME, "Gull")
    found_captain(bob, live_server, SLUG, "Drake")
    buy_ship(bob, "Fleetfoot", "Dart")
    found_captain(carol, live_server, SLUG, "Anne")
    buy_ship(carol, "Fleetfoot", "Skylark")
    jack, drake = Captain.objects.get(name="Jack"), Captain.objects.get(name="Drake")
    gull, dart = CampaignShip.objects.get(name="Gull"), CampaignShip.objects.get(name="Dart")

    # --- The umpire raises the Neutral Northeast's numbers from the desk (SGC-MAP-03) -------------------------
    umpire.goto(f"{base}/campaigns/{SLUG}/")
    umpire.get_by_role("link", name="Umpire's desk").click()
    row = umpire.locator(f'[data-desk-territory="{week_seeds.ENCOUNTER_TERRITORY}"]')
    row.get_by_label(f"{week_seeds.ENCOUNTER_TERRITORY}, moving through").select_option("6")
    row.get_by_label(f"{week_seeds.ENCOUNTER_TERRITORY}, patrolling").select_option("6")
    row.get_by_label(f"Reason for {week_seeds.ENCOUNTER_TERRITORY}").fill("Corsairs off Gorovaan")
    row.get_by_role("button", name="Save").click()
    expect(umpire.get_by_role("status")).to_contain_text(f"{week_seeds.ENCOUNTER_TERRITORY}: an encounter on 6")

    # --- Alice and Bob plan their voyages by clicking hexes ------------------------------------------------------
    rows = plan_by_clicks(alice, live_server, gull, week_seeds.ALICE_ROUTE)
    # A screw galley sails 2 hexes a day (SGC-MOVE-03): the second day ends over the border, sure to meet something.
    expect(rows).to_have_count(week_seeds.OUT_DAYS)
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("British")
    expect(rows.nth(0).locator("td").nth(3)).to_have_text("none")
    expect(rows.last.locator("td").nth(1)).to_have_text("1112")
    expect(rows.last.locator("td").nth(2)).to_have_text(week_seeds.ENCOUNTER_TERRITORY)
    expect(rows.last.locator("td").nth(3)).to_have_text("6 in 6")
    alice.get_by_role("button", name="Confirm the voyage").click()
    expect(alice.locator("#planner-status")).to_have_text(re.compile("The Gull sails"))
    rows = plan_by_clicks(bob, live_server, dart, week_seeds.BOB_ROUTE)
    bob.get_by_role("button", name="Patrol here a day").click()
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("British")
    expect(rows.nth(1).locator("td").nth(3)).to_have_text("none")
    bob.get_by_role("button", name="Confirm the voyage").click()
    expect(bob.locator("#planner-status")).to_have_text(re.compile("The Dart sails"))
    gull_voyage = Voyage.objects.get(ship=gull, status=VoyageStatus.UNDER_WAY)
    dart_voyage = Voyage.objects.get(ship=dart, status=VoyageStatus.UNDER_WAY)
    assert gull_voyage.plan == [{"kind": "move", "path": [list(h) for h in day]} for day in week_seeds.ALICE_DAYS]
    assert dart_voyage.plan == [
        {"kind": "move", "path": [list(h) for h in week_seeds.BOB_ROUTE]},
        {"kind": "patrol"},
    ]
    at_sea = [CampaignShip.objects.get(pk=gull.pk), CampaignShip.objects.get(pk=dart.pk)]
    carol_sees_none_of_them(carol, live_server, at_sea, [gull_voyage, dart_voyage], None)

    # --- Days 1 and 2: the Gull meets her encounter ----------------------------------------------------------------
    for day in range(1, week_seeds.OUT_DAYS + 1):
        run_day(umpire, live_server, day)
        if day < week_seeds.OUT_DAYS:
            assert not Encounter.objects.filter(campaign=campaign).exists()  # British territory: no die
    encounter = Encounter.objects.filter(campaign=campaign).first()
    assert encounter is not None, f"the encounter die of a 6 in 6 did not hit; {RESEARCH}"
    assert week_seeds.merchant_met(encounter.result), (
        f"the seeds no longer meet a merchant (the table gave {encounter.result!r}); {RESEARCH}"
    )
    assert list(encounter.voyages.all()) == [gull_voyage]
    assert encounter.battle_id is not None
    expect(umpire.locator("#encounters")).to_contain_text(encounter.result)
    # Bob's Dart sailed and patrolled in British territory, where nothing is met.
    dart_voyage.refresh_from_db()
    assert (dart_voyage.q, dart_voyage.r) == week_seeds.BOB_ROUTE[-1]

    alice.goto(f"{base}/campaigns/{SLUG}/map/")
    report = alice.locator(f'#encounter-reports tr[data-encounter="{encounter.pk}"]')
    expect(report).to_contain_text("1112")
    report.get_by_role("link", name=encounter.result).click()
    expect(alice.locator("#battle-status")).to_be_visible()
    shot(alice, "week-battle-before")
    alice.get_by_role("button", name="Let the AI captain fight for Jack").click()
    expect(alice.locator(".battle-result")).to_contain_text("The battle is over")
    battle = Battle.objects.get(pk=encounter.battle_id)
    assert battle.status == BattleStatus.FINISHED
    encounter.refresh_from_db()
    assert encounter.applied_at is not None
    prize = CampaignShip.objects.filter(campaign=campaign, captured_by=jack, status=ShipStatus.PRIZE).first()
    assert prize is not None, f"the AI captain took no prize; {RESEARCH}"
    assert prize.class_id == "warm_winds", f"the prize is a {prize.class_id}, not the merchant; {RESEARCH}"
    assert prize.towed_by_id == gull.pk
    assert prize.cargo_tons > 0
    taken = encounter.ships.get(campaign_ship=prize)
    assert taken.category in {"Enemy Merchantman", "Prize Ship in Tow"}, taken.category
    gull.refresh_from_db()
    assert gull.status == ShipStatus.AT_SEA, f"the Gull is {gull.status} after the battle; {RESEARCH}"
    bill = yard_selectors.repair_bill(gull)
    assert bill.lines, f"the Gull came out of it with nothing to mend; {RESEARCH}"
    action = ChronicleEntry.objects.get(campaign=campaign, kind="action")
    assert "Captain Jack fought an action" in action.text
    at_sea = [gull, CampaignShip.objects.get(pk=dart.pk), prize]
    carol_sees_none_of_them(carol, live_server, at_sea, [gull_voyage, dart_voyage], encounter)

    # --- Alice routes the Gull home to Parhoon on the map, her prize in tow --------------------------------------
    alice.goto(f"{base}/campaigns/{SLUG}/map/")
    alice.get_by_label("Ship", exact=True).select_option(f"voyage:{gull_voyage.pk}")
    alice.get_by_role("button", name="Clear").click()
    alice.locator("#planner-city").select_option("Parhoon")
    alice.get_by_role("button", name="Route to city").click()
    home_rows = alice.locator("#planner-days tbody tr")
    expect(home_rows.last.locator("td").nth(1)).to_have_text(mars_map().city("Parhoon").label)
    # One hex a day with the Warm Winds in tow (SGC-MOVE-13: a galley's 2 halved, less hull 20 // 2, at least 1).
    expect(home_rows).to_have_count(3)
    days_home = home_rows.count()
    confirm = alice.get_by_role("button", name="Confirm the new orders")
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(alice.locator("#planner-status")).to_have_text(re.compile("new orders stand"))
    gull_voyage.refresh_from_db()
    assert len(gull_voyage.plan) == days_home

    for day in range(week_seeds.OUT_DAYS + 1, week_seeds.OUT_DAYS + 1 + days_home):
        run_day(umpire, live_server, day)
    gull_voyage.refresh_from_db()
    assert (gull_voyage.status, gull_voyage.end_city, gull_voyage.took_prize) == (VoyageStatus.ARRIVED, "Parhoon", True)
    gull.refresh_from_db()
    jack.refresh_from_db()
    assert (gull.status, gull.city, jack.city) == (ShipStatus.IN_PORT, "parhoon", "parhoon")
    home = ChronicleEntry.objects.get(campaign=campaign, kind="voyage_ended")
    assert "Captain Jack brings the Gull home" in home.text

    # --- The prize under the hammer: Bob looks in, nobody reaches the reserve, the crown buys ----------------------
    lots = {auction.lot: auction for auction in Auction.objects.filter(ship=prize)}
    assert set(lots) == {LotKind.SHIP, LotKind.CARGO}  # a merchant's cargo is its own lot (SGC-CARGO-02)
    ship_lot, cargo_lot = lots[LotKind.SHIP], lots[LotKind.CARGO]
    assert ship_lot.status == cargo_lot.status == AuctionStatus.OPEN  # Bob and Carol are rival bidders
    assert ship_lot.reserve == economy.crown_price(prize.original_price)
    jack_before, drake_before = balance(jack), balance(drake)
    bob.goto(f"{base}/campaigns/{SLUG}/")
    bob.get_by_role("link", name="Auction room").click()
    lot = bob.locator(f"#auction-{ship_lot.pk}")
    expect(lot).to_contain_text(prize.name)
    expect(lot).to_contain_text(f"Crown's reserve: £{ship_lot.reserve:,}")
    # Bob's captain has less than the reserve in the bank: the form will not send what he has.
    assert drake_before < ship_lot.reserve
    amount = lot.get_by_label("Bid (£)")
    amount.fill(str(drake_before))
    lot.get_by_role("button", name="Bid", exact=True).click()
    assert amount.evaluate("input => input.validity.rangeUnderflow") is True
    assert not Bid.objects.filter(auction__ship=prize).exists()
    assert balance(drake) == drake_before
    # The auction's days go by: the tick of its closing day closes both lots (the tick's auction step).
    assert auctions.auctions_close_due(campaign_id=ship_lot.campaign_id, day=ship_lot.closes_on_day) == 2
    ship_lot.refresh_from_db()
    cargo_lot.refresh_from_db()
    for sold in (ship_lot, cargo_lot):
        assert (sold.status, sold.winner_id, sold.price) == (AuctionStatus.CLOSED, None, sold.reserve)
    assert ship_lot.price is not None
    assert cargo_lot.price is not None
    shares = economy.captain_share(ship_lot.price) + economy.cargo_share(cargo_lot.price)
    assert shares > 0
    assert balance(jack) == jack_before + shares
    assert balance(drake) == drake_before
    prize.refresh_from_db()
    assert (prize.captain_id, prize.status, prize.captured_by_id) == (None, ShipStatus.CROWN, jack.pk)
    assert ledger.check_campaign(campaign) == 3
    bob.reload()
    expect(bob.locator(f"tr#auction-{ship_lot.pk}")).to_contain_text(f"£{ship_lot.price:,}")
    kinds = set(ChronicleEntry.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert {"action", "voyage_ended", "prize_landed", "auction_won"} <= kinds
    crown = ChronicleEntry.objects.filter(campaign=campaign, kind="auction_won").values_list("text", flat=True)
    assert any(f"The crown buys the {prize.name}" in text or prize.name in text for text in crown)

    alice.goto(f"{base}/captains/{jack.pk}/")
    expect(alice.locator(".balance")).to_have_text(f"£{balance(jack):,}")
    expect(alice.get_by_text("Share of a prize's sale")).to_be_visible()

    # --- Alice repairs the Gull at the Parhoon yard: the bill first ---------------------------------------------
    alice.get_by_role("link", name="Gull").first.click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("The Gull")
    bill = yard_selectors.repair_bill(gull)
    expect(alice.locator("[data-bill-total]")).to_have_attribute("data-bill-total", str(bill.total))
    alice.get_by_role("button", name="Price these repairs").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Repairs to the Gull")
    total = int(alice.locator(".repair-total").inner_text().replace("£", "").replace(",", ""))
    assert 0 < total <= bill.total
    shot(alice, "week-repair-bill")
    before = balance(jack)
    alice.get_by_role("button", name=f"Confirm repairs for £{total:,}").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("The Gull")
    assert balance(jack) == before - total
    assert LedgerEntry.objects.filter(captain=jack, amount=-total).exists()
    gull.refresh_from_db()
    assert yard_selectors.repair_bill(gull).total < bill.total
    assert ledger.check_campaign(campaign) == 3

    # --- At the end of the week Carol still sees none of Bob's voyage, nor Alice's -----------------------------
    dart.refresh_from_db()
    assert dart.status == ShipStatus.AT_SEA
    carol_sees_none_of_them(carol, live_server, [gull, dart], [gull_voyage, dart_voyage], encounter)
    shot(carol, "week-carol-end")
    for page in (umpire, alice, bob, carol):
        assert page.offsite_requests == []  # type: ignore[attr-defined]
        page.context.close()
    print(f"\nthe campaign week took {time.monotonic() - started:.1f} s")
