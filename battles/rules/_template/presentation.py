"""What the players see: the ruleset's events in words (a table of tellers, battles/engine/telling.py), the map
and the record sheets as data (battles/engine/presentation.py). The generic defaults already draw pieces with a
``name``, ``side`` and ``hex`` and sheets of ``x``/``x_max`` counts; override what the ruleset can say better
(battles/rules/duel/presentation.py: counters with badges, a sheet of its own look)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.telling import Names, Teller
from battles.rules._template.kinds import SCORED


def _scored(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['piece']} scores a point"


TELLERS: dict[str, Teller] = {SCORED: _scored}
