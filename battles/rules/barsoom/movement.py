"""Each Movement Card executed on the board (BR-MOV-03..07, BR-MOV-13, BR-LAND, BR-COL, BR-RAM, BR-OOC;
docs/barsoom.md section 5). Pure: a board and a card in, a new board, what happened and the damage owed out.

The cards are executed in the order of reveal (cards.reveal_order); the plot's restrictions were judged before
(cards.judge), so nothing here refuses a card: a card that can do nothing (a wreck's, a landed ship's Ahead, an
Ascend at the ceiling) is spent and says why. ``forced`` marks a move nobody chose: a ship out of control, a
Damage Effect Die's move, a damage result's Descend. A forced move never rams, and a forced descent to the ground
is a crash (BR-LAND-05), and the map's edge holds her: only a card her captain plotted takes her off the map and out
of the battle (docs/barsoom.md section 5, "The map's edge"). Grappled ships move together (grappled.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from battles.engine import hexgrid
from battles.rules.barsoom import grappled
from battles.rules.barsoom.board import STILL, Board, Ship
from battles.rules.barsoom.impacts import Moved, contact, touch_down
from battles.rules.barsoom.kinds import (
    AHEAD,
    ASCENDS,
    AT_THE_EDGE,
    BLOCKED,
    CARDS,
    CLIMBED,
    DESCEND,
    DESCENDED,
    HELD,
    HELD_COURSE,
    LEFT_MAP,
    MOVED,
    MOVES,
    STOP,
    STOPPED,
    TURN_SIDE,
    TURNED,
    TURNS,
)


def execute(board: Board, name: str, card: str, *, ram: bool = False, turn: bool = True, forced: bool = False) -> Moved:
    """Execute one card of ``name``'s. ``ram``: an Ahead or Reverse that means to make contact (declared with the
    card, BR-RAM-01); ``turn``: a Turn card played as a turn (False: no turn, "up to 45 degrees", BR-MOV-05)."""
    if card not in CARDS:
        raise ValueError(f"{card!r} is no Movement Card")
    ship = board.ship_named(name)
    if not ship.in_play:
        return Moved(board, HELD, why=f"{name} is out of the battle")
    if ship.crashed:
        return Moved(board, HELD, clauses=("BR-LAND-04",), why=f"{name} is a wreck until repaired")
    if len(grappled.group(board, name)) > 1:
        return grappled.move(board, name, card, ram=ram, turn=turn, forced=forced)
    if card in MOVES:
        return _travel(board, ship, card, ram=ram and not forced, forced=forced)
    if card in TURNS:
        return _turn(board, ship, card, turn)
    if card == STOP:
        return Moved(board.with_ships([replace(ship, way=STILL)]), STOPPED, clauses=("BR-MOV-06",))
    if card in ASCENDS:
        return _ascend(board, ship, card)
    return _descend(board, ship, forced=forced)


def forced_descend(board: Board, name: str) -> Moved:
    """A Descend nobody chose (a damage result, BR-DMG-04; the end of an out-of-control ship's turn, BR-OOC-02):
    to the ground it is a crash (BR-LAND-05). It falls on her alone, grappled or not: the lines give."""
    ship = board.ship_named(name)
    if not ship.in_play or ship.on_ground:
        return Moved(board, HELD, why=f"{name} is on the ground")
    return _descend(board, ship, forced=True)


def out_of_control(board: Board, name: str, picks: Sequence[str]) -> tuple[Moved, ...]:
    """An out-of-control ship's turn in one go (BR-OOC-02): her two random options (cards.random_options), forced,
    then a Descend. In play each takes her place in the order of reveal; this is that sequence run straight."""
    done: list[Moved] = []
    for card in picks:
        done.append(execute(board, name, card, forced=True))
        board = done[-1].board
    done.append(forced_descend(board, name))
    return tuple(done)


def _travel(board: Board, ship: Ship, card: str, *, ram: bool, forced: bool = False) -> Moved:
    """Ahead or Reverse: her speed in hexes, a hex at a time, along her facing or its opposite (BR-MOV-03/04).
    Ships at other levels are passed, over or under (BR-MOV-13); one at her level stops her in the hex before it,
    in contact (BR-COL-01, BR-RAM-01). A hex off the map takes her out of the battle if her captain plotted the
    card; a forced move (a DED's Arrow, BR-DED-04; out of control, BR-OOC-02) stops in the last hex on the map,
    her way spent: the table's edge holds a ship moved against her will."""
    clause = "BR-MOV-03" if card == AHEAD else "BR-MOV-04"
    if ship.on_ground:
        return Moved(board, HELD, clauses=(clause,), why=f"{ship.name} is on the ground: she must Ascend first")
    way = ship.way.after(card)
    heading = ship.facing if card == AHEAD else (ship.facing + 3) % 6
    hex_, passed = ship.hex, False
    for _ in range(ship.speed):
        ahead = hexgrid.neighbour(hex_, heading)
        if not board.on_map(ahead) and forced:
            held = replace(ship, hex=hex_, way=STILL)
            why = "only a card her captain plotted takes a ship off the map"
            return Moved(board.with_ships([held]), AT_THE_EDGE, clauses=(clause, "BR-DED-04"), why=why)
        if not board.on_map(ahead):
            gone = replace(ship, hex=ahead, way=way, left_map=True)
            return Moved(board.with_ships([gone]), LEFT_MAP, clauses=(clause,))
        other = board.ship_at(ahead, ship.level, besides=[ship.name])
        if other is not None:
            impact = contact(replace(ship, hex=hex_, way=way), way.run, heading, other, ram=ram)
            clauses = (clause, *(owed.clause for owed in impact.damage))
            return Moved(board.with_ships(impact.ships), impact.outcome, impact.damage, other.name, clauses)
        passed = passed or any(s.hex == ahead and s.name != ship.name and s.in_play for s in board.ships)
        hex_ = ahead
    clauses = (clause, "BR-MOV-13") if passed else (clause,)
    return Moved(board.with_ships([replace(ship, hex=hex_, way=way)]), MOVED, clauses=clauses)


def _turn(board: Board, ship: Ship, card: str, turn: bool) -> Moved:
    """One hexside to that side, or none (BR-MOV-05); she keeps her way."""
    if ship.on_ground:
        return Moved(board, HELD, clauses=("BR-MOV-05",), why=f"{ship.name} is on the ground")
    way = ship.way.after(card)
    if not turn:
        return Moved(board.with_ships([replace(ship, way=way)]), HELD_COURSE, clauses=("BR-MOV-05",))
    facing = hexgrid.rotate_facing(ship.facing, TURN_SIDE[card])
    return Moved(board.with_ships([replace(ship, facing=facing, way=way)]), TURNED, clauses=("BR-MOV-05",))


def _ascend(board: Board, ship: Ship, card: str) -> Moved:
    """Up one level (BR-MOV-07); from the ground she takes off, unless stranded (BR-DMG-06)."""
    if ship.stranded:
        return Moved(board, HELD, clauses=("BR-DMG-06",), why=f"{ship.name} is stranded")
    if ship.level + 1 > board.ceiling:
        return Moved(board, HELD, clauses=("BR-MOV-07",), why=f"{ship.name} is at the ceiling, level {board.ceiling}")
    above = board.ship_at(ship.hex, ship.level + 1, besides=[ship.name])
    if above is not None:
        return _blocked(board, above)
    risen = replace(ship, level=ship.level + 1, landed=False, way=ship.way.after(card))
    return Moved(board.with_ships([risen]), CLIMBED, clauses=("BR-MOV-07",))


def _descend(board: Board, ship: Ship, *, forced: bool) -> Moved:
    """Down one level (BR-MOV-07); to the ground, a landing or a crash (impacts.touch_down)."""
    if ship.on_ground:
        return Moved(board, HELD, clauses=("BR-MOV-07",), why=f"{ship.name} is on the ground")
    below = board.ship_at(ship.hex, ship.level - 1, besides=[ship.name])
    if below is not None:
        return _blocked(board, below)
    lowered = replace(ship, level=ship.level - 1, way=ship.way.after(DESCEND))
    if not lowered.on_ground:
        return Moved(board.with_ships([lowered]), DESCENDED, clauses=("BR-MOV-07",))
    impact = touch_down(lowered, forced=forced)
    clauses = ("BR-MOV-07", "BR-LAND-02" if forced else "BR-LAND-01", *(owed.clause for owed in impact.damage))
    return Moved(board.with_ships(impact.ships), impact.outcome, impact.damage, clauses=clauses)


def _blocked(board: Board, other: Ship) -> Moved:
    """A ship in her hex at the level she would move to: she stays where she is, in contact with it. Nothing led
    up to it along the map, so nothing is owed (docs/barsoom.md section 5)."""
    return Moved(board, BLOCKED, contact=other.name, clauses=("BR-MOV-07",))
