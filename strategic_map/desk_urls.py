"""The umpire's desk (strategic_map.desk_views): one page and the forms it posts, the campaign's umpire only."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from strategic_map import desk_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/desk/", desk_views.desk_page, name="campaign_desk"),
    path("campaigns/<slug:slug>/desk/pause/", desk_views.desk_pause, name="desk_pause"),
    path("campaigns/<slug:slug>/desk/resume/", desk_views.desk_resume, name="desk_resume"),
    path("campaigns/<slug:slug>/desk/extend/", desk_views.desk_extend, name="desk_extend"),
    path("campaigns/<slug:slug>/desk/run-day/", desk_views.desk_run_day, name="desk_run_day"),
    path("campaigns/<slug:slug>/desk/territories/", desk_views.desk_territory_numbers, name="desk_territory_numbers"),
    path("campaigns/<slug:slug>/desk/trek-table/cell/", desk_views.desk_trek_cell, name="desk_trek_cell"),
    path("campaigns/<slug:slug>/desk/trek-table/", desk_views.desk_trek_table, name="desk_trek_table"),
]
