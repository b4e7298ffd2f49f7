"""Celery tasks of the daily tick (strategic_map.tasks imports them for discovery). Thin, take ids, safe to run
twice: a day ticks once (strategic_map.tick), an arrival happens once (strategic_map.arrival)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from strategic_map import arrival, calendar, tick

__all__ = ["campaign_tick_task", "tick_due_campaigns", "voyage_arrive_task"]


@shared_task(name="strategic_map.tick_due_campaigns", acks_late=True)
def tick_due_campaigns() -> int:
    """Celery beat, every minute: queue the next day of every campaign not paused whose tick is due (its
    scheduled time and the umpire's extensions for the day all past); the number queued. Each is queued for a
    fixed day, so a second beat before the first tick finishes queues a task that finds the day done."""
    now = timezone.now()
    due = calendar.campaigns_due(now)
    for campaign in due:
        campaign_tick_task.delay(campaign.pk, campaign.day + 1)
    return len(due)


@shared_task(name="strategic_map.campaign_tick", acks_late=True)
def campaign_tick_task(campaign_id: int, through_day: int | None = None, days: int = 1) -> list[int]:
    """Tick one campaign's next ``days`` days, never past ``through_day``; the days finished. A worker killed
    halfway leaves whole chunks done; the message comes back (acks late) and the next worker finishes the day."""
    return tick.campaign_tick(campaign_id=campaign_id, days=days, through_day=through_day)


@shared_task(name="strategic_map.tick_arrival", acks_late=True)
def voyage_arrive_task(voyage_id: int, city: str, day: int) -> None:
    """A ship ended the day in a friendly city with no orders left: her voyage ends there."""
    arrival.voyage_arrive(voyage_id=voyage_id, city=city, day=day)
