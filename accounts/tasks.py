"""Housekeeping tasks for accounts. Safe to run twice: each one only removes what has expired."""

from celery import shared_task
from django.core.management import call_command


@shared_task(name="accounts.tasks.clear_expired_sessions")
def clear_expired_sessions() -> str:
    call_command("clearsessions")
    return "ok"
