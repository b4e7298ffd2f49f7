"""Battle pages and the battle API (``api/battles/...``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/", views.my_battles, name="battle_mine"),
    path("campaigns/<slug:slug>/battles/", views.campaign_battles, name="battle_list"),
    path("campaigns/<slug:slug>/battles/new/", views.battle_new, name="battle_new"),
    path("campaigns/<slug:slug>/battles/new/scenario/", views.battle_new_sides, name="battle_new_sides"),
    path("battles/<int:pk>/", views.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/poll/", views.battle_poll, name="battle_poll"),
    path("battles/<int:pk>/decisions/<str:request_id>/", views.battle_decision, name="battle_decision"),
    path("battles/<int:pk>/leave/", views.battle_leave, name="battle_leave"),
    path("battles/<int:pk>/correct/", views.battle_correct, name="battle_correct"),
    path("battles/<int:pk>/replay/", views.battle_replay, name="battle_replay"),
]
