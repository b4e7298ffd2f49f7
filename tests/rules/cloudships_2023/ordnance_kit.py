"""Helpers for the ordnance tests: a battle of ships that carry tether mines, drogues and a Smutts torpedo, a ship's
turn run from the start of her move, her orders and her move given, and the dice found by trying seeds."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from battles.engine import hexgrid, resolver
from battles.engine.events import ROLL, Event
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import MOVE, MOVE_DECISION, ORDNANCE_DECISION
from battles.rules.cloudships_2023.phases.turn import status_of
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, resolve, ship
from tests.rules.cloudships_2023.fire_kit import give

MIDDLE = hexgrid.from_odd_q(15, 11)
NORTH = 0
LOW, MEDIUM, HIGH = panels.LOW, panels.MEDIUM, panels.HIGH

# Gloire: steam, 3 MP, tether mines 9-12 (1d6+2) and drogues 13-16 (2d6). Skyfire: screw galley, Martian tether
# mines 15-17 (1d6). Triumph: steam, a Smutts torpedo (gun 2, bow). Whisperdeath: a kite with bombs and drogues.
ORDNANCE = {
    "slug": "ordnance",
    "title": "Mines and torpedoes",
    "cols": 30,
    "rows": 22,
    "rounds": 6,
    "sides": [{"key": "allies", "name": "The allies"}, {"key": "martians", "name": "The Martians"}],
    "ships": [
        {"name": "Gloire", "side": "allies", "class": "gloire", "hex": [2, 2], "facing": 2, "band": "Medium"},
        {"name": "Triumph", "side": "allies", "class": "triumph", "hex": [2, 6], "facing": 2, "band": "Medium"},
        {"name": "Skyfire", "side": "martians", "class": "skyfire", "hex": [27, 2], "facing": 5, "band": "Medium"},
        {"name": "Locust", "side": "martians", "class": "locust", "hex": [27, 6], "facing": 5, "band": "High"},
        {"name": "Hullcutter", "side": "martians", "class": "hullcutter", "hex": [27, 10], "facing": 5, "band": "Low"},
        {
            "name": "Whisperdeath",
            "side": "martians",
            "class": "whisperdeath",
            "hex": [27, 14],
            "facing": 5,
            "band": "High",
        },
    ],
}
MINE, DROGUE, MARTIAN_MINE, TORPEDO = 9, 13, 15, 2


def ahead(hexes: int, start: Hex = MIDDLE, direction: int = NORTH) -> Hex:
    spot = start
    for _ in range(hexes):
        spot = hexgrid.neighbour(spot, direction)
    return spot


def battle(seed: bytes = b"cm-seed", **options: Any) -> BattleState[Board]:
    state = new(seed, umpire=True, scenario=ORDNANCE)
    return state.evolve(options={**state.options, **options}) if options else state


def at_move(
    name: str, seed: bytes = b"cm-seed", *, band: str = MEDIUM, places: dict[str, tuple[Hex, str]] | None = None
) -> BattleState[Board]:
    """Step 2 of ``name``'s turn, before anything is asked: she at MIDDLE facing north at ``band``; ``places``
    puts other ships at a hex and band."""
    state = battle(seed)
    board = changed(mid_round(state, active=name), name, hex=MIDDLE, facing=NORTH, band=band)
    for other, (spot, at) in (places or {}).items():
        board = changed(board, other, hex=spot, facing=NORTH, band=at)
    board = replace(board, status=status_of(ship(board, name)))
    return at_stage(state, MOVE, board)


def with_board(state: BattleState[Board], change: Callable[[Board], Board]) -> BattleState[Board]:
    return state.evolve(board=change(state.board))


def superior(board: Board, name: str) -> Board:
    return changed(board, name, panel=replace(ship(board, name).panel, superior=True))


def turn(
    state: BattleState[Board], orders: Any, steps: Sequence[str] | None, seed: bytes = b"cm-seed"
) -> resolver.Accepted[Board]:
    """Run the turn from the start of the move: the orders (None: she is not asked), then the move (None: not
    asked)."""
    done = resolve(state, seed)
    events = list(done.events)
    if orders is not None:
        done = give(done.state, ORDNANCE_DECISION, orders, seed)
        events += done.events
    if steps is not None:
        done = give(done.state, MOVE_DECISION, list(steps), seed)
        events += done.events
    return resolver.Accepted(done.state, events)


def rolls(events: Sequence[Event], word: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == ROLL and word in str(e.data["purpose"])]


def seeds(prefix: str, count: int = 120) -> Iterator[bytes]:
    return (b"%s-%d" % (prefix.encode(), n) for n in range(count))
