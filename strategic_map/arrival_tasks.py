"""Celery tasks of one part of the strategic map app (strategic_map.tasks imports them for discovery): carrying a
finished encounter battle's result back into the campaign. Thin and safe to run twice: the service locks the
encounter and finds the work done (Encounter.applied_at)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from config import task_queue
from strategic_map import arrival
from strategic_map.models import Encounter

__all__ = ["encounter_result_apply_task", "encounter_results_sweep", "on_battle_finished"]


@shared_task(name="strategic_map.encounter_result_apply", acks_late=True)
def encounter_result_apply_task(encounter_id: int) -> bool:
    """Carry the encounter's battle result back; False when there was nothing (left) to do."""
    return arrival.encounter_result_apply(encounter_id=encounter_id)


@shared_task(name="strategic_map.encounter_results_sweep", acks_late=True)
def encounter_results_sweep() -> int:
    """Celery beat: apply every encounter whose battle finished but whose result was not carried back (a message
    lost between the battle's end and the apply task); the number applied."""
    return sum(arrival.encounter_result_apply(encounter_id=pk) for pk in arrival.encounters_finished_unapplied())


def on_battle_finished(sender: Any, *, battle_id: int, **kwargs: Any) -> None:
    """battles.signals.battle_finished: when the battle is an encounter's, queue the apply once the result is
    committed (strategic_map.apps connects this)."""
    encounter_id = (
        Encounter.objects.filter(battle_id=battle_id, applied_at__isnull=True).values_list("pk", flat=True).first()
    )
    if encounter_id is not None:
        task_queue.after_commit("strategic_map.encounter_result_apply", encounter_id)
