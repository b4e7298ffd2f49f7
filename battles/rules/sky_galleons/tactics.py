"""Sky Galleons tactics: the Captain, an AI policy that answers every decision of the ruleset as a player would.

The Captain is an engine :class:`~battles.engine.policies.Policy`: ``choose(ruleset, state, request)`` gives
one answer, from the state as its side may see it. It scores the legal answers with plain rules of thumb:

* a warship picks a target (the nearest enemy, the damaged and the weak first), closes to the range where
  its guns hit on 3+, keeps as many guns bearing as it can (the aspect the target will be in from where it
  ends, against each gun's arcs), holds the target's altitude, and keeps clear of other ships' hexes
  (collisions), the map edge and the ground;
* a beaten ship (heavy hull damage, most of its crew gone, every officer lost: SG-CREW-03, or no gun left)
  and every merchant run for the nearest map edge, away from the enemy, and leave the battle;
* every gun that can fire does (guns reload by the turn, so holding fire gains nothing), each at the target
  where its shots are worth most, the side's chosen target first;
* in the Initiative Phase empty helm and trim stations are relieved, empty gun crew circles are filled from
  the deckhands, and a beaten ship that cannot get away strikes her colours;
* a prize is crewed when her captors' men may man her and she would make way with them; otherwise pirates
  and privateers hold her and take her in tow, and warships scuttle her (SG-BRD-21..24);
* a ship with city or fortress hexes to bombard (SG-SCN-25) gets on with it: it holds the height its guns
  still reach the ground from (ordnance_play.bombard_height), climbing back when it falls, keeps clear of
  the enemy's mine carriers, lob guns and batteries' high-angle fire (bombard_exposure), weighs every hex
  alike, chases no prize, shares its guns out over the hexes so that no hit is spent beyond a hex's points
  (share_bombardment) and keeps its rockets for them.

Deterministic: the same seed and state give the same answer. The only chance is the choice between moves
scored almost alike, one die from ``dice.face`` on a stream named after the policy and the request (as
RandomPolicy does), so a battle played by Captains replays exactly.

A side's ``ai`` object in the scenario tunes its captains: ``flee_hull`` (the share of hull boxes hit at which
a ship is beaten, default 2/3), ``flee_crew`` (the share of the starting crew below which it is beaten,
default 1/3), ``caution`` (how much the enemy's guns weigh against its own when placing a warship,
default 0.5) and ``prizes`` (``"keep"``: the side keeps the prizes it cannot crew rather than scuttle them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial
from typing import Any, cast

from battles.aikit import search, ties
from battles.aikit.memo import Memo
from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_list
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    candidates,
    class_rules,
    close_action,
    combat,
    flying,
    movement,
    ordnance,
    ordnance_play,
    portable_guns,
    prizes,
    queries,
    scenario_ai,
    signals,
    special_rules,
    validate,
)
from battles.rules.sky_galleons.board import Board, party_of
from battles.rules.sky_galleons.board import move_parts as board_move_parts
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.kinds import (
    AVOID,
    AVOID_COLLISION,
    BOARD,
    FIRE,
    FIRST,
    GRAPPLE,
    KEY,
    MOVE,
    ORDERS,
    PLACE,
    PLOT,
    POSITION,
    RAM,
)
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import Gun, ShipRecord, altitude_level, oint, tint

State = BattleState[Board]

# --- tuning: the weights of the rules of thumb ------------------------------------------------------------

FLEE_HULL = 2 / 3  # beaten at this share of hull boxes hit (the ship is down to its lowest rows by then)
FLEE_CREW = 1 / 3  # beaten below this share of the starting crew: too few to work the guns and turncranks
CAUTION = 0.5  # a warship weighs the damage the enemy can do to it at half the damage it can do
FLEE_CAUTION = 1.5  # a fleeing ship weighs the enemy's guns heavily: it wants out, not a last exchange
APPROACH = 0.35  # per hex beyond the ideal range: draws a warship in when no gun bears yet
ALTITUDE_GAP = 0.6  # per level away from the target: -1 to hit both ways and a longer effective range
LOW_FLYING = 1.0  # flying Very Low with the target higher: one more hit row lost and the ship is down
SHARED_HEX = 3.0  # ending in another ship's hex at its altitude: a collision check, and no aimed fire
PASSING = 1.5  # each other ship's hex entered on the way: a collision check each (SG-COL-01)
NEAR_EDGE = 1.5  # a warship at the map edge can be pushed off it, or forced off by a jammed rudder
LEAVES_MAP = 100.0  # leaving the map is leaving the battle
ESCAPES = 1000.0  # ... which is all a fleeing ship wants
WRECKED = 5000.0  # a plan that crashes, crash-lands or lands the ship
FOCUS = 0.5  # the side's chosen target is worth half as much again to every gun (concentrated fire)
OTHER_TARGET = 0.7  # a warship placing its guns weighs enemies other than its target at this share
STRAY_RISK = 0.5  # a target sharing its hex with one of ours: a miss may hit our own ship (SG-FIRE-11)
NEAR_TIE = 0.1  # moves scored within this of the best are alike; a die picks among them
SMALL_ARMS_MAN = 0.2  # a man shot down by small arms, against a hull box: crews are many, hulls few
CAUGHT = 2  # hexes: an enemy warship this close has caught the ship
RELIEF_RANKS = ("petty_officer", "officer", "captain")  # the cheapest relief first (SG-CREW-04/07)
FIRE_RESERVE = 2  # deckhands kept back from the guns while the ship burns: they fight the fire (SG-CRIT-21)
LEADER_WORTH = 2.0  # officers and marines kill on 5-6, the rest on 6 (SG-BRD-14): twice the fighting worth
BOARD_EDGE = 1.2  # boarders go for a warship only when they outweigh its defenders by this much
PRESS_ON = 0.8  # boarders already at it keep crossing while they weigh this much of the defenders
ENDLESS = 1 << 30  # hexes: farther than any map
DISBAND_AT = 4  # hexes: with no enemy this close and no grapple, the party goes back to its posts


@dataclass(frozen=True)
class Spot:
    """Where a ship is, or would be: hex, facing and altitude."""

    hex: Hex
    facing: int
    altitude: str


@dataclass(frozen=True)
class Tuning:
    flee_hull: float = FLEE_HULL
    flee_crew: float = FLEE_CREW
    caution: float = CAUTION


class Captain:
    """The Sky Galleons AI captain (see the module docstring). ``Captain(seed)`` plays any side."""

    def __init__(self, seed: bytes, name: str = "captain") -> None:
        self._seed = seed
        self.name = name
        self._memo: Memo[Battery] = Memo()  # one battle's ships' guns, kept while the ships are unchanged

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        choice = self.propose(ruleset, state, request)
        if not request.allows(choice) or ruleset.validate(state, request, choice) is not None:
            return request.default  # never offer an illegal answer; the default is always legal
        return choice

    def propose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        """The Captain's answer before ``choose`` checks it (tests play with this, so a mistake shows)."""
        if ruleset.key != KEY or not isinstance(state.board, Board):
            return request.default  # another game: the Captain knows only Sky Galleons
        return self._answer(cast(State, state), request)

    def _answer(self, state: State, request: DecisionRequest) -> JSON:
        if request.kind == MOVE:
            return self._move(state, request)
        if request.kind == FIRE:
            return fire_orders(state, request.side)
        if request.kind == ORDERS:
            return initiative_orders(state, request)
        if request.kind == FIRST:
            return first_player(state, request)
        if request.kind == POSITION:
            return relative_position(state, request)
        if request.kind == AVOID:
            return ordnance_play.ai_avoid(request, bool(avoids(state, request)))  # mines cut loose first
        if request.kind == ordnance_play.AVOID_TORPEDO:
            return ordnance_play.ai_avoid_torpedo(request)
        if request.kind == BOARD:
            return boarding_orders(state, request.side)
        if request.kind == flying.FLY:
            return flight(state, request)
        if request.kind == AVOID_COLLISION:
            return avoids_collision(state, request)
        if request.kind == PLOT:
            return self._plots(state, request)
        if request.kind == PLACE:  # the scenario's positions are the set-up the AI takes, but for the entry edge
            return scenario_ai.entry_spot(state.board, state.board.ship(request.ships[0])) or request.default
        return request.default

    def _move(self, state: State, request: DecisionRequest) -> JSON:
        state = with_written(state, request)
        record = state.board.ship(request.ships[0])
        traced = candidates.traced_moves(state, record)
        landing = scenario_ai.landing_move(
            state.board, record, traced, state.turn
        )  # SG-SCN-38: land or pick up the party
        if landing is not None:
            return landing
        attack = leap_move(state, record, traced) or attack_move(state, record, traced)
        if attack is not None:
            return attack
        near = scenario_ai.stand_off(state.board, record)  # SG-SCN-39: the party is in the dungeon
        view = sight(state, record, self._memo)
        if near is None and not view.running and not droppers(record):
            scored = best_moves(state, view, traced)  # the same best as scoring them all, far cheaper
        else:
            scored = score_moves(state, record, traced, near, view)
            scored = ai_adjust_moves(state, record, traced, scored)  # mines avoided, drops made
        alike = ties.alike(scored, NEAR_TIE)
        if not alike:
            return request.default
        # The one chance the Captain takes: which of the equally good moves, so that captains differ.
        return ties.pick(alike, self._seed, f"policy|{self.name}|{request.side}|{request.id}")

    def _plots(self, state: State, request: DecisionRequest) -> JSON:
        """Plotted movement (SG-ERR-24): each ship plots the move it likes best within half its allowance, as
        it would pick a whole move (the allowance in the Initiative Phase is the plotting share)."""
        plots: dict[str, JSON] = {}
        for name in request.ships:
            record = state.board.ship(name)
            scored = score_moves(state, record, candidates.traced_moves(state, record))
            if scored:
                plots[name] = max(scored, key=lambda item: item[0])[1]
        return {"plots": plots}


def with_written(state: State, request: DecisionRequest) -> State:
    """The board as the captain plans this ship's move: his ships whose moves he has already written in the same
    submission stand where those moves end (they are made one after another, in the order written)."""
    board = state.board
    moved: dict[str, ShipRecord] = {}
    for asked in state.requests:
        if asked.kind != MOVE or asked.side != request.side or asked.id not in state.answers:
            continue
        record = board.ship(asked.ships[0])
        steps, _ = board_move_parts(state.answers[asked.id])
        try:
            path = movement.trace(record, steps, allowed=queries.allowance(state, record), terrain=board.terrain)
        except movement.PlanError:
            continue
        if path and not path[-1].ends:
            end = path[-1]
            moved[record.name] = replace(record, position=end.hex, facing=end.facing, altitude=end.altitude)
    if not moved:
        return state
    ships = tuple(moved.get(s.name, s) for s in board.ships)
    return state.evolve(board=replace(board, ships=ships))


class Leaving(Captain):
    """A side that has left the battle in the battle app but whose ships are still on the map.

    ``surrender``: in its next initiative orders every ship strikes its colours (SG-SEQ-02), and from then on
    the side answers only with the defaults. ``withdraw``: every ship runs for the map edge as a beaten ship
    would (flee_score), firing as it goes. The answers are ordinary decisions, logged like any other.
    """

    def __init__(self, seed: bytes, name: str, how: str) -> None:
        super().__init__(seed, name)
        self.how = how

    def propose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        if ruleset.key != KEY or not isinstance(state.board, Board):
            return request.default
        board = state.board
        if self.how == "surrender":
            if request.kind != ORDERS:
                return request.default
            ships = [s.name for s in board.fighting(request.side)]
            return {**cast(dict[str, JSON], request.default), "strike": list[JSON](ships)}
        if request.kind == MOVE:
            record = board.ship(request.ships[0])
            played = cast(State, state)
            view = sight(played, record)
            scored = [
                (flee_score(view, path_of(view, steps)), list[JSON](plan))
                for plan, steps in candidates.traced_moves(played, record)
            ]
            return max(scored, key=lambda item: item[0])[1] if scored else request.default
        return super().propose(ruleset, state, request)


# --- reading the board ----------------------------------------------------------------------------------


def tuning(board: Board, side: str) -> Tuning:
    """The side's ``ai`` settings from the scenario, numbers only; anything else keeps the default."""
    given = board.ai.get(side, {})

    def number(key: str, default: float) -> float:
        value = given.get(key)
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default

    return Tuning(number("flee_hull", FLEE_HULL), number("flee_crew", FLEE_CREW), number("caution", CAUTION))


def spot(record: ShipRecord) -> Spot:
    assert record.position is not None, f"{record.name} is not on the map"
    return Spot(record.position, record.facing, record.altitude)


def fires_at_ships(gun: Gun) -> bool:
    """A gun that can still fire at a ship: whole, rolling to hit, with a damage value of its own."""
    weapon = gun.weapon
    return not gun.destroyed and not weapon.personnel_only and gun.rate is not None and gun.damage_value is not None


def armed(record: ShipRecord) -> bool:
    """Has a gun that fires at ships, manned or with deckhands to man it."""
    return any(fires_at_ships(g) and (g.manned > 0 or record.crew.deckhands > 0) for g in record.guns)


def is_merchant(board: Board, record: ShipRecord) -> bool:
    return board.roles.get(record.name) == "merchant"


def damage(board: Board, record: ShipRecord) -> float:
    """How badly hurt, 0 to 1: the larger of the hull boxes hit and the crew lost."""
    hull = record.hull_hits / record.hull_boxes if record.hull_boxes else 1.0
    start = board.crew_at_start.get(record.name, record.crew_aboard)
    crew = 1 - record.men_alive / start if start else 0.0  # men in a boarding party are not lost
    return max(hull, crew)


def beaten(board: Board, record: ShipRecord) -> bool:
    """Out of the fight in all but name: it should run (or, caught, strike)."""
    tune = tuning(board, record.side)
    start = board.crew_at_start.get(record.name, record.crew_aboard)
    return (
        record.hull_hits >= tune.flee_hull * record.hull_boxes
        or record.men_alive < tune.flee_crew * start  # men in a boarding party are not lost
        or (record.all_officers_lost and not flying.officers_out(board.flyers, record.name))  # SG-CREW-03
        or not (armed(record) or scenario_ai.has_work_unarmed(board, record))
    )


def running(board: Board, record: ShipRecord) -> bool:
    """Merchants always run from warships; beaten ships run from everyone; and a ship the scenario wants
    gone runs (scenario_ai: free to escape, or carrying off its prize)."""
    return is_merchant(board, record) or beaten(board, record) or scenario_ai.runs_now(board, record)


def enemies(board: Board, side: str) -> list[ShipRecord]:
    return [s for s in board.fighting() if s.side != side]


def hunters(board: Board, side: str) -> list[ShipRecord]:
    """The enemy warships that can still hurt: what a merchant or a beaten ship runs from."""
    return [s for s in enemies(board, side) if not is_merchant(board, s) and armed(s)]


def edge_distance(terrain: Terrain, hex_: Hex) -> int:
    """Hexes to move to leave the map by the nearest edge (1 on the edge row or column)."""
    col, row = hexgrid.to_odd_q(hex_)
    return min(col + 1, terrain.cols - col, row + 1, terrain.rows - row)


def exit_steps(terrain: Terrain, at: Spot) -> int:
    """Hexes straight ahead until the ship is off the map: how soon it leaves holding its course."""
    hex_, steps = at.hex, 0
    while terrain.on_map(hex_):
        hex_, steps = hexgrid.neighbour(hex_, at.facing), steps + 1
    return steps


def ahead(at: Spot, hexes: int) -> Hex:
    hex_ = at.hex
    for _ in range(hexes):
        hex_ = hexgrid.neighbour(hex_, at.facing)
    return hex_


# --- what a gun is worth from a spot ---------------------------------------------------------------------


@cache
def level(altitude: str) -> int:
    return altitude_level(altitude)


@cache
def needed(band: str) -> int:
    return tint("to_hit", band)


@cache
def range_per_level(higher: bool) -> int:
    return tint("altitude_and_range", "range_added_per_level_higher" if higher else "range_added_per_level_lower")


def hit_chance(needs: int, modifier: int) -> float:
    """One d6 plus modifiers reaching ``needs`` (SG-FIRE-09/10)."""
    return min(max((7 - needs + modifier) / 6, 0.0), 1.0)


@cache
def worth_of_hit(damage_value: int, penetration: int, armor: int) -> float:
    """A hit's damage value as the target feels it: crew and criticals take it whole, the hull and armored
    locations what the armor leaves (SG-ARM-03..09), taken half and half."""
    armored = combat.armor_effect(damage_value, penetration, armor)
    return 0.5 * damage_value + 0.5 * (armored.whole + (0.5 if armored.half else 0.0))


@dataclass(frozen=True)
class Piece:
    """One gun as the Captain weighs it: its arcs, reach and punch. ``weight`` is 1 for a gun that can fire
    now and 1/2 for one still reloading (it bears next turn if not now)."""

    arcs: frozenset[str]
    close: int | None
    long: int | None
    shots: int
    damage_value: int
    penetration_close: int
    penetration_long: int
    weight: float

    def band(self, effective_range: int) -> str | None:
        """As combat.range_band (SG-FIRE-07/08)."""
        if self.close is not None and effective_range <= self.close:
            return "close"
        if self.long is not None and effective_range <= self.long:
            return "long"
        return None


@dataclass(frozen=True)
class Battery:
    """A ship's guns that can fire at ships, and its own to-hit modifier (crew quality, burning). ``values``
    keeps each gun's expected damage by effective range, modifier and armor (``at_range``): the AI asks the
    same few hundred times a move, for every spot it could end in."""

    pieces: tuple[Piece, ...]
    modifier: int
    longest: int = 0  # the farthest any of them reaches: beyond it, at any altitude, none can fire (SG-FIRE-07)
    values: dict[tuple[int, int, int], tuple[tuple[frozenset[str], float], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    threats: dict[tuple[Spot, Hex, str, int], float] = field(default_factory=dict, compare=False, repr=False)
    sums: dict[tuple[int, int, int, frozenset[str]], float] = field(default_factory=dict, compare=False, repr=False)

    def threat(self, frm: Spot, at: Spot, armor: int) -> float:
        """What these guns, at ``frm``, could fire at a ship at ``at`` (its hex and altitude) with ``armor``. Kept:
        the battery lives as long as its ship is unchanged, and every ship of the other side asks."""
        key = (frm, at.hex, at.altitude, armor)
        found = self.threats.get(key)
        if found is None:
            found = self.threats[key] = self._bearing_sum(frm, at, armor)
        return found

    def _bearing_sum(self, frm: Spot, at: Spot, armor: int) -> float:
        """sum(gun_values(self, frm, at, armor)), the sum kept by range, modifier, armor and aspects seen: few."""
        reach = reach_of(self, frm, at)
        if reach is None:
            return 0.0 if self.pieces else 0
        seen = aspect_names(frm.hex, frm.facing, at.hex)
        key = (*reach, armor, seen)
        found = self.sums.get(key)
        if found is None:
            table = self.at_range(reach[0], reach[1], armor)
            found = self.sums[key] = sum(value if value and not seen.isdisjoint(arcs) else 0.0 for arcs, value in table)
        return found

    def at_range(self, effective: int, modifier: int, armor: int) -> tuple[tuple[frozenset[str], float], ...]:
        """Each gun's arcs and what it is worth at ``effective`` range (0.0 beyond its reach)."""
        key = (effective, modifier, armor)
        found = self.values.get(key)
        if found is None:
            found = self.values[key] = tuple(
                (piece.arcs, piece_value(piece, effective, modifier, armor)) for piece in self.pieces
            )
        return found


def piece_value(piece: Piece, effective: int, modifier: int, armor: int) -> float:
    band = piece.band(effective)
    if band is None:
        return 0.0
    pen = piece.penetration_close if band == "close" else piece.penetration_long
    chance = hit_chance(needed(band), modifier)
    return piece.weight * piece.shots * chance * worth_of_hit(piece.damage_value, pen, armor)


def battery(record: ShipRecord, turn: int, rules: combat.CombatRules) -> Battery:
    pieces = []
    for gun in record.guns:
        reach, rate, dv = gun.weapon.range_hexes, gun.rate, gun.damage_value
        if not fires_at_ships(gun) or gun.manned == 0 or reach is None or rate is None or dv is None:
            continue
        pieces.append(
            Piece(
                arcs=frozenset(gun.arcs),
                close=reach.close,
                long=reach.long,
                shots=rate.shots,
                damage_value=dv,
                penetration_close=combat.penetration_at(gun, "close", rules),
                penetration_long=combat.penetration_at(gun, "long", rules),
                weight=1.0 if gun.ready(turn) else 0.5,
            )
        )
    # Against itself the firer is at its own altitude: only crew quality and burning count.
    longest = max((max(p.close or 0, p.long or 0) for p in pieces), default=0)
    if range_per_level(True) < 0 or range_per_level(False) < 0:
        longest = ENDLESS  # were a level ever to shorten the range, the distance would bound nothing
    return Battery(tuple(pieces), sum(combat.to_hit_modifiers(record, record).values()), longest)


def gun_values(guns: Battery, at: Spot, there: Spot, armor: int) -> tuple[float, ...]:
    """Expected damage of each gun fired from ``at`` at a ship in ``there``: 0 if it cannot bear or reach.

    The tests of combat.fire_solution (arcs, the altitude limit, range with height added, SG-FIRE-02/07/13..17)
    made for spots the ships are not in yet.
    """
    table = in_reach(guns, at, there, armor)
    if table is None:
        return (0.0,) * len(guns.pieces)
    seen = aspect_names(at.hex, at.facing, there.hex)
    return tuple(value if value and not seen.isdisjoint(arcs) else 0.0 for arcs, value in table)


def in_reach(guns: Battery, at: Spot, there: Spot, armor: int) -> tuple[tuple[frozenset[str], float], ...] | None:
    """Each gun's arcs and worth against a ship in ``there`` as if it bore, or None when none can fire: in one
    hex (the aspects are declared, not computed; the collision matters more) or beyond the altitude limit
    (SG-FIRE-13). What gun_values asks before the arcs, and all the upper bound of a spot asks."""
    reach = reach_of(guns, at, there)
    return None if reach is None else guns.at_range(reach[0], reach[1], armor)


def reach_of(guns: Battery, at: Spot, there: Spot) -> tuple[int, int] | None:
    """The effective range and to-hit modifier of ``guns`` at ``at`` against ``there``, or None (in_reach)."""
    if not guns.pieces or at.hex == there.hex:
        return None
    distance = hexgrid.distance(at.hex, there.hex)
    difference = level(there.altitude) - level(at.altitude)
    if abs(difference) > distance:
        return None
    effective = distance + abs(difference) * range_per_level(difference > 0)
    return effective, guns.modifier + (tint("to_hit_modifiers", "different_altitude") if difference else 0)


@lru_cache(maxsize=1 << 16)  # bounded: a worker plays battle after battle
def aspect_names(at: Hex, facing: int, there: Hex) -> frozenset[str]:
    """hexgrid.aspects as the guns' arcs name them."""
    return frozenset(aspect.value for aspect in hexgrid.aspects(at, facing, there))


# --- targets ----------------------------------------------------------------------------------------------


def target_key(board: Board, ship: ShipRecord, enemy: ShipRecord) -> tuple[float, int, str]:
    """Lower is better: near, damaged, weakly armed enemies first; a merchant is a prize worth a detour.
    Between enemies alike, the one whose side comes next after ours round the table (``seat``), not the
    first name in the alphabet: with three captains alike, a name would set two of them on the same one."""
    return _key_from(ship, enemy, worth(board, enemy), seat(board, ship.side, enemy.side))


def worth(board: Board, enemy: ShipRecord) -> tuple[float, float, float]:
    """The parts of target_key that are the enemy's own, whoever looks at her: her damage, guns and prize
    (kept apart so that the key is summed in the same order, to the same last bit, however it is reached)."""
    guns = sum(1 for g in enemy.guns if fires_at_ships(g) and g.manned > 0)
    prize = 2.0 if is_merchant(board, enemy) else 0.0
    return 4.0 * damage(board, enemy), 0.3 * guns, prize


def _key_from(
    ship: ShipRecord, enemy: ShipRecord, own: tuple[float, float, float], place: int
) -> tuple[float, int, str]:
    assert ship.position is not None
    assert enemy.position is not None
    distance = hexgrid.distance(ship.position, enemy.position)
    gap = abs(level(ship.altitude) - level(enemy.altitude))
    hurt, guns, prize = own
    return distance + 0.5 * gap - hurt + guns - prize, place, enemy.name


def seat(board: Board, side: str, other: str) -> int:
    """How many places after ``side`` round the table ``other`` sits, in the side order the turns follow
    (SG-SCN-05): 1 for the next side, and so on. Every side counts from itself, so no side is favoured."""
    order = list(board.side_order)
    return (order.index(other) - order.index(side)) % len(order)


def side_target(board: Board, side: str) -> str | None:
    """The enemy the whole side concentrates on: the ship it is out to seize, else the best by the sum of
    its ships' keys."""
    ours = board.fighting(side)
    theirs = enemies(board, side)
    if not ours or not theirs:
        return None
    wanted = scenario_ai.prize(board, side)
    if wanted is not None:
        return wanted
    # Each enemy's own worth once, not once for every ship of ours that weighs her.
    keyed = [(e, worth(board, e), seat(board, side, e.side)) for e in theirs]
    return min(keyed, key=lambda k: (sum(_key_from(s, k[0], k[1], k[2])[0] for s in ours), k[2], k[0].name))[0].name


def ship_target(board: Board, ship: ShipRecord) -> ShipRecord | None:
    """This ship's target: the side's choice unless an enemy is much easier to reach."""
    goal = ordnance_play.bombard_goal(board, ship)  # a bombarding side goes for the hexes it must hit
    if goal is not None:
        return goal
    theirs = enemies(board, ship.side)
    if not theirs:
        return None
    own = min(theirs, key=lambda e: target_key(board, ship, e))
    focus = side_target(board, ship.side)
    if focus is not None and focus == scenario_ai.prize(board, ship.side):
        return board.ship(focus)
    if focus is not None and focus != own.name:
        chosen = board.ship(focus)
        if target_key(board, ship, chosen)[0] <= target_key(board, ship, own)[0] + 4:
            return chosen
    return own


# --- MOVE --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """What one ship's captain weighs for a move, worked out once: its enemies, every battery, the other
    ships' hexes (for collisions) and its target."""

    board: Board
    ship: ShipRecord
    foes: tuple[ShipRecord, ...]
    batteries: Mapping[str, Battery]
    occupied: frozenset[tuple[Hex, str]]
    target: ShipRecord | None
    running: bool
    # Worked out once per move rather than once per end spot: the range it closes to, its speed, its caution.
    ideal: int = 1
    speed: int = 1
    caution: float = CAUTION
    # A bombarding ship's own dangers (bombard_exposure): the enemy's mine carriers and lob guns, the turn and
    # the combat rules the ground batteries fire by, and their fire at each hex and altitude once worked out.
    mine_reach: tuple[MineReach, ...] = ()
    lob_reach: tuple[LobReach, ...] = ()
    turn: int = 1
    rules: combat.CombatRules | None = None
    ground_fire: dict[tuple[Hex, str], float] = field(default_factory=dict, compare=False)
    # Worked out once per move: each foe's spot, whether the side is careful, the weight of other targets; and
    # the threat at each hex and altitude (the enemy's guns do not care which way the ship faces).
    foe_spots: tuple[tuple[ShipRecord, Spot], ...] = ()
    careful: bool = False
    others: float = OTHER_TARGET
    threats: dict[tuple[Hex, str], float] = field(default_factory=dict, compare=False)
    bounds: dict[tuple[Hex, str], float] = field(default_factory=dict, compare=False)
    # A running ship's: where the ships it runs from are, and the edges it may leave by (flee_score).
    chasers: tuple[Hex, ...] = ()
    exit_edges: tuple[str, ...] = ()


def sight(state: State, record: ShipRecord, memo: Memo[Battery] | None = None) -> Sight:
    board = state.board
    turn, rules = max(state.turn, 1), queries.rules(state)
    flee = running(board, record)
    target = None if flee else ship_target(board, record)
    foes = tuple(enemies(board, record.side)) + tuple(ordnance_play.ground_foes(board, record.side))
    batteries = memo if memo is not None else Memo[Battery]()
    shooters = (*board.fighting(), *board.emplacements())
    return Sight(
        board=board,
        ship=record,
        foes=foes,
        batteries={s.name: batteries.get((s,), (turn, rules), partial(battery, s, turn, rules)) for s in shooters},
        occupied=frozenset(
            (s.position, s.altitude)
            for s in board.ships
            if s.name != record.name and board.in_fight(s) and s.position is not None
        ),
        target=target,
        running=flee,
        ideal=ideal_range(record),
        speed=max(queries.speed(record, board), 1),
        caution=tuning(board, record.side).caution,
        mine_reach=mine_reach(board, record) if bombards(target) else (),
        lob_reach=lob_reach(board, record, turn) if bombards(target) else (),
        turn=turn,
        rules=rules,
        foe_spots=tuple((foe, spot(foe)) for foe in foes),
        careful=scenario_ai.careful(board, record.side),
        others=scenario_ai.other_targets_weight(board, record.side, OTHER_TARGET),
        chasers=tuple(c.position for c in hunters(board, record.side) or foes if c.position is not None)
        if flee
        else (),
        exit_edges=tuple(scenario_ai.exit_edges(board, record.side)) if flee else (),
    )


@dataclass(frozen=True)
class Path:
    """A traced plan: where it ends, how (left the map, crashed...), and the collision checks on the way."""

    end: Spot
    ends: str
    checks: int


def path_of(view: Sight, steps: Sequence[movement.Step]) -> Path:
    """Where a traced plan ends, how, and how many collision checks it risks on the way."""
    if not steps:
        return Path(spot(view.ship), "", 0)
    entered = [(step.hex, step.altitude) for step in steps if step.enters_hex or step.changes_altitude]
    last = steps[-1]
    return Path(Spot(last.hex, last.facing, last.altitude), last.ends, sum(1 for e in entered if e in view.occupied))


def score_moves(
    state: State,
    record: ShipRecord,
    moves: Sequence[tuple[list[str], list[movement.Step]]],
    near: Hex | None = None,
    view: Sight | None = None,
) -> list[tuple[float, JSON]]:
    """Every legal plan with its score, in the candidates' order. End spots are scored once each. ``near``: a
    hex to stand off from, out of the guns' reach but within call (stand_off_score)."""
    view = view if view is not None else sight(state, record)
    cache: dict[tuple[Spot, str], float] = {}
    scored: list[tuple[float, JSON]] = []
    for plan, steps in moves:
        path = path_of(view, steps)
        key = (path.end, path.ends)
        if key not in cache:
            if view.running:
                cache[key] = flee_score(view, path)
            elif near is not None:
                cache[key] = stand_off_score(view, path, near)
            else:
                cache[key] = attack_score(view, path)
        scored.append((cache[key] - PASSING * path.checks, list[JSON](plan)))
    return scored


def best_moves(
    state: State, view: Sight, moves: Sequence[tuple[list[str], list[movement.Step]]]
) -> list[tuple[float, JSON]]:
    """score_moves then ai_adjust_moves for a warship on the attack with nothing to drop, but only for the
    plans that come within NEAR_TIE of the best (search.within): the rest could not be picked, so they are
    bounded (offense_bound) rather than scored. The plans kept, their scores and their order are a full
    scoring's, so the pick among them is too."""
    spots = ordnance_play.device_spots(state.board, view.ship.name)
    # Most moves pass no other ship and no mine: then no plan need be walked for them.
    home = spot(view.ship)
    reach = max((len(plan) for plan, _ in moves), default=0)
    near = any(hexgrid.distance(hex_, home.hex) <= reach for hex_, _ in view.occupied)
    plans = [(plan, steps, ending(view, steps)) for plan, steps in moves]
    walked: dict[int, tuple[Path, float]] = {}

    def walk(index: int) -> tuple[Path, float]:
        """The plan's collision checks and mines on the way: what only the plans worth scoring need."""
        if index not in walked:
            _, steps, path = plans[index]
            risk = (
                sum(
                    spots.get((s.hex, altitude_level(s.altitude)), 0.0)
                    for s in steps
                    if s.enters_hex or s.changes_altitude
                )
                if spots
                else 0
            )
            walked[index] = (path_of(view, steps) if near else path, risk)
        return walked[index]

    exact: dict[tuple[Spot, str], float] = {}
    bounds: dict[tuple[Hex, int, str, str], float] = {}
    finer_bounds: dict[tuple[Spot, str], float] = {}
    # One bound for every facing in a hex, but with no ship to fight the guns go for the flying parties, which
    # the facing changes (party_offense): then each spot is bounded by itself. The checks and mines only lower a
    # score, so the first bound leaves them out.
    by_hex = view.target is not None

    def bound(index: int) -> float:
        path = plans[index][2]
        end = path.end
        key = (end.hex, 0 if by_hex else end.facing, end.altitude, path.ends)
        if key not in bounds:
            bounds[key] = attack_score(view, path, offense_bound, any_heading=by_hex)
        return bounds[key]

    def finer(index: int) -> float:
        path, risk = walk(index)
        key = (path.end, path.ends)  # this facing's course, every gun bearing
        if key not in finer_bounds:
            finer_bounds[key] = attack_score(view, path, offense_bound)
        return finer_bounds[key] - PASSING * path.checks - risk + 0.0

    def score(index: int) -> float:
        path, risk = walk(index)
        key = (path.end, path.ends)
        if key not in exact:
            exact[key] = attack_score(view, path)
        return exact[key] - PASSING * path.checks - risk + 0.0  # as score_moves, then ai_adjust_moves, reckon it

    values = search.within(range(len(plans)), bound, score, NEAR_TIE, finer=finer)
    return [(value, list[JSON](plans[i][0])) for i, value in enumerate(values) if value is not None]


def ending(view: Sight, steps: Sequence[movement.Step]) -> Path:
    """Where a traced plan ends and how, its collision checks on the way not counted (path_of counts them)."""
    if not steps:
        return Path(spot(view.ship), "", 0)
    last = steps[-1]
    return Path(Spot(last.hex, last.facing, last.altitude), last.ends, 0)


def droppers(record: ShipRecord) -> list[str]:
    """What the ship carries to drop on the enemy below (bombs, mines, a drogue), ready to go."""
    return [
        w
        for w in ordnance.DROPS
        if record.items_of(w, states=("raised", "lowered") if w == ordnance.DROGUE else ("loaded",))
    ]


def wrecks(path: Path) -> bool:
    return path.ends in (movement.CRASHED, movement.CRASH_LANDED, movement.LANDED)


def threat(view: Sight, at: Spot) -> float:
    """What every enemy could fire at the ship if it sat at ``at``, from where they are now. A careful side
    weighs the ground batteries by their high-angle fire (SG-GB-02), which reaches a ship above them however
    high: the ships' rules of fire leave a battery harmless to anything more levels up than hexes away."""
    key = (at.hex, at.altitude)
    known = view.threats.get(key)
    if known is not None:
        return known
    armor = view.ship.armor
    careful = view.careful
    batteries = view.batteries
    # A foe farther than its longest gun adds nothing (its sum would be 0.0): passed over, the total is the same.
    total = sum(
        batteries[foe.name].threat(there, at, armor)
        for foe, there in view.foe_spots
        if not (careful and foe.emplacement == ordnance_play.BATTERY)
        and hexgrid.distance(there.hex, at.hex) <= batteries[foe.name].longest
    )
    view.threats[key] = found = total + (battery_fire(view, at) if careful else 0.0)
    return found


def battery_fire(view: Sight, at: Spot) -> float:
    """ground_fire, worked out once per hex and altitude."""
    key = (at.hex, at.altitude)
    if key not in view.ground_fire:
        view.ground_fire[key] = ground_fire(view, at)
    return view.ground_fire[key]


def stand_off_score(view: Sight, path: Path, near: Hex) -> float:
    """A ship standing off while its landing party is ashore (SG-SCN-39): out of the enemy's reach, batteries
    and all, within STAND_OFF hexes of the party's hex so that it is soon back when the party reappears; its
    guns on whatever comes within reach, but no chase."""
    if wrecks(path):
        return -WRECKED
    if path.ends == movement.LEFT_MAP:
        return -LEAVES_MAP
    at = path.end
    score = -threat(view, at) - over_land_risk(view, at)
    if view.target is not None:
        score += view.caution * offense(view, at, view.target)
    else:
        score += party_offense(view, at)
    score -= APPROACH * max(hexgrid.distance(at.hex, near) - scenario_ai.STAND_OFF, 0)
    if level(at.altitude) <= 1:
        score -= LOW_FLYING
    if (at.hex, at.altitude) in view.occupied:
        score -= SHARED_HEX
    if edge_distance(view.board.terrain, at.hex) <= 1:
        score -= NEAR_EDGE
    return score


def offense(view: Sight, at: Spot, target: ShipRecord) -> float:
    """Each gun at its best mark from ``at``: the target at full value, any other enemy at a discount."""
    guns = view.batteries[view.ship.name]
    best = [0.0] * len(guns.pieces)
    others = view.others
    for foe, there in view.foe_spots:
        # Every hex to bombard must take its points: the nearest is no better than the rest (SG-SCN-25).
        weight = 1.0 if foe.name == target.name or (bombards(target) and bombards(foe)) else others
        for i, value in enumerate(gun_values(guns, at, there, foe.armor)):
            if value:
                best[i] = max(best[i], weight * value)
    return sum(best)


def offense_bound(view: Sight, at: Spot, target: ShipRecord) -> float:
    """offense as if every gun bore whichever way the ship faced: never less than offense, and the same for
    every facing in a hex, so worked out once a hex and altitude (search.within's bound)."""
    key = (at.hex, at.altitude)
    found = view.bounds.get(key)
    if found is not None:
        return found
    guns = view.batteries[view.ship.name]
    best = [0.0] * len(guns.pieces)
    for foe, there in view.foe_spots:
        weight = 1.0 if foe.name == target.name or (bombards(target) and bombards(foe)) else view.others
        for i, (_, value) in enumerate(in_reach(guns, at, there, foe.armor) or ()):
            if value:
                best[i] = max(best[i], weight * value)
    view.bounds[key] = found = sum(best)
    return found


def ideal_range(record: ShipRecord) -> int:
    """The range a warship closes to: the shortest close range of its guns, where all of them hit on 3+."""
    closes = [
        r.close
        for g in record.guns
        if fires_at_ships(g) and (r := g.weapon.range_hexes) is not None and r.close is not None and r.close > 0
    ]
    return max(min(closes), 1) if closes else 1


def attack_score(
    view: Sight,
    path: Path,
    offense_of: Callable[[Sight, Spot, ShipRecord], float] = offense,
    *,
    any_heading: bool = False,
) -> float:
    """A warship's end spot: guns bearing on the target, little exposure, at range, level with it. With
    ``offense_bound`` for ``offense_of`` and ``any_heading`` (her course taken to carry her where she would
    be, whichever way she faces), an upper bound for every facing in her hex: every step after is monotone."""
    board, record, target = view.board, view.ship, view.target
    if wrecks(path):
        return -WRECKED
    if path.ends == movement.LEFT_MAP:
        return -LEAVES_MAP
    at = path.end
    careful = view.careful
    if target is None and careful:  # no ship left to fight: the enemy's flying parties, out of the guns' reach
        return party_offense(view, at) - threat(view, at) - over_land_risk(view, at)
    if target is None:  # nobody left to fight: hold station
        return -float(hexgrid.distance(at.hex, spot(record).hex))
    there = spot(target)
    ideal = view.ideal
    distance = hexgrid.distance(at.hex, there.hex)
    heading = ideal if any_heading else hexgrid.distance(ahead(at, view.speed), there.hex)
    score = offense_of(view, at, target) - view.caution * threat(view, at)
    # Close in: from where it ends, and from where its course carries it next turn.
    score -= APPROACH * (max(distance - ideal, 0) + 0.5 * max(heading - ideal, 0))
    score -= ALTITUDE_GAP * abs(level(at.altitude) - level(there.altitude))
    if level(at.altitude) <= 1 < level(there.altitude):
        score -= LOW_FLYING
    if (at.hex, at.altitude) in view.occupied:
        score -= SHARED_HEX
    if edge_distance(board.terrain, at.hex) <= 1:
        score -= NEAR_EDGE
    if bombards(target):
        score -= bombard_exposure(view, at, there.altitude)
    score += scenario_ai.alongside_guarded(board, record, at.hex, at.altitude)  # SG-SCN-19: dispute the hold
    if careful:
        score -= over_land_risk(view, at)
    return score + scenario_ai.over_watched_zone(board, record.side, at.hex)


WARBAND_FIRST = 2.0  # a flyer's man, while our landing party is ashore: as much as a hull box (SMALL_ARMS_MAN)
OVER_LAND = 3.0  # ending one level over the land: a forced drop or a lost level is a crash


def over_land_risk(view: Sight, at: Spot) -> float:
    return OVER_LAND if over_the_land(view.board.terrain, at.hex, at.altitude) else 0.0


def party_offense(view: Sight, at: Spot) -> float:
    """Each gun at its best mark from ``at`` among the enemy's flying parties (shrapnel and the machineguns do
    the work there, SG-HM-06, SG-SHR-06) and the ground batteries still manned (shrapnel at their gunners,
    against_gunners): worth moving to while no ship is left to fight."""
    guns = view.batteries[view.ship.name]
    best = [0.0] * len(guns.pieces)
    marks = [
        (Spot(party.position, 0, party.altitude), 0)
        for party in flying.in_the_air(view.board.flyers)
        if party.side != view.ship.side and party.men.men
    ]
    marks += [
        (spot(foe), foe.armor)
        for foe in view.foes
        if foe.emplacement == ordnance_play.BATTERY and not silenced(view.board, foe.name)
    ]
    for there, armor in marks:
        for i, value in enumerate(gun_values(guns, at, there, armor)):
            best[i] = max(best[i], value)
    return sum(best)


# --- the bombardment (SG-SCN-25): a ship whose target is a hex to bombard -----------------------------------

BELOW_HEIGHT = 3.0  # per level under the bombard height: more guns reach it, and a loss of trim falls further
TRIM_LOSS = 12.0  # a lob gun's hit: a loss of trim, two phases without moving or firing, maybe a level lost


@dataclass(frozen=True)
class MineReach:
    """An enemy ship with tether mines aboard (raised, or to be raised next Initiative Phase) and where its next
    move can bring them: the level they hang at (a level over it, SG-TM-03), the highest they can hang (over
    its ceiling) and its movement points (SG-TM-07: they go off on a ship they are brought onto)."""

    hex: Hex
    level: int
    ceiling: int
    mp: int


@dataclass(frozen=True)
class LobReach:
    """An enemy ship's lob gun: where it is, its range, the hexes its ship may close first, and whether it is
    loaded (SG-LOB: altitude does nothing to it, and each hit costs a loss of trim)."""

    hex: Hex
    range: int
    mp: int
    ready: bool


def bombards(target: ShipRecord | None) -> bool:
    """The captain's target is a hex to bombard (ordnance_play.bombard_goal)."""
    return target is not None and target.emplacement in ordnance_play.TARGET_KINDS


def mine_reach(board: Board, ship: ShipRecord) -> tuple[MineReach, ...]:
    """The enemy ships with tether mines aboard, raised or not (SG-TM-03: raising them is an order away)."""
    above = oint("tether_mines", "levels_above_owner")
    return tuple(
        MineReach(
            enemy.position,
            level(enemy.altitude) + above,
            level(enemy.max_altitude or enemy.altitude) + above,
            queries.speed(enemy, board),
        )
        for enemy in enemies(board, ship.side)
        if enemy.position is not None and enemy.items_of(*ordnance.MINES, states=("raised", "lowered"))
    )


def lob_reach(board: Board, ship: ShipRecord, turn: int) -> tuple[LobReach, ...]:
    """The enemy ships' lob guns still manned."""
    return tuple(
        LobReach(enemy.position, gun.weapon.range_hexes.long, queries.speed(enemy, board), gun.ready(turn))
        for enemy in enemies(board, ship.side)
        if enemy.position is not None
        for gun in enemy.guns
        if combat.is_lob_gun(gun)
        and fires_at_ships(gun)
        and gun.manned
        and gun.weapon.range_hexes is not None
        and gun.weapon.range_hexes.long
    )


def bombard_exposure(view: Sight, at: Spot, height: str) -> float:
    """What a bombarding ship risks ending its move at ``at``, beyond the damage threat() weighs: each level
    under its bombard height, each enemy mine carrier that can bring its mines onto it in one move (climbing
    2 MP a level, SG-ALT-05), each enemy lob gun within reach, now or once its ship has closed, a hit a loss of
    trim whatever the armor (SG-LOB), and the ground batteries' high-angle fire (SG-GB-02), which reaches a
    ship above a battery however high."""
    here = level(at.altitude)
    risk = BELOW_HEIGHT * max(level(height) - here, 0)
    for carrier in view.mine_reach:
        climb = 2 * max(here - carrier.level, 0)
        if here <= carrier.ceiling and hexgrid.distance(carrier.hex, at.hex) + climb <= carrier.mp:
            risk += ordnance_play.MINE_RISK
    lob_hit = hit_chance(tint("lob_guns", "needed"), 0)
    for lob in view.lob_reach:  # fired from where it is, or after its ship closes (at half)
        distance = hexgrid.distance(lob.hex, at.hex)
        near = 1.0 if 0 < distance <= lob.range else 0.5 if distance <= lob.range + lob.mp else 0.0
        risk += view.caution * near * lob_hit * TRIM_LOSS * (1.0 if lob.ready else 0.5)
    return risk + view.caution * battery_fire(view, at)


def ground_fire(view: Sight, at: Spot) -> float:
    """What the enemy's ground batteries could fire at the ship at ``at`` (high-angle, SG-GB-02): a lob gun's
    hit weighed as a loss of trim (SG-LOB), a gun still reloading at half."""
    there = replace(view.ship, position=at.hex, altitude=at.altitude, facing=at.facing)
    total = 0.0
    for foe in view.foes:
        if foe.emplacement != ordnance_play.BATTERY:
            continue
        for gun in foe.guns:
            solution = ordnance_play.battery_reach(foe, gun.id, there, view.rules)
            if solution is None:
                continue
            chance = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
            if solution.lob_gun:
                worth = TRIM_LOSS
            else:
                worth = worth_of_hit(solution.damage_value, solution.penetration, there.armor)
            total += chance * worth * (1.0 if gun.ready(view.turn) else 0.5)
    return total


def flee_score(view: Sight, path: Path) -> float:
    """A running ship's end spot: off the map if it can, else toward the nearest edge, away from the guns."""
    board, record = view.board, view.ship
    if wrecks(path):
        return -WRECKED
    if path.ends == movement.LEFT_MAP:
        return -LEAVES_MAP if scenario_ai.stays(board, record.side) else ESCAPES
    at = path.end
    edges = view.exit_edges  # a side that may leave by one edge only runs for it
    steps = exit_steps(board.terrain, at) if scenario_ai.leaves_by(board.terrain, at.hex, at.facing, edges) else 30
    score = -1.0 * scenario_ai.edge_distance(board.terrain, at.hex, edges) - 0.5 * min(steps, 30)
    chasers = view.chasers
    if chasers:
        score += 0.3 * min(min(hexgrid.distance(at.hex, c) for c in chasers), 10)
    score -= FLEE_CAUTION * threat(view, at)
    if scenario_ai.careful(board, record.side):
        score -= over_land_risk(view, at)
    if level(at.altitude) <= 1:
        score -= LOW_FLYING
    if (at.hex, at.altitude) in view.occupied:
        score -= SHARED_HEX
    return score


# --- FIRE --------------------------------------------------------------------------------------------------


def shot_worth(board: Board, solution: FireSolution, focus: str | None) -> float:
    """Expected damage of the shot, more for the side's target and for a target already hurt."""
    if solution.target not in board.by_name or solution.firer not in board.by_name:
        return party_shot_worth(board, solution)
    target = board.ship(solution.target)
    hits = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
    if solution.small_arms:  # men killed, the saves made (SG-SAF-13): a man is worth a fifth of a hull box
        saved = min(max(solution.save_number - sum(solution.save_modifiers.values()), 0), 6) / 6
        value = hits * (1 - saved) * SMALL_ARMS_MAN
    else:
        value = hits * worth_of_hit(solution.damage_value, solution.penetration, target.armor)
    value *= 1 + damage(board, target)
    if solution.target == focus:
        value *= 1 + FOCUS
    firer = board.ship(solution.firer)
    if any(
        s.side == firer.side and s.position == target.position and s.altitude == target.altitude
        for s in board.fighting()
    ):
        value *= STRAY_RISK
    return value


def fire_orders(state: State, side: str) -> JSON:
    """Every gun that can fire, once, at the target where its shots are worth most."""
    board = state.board
    focus = side_target(board, side)
    best: dict[tuple[str, str], tuple[float, FireSolution]] = {}
    at_hexes: dict[tuple[str, str], list[FireSolution]] = {}
    careful = scenario_ai.careful(board, side)
    for solution in validate.solutions(state, side):
        weight = scenario_ai.fire_weight(board, side, solution.target)
        if not weight or (careful and silenced(board, solution.target)):
            continue
        if careful:
            solution = against_gunners(state, solution)
        key = (solution.firer, solution.gun_id)
        worth = weight * shot_worth(board, solution, focus) * ordnance_play.target_weight(board, side, solution.target)
        if careful and solution.target not in board.by_name and scenario_ai.party_ashore(board, side):
            worth *= WARBAND_FIRST  # every flyer shot down is one fewer to come down on the party (SG-SCN-40)
        if worth <= 0:
            continue
        if key not in best or worth > best[key][0]:
            best[key] = (worth, solution)
        if bombards(board.by_name.get(solution.target)):
            at_hexes.setdefault(key, []).append(solution)
    if at_hexes:
        best = share_bombardment(board, best, at_hexes)
    shots: list[JSON] = [
        {"ship": s.firer, "gun": s.gun_id, "target": s.target, **loaded(s)}
        for _, s in (best[key] for key in sorted(best))
    ]
    shots = class_rules.without_conflicts(board.by_name, shots)  # one gun of a pair a target (SG-CLS-08)
    return {"shots": shots + ordnance_play.ai_special_shots(state, side)}  # Hale salvoes, Smutts launches


def against_gunners(state: State, solution: FireSolution) -> FireSolution:
    """At a ground battery, shrapnel or grape where the gun has it: a hull hit does nothing to a battery
    (SG-GB-03) and its armor stops shell, while shrapnel kills the gun's whole damage value of gunners
    whatever the armor, a Gun hit counting as Crew, and adds 1 to hit (SG-SHR-02..05)."""
    board = state.board
    target = board.by_name.get(solution.target)
    firer = board.by_name.get(solution.firer)
    if target is None or firer is None or target.emplacement != ordnance_play.BATTERY or solution.small_arms:
        return solution
    kinds = [k for k in combat.ammunition_for(firer.gun(solution.gun_id)) if k != solution.ammunition]
    for kind in kinds:
        loaded_with = ordnance_play.fire_solution(
            portable_guns.trained_record(firer, board.trained),
            solution.gun_id,
            target,
            now=queries.now(state),
            rules=queries.rules(state),
            same_hex=board.relative(firer.name, target.name),
            ammunition=kind,
        )
        if loaded_with.allowed:
            return loaded_with
    return solution


def silenced(board: Board, name: str) -> bool:
    """A ground battery with no gun left manned: it cannot fire, and a hull hit on it does nothing (SG-GB-03)."""
    target = board.by_name.get(name)
    return (
        target is not None
        and target.emplacement == ordnance_play.BATTERY
        and not any(gun.manned and not gun.destroyed for gun in target.guns)
    )


def share_bombardment(
    board: Board,
    best: dict[tuple[str, str], tuple[float, FireSolution]],
    at_hexes: Mapping[tuple[str, str], Sequence[FireSolution]],
) -> dict[tuple[str, str], tuple[float, FireSolution]]:
    """The guns whose best mark is a hex to bombard share the hexes out, the heaviest first: each at the hex
    where its hit should add the most of the points still wanted there (points beyond a hex's total are lost,
    SG-BOMB-01/02), counting the hits the guns before it should score; of hexes alike, the nearest to done."""
    wanted = {
        s.target: float(board.ship(s.target).hull_boxes - board.ship(s.target).hull_hits)
        for ss in at_hexes.values()
        for s in ss
    }
    shared = dict(best)
    guns = [key for key, (_, solution) in best.items() if key in at_hexes and solution.target in wanted]
    for key in sorted(guns, key=lambda k: (-best[k][1].damage_value, k)):

        def gain(solution: FireSolution) -> float:
            chance = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
            return chance * min(solution.damage_value, max(wanted[solution.target], 0.0))

        choice = max(at_hexes[key], key=lambda s: (round(gain(s), 6), -wanted[s.target], s.target))
        chance = choice.shots * hit_chance(choice.needed, sum(choice.modifiers.values()))
        wanted[choice.target] -= chance * choice.damage_value
        shared[key] = (best[key][0], choice)
    return shared


# --- ORDERS ------------------------------------------------------------------------------------------------


def caught(board: Board, record: ShipRecord) -> int:
    """Enemy warships within CAUGHT hexes."""
    assert record.position is not None
    return sum(
        1 for h in hunters(board, record.side) if h.position and hexgrid.distance(h.position, record.position) <= CAUGHT
    )


def strikes(board: Board, record: ShipRecord) -> bool:
    """Strike the colours (SG-CREW-03): a beaten ship that cannot get away; a merchant hit and caught.

    "Cannot get away": stopped, or two enemy warships on it, or one on it and the edge more than two
    turns off. A merchant within a turn of the edge still runs for it.
    """
    if record.position is None:
        return False
    speed = queries.speed(record, board)
    edge = edge_distance(board.terrain, record.position)
    near = caught(board, record)
    if is_merchant(board, record):
        return record.hull_hits > 0 and near > 0 and edge > speed
    if not beaten(board, record) or scenario_ai.never_strikes(board, record):
        return False
    if scenario_ai.carrying_off(board, record) or scenario_ai.at_the_prize(board, record):
        return False
    return speed == 0 or near >= 2 or (near == 1 and edge > 2 * speed)


def crew_changes(record: ShipRecord, kept: int = 0) -> list[list[JSON]]:
    """The changes worth making on one ship, each as the alternatives to try in turn (the first legal one is
    taken): a relief for each empty station, then deckhands to each short-handed gun, ``kept`` of them held
    back for other work."""
    wanted: list[list[JSON]] = []
    for station, manned in (("helm", record.helm_manned), ("trim", record.trim_manned)):
        if not manned:  # SG-CREW-08/09: nobody at the helm, no course change; nobody trimming, no climb
            wanted.append([{"ship": record.name, "relief": station, "rank": rank} for rank in RELIEF_RANKS])
    spare = record.crew.deckhands - (FIRE_RESERVE if record.fire > 0 else 0) - kept
    for gun in record.guns:
        short = gun.crew - gun.manned
        if spare <= 0 or short <= 0 or not fires_at_ships(gun):
            continue
        men = min(short, spare)
        wanted.append([{"ship": record.name, "gun": gun.id, "men": men, "from": "deckhands"}])
        spare -= men
    return wanted


def initiative_orders(state: State, request: DecisionRequest) -> JSON:
    """Crew changes and colours struck, each change checked against those before it (SG-SEQ-02)."""
    board = state.board
    crew: list[JSON] = []
    strike: list[JSON] = []

    def legal(changes: list[JSON], struck: list[JSON]) -> bool:
        return validate.validate(state, request, {**close, "crew": changes, "strike": struck}) is None

    close = close_orders(state, request) if state.options.get("advanced") else {}
    for record in board.fighting(request.side):
        if strikes(board, record) and legal(crew, [*strike, record.name]):
            strike.append(record.name)
            continue
        for alternatives in crew_changes(record, scenario_ai.grapnel_hands(board, record)):
            for change in alternatives:
                if legal([*crew, change], strike):
                    crew.append(change)
                    break
    orders = {**close, "crew": crew, "strike": strike}
    orders = {**orders, **ordnance_orders(state, request, orders)}  # mines, drogues, bomb reloads
    return with_secret_orders(state, request, orders)


# --- close action: rams, grapples and boarders -----------------------------------------------------------


def defenders_worth(record: ShipRecord) -> float:
    """What a ship's defenders weigh in boarding combat (SG-BRD-12/14): deckhands, extra petty officers, the
    party at home; marines and officers twice."""
    crew, party = record.crew, record.party
    lead = crew.marines + crew.marine_officers + party.officers + party.marines
    rest = crew.deckhands + crew.petty_officers + party.petty_officers + party.seamen
    return (LEADER_WORTH * lead + rest) * quality_factor(record)


def boarders_worth(record: ShipRecord) -> float:
    """What the ship's boarders weigh: the party at home and across, or the party it would form."""
    party, across = record.party, record.boarders
    if party.men + across.men == 0:
        would = party_of(record)
        lead = sum(int(str(would.get(k, 0))) for k in ("officers", "captain", "marine_officers", "marines"))
        rest = int(str(would.get("deckhands", 0)))
    else:
        lead = party.officers + party.marines + across.officers + across.marines
        rest = party.petty_officers + party.seamen + across.petty_officers + across.seamen
    return (LEADER_WORTH * lead + rest) * quality_factor(record)


def quality_factor(record: ShipRecord) -> float:
    """A Crack crew's +1 a die (SG-CQ-09) kills half as often again."""
    return 1.5 if record.boarders_quality == "crack" else 1.0


def can_lead_boarders(record: ShipRecord) -> bool:
    crew = record.crew
    return bool(record.party.officers or crew.officers or crew.marine_officers or crew.captain)


def prize_for(state: State, record: ShipRecord) -> ShipRecord | None:
    """The enemy this ship would ram or grapple this turn, if any: within its reach at its altitude or one
    level off, and worth it: a merchant, a beaten ship, one whose defenders its boarders outweigh, or, for
    a ship with a ram, one no bigger than itself. Merchants and running ships close with nobody, nor does a
    ship with hexes to bombard: it gets on with the bombardment (SG-SCN-24)."""
    board = state.board
    if record.position is None or is_merchant(board, record) or running(board, record) or record.grappled_with:
        return None
    if ordnance_play.bombard_targets(board, record.side):
        return None
    reach = max(queries.speed(record, board) - board.avoiding.get(record.name, 0), 0)
    found: list[tuple[tuple[int, float, int, str], ShipRecord]] = []
    wanted = scenario_ai.prize(board, record.side)  # a side out to seize one ship closes with her only
    for enemy in enemies(board, record.side):
        if enemy.position is None or board.captured.get(enemy.name):
            continue
        seizing_ours = scenario_ai.at_our_ship(board, record.side, enemy)  # he is taking our ship: at him
        if enemy.grappled_with and not seizing_ours:
            continue
        if wanted is not None and (enemy.name != wanted or not scenario_ai.stopped(board, wanted)):
            continue
        if abs(level(enemy.altitude) - level(record.altitude)) > 1:
            continue
        distance = hexgrid.distance(record.position, enemy.position)
        if distance > reach:
            continue
        soft = is_merchant(board, enemy) or beaten(board, enemy)
        outweighed = can_lead_boarders(record) and boarders_worth(record) >= BOARD_EDGE * defenders_worth(enemy)
        rammable = record.ram and enemy.hull_size <= record.hull_size
        if soft or outweighed or rammable:
            found.append(((0 if soft else 1, defenders_worth(enemy), distance, enemy.name), enemy))
    return min(found, key=lambda item: item[0])[1] if found else None


def boarding_pays(board: Board, record: ShipRecord, enemy: ShipRecord) -> bool:
    """Boarding this enemy is worth it: she is a merchant or beaten, or our boarders outweigh her defenders.
    A merchant never boards."""
    if is_merchant(board, record) or not can_lead_boarders(record):
        return False
    soft = is_merchant(board, enemy) or beaten(board, enemy)
    return soft or boarders_worth(record) >= PRESS_ON * defenders_worth(enemy)


def close_orders(state: State, request: DecisionRequest) -> dict[str, JSON]:
    """The Part II orders: declare the ships going for a prize (SG-RAM-01), form parties where boarders
    will be wanted, send them back to their posts when the enemy is far, cut grapples we do not want."""
    board = state.board
    rammers = 0
    parties: list[JSON] = []
    disband: list[JSON] = []
    cut: list[JSON] = []
    flights = flying_orders(state, request.side)  # flyers first: the ship need not close (SG-HM-02)
    flying_from = {str(read_ship(order)) for order in read_list(flights.get(flying.FORM_ORDER, []))}
    for record in board.fighting(request.side):
        prize = None if record.name in flying_from else prize_for(state, record)
        grappled = [board.ship(n) for n in record.grappled_with]
        enemy_alongside = [g for g in grappled if g.side != record.side and board.in_fight(g)]
        if prize is not None:
            rammers += 1
        winnable = [e for e in enemy_alongside if boarding_pays(board, record, e)]
        rams = record.ram and not scenario_ai.boards_first(board, record.side)
        wants_party = prize is not None and can_lead_boarders(record) and not rams
        wants_party = wants_party or (bool(winnable) and not is_merchant(board, record))
        if wants_party and not record.party.men and not record.boarders.men and can_lead_boarders(record):
            parties.append({"ship": record.name, "men": scenario_ai.party_men(board, record, party_of(record))})
        far = all(
            e.position is None or record.position is None or hexgrid.distance(e.position, record.position) > DISBAND_AT
            for e in enemies(board, record.side)
        )
        idle = far or scenario_ai.stands_down(board, record, None if prize is None else prize.name)
        if record.party.men and not record.boarders.men and not grappled and idle:
            disband.append(record.name)
        boarded = queries.boarders_on(board, record.name)
        quiet = special_rules.noncombatant(board, record)  # she casts off no grapple (SG-SCN-17)
        for other in enemy_alongside:
            if other not in winnable and not boarded and record.boarding != other.name and not quiet:
                cut.append([record.name, other.name])
    plans = prize_orders(state, request.side)
    tows: list[JSON] = []
    for record in board.fighting(request.side):  # take a prize or a crippled friend in tow (SG-TOW-01, BRD-21)
        for name in record.grappled_with:
            other = board.ship(name)
            towable = scenario_ai.may_tow(board, record.side, name) and name not in plans
            if board.ally(record.side, other) and queries.ready_tow(state, record.name) is None and towable:
                tows.append([record.name, name])
                break
    orders: dict[str, JSON] = {"ram": rammers} if rammers else {}
    seizing = scenario_ai.seize_orders(board, request.side)  # SG-SCN-19: home with the prize's passenger
    recall: list[JSON] = seizing.get("recall", [])
    cut += [pair for pair in seizing.get("cut", []) if pair not in cut]
    for key, value in (("recall", recall), ("parties", parties), ("disband", disband), ("cut", cut)):
        if value:
            orders[key] = list[JSON](value)
    if plans:
        orders["prizes"] = dict[str, JSON](plans)
    if tows:
        orders["tow"] = list[JSON](tows)
    orders.update(flights)
    checked: dict[str, JSON] = {}
    for key, order in orders.items():  # keep each order only if it holds with those before it
        if validate.validate(state, request, {"crew": [], "strike": [], **checked, key: order}) is None:
            checked[key] = order
    return checked


def prize_orders(state: State, side: str) -> dict[str, str]:
    """What the side does with each prize it holds (SG-BRD-21): crew her when its men may man her and she would
    make way with them; else pirates and privateers (the side's ai "prizes": "keep") hold her and take her in
    tow when a ship of theirs is alongside, and warships scuttle what they cannot keep."""
    board = state.board
    keep = board.ai.get(side, {}).get("prizes") == "keep"
    orders: dict[str, str] = {}
    for name, prize in sorted(board.prizes.items()):
        record = board.ship(name)
        if prize.captor != side or prize.order != prizes.HOLD or not record.afloat:
            continue
        boarders = prizes.aboard(board.ships, name, side)
        legal = {
            word
            for word in (prizes.CREW, prizes.SCUTTLE)
            if prizes.order_problem(name, word, side=side, prize=prize, record=record, boarders=boarders) is None
        }
        if prizes.CREW in legal and prizes.would_move(record, boarders, prize):
            orders[name] = prizes.CREW
        elif not keep and prizes.SCUTTLE in legal and scenario_ai.may_scuttle(board, side, name):
            orders[name] = prizes.SCUTTLE
    return orders


def attack_move(
    state: State, record: ShipRecord, traced: Sequence[tuple[list[str], list[movement.Step]]]
) -> JSON | None:
    """A ram or grapple on this ship's prize, if it may try one now: a grapple when it would board, a ram
    when it has one; a grapple coming alongside with the least chance of colliding with her (across her bow
    or stern, no turn in her hex: SG-COL-02/03), then the shortest such move."""
    prize = prize_for(state, record)
    if prize is None:
        return None
    kind = GRAPPLE if (record.party.men or not record.ram) and record.crew.deckhands else RAM
    if kind == RAM and not record.ram and prize.hull_size >= record.hull_size:
        return None  # a ram without one is a collision: it hurts the smaller rammer as much
    if kind == RAM and scenario_ai.boards_first(state.board, record.side):
        return None  # boarders first: the party forms in the next Initiative Phase
    if kind == GRAPPLE and not close_action.grapple_attempts(record, state.board.avoiding.get(prize.name, 0)):
        return None  # the prize is jinking: no hand could get a line across (SG-GRAP-03)
    moves = [m for m in candidates.attacks(state, record, traced) if isinstance(m, dict) and m.get(kind) == prize.name]
    paths = {str(plan): steps for plan, steps in traced}
    if scenario_ai.careful(state.board, record.side):  # no grapple or ram that flies her into the land
        moves = [m for m in moves if not _wrecking(paths.get(str(m["steps"]), []), state.board.terrain)]
    if not moves:
        return None

    def key(move: dict[str, JSON]) -> tuple[float, int, str]:
        plan = move["steps"] if isinstance(move["steps"], list) else []
        risk = alongside_risk(paths.get(str(plan), []), [str(t) for t in plan], prize) if kind == GRAPPLE else 0.0
        return risk, len(plan), str(plan)

    return min(moves, key=key)


def _wrecking(steps: Sequence[movement.Step], terrain: Terrain) -> bool:
    """The plan ends in the land (crashed, crash-landed or landed), or one level over it, where a grappled
    pair's forced drop or a lost trim puts her into it (SG-GRAP-09/10, SG-DMG-15)."""
    if not steps:
        return False
    last = steps[-1]
    return last.ends in (movement.CRASHED, movement.CRASH_LANDED, movement.LANDED) or over_the_land(
        terrain, last.hex, last.altitude
    )


def over_the_land(terrain: Terrain, hex_: Hex, altitude: str) -> bool:
    """One level over the land under her: a forced drop (SG-DMG-15) or a lost level puts her into it."""
    return level(altitude) <= level(terrain.ground(hex_)) + 1


def alongside_risk(steps: Sequence[movement.Step], plan: list[str], target: ShipRecord) -> float:
    """The chance of colliding as the move enters the target's hex at her altitude (SG-COL-01..03)."""
    for step in steps:
        if step.enters_hex and (step.hex, step.altitude) == (target.position, target.altitude):
            mods = movement.collision_modifiers(
                entered_from=hexgrid.rotate_facing(step.facing, 3),
                other_facing=target.facing,
                turned_in_hex=movement.turns_in_hex(plan, step.index + 1),
            )
            on = tint("collision", "collides_on_at_most") - sum(mods.values())
            return min(max(on / 6, 0.0), 1.0)
    return 0.0


def avoids(state: State, request: DecisionRequest) -> JSON:
    """Avoid a ram or grapple (SG-RAM-05) when it would hurt: a merchant always, a ram-fitted attacker, or
    boarders who outweigh our defenders."""
    board = state.board
    mine, theirs = board.ship(request.ships[0]), board.ship(request.ships[1])
    if is_merchant(board, mine) or theirs.ram:
        return True
    return boarders_worth(theirs) >= defenders_worth(mine)


def boarding_orders(state: State, side: str) -> JSON:
    """Send the boarders across when they outweigh the defenders (or the prize is a merchant or beaten),
    as many as may cross (SG-BRD-05/07)."""
    board = state.board
    orders: list[JSON] = []
    for name, targets in queries.boarding_options(state, side).items():
        record = board.ship(name)
        for target_name, men in targets.items():
            target = board.ship(target_name)
            if boarding_pays(board, record, target):
                orders.append({"ship": name, "target": target_name, "men": men})
                break
    return {"boardings": orders}


# --- FIRST and POSITION ------------------------------------------------------------------------------------


def strength(board: Board, side: str) -> tuple[int, int]:
    """(guns that can fire at ships, ships) still in the fight."""
    ships = board.fighting(side)
    return sum(1 for s in ships for g in s.guns if fires_at_ships(g) and g.manned > 0), len(ships)


def first_player(state: State, request: DecisionRequest) -> JSON:
    """Who moves first (SG-SEQ-03).

    Movement is one side at a time and every side fires after every movement phase. Moving last lets a
    captain see where the enemy went and answer it, bringing its guns round on him; that is worth most to
    the stronger side, which has the guns to punish what it sees. The weaker side moves first instead: it
    takes its pick of position for the first fire of the turn, before the stronger side has closed.
    """
    board = state.board
    options = [str(o) for o in request.options or ()]
    side = request.side
    if board.rammers.get(side, 0) and side in options:
        return side  # rams and grapples are tried only in the first movement phase (SG-RAM-03)
    rivals = [strength(board, s) for s in board.sides_fighting() if s != side]
    if not rivals or strength(board, side) <= max(rivals):
        return side if side in options else request.default
    # To move last, name the next side after ours: the order runs round from the side named (SG-SCN-05),
    # and a side out of the fight (not among the options) has no movement phase.
    order = list(board.side_order)
    start = order.index(side)
    following = [order[(start + step) % len(order)] for step in range(1, len(order))]
    return next((s for s in following if s in options), request.default)


def aspect_guns(record: ShipRecord, aspect: str) -> float:
    """What the ship's guns bearing on ``aspect`` are worth at point-blank range (close, needing 3+)."""
    total = 0.0
    for gun in record.guns:
        rate, dv = gun.rate, gun.damage_value
        if fires_at_ships(gun) and gun.manned > 0 and aspect in gun.arcs and rate and dv:
            total += rate.shots * dv
    return total


def relative_position(state: State, request: DecisionRequest) -> JSON:
    """In a shared hex (SG-MOV-05/06): where most of our guns bear on him and fewest of his on us."""
    board = state.board
    mine, theirs = (board.ship(name) for name in request.ships[:2])
    options = [o for o in request.options or () if isinstance(o, list) and len(o) == 2]
    if not options:
        return request.default

    def worth(option: list[JSON]) -> float:
        return aspect_guns(mine, str(option[0])) - aspect_guns(theirs, str(option[1]))

    return max(options, key=worth)  # the first of the best, in the request's (sorted) order


# --- High Martians and flying parties (flying.py) ----------------------------------------------------------

PARTY_MAN = 0.6  # a man shot out of a flying party: a boarder who will not come over the side
FLIGHT_REACH = 2  # hexes a flying party covers in a turn (SG-HM-03)


def read_ship(order: JSON) -> JSON:
    return order.get("ship") if isinstance(order, dict) else None


def loaded(solution: FireSolution) -> dict[str, JSON]:
    """The shot's ammunition when it is not shell: shrapnel or grape at a flying party (SG-SHR-06)."""
    return {} if solution.ammunition == "shell" else {"ammunition": solution.ammunition}


def party_shot_worth(board: Board, solution: FireSolution) -> float:
    """A shot by or at a flying party: the men it should kill, after their saving throws (SG-SAF-13, SG-SHR-06)."""
    hits = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
    saved = min(max(2 - sum(solution.save_modifiers.values()), 0), 6) / 6
    men = hits * (1 if solution.small_arms else solution.damage_value) * (1 - saved)
    target = flying.find(board.flyers, solution.target)
    if target is None:
        return men * SMALL_ARMS_MAN
    return min(men, target.men.men) * PARTY_MAN  # no more than the men it has


def flyers_worth(party: flying.FlyingParty) -> float:
    """What a flying party weighs in boarding combat (as boarders_worth)."""
    men = party.men
    lead = men.officers + men.marines
    return (LEADER_WORTH * lead + men.petty_officers + men.seamen) * (1.5 if party.boarding_quality == "crack" else 1.0)


def reachable(at: Hex, altitude: str, there: Hex, their_altitude: str) -> bool:
    """Can a flying party at (at, altitude) end a move at (there, their_altitude) this turn (SG-HM-03/04):
    two hexes level, one hex and a level down, or a level up in place."""
    distance = hexgrid.distance(at, there)
    gap = level(their_altitude) - level(altitude)
    return (gap == 0 and distance <= FLIGHT_REACH) or (gap == -1 and distance <= 1) or (gap == 1 and distance == 0)


def flight_prey(board: Board, side: str, at: Hex, altitude: str, worth: float) -> ShipRecord | None:
    """The enemy ship a flying party of that worth should go for from there: one it can reach this turn
    whose defenders it outweighs (with the side's boarders already aboard her), the weakest first."""
    found = []
    for enemy in enemies(board, side):
        if enemy.position is None or board.captured.get(enemy.name):
            continue
        if not reachable(at, altitude, enemy.position, enemy.altitude):
            continue
        aboard = sum(flyers_worth(p) for p in flying.aboard(board.flyers, enemy.name) if p.side == side)
        soft = is_merchant(board, enemy) or beaten(board, enemy)
        edge = PRESS_ON if soft else BOARD_EDGE
        if worth + aboard >= edge * defenders_worth(enemy):
            found.append(((defenders_worth(enemy), hexgrid.distance(at, enemy.position), enemy.name), enemy))
    return min(found, key=lambda item: item[0])[1] if found else None


def flying_orders(state: State, side: str) -> dict[str, JSON]:
    """Flying parties sent at an enemy within a flight whose defenders they outweigh (not from a merchant or
    a running ship; the ship then goes for no prize itself); parties aboard an enemy that now outweighs them
    come back into the air (recalled)."""
    board = state.board
    formed: list[JSON] = []
    for record in board.fighting(side):
        if not flying.can_form(record) or running(board, record) or record.party.men:
            continue
        men = flying.party_of(record)
        if not men or record.position is None or record.boarders.men:
            continue
        lead = sum(n for post, n in men.items() if post in ("officers", "captain", "marine_officers", "marines"))
        worth = (LEADER_WORTH * lead + sum(men.values()) - lead) * quality_factor(record)
        if flight_prey(board, side, record.position, record.altitude, worth) is not None:
            formed.append({"ship": record.name, "men": dict[str, JSON](men)})
    recalled: list[JSON] = []
    for party in board.flyers:
        if party.side != side or party.aboard is None or board.captured.get(party.aboard):
            continue
        target = board.ship(party.aboard)
        if not board.in_fight(target):
            continue
        ours = sum(flyers_worth(p) for p in flying.aboard(board.flyers, target.name) if p.side == side)
        if ours < PRESS_ON * defenders_worth(target) or not flying.can_board(party):
            recalled.append(party.name)
    found: dict[str, JSON] = {}
    if formed:
        found[flying.FORM_ORDER] = formed
    if recalled:
        found[flying.RECALL_ORDER] = recalled
    return found


def flight(state: State, request: DecisionRequest) -> JSON:
    """A flying party's move: board an enemy it can overwhelm if one is in reach, else close on the nearest
    such enemy; outnumbered or leaderless, home to its ship (or the nearest friend) and aboard her."""
    board = state.board
    party = flying.find(board.flyers, request.ships[0])
    if party is None:
        return request.default
    options = candidates.fly_candidates(state, party.name)
    held = scenario_ai.garrison(board, party.side)
    if held:
        return garrison_flight(board, party, options, held, state.turn)
    worth = flyers_worth(party)
    prey = flight_prey(board, party.side, party.position, party.altitude, worth) if flying.can_board(party) else None
    goal = prey or flight_home(board, party)
    if goal is None or goal.position is None:
        return request.default
    for option in options:
        if isinstance(option, dict) and option.get("board") == goal.name:
            return option
    goal_at = goal.position

    def closeness(option: JSON) -> tuple[int, int]:
        steps, _ = flying.flight_parts(option)
        path = flying.trace(party, steps, terrain=board.terrain, turn=state.turn)
        end, altitude = flying.end_of(party, path)
        return hexgrid.distance(end, goal_at), abs(level(altitude) - level(goal.altitude))

    plain = [o for o in options if isinstance(o, list)]
    return min(plain, key=closeness) if plain else request.default


def garrison_flight(
    board: Board, party: flying.FlyingParty, options: Sequence[JSON], held: frozenset[Hex], turn: int
) -> JSON:
    """A flying party holding a zone (scenario_ai ``garrison``): down on an enemy landing party waiting to be
    picked up if it can get there (SG-SCN-40), else aboard an enemy within GARRISON_REACH of the zone whose
    defenders it outweighs (SG-HM-05), else back onto the zone, landed (the nearest of its hexes)."""
    terrain = board.terrain

    def reach(option: JSON) -> tuple[Hex, str]:
        steps, _ = flying.flight_parts(option)
        return flying.end_of(party, flying.trace(party, steps, terrain=terrain, turn=turn))

    plain = [o for o in options if isinstance(o, list)]
    if not plain:
        return []
    waiting = scenario_ai.party_to_overwhelm(board, party.side)
    if waiting is not None and party.men.men:
        ground = terrain.ground(waiting)
        down = [o for o in plain if reach(o) == (waiting, ground)]
        if down:
            return min(down, key=lambda o: (len(o), str(o)))
        if hexgrid.distance(party.position, waiting) <= FLIGHT_REACH + 1:  # a turn away: close in, level above
            return min(plain, key=lambda o: (hexgrid.distance(reach(o)[0], waiting), level(reach(o)[1]), str(o)))
    if flying.can_board(party):
        prey = flight_prey(board, party.side, party.position, party.altitude, flyers_worth(party))
        if prey is not None and prey.position is not None and near_zone(prey.position, held):
            for option in options:
                if isinstance(option, dict) and option.get("board") == prey.name:
                    return option

    def homeward(option: JSON) -> tuple[int, int, int, str]:
        end, altitude = reach(option)
        off = min(hexgrid.distance(end, h) for h in held)
        steps, _ = flying.flight_parts(option)
        return off, abs(level(altitude) - level(terrain.ground(end))), len(steps), str(option)  # at its post, stays

    return min(plain, key=homeward)


def near_zone(hex_: Hex, zone: frozenset[Hex]) -> bool:
    return min(hexgrid.distance(hex_, h) for h in zone) <= scenario_ai.GARRISON_REACH


def flight_home(board: Board, party: flying.FlyingParty) -> ShipRecord | None:
    """Its own ship if she is still in the fight, else the nearest ship of its side."""
    own = board.fighting(party.side)
    home = next((s for s in own if s.name == party.home), None)
    if home is not None:
        return home
    placed = [s for s in own if s.position is not None]
    if not placed:
        return None
    return min(placed, key=lambda s: (hexgrid.distance(party.position, s.position or party.position), s.name))


def leap_move(state: State, record: ShipRecord, traced: Sequence[tuple[list[str], list[movement.Step]]]) -> JSON | None:
    """A High Martian ship with its party formed ends its move in its prize's hex at her altitude, to board
    her without a grapple (SG-HM-01): the shortest such plan."""
    if not record.high_martian or not record.party.men:
        return None
    prize = prize_for(state, record)
    if prize is None:
        return None
    at = (prize.position, prize.altitude)
    plans = [plan for plan, path in traced if path and (path[-1].hex, path[-1].altitude) == at and not path[-1].ends]
    if not plans:
        return None
    best: list[str] = min(plans, key=lambda plan: (len(plan), str(plan)))
    return list[JSON](best)


# --- sealed orders: portable machineguns and signals ----------------------------------------------------


def with_secret_orders(state: State, request: DecisionRequest, orders: dict[str, JSON]) -> JSON:
    """``orders`` with the Initiative Phase's sealed orders added, each kept only if it holds with the rest:
    portable machineguns trained on the aspect the nearest enemy is in (SG-MG-04); with the signal rule, a
    dead signalman replaced from the deckhands (SG-SIG-01) and one signal naming the side's target (SG-SIG-04)."""
    board = state.board
    extra: dict[str, JSON] = {}
    training = [order for record in board.fighting(request.side) for order in training_orders(board, record)]
    if training:
        extra["train"] = list[JSON](training)
    if state.options.get("signals"):
        crew: list[JSON] = [
            {"ship": r.name, "signalman": "deckhands"}
            for r in board.fighting(request.side)
            if not r.crew.signalman and r.crew.deckhands > 1
        ]
        if crew:
            extra["crew"] = [*cast(list[JSON], orders.get("crew", [])), *crew]
        order = signal_order(board, request.side)
        if order is not None:
            extra["signal"] = order
    for key, value in extra.items():
        if validate.validate(state, request, {**orders, key: value}) is None:
            orders = {**orders, key: value}
    return orders


def training_orders(board: Board, record: ShipRecord) -> list[JSON]:
    """Each portable machinegun turned to the aspect its nearest enemy is in, unless it bears on him already."""
    theirs = [e for e in enemies(board, record.side) if e.position is not None and e.position != record.position]
    if record.position is None or not theirs:
        return []
    position = record.position
    nearest = min(theirs, key=lambda e: (hexgrid.distance(position, e.position or position), e.name))
    assert nearest.position is not None
    seen = hexgrid.aspects(position, record.facing, nearest.position)
    laid = portable_guns.trained_record(record, board.trained)
    orders: list[JSON] = []
    for gun in laid.guns:
        if not combat.is_portable(gun) or gun.destroyed or gun.manned == 0 or {a.value for a in seen} & set(gun.arcs):
            continue
        aspect = next(a.value for a in hexgrid.Aspect if a in seen)
        orders.append({"ship": record.name, "gun": gun.id, "aspect": aspect})
    return orders


def signal_order(board: Board, side: str) -> JSON:
    """The flagship (the first ship able to signal) tells every ship which enemy to engage, when the side has
    more than one ship."""
    ships = board.fighting(side)
    target = side_target(board, side)
    sender = next((s for s in ships if signals.can_signal(s)), None)
    if len(ships) < 2 or sender is None or target is None:
        return None
    words = f"Engage the {target}"
    if len(words.split()) > signals.max_words():
        words = "Close and engage the enemy"
    return {"ship": sender.name, "to": signals.ALL, "words": words}


# --- avoiding collisions (the errata) -------------------------------------------------------------------


def avoids_collision(state: State, request: DecisionRequest) -> JSON:
    """Avoid a collision (SG-ERR-04) unless the other ship is the smaller enemy: it takes the worse of it (it
    rolls against our hull size, and the smaller ship may lose trim, SG-COL-06/08). A friend, a ship as big or
    bigger, and any ship when we are a merchant are avoided."""
    board = state.board
    mine, theirs = board.ship(request.ships[0]), board.ship(request.ships[1])
    if is_merchant(board, mine) or board.ally(mine.side, theirs):
        return True
    return theirs.hull_size >= mine.hull_size


__all__ = ["Captain", "Spot", "Tuning", "beaten", "running", "score_moves", "strikes"]


# --- exotic ordnance orders (mines, drogues, bomb racks; moved here from ordnance_play: it is the AI's) -----

ALERT = 3  # hexes: an enemy this close and the mines go up, the drogues down
STAND_DOWN = 6  # hexes: no enemy this close and they come in again


def ordnance_orders(state: State, request: DecisionRequest, base: Mapping[str, JSON]) -> dict[str, JSON]:
    """Mines up and drogues down with an enemy within ALERT hexes, in again with none within STAND_DOWN;
    empty racks reloaded; mines cut loose by a ship that runs (they hold it to 3 hexes) or with an enemy
    right above it. Each order kept only if it holds with those before it."""
    board = state.board
    orders: dict[str, list[JSON]] = {key: [] for key in ordnance_play.ORDER_KEYS}
    for ship in board.fighting(request.side):
        foes = [e for e in enemies(board, ship.side) if not is_merchant(board, e)]
        nearest = min((ordnance_play.near(ship, e) for e in foes), default=99)
        runs = running(board, ship)
        mines_up = bool(ship.items_of(*ordnance.MINES, states=("raised",)))
        above = any(
            e.position == ship.position and altitude_level(e.altitude) > altitude_level(ship.altitude) for e in foes
        )
        if mines_up and (runs or above):
            orders["cut_mines"].append(ship.name)
        elif ship.items_of(*ordnance.MINES, states=("lowered",)) and not runs and nearest <= ALERT:
            orders["mines"].append({"ship": ship.name, "raised": True})
        if mines_up and not runs and not above and nearest > STAND_DOWN:
            orders["mines"].append({"ship": ship.name, "raised": False})
        drogues_down = bool(ship.items_of(ordnance.DROGUE, states=("lowered",)))
        if ship.items_of(ordnance.DROGUE, states=("raised", "lowered")):
            if not drogues_down and nearest <= ALERT and not runs:
                orders["drogues"].append({"ship": ship.name, "lowered": True})
            elif drogues_down and (runs or nearest > STAND_DOWN):
                orders["drogues"].append({"ship": ship.name, "lowered": False})
        orders["reload"] += [
            {"ship": ship.name, "rack": r.id} for r in ship.items_of(ordnance.BOMB_RACK, states=("empty",))
        ]
    checked: dict[str, JSON] = {}
    for key, wanted in orders.items():
        kept: list[JSON] = []
        for order in wanted:
            trial = {**base, **checked, key: [*kept, order]}
            if validate.validate(state, request, trial) is None:
                kept.append(order)
        if kept:
            checked[key] = kept
    return checked


def ai_adjust_moves(
    state: State,
    record: ShipRecord,
    traced: Sequence[tuple[list[str], list[movement.Step]]],
    scored: Sequence[tuple[float, JSON]],
) -> list[tuple[float, JSON]]:
    """Keep clear of other ships' mines and drogues; drop what the ship carries on the enemies it passes
    over (the hexes the side must bombard first), worth the drop's expected effect."""
    spots = ordnance_play.device_spots(state.board, record.name)
    ready = droppers(record)
    marks = drop_marks(state.board, record) if ready else {}
    adjusted: list[tuple[float, JSON]] = []
    for (score, plan), (_, steps) in zip(scored, traced, strict=True):
        risk = sum(
            spots.get((s.hex, altitude_level(s.altitude)), 0.0) for s in steps if s.enters_hex or s.changes_altitude
        )
        choice: JSON = plan
        bonus = 0.0
        if marks and steps and not isinstance(plan, dict):
            drops, bonus = _ai_drops(state, record, steps, ready, marks)
            if drops:
                candidate: JSON = {"steps": plan, "drops": drops}
                if validate.move_problem(state, record, candidate) is None:
                    choice = candidate
                else:
                    bonus = 0.0
        adjusted.append((score - risk + bonus, choice))
    return adjusted


def drop_marks(board: Board, record: ShipRecord) -> dict[Hex, list[ShipRecord]]:
    """The enemies the ship may drop on, by hex, each hex's by name: the same for every plan of a move. A
    ground target counts only if the side must bombard it (SG-SCN-25)."""
    goals = {s.name for s in ordnance_play.bombard_targets(board, record.side)}
    marks: dict[Hex, list[ShipRecord]] = {}
    for target in sorted(board.ships, key=lambda s: s.name):
        if target.position is None or board.ally(record.side, target) or not board.in_fight(target):
            continue
        if not ordnance_play.is_target(target) or (
            target.emplacement in ordnance_play.TARGET_KINDS and target.name not in goals
        ):
            continue
        marks.setdefault(target.position, []).append(target)
    return marks


def _ai_drops(
    state: State,
    record: ShipRecord,
    steps: Sequence[movement.Step],
    droppers: Sequence[str],
    marks: Mapping[Hex, Sequence[ShipRecord]],
) -> tuple[list[JSON], float]:
    board = state.board
    rules = queries.rules(state)
    goals = {s.name for s in ordnance_play.bombard_targets(board, record.side)}
    drops: list[JSON] = []
    worth = 0.0
    dropper = record
    for where in ordnance_play.passes(record, steps):
        for target in marks.get(where.hex, ()):
            there = replace(dropper, position=where.hex, altitude=where.altitude)
            for weapon in droppers:
                solution = ordnance.drop_solution(
                    there, target, weapon, target_mp=ordnance_play.target_mp(board, target), rules=rules
                )
                if not solution.allowed:
                    continue
                if any(
                    isinstance(d, dict) and d.get("target") == target.name and d.get("weapon") == weapon for d in drops
                ):
                    continue
                value = max(3.5 - solution.levels - solution.target_mp, 0.0) * ordnance_play.DROP_WORTH[weapon]
                if value <= 0:
                    continue
                worth += value * (ordnance_play.BOMBARD_WEIGHT if target.name in goals else 1.0)
                drops.append({"target": target.name, "weapon": weapon})
                dropper = dropper.with_items(
                    *(replace(dropper.item(i), state=ordnance_play.SPENT[weapon]) for i in solution.items)
                )
                break
    return drops, worth
