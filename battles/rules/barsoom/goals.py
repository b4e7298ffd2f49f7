"""A scenario's story victory conditions as data (docs/barsoom.md section 10): each goal names what ends the battle
and the side it wins for; ``goals`` reads a scenario's ``victory`` list and checks it against the scenario's sides
and ships. What each goal means on the board, and when it is met, is victory.py's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine.events import JSONObject
from battles.engine.jsonread import read_int, read_object, read_str

ESCAPES, LOST, BROKEN = "escapes", "lost", "broken"
WHENS = (ESCAPES, LOST, BROKEN)
EDGES = ("north", "south", "east", "west")


@dataclass(frozen=True)
class Goal:
    """One story condition: ``when`` it is met (ESCAPES, LOST, BROKEN), the ``ship`` or ``side`` it watches, the
    ``edge`` of an escape, the ships still ``fighting`` at which a side is broken, and the side it ``wins`` for."""

    when: str
    wins: str
    ship: str = ""
    side: str = ""
    edge: str = ""
    fighting: int = 0

    def to_json(self) -> JSONObject:
        data: JSONObject = {"when": self.when, "wins": self.wins}
        if self.when == BROKEN:
            data.update(side=self.side, fighting=self.fighting)
        else:
            data["ship"] = self.ship
        if self.when == ESCAPES:
            data["edge"] = self.edge
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Goal:
        return cls(
            when=read_str(data["when"]),
            wins=read_str(data["wins"]),
            ship=read_str(data.get("ship", "")),
            side=read_str(data.get("side", "")),
            edge=read_str(data.get("edge", "")),
            fighting=read_int(data.get("fighting", 0)),
        )


def goals(items: Iterable[Any], sides: Iterable[str], ships: Iterable[str]) -> tuple[Goal, ...]:
    """A scenario's ``victory`` list read and checked against its sides and ships; a bad entry is a ValueError that
    says what is wrong with it."""
    sides, ships = tuple(sides), tuple(ships)
    found = []
    for number, item in enumerate(items, start=1):
        where = f"the scenario's victory condition {number}"
        try:
            goal = Goal.from_json(read_object(item))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{where}: {error}") from error
        if goal.when not in WHENS:
            raise ValueError(f"{where}: 'when' is {goal.when!r}, not one of {', '.join(WHENS)}")
        if goal.wins not in sides:
            raise ValueError(f"{where}: it wins for {goal.wins!r}, no side of the scenario")
        if goal.when == BROKEN and (goal.side not in sides or goal.fighting < 0):
            raise ValueError(f"{where}: a side of the scenario and the ships it fights on (0 or more) are needed")
        if goal.when != BROKEN and goal.ship not in ships:
            raise ValueError(f"{where}: {goal.ship!r} is no ship of the scenario")
        if goal.when == ESCAPES and goal.edge not in EDGES:
            raise ValueError(f"{where}: the edge {goal.edge!r} is not one of {', '.join(EDGES)}")
        found.append(goal)
    return tuple(found)
