"""Celery tasks of one part of the strategic map app (strategic_map.tasks imports them for discovery)."""

from __future__ import annotations

from celery import shared_task

from strategic_map import encounter_battle


@shared_task(name="strategic_map.encounter_battle_open")
def encounter_battle_open(encounter_id: int) -> int | None:
    """Open the encounter's battle, queued by the tick after it commits. Idempotent: an encounter that has its
    battle gets nothing new (a task run twice, or re-run after a worker died, opens one battle)."""
    battle = encounter_battle.encounter_battle_open(encounter_id=encounter_id)
    return None if battle is None else battle.pk
