"""The auction room's pages (campaign/auction_views.py): the lots with their damage, reserve and deadline, the
live highest bid polled by HTMX, bids and refusals in the service's words, sealed bids kept from everyone but
their bidder and the umpire, the captor's outright purchase, the umpire's landing of a prize, and 404 for
anyone outside the campaign."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign import auctions, economy
from campaign.models import Auction, AuctionStatus, AuctionStyle, Bid, CampaignShip, Captain, ShipStatus
from tests.campaign.auction_tables import HULL_HITS, SWIFTWOOD_PRICE, bid, damaged_record, deadline_passes, land, prize
from tests.campaign.auction_tables import table as auction_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RESERVE = economy.crown_price(SWIFTWOOD_PRICE)


@pytest.fixture
def table():
    return auction_table()


@pytest.fixture
def sealed_table():
    return auction_table(style=AuctionStyle.SEALED)


def room(client, found) -> str:
    response = client.get(reverse("auction_room", args=[found["campaign"].slug]))
    assert response.status_code == 200
    return response.content.decode()


def balance(found, who: str) -> int:
    return Captain.objects.get(pk=found["captains"][who].pk).balance


def post_bid(client, found, auction: Auction, who: str, amount: int | str, key: str = ""):
    return client.post(
        reverse("auction_bid", args=[found["campaign"].slug, auction.pk]),
        {"captain": found["captains"][who].pk, "amount": amount, "idempotency_key": key},
        follow=True,
    )


def token_of(html: str, auction: Auction) -> str:
    found = re.search(rf"/auctions/{auction.pk}/live/\?v=([0-9a-f]+)", html)
    assert found, "the lot polls for its highest bid"
    return found.group(1)


def test_the_room_shows_the_prize_her_class_damage_reserve_and_deadline_in_words(client, table):
    campaign = table["campaign"]
    campaign.auction_days, campaign.day = 3, 4
    campaign.next_tick_at = (timezone.now() + timedelta(days=1)).replace(hour=20, minute=0, second=0, microsecond=0)
    campaign.save(update_fields=["auction_days", "day", "next_tick_at"])
    auction = land(table)
    expected = campaign.next_tick_at + timedelta(days=2)  # the ticks of days 5 and 6, then 7's
    client.force_login(table["bob"])
    html = room(client, table)
    boxes = sum(row["boxes"] for row in damaged_record()["hull_rows"])
    assert "The prize Swiftwood" in html
    assert f"hull {HULL_HITS} of {boxes} boxes hit" in html
    assert "1 gun destroyed" in html
    assert f"£{RESERVE:,}" in html
    assert f"Closes at the end of day 7 (about {expected:%-d %b}, 20:00 UTC)" in html
    assert "No bid yet." in html
    assert f'hx-get="/campaigns/syrtis/auctions/{auction.pk}/live/?v=' in html
    assert 'hx-trigger="every 3s"' in html
    # Bob may bid with his captain; only the captor may buy her outright.
    assert f'<option value="{table["captains"]["bob"].pk}">Captain Bob</option>' in html
    assert "Buy her outright" not in html


def test_the_campaign_page_links_the_auction_room(client, table):
    client.force_login(table["carol"])
    html = client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()
    assert reverse("auction_room", args=["syrtis"]) in html


@pytest.mark.rule("SGC-AUCT-01")
def test_a_bid_is_held_in_escrow_and_shown_to_everyone_in_an_open_auction(client, table):
    auction = land(table)
    client.force_login(table["bob"])
    html = post_bid(client, table, auction, "bob", RESERVE + 500, key="k1").content.decode()
    assert f"Captain Bob&#x27;s bid of £{RESERVE + 500:,} is in, held in escrow." in html
    assert balance(table, "bob") == 30_000 - RESERVE - 500
    assert f"£{RESERVE + 500:,} held in escrow" in html

    client.force_login(table["carol"])
    html = room(client, table)
    assert f'Highest bid: <strong class="lot-live__amount">£{RESERVE + 500:,}</strong> by Captain Bob' in html


def test_refusals_come_back_in_the_services_words_and_move_no_money(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 1_000)
    client.force_login(table["carol"])
    too_low = post_bid(client, table, auction, "carol", RESERVE + 1_000).content.decode()
    assert f"A bid must beat the highest bid, £{RESERVE + 1_000:,}." in too_low
    at_reserve = post_bid(client, table, auction, "carol", RESERVE).content.decode()
    assert f"above the crown&#x27;s reserve of £{RESERVE:,}" in at_reserve
    over_balance = post_bid(client, table, auction, "carol", 30_001)
    assert over_balance.status_code == 200
    assert "message--error" in over_balance.content.decode()
    absurd = post_bid(client, table, auction, "carol", 10**30)
    assert "A bid needs your captain and a whole number of pounds" in absurd.content.decode()
    # Someone else's captain: the service refuses him.
    mine_not = post_bid(client, table, auction, "bob", RESERVE + 5_000).content.decode()
    assert "only for your own captain" in mine_not
    assert balance(table, "carol") == 30_000
    assert Bid.objects.filter(auction=auction).count() == 1

    deadline_passes(auction)
    closed = post_bid(client, table, auction, "carol", RESERVE + 2_000).content.decode()
    assert "The auction of the prize Swiftwood closed at" in closed
    assert balance(table, "carol") == 30_000


def test_the_same_bid_form_sent_twice_holds_the_money_once(client, table):
    auction = land(table)
    client.force_login(table["bob"])
    post_bid(client, table, auction, "bob", RESERVE + 100, key="double")
    post_bid(client, table, auction, "bob", RESERVE + 100, key="double")
    assert Bid.objects.filter(auction=auction).count() == 1
    assert balance(table, "bob") == 30_000 - RESERVE - 100


def test_each_render_gives_each_lots_bid_form_a_fresh_idempotency_key(client, table):
    land(table)
    land(table, name="Sister")
    client.force_login(table["bob"])
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', room(client, table))
    again = re.findall(r'name="idempotency_key" value="([^"]+)"', room(client, table))
    assert len(keys) == 2
    assert len(set(keys)) == 2
    assert not set(keys) & set(again)


def test_the_live_partial_answers_204_until_the_highest_bid_changes(client, table):
    auction = land(table)
    client.force_login(table["carol"])
    token = token_of(room(client, table), auction)
    live = reverse("auction_live", args=["syrtis", auction.pk])
    assert client.get(live, {"v": token}, headers={"HX-Request": "true"}).status_code == 204

    bid(table, auction, "bob", RESERVE + 700)
    changed = client.get(live, {"v": token}, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    html = changed.content.decode()
    assert f"£{RESERVE + 700:,}</strong> by Captain Bob" in html
    assert client.get(live, {"v": token_of(html, auction)}, headers={"HX-Request": "true"}).status_code == 204


def test_the_live_partial_gives_an_outbid_bidder_his_money_back_on_the_page(client, table):
    auction = land(table)
    bob = table["captains"]["bob"]
    client.force_login(table["bob"])
    post_bid(client, table, auction, "bob", RESERVE + 100)
    token = token_of(room(client, table), auction)
    bid(table, auction, "carol", RESERVE + 200)
    html = client.get(reverse("auction_live", args=["syrtis", auction.pk]), {"v": token}).content.decode()
    assert "(outbid)" in html
    assert f'id="bidder-money-{bob.pk}" hx-swap-oob="true">£30,000 in the bank</span>' in html


def test_the_live_partial_reloads_the_page_once_the_lot_has_closed(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 700)
    client.force_login(table["carol"])
    token = token_of(room(client, table), auction)
    deadline_passes(auction)
    assert auctions.auctions_close_due(campaign_id=table["campaign"].pk, day=table["campaign"].day) == 1
    live = reverse("auction_live", args=["syrtis", auction.pk])
    response = client.get(live, {"v": token}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    html = room(client, table)
    assert re.search(r"<td>Captain Bob</td><td class=\"num\">£" + f"{RESERVE + 700:,}", html)
    assert "Nothing is under the hammer." in html


@pytest.mark.rule("SGC-AUCT-01")
def test_a_sealed_bid_is_seen_by_its_bidder_and_the_umpire_only(client, sealed_table):
    found = sealed_table
    auction = land(found)
    bob_amount, carol_amount = RESERVE + 1_234, RESERVE + 2_345
    client.force_login(found["bob"])
    bob_says = post_bid(client, found, auction, "bob", bob_amount).content.decode()
    client.force_login(found["carol"])
    carol_says = post_bid(client, found, auction, "carol", carol_amount).content.decode()
    # The same words whether the bid leads or not.
    assert "bid of £" in bob_says
    assert "bid of £" in carol_says

    def shown(amount: int) -> tuple[str, str]:
        return f"{amount:,}", str(amount)

    live = reverse("auction_live", args=[found["campaign"].slug, auction.pk])
    for who, secret in (("bob", carol_amount), ("carol", bob_amount), ("alice", bob_amount), ("alice", carol_amount)):
        client.force_login(found[who])
        for body in (room(client, found), client.get(live).content.decode()):
            assert not any(text in body for text in shown(secret)), f"{who} saw a sealed bid"
            assert "Highest bid: <strong>sealed</strong>" in body
    client.force_login(found["bob"])
    assert f'£{bob_amount:,} <span class="muted">(sealed)</span>' in room(client, found)

    client.force_login(found["umpire"])
    html = room(client, found)
    assert f"£{carol_amount:,}</strong> by Captain Carol" in html
    assert f"Captain Bob: £{bob_amount:,}" in html


@pytest.mark.rule("SGC-AUCT-03", "SGC-AUCT-04")
def test_the_captor_buys_his_prize_outright_and_the_page_shows_his_net_cost(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 300)
    client.force_login(table["alice"])
    html = room(client, table)
    net = economy.own_prize_net_cost(RESERVE)
    assert f"Buy her outright for £{RESERVE:,}" in html
    assert f"£{net:,} to you once your tenth comes back" in html
    done = client.post(
        reverse("auction_buy", args=["syrtis", auction.pk]), {"captain": table["captains"]["alice"].pk}, follow=True
    )
    assert "is yours for" in done.content.decode()
    assert balance(table, "alice") == 30_000 - net
    assert balance(table, "bob") == 30_000  # his bid released
    ship = CampaignShip.objects.get(pk=auction.ship_id)
    assert (ship.captain_id, ship.status) == (table["captains"]["alice"].pk, ShipStatus.IN_PORT)


def test_only_the_captor_may_buy_outright(client, table):
    auction = land(table)
    client.force_login(table["bob"])
    refused = client.post(
        reverse("auction_buy", args=["syrtis", auction.pk]), {"captain": table["captains"]["bob"].pk}, follow=True
    )
    assert "Only the captain who took the prize may buy her outright." in refused.content.decode()
    assert Auction.objects.get(pk=auction.pk).status == AuctionStatus.OPEN


def test_the_umpire_lands_a_prize_from_the_room_and_a_player_may_not(client, table):
    ship = prize(table)
    client.force_login(table["bob"])
    html = room(client, table)
    assert "Land a prize" not in html
    refused = client.post(reverse("auction_land", args=["syrtis"]), {"ship": ship.pk, "city": "Parhoon"}, follow=True)
    assert "Only the umpire" in refused.content.decode()
    assert not Auction.objects.exists()

    client.force_login(table["umpire"])
    html = room(client, table)
    assert f'<option value="{ship.pk}">The Swiftwood, taken by Captain Alice</option>' in html
    assert '<option value="Parhoon">Parhoon</option>' in html
    unfriendly = client.post(
        reverse("auction_land", args=["syrtis"]), {"ship": ship.pk, "city": "Nowhere"}, follow=True
    )
    assert "There is no city called" in unfriendly.content.decode()
    landed = client.post(reverse("auction_land", args=["syrtis"]), {"ship": ship.pk, "city": "Parhoon"}, follow=True)
    assert "The Swiftwood is landed and under the hammer." in landed.content.decode()
    auction = Auction.objects.get(ship=ship)
    assert auction.reserve == RESERVE
    assert auction.status == AuctionStatus.OPEN
    assert "No captured ship awaits the prize court." in landed.content.decode()


def test_a_prize_of_another_campaign_cannot_be_landed_from_this_one(client, table):
    other = auction_table(slug="hellas")
    foreign = prize(other)
    client.force_login(table["umpire"])
    response = client.post(
        reverse("auction_land", args=["syrtis"]), {"ship": foreign.pk, "city": "Parhoon"}, follow=True
    )
    assert "not a prize of this campaign" in response.content.decode()
    assert not Auction.objects.exists()


def test_the_captains_page_shows_the_money_held_in_escrow(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 900)
    client.force_login(table["bob"])
    html = client.get(reverse("captain_detail", args=[table["captains"]["bob"].pk])).content.decode()
    assert f"£{RESERVE + 900:,} held in escrow" in html


def test_every_page_of_the_room_answers_404_outside_the_campaign(client, table):
    auction = land(table)
    client.force_login(UserFactory(username="stranger"))
    slug, pk = "syrtis", auction.pk
    assert client.get(reverse("auction_room", args=[slug])).status_code == 404
    assert client.get(reverse("auction_live", args=[slug, pk])).status_code == 404
    assert client.post(reverse("auction_bid", args=[slug, pk]), {"captain": 1, "amount": 99_999}).status_code == 404
    assert client.post(reverse("auction_buy", args=[slug, pk]), {"captain": 1}).status_code == 404
    assert client.post(reverse("auction_land", args=[slug]), {"ship": 1, "city": "Parhoon"}).status_code == 404
    # An auction of another campaign, reached through this one's address.
    other = auction_table(slug="hellas")
    foreign = land(other, name="Foreign")
    client.force_login(table["bob"])
    assert client.get(reverse("auction_live", args=[slug, foreign.pk])).status_code == 404
    assert client.post(reverse("auction_bid", args=[slug, foreign.pk]), {"captain": 1, "amount": 9}).status_code == 404
    assert Bid.objects.count() == 0


def test_the_room_and_the_live_partial_take_as_many_queries_however_many_bids(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 10)
    client.force_login(table["carol"])
    live = reverse("auction_live", args=["syrtis", auction.pk])
    with CaptureQueriesContext(connection) as few:
        room(client, table)
    with CaptureQueriesContext(connection) as few_live:
        client.get(live)

    second = land(table, name="Sister")
    for step in range(1, 6):
        bid(table, auction, "carol" if step % 2 else "bob", RESERVE + 10 + step * 100)
        bid(table, second, "alice" if step % 2 else "bob", RESERVE + 10 + step * 100)
    with CaptureQueriesContext(connection) as many:
        room(client, table)
    with CaptureQueriesContext(connection) as many_live:
        client.get(live)
    assert len(many) == len(few) <= 9
    assert len(many_live) == len(few_live) <= 8
