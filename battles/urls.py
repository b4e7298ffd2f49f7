"""Battle pages and the battle API (``api/battles/...``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles import api, designer_views, odds_views, sheet_views, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/", views.my_battles, name="battle_mine"),
    path("rules/", designer_views.ruleset_tools, name="ruleset_tools"),
    path("rules/<str:key>/card-designer/", designer_views.card_designer, name="card_designer"),
    path("campaigns/<slug:slug>/battles/", views.campaign_battles, name="battle_list"),
    path("campaigns/<slug:slug>/battles/new/", views.battle_new, name="battle_new"),
    path("campaigns/<slug:slug>/battles/new/scenario/", views.battle_new_sides, name="battle_new_sides"),
    path("battles/<int:pk>/", views.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/changes/", views.battle_changes, name="battle_changes"),
    path("battles/<int:pk>/pace/", views.battle_pace, name="battle_pace"),
    path("battles/<int:pk>/decisions/<str:request_id>/", views.battle_decision, name="battle_decision"),
    path("battles/<int:pk>/orders/", views.battle_orders, name="battle_orders"),
    path("battles/<int:pk>/leave/", views.battle_leave, name="battle_leave"),
    path("battles/<int:pk>/hand-to-ai/", views.battle_hand_to_ai, name="battle_hand_to_ai"),
    path("battles/<int:pk>/correct/", views.battle_correct, name="battle_correct"),
    path("battles/<int:pk>/replay/", views.battle_replay, name="battle_replay"),
    path("battles/<int:battle_id>/odds/", odds_views.odds_for_battle, name="odds_for_battle"),
    path("campaigns/<slug:slug>/odds/", odds_views.odds_for_scenario, name="odds_for_scenario"),
    path("odds/<int:run_id>/", odds_views.odds_detail, name="odds_detail"),
    path("odds/<int:run_id>/stop/", odds_views.odds_stop, name="odds_stop"),
    path("battles/<int:battle_id>/ships/<str:name>/sheet/", sheet_views.ship_sheet, name="battle_ship_sheet"),
    path(
        "battles/<int:battle_id>/ships/<str:name>/sheet.pdf", sheet_views.ship_sheet_pdf, name="battle_ship_sheet_pdf"
    ),
    path("api/battles/", api.BattleListApi.as_view(), name="api_battle_list"),
    path("api/battles/<int:battle_id>/", api.BattleDetailApi.as_view(), name="api_battle_detail"),
    path("api/battles/<int:battle_id>/decisions/", api.BattleDecisionsApi.as_view(), name="api_battle_decisions"),
    path("api/battles/<int:battle_id>/judgement/", api.BattleJudgementApi.as_view(), name="api_battle_judgement"),
    path("api/battles/<int:battle_id>/events/", api.BattleEventsApi.as_view(), name="api_battle_events"),
    path(
        "api/battles/<int:battle_id>/verification/",
        api.BattleVerificationApi.as_view(),
        name="api_battle_verification",
    ),
    path("api/battles/<int:battle_id>/result/", api.BattleResultApi.as_view(), name="api_battle_result"),
    path("api/battles/<int:battle_id>/leave/", api.BattleLeaveApi.as_view(), name="api_battle_leave"),
    path("api/battles/<int:battle_id>/corrections/", api.BattleCorrectionsApi.as_view(), name="api_battle_corrections"),
]
