"""Initiative: each side rolls a die, ties rolled again, the higher moves first (DUEL-SEQ-01); then both sides
plot their movement at once, in secret unless the option says otherwise (DUEL-MOV-01)."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.duel.board import Board
from battles.rules.duel.kinds import INITIATIVE, PLOT, PLOT_PHASE


def roll_initiative(ctx: Context[Board]) -> None:
    a, b = ctx.state.sides
    while True:  # DUEL-SEQ-01: ties are rolled again
        roll_a = ctx.roll(f"initiative: {a}", ships=[ctx.board.ship_of(a).name])
        roll_b = ctx.roll(f"initiative: {b}", ships=[ctx.board.ship_of(b).name])
        if roll_a.total != roll_b.total:
            break
    ctx.emit(INITIATIVE, {"first": a if roll_a.total > roll_b.total else b})
    ctx.begin_phase(PLOT_PHASE)
    for side in ctx.board.order():
        ship = ctx.board.ship_of(side)
        ctx.request(
            side,
            PLOT,
            rule="DUEL-MOV-01",
            default=[],
            secret=bool(ctx.option("secret_plots")),
            prompt=f"plot up to {ship.speed} steps for {ship.name}",
            ships=[ship.name],
        )
