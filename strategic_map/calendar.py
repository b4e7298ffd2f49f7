"""The campaign calendar: when the next day ticks, when orders are due: owned by the tick work. INTERFACE ONLY."""

from __future__ import annotations

from datetime import datetime

from campaign.models import Campaign, Captain


def next_tick_at(campaign: Campaign) -> datetime | None:
    """When the next campaign day ticks (None while paused), extensions included."""
    raise NotImplementedError("next_tick_at")


def order_deadline(campaign: Campaign, captain: Captain | None = None) -> datetime | None:
    """When orders for the next day are due (for this captain, extensions included); None while paused."""
    raise NotImplementedError("order_deadline")
