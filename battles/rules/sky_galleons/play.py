"""What the phase helpers (plotting, avoidance, ordnance_play) ask of the sequence of play while it runs: set
the stage, commit record changes with their happenings, roll, carry out a move, go on to the next phase,
check for victory and end the battle (SG-SEQ-01..12). phases/movement_phase.PLAY is the one in play; the
helpers are typed against this face rather than importing the phases, so the package's imports run one way.
"""

from __future__ import annotations

from typing import Protocol

from battles.engine.resolver import Context
from battles.rules.sky_galleons.board import Board


class Play(Protocol):
    """The sequence of play's steps a phase helper uses (phases/movement_phase.PLAY implements them)."""

    def carry_out(self, ctx: Context[Board], name: str, plan: list[str]) -> None: ...

    def next_phase(self, ctx: Context[Board], phase_no: int) -> None: ...

    def moves_begin(self, ctx: Context[Board]) -> None: ...

    def check_victory(self, ctx: Context[Board], *, initiative: bool = False) -> bool: ...
