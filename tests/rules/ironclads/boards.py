"""Small boards for the movement, collision and formation tests (not a test module)."""

from __future__ import annotations

from battles.engine.decisions import Rejection
from battles.engine.hexgrid import Hex, from_odd_q
from battles.rules.ironclads import board, cards
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.cards import ARMOUR, HULL, PORT, PROPULSION, STARBOARD

CENTRE = from_odd_q(10, 10)


def ship(name: str, at: Hex, facing: int = 0, speed: int = 0, *, side: str = "Union", **more: object) -> Ship:
    card = cards.card(name, {PORT: 5, STARBOARD: 5, ARMOUR: 4, PROPULSION: 12, HULL: 6})
    return Ship(name, side, card, at, facing, speed, **more)  # type: ignore[arg-type]


def board_of(*ships: Ship, land: tuple[Hex, ...] = (), cols: int = 20, rows: int = 20, **more: object) -> Board:
    return board.make(cols, rows, ships, land=land, **more)  # type: ignore[arg-type]


def clause(refusal: Rejection | None) -> str | None:
    return None if refusal is None else refusal.clause
