"""The umpire's campaign settings (DESIGN.md section 4): changed only by the umpire, with a reason, audited with
what each setting was and became (DESIGN.md section 6)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from accounts.models import User
from campaign.models import AuditEntry, Campaign, Membership, Role

# What the umpire may set here; the day, the seed and the slug are the campaign's own.
SETTINGS = (
    "name",
    "description",
    "hours_per_day",
    "order_deadline_hours",
    "tactical_ruleset",
    "tactical_options",
    "auction_style",
    "auction_hours",
    "holdback_voyages",
    "merchant_cargo_fraction",
    "time_limit_weeks",
    "money_goal",
    "winner_by",
    "starting_advance",
    "advance_is_loan",
    "starting_quality",
    "starting_yard",
    "recruit_cost_per_man",
    # SGC-START-14: a new captain after a player's is lost or retired, and with what money.
    "new_captain_after_death",
    # SGC-TREK-25: which reading of the epic trek losses the campaign plays.
    "encounter_control",
    "trek_losses",
    "webhook_url",
)


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


@transaction.atomic
def campaign_update_settings(*, campaign_id: int, umpire: User, changes: dict[str, Any], reason: str) -> Campaign:
    """Apply ``changes`` (setting -> new value) to the campaign; each is validated by the model's own fields."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    if not Membership.objects.filter(campaign=campaign, user=umpire, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire may change its settings.")
    reason = " ".join(reason.split())[:300]
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise ValidationError({"settings": f"Not settings the umpire changes here: {', '.join(unknown)}."})
    before = {key: _plain(getattr(campaign, key)) for key in changes}
    for key, value in changes.items():
        setattr(campaign, key, value)
    campaign.full_clean(exclude=[f.name for f in Campaign._meta.fields if f.name not in changes])
    changed = {key: _plain(getattr(campaign, key)) for key in changes if _plain(getattr(campaign, key)) != before[key]}
    if not changed:
        return campaign
    if campaign.winner_by == "goal" and campaign.money_goal is None:
        raise ValidationError({"money_goal": "A money goal is needed to win by reaching it."})
    campaign.save(update_fields=list(changed))
    AuditEntry.objects.create(
        campaign=campaign,
        actor=umpire,
        action="settings changed",
        reason=reason,
        data={"before": {k: before[k] for k in changed}, "after": changed},
    )
    return campaign
