"""An encounter's battle on the campaign clock (issue 18): fought within a window of campaign days, never holding
the clock (SGC-ENC-19/20: the encounter is fought as a battle; the rules are silent on how long it may take).

The window, set when the battle opens (``encounter_window``), for an encounter met on day D:

- ``Encounter.window_ends_day`` = D + ``Campaign.encounter_battle_days``: at the start of the tick that runs that
  day, before any ship sails, the AI captains fight the rest of the battle for every side
  (``encounter_windows_close``, a step of strategic_map.tick), its result is carried back
  (strategic_map.arrival.encounter_result_apply) and the ship sails that same day on the orders she kept.
- ``Battle.hand_over_at``: the real time that tick is expected, i.e. the tick of day ``window_ends_day`` on the
  campaign's calendar: ``next_tick_at`` (the tick of day campaign.day + 1) plus a day's hours for each day after
  it. A campaign without a calendar (no next tick set) counts the window's hours from now. A pause, or a day run
  early by hand, moves the real hand-over; the day does not move (the players are told both).
- ``Battle.turn_minutes`` = the window's real minutes / ``Campaign.encounter_battle_turns``, where the window's
  real minutes are ``encounter_battle_days * hours_per_day * 60``: every decision of a turn shares one deadline,
  that long after the turn began, never later than hand_over_at (battles.services._deadline).

Decisions where the texts are silent (docs/strategic-map.md, "The battle's window", SGC-ENC-19): the window
counts from the day met, not from when the battle's worker opened it; at the window's end every side, the
player's and the ships met, is played by the AI captains to the battle's end (no draw declared by the clock),
and the hand-over is entered in the campaign's audit with its reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from battles import services as battle_services
from battles.models import BattleStatus, Controller
from campaign.models import AuditEntry, Campaign
from strategic_map import arrival
from strategic_map.encounter_locks import encounter_locked
from strategic_map.models import Encounter

logger = logging.getLogger(__name__)

HAND_OVER_ACTION = "battle handed to the AI"


@dataclass(frozen=True, slots=True)
class Window:
    """An encounter battle's window: its last day, the real hand-over time, a turn's minutes."""

    ends_day: int
    hand_over_at: datetime
    turn_minutes: int


def window_real_minutes(campaign: Campaign) -> int:
    """The window in real minutes: encounter_battle_days * hours_per_day * 60."""
    return max(campaign.encounter_battle_days, 1) * max(campaign.hours_per_day, 1) * 60


def encounter_window(campaign: Campaign, met_day: int, *, now: datetime | None = None) -> Window:
    """The window of a battle met on ``met_day`` (see the module's docstring for each number)."""
    days = max(campaign.encounter_battle_days, 1)
    hours = max(campaign.hours_per_day, 1)
    ends_day = met_day + days
    if campaign.next_tick_at is not None:
        hand_over_at = campaign.next_tick_at + timedelta(hours=hours * (ends_day - (campaign.day + 1)))
    else:
        hand_over_at = (now or timezone.now()) + timedelta(hours=hours * days)
    turns = max(campaign.encounter_battle_turns, 1)
    return Window(ends_day, hand_over_at, max(window_real_minutes(campaign) // turns, 1))


def _due(campaign_id: int, day: int, battle_days: int) -> Q:
    """Encounters whose window has closed by ``day`` (one opened before windows had a last day counts from the
    day met), or whose battle is over, and whose result is not yet carried back."""
    return Q(campaign_id=campaign_id, applied_at__isnull=True, battle__isnull=False) & (
        Q(window_ends_day__lte=day)
        | Q(window_ends_day__isnull=True, day__lte=day - battle_days)
        | Q(battle__status=BattleStatus.FINISHED)
    )


def encounter_windows_close(*, campaign: Campaign, day: int) -> int:
    """The tick's step at the start of ``day``, before the ships sail: every encounter battle whose window has
    closed is finished by the AI captains and its result carried back, each in its own transaction. The number
    closed now; a second run finds nothing to do (Encounter.applied_at)."""
    due = list(
        Encounter.objects.filter(_due(campaign.pk, day, max(campaign.encounter_battle_days, 1)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return sum(encounter_window_close(encounter_id=pk, day=day) for pk in due)


@transaction.atomic
def encounter_window_close(*, encounter_id: int, day: int) -> bool:
    """Close one encounter's window on ``day``: the battle handed to the AI captains for every side and fought to
    its end, its result carried back. Locks as campaign.locks orders: the campaign, the encounter, then the battle
    (battles.services) and the voyages, captains and ships (the apply). False when there was nothing to do."""
    campaign, encounter = encounter_locked(encounter_id)
    if campaign is None or encounter is None or encounter.applied_at is not None or encounter.battle is None:
        return False
    battle = encounter.battle
    if not battle.is_finished:
        ends = encounter.window_ends_day or encounter.day + max(campaign.encounter_battle_days, 1)
        if ends > day:
            return False
        reason = (
            f"The encounter's battle window ended on day {ends}: the AI captains fight it out for every side "
            "and the ship sails on."
        )
        sides = list(battle.sides.exclude(controller=Controller.AI).values_list("key", flat=True))
        battle_services.battle_hand_over_to_ai(battle_id=battle.pk, reason=reason)
        AuditEntry.objects.create(
            campaign=campaign,
            actor_id=battle.created_by_id,  # the umpire the battle was opened for: the clock acts in his name
            action=HAND_OVER_ACTION,
            reason=reason,
            data={"battle": battle.pk, "encounter": encounter.pk, "day": day, "sides": sides},
        )
    applied = arrival.encounter_result_apply(encounter_id=encounter.pk)
    logger.info("encounter %s: window closed on day %s (result applied: %s)", encounter.pk, day, applied)
    return applied
