"""The odds calculator on a real Celery worker (Redis broker, PostgreSQL): the request queues one task per chunk
after commit, the chunks are stored once each, and the chunk that completes the set marks the run done; a task
delivered again (acks late: its worker was killed) counts nothing twice."""

from __future__ import annotations

import pytest

from battles import odds
from battles.engine import simulate
from battles.models import OddsChunk, OddsRun, OddsStatus
from tests.infra.test_celery_worker import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


def status(run_id: int) -> str:
    return str(OddsRun.objects.get(pk=run_id).status)


def test_a_worker_plays_the_chunks_and_the_last_one_marks_the_run_done(live_celery_worker, club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=8)

    wait_for(lambda: status(run.pk) == OddsStatus.DONE, "the worker to play both chunks", 180)

    assert live_celery_worker.log().count("battles.run_odds_chunk") >= 2
    assert list(OddsChunk.objects.filter(run=run).values_list("index", flat=True)) == [0, 1]
    done = OddsRun.objects.get(pk=run.pk)
    assert done.summary == simulate.distribution(odds.outcomes_of(run.pk))
    assert done.summary["runs"] == 8
    # A chunk's task delivered again finds its chunk stored: nothing is played or counted twice.
    odds.task_queue.registered_task("battles.run_odds_chunk").delay(run.pk, 0).get(timeout=60)
    assert OddsChunk.objects.filter(run=run).count() == 2
    assert OddsRun.objects.get(pk=run.pk).summary == done.summary
