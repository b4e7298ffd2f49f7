"""The auction room's API (campaign/auction_api.py): members read the lots, bid with their own captains and buy
their own prizes outright; a sealed bid's amount never reaches another player; 404 outside the campaign; a bid
the service refuses answers 400 with the reason, never a 500."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import economy
from campaign.models import AuctionStyle, Bid, Captain, LedgerEntry
from tests.campaign.auction_tables import SWIFTWOOD_PRICE, bid, deadline_passes, land
from tests.campaign.auction_tables import table as auction_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RESERVE = economy.crown_price(SWIFTWOOD_PRICE)


@pytest.fixture
def table():
    return auction_table()


def post(client, name: str, auction_id: int, body: dict):
    return client.post(reverse(name, args=[auction_id]), body, content_type="application/json")


def balance(found, who: str) -> int:
    return Captain.objects.get(pk=found["captains"][who].pk).balance


def test_a_member_lists_the_auctions_and_reads_one(client, table):
    auction = land(table)
    client.force_login(table["carol"])
    listed = client.get(reverse("api_auction_list", args=["syrtis"])).json()
    assert [(a["id"], a["ship"], a["reserve"], a["status"]) for a in listed] == [
        (auction.pk, "Swiftwood", RESERVE, "open")
    ]
    one = client.get(reverse("api_auction_detail", args=[auction.pk])).json()
    assert one["damage"].startswith("hull 2 of ")
    assert "1 gun destroyed" in one["damage"]
    assert (one["highest_bid"], one["bids"]) == (None, [])


@pytest.mark.rule("SGC-AUCT-01")
def test_a_bid_is_placed_held_in_escrow_and_the_open_auction_shows_it(client, table):
    auction = land(table)
    client.force_login(table["bob"])
    body = {"captain": table["captains"]["bob"].pk, "amount": RESERVE + 250, "idempotency_key": "api-1"}
    placed = post(client, "api_auction_bid", auction.pk, body)
    assert placed.status_code == 201
    assert (placed.json()["highest_bid"], placed.json()["highest_bidder"]) == (RESERVE + 250, "Bob")
    assert balance(table, "bob") == 30_000 - RESERVE - 250
    again = post(client, "api_auction_bid", auction.pk, body)
    assert again.status_code == 201
    assert Bid.objects.filter(auction=auction).count() == 1
    assert balance(table, "bob") == 30_000 - RESERVE - 250

    client.force_login(table["carol"])
    seen = client.get(reverse("api_auction_detail", args=[auction.pk])).json()
    assert (seen["highest_bid"], seen["highest_bidder"], seen["bids"]) == (RESERVE + 250, "Bob", [])


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        (RESERVE, "above the crown's reserve"),
        (RESERVE + 100, "must beat the highest bid"),
        (30_001, ""),  # over the balance: the ledger's words
        (10**30, "less than or equal to"),
        (0, "greater than or equal to"),
        ("lots", "valid integer"),
    ],
)
def test_a_bad_bid_answers_400_with_the_reason_and_moves_no_money(client, table, amount, reason):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 100)
    client.force_login(table["carol"])
    refused = post(client, "api_auction_bid", auction.pk, {"captain": table["captains"]["carol"].pk, "amount": amount})
    assert refused.status_code == 400
    assert "amount" in refused.json()
    assert reason in " ".join(refused.json()["amount"])
    assert balance(table, "carol") == 30_000


def test_a_bid_after_the_close_answers_400(client, table):
    auction = land(table)
    deadline_passes(auction)
    client.force_login(table["carol"])
    refused = post(
        client, "api_auction_bid", auction.pk, {"captain": table["captains"]["carol"].pk, "amount": RESERVE + 1}
    )
    assert refused.status_code == 400
    assert "closed" in " ".join(refused.json()["auction"])


def test_bidding_with_another_players_captain_answers_404(client, table):
    auction = land(table)
    client.force_login(table["carol"])
    body = {"captain": table["captains"]["bob"].pk, "amount": RESERVE + 1}
    assert post(client, "api_auction_bid", auction.pk, body).status_code == 404
    assert post(client, "api_auction_buy", auction.pk, {"captain": table["captains"]["alice"].pk}).status_code == 404
    assert not Bid.objects.exists()


def test_every_endpoint_answers_404_outside_the_campaign(client, table):
    auction = land(table)
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("api_auction_list", args=["syrtis"])).status_code == 404
    assert client.get(reverse("api_auction_detail", args=[auction.pk])).status_code == 404
    body = {"captain": table["captains"]["bob"].pk, "amount": RESERVE + 1}
    assert post(client, "api_auction_bid", auction.pk, body).status_code == 404
    assert post(client, "api_auction_buy", auction.pk, {"captain": table["captains"]["alice"].pk}).status_code == 404
    assert client.get(reverse("api_auction_detail", args=[auction.pk + 999])).status_code == 404
    assert not Bid.objects.exists()


@pytest.mark.rule("SGC-AUCT-03", "SGC-AUCT-04")
def test_the_captor_buys_his_prize_outright_and_another_may_not(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 40)
    client.force_login(table["carol"])
    refused = post(client, "api_auction_buy", auction.pk, {"captain": table["captains"]["carol"].pk})
    assert refused.status_code == 403
    assert "Only the captain who took the prize" in refused.json()["detail"]

    client.force_login(table["alice"])
    bought = post(client, "api_auction_buy", auction.pk, {"captain": table["captains"]["alice"].pk})
    assert bought.status_code == 200
    assert (bought.json()["status"], bought.json()["winner"], bought.json()["bought_outright"]) == (
        "closed",
        "Alice",
        True,
    )
    assert balance(table, "alice") == 30_000 - economy.own_prize_net_cost(RESERVE)
    assert balance(table, "bob") == 30_000


@pytest.mark.rule("SGC-AUCT-01")
def test_another_players_sealed_bid_never_appears_in_any_response(client):
    found = auction_table(style=AuctionStyle.SEALED)
    auction = land(found)
    amounts = {"bob": RESERVE + 1_357, "carol": RESERVE + 2_468}
    bodies: dict[str, list[str]] = {name: [] for name in ("alice", "bob", "carol")}
    for who in ("bob", "carol"):
        client.force_login(found[who])
        placed = post(
            client, "api_auction_bid", auction.pk, {"captain": found["captains"][who].pk, "amount": amounts[who]}
        )
        assert placed.status_code == 201
        # His own bid says only "sealed", whether it leads or not.
        assert [(b["amount"], b["status"]) for b in placed.json()["bids"]] == [(amounts[who], "sealed")]
        assert placed.json()["highest_bid"] is None
        bodies[who].append(placed.content.decode())
    for who in bodies:
        client.force_login(found[who])
        bodies[who].append(client.get(reverse("api_auction_list", args=["syrtis"])).content.decode())
        bodies[who].append(client.get(reverse("api_auction_detail", args=[auction.pk])).content.decode())
    for who, seen in bodies.items():
        for other, amount in amounts.items():
            if other != who:
                assert not any(str(amount) in body for body in seen), f"{who} saw {other}'s sealed bid"

    client.force_login(found["umpire"])
    umpire = client.get(reverse("api_auction_detail", args=[auction.pk])).json()
    assert sorted(b["amount"] for b in umpire["bids"]) == sorted(amounts.values())
    assert umpire["highest_bid"] == amounts["carol"]


def test_the_list_takes_as_many_queries_however_many_bids(client, table):
    auction = land(table)
    bid(table, auction, "bob", RESERVE + 1)
    client.force_login(table["umpire"])
    url = reverse("api_auction_list", args=["syrtis"])
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    second = land(table, name="Sister")
    for step in range(1, 6):
        bid(table, auction, "carol" if step % 2 else "bob", RESERVE + 1 + step * 10)
        bid(table, second, "alice" if step % 2 else "bob", RESERVE + 1 + step * 10)
    with CaptureQueriesContext(connection) as many:
        listed = client.get(url).json()
    assert len(many) == len(few)
    assert sum(len(a["bids"]) for a in listed) == Bid.objects.count() == 11
    assert LedgerEntry.objects.filter(kind="escrow_hold").count() == 11
