"""Reads for epic treks. A player reads his own captains' treks; the umpire reads every trek of his campaign; any
other trek answers 404, whether it exists or not (DESIGN.md section 5: a trek's hexes are a captain's position)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from accounts.models import User
from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from campaign.models import Campaign, Membership, Role
from strategic_map import map_rules, mapdata, trek_rules
from strategic_map.models import EpicTrek, TrekRoll, TrekStatus


def treks_for_user(*, user: User, campaign: Campaign) -> QuerySet[EpicTrek]:
    """The treks this member may read: his own captains', or every one for the umpire; newest first."""
    membership = Membership.objects.filter(user=user, campaign=campaign).only("role").first()
    if membership is None:
        raise Http404("No such campaign.")
    treks = EpicTrek.objects.filter(campaign=campaign).select_related("captain").order_by("-pk")
    return treks if membership.role == Role.UMPIRE else treks.filter(captain__player=user)


def trek_for_user(*, user: User, trek_id: int) -> EpicTrek:
    """A trek the user may read, with its captain and campaign; Http404 for anyone else's (or none)."""
    trek = EpicTrek.objects.select_related("captain", "campaign").filter(pk=trek_id).first()
    if trek is None:
        raise Http404("No such trek.")
    membership = Membership.objects.filter(user=user, campaign_id=trek.campaign_id).only("role").first()
    if membership is None or (membership.role != Role.UMPIRE and trek.captain.player_id != user.pk):
        raise Http404("No such trek.")
    return trek


def trek_rolls(*, trek: EpicTrek) -> QuerySet[TrekRoll]:
    """The trek's rolls in order, each with its logged die."""
    return TrekRoll.objects.filter(trek=trek).select_related("roll").order_by("seq")


def trek_next_roll_day(*, trek: EpicTrek) -> int | None:
    """The campaign day whose tick makes the trek's next roll (trek_rules.next_roll_day); None once it is over."""
    if trek.status != TrekStatus.UNDER_WAY:
        return None
    last = TrekRoll.objects.filter(trek=trek).order_by("-seq").values_list("day", flat=True).first()
    return trek_rules.next_roll_day(
        started_day=trek.started_day, last_roll_day=last, days_per_roll=trek.campaign.trek_days_per_roll
    )


def trek_under_way(*, captain_id: int) -> EpicTrek | None:
    """The trek a captain is on, if any (for a link from his page)."""
    return EpicTrek.objects.filter(captain_id=captain_id, status=TrekStatus.UNDER_WAY).first()


@dataclass(frozen=True)
class Neighbour:
    """A hex next to the party, as the player weighs it: its terrain, allegiance and trek table row."""

    q: int
    r: int
    label: str
    direction: str
    terrain: str
    allegiance: str
    row: str
    codes: tuple[str, ...]
    city: str
    chosen: bool
    on_way_home: bool

    @property
    def codes_low(self) -> tuple[str, ...]:
        """Dice 1 to 3 of the row (drawn on the map's first line)."""
        return self.codes[:3]

    @property
    def codes_high(self) -> tuple[str, ...]:
        return self.codes[3:]

    @property
    def row_words(self) -> str:
        return trek_rules.row_words(self.row)


def trek_neighbours(*, trek: EpicTrek, way_home: trek_rules.WayHome | None) -> list[Neighbour]:
    """The six hexes around the party that are on the map, clockwise from the north, with the table's row for each
    (the campaign's own table, SGC-TREK-11)."""
    mars = mapdata.mars_map()
    table = map_rules.trek_table(trek.campaign)
    here = Hex(trek.q, trek.r)
    chosen = Hex.from_json(trek.route[0]) if trek.route else None
    home_step = way_home.path[0] if way_home is not None and way_home.path else None
    found = []
    for direction in range(6):
        step = hexgrid.neighbour(here, direction)
        if not trek_rules.on_map(mars, step):
            continue
        hex_ = mars.hex_at(step.q, step.r)
        codes = table.table.get(hex_.allegiance, {}).get(hex_.trek_row, ())
        found.append(
            Neighbour(
                q=step.q,
                r=step.r,
                label=hex_.label,
                direction=hexgrid.direction_name(direction),
                terrain=hex_.terrain,
                allegiance=hex_.allegiance,
                row=hex_.trek_row,
                codes=tuple(codes),
                city=hex_.city or "",
                chosen=step == chosen,
                on_way_home=step == home_step,
            )
        )
    return found
