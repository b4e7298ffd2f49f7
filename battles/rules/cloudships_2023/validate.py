"""Judging answers, each refusal naming its clause, and the legal answers an AI may pick from. The go-ahead to
turn the next card lists its only answer and the engine checks it. The move (CM-SEQ-06) is open-ended: a plan
of steps traced by manoeuvre.py, with a ram declared on a ship whose hex it enters at her band (CM-RAM-01). The
fire orders and the return fire are open-ended too (``{"shots": [{"ship", "gun", "target"}]}``).

``candidates`` gives an AI or a random player legal answers to pick from: a plan for each place a move can end
(and rams); hold fire, each gun alone at each target it may fire at, and every gun that may fire at one target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import deployed, firing, manoeuvre, ordnance
from battles.rules.cloudships_2023.board import (
    Board,
    FlightOrders,
    FlightShot,
    MoveOrder,
    OrdnanceOrders,
    Ship,
    Shot,
    flight_shot,
)
from battles.rules.cloudships_2023.kinds import (
    AT_FLIGHTS_KEY,
    FIRE_ORDERS,
    FLIGHTS_DECISION,
    FLIGHTS_KEY,
    GUN_IN_CAPITALS,
    HIT_FIRST,
    MOVE_DECISION,
    ORDNANCE_DECISION,
    REALLY_LOW_BAND,
    RETURN_FIRE,
)
from battles.rules.cloudships_2023.manoeuvre import AHEAD, LEFT_MAP, Mover, PlanError, Step

MOVE_SHAPE = f'a move is a list of steps ({", ".join(manoeuvre.STEPS)}), or {{"steps": [...], "ram": ship}}'
MOST_RAMS = 3  # candidates: ram plans kept for each target
FIRE_DECISIONS = (FIRE_ORDERS, RETURN_FIRE)
FIRE_KEYS = frozenset({"shots", HIT_FIRST, FLIGHTS_KEY, AT_FLIGHTS_KEY})  # the GUN option's, the flights'


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind == MOVE_DECISION:
        return move_problem(state, request.ships[0], choice)
    if request.kind in FIRE_DECISIONS:
        return (
            fire_problem(state.board, request, choice)
            or hit_first_problem(state, request, choice)
            or flight_shots_problem(state.board, request, choice)
        )
    if request.kind == ORDNANCE_DECISION:
        return ordnance_problem(state, request.ships[0], choice)
    if request.kind == FLIGHTS_DECISION:
        return flight_orders_problem(state.board, request.ships[0], choice)
    return None


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    if request.kind == MOVE_DECISION:
        return move_candidates(state, request.ships[0])
    if request.kind in FIRE_DECISIONS:
        return fire_candidates(state.board, request)
    if request.kind == ORDNANCE_DECISION:
        return ordnance_candidates(state, request.ships[0])
    if request.kind == FLIGHTS_DECISION:
        return flight_orders_candidates(state.board, request.ships[0])
    return request.options if request.options is not None else [request.default]


# --- the move ---------------------------------------------------------------------------------------------------


def mover_of(state: BattleState[Board], name: str) -> Mover:
    """The active ship and her status this turn, as the tracer needs them."""
    board = state.board
    if board.status is None or board.status.ship != name:
        raise ValueError(f"{name} has no status checked this turn: she is not moving")
    really_low = bool(state.options.get(REALLY_LOW_BAND, False))
    return manoeuvre.mover(board, board.ship_named(name), board.status, really_low=really_low)


def move_problem(state: BattleState[Board], name: str, choice: JSON) -> Rejection | None:
    try:
        order = MoveOrder.from_json(choice)
    except (KeyError, TypeError, ValueError):
        return Rejection("CM-SEQ-06", MOVE_SHAPE)
    move = mover_of(state, name)
    try:
        steps = manoeuvre.trace(move, order.steps)
    except PlanError as error:
        return Rejection(error.clause, error.reason)
    if order.ram is not None:
        return ram_problem(state.board, move, order.ram, steps)
    return None


def ram_problem(board: Board, move: Mover, target: str, steps: Sequence[Step]) -> Rejection | None:
    """A ram is declared on another ship in the fight whose hex the move enters at her band (CM-RAM-01, read
    with the same band: docs/cloudships.md section 3)."""
    others = {ship.name: ship for ship in board.flying() if ship.name != move.name}
    if target not in others:
        return Rejection("CM-RAM-01", f"{target!r} is no other ship in the fight")
    if rammed_at(steps, others[target]) is None:
        return Rejection(
            "CM-RAM-01", f"the move never enters {possessive(target)} hex at her band ({others[target].band})"
        )
    return None


def rammed_at(steps: Sequence[Step], target: Ship) -> Step | None:
    """The step that enters the target's hex at her band, where the ram is tried: the first such."""
    return next((s for s in steps if s.enters_hex and (s.hex, s.band) == (target.hex, target.band)), None)


def left_map(steps: Sequence[Step]) -> bool:
    return bool(steps) and steps[-1].ends == LEFT_MAP


def default_move(state: BattleState[Board], name: str) -> list[str]:
    """The deadline's answer, holding course: straight ahead as far as she may without leaving the map; with her
    Bridge Hit light lit, straight on whatever comes (docs/cloudships.md section 6); else the first legal plan."""
    move = mover_of(state, name)
    straight = [[AHEAD] * hexes for hexes in range(move.status.movement, -1, -1)]
    for plan in straight:
        if _traced(move, plan) is not None and not left_map(_traced(move, plan) or []):
            return plan
    for plan in straight:
        if _traced(move, plan) is not None:
            return plan
    traced = manoeuvre.every_plan(move, most=1)
    return traced[0][0] if traced else []


def _traced(move: Mover, plan: list[str]) -> list[Step] | None:
    try:
        return manoeuvre.trace(move, plan)
    except PlanError:
        return None


def move_candidates(state: BattleState[Board], name: str) -> list[JSON]:
    """Legal moves an AI may pick from: the default move first (straight ahead as far as she may, which the cheapest
    plans may not reach), then a plan for each place the move can end (manoeuvre.every_plan), those off the map
    left out while any other remains, and for each enemy a few rams ending in her hex at her band."""
    move = mover_of(state, name)
    traced = manoeuvre.every_plan(move)
    staying = [(plan, steps) for plan, steps in traced if not left_map(steps)] or traced
    default: JSON = list[JSON](default_move(state, name))
    found: list[JSON] = [default, *(list[JSON](plan) for plan, _ in staying if plan != default)]
    for target in state.board.flying():
        if target.side == move.ship.side:
            continue
        rams = [plan for plan, steps in staying if steps and rammed_at(steps, target) is steps[-1]]
        found += [MoveOrder(tuple(plan), target.name).to_json() for plan in rams[:MOST_RAMS]]
    return found


# --- fire orders and return fire (CM-SEQ-07..10) ---------------------------------------------------------------


def firer_of(request: DecisionRequest) -> str:
    """The ship a fire decision is for: the one ship it names."""
    return request.ships[0]


def targets_for(board: Board, request: DecisionRequest) -> tuple[Ship, ...]:
    """Whom the decision's ship may aim at: any enemy for the active ship (CM-SEQ-07); the active ship alone
    for a ship fired on (CM-SEQ-08)."""
    firer = board.ship_named(firer_of(request))
    if request.kind == RETURN_FIRE and board.active is not None:
        return (board.ship_named(board.active),)
    return firing.enemies(board, firer)


def fire_problem(board: Board, request: DecisionRequest, choice: JSON) -> Rejection | None:
    shots = read_shots(choice)
    if shots is None:
        return Rejection(request.rule, 'fire orders are {"shots": [{"ship": ..., "gun": ..., "target": ...}]}')
    firer = board.ship_named(firer_of(request))
    targets = {ship.name for ship in targets_for(board, request)}
    numbers = [shot.gun for shot in shots]
    if len(set(numbers)) != len(numbers):
        return Rejection("CM-FIRE-01", "each gun fires once")
    for shot in shots:
        problem = shot_problem(board, request, firer, shot, targets)
        if problem is not None:
            return problem
    return None


def shot_problem(
    board: Board, request: DecisionRequest, firer: Ship, shot: Shot, targets: set[str]
) -> Rejection | None:
    if shot.ship != firer.name:
        return Rejection(request.rule, f"these orders are {possessive(firer.name)}: {shot.ship} is not hers to fire")
    if shot.gun not in {gun.number for gun in firer.panel.guns}:
        return Rejection("CM-SEQ-01", f"{firer.name} has no gun {shot.gun}")
    if shot.target not in targets:
        if request.kind == RETURN_FIRE:
            return Rejection("CM-SEQ-08", f"return fire is only at the active ship, not {shot.target}")
        return Rejection("CM-SEQ-07", f"{shot.target} is not an enemy ship in the fight")
    found = firing.refusal(board, firer, firer.gun(shot.gun), board.ship_named(shot.target))
    return None if found is None else Rejection(found.clause, found.reason)


def read_shots(choice: JSON) -> tuple[Shot, ...] | None:
    """The shots of an answer, or None if it is not shaped as fire orders."""
    shaped = isinstance(choice, Mapping) and "shots" in choice and set(choice) <= FIRE_KEYS
    if not shaped or not isinstance(choice, Mapping) or not isinstance(choice["shots"], list):
        return None
    shots = [_shot(item) for item in choice["shots"]]
    return None if any(shot is None for shot in shots) else tuple(s for s in shots if s is not None)


def _shot(item: Any) -> Shot | None:
    if not isinstance(item, Mapping) or set(item) != {"ship", "gun", "target"}:
        return None
    ship, gun, target = item["ship"], item["gun"], item["target"]
    if not isinstance(ship, str) or not isinstance(target, str) or type(gun) is not int:
        return None
    return Shot(ship, gun, target)


def fire_candidates(board: Board, request: DecisionRequest) -> list[JSON]:
    """Hold fire; each gun alone at each target it may fire at; at each target, every gun that may fire at her."""
    firer = board.ship_named(firer_of(request))
    legal = firing.legal_shots(board, firer, targets_for(board, request))
    volleys: list[list[Shot]] = [[], *([shot] for shot in legal)]
    for target in dict.fromkeys(shot.target for shot in legal):
        at_her = [shot for shot in legal if shot.target == target]
        if len(at_her) > 1:
            volleys.append(at_her)
    found: list[JSON] = [{"shots": [shot.to_json() for shot in volley]} for volley in volleys]
    return found + flight_shot_candidates(board, request)


def flight_shot_candidates(board: Board, request: DecisionRequest) -> list[JSON]:
    """Each flight's attack alone, and each gun alone at each enemy flight (the flights slice)."""
    firer = board.ship_named(firer_of(request))
    back = request.kind == RETURN_FIRE
    shots = deployed.legal_flight_shots(board, firer, targets_for(board, request), return_fire=back)
    return [{"shots": [], AT_FLIGHTS_KEY if s.gun else FLIGHTS_KEY: [s.to_json()]} for s in shots]


# --- the GUN option: the guns the firer wants his victim to lose first (CM-GUN-03..05) --------------------------

HIT_FIRST_SHAPE = '"hit_first" is {target: [her gun numbers]}, the guns a GUN box should take first'


def chosen_guns(state: BattleState[Board]) -> bool:
    return bool(state.options.get(GUN_IN_CAPITALS, False))


def hit_first_problem(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    """The fire orders' ``hit_first`` (CM-GUN-03): only with the option agreed before the battle (CM-GUN-05); each
    key a ship the orders fire at, each value a list of her guns, each once."""
    named = choice.get(HIT_FIRST) if isinstance(choice, Mapping) else None
    if named is None:
        return None
    if not chosen_guns(state):
        return Rejection("CM-GUN-05", "the firer chooses the gun lost only if every player agreed it before the battle")
    if not isinstance(named, Mapping):
        return Rejection("CM-GUN-03", HIT_FIRST_SHAPE)
    targets = {ship.name for ship in targets_for(state.board, request)}
    for target, guns in named.items():
        if target not in targets:
            return Rejection("CM-GUN-03", f"{target} is not a ship these orders may fire at")
        numbers = {gun.number for gun in state.board.ship_named(target).panel.guns}
        if not isinstance(guns, list) or any(type(n) is not int or n not in numbers for n in guns):
            return Rejection("CM-GUN-03", f"{HIT_FIRST_SHAPE}: {target} has guns {sorted(numbers)}")
        if len(set(guns)) != len(guns):
            return Rejection("CM-GUN-03", f"{HIT_FIRST_SHAPE}: each gun once")
    return None


# --- mines and torpedoes at the start of a ship's turn (CM-TM-01/02, CM-DT-01, CM-SMT-01) ------------------------

ORDNANCE_SHAPE = 'the orders are {"let_out": [gun], "winch_in": [gun], "launch": [gun]}, each a list of gun numbers'


def really_low(state: BattleState[Board]) -> bool:
    return bool(state.options.get(REALLY_LOW_BAND, False))


def ordnance_problem(state: BattleState[Board], name: str, choice: JSON) -> Rejection | None:
    try:
        orders = OrdnanceOrders.from_json(choice)
    except (KeyError, TypeError, ValueError):
        return Rejection("CM-TM-01", ORDNANCE_SHAPE)
    board = state.board
    found = ordnance.orders_problem(board, board.ship_named(name), orders, really_low=really_low(state))
    return None if found is None else Rejection(found.clause, found.reason)


def ordnance_candidates(state: BattleState[Board], name: str) -> list[JSON]:
    """Leave all as it is; each system alone let out, winched in or launched; everything let out at once."""
    ready = ordnance.choices(state.board, state.board.ship_named(name), really_low=really_low(state))
    found = [
        OrdnanceOrders(),
        *(OrdnanceOrders(let_out=(n,)) for n in ready.let_out),
        *(OrdnanceOrders(winch_in=(n,)) for n in ready.winch_in),
        *(OrdnanceOrders(launch=(n,)) for n in ready.launch),
    ]
    if len(ready.let_out) > 1:
        found.append(OrdnanceOrders(let_out=ready.let_out))
    return [orders.to_json() for orders in found]


# --- Flying Martians deployed (the flights slice: CM-FLY-02..21, CM-FLY-27) ---------------------------------------

FLIGHTS_SHAPE = 'the orders are {"deploy": n, "fly": {flight: [steps]}, "redock": [flight]}'


def flight_orders_problem(board: Board, name: str, choice: JSON) -> Rejection | None:
    try:
        orders = FlightOrders.from_json(choice)
    except (KeyError, TypeError, ValueError):
        return Rejection("CM-FLY-04", FLIGHTS_SHAPE)
    found = deployed.orders_problem(board, board.ship_named(name), orders)
    return None if found is None else Rejection(found.clause, found.reason)


def flight_orders_candidates(board: Board, name: str) -> list[JSON]:
    """Leave all as it is; one flight deployed, or all; each flight out flown home and redocked if it can get
    there, else towards her; each flight out flown towards the nearest enemy."""
    ship = board.ship_named(name)
    found = [FlightOrders()]
    aboard = deployed.aboard_to_deploy(ship)
    found += [FlightOrders(deploy=n) for n in sorted({1, aboard})] if aboard else []
    for flight in board.martians.of(name):
        ends = deployed.every_end(board, flight)
        home = deployed.path_towards(board, flight, (ship.hex, ship.band), ends)
        redock = (flight.number,) if deployed.path_problem(board, flight, home) == (ship.hex, ship.band) else ()
        found.append(FlightOrders(fly=((flight.number, home),), redock=redock))
        enemies = [s for s in board.flying() if s.side != ship.side]
        if enemies:
            nearest = min(enemies, key=lambda s: hexgrid.distance(s.hex, flight.hex))
            found.append(
                FlightOrders(
                    fly=((flight.number, deployed.path_towards(board, flight, (nearest.hex, nearest.band), ends)),)
                )
            )
    return [orders.to_json() for orders in found]


def flight_shots_problem(board: Board, request: DecisionRequest, choice: JSON) -> Rejection | None:
    """The fire orders' flights: each deployed flight once, no more flights aboard than are ready (CM-FLY-27),
    each gun once between ships and flights (CM-FIRE-01), each attack and shot legal (deployed.py)."""
    if not isinstance(choice, Mapping) or not (FLIGHTS_KEY in choice or AT_FLIGHTS_KEY in choice):
        return None
    firer = board.ship_named(firer_of(request))
    try:
        named = [flight_shot(item) for key in (FLIGHTS_KEY, AT_FLIGHTS_KEY) for item in _listed(choice.get(key))]
    except (KeyError, TypeError, ValueError) as error:
        return Rejection("CM-FLY-13", str(error))
    if any(shot.ship != firer.name for shot in named):
        return Rejection(request.rule, f"these orders are {possessive(firer.name)}")
    return _flight_counts_problem(board, firer, named, choice) or _each_flight_shot_problem(
        board, request, firer, named
    )


def _listed(value: JSON) -> list[JSON]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def _flight_counts_problem(board: Board, firer: Ship, named: list[FlightShot], choice: JSON) -> Rejection | None:
    deployed_numbers = [shot.number for shot in named if shot.number and not shot.gun]
    if len(set(deployed_numbers)) != len(deployed_numbers):
        return Rejection("CM-FLY-13", "each flight attacks once")
    if sum(1 for shot in named if shot.number == 0 and not shot.gun) > deployed.aboard_ready(board, firer):
        return Rejection("CM-FLY-27", f"{firer.name} has {deployed.aboard_ready(board, firer)} flights aboard ready")
    guns = [shot.gun for shot in named if shot.gun] + [shot.gun for shot in read_shots(choice) or ()]
    if len(set(guns)) != len(guns):
        return Rejection("CM-FIRE-01", "each gun fires once")
    return None


def _each_flight_shot_problem(
    board: Board, request: DecisionRequest, firer: Ship, named: list[FlightShot]
) -> Rejection | None:
    back = request.kind == RETURN_FIRE
    targets = {ship.name for ship in targets_for(board, request)}
    for shot in named:
        if shot.gun:
            if back:
                return Rejection("CM-SEQ-08", "return fire is only at the active ship, not at a flight")
            if shot.gun not in {gun.number for gun in firer.panel.guns}:
                return Rejection("CM-SEQ-01", f"{firer.name} has no gun {shot.gun}")
            found = deployed.gun_at_flight_refusal(board, firer, firer.gun(shot.gun), shot.flight)
        elif shot.target not in targets:
            return Rejection("CM-SEQ-08" if back else "CM-SEQ-07", f"{shot.target} is not a ship to attack")
        else:
            found = deployed.attack_refusal(board, firer, shot, return_fire=back)
        if found is not None:
            return Rejection(found.clause, found.reason)
    return None
