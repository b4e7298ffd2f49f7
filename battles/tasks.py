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
    """Queue a task for each chunk of an odds run not stored yet (a message queued before runs were split into
    chunks, or a run resumed by hand). Returns how many chunks were queued."""
    return odds.queue_chunks(run_id)


@shared_task(name="battles.run_odds_chunk")
def run_odds_chunk(run_id: int, index: int) -> int:
    """Play and store one chunk of an odds run: the worker's processes take chunks side by side. A redelivered
    task (acks late: its worker was killed) finds its chunk stored, or plays it again on the same seeds; a stopped
    run's chunk plays nothing. Returns the runs stored."""
    return odds.odds_chunk(run_id=run_id, index=index)
