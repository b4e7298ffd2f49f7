"""The board: everything the rules need to carry on, immutable, with its JSON spelling. The fold (fold.py)
makes a new board for every event; nothing changes one in place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from battles.engine.events import JSON, JSONObject
from battles.engine.jsonread import read_int, read_list, read_object, read_str


@dataclass(frozen=True)
class Piece:
    """One piece on the map (a ship); the app's generic map and sheets read ``name``, ``side`` and ``hex``."""

    name: str
    side: str
    hex: tuple[int, int]  # axial [q, r] (battles.engine.hexgrid)
    points: int = 0

    def to_json(self) -> JSONObject:
        return {"name": self.name, "side": self.side, "hex": list(self.hex), "points": self.points}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Piece:
        q, r = read_list(data["hex"])
        return cls(read_str(data["name"]), read_str(data["side"]), (read_int(q), read_int(r)), read_int(data["points"]))


@dataclass(frozen=True)
class Board:
    cols: int
    rows: int
    turns: int
    pieces: tuple[Piece, ...]
    stances: Mapping[str, str] = field(default_factory=dict)  # this turn's decisions, by side

    def piece_of(self, side: str) -> Piece:
        return next(p for p in self.pieces if p.side == side)

    def with_piece(self, piece: Piece) -> Board:
        return replace(self, pieces=tuple(piece if p.name == piece.name else p for p in self.pieces))

    def to_json(self) -> JSONObject:
        return {
            "cols": self.cols,
            "rows": self.rows,
            "turns": self.turns,
            "pieces": [p.to_json() for p in self.pieces],
            "stances": dict(self.stances),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Board:
        board = read_object(data)
        return cls(
            cols=read_int(board["cols"]),
            rows=read_int(board["rows"]),
            turns=read_int(board["turns"]),
            pieces=tuple(Piece.from_json(read_object(p)) for p in read_list(board["pieces"])),
            stances={k: read_str(v) for k, v in read_object(board["stances"]).items()},
        )
