"""A sealed bid never shows on the standings (DESIGN.md section 5): the fortune other players see counts money
held in escrow as the bidder's, so it does not move when he bids, raises his bid or is outbid; it moves when the
auction closes and he pays. Carol, a third player, reads every place that shows another captain's money: the
standings page (leaderboard, wealth chart, chronicle), the standings API and the captains API."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign import auctions
from campaign.models import AuctionStyle, Bid, BidStatus, Captain
from tests.campaign.auction_tables import bid, deadline_passes, land, table

pytestmark = pytest.mark.django_db

SLUG = "syrtis"
BOB_BIDS = 23_456
BOB_RAISES = 25_000
ALICE_BIDS = 26_000  # beats Bob's: Alice's bid wins the close


def seen_by(client: Client) -> dict[str, Any]:
    """Everything Carol's client is shown of the captains' money, in the form it is shown."""
    page = unescape(client.get(reverse("campaign_standings", args=[SLUG])).content.decode())
    api = client.get(reverse("api_standings", args=[SLUG])).json()
    rows = {
        name: re.sub(r"<[^>]+>", "|", row)
        for name, row in re.findall(r'<tr><td>\d+</td><th scope="row">([^<]+)</th>(.*?)</tr>', page)
    }
    return {
        "page rows": rows,
        "page chart": sorted(re.findall(r"<title>([^<]+: £[\d,]+)</title>", page)),
        "page chronicle": re.findall(r'<li class="chronicle__entry[^"]*">(.*?)</li>', page),
        "api board": {row["name"]: row["money"] for row in api["leaderboard"]},
        "api wealth": api["wealth"],
        "api chronicle": [entry["text"] for entry in api["chronicle"]],
        "captains api": client.get(reverse("api_captain_list", args=[SLUG])).json(),
    }


@pytest.mark.rule("SGC-AUCT-02")
def test_a_sealed_bid_moves_no_fortune_on_the_standings_until_the_close_and_the_payment():
    found = table(style=AuctionStyle.SEALED, slug=SLUG)
    lot = land(found)
    carol = Client()
    carol.force_login(found["carol"])
    before = seen_by(carol)
    assert before["api board"] == {"Alice": 30_000, "Bob": 30_000, "Carol": 30_000}
    assert "Bob: £30,000" in before["page chart"]

    bid(found, lot, "bob", BOB_BIDS)
    assert Captain.objects.get(pk=found["captains"]["bob"].pk).balance == 30_000 - BOB_BIDS  # in escrow
    assert seen_by(carol) == before, "Bob's bid shows"
    bid(found, lot, "bob", BOB_RAISES)
    assert seen_by(carol) == before, "Bob's raised bid shows"
    bid(found, lot, "alice", ALICE_BIDS)  # Bob is outbid, his money still in escrow (sealed)
    assert Bid.objects.filter(status=BidStatus.SEALED).count() == 1
    assert seen_by(carol) == before, "Alice's bid, or Bob being outbid, shows"

    deadline_passes(lot)
    auctions.auction_close(auction_id=lot.pk)

    after = seen_by(carol)
    # Alice pays the price and takes her tenth as captor; Bob has his money back and is as he was.
    alice = 30_000 - ALICE_BIDS + ALICE_BIDS // 10
    assert after["api board"] == {"Alice": alice, "Bob": 30_000, "Carol": 30_000}
    assert after["api wealth"]["Bob"] == before["api wealth"]["Bob"]
    assert after["api wealth"]["Alice"][-1] == [0, alice]
    assert "Bob: £30,000" in after["page chart"]
    assert f"Alice: £{alice:,}" in after["page chart"]
    assert after["page rows"]["Bob"] == before["page rows"]["Bob"]
    assert any(f"£{ALICE_BIDS:,}" in text for text in after["api chronicle"])  # the close is public
    for text in after["api chronicle"] + after["page chronicle"]:
        assert f"{BOB_BIDS:,}" not in text
        assert f"{BOB_RAISES:,}" not in text


@pytest.mark.rule("SGC-AUCT-02")
def test_the_bidder_sees_no_loss_drawn_on_his_own_chart_for_money_held_in_escrow():
    found = table(style=AuctionStyle.OPEN, slug=SLUG)
    lot = land(found)
    bob = Client()
    bob.force_login(found["bob"])
    before = seen_by(bob)
    bid(found, lot, "bob", BOB_BIDS)
    mine = seen_by(bob)
    assert mine["page chart"] == before["page chart"]
    assert mine["api wealth"] == before["api wealth"]
    page = unescape(bob.get(reverse("campaign_standings", args=[SLUG])).content.decode())
    legend = page[page.index('<ul class="wealth-legend">') :]
    assert "Bob £30,000" in re.sub(r"<[^>]+>", "", legend[: legend.index("</ul>")])
    # His own books still say where the money is: in escrow, out of the bank.
    assert [row["balance"] for row in mine["captains api"]] == [30_000 - BOB_BIDS]
