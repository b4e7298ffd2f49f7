"""The duel's board: the map's size, the turn limit, the two ships and what this turn has decided so far.

Immutable; the fold (fold.py) makes a new board for every event. Hexes are axial (battles.engine.hexgrid);
the scenario and the forms speak the map's ``[column, row]`` (odd-q), converted at the edges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON, JSONObject
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.rules.duel.kinds import AHEAD, PORT


@dataclass(frozen=True)
class Ship:
    """One ship: where she is and faces, her speed (steps a turn) and her hull boxes left of ``hull_max``.
    ``deploy``: the hexes she may be placed in at the start (DUEL-SET-02), as the map's ``[column, row]``."""

    name: str
    side: str
    hex: Hex
    facing: int
    speed: int
    hull: int
    hull_max: int
    deploy: tuple[tuple[int, int], ...] = ()

    @property
    def afloat(self) -> bool:
        return self.hull > 0

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "side": self.side,
            "hex": list[JSON](self.hex.to_json()),
            "facing": self.facing,
            "speed": self.speed,
            "hull": self.hull,
            "hull_max": self.hull_max,
            "deploy": [list(spot) for spot in self.deploy],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ship:
        hull = read_int(data["hull"])
        return cls(
            name=read_str(data["name"]),
            side=read_str(data["side"]),
            hex=Hex.from_json(data["hex"]),
            facing=read_int(data["facing"]) % 6,
            speed=read_int(data["speed"]),
            hull=hull,
            hull_max=read_int(data.get("hull_max", hull)),
            deploy=tuple(_spot(s) for s in read_list(data.get("deploy", []))),
        )


def _spot(value: JSON) -> tuple[int, int]:
    col, row = read_list(value)
    return read_int(col), read_int(row)


@dataclass(frozen=True)
class Board:
    """The battle: ``wind`` the hexside it blows from (None before it is rolled); ``first`` the side that won
    this turn's initiative; ``long_range`` the battle's option, how far a broadside reaches; ``placements``
    (hex and facing by side), ``plots`` and ``shots``: what each side decided, not yet carried out."""

    title: str
    cols: int
    rows: int
    turns: int
    ships: tuple[Ship, ...]
    side_names: Mapping[str, str] = field(default_factory=dict)
    long_range: int = 4
    wind: int | None = None
    first: str | None = None
    placements: Mapping[str, tuple[Hex, int]] = field(default_factory=dict)
    plots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shots: Mapping[str, bool] = field(default_factory=dict)

    def ship_of(self, side: str) -> Ship:
        return next(s for s in self.ships if s.side == side)

    def enemy_of(self, side: str) -> Ship:
        return next(s for s in self.ships if s.side != side)

    def ship_named(self, name: str) -> Ship:
        return next(s for s in self.ships if s.name == name)

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def order(self) -> tuple[str, str]:
        """The sides in this turn's initiative order (DUEL-SEQ-01)."""
        first = self.first if self.first is not None else self.ships[0].side
        second = next(s.side for s in self.ships if s.side != first)
        return first, second

    def with_ship(self, ship: Ship) -> Board:
        return replace(self, ships=tuple(ship if s.name == ship.name else s for s in self.ships))

    def to_json(self) -> JSONObject:
        return {
            "title": self.title,
            "cols": self.cols,
            "rows": self.rows,
            "turns": self.turns,
            "ships": [s.to_json() for s in self.ships],
            "side_names": dict(self.side_names),
            "long_range": self.long_range,
            "wind": self.wind,
            "first": self.first,
            "placements": {side: _placement_json(h, f) for side, (h, f) in self.placements.items()},
            "plots": {side: list(steps) for side, steps in self.plots.items()},
            "shots": dict(self.shots),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Board:
        board = read_object(data)
        wind, first = board.get("wind"), board.get("first")
        return cls(
            title=read_str(board.get("title", "")),
            cols=read_int(board["cols"]),
            rows=read_int(board["rows"]),
            turns=read_int(board["turns"]),
            ships=tuple(Ship.from_json(read_object(s)) for s in read_list(board["ships"])),
            side_names={k: read_str(v) for k, v in read_object(board.get("side_names", {})).items()},
            long_range=read_int(board.get("long_range", 4)),
            wind=None if wind is None else read_int(wind),
            first=None if first is None else read_str(first),
            placements={k: _placement(read_object(v)) for k, v in read_object(board["placements"]).items()},
            plots={k: tuple(read_str(s) for s in read_list(v)) for k, v in read_object(board["plots"]).items()},
            shots={k: bool(v) for k, v in read_object(board["shots"]).items()},
        )


def _placement_json(hex_: Hex, facing: int) -> JSON:
    return {"hex": list[JSON](hex_.to_json()), "facing": facing}


def _placement(data: Mapping[str, Any]) -> tuple[Hex, int]:
    return Hex.from_json(data["hex"]), read_int(data["facing"])


def follow(ship: Ship, steps: Sequence[str]) -> list[tuple[Hex, int]]:
    """Where a plot takes a ship: her hex and facing after each step (DUEL-MOV-01)."""
    hex_, facing, path = ship.hex, ship.facing, []
    for step in steps:
        if step == AHEAD:
            hex_ = hexgrid.neighbour(hex_, facing)
        else:
            facing = hexgrid.rotate_facing(facing, -1 if step == PORT else 1)
        path.append((hex_, facing))
    return path
