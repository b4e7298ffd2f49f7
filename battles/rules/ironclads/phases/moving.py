"""Phase 2, the Movement Phase (IC-SEQ-07, docs/ironclads.md "The turn, in the app"): with Appendix D the red
markers first (IC-FORM-04/11); then each side with more than one ship gives its order of moving, once, both sides at
once and each kept from the other (``order of moving``); then one ship at a time, the side without the Initiative
first, alternating, a side with none left passing, each side's next ship by its order. Her order (``move order``) is
asked and carried out at once, on the board as it stands (movement.execute); a ship with one legal order only is not
asked: it is carried out."""

from __future__ import annotations

from battles.engine.events import JSON
from battles.engine.resolver import Context
from battles.rules.ironclads import formations, movement, orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import (
    FORMATIONS_CHECKED,
    MOVE_ORDER,
    MOVEMENT,
    ORDER_OF_MOVING,
    SEALED_ORDER,
    SHIP_CHOSEN,
    SHIP_MOVED,
)
from battles.rules.ironclads.movement import Order


def begin_movement(ctx: Context[Battle]) -> bool:
    """The phase opens; with Appendix D every squadron is checked before anyone moves (IC-FORM-04/11); each side with
    more than one ship to move is asked its order of moving. True when an order is asked (the phase waits)."""
    ctx.begin_phase(MOVEMENT)
    battle = ctx.board
    if battle.formations is not None:
        checked = formations.check(battle.formations, battle.board)
        red = sorted(name for unit in checked.squadrons for name in unit.red)
        ctx.emit(FORMATIONS_CHECKED, {"formations": checked.to_json(), "red": red})
    asked = False
    for side in ctx.state.sides:
        waiting = orders.waiting(ctx.board, side)
        if len(waiting) > 1:
            ctx.request(
                side,
                ORDER_OF_MOVING,
                rule="IC-SEQ-07",
                default=orders.order_of_moving([s.name for s in waiting]),
                secret=True,
                sealed=[SEALED_ORDER],  # the text's sides choose each ship as they come to her: none sees ahead
                prompt="The order your ships move in this Movement Phase, the first to move first",
                ships=[s.name for s in waiting],
            )
            asked = True
    return asked


def step(ctx: Context[Battle]) -> bool:
    """Carry the phase on: move the ship whose order is given, then the next slot's ship, asked her order unless she
    has only one. True when every ship has moved (the phase is over); False when a decision is open."""
    if ctx.board.ordered:
        carry_out(ctx, ctx.board.chosen, ctx.board.plan)
    while (side := orders.side_to_move(ctx.board)) is not None:
        name = orders.next_ship(ctx.board, side).name
        ctx.emit(SHIP_CHOSEN, {"ship": name, "side": side}, ships=[name])
        legal = orders.legal_orders(ctx.board, name)
        if len(legal) > 1:
            ask_order(ctx, name)
            return False
        carry_out(ctx, name, tuple(orders.tokens(legal[0])))  # nothing to choose: no prompt
    return True


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
    moves = orders.legal_moves(battle, name)
    legal = [order for order, _ in moves]
    kept = [order for order, move in moves if not move.broke_off] or legal
    going = orders.as_she_goes(battle, name)
    same = [o for o in kept if o.setting == going]
    straight = [o for o in same if not set(o.path) & set(movement.TURNS)]
    return (straight or same or kept)[0]


def carry_out(ctx: Context[Battle], name: str, plan: tuple[str, ...]) -> None:
    """Her order, carried out: the ships it changed go into the event whole (her, and a ship she ran into)."""
    battle = orders.as_ordered(ctx.board, name, list[JSON](plan))  # a break off announced first (IC-FORM-14)
    order = orders.order_of(battle, name, list[JSON](plan))
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
        data["breaks_off"] = orders.breaks_off(list[JSON](plan))
    ctx.emit(SHIP_MOVED, data, ships=changed)
