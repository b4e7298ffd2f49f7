"""Writes for captains: founding one (the colonial administration's advance, SGC-START-09/10), and the umpire's
money adjustments and status changes, each with its reason in the audit (DESIGN.md section 6)."""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from campaign import auctions, captain_selectors, ledger, locks, standings
from campaign.models import (
    CAPTAIN_AWAY,
    CAPTAIN_GONE,
    AuditEntry,
    Campaign,
    Captain,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    Membership,
    Role,
)

MAX_ADJUSTMENT = 10_000_000
# The rank the pages, the chronicle and the news already put before a captain's name: typed into the name too, it
# would read "Captain Captain Robert Drummond".
RANK = re.compile(r"^(?:captain|capt\.?|cpt\.?)(?:\s+|$)", re.IGNORECASE)


def captain_name(name: str) -> str:
    """A captain's name as kept: spaces tidied, and any rank typed before it taken off ("Captain Jack" is Jack)."""
    name = " ".join(name.split())
    while (stripped := RANK.sub("", name, count=1).strip()) != name:
        name = stripped
    if not name:
        raise ValidationError({"name": "A captain needs a name (the rank comes with the commission)."})
    if len(name) > 80:
        raise ValidationError({"name": "A captain's name is 80 letters at most."})
    return name


def _membership(campaign: Campaign, user: User) -> Membership:
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        raise PermissionDenied("You are not in this campaign.")
    return membership


def require_umpire(campaign: Campaign, user: User, *, what: str = "do this") -> None:
    """The umpire's rulings on captains and ships (campaign.corrections too): refused to anyone else."""
    if _membership(campaign, user).role != Role.UMPIRE:
        raise PermissionDenied(f"Only the campaign's umpire may {what}.")


def audit_reason(reason: str) -> str:
    """The reason an umpire's change is audited with, tidied; refused when there is none."""
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    return reason[:300]


@transaction.atomic
def captain_found(*, campaign: Campaign, user: User, name: str) -> Captain:
    """A player takes a Red Captain's commission: the captain starts ashore at Parhoon with the colonial
    administration's advance in the bank (SGC-START-09/12), a loan to repay if the umpire says so.

    SGC-START-14: one captain per player at a time; after a loss or a retirement a new one only as the campaign's
    ``new_captain_after_death`` allows, with or without a fresh advance. The player's membership row is locked
    first, so two requests at once queue and the second is refused; the database's unique constraint on living
    captains (captain_one_living_per_player) holds it too."""
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None:
        raise PermissionDenied("You are not in this campaign.")
    campaign = Campaign.objects.get(pk=campaign.pk)  # the settings as they are now, not as the caller read them
    commission = captain_selectors.commission_for(campaign=campaign, user=user, role=membership.role)
    if commission.refusal is not None:
        if membership.role != Role.PLAYER:
            raise PermissionDenied(commission.refusal)
        raise ValidationError({"name": commission.refusal})
    name = captain_name(name)
    advance = campaign.starting_advance if commission.advance else 0
    try:
        with transaction.atomic():
            captain = Captain.objects.create(
                campaign=campaign,
                player=user,
                name=name,
                status=CaptainStatus.ASHORE,
                city="parhoon",
                advance_owed=advance if campaign.advance_is_loan else 0,
            )
    except IntegrityError as error:
        if Captain.objects.filter(campaign=campaign, player=user).exclude(status__in=CAPTAIN_GONE).exists():
            raise ValidationError({"name": "You already hold a Red Captain's commission in this campaign."}) from error
        raise ValidationError({"name": f"There is already a Captain {name} in this campaign."}) from error
    captain = ledger.lock_captain(captain.pk)
    if advance:
        ledger.post(
            captain,
            advance,
            EntryKind.ADVANCE,
            memo="The colonial administration's advance to build and fit out a ship at Parhoon",
            user=user,
        )
    ChronicleEntry.objects.create(
        campaign=campaign,
        day=campaign.day,
        kind=ChronicleKind.CAPTAIN_FOUNDED,
        text=f"Captain {name} takes a Red Captain's commission at Parhoon.",
        captain=captain,
    )
    return captain


@transaction.atomic
def captain_adjust_money(*, captain_id: int, umpire: User, amount: int, reason: str) -> Captain:
    """The umpire puts money into or takes it out of a captain's bank, with a reason (audited). A balance still
    never goes below nothing."""
    captain = ledger.lock_captain(captain_id)
    require_umpire(captain.campaign, umpire)
    reason = audit_reason(reason)
    if amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise ValidationError({"amount": f"An adjustment moves between £1 and £{MAX_ADJUSTMENT:,}, in or out."})
    try:
        ledger.post(captain, amount, EntryKind.ADJUSTMENT, memo="Umpire's adjustment", reason=reason, user=umpire)
    except ledger.InsufficientFunds as error:
        raise ValidationError({"amount": str(error)}) from error
    AuditEntry.objects.create(
        campaign=captain.campaign,
        actor=umpire,
        action="money adjusted",
        captain=captain,
        reason=reason,
        data={"amount": amount, "balance_after": captain.balance},
    )
    return captain


# What the chronicle tells when the umpire's ruling changes what every member is told of a captain (alive, on a
# trek, dead, captive: campaign.standings.PUBLIC_STATUS): his fate, never where he is nor the umpire's reason.
_FATE_TOLD = {
    standings.DEAD: (ChronicleKind.CAPTAIN_LOST, "Captain {name} is dead."),
    standings.CAPTIVE: (ChronicleKind.CAPTAIN_LOST, "Captain {name} is taken captive."),
    standings.ON_TREK: (ChronicleKind.TREK_STARTED, "Captain {name} sets out on an epic trek home."),
    standings.RETIRED: (ChronicleKind.CAPTAIN_LOST, "Captain {name} retires from the service."),
}
_RETURN_TOLD = {
    standings.DEAD: "Captain {name} is found alive.",
    standings.CAPTIVE: "Captain {name} is free again.",
    standings.ON_TREK: "Captain {name} comes home from his epic trek.",
    standings.RETIRED: "Captain {name} returns to the service.",
}


def _chronicle_fate(captain: Captain, *, before: str) -> None:
    """The standings tell a captain's fate only once the chronicle has: the umpire's change of it is told too."""
    was, now = standings.public_status(before), standings.public_status(captain.status)
    if was == now:
        return
    if now == standings.ALIVE:
        kind, text = ChronicleKind.CAPTAIN_RETURNS, _RETURN_TOLD[was]
    else:
        kind, text = _FATE_TOLD[now]
    campaign = captain.campaign
    ChronicleEntry.objects.create(
        campaign=campaign, day=campaign.day, kind=kind, text=text.format(name=captain.name)[:300], captain=captain
    )


@transaction.atomic
def captain_set_status(*, captain_id: int, umpire: User, status: str, reason: str, city: str = "") -> Captain:
    """The umpire changes what a captain is doing (ashore, at sea, captured, retired...), with a reason (audited).

    A captain who goes out of reach of the prize court (lost, retired, captured, on an epic trek) has his bids in
    escrow released in the same transaction (campaign.auctions.captain_bids_release; the auctions locked before
    him, as the auction services lock). Bringing a lost or retired captain back is refused while his player holds
    another living captain (SGC-START-14)."""
    if status not in CaptainStatus.values:
        raise ValidationError({"status": f"A captain's status is one of {', '.join(CaptainStatus.values)}."})
    campaign = locks.campaign_of(Captain, captain_id)
    captain = None
    if campaign is not None:
        auctions.auctions_lock_for_captains(campaign, [captain_id])  # after the campaign, before the captain
        captain = locks.captain(campaign, captain_id)
    if captain is None:
        raise ValidationError({"captain": "There is no such captain."})
    require_umpire(captain.campaign, umpire)
    reason = audit_reason(reason)
    if status not in CAPTAIN_GONE and captain.status in CAPTAIN_GONE:
        other = (
            Captain.objects.filter(campaign=captain.campaign, player_id=captain.player_id)
            .exclude(status__in=CAPTAIN_GONE)
            .exclude(pk=captain.pk)
            .first()
        )
        if other is not None:
            raise ValidationError(
                {"status": f"The player already has a living captain, Captain {other.name} (SGC-START-14)."}
            )
    before = {"status": captain.status, "city": captain.city}
    captain.status = status
    if city:
        captain.city = city[:60]
    captain.save(update_fields=["status", "city"])
    released = auctions.captain_bids_release(captain=captain) if status in CAPTAIN_AWAY else 0
    _chronicle_fate(captain, before=str(before["status"]))
    AuditEntry.objects.create(
        campaign=captain.campaign,
        actor=umpire,
        action="status changed",
        captain=captain,
        reason=reason,
        data={
            "before": before,
            "after": {"status": captain.status, "city": captain.city},
            **({"bids_released": released} if released else {}),
        },
    )
    return captain
