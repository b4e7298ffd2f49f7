"""The AI captain: a Policy (battles/engine/policies.py) that answers for a side no one plays. Deterministic:
any chance comes from the battle's counter-based dice (``dice.face``), never from ``random``."""

from __future__ import annotations

from typing import Any

from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules._template.board import Board


class Captain:
    def __init__(self, seed: bytes, side: str) -> None:
        self._seed = seed
        self.name = f"template captain {side}"

    def choose(self, ruleset: Any, state: BattleState[Board], request: DecisionRequest) -> JSON:
        options = list(request.options or ())
        return "bold" if "bold" in options else request.default
