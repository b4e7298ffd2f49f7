"""Fire: each side in initiative order decides whether to fire its broadside (DUEL-FIRE-01); the shots are
resolved together, 1d6 to hit and 1d6 on the damage table (DUEL-FIRE-02, DUEL-DMG-01); a ship with no hull
left sinks and the battle ends (DUEL-END-01), as it does at the scenario's turn limit (DUEL-END-02)."""

from __future__ import annotations

from typing import Any

from battles.engine import hexgrid
from battles.engine.dice import at_least, table
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.resolver import Context
from battles.engine.state import BattleState
from battles.rules.duel.board import Board, Ship
from battles.rules.duel.kinds import FIRE, HIT, INITIATIVE_PHASE, SUNK


def in_reach(state: BattleState[Board], ship: Ship, enemy: Ship) -> bool:
    """DUEL-FIRE-03: a broadside reaches an enemy abeam (port or starboard) up to the battle's long range."""
    return reaches(ship, enemy, state.board.long_range)


def reaches(ship: Ship, enemy: Ship, long_range: int) -> bool:
    """DUEL-FIRE-03 with the battle's long range given: both afloat, the enemy abeam and no further off."""
    if not (ship.afloat and enemy.afloat):
        return False
    in_range = hexgrid.distance(ship.hex, enemy.hex) <= long_range
    abeam = hexgrid.aspects(ship.hex, ship.facing, enemy.hex) & {hexgrid.Aspect.PORT, hexgrid.Aspect.STARBOARD}
    return in_range and bool(abeam)


def needed_to_hit(tables: Any, ship: Ship, enemy: Ship) -> int:
    """The die a shot needs: the close or the long figure of the to-hit table (DUEL-FIRE-02)."""
    close = hexgrid.distance(ship.hex, enemy.hex) <= read_int(tables["close_range"])
    return read_int(read_object(tables["to_hit"])["close" if close else "long"])


def fire_phase(ctx: Context[Board]) -> None:
    board = ctx.board
    for side in board.order():  # DUEL-FIRE-01: fire decisions in initiative order
        if side not in board.shots:
            ship, enemy = board.ship_of(side), board.enemy_of(side)
            options: list[Any] = [{"fire": False}]
            if in_reach(ctx.state, ship, enemy):
                options.append({"fire": True})
            ctx.request(side, FIRE, rule="DUEL-FIRE-01", options=options, ships=[ship.name, enemy.name])
            return
    for side in board.order():  # DUEL-FIRE-02: shots are resolved together, then ships sink
        if board.shots[side]:
            _shoot(ctx, board.ship_of(side), board.enemy_of(side))
    _end_of_turn(ctx)


def _shoot(ctx: Context[Board], ship: Ship, enemy: Ship) -> None:
    names = [ship.name, enemy.name]
    needed = needed_to_hit(ctx.tables, ship, enemy)
    shot = ctx.roll(f"to hit: {ship.name} vs {enemy.name}", needed=at_least(needed, "hit", "miss"), ships=names)
    if shot.outcome != "hit":
        return
    bands = [read_list(row) for row in read_list(ctx.tables["damage"])]
    damage_table = table("damage table", [(read_int(lo), read_int(hi), str(read_int(n))) for lo, hi, n in bands])
    damage = ctx.roll(f"damage to {enemy.name}", needed=damage_table, ships=names)
    boxes = min(int(damage.outcome), ctx.board.ship_of(enemy.side).hull)  # DUEL-DMG-01: none below 0
    ctx.emit(HIT, {"ship": enemy.name, "by": ship.name, "boxes": boxes}, ships=[enemy.name])


def _end_of_turn(ctx: Context[Board]) -> None:
    sunk = [s for s in ctx.board.ships if not s.afloat]
    for ship in sunk:
        ctx.emit(SUNK, {"ship": ship.name}, ships=[ship.name])
    if sunk:
        survivors = [s.side for s in ctx.board.ships if s.afloat]
        ctx.end_battle(survivors[0] if survivors else None, "a ship sunk")  # DUEL-END-01
    elif ctx.state.turn >= ctx.board.turns:
        ctx.end_battle(None, "the turn limit")  # DUEL-END-02
    else:
        ctx.begin_turn()
        ctx.begin_phase(INITIATIVE_PHASE)
