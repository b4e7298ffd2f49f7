"""Exotic ordnance in play: ``ordnance.py``'s rules wired into the Sky Galleons sequence of play.

``ordnance.py`` holds the rules as pure functions over records; this module is the glue the ruleset, the
scenario loader and the AI captain call through a few hooks:

* set-up (``scenario.py``): a ship's extra tether mines and a landed start, the fitting checks
  (SG-SMT-02/09); a side's ground batteries, tethered mines on the ground and city or fortress hexes to
  bombard, each a record of its own on the board (``record.emplacement``); the bombardment victory;
* the Initiative Phase: bomb racks reloaded and a ground battery's fire dying down at the start of the turn
  (SG-CG-77, SG-GB-07); the order keys ``mines``, ``drogues``, ``reload`` and ``cut_mines``;
* Smutts torpedoes (SG-SMT): their runs after the first player is chosen and after the fire step that
  launched them, each threatened ship asked first whether it avoids (decision ``avoid torpedo``);
* movement: the limits of raised mines and lowered drogues, the devices set off at each step of a move,
  and drops (liquid fire, spikes, bombs, drogues) declared with the move and made as the dropper passes;
* fire: Hale salvoes, Smutts launches, grapnel shots, ground batteries firing and being fired at;
* the AI: ordnance orders, avoiding torpedoes and mines, bombing, salvoes and launches.

How the text's silences are read here is in ``galleons/data/ordnance.json`` ("play"). State lives on the records
(``ShipRecord.ordnance``, ``emplacement``) and on the board (``Board.torpedoes``, ``Board.victory_side``);
every change is an event the ruleset folds, so a battle replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event
from battles.engine.hexgrid import Hex
from battles.engine.memo import Recent
from battles.engine.resolver import Context
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.sky_galleons import close_action, combat, movement, ordnance, queries
from battles.rules.sky_galleons.combat import CombatRules, FireSolution
from battles.rules.sky_galleons.dice import Roller
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.ordnance import (
    BOMB_RACK,
    DROGUE,
    DROPS,
    GONE,
    HALE,
    LIQUID_FIRE,
    MINES,
    SPIKES,
    OrdnanceError,
    RocketSolution,
    Torpedo,
)
from battles.rules.sky_galleons.phases import basics
from galleons import catalog
from galleons.record import (
    Moment,
    Ordnance,
    ShipRecord,
    altitude_level,
    altitude_levels,
    oint,
    ordnance_kinds,
    table,
    tstrs,
)

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board, Fold
    from battles.rules.sky_galleons.play import Play

State = BattleState["Board"]
Ctx = Context["Board"]

# Decision kind, stage and answers
AVOID_TORPEDO = "avoid torpedo"
TORPEDOES = "torpedoes"
CUT_AND_AVOID = "cut mines and avoid"
# Initiative orders added to the ruleset's
ORDER_KEYS = ("mines", "drogues", "reload", "cut_mines")
# The emplacement of tethered mines on the ground (ordnance.json record/emplacements)
MINEFIELD = "minefield"
BATTERY = "battery"
TARGET_KINDS = ("city", "fortress")
# The victory kind of a bombardment scenario (SG-SCN-25)
BOMBARDMENT = "bombardment"
# A side's keys in a scenario, and a ship's
SIDE_KEYS = ("batteries", "tether_mines", "ground_targets")
SHIP_KEYS = ("tether_mines", "landed")
# What each dropped weapon is left as (ordnance.drop)
SPENT = {LIQUID_FIRE: "dropped", SPIKES: "dropped", BOMB_RACK: "empty", DROGUE: "released"}
SHOT_SHAPES = (
    '{"ship", "gun", "target"} for a gun or a power grapnel, {"ship", "battery", "target"} for a Hale '
    'battery\'s salvo, {"ship", "gun", "launch": true} for a Smutts discharger'
)

# --- AI tuning --------------------------------------------------------------------------------------------

MINE_RISK = 8.0  # entering another ship's raised mines: a sure hit of DV 4-6 and a loss of trim
DROGUE_RISK = 2.0  # entering a lowered drogue: one chance in six of a DV 10 hit and a loss of trim
# A drop's worth per point of the die left after the levels between (expected 3.5 - levels)
DROP_WORTH = {LIQUID_FIRE: 1.5, SPIKES: 0.5, BOMB_RACK: 1.5, DROGUE: 2.0}
BOMBARD_WEIGHT = 2.0  # a hex the side must bombard is worth twice a ship's hull box to its guns
TORPEDO_LOOK = 2  # runs of a torpedo the AI looks along before launching one
AIM_ABOVE = 2  # levels over a hex to bombard a captain holds: out of the ground's reach, drops still tell


# --- set-up: the scenario's ground and the ships' ordnance ---------------------------------------------


def _hex(value: Any, where: str, terrain: Terrain) -> Hex:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise ValueError(f"{where}: a hex is [col, row], not {value!r}")
    hex_ = hexgrid.from_odd_q(value[0], value[1])
    if not terrain.on_map(hex_):
        raise ValueError(f"{where}: {value} is off the {terrain.cols} x {terrain.rows} map")
    return hex_


def _count(data: Mapping[str, Any], key: str, where: str, default: int = 1, minimum: int = 1) -> int:
    value = data.get(key, default)
    if type(value) is not int or value < minimum:
        raise ValueError(f"{where}: {key!r} must be an integer of at least {minimum}, not {value!r}")
    return value


def _keys(data: Any, known: Sequence[str], where: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: must be an object")
    extra = sorted(set(data) - set(known))
    if extra:
        raise ValueError(f"{where}: unknown keys {extra}; allowed {sorted(known)}")
    return data


def mine_weapon(kind: Any, where: str) -> str:
    """``martian`` or ``british``: the tether mine's weapon id (DV 4 or 6, SG-TM-01/02)."""
    weapon = f"tether_mine_{kind}"
    if weapon not in MINES:
        raise ValueError(f"{where}: a tether mine is 'martian' or 'british', not {kind!r}")
    return weapon


def _martian(record: ShipRecord) -> bool:
    words: Sequence[str] = table("small_arms", "marine_arms", "martian_nation_words")
    return any(word in record.nation.casefold() for word in words)


def _add_items(record: ShipRecord, weapon: str, count: int, state: str) -> ShipRecord:
    """``count`` more items of ``weapon``, numbered on from the record's own of the same prefix."""
    prefix = str(ordnance_kinds()[weapon]["prefix"])
    taken = [
        int(i.id[len(prefix) :]) for i in record.ordnance if i.id.startswith(prefix) and i.id[len(prefix) :].isdigit()
    ]
    first = max(taken, default=0) + 1
    items = tuple(Ordnance(f"{prefix}{first + n}", weapon, state) for n in range(count))
    return replace(record, ordnance=record.ordnance + items)


def fit_ship(record: ShipRecord, data: Mapping[str, Any], terrain: Terrain) -> ShipRecord:
    """A scenario ship's ordnance keys, then the fitting checks (raises ValueError):

    * ``"tether_mines": n`` or ``{"count": n, "kind": "martian"|"british"}``: mines carried beyond the
      class's own, lowered (the kind by the ship's yard when not given; SG-SCN-21's tether bombs);
    * ``"landed": true``: the ship starts landed on the ground of its hex (SG-SCN-23/36).
    """
    mines = data.get("tether_mines")
    if mines is not None:
        spec = {"count": mines} if type(mines) is int else mines
        spec = _keys(spec, ("count", "kind"), "tether_mines")
        kind = spec.get("kind", "martian" if _martian(record) else "british")
        record = _add_items(record, mine_weapon(kind, "tether_mines"), _count(spec, "count", "tether_mines"), "lowered")
    landed = data.get("landed", False)
    if type(landed) is not bool:
        raise ValueError(f"landed must be true or false, not {landed!r}")
    if landed:
        assert record.position is not None  # scenario ships are placed
        record = replace(record, altitude=terrain.ground(record.position), status="landed")
    problems = ordnance.fitting_problems(record)
    if problems:
        raise ValueError("; ".join(problems))
    return record


def ground_setup(
    side: Mapping[str, Any], side_id: str, where: str, terrain: Terrain, default_quality: str
) -> tuple[ShipRecord, ...]:
    """A side's ground: its ``batteries`` (SG-GB), its ``tether_mines`` on the ground and its
    ``ground_targets`` (city or fortress hexes to bombard, SG-BOMB-01). Raises ValueError."""
    found: list[ShipRecord] = []
    for key, build in (("batteries", _battery), ("tether_mines", _minefield), ("ground_targets", _targets)):
        entries = side.get(key, [])
        if not isinstance(entries, list):
            raise ValueError(f"{where}.{key}: must be a list")
        for n, entry in enumerate(entries):
            found += build(entry, side_id, f"{where}.{key}[{n}]", terrain, default_quality)
    return tuple(found)


def _battery(data: Any, side: str, where: str, terrain: Terrain, quality: str) -> list[ShipRecord]:
    """``{"name", "gun": weapon or "guns": [weapons], "position", "armor", "crew_quality"}``."""
    spec = _keys(data, ("name", "gun", "guns", "position", "armor", "crew_quality"), where)
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: a battery needs a name")
    if ("gun" in spec) == ("guns" in spec):
        raise ValueError(f"{where}: give the battery a 'gun' or a list of 'guns', one of the two")
    guns = [spec["gun"]] if "gun" in spec else spec["guns"]
    if not isinstance(guns, list) or not guns or not all(isinstance(g, str) for g in guns):
        raise ValueError(f"{where}: guns are weapon names")
    weapons = []
    for gun in guns:
        try:
            weapon = catalog.weapon(gun)
        except LookupError as error:
            raise ValueError(f"{where}: {error}") from error
        if weapon.range_hexes is None or weapon.rate_of_fire is None:
            raise ValueError(f"{where}: {weapon.name} is not a gun a battery fires")
        weapons.append(weapon.id)
    crew_quality = spec.get("crew_quality", quality)
    if crew_quality not in tstrs("ship_record", "crew_qualities"):
        raise ValueError(f"{where}: crew_quality {crew_quality!r} is not one of the crew qualities")
    position = _hex(spec.get("position"), f"{where}.position", terrain)
    battery = ordnance.ground_battery(
        name,
        guns=weapons,
        armor=_count(spec, "armor", where, default=0, minimum=0),
        position=position,
        side=side,
        altitude=terrain.ground(position),
        crew_quality=str(crew_quality),
    )
    return [battery]


def _minefield(data: Any, side: str, where: str, terrain: Terrain, quality: str) -> list[ShipRecord]:
    """``{"position", "count", "kind", "name"}``: tethered mines on the ground, raised for good."""
    spec = _keys(data, ("name", "position", "count", "kind"), where)
    position = _hex(spec.get("position"), f"{where}.position", terrain)
    col, row = hexgrid.to_odd_q(position)
    name = spec.get("name", f"mines {side} {col},{row}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: name must be a string")
    holder = ordnance.ground_battery(
        name, guns=(), armor=0, position=position, side=side, altitude=terrain.ground(position)
    )
    holder = replace(holder, emplacement=MINEFIELD, crew=replace(holder.crew, captain=0))
    weapon = mine_weapon(spec.get("kind", "martian"), where)
    return [_add_items(holder, weapon, _count(spec, "count", where), "raised")]


def _targets(data: Any, side: str, where: str, terrain: Terrain, quality: str) -> list[ShipRecord]:
    """``{"name", "kind": "city"|"fortress", "hexes": [[c, r], ...], "points": n}``: one record a hex, named
    ``name`` alone for one hex, else ``name (c,r)``; each needs ``points`` damage points (SG-BOMB-01)."""
    spec = _keys(data, ("name", "kind", "hexes", "points"), where)
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: a ground target needs a name")
    kind = spec.get("kind", "city")
    if kind not in TARGET_KINDS:
        raise ValueError(f"{where}: kind is one of {list(TARGET_KINDS)}, not {kind!r}")
    hexes = spec.get("hexes")
    if not isinstance(hexes, list) or not hexes:
        raise ValueError(f"{where}: hexes is a list of [col, row]")
    points = _count(spec, "points", where)
    found = []
    for n, value in enumerate(hexes):
        position = _hex(value, f"{where}.hexes[{n}]", terrain)
        label = name if len(hexes) == 1 else f"{name} ({value[0]},{value[1]})"
        found.append(
            ordnance.ground_target(
                label, kind=str(kind), position=position, points=points, side=side, altitude=terrain.ground(position)
            )
        )
    return found


def victory_side(victory: Mapping[str, Any], sides: Sequence[tuple[str, Sequence[ShipRecord]]]) -> str:
    """The bombarding side of a ``{"kind": "bombardment", "side": id}`` victory (SG-SCN-25), checked
    against ``sides`` (each id with its records): another side must hold a city or fortress hex."""
    if victory.get("kind") != BOMBARDMENT:
        return ""
    side = victory.get("side")
    ids = [s for s, _ in sides]
    if side not in ids:
        raise ValueError(f"victory: side must be one of {ids}, not {side!r}")
    if not any(r.emplacement in TARGET_KINDS for s, records in sides if s != side for r in records):
        raise ValueError("victory: a bombardment needs a city or fortress hex of another side (ground_targets)")
    return str(side)


# --- the board: what is ground, what is target ------------------------------------------------------------


def is_target(record: ShipRecord) -> bool:
    """May be fired at: a vessel, a ground battery, a city or fortress hex; never mines (SG-TM-12)."""
    return record.emplacement != MINEFIELD


def bombarding(board: Board, side: str) -> bool:
    return board.victory == BOMBARDMENT and board.victory_side == side


def bombard_targets(board: Board, side: str) -> list[ShipRecord]:
    """The hexes this side must still bombard: the other sides' city and fortress hexes not yet destroyed."""
    if not bombarding(board, side):
        return []
    return [s for s in board.emplacements() if s.side != side and s.emplacement in TARGET_KINDS]


def target_mp(board: Board, record: ShipRecord) -> int:
    """The movement points a bomb target most recently spent: the hexes of its latest move; landed ships and
    ground targets are stationary (SG-CG-75, SG-ERR-19; ordnance.json play)."""
    if record.emplacement is not None or record.status == "landed":
        return 0
    if record.name in board.moved:
        return board.moved[record.name]
    return board.last_moved.get(record.name, 0)


# --- the Initiative Phase: upkeep and orders ---------------------------------------------------------


def upkeep(ctx: Ctx) -> None:
    """Start of a turn: bomb racks being reloaded advance (SG-CG-77); a ground battery's fire dies down
    (SG-GB-07) instead of growing (emplacement_turn for combat.begin_turn)."""
    now = queries.now(ctx.state)
    for record in ctx.board.fighting():
        if record.items_of(BOMB_RACK, states=("reloading",)):
            changed, happened = ordnance.advance_reloads(record, now=now)
            basics.commit(ctx, {record.name: changed}, happened)
    for record in ctx.board.emplacements():
        if record.fire:
            changed, happened = ordnance.emplacement_turn(record)
            basics.commit(ctx, {record.name: changed}, happened)


def _ship_order(
    records: dict[str, ShipRecord], entry: Any, keys: tuple[str, ...], clause: str
) -> tuple[ShipRecord, Mapping[str, Any]] | Rejection:
    if not isinstance(entry, dict) or set(entry) != {"ship", *keys}:
        return Rejection(clause, f"each is {{{', '.join(repr(k) for k in ('ship', *keys))}}}")
    name = entry["ship"]
    if not isinstance(name, str) or name not in records:
        return Rejection(clause, f"{name} is not one of your ships in the fight: {sorted(records)}")
    return records[name], entry


def orders_problem(state: State, choice: Mapping[str, JSON], records: dict[str, ShipRecord]) -> Rejection | None:
    """The ordnance orders, checked on copies of the side's records in the order they are carried out:
    ``mines`` [{ship, raised}] (SG-TM-03), ``drogues`` [{ship, lowered}] (SG-DT-02), ``reload`` [{ship, rack}]
    (SG-CG-77), ``cut_mines`` [ships] (SG-TM-05)."""
    now = queries.now(state)
    for key in ORDER_KEYS:
        if not isinstance(choice.get(key, []), list):
            return Rejection("SG-SEQ-02", f"{key} is a list")
    declared: set[tuple[str, str]] = set()
    for key, flag, declare, clause in (
        ("mines", "raised", ordnance.declare_mines, "SG-TM-03"),
        ("drogues", "lowered", ordnance.declare_drogues, "SG-DT-02"),
    ):
        for entry in _list(choice.get(key)):
            found = _ship_order(records, entry, (flag,), clause)
            if isinstance(found, Rejection):
                return found
            record, order = found
            if type(order[flag]) is not bool:
                return Rejection(clause, f"{flag} is true or false")
            if (key, record.name) in declared:
                return Rejection(clause, f"{possessive(record.name)} {key} are declared once a turn")
            declared.add((key, record.name))
            try:
                records[record.name] = declare(record, order[flag], now=now)[0]
            except OrdnanceError as error:
                return Rejection(error.clause, error.reason)
    for entry in _list(choice.get("reload")):
        found = _ship_order(records, entry, ("rack",), "SG-CG-77")
        if isinstance(found, Rejection):
            return found
        record, order = found
        try:
            records[record.name] = ordnance.start_bomb_reload(record, str(order["rack"]), now=now)[0]
        except OrdnanceError as error:
            return Rejection(error.clause, error.reason)
    cut: set[str] = set()
    for name in _list(choice.get("cut_mines")):
        if not isinstance(name, str) or name not in records:
            return Rejection("SG-TM-05", f"{name} is not one of your ships in the fight: {sorted(records)}")
        if name in cut or not records[name].items_of(*MINES, states=("raised",)):
            return Rejection("SG-TM-05", f"{name} has no tether mines raised to cut loose")
        cut.add(name)
    return None


def _list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []


def carry_out_orders(ctx: Ctx, choice: Mapping[str, JSON]) -> None:
    """The ordnance orders of one side, as validated: declarations, reloads, mines cut loose."""
    now = queries.now(ctx.state)
    for key, flag, declare in (
        ("mines", "raised", ordnance.declare_mines),
        ("drogues", "lowered", ordnance.declare_drogues),
    ):
        for entry in _list(choice.get(key)):
            order = _object(entry)
            record = ctx.board.ship(str(order["ship"]))
            changed, happened = declare(record, bool(order[flag]), now=now)
            basics.commit(ctx, {record.name: changed}, happened)
    for entry in _list(choice.get("reload")):
        order = _object(entry)
        record = ctx.board.ship(str(order["ship"]))
        changed, happened = ordnance.start_bomb_reload(record, str(order["rack"]), now=now)
        basics.commit(ctx, {record.name: changed}, happened)
    for name in _list(choice.get("cut_mines")):
        cut_loose(ctx, str(name))


def _object(value: JSON) -> dict[str, JSON]:
    assert isinstance(value, dict)
    return value


def cut_loose(ctx: Ctx, name: str) -> None:
    """Cut a ship's raised mines loose now (SG-TM-05/10): they roll against every ship above it in its hex."""
    if not ctx.board.ship(name).items_of(*MINES, states=("raised",)):
        return
    records, happened = ordnance.cut_mines(
        ctx.board.by_name, name, now=queries.now(ctx.state), roller=basics.roller(ctx), rules=queries.rules(ctx.state)
    )
    basics.commit(ctx, records, happened)


def orders_prompt(ships: Sequence[ShipRecord]) -> str:
    """What the orders prompt adds for the ordnance the side's ships carry ("" for none)."""
    words = []
    if any(s.items_of(*MINES, states=("raised", "lowered")) for s in ships):
        words.append('tether mines raised or lowered ("mines") or cut loose ("cut_mines")')
    if any(s.items_of(DROGUE, states=("raised", "lowered")) for s in ships):
        words.append('drogues lowered or raised ("drogues")')
    if any(s.items_of(BOMB_RACK, states=("empty",)) for s in ships):
        words.append('empty bomb racks reloaded ("reload")')
    return "; " + ", ".join(words) if words else ""


# --- movement: limits, devices set off, drops ---------------------------------------------------------


def hexes_problem(record: ShipRecord, steps: Sequence[str]) -> Rejection | None:
    """Raised tether mines: at most 3 hexes this turn (SG-TM-04, SG-CG-35)."""
    most = ordnance.movement_limits(record).max_hexes
    if most is not None and list(steps).count(movement.AHEAD) > most:
        return Rejection(
            "SG-TM-04", f"{possessive(record.name)} mines are raised: it moves at most {most} hexes a turn"
        )
    return None


def within_limits(
    record: ShipRecord, traced: list[tuple[list[str], list[movement.Step]]]
) -> list[tuple[list[str], list[movement.Step]]]:
    """The traced plans the ship's live devices allow (the AI's and the candidates' moves)."""
    if ordnance.movement_limits(record).max_hexes is None:
        return traced
    return [(plan, steps) for plan, steps in traced if hexes_problem(record, plan) is None]


@dataclass(frozen=True)
class Pass:
    """The dropper over a hex: where, at what altitude, and the hexside it leaves by (None: its move ends)."""

    hex: Hex
    altitude: str
    exits: int | None


def passes(record: ShipRecord, steps: Sequence[movement.Step]) -> list[Pass]:
    """The hexes a traced move leaves or ends in after entering, in order (SG-LF-01; a ship that moves no
    hex passes over none)."""
    found: list[Pass] = []
    assert record.position is not None
    here, altitude, facing = record.position, record.altitude, record.facing
    moved = False
    for step in steps:
        if step.token == movement.AHEAD:
            found.append(Pass(here, altitude, facing))
            moved = True
        here, altitude, facing = step.hex, step.altitude, step.facing
    if moved and steps and steps[-1].ends != movement.LEFT_MAP:
        found.append(Pass(here, altitude, None))
    return found


@dataclass
class Drops:
    """The drops declared with one move and not yet made (mutable for the length of one move)."""

    waiting: list[tuple[str, str, int]] = field(default_factory=list)  # (target, weapon, count)


def drops_of(choice: JSON) -> Drops:
    """The drops a move's answer carries (validated): ``{"steps": [...], "drops": [{target, weapon, count}]}``."""
    drops = Drops()
    if isinstance(choice, dict):
        for entry in _list(choice.get("drops")):
            order = _object(entry)
            count = order.get("count", 1)
            drops.waiting.append((str(order["target"]), str(order["weapon"]), count if type(count) is int else 1))
    return drops


def drops_problem(state: State, record: ShipRecord, choice: Mapping[str, JSON]) -> Rejection | None:
    """A move's drops: each names an enemy ``target``, a ``weapon`` (liquid_fire_rack, spike_dropper,
    bomb_rack, drogue_torpedo) and a ``count`` (default 1); the target must lie lower than the dropper in a
    hex its path leaves or ends in, and the drop be one the rules allow there (ordnance.drop_solution)."""
    shape = 'drops are [{"target": ship, "weapon": one of ' + ", ".join(DROPS) + ', "count": n}]'
    drops = choice.get("drops")
    steps = choice.get("steps")
    if not isinstance(drops, list) or not drops or not isinstance(steps, list):
        return Rejection("SG-LF-01", shape)
    try:
        traced = queries.trace(
            record, [str(t) for t in steps], allowed=queries.allowance(state, record), terrain=state.board.terrain
        )
    except movement.PlanError:
        return None  # the plan's own fault is reported by the move's checks
    over = passes(record, traced)
    board = state.board
    dropper = record
    seen: set[tuple[str, str]] = set()
    for entry in drops:
        if not isinstance(entry, dict) or not {"target", "weapon"} <= set(entry) <= {"target", "weapon", "count"}:
            return Rejection("SG-LF-01", shape)
        count = entry.get("count", 1)
        target_name, weapon = entry["target"], entry["weapon"]
        if type(count) is not int or not isinstance(target_name, str) or weapon not in DROPS:
            return Rejection("SG-LF-01", shape)
        if (target_name, str(weapon)) in seen:
            return Rejection("SG-LF-01", f"one drop of {weapon} on {target_name} a move: give a count")
        seen.add((target_name, str(weapon)))
        target = board.by_name.get(target_name)
        if target is None or board.ally(record.side, target) or not board.in_fight(target) or not is_target(target):
            return Rejection("SG-LF-01", f"{target_name} is not an enemy in the fight to drop on")
        solution = _first_drop(state, dropper, target, str(weapon), count, over)
        if not solution.allowed:
            return Rejection(solution.clause, solution.reason)
        dropper = dropper.with_items(*(replace(dropper.item(i), state=SPENT[solution.weapon]) for i in solution.items))
    return None


def _first_drop(
    state: State,
    dropper: ShipRecord,
    target: ShipRecord,
    weapon: str,
    count: int,
    over: Sequence[Pass],
) -> ordnance.DropSolution:
    """The drop at the first hex of the path where the rules allow it, or the refusal at the target's hex."""
    rules = queries.rules(state)
    mp = target_mp(state.board, target)
    refusal: ordnance.DropSolution | None = None
    for where in over:
        if where.hex != target.position:
            continue
        there = replace(dropper, position=where.hex, altitude=where.altitude)
        solution = ordnance.drop_solution(there, target, weapon, count=count, target_mp=mp, rules=rules)
        if solution.allowed:
            return solution
        refusal = refusal or solution
    if refusal is not None:
        return refusal
    return ordnance.DropSolution(
        dropper.name,
        target.name,
        weapon,
        False,
        "SG-LF-01",
        f"the move never passes over {possessive(target.name)} hex",
    )


def after_step(ctx: Ctx, name: str, before: ShipRecord, step: movement.Step, drops: Drops) -> bool:
    """After one step of ``name``'s move: drops on the hex it has just left (SG-LF-01..04), then the mines
    and drogues it met or brought onto another ship (SG-TM-07/08, SG-DT-05/06). True when a device went
    off on the mover: its move ends there."""
    if step.token == movement.AHEAD and drops.waiting:
        _drop_over(ctx, name, before, before.facing, drops)
    if step.ends or not (step.enters_hex or step.changes_altitude):
        return False
    after = ctx.board.ship(name)
    if not after.afloat:
        return False
    if not any(map(ordnance.live_devices, ctx.board.ships)):
        # No mine raised or drogue lowered anywhere (the mover's own are on the board too): each contact below is
        # with one, so there is none. Most steps of most battles meet none, and finding them was a tenth of a
        # move's cost (test_engine_shortcuts).
        return False
    ships = ctx.board.by_name
    contacts = ordnance.device_contacts(ships, name, before, after) + ground_contacts(ctx.board, name, before, after)
    if not contacts:
        return False
    records, happened, struck = ordnance.spring_devices(
        ships, contacts, now=queries.now(ctx.state), roller=basics.roller(ctx), rules=queries.rules(ctx.state)
    )
    basics.commit(ctx, records, happened)
    return name in struck


def ground_contacts(board: Board, mover: str, before: ShipRecord, after: ShipRecord) -> list[ordnance.Contact]:
    """Arriving at mines tethered on the ground: they go off for certain (SG-TM-07, SG-CG-38)."""
    found: list[ordnance.Contact] = []
    for field_ in board.emplacements():
        if field_.emplacement != MINEFIELD or not field_.items_of(*MINES, states=("raised",)):
            continue
        level = altitude_level(field_.altitude) + oint("tether_mines", "levels_above_owner")
        if _at(after, field_.position, level) and not _at(before, field_.position, level):
            found.append(ordnance.Contact(mover, field_.name, ordnance.MINE_GROUP, True, 0, ("SG-TM-07", "SG-CG-38")))
    return found


def _at(record: ShipRecord, hex_: Hex | None, level: int) -> bool:
    return record.afloat and record.position == hex_ and altitude_level(record.altitude) == level


def _drop_over(ctx: Ctx, name: str, dropper: ShipRecord, exits: int | None, drops: Drops) -> None:
    """Make the waiting drops whose target lies below the dropper in the hex it leaves (or ends in)."""
    for target_name, weapon, count in list(drops.waiting):
        target = ctx.board.ship(target_name)
        if target.position != dropper.position:
            continue
        here = replace(ctx.board.ship(name), position=dropper.position, altitude=dropper.altitude)
        solution = ordnance.drop_solution(
            here, target, weapon, count=count, target_mp=target_mp(ctx.board, target), rules=queries.rules(ctx.state)
        )
        if not solution.allowed:
            continue
        drops.waiting.remove((target_name, weapon, count))
        ctx.emit(
            "drop",
            {
                "ship": name,
                "target": target_name,
                "weapon": weapon,
                "items": list(solution.items),
                "clauses": ["SG-LF-01", "SG-CG-66", "SG-CG-75"],
            },
            ships=[name, target_name],
        )
        records, happened = ordnance.drop(
            ctx.board.by_name,
            solution,
            exits_across=exits if target.emplacement is None else None,  # the ground has no bow (SG-LF-04)
            now=queries.now(ctx.state),
            roller=basics.roller(ctx),
            rules=queries.rules(ctx.state),
        )
        basics.commit(ctx, records, happened)


def move_ended(ctx: Ctx, name: str, drops: Drops, hexes: int) -> None:
    """The end of a move of ``hexes`` hexes: drops on a target in the hex it ends in (having entered it);
    the rest were never over their target."""
    if not drops.waiting:
        return
    record = ctx.board.ship(name)
    if record.afloat and record.position is not None and hexes:
        _drop_over(ctx, name, record, None, drops)
    for target_name, weapon, _ in drops.waiting:
        happened = [
            combat.note(
                f"{name} never came over {target_name} to drop its {weapon}",
                ship=name,
                clauses=["SG-LF-01"],
                outcome="not dropped",
            )
        ]
        basics.commit(ctx, {}, happened)
    drops.waiting.clear()


# --- Smutts torpedoes -------------------------------------------------------------------------------------


def due(state: State) -> list[Torpedo]:
    """Torpedoes whose run is due: the first at once after launch, then one a turn (SG-SMT-03)."""
    return [t for t in state.board.torpedoes if t.runs < state.turn - t.launched + 1]


def _avoid_options(state: State, record: ShipRecord) -> list[JSON] | None:
    """A threatened ship's answers, or None when it cannot avoid (stunned, stopped) or already does."""
    board = state.board
    if not board.in_fight(record) or record.name in board.avoiding:
        return None
    ok, clause = ordnance.may_avoid(record, now=queries.now(state))
    if ok:
        return [{"ship": record.name, "avoid": False}, {"ship": record.name, "avoid": True}]
    if clause == "SG-TM-04":  # it may cut its mines loose first (SG-TM-05)
        return [{"ship": record.name, "avoid": False}, {"ship": record.name, "avoid": True, "cut_mines": True}]
    return None


def run_torpedoes(ctx: Ctx) -> bool:
    """Run every torpedo that is due, asking the threatened ships first (SG-SMT-03/05). True when a
    decision is open (the stage is then TORPEDOES), False when all have run."""
    while True:
        torpedoes = due(ctx.state)
        if not torpedoes:
            return False
        torpedo = torpedoes[0]
        threatened = ordnance.torpedo_threats(ctx.board.by_name, torpedo, ctx.board.terrain)
        asked = [(n, o) for n in threatened if (o := _avoid_options(ctx.state, ctx.board.ship(n))) is not None]
        if asked:
            basics.stage(ctx, TORPEDOES, asking=torpedo.id)
            for name, options in asked:
                record = ctx.board.ship(name)
                mp = close_action.avoidance_mp(queries.speed(record, ctx.board))
                ctx.request(
                    record.side,
                    AVOID_TORPEDO,
                    rule="SG-SMT-05",
                    options=options,
                    prompt=f"Smutts torpedo {torpedo.id} runs at {name}: avoid it, as a ram? ({mp} movement points "
                    "this turn if it reaches her)",
                    ships=[name, torpedo.owner],
                )
            return True
        _run(ctx, torpedo, {})


def torpedo_stage(rs: Play, ctx: Ctx) -> None:
    """The answers are in: cut mines where asked, run the torpedo, go on with the next or the sequence."""
    torpedo = next((t for t in ctx.board.torpedoes if t.id == ctx.board.asking), None)
    avoiding: dict[str, int] = {}
    for answer in ctx.board.decided:
        if answer.kind != AVOID_TORPEDO:
            continue
        choice = _object(answer.choice)
        name = str(choice["ship"])
        if choice.get("cut_mines"):
            cut_loose(ctx, name)
        if choice["avoid"] is True:
            avoiding[name] = close_action.avoidance_mp(queries.speed(ctx.board.ship(name), ctx.board))
    if torpedo is not None:
        _run(ctx, torpedo, avoiding)
    if run_torpedoes(ctx):
        return
    if rs.check_victory(ctx):
        return
    if ctx.board.phase_no == 0:  # the runs at the start of the turn: on to the plotted moves or the first phase
        rs.moves_begin(ctx)
    else:  # the first runs after a fire step: on to the end of the phase
        from battles.rules.sky_galleons.kinds import PHASE_END  # the ruleset builds on this module

        basics.stage(ctx, PHASE_END)


def _run(ctx: Ctx, torpedo: Torpedo, chosen: Mapping[str, int]) -> None:
    """One run (ordnance.run_torpedo); ships avoiding already this turn avoid it too, at no new cost."""
    avoiding = {**ctx.board.avoiding, **chosen}
    run = ordnance.run_torpedo(
        ctx.board.by_name,
        torpedo,
        terrain=ctx.board.terrain,
        avoiding=avoiding,
        now=queries.now(ctx.state),
        roller=basics.roller(ctx),
        rules=queries.rules(ctx.state),
    )
    ctx.emit(
        "torpedo run",
        {"torpedo": torpedo.id, "struck": run.struck, "clauses": ["SG-SMT-03", "SG-SMT-04"]},
        ships=[torpedo.owner, *([run.struck] if run.struck else [])],
    )
    basics.commit(ctx, run.records, run.happened)
    for name in run.avoided:
        if name not in ctx.board.avoiding:
            ctx.emit("avoiding", {"ship": name, "mp": chosen[name], "clauses": ["SG-SMT-05"]}, ships=[name])
    ctx.emit("torpedo", {"id": torpedo.id, "torpedo": None if run.torpedo is None else run.torpedo.to_json()})


def fold_torpedo(board: Board, data: Mapping[str, JSON]) -> tuple[Torpedo, ...]:
    """Board.torpedoes after a ``torpedo`` event: the torpedo added or moved on, or gone (None)."""
    ident = str(data["id"])
    kept = tuple(t for t in board.torpedoes if t.id != ident)
    if data["torpedo"] is None:
        return kept
    return (*kept, Torpedo.from_json(data["torpedo"]))


# --- fire -------------------------------------------------------------------------------------------------


def fire_solution(
    firer: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules,
    same_hex: tuple[str, str] | None = None,
    ammunition: str = "shell",
    rate: str = "normal",
) -> FireSolution:
    """combat.fire_solution, with ground batteries firing high-angle (SG-GB-01/02) and mines on the ground
    never a target (SG-TM-12).

    A declared shot's solution is found when its answer is checked and again when the volley is resolved, of the
    same records: it depends on its arguments alone (records, moment and rules are immutable), so the last few
    are kept (battles.engine.memo)."""
    same, equal = (firer, target), (gun_id, now, rules, same_hex, ammunition, rate)
    found = _SOLUTIONS.recall(same, equal)
    if found is None:
        found = _fire_solution(
            firer, gun_id, target, now=now, rules=rules, same_hex=same_hex, ammunition=ammunition, rate=rate
        )
        _SOLUTIONS.keep(same, equal, found)
    return found


_SOLUTIONS: Recent[FireSolution] = Recent(32)  # pairs of ships: both sides' shots, checked and then fired


def _fire_solution(
    firer: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules,
    same_hex: tuple[str, str] | None,
    ammunition: str,
    rate: str,
) -> FireSolution:
    if not is_target(target):
        return FireSolution(firer.name, gun_id, target.name, False, "SG-TM-12", "tether mines are hit by nothing")
    if firer.emplacement == BATTERY:
        return ordnance.battery_fire_solution(
            firer, gun_id, target, now=now, rules=rules, ammunition=ammunition, rate=rate
        )
    if firer.emplacement is not None:
        return FireSolution(firer.name, gun_id, target.name, False, "SG-GB-01", f"{firer.name} has no guns")
    return combat.fire_solution(
        firer, gun_id, target, now=now, rules=rules, same_hex=same_hex, ammunition=ammunition, rate=rate
    )


LOADED = Moment(10**6)  # a moment at which every gun has long since reloaded


def battery_reach(
    battery: ShipRecord, gun_id: str, target: ShipRecord, rules: CombatRules | None
) -> FireSolution | None:
    """The shot a ground battery's gun would have at ``target`` where it is, loaded or not (SG-GB-01/02): what a
    captain weighs before it ends a move there. None when the gun cannot fire at it there."""
    solution = ordnance.battery_fire_solution(battery, gun_id, target, now=LOADED, rules=rules)
    return solution if solution.allowed else None


def ground_solutions(state: State, side: str) -> list[FireSolution]:
    """The solutions ``SkyGalleons.solutions`` leaves to this module: the side's ships at enemy batteries
    and target hexes (SG-BOMB-02, SG-GB-03), and the side's batteries at every enemy (SG-GB-01/02)."""
    board, now, rules = state.board, queries.now(state), queries.rules(state)
    ground = [s for s in board.emplacements() if s.side != side and is_target(s)]
    vessels = [s for s in board.fighting() if s.side != side and not queries.friends_aboard(state, side, s.name)]
    pairs = [(ship, target) for ship in board.fighting(side) for target in ground]
    pairs += [(b, t) for b in board.emplacements(side) if b.emplacement == BATTERY for t in vessels + ground]
    found = []
    for firer, target in pairs:
        for gun in combat.firing_ids(firer):
            if firer.emplacement is None and (  # a ship's gun refused anyway: its solution is not worked out
                combat.gun_idle(firer, gun, now=now, rules=rules)
                or combat.out_of_reach(firer, gun, target, rules=rules)
            ):
                continue
            solution = fire_solution(
                firer, gun, target, now=now, rules=rules, same_hex=board.relative(firer.name, target.name)
            )
            if solution.allowed:
                found.append(solution)
    return found


def special_shot(board: Board, shot: JSON) -> bool:
    """A shot this module declares and resolves: a Hale salvo, a Smutts launch, a grapnel shot."""
    if not isinstance(shot, dict):
        return False
    if "battery" in shot or "launch" in shot:
        return True
    ship = board.by_name.get(str(shot.get("ship")))
    gun = next((g for g in ship.guns if g.id == str(shot.get("gun"))), None) if ship is not None else None
    return gun is not None and (ordnance.is_grapnel(gun) or ordnance.is_discharger(gun))


@dataclass(frozen=True)
class Special:
    """A special shot as declared: its kind ("rockets", "launch", "grapnel") and its solution."""

    kind: str
    firer: str
    gun: str
    rocket: RocketSolution | None = None
    grapnel: FireSolution | None = None


def special_problem(state: State, side: str, shots: Sequence[JSON]) -> Rejection | None:
    """The special shots of a fire declaration: each battery and each gun once, a free deckhand for every
    battery fired (SG-HALE-09), and each allowed now (SG-HALE-02..06, SG-SMT-02/09, SG-PG-01..05)."""
    board = state.board
    used: set[tuple[str, str]] = set()
    batteries: dict[str, int] = {}
    for shot in shots:
        if not special_shot(board, shot):
            continue
        assert isinstance(shot, dict)
        found = _declare_special(state, side, shot)
        if isinstance(found, Rejection):
            return found
        key = (found.firer, found.gun)
        if key in used:
            return Rejection("SG-FIRE-04", f"{found.firer} {found.gun} fires once, at one target")
        used.add(key)
        if found.kind == "rockets":
            batteries[found.firer] = batteries.get(found.firer, 0) + 1
    for name, count in batteries.items():
        problem = ordnance.rocket_crew_problem(board.ship(name), count)
        if problem is not None:
            return Rejection("SG-HALE-09", problem)
    return None


def _declare_special(state: State, side: str, shot: Mapping[str, JSON]) -> Special | Rejection:
    board, now = state.board, queries.now(state)
    kind = "rockets" if "battery" in shot else "launch" if "launch" in shot else "grapnel"
    keys = {"rockets": {"ship", "battery", "target"}, "launch": {"ship", "gun", "launch"}}.get(
        kind, {"ship", "gun", "target"}
    )
    if set(shot) != keys:
        return Rejection("SG-SEQ-05", f"a shot is {SHOT_SHAPES}")
    name = str(shot["ship"])
    firer = board.by_name.get(name)
    if firer is None or firer.side != side or not board.in_fight(firer) or firer.emplacement is not None:
        return Rejection("SG-SEQ-05", f"{name} is not one of your ships in the fight")
    if kind == "launch":
        gun = str(shot["gun"])
        if shot["launch"] is not True:
            return Rejection("SG-SMT-02", 'a Smutts discharger launches: {"ship", "gun", "launch": true}')
        problem = ordnance.launch_problem(firer, gun, now=now)
        if problem is not None:
            return Rejection(*problem)
        return Special("launch", name, gun)
    target_name = str(shot["target"])
    target = board.by_name.get(target_name)
    if target is None or board.ally(side, target) or not board.in_fight(target) or not is_target(target):
        return Rejection("SG-FIRE-04", f"{target_name} is not an enemy in the fight")
    if queries.friends_aboard(state, side, target_name):
        return Rejection("SG-ERR-06", f"your boarders are aboard {target_name}: no ship fires at her")
    same_hex = board.relative(name, target_name)
    if kind == "rockets":
        battery = str(shot["battery"])
        rocket = ordnance.rocket_solution(firer, battery, target, now=now, same_hex=same_hex)
        if not rocket.allowed:
            return Rejection(rocket.clause, rocket.describe)
        return Special("rockets", name, battery, rocket=rocket)
    gun = str(shot["gun"])
    if ordnance.is_discharger(firer.gun(gun)):
        return Rejection("SG-SMT-02", 'a Smutts discharger launches: {"ship", "gun", "launch": true}')
    grapnel = ordnance.grapnel_solution(firer, gun, target, now=now, rules=queries.rules(state), same_hex=same_hex)
    if not grapnel.allowed:
        return Rejection(grapnel.clause, grapnel.describe)
    return Special("grapnel", name, gun, grapnel=grapnel)


def declared(state: State, shots: Sequence[JSON]) -> list[Special]:
    """The special shots of a side's (validated) declaration, their solutions found now (simultaneous fire)."""
    found = []
    for shot in shots:
        if special_shot(state.board, shot):
            assert isinstance(shot, dict)
            special = _declare_special(state, state.board.ship(str(shot["ship"])).side, shot)
            if isinstance(special, Special):
                found.append(special)
    return found


def resolve_specials(ctx: Ctx, specials: Sequence[Special]) -> None:
    """Salvoes, launches and grapnel shots, after the guns of the same fire step."""
    now, roller, rules = queries.now(ctx.state), basics.roller(ctx), queries.rules(ctx.state)
    for special in specials:
        firer = ctx.board.ship(special.firer)
        if special.kind == "rockets":
            _rockets(ctx, special, firer, now=now, roller=roller, rules=rules)
        elif special.kind == "launch":
            _launch(ctx, special, firer, now=now)
        else:
            _grapnel(ctx, special, now=now, roller=roller)


def _rockets(ctx: Ctx, special: Special, firer: ShipRecord, *, now: Moment, roller: Roller, rules: CombatRules) -> None:
    """A Hale battery's salvo touched off, if the battery is still there (SG-HALE-01/10/11)."""
    assert special.rocket is not None
    item = firer.item(special.gun)
    ctx.emit(
        "rockets",
        {
            "ship": firer.name,
            "battery": special.gun,
            "target": special.rocket.target,
            "clauses": ["SG-HALE-01"],
        },
        ships=[firer.name, special.rocket.target],
    )
    if item.state in GONE:  # it went up or was shot away before its salvo was touched off
        note = combat.note(
            f"{possessive(firer.name)} battery {item.id} is {item.state}: no salvo",
            ship=firer.name,
            clauses=["SG-HALE-10", "SG-HALE-11"],
            outcome="no salvo",
        )
        basics.commit(ctx, {}, [note])
        return
    records, happened = ordnance.fire_rockets(ctx.board.by_name, special.rocket, now=now, roller=roller, rules=rules)
    basics.commit(ctx, records, happened)


def _launch(ctx: Ctx, special: Special, firer: ShipRecord, *, now: Moment) -> None:
    """A Smutts torpedo launched, unless something now forbids it (SG-SMT-02)."""
    ctx.emit("launch", {"ship": firer.name, "gun": special.gun, "clauses": ["SG-SMT-02"]}, ships=[firer.name])
    problem = ordnance.launch_problem(firer, special.gun, now=now)
    if problem is not None:
        basics.commit(
            ctx,
            {},
            [combat.note(f"no launch: {problem[1]}", ship=firer.name, clauses=[problem[0]], outcome="no launch")],
        )
        return
    launched, torpedo, happened = ordnance.launch_torpedo(firer, special.gun, now=now)
    basics.commit(ctx, {firer.name: launched}, happened)
    ctx.emit("torpedo", {"id": torpedo.id, "torpedo": torpedo.to_json()}, ships=[firer.name])


def _grapnel(ctx: Ctx, special: Special, *, now: Moment, roller: Roller) -> None:
    """A grapnel shot from a portable gun (SG-PG-01/05)."""
    assert special.grapnel is not None
    solution = special.grapnel
    ctx.emit(
        "fire",
        {
            "ship": solution.firer,
            "gun": solution.gun_id,
            "target": solution.target,
            "range": solution.effective_range,
            "band": solution.band,
            "shots": solution.shots,
            "clauses": ["SG-PG-01", "SG-PG-05"],
        },
        ships=[solution.firer, solution.target],
    )
    records, happened = ordnance.fire_grapnel(ctx.board.by_name, solution, now=now, roller=roller)
    basics.commit(ctx, records, happened)


def special_ready(state: State, side: str) -> bool:
    """Has the side a special shot to declare: a Smutts discharger ready to launch (it needs no target), a
    Hale battery or a power grapnel that may fire at an enemy? (The side is then asked to declare fire.)"""
    board, now = state.board, queries.now(state)
    marks = [s for s in (*board.fighting(), *board.emplacements()) if s.side != side and is_target(s)]
    for ship in board.fighting(side):
        for gun in ship.guns:
            if ordnance.is_discharger(gun) and ordnance.launch_problem(ship, gun.id, now=now) is None:
                return True
            if ordnance.is_grapnel(gun) and any(
                ordnance.grapnel_solution(ship, gun.id, m, now=now, rules=queries.rules(state)).allowed for m in marks
            ):
                return True
        for battery in ship.items_of(HALE, states=("loaded",)):
            if any(ordnance.rocket_solution(ship, battery.id, m, now=now).allowed for m in marks):
                return True
    return False


def fire_candidates(state: State, side: str) -> list[JSON]:
    """The AI's salvoes and launches as one declaration, if it has any."""
    shots = ai_special_shots(state, side)
    return [{"shots": shots}] if shots else []


# --- victory and outcome ----------------------------------------------------------------------------------


def _defender(board: Board) -> str | None:
    return next((s.side for s in board.ships if s.emplacement in TARGET_KINDS and s.side != board.victory_side), None)


def bombardment_over(ctx: Ctx) -> bool:
    """SG-SCN-25: the bombarding side wins once every target hex has its points; it loses with no ship left
    in the fight. True if the battle ended."""
    board = ctx.board
    side = board.victory_side
    targets = [s for s in board.ships if s.emplacement in TARGET_KINDS and s.side != side]
    if all(not s.afloat for s in targets):
        basics.end(ctx, side, f"every target hex bombarded ({len(targets)})", ["SG-SCN-25"])
        return True
    if not board.fighting(side):
        basics.end(ctx, _defender(board), "the bombardment failed: no ship left to carry it on", ["SG-SCN-25"])
        return True
    return False


def turn_limit_winner(board: Board) -> str | None:
    """Who wins when the turns run out: the defender of a bombardment (SG-SCN-25), else nobody."""
    return _defender(board) if board.victory == BOMBARDMENT else None


def outcome_extra(board: Board) -> dict[str, Any]:
    """The ground in the outcome: each battery, mines and target hex, its fate and damage points."""
    ground = [s for s in board.ships if s.emplacement is not None]
    if not ground:
        return {}
    found = []
    for record in ground:
        entry: dict[str, Any] = {
            "name": record.name,
            "side": record.side,
            "kind": record.emplacement,
            "hex": list(hexgrid.to_odd_q(record.position)) if record.position is not None else None,
            "fate": "destroyed" if not record.afloat else "out of action" if record.fire else "standing",
        }
        if record.emplacement in TARGET_KINDS:
            scored, needed = ordnance.bombardment_points(record)
            entry.update(points=scored, needed=needed)
        found.append(entry)
    return {"ground": found}


# --- the AI captain ---------------------------------------------------------------------------------------


def near(a: ShipRecord, b: ShipRecord) -> int:
    if a.position is None or b.position is None:
        return 99
    return hexgrid.distance(a.position, b.position)


def ai_avoid(request: DecisionRequest, wanted: bool) -> JSON:
    """A ram's target that wants to avoid but holds its mines raised cuts them loose first (SG-TM-05)."""
    options = list(request.options or ())
    if wanted and True not in options and CUT_AND_AVOID in options:
        return CUT_AND_AVOID
    return wanted


def avoid_options(target: ShipRecord) -> list[JSON]:
    """The answers to a ram or grapple: avoid or not; with mines raised, cut them loose and avoid (SG-TM-04/05)."""
    if ordnance.movement_limits(target).may_avoid:
        return [False, True]
    return [False, CUT_AND_AVOID]


def cut_before_avoiding(ctx: Ctx, name: str, choice: JSON) -> bool:
    """The ram's target answered 'cut mines and avoid': the mines go (SG-TM-05/10), then it avoids."""
    if choice != CUT_AND_AVOID:
        return False
    cut_loose(ctx, name)
    return True


def ai_avoid_torpedo(request: DecisionRequest) -> JSON:
    """Always dodge a torpedo: a hit is DV 12 and a loss of trim, the cost half a turn's movement."""
    options = list(request.options or ())
    return options[-1] if options else request.default


def device_spots(board: Board, mover: str) -> dict[tuple[Hex, int], float]:
    """Where the other ships' live devices hang and what entering each risks (SG-TM-07, SG-DT-05)."""
    spots: dict[tuple[Hex, int], float] = {}
    above, below = oint("tether_mines", "levels_above_owner"), oint("drogue_torpedoes", "levels_below_owner")
    for ship in board.ships:
        if ship.name == mover or ship.position is None or not ship.afloat:
            continue
        level = altitude_level(ship.altitude)
        if ship.items_of(*MINES, states=("raised",)):
            spots[(ship.position, level + above)] = MINE_RISK
        if ship.emplacement is None and ship.items_of(DROGUE, states=("lowered",)):
            key = (ship.position, level - below)
            spots[key] = max(spots.get(key, 0.0), DROGUE_RISK)
    return spots


def target_weight(board: Board, side: str, target: str) -> float:
    """What the AI's guns make of a target: a hex it must bombard counts double, any other city or fortress
    hex nothing (no point shelling it), ships and batteries as they are."""
    record = board.by_name.get(target)  # a flying party is not on the board's ships
    if record is not None and record.emplacement in TARGET_KINDS:
        return BOMBARD_WEIGHT if bombarding(board, side) and record.side != side else 0.0
    return 1.0


def bombard_goal(board: Board, ship: ShipRecord) -> ShipRecord | None:
    """A bombarding ship's target: the nearest hex still to bombard (SG-SCN-25), aimed at the height the
    captain keeps over it (bombard_height) rather than coming down to the hex."""
    goals = bombard_targets(board, ship.side)
    if not goals or ship.position is None:
        return None
    goal = min(goals, key=lambda g: (near(ship, g), g.name))
    return replace(goal, altitude=bombard_height(ship, goal.altitude))


def bombard_height(ship: ShipRecord, ground: str) -> str:
    """The height a bombarding captain holds over ground at ``ground``: AIM_ABOVE levels up for a ship that
    carries drops (they tell less the higher it is, SG-LF-01, SG-ERR-19); a ship with guns only as high as
    it flies and its guns still reach the ground at close range (SG-FIRE-13: a hex below is fired at only
    from as many hexes off as it lies levels below), where the ground's batteries reach least (SG-GB-02)."""
    levels = altitude_levels()
    low = altitude_level(ground)
    if any(ship.items_of(w, states=("loaded",)) for w in (LIQUID_FIRE, SPIKES, BOMB_RACK)):
        return levels[min(low + AIM_ABOVE, len(levels) - 1)]
    reach = [
        g.weapon.range_hexes.close
        for g in ship.guns
        if not g.destroyed
        and g.damage_value is not None
        and g.weapon.range_hexes is not None
        and g.weapon.range_hexes.close
    ]
    ceiling = ship.max_altitude or ship.altitude
    top = min(altitude_level(ceiling), low + max(reach, default=AIM_ABOVE))
    return levels[max(top, min(low + 1, len(levels) - 1))]


def ground_foes(board: Board, side: str) -> list[ShipRecord]:
    """The ground a captain weighs when it moves: enemy batteries (their guns threaten it) and the hexes it
    must bombard."""
    batteries = [s for s in board.emplacements() if s.side != side and s.emplacement == BATTERY]
    return batteries + bombard_targets(board, side)


def ai_special_shots(state: State, side: str) -> list[JSON]:
    """Every loaded Hale battery that bears, at the nearest enemy it reaches (ships first), within the free
    deckhands (SG-HALE-09); a Smutts torpedo launched when its next runs reach an enemy and no friend."""
    board, now = state.board, queries.now(state)
    enemies = [s for s in board.fighting() if s.side != side and not queries.friends_aboard(state, side, s.name)]
    ground = [s for s in board.emplacements() if s.side != side and s.emplacement == BATTERY]
    goals = bombard_targets(board, side)
    ground += goals
    shots: list[JSON] = []
    for ship in board.fighting(side):
        hands = ordnance.free_deckhands(ship)
        for battery in ship.items_of(HALE, states=("loaded",)):
            if hands <= 0:
                break
            marks = sorted(enemies, key=lambda e: (near(ship, e), e.name)) + sorted(
                ground, key=lambda g: (near(ship, g), g.name)
            )
            if goals:  # a bombarding side keeps its rockets for the hexes it must hit, a point a rocket (SG-BOMB-02)
                marks = sorted(goals, key=lambda g: (near(ship, g), g.name))
            for mark in marks:
                solution = ordnance.rocket_solution(
                    ship, battery.id, mark, now=now, same_hex=board.relative(ship.name, mark.name)
                )
                if solution.allowed:
                    shots.append({"ship": ship.name, "battery": battery.id, "target": mark.name})
                    hands -= 1
                    break
        for gun in ship.guns:
            ready = ordnance.is_discharger(gun) and ordnance.launch_problem(ship, gun.id, now=now) is None
            if ready and _worth_launching(board, ship):
                shots.append({"ship": ship.name, "gun": gun.id, "launch": True})
    return shots


def _worth_launching(board: Board, ship: ShipRecord) -> bool:
    """The torpedo's next TORPEDO_LOOK runs, as things stand, reach an enemy and no friend."""
    assert ship.position is not None
    torpedo = Torpedo("look", ship.name, ship.side, ship.position, ship.facing, ship.altitude, 0)
    foes = friends = 0
    for _ in range(TORPEDO_LOOK):
        for name in ordnance.torpedo_threats(board.by_name, torpedo, board.terrain):
            record = board.ship(name)
            if board.ally(ship.side, record) or not board.in_fight(record):
                friends += 1
            else:
                foes += 1
        hexes, end = ordnance.torpedo_path(torpedo, board.terrain)
        if end or not hexes:
            break
        torpedo = replace(torpedo, hex=hexes[-1])
    return foes > 0 and friends == 0


__all__ = [
    "AVOID_TORPEDO",
    "BOMBARDMENT",
    "CUT_AND_AVOID",
    "ORDER_KEYS",
    "TORPEDOES",
    "Drops",
    "Special",
]


# --- the fold -----------------------------------------------------------------------------------------------


def _torpedo(state: State, event: Event) -> Board:
    return state.board.evolve(torpedoes=fold_torpedo(state.board, event.data))


FOLDS: Mapping[str, Fold] = {"torpedo": _torpedo}
