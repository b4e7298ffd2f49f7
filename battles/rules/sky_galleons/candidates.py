"""The answers worth considering for each decision (the engine's ``candidates``: what a random or AI player
picks among, and the defaults a deadline answers with): moves traced and checked, fire, orders, boarding and
flying parties' moves. Every candidate is one validate.py accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.jsonread import read_list, read_object
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    class_rules,
    combat,
    flying,
    movement,
    ordnance_play,
    prizes,
    queries,
    scenario_ai,
    setup_rules,
    special_rules,
    validate,
)
from battles.rules.sky_galleons.board import (
    Board,
    party_of,
)
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.flying import FLY
from battles.rules.sky_galleons.kinds import (
    BOARD,
    FIRE,
    GRAPPLE,
    MOVE,
    ORDERS,
    PLOT,
    RAM,
)
from battles.rules.sky_galleons.ordnance import BOMB_RACK, DROGUE, MINES
from battles.rules.sky_galleons.ordnance_play import State
from galleons.record import (
    ShipRecord,
)


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON] | None:
    """The answers worth trying for the request; None for a decision the engine's generic candidates serve."""
    if request.kind == MOVE:
        return move_candidates(state, state.board.ship(request.ships[0]))
    if request.kind == FIRE:
        return fire_candidates(state, request.side)
    if request.kind == ORDERS:
        return orders_candidates(state, request.side)
    if request.kind == BOARD:
        return board_candidates(state, request.side)
    if request.kind == FLY:
        return fly_candidates(state, request.ships[0])
    if request.kind == PLOT:
        return plot_candidates(state, request.side)
    return None


def board_candidates(state: BattleState[Board], side: str) -> list[JSON]:
    """Nobody crosses; each ship sends all it may to its first target; every ship does."""
    found: list[JSON] = [{"boardings": []}]
    every: list[JSON] = []
    for ship, targets in queries.boarding_options(state, side).items():
        target, men = next(iter(targets.items()))
        order: JSON = {"ship": ship, "target": target, "men": men}
        found.append({"boardings": [order]})
        every.append(order)
    if len(every) > 1:
        found.append({"boardings": every})
    return found


def attacks(
    state: BattleState[Board],
    record: ShipRecord,
    traced: Sequence[tuple[list[str], list[movement.Step]]],
    on: str | None = None,
) -> list[JSON]:
    """The ram and grapple moves among ``traced`` plans, if the ship may try one now (SG-RAM-01/03/06); with
    ``on``, only those on that ship."""
    board = state.board
    if (
        not state.options["advanced"]
        or board.phase_no != 1
        or board.ram_attempts.get(record.side, 0) >= board.rammers.get(record.side, 0)
    ):
        return []
    found: list[JSON] = []
    for target in board.fighting():
        if target.side == record.side or (on is not None and target.name != on):
            continue
        at = (target.position, target.altitude)
        for plan, path in traced:
            end = (path[-1].hex, path[-1].altitude) if path else (record.position, record.altitude)
            met = at == end or any(
                (step.hex, step.altitude) == at for step in path if step.enters_hex or step.changes_altitude
            )
            if met:
                found.append({"steps": list[JSON](plan), RAM: target.name})
            if at == end and record.crew.deckhands:
                found.append({"steps": list[JSON](plan), GRAPPLE: target.name})
    return found


def default_move(state: BattleState[Board], record: ShipRecord) -> list[str]:
    """Stay on course: no move, or with nobody at the helm the held course (SG-CREW-08)."""
    for hexes in range(queries.allowance(state, record).held_speed or 0, 0, -1):
        if validate.move_problem(state, record, [movement.AHEAD] * hexes) is None:
            return [movement.AHEAD] * hexes
    return []


def move_candidates(state: BattleState[Board], record: ShipRecord) -> list[JSON]:
    """Legal plans an AI may pick from (see ``traced_moves``)."""
    traced = traced_moves(state, record)
    found: list[JSON] = [list[JSON](plan) for plan, _ in traced]
    found += [a for a in attacks(state, record, traced) if not special_rules.noncombatant(state.board, record)]
    if not found:
        fallback: list[JSON] = [*default_move(state, record)]
        found.append(fallback)
    return found


def traced_moves(
    state: BattleState[Board], record: ShipRecord, *, max_turns: int | None = None
) -> list[tuple[list[str], list[movement.Step]]]:
    """Legal plans with their traced paths: up to the allowance in hexes, with up to ``max_turns`` turns
    (three for speed 5 or less, so a galley can turn about in one move; two for faster ships, whose plans
    multiply), after an altitude change or a power turn. Not every legal plan (they are too many), but
    every kind of move."""
    allowed = queries.allowance(state, record)
    if max_turns is None:
        max_turns = 3 if allowed.speed <= 5 else 2
    prefixes: list[list[str]] = [[], [movement.CLIMB], [movement.DESCEND], [movement.DESCEND, movement.DESCEND]]
    if record.is_steam:
        prefixes += [[movement.POWER_PORT], [movement.POWER_STARBOARD]]
        if scenario_ai.careful(state.board, record.side):  # climb and turn about in one move (SG-MOV-04)
            for turn in (movement.POWER_PORT, movement.POWER_STARBOARD):
                prefixes += [[movement.CLIMB, turn], [turn, movement.CLIMB], [movement.CLIMB, turn, turn]]
    if record.is_kite:  # free altitude, one level; a tack to cross the wind (SG-KITE-07/08)
        prefixes = [[], [movement.CLIMB], [movement.DESCEND], [movement.TACK_PORT], [movement.TACK_STARBOARD]]
    found: list[tuple[list[str], list[movement.Step]]] = []
    board, terrain, held = state.board, state.board.terrain, allowed.held_speed is not None
    # The scenario's bounds (special_rules.move_problem) bite only over a neutral zone or off the map: without
    # a neutral zone, only the plans that leave the map need asking about.
    checked, neutral = not held, bool(special_rules.neutral_hexes(board))

    def forbidden(steps: list[movement.Step]) -> bool:
        if not neutral and not (steps and steps[-1].ends == movement.LEFT_MAP):
            return False
        return special_rules.move_problem(board, record, steps, held=held) is not None

    for prefix in prefixes:
        if movement.plan_cost(prefix, kite=record.is_kite) > max(allowed.speed, 2):
            continue
        traced = movement.trace_turning_upto(record, prefix, allowed.speed, max_turns, allowed=allowed, terrain=terrain)
        found += [(plan, steps) for plan, steps in traced if not (checked and forbidden(steps))]
    return ordnance_play.within_limits(record, found)


def fire_candidates(state: BattleState[Board], side: str) -> list[JSON]:
    """Hold fire; every gun at one target, for each target; each gun at its nearest target."""
    solutions = validate.solutions(state, side)
    found: list[JSON] = [{"shots": []}]
    for target in sorted({s.target for s in solutions}):
        shots = [_shot(s) for s in solutions if s.target == target]
        found.append({"shots": _one_per_gun(shots)})
    nearest = sorted(solutions, key=lambda s: (s.effective_range or 0, s.target))
    found.append({"shots": _one_per_gun([_shot(s) for s in nearest])})
    special: list[JSON] = []  # each gun at its nearest target with shrapnel or grape where it may
    for shot in _one_per_gun([_shot(s) for s in nearest]):
        order = read_object(shot)
        record = state.board.by_name.get(str(order["ship"]))  # None: a flying party's small arms
        armed = record is not None and order["gun"] != combat.MARINES
        kinds = combat.ammunition_for(record.gun(str(order["gun"]))) if record is not None and armed else ()
        loaded: JSON = {**order, "ammunition": kinds[-1]} if len(kinds) > 1 else shot
        special.append(loaded if validate.fire_problem(state, side, {"shots": [loaded]}) is None else shot)
    if {"shots": special} != found[-1]:
        found.append({"shots": special})
    found += ordnance_play.fire_candidates(state, side)
    ships = state.board.by_name  # one gun of a pair at a target (SG-CLS-08)
    return [{"shots": class_rules.without_conflicts(ships, read_list(read_object(c)["shots"]))} for c in found]


def orders_candidates(state: BattleState[Board], side: str) -> list[JSON]:
    """No change; a relief at each empty station; striking each ship (rarely wise)."""
    found: list[JSON] = [{"crew": [], "strike": []}]
    for ship in state.board.fighting(side):
        for station in ("helm", "trim"):
            for rank in ("petty_officer", "officer", "captain"):
                change: JSON = {"ship": ship.name, "relief": station, "rank": rank}
                if validate.orders_problem(state, side, {"crew": [change], "strike": []}) is None:
                    found.append({"crew": [change], "strike": []})
                    break
        if special_rules.orders_problem(state.board, side, {"strike": [ship.name]}) is None:
            found.append({"crew": [], "strike": [ship.name]})
    if state.options["advanced"]:
        found += close_orders_candidates(state, side)
    return found + ordnance_orders_candidates(state, side)


def close_orders_candidates(state: BattleState[Board], side: str) -> list[JSON]:
    """Declare every ship a rammer; form a party (an officer and half the deckhands, the marines with
    them); disband it; recall boarders; cut each grapple."""
    ships = state.board.fighting(side)
    found: list[JSON] = [{"crew": [], "strike": [], "ram": len(ships)}]
    for ship in ships:
        orders: list[dict[str, JSON]] = [
            {"parties": [{"ship": ship.name, "men": party_of(ship)}]},
            {"disband": [ship.name]},
            {"recall": [ship.name]},
        ]
        orders += [{"cut": [[ship.name, other]]} for other in ship.grappled_with]
        orders += [{"tow": [[ship.name, other]]} for other in ship.grappled_with]
        orders += flying_order_candidates(state, ship)
        for order in orders:
            choice: JSON = {"crew": [], "strike": [], **order}
            if validate.orders_problem(state, side, choice) is None:
                found.append(choice)
    for name in sorted(n for n, p in state.board.prizes.items() if p.captor == side):  # SG-BRD-21
        for word in (prizes.CREW, prizes.SCUTTLE):
            choice = {"crew": [], "strike": [], "prizes": {name: word}}
            if validate.orders_problem(state, side, choice) is None:
                found.append(choice)
    return found


def flying_order_candidates(state: BattleState[Board], ship: ShipRecord) -> list[dict[str, JSON]]:
    own = [s.name for s in state.board.fighting(ship.side)]
    return flying.order_candidates(ship, state.board.flyers, own)


def fly_candidates(state: BattleState[Board], name: str) -> list[JSON]:
    party = flying.find(state.board.flyers, name)
    if party is None:
        return [[]]
    ships = {s.name: s for s in state.board.fighting()}
    return flying.flight_candidates(party, terrain=state.board.terrain, turn=state.turn, ships=ships)


def default_placement(state: BattleState[Board], record: ShipRecord) -> JSON:
    """The scenario's position if it is still legal, else the first legal hex in map order."""
    assert record.position is not None
    col, row = hexgrid.to_odd_q(record.position)
    first: JSON = setup_rules.default_spot(state.board, record) or {
        "hex": [col, row],
        "facing": record.facing,
        "altitude": record.altitude,
    }
    if validate.placement_problem(state, record, first) is None:
        return first
    for hex_ in state.board.terrain.hexes():
        col, row = hexgrid.to_odd_q(hex_)
        landed = setup_rules.starts_landed(setup_rules.side_setup(state.board, record.side))
        altitude = state.board.terrain.ground(hex_) if landed else record.altitude
        for facing in (record.facing, *range(6)):
            spot: JSON = {"hex": [col, row], "facing": facing, "altitude": altitude}
            if validate.placement_problem(state, record, spot) is None:
                return spot
    return first  # pragma: no cover - a scenario whose map cannot hold its ships is refused at set-up


# --- plotted movement (plotting, SG-ERR-24) and exotic ordnance orders (ordnance_play) ----------------------


def plot_candidates(state: BattleState[Board], side: str) -> list[JSON]:
    """The default, and every ship straight ahead as far as its plot allows."""
    found: list[JSON] = [plot_default(state, side)]
    ahead: dict[str, JSON] = {}
    for record in queries.plotters(state, side):
        for hexes in range(queries.allowance(state, record).speed, -1, -1):
            if validate.move_problem(state, record, [movement.AHEAD] * hexes) is None:
                ahead[record.name] = [movement.AHEAD] * hexes
                break
    if {"plots": ahead} != found[0]:
        found.append({"plots": ahead})
    return found


def plot_default(state: BattleState[Board], side: str) -> JSON:
    """Each ship's default move within its plotting allowance: no move, or its held course's first half."""
    return {"plots": {s.name: list[JSON](default_move(state, s)) for s in queries.plotters(state, side)}}


def ordnance_orders_candidates(state: State, side: str) -> list[JSON]:
    """Each ship's mines raised or lowered, drogues lowered or raised, each empty rack reloaded, raised
    mines cut loose: one order each, where legal."""
    found: list[JSON] = []
    for ship in state.board.fighting(side):
        orders: list[dict[str, JSON]] = []
        if ship.items_of(*MINES, states=("raised", "lowered")):
            raised = bool(ship.items_of(*MINES, states=("raised",)))
            orders.append({"mines": [{"ship": ship.name, "raised": not raised}]})
        if ship.items_of(DROGUE, states=("raised", "lowered")):
            lowered = bool(ship.items_of(DROGUE, states=("lowered",)))
            orders.append({"drogues": [{"ship": ship.name, "lowered": not lowered}]})
        orders += [{"reload": [{"ship": ship.name, "rack": r.id}]} for r in ship.items_of(BOMB_RACK, states=("empty",))]
        if ship.items_of(*MINES, states=("raised",)):
            orders.append({"cut_mines": [ship.name]})
        for order in orders:
            choice: JSON = {"crew": [], "strike": [], **order}
            if validate.orders_problem(state, side, choice) is None:
                found.append(choice)
    return found


def _shot(solution: FireSolution) -> dict[str, str]:
    shot = {"ship": solution.firer, "gun": solution.gun_id, "target": solution.target}
    if solution.ammunition != "shell":  # shrapnel or grape at a flying party (SG-SHR-06)
        shot["ammunition"] = solution.ammunition
    return shot


def _one_per_gun(shots: list[dict[str, str]]) -> list[JSON]:
    seen: set[tuple[str, str]] = set()
    kept: list[JSON] = []
    for shot in shots:
        key = (shot["ship"], shot["gun"])
        if key not in seen:
            seen.add(key)
            kept.append(dict(shot))
    return kept
