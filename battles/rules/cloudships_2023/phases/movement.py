"""Step 2, the move (CM-SEQ-06): a placeholder. The ship stays where she is, which the rules allow (CM-MOV-02).

The movement slice fills ``move_ship`` in. What it can count on:
- it runs at stage MOVE with ``ctx.board.active`` the ship whose card is up and ``ctx.board.status`` her step-1
  reading (TurnStatus: movement allowance, the kite's die, no altitude change, no direction change, whole
  movement);
- it may open decisions (``ctx.request``) and return: it is called again at the same stage once they are
  answered, so it keeps what was decided on the board (a field and its fold);
- it ends by ``ctx.begin_phase(FIRE)``; a ship that crashes or leaves the map on the way gets a FATE event
  (crashed or left) and her turn still goes on through the later steps, which find nothing to do for her.
"""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import FIRE


def move_ship(ctx: Context[Board]) -> None:
    """Stage MOVE: the active ship's move. For now she holds her hex, facing and band."""
    ctx.begin_phase(FIRE)
