"""Phase 2, the Movement Phase (IC-SEQ-07, docs/ironclads.md "The turn, in the app"): with Appendix D the red
markers first (IC-FORM-04/11); then one ship at a time, the side without the Initiative first, alternating, a side
with none left passing. A side with more than one ship waiting names the ship it moves (``ship to move``); then her
order (``move order``) is asked and carried out at once, on the board as it stands (movement.execute)."""

from __future__ import annotations

from battles.engine.events import JSON
from battles.engine.resolver import Context
from battles.rules.ironclads import formations, movement, orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import (
    FORMATIONS_CHECKED,
    MOVE_ORDER,
    MOVEMENT,
    SHIP_CHOSEN,
    SHIP_MOVED,
    SHIP_TO_MOVE,
)
from battles.rules.ironclads.movement import Order


def begin_movement(ctx: Context[Battle]) -> None:
    """The phase opens; with Appendix D every squadron is checked before anyone moves (IC-FORM-04/11)."""
    ctx.begin_phase(MOVEMENT)
    battle = ctx.board
    if battle.formations is not None:
        checked = formations.check(battle.formations, battle.board)
        red = sorted(name for unit in checked.squadrons for name in unit.red)
        ctx.emit(FORMATIONS_CHECKED, {"formations": checked.to_json(), "red": red})


def step(ctx: Context[Battle]) -> bool:
    """Carry the phase on: move the ship whose order is given, then ask the next slot. True when every ship has
    moved (the phase is over); False when a decision is open."""
    if ctx.board.ordered:
        carry_out(ctx)
    side = orders.side_to_move(ctx.board)
    if side is None:
        return True
    chosen = ctx.board.chosen
    if not chosen:
        waiting = orders.waiting(ctx.board, side)
        if len(waiting) > 1:
            names = [s.name for s in waiting]
            ctx.request(side, SHIP_TO_MOVE, rule="IC-SEQ-07", options=names, prompt="Choose the ship to move next")
            return False
        chosen = waiting[0].name
        ctx.emit(SHIP_CHOSEN, {"ship": chosen, "side": side}, ships=[chosen])
    ask_order(ctx, chosen)
    return False


def ask_order(ctx: Context[Battle], name: str) -> None:
    ship = ctx.board.ship(name)
    ctx.request(
        ship.side,
        MOVE_ORDER,
        rule="IC-SPD-08",
        default=orders.answer(name, default_order(ctx.board, name)),
        prompt=f"Set the speed and the path of {name}",
        ships=[name],
    )


def default_order(battle: Battle, name: str) -> Order:
    """The order given for her when nobody gives one: as she goes, straight on if she may, else the first legal
    order as she goes, else the first legal order; one that keeps her on the map where one does."""
    legal = orders.legal_orders(battle, name)
    kept = [o for o in legal if not movement.execute(battle.board, name, o).broke_off] or list(legal)
    going = orders.as_she_goes(battle, name)
    same = [o for o in kept if o.setting == going]
    straight = [o for o in same if not set(o.path) & set(movement.TURNS)]
    return (straight or same or kept)[0]


def carry_out(ctx: Context[Battle]) -> None:
    """Her order, carried out: the ships it changed go into the event whole (her, and a ship she ran into)."""
    battle = ctx.board
    name = battle.chosen
    order = orders.order_of(battle, name, list[JSON](battle.plan))
    assert isinstance(order, Order), order  # judged when it was given
    move = movement.execute(battle.board, name, order)
    changed = [name] if move.collision is None or move.collision.other is None else [name, move.collision.other]
    data: dict[str, JSON] = {
        "ship": name,
        "side": battle.ship(name).side,
        "speed": order.setting.speed,
        "astern": order.setting.astern,
        "steps": list[JSON](orders.tokens(order, explicit=False)),
        "hexes": [list[JSON](h.to_json()) for h in move.hexes],
        "broke_off": move.broke_off,
        "collision": None
        if move.collision is None
        else {
            "other": move.collision.other,
            "propulsion": move.collision.propulsion,
            "hull": move.collision.hull,
        },
        "changed": [move.board.ship(n).to_json() for n in changed],
    }
    if battle.formations is not None:
        data["formations"] = formations.after_move(battle.formations, move).to_json()
    ctx.emit(SHIP_MOVED, data, ships=changed)
