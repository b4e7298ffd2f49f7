"""Reads for captains, their ledgers and the chronicle. A player sees his own captains and their books; the umpire
sees every captain; anything else answers 404 (DESIGN.md section 5). The chronicle is public to members, but for
the entries that would place a captain now (OWN_ENTRIES)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import Http404

from accounts.models import User
from campaign.models import (
    CAPTAIN_GONE,
    Campaign,
    CampaignShip,
    Captain,
    ChronicleEntry,
    ChronicleKind,
    LedgerEntry,
    Membership,
    NewCaptain,
    Role,
)


def _membership(*, user: User, campaign: Campaign) -> Membership:
    membership = Membership.objects.filter(user=user, campaign=campaign).first()
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def captains_for_user(*, user: User, campaign: Campaign) -> QuerySet[Captain]:
    """The captains this member may open: his own, or every one for the umpire."""
    membership = _membership(user=user, campaign=campaign)
    captains = Captain.objects.filter(campaign=campaign).select_related("player").order_by("name", "pk")
    return captains if membership.role == Role.UMPIRE else captains.filter(player=user)


@dataclass(frozen=True)
class Commission:
    """Whether this member may found a captain now, and if not why (SGC-START-14): ``refusal`` is the sentence the
    page shows in place of the form and the service raises; ``advance`` whether the new captain gets the colonial
    administration's advance (a first captain always does, a later one as the campaign's settings say)."""

    refusal: str | None
    advance: bool


def commission_for(*, campaign: Campaign, user: User, role: str) -> Commission:
    """SGC-START-14: one Red Captain per player. A player holding a living captain (not lost or retired; captured
    counts as living, the rules leave him an exchange) may not found another; after a loss or a retirement, a new
    one only as ``Campaign.new_captain_after_death`` allows. The umpire founds none. One query."""
    if role != Role.PLAYER:
        return Commission("Captains are the players'; the umpire runs the campaign.", advance=False)
    own = list(Captain.objects.filter(campaign=campaign, player=user).order_by("-created_at", "-pk"))
    living = next((c for c in own if c.status not in CAPTAIN_GONE), None)
    if living is not None:
        return Commission(
            f"You already hold a Red Captain's commission in this campaign: Captain {living.name}. "
            "A player has one captain at a time (SGC-START-14).",
            advance=False,
        )
    if not own:
        return Commission(None, advance=True)
    last = own[0]
    if campaign.new_captain_after_death == NewCaptain.NEVER:
        return Commission(
            f"Captain {last.name} is {last.get_status_display().lower()}, and this campaign's umpire gives no new "
            "commission after a captain's end.",
            advance=False,
        )
    return Commission(None, advance=campaign.new_captain_after_death == NewCaptain.FRESH_ADVANCE)


def captain_for_user(*, user: User, captain_id: int) -> Captain:
    """A captain the user may open, campaign included; Http404 for anyone else's (or none)."""
    captain = Captain.objects.select_related("campaign", "player").filter(pk=captain_id).first()
    if captain is None:
        raise Http404("No such captain.")
    membership = Membership.objects.filter(user=user, campaign_id=captain.campaign_id).first()
    if membership is None or (membership.role != Role.UMPIRE and captain.player_id != user.pk):
        raise Http404("No such captain.")
    return captain


def captain_ledger(*, captain: Captain) -> QuerySet[LedgerEntry]:
    """The captain's statement, newest first."""
    return LedgerEntry.objects.filter(captain=captain).select_related("ship").order_by("-pk")


def captain_ships(*, captain: Captain) -> QuerySet[CampaignShip]:
    return CampaignShip.objects.filter(captain=captain).order_by("name", "pk")


# Entries that would tell where a captain is now: told to his own player and the umpire only. A captain's ship
# "kept her station" for want of orders says that he is at sea (DESIGN.md section 5).
OWN_ENTRIES = (ChronicleKind.ORDERS_MISSED,)


def chronicle(*, membership: Membership) -> QuerySet[ChronicleEntry]:
    """The campaign's record as this member reads it, newest first: public, but for the entries of OWN_ENTRIES,
    which a player reads of his own captains only (the umpire of all)."""
    entries = ChronicleEntry.objects.filter(campaign_id=membership.campaign_id)
    if membership.role != Role.UMPIRE:
        entries = entries.exclude(Q(kind__in=OWN_ENTRIES) & ~Q(captain__player_id=membership.user_id))
    return entries.order_by("-pk")


def ship_for_user(*, user: User, ship_id: int) -> CampaignShip:
    """A ship the user may open: his own captain's, or any of the campaign's for its umpire, with her captain and
    campaign; Http404 for anyone else's (or none). One query and the membership's."""
    ship = CampaignShip.objects.select_related("campaign", "captain").filter(pk=ship_id).first()
    if ship is None:
        raise Http404("No such ship.")
    membership = Membership.objects.filter(user=user, campaign_id=ship.campaign_id).first()
    own = ship.captain is not None and ship.captain.player_id == user.pk
    if membership is None or (membership.role != Role.UMPIRE and not own):
        raise Http404("No such ship.")
    return ship
