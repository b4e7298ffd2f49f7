"""URLs of one part of the strategic map app (included by strategic_map.urls): the encounter reports."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from strategic_map import encounter_api

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "api/campaigns/<slug:slug>/encounters/",
        encounter_api.EncounterListApi.as_view(),
        name="api_encounter_list",
    ),
    path("api/encounters/<int:encounter_id>/", encounter_api.EncounterDetailApi.as_view(), name="api_encounter_detail"),
]
