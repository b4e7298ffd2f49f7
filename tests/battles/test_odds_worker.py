"""The odds calculator on a real Celery worker (Redis broker, PostgreSQL): the request queues one task per chunk
after commit, the chunks are stored once each, and the chunk that completes the set marks the run done; a task
delivered again (acks late: its worker was killed) counts nothing twice."""

from __future__ import annotations

import re
import time

import pytest

from battles import odds
from battles.engine import simulate
from battles.models import OddsChunk, OddsRun, OddsStatus
from tests.infra.test_celery_worker import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

CHUNK_TASK_RECEIVED = "Task battles.run_odds_chunk["  # the worker's log line as a chunk's task comes to it
RECEIVED_ID = re.compile(r"Task battles\.run_odds_chunk\[([0-9a-f-]+)\] received")


def status(run_id: int) -> str:
    return str(OddsRun.objects.get(pk=run_id).status)


def uninterrupted(run: OddsRun) -> list[dict[str, object]]:
    """The run's outcomes played chunk after chunk in this process, undisturbed."""
    return [o for index in range(len(odds.plan_of(run))) for o in simulate.play_chunk(odds.chunk_job(run, index))]


def test_a_worker_plays_the_chunks_and_the_last_one_marks_the_run_done(live_celery_worker, club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=8)
    chunks = len(odds.plan_of(run))

    wait_for(lambda: status(run.pk) == OddsStatus.DONE, "the worker to play every chunk", 180)

    assert live_celery_worker.log().count("battles.run_odds_chunk") >= chunks
    assert list(OddsChunk.objects.filter(run=run).values_list("index", flat=True)) == list(range(chunks))
    done = OddsRun.objects.get(pk=run.pk)
    assert done.summary == simulate.distribution(odds.outcomes_of(run.pk))
    assert done.summary["runs"] == 8
    # A chunk's task delivered again finds its chunk stored: nothing is played or counted twice.
    odds.task_queue.registered_task("battles.run_odds_chunk").delay(run.pk, 0).get(timeout=60)
    assert OddsChunk.objects.filter(run=run).count() == chunks
    assert OddsRun.objects.get(pk=run.pk).summary == done.summary


def test_a_worker_killed_in_the_middle_of_a_chunk_loses_nothing_and_counts_nothing_twice(live_celery_worker, club):
    """SIGKILL while the worker plays chunk 1 of a Pitched Battle run (two battles, over a second of CPU): the chunk
    is not stored, its message stays unacknowledged and is handed to the next worker once the visibility timeout
    (5 s in the test worker's environment) has passed; the run ends with every run index once, the outcomes those
    of the same run played undisturbed."""
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="pitched-battle", runs=6)
    plan = odds.plan_of(run)
    assert plan == [(0, 2), (2, 4), (4, 6)]

    wait_for(lambda: OddsChunk.objects.filter(run=run).exists(), "the worker to store chunk 0", 120)
    wait_for(lambda: live_celery_worker.log().count(CHUNK_TASK_RECEIVED) >= 2, "the worker to take chunk 1", 30)
    time.sleep(0.3)  # into chunk 1's first battle
    live_celery_worker.kill()

    assert list(OddsChunk.objects.filter(run=run).values_list("index", flat=True)) == [0]  # killed mid-chunk
    assert status(run.pk) == OddsStatus.RUNNING
    expected = uninterrupted(run)  # meanwhile, the same runs undisturbed
    live_celery_worker.restart()
    wait_for(lambda: status(run.pk) == OddsStatus.DONE, "the next worker to finish the run", 180)

    chunks = list(OddsChunk.objects.filter(run=run).order_by("index"))
    assert [(c.index, c.start, c.stop) for c in chunks] == [(i, *runs) for i, runs in enumerate(plan)]
    assert [n for c in chunks for n in range(c.start, c.stop)] == list(range(6))  # every run index once
    assert [len(c.outcomes) for c in chunks] == [2, 2, 2]
    assert odds.outcomes_of(run.pk) == expected
    done = OddsRun.objects.get(pk=run.pk)
    assert done.summary == simulate.distribution(expected)
    assert done.summary["runs"] == 6
    # One task per chunk, and one of them (chunk 1's) came twice: to the killed worker, then to the next one.
    received = RECEIVED_ID.findall(live_celery_worker.log())
    assert len(received) > len(set(received)) == len(plan)
