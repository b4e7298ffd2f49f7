"""The sequence of play: which phase function carries the battle on from the stage it is at (dispatch only; the
phases are in phases/, kinds.py names the stages)."""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import (
    AMBERS,
    BOARDING,
    CARD,
    DAMAGE,
    DECK,
    END_OF_ROUND,
    FIRE,
    MOVE,
    SETUP,
    STATUS,
)
from battles.rules.cloudships_2023.phases import boarding, damage, deck, fire, movement, rounds, turn

PHASES: dict[str, Callable[[Context[Board]], None]] = {
    SETUP: rounds.open_battle,
    DECK: deck.next_card,
    CARD: deck.turn_card,
    STATUS: turn.check_status,
    MOVE: movement.move_ship,
    BOARDING: boarding.grapple_and_board,
    FIRE: fire.fire_and_return_fire,
    DAMAGE: damage.mark_damage,
    AMBERS: turn.light_ambers,
    END_OF_ROUND: rounds.end_of_round,
}


def advance(ctx: Context[Board]) -> None:
    """Carry the battle on from its stage (the stage's decisions, if it asked any, are in)."""
    PHASES[ctx.state.phase](ctx)
