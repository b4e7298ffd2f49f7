"""Step 3, fire and return fire (CM-SEQ-07..10): a placeholder. Nobody fires yet.

The fire slice fills ``fire_and_return_fire`` in. What it can count on:
- it runs at stage FIRE with ``ctx.board.active`` the ship whose card is up;
- it may open decisions (the active captain's targets, then each captain fired on names his return fire) and
  return: it is called again at the same stage once they are answered;
- each gun that fires gets a GUN_FIRED event ({"ship", "gun"}: the Fired marker, CM-SEQ-10; a one-shot weapon
  is spent for good); a Fired marker stays until the end of the round (docs/cloudships.md: once a round);
- every hit scored is a DAMAGE_DUE event ({"ship", "points", "by"}), in the order to be marked; nothing is
  crossed here, because fire is simultaneous (CM-SEQ-09): step 4 (damage.py, ``mark_damage``) crosses the boxes,
  picking lost guns among those bearing on ``by``;
- it ends by ``ctx.begin_phase(DAMAGE)``.
"""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import DAMAGE


def fire_and_return_fire(ctx: Context[Board]) -> None:
    """Stage FIRE: the active ship's fire and the return fire at her. For now no gun fires."""
    ctx.begin_phase(DAMAGE)
