"""The Sky Galleons captain's moves (tactics.py): each legal plan scored by where it ends (guns bearing, the
enemy's guns, range, altitude), searched by branch and bound; running, standing off, bombarding, dropping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

from battles.aikit import search
from battles.aikit.memo import Memo
from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import (
    combat,
    flying,
    movement,
    ordnance,
    ordnance_play,
    queries,
    scenario_ai,
    validate,
)
from battles.rules.sky_galleons.ai_reading import (
    ALTITUDE_GAP,
    APPROACH,
    CAUTION,
    ESCAPES,
    FLEE_CAUTION,
    LEAVES_MAP,
    LOW_FLYING,
    NEAR_EDGE,
    NEAR_TIE,
    OTHER_TARGET,
    PASSING,
    SHARED_HEX,
    WRECKED,
    Battery,
    Spot,
    State,
    ahead,
    battery,
    bombards,
    edge_distance,
    enemies,
    exit_steps,
    fires_at_ships,
    gun_values,
    hit_chance,
    hunters,
    in_reach,
    level,
    over_the_land,
    running,
    ship_target,
    silenced,
    spot,
    tuning,
    worth_of_hit,
)
from battles.rules.sky_galleons.board import Board
from galleons.record import ShipRecord, altitude_level, oint, tint

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
    # The zones whose reinforcements the side keeps away by flying over them (scenario_ai.watched_zones).
    watched: tuple[frozenset[Hex], ...] = ()


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
        watched=scenario_ai.watched_zones(board, record.side),
    )


class Path(NamedTuple):
    """A traced plan: where it ends, how (left the map, crashed...), and the collision checks on the way. A
    named tuple, as Spot is: one is made for every plan weighed."""

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
    return score + scenario_ai.over_zones(view.watched, at.hex)


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
