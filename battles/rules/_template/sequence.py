"""The sequence of play: dispatch only. Which phase function carries the battle on from where it stands."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules._template.board import Board
from battles.rules._template.kinds import ORDERS, SETUP
from battles.rules._template.phases import turn

PHASES: dict[str, Callable[[Context[Board]], None]] = {SETUP: turn.ask_stances, ORDERS: turn.resolve_turn}


def advance(ctx: Context[Board]) -> None:
    PHASES[ctx.state.phase](ctx)
