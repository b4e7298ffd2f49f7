"""Step 2, the move (CM-SEQ-06): the active captain writes his ship's plan (manoeuvre.py traces and judges it,
validate.py names the clause a refusal breaks), and the ship makes it step by step, meeting the ships on the way.

- A ship that cannot move (no movement left, or grappled: CM-BRD-18 frees a ship only when the grapples are cut)
  is not asked.
- A step into a hex off the map takes her out of the battle (fate ``left``) and ends her move.
- Coming into a hex and band another ship holds, by a hex forward or a band changed in place, she checks for a
  collision with each ship there (CM-COL-01/02): each rolls a die, equal scores collide, each takes the other's
  ram value (CM-COL-03), and her move stops there. A ram declared on a ship there replaces the check with her
  (CM-RAM-01): both roll, steam +1 (CM-RAM-02); the rammer hits only by scoring higher (CM-RAM-03/04) and deals
  her ram value plus her current speed, the hexes moved this turn with the rammed one (CM-RAM-05); a hit stops
  her, a miss lets her slide on.
- The start of her turn comes first (phases/ordnance.py: her torpedoes fly on, her mines, drogues and torpedoes
  are ordered), and on each hex she enters her mines and drogues out strike first (CM-TM-04, CM-DT-01).
- Damage from rams and collisions waits on the board as ``due`` and is crossed at step 4 (phases/damage.py), with
  the fire's, in the order it was dealt.
"""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import manoeuvre, panels, validate
from battles.rules.cloudships_2023.board import Board, MoveOrder, Ship
from battles.rules.cloudships_2023.kinds import (
    BOARDING,
    COLLISION_CHECK,
    DAMAGE_DUE,
    FATE,
    LEFT,
    MOVE_DECISION,
    MOVE_DONE,
    MOVE_HELD,
    MOVED,
    RAM_TRIED,
)
from battles.rules.cloudships_2023.manoeuvre import LEFT_MAP, Step
from battles.rules.cloudships_2023.phases import flights, ordnance

STEAM_BONUS = 1  # CM-RAM-02


def move_ship(ctx: Context[Board]) -> None:
    """Stage MOVE: ask for the move, or, once it is written, make it; then step 3."""
    if ordnance.start_of_turn(ctx):  # the start of her turn: mines, drogues and torpedoes (the ordnance slice)
        return
    if flights.start_of_turn(ctx):  # her Flying Martians deploy, fly and redock before she moves (CM-FLY-04..06)
        return
    board = ctx.board
    ship = board.ship_named(_active(board))
    if board.move is not None:
        make_move(ctx, ship.name, board.move)
    elif ship.grappled:
        why = f"grappled with {', '.join(ship.grappled)}"
        ctx.emit(MOVE_HELD, {"ship": ship.name, "why": why, "clauses": ["CM-BRD-18"]}, ships=[ship.name])
        ctx.emit(MOVE_DONE, {"ship": ship.name, "hexes": 0}, ships=[ship.name])
    elif ship.flying and board.status is not None and board.status.movement > 0:
        ask_move(ctx, ship)
        return
    else:
        ctx.emit(MOVE_DONE, {"ship": ship.name, "hexes": 0}, ships=[ship.name])
    ctx.begin_phase(BOARDING)  # step 2b, grappling and boarding (phases/boarding.py)


def _active(board: Board) -> str:
    if board.active is None:
        raise ValueError("no card is up")
    return board.active


def ask_move(ctx: Context[Board], ship: Ship) -> None:
    status = ctx.board.status
    assert status is not None  # move_ship asks only with the status checked
    ctx.request(
        ship.side,
        MOVE_DECISION,
        rule="CM-SEQ-06",
        default=validate.default_move(ctx.state, ship.name),
        prompt=f"{possessive(ship.name)} move: {status.movement} MP at {ship.band}; steps {', '.join(manoeuvre.STEPS)}",
        ships=[ship.name],
    )


def make_move(ctx: Context[Board], name: str, order: MoveOrder) -> None:
    """Walk the plan step by step (judged when it was answered, on this same board)."""
    steps = manoeuvre.trace(validate.mover_of(ctx.state, name), order.steps)
    ram, hexes = order.ram, 0
    for step in steps:
        if step.ends == LEFT_MAP:
            why = "she flew off the map (docs/cloudships.md section 6)"
            ctx.emit(FATE, {"ship": name, "status": LEFT, "why": why}, ships=[name])
            break
        _emit_step(ctx, name, step)
        if step.enters_hex:  # her mines and drogues strike at the hex she has come into (CM-TM-04, CM-DT-01)
            ordnance.strike_from_cables(ctx, name, step.hex, step.band)
        hexes += 1 if step.enters_hex else 0
        if step.enters_hex or step.changes_band:
            stopped, ram = meet_ships(ctx, name, step, ram, hexes)
            if stopped:
                break
    ctx.emit(MOVE_DONE, {"ship": name, "hexes": hexes}, ships=[name])


def _emit_step(ctx: Context[Board], name: str, step: Step) -> None:
    data = {
        "band": step.band,
        "clauses": list(step.clauses),
        "cost": step.cost,
        "facing": step.facing,
        "hex": step.hex.to_json(),
        "ship": name,
        "step": step.token,
    }
    ctx.emit(MOVED, data, ships=[name], copied=True)


def meet_ships(ctx: Context[Board], name: str, step: Step, ram: str | None, hexes: int) -> tuple[bool, str | None]:
    """The ships in the hex and band she has come into: her ram on its target, if this is where she meant it, then
    a collision check with each of the rest. Returns whether her move stops, and the ram still to be tried."""
    there = [s.name for s in ctx.board.flying() if s.name != name and (s.hex, s.band) == (step.hex, step.band)]
    if ram is not None and ram in there and step.enters_hex:
        there.remove(ram)
        if try_ram(ctx, name, ram, hexes):
            return True, None
        ram = None  # a ram that misses slides by: no collision with her either (CM-RAM-04)
    for other in there:
        if check_collision(ctx, name, other):
            return True, ram
    return False, ram


def try_ram(ctx: Context[Board], name: str, target: str, hexes: int) -> bool:
    """Both captains roll, steam +1; the rammer must score higher; a hit deals her ram value plus her speed."""
    rammer, victim = ctx.board.ship_named(name), ctx.board.ship_named(target)
    mine = _ram_roll(ctx, rammer, f"{name} rams {target}")
    theirs = _ram_roll(ctx, victim, f"{target} escapes {possessive(name)} ram")
    hit = mine > theirs
    damage = rammer.panel.ram + hexes if hit else 0
    data = {"ship": name, "target": target, "scores": [mine, theirs], "hit": hit, "speed": hexes, "damage": damage}
    ctx.emit(RAM_TRIED, {**data, "clauses": ["CM-RAM-01", "CM-RAM-02", "CM-RAM-03", "CM-RAM-04"]}, ships=[name, target])
    if hit:
        ctx.emit(DAMAGE_DUE, {"ship": target, "points": damage, "by": name}, ships=[target, name])
    return hit


def _ram_roll(ctx: Context[Board], ship: Ship, purpose: str) -> int:
    steam = {"steam": STEAM_BONUS} if ship.panel.motive in panels.STEAMERS else {}
    return ctx.roll(f"{purpose} (CM-RAM-02)", modifiers=steam, ships=[ship.name]).total


def check_collision(ctx: Context[Board], name: str, other: str) -> bool:
    """Each rolls a die; equal scores collide and each takes the other's ram value (CM-COL-01..03)."""
    mine = ctx.roll(f"{name} and {other} in one hex and band: {name} (CM-COL-02)", ships=[name]).total
    theirs = ctx.roll(f"{name} and {other} in one hex and band: {other} (CM-COL-02)", ships=[other]).total
    collided = mine == theirs
    data = {"ship": name, "other": other, "scores": [mine, theirs], "collided": collided}
    ctx.emit(COLLISION_CHECK, {**data, "clauses": ["CM-COL-01", "CM-COL-02"]}, ships=[name, other])
    if collided:
        mover, held = ctx.board.ship_named(name), ctx.board.ship_named(other)
        ctx.emit(DAMAGE_DUE, {"ship": name, "points": held.panel.ram, "by": other}, ships=[name, other])
        ctx.emit(DAMAGE_DUE, {"ship": other, "points": mover.panel.ram, "by": name}, ships=[other, name])
    return collided
