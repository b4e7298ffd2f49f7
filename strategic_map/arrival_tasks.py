"""Celery tasks of one part of the strategic map app (strategic_map.tasks imports them for discovery)."""

from __future__ import annotations
