"""A ship's turn (CM-SEQ-05..13), one stage a step: 1 status (here), 2 move (movement.py), 3 fire and return fire
(fire.py), 4 mark damage (damage.py), 5 ambers (here); then the turn ends here, and the next card is turned or the
round ends. Tether mines and drogues let out or winched in and Smutts torpedoes launched at the start of the turn
(CM-TM-01/02, CM-SMT-01) are asked as stage MOVE opens (phases/ordnance.py), then the Flying Martians are deployed,
flown and redocked (CM-FLY-04..06, CM-FLY-20; phases/flights.py)."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, Ship, TurnStatus
from battles.rules.cloudships_2023.kinds import (
    AMBER_LIT,
    DECK,
    END_OF_ROUND,
    MOVE,
    STATUS_CHECKED,
    TURN_ENDED,
)
from battles.rules.cloudships_2023.panels import CRITICAL_LIGHTS, LIGHTS
from battles.rules.cloudships_2023.victory import decided

MOTIVE_POWER_HIT = "Motive Power Hit"


def active_ship(board: Board) -> Ship:
    """The ship whose card is up."""
    if board.active is None:
        raise ValueError("no card is up")
    return board.ship_named(board.active)


def check_status(ctx: Context[Board]) -> None:
    """Step 1 (CM-SEQ-05): the movement allowance and the limits the lights set; a kite rolls its movement
    (CM-MOV-12). Then step 2."""
    ship = active_ship(ctx.board)
    kite_roll, sail_roll = None, None
    if ship.panel.movement is None:
        kite_roll = ctx.roll(f"{possessive(ship.name)} movement: a kite rolls (CM-MOV-12)", ships=[ship.name]).total
    elif ship.panel.motive == panels.MIXED:
        purpose = f"{possessive(ship.name)} sail: is the wind with her? (CM-MOV-19..21)"
        sail_roll = ctx.roll(purpose, ships=[ship.name]).total
    ctx.emit(STATUS_CHECKED, status_of(ship, kite_roll, sail_roll).to_json(), ships=[ship.name])
    ctx.begin_phase(MOVE)


# A mixed-power ship's sail roll: 1-4 adds nothing, 5 one point, 6 two (CM-MOV-19..21).
SAIL_BONUS = {5: 1, 6: 2}


def sail_bonus(roll: int) -> int:
    return SAIL_BONUS.get(roll, 0)


def status_of(ship: Ship, kite_roll: int | None = None, sail_roll: int | None = None) -> TurnStatus:
    """What ``ship`` may do this turn: her movement (the panel's, or the kite's die) less one for every Speed box
    crossed (CM-DMG-09) and every Motive Power Hit (docs/cloudships.md section 4), never below 0; an amber or a
    red light stops its system alike (CM-LIGHT-02/05). A mixed-power ship's sail adds its points to what her
    engines have left: damage takes the engines' points, not the wind's (docs/cloudships.md section 6)."""
    base = kite_roll if kite_roll is not None else ship.panel.movement or 0
    steam = max(0, base - ship.speed_lost - ship.criticals.count(MOTIVE_POWER_HIT))
    sail = 0 if sail_roll is None else sail_bonus(sail_roll)
    return TurnStatus(
        ship=ship.name,
        movement=steam + sail,
        sail=sail,
        kite_roll=kite_roll,
        no_altitude_change=ship.lit(panels.NO_ALTITUDE_CHANGE),
        no_direction_change=ship.lit(panels.NO_DIRECTION_CHANGE),
        whole_movement=ship.lit(panels.BRIDGE_HIT),
    )


def light_ambers(ctx: Context[Board]) -> None:
    """Step 5 (CM-SEQ-12, CM-DMG-12): every critical taken this turn, on any ship, lights its lights amber
    (CM-LIGHT-03/04). Then the turn ends."""
    ambers(ctx)
    end_turn(ctx)


def ambers(ctx: Context[Board]) -> None:
    for ship in ctx.board.ships:
        if ship.pending:
            lit = {light for critical in ship.pending for light in CRITICAL_LIGHTS[critical]}
            lights = [light for light in LIGHTS if light in lit]
            ctx.emit(
                AMBER_LIT, {"ship": ship.name, "lights": lights, "criticals": list(ship.pending)}, ships=[ship.name]
            )


def end_turn(ctx: Context[Board]) -> None:
    """The turn is over: the battle ends if one side alone still flies; else the next card (CM-SEQ-13), or the
    end of the round when every card is turned (CM-SEQ-04)."""
    ship = active_ship(ctx.board)
    ctx.emit(TURN_ENDED, {"ship": ship.name}, ships=[ship.name])
    ending = decided(ctx.board)
    if ending is not None:
        ctx.end_battle(ending.winner, ending.reason)
    elif ctx.board.cards_left():
        ctx.begin_phase(DECK)
    else:
        ctx.begin_phase(END_OF_ROUND)
