"""Battle resolution on a real Celery worker (Redis broker, PostgreSQL): queued after commit, and a worker
killed in the middle of a resolution leaves the battle as it was; the next worker does the work once."""

from __future__ import annotations

import time

import pytest
from django.db import DatabaseError, transaction

from battles import selectors, services
from battles.models import Battle, BattleEvent, BattleMode, BattleResult, BattleStatus
from tests.infra.test_celery_worker import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


def resolution_running(battle_id: int) -> bool:
    """The worker holds the battle's row lock while it resolves (services lock it first)."""
    try:
        with transaction.atomic():
            Battle.objects.select_for_update(nowait=True).get(pk=battle_id)
    except DatabaseError:
        return True
    return False


def finished(battle_id: int) -> bool:
    return Battle.objects.get(pk=battle_id).status == BattleStatus.FINISHED


def test_a_battle_resolves_on_the_worker_after_commit(live_celery_worker, club):
    battle = services.battle_create(
        campaign=club["campaign"], created_by=club["umpire"], scenario_slug="thieves-fall-out", mode=BattleMode.AUTO
    )  # no atomic block around the test: on_commit fires at once and the task crosses Redis

    wait_for(lambda: finished(battle.pk), "the worker to play the battle out", 120)

    assert "battles.resolve_battle" in live_celery_worker.log()
    assert selectors.battle_verify(battle=Battle.objects.get(pk=battle.pk)) == []


def test_a_worker_killed_mid_resolution_leaves_the_battle_consistent(live_celery_worker, club):
    battle = services.battle_create(
        campaign=club["campaign"], created_by=club["umpire"], scenario_slug="pitched-battle", mode=BattleMode.AUTO
    )
    wait_for(lambda: resolution_running(battle.pk), "the worker to start resolving", 60)
    time.sleep(0.5)  # well into the battle's thousands of events

    live_celery_worker.kill()

    stored = Battle.objects.get(pk=battle.pk)
    assert stored.status == BattleStatus.RESOLVING  # the transaction died with the worker: nothing half-written
    assert stored.state_seq == 0
    assert not BattleEvent.objects.filter(battle=battle).exists()
    live_celery_worker.restart()
    wait_for(lambda: finished(battle.pk), "the next worker to play the battle out", 180)
    battle.refresh_from_db()
    seqs = list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(battle.state_seq))  # every event once, none twice
    assert BattleResult.objects.filter(battle=battle).count() == 1
    assert selectors.battle_verify(battle=battle) == []
