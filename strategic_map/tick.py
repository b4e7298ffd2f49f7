"""The daily tick (SGC-MOVE-01, SGC-MOVE-11, SGC-ENC-01..06): one campaign day for every ship at sea.

A day D (the campaign's day + 1) runs in steps, each its own transaction, so a worker killed halfway loses at
most the step it was in and a re-run does only what is left:

1. ``campaign_day_open``: the CampaignDay row for D (unique per campaign and day: a second run finds it).
1b. ``encounter_windows_close`` (strategic_map.encounter_clock): every encounter battle whose window ends on D is
   fought to its end by the AI captains for every side and its result carried back, each battle in its own
   transaction, so that her ship sails on today (a second run finds nothing left). The clock never waits for a
   battle.
2. ``voyages_sail_chunk``, until nothing is left: the next ``TICK_CHUNK_SIZE`` voyages under way that have no
   VoyageDay for D, in pk order, under the campaign's row lock. Each takes the first day of her standing plan
   (move along its path, or patrol), or holds position without orders (the chronicle notes it); one encounter
   die per ship for the territory of the hex she ends in; VoyageDay rows, voyages and coal bunkers written in
   bulk. A bounded number of queries per chunk, whatever its size.
3. The epic treks under way walk their day (strategic_map.treks): a roll every ``trek_days_per_roll`` days.
4. ``auctions_close_due``: every open auction whose closing day is D or earlier closes (campaign.auctions), each
   in its own transaction.
5. ``campaign_day_close``: the day is finished, the campaign's day is D and its next tick a day later.

Every die comes from the campaign's seed and the roll's number (campaign.dice); the voyages are taken in pk
order and the chunk that died with a worker committed nothing, so a re-run rolls the very dice it would have.

Designed here (the rules are silent, SGC-MOVE-12/13/14):

- A ship that cannot sail (speed 0 on her record sheet, a steam ship with empty bunkers) stays where she is for
  the day (becalmed) and keeps her orders for when she can. Orders that cannot be followed (a step that is not
  next to the last, a hex off the map) are dropped whole: the days after them start where they would have ended.
- A ship without orders holds her position; staying in the hex is patrolling (SGC-MOVE-11), so she rolls the
  patrol number. A becalmed ship rolls it too: one die per ship per day (SGC-ENC-05).
- A steam ship burns a day of coal for every day at sea she moves, patrols or holds (not while becalmed).
- A ship in battle does not sail and rolls no die; her day is recorded, her orders kept. Her battle lasts at most
  its window (Campaign.encounter_battle_days): on the window's last day step 1b finishes it before she sails.
- A prize in tow (CampaignShip.towed_by) sails with her tower: same hexes, no die of her own (the tow meets what
  her tower meets).
- A ship that ends her day in a friendly city with no orders left arrives (strategic_map.arrival), queued after
  the day's chunk commits; one that met an encounter there fights first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, models, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from battles.engine.hexgrid import Hex, distance
from campaign import dice, locks
from campaign.auctions import auctions_close_due
from campaign.models import Campaign, CampaignRoll, CampaignShip, Captain, ChronicleEntry, ChronicleKind, ShipStatus
from config import task_queue
from galleons.record import ShipRecord
from strategic_map import mapdata
from strategic_map.encounter_clock import encounter_windows_close
from strategic_map.encounters import encounters_draw
from strategic_map.map_rules import EncounterNumbers, territory_numbers
from strategic_map.models import CampaignDay, DayKind, EpicTrek, TrekStatus, Voyage, VoyageDay, VoyageStatus
from strategic_map.treks import treks_advance

logger = logging.getLogger(__name__)

FRIENDLY = "friendly"
# Ships that do not sail today: fighting, or gone.
NOT_SAILING = frozenset({ShipStatus.IN_BATTLE, ShipStatus.LOST, ShipStatus.SOLD, ShipStatus.CROWN})
# A chunk that lost a deadlock (another service locked a voyage, then the campaign) is tried again.
CHUNK_ATTEMPTS = 3
# A kite's best movement die: whether she can sail at all is whether her best day gives her any speed.
KITE_BEST_DIE = 6


# --- one ship's day (pure: the map and the ship's record, no database) -----------------------------------------


@dataclass(frozen=True, slots=True)
class ShipDay:
    """What one ship does today: where she ends, what is left of her plan, and whether she rolls as moving."""

    kind: str
    path: list[list[int]]
    end: tuple[int, int]
    plan: list[Any]
    note: str
    # False: she rolls no encounter die today whatever the territory (in battle).
    rolls: bool = True

    @property
    def patrolling(self) -> bool:
        """SGC-ENC-03/04: only a day spent moving rolls the move-through number; staying in the hex patrols."""
        return self.kind != DayKind.MOVE


def _path_problem(start: tuple[int, int], path: object, atlas: mapdata.MarsMap) -> str | None:
    """Why this day's path cannot be sailed from ``start``, or None: every step next to the last, on the map."""
    if not isinstance(path, list) or not path:
        return "the day's move names no hexes"
    previous = Hex(*start)
    for number, step in enumerate(path, start=1):
        try:
            here = Hex.from_json(step)
            atlas.hex_at(here.q, here.r)
        except (ValueError, mapdata.UnknownMapName):
            return f"step {number} is not a hex on the map"
        if distance(previous, here) != 1:
            return f"step {number} is not next to the hex before it"
        previous = here
    return None


def ship_day(
    *, position: tuple[int, int], plan: Sequence[Any], cannot_sail: str | None, atlas: mapdata.MarsMap
) -> ShipDay:
    """Take the first day of the standing plan: move along its path or patrol, or hold without orders.
    ``cannot_sail`` is why the ship cannot move today (speed 0, no coal), or None."""
    if not plan:
        return ShipDay(DayKind.HOLD, [], position, [], "No orders: she held her position.")
    today, rest = plan[0], list(plan[1:])
    kind = today.get("kind") if isinstance(today, Mapping) else None
    if kind == "patrol":
        return ShipDay(DayKind.PATROL, [], position, rest, "She patrolled.")
    if kind != "move":
        return ShipDay(DayKind.BECALMED, [], position, [], f"Orders she could not follow ({kind!r}): dropped.")
    path = today.get("path")
    problem = _path_problem(position, path, atlas)
    if problem is not None:
        # The days after this one start where it would have ended: none of them can be sailed either.
        return ShipDay(DayKind.BECALMED, [], position, [], f"Orders she could not follow ({problem}): dropped.")
    if cannot_sail is not None:
        return ShipDay(DayKind.BECALMED, [], position, list(plan), f"She could not sail: {cannot_sail}.")
    assert isinstance(path, list)
    hexes = [[int(step[0]), int(step[1])] for step in path]
    sailed = f"She sailed {len(hexes)} {'hex' if len(hexes) == 1 else 'hexes'}."
    return ShipDay(DayKind.MOVE, hexes, (hexes[-1][0], hexes[-1][1]), rest, sailed)


def cannot_sail(ship: CampaignShip) -> str | None:
    """Why the ship cannot move today, or None: her record's speed (SG-CREW-12..14, SG-CRIT-26..30), her coal."""
    try:
        record = ShipRecord.from_json(ship.record)
    except (ValueError, KeyError, TypeError):
        return "her record sheet cannot be read"
    if not record.afloat:
        return "she is down"
    speed = record.effective_speed(KITE_BEST_DIE if record.is_kite else None)
    if speed <= 0:
        return "she has no speed left"
    if record.is_steam and ship.coal_days is not None and ship.coal_days <= 0:
        return "her bunkers are empty"
    return None


def is_steam(ship: CampaignShip) -> bool:
    record = ship.record if isinstance(ship.record, Mapping) else {}
    return record.get("propulsion") == "steam"


def friendly_city_at(q: int, r: int, atlas: mapdata.MarsMap) -> str | None:
    """The friendly city in this hex (campaign.auctions' definition: the city's hex is friendly), or None."""
    try:
        here = atlas.hex_at(q, r)
    except mapdata.UnknownMapName:
        return None
    if here.city is None or here.allegiance != FRIENDLY:
        return None
    return here.city


# --- the day's steps ------------------------------------------------------------------------------------------


def chunk_size() -> int:
    return max(int(settings.TICK_CHUNK_SIZE), 1)


def _lock_campaign(campaign_id: int) -> Campaign:
    return locks.campaign(campaign_id)  # the first lock, as campaign.locks orders them


def _waiting(campaign_id: int, day: int) -> QuerySet[Voyage]:
    """Voyages under way without a VoyageDay for ``day`` that sail on their own (a prize in tow of a ship at
    sea sails with her tower)."""
    return (
        Voyage.objects.filter(campaign_id=campaign_id, status=VoyageStatus.UNDER_WAY)
        .exclude(days__day=day)
        .exclude(ship__towed_by__voyages__status=VoyageStatus.UNDER_WAY)
    )


@transaction.atomic
def campaign_day_open(*, campaign_id: int, day: int) -> CampaignDay | None:
    """The CampaignDay for ``day`` (created, or found by a second run); None when the campaign is past it."""
    campaign = _lock_campaign(campaign_id)
    if campaign.day >= day:
        return None
    if day != campaign.day + 1:
        raise ValueError(f"day {day} cannot tick: the campaign is at day {campaign.day}")
    found, _ = CampaignDay.objects.get_or_create(campaign=campaign, day=day)
    return found


def _encounter_purpose(ship: CampaignShip, captain: Captain, day: int, territory: str, n: int, *, patrol: bool) -> str:
    doing = "patrolling" if patrol else "moving through"
    return (
        f"Encounter die, day {day}: the {ship.name} (Captain {captain.name}) {doing} {territory}, "
        f"an encounter on {n} or less"
    )


def _chronicle_orders_missed(campaign: Campaign, captain: Captain, day: int) -> ChronicleEntry:
    # Public: says that he had no orders, never where his ship is.
    return ChronicleEntry(
        campaign=campaign,
        day=day,
        kind=ChronicleKind.ORDERS_MISSED,
        text=f"Captain {captain.name} sent no orders for day {day}: his ship kept her station.",
        captain=captain,
    )


def voyages_sail_chunk(
    *, campaign_id: int, day: int, numbers: Mapping[str, EncounterNumbers], size: int | None = None
) -> int:
    """Sail the next chunk of voyages waiting for ``day``; the number of voyages sailed (0: none left). Tried
    again if it loses a deadlock."""
    for attempt in range(1, CHUNK_ATTEMPTS + 1):
        try:
            return _sail_chunk(campaign_id=campaign_id, day=day, numbers=numbers, size=size or chunk_size())
        except OperationalError:
            # Inside a caller's transaction the error has spoilt it: only the caller can start again.
            if attempt == CHUNK_ATTEMPTS or connection.in_atomic_block:
                raise
            logger.warning("tick of campaign %s day %s: chunk rolled back, trying again", campaign_id, day)
    return 0  # pragma: no cover - the loop returns or raises


@transaction.atomic
def _sail_chunk(*, campaign_id: int, day: int, numbers: Mapping[str, EncounterNumbers], size: int) -> int:
    campaign = _lock_campaign(campaign_id)  # one chunk at a time per campaign, and the dice's lock
    if campaign.day >= day:
        return 0
    voyages = list(
        _waiting(campaign_id, day)
        .select_related("ship", "captain")
        .select_for_update(no_key=True, of=("self", "ship"))
        .order_by("pk")[:size]
    )
    if not voyages:
        return 0
    towers = {voyage.ship_id: voyage for voyage in voyages}
    towed = list(
        Voyage.objects.filter(campaign_id=campaign_id, status=VoyageStatus.UNDER_WAY, ship__towed_by__in=list(towers))
        .exclude(days__day=day)
        .select_related("ship", "captain")
        .select_for_update(no_key=True, of=("self", "ship"))
        .order_by("pk")
    )
    atlas = mapdata.mars_map()

    # Each ship's day, and the dice wanted for it, in pk order (the dice's order on a re-run too).
    sailed: list[tuple[Voyage, ShipDay, str, int | None]] = []
    wants: list[tuple[str, int, Captain | None]] = []
    for voyage in voyages:
        ship = voyage.ship
        position = (voyage.q, voyage.r)
        plan = voyage.plan if isinstance(voyage.plan, list) else []
        if ship.status in NOT_SAILING:
            what = "in battle" if ship.status == ShipStatus.IN_BATTLE else ship.get_status_display().lower()
            outcome = ShipDay(DayKind.BECALMED, [], position, plan, f"She did not sail: {what}.", rolls=False)
        else:
            moving = bool(plan) and isinstance(plan[0], Mapping) and plan[0].get("kind") == "move"
            outcome = ship_day(
                position=position, plan=plan, cannot_sail=cannot_sail(ship) if moving else None, atlas=atlas
            )
        try:
            territory = atlas.hex_at(*outcome.end).territory
        except mapdata.UnknownMapName:
            territory = ""
        number = numbers[territory].number_for(patrolling=outcome.patrolling) if territory in numbers else None
        if not outcome.rolls:
            number = None
        if number is not None:
            wants.append(
                (
                    _encounter_purpose(ship, voyage.captain, day, territory, number, patrol=outcome.patrolling),
                    6,
                    voyage.captain,
                )
            )
        sailed.append((voyage, outcome, territory, number))

    rolls = iter(dice.roll_many(campaign, wants, day=day))
    rows: list[VoyageDay] = []
    ships_burning: list[CampaignShip] = []
    chronicle: list[ChronicleEntry] = []
    hit_voyages: list[int] = []
    arrivals: list[tuple[int, str]] = []
    for voyage, outcome, territory, number in sailed:
        ship = voyage.ship
        roll: CampaignRoll | None = next(rolls) if number is not None else None
        burned = 0
        if is_steam(ship) and outcome.kind != DayKind.BECALMED and ship.coal_days:
            ship.coal_days -= 1
            burned = 1
            ships_burning.append(ship)
        rows.append(
            VoyageDay(
                campaign=campaign,
                voyage=voyage,
                day=day,
                kind=outcome.kind,
                path=outcome.path,
                from_q=voyage.q,
                from_r=voyage.r,
                to_q=outcome.end[0],
                to_r=outcome.end[1],
                territory=territory,
                encounter_number=number,
                encounter_roll=roll,
                coal_burned=burned,
                note=outcome.note[:200],
            )
        )
        if outcome.kind == DayKind.HOLD:
            chronicle.append(_chronicle_orders_missed(campaign, voyage.captain, day))
        hit = roll is not None and number is not None and roll.result <= number
        if hit:
            hit_voyages.append(voyage.pk)
        elif outcome.kind == DayKind.MOVE or (not outcome.plan and outcome.kind == DayKind.HOLD):
            # A move into a friendly city brings her home (voyage_rules.arrival_city: the planner refuses days after
            # it); so does a ship left without orders in one. A patrol over a friendly city does not.
            city = friendly_city_at(*outcome.end, atlas)
            if city is not None:
                arrivals.append((voyage.pk, city))
        voyage.q, voyage.r = outcome.end
        voyage.plan = outcome.plan

    # Prizes in tow go where their tower went, and roll nothing of their own.
    days_of = {row.voyage_id: row for row in rows}
    for prize in towed:
        assert prize.ship.towed_by_id is not None
        tower = towers[prize.ship.towed_by_id]
        tower_day = days_of[tower.pk]
        rows.append(
            VoyageDay(
                campaign=campaign,
                voyage=prize,
                day=day,
                kind=tower_day.kind,
                path=tower_day.path,
                from_q=prize.q,
                from_r=prize.r,
                to_q=tower.q,
                to_r=tower.r,
                territory=tower_day.territory,
                note=f"In tow of the {tower.ship.name}."[:200],
            )
        )
        prize.q, prize.r, prize.plan = tower.q, tower.r, []

    VoyageDay.objects.bulk_create(rows)
    rows_update([*voyages, *towed], ["q", "r", "plan"])
    rows_update(ships_burning, ["coal_days"])
    if chronicle:
        ChronicleEntry.objects.bulk_create(chronicle)
    encounters = 0
    if hit_voyages:
        hits = list(
            VoyageDay.objects.filter(voyage_id__in=hit_voyages, day=day)
            .select_related("voyage__ship", "voyage__captain", "encounter_roll")
            .order_by("voyage_id")
        )
        encounters = len(encounters_draw(campaign=campaign, day=day, hits=hits))
    CampaignDay.objects.filter(campaign=campaign, day=day).update(
        ships_moved=F("ships_moved") + len(rows), encounters=F("encounters") + encounters
    )
    for voyage_id, city in arrivals:
        _queue_arrival(voyage_id=voyage_id, city=city, day=day)
    pause = int(settings.TICK_TEST_CHUNK_PAUSE_MS)
    if pause > 0:
        # Test-only: hold the chunk open so that a test can kill the worker in the middle of a tick.
        time.sleep(pause / 1000)
    return len(rows)


def _column(field: models.Field[Any, Any]) -> tuple[str, str]:
    """The field's quoted column name and its PostgreSQL type."""
    kind = field.db_type(connection)
    if field.column is None or kind is None:
        raise TypeError(f"{field} is not a column")
    return connection.ops.quote_name(field.column), kind


def rows_update(objs: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of many rows of one model in one statement. Django's bulk_update builds a CASE branch per
    row and field, which for a chunk of 200 voyages costs more Python than sailing them; on PostgreSQL one
    UPDATE ... FROM unnest() of one array per column does the same. Elsewhere (SQLite) bulk_update."""
    if not objs:
        return
    model = type(objs[0])
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(objs, list(fields))
        return
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    columns = [meta.get_field(name) for name in fields]
    assert all(isinstance(column, models.Field) for column in columns)
    concrete = [column for column in columns if isinstance(column, models.Field)]
    quote = connection.ops.quote_name
    names, types = zip(*(_column(field) for field in [pk, *concrete]), strict=True)
    arrays = [
        [pk.get_db_prep_value(obj.pk, connection) for obj in objs],
        *([column.get_db_prep_save(getattr(obj, column.attname), connection) for obj in objs] for column in concrete),
    ]
    sets = ", ".join(f"{name} = d.{name}" for name in names[1:])
    unnest = ", ".join(f"%s::{kind}[]" for kind in types)
    sql = (
        f"UPDATE {quote(meta.db_table)} AS t SET {sets} FROM unnest({unnest}) AS d({', '.join(names)}) "
        f"WHERE t.{names[0]} = d.{names[0]}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, arrays)


def _queue_arrival(*, voyage_id: int, city: str, day: int) -> None:
    # Robust: an arrival that cannot be queued (or, run eagerly, fails) does not undo the day. The ship is still
    # under way in a friendly city with no orders, so the next day's tick sends her in again. By name: the task's
    # module (strategic_map.tick_tasks) imports this one.
    task_queue.after_commit("strategic_map.tick_arrival", voyage_id, city, day, robust=True)


def _next_tick(campaign: Campaign, now: datetime) -> datetime:
    """A day after the scheduled tick; if that is past too (the campaign was paused or the server down), the
    next that is still to come on the same cadence: no burst of days nobody could give orders for. A day run
    early by hand (the umpire's button, the command) keeps the calendar's slot: the next day ticks when it was due.
    """
    step = timedelta(hours=max(campaign.hours_per_day, 1))
    if campaign.next_tick_at is None:
        return now + step
    if campaign.next_tick_at > now:
        return campaign.next_tick_at
    following = campaign.next_tick_at + step
    if following <= now:
        following += step * ((now - following) // step + 1)
    return following


@transaction.atomic
def campaign_day_close(*, campaign_id: int, day: int) -> bool | None:
    """Finish ``day``: True when this call finished it, False when it was already finished, None when a voyage
    still waits for it (one that set out during the tick): sail it first."""
    campaign = _lock_campaign(campaign_id)
    if campaign.day >= day:
        return False
    if _waiting(campaign_id, day).exists():
        return None
    now = timezone.now()
    CampaignDay.objects.filter(campaign=campaign, day=day).update(finished_at=now)
    campaign.day = day
    campaign.next_tick_at = _next_tick(campaign, now)
    campaign.save(update_fields=["day", "next_tick_at"])
    return True


def _encounter_windows_step(campaign: Campaign, day: int) -> None:
    """Step 1b: the encounter battles whose window ends today are finished before any ship sails."""
    closed = encounter_windows_close(campaign=campaign, day=day)
    if closed:
        logger.info("tick of campaign %s day %s: %s encounter battle windows closed", campaign.pk, day, closed)


def _tick_day(campaign: Campaign, day: int) -> bool:
    """Run ``day`` to its end; whether this call finished it."""
    if campaign_day_open(campaign_id=campaign.pk, day=day) is None:
        return False
    _encounter_windows_step(campaign, day)
    numbers = territory_numbers(campaign)
    while True:
        while voyages_sail_chunk(campaign_id=campaign.pk, day=day, numbers=numbers):
            pass
        if EpicTrek.objects.filter(campaign_id=campaign.pk, status=TrekStatus.UNDER_WAY).exists():
            treks_advance(campaign_id=campaign.pk, day=day)
        auctions_close_due(campaign_id=campaign.pk, day=day)
        closed = campaign_day_close(campaign_id=campaign.pk, day=day)
        if closed is not None:
            return closed


def campaign_tick(*, campaign_id: int, days: int = 1, through_day: int | None = None) -> list[int]:
    """Run the campaign's next ``days`` days now (the umpire's button, the command, the beat task), never past
    ``through_day`` when given (a task queued for day D that runs twice ticks D once); the days this call
    finished. Idempotent per (campaign, day): a day half done by a killed worker is finished, not redone."""
    finished: list[int] = []
    for _ in range(max(days, 0)):
        campaign = Campaign.objects.select_related("map_rules").get(pk=campaign_id)
        day = campaign.day + 1
        if through_day is not None and day > through_day:
            break
        if not _tick_day(campaign, day):
            break
        finished.append(day)
    return finished


def campaign_tick_queue(*, campaign: Campaign, days: int = 1) -> None:
    """Queue the campaign's next ``days`` days on the worker after the caller's transaction commits (the umpire's
    "run the day now"). Queued twice, they still run once: the task ticks through a fixed day."""
    task_queue.after_commit("strategic_map.campaign_tick", campaign.pk, campaign.day + days, days)
