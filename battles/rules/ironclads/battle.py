"""The whole board of an Ironclads battle as the app plays it (docs/ironclads.md "The turn, in the app"): the map
and the ships (board.py), the scenario's title, side names and turn limit, and the Game Turn's state: the side with
the Initiative, the side whose ship moved last and the ship a side has chosen to move (IC-SEQ-07), the squadrons
when Appendix D is played (IC-FORM-01), and the Game Turn each ship's fire burns to (IC-PROB: her salvoes halved).

Frozen; the fold (fold.py) makes a new one for every event. Nothing is hidden in Ironclads: every side sees the
whole board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.formations import Formations


@dataclass(frozen=True, slots=True)
class Battle:
    board: Board
    turns: int
    title: str = ""
    side_names: Mapping[str, str] = field(default_factory=dict)
    initiative: str = ""  # the side that has it this Game Turn (IC-INIT-02); "" before it is rolled
    last_moved: str = ""  # the side whose ship moved last this Movement Phase (IC-SEQ-07); "" none yet
    chosen: str = ""  # the ship her side chose to move next, awaiting her order
    ordered: bool = False  # the chosen ship's order is given (``plan``), to be carried out
    plan: tuple[str, ...] = ()  # her order as the form spells it (orders.py)
    formations: Formations | None = None  # None: Appendix D not played (IC-FORM-01)
    fires: Mapping[str, int] = field(default_factory=dict)  # ship -> the last Game Turn her fire halves her salvoes

    @property
    def ships(self) -> tuple[Ship, ...]:
        return self.board.ships

    def ship(self, name: str) -> Ship:
        return self.board.ship(name)

    def ships_of(self, side: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.board.ships if s.side == side)

    def afloat_of(self, side: str) -> tuple[Ship, ...]:
        """Her side's ships still on the table: neither sunk nor broken off (IC-END-02 counts both as gone)."""
        return tuple(s for s in self.ships_of(side) if s.afloat)

    def with_board(self, board: Board) -> Battle:
        return evolve(self, board=board)

    def view(self, side: str | None) -> JSON:
        """The board as ``side`` sees it: everything, as the table shows it to both players."""
        return self.to_json()

    def to_json(self) -> JSONObject:
        return {
            **self.board.to_json(),
            "turns": self.turns,
            "title": self.title,
            "side_names": dict(self.side_names),
            "initiative": self.initiative,
            "last_moved": self.last_moved,
            "chosen": self.chosen,
            "ordered": self.ordered,
            "plan": list(self.plan),
            "formations": None if self.formations is None else self.formations.to_json(),
            "fires": dict(self.fires),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Battle:
        formations = data.get("formations")
        return cls(
            board=Board.from_json(data),
            turns=read_int(data["turns"]),
            title=read_str(data.get("title", "")),
            side_names={str(k): read_str(v) for k, v in read_object(data.get("side_names", {})).items()},
            initiative=read_str(data.get("initiative", "")),
            last_moved=read_str(data.get("last_moved", "")),
            chosen=read_str(data.get("chosen", "")),
            ordered=read_bool(data.get("ordered", False)),
            plan=tuple(read_str(t) for t in read_list(data.get("plan", []))),
            formations=None if formations is None else Formations.from_json(read_object(formations)),
            fires={str(k): read_int(v) for k, v in read_object(data.get("fires", {})).items()},
        )
