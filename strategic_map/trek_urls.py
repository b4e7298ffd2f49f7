"""URLs of one part of the strategic map app (included by strategic_map.urls)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
