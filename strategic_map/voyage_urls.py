"""URLs of the voyages part of the strategic map app (included by strategic_map.urls): the voyage API."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from strategic_map import voyage_api

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/campaigns/<slug:slug>/voyages/", voyage_api.VoyageListApi.as_view(), name="api_voyage_list"),
    path(
        "api/campaigns/<slug:slug>/voyages/preview/",
        voyage_api.VoyagePreviewApi.as_view(),
        name="api_voyage_preview",
    ),
    path("api/campaigns/<slug:slug>/voyages/route/", voyage_api.VoyageRouteApi.as_view(), name="api_voyage_route"),
    path("api/voyages/<int:voyage_id>/", voyage_api.VoyageDetailApi.as_view(), name="api_voyage_detail"),
]
