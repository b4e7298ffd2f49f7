"""The AI captain: a Policy (battles/engine/policies.py) for a side no one plays (docs/ironclads.md "The AI captain").

- fire: every arc and turret at the nearest enemy it bears on; damage: damage.default_allocation;
- the order of moving: the farthest from the enemy first, so those in the thick of it wait to see his moves;
- her move: of her legal orders (orders.legal_orders), each tried on the board as it stands, the one that ends her
  with the most gun stats able to fire (arcs.py, zone.py and the range bands: exactly what the fire orders would
  offer there), weighed by band and the target's Armour, less the enemy guns that could fire back at her from where
  they are, at the range she wants (close when her Armour is greater than his, else middle), clear of the map's edge
  and never breaking off;
- collisions (IC-COL-01): she never chooses one she can avoid. Where every order of hers collides, she takes the
  collision that pays (collision_worth). Among her clear orders she may end where an enemy still to move can only
  collide with her: his own IC-COL-01 then forces the collision, by his speed; the AI seeks that only when the equal
  losses (IC-COL-04..06) hurt him more than her.

Deterministic: it reads only the open board (never another side's order of moving) and breaks ties by the order of
the legal orders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.rules.ironclads import arcs, gunnery, movement, orders, scale, zone
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.cards import ARMOUR, GUN_TRACKS, HULL, PROPULSION
from battles.rules.ironclads.kinds import DAMAGE_ALLOCATION, FIRE_ORDERS, MOVE_ORDER, ORDER_OF_MOVING
from battles.rules.ironclads.movement import Collision, Move, Order
from battles.rules.ironclads.salvo import ARMOUR_HALVES_AT

CLOSE_AT, MIDDLE_AT = 4, 9  # the range she steers for in each band (hexes)
EDGE_ROOM: Final = 3  # hexes from the edge she keeps, so a collision's stop or a forced run does not carry her off
# What a gun stat is worth in each band: the faces that score (IC-FIRE-09..11), a critical counting double.
BAND_WORTH: Final = {scale.CLOSE: 6 / 6, scale.MIDDLE: 4 / 6, scale.LONG: 2 / 6}
CAUTION: Final = 0.5  # how much the enemy guns that could fire at her weigh against her own
RAM_LOOKS: Final = 4  # her best clear orders looked at for a collision an enemy cannot avoid (it costs his orders)


class Captain:
    def __init__(self, seed: bytes, side: str) -> None:
        self._seed = seed
        self.side = side
        self.name = f"Ironclads captain {side}"

    def choose(self, ruleset: Any, state: BattleState[Battle], request: DecisionRequest) -> JSON:
        battle = state.board
        if request.kind == ORDER_OF_MOVING:  # the farthest from the enemy first: the others wait to see his moves
            names = sorted(request.ships, key=lambda n: -_nearest_distance(battle.board, battle.ship(n)))
            return orders.order_of_moving(names)
        if request.kind == FIRE_ORDERS:  # fire at will, each gun at the nearest enemy it bears on
            return gunnery.fire_answer(request.ships[0], gunnery.default_orders(battle, request.ships[0]))
        if request.kind == DAMAGE_ALLOCATION:  # damage.default_allocation: the hits where they cost her least
            return request.default
        if request.kind == MOVE_ORDER:
            name = request.ships[0]
            return orders.answer(name, best_order(battle, name))
        return request.default


@dataclass
class Guns:
    """The gunnery worked for one choice of hers, by the place her order ends in: her firepower from a hex and
    heading, and the enemy's at her in a hex."""

    hers: dict[tuple[Hex, int], float] = field(default_factory=dict)
    his: dict[Hex, float] = field(default_factory=dict)


def best_order(battle: Battle, name: str) -> Order:
    moves = orders.legal_moves(battle, name)
    guns = Guns()
    scored = [(worth(battle, name, move, guns), n) for n, (_, move) in enumerate(moves)]
    if all(move.collision is None for _, move in moves):  # a ram he cannot steer clear of, where it pays
        for score, n in sorted(scored, key=lambda sn: (-sn[0], sn[1]))[:RAM_LOOKS]:
            scored[n] = (score + forced_ram_worth(battle, name, moves[n][1]), n)
    best = max(scored, key=lambda sn: (sn[0], -sn[1]))
    return moves[best[1]][0]


def worth(battle: Battle, name: str, move: Move, guns: Guns | None = None) -> float:
    """How well a move leaves her: her guns able to fire less CAUTION times his at her, range, room from the edge; a
    collision (only ever when she has no clear order, IC-COL-01) by what it costs.

    ``guns``: the gunnery of the places her other orders of this choice end in. Without a collision only her hex and
    heading differ from one order's board to the next (nobody else moves), and about half her orders end where
    another does (a third in the same hex), so each place's gunnery is worked once."""
    board = move.board
    ship = board.ship(name)
    if move.broke_off:
        return -1000.0
    enemies = [s for s in board.afloat if s.side != ship.side]
    if not enemies:
        return 0.0
    if move.collision is not None:
        return collision_worth(battle.board, name, move.collision)
    enemy = min(enemies, key=lambda e: hexgrid.distance(ship.hex, e.hex))
    distance = hexgrid.distance(ship.hex, enemy.hex)
    wanted = CLOSE_AT if ship.card.left(ARMOUR) > enemy.card.left(ARMOUR) else MIDDLE_AT
    col, row = hexgrid.to_odd_q(ship.hex)
    room = min(col, row, board.cols - 1 - col, board.rows - 1 - row)
    edge = max(0, EDGE_ROOM - room) * 4.0
    guns = Guns() if guns is None else guns
    place = (ship.hex, ship.facing)
    if place not in guns.hers or ship.hex not in guns.his:
        obstacles = {s.hex for s in board.afloat} | set(board.land)
        if place not in guns.hers:
            guns.hers[place] = firepower(board, ship, enemies, obstacles)
        if ship.hex not in guns.his:  # his guns at her do not ask which way she heads
            guns.his[ship.hex] = sum(firepower(board, e, [ship], obstacles) for e in enemies)
    return 2.0 * guns.hers[place] - 2.0 * CAUTION * guns.his[ship.hex] - 1.5 * abs(distance - wanted) - edge


def firepower(board: Board, ship: Ship, targets: list[Ship], obstacles: set[Hex] | None = None) -> float:
    """Her gun stats that could fire this turn from where she stands, each track at the target it is worth most
    against: the same arcs (IC-ARC), Zone of Fire (IC-ZOF-01/02) and reach (IC-ZOF-03) the fire orders offer, each
    stat weighed by the band's scoring faces and halved against 3+ Armour (IC-FIRE-06). ``obstacles``: every ship
    and land hex on the board (the firer's and the target's own are never in the zone, so they may be among them).

    The cheap questions first (reach, then whether any gun track bears), the Zone of Fire last: the AI asks this
    for every legal order of every ship, so it is most of an AI battle's time."""
    if obstacles is None:
        obstacles = {s.hex for s in board.afloat} | set(board.land)
    best: dict[str, float] = {}
    for target in targets:
        if target.hex == ship.hex:
            continue
        band = scale.band(hexgrid.distance(ship.hex, target.hex))
        if band is None:
            continue
        tracks = [t for t in arcs.bearing_tracks(ship.card, ship.hex, ship.facing, target.hex) if t in GUN_TRACKS]
        if not tracks or not zone.clear(ship.hex, target.hex, obstacles):
            continue
        weight = BAND_WORTH[band] * (0.5 if target.card.left(ARMOUR) >= ARMOUR_HALVES_AT else 1.0)
        for track in tracks:
            best[track] = max(best.get(track, 0.0), ship.card.left(track) * weight)
    return sum(best.values())


def collision_worth(before: Board, name: str, collision: Collision) -> float:
    """An unavoidable collision (IC-COL-01) weighed: with a friend or land all loss; with an enemy a little less than
    what the ram is worth (ram_worth), as neither then fires (IC-COL-08)."""
    mine = before.ship(name)
    if collision.other is None or before.ship(collision.other).side == mine.side:
        return -50.0 - 10.0 * (collision.hull + collision.propulsion)
    return -20.0 + ram_worth(mine, before.ship(collision.other), collision)


def ram_worth(mine: Ship, his: Ship, collision: Collision) -> float:
    """Both lose alike, by the mover's speed (IC-COL-04..06): best when it sinks him and not her, worst the other way
    round, else the share of his Hull and Propulsion it takes less the share of hers."""
    sinks_him = his.card.left(HULL) <= collision.hull
    sinks_her = mine.card.left(HULL) <= collision.hull
    if sinks_him != sinks_her:
        return 100.0 if sinks_him else -100.0
    return 40.0 * (_share_lost(his, collision) - _share_lost(mine, collision))


def _share_lost(ship: Ship, collision: Collision) -> float:
    whole = ship.card.left(HULL) + ship.card.left(PROPULSION)
    return min(1.0, (collision.hull + collision.propulsion) / whole) if whole else 1.0


def forced_ram_worth(battle: Battle, name: str, move: Move) -> float:
    """What it is worth to end where an enemy still to move cannot steer clear of her: every one of his legal orders
    collides (so IC-COL-01 lets him, and makes him, collide), and the first that hits her is his collision with her
    by his speed. Worth to her what the collision he would choose (collision_worth, his side of it) is worth to her
    (ram_worth): more than nothing only where the equal losses hurt him more."""
    board = move.board
    me = board.ship(name)
    gained = 0.0
    for enemy in board.afloat:
        if enemy.side == me.side or enemy.moved or hexgrid.distance(enemy.hex, me.hex) > _reach(enemy) + 1:
            continue
        every = movement.orders(board, enemy.name)
        moves = [movement.execute(board, enemy.name, o) for o in every]
        if not moves or any(m.collision is None for m in moves):
            continue  # he can steer clear
        collisions = [m.collision for m in moves if m.collision is not None]
        his = max(collisions, key=lambda c: collision_worth(board, enemy.name, c))  # the collision he would take
        if his.other == name:
            gained += ram_worth(me, enemy, his)
    return gained


def _reach(ship: Ship) -> int:
    """The most hexes she can move this turn (a speed up of 1 at most, IC-SPD-05)."""
    return (ship.carry + ship.speed + 1) // 4 + 1


def _nearest_distance(board: Board, ship: Ship) -> int:
    return min((hexgrid.distance(ship.hex, e.hex) for e in board.afloat if e.side != ship.side), default=0)
