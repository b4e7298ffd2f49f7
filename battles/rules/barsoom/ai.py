"""The AI captain: a Policy (battles/engine/policies.py) for a side no one plays. Minimal but real:

- the plot: of every plot that breaks no restriction, the one that ends with the most of her guns bearing on the
  nearest enemy and closest to him, level for level, without running into anything, off the map or onto the ground
  (her cards tried alone on the board as it stands: the others' plots are secret);
- fire: the target where her guns do most harm, by each gun's chance to hit at its range and what a hit owes;
- the crew: repairs while anything is broken, boarding a ship whose deck her men outnumber by half again, grapples
  on a weaker crew within throw, else stand by.

Deterministic: it reads only what its side may see (positions, crews and damage are open on the table) and breaks
ties by the order of the options."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.barsoom import movement, orders, weapons
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.kinds import (
    AT_BOMB,
    AT_HULL,
    BOARD,
    CREW_ORDERS,
    FIRE_ORDERS,
    GRAPPLE,
    GUN_LOST,
    LANDED,
    LEFT_MAP,
    MOVED,
    PLOT_CARDS,
    STAND_BY,
    TO_REPAIRS,
    TURNED,
)

# What her moves may come to without a penalty: anything else (a collision, a landing, the map's edge) costs.
SAFE = frozenset({MOVED, TURNED, "stopped", "climbed", "descended", "held her course"})
# Hits shake a ship along her facing (a DED's arrow): she keeps this many arrows' room from the map's edge, at this
# price for each she lacks, so one hard turn of fire does not carry her out of the battle.
ARROWS, EDGE = 2, 15
WORTH = {"heavy": Fraction(3), "medium": Fraction(2), "light": Fraction(1)}


class Captain:
    def __init__(self, seed: bytes, side: str) -> None:
        self._seed = seed
        self.side = side
        self.name = f"Barsoom captain {side}"

    def choose(self, ruleset: Any, state: BattleState[Battle], request: DecisionRequest) -> JSON:
        battle, name = state.board, request.ships[0] if request.ships else ""
        if request.kind == PLOT_CARDS:
            return plot(battle, name)
        if request.kind == FIRE_ORDERS:
            return max(request.options or (request.default,), key=lambda o: fire_worth(battle, name, o, state.turn))
        if request.kind == CREW_ORDERS:
            return crew_order(battle, name, list(request.options or ()), request.default)
        if request.kind == GUN_LOST:
            return least_gun(battle, name, list(request.options or ()), state.turn) or request.default
        return request.default


def least_gun(battle: Battle, name: str, offered: list[JSON], turn: int) -> JSON:
    """Row 8's gun (BR-DMG-10): her least valuable, by class (light, medium, heavy), then one not ready to fire before
    one that is, then the last of them."""
    guns = [gun for gun in battle.of(name).guns_left() if gun.key in offered]
    if not guns:
        return None
    worth = {gun.key: WORTH.get(gun.key.split()[0], Fraction(0)) for gun in guns}
    return min(reversed(guns), key=lambda gun: (worth[gun.key], gun.ready_on <= turn)).key


def plot(battle: Battle, name: str) -> JSON:
    """Her best plot by ``standing``; the default (all Stops) if no other does better."""
    best: tuple[Fraction, tuple[str, ...]] | None = None
    for cards in orders.legal_plots(battle, name):
        score = standing(battle.board, name, cards, battle)
        if best is None or score > best[0]:
            best = (score, cards)
    cards = best[1] if best else orders.default_plot(battle, name)
    return {"cards": list(cards), "ram": False}


def standing(board: Board, name: str, cards: tuple[str, ...], battle: Battle) -> Fraction:
    """How well her cards leave her: guns bearing on the nearest enemy, less the hexes and levels between, less a
    heavy price for any card that ends in contact, a landing or off the map, and for ending near the map's edge."""
    penalty = Fraction(0)
    for card in cards:
        moved = movement.execute(board, name, card)
        if moved.outcome not in SAFE or moved.damage:
            penalty += 50 if moved.outcome != LEFT_MAP else 200
        if moved.outcome == LANDED:
            penalty += 50
        board = moved.board
    me = board.ship_named(name)
    penalty += EDGE * sum(1 for hex_ in _arrows(me) if not board.on_map(hex_))
    enemies = [s for s in board.ships if s.side != me.side and s.in_play and not s.on_ground]
    if not me.in_play or not enemies:
        return -penalty
    foe = min(enemies, key=lambda s: (hexgrid.distance(me.hex, s.hex), s.name))
    hexes, levels = hexgrid.distance(me.hex, foe.hex), foe.level - me.level
    bearing = sum(
        WORTH[weapons.weapon(gun.weapon).weapon_class.value]
        for gun in battle.of(name).guns_left()
        if weapons.refusal(
            weapons.weapon(gun.weapon), hexes=hexes, levels=levels, at_ship=True, small_craft=_small(foe)
        )
        is None
    )
    return bearing * 10 - hexes - 2 * abs(levels) - penalty


def _arrows(ship: Ship) -> list[hexgrid.Hex]:
    """Where two Damage Effect Die arrows in a row would carry her (BR-DED-04: her speed each, along her facing)."""
    found, hex_ = [], ship.hex
    for _ in range(ARROWS):
        for _ in range(ship.speed):
            hex_ = hexgrid.neighbour(hex_, ship.facing)
        found.append(hex_)
    return found


def _small(ship: Ship) -> bool:
    return ship.ship_class.extra_ascend


def hit_chance(modifier: int) -> Fraction:
    """The chance 2D6 - 6 + ``modifier`` is above 0."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b - 6 + modifier > 0), 36)


def fire_worth(battle: Battle, name: str, option: JSON, turn: int) -> Fraction:
    """What her fire on a target is worth: each gun's chance to hit at its range times what a hit is worth (a ship's
    hull twice her crew), a bomb a fair chance of a medium hit."""
    if not isinstance(option, dict) or not isinstance(option.get("target"), str):
        return Fraction(0)
    target, aim = str(option["target"]), option.get("at")
    if aim == AT_BOMB:
        return Fraction(3)
    hexes, levels = orders.apart(battle.ship(name), battle.ship(target))
    distance = weapons.range_between(hexes, levels)
    worth = Fraction(0)
    for gun in orders.guns_bearing(battle, name, target, str(aim), turn):
        weapon = weapons.weapon(gun.weapon)
        modifier = sum(weapons.to_hit_modifiers(weapon, distance=distance, at_crew=aim != AT_HULL).values())
        worth += hit_chance(modifier) * WORTH[weapon.weapon_class.value] * weapon.shots
    return worth * 2 if aim == AT_HULL else worth


def crew_order(battle: Battle, name: str, options: list[JSON], default: JSON) -> JSON:
    by_order: dict[str, list[dict[str, Any]]] = {}
    for option in options:
        if isinstance(option, dict):
            by_order.setdefault(str(option.get("order")), []).append(option)
    mine = battle.of(name).crew
    if TO_REPAIRS in by_order and not mine.repair.men:
        return by_order[TO_REPAIRS][0]
    for option in by_order.get(BOARD, []):
        if 2 * mine.men >= 3 * battle.of(str(option["ship"])).crew.men:
            return option
    for option in by_order.get(GRAPPLE, []):
        if mine.men > battle.of(str(option["ship"])).crew.men:
            return option
    return next((o for o in by_order.get(STAND_BY, [])), default)
