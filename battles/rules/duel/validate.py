"""Judging the duel's open-ended answers (placements and plots; a fire decision lists its options and the engine
checks those), each refusal naming the clause it breaks, and the legal answers an AI may choose from."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.duel.board import Board, Ship, follow
from battles.rules.duel.kinds import PLACE, PLOT, STEPS


def deploy_hexes(board: Board, ship: Ship) -> tuple[tuple[int, int], ...]:
    """Where a ship may be placed (DUEL-SET-02): her scenario's deployment hexes, or her starting hex and the
    hexes next to it on the map."""
    if ship.deploy:
        return ship.deploy
    around = [ship.hex, *hexgrid.neighbours(ship.hex)]
    return tuple(sorted(hexgrid.to_odd_q(h) for h in around if board.on_map(h)))


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind == PLACE:
        return _placement(state.board, state.board.ship_of(request.side), choice)
    if request.kind == PLOT:
        return plot_problem(state.board, state.board.ship_of(request.side), choice)
    return None


def _placement(board: Board, ship: Ship, choice: JSON) -> Rejection | None:
    spot = choice.get("hex") if isinstance(choice, dict) else None
    facing = choice.get("facing") if isinstance(choice, dict) else None
    if not isinstance(choice, dict) or set(choice) != {"hex", "facing"}:
        return Rejection("DUEL-SET-02", 'a placement is {"hex": [column, row], "facing": 0 to 5}')
    if not (isinstance(spot, list) and len(spot) == 2 and all(type(n) is int for n in spot)):
        return Rejection("DUEL-SET-02", "a placement's hex is [column, row]")
    if (spot[0], spot[1]) not in deploy_hexes(board, ship):
        return Rejection("DUEL-SET-02", f"{ship.name} deploys in her own deployment hexes only")
    if type(facing) is not int or facing not in range(6):
        return Rejection("DUEL-SET-03", "a facing is a hexside, 0 (north) to 5 (north-west)")
    return None


def plot_problem(board: Board, ship: Ship, choice: JSON) -> Rejection | None:
    """What is wrong with a plot for ``ship``, or None for a legal one (DUEL-MOV-01 to 04)."""
    if not isinstance(choice, list) or not all(isinstance(step, str) for step in choice):
        return Rejection("DUEL-MOV-01", "a plot is a list of steps")
    steps = [str(step) for step in choice]
    unknown = sorted(set(steps) - set(STEPS))
    if unknown:
        return Rejection("DUEL-MOV-02", f"unknown steps {unknown}; a step is one of {list(STEPS)}")
    if len(steps) > ship.speed:
        return Rejection("DUEL-MOV-03", f"{ship.name} has speed {ship.speed}, the plot has {len(steps)} steps")
    if not all(board.on_map(h) for h, _ in follow(ship, steps)):
        return Rejection("DUEL-MOV-04", f"{ship.name} would leave the map")
    return None


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    """Every legal placement or plot (a duel ship has few); a listed request's options."""
    board = state.board
    ship = board.ship_of(request.side)
    if request.kind == PLACE:
        spots = deploy_hexes(board, ship)
        return [{"hex": [col, row], "facing": f} for col, row in spots for f in range(6)]
    if request.kind == PLOT:
        plots: list[JSON] = []
        for length in range(ship.speed + 1):
            for steps in itertools.product(STEPS, repeat=length):
                plot: JSON = list(steps)
                if plot_problem(board, ship, plot) is None:
                    plots.append(plot)
        return plots
    return request.options if request.options is not None else [request.default]
