"""config.task_queue: services queue a task by its registered name, after their transaction commits, and with no
REDIS_URL the task runs eagerly in-process from the registry (what ``send_task`` would not do)."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from config import task_queue
from tests.celery_worker import PROJECT_DIR

pytestmark = pytest.mark.django_db

CLEAR_SESSIONS = "accounts.tasks.clear_expired_sessions"


def expired_session() -> None:
    Session.objects.create(session_key="expired", session_data="x", expire_date=timezone.now() - timedelta(days=1))


def test_the_task_runs_only_once_the_transaction_commits(django_capture_on_commit_callbacks, settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER
    expired_session()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        task_queue.after_commit(CLEAR_SESSIONS)
        assert Session.objects.filter(session_key="expired").exists()  # not yet: still inside the transaction
    assert len(callbacks) == 1
    assert not Session.objects.exists()  # ran eagerly, from the registry, after the commit


def test_a_rolled_back_transaction_queues_nothing(django_capture_on_commit_callbacks):
    expired_session()

    def failing_service() -> None:
        with transaction.atomic():
            task_queue.after_commit(CLEAR_SESSIONS)
            raise RuntimeError("the service failed")

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        failing_service()
    assert callbacks == []
    assert Session.objects.filter(session_key="expired").exists()


def test_a_misspelt_name_fails_in_the_callers_transaction():
    with pytest.raises(LookupError, match=r"battles\.resolve_batle"):
        task_queue.after_commit("battles.resolve_batle", 1)


def test_robust_keeps_the_callers_work_when_the_task_cannot_be_queued(django_capture_on_commit_callbacks, monkeypatch):
    def broker_down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("no broker")

    monkeypatch.setattr(task_queue.registered_task(CLEAR_SESSIONS), "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        task_queue.after_commit(CLEAR_SESSIONS, robust=True)  # logged, not raised
    with pytest.raises(ConnectionError), django_capture_on_commit_callbacks(execute=True):
        task_queue.after_commit(CLEAR_SESSIONS)


def test_a_fresh_process_finds_a_task_whose_module_nobody_imported_yet():
    """A web process imports services, never battles.tasks: the first lookup runs the app's task discovery."""
    probe = (
        "import django; django.setup()\n"
        "from config.celery import app\n"
        "assert 'battles.resolve_battle' not in app.tasks, 'already registered: the probe proves nothing'\n"
        "from config.task_queue import registered_task\n"
        "print(registered_task('battles.resolve_battle').name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=PROJECT_DIR,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "battles.resolve_battle"
