"""Test-only tasks, loaded by the test worker with --include. They record what happened in Redis."""

from __future__ import annotations

import time

import redis
from celery import shared_task
from django.conf import settings


@shared_task(name="tests.probe.slow_count")
def slow_count(key: str, seconds: float) -> int:
    """Count a start, sleep, count a finish: a task that can be killed halfway."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    started = int(client.incr(f"{key}:started"))
    time.sleep(seconds)
    client.incr(f"{key}:finished")
    return started
