"""Judging answers, each refusal naming its clause, and the legal answers an AI may pick from. The go-ahead to
turn the next card lists its only answer and the engine checks it. The move (CM-SEQ-06) is open-ended: a plan
of steps traced by manoeuvre.py, with a ram declared on a ship whose hex it enters at her band (CM-RAM-01)."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import manoeuvre
from battles.rules.cloudships_2023.board import Board, MoveOrder, Ship
from battles.rules.cloudships_2023.kinds import MOVE_DECISION, REALLY_LOW_BAND
from battles.rules.cloudships_2023.manoeuvre import AHEAD, LEFT_MAP, Mover, PlanError, Step

MOVE_SHAPE = f'a move is a list of steps ({", ".join(manoeuvre.STEPS)}), or {{"steps": [...], "ram": ship}}'
MOST_RAMS = 3  # candidates: ram plans kept for each target


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind == MOVE_DECISION:
        return move_problem(state, request.ships[0], choice)
    return None


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    if request.kind == MOVE_DECISION:
        return move_candidates(state, request.ships[0])
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
        return Rejection("CM-RAM-01", f"the move never enters {target}'s hex at her band ({others[target].band})")
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
    """Legal moves an AI may pick from: a plan for each place the move can end (manoeuvre.every_plan), those off
    the map left out while any other remains, and for each enemy a few rams ending in her hex at her band."""
    move = mover_of(state, name)
    traced = manoeuvre.every_plan(move)
    staying = [(plan, steps) for plan, steps in traced if not left_map(steps)] or traced
    found: list[JSON] = [list[JSON](plan) for plan, _ in staying]
    for target in state.board.flying():
        if target.side == move.ship.side:
            continue
        rams = [plan for plan, steps in staying if steps and rammed_at(steps, target) is steps[-1]]
        found += [MoveOrder(tuple(plan), target.name).to_json() for plan in rams[:MOST_RAMS]]
    return found or [list[JSON](default_move(state, name))]
