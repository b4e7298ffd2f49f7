"""Small helpers for the Cloudships battle tests: a battle from the example scenario, a state put at a stage with a
board of the test's making, and the events of a resolution up to a kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from battles.engine import dice, policies, resolver
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.cloudships_2023.board import Board, Deck, Ship
from battles.rules.cloudships_2023.kinds import UMPIRE_TURNS_CARDS
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS

# Named, not the first file: scenarios/ also holds the Sky Galleons translations (scenario_bridge.py).
SCENARIO = next(found for found in CLOUDSHIPS.example_scenarios() if found["slug"] == "raid-on-the-canal")


def new(seed: bytes = b"cm-seed", *, umpire: bool = False, scenario: Any = None) -> BattleState[Board]:
    return resolver.new_battle(
        CLOUDSHIPS,
        scenario or SCENARIO,
        seed_commitment=dice.commitment(seed),
        options={UMPIRE_TURNS_CARDS: umpire},
    )


def at_stage(state: BattleState[Board], stage: str, board: Board, round_: int = 1) -> BattleState[Board]:
    """``state`` put at ``stage`` of round ``round_`` with ``board``, as if the battle had got there."""
    return state.evolve(phase=stage, turn=round_, board=board)


def mid_round(state: BattleState[Board], active: str | None = None) -> Board:
    """The board with every ship's card in the deck: if ``active`` is named, hers the first card up and the rest
    face down; else every card turned (the round is at its end)."""
    board = state.board
    cards = tuple(ship.name for ship in board.ships)
    turned = cards if active is None else (active,)
    return replace(board, deck=Deck(cards=cards, turned=turned), active=active)


def changed(board: Board, name: str, **changes: Any) -> Board:
    return board.with_ship(replace(board.ship_named(name), **changes))


def ship(board: Board, name: str) -> Ship:
    return board.ship_named(name)


def resolve(state: BattleState[Board], seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    return resolver.resolve(CLOUDSHIPS, state, seed)


def fight(state: BattleState[Board], seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    """Play on to the end, every decision given its default (a move holds course: straight ahead)."""
    by_default = {side: policies.DefaultPolicy() for side in state.sides}
    return policies.auto_play(CLOUDSHIPS, state, seed=seed, policies=by_default)


def until(events: Sequence[Event], kind: str) -> list[Event]:
    """The events before the first of ``kind`` (all of them if there is none)."""
    out = []
    for event in events:
        if event.kind == kind:
            break
        out.append(event)
    return out


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]
