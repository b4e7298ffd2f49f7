"""The Sky Galleons captain's reading of the board (tactics.py): the weights of his rules of thumb, who is
beaten, running or caught, what each gun is worth from a spot, which enemy to go for, and what boarders are worth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    combat,
    flying,
    ordnance_play,
    queries,
    scenario_ai,
)
from battles.rules.sky_galleons.board import Board, party_of
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import Gun, ShipRecord, altitude_level, tint

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


class Spot(NamedTuple):
    """Where a ship is, or would be: hex, facing and altitude. A named tuple: the captain makes and hashes one
    for every plan he weighs, and a tuple is made and hashed in C (issue 21)."""

    hex: Hex
    facing: int
    altitude: str


@dataclass(frozen=True)
class Tuning:
    flee_hull: float = FLEE_HULL
    flee_crew: float = FLEE_CREW
    caution: float = CAUTION


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
    """The hex ``hexes`` ahead of ``at`` on its facing: one step of the direction taken ``hexes`` times."""
    step, hexes = hexgrid.DIRECTIONS[at.facing % 6], max(hexes, 0)
    return Hex(at.hex.q + hexes * step.q, at.hex.r + hexes * step.r)


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


# --- what the other rooms share: the bombardment's marks, a flying party's worth -------------------------

WARBAND_FIRST = 2.0  # a flyer's man, while our landing party is ashore: as much as a hull box (SMALL_ARMS_MAN)


def bombards(target: ShipRecord | None) -> bool:
    """The captain's target is a hex to bombard (ordnance_play.bombard_goal)."""
    return target is not None and target.emplacement in ordnance_play.TARGET_KINDS


def silenced(board: Board, name: str) -> bool:
    """A ground battery with no gun left manned: it cannot fire, and a hull hit on it does nothing (SG-GB-03)."""
    target = board.by_name.get(name)
    return (
        target is not None
        and target.emplacement == ordnance_play.BATTERY
        and not any(gun.manned and not gun.destroyed for gun in target.guns)
    )


# --- close action: what boarders are worth, and the prize to ram or grapple ---------------------------------


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


# --- small readings the moves, fire and flights share ------------------------------------------------------


def over_the_land(terrain: Terrain, hex_: Hex, altitude: str) -> bool:
    """One level over the land under her: a forced drop (SG-DMG-15) or a lost level puts her into it."""
    return level(altitude) <= level(terrain.ground(hex_)) + 1


def read_ship(order: JSON) -> JSON:
    return order.get("ship") if isinstance(order, dict) else None


def loaded(solution: FireSolution) -> dict[str, JSON]:
    """The shot's ammunition when it is not shell: shrapnel or grape at a flying party (SG-SHR-06)."""
    return {} if solution.ammunition == "shell" else {"ammunition": solution.ammunition}
