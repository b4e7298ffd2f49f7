"""Prizes and their auctions (campaign/auctions.py, campaign/auction_selectors.py, the close task): a prize
landed at a friendly city is auctioned above the crown's price, bids hold their money in escrow, the captor may
buy his own prize outright, and the captor takes his tenth of every sale."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.utils import timezone

from campaign import auction_selectors, auctions, captains, dice, economy, ledger, tasks
from campaign.models import (
    Auction,
    AuctionStatus,
    AuctionStyle,
    Bid,
    BidStatus,
    Campaign,
    CampaignRoll,
    CampaignShip,
    Captain,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    LedgerEntry,
    LotKind,
    Role,
    ShipStatus,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

WARM_WINDS_PRICE = 112_600  # the catalog's Warm Winds (SGC-AUCT-06)
DAMAGE = {"name": "Warm Winds", "hull_hits": 9, "guns_lost": ["bow"], "crew_lost": {"crew": 4}}


def seed_rolling_first(die: int) -> str:
    """A campaign seed whose first die shows ``die`` (found, not assumed: the dice are HMAC of the seed)."""
    return next(seed for seed in (f"{i:064x}" for i in range(1, 500)) if dice.die_for(seed, 1, 6) == die)


@pytest.fixture
def table():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    players = {name: UserFactory(username=name) for name in ("alice", "bob", "carol")}
    for player in players.values():
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    found = {
        name: captains.captain_found(campaign=campaign, user=player, name=name.title())
        for name, player in players.items()
    }
    return {"campaign": campaign, "umpire": umpire, **players, "captains": found}


def prize(table, *, cargo_tons: int = 0, captor: str = "alice", price: int = WARM_WINDS_PRICE) -> CampaignShip:
    return CampaignShip.objects.create(
        campaign=table["campaign"],
        name="Warm Winds",
        class_id="warm_winds",
        record=DAMAGE,
        original_price=price,
        status=ShipStatus.PRIZE,
        captured_by=table["captains"][captor],
        cargo_tons=cargo_tons,
    )


def land(table, **kwargs) -> tuple[Auction, Auction | None]:
    landed = auctions.prize_land(ship_id=prize(table, **kwargs).pk, city="Parhoon")
    ship_lot = next(a for a in landed if a.lot == LotKind.SHIP)
    cargo_lot = next((a for a in landed if a.lot == LotKind.CARGO), None)
    return ship_lot, cargo_lot


def bid(table, auction: Auction, who: str, amount: int, key: str = "") -> Bid:
    return auctions.bid_place(
        auction_id=auction.pk,
        captain_id=table["captains"][who].pk,
        user=table[who],
        amount=amount,
        idempotency_key=key,
    )


def deadline_passes(auction: Auction) -> None:
    """The auction's closing day comes: as if the campaign's day were its closing day (campaign.auctions)."""
    Auction.objects.filter(pk=auction.pk).update(closes_on_day=Campaign.objects.get(pk=auction.campaign_id).day)


def balance(table, who: str) -> int:
    return Captain.objects.get(pk=table["captains"][who].pk).balance


def kinds(table, who: str) -> list[tuple[str, int]]:
    """The captain's ledger after his advance, leaving out the umpire's top-ups."""
    entries = LedgerEntry.objects.filter(captain=table["captains"][who]).exclude(
        kind__in=[EntryKind.ADVANCE, EntryKind.ADJUSTMENT]
    )
    return list(entries.order_by("pk").values_list("kind", "amount"))


def books_balance(table) -> None:
    assert ledger.check_campaign(table["campaign"]) == 3


# --- landing ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MONEY-01", "SGC-AUCT-01", "SGC-CARGO-01", "SGC-CARGO-02")
def test_a_prize_landed_at_a_friendly_city_goes_to_auction_at_half_her_price_with_her_cargo_at_its_rolled_price(
    table,
):
    before = timezone.now()
    ship_lot, cargo_lot = land(table, cargo_tons=100)

    assert (ship_lot.reserve, ship_lot.captor, ship_lot.city) == (56_300, table["captains"]["alice"], "parhoon")
    assert ship_lot.style == AuctionStyle.OPEN
    # Day 0 (nothing ticked yet): the auction runs two campaign days and closes at the tick of day 2, about two
    # days of 24 hours from now (the campaign's next tick is not scheduled: reckoned a day away).
    assert ship_lot.closes_on_day == 2
    assert before + timedelta(hours=48) <= ship_lot.closes_at <= timezone.now() + timedelta(hours=48)
    roll = CampaignRoll.objects.get(campaign=table["campaign"])
    assert "Warm Winds" in roll.purpose
    assert cargo_lot is not None
    assert (cargo_lot.cargo_tons, cargo_lot.cargo_die) == (100, roll.result)
    assert cargo_lot.reserve == 100 * roll.result * 100
    ship = CampaignShip.objects.get(pk=ship_lot.ship_id)
    assert (ship.status, ship.cargo_tons, ship.city) == (ShipStatus.PRIZE, 0, "parhoon")
    (news,) = ChronicleEntry.objects.filter(kind=ChronicleKind.PRIZE_LANDED)
    assert news.text == "Captain Alice brings the prize Warm Winds into Parhoon, 100 tons of cargo in her hold."


def test_the_umpires_auction_settings_set_the_style_and_the_deadline(table):
    campaign = table["campaign"]
    campaign.auction_style, campaign.auction_days, campaign.day, campaign.hours_per_day = AuctionStyle.SEALED, 5, 3, 6
    campaign.save()
    ship_lot, cargo_lot = land(table)
    assert cargo_lot is None  # an empty hold is not auctioned
    assert ship_lot.style == AuctionStyle.SEALED
    assert ship_lot.closes_on_day == 8
    assert ship_lot.closes_at - ship_lot.opened_at == timedelta(hours=5 * 6)


def test_landing_the_same_prize_twice_opens_nothing_new_and_rolls_no_second_die(table):
    ship = prize(table, cargo_tons=40)
    first = auctions.prize_land(ship_id=ship.pk, city="Parhoon")
    again = auctions.prize_land(ship_id=ship.pk, city="Meepsoor")
    assert [a.pk for a in again] == [a.pk for a in first]
    assert Auction.objects.count() == 2
    assert CampaignRoll.objects.count() == 1
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.PRIZE_LANDED).count() == 1


@pytest.mark.rule("SGC-MONEY-06")
def test_a_prize_is_sold_only_at_a_friendly_city_and_only_a_captured_ship_is_a_prize(table):
    ship = prize(table)
    with pytest.raises(ValidationError, match="Oenotria is not a friendly city"):
        auctions.prize_land(ship_id=ship.pk, city="Oenotria")
    with pytest.raises(ValidationError, match="no city called"):
        auctions.prize_land(ship_id=ship.pk, city="Atlantis")
    own = CampaignShip.objects.create(
        campaign=table["campaign"], name="Aphid", record={}, original_price=9_000, captain=table["captains"]["bob"]
    )
    with pytest.raises(ValidationError, match="not a prize"):
        auctions.prize_land(ship_id=own.pk, city="Parhoon")
    assert not Auction.objects.exists()
    # Thoth is a friendly city though independent (north of the line, the trek rule's definition).
    assert auctions.prize_land(ship_id=ship.pk, city="thoth")[0].city == "thoth"


@pytest.mark.rule("SGC-AUCT-01", "SGC-AUCT-02", "SGC-AUCT-06", "SGC-MONEY-02", "SGC-CARGO-03", "SGC-CARGO-04")
def test_with_no_other_player_the_crown_buys_the_prize_and_her_cargo_at_once(table):
    campaign = table["campaign"]
    campaign.seed = seed_rolling_first(4)
    campaign.save()
    for who in ("bob", "carol"):
        Captain.objects.filter(pk=table["captains"][who].pk).update(status=CaptainStatus.LOST)
    ship_lot, cargo_lot = land(table, cargo_tons=100)

    assert cargo_lot is not None
    for lot, price in ((ship_lot, 56_300), (cargo_lot, 40_000)):
        lot.refresh_from_db()
        assert (lot.status, lot.winner, lot.price) == (AuctionStatus.CLOSED, None, price)
    assert kinds(table, "alice") == [(EntryKind.PRIZE_SHARE, 5_630), (EntryKind.CARGO_SHARE, 4_000)]
    assert balance(table, "alice") == 30_000 + 5_630 + 4_000
    assert CampaignShip.objects.get(pk=ship_lot.ship_id).status == ShipStatus.CROWN
    books_balance(table)


# --- the close with no bid ---------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-AUCT-01", "SGC-AUCT-02", "SGC-AUCT-06", "SGC-MONEY-02", "SGC-CARGO-01", "SGC-CARGO-04")
def test_when_nobody_bids_the_crown_buys_at_the_reserve_and_the_captor_takes_his_tenth(table):
    campaign = table["campaign"]
    campaign.seed = seed_rolling_first(4)
    campaign.save()
    ship_lot, cargo_lot = land(table, cargo_tons=100)
    assert cargo_lot is not None
    with pytest.raises(ValidationError, match="runs until"):
        auctions.auction_close(auction_id=ship_lot.pk)

    for lot in (ship_lot, cargo_lot):
        deadline_passes(lot)
        auctions.auction_close(auction_id=lot.pk)

    assert kinds(table, "alice") == [(EntryKind.PRIZE_SHARE, 5_630), (EntryKind.CARGO_SHARE, 4_000)]
    ship = CampaignShip.objects.get(pk=ship_lot.ship_id)
    assert (ship.status, ship.captain) == (ShipStatus.CROWN, None)
    news = set(ChronicleEntry.objects.filter(kind=ChronicleKind.AUCTION_WON).values_list("text", flat=True))
    assert news == {
        "The crown buys the prize Warm Winds at Parhoon for £56,300.",
        "The crown buys the cargo of the Warm Winds at Parhoon for £40,000.",
    }
    books_balance(table)


def test_closing_an_auction_twice_pays_once(table):
    ship_lot, _ = land(table)
    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)
    auctions.auction_close(auction_id=ship_lot.pk)
    assert kinds(table, "alice") == [(EntryKind.PRIZE_SHARE, 5_630)]


# --- open bidding --------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-AUCT-02", "SGC-AUCT-05", "SGC-MONEY-02")
def test_a_bid_is_held_in_escrow_released_when_outbid_and_the_highest_buys_the_ship_with_her_damage(table):
    ship_lot, _ = land(table)
    with pytest.raises(ValidationError, match="above the crown's reserve of £56,300"):
        bid(table, ship_lot, "bob", 56_300)
    for who in ("alice", "bob", "carol"):
        captains.captain_adjust_money(
            captain_id=table["captains"][who].pk, umpire=table["umpire"], amount=50_000, reason="Prize money"
        )

    first = bid(table, ship_lot, "bob", 60_000)
    assert (first.status, balance(table, "bob")) == (BidStatus.HELD, 20_000)
    with pytest.raises(ValidationError, match="beat the highest bid, £60,000"):
        bid(table, ship_lot, "carol", 60_000)
    second = bid(table, ship_lot, "carol", 61_000)

    first.refresh_from_db()
    assert (first.status, balance(table, "bob")) == (BidStatus.OUTBID, 80_000)
    assert (second.status, balance(table, "carol")) == (BidStatus.HELD, 19_000)
    assert kinds(table, "bob") == [(EntryKind.ESCROW_HOLD, -60_000), (EntryKind.ESCROW_RELEASE, 60_000)]

    deadline_passes(ship_lot)
    with pytest.raises(ValidationError, match="closed at"):
        bid(table, ship_lot, "bob", 70_000)
    closed = auctions.auction_close(auction_id=ship_lot.pk)

    assert (closed.winner, closed.price, closed.bought_outright) == (table["captains"]["carol"], 61_000, False)
    second.refresh_from_db()
    assert second.status == BidStatus.WON
    assert kinds(table, "carol") == [
        (EntryKind.ESCROW_HOLD, -61_000),
        (EntryKind.ESCROW_RELEASE, 61_000),
        (EntryKind.AUCTION_PURCHASE, -61_000),
    ]
    assert balance(table, "carol") == 19_000
    assert kinds(table, "alice") == [(EntryKind.PRIZE_SHARE, 6_100)]  # a tenth of the sale, not of the reserve
    ship = CampaignShip.objects.get(pk=ship_lot.ship_id)
    assert (ship.captain, ship.status, ship.city, ship.record) == (
        table["captains"]["carol"],
        ShipStatus.IN_PORT,
        "parhoon",
        DAMAGE,
    )
    (news,) = ChronicleEntry.objects.filter(kind=ChronicleKind.AUCTION_WON)
    assert news.text == "Captain Carol buys the prize Warm Winds at Parhoon for £61,000."
    books_balance(table)


def test_a_bidder_raising_his_own_bid_needs_only_the_difference_in_the_bank(table):
    ship_lot, _ = land(table, price=40_000)  # reserve 20,000
    bid(table, ship_lot, "bob", 25_000)
    raised = bid(table, ship_lot, "bob", 30_000)  # 30,000 in all, and he had 30,000
    assert (raised.status, balance(table, "bob")) == (BidStatus.HELD, 0)
    assert Bid.objects.filter(auction=ship_lot, status=BidStatus.HELD).count() == 1
    books_balance(table)


@pytest.mark.rule("SGC-AUCT-02", "SGC-MONEY-02")
def test_the_captor_may_bid_for_his_own_prize_and_still_takes_his_tenth(table):
    ship_lot, _ = land(table, price=40_000)
    bid(table, ship_lot, "bob", 21_000)
    bid(table, ship_lot, "alice", 22_000)
    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)
    assert balance(table, "alice") == 30_000 - 22_000 + 2_200
    assert balance(table, "bob") == 30_000
    assert CampaignShip.objects.get(pk=ship_lot.ship_id).captain == table["captains"]["alice"]
    books_balance(table)


def test_a_bid_beyond_the_bank_is_refused_with_the_balance_and_moves_nothing(table):
    ship_lot, _ = land(table)
    with pytest.raises(ValidationError, match="has £30,000 in the bank; £60,000 is asked"):
        bid(table, ship_lot, "bob", 60_000)
    assert not Bid.objects.exists()
    assert balance(table, "bob") == 30_000
    books_balance(table)


def test_a_double_submit_with_the_same_key_counts_once(table):
    ship_lot, _ = land(table, price=40_000)
    first = bid(table, ship_lot, "bob", 21_000, key="click-1")
    again = bid(table, ship_lot, "bob", 21_000, key="click-1")
    assert first.pk == again.pk
    assert balance(table, "bob") == 9_000
    with pytest.raises(ValidationError, match="already used"):
        bid(table, ship_lot, "bob", 22_000, key="click-1")
    assert Bid.objects.count() == 1


def test_only_a_captains_own_player_bids_for_him_and_only_while_the_auction_is_open(table):
    ship_lot, _ = land(table, price=40_000)
    with pytest.raises(PermissionDenied):
        auctions.bid_place(
            auction_id=ship_lot.pk, captain_id=table["captains"]["bob"].pk, user=table["carol"], amount=25_000
        )
    with pytest.raises(ValidationError, match="whole number"):
        bid(table, ship_lot, "bob", -5)
    Captain.objects.filter(pk=table["captains"]["bob"].pk).update(status=CaptainStatus.CAPTURED)
    with pytest.raises(ValidationError, match="captured"):
        bid(table, ship_lot, "bob", 25_000)
    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)
    with pytest.raises(ValidationError, match="is closed"):
        bid(table, ship_lot, "carol", 25_000)
    assert not Bid.objects.exists()


# --- buying one's own prize outright --------------------------------------------------------------------------------


@pytest.mark.rule("SGC-AUCT-03", "SGC-AUCT-04", "SGC-AUCT-05", "SGC-AUCT-06")
def test_the_captor_buys_the_warm_winds_outright_for_56300_and_nets_50670_after_his_share(table):
    ship_lot, cargo_lot = land(table, cargo_tons=10)
    assert cargo_lot is not None
    alice = table["captains"]["alice"]
    with pytest.raises(ValidationError, match="costs £56,300"):
        auctions.prize_buy_outright(auction_id=ship_lot.pk, captain_id=alice.pk, user=table["alice"])
    captains.captain_adjust_money(captain_id=alice.pk, umpire=table["umpire"], amount=30_000, reason="Banked")
    captains.captain_adjust_money(
        captain_id=table["captains"]["bob"].pk, umpire=table["umpire"], amount=30_000, reason="Banked"
    )
    outbid = bid(table, ship_lot, "bob", 57_000)
    with pytest.raises(PermissionDenied, match="Only the captain who took"):
        auctions.prize_buy_outright(auction_id=ship_lot.pk, captain_id=table["captains"]["bob"].pk, user=table["bob"])
    with pytest.raises(ValidationError, match="Only the prize ship"):
        auctions.prize_buy_outright(auction_id=cargo_lot.pk, captain_id=alice.pk, user=table["alice"])

    bought = auctions.prize_buy_outright(auction_id=ship_lot.pk, captain_id=alice.pk, user=table["alice"])

    assert (bought.status, bought.winner, bought.price, bought.bought_outright) == (
        AuctionStatus.CLOSED,
        alice,
        56_300,
        True,
    )
    assert balance(table, "alice") == 60_000 - 50_670
    assert kinds(table, "alice") == [(EntryKind.AUCTION_PURCHASE, -56_300), (EntryKind.PRIZE_SHARE, 5_630)]
    outbid.refresh_from_db()
    assert (outbid.status, balance(table, "bob")) == (BidStatus.OUTBID, 60_000)
    ship = CampaignShip.objects.get(pk=ship_lot.ship_id)
    assert (ship.captain, ship.status, ship.record) == (alice, ShipStatus.IN_PORT, DAMAGE)
    assert economy.own_prize_net_cost(56_300) == 50_670
    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)  # the close task comes by later: nothing more happens
    assert balance(table, "alice") == 60_000 - 50_670
    books_balance(table)


# --- sealed bids -----------------------------------------------------------------------------------------------------


@pytest.fixture
def sealed(table):
    campaign = table["campaign"]
    campaign.auction_style = AuctionStyle.SEALED
    campaign.save()
    return table


def test_sealed_bids_all_hold_their_money_until_the_close_and_the_highest_wins_ties_to_the_earlier(sealed):
    table = sealed
    ship_lot, _ = land(table, price=40_000)  # reserve 20,000
    bob = bid(table, ship_lot, "bob", 24_000)
    carol = bid(table, ship_lot, "carol", 24_000)  # a tie: the earlier bid leads
    alice = bid(table, ship_lot, "alice", 22_000)
    assert [balance(table, who) for who in ("alice", "bob", "carol")] == [8_000, 6_000, 6_000]
    with pytest.raises(ValidationError, match="beat your own earlier one, £24,000"):
        bid(table, ship_lot, "carol", 23_000)  # below the leader is allowed, below his own is not
    assert Bid.objects.filter(auction=ship_lot, status=BidStatus.HELD).get() == bob

    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)

    statuses = {b.pk: b.status for b in Bid.objects.all()}
    assert statuses == {bob.pk: BidStatus.WON, carol.pk: BidStatus.OUTBID, alice.pk: BidStatus.OUTBID}
    assert balance(table, "bob") == 6_000
    assert balance(table, "carol") == 30_000
    assert balance(table, "alice") == 30_000 + 2_400
    books_balance(table)


def test_a_sealed_bidder_may_raise_his_own_bid_and_take_the_lead(sealed):
    table = sealed
    ship_lot, _ = land(table, price=40_000)
    bob = bid(table, ship_lot, "bob", 24_000)
    carol = bid(table, ship_lot, "carol", 21_000)
    raised = bid(table, ship_lot, "carol", 25_000)
    assert balance(table, "carol") == 5_000  # the earlier sealed bid came back when she raised it
    bob.refresh_from_db()
    carol.refresh_from_db()
    assert (bob.status, carol.status, raised.status) == (BidStatus.SEALED, BidStatus.OUTBID, BidStatus.HELD)
    assert balance(table, "bob") == 6_000  # still held: releasing it would tell him he was outbid
    deadline_passes(ship_lot)
    assert auctions.auction_close(auction_id=ship_lot.pk).winner == table["captains"]["carol"]
    assert balance(table, "bob") == 30_000
    books_balance(table)


def test_nobody_sees_anothers_sealed_bid_until_the_close_shows_the_winning_price(sealed):
    table = sealed
    ship_lot, _ = land(table, price=40_000)
    bid(table, ship_lot, "bob", 24_000)
    bid(table, ship_lot, "carol", 23_000)

    (for_carol,) = auction_selectors.auctions_for_member(user=table["carol"], campaign=table["campaign"])
    assert (for_carol.highest_bid, for_carol.highest_bidder, for_carol.price) == (None, None, None)
    assert [(b.captain, b.amount, b.status) for b in for_carol.bids] == [("Carol", 23_000, "sealed")]
    for_bob = auction_selectors.auction_for_member(user=table["bob"], auction_id=ship_lot.pk)
    assert [(b.amount, b.status) for b in for_bob.bids] == [(24_000, "sealed")]  # not "leading" either
    umpires = auction_selectors.auction_for_member(user=table["umpire"], auction_id=ship_lot.pk)
    assert (umpires.highest_bid, len(umpires.bids)) == (24_000, 2)
    stranger = UserFactory(username="stranger")
    with pytest.raises(Http404):
        auction_selectors.auction_for_member(user=stranger, auction_id=ship_lot.pk)
    with pytest.raises(Http404):
        auction_selectors.auctions_for_member(user=stranger, campaign=table["campaign"])

    deadline_passes(ship_lot)
    auctions.auction_close(auction_id=ship_lot.pk)
    after = auction_selectors.auction_for_member(user=table["carol"], auction_id=ship_lot.pk)
    assert (after.winner, after.price, after.highest_bid) == ("Bob", 24_000, 24_000)
    assert [(b.amount, b.status) for b in after.bids] == [(23_000, BidStatus.OUTBID)]
    alices = auction_selectors.auction_for_member(user=table["alice"], auction_id=ship_lot.pk)
    assert alices.bids == ()


def test_an_open_auction_shows_everyone_the_highest_bid_and_its_bidder(table):
    ship_lot, _ = land(table, price=40_000)
    bid(table, ship_lot, "bob", 24_000)
    bid(table, ship_lot, "carol", 25_000)
    view = auction_selectors.auction_for_member(user=table["alice"], auction_id=ship_lot.pk)
    assert (view.highest_bid, view.highest_bidder, view.reserve, view.captor) == (
        25_000,
        "Carol",
        20_000,
        "Alice",
    )
    assert view.bids == ()
    bobs = auction_selectors.auction_for_member(user=table["bob"], auction_id=ship_lot.pk)
    assert [(b.amount, b.status) for b in bobs.bids] == [(24_000, BidStatus.OUTBID)]


# --- cargo lots ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-CARGO-01", "SGC-CARGO-02", "SGC-CARGO-05")
def test_a_captain_who_outbids_the_crown_for_a_cargo_sells_it_on_at_a_fresh_roll(table):
    _, cargo_lot = land(table, cargo_tons=20)
    assert cargo_lot is not None
    price = cargo_lot.reserve + 500
    captains.captain_adjust_money(
        captain_id=table["captains"]["bob"].pk, umpire=table["umpire"], amount=price, reason="Banked"
    )
    bid(table, cargo_lot, "bob", price)
    deadline_passes(cargo_lot)
    auctions.auction_close(auction_id=cargo_lot.pk)

    resale = CampaignRoll.objects.filter(campaign=table["campaign"]).order_by("seq").last()
    assert resale is not None
    assert "sold on" in resale.purpose
    assert resale.seq == 2
    assert kinds(table, "bob") == [
        (EntryKind.ESCROW_HOLD, -price),
        (EntryKind.ESCROW_RELEASE, price),
        (EntryKind.AUCTION_PURCHASE, -price),
        (EntryKind.CARGO_SALE, 20 * resale.result * 100),
    ]
    assert kinds(table, "alice") == [(EntryKind.CARGO_SHARE, price // 10)]
    books_balance(table)


# --- the close task ---------------------------------------------------------------------------------------------------


def test_the_tick_closes_the_auctions_whose_day_has_come_and_running_it_twice_is_harmless(table):
    due, _ = land(table)
    later = auctions.prize_land(
        ship_id=CampaignShip.objects.create(
            campaign=table["campaign"],
            name="Small Bird",
            record={},
            original_price=20_000,
            status=ShipStatus.PRIZE,
            captured_by=table["captains"]["bob"],
        ).pk,
        city="Parhoon",
    )[0]
    Auction.objects.filter(pk=later.pk).update(closes_on_day=3)
    assert auction_selectors.auctions_due(campaign_id=table["campaign"].pk, day=2) == [due.pk]

    assert auctions.auctions_close_due(campaign_id=table["campaign"].pk, day=2) == 1
    assert auctions.auctions_close_due(campaign_id=table["campaign"].pk, day=2) == 0

    due.refresh_from_db()
    later.refresh_from_db()
    assert (due.status, later.status) == (AuctionStatus.CLOSED, AuctionStatus.OPEN)
    assert kinds(table, "alice") == [(EntryKind.PRIZE_SHARE, 5_630)]


def test_no_beat_task_closes_auctions_by_real_time():
    """The one path that closes an auction is the campaign's tick: no real-time deadline in the beat."""
    tasks_named = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert not any("auction" in name for name in tasks_named)
    assert not hasattr(tasks, "close_due_auctions")


def test_a_bid_beyond_all_the_money_on_mars_is_refused_plainly(table):
    ship_lot, _ = land(table)
    with pytest.raises(ValidationError, match="at most"):
        bid(table, ship_lot, "bob", 10**13)
    with pytest.raises(ValidationError, match="whole number"):
        bid(table, ship_lot, "bob", True)


def test_with_the_advance_a_loan_the_captors_shares_repay_it_first(table):
    alice = Captain.objects.get(pk=table["captains"]["alice"].pk)
    Captain.objects.filter(pk=alice.pk).update(advance_owed=8_000)  # as if founded under the umpire's loan
    campaign = table["campaign"]
    campaign.seed = seed_rolling_first(4)
    campaign.save()
    ship_lot, cargo_lot = land(table, cargo_tons=100)
    for lot in (ship_lot, cargo_lot):
        deadline_passes(lot)
        auctions.auction_close(auction_id=lot.pk)

    assert kinds(table, "alice") == [
        (EntryKind.PRIZE_SHARE, 5_630),
        (EntryKind.LOAN_REPAYMENT, -5_630),
        (EntryKind.CARGO_SHARE, 4_000),
        (EntryKind.LOAN_REPAYMENT, -2_370),
    ]
    assert Captain.objects.get(pk=alice.pk).advance_owed == 0
    books_balance(table)
