"""Helpers for the fire tests: two ships put a few hexes apart, the fire step run from its start, orders given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from battles.engine import hexgrid, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import FIRE, FIRE_ORDERS, RETURN_FIRE
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, ship

ORIGIN = hexgrid.from_odd_q(12, 10)
NORTH, SOUTH = 0, 3


def away(hexes: int, direction: int = NORTH, start: Hex = ORIGIN) -> Hex:
    """The hex ``hexes`` steps from ``start`` in ``direction``."""
    spot = start
    for _ in range(hexes):
        spot = hexgrid.neighbour(spot, direction)
    return spot


def duel(
    hexes: int = 2,
    *,
    active: str = "Aphid",
    aphid_band: str = panels.MEDIUM,
    locust_band: str = panels.MEDIUM,
    seed: bytes = b"cm-seed",
) -> Board:
    """Aphid at ORIGIN facing north, Locust ``hexes`` north of her facing south (bow to bow); ``active``'s card up.
    The other ships stay where the scenario put them, far off."""
    board = mid_round(new(seed, umpire=True), active=active)
    board = changed(board, "Aphid", hex=ORIGIN, facing=NORTH, band=aphid_band)
    return changed(board, "Locust", hex=away(hexes), facing=SOUTH, band=locust_band)


def superior(board: Board, name: str) -> Board:
    return changed(board, name, panel=replace(ship(board, name).panel, superior=True))


def start(board: Board, seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    """The fire step run from its start on ``board``, up to the first decision."""
    return resolver.resolve(CLOUDSHIPS, at_stage(new(seed, umpire=True), FIRE, board), seed)


def shots(*triples: tuple[str, int, str]) -> dict[str, Any]:
    return {"shots": [{"ship": s, "gun": g, "target": t} for s, g, t in triples]}


def request_of(state: BattleState[Board], kind: str, name: str | None = None) -> DecisionRequest:
    return next(r for r in state.pending() if r.kind == kind and (name is None or r.ships == (name,)))


def give(
    state: BattleState[Board], kind: str, choice: Any, seed: bytes = b"cm-seed", name: str | None = None
) -> resolver.Accepted[Board]:
    request = request_of(state, kind, name)
    done = resolver.submit(CLOUDSHIPS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert not isinstance(done, Rejection), done
    return done


def refused(state: BattleState[Board], kind: str, choice: Any, name: str | None = None) -> str | None:
    """The clause an answer is refused under, or None if it would be taken."""
    request = request_of(state, kind, name)
    found = resolver.check_decision(CLOUDSHIPS, state, side=request.side, request_id=request.id, choice=choice)
    return None if found is None else found.clause


def purposes(events: Sequence[Any]) -> list[str]:
    return [str(e.data["purpose"]) for e in events if e.kind == "roll"]


def judged(board: Board, choice: Any, kind: str = FIRE_ORDERS, name: str = "Aphid") -> str | None:
    """The clause the rules refuse ``choice`` under, asked as ``name``'s decision on ``board`` (whether or not
    the fire step would have asked it): None if taken."""
    rule = "CM-SEQ-08" if kind == RETURN_FIRE else "CM-SEQ-07"
    side = ship(board, name).side
    request = DecisionRequest("d0", side, kind, FIRE, rule, {"shots": []}, ships=(name,))
    state = at_stage(new(umpire=True), FIRE, board)
    found = CLOUDSHIPS.validate(state, request, choice)
    return None if found is None else found.clause
