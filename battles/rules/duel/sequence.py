"""The duel's sequence of play: which phase function carries the battle on from where it stands (dispatch
only; the phases are in phases/)."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules.duel.board import Board
from battles.rules.duel.kinds import DEPLOY, FIRE_PHASE, INITIATIVE_PHASE, PLOT_PHASE, SETUP
from battles.rules.duel.phases import deploy, fire, initiative, movement

PHASES: dict[str, Callable[[Context[Board]], None]] = {
    SETUP: deploy.roll_wind,
    DEPLOY: deploy.place_ships,
    INITIATIVE_PHASE: initiative.roll_initiative,
    PLOT_PHASE: movement.carry_out_plots,
    FIRE_PHASE: fire.fire_phase,
}


def advance(ctx: Context[Board]) -> None:
    """Carry the battle on from its phase (the phase's decisions, if it asked any, are in)."""
    PHASES[ctx.state.phase](ctx)
