"""Reads for the umpire's desk: the calendar, every ship at sea, the open encounters and battles, the treks under
way, the audit, and the map's stand-in numbers as this campaign has them.

The umpire sees everything of his campaign (positions and plans included), so every read here starts from the
umpire's membership: ``desk_membership`` tells a player the desk is the umpire's (403) and answers a stranger 404.
Each list is a fixed number of queries however long it is (select_related and prefetches), so the desk's cost does
not grow with the fleet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404

from accounts.models import User
from battles import selectors as battle_selectors
from battles.models import Battle, BattleSide, BattleStatus, Controller
from campaign.models import AuditEntry, Campaign, CampaignRoll, Captain, Membership, Role
from strategic_map import calendar, map_rules, mapdata
from strategic_map.models import (
    Encounter,
    EncounterStatus,
    EpicTrek,
    OrderExtension,
    TrekStatus,
    Voyage,
    VoyageStatus,
)

AUDIT_ROWS = 50


UMPIRES_PAGE = (
    "The umpire's desk is the umpire's page: only the campaign's umpire opens it. A player plans his voyages on "
    "the campaign's map and follows his captains from the campaign's page."
)


def desk_membership(*, user: User, slug: str) -> Membership:
    """The user's umpire membership of the campaign with this slug. A player of the campaign is told that the desk
    is the umpire's (PermissionDenied: he knows the campaign and its umpire already); a stranger gets Http404, as
    if there were no such campaign."""
    membership = Membership.objects.filter(user=user, campaign__slug=slug).select_related("campaign").first()
    if membership is None:
        raise Http404("No such campaign.")
    if membership.role != Role.UMPIRE:
        raise PermissionDenied(UMPIRES_PAGE)
    return membership


def _place(q: int, r: int) -> tuple[str, str]:
    """The hex's label and territory, or a plain word for a position off the map (a bad row should not hide the
    rest of the desk)."""
    try:
        here = mapdata.mars_map().hex_at(q, r)
    except mapdata.UnknownMapName:
        return f"({q}, {r})", "off the map"
    return here.label, here.territory


# --- the calendar -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExtensionRow:
    who: str
    until: datetime
    reason: str


@dataclass(frozen=True)
class DeskCalendar:
    day: int
    next_day: int
    paused: bool
    next_tick_at: datetime | None  # extensions included; None while paused or unscheduled
    scheduled_deadline: datetime | None
    order_deadline: datetime | None  # everyone's, with the extensions for everyone
    hours_per_day: int
    extensions: tuple[ExtensionRow, ...]


def desk_calendar(*, campaign: Campaign) -> DeskCalendar:
    """Today's campaign day, the next tick and the order deadline (strategic_map.calendar), with the extensions
    granted for the next day."""
    extensions = OrderExtension.objects.filter(campaign=campaign, day=campaign.day + 1).select_related("captain")
    return DeskCalendar(
        day=campaign.day,
        next_day=campaign.day + 1,
        paused=campaign.paused,
        next_tick_at=calendar.next_tick_at(campaign),
        scheduled_deadline=calendar.scheduled_deadline(campaign),
        order_deadline=calendar.order_deadline(campaign),
        hours_per_day=campaign.hours_per_day,
        extensions=tuple(
            ExtensionRow(
                who=f"Captain {extension.captain.name}" if extension.captain is not None else "Everyone",
                until=extension.until,
                reason=extension.reason,
            )
            for extension in extensions
        ),
    )


def campaign_captains(*, campaign: Campaign) -> list[Captain]:
    """The campaign's captains by name, for the extension form."""
    return list(Captain.objects.filter(campaign=campaign).select_related("player").order_by("name", "pk"))


# --- ships at sea ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipAtSea:
    voyage_id: int
    captain_id: int
    captain: str
    player: str
    ship_id: int
    ship: str
    q: int
    r: int
    hex_label: str
    territory: str
    started_day: int
    plan_days: int
    # The standing plan has a day for the next tick: without one she holds her position (and the chronicle says).
    orders_in: bool
    plan_updated_at: datetime
    towing: tuple[str, ...]


def ships_at_sea(*, campaign: Campaign) -> list[ShipAtSea]:
    """Every voyage under way in the campaign, with where the ship is and whether she has orders for the next
    day. Two queries however many ships."""
    voyages = (
        Voyage.objects.filter(campaign=campaign, status=VoyageStatus.UNDER_WAY)
        .select_related("captain__player", "ship")
        .prefetch_related("ship__tows")
        .order_by("captain__name", "pk")
    )
    rows = []
    for voyage in voyages:
        label, territory = _place(voyage.q, voyage.r)
        rows.append(
            ShipAtSea(
                voyage_id=voyage.pk,
                captain_id=voyage.captain_id,
                captain=voyage.captain.name,
                player=voyage.captain.player.public_name,
                ship_id=voyage.ship_id,
                ship=voyage.ship.name,
                q=voyage.q,
                r=voyage.r,
                hex_label=label,
                territory=territory,
                started_day=voyage.started_day,
                plan_days=len(voyage.plan) if isinstance(voyage.plan, list) else 0,
                orders_in=bool(voyage.plan),
                plan_updated_at=voyage.plan_updated_at,
                towing=tuple(tow.name for tow in voyage.ship.tows.all()),
            )
        )
    return rows


# --- encounters and battles ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRow:
    name: str
    controller: str  # in words: the player's name, "the umpire" or "the AI"


@dataclass(frozen=True)
class BattleRow:
    id: int
    title: str
    mode: str
    status: str
    turn: int
    deadline: datetime | None
    sides: tuple[SideRow, ...]
    encounter_day: int | None
    # An encounter's battle on the campaign's clock: the last day of its window, and the sides it waits for.
    window_ends_day: int | None = None
    awaited: tuple[str, ...] = ()
    finished: bool = False


@dataclass(frozen=True)
class EncounterRow:
    id: int
    day: int
    hex_label: str
    territory: str
    result: str
    captains: tuple[str, ...]
    ships_met: tuple[str, ...]
    battle: BattleRow | None

    @property
    def battle_on_clock(self) -> bool:
        """Its battle is open and runs on the campaign's clock (ends with its window)."""
        return self.battle is not None and not self.battle.finished


def _controller_words(side: BattleSide) -> str:
    if side.controller == Controller.PLAYER and side.user is not None:
        return side.user.public_name
    return "the umpire" if side.controller == Controller.UMPIRE else "the AI"


def _battle_row(
    battle: Battle,
    encounter_day: int | None,
    *,
    window_ends_day: int | None = None,
    awaited: list[BattleSide] | None = None,
) -> BattleRow:
    return BattleRow(
        id=battle.pk,
        title=battle.title,
        mode=battle.get_mode_display(),
        status=battle.get_status_display(),
        turn=battle.turn,
        deadline=battle.deadline,
        sides=tuple(SideRow(name=side.name, controller=_controller_words(side)) for side in battle.sides.all()),
        encounter_day=encounter_day,
        window_ends_day=window_ends_day,
        awaited=tuple(f"{side.name} ({_controller_words(side)})" for side in (awaited or [])),
        finished=battle.is_finished,
    )


def open_encounters(*, campaign: Campaign) -> list[EncounterRow]:
    """Encounters whose battle is still to be fought or carried back, oldest first: where, what was met, which
    captains, the battle's deadline, who controls each side, the last day of its window (it ends on the campaign's
    clock, strategic_map.encounter_clock) and whose decision it awaits. Five queries however many."""
    encounters = list(
        Encounter.objects.filter(campaign=campaign, status=EncounterStatus.BATTLE)
        .select_related("battle")
        .prefetch_related(
            "ships",
            Prefetch("voyages", queryset=Voyage.objects.select_related("captain").order_by("pk")),
            Prefetch("battle__sides", queryset=BattleSide.objects.select_related("user").order_by("order", "pk")),
        )
        .order_by("day", "pk")
    )
    awaited = battle_selectors.awaited_by_battle([e.battle for e in encounters if e.battle is not None])
    rows = []
    for encounter in encounters:
        label, _ = _place(encounter.q, encounter.r)
        rows.append(
            EncounterRow(
                id=encounter.pk,
                day=encounter.day,
                hex_label=label,
                territory=encounter.territory,
                result=encounter.result,
                captains=tuple(f"Captain {voyage.captain.name}" for voyage in encounter.voyages.all()),
                ships_met=tuple(ship.name for ship in encounter.ships.all()),
                battle=None
                if encounter.battle is None
                else _battle_row(
                    encounter.battle,
                    encounter.day,
                    # One opened before windows had a last day ends as the tick counts it (encounter_clock).
                    window_ends_day=encounter.window_ends_day or encounter.day + max(campaign.encounter_battle_days, 1),
                    awaited=awaited.get(encounter.battle.pk),
                ),
            )
        )
    return rows


def open_battles(*, campaign: Campaign) -> list[BattleRow]:
    """The campaign's battles not yet finished (from encounters or set up by hand), the soonest deadline first,
    with who controls each side. Two queries however many."""
    battles = (
        Battle.objects.filter(campaign=campaign)
        .exclude(status=BattleStatus.FINISHED)
        .select_related("encounter")
        .prefetch_related(Prefetch("sides", queryset=BattleSide.objects.select_related("user").order_by("order", "pk")))
        .defer("scenario", "initial_state", "state", "options")
        .order_by("deadline", "pk")
    )
    rows = []
    for battle in battles:
        encounter = getattr(battle, "encounter", None)
        rows.append(_battle_row(battle, encounter.day if encounter is not None else None))
    return rows


# --- treks -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrekRow:
    id: int
    captain_id: int
    captain: str
    player: str
    cause: str
    hex_label: str
    territory: str
    started_day: int
    party: int
    party_start: int
    weeks: int
    route_hexes: int


def treks_under_way(*, campaign: Campaign) -> list[TrekRow]:
    """Every epic trek still walking, with where the party is and how it stands. One query however many."""
    treks = (
        EpicTrek.objects.filter(campaign=campaign, status=TrekStatus.UNDER_WAY)
        .select_related("captain__player")
        .order_by("started_day", "pk")
    )
    rows = []
    for trek in treks:
        label, territory = _place(trek.q, trek.r)
        rows.append(
            TrekRow(
                id=trek.pk,
                captain_id=trek.captain_id,
                captain=trek.captain.name,
                player=trek.captain.player.public_name,
                cause=trek.cause.replace("_", " "),
                hex_label=label,
                territory=territory,
                started_day=trek.started_day,
                party=trek.party,
                party_start=trek.party_start,
                weeks=trek.weeks,
                route_hexes=len(trek.route) if isinstance(trek.route, list) else 0,
            )
        )
    return rows


# --- the audit ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditRow:
    created_at: datetime
    actor: str
    action: str
    captain: str
    reason: str
    changes: tuple[str, ...]  # "what: before → after", in words


def _audit_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        try:  # the audit keeps moments as ISO text: shown to the minute
            return f"{datetime.fromisoformat(value):%d %b %Y %H:%M}"
        except ValueError:
            return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _audit_changes(data: object) -> tuple[str, ...]:
    if not isinstance(data, dict):
        return ()
    before, after = data.get("before"), data.get("after")
    lines: list[str] = []
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            lines.append(f"{key.replace('_', ' ')}: {_audit_value(before.get(key))} → {_audit_value(after.get(key))}")
    lines.extend(
        f"{key.replace('_', ' ')}: {_audit_value(value)}"
        for key, value in data.items()
        if key not in ("before", "after")
    )
    return tuple(lines)


def audit_log(*, campaign: Campaign, limit: int = AUDIT_ROWS) -> list[AuditRow]:
    """The umpire's overrides, newest first, with their reasons and what each changed. One query."""
    entries = AuditEntry.objects.filter(campaign=campaign).select_related("actor", "captain")[:limit]
    return [
        AuditRow(
            created_at=entry.created_at,
            actor=entry.actor.public_name,
            action=entry.action,
            captain=f"Captain {entry.captain.name}" if entry.captain is not None else "",
            reason=entry.reason,
            changes=_audit_changes(entry.data),
        )
        for entry in entries
    ]


# --- the campaign's dice ------------------------------------------------------------------------------------------

DICE_ROWS = 50


@dataclass(frozen=True)
class RollRow:
    seq: int
    day: int
    purpose: str
    sides: int
    result: int
    captain: str


def dice_log(*, campaign: Campaign, limit: int = DICE_ROWS) -> list[RollRow]:
    """The campaign's last dice outside battles (campaign.dice), newest first: each one's number, day, purpose and
    result, so the umpire can follow (and, with the seed, check) every roll. One query."""
    rolls = CampaignRoll.objects.filter(campaign=campaign).select_related("captain").order_by("-seq")[:limit]
    return [
        RollRow(
            seq=roll.seq,
            day=roll.day,
            purpose=roll.purpose,
            sides=roll.sides,
            result=roll.result,
            captain=f"Captain {roll.captain.name}" if roll.captain is not None else "",
        )
        for roll in rolls
    ]


# --- the map's stand-in numbers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TerritoryNumbersRow:
    name: str
    move_through: int | None
    patrol: int | None
    reference_move_through: int | None
    reference_patrol: int | None
    edited: bool
    stand_in: bool
    note: str


@dataclass(frozen=True)
class TrekCellView:
    die: int
    code: str
    reference: str

    @property
    def edited(self) -> bool:
        return self.code != self.reference


@dataclass(frozen=True)
class TrekRowView:
    allegiance: str
    row: str
    cells: tuple[TrekCellView, ...]

    @property
    def label(self) -> str:
        return self.row.replace("_", " ")


@dataclass(frozen=True)
class MapRulesView:
    territories: tuple[TerritoryNumbersRow, ...]
    trek_columns: tuple[str, ...]  # the allegiances
    trek_rows: tuple[str, ...]  # the rows: a city, a canal, a terrain
    trek_table: tuple[TrekRowView, ...]
    trek_edited: bool
    trek_stand_in: bool
    trek_codes: tuple[tuple[str, str], ...]


def map_rules_view(*, campaign: Campaign) -> MapRulesView:
    """The campaign's territory numbers and trek table beside the reference map's, each marked edited or not and
    labelled a designed stand-in where the map says so. One query (the campaign's map rules)."""
    mars = mapdata.mars_map()
    numbers = map_rules.territory_numbers(campaign)
    territories = tuple(
        TerritoryNumbersRow(
            name=name,
            move_through=numbers[name].move_through,
            patrol=numbers[name].patrol,
            reference_move_through=territory.move_through,
            reference_patrol=territory.patrol,
            edited=(numbers[name].move_through, numbers[name].patrol) != (territory.move_through, territory.patrol),
            stand_in=territory.provenance.is_stand_in,
            note=territory.note or territory.provenance.note,
        )
        for name, territory in mars.territories.items()
    )
    reference = mars.epic_trek_table
    table = map_rules.trek_table(campaign)
    columns = tuple(reference.table)
    trek_rows = tuple(next(iter(reference.table.values())))
    grid = tuple(
        TrekRowView(
            allegiance=allegiance,
            row=row,
            cells=tuple(
                TrekCellView(die=die, code=code, reference=reference.table[allegiance][row][die - 1])
                for die, code in enumerate(table.table[allegiance][row], start=1)
            ),
        )
        for allegiance in columns
        for row in reference.table[allegiance]
    )
    return MapRulesView(
        territories=territories,
        trek_columns=columns,
        trek_rows=trek_rows,
        trek_table=grid,
        trek_edited=any(cell.edited for row in grid for cell in row.cells),
        trek_stand_in=reference.is_stand_in,
        trek_codes=tuple(reference.codes.items()),
    )
