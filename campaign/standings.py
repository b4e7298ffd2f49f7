"""Reads for the leaderboard, the wealth-over-time chart and the winner (SGC-WIN-01..05). Public: what they show
(a captain's name, money, prizes brought in, weeks of epic trek) is what the campaign's leaderboard reveals to
every member (DESIGN.md section 5). One query each, however many captains and entries.

The money shown is the captain's fortune: his bank balance and the money his standing bids hold in escrow. A bid
takes money out of the bank into escrow (campaign.auctions), but it is still his until the auction closes and he
pays; counted out, a sealed bid would show its amount to every rival as a drop on the leaderboard and the chart.
So a bid placed, raised, outbid or released moves no fortune; the purchase at the close does."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaign.models import (
    Bid,
    BidStatus,
    Campaign,
    Captain,
    CaptainStatus,
    EntryKind,
    LedgerEntry,
    ShipStatus,
    WinnerBy,
)

DAYS_PER_WEEK = 7
# Bids whose money is in escrow (as campaign.auctions holds it), and the ledger entries that move money between
# the bank and escrow: neither changes a fortune.
IN_ESCROW = (BidStatus.HELD, BidStatus.SEALED)
ESCROW_ENTRIES = (EntryKind.ESCROW_HOLD, EntryKind.ESCROW_RELEASE)

ALIVE, ON_TREK, DEAD, CAPTIVE = "Alive", "On an epic trek", "Dead", "Captive"
# What every member is told of a captain's state: alive, on a trek, dead or captive, each as the chronicle tells
# it in the same transaction (a battle's result, a trek's end). Never ashore, at sea or in battle: that would tell
# rivals that he sailed and that he fights, and a private battle is his, his player's and the umpire's
# (DESIGN.md section 5, SGC-ENC-19). His own page and the umpire's desk say where he is.
PUBLIC_STATUS = {
    CaptainStatus.ASHORE: ALIVE,
    CaptainStatus.AT_SEA: ALIVE,
    CaptainStatus.IN_BATTLE: ALIVE,
    CaptainStatus.TREKKING: ON_TREK,
    CaptainStatus.LOST: DEAD,
    CaptainStatus.CAPTURED: CAPTIVE,
}


@dataclass(frozen=True)
class Standing:
    captain_id: int
    name: str
    player: str
    money: int
    prizes: int
    fame_weeks: int
    status: str


def leaderboard(*, campaign: Campaign) -> list[Standing]:
    """The captains, richest first (money is the score, SGC-WIN-01), then by prizes and fame. Money is the
    fortune: the bank and the escrow of his standing bids (see the module's notes)."""
    escrow = (
        Bid.objects.filter(captain=OuterRef("pk"), status__in=IN_ESCROW)
        .values("captain")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    rows = (
        Captain.objects.filter(campaign=campaign)
        .select_related("player")
        # A prize counts once brought in: lost on the way home, she does not (SGC-MONEY-01).
        .annotate(prize_count=Count("prizes_taken", filter=~Q(prizes_taken__status=ShipStatus.LOST)))
        .annotate(fortune=F("balance") + Coalesce(Subquery(escrow), Value(0)))
        .order_by("-fortune", "-prize_count", "-fame_weeks", "name")
    )
    return [
        Standing(
            captain_id=c.pk,
            name=c.name,
            player=c.player.display_name or c.player.username,
            money=c.fortune,
            prizes=c.prize_count,
            fame_weeks=c.fame_weeks,
            status=PUBLIC_STATUS.get(CaptainStatus(c.status), ALIVE),
        )
        for c in rows
    ]


def wealth_over_time(*, campaign: Campaign) -> dict[str, list[tuple[int, int]]]:
    """Each captain's fortune at the end of each campaign day his fortune moved: {name: [(day, fortune)]}.

    The fortune after an entry is the sum of his entries so far leaving out the moves into and out of escrow
    (the balance plus the escrow still held, as the ledger's books prove). A day on which he only bid is no
    point of his series: a point there, even at the same height, would tell that he bid."""
    series: dict[str, dict[int, int]] = {}
    fortunes: dict[str, int] = {}
    entries = (
        LedgerEntry.objects.filter(captain__campaign=campaign)
        .exclude(kind__in=ESCROW_ENTRIES)
        .order_by("pk")
        .values_list("captain__name", "day", "amount")
    )
    for name, day, amount in entries:
        fortunes[name] = fortunes.get(name, 0) + amount
        series.setdefault(name, {})[day] = fortunes[name]
    return {name: sorted(days.items()) for name, days in series.items()}


@dataclass(frozen=True)
class Verdict:
    """Who has won, and why; ``winner`` None while the campaign goes on (or waits for the umpire)."""

    winner: str | None
    reason: str


def winner(*, campaign: Campaign) -> Verdict:
    """The umpire's chosen criterion (SGC-WIN-02/03), overruled by an epic trek longer than the time limit
    (SGC-WIN-04). Trek weeks and campaign days share one calendar: seven days a week (SGC-WIN-05, designed)."""
    limit = campaign.time_limit_weeks
    if limit is not None:
        trekker = (
            Captain.objects.filter(campaign=campaign, fame_weeks__gt=limit)
            .exclude(status__in=[CaptainStatus.LOST, CaptainStatus.CAPTURED, CaptainStatus.TREKKING])
            .order_by("-fame_weeks", "pk")
            .first()
        )
        if trekker is not None:
            return Verdict(
                trekker.name, f"an epic trek of {trekker.fame_weeks} weeks, longer than the {limit}-week limit"
            )
    if campaign.winner_by == WinnerBy.GOAL and campaign.money_goal is not None:
        first = (
            LedgerEntry.objects.filter(captain__campaign=campaign, balance_after__gte=campaign.money_goal)
            .order_by("pk")
            .values_list("captain__name", flat=True)
            .first()
        )
        if first is not None:
            return Verdict(first, f"first to £{campaign.money_goal:,}")
        return Verdict(None, f"nobody has reached £{campaign.money_goal:,} yet")
    if campaign.winner_by == WinnerBy.MONEY and limit is not None:
        if campaign.day < limit * DAYS_PER_WEEK:
            return Verdict(None, f"day {campaign.day} of {limit * DAYS_PER_WEEK}")
        board = leaderboard(campaign=campaign)
        if board:
            return Verdict(board[0].name, f"the most money at the {limit}-week limit")
        return Verdict(None, "no captains")
    return Verdict(None, "the umpire declares the winner")
