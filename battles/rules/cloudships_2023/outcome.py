"""Who is in the battle, for the app's lists: each side's name and ships (BaseRuleset's outcome reads it until a
later slice reports fates, crews and captures in a BattleOutcome of its own)."""

from __future__ import annotations

from battles.engine.events import JSON, JSONObject
from battles.engine.state import BattleState
from battles.rules.cloudships_2023.board import Board


def roster(state: BattleState[Board]) -> list[JSONObject]:
    board = state.board
    entries: list[JSONObject] = []
    for side in state.sides:
        ships: list[JSON] = [
            {"name": ship.name, "class": ship.panel.class_id or ship.panel.name}
            for ship in board.ships
            if ship.side == side
        ]
        entries.append({"side": side, "name": board.side_names.get(side, side), "ships": ships})
    return entries
