"""The duel's AI captain: she places and plots to bring her broadside to bear at close range, and fires
whenever it bears. Deterministic: ties between equally good answers are broken by the side's own dice
stream, so a battle the AI plays replays exactly."""

from __future__ import annotations

from typing import Any

from battles.engine import dice, hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list
from battles.engine.state import BattleState
from battles.rules.duel.board import Board, Ship, follow
from battles.rules.duel.kinds import FIRE, PLACE, PLOT
from battles.rules.duel.validate import candidates


def _score(ship_hex: Hex, facing: int, enemy: Hex, long_range: int) -> int:
    """Higher is better: the enemy abeam and in reach, the closer the better; else just closer."""
    distance = hexgrid.distance(ship_hex, enemy)
    abeam = hexgrid.aspects(ship_hex, facing, enemy) & {hexgrid.Aspect.PORT, hexgrid.Aspect.STARBOARD}
    bearing = bool(abeam) and 0 < distance <= long_range
    return (100 if bearing else 0) - distance


class DuelCaptain:
    """A Policy (battles.engine.policies) for one side of a duel."""

    def __init__(self, seed: bytes, side: str) -> None:
        self._seed = seed
        self.name = f"duel captain {side}"

    def choose(self, ruleset: Any, state: BattleState[Board], request: DecisionRequest) -> JSON:
        if request.kind == FIRE:
            return {"fire": True} if {"fire": True} in (request.options or ()) else {"fire": False}
        board = state.board
        ship, enemy = board.ship_of(request.side), board.enemy_of(request.side)
        reach = board.long_range
        options = list(candidates(state, request))
        scored = [(self._rate(board, ship, enemy, option, request.kind, reach), n) for n, option in enumerate(options)]
        best = max(score for score, _ in scored)
        tied = [n for score, n in scored if score == best]
        pick = dice.face(self._seed, f"duel captain|{request.side}|{request.id}", 0, len(tied))
        return options[tied[pick - 1]]

    def _rate(self, board: Board, ship: Ship, enemy: Ship, option: JSON, kind: str, reach: int) -> int:
        if kind == PLACE and isinstance(option, dict):
            col, row = read_list(option["hex"])
            spot = hexgrid.from_odd_q(read_int(col), read_int(row))
            return _score(spot, read_int(option["facing"]), enemy.hex, reach)
        if kind == PLOT and isinstance(option, list):
            path = follow(ship, [str(step) for step in option])
            hex_, facing = path[-1] if path else (ship.hex, ship.facing)
            return _score(hex_, facing, enemy.hex, reach)
        return 0
