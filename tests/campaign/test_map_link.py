"""campaign.map_link: the campaign asks its map through answers the strategic map registers when the apps are ready,
and never imports it (lint-imports)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from campaign import map_link
from strategic_map import voyage_rules
from strategic_map.campaign_link import StrategicMap
from strategic_map.mapdata import mars_map


def test_the_strategic_map_answers_for_the_campaign_once_the_apps_are_ready():
    assert isinstance(map_link.the_map(), StrategicMap)


def test_a_city_is_found_in_any_case_and_an_unknown_one_is_none():
    parhoon = map_link.the_map().city("PARHOON")
    assert parhoon == map_link.MapCity(key="parhoon", name="Parhoon", friendly=True)
    assert map_link.the_map().city("Atlantis") is None


def test_the_prize_courts_are_the_ports_a_voyage_comes_home_to():
    courts = {city.name for city in map_link.the_map().cities() if city.friendly}
    assert courts == {city.name for city in voyage_rules.friendly_cities(mars_map())}
    assert courts < {city.name for city in mars_map().cities}  # some cities are not friendly


def test_without_a_map_the_campaign_says_what_is_missing(monkeypatch):
    monkeypatch.setattr(map_link, "_registered", [])
    with pytest.raises(ImproperlyConfigured, match="strategic_map"):
        map_link.the_map()
