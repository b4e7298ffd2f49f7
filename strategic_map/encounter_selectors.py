"""Reads of encounters, under the fog of war (DESIGN.md section 5): a player reads the reports of the encounters
his own captains' ships were in, what his ships saw (the day, the hex, the table's line, the ships met by class
and crew, the battle); the umpire reads every encounter of his campaign. Anything else is indistinguishable from
an encounter that does not exist (Http404). No report carries the campaign's seed or a die to come."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign, Membership, Role
from campaign.selectors import membership_for_user
from galleons import catalog
from strategic_map import mapdata
from strategic_map.models import Encounter


@dataclass(frozen=True)
class ShipMet:
    name: str
    category: str
    class_id: str
    class_name: str
    crew_quality: str
    boarding_quality: str
    high_martian: bool
    towed_by: str


@dataclass(frozen=True)
class EncounterReport:
    id: int
    campaign: str
    day: int
    q: int
    r: int
    hex: str
    territory: str
    result: str
    table_die: int | None
    status: str
    captains: list[str]
    our_ships: list[str]
    ships_met: list[ShipMet]
    battle_id: int | None
    battle_url: str | None


def _visible(*, user: User, membership: Membership) -> QuerySet[Encounter]:
    encounters = Encounter.objects.filter(campaign=membership.campaign)
    if membership.role != Role.UMPIRE:
        encounters = encounters.filter(voyages__captain__player=user).distinct()
    return encounters.select_related("campaign", "table_roll").prefetch_related(
        "ships", "voyages__captain", "voyages__ship"
    )


def _class_name(class_id: str) -> str:
    try:
        return catalog.ship_class(class_id).name
    except catalog.UnknownShipClass:
        return class_id


def _label(q: int, r: int) -> str:
    """The hex's CCRR label on the map, or "" for one off it."""
    try:
        return mapdata.mars_map().hex_at(q, r).label
    except LookupError:
        return ""


def _report(encounter: Encounter) -> EncounterReport:
    voyages = sorted(encounter.voyages.all(), key=lambda voyage: voyage.pk)
    return EncounterReport(
        id=encounter.pk,
        campaign=encounter.campaign.slug,
        day=encounter.day,
        q=encounter.q,
        r=encounter.r,
        hex=_label(encounter.q, encounter.r),
        territory=encounter.territory,
        result=encounter.result,
        table_die=encounter.table_roll.result if encounter.table_roll is not None else None,
        status=encounter.status,
        captains=sorted({voyage.captain.name for voyage in voyages}),
        our_ships=[voyage.ship.name for voyage in voyages],
        ships_met=[
            ShipMet(
                name=ship.name,
                category=ship.category,
                class_id=ship.class_id,
                class_name=_class_name(ship.class_id),
                crew_quality=ship.crew_quality,
                boarding_quality=ship.boarding_quality,
                high_martian=ship.high_martian,
                towed_by=ship.towed_by,
            )
            for ship in encounter.ships.all()
        ],
        battle_id=encounter.battle_id,
        battle_url=reverse("battle_detail", args=[encounter.battle_id]) if encounter.battle_id else None,
    )


def encounters_for_member(*, user: User, campaign: Campaign) -> list[EncounterReport]:
    """The encounter reports the member may read in the campaign, oldest first. Http404 for a non-member."""
    membership = membership_for_user(user=user, slug=campaign.slug)
    return [_report(encounter) for encounter in _visible(user=user, membership=membership).order_by("day", "pk")]


def encounter_for_member(*, user: User, encounter_id: int) -> EncounterReport:
    """One encounter's report if the user may read it; Http404 otherwise (not a member, not his ships')."""
    campaign_id = Encounter.objects.filter(pk=encounter_id).values_list("campaign_id", flat=True).first()
    membership = (
        None
        if campaign_id is None
        else Membership.objects.filter(user=user, campaign_id=campaign_id).select_related("campaign").first()
    )
    if membership is None:
        raise Http404("No such encounter.")
    encounter = _visible(user=user, membership=membership).filter(pk=encounter_id).first()
    if encounter is None:
        raise Http404("No such encounter.")
    return _report(encounter)
