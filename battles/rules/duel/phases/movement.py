"""Movement: the plots are carried out step by step in initiative order (DUEL-SEQ-02)."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.duel.board import Board, follow
from battles.rules.duel.kinds import FIRE_PHASE, MOVE_PHASE, MOVED


def carry_out_plots(ctx: Context[Board]) -> None:
    ctx.begin_phase(MOVE_PHASE)
    for side in ctx.board.order():
        ship = ctx.board.ship_of(side)
        for hex_, facing in follow(ship, ctx.board.plots.get(side, ())):
            ctx.emit(MOVED, {"ship": ship.name, "hex": hex_.to_json(), "facing": facing}, ships=[ship.name])
    ctx.begin_phase(FIRE_PHASE)
