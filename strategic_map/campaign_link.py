"""The strategic map's answers to what the campaign asks of its map (campaign.map_link), registered when the
apps are ready (strategic_map.apps): the campaign, below the map, never imports it."""

from __future__ import annotations

from datetime import datetime

from campaign.map_link import MapCity
from campaign.models import Campaign
from strategic_map import calendar, trek_selectors, voyage_rules
from strategic_map.mapdata import City, UnknownMapName, mars_map
from strategic_map.models import CampaignDay, EpicTrek


def _city(city: City) -> MapCity:
    # Friendly as a voyage's home port is: a prize court sits wherever a ship may come home to (SGC-MONEY-06).
    friendly = city in voyage_rules.friendly_cities(mars_map())
    return MapCity(key=city.name.casefold(), name=city.name, friendly=friendly)


class StrategicMap:
    """campaign.map_link.CampaignMap over the map of Mars, the campaign calendar and the epic treks."""

    def city(self, name: str) -> MapCity | None:
        try:
            return _city(mars_map().city(name))
        except UnknownMapName:
            return None

    def cities(self) -> list[MapCity]:
        return [_city(city) for city in mars_map().cities]

    def day_ticking(self, campaign: Campaign, day: int) -> bool:
        return CampaignDay.objects.filter(campaign=campaign, day=day, finished_at__isnull=True).exists()

    def next_tick_at(self, campaign: Campaign) -> datetime | None:
        return calendar.next_tick_at(campaign)

    def trek_under_way(self, captain_id: int) -> EpicTrek | None:
        return trek_selectors.trek_under_way(captain_id=captain_id)
