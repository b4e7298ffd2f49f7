"""Reads for voyages (fog of war, DESIGN.md section 5): a player reads his own captains' voyages; the umpire reads
every voyage of his campaign; anything else answers 404, so another captain's position and plan never leave the
server. Also the reads the voyage services and the preview share: a ship's movement today, where a plan starts,
how many of its days are past their deadline, and the check of a plan."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from campaign.models import Campaign, CampaignShip, Membership, Role, ShipStatus
from strategic_map import calendar, map_rules, voyage_rules
from strategic_map.mapdata import City, UnknownMapName, mars_map
from strategic_map.models import OrderExtension, Voyage, VoyageStatus

# The largest id a row can have (a BigAutoField): a bigger one is no row, not a database error.
MAX_ID = 2**63 - 1


def _as_id(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).strip()
    if not text.isdigit() or len(text) > 19 or int(text) > MAX_ID:
        return None
    return int(text)


def _membership(*, user: User, campaign_id: int) -> Membership | None:
    return Membership.objects.filter(user=user, campaign_id=campaign_id).first()


def _is_umpire(membership: Membership | None) -> bool:
    return membership is not None and membership.role == Role.UMPIRE


def voyages_for_user(*, user: User, campaign: Campaign) -> QuerySet[Voyage]:
    """The voyages this member may read: his own captains', or every one for the umpire. Newest first."""
    membership = _membership(user=user, campaign_id=campaign.pk)
    if membership is None:
        raise Http404("No such campaign.")
    voyages = Voyage.objects.filter(campaign=campaign).select_related("campaign", "ship", "captain").order_by("-pk")
    return voyages if _is_umpire(membership) else voyages.filter(captain__player=user)


def voyage_for_user(*, user: User, voyage_id: object) -> Voyage:
    """A voyage the user may read (his captain's, or any for the umpire); Http404 for anyone else's or none."""
    wanted = _as_id(voyage_id)
    voyage = (
        None
        if wanted is None
        else Voyage.objects.select_related("campaign", "ship", "captain").filter(pk=wanted).first()
    )
    if voyage is None:
        raise Http404("No such voyage.")
    if voyage.captain.player_id != user.pk and not _is_umpire(_membership(user=user, campaign_id=voyage.campaign_id)):
        raise Http404("No such voyage.")
    return voyage


def own_ship(*, user: User, campaign: Campaign, ship_id: object) -> CampaignShip:
    """One of the user's own captains' ships in this campaign (the umpire commands none); Http404 otherwise."""
    wanted = _as_id(ship_id)
    ship = (
        None
        if wanted is None
        else CampaignShip.objects.select_related("campaign", "captain")
        .filter(pk=wanted, campaign=campaign, captain__player=user)
        .first()
    )
    if ship is None:
        raise Http404("No such ship.")
    return ship


def under_way(*, ship: CampaignShip) -> Voyage | None:
    return Voyage.objects.filter(ship=ship, status=VoyageStatus.UNDER_WAY).select_related("campaign").first()


# --- what the rules need from the database ---------------------------------------------------------------------


def port_city(ship: CampaignShip) -> City | None:
    """The map's city the ship is in port at (CampaignShip.city holds the city's name in lower case)."""
    if not ship.city:
        return None
    try:
        return mars_map().city(ship.city)
    except UnknownMapName:
        return None


def ship_movement(ship: CampaignShip, *, at_sea: bool = True) -> voyage_rules.ShipMovement:
    """Her movement today: her record, her coal, and at sea the prizes she has in tow (SGC-MOVE-13). A ship setting
    out from port tows nothing: prizes in port do not sail."""
    towed = (
        [
            int(record["hull_size"])
            for record in CampaignShip.objects.filter(towed_by=ship)
            .exclude(status__in=(ShipStatus.LOST, ShipStatus.SOLD, ShipStatus.CROWN))
            .values_list("record", flat=True)
        ]
        if at_sea
        else []
    )
    return voyage_rules.ship_movement(ship.record, coal_days=ship.coal_days, towed_hull_sizes=towed)


def locked_days(*, voyage: Voyage, deadline: datetime | None, now: datetime | None = None) -> int:
    """How many days at the head of the standing plan can no longer change: the next day's, once its orders were
    due (a paused campaign has no deadline, so nothing is locked)."""
    if deadline is None or not voyage.plan:
        return 0
    return 1 if (now or timezone.now()) > deadline else 0


def order_deadlines(*, campaign: Campaign, captain_ids: list[int]) -> dict[int, datetime | None]:
    """The next day's order deadline for each captain, the umpire's extensions included, in one query (the list
    would otherwise ask calendar.order_deadline once a voyage)."""
    scheduled = calendar.scheduled_deadline(campaign)
    if scheduled is None:
        return dict.fromkeys(captain_ids)
    rows = (
        OrderExtension.objects.filter(campaign=campaign, day=campaign.day + 1)
        .filter(Q(captain__isnull=True) | Q(captain_id__in=captain_ids))
        .values("captain_id")
        .annotate(latest=Max("until"))
    )
    everyone = scheduled
    own: dict[int, datetime] = {}
    for row in rows:
        if row["captain_id"] is None:
            everyone = max(everyone, row["latest"])
        else:
            own[row["captain_id"]] = row["latest"]
    return {cid: max(everyone, own[cid]) if cid in own else everyone for cid in captain_ids}


@dataclass(frozen=True)
class PlanStart:
    """Where a plan is checked from: the voyage's position (and its locked days), or the port she sails from."""

    hex: Hex
    voyage: Voyage | None
    city: City | None
    locked_days: int
    locked_plan: list[object]
    deadline: datetime | None


def plan_start(*, ship: CampaignShip, voyage: Voyage | None) -> PlanStart:
    """Where the ship's plan starts. A voyage under way starts at her position; a ship in port at her city. Raises
    ValueError with the reason when neither (a prize, a ship in battle or lost)."""
    if voyage is None:
        voyage = under_way(ship=ship)
    if voyage is not None:
        if voyage.ship_id != ship.pk:
            raise ValueError(f"Voyage {voyage.pk} is not the {possessive(ship.name)}.")
        deadline = calendar.order_deadline(voyage.campaign, voyage.captain)
        locked = locked_days(voyage=voyage, deadline=deadline)
        return PlanStart(
            hex=Hex(voyage.q, voyage.r),
            voyage=voyage,
            city=None,
            locked_days=locked,
            locked_plan=list(voyage.plan[:locked]),
            deadline=deadline,
        )
    if ship.status == ShipStatus.PRIZE:
        raise ValueError(f"The {ship.name} is a prize awaiting sale: prizes in port do not sail.")
    if ship.status != ShipStatus.IN_PORT:
        raise ValueError(f"The {ship.name} is {ship.get_status_display().lower()}, not in port: she cannot set out.")
    city = port_city(ship)
    if city is None:
        raise ValueError(f"The {ship.name} is not in port at a city on the map ({ship.city or 'none'}).")
    return PlanStart(
        hex=voyage_rules.city_hex(mars_map(), city),
        voyage=None,
        city=city,
        locked_days=0,
        locked_plan=[],
        deadline=None,
    )


def plan_check(*, ship: CampaignShip, plan: object, start: PlanStart, campaign: Campaign) -> voyage_rules.PlanCheck:
    """The plan checked from ``start`` with the ship's movement today and the campaign's encounter numbers. The
    locked days must come first, unchanged: the player sends the whole plan, as GET shows it."""
    check = voyage_rules.plan_check(
        plan,
        start=start.hex,
        ship=ship_movement(ship, at_sea=start.voyage is not None),
        atlas=mars_map(),
        numbers=map_rules.territory_numbers(campaign),
        locked_days=start.locked_days,
    )
    sent = [day.plan_day() for day in check.days[: start.locked_days]]
    if start.locked_days and (not isinstance(plan, list) or sent != start.locked_plan):
        when = f" at {start.deadline:%Y-%m-%d %H:%M} UTC" if start.deadline else ""
        locked = (
            f"Day 1 is locked: its orders were due{when}. Send it unchanged as the plan's first day "
            "(as the voyage shows it), then the days after it."
        )
        return voyage_rules.PlanCheck(start=check.start, days=check.days, errors=(locked, *check.errors))
    return check
