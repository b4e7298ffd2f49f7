"""Battle pages and the battle API (``api/battles/...``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles import odds_views, sheet_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/<int:battle_id>/odds/", odds_views.odds_for_battle, name="odds_for_battle"),
    path("campaigns/<slug:slug>/odds/", odds_views.odds_for_scenario, name="odds_for_scenario"),
    path("odds/<int:run_id>/", odds_views.odds_detail, name="odds_detail"),
    path("battles/<int:battle_id>/ships/<str:name>/sheet/", sheet_views.ship_sheet, name="battle_ship_sheet"),
    path(
        "battles/<int:battle_id>/ships/<str:name>/sheet.pdf", sheet_views.ship_sheet_pdf, name="battle_ship_sheet_pdf"
    ),
]
