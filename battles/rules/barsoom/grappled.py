"""Grappled ships move together (BR-GRAP-08..10; docs/barsoom.md section 5).

Ships grappled to each other, directly or through a third, are one group. The largest class in the group leads:
a smaller ship simply follows (BR-GRAP-10), her own cards not executed. Ships of equal size share one option a
turn, which the other must follow or counter with an option of her own; opposite options cancel (BR-GRAP-08/09).
The group moves as one body in the leader's frame: her speed, her facing, a turn about her hex.
"""

from __future__ import annotations

from dataclasses import replace

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.barsoom.board import STILL, Board, Ship
from battles.rules.barsoom.impacts import Moved, contact, touch_down
from battles.rules.barsoom.kinds import (
    AHEAD,
    ASCENDS,
    AT_THE_EDGE,
    BLOCKED,
    CLIMBED,
    COUNTERED,
    DESCENDED,
    FOLLOWS,
    HELD,
    HELD_COURSE,
    LEFT_MAP,
    MOVED,
    MOVES,
    OPPOSITES,
    STOP,
    STOPPED,
    TURN_SIDE,
    TURNED,
    TURNS,
)
from battles.rules.barsoom.owed import DamageOwed

FREE, LEADS, SHARES = "free", "leads", "shares"  # a ship's part in her group; FOLLOWS is kinds'


def group(board: Board, name: str) -> tuple[Ship, ...]:
    """``name`` and every ship grappled to her, directly or through others, in the board's order."""
    found, waiting = {name}, [name]
    while waiting:
        ship = board.ship_named(waiting.pop())
        linked = set(ship.grappled) | {s.name for s in board.ships if ship.name in s.grappled}
        for other in sorted(linked - found):
            found.add(other)
            waiting.append(other)
    return tuple(ship for ship in board.ships if ship.name in found)


def role(board: Board, name: str) -> str:
    """Her part in her group: ``free`` (not grappled), ``leads`` (the largest), ``follows`` (a smaller ship,
    BR-GRAP-10), ``shares`` (the largest with another of her size: one option a turn between them, BR-GRAP-08)."""
    members = group(board, name)
    if len(members) == 1:
        return FREE
    largest = max(ship.size for ship in members)
    size = board.ship_named(name).size
    if size < largest:
        return FOLLOWS
    return SHARES if sum(1 for ship in members if ship.size == largest) > 1 else LEADS


def options_a_turn(board: Board, name: str, options: int) -> int:
    """Cards she executes this turn of the ``options`` she has: all when free or leading, none when she follows,
    one shared option when grappled to a ship of her size (BR-GRAP-08)."""
    part = role(board, name)
    if part == FOLLOWS:
        return 0
    return min(options, 1) if part == SHARES else options


def move(
    board: Board,
    name: str,
    card: str,
    *,
    counter: str | None = None,
    ram: bool = False,
    turn: bool = True,
    forced: bool = False,
) -> Moved:
    """``name``'s card moves her group. ``counter``: the option a grappled ship of equal size plays against it."""
    members = group(board, name)
    mover = board.ship_named(name)
    if mover.size < max(ship.size for ship in members):
        return Moved(board, FOLLOWS, clauses=("BR-GRAP-10",), why=f"{name} follows the larger ship")
    clause = "BR-GRAP-08" if role(board, name) == SHARES else "BR-GRAP-10"
    if counter is not None and OPPOSITES.get(card) == counter:
        return Moved(board, COUNTERED, clauses=(clause, "BR-GRAP-09"), why=f"{card} against {counter}")
    wreck = next((ship for ship in members if ship.crashed), None)
    if wreck is not None:
        return Moved(board, HELD, clauses=(clause,), why=f"held by the wreck of {wreck.name}")
    if card == STOP:
        return Moved(board.with_ships(replace(s, way=STILL) for s in members), STOPPED, clauses=(clause, "BR-MOV-06"))
    if card in ASCENDS or card not in MOVES + TURNS:
        return _climb_or_descend(board, mover, members, card, clause, forced=forced)
    grounded = next((ship for ship in members if ship.on_ground), None)
    if grounded is not None:
        return Moved(board, HELD, clauses=(clause,), why=f"held by {grounded.name} on the ground")
    if card in TURNS:
        return _swing(board, mover, members, card, clause, turn)
    return _travel(board, mover, members, card, clause, ram=ram and not forced, forced=forced)


def _travel(
    board: Board, mover: Ship, members: tuple[Ship, ...], card: str, clause: str, *, ram: bool, forced: bool
) -> Moved:
    """The group Ahead or Reverse at the leader's speed along her heading, a hex at a time; any member meeting a
    ship at her level stops the group there (a ram only if it is the leader's bow or stern). A plotted card takes
    the group off the map; a forced one stops it at the edge, its way spent (movement.py, BR-DED-04)."""
    names = [ship.name for ship in members]
    heading = mover.facing if card == AHEAD else (mover.facing + 3) % 6
    ways = {ship.name: ship.way.after(card) for ship in members}
    run = ways[mover.name].run
    at = {ship.name: ship.hex for ship in members}
    for _ in range(mover.speed):
        ahead = {n: hexgrid.neighbour(h, heading) for n, h in at.items()}
        if not all(board.on_map(h) for h in ahead.values()) and forced:
            held = [replace(s, hex=at[s.name], way=STILL) for s in members]
            return Moved(board.with_ships(held), AT_THE_EDGE, clauses=(clause, "BR-DED-04"))
        if not all(board.on_map(h) for h in ahead.values()):
            gone = [replace(s, hex=ahead[s.name], way=ways[s.name], left_map=True) for s in members]
            return Moved(board.with_ships(gone), LEFT_MAP, clauses=(clause,))
        for ship in members:
            other = board.ship_at(ahead[ship.name], ship.level, besides=names)
            if other is not None:
                hitting = replace(ship, hex=at[ship.name], way=ways[ship.name])
                impact = contact(hitting, run, heading, other, ram=ram and ship.name == mover.name)
                rest = [replace(s, hex=at[s.name], way=STILL) for s in members if s.name != ship.name]
                clauses = (clause, *(owed.clause for owed in impact.damage))
                return Moved(
                    board.with_ships([*rest, *impact.ships]), impact.outcome, impact.damage, other.name, clauses
                )
        at = ahead
    moved = [replace(s, hex=at[s.name], way=ways[s.name]) for s in members]
    return Moved(board.with_ships(moved), MOVED, clauses=(clause,))


def _swing(board: Board, mover: Ship, members: tuple[Ship, ...], card: str, clause: str, turn: bool) -> Moved:
    """The group turns one hexside about the leader's hex; a ship in the way of a member stops the swing."""
    if not turn:
        held = [replace(s, way=s.way.after(card)) for s in members]
        return Moved(board.with_ships(held), HELD_COURSE, clauses=(clause, "BR-MOV-05"))
    side = TURN_SIDE[card]
    names = [ship.name for ship in members]
    swung: list[Ship] = []
    for ship in members:
        hex_: Hex = hexgrid.rotate(ship.hex, side, mover.hex)
        other = board.ship_at(hex_, ship.level, besides=names)
        if other is not None or not board.on_map(hex_):
            why = f"{other.name} is in the way" if other else "the map's edge is in the way"
            return Moved(board, BLOCKED, contact=other.name if other else "", clauses=(clause,), why=why)
        facing = hexgrid.rotate_facing(ship.facing, side)
        swung.append(replace(ship, hex=hex_, facing=facing, way=ship.way.after(card)))
    return Moved(board.with_ships(swung), TURNED, clauses=(clause, "BR-MOV-05"))


def _climb_or_descend(
    board: Board, mover: Ship, members: tuple[Ship, ...], card: str, clause: str, *, forced: bool
) -> Moved:
    """The group up or down a level together. Up: not past the ceiling, not with a stranded member. Down: not
    while a member is on the ground (she moors them); a member brought to the ground by another's card is dragged
    down: a crash (BR-LAND-05); the leader's own choice is a landing (BR-LAND-01)."""
    step = 1 if card in ASCENDS else -1
    if step > 0 and any(s.stranded for s in members):
        return Moved(board, HELD, clauses=(clause, "BR-DMG-06"), why="a stranded ship holds the group down")
    if step > 0 and max(s.level for s in members) + 1 > board.ceiling:
        return Moved(board, HELD, clauses=(clause, "BR-MOV-07"), why=f"the ceiling is level {board.ceiling}")
    if step < 0 and any(s.on_ground for s in members):
        return Moved(board, HELD, clauses=(clause, "BR-MOV-07"), why="a ship of the group is on the ground")
    names = [ship.name for ship in members]
    for ship in members:
        other = board.ship_at(ship.hex, ship.level + step, besides=names)
        if other is not None:
            return Moved(board, BLOCKED, contact=other.name, clauses=(clause, "BR-MOV-07"))
    moved: list[Ship] = []
    damage: list[DamageOwed] = []
    outcome = CLIMBED if step > 0 else DESCENDED
    for ship in members:
        after = replace(ship, level=ship.level + step, way=ship.way.after(card))
        if step > 0:
            moved.append(replace(after, landed=False))
        elif after.on_ground:
            impact = touch_down(after, forced=forced or ship.name != mover.name)
            moved += impact.ships
            damage += impact.damage
            outcome = impact.outcome if ship.name == mover.name else outcome
        else:
            moved.append(after)
    clauses = (clause, "BR-MOV-07", *(owed.clause for owed in damage))
    return Moved(board.with_ships(moved), outcome, tuple(damage), clauses=clauses)
