"""Epic treks: the trek page and its forms, and the JSON API (included by strategic_map.urls)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from strategic_map import trek_api, trek_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/treks/<int:pk>/", trek_views.trek_page, name="trek_detail"),
    path("campaigns/<slug:slug>/treks/<int:pk>/step/", trek_views.trek_step_view, name="trek_step"),
    path("campaigns/<slug:slug>/treks/<int:pk>/home/", trek_views.trek_home_view, name="trek_home"),
    path("api/campaigns/<slug:slug>/treks/", trek_api.TrekListApi.as_view(), name="api_trek_list"),
    path("api/treks/<int:trek_id>/", trek_api.TrekDetailApi.as_view(), name="api_trek_detail"),
    path("api/treks/<int:trek_id>/route/", trek_api.TrekRouteApi.as_view(), name="api_trek_route"),
    path("api/treks/<int:trek_id>/home/", trek_api.TrekHomeApi.as_view(), name="api_trek_home"),
]
