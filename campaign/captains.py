"""Writes for captains: founding one (the colonial administration's advance, SGC-START-09/10), and the umpire's
money adjustments and status changes, each with its reason in the audit (DESIGN.md section 6)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from campaign import ledger, standings
from campaign.models import (
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


def _membership(campaign: Campaign, user: User) -> Membership:
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        raise PermissionDenied("You are not in this campaign.")
    return membership


def _require_umpire(campaign: Campaign, user: User) -> None:
    if _membership(campaign, user).role != Role.UMPIRE:
        raise PermissionDenied("Only the campaign's umpire may do this.")


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    return reason[:300]


@transaction.atomic
def captain_found(*, campaign: Campaign, user: User, name: str) -> Captain:
    """A player takes a Red Captain's commission: the captain starts ashore at Parhoon with the colonial
    administration's advance in the bank (SGC-START-09/12), a loan to repay if the umpire says so."""
    if _membership(campaign, user).role != Role.PLAYER:
        raise PermissionDenied("Captains are the players'; the umpire runs the campaign.")
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": "A captain needs a name."})
    if len(name) > 80:
        raise ValidationError({"name": "A captain's name is 80 letters at most."})
    try:
        with transaction.atomic():
            captain = Captain.objects.create(
                campaign=campaign,
                player=user,
                name=name,
                status=CaptainStatus.ASHORE,
                city="parhoon",
                advance_owed=campaign.starting_advance if campaign.advance_is_loan else 0,
            )
    except IntegrityError as error:
        raise ValidationError({"name": f"There is already a Captain {name} in this campaign."}) from error
    captain = ledger.lock_captain(captain.pk)
    if campaign.starting_advance:
        ledger.post(
            captain,
            campaign.starting_advance,
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
    _require_umpire(captain.campaign, umpire)
    reason = _reason(reason)
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
}
_RETURN_TOLD = {
    standings.DEAD: "Captain {name} is found alive.",
    standings.CAPTIVE: "Captain {name} is free again.",
    standings.ON_TREK: "Captain {name} comes home from his epic trek.",
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
    """The umpire changes what a captain is doing (ashore, at sea, captured...), with a reason (audited)."""
    captain = ledger.lock_captain(captain_id)
    _require_umpire(captain.campaign, umpire)
    reason = _reason(reason)
    if status not in CaptainStatus.values:
        raise ValidationError({"status": f"A captain's status is one of {', '.join(CaptainStatus.values)}."})
    before = {"status": captain.status, "city": captain.city}
    captain.status = status
    if city:
        captain.city = city[:60]
    captain.save(update_fields=["status", "city"])
    _chronicle_fate(captain, before=str(before["status"]))
    AuditEntry.objects.create(
        campaign=captain.campaign,
        actor=umpire,
        action="status changed",
        captain=captain,
        reason=reason,
        data={"before": before, "after": {"status": captain.status, "city": captain.city}},
    )
    return captain
