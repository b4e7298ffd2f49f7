"""What the phase helpers (plotting, avoidance, ordnance_play) ask of the sequence of play while it runs: set
the stage, commit record changes with their happenings, roll, carry out a move, go on to the next phase,
check for victory and end the battle (SG-SEQ-01..12). The ruleset object is one; the helpers are typed
against this face rather than importing the ruleset, so the package's imports run one way.

The underscores are the ruleset's own names for these steps: they are what is left to take out of the class
into phases/ as functions over the context (issue 19).
"""

from __future__ import annotations

from typing import Protocol

from battles.engine.resolver import Context
from battles.rules.sky_galleons.board import Board


class Play(Protocol):
    """The sequence of play's steps a phase helper uses (the ruleset's SkyGalleons implements them)."""

    def _carry_out(self, ctx: Context[Board], name: str, plan: list[str]) -> None: ...

    def _next_phase(self, ctx: Context[Board], phase_no: int) -> None: ...

    def _moves_begin(self, ctx: Context[Board]) -> None: ...

    def _check_victory(self, ctx: Context[Board], *, initiative: bool = False) -> bool: ...
