"""The sequence of play: dispatch only. Which phase function carries the battle on from the stage it is at; the
battle waits for the sides at PLOT (the secret plots) and ORDERS (fire and crew), docs/barsoom.md section 9."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.kinds import FIRE, GUNS_LOST, ORDERS, PLOT, SETUP
from battles.rules.barsoom.phases import crew as crew_phase
from battles.rules.barsoom.phases import fire, ship, turn


def after_orders(ctx: Context[Battle]) -> None:
    """The figures' phases in the stand-in (BR-SEQ-04): fire, then the crews, then the end of the turn."""
    if fire.fire_step(ctx):
        return  # owners choose the guns row 8 takes: the fire goes on once they have (BR-DMG-10)
    after_fire(ctx)


def fire_goes_on(ctx: Context[Battle]) -> None:
    if fire.go_on_firing(ctx):
        return
    after_fire(ctx)


def after_fire(ctx: Context[Battle]) -> None:
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
    GUNS_LOST: ship.after_guns_lost,
    FIRE: fire_goes_on,
}


def advance(ctx: Context[Battle]) -> None:
    PHASES[ctx.state.phase](ctx)
