"""Queue a Celery task by its registered name once the caller's transaction commits.

The services that queue work name the task instead of importing its module: a tasks module imports the services
it runs, never the other way round, so no service and no task import each other in a circle (import contracts
in pyproject.toml keep it so). The task is looked up in the app's registry, not sent blind by name: with no
REDIS_URL tasks run eagerly in-process (config/settings.py), and only a registered task's ``apply_async`` does
that (``send_task`` would wait for a worker that is not there). Looking it up at once also makes a misspelt
name fail inside the caller's transaction, not in a worker or after the commit.
"""

from __future__ import annotations

from typing import Any

from celery import Task
from django.db import transaction

from config.celery import app

__all__ = ["after_commit", "registered_task"]


def registered_task(name: str) -> Task[..., Any]:
    """The task registered under ``name``. A web process has not always imported every app's tasks module yet:
    the first miss runs the app's discovery (every installed app's ``tasks``), as a worker does when it starts."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    try:
        return app.tasks[name]
    except KeyError:
        raise LookupError(f"no Celery task is registered as {name!r}") from None


def after_commit(name: str, *args: object, robust: bool = False) -> None:
    """Queue the task ``name`` with ``args`` after the current transaction commits (at once outside one).
    ``robust``: a task that cannot be queued, or run eagerly fails, is logged and does not undo the caller's work
    (Django's ``on_commit(robust=True)``)."""
    task = registered_task(name)
    transaction.on_commit(lambda: task.apply_async(args), robust=robust)
