"""The campaign calendar: when the next day ticks and when its orders are due.

A campaign day lasts ``hours_per_day`` real hours; orders for the next day are due ``order_deadline_hours``
into it, i.e. (hours_per_day - order_deadline_hours) before the tick. The umpire's extensions for that day
(OrderExtension: one captain, or everyone) push the deadline, and the tick waits for the last of them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max, Q

from campaign.models import Campaign, Captain
from strategic_map.models import OrderExtension


def _latest_extension(campaign: Campaign, captain: Captain | None) -> datetime | None:
    extensions = OrderExtension.objects.filter(campaign=campaign, day=campaign.day + 1)
    if captain is None:
        extensions = extensions.filter(captain__isnull=True)
    else:
        extensions = extensions.filter(Q(captain__isnull=True) | Q(captain=captain))
    latest: datetime | None = extensions.aggregate(latest=Max("until"))["latest"]
    return latest


def scheduled_deadline(campaign: Campaign) -> datetime | None:
    """The day's order deadline before any extension; None while paused or unscheduled."""
    if campaign.paused or campaign.next_tick_at is None:
        return None
    return campaign.next_tick_at - timedelta(hours=max(campaign.hours_per_day - campaign.order_deadline_hours, 0))


def order_deadline(campaign: Campaign, captain: Captain | None = None) -> datetime | None:
    """When orders for the next day are due (for this captain, extensions included); None while paused."""
    deadline = scheduled_deadline(campaign)
    if deadline is None:
        return None
    extended = _latest_extension(campaign, captain)
    return max(deadline, extended) if extended is not None else deadline


def next_tick_at(campaign: Campaign) -> datetime | None:
    """When the next campaign day ticks (None while paused or unscheduled): the scheduled time, or later if an
    extension for anyone runs past it."""
    if campaign.paused or campaign.next_tick_at is None:
        return None
    latest = OrderExtension.objects.filter(campaign=campaign, day=campaign.day + 1).aggregate(latest=Max("until"))[
        "latest"
    ]
    return max(campaign.next_tick_at, latest) if latest is not None else campaign.next_tick_at


def campaigns_due(now: datetime) -> list[Campaign]:
    """The campaigns whose next day should tick by ``now``: not paused, scheduled at or before it, and every
    extension of the day's orders run out."""
    scheduled = Campaign.objects.filter(paused=False, next_tick_at__lte=now).order_by("pk")
    return [campaign for campaign in scheduled if (due := next_tick_at(campaign)) is not None and due <= now]
