"""A Hypothesis state machine over the captains' money: founding captains (the advance), landing prizes, bids
and outbids in open and sealed auctions, double submits, deadlines passing, closes, the captor buying outright,
repair bills and the umpire's adjustments, in any order. After every step the money is conserved, no balance is
below nothing, every captain's books add up, and no auction holds more than one leading bid.

Money conserved, as counted here: what is in the banks and in escrow, plus what the crown took for prizes and
the yard for repairs, equals what came in: the advances, the umpire's adjustments, the captors' tenths and the
cargoes sold on. Escrow is counted from the bids, the crown's takings and the captors' tenths from the closed
auctions, the advances, adjustments and repairs from the machine's own tally: only the cargo sold on at a fresh
roll is read from the ledger."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from campaign import auctions, captains, economy, ledger
from campaign.models import (
    CAPTAIN_AWAY,
    CAPTAIN_GONE,
    Auction,
    AuctionStatus,
    AuctionStyle,
    Bid,
    BidStatus,
    Campaign,
    CampaignShip,
    Captain,
    CaptainStatus,
    EntryKind,
    LedgerEntry,
    LotKind,
    Role,
    ShipStatus,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

ESCROW = (BidStatus.HELD, BidStatus.SEALED)
PLAYERS = 3
ADVANCE = 30_000


def day_has_come(auction: Auction) -> bool:
    """Whether the campaign has reached the auction's closing day (campaign.auctions: the clock, not real time)."""
    day = Campaign.objects.get(pk=auction.campaign_id).day
    return auction.closes_on_day is not None and day >= auction.closes_on_day


class MoneyMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Each example runs in a savepoint rolled back at its end: the next starts from an empty campaign.
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.umpire = UserFactory(username="umpire")
        self.campaign = CampaignFactory(created_by=self.umpire)
        MembershipFactory(campaign=self.campaign, user=self.umpire, role=Role.UMPIRE)
        self.players = [UserFactory(username=f"player{i}") for i in range(PLAYERS)]
        for player in self.players:
            MembershipFactory(campaign=self.campaign, user=player, role=Role.PLAYER)
        self.captain_ids: list[int] = []
        self.auction_ids: list[int] = []
        self.advances = 0
        self.adjustments = 0
        self.repairs = 0
        self.submits = 0

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- helpers ----------------------------------------------------------------------------------------------

    def captain(self, index: int) -> Captain:
        return Captain.objects.select_related("player").get(pk=self.captain_ids[index % len(self.captain_ids)])

    def auction(self, index: int) -> Auction:
        return Auction.objects.get(pk=self.auction_ids[index % len(self.auction_ids)])

    # --- rules ------------------------------------------------------------------------------------------------

    @initialize()
    def every_player_founds_a_captain(self) -> None:
        for player in range(PLAYERS):
            self.found_a_captain(player)

    def found_a_captain(self, player: int) -> None:
        captain = captains.captain_found(
            campaign=self.campaign, user=self.players[player], name=f"Hand {len(self.captain_ids)}"
        )
        self.captain_ids.append(captain.pk)
        self.advances += ADVANCE

    @precondition(lambda self: len(self.captain_ids) < 5)
    @rule(player=st.integers(0, PLAYERS - 1))
    def a_captain_retires_and_his_player_founds_another(self, player: int) -> None:
        """SGC-START-14: no second captain while the first lives; retired, his bids in escrow come back to his
        bank (a sealed auction's lead passes to the next bid), and a new captain draws a fresh advance."""
        living = Captain.objects.filter(campaign=self.campaign, player=self.players[player]).exclude(
            status__in=CAPTAIN_GONE
        )
        for captain in living:
            with pytest.raises(ValidationError):
                self.found_a_captain(player)
            captains.captain_set_status(
                captain_id=captain.pk, umpire=self.umpire, status=CaptainStatus.RETIRED, reason="Home to Earth"
            )
            assert not Bid.objects.filter(captain=captain, status__in=ESCROW, auction__status="open").exists()
        self.found_a_captain(player)

    @precondition(lambda self: self.captain_ids and len(self.auction_ids) < 8)
    @rule(
        captor=st.integers(0, 4),
        price=st.integers(2_000, 50_000),
        tons=st.sampled_from([0, 0, 10, 60]),
        sealed=st.booleans(),
    )
    def land_a_prize(self, captor: int, price: int, tons: int, sealed: bool) -> None:
        self.campaign.auction_style = AuctionStyle.SEALED if sealed else AuctionStyle.OPEN
        self.campaign.save(update_fields=["auction_style"])
        ship = CampaignShip.objects.create(
            campaign=self.campaign,
            name=f"Prize {len(self.auction_ids)}",
            record={"hull_hits": 3},
            original_price=price,
            status=ShipStatus.PRIZE,
            captured_by=self.captain(captor),
            cargo_tons=tons,
        )
        landed = auctions.prize_land(ship_id=ship.pk, city="Parhoon")
        assert [a.reserve for a in landed if a.lot == LotKind.SHIP] == [economy.crown_price(price)]
        self.auction_ids.extend(a.pk for a in landed)

    @precondition(lambda self: self.captain_ids and self.auction_ids)
    @rule(
        which=st.integers(0, 7),
        who=st.integers(0, 4),
        over=st.integers(-500, 6_000),
        double=st.booleans(),
    )
    def bid(self, which: int, who: int, over: int, double: bool) -> None:
        auction, captain = self.auction(which), self.captain(who)
        held = Bid.objects.filter(auction=auction, status=BidStatus.HELD).first()
        own = Bid.objects.filter(auction=auction, captain=captain, status__in=ESCROW).first()
        sealed = auction.style == AuctionStyle.SEALED
        floor = max(auction.reserve, (own.amount if own else 0) if sealed else (held.amount if held else 0))
        amount = max(1, floor + over)
        outbid = own if sealed else held
        released_to_him = outbid.amount if outbid is not None and outbid.captain_id == captain.pk else 0
        expected = (
            auction.status == AuctionStatus.OPEN
            and captain.status not in CAPTAIN_AWAY
            and not day_has_come(auction)
            and amount > floor
            and amount <= captain.balance + released_to_him
        )
        self.submits += 1
        key = f"form-{self.submits}"
        try:
            placed = auctions.bid_place(
                auction_id=auction.pk, captain_id=captain.pk, user=captain.player, amount=amount, idempotency_key=key
            )
        except ValidationError:
            assert not expected, f"a bid of {amount} over {floor} with {captain.balance} in the bank was refused"
            return
        assert expected, f"a bid of {amount} over {floor} with {captain.balance} in the bank was taken"
        if double:  # the same form sent twice
            again = auctions.bid_place(
                auction_id=auction.pk, captain_id=captain.pk, user=captain.player, amount=amount, idempotency_key=key
            )
            assert again.pk == placed.pk

    @precondition(lambda self: self.auction_ids)
    @rule(which=st.integers(0, 7), who=st.integers(0, 4), by=st.integers(1, 3_000))
    def outbid(self, which: int, who: int, by: int) -> None:
        """A captain beats the leading bid (or the reserve when there is none): in the open the leader's money
        comes back at once; sealed, it stays in escrow until the close."""
        auction = self.auction(which)
        leader = Bid.objects.filter(auction=auction, status=BidStatus.HELD).first()
        rival = self.captain(who)
        if leader is not None and rival.pk == leader.captain_id:
            rival = self.captain(who + 1)
        own = Bid.objects.filter(auction=auction, captain=rival, status__in=ESCROW).first()
        amount = max(auction.reserve, leader.amount if leader else 0, own.amount if own else 0) + by
        try:
            auctions.bid_place(auction_id=auction.pk, captain_id=rival.pk, user=rival.player, amount=amount)
        except ValidationError:
            assert (
                auction.status == AuctionStatus.CLOSED
                or rival.status in CAPTAIN_AWAY
                or day_has_come(auction)
                or amount > rival.balance + (own.amount if own else 0)
            )
            return
        assert Bid.objects.get(auction=auction, status=BidStatus.HELD).amount == amount
        if leader is not None and leader.captain_id != rival.pk:
            leader.refresh_from_db()
            sealed = auction.style == AuctionStyle.SEALED
            assert leader.status == (BidStatus.SEALED if sealed else BidStatus.OUTBID)

    @precondition(lambda self: self.auction_ids)
    @rule(which=st.integers(0, 7))
    def the_deadline_passes(self, which: int) -> None:
        auction = self.auction(which)
        Auction.objects.filter(pk=auction.pk).update(closes_on_day=Campaign.objects.get(pk=auction.campaign_id).day)

    @precondition(lambda self: self.auction_ids)
    @rule(which=st.integers(0, 7))
    def close(self, which: int) -> None:
        auction = self.auction(which)
        due = auction.status == AuctionStatus.CLOSED or day_has_come(auction)
        top = Bid.objects.filter(auction=auction, status=BidStatus.HELD).first()
        try:
            closed = auctions.auction_close(auction_id=auction.pk)
        except ValidationError:
            assert not due
            return
        assert due
        if auction.status == AuctionStatus.OPEN:
            assert (closed.winner_id, closed.price) == (
                (top.captain_id, top.amount) if top else (None, auction.reserve)
            )

    @precondition(lambda self: self.auction_ids)
    @rule(which=st.integers(0, 7))
    def the_captor_buys_outright(self, which: int) -> None:
        auction = self.auction(which)
        captor = Captain.objects.select_related("player").get(pk=auction.captor_id)
        own = Bid.objects.filter(auction=auction, captain=captor, status__in=ESCROW).aggregate(s=Sum("amount"))["s"]
        expected = (
            auction.lot == LotKind.SHIP
            and auction.status == AuctionStatus.OPEN
            and captor.status not in CAPTAIN_AWAY
            and not day_has_come(auction)
            and captor.balance + (own or 0) >= auction.reserve
        )
        try:
            auctions.prize_buy_outright(auction_id=auction.pk, captain_id=captor.pk, user=captor.player)
        except ValidationError:
            assert not expected
            return
        assert expected

    @precondition(lambda self: self.captain_ids)
    @rule(who=st.integers(0, 4), bill=st.integers(1, 40_000))
    def repair(self, who: int, bill: int) -> None:
        try:
            with transaction.atomic():
                ledger.post(ledger.lock_captain(self.captain(who).pk), -bill, EntryKind.REPAIR, memo="Yard bill")
        except ledger.InsufficientFunds:
            return
        self.repairs += bill

    @precondition(lambda self: self.captain_ids)
    @rule(who=st.integers(0, 4), amount=st.integers(-40_000, 40_000).filter(bool))
    def adjust(self, who: int, amount: int) -> None:
        captain = self.captain(who)
        try:
            captains.captain_adjust_money(captain_id=captain.pk, umpire=self.umpire, amount=amount, reason="Audit")
        except ValidationError:
            assert captain.balance + amount < 0
            return
        self.adjustments += amount

    # --- invariants -------------------------------------------------------------------------------------------

    @invariant()
    def money_is_conserved(self) -> None:
        banks = Captain.objects.filter(campaign=self.campaign).aggregate(s=Sum("balance"))["s"] or 0
        escrow = Bid.objects.filter(auction__campaign=self.campaign, status__in=ESCROW).aggregate(s=Sum("amount"))
        crown = 0
        shares = 0
        for auction in Auction.objects.filter(campaign=self.campaign, status=AuctionStatus.CLOSED):
            assert auction.price is not None
            if auction.winner_id is not None:
                crown += auction.price
            share = economy.cargo_share if auction.lot == LotKind.CARGO else economy.captain_share
            shares += share(auction.price)
        sold_on = LedgerEntry.objects.filter(captain__campaign=self.campaign, kind=EntryKind.CARGO_SALE).aggregate(
            s=Sum("amount")
        )["s"]
        came_in = self.advances + self.adjustments + shares + (sold_on or 0)
        assert banks + (escrow["s"] or 0) + crown + self.repairs == came_in

    @invariant()
    def no_balance_is_below_nothing_and_the_books_add_up(self) -> None:
        assert not Captain.objects.filter(campaign=self.campaign, balance__lt=0).exists()
        assert ledger.check_campaign(self.campaign) == len(self.captain_ids)

    @invariant()
    def an_auction_holds_at_most_one_leading_bid_and_a_closed_one_none(self) -> None:
        for auction in Auction.objects.filter(campaign=self.campaign):
            bids = list(Bid.objects.filter(auction=auction))
            leading = [bid for bid in bids if bid.status == BidStatus.HELD]
            assert len(leading) <= 1
            if auction.status == AuctionStatus.CLOSED:
                assert not [bid for bid in bids if bid.status in ESCROW]
                won_by_bid = auction.winner_id is not None and not auction.bought_outright
                assert len([bid for bid in bids if bid.status == BidStatus.WON]) == int(won_by_bid)
            elif leading:
                # The leader is the highest bid still in escrow, the earliest of equals.
                live = sorted((bid for bid in bids if bid.status in ESCROW), key=lambda bid: (-bid.amount, bid.pk))
                assert live[0] == leading[0]


def test_money_is_conserved_and_never_below_nothing_whatever_the_captains_do() -> None:
    run_state_machine_as_test(
        MoneyMachine,
        settings=settings(
            max_examples=50,
            stateful_step_count=20,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
