"""When a Cloudships battle ends, and who won. The text gives no victory rule, so these are the designed defaults
(docs/cloudships.md): the fight is over when at most one side has a ship still flying (the others crashed, sunk,
struck or gone), and at the scenario's round limit, a draw. Pure: read from the board alone."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rules.cloudships_2023.board import Board


@dataclass(frozen=True)
class Ending:
    winner: str | None
    reason: str


def last_side_flying(board: Board) -> Ending | None:
    """The battle's end once no more than one side has a ship flying: that side wins; with none left, a draw."""
    flying = board.sides_flying()
    if len(flying) > 1:
        return None
    if not flying:
        return Ending(None, "no ship is left flying")
    name = board.side_names.get(flying[0], flying[0])
    return Ending(flying[0], f"{name} alone has ships still flying")


def round_limit(board: Board, round_: int) -> Ending | None:
    """The scenario's last round is played: a draw (a scenario with objectives scores them in a later step)."""
    if round_ < board.rounds:
        return None
    return Ending(None, f"the round limit ({board.rounds}) is reached")
