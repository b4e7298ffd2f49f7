"""What the campaign asks of the map it is played on, answered by the strategic map.

The strategic map sits above the campaign (it sails the campaign's ships and ticks its days), so the campaign never
imports it (an import contract in pyproject.toml keeps it so): the strategic map registers its answers here when
the apps are ready (strategic_map.apps). The campaign asks for the prize courts of the friendly cities
(SGC-MONEY-06), whether a campaign day's tick is running (a prize landed during it lands on that day), when the
next tick is expected (an auction's close, for the pages), and a captain's epic trek (a link from his page).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.core.exceptions import ImproperlyConfigured

from campaign.models import Campaign

__all__ = ["CampaignMap", "MapCity", "register", "the_map"]


@dataclass(frozen=True)
class MapCity:
    key: str  # as captains' and ships' ``city`` fields store it: the name in lower case
    name: str
    friendly: bool  # its hex is friendly by the map's allegiance rules: a prize court sits there


class CampaignMap(Protocol):
    def city(self, name: str) -> MapCity | None:
        """The city of this name (any case), or None when the map has none."""

    def cities(self) -> Sequence[MapCity]:
        """Every city on the map, in the map's order."""

    def day_ticking(self, campaign: Campaign, day: int) -> bool:
        """Whether the tick that runs ``day`` has begun and not finished."""

    def next_tick_at(self, campaign: Campaign) -> datetime | None:
        """When the next day ticks (its order extensions counted); None while paused or unscheduled."""

    def trek_under_way(self, captain_id: int) -> object | None:
        """The epic trek the captain is on, if any: only handed to his page, which reads its party and weeks."""


_registered: list[CampaignMap] = []


def register(answers: CampaignMap) -> None:
    """The map the campaign is played on (one: a second registration replaces the first)."""
    _registered[:] = [answers]


def the_map() -> CampaignMap:
    if not _registered:
        raise ImproperlyConfigured("No map answers for the campaign: is strategic_map in INSTALLED_APPS?")
    return _registered[0]
