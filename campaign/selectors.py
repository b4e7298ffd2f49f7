"""Reads for campaigns and memberships.

Every selector that returns campaign data takes the requesting user and filters by membership, so a view
cannot forget to: a campaign the user is not in is indistinguishable from one that does not exist (404).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, Count, F, IntegerField, QuerySet, Value, When
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from battles import engine_io
from campaign.models import Campaign, Invitation, Membership, Notification, Role


def memberships_for_user(*, user: User) -> QuerySet[Membership]:
    """The user's memberships, each with its campaign and the campaign's member count.

    One query however many campaigns: the campaign comes by a join and the count by GROUP BY.
    """
    return (
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(member_count=Count("campaign__memberships", distinct=True))
        .order_by("campaign__name", "campaign__pk")
    )


def membership_for_user(*, user: User, slug: str) -> Membership:
    """The user's membership of the campaign with this slug, campaign included; Http404 for a non-member."""
    membership = Membership.objects.filter(user=user, campaign__slug=slug).select_related("campaign").first()
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def campaign_for_user(*, user: User, slug: str) -> Campaign:
    """The campaign with this slug if the user is a member of it; Http404 otherwise."""
    return membership_for_user(user=user, slug=slug).campaign


def campaign_members(*, campaign: Campaign) -> QuerySet[Membership]:
    """The campaign's members, umpires first, then by name."""
    return (
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .annotate(
            # Umpires first: the role strings do not sort that way alphabetically.
            role_rank=Case(When(role=Role.UMPIRE, then=Value(0)), default=Value(1), output_field=IntegerField())
        )
        .order_by("role_rank", "user__username")
    )


def campaign_invitations(*, campaign: Campaign) -> QuerySet[Invitation]:
    """All of the campaign's invitations, newest first. Only umpires may be shown these."""
    return Invitation.objects.filter(campaign=campaign).select_related("created_by").order_by("-created_at", "-pk")


def invitation_by_token(*, token: str) -> Invitation:
    """The invitation with this token, open or not (the caller explains a closed one); Http404 if none."""
    invitation = Invitation.objects.filter(token=token).select_related("campaign").first()
    if invitation is None:
        raise Http404("No such invitation.")
    return invitation


def invitation_status(invitation: Invitation) -> str:
    """One word for the invitation's state, as the umpire's list shows it: open, withdrawn, used up or
    expired (in that order of precedence: a withdrawn link stays withdrawn whatever else is true)."""
    if invitation.revoked:
        return "withdrawn"
    if invitation.uses >= invitation.max_uses:
        return "used up"
    if invitation.expires_at <= timezone.now():
        return "expired"
    return "open"


def membership_of(*, campaign: Campaign, user: User) -> Membership | None:
    """The user's membership of this campaign, or None."""
    return Membership.objects.filter(campaign=campaign, user=user).first()


def notifications_for_user(*, user: User) -> QuerySet[Notification]:
    """The user's notifications, unread first, newest first, with their campaign."""
    return (
        Notification.objects.filter(user=user)
        .select_related("campaign")
        .order_by(F("read_at").desc(nulls_first=True), "-created_at", "-pk")
    )


def unread_notification_count(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def battle_rules(campaign: Campaign) -> dict[str, Any]:
    """The tactical rules the campaign's battles are fought under, in words for its page: the ruleset's title, and
    each option the campaign plays otherwise than the rules as written ("yes"/"no" for a switch)."""
    try:
        rs = engine_io.ruleset_for(campaign.tactical_ruleset)
    except KeyError:
        return {"title": campaign.tactical_ruleset, "changes": []}
    own = campaign.tactical_options if isinstance(campaign.tactical_options, dict) else {}
    changes = []
    for spec in rs.options:
        if spec.key in own and own[spec.key] != spec.default:
            value = own[spec.key]
            words = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            changes.append(f"{spec.description[:1].upper()}{spec.description[1:]}: {words}")
    return {"title": rs.title or rs.key, "changes": changes}
