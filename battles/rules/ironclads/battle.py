"""The whole board of an Ironclads battle as the app plays it (docs/ironclads.md "The turn, in the app"): the map
and the ships (board.py), the scenario's title, side names and turn limit, and the Game Turn's state: the side with
the Initiative, each side's order of moving (IC-SEQ-07), the side whose ship moved last and the ship to move next,
the squadrons when Appendix D is played (IC-FORM-01), and the Game Turn each ship's fire burns to (IC-PROB: her
salvoes halved).

Frozen; the fold (fold.py) makes a new one for every event. Nothing else is hidden in Ironclads: every side sees
the whole board but the other side's order of moving.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.damage import Allocation, Noted
from battles.rules.ironclads.formations import Formations


@dataclass(frozen=True, slots=True)
class Battle:
    board: Board
    turns: int
    title: str = ""
    side_names: Mapping[str, str] = field(default_factory=dict)
    initiative: str = ""  # the side that has it this Game Turn (IC-INIT-02); "" before it is rolled
    last_moved: str = ""  # the side whose ship moved last this Movement Phase (IC-SEQ-07); "" none yet
    sailing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # side -> its order of moving this phase
    chosen: str = ""  # the next ship to move, awaiting her order
    ordered: bool = False  # the chosen ship's order is given (``plan``), to be carried out
    plan: tuple[str, ...] = ()  # her order as the form spells it (orders.py)
    formations: Formations | None = None  # None: Appendix D not played (IC-FORM-01)
    fires: Mapping[str, int] = field(default_factory=dict)  # ship -> the last Game Turn her fire halves her salvoes
    fire_step: str = ""  # the Firing Phase's step (kinds.FIRE_ORDERED, FIRE_DAMAGE); "" outside it
    fire_orders: Mapping[str, Mapping[str, str | None]] = field(default_factory=dict)  # ship -> track -> target
    noted: Mapping[str, Noted] = field(default_factory=dict)  # ship -> her Hits line (IC-SAVE-07)
    demands: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # ship -> each C's 1D3 (IC-DMG-04)
    allocations: Mapping[str, Allocation] = field(default_factory=dict)  # ship -> her owner's allocation

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
        """The board as ``side`` sees it: everything, as the table shows it to both players, but the other sides'
        order of moving (sealed: the text has each side choose its next ship only when its turn to move comes, so
        no side knows another's choices before they are made)."""
        seen = self.to_json()
        seen["sailing"] = {k: list(v) for k, v in self.sailing.items() if k == side}
        return seen

    def to_json(self) -> JSONObject:
        return {
            **self.board.to_json(),
            "turns": self.turns,
            "title": self.title,
            "side_names": dict(self.side_names),
            "initiative": self.initiative,
            "last_moved": self.last_moved,
            "sailing": {k: list[JSON](v) for k, v in self.sailing.items()},
            "chosen": self.chosen,
            "ordered": self.ordered,
            "plan": list(self.plan),
            "formations": None if self.formations is None else self.formations.to_json(),
            "fires": dict(self.fires),
            "fire_step": self.fire_step,
            "fire_orders": {name: dict(o) for name, o in self.fire_orders.items()},
            "noted": {name: noted_to_json(n) for name, n in self.noted.items()},
            "demands": {name: list(d) for name, d in self.demands.items()},
            "allocations": {
                name: {"criticals": list(a.criticals), "hits": list(a.hits)} for name, a in self.allocations.items()
            },
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
            sailing={
                str(k): tuple(read_str(n) for n in read_list(v))
                for k, v in read_object(data.get("sailing", {})).items()
            },
            chosen=read_str(data.get("chosen", "")),
            ordered=read_bool(data.get("ordered", False)),
            plan=tuple(read_str(t) for t in read_list(data.get("plan", []))),
            formations=None if formations is None else Formations.from_json(read_object(formations)),
            fires={str(k): read_int(v) for k, v in read_object(data.get("fires", {})).items()},
            fire_step=read_str(data.get("fire_step", "")),
            fire_orders={
                str(k): {str(t): None if g is None else read_str(g) for t, g in read_object(v).items()}
                for k, v in read_object(data.get("fire_orders", {})).items()
            },
            noted={str(k): noted_from_json(read_object(v)) for k, v in read_object(data.get("noted", {})).items()},
            demands={
                str(k): tuple(read_int(d) for d in read_list(v))
                for k, v in read_object(data.get("demands", {})).items()
            },
            allocations={
                str(k): allocation_from_json(read_object(v))
                for k, v in read_object(data.get("allocations", {})).items()
            },
        )


def noted_to_json(noted: Noted) -> JSONObject:
    return {
        "criticals": [list[JSON](arcs) for arcs in noted.criticals],
        "hits": [list[JSON](arcs) for arcs in noted.hits],
    }


def noted_from_json(data: Mapping[str, Any]) -> Noted:
    def arcs(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(read_str(a) for a in read_list(item)) for item in read_list(data.get(key, [])))

    return Noted(criticals=arcs("criticals"), hits=arcs("hits"))


def allocation_from_json(data: Mapping[str, Any]) -> Allocation:
    return Allocation(
        criticals=tuple(read_str(t) for t in read_list(data.get("criticals", []))),
        hits=tuple(read_str(t) for t in read_list(data.get("hits", []))),
    )
