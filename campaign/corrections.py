"""The umpire's corrections of a slip at the table, made in the app rather than the admin: a captain's name, a
ship's name and her crew's quality. Each is the umpire's alone, needs a reason, and is entered in the audit with
what it was and became (DESIGN.md section 6). Money, status and position have their own audited services
(campaign.captains, the desk); a ship's damage and guns change only by battle, repair and refit.
"""

from __future__ import annotations

from dataclasses import replace

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from battles.engine.words import without_article
from campaign import locks
from campaign import yard_selectors as sel
from campaign.captains import audit_reason, captain_name, require_umpire
from campaign.models import AuditEntry, CampaignShip, Captain, CrewQuality, ShipStatus


def _ship_name(name: str) -> str:
    """A ship's name as the yard keeps it: spaces tidied and a typed article dropped (the pages say "the Gull")."""
    name = without_article(" ".join(name.split()))
    if not name:
        raise ValidationError({"name": "A ship needs a name."})
    if len(name) > 80:
        raise ValidationError({"name": "A ship's name is 80 letters at most."})
    return name


@transaction.atomic
def captain_rename(*, captain_id: int, umpire: User, name: str, reason: str) -> Captain:
    """Correct a captain's name (still unique in the campaign). The chronicle keeps the name it was written with."""
    campaign = locks.campaign_of(Captain, captain_id)
    captain = None if campaign is None else locks.captain(campaign, captain_id)
    if captain is None:
        raise ValidationError({"captain": "There is no such captain."})
    require_umpire(captain.campaign, umpire, what="correct this")
    reason = audit_reason(reason)
    name = captain_name(name)  # as founded: no rank typed before it
    before = captain.name
    if name == before:
        return captain
    captain.name = name
    try:
        with transaction.atomic():
            captain.save(update_fields=["name"])
    except IntegrityError as error:
        raise ValidationError({"name": f"There is already a Captain {name} in this campaign."}) from error
    AuditEntry.objects.create(
        campaign=captain.campaign,
        actor=umpire,
        action="captain renamed",
        captain=captain,
        reason=reason,
        data={"before": {"name": before}, "after": {"name": name}},
    )
    return captain


@transaction.atomic
def ship_correct(*, ship_id: int, umpire: User, name: str, crew_quality: str, reason: str) -> CampaignShip:
    """Correct a ship's name and her crew's quality; her record (what a battle reads) follows. Not while she is
    in a battle: the battle fights with the record it was given, and its result would undo the correction."""
    campaign = locks.campaign_of(CampaignShip, ship_id)
    ship = None if campaign is None else locks.ship(campaign, ship_id)
    if ship is None:
        raise ValidationError({"ship": "There is no such ship."})
    require_umpire(ship.campaign, umpire, what="correct this")
    reason = audit_reason(reason)
    name = _ship_name(name)
    if crew_quality not in CrewQuality.values:
        raise ValidationError({"crew_quality": f"A crew is one of {', '.join(CrewQuality.values)}."})
    if ship.status == ShipStatus.IN_BATTLE:
        raise ValidationError({"ship": f"The {ship.name} is in a battle: correct her once it is over."})
    before = {"name": ship.name, "crew_quality": ship.crew_quality}
    after = {"name": name, "crew_quality": crew_quality}
    if before == after:
        return ship
    ship.name, ship.crew_quality = name, crew_quality
    ship.record = replace(sel.ship_record(ship), name=name, crew_quality=crew_quality).to_json()
    ship.save(update_fields=["name", "crew_quality", "record"])
    changed = [key for key in before if before[key] != after[key]]
    AuditEntry.objects.create(
        campaign=ship.campaign,
        actor=umpire,
        action="ship corrected",
        captain=ship.captain,
        reason=reason,
        data={"before": {k: before[k] for k in changed}, "after": {k: after[k] for k in changed}, "ship": ship.pk},
    )
    return ship
