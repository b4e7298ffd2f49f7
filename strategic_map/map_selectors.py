"""The fog of war: what one member may see on a campaign's map (DESIGN.md section 5).

A player sees the map itself, his own captains' voyages under way (where each ship is and her standing plan), his
own ships in port, the encounter reports of his own voyages and his own epic treks; never another captain's ship,
plan, encounter or trek. The umpire sees every voyage, encounter and trek. The map page, the map API and the
umpire's desk all read through :func:`map_sight`, so there is one place where the fog is decided.

A bounded number of queries whatever the number of voyages: the membership, the campaign's map rules, then one
query each for voyages, encounters (and their voyages), treks and ships in port.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404

from accounts.models import User
from campaign.models import Campaign, CampaignShip, CaptainStatus, Membership, Role, ShipStatus
from strategic_map import drawing, map_rules, mapdata
from strategic_map.models import Encounter, EpicTrek, TrekStatus, Voyage, VoyageDay, VoyageStatus

# The newest encounter reports a page or an answer lists; older ones stay in the chronicle.
REPORTS_LIMIT = 200


@dataclass(frozen=True)
class MapSight:
    """Everything one member may see on the campaign's map, read once."""

    campaign: Campaign
    membership: Membership
    numbers: Mapping[str, map_rules.EncounterNumbers]
    voyages: tuple[Voyage, ...]
    encounters: tuple[Encounter, ...]
    treks: tuple[EpicTrek, ...]
    ships_in_port: tuple[CampaignShip, ...]

    @property
    def is_umpire(self) -> bool:
        return self.membership.role == Role.UMPIRE


def _membership(*, user: User, slug: str) -> Membership:
    membership = Membership.objects.filter(user=user, campaign__slug=slug).select_related("campaign").first()
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def visible_voyages(*, membership: Membership) -> QuerySet[Voyage]:
    """The voyages under way this member may see: his own captains', or all of them for the umpire."""
    voyages = (
        Voyage.objects.filter(campaign_id=membership.campaign_id, status=VoyageStatus.UNDER_WAY)
        .select_related("ship", "captain")
        .order_by("captain__name", "ship__name", "pk")
    )
    if membership.role == Role.UMPIRE:
        return voyages
    return voyages.filter(captain__player_id=membership.user_id)


def visible_encounters(*, membership: Membership) -> QuerySet[Encounter]:
    """The encounter reports this member may see, newest first: those of his own voyages (linked by
    ``Encounter.voyages`` or by a ``VoyageDay``), or every one for the umpire. Each comes with the voyages of it
    the member may see (``seen_voyages``), so a report names only his own ships."""
    encounters = Encounter.objects.filter(campaign_id=membership.campaign_id)
    voyages = Voyage.objects.select_related("ship", "captain").order_by("pk")
    if membership.role != Role.UMPIRE:
        own_voyages = Voyage.objects.filter(
            campaign_id=membership.campaign_id, captain__player_id=membership.user_id
        ).values("pk")
        by_link = Encounter.voyages.through.objects.filter(voyage_id__in=own_voyages).values("encounter_id")
        by_day = VoyageDay.objects.filter(voyage_id__in=own_voyages, encounter__isnull=False).values("encounter_id")
        encounters = encounters.filter(Q(pk__in=by_link) | Q(pk__in=by_day))
        voyages = voyages.filter(captain__player_id=membership.user_id)
    return encounters.prefetch_related(Prefetch("voyages", queryset=voyages, to_attr="seen_voyages")).order_by(
        "-day", "-pk"
    )


def visible_treks(*, membership: Membership) -> QuerySet[EpicTrek]:
    """The epic treks under way this member may see: his own captains', or all for the umpire."""
    treks = EpicTrek.objects.filter(campaign_id=membership.campaign_id, status=TrekStatus.UNDER_WAY).select_related(
        "captain"
    )
    if membership.role == Role.UMPIRE:
        return treks.order_by("captain__name", "pk")
    return treks.filter(captain__player_id=membership.user_id).order_by("captain__name", "pk")


def own_ships_in_port(*, membership: Membership) -> QuerySet[CampaignShip]:
    """The member's own captains' ships lying in port: the ships he may send on a voyage from the map. Only those
    of a captain ashore (strategic_map.voyages sails with him aboard): one lost, captured, retired or walking home
    on an epic trek is offered none until he is back."""
    return (
        CampaignShip.objects.filter(
            campaign_id=membership.campaign_id,
            captain__player_id=membership.user_id,
            captain__status=CaptainStatus.ASHORE,
            status=ShipStatus.IN_PORT,
        )
        .select_related("captain")
        .order_by("captain__name", "name", "pk")
    )


def map_sight_for(*, membership: Membership) -> MapSight:
    """What this member may see on his campaign's map (the umpire's desk calls this with his membership)."""
    campaign = membership.campaign
    return MapSight(
        campaign=campaign,
        membership=membership,
        numbers=map_rules.territory_numbers(campaign),
        voyages=tuple(visible_voyages(membership=membership)),
        encounters=tuple(visible_encounters(membership=membership)[:REPORTS_LIMIT]),
        treks=tuple(visible_treks(membership=membership)),
        ships_in_port=tuple(own_ships_in_port(membership=membership)),
    )


def map_sight(*, user: User, slug: str) -> MapSight:
    """What the user may see on the map of the campaign with this slug; Http404 for a non-member."""
    return map_sight_for(membership=_membership(user=user, slug=slug))


# --- from what is seen to what is drawn ------------------------------------------------------------------------------


def city_hex(name: str) -> mapdata.MapHex | None:
    """The hex of a city by name (any case), or None for a place not on the map."""
    mars = mapdata.mars_map()
    try:
        city = mars.city(name)
    except mapdata.UnknownMapName:
        return None
    return mars.hex_at_offset(city.col, city.row)


def plan_days(plan: object) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A stored plan as each day's hexes (a patrol day has none). A malformed day is read as no movement, so a
    bad plan never breaks the page that shows it."""
    days: list[tuple[tuple[int, int], ...]] = []
    if not isinstance(plan, list):
        return ()
    for day in plan:
        path = day.get("path") if isinstance(day, dict) and day.get("kind") == "move" else None
        hexes: list[tuple[int, int]] = []
        for step in path if isinstance(path, list) else ():
            if isinstance(step, list | tuple) and len(step) == 2 and all(type(v) is int for v in step):
                hexes.append((step[0], step[1]))
        days.append(tuple(hexes))
    return tuple(days)


def overlays(sight: MapSight) -> drawing.Overlays:
    """What the drawing puts on the map for this reader: nothing beyond what ``sight`` holds."""
    own = sight.membership.user_id
    ships = [
        drawing.ShipMark(
            id=v.ship_id,
            name=v.ship.name,
            captain=v.captain.name,
            q=v.q,
            r=v.r,
            own=v.captain.player_id == own,
            status="under way",
        )
        for v in sight.voyages
    ]
    for ship in sight.ships_in_port:
        where = city_hex(ship.city)
        if where is not None and ship.captain is not None:
            ships.append(
                drawing.ShipMark(
                    id=ship.pk,
                    name=ship.name,
                    captain=ship.captain.name,
                    q=where.q,
                    r=where.r,
                    status=f"in port at {ship.city.title()}",
                )
            )
    routes = [drawing.RouteMark(ship=v.ship.name, start=(v.q, v.r), days=plan_days(v.plan)) for v in sight.voyages]
    encounters = [
        drawing.EncounterMark(id=e.pk, day=e.day, q=e.q, r=e.r, result=e.result, territory=e.territory)
        for e in sight.encounters
    ]
    treks = [
        drawing.TrekMark(id=t.pk, captain=t.captain.name, q=t.q, r=t.r, party=t.party, status=t.get_status_display())
        for t in sight.treks
    ]
    return drawing.Overlays(ships=ships, routes=routes, encounters=encounters, treks=treks)


def map_svg(sight: MapSight) -> str:
    """The campaign's map with what this reader may see on it."""
    return drawing.map_svg(sight.numbers, overlays(sight), umpire=sight.membership.is_umpire)
