"""The sequence of play as dispatch only (SG-SEQ-01..12): the board's stage names the phase function that
advances the battle from it. The phases are in phases/; the helpers' own stages (torpedoes, plotted moves) are
theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from battles.engine.resolver import Context
from battles.rules.sky_galleons import ordnance_play, plotting
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import (
    AVOIDING,
    BOARDING,
    COLLIDING,
    CREW_STAGE,
    FIRING,
    FIRST_STAGE,
    FLYING,
    MOVING,
    ORDERS_STAGE,
    PHASE_END,
    PHASE_START,
    PLACEMENT,
    PLOTTED,
    POSITIONS,
    REINFORCING,
    SETUP,
    UPKEEP,
)
from battles.rules.sky_galleons.phases import fire, initiative_phase, movement_phase, opening

Phase = Callable[[Context[Board]], None]
PLAY = movement_phase.PLAY

STAGES: Mapping[str, Phase] = MappingProxyType(
    {
        SETUP: opening.setup,
        PLACEMENT: opening.placement,
        UPKEEP: initiative_phase.upkeep,
        ORDERS_STAGE: initiative_phase.orders,
        FIRST_STAGE: movement_phase.first_player,
        PHASE_START: movement_phase.phase_start,
        MOVING: movement_phase.moving_stage,
        AVOIDING: movement_phase.avoiding_stage,
        BOARDING: movement_phase.boarding_stage,
        POSITIONS: movement_phase.positions_stage,
        FIRING: fire.firing,
        PHASE_END: movement_phase.phase_end,
        ordnance_play.TORPEDOES: lambda ctx: ordnance_play.torpedo_stage(PLAY, ctx),
        FLYING: movement_phase.flying_stage,
        COLLIDING: movement_phase.collision_answered,
        PLOTTED: lambda ctx: plotting.carry_out(PLAY, ctx),
        CREW_STAGE: opening.crew_chosen,
        REINFORCING: initiative_phase.reinforced,
    }
)


def advance(ctx: Context[Board]) -> None:
    """Advance the battle from the board's stage."""
    phase = STAGES.get(ctx.board.stage)
    if phase is None:  # pragma: no cover - a board can only hold the stages above
        raise ValueError(f"unknown stage {ctx.board.stage!r}")
    phase(ctx)
