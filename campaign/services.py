"""Writes for campaigns, memberships and invitations.

Keyword-only and atomic. Consuming an invitation locks its row first, so two people racing for the last
use of a link cannot both get in (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE transaction
already serialises writers).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from campaign import locks
from campaign.models import AuditEntry, Campaign, Invitation, Membership, Role
from campaign.selectors import invitation_status
from campaign.settings_service import SETTINGS, plain_settings, settings_problems

INVITATION_MAX_USES_LIMIT = 100
INVITATION_MAX_DAYS = 90


class InvitationClosedError(Exception):
    """The invitation exists but can no longer be used; the message says why, in words for the user."""


CLOSED_REASONS = {
    "withdrawn": "This invitation has been withdrawn by the umpire.",
    "used up": "This invitation has already been used as many times as the umpire allowed.",
    "expired": "This invitation has expired.",
}


def invitation_closed_reason(invitation: Invitation) -> str | None:
    """Why this invitation cannot be used, in words for the person holding the link; None if it is open."""
    return CLOSED_REASONS.get(invitation_status(invitation))


# Addresses a campaign may not have: /campaigns/new/ is the "New campaign" page.
RESERVED_SLUGS = frozenset({"new"})


def _unique_campaign_slug(name: str) -> str:
    base = slugify(name)[:50] or "campaign"
    slug = base
    suffix = 2
    while slug in RESERVED_SLUGS or Campaign.objects.filter(slug=slug).exists():
        slug = f"{base}-{suffix}"
        suffix += 1
    return slug


CAMPAIGN_CREATED_REASON = "Campaign founded"


@transaction.atomic
def campaign_create(
    *,
    name: str,
    created_by: User,
    description: str = "",
    slug: str = "",
    campaign_settings: Mapping[str, Any] | None = None,
    hold_calendar: bool = False,
    now: datetime | None = None,
) -> Campaign:
    """Create a campaign ready to play; its creator becomes its umpire.

    ``campaign_settings`` are the umpire's settings (campaign.settings_service.SETTINGS; the rules' defaults for
    the rest), checked as the settings page checks them. The map needs nothing of its own: a campaign reads the
    reference map's numbers until the umpire edits them on the desk (strategic_map.map_rules). The calendar starts
    now, the first day ticking one campaign day later, unless ``hold_calendar``: then the campaign waits, paused,
    until the umpire resumes it (or runs a day) from the desk. The creation is in the audit with the settings
    chosen.
    """
    values: dict[str, Any] = dict(campaign_settings or {})
    unknown = sorted(set(values) - set(SETTINGS))
    if unknown:
        raise ValidationError({"settings": f"Not campaign settings: {', '.join(unknown)}."})
    values["name"] = " ".join(name.split())
    values["description"] = description.strip()
    if not values["name"]:
        raise ValidationError({"name": "A campaign needs a name."})
    if slug and (slug in RESERVED_SLUGS or Campaign.objects.filter(slug=slug).exists()):
        raise ValidationError({"slug": "Another campaign already uses this address."})
    now = now or timezone.now()
    campaign = Campaign(created_by=created_by, created_at=now, paused=hold_calendar, **values)
    campaign.slug = slug or _unique_campaign_slug(values["name"])
    campaign.clean_fields()  # each value checked and converted first, so that the checks below read real values
    problems = settings_problems(campaign)
    if problems:
        raise ValidationError(problems)
    # The address's uniqueness is the database's to settle (the insert below): a check here could not see a campaign
    # founded a moment later under the same name.
    campaign.full_clean(exclude=["slug"])
    if not hold_calendar:
        campaign.next_tick_at = now + timedelta(hours=campaign.hours_per_day)
    for _attempt in range(3):
        try:
            with transaction.atomic():  # a savepoint: someone may take the same address between check and insert
                campaign.save(force_insert=True)
            break
        except IntegrityError:
            if slug:
                raise ValidationError({"slug": "Another campaign already uses this address."}) from None
            campaign.slug = _unique_campaign_slug(values["name"])
    else:
        raise ValidationError({"name": "Another campaign was just given this name's address; try again."})
    Membership.objects.create(campaign=campaign, user=created_by, role=Role.UMPIRE, joined_at=now)
    AuditEntry.objects.create(
        campaign=campaign,
        actor=created_by,
        action="campaign created",
        reason=CAMPAIGN_CREATED_REASON,
        # The settings it starts with, each as "setting: value" on the desk's audit (nothing came before them).
        data={**plain_settings(campaign), "paused": campaign.paused},
        created_at=now,
    )
    return campaign


# --- the umpire's members ----------------------------------------------------------------------------------------


def _member_to_change(*, campaign_id: int, umpire: User, membership_id: int, reason: str) -> tuple[Membership, str]:
    """The member the umpire changes, with the campaign row locked (so two umpires cannot both step down at once)
    and the reason tidied; refusals in words."""
    if not Campaign.objects.filter(pk=campaign_id).exists():
        raise PermissionDenied("Only the campaign's umpire manages its members.")
    campaign = locks.campaign(campaign_id)
    if not Membership.objects.filter(campaign=campaign, user=umpire, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire manages its members.")
    reason = " ".join(reason.split())[:300]
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    member = Membership.objects.select_related("user", "campaign").filter(pk=membership_id, campaign=campaign).first()
    if member is None:
        raise ValidationError({"member": "There is no such member of this campaign."})
    return member, reason


def _refuse_if_last_umpire(member: Membership, what: str) -> None:
    others = Membership.objects.filter(campaign_id=member.campaign_id, role=Role.UMPIRE).exclude(pk=member.pk)
    if member.role == Role.UMPIRE and not others.exists():
        raise ValidationError({"member": f"A campaign needs an umpire: make another member umpire before {what}."})


def _refuse_if_captains(member: Membership, what: str) -> None:
    names = list(member.campaign.captains.filter(player=member.user).values_list("name", flat=True))
    if names:
        captains = ", ".join(f"Captain {name}" for name in names)
        raise ValidationError({"member": f"{member.user.public_name} plays {captains}: a captain's player {what}."})


def _audit_member(member: Membership, umpire: User, action: str, reason: str, before: str, after: str) -> None:
    AuditEntry.objects.create(
        campaign=member.campaign,
        actor=umpire,
        action=action,
        reason=reason,
        data={"before": {"member": member.user.username, "role": before}, "after": {"role": after}},
    )


@transaction.atomic
def membership_set_role(*, campaign_id: int, umpire: User, membership_id: int, role: str, reason: str) -> Membership:
    """The umpire makes a member a player or a fellow umpire, with a reason (audited). Captains are the players'
    (campaign.captains.captain_found), so a member who plays a captain stays a player; the campaign keeps an umpire.
    Setting the role a member has changes nothing."""
    member, reason = _member_to_change(
        campaign_id=campaign_id, umpire=umpire, membership_id=membership_id, reason=reason
    )
    if role not in Role.values:
        raise ValidationError({"role": "Choose player or umpire."})
    if member.role == role:
        return member
    if role == Role.UMPIRE:
        _refuse_if_captains(member, "stays a player")
    else:
        _refuse_if_last_umpire(member, "stepping down")
    before = member.role
    member.role = role
    member.save(update_fields=["role"])
    _audit_member(member, umpire, "member role changed", reason, before, role)
    return member


@transaction.atomic
def membership_remove(*, campaign_id: int, umpire: User, membership_id: int, reason: str) -> None:
    """The umpire takes a member out of the campaign, with a reason (audited): one who joined by mistake. Not a
    captain's player (his captain would be left without one), nor anyone deciding for a side in a battle still
    being fought, nor the campaign's last umpire."""
    member, reason = _member_to_change(
        campaign_id=campaign_id, umpire=umpire, membership_id=membership_id, reason=reason
    )
    _refuse_if_last_umpire(member, "this one leaves")
    _refuse_if_captains(member, "stays in the campaign while the captain does")
    fighting = member.user.battle_sides.filter(battle__campaign_id=member.campaign_id).exclude(
        battle__status="finished"
    )
    if fighting.exists():
        raise ValidationError({"member": f"{member.user.public_name} decides for a side in a battle not yet over."})
    _audit_member(member, umpire, "member removed", reason, member.role, "removed")
    member.delete()


def _require_umpire(*, campaign: Campaign, user: User) -> None:
    if not Membership.objects.filter(campaign=campaign, user=user, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire may manage its invitations.")


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    created_by: User,
    role: str = Role.PLAYER,
    max_uses: int = 1,
    expires_at: datetime | None = None,
) -> Invitation:
    """A new invitation link for the campaign. Only an umpire of the campaign may create one."""
    _require_umpire(campaign=campaign, user=created_by)
    now = timezone.now()
    expires_at = expires_at or now + timedelta(days=14)
    errors: dict[str, str] = {}
    if role not in Role.values:
        errors["role"] = "Choose player or umpire."
    if not 1 <= max_uses <= INVITATION_MAX_USES_LIMIT:
        errors["max_uses"] = f"Allow between 1 and {INVITATION_MAX_USES_LIMIT} uses."
    if not now < expires_at <= now + timedelta(days=INVITATION_MAX_DAYS):
        errors["expires_at"] = f"The link must expire in the future, within {INVITATION_MAX_DAYS} days."
    if errors:
        raise ValidationError(errors)
    return Invitation.objects.create(
        campaign=campaign, created_by=created_by, role=role, max_uses=max_uses, expires_at=expires_at
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, revoked_by: User) -> Invitation:
    """Withdraw an invitation so that nobody else can join with it. Revoking twice is harmless."""
    _require_umpire(campaign=invitation.campaign, user=revoked_by)
    if not invitation.revoked:
        invitation.revoked = True
        invitation.save(update_fields=["revoked"])
    return invitation


def _lock_open_invitation(*, token: str) -> Invitation:
    """The invitation, row-locked until the end of the transaction; InvitationClosedError if unusable."""
    invitation = Invitation.objects.select_for_update(of=("self",)).filter(token=token).first()
    if invitation is None:
        raise InvitationClosedError("There is no invitation at this address.")
    reason = invitation_closed_reason(invitation)
    if reason:
        raise InvitationClosedError(reason)
    return invitation


def _consume_use(invitation: Invitation) -> None:
    invitation.uses += 1
    invitation.save(update_fields=["uses"])


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> tuple[Membership, bool]:
    """A signed-in user joins the invitation's campaign with the invitation's role.

    Returns (membership, created). Someone who is already a member keeps the membership (and role) they
    have, and the invitation keeps its use for someone else.
    """
    invitation = _lock_open_invitation(token=token)
    existing = Membership.objects.filter(campaign_id=invitation.campaign_id, user=user).first()
    if existing is not None:
        return existing, False
    membership = Membership.objects.create(campaign_id=invitation.campaign_id, user=user, role=invitation.role)
    _consume_use(invitation)
    return membership, True


@transaction.atomic
def user_register_with_invitation(
    *, token: str, username: str, password: str, email: str = "", display_name: str = ""
) -> Membership:
    """Create an account and its membership of the invitation's campaign, using one use of the link."""
    invitation = _lock_open_invitation(token=token)
    username = username.strip()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": "That user name is taken; choose another."})
    user = User(username=username, email=email.strip(), display_name=display_name.strip())
    validate_password(password, user)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    try:
        with transaction.atomic():  # a savepoint, so the outer transaction survives a lost race
            user.save()
    except IntegrityError as exc:
        # Someone took the same name between the check above and this insert.
        raise ValidationError({"username": "That user name is taken; choose another."}) from exc
    membership = Membership.objects.create(campaign_id=invitation.campaign_id, user=user, role=invitation.role)
    _consume_use(invitation)
    return membership
