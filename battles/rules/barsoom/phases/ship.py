"""The Ship Phase once the plots are in (BR-SEQ-01/03): the random options of ships out of control drawn
(BR-OOC-02), then every card revealed and executed one at a time, the sides alternating in initiative order, ship
by ship and card by card; the damage each card owes rolled and applied at once (BR-DMG-02), the optional rule's
roll after the card that broke a restriction (BR-OPT-02), and the fires' rolls at the end of the phase (BR-DMG-11).
Then the figures' phases (BR-SEQ-04): each ship's fire and crew orders are asked for."""

from __future__ import annotations

from battles.engine.events import JSONObject
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.barsoom import cards, damage, movement, orders
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.cards import Breach
from battles.rules.barsoom.kinds import (
    BURNING,
    CARD_REVEALED,
    CREW_ORDERS,
    FIRE_ORDERS,
    GUNS_LOST,
    MOVES,
    ORDERS,
    OUT_OF_CONTROL,
    SHIP_PHASE,
)
from battles.rules.barsoom.phases import turn
from battles.rules.barsoom.phases.damage import ask_guns_lost, owing, record_move, settle, suffer


def ship_phase(ctx: Context[Battle]) -> None:
    ctx.begin_phase(SHIP_PHASE)
    draw_random_options(ctx)
    for name, slot in reveal_order(ctx.board):
        execute_card(ctx, name, slot)
    for ship in ctx.board.board.ships:
        fires = damage.fire_rolls(ctx.board.of(ship.name).condition)
        suffer(ctx, ship.name, fires, 0, BURNING, "BR-DMG-11")
    if turn.decided(ctx):
        return
    after_guns_lost(ctx)


def after_guns_lost(ctx: Context[Battle]) -> None:
    """Owners who owe row 8 a gun choose it before the orders, which read her guns (BR-DMG-10); then the orders."""
    if owing(ctx.board):
        if ctx.state.phase != GUNS_LOST:
            ctx.begin_phase(GUNS_LOST)
        ask_guns_lost(ctx)
        return
    ask_orders(ctx)


def draw_random_options(ctx: Context[Battle]) -> None:
    """An out-of-control ship's options come from her deck as it stands, without putting back (BR-OOC-02/03); her
    last option is the Descend that ends her turn, so she draws one fewer than she has options."""
    for ship in orders.adrift(ctx.board):
        deck = orders.deck_of(ctx.board, ship.name)
        wanted = orders.cards_to_plot(ctx.board, ship.name) - 1
        faces = [
            ctx.roll(f"Random option: {ship.name}", sides=sides, ships=[ship.name]).dice[0]
            for sides in cards.random_dice(deck)[:wanted]
        ]
        picks = cards.random_options(deck, faces)
        ctx.emit(OUT_OF_CONTROL, {"ship": ship.name, "cards": list(picks)}, ships=[ship.name])


def reveal_order(battle: Battle) -> tuple[tuple[str, int], ...]:
    """(ship, card's place) in the order of reveal (BR-SEQ-03): each side brings its ships in the order it chose,
    each plot's place; a ship that names none keeps her place in the board's order, after any ship placed there,
    and ships named to one place come in the board's order. So plots with no place, as every plot stored before
    sides chose, reveal in the board's order."""
    fleets = {side: _in_its_order(battle, side) for side in battle.initiative}
    return cards.reveal_order(battle.initiative, fleets)


def _in_its_order(battle: Battle, side: str) -> list[tuple[str, int]]:
    ships = [ship.name for ship in battle.ships_of(side) if ship.name in battle.plots]
    # A ship her side placed goes before one left where the scenario lists her at the same place: "Red Two first"
    # puts her ahead of Red One, whatever Red One's plot says of nothing.
    keys = {name: _place_key(battle.plots[name].place, n) for n, name in enumerate(ships)}
    return [(name, len(battle.plots[name].cards)) for name in sorted(ships, key=keys.__getitem__)]


def _place_key(place: int | None, listed: int) -> tuple[int, int, int]:
    return (listed + 1, 1, listed) if place is None else (place, 0, listed)


def execute_card(ctx: Context[Battle], name: str, slot: int) -> None:
    """Reveal one card and carry it out; the damage it owes is rolled before the next card is shown. A Turn card
    held is revealed as the card it is, marked held, and turns her not at all (BR-MOV-05)."""
    plot = ctx.board.plots[name]
    card, turns = cards.played(plot.cards[slot])
    ram = plot.ram and card in MOVES and not plot.forced
    data: JSONObject = {"ship": name, "slot": slot, "card": card, "ram": ram, "forced": plot.forced}
    if not turns:
        data["held"] = True  # written only when held, so every battle logged before reads as it did
    ctx.emit(CARD_REVEALED, data, ships=[name])
    board = ctx.board.board
    if plot.forced and slot == len(plot.cards) - 1:
        moved = movement.forced_descend(board, name)  # BR-OOC-02: the Descend nobody chose
    else:
        moved = movement.execute(board, name, card, ram=ram, turn=turns, forced=plot.forced)
    record_move(ctx, name, card, moved, forced=plot.forced, ram=ram)
    settle(ctx, moved.damage)
    if plot.ignored == slot:
        settle(ctx, [cards.ignored_damage(name, Breach(slot, "BR-OPT-02", "a restriction ignored"))])


def ask_orders(ctx: Context[Battle]) -> None:
    """The figures' phases in the stand-in: each ship that can do something is asked her fire orders and her crew
    orders, all at once (the sides answer together)."""
    ctx.begin_phase(ORDERS)
    battle, now = ctx.board, ctx.state.turn
    for ship in battle.board.ships:
        aims = orders.targets(battle, ship.name, now)
        if len(aims) > 1:
            ctx.request(
                ship.side,
                FIRE_ORDERS,
                rule="BR-WPN-03",
                options=aims,
                prompt=f"{possessive(ship.name)} guns",
                ships=[ship.name],
            )
        tasks = orders.crew_orders(battle, ship.name)
        if len(tasks) > 1:
            ctx.request(
                ship.side,
                CREW_ORDERS,
                rule="BR-SEQ-04",
                options=tasks,
                prompt=f"{possessive(ship.name)} crew",
                ships=[ship.name],
            )
