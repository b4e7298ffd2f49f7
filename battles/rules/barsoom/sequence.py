"""The sequence of play: dispatch only. Which phase function carries the battle on from the stage it is at; the
battle waits for the sides at PLOT (the secret plots) and ORDERS (fire and crew), docs/barsoom.md section 9."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.kinds import ORDERS, PLOT, SETUP
from battles.rules.barsoom.phases import crew as crew_phase
from battles.rules.barsoom.phases import fire, ship, turn


def after_orders(ctx: Context[Battle]) -> None:
    """The figures' phases in the stand-in (BR-SEQ-04): fire, then the crews, then the end of the turn."""
    fire.fire_step(ctx)
    if turn.decided(ctx):
        return
    crew_phase.crew_step(ctx)
    if turn.decided(ctx):
        return
    turn.end_of_turn(ctx)


PHASES: dict[str, Callable[[Context[Battle]], None]] = {
    SETUP: turn.open_battle,
    PLOT: ship.ship_phase,
    ORDERS: after_orders,
}


def advance(ctx: Context[Battle]) -> None:
    PHASES[ctx.state.phase](ctx)
