"""URLs of the map: the page and its API (included by strategic_map.urls)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from strategic_map import map_api, map_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/map/", map_views.map_page, name="campaign_map"),
    path("api/campaigns/<slug:slug>/map/", map_api.MapApi.as_view(), name="api_campaign_map"),
    path(
        "api/campaigns/<slug:slug>/map/positions/", map_api.MapPositionsApi.as_view(), name="api_campaign_map_positions"
    ),
]
