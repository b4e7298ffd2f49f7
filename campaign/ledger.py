"""The captains' money: every movement is a ledger entry written here, inside the caller's transaction, with the
captains concerned locked first, in the one lock order of campaign.locks (their campaign's row, then the
captains in primary-key order), so two transactions touching the same captains never wait on each other
crosswise. A balance never goes below nothing: the entry is refused before it is written, and the
database's check constraints refuse it again if anything slipped past.

``check`` proves a captain's books: the entries sum to the balance and each leaves the balance the next one
starts from. It raises; the Hypothesis machine and ``manage.py check_ledgers`` call it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Sum

from accounts.models import User
from campaign import locks
from campaign.models import Auction, Campaign, CampaignShip, Captain, EntryKind, LedgerEntry


class InsufficientFunds(Exception):
    """The captain cannot pay: the message says how much he has and how much was asked."""

    def __init__(self, captain: Captain, amount: int) -> None:
        self.captain = captain
        self.amount = amount
        super().__init__(f"{captain.name} has £{captain.balance:,} in the bank; £{-amount:,} is asked.")


class LedgerMismatch(AssertionError):
    """A captain's books do not add up: a bug, never a user's mistake."""


def lock_captains(ids: Iterable[int]) -> dict[int, Captain]:
    """The captains, locked for the rest of the transaction, after their campaign's row (campaign.locks' order).
    For a service whose first lock this is; one that has locked its campaign already uses locks.captains."""
    assert transaction.get_connection().in_atomic_block, "lock captains inside a transaction"
    wanted = sorted(set(ids))
    campaign_ids = sorted(set(Captain.objects.filter(pk__in=wanted).values_list("campaign_id", flat=True)))
    found: dict[int, Captain] = {}
    for campaign_id in campaign_ids:  # one campaign in practice; several in campaign-id order
        found |= locks.captains(locks.campaign(campaign_id), wanted)
    return found


def lock_captain(captain_id: int) -> Captain:
    return lock_captains([captain_id])[captain_id]


def post(
    captain: Captain,
    amount: int,
    kind: str,
    *,
    memo: str = "",
    reason: str = "",
    ship: CampaignShip | None = None,
    auction: Auction | None = None,
    idempotency_key: str = "",
    user: User | None = None,
) -> LedgerEntry:
    """Move ``amount`` pounds into (positive) or out of (negative) the captain's bank. The captain must have been
    locked by this transaction (lock_captains). The same idempotency key again gives back the first entry."""
    assert transaction.get_connection().in_atomic_block, "money moves inside a transaction"
    if kind not in EntryKind.values:
        raise ValueError(f"no ledger entry kind {kind!r}")
    if idempotency_key:
        earlier = LedgerEntry.objects.filter(captain=captain, idempotency_key=idempotency_key).first()
        if earlier is not None:
            return earlier
    if amount == 0:
        raise ValueError("a ledger entry moves money")
    after = captain.balance + amount
    if after < 0:
        raise InsufficientFunds(captain, amount)
    campaign: Campaign = captain.campaign
    entry = LedgerEntry.objects.create(
        captain=captain,
        amount=amount,
        balance_after=after,
        kind=kind,
        memo=memo[:200],
        reason=reason[:300],
        day=campaign.day,
        ship=ship,
        auction=auction,
        idempotency_key=idempotency_key,
        created_by=user,
    )
    captain.balance = after
    captain.save(update_fields=["balance"])
    return entry


def check(captain: Captain) -> None:
    """Raise LedgerMismatch unless the captain's entries sum to his balance, run without a gap, and none leaves
    the balance below nothing."""
    captain.refresh_from_db(fields=["balance"])
    total = LedgerEntry.objects.filter(captain=captain).aggregate(total=Sum("amount"))["total"] or 0
    if total != captain.balance:
        raise LedgerMismatch(f"{captain}: entries sum to {total}, the balance is {captain.balance}")
    running = 0
    for amount, balance_after in (
        LedgerEntry.objects.filter(captain=captain).order_by("pk").values_list("amount", "balance_after")
    ):
        running += amount
        if running != balance_after or balance_after < 0:
            raise LedgerMismatch(
                f"{captain}: an entry of {amount} leaves {balance_after}; the running sum is {running}"
            )


def check_campaign(campaign: Campaign) -> int:
    """Check every captain's books in the campaign; the number checked."""
    captains = list(Captain.objects.filter(campaign=campaign))
    for captain in captains:
        check(captain)
    return len(captains)
