"""One ship's move in the Movement Phase (docs/ironclads.md "Movement"): her order, its legality, and its execution
on the board as it stands when she is chosen (IC-SEQ-07), with collisions (IC-COL-01..11) and breaking off the map
(IC-MOV-07). Pure.

An **order** is the speed she sets (speed.py, IC-SPD-08) and a **path**: the ordered steps of her move, each
``"ahead"`` (to the hex her bow faces) or ``"astern"`` (to the hex behind her), and at most one turn (IC-MOV-04),
``"port1"``, ``"port2"``, ``"starboard1"`` or ``"starboard2"`` (hexsides; port is anticlockwise), placed before,
between or after the steps. As JSON: ``{"speed": 8, "astern": false, "path": ["ahead", "starboard1", "ahead"]}``.

She moves exactly ``scale.hexes_moved`` hexes (IC-MOV-01/02); turning costs nothing. A stopped ship neither moves
nor turns (IC-SPD-04); steering problems allow one hexside (IC-PROB-02), major ones none (IC-PROB-03); a bridge hit
none for the turn (IC-PROB-07).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import scale, speed
from battles.rules.ironclads.board import MAJOR_STEERING, Board, Ship
from battles.rules.ironclads.cards import HULL, PROPULSION
from battles.rules.ironclads.speed import Setting

AHEAD, ASTERN = "ahead", "astern"
PORT1, PORT2, STARBOARD1, STARBOARD2 = "port1", "port2", "starboard1", "starboard2"
TURNS: Final[Mapping[str, int]] = {PORT1: -1, PORT2: -2, STARBOARD1: 1, STARBOARD2: 2}  # hexsides, + clockwise
ONE_HEXSIDE: Final = (PORT1, STARBOARD1)

Path = tuple[str, ...]

# Collision losses by the MOVER's current speed: (lowest speed of the band, Propulsion lost, Hull lost), IC-COL-04..06.
COLLISION_BANDS: Final = ((9, 5, 2), (5, 3, 1), (1, 2, 1))


class Order(NamedTuple):
    setting: Setting
    path: Path

    def to_json(self) -> JSONObject:
        return {"speed": self.setting.speed, "astern": self.setting.astern, "path": list(self.path)}


def order_of(choice: JSON) -> Order | Rejection:
    """The order an answer gives, or why it is none."""
    if (
        not isinstance(choice, dict)
        or set(choice) - {"speed", "astern", "path"}
        or not {"speed", "path"} <= set(choice)
    ):
        return Rejection("IC-MOV-03", 'an order is {"speed": n, "astern": true or false, "path": [the steps]}')
    value, astern, path = choice["speed"], choice.get("astern", False), choice["path"]
    if type(value) is not int or not isinstance(astern, bool):
        return Rejection("IC-SPD-03", "a current speed is a whole number; astern is true or false")
    if not isinstance(path, list) or not all(isinstance(step, str) for step in path):
        return Rejection("IC-MOV-03", "a path is a list of steps and at most one turn")
    return Order(Setting(value, astern), tuple(str(step) for step in path))


def collision_losses(mover_speed: int) -> tuple[int, int]:
    """The Propulsion and Hull each ship loses in a collision, by the mover's current speed (IC-COL-04..06)."""
    for lowest, propulsion, hull in COLLISION_BANDS:
        if mover_speed >= lowest:
            return propulsion, hull
    raise ValueError("a stopped ship collides with nothing")


def hexes_to_move(ship: Ship, setting: Setting) -> tuple[int, int]:
    """The hexes she moves at ``setting`` and the cm she carries on. A stop keeps nothing of her old allowance: she
    starts again as a fresh ship does (docs "Hex play")."""
    if setting.speed == 0:
        return 0, scale.FRESH_CARRY_CM
    return scale.hexes_moved(ship.carry, setting.speed)


def turns_allowed(board: Board, ship: Ship, setting: Setting) -> tuple[str, ...]:
    """The turns she may make this turn: none stopped (IC-SPD-04), after a bridge hit (IC-PROB-07) or with major
    steering problems (IC-PROB-03); one hexside with steering problems (IC-PROB-02); else one or two either way."""
    if setting.speed == 0 or board.bridge_holds(ship) or ship.steering >= MAJOR_STEERING:
        return ()
    return ONE_HEXSIDE if ship.steering else tuple(TURNS)


def settings(board: Board, ship: Ship) -> tuple[Setting, ...]:
    """The speeds she may set now (speed.py)."""
    return speed.next_settings(
        ship.setting, ship.maximum, rough=board.rough, smokestacks=ship.smokestacks, bridge=board.bridge_holds(ship)
    )


def paths(board: Board, ship: Ship, setting: Setting) -> tuple[Path, ...]:
    """Every legal path at ``setting``: straight, then each turn at each place, before the first step first."""
    count, _ = hexes_to_move(ship, setting)
    straight: Path = (ASTERN if setting.astern else AHEAD,) * count
    found = [straight]
    for turn in turns_allowed(board, ship, setting):
        found += [(*straight[:at], turn, *straight[at:]) for at in range(count + 1)]
    return tuple(found)


def orders(board: Board, name: str) -> tuple[Order, ...]:
    """Every order she may give, collisions aside (for validation and the AI)."""
    ship = board.ship(name)
    return tuple(Order(s, p) for s in settings(board, ship) for p in paths(board, ship, s))


@dataclass(frozen=True, slots=True)
class Collision:
    """She ran into ``other`` (None: land) in ``hex``; each ship lost ``propulsion`` and ``hull`` stats."""

    other: str | None
    hex: Hex
    propulsion: int
    hull: int


@dataclass(frozen=True, slots=True)
class Move:
    """A move done: the new board, the hexes she stood in (her start first), the hex she made her turn in (a line
    astern's turn point, IC-FORM-07), her collision and whether she left the map (IC-MOV-07)."""

    board: Board
    name: str
    hexes: tuple[Hex, ...]
    turned_in: Hex | None = None
    collision: Collision | None = None
    broke_off: bool = False


def execute(board: Board, name: str, order: Order) -> Move:
    """Carry out an order already judged legal: set her speed, then step and turn along the path. A step into an
    afloat ship or land is a collision: she stays in the hex she came from (IC-COL-03) and her move ends; a step off
    the map breaks her off (IC-MOV-07)."""
    ship = board.ship(name)
    _, carry = hexes_to_move(ship, order.setting)
    ship = evolve(ship, speed=order.setting.speed, astern=order.setting.astern, carry=carry, moved=True)
    hexes, turned_in = [ship.hex], None
    for step in order.path:
        if step in TURNS:
            ship, turned_in = (
                evolve(ship, facing=hexgrid.rotate_facing(ship.facing, TURNS[step]), turned=True),
                ship.hex,
            )
            continue
        ahead = hexgrid.neighbour(ship.hex, ship.facing if step == AHEAD else ship.facing + 3)
        if not board.on_map(ahead):
            return Move(board.with_ship(evolve(ship, broken_off=True)), name, tuple(hexes), turned_in, broke_off=True)
        if ahead in board.land or board.occupant(ahead) is not None:
            return _collide(board, ship, ahead, tuple(hexes), turned_in)
        ship = evolve(ship, hex=ahead)
        hexes.append(ahead)
    return Move(board.with_ship(ship), name, tuple(hexes), turned_in)


def _collide(board: Board, mover: Ship, into: Hex, hexes: tuple[Hex, ...], turned_in: Hex | None) -> Move:
    """IC-COL-03..08 (IC-COL-10 for land): losses by the mover's speed on both cards (only hers against land), both
    stopped, neither fires this turn. The ship struck does no more this Movement Phase either (IC-COL-09: both move
    again from a later turn)."""
    propulsion, hull = collision_losses(mover.speed)
    struck = board.occupant(into)
    board = board.with_ship(_struck(mover, propulsion, hull))
    if struck is not None:
        board = board.with_ship(evolve(_struck(struck, propulsion, hull), moved=True))
    collision = Collision(None if struck is None else struck.name, into, propulsion, hull)
    return Move(board, mover.name, hexes, turned_in, collision)


def _struck(ship: Ship, propulsion: int, hull: int) -> Ship:
    card, _ = ship.card.cross_off(PROPULSION, propulsion)
    card, _ = card.cross_off(HULL, hull)
    return evolve(ship, card=card, speed=0, astern=False, carry=scale.FRESH_CARRY_CM, collided=True)


def collides(board: Board, name: str, order: Order) -> bool:
    return execute(board, name, order).collision is not None


def judge(board: Board, name: str, order: Order) -> Rejection | None:
    """Why an order is not hers to give, naming the clause; None when it is."""
    ship = board.ship(name)
    if not ship.afloat or ship.moved:
        return Rejection("IC-SEQ-07", f"{ship.name} is not one of the ships still to move")
    refused = speed.judge(
        ship.setting,
        order.setting,
        ship.maximum,
        rough=board.rough,
        smokestacks=ship.smokestacks,
        bridge=board.bridge_holds(ship),
    )
    refused = refused or judge_path(board, ship, order)
    if refused is not None or not collides(board, name, order):
        return refused
    if any(not collides(board, name, other) for other in orders(board, name)):
        return Rejection("IC-COL-01", "she must steer clear of a collision when she can, and here she can")
    return None


def judge_path(board: Board, ship: Ship, order: Order) -> Rejection | None:
    """The path's own faults at a legal setting: its spelling, its length, its turn."""
    known = {AHEAD, ASTERN, *TURNS}
    unknown = [step for step in order.path if step not in known]
    if unknown:
        return Rejection("IC-MOV-03", f"no such step {unknown[0]!r}: the steps are {', '.join(sorted(known))}")
    turns = [step for step in order.path if step in TURNS]
    steps = [step for step in order.path if step not in TURNS]
    if len(turns) > 1:
        return Rejection("IC-MOV-04", "one turn a Game Turn")
    if set(steps) - {ASTERN if order.setting.astern else AHEAD}:
        clause = "IC-MOV-08" if ASTERN in steps else "IC-MOV-09"
        return Rejection(clause, f"at speed {order.setting} she steps {ASTERN if order.setting.astern else AHEAD} only")
    count, _ = hexes_to_move(ship, order.setting)
    if len(steps) != count:
        hexes = "1 hex" if count == 1 else f"{count} hexes"
        return Rejection("IC-MOV-02", f"at speed {order.setting} she must move {hexes}, no more and no less")
    if turns and turns[0] not in turns_allowed(board, ship, order.setting):
        return _refuse_turn(board, ship, order.setting)
    return None


def _refuse_turn(board: Board, ship: Ship, setting: Setting) -> Rejection:
    if setting.speed == 0:
        return Rejection("IC-SPD-04", "a stopped ship does not turn")
    if board.bridge_holds(ship):
        return Rejection("IC-PROB-07", "her bridge was hit: no turn this Game Turn")
    if ship.steering >= MAJOR_STEERING:
        return Rejection("IC-PROB-03", "major steering problems: she cannot turn")
    return Rejection("IC-PROB-02", "steering problems: one hexside at most")


def side_to_move(board: Board, initiative: str, last: str | None) -> str | None:
    """Whose ship moves next (IC-SEQ-07): the side without the Initiative first, then alternating after ``last``;
    a side with no ship left to move passes, and the other moves the rest in turn. None: everyone has moved."""
    waiting = {s.side for s in board.afloat if not s.moved}
    sides = sorted({s.side for s in board.ships})
    if last is None:
        first = [side for side in sides if side != initiative] + [initiative]
        return next((side for side in first if side in waiting), None)
    others = [side for side in sides if side != last]
    return next((side for side in [*others, last] if side in waiting), None)


def spell(path: Sequence[str]) -> str:
    """A path as a player reads it: ``ahead 2, starboard1, ahead 1``."""
    parts = [
        f"{step} {len(list(run))}" if step in (AHEAD, ASTERN) else ", ".join(run)
        for step, run in itertools.groupby(path)
    ]
    return ", ".join(parts) or "no move"
