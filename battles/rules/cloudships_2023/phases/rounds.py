"""Rounds: the battle opens with round 1; each round begins with a deck of one card per ship still in the fight
(CM-SEQ-03/04); when every card has been turned the round ends (CM-SEQ-13..16, CM-REP-01..08):

1. every lit Fire burns: one box crossed (docs/cloudships.md section 4), and the criticals that crosses light
   amber as any others do (CM-DMG-12);
2. the lights move on, on every ship at once: reds off, then ambers to red, and all Fired markers off
   (CM-SEQ-14..16, CM-LIGHT-06);
3. each crew not grappled (CM-REP-01) tries one repair: a die below its blue squares, plus one if superior,
   puts out the fire or takes a red light off (CM-REP-02..08, crew.py);
4. the battle ends if one side alone still flies, or at the scenario's last round; else the next round.
"""

from __future__ import annotations

from battles.engine.dice import at_most
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import crew, panels
from battles.rules.cloudships_2023.board import Board, Ship
from battles.rules.cloudships_2023.kinds import DECK, DECK_MADE, FIRE_BURNS, LIGHTS_CYCLED, REPAIRED
from battles.rules.cloudships_2023.phases.damage import cross_boxes
from battles.rules.cloudships_2023.phases.turn import ambers
from battles.rules.cloudships_2023.victory import decided, round_limit

# What a crew mends first: the fire, which costs a box a round, then the lights from the worst (docs/cloudships.md).
REPAIR_ORDER = (panels.FIRE, panels.BRIDGE_HIT, panels.NO_DIRECTION_CHANGE, panels.NO_ALTITUDE_CHANGE)


def open_battle(ctx: Context[Board]) -> None:
    """Stage SETUP: the ships are placed (the scenario, ruleset.setup); round 1 begins."""
    begin_round(ctx)


def begin_round(ctx: Context[Board]) -> None:
    """A new round (CM-SEQ-04): the deck made of one card per ship still flying (CM-SEQ-03). The event names the
    cards, never an order: the cards are drawn one by one as they are turned (phases/deck.py)."""
    ctx.begin_turn()
    ctx.begin_phase(DECK)
    cards = [ship.name for ship in ctx.board.flying()]
    ctx.emit(DECK_MADE, {"cards": cards, "round": ctx.state.turn})


def end_of_round(ctx: Context[Board]) -> None:
    """Stage END_OF_ROUND: fires, lights, repairs, then the end of the battle or the next round."""
    burn(ctx)
    ambers(ctx)
    ctx.emit(LIGHTS_CYCLED, {"round": ctx.state.turn})
    for ship in ctx.board.flying():
        repair(ctx, ship)
    ending = decided(ctx.board) or round_limit(ctx.board, ctx.state.turn)
    if ending is not None:
        ctx.end_battle(ending.winner, ending.reason)
    else:
        begin_round(ctx)


def burn(ctx: Context[Board]) -> None:
    """Every ship on fire (its Fire light amber or red) crosses one box, which may do what any box does."""
    for ship in ctx.board.flying():
        if ship.lit(panels.FIRE):
            ctx.emit(FIRE_BURNS, {"ship": ship.name}, ships=[ship.name])
            cross_boxes(ctx, ship.name, 1)


def repair_target(ship: Ship) -> str | None:
    """The light a crew works on, if it may work at all: not while grappled, boarding or boarded (CM-REP-01); only
    a lit light (after the cycle every lit light is red, the fire included: CM-REP-02/03)."""
    if ship.grappled:
        return None
    return next((light for light in REPAIR_ORDER if ship.lit(light)), None)


def repair(ctx: Context[Board], ship: Ship) -> None:
    """One attempt: a die below the repair number mends (CM-REP-04..07). A crew whose number no die can be
    below rolls nothing."""
    light = repair_target(ship)
    number = crew.repair_number(ship.parties, superior=ship.panel.superior)
    if light is None or number <= 1:
        return
    needed = at_most(number - 1, "mended", "no effect")
    purpose = f"{possessive(ship.name)} crew repairs: {light} (CM-REP-04)"
    rolled = ctx.roll(purpose, needed=needed, ships=[ship.name])
    if crew.repair_succeeds(rolled.total, ship.parties, superior=ship.panel.superior):
        ctx.emit(REPAIRED, {"ship": ship.name, "light": light}, ships=[ship.name])
