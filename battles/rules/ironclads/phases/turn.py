"""The Game Turn's frame (IC-SEQ-05/06, docs/ironclads.md "The turn, in the app"): the sea state rolled once before
play (IC-SEA-01..03), each turn's Initiative (IC-INIT-01/02), and the End Phase: ships with no Hull left sink
(IC-END-01), a side with no ship left on the table loses (IC-END-02/03), and the scenario's turn limit stands for
the players' agreement to stop (IC-END-04/05)."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.engine.words import mid_sentence
from battles.rules.ironclads import board as board_
from battles.rules.ironclads import orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.cards import HULL
from battles.rules.ironclads.kinds import END, INITIATIVE, INITIATIVE_WON, SEA_STATE, SHIP_SUNK


def open_battle(ctx: Context[Battle]) -> None:
    """Just before play one player a side rolls a D6: a double 1 is a rough sea, any other pair calm, fixed for the
    game (IC-SEA-01..03). Then the first Game Turn."""
    dice = {side: ctx.roll(f"Sea state: {side}").dice[0] for side in ctx.state.sides}
    rough = all(face == 1 for face in dice.values())
    first, second = list(dice.values())[:2]
    assert rough == board_.rough_sea(first, second) or len(dice) > 2
    ctx.emit(SEA_STATE, {"dice": dice, "rough": rough})


def start_turn(ctx: Context[Battle]) -> None:
    """A Game Turn opens with phase 1, the Initiative."""
    ctx.begin_turn()
    ctx.begin_phase(INITIATIVE)
    roll_initiative(ctx)


def roll_initiative(ctx: Context[Battle]) -> None:
    """One D6 a side; the lowest has the Initiative for the Game Turn, a tie for lowest rolled again by every side
    (IC-INIT-01/02)."""
    rounds: list[dict[str, int]] = []
    while True:
        rolled = {side: ctx.roll(f"Initiative: {side}").dice[0] for side in ctx.state.sides}
        rounds.append(rolled)
        low = min(rolled.values())
        lowest = [side for side, face in rolled.items() if face == low]
        if len(lowest) == 1:
            break
    ctx.emit(INITIATIVE_WON, {"side": lowest[0], "rounds": rounds})


def end_phase(ctx: Context[Battle]) -> bool:
    """Phase 4: A, every ship with no Hull left sinks (IC-END-01); B, the end of the game, or play on. True when
    another Game Turn is to be played."""
    ctx.begin_phase(END)
    for ship in ctx.board.board.afloat:
        if ship.card.left(HULL) == 0:
            ctx.emit(SHIP_SUNK, {"ship": ship.name}, ships=[ship.name])
    if decided(ctx):
        return False
    if ctx.state.turn >= ctx.board.turns:
        ctx.end_battle(*at_the_limit(ctx.board, ctx.state.sides))
        return False
    return True


def decided(ctx: Context[Battle]) -> bool:
    """A side with no ship left on the table has lost at once (IC-END-02); both at once, a loss for both
    (IC-END-03, a draw in the app's words). True if the battle is over."""
    left = orders.sides_with_ships(ctx.board, ctx.state.sides)
    if len(left) > 1:
        return False
    if left:
        name = mid_sentence(ctx.board.side_names.get(left[0], left[0]))
        ctx.end_battle(left[0], f"{name} alone have ships on the table")
    else:
        ctx.end_battle(None, "neither side has a ship left on the table: a loss for both")
    return True


def at_the_limit(battle: Battle, sides: tuple[str, ...]) -> tuple[str | None, str]:
    """The scenario's last Game Turn played: the side with more ships on the table wins; equal numbers, the side
    with the greater share of its ships' stats left (every track of the Data Cards); equal shares draw (docs:
    "Play on or stop")."""
    counts = {side: len(battle.afloat_of(side)) for side in sides}
    share = {side: orders.strength_share(battle, side) for side in sides}
    ranked = sorted(sides, key=lambda s: (counts[s], share[s]), reverse=True)
    best, second = ranked[0], ranked[1]
    name = mid_sentence(battle.side_names.get(best, best))
    if counts[best] > counts[second]:
        return best, f"the turns are played; {name} keep more ships on the table"
    if share[best] > share[second]:
        return best, f"the turns are played; {name} keep more of their ships' strength"
    return None, "the turns are played with neither side the stronger"
