"""Judging answers, each refusal naming its clause. The go-ahead to turn the next card lists its only answer and
the engine checks it; the fire orders and the return fire are open-ended (``{"shots": [{"ship", "gun",
"target"}]}``) and judged here; the movement slice adds its own.

``candidates`` gives an AI or a random player a few legal answers to pick from: hold fire, each gun alone at each
target it may fire at, and every gun that may fire at one target at it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import firing
from battles.rules.cloudships_2023.board import Board, Ship, Shot
from battles.rules.cloudships_2023.kinds import FIRE_ORDERS, RETURN_FIRE

FIRE_DECISIONS = (FIRE_ORDERS, RETURN_FIRE)


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind in FIRE_DECISIONS:
        return fire_problem(state.board, request, choice)
    return None


def candidates(state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
    if request.kind in FIRE_DECISIONS:
        return fire_candidates(state.board, request)
    return request.options if request.options is not None else [request.default]


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
        return Rejection(request.rule, f"these orders are {firer.name}'s: {shot.ship} is not hers to fire")
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
    if not isinstance(choice, Mapping) or set(choice) != {"shots"} or not isinstance(choice["shots"], list):
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
    return [{"shots": [shot.to_json() for shot in volley]} for volley in volleys]
