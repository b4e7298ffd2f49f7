"""Celery tasks for battles: thin, take ids, safe to run twice (the services lock the battle and find the
work done)."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from battles import announcements, odds, services


@shared_task(name="battles.resolve_battle")
def resolve_battle(battle_id: int) -> int:
    """Fold the stored decisions, let the AI answer its sides, and carry the battle on. Returns the number
    of new events (0 when another run already did the work)."""
    return services.battle_resolve(battle_id=battle_id).events


@shared_task(name="battles.apply_deadlines")
def apply_deadlines() -> int:
    """Celery beat: give the deadline default to every side whose deadline has passed."""
    return sum(services.battle_apply_deadline(battle_id=pk) for pk in services.battles_past_deadline())


@shared_task(name="battles.remind_deadlines")
def remind_deadlines() -> int:
    """Celery beat: remind whoever still owes a decision when a deadline draws near (once per deadline)."""
    made = 0
    for battle in announcements.battles_to_remind():
        with transaction.atomic():
            made += announcements.remind(battle)
    return made


@shared_task(name="battles.run_odds")
def run_odds(run_id: int) -> int:
    """Play an odds run's battles (resuming where a killed worker stopped). Returns how many are done."""
    return odds.odds_play(run_id=run_id).done
