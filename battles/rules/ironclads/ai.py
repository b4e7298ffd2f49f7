"""The AI captain: a Policy (battles/engine/policies.py) for a side no one plays. Small but real:

- fire: every arc and turret at the nearest enemy it bears on; damage: damage.default_allocation;
- the ship to move: the one farthest from the enemy, so those in the thick of it wait to see his moves;
- her order: of her legal orders (orders.legal_orders), each tried on the board as it stands, the one that ends her
  with the most gun stats bearing on the nearest enemy, at the range she wants (the close band, 1-6 hexes, when her
  Armour is greater than his, else the middle band, 7-12), clear of the map's edge, and never breaking off; when
  every order of hers collides (IC-COL-01) she takes the speed whose losses (IC-COL-04..06) pay: the one that sinks
  him and not her, else the slowest.

Bearing is her own estimate (the fixed arcs at 15 degrees either side of bow and stern, the broadsides the rest;
turret quadrants of 90 degrees). Deterministic: it reads only the open board and breaks ties by the order of the
legal orders."""

from __future__ import annotations

from typing import Any, Final

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.ironclads import gunnery, movement, orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.bearing import bearing_stats
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.cards import ARMOUR, HULL
from battles.rules.ironclads.kinds import DAMAGE_ALLOCATION, FIRE_ORDERS, MOVE_ORDER, SHIP_TO_MOVE
from battles.rules.ironclads.movement import Move, Order

CLOSE_AT, MIDDLE_AT = 4, 9  # the range she steers for in each band (hexes)
EDGE_ROOM: Final = 3  # hexes from the edge she keeps, so a collision's stop or a forced run does not carry her off


class Captain:
    def __init__(self, seed: bytes, side: str) -> None:
        self._seed = seed
        self.side = side
        self.name = f"Ironclads captain {side}"

    def choose(self, ruleset: Any, state: BattleState[Battle], request: DecisionRequest) -> JSON:
        battle = state.board
        if request.kind == SHIP_TO_MOVE:
            options = [str(o) for o in request.options or ()]
            return max(options, key=lambda n: _nearest_distance(battle.board, battle.ship(n)))
        if request.kind == FIRE_ORDERS:  # fire at will, each gun at the nearest enemy it bears on
            return gunnery.fire_answer(request.ships[0], gunnery.default_orders(battle, request.ships[0]))
        if request.kind == DAMAGE_ALLOCATION:  # damage.default_allocation: the hits where they cost her least
            return request.default
        if request.kind == MOVE_ORDER:
            name = request.ships[0]
            return orders.answer(name, best_order(battle, name))
        return request.default


def best_order(battle: Battle, name: str) -> Order:
    legal = orders.legal_orders(battle, name)
    return max(legal, key=lambda o: worth(battle, name, movement.execute(battle.board, name, o)))


def worth(battle: Battle, name: str, move: Move) -> float:
    """How well a move leaves her: guns bearing, range, room from the edge; a collision by what it costs."""
    board = move.board
    ship = board.ship(name)
    if move.broke_off:
        return -1000.0
    enemies = [s for s in board.afloat if s.side != ship.side]
    if not enemies:
        return 0.0
    if move.collision is not None:
        return _collision_worth(battle.board, name, move)
    enemy = min(enemies, key=lambda e: hexgrid.distance(ship.hex, e.hex))
    distance = hexgrid.distance(ship.hex, enemy.hex)
    wanted = CLOSE_AT if ship.card.left(ARMOUR) > enemy.card.left(ARMOUR) else MIDDLE_AT
    col, row = hexgrid.to_odd_q(ship.hex)
    room = min(col, row, board.cols - 1 - col, board.rows - 1 - row)
    edge = max(0, EDGE_ROOM - room) * 4.0
    return 2.0 * bearing_stats(ship, enemy.hex) - 1.5 * abs(distance - wanted) - edge


def _collision_worth(before: Board, name: str, move: Move) -> float:
    collision = move.collision
    assert collision is not None
    mine = before.ship(name).card.left(HULL)
    other = before.ship(collision.other).card.left(HULL) if collision.other else None
    if other is not None and other <= collision.hull < mine:
        return 100.0  # the ram sinks him and not her
    return -50.0 - 10.0 * (collision.hull + collision.propulsion)


def _nearest_distance(board: Board, ship: Ship) -> int:
    return min((hexgrid.distance(ship.hex, e.hex) for e in board.afloat if e.side != ship.side), default=0)
