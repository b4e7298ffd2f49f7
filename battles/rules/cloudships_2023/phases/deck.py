"""The deck (CM-SEQ-03): the umpire turns the top card and that ship takes her turn.

The deck is shuffled card by card: when a card is turned, one logged die picks it from the cards still face down
(``Context.pick``, one die with as many faces as cards left). Every card left has the same chance, as in a deck
shuffled at the start of the round, but the order of the cards not yet turned is decided by dice not yet rolled:
it is nowhere, so no view, log, export or AI can show it (docs/cloudships.md section 3). The last card needs no die.

Who turns it: by default the app, as soon as the last ship's turn is over. With the option ``umpire_turns_cards``
the battle waits for a go-ahead first (a decision with one answer, "turn"), the umpire's (``umpire=True``): in web
play and at the club table alike it is his hand on the deck, never a player's.
"""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import CARD, CARD_TURNED, STATUS, TURN_CARD, TURN_IT, UMPIRE_TURNS_CARDS


def next_card(ctx: Context[Board]) -> None:
    """Stage DECK: turn the next card, or with the option ask for the go-ahead first."""
    if not ctx.option(UMPIRE_TURNS_CARDS):
        turn_card(ctx)
        return
    side = go_ahead_side(ctx.board, ctx.state.sides)
    ctx.request(side, TURN_CARD, rule="CM-SEQ-03", options=[TURN_IT], prompt="turn the next card", umpire=True)
    ctx.begin_phase(CARD)


def go_ahead_side(board: Board, sides: tuple[str, ...]) -> str:
    """The side the umpire's go-ahead is logged under: the side of the ship whose turn just ended, at a round's
    start the battle's first side. The umpire answers it in web play; where no person plays (auto-resolve, the
    odds) this side's captain gives it. Nothing hangs on it: no card is drawn yet."""
    last = board.deck.turned[-1] if board.deck.turned else None
    return board.ship_named(last).side if last is not None else sides[0]


def turn_card(ctx: Context[Board]) -> None:
    """Stages DECK (the app turns it) and CARD (the go-ahead given): draw, show, and begin that ship's turn."""
    left = ctx.board.cards_left()
    card = left[0] if len(left) == 1 else ctx.pick(f"the next card: {len(left)} face down (CM-SEQ-03)", left)
    ctx.emit(CARD_TURNED, {"ship": card, "round": ctx.state.turn}, ships=[card])
    ctx.begin_phase(STATUS)
