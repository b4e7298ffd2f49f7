"""The campaign's dice (outside battles): deterministic from the campaign's secret seed and the roll's number,
each stored with its purpose (CampaignRoll), so an export replays them and the umpire can read every one.

Rolls are numbered under a lock on the campaign row: two transactions never take the same number. The caller
passes the campaign it locked first (campaign.locks.campaign), as the one lock order asks: a die rolled after
captains or ships were locked would take the campaign row last, crosswise to every other service."""

from __future__ import annotations

import hashlib
import hmac

from django.db import transaction
from django.db.models import Max

from campaign import locks
from campaign.models import Campaign, CampaignRoll, Captain


def _locked(campaign: Campaign) -> Campaign:
    assert transaction.get_connection().in_atomic_block, "roll inside a transaction"
    if not locks.is_locked(campaign):
        raise AssertionError("roll the campaign's dice with its row locked first (campaign.locks.campaign)")
    # Its seed and day, re-read: the caller holds the row's lock, so no other transaction has changed them since.
    return Campaign.objects.only("pk", "seed", "day").get(pk=campaign.pk)


def die_for(seed: str, seq: int, sides: int) -> int:
    """Roll ``seq`` of a campaign with this seed: an unbiased 1..sides from HMAC-SHA256 (rejection sampling)."""
    counter = 0
    limit = 256**8 - (256**8 % sides)
    while True:
        digest = hmac.new(bytes.fromhex(seed), f"roll {seq} {counter}".encode(), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % sides + 1
        counter += 1


def roll(campaign: Campaign, purpose: str, *, sides: int = 6, captain: Captain | None = None) -> CampaignRoll:
    """Roll one die for ``purpose`` and log it. Inside a transaction, the campaign locked (campaign.locks)."""
    locked = _locked(campaign)
    last = CampaignRoll.objects.filter(campaign=locked).aggregate(last=Max("seq"))["last"] or 0
    seq = last + 1
    return CampaignRoll.objects.create(
        campaign=locked,
        seq=seq,
        day=locked.day,
        purpose=purpose[:200],
        sides=sides,
        result=die_for(locked.seed, seq, sides),
        captain=captain,
    )


def roll_many(
    campaign: Campaign, wants: list[tuple[str, int, Captain | None]], *, day: int | None = None
) -> list[CampaignRoll]:
    """Roll one die for each (purpose, sides, captain) in order and log them all: one lock, one read, one insert,
    however many dice (the daily tick rolls for every ship at sea). Inside a transaction."""
    if not wants:
        return []
    locked = _locked(campaign)
    last = CampaignRoll.objects.filter(campaign=locked).aggregate(last=Max("seq"))["last"] or 0
    rolls = [
        CampaignRoll(
            campaign=locked,
            seq=last + offset,
            day=locked.day if day is None else day,
            purpose=purpose[:200],
            sides=sides,
            result=die_for(locked.seed, last + offset, sides),
            captain=captain,
        )
        for offset, (purpose, sides, captain) in enumerate(wants, start=1)
    ]
    # Not relying on bulk_create returning ids (SQLite before 3.35 does not): callers that need them re-read.
    CampaignRoll.objects.bulk_create(rolls)
    return list(CampaignRoll.objects.filter(campaign=locked, seq__gt=last, seq__lte=last + len(rolls)).order_by("seq"))
