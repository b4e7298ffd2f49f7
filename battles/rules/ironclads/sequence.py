"""The sequence of play: dispatch only (IC-SEQ-06). Which phase function carries the battle on from the phase it is
at; the battle waits for the sides only in the Movement Phase (the orders of moving, each move order) and in the
Firing Phase (fire orders, damage allocations): docs/ironclads.md "The turn, in the app"."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import FIRING, MOVEMENT, SETUP
from battles.rules.ironclads.phases import fire, moving, turn


def opening(ctx: Context[Battle]) -> None:
    """Before the first Game Turn: the sea state (IC-SEQ-05), then the turn."""
    turn.open_battle(ctx)
    new_turn(ctx)


def new_turn(ctx: Context[Battle]) -> None:
    turn.start_turn(ctx)
    if not moving.begin_movement(ctx):  # else the sides' orders of moving are awaited
        play_on(ctx)


def play_on(ctx: Context[Battle]) -> None:
    """From the Movement or the Firing Phase: each phase in turn until a decision is open or the battle ends."""
    if ctx.state.phase == MOVEMENT:
        if not moving.step(ctx) or not fire.fire_phase(ctx):
            return
    elif not fire.resume(ctx):
        return
    if turn.end_phase(ctx):
        new_turn(ctx)


PHASES: dict[str, Callable[[Context[Battle]], None]] = {
    SETUP: opening,
    MOVEMENT: play_on,
    FIRING: play_on,
}


def advance(ctx: Context[Battle]) -> None:
    PHASES[ctx.state.phase](ctx)
