"""Reads for the leaderboard, the wealth-over-time chart and the winner (SGC-WIN-01..05). Public: what they show
(a captain's name and player, fortune, prizes landed, weeks of epic trek survived, and alive, on a trek, dead or
captive) is what the campaign's leaderboard reveals to every member (DESIGN.md section 5). One query each,
however many captains and entries.

The money shown is the captain's fortune: his bank balance and the money his standing bids hold in escrow. A bid
takes money out of the bank into escrow (campaign.auctions), but it is still his until the auction closes and he
pays; counted out, a sealed bid would show its amount to every rival as a drop on the leaderboard and the chart.
So a bid placed, raised, outbid or released moves no fortune; the purchase at the close does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaign.models import (
    Bid,
    BidStatus,
    Campaign,
    Captain,
    CaptainStatus,
    EntryKind,
    LedgerEntry,
    LotKind,
    WinnerBy,
)

DAYS_PER_WEEK = 7
# Bids whose money is in escrow (as campaign.auctions holds it), and the ledger entries that move money between
# the bank and escrow: neither changes a fortune.
IN_ESCROW = (BidStatus.HELD, BidStatus.SEALED)
ESCROW_ENTRIES = (EntryKind.ESCROW_HOLD, EntryKind.ESCROW_RELEASE)

# Out of the campaign; and not home (out, or still walking an epic trek).
OUT = (CaptainStatus.LOST, CaptainStatus.CAPTURED, CaptainStatus.RETIRED)
NOT_HOME = (*OUT, CaptainStatus.TREKKING)


def _fortune_entries(campaign: Campaign) -> QuerySet[LedgerEntry]:
    """The campaign's ledger entries that move a fortune, in the order they were posted: every entry but the moves
    into and out of escrow (money held for a bid is still the bidder's)."""
    return LedgerEntry.objects.filter(captain__campaign=campaign).exclude(kind__in=ESCROW_ENTRIES).order_by("pk")


ALIVE, ON_TREK, DEAD, CAPTIVE, RETIRED = "Alive", "On an epic trek", "Dead", "Captive", "Retired"
# What every member is told of a captain's state: alive, on a trek, dead or captive, each as the chronicle tells
# it in the same transaction (a battle's result, a trek's start or end, the umpire's ruling). Never ashore, at sea
# or in battle: that would tell rivals that he sailed and that he fights, and a private battle is his, his
# player's and the umpire's (DESIGN.md section 5, SGC-ENC-19). His own page and the umpire's desk say where he is.
PUBLIC_STATUS = {
    CaptainStatus.ASHORE: ALIVE,
    CaptainStatus.AT_SEA: ALIVE,
    CaptainStatus.IN_BATTLE: ALIVE,
    CaptainStatus.TREKKING: ON_TREK,
    CaptainStatus.LOST: DEAD,
    CaptainStatus.CAPTURED: CAPTIVE,
    # Retired by the umpire's ruling (a player's captain stood down, SGC-START-14): out, and told as such.
    CaptainStatus.RETIRED: RETIRED,
}


def public_status(status: str) -> str:
    """What every member is told of a captain with this status (PUBLIC_STATUS)."""
    return PUBLIC_STATUS.get(CaptainStatus(status), ALIVE) if status in CaptainStatus.values else ALIVE


@dataclass(frozen=True)
class Standing:
    captain_id: int
    rank: int
    name: str
    player: str
    money: int
    prizes: int
    fame_weeks: int
    status: str


@dataclass(frozen=True)
class _Ranked:
    standing: Standing
    trek_winner: bool  # home from an epic trek longer than the time limit (SGC-WIN-04)
    goal_reached: bool  # reached the money goal (SGC-WIN-03)


def _goal_reached(campaign: Campaign) -> dict[int, int]:
    """When the campaign is won by a money goal: each captain whose fortune has reached it, with the ledger entry
    (its primary key, in the order money moved) at which it first did."""
    goal = campaign.money_goal
    if campaign.winner_by != WinnerBy.GOAL or goal is None:
        return {}
    reached: dict[int, int] = {}
    fortunes: dict[int, int] = {}
    entries = _fortune_entries(campaign).values_list("pk", "captain_id", "amount")
    for pk, captain_id, amount in entries:
        fortunes[captain_id] = fortunes.get(captain_id, 0) + amount
        if fortunes[captain_id] >= goal:
            reached.setdefault(captain_id, pk)
    return reached


def _ranked(campaign: Campaign) -> list[_Ranked]:
    """The captains in the campaign's order of winning (SGC-WIN-01..04):

    1. home from an epic trek longer than the time limit, the longest first: the true winner (SGC-WIN-04);
    2. with a money goal, those who reached it, in the order they did (SGC-WIN-03);
    3. the living (on an epic trek too) above the dead and the captive, when the umpire's setting
       ``rank_dead_below_living`` says so (the default): a dead man's money wins nothing;
    4. the richest first (SGC-WIN-01/02), then by prizes brought in and weeks of trek survived.

    Money is the fortune: the bank and the escrow of his standing bids (see the module's notes). One query, and
    one more for a campaign won by a money goal."""
    escrow = (
        Bid.objects.filter(captain=OuterRef("pk"), status__in=IN_ESCROW)
        .values("captain")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    rows = list(
        Captain.objects.filter(campaign=campaign)
        .select_related("player")
        # A prize counts once landed at a friendly city, where she goes to auction (SGC-MONEY-01/08): not while
        # in tow at sea, which would tell rivals that he fought and took her; lost on the way home, never.
        .annotate(prize_count=Count("prizes_taken", filter=Q(prizes_taken__auctions__lot=LotKind.SHIP), distinct=True))
        .annotate(fortune=F("balance") + Coalesce(Subquery(escrow), Value(0)))
        .order_by("-fortune", "-prize_count", "-fame_weeks", "name")
    )
    limit = campaign.time_limit_weeks
    reached = _goal_reached(campaign)
    never = max(reached.values(), default=0) + 1

    def trek_winner(c: Captain) -> bool:
        return limit is not None and c.fame_weeks > limit and c.status not in NOT_HOME

    def order(c: Any) -> tuple[int, int, int, int, int, int, int, str]:  # a Captain with the annotations
        trek = trek_winner(c)
        out = campaign.rank_dead_below_living and c.status in OUT
        return (
            0 if trek else 1,
            -c.fame_weeks if trek else 0,
            reached.get(c.pk, never),
            1 if out else 0,
            -c.fortune,
            -c.prize_count,
            -c.fame_weeks,
            c.name,
        )

    return [
        _Ranked(
            Standing(
                captain_id=c.pk,
                rank=n,
                name=c.name,
                player=c.player.display_name or c.player.username,
                money=c.fortune,
                prizes=c.prize_count,
                fame_weeks=c.fame_weeks,
                status=public_status(c.status),
            ),
            trek_winner=trek_winner(c),
            goal_reached=c.pk in reached,
        )
        for n, c in enumerate(sorted(rows, key=order), start=1)
    ]


def leaderboard(*, campaign: Campaign) -> list[Standing]:
    """The captains in the campaign's order of winning (see _ranked), first to last."""
    return [ranked.standing for ranked in _ranked(campaign)]


def ranked_by(campaign: Campaign) -> str:
    """How the leaderboard is ordered, in words, for the standings page."""
    if campaign.winner_by == WinnerBy.GOAL and campaign.money_goal is not None:
        words = f"first to £{campaign.money_goal:,}, then by money"
    else:
        words = "money"
    words += " (the bank and bids held in escrow)"
    if campaign.time_limit_weeks is not None:
        words = f"an epic trek longer than {campaign.time_limit_weeks} weeks first, then {words}"
    if campaign.rank_dead_below_living:
        words += "; the living above the dead"
    return words


def wealth_over_time(*, campaign: Campaign) -> dict[str, list[tuple[int, int]]]:
    """Each captain's fortune at the end of each campaign day his fortune moved: {name: [(day, fortune)]}.

    The fortune after an entry is the sum of his entries so far leaving out the moves into and out of escrow
    (the balance plus the escrow still held, as the ledger's books prove). A day on which he only bid is no
    point of his series: a point there, even at the same height, would tell that he bid."""
    series: dict[str, dict[int, int]] = {}
    fortunes: dict[str, int] = {}
    entries = _fortune_entries(campaign).values_list("captain__name", "day", "amount")
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
    (SGC-WIN-04): the leaderboard's first once the criterion is met, so that the verdict and the board agree.
    Trek weeks and campaign days share one calendar: seven days a week (SGC-WIN-05, designed)."""
    limit = campaign.time_limit_weeks
    ranked = _ranked(campaign)
    top = ranked[0] if ranked else None
    if top is not None and top.trek_winner:
        weeks = top.standing.fame_weeks
        return Verdict(top.standing.name, f"an epic trek of {weeks} weeks, longer than the {limit}-week limit")
    if campaign.winner_by == WinnerBy.GOAL and campaign.money_goal is not None:
        if top is not None and top.goal_reached:
            return Verdict(top.standing.name, f"first to £{campaign.money_goal:,}")
        return Verdict(None, f"nobody has reached £{campaign.money_goal:,} yet")
    if campaign.winner_by == WinnerBy.MONEY and limit is not None:
        if campaign.day < limit * DAYS_PER_WEEK:
            return Verdict(None, f"day {campaign.day} of {limit * DAYS_PER_WEEK}")
        if top is not None:
            return Verdict(top.standing.name, f"the most money at the {limit}-week limit")
        return Verdict(None, "no captains")
    return Verdict(None, "the umpire declares the winner")
