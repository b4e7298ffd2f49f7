"""The auction room in real browsers (issue 6): the umpire lands Alice's prize; Bob bids, Carol outbids him and
Bob's page shows her bid by polling, without a reload; the tick of its closing day closes the auction; Carol wins,
Bob's money comes back from escrow, Alice has her tenth (SGC-AUCT-01/02/05), and the pages show it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from campaign import economy, ledger
from campaign.models import Auction, AuctionStatus, CampaignShip, Captain, ShipStatus
from strategic_map import tick
from tests.browser.conftest import SCREENSHOTS
from tests.campaign.auction_tables import SWIFTWOOD_PRICE, prize
from tests.campaign.auction_tables import table as auction_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESERVE = economy.crown_price(SWIFTWOOD_PRICE)
# Long enough for two players to bid on a slow machine, short enough to wait for.


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def ready(page: Page) -> None:
    """HTMX is loaded (deferred) and has processed the page."""
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")


def place_bid(page: Page, auction: Auction, amount: int) -> None:
    lot = page.locator(f"#auction-{auction.pk}")
    lot.get_by_label("Bid (£)").fill(str(amount))
    lot.get_by_role("button", name="Bid", exact=True).click()
    expect(page.locator(".message--success")).to_contain_text(f"bid of £{amount:,} is in, held in escrow")


def balance(captain: Captain) -> int:
    return Captain.objects.get(pk=captain.pk).balance


def test_a_second_player_outbids_a_third_in_an_auction_that_closes_on_time(live_server, tab):
    found = auction_table()
    alice, bob, carol = (found["captains"][name] for name in ("alice", "bob", "carol"))
    swiftwood = prize(found)
    room = f"{live_server.url}/campaigns/syrtis/auctions/"

    # The umpire brings Alice's prize into Parhoon from the auction room.
    umpire = tab(found["umpire"])
    umpire.goto(f"{live_server.url}/campaigns/syrtis/")
    umpire.get_by_role("link", name="Auction room").click()
    expect(umpire.get_by_role("heading", name="Auction room", level=1)).to_be_visible()
    umpire.get_by_label("Prize", exact=True).select_option(label="The Swiftwood, taken by Captain Alice")
    umpire.get_by_label("Brought into").select_option("Parhoon")
    umpire.get_by_role("button", name="Land the prize").click()
    expect(umpire.locator(".message--success")).to_contain_text("The Swiftwood is landed and under the hammer.")
    auction = Auction.objects.get(ship=swiftwood)
    # The auction runs the campaign's two days: it closes at the tick of day 2.
    assert auction.closes_on_day == 2

    # Bob bids above the crown's reserve; his money goes into escrow.
    bob_page = tab(found["bob"])
    bob_page.goto(room)
    ready(bob_page)
    expect(bob_page.locator(f"#auction-{auction.pk}")).to_contain_text(f"Crown's reserve: £{RESERVE:,}")
    place_bid(bob_page, auction, RESERVE + 500)
    ready(bob_page)
    live_bob = bob_page.locator(f"#auction-live-{auction.pk}")
    expect(live_bob).to_contain_text(f"£{RESERVE + 500:,} by Captain Bob")
    expect(bob_page.locator(f"#bidder-{bob.pk}")).to_contain_text(f"£{RESERVE + 500:,} held in escrow")
    bob_page.evaluate("window.sameDocument = true")  # gone if the page reloads

    # Carol sees Bob's bid and outbids him.
    carol_page = tab(found["carol"])
    carol_page.goto(room)
    expect(carol_page.locator(f"#auction-live-{auction.pk}")).to_contain_text(f"£{RESERVE + 500:,} by Captain Bob")
    place_bid(carol_page, auction, RESERVE + 1_500)
    assert balance(bob) == 30_000  # outbid: released at once

    # Bob's page learns of it by polling, without a reload.
    expect(live_bob).to_contain_text(f"£{RESERVE + 1_500:,} by Captain Carol")
    expect(bob_page.locator(f"#bidder-{bob.pk}")).to_contain_text("£30,000 in the bank")
    expect(bob_page.locator(f"#bidder-{bob.pk}")).not_to_contain_text("escrow")
    assert bob_page.evaluate("window.sameDocument === true")
    shot(bob_page, "auction-room-outbid")

    # The tick of day 1 leaves it open; the tick of day 2, its closing day, closes it.
    expect(live_bob).to_contain_text("Closes at the end of day 2")
    assert tick.campaign_tick(campaign_id=auction.campaign_id) == [1]
    assert Auction.objects.get(pk=auction.pk).status == AuctionStatus.OPEN
    assert tick.campaign_tick(campaign_id=auction.campaign_id) == [2]
    assert Auction.objects.get(pk=auction.pk).status == AuctionStatus.CLOSED

    # Bob's page reloads itself once the lot has closed: Carol has her, and his money is all his again.
    closed_row = bob_page.locator(f"tr#auction-{auction.pk}")
    expect(closed_row).to_contain_text("Captain Carol")
    expect(closed_row).to_contain_text(f"£{RESERVE + 1_500:,}")
    expect(bob_page.locator(f"#bidder-{bob.pk}")).to_contain_text("£30,000 in the bank")
    expect(bob_page.locator(f"#bidder-{bob.pk}")).not_to_contain_text("escrow")
    shot(bob_page, "auction-room-closed")

    price = RESERVE + 1_500
    assert balance(carol) == 30_000 - price
    assert balance(bob) == 30_000
    assert balance(alice) == 30_000 + economy.captain_share(price)
    ship = CampaignShip.objects.get(pk=swiftwood.pk)
    assert (ship.captain_id, ship.status) == (carol.pk, ShipStatus.IN_PORT)
    assert ledger.check_campaign(found["campaign"]) == 3

    # Carol's captain's page shows her new ship; Alice's statement shows her tenth.
    carol_page.goto(f"{live_server.url}/captains/{carol.pk}/")
    expect(carol_page.get_by_role("rowheader", name="Swiftwood")).to_be_visible()
    alice_page = tab(found["alice"])
    alice_page.goto(f"{live_server.url}/captains/{alice.pk}/")
    expect(alice_page.locator(".balance")).to_have_text(f"£{30_000 + economy.captain_share(price):,}")
    expect(alice_page.get_by_text("Share of a prize's sale")).to_be_visible()
    for page in (umpire, bob_page, carol_page, alice_page):
        assert page.offsite_requests == []  # type: ignore[attr-defined]
