"""The one lock order for a campaign's rows. Every service that locks any of them takes them in this order, each
kind in primary-key order, and only through these functions:

    1. the campaign row           campaign()
    2. auction rows               auctions() / auction()
    3. the service's own subject  encounters, voyages, epic treks (their modules, select_for_update)
    4. captain rows               captains() / captain()   (campaign.ledger.lock_captains too)
    5. ship rows                  ships() / ship()

The campaign row comes first, always: a transaction that will lock anything of a campaign, or roll its dice
(campaign.dice numbers the rolls under the campaign row), locks the campaign row before anything else. So the
campaign row is the campaign's mutex, and two such transactions of one campaign never hold rows the other
wants: they queue at the first lock. (A prize's cargo close used to lock the campaign row for its die after its
auction, and its ship close the captains then the campaign row for a chronicle: PostgreSQL aborted one of the
two in 18 of 20 tries, tests/infra/test_lock_order.py.) The order below the campaign keeps transactions that
skip a kind apart, and says where a new kind goes.

Rows are locked FOR NO KEY UPDATE, not FOR UPDATE: no service changes a key or deletes a locked row, and the
weaker lock does not block another transaction's insert of a row that refers to it (a chronicle entry to the
campaign, a ledger entry to a ship), which FOR UPDATE would: a foreign-key check takes FOR KEY SHARE on the
row referred to, and that hidden lock was the other half of the deadlock.

The functions below ``campaign()`` take the locked campaign as their first argument, so a caller cannot lock a
captain, an auction or a ship without having locked the campaign first, and only the campaign's own rows are
locked. docs/campaign.md explains this for readers.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Model

from campaign.models import Auction, Campaign, CampaignShip, Captain

# Set on a Campaign that campaign() locked; the functions below refuse any other.
_LOCKED = "_locked_by_campaign_locks"


def _in_transaction() -> None:
    assert transaction.get_connection().in_atomic_block, "rows are locked inside a transaction"


def _require_locked(campaign: Campaign) -> None:
    if not getattr(campaign, _LOCKED, False):
        raise AssertionError(
            "lock the campaign row first (campaign.locks.campaign), then auctions, captains, ships: one lock order"
        )


def is_locked(campaign: Campaign) -> bool:
    """Whether this Campaign is the one campaign() locked (campaign.dice refuses any other)."""
    return bool(getattr(campaign, _LOCKED, False))


def campaign(campaign_id: int) -> Campaign:
    """The campaign, locked for the rest of the transaction: the first lock a campaign's service takes. Locking it
    again in the same transaction waits for nothing."""
    _in_transaction()
    locked = Campaign.objects.select_for_update(no_key=True).get(pk=campaign_id)
    setattr(locked, _LOCKED, True)
    return locked


def auctions(campaign: Campaign, ids: Iterable[int]) -> dict[int, Auction]:
    """The campaign's auctions among ``ids``, locked in pk order (with their ship, unlocked, for reading)."""
    _in_transaction()
    _require_locked(campaign)
    found = (
        Auction.objects.select_for_update(no_key=True, of=("self",))
        .select_related("ship")
        .filter(campaign=campaign, pk__in=sorted(set(ids)))
        .order_by("pk")
    )
    result = {}
    for auction in found:
        auction.campaign = campaign
        result[auction.pk] = auction
    return result


def auction(campaign: Campaign, auction_id: int) -> Auction | None:
    return auctions(campaign, [auction_id]).get(auction_id)


def captains(campaign: Campaign, ids: Iterable[int]) -> dict[int, Captain]:
    """The campaign's captains among ``ids``, locked in pk order."""
    _in_transaction()
    _require_locked(campaign)
    found = Captain.objects.select_for_update(no_key=True).filter(campaign=campaign, pk__in=sorted(set(ids)))
    result = {}
    for captain in found.order_by("pk"):
        captain.campaign = campaign
        result[captain.pk] = captain
    return result


def captain(campaign: Campaign, captain_id: int) -> Captain | None:
    return captains(campaign, [captain_id]).get(captain_id)


def ships(campaign: Campaign, ids: Iterable[int]) -> dict[int, CampaignShip]:
    """The campaign's ships among ``ids``, locked in pk order."""
    _in_transaction()
    _require_locked(campaign)
    found = CampaignShip.objects.select_for_update(no_key=True, of=("self",)).filter(
        campaign=campaign, pk__in=sorted(set(ids))
    )
    result = {}
    for ship in found.order_by("pk"):
        ship.campaign = campaign
        result[ship.pk] = ship
    return result


def ship(campaign: Campaign, ship_id: int) -> CampaignShip | None:
    return ships(campaign, [ship_id]).get(ship_id)


def campaign_of(model: type[Model], pk: int) -> Campaign | None:
    """Lock the campaign a row belongs to (its ``campaign_id``, read unlocked first: a row never moves to another
    campaign); None when there is no such row. A service that starts from an auction, a captain, a ship, a voyage
    or a trek calls this before it locks anything else."""
    campaign_id = model._default_manager.filter(pk=pk).values_list("campaign_id", flat=True).first()
    return None if campaign_id is None else campaign(campaign_id)
