"""The strategic map's pages and API, one module each so the parts stay apart."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("strategic_map.map_urls")),
    path("", include("strategic_map.voyage_urls")),
    path("", include("strategic_map.encounter_urls")),
    path("", include("strategic_map.trek_urls")),
    path("", include("strategic_map.desk_urls")),
]
