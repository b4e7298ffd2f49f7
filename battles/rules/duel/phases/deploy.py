"""Set-up: the wind is rolled (DUEL-SET-01), then both sides place their ships at once, in secret, each in its
deployment hexes (DUEL-SET-02); the placements are revealed together and the first turn begins."""

from __future__ import annotations

from battles.engine import hexgrid
from battles.engine.resolver import Context
from battles.rules.duel.board import Board
from battles.rules.duel.kinds import DEPLOY, INITIATIVE_PHASE, PLACE, PLACED, WIND


def roll_wind(ctx: Context[Board]) -> None:
    wind = ctx.roll("wind: the hexside it blows from (DUEL-SET-01)")
    ctx.emit(WIND, {"direction": wind.total - 1})
    ctx.begin_phase(DEPLOY)
    for side in ctx.state.sides:
        ship = ctx.board.ship_of(side)
        col, row = hexgrid.to_odd_q(ship.hex)
        ctx.request(
            side,
            PLACE,
            rule="DUEL-SET-02",
            default={"hex": [col, row], "facing": ship.facing},
            secret=True,
            prompt=f"place {ship.name} in one of her deployment hexes",
            ships=[ship.name],
        )


def place_ships(ctx: Context[Board]) -> None:
    """The placements decided, in side order; then turn 1."""
    for side in ctx.state.sides:
        ship = ctx.board.ship_of(side)
        hex_, facing = ctx.board.placements.get(side, (ship.hex, ship.facing))
        ctx.emit(PLACED, {"ship": ship.name, "hex": hex_.to_json(), "facing": facing}, ships=[ship.name])
    ctx.begin_turn(1)
    ctx.begin_phase(INITIATIVE_PHASE)
