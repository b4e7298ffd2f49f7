"""Celery finds tasks in an app's ``tasks`` module: the strategic map's live in one module per part."""

from __future__ import annotations

from strategic_map.arrival_tasks import *  # noqa: F403
from strategic_map.encounter_tasks import *  # noqa: F403
from strategic_map.tick_tasks import *  # noqa: F403
