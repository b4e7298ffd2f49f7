"""Prizes and their auctions (SGC-MONEY-01/02, SGC-AUCT, SGC-CARGO): landing a prize at a friendly city,
bidding with the money held in escrow, the captor buying his own prize outright, and the close.

Money only moves through campaign.ledger. Every service locks in the one order of campaign.locks: the campaign
row, then the auction, then the captains concerned (pk order), then the ship: two bids on one auction queue up
behind each other, and a prize's two lots closing together never wait on each other's locks crosswise.

Designed here (the rules are written for one player, whose prize the crown always buys):

- Friendly cities (SGC-MONEY-06): a city is friendly when its hex is, by the map's allegiance rules (the trek
  rule's definition: British territory, and north of Gorovaan and Thoth).
- A prize is a real auction only when another player has a captain still in the campaign; alone, the captain's
  prize goes straight to the crown at its price (DESIGN.md section 4, step 5).
- Open auctions: a bid must beat the highest; the one it beats is released at once. Sealed auctions: a bid must
  beat the reserve and the bidder's own earlier bid; every sealed bid keeps its money in escrow until the close
  (a release would tell a bidder that he had been outbid); the highest wins, ties to the earlier bid.
- A cargo lot is money only (SGC-CARGO-05 gives no goods to carry): its reserve is the crown's price, rolled
  when the prize lands (tons x 1D6 x 100, SGC-CARGO-02). A captain who outbids the crown sells the cargo on
  himself at the close, at a fresh roll of the same formula (the market's price on the day): a gamble that
  pays when the landing roll was low. Were he paid the crown's price instead, every bid would be a certain
  loss and the cargo auction an empty form. The captor's tenth is of the auction's price either way.
- The clock (issue 18): an auction runs ``Campaign.auction_days`` campaign days. A prize landed while the campaign
  is on day D (its last finished tick), or during the tick that runs day D, closes at the tick that runs day
  D + auction_days (``Auction.closes_on_day``), a step of that tick (``auctions_close_due``, strategic_map.tick).
  Bidding stays open until then, however long real time runs: a paused campaign keeps its auctions open.
  ``closes_at`` is only when that tick is expected, for the pages.
- The captor may buy his own prize ship outright at the crown's price while her auction is open (SGC-AUCT-03/04);
  not her cargo, which would only give him back its price.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from campaign import auction_selectors, dice, economy, ledger, locks
from campaign.map_link import the_map
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
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    LotKind,
    ShipStatus,
)

# Bids still holding their money in escrow.
ACTIVE_BIDS = (BidStatus.HELD, BidStatus.SEALED)


@dataclass(frozen=True)
class LandingCity:
    key: str  # as captains' and ships' ``city`` fields store it: the name in lower case
    name: str


def friendly_city(name: str) -> LandingCity:
    """The map's city of this name if prizes may be sold there (SGC-MONEY-06, designed: its hex is friendly)."""
    city = the_map().city(name.strip())
    if city is None:
        raise ValidationError({"city": f"There is no city called {name!r} on the map."})
    if not city.friendly:
        raise ValidationError({"city": f"{city.name} is not a friendly city: no prize court sits there."})
    return LandingCity(key=city.key, name=city.name)


def _city_name(key: str) -> str:
    city = the_map().city(key)
    return key.title() if city is None else city.name


def _lot_name(auction: Auction) -> str:
    ship = auction.ship
    return f"the cargo of the {ship.name}" if auction.lot == LotKind.CARGO else f"the prize {ship.name}"


def _chronicle(campaign: Campaign, kind: str, text: str, captain: Captain | None) -> None:
    ChronicleEntry.objects.create(campaign=campaign, day=campaign.day, kind=kind, text=text[:300], captain=captain)


def _lock_auction(auction_id: int) -> Auction:
    """The auction, locked after its campaign's row (campaign.locks); ``auction.campaign`` is that locked row."""
    campaign = locks.campaign_of(Auction, auction_id)
    auction = None if campaign is None else locks.auction(campaign, auction_id)
    if auction is None:
        raise ValidationError({"auction": "There is no such auction."})
    return auction


def _has_rival_players(campaign: Campaign, captor: Captain) -> bool:
    """Whether another player has a captain who could bid: without one there is no real auction."""
    return (
        Captain.objects.filter(campaign=campaign)
        .exclude(player_id=captor.player_id)
        .exclude(status__in=CAPTAIN_GONE)
        .exists()
    )


def landing_day(campaign: Campaign) -> int:
    """The campaign day a prize lands on: the day a tick is running (begun, not finished: campaign.map_link), else the
    campaign's day (the last finished). Either way the auction gets its ``auction_days`` ticks after it."""
    return campaign.day + 1 if the_map().day_ticking(campaign, campaign.day + 1) else campaign.day


# --- landing a prize --------------------------------------------------------------------------------------------


@transaction.atomic
def prize_land(*, ship_id: int, city: str) -> list[Auction]:
    """A captured ship escorted into a friendly city goes to auction (SGC-MONEY-01): the ship, reserve half her
    original price (SGC-AUCT-01), and her cargo if she carries any, its price rolled now, tons x 1D6 x 100
    (SGC-CARGO-02), as that lot's reserve. With no rival player the crown buys both at once. Landing the same
    prize again opens nothing new and returns her auctions."""
    campaign = locks.campaign_of(CampaignShip, ship_id)
    captor_id = CampaignShip.objects.filter(pk=ship_id).values_list("captured_by_id", flat=True).first()
    if campaign is None:
        raise ValidationError({"ship": "There is no such ship."})
    # Campaign, captor, ship (campaign.locks' order): a close with no rival locks the captor to pay his tenth.
    captors = locks.captains(campaign, [captor_id] if captor_id else [])
    ship = locks.ship(campaign, ship_id)
    assert ship is not None
    existing = list(Auction.objects.filter(ship=ship).order_by("pk"))
    if existing:
        return existing
    captor = captors.get(ship.captured_by_id) if ship.captured_by_id else None
    if ship.status != ShipStatus.PRIZE or captor is None:
        raise ValidationError({"ship": f"The {ship.name} is not a prize: only a captured ship is auctioned."})
    landing = friendly_city(city)
    now = timezone.now()
    closes_on_day = landing_day(campaign) + campaign.auction_days
    common = {
        "campaign": campaign,
        "ship": ship,
        "captor": captor,
        "style": campaign.auction_style,
        "city": landing.key,
        "opened_at": now,
        "closes_on_day": closes_on_day,
        "closes_at": auction_selectors.tick_expected_at(campaign, closes_on_day, now=now),
    }
    auctions = [Auction.objects.create(lot=LotKind.SHIP, reserve=economy.crown_price(ship.original_price), **common)]
    tons = ship.cargo_tons
    if tons > 0:
        die = dice.roll(campaign, f"cargo of the prize {ship.name} (ship {ship.pk})", captain=captor).result
        auctions.append(
            Auction.objects.create(
                lot=LotKind.CARGO,
                reserve=economy.cargo_sale(tons, die),
                cargo_tons=tons,
                cargo_die=die,
                **common,
            )
        )
    # The cargo is unloaded into its own lot: whoever buys the ship buys her empty.
    ship.city = landing.key
    ship.cargo_tons = 0
    ship.save(update_fields=["city", "cargo_tons"])
    cargo = f", {tons} tons of cargo in her hold" if tons else ""
    _chronicle(
        campaign,
        ChronicleKind.PRIZE_LANDED,
        f"Captain {captor.name} brings the prize {ship.name} into {landing.name}{cargo}.",
        captor,
    )
    if not _has_rival_players(campaign, captor):
        for auction in auctions:
            _close(auction, now=now)
    return auctions


# --- bidding ----------------------------------------------------------------------------------------------------


def _require_open(auction: Auction) -> None:
    """Bids are taken while the auction is open and its campaign has not passed its closing day (the campaign row
    is locked: the tick's close waits for a bid, and a bid for the close)."""
    if auction.status != AuctionStatus.OPEN:
        raise ValidationError({"auction": f"The auction of {_lot_name(auction)} is closed."})
    if auction.closes_on_day is not None and auction.campaign.day >= auction.closes_on_day:
        raise ValidationError(
            {"auction": f"The auction of {_lot_name(auction)} closed at the end of day {auction.closes_on_day}."}
        )


def _players_captain(captain_id: int, user: User, auction: Auction) -> Captain:
    captain = Captain.objects.filter(pk=captain_id).first()
    if captain is None or captain.player_id != user.pk or captain.campaign_id != auction.campaign_id:
        raise PermissionDenied("You may act only for your own captain, in his own campaign.")
    _may_bid(captain)
    return captain


def _may_bid(captain: Captain) -> None:
    """A captain lost, retired, captured or walking home on an epic trek has no word with the prize court until he
    is back (his bids were released when he went: captain_bids_release)."""
    if captain.status in CAPTAIN_AWAY:
        where = captain.get_status_display().lower()
        raise ValidationError({"captain": f"Captain {captain.name} is {where}: he cannot bid until he is back."})


def _release(bid: Bid, captain: Captain, *, user: User | None = None) -> None:
    """Give a bid's money back to its bidder (ESCROW_RELEASE) and mark it outbid."""
    bid.status = BidStatus.OUTBID
    bid.save(update_fields=["status"])
    ledger.post(
        captain,
        bid.amount,
        EntryKind.ESCROW_RELEASE,
        memo=f"Bid on {_lot_name(bid.auction)} released from escrow",
        ship=bid.auction.ship,
        auction=bid.auction,
        idempotency_key=f"bid:{bid.pk}:release",
        user=user,
    )


def auctions_lock_for_captains(campaign: Campaign, captain_ids: Iterable[int]) -> list[Auction]:
    """Lock the campaign's open auctions on which these captains have a bid in escrow: what a service that may end a
    captain's career (his death, his epic trek, the umpire's change of status) takes after the campaign row and
    before it locks him (campaign.locks' order)."""
    ids = sorted(set(captain_ids))
    if not ids:
        return []
    wanted = Bid.objects.filter(
        captain_id__in=ids, status__in=ACTIVE_BIDS, auction__status=AuctionStatus.OPEN, auction__campaign=campaign
    ).values_list("auction_id", flat=True)
    return list(locks.auctions(campaign, wanted).values())


def captain_bids_release(*, captain: Captain) -> int:
    """The captain, locked by the caller, is gone from the auction room (killed, lost, retired, captured, or on an
    epic trek): every bid of his still in escrow on an open auction is released to his bank (ESCROW_RELEASE
    entries). Where his was the sealed auction's leading bid, the next highest sealed bid (ties to the earlier)
    leads instead; an open auction's highest bid goes, and the lot is back at its reserve for the others to bid
    on again. The caller has locked the auctions first (auctions_lock_for_captains). How many bids went back."""
    bids = list(
        Bid.objects.filter(captain=captain, status__in=ACTIVE_BIDS, auction__status=AuctionStatus.OPEN)
        .select_related("auction__ship")
        .order_by("auction_id", "pk")
    )
    for bid in bids:
        leading = bid.status == BidStatus.HELD
        _release(bid, captain)
        if leading and bid.auction.style == AuctionStyle.SEALED:
            nextbest = (
                Bid.objects.filter(auction_id=bid.auction_id, status=BidStatus.SEALED).order_by("-amount", "pk").first()
            )
            if nextbest is not None:
                nextbest.status = BidStatus.HELD
                nextbest.save(update_fields=["status"])
    return len(bids)


MAX_BID = 10**12  # more money than Mars holds; keeps a bid inside the database's integers


def _whole_pounds(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_BID:
        raise ValidationError({"amount": f"A bid is a whole number of pounds above nothing and at most £{MAX_BID:,}."})
    return amount


@transaction.atomic
def bid_place(*, auction_id: int, captain_id: int, user: User, amount: int, idempotency_key: str = "") -> Bid:
    """The captain bids ``amount`` pounds; the money is held in escrow from his bank at once (ESCROW_HOLD).

    Open auctions: the bid must beat the crown's reserve and the highest bid, which is released to its bidder in
    the same transaction. Sealed: it must beat the reserve and the captain's own earlier bid (released); the
    others' bids stay held until the close. The captor may bid on his own prize. The same idempotency key again
    gives back the first bid and moves no money."""
    amount = _whole_pounds(amount)
    key = idempotency_key.strip()[:120]
    auction = _lock_auction(auction_id)
    captain = _players_captain(captain_id, user, auction)
    held = Bid.objects.filter(auction=auction, status=BidStatus.HELD).select_related("auction__ship").first()
    own = (
        Bid.objects.filter(auction=auction, captain=captain, status__in=ACTIVE_BIDS)
        .select_related("auction__ship")
        .first()
    )
    is_open = auction.style == AuctionStyle.OPEN
    outbid = held if is_open else own
    locked = locks.captains(auction.campaign, {captain.pk} | ({outbid.captain_id} if outbid else set()))
    bidder = locked[captain.pk]
    _may_bid(bidder)  # again under his lock: he may have fallen or set out on a trek since he was read
    if key:
        # Checked under the bidder's lock: a double submit waits for the first and then finds it.
        earlier = Bid.objects.filter(captain=bidder, idempotency_key=key).first()
        if earlier is not None:
            if earlier.auction_id == auction.pk and earlier.amount == amount:
                return earlier
            raise ValidationError({"idempotency_key": "This key was already used for another bid."})
    _require_open(auction)
    if amount <= auction.reserve:
        raise ValidationError({"amount": f"A bid must be above the crown's reserve of £{auction.reserve:,}."})
    if is_open and held is not None and amount <= held.amount:
        raise ValidationError({"amount": f"A bid must beat the highest bid, £{held.amount:,}."})
    if not is_open and own is not None and amount <= own.amount:
        raise ValidationError({"amount": f"A new sealed bid must beat your own earlier one, £{own.amount:,}."})

    if outbid is not None:
        _release(outbid, locked[outbid.captain_id], user=user if outbid.captain_id == captain.pk else None)
    status = BidStatus.HELD
    if not is_open:
        # The highest sealed bid leads, ties to the earlier: a later bid takes the lead only by beating it.
        leader = held if held is not None and held.pk != (own.pk if own else None) else None
        if leader is not None and amount > leader.amount:
            leader.status = BidStatus.SEALED  # its money stays in escrow until the close
            leader.save(update_fields=["status"])
        elif leader is not None:
            status = BidStatus.SEALED
    bid = Bid.objects.create(auction=auction, captain=bidder, amount=amount, status=status, idempotency_key=key)
    try:
        ledger.post(
            bidder,
            -amount,
            EntryKind.ESCROW_HOLD,
            memo=f"Bid on {_lot_name(auction)} held in escrow",
            ship=auction.ship,
            auction=auction,
            idempotency_key=f"bid:{bid.pk}:hold",
            user=user,
        )
    except ledger.InsufficientFunds as error:
        raise ValidationError({"amount": str(error)}) from error
    return bid


# --- buying one's own prize outright -------------------------------------------------------------------------------


@transaction.atomic
def prize_buy_outright(*, auction_id: int, captain_id: int, user: User) -> Auction:
    """The captor buys his own prize ship at the crown's price while her auction is open (SGC-AUCT-03): every
    bid held on her is released, he pays the price in full from his bank, and still takes his tenth of it
    (SGC-AUCT-04), so she costs him nine tenths. Ship lots only (see the module's notes)."""
    auction = _lock_auction(auction_id)
    captain = _players_captain(captain_id, user, auction)
    if captain.pk != auction.captor_id:
        raise PermissionDenied("Only the captain who took the prize may buy her outright.")
    if auction.lot != LotKind.SHIP:
        raise ValidationError({"auction": "Only the prize ship can be bought outright; her cargo goes to auction."})
    _require_open(auction)
    active = list(Bid.objects.filter(auction=auction, status__in=ACTIVE_BIDS).select_related("auction__ship"))
    locked = locks.captains(auction.campaign, {captain.pk} | {bid.captain_id for bid in active})
    for bid in active:
        _release(bid, locked[bid.captain_id])
    buyer = locked[captain.pk]
    price = auction.reserve
    try:
        ledger.post(
            buyer,
            -price,
            EntryKind.AUCTION_PURCHASE,
            memo=f"Bought {_lot_name(auction)} outright at the crown's price",
            ship=auction.ship,
            auction=auction,
            idempotency_key=f"auction:{auction.pk}:purchase",
            user=user,
        )
    except ledger.InsufficientFunds as error:
        raise ValidationError({"amount": f"The prize costs £{price:,} in the bank first: {error}"}) from error
    now = timezone.now()
    auction.bought_outright = True
    _settle(auction, winner=buyer, price=price, captains=locked, now=now)
    _chronicle(
        auction.campaign,
        ChronicleKind.AUCTION_WON,
        f"Captain {buyer.name} buys his own prize {auction.ship.name} outright for £{price:,}.",
        buyer,
    )
    return auction


# --- the close ------------------------------------------------------------------------------------------------------


def _settle(
    auction: Auction, *, winner: Captain | None, price: int, captains: dict[int, Captain], now: datetime
) -> None:
    """Close the lot at ``price``: the ship to the winner's fleet with her damage (SGC-AUCT-05) or to the crown,
    and the captor's tenth of the price (SGC-MONEY-02, SGC-AUCT-02, SGC-CARGO-01/03)."""
    auction.status = AuctionStatus.CLOSED
    auction.closed_at = now
    auction.winner = winner
    auction.price = price
    auction.save(update_fields=["status", "closed_at", "winner", "price", "bought_outright"])
    ship = auction.ship
    if auction.lot == LotKind.SHIP:
        ship.captain = winner
        ship.status = ShipStatus.IN_PORT if winner is not None else ShipStatus.CROWN
        ship.city = auction.city
        ship.save(update_fields=["captain", "status", "city"])
    if auction.captor_id is not None:
        cargo = auction.lot == LotKind.CARGO
        share = economy.cargo_share(price) if cargo else economy.captain_share(price)
        if share:
            captor = captains[auction.captor_id]
            ledger.post(
                captor,
                share,
                EntryKind.CARGO_SHARE if cargo else EntryKind.PRIZE_SHARE,
                memo=f"A tenth of the £{price:,} paid for {_lot_name(auction)}",
                ship=ship,
                auction=auction,
                idempotency_key=f"auction:{auction.pk}:share",
            )
            _repay_advance(captor, share, auction)


def _repay_advance(captor: Captain, share: int, auction: Auction) -> None:
    """When the umpire made the advance a loan, a prize share goes to repay it first, as far as it reaches."""
    repaid = min(captor.advance_owed, share)
    if repaid <= 0:
        return
    ledger.post(
        captor,
        -repaid,
        EntryKind.LOAN_REPAYMENT,
        memo=f"The advance repaid from the share of {_lot_name(auction)}",
        auction=auction,
        idempotency_key=f"auction:{auction.pk}:repayment",
    )
    captor.advance_owed -= repaid
    captor.save(update_fields=["advance_owed"])


def _close(auction: Auction, *, now: datetime) -> None:
    """Close a locked, open auction: the held (highest) bid buys the lot, every other sealed bid is released;
    with no bid the crown buys at the reserve."""
    bids = list(Bid.objects.filter(auction=auction, status__in=ACTIVE_BIDS).select_related("auction__ship"))
    winning = next((bid for bid in bids if bid.status == BidStatus.HELD), None)
    price = winning.amount if winning is not None else auction.reserve
    resale = None
    if winning is not None and auction.lot == LotKind.CARGO:
        # The campaign row, which numbers the dice, was locked before the auction (campaign.locks).
        resale = dice.roll(
            auction.campaign,
            f"cargo of the {auction.ship.name} sold on (auction {auction.pk})",
            captain=winning.captain,
        ).result
    ids = {bid.captain_id for bid in bids} | ({auction.captor_id} if auction.captor_id else set())
    captains = locks.captains(auction.campaign, ids)
    for bid in bids:
        if bid is not winning:
            _release(bid, captains[bid.captain_id])
    winner = None
    if winning is not None:
        winner = captains[winning.captain_id]
        _release(winning, winner)  # the hold becomes the purchase: released, then paid, line by line
        winning.status = BidStatus.WON
        winning.save(update_fields=["status"])
        ledger.post(
            winner,
            -price,
            EntryKind.AUCTION_PURCHASE,
            memo=f"Bought {_lot_name(auction)} at auction",
            ship=auction.ship,
            auction=auction,
            idempotency_key=f"auction:{auction.pk}:purchase",
        )
        if resale is not None:
            value = economy.cargo_sale(auction.cargo_tons, resale)
            ledger.post(
                winner,
                value,
                EntryKind.CARGO_SALE,
                memo=f"{auction.cargo_tons} tons from the {auction.ship.name} sold on (die {resale})",
                ship=auction.ship,
                auction=auction,
                idempotency_key=f"auction:{auction.pk}:resale",
            )
    _settle(auction, winner=winner, price=price, captains=captains, now=now)
    buyer = f"Captain {winner.name}" if winner is not None else "The crown"
    _chronicle(
        auction.campaign,
        ChronicleKind.AUCTION_WON,
        f"{buyer} buys {_lot_name(auction)} at {_city_name(auction.city)} for £{price:,}.",
        winner,
    )


@transaction.atomic
def auction_close(*, auction_id: int, day: int | None = None) -> Auction:
    """Close an auction whose closing day has come (SGC-AUCT-01, SGC-CARGO): ``day`` is the day the calling tick
    runs, by default the campaign's last finished day. The held bid buys, or the crown at the reserve. Closing
    it again does nothing; before its day it is refused."""
    auction = _lock_auction(auction_id)
    if auction.status == AuctionStatus.CLOSED:
        return auction
    today = auction.campaign.day if day is None else day
    if auction.closes_on_day is not None and today < auction.closes_on_day:
        raise ValidationError(
            {"auction": f"The auction of {_lot_name(auction)} runs until the end of day {auction.closes_on_day}."}
        )
    _close(auction, now=timezone.now())
    return auction


def auctions_close_due(*, campaign_id: int, day: int) -> int:
    """The tick's auction step for ``day``: close every open auction of the campaign whose closing day is ``day``
    or earlier, each in its own transaction (campaign, auction, captains, ship: campaign.locks); how many this
    call closed. A re-run finds them closed and moves no money twice (the ledger's keys too)."""
    due = auction_selectors.auctions_due(campaign_id=campaign_id, day=day)
    for auction_id in due:
        auction_close(auction_id=auction_id, day=day)
    return len(due)
