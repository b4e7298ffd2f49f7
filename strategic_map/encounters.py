"""Encounters on campaign (SGC-ENC-15..20, SGC-ENCT, SGC-ETYPE): the ships met, drawn with logged dice.

``encounters_draw`` runs inside the daily tick's transaction for the ships whose encounter die hit. The rules
(what a table line means, the class pools, the crews) are pure, in strategic_map/encounter_rules.py; this module
rolls the campaign's dice for them (campaign/dice.roll_many: one lock and one insert per round, whatever the
number of encounters) and writes the rows. The battle is opened by a task after commit
(strategic_map/encounter_battle.py, through strategic_map/encounter_tasks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count

from campaign import dice
from campaign.models import Campaign, CampaignRoll, CampaignShip, Captain, CaptainStatus, ShipStatus
from config import task_queue
from galleons import catalog
from strategic_map import encounter_rules as rules
from strategic_map.models import Encounter, EncounterShip, Voyage, VoyageDay, VoyageStatus


@dataclass
class _Meeting:
    """One encounter in the making: a captain's ships ending the day in one hex (they sail together)."""

    captain: Captain
    q: int
    r: int
    territory: str
    days: list[VoyageDay]
    table_roll: CampaignRoll | None = None
    line: str = ""
    wanted: tuple[rules.WantedShip, ...] = ()
    pools: list[tuple[str, ...]] = field(default_factory=list)
    draws: list[CampaignRoll | None] = field(default_factory=list)
    crew_dice: list[CampaignRoll | None] = field(default_factory=list)


def _hull_sizes() -> dict[str, int]:
    return {ship.id: ship.hull_size or 0 for ship in catalog.ship_classes()}


def _voyages_made(captain_ids: Sequence[int]) -> dict[int, int]:
    """How many voyages each captain has finished (SGC-ENC-18 counts his first voyages): one query."""
    finished = (
        Voyage.objects.filter(captain_id__in=captain_ids)
        .exclude(status=VoyageStatus.UNDER_WAY)
        .values("captain_id")
        .annotate(n=Count("id"))
    )
    return {row["captain_id"]: row["n"] for row in finished}


def _meetings(days: Sequence[VoyageDay]) -> list[_Meeting]:
    """SGC-ENC-05 with the issue's squadron rule: one encounter for a captain's ships in one hex at day's end."""
    found: dict[tuple[int, int, int], _Meeting] = {}
    for voyage_day in days:
        voyage = voyage_day.voyage
        key = (voyage.captain_id, voyage_day.to_q, voyage_day.to_r)
        meeting = found.get(key)
        if meeting is None:
            found[key] = _Meeting(voyage.captain, voyage_day.to_q, voyage_day.to_r, voyage_day.territory, [voyage_day])
        else:
            meeting.days.append(voyage_day)
    return list(found.values())


@transaction.atomic
def encounters_draw(*, campaign: Campaign, day: int, hits: Sequence[VoyageDay]) -> list[Encounter]:
    """For the voyage days of ``day`` whose encounter die hit: roll the territory's table, draw the ships met
    from the category pools with their crews, create Encounter and EncounterShip rows, link the VoyageDays,
    mark the ships and captains in battle, and queue the battle's opening after commit. A bounded number of
    queries whatever len(hits) is (two rounds of dice, a handful of bulk writes). Called by the tick inside
    its transaction with saved VoyageDay rows (re-read here by id); a voyage day that already has its encounter is
    not drawn again."""
    ids = [hit.pk for hit in hits]
    days = list(
        VoyageDay.objects.filter(pk__in=ids, campaign=campaign, day=day, encounter__isnull=True)
        .select_related("voyage__captain", "voyage__ship")
        .order_by("voyage__captain_id", "voyage_id")
    )
    meetings = [m for m in _meetings(days) if m.territory]
    if not meetings:
        return []
    tables = {table.territory: table for table in catalog.encounter_tables()}
    categories = {category.name: category for category in catalog.encounter_categories()}
    unknown = sorted({m.territory for m in meetings} - set(tables))
    if unknown:
        raise ValueError(f"no encounter table for {unknown}")

    # Round 1: the encounter table (SGC-ENC-15).
    table_rolls = dice.roll_many(
        campaign,
        [(f"Encounter table, {m.territory}, day {day}: {m.captain.name}", 6, m.captain) for m in meetings],
        day=day,
    )
    for meeting, table_roll in zip(meetings, table_rolls, strict=True):
        meeting.table_roll = table_roll
        meeting.line = tables[meeting.territory].encounter_for(table_roll.result)
        meeting.wanted = rules.parse_line(meeting.line, tuple(categories.values()))

    # Round 2: a draw from the category's pool for each ship (SGC-ENC-17, with the hold-back of SGC-ENC-18) and
    # the High Martians' boarding die (SGC-ETYPE-03). A pool of one class needs no die.
    sizes = _hull_sizes()
    made = _voyages_made([m.captain.pk for m in meetings])
    wants: list[tuple[str, int, Captain | None]] = []
    slots: list[tuple[_Meeting, str, int]] = []
    for meeting in meetings:
        for n, wanted in enumerate(meeting.wanted):
            category = categories[wanted.category]
            pool = rules.class_pool(
                category.class_ids,
                sizes,
                voyages_made=made.get(meeting.captain.pk, 0),
                holdback_voyages=campaign.holdback_voyages,
            )
            meeting.pools.append(pool)
            meeting.draws.append(None)
            meeting.crew_dice.append(None)
            if len(pool) > 1:
                wants.append((f"Encounter draw, {wanted.category} {n + 1}, day {day}", len(pool), meeting.captain))
                slots.append((meeting, "draw", n))
            if wanted.role != rules.PRIZE and rules.needs_crew_die(category):
                wants.append((f"High Martian boarding quality, ship {n + 1}, day {day}", 6, meeting.captain))
                slots.append((meeting, "crew", n))
    for (meeting, kind, n), roll in zip(slots, dice.roll_many(campaign, wants, day=day), strict=True):
        (meeting.draws if kind == "draw" else meeting.crew_dice)[n] = roll

    encounters = [
        Encounter(
            campaign=campaign,
            day=day,
            q=m.q,
            r=m.r,
            territory=m.territory,
            table_roll=m.table_roll,
            result=m.line,
        )
        for m in meetings
    ]
    Encounter.objects.bulk_create(encounters)
    if any(encounter.pk is None for encounter in encounters):  # a backend that does not return ids
        encounters = list(Encounter.objects.filter(campaign=campaign, day=day).order_by("-pk")[: len(meetings)])[::-1]

    # The names of the player's ships and prizes in tow in each encounter: the ships met are named apart.
    towed = CampaignShip.objects.filter(towed_by_id__in=[d.voyage.ship_id for m in meetings for d in m.days])
    prize_names: dict[int, list[str]] = {}
    for ship_id, name in towed.values_list("towed_by_id", "name"):
        prize_names.setdefault(ship_id, []).append(name)
    ships: list[EncounterShip] = []
    for meeting, encounter in zip(meetings, encounters, strict=True):
        class_ids = [
            rules.drawn_class(pool, roll.result if roll is not None else 1)
            for pool, roll in zip(meeting.pools, meeting.draws, strict=True)
        ]
        class_names = [catalog.ship_class(class_id).name for class_id in class_ids]
        taken = [name for d in meeting.days for name in (d.voyage.ship.name, *prize_names.get(d.voyage.ship_id, ()))]
        names = rules.ship_names(class_names, taken=taken)
        for n, wanted in enumerate(meeting.wanted):
            crew_die = meeting.crew_dice[n]
            crew = rules.crew_for(
                categories[wanted.category], wanted.role, crew_die.result if crew_die is not None else None
            )
            ships.append(
                EncounterShip(
                    encounter=encounter,
                    category=wanted.category,
                    class_id=class_ids[n],
                    name=names[n],
                    crew_quality=crew.quality,
                    boarding_quality=crew.boarding_quality,
                    high_martian=crew.high_martian,
                    towed_by=names[wanted.towed_by] if wanted.towed_by is not None else "",
                    draw_roll=meeting.draws[n],
                )
            )
    EncounterShip.objects.bulk_create(ships)
    Encounter.voyages.through.objects.bulk_create(
        [
            Encounter.voyages.through(encounter_id=encounter.pk, voyage_id=voyage_day.voyage_id)
            for meeting, encounter in zip(meetings, encounters, strict=True)
            for voyage_day in meeting.days
        ]
    )
    for meeting, encounter in zip(meetings, encounters, strict=True):
        for voyage_day in meeting.days:
            voyage_day.encounter = encounter
    VoyageDay.objects.bulk_update([d for m in meetings for d in m.days], ["encounter"])
    CampaignShip.objects.filter(pk__in=[d.voyage.ship_id for m in meetings for d in m.days]).update(
        status=ShipStatus.IN_BATTLE
    )
    Captain.objects.filter(pk__in=[m.captain.pk for m in meetings]).update(status=CaptainStatus.IN_BATTLE)

    for encounter in encounters:  # by name: the task's module imports the battle opener, which imports this one
        task_queue.after_commit("strategic_map.encounter_battle_open", encounter.pk)
    return encounters
