"""The AI captain: a Policy (battles/engine/policies.py) for a side no one plays. Minimal but real:

- the plot: of every plot that breaks no restriction, the one that ends with the most of her guns bearing on the
  nearest enemy and closest to him, level for level, without running into anything, off the map or onto the ground
  (her cards tried alone on the board as it stands: the others' plots are secret); the scenario's story steers her
  (victory.py): a ship whose escape over an edge wins makes for that edge, and an enemy whose loss wins is the one
  she closes with while he is in the fight;
- fire: the order (one target, or the guns it leaves idle on a second) where her guns do most harm, by each gun's
  chance to hit at its range and what a hit owes (twice as much on an enemy whose loss wins);
- the crew: repairs while anything is broken, boarding a ship whose deck her men outnumber by half again (or jumping
  for her when the men a jump should carry across do), grapples on a weaker crew within throw, else stand by;
- a Turn card is played as no turn where holding it leaves her better, and her side's order of reveal is the
  scenario's (with every plot fixed beforehand, the order changes only who reaches a hex first).

Deterministic: it reads only what its side may see (positions, crews and damage are open on the table) and breaks
ties by the order of the options."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.barsoom import boarding, movement, orders, victory, weapons
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.cards import played
from battles.rules.barsoom.goals import ESCAPES, LOST
from battles.rules.barsoom.kinds import (
    AT_BOMB,
    AT_HULL,
    BOARD,
    CREW_ORDERS,
    FIRE_ORDERS,
    GRAPPLE,
    GUN_LOST,
    JUMP_ACROSS,
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
ESCAPE = 1000  # leaving over the edge her story names is worth more than any fight
WORTH = {"heavy": 3, "medium": 2, "light": 1}
Place = tuple[hexgrid.Hex, int, int, bool]  # where a plot leaves her: hex, facing, level, off the map


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
    """Her best plot by ``_standing``; the default (all Stops) if no other does better. Plots share their first
    cards, so each card is executed once for all the plots that begin with it, and each place she may end in is
    weighed once: the same choice as trying every plot afresh, several times faster (the plot is most of an AI
    battle's time)."""
    best: tuple[int, tuple[str, ...]] | None = None
    aims = Aims(battle, name)
    tried: dict[tuple[str, ...], tuple[Board, int]] = {(): (battle.board, 0)}
    places: dict[Place, int] = {}
    for cards in orders.legal_plots(battle, name):
        board, penalty = _after(tried, aims, cards)
        score = _standing(board, aims, battle, penalty, places)
        if best is None or score > best[0]:
            best = (score, cards)
    cards = _held_where_it_pays(tried, aims, battle, places, best) if best else orders.default_plot(battle, name)
    return {"cards": list(cards), "ram": False}


def _held_where_it_pays(
    tried: dict[tuple[str, ...], tuple[Board, int]],
    aims: Aims,
    battle: Battle,
    places: dict[Place, int],
    best: tuple[int, tuple[str, ...]],
) -> tuple[str, ...]:
    """Her Turn cards one by one played as no turn (BR-MOV-05), each kept held only if that leaves her better: a
    Turn card she had to play for a restriction's sake, or one whose turn would spoil her standing."""
    score, cards = best
    for slot in range(len(cards)):
        holding = orders.held(cards, slot)
        if holding == cards:
            continue
        board, penalty = _after(tried, aims, holding)
        held_score = _standing(board, aims, battle, penalty, places)
        if held_score > score:
            cards, score = holding, held_score
    return cards


class Aims:
    """What the scenario's story asks of her (victory.py): the edge whose crossing wins for her side, if she has
    one, and the enemies whose loss wins for it."""

    def __init__(self, battle: Battle, name: str) -> None:
        side = battle.ship(name).side
        self.name = name
        self.edge = next((g.edge for g in battle.goals if g.when == ESCAPES and g.ship == name and g.wins == side), "")
        self.quarry = frozenset(g.ship for g in battle.goals if g.when == LOST and g.wins == side)


def _after(tried: dict[tuple[str, ...], tuple[Board, int]], aims: Aims, cards: tuple[str, ...]) -> tuple[Board, int]:
    """The board after her ``cards`` and the price of what they ran into, from the longest plot already tried that
    they begin with (``tried`` keeps every prefix). Off the map over the edge her story wants is no price but the
    best end there is; over another edge, the worst."""
    known = tried.get(cards)
    if known is not None:
        return known
    board, penalty = _after(tried, aims, cards[:-1])
    card, turns = played(cards[-1])
    moved = movement.execute(board, aims.name, card, turn=turns)
    if moved.outcome == LEFT_MAP and aims.edge:
        gone = victory.edge_crossed(moved.board, moved.board.ship_named(aims.name))
        # Over any other edge she is out of the battle, lost to her story: worse than any place on the map, where a
        # runner far from her edge counts ten a hex still to go.
        penalty += -ESCAPE if gone == aims.edge else ESCAPE
    elif moved.outcome not in SAFE or moved.damage:
        penalty += 50 if moved.outcome != LEFT_MAP else 200
    if moved.outcome == LANDED:
        penalty += 50
    tried[cards] = (moved.board, penalty)
    return tried[cards]


def _standing(board: Board, aims: Aims, battle: Battle, penalty: int, places: dict[Place, int]) -> int:
    """How well her cards leave her: guns bearing on the nearest enemy, less the hexes and levels between, less a
    heavy price for any card that ends in contact, a landing or off the map (``penalty``); a ship making for her
    story's edge, the hexes still to go. ``places`` keeps what each place she may
    end in is worth (the other ships do not move while she tries her cards)."""
    me = board.ship_named(aims.name)
    place = (me.hex, me.facing, me.level, me.left_map)
    if place not in places:
        places[place] = _to_go(board, me, aims.edge) if aims.edge else _place_worth(board, me, battle, aims)
    return places[place] - penalty


def _to_go(board: Board, me: Ship, edge: str) -> int:
    """A runner's place: ten points a hex short of her edge, and her facing towards it (a ship can only leave ahead
    or astern). Off the map she has gone: her cards' price says where."""
    if me.left_map:
        return 0
    col, row = hexgrid.to_odd_q(me.hex)
    short = {"west": col, "east": board.cols - 1 - col, "north": row, "south": board.rows - 1 - row}[edge]
    after = hexgrid.to_odd_q(hexgrid.neighbour(me.hex, me.facing))
    nearer = {"west": after[0] < col, "east": after[0] > col, "north": after[1] < row, "south": after[1] > row}[edge]
    return -10 * short + (5 if nearer else 0)


def _place_worth(board: Board, me: Ship, battle: Battle, aims: Aims) -> int:
    enemies = [s for s in board.ships if s.side != me.side and s.in_play and not s.on_ground]
    if not me.in_play or not enemies:
        return 0
    hunted = [s for s in enemies if s.name in aims.quarry] or enemies
    foe = min(hunted, key=lambda s: (hexgrid.distance(me.hex, s.hex), s.name))
    hexes, levels = hexgrid.distance(me.hex, foe.hex), foe.level - me.level
    bearing = sum(
        WORTH[weapons.weapon(gun.weapon).weapon_class.value]
        for gun in battle.of(me.name).guns_left()
        if weapons.refusal(
            weapons.weapon(gun.weapon), hexes=hexes, levels=levels, at_ship=True, small_craft=_small(foe)
        )
        is None
    )
    return bearing * 10 - hexes - 2 * abs(levels)


def _small(ship: Ship) -> bool:
    return ship.ship_class.extra_ascend


def hit_chance(modifier: int) -> Fraction:
    """The chance 2D6 - 6 + ``modifier`` is above 0."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b - 6 + modifier > 0), 36)


def fire_worth(battle: Battle, name: str, option: JSON, turn: int) -> Fraction:
    """What her fire order is worth: each gun's chance to hit at its range times what a hit is worth (a ship's hull
    twice her crew, twice again on an enemy whose loss wins), a bomb a fair chance of a medium hit."""
    if not isinstance(option, dict) or not isinstance(option.get("target"), str):
        return Fraction(0)
    if option.get("at") == AT_BOMB:
        return Fraction(3)
    side = battle.ship(name).side
    worth = Fraction(0)
    for gun, target, aim in orders.guns_for(battle, name, option, turn):
        hexes, levels = orders.apart(battle.ship(name), battle.ship(target))
        weapon = weapons.weapon(gun.weapon)
        mods = weapons.to_hit_modifiers(weapon, distance=weapons.range_between(hexes, levels), at_crew=aim != AT_HULL)
        shot = hit_chance(sum(mods.values())) * WORTH[weapon.weapon_class.value] * weapon.shots
        if any(goal.when == LOST and goal.ship == target and goal.wins == side for goal in battle.goals):
            shot *= 2  # her loss wins the battle
        worth += shot * 2 if aim == AT_HULL else shot
    return worth


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
    for option in by_order.get(JUMP_ACROSS, []):
        if 2 * jumpers_across(battle, name, str(option["ship"])) >= 3 * battle.of(str(option["ship"])).crew.men:
            return option
    for option in by_order.get(GRAPPLE, []):
        if mine.men > battle.of(str(option["ship"])).crew.men:
            return option
    return next((o for o in by_order.get(STAND_BY, [])), default)


def jumpers_across(battle: Battle, name: str, other: str) -> Fraction:
    """The men she may count on getting aboard ``other`` if every man on deck jumps (BR-GRAP-03/04): each across on
    a die that covers the gap, or, onto a ship directly below, landing hard and not struck down."""
    hexes, rise = orders.apart(battle.ship(name), battle.ship(other))
    if not boarding.can_jump(hexes, rise):
        return Fraction(0)
    ends = [boarding.jump(hexes, rise, face) for face in range(1, 7)]
    unhurt = Fraction(sum(1 for face in range(1, 7) if not boarding.struck_down(face, 0)), 6)
    landed = [Fraction(1) if end == boarding.ACROSS else unhurt for end in ends if end != boarding.FELL]
    chance = sum(landed, Fraction(0))
    return battle.of(name).crew.men * chance / 6
