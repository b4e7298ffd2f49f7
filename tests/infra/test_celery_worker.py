"""A real Celery worker on Redis: tasks cross the broker, and a killed worker's task is not lost."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import redis
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.tasks import clear_expired_sessions
from config.celery import app as celery_app

pytestmark = pytest.mark.redis


def test_a_worker_runs_a_project_task_against_the_test_database(live_celery_worker):
    Session.objects.create(session_key="expired", session_data="x", expire_date=timezone.now() - timedelta(days=1))
    Session.objects.create(session_key="current", session_data="x", expire_date=timezone.now() + timedelta(days=1))

    result = clear_expired_sessions.delay()

    assert result.get(timeout=60) == "ok"
    assert list(Session.objects.values_list("session_key", flat=True)) == ["current"]
    assert "accounts.tasks.clear_expired_sessions" in live_celery_worker.log()


def test_a_task_of_a_killed_worker_runs_again_on_the_next_worker(live_celery_worker):
    """acks_late + reject_on_worker_lost: the message stays unacknowledged when the worker dies."""
    probe = redis.Redis.from_url(live_celery_worker.redis_url)
    key = f"probe-{time.time_ns()}"
    celery_app.send_task("tests.probe.slow_count", args=[key, 4.0])

    wait_for(lambda: probe.get(f"{key}:started") == b"1", "the first worker to start the task")
    live_celery_worker.kill()
    assert probe.get(f"{key}:finished") is None
    live_celery_worker.restart()

    wait_for(lambda: probe.get(f"{key}:finished") == b"1", "the task to finish on the second worker", 90)
    assert probe.get(f"{key}:started") == b"2"


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")
