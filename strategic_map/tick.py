"""The daily tick (SGC-MOVE-01, SGC-ENC-05): owned by the tick work. INTERFACE ONLY for now."""

from __future__ import annotations


def campaign_tick(*, campaign_id: int, days: int = 1) -> list[int]:
    """Run the campaign's next ``days`` days now (the umpire's button, the command, the beat task); the days
    run. Idempotent per (campaign, day)."""
    raise NotImplementedError("campaign_tick")
