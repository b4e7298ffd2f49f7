"""Step 2b, grappling and boarding (CM-BRD-01..21, CM-PG-01/02, CM-ALT-04/05): after the move, before fire
(docs/cloudships.md section 8).

- The active captain is asked one listed decision (boarding.choices): with an enemy in her hex and band when her
  move is over, leave well alone (the default) or grapple her (CM-BRD-01); carrying on a boarding action she
  began, board on (the default, CM-BRD-17) or cast off. A ship only boarded is not asked: she fights in her
  attacker's turn.
- The grapple (CM-BRD-03..06): both roll a die plus boarding value; the grappler must score higher, a tie cuts
  the lines. With her power grapnel aboard a failed grapple is tried once more at once, no better (CM-PG-01/02).
- The lines hold: the first round of boarding is fought at once; one more in each of the attacker's turns.
- A round (CM-BRD-07..15): both roll a die plus boarding value. The lower loses the difference, the higher a die's
  worth (1-4: 1, 5: 2, 6: 3; crew.winners_loss); a tie costs each 1. A captain with parties and flights aboard
  says which the losses take (a second listed decision, boarding.ways_to_lose), then they are marked off.
- Then: a ship at boarding value 0 strikes, her enemy's prize if anyone is left aboard him (CM-BRD-20/21);
  the defenders scoring higher repel the boarders and cut the grapples (CM-BRD-18); a ship let go above her
  ceiling drops to it (CM-ALT-05).
"""

from __future__ import annotations

from battles.engine.dice import table
from battles.engine.events import JSON
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import boarding, crew
from battles.rules.cloudships_2023.board import Board, BoardingRound, Grapple
from battles.rules.cloudships_2023.boarding import Losses
from battles.rules.cloudships_2023.kinds import (
    BOARD,
    BOARD_DECISION,
    BOARDING_DONE,
    BOARDING_FOUGHT,
    CAST_OFF,
    DEFENDERS,
    FATE,
    FIRE,
    GRAPPLE,
    GRAPPLE_TRIED,
    GRAPPLED,
    GRAPPLES_CUT,
    LOSSES_DECISION,
    LOSSES_TAKEN,
    STRUCK,
    TIE,
)
from battles.rules.cloudships_2023.phases.release import drop_if_free

WINNERS_LOSS = table("1d6", [(1, 4, "loses 1"), (5, 5, "loses 2"), (6, 6, "loses 3")])  # CM-BRD-12..14


def grapple_and_board(ctx: Context[Board]) -> None:
    """Stage BOARDING: finish a round whose losses were owed, carry out the captain's order, or ask for it;
    then step 3, fire."""
    board = ctx.board
    if board.fight is not None:
        finish_round(ctx)
    elif board.boarding is not None:
        if carry_out(ctx, board.boarding):
            return  # a captain is asked how to take his losses
    elif ask(ctx):
        return
    ctx.begin_phase(FIRE)


def ask(ctx: Context[Board]) -> bool:
    """Put the boarding decision to the active captain, if she has a choice to make."""
    name = ctx.board.active
    if name is None:
        return False
    options = boarding.choices(ctx.board, name)
    if not options:
        return False
    ship = ctx.board.ship_named(name)
    said = "; ".join(boarding.words(option) for option in options)
    prompt = f"{name} (boarding value {boarding.boarding_value(ship)}): {said}"
    ctx.request(ship.side, BOARD_DECISION, rule="CM-BRD-01", options=options, prompt=prompt, ships=[name])
    return True


def carry_out(ctx: Context[Board], order: JSON) -> bool:
    """The captain's order. True when a round's losses wait for a captain's answer."""
    name = ctx.board.active
    assert name is not None  # the order was asked of the active ship
    if isinstance(order, dict):
        ((what, target),) = order.items()
        if what == GRAPPLE and not grapple(ctx, name, str(target)):
            ctx.emit(BOARDING_DONE, {"ship": name})
            return False
        if what == CAST_OFF:
            cut(ctx, Grapple(name, str(target)), "she casts off (docs/cloudships.md section 8)")
            ctx.emit(BOARDING_DONE, {"ship": name})
            return False
        if what in (GRAPPLE, BOARD):
            return fight(ctx, Grapple(name, str(target)))
    ctx.emit(BOARDING_DONE, {"ship": name})
    return False


# --- the grapple --------------------------------------------------------------------------------------------------


def grapple(ctx: Context[Board], name: str, target: str) -> bool:
    """Lines thrown and cut (CM-BRD-03..06); the power grapnel tries once more (CM-PG-01/02). True if they hold."""
    held = throw(ctx, name, target, grapnel=False)
    if not held and ctx.board.ship_named(name).grapnel:
        held = throw(ctx, name, target, grapnel=True)
    if held:
        ctx.emit(GRAPPLED, {"attacker": name, "defender": target}, ships=[name, target])
    return held


def throw(ctx: Context[Board], name: str, target: str, *, grapnel: bool) -> bool:
    how = "fires her power grapnel at" if grapnel else "throws grapples on"
    mine = _roll(ctx, name, f"{name} {how} {target} (CM-BRD-03)")
    theirs = _roll(ctx, target, f"{target} cuts {possessive(name)} lines (CM-BRD-03)")
    held = mine > theirs
    clauses = ["CM-BRD-03", "CM-BRD-04" if held else "CM-BRD-05"] + (["CM-PG-01", "CM-PG-02"] if grapnel else [])
    if mine == theirs:
        clauses.append("CM-BRD-06")
    data = {"ship": name, "target": target, "scores": [mine, theirs], "held": held, "grapnel": grapnel}
    ctx.emit(GRAPPLE_TRIED, {**data, "clauses": clauses}, ships=[name, target])
    return held


def _roll(ctx: Context[Board], name: str, purpose: str) -> int:
    """A die plus the ship's boarding value, each part of it a named modifier (CM-BRD-03/07..10, CM-SUP-06)."""
    ship = ctx.board.ship_named(name)
    parts = boarding.value_parts(ship)
    if sum(parts.values()) < 0:  # marked off beyond what is left: the value stops at 0
        parts["marked off"] -= sum(parts.values())
    return ctx.roll(purpose, modifiers=parts, ships=[name]).total


# --- a round of boarding -------------------------------------------------------------------------------------------


def fight(ctx: Context[Board], action: Grapple) -> bool:
    """One round (CM-BRD-07..15). True when a captain is asked how to take his losses (the round finishes once
    he has answered)."""
    attacker, defender = action.attacker, action.defender
    ours = _roll(ctx, attacker, f"{possessive(attacker)} boarders against {defender} (CM-BRD-07)")
    theirs = _roll(ctx, defender, f"{possessive(defender)} crew against {possessive(attacker)} boarders (CM-BRD-07)")
    won = boarding.winner(ours, theirs)
    if won == TIE:
        losses = {attacker: 1, defender: 1}  # CM-BRD-15
    else:
        high, low = (defender, attacker) if won == DEFENDERS else (attacker, defender)
        rolled = ctx.roll(f"{possessive(high)} own losses (CM-BRD-12..14)", needed=WINNERS_LOSS, ships=[high])
        losses = {low: abs(ours - theirs), high: crew.winners_loss(rolled.total)}  # CM-BRD-11
    data = {"attacker": attacker, "defender": defender, "scores": [ours, theirs], "winner": won, "losses": losses}
    ctx.emit(BOARDING_FOUGHT, data, ships=[attacker, defender])
    return ask_losses(ctx)


def ask_losses(ctx: Context[Board]) -> bool:
    """Each captain with a choice of how to take his losses is asked (parties first is the default)."""
    fight_ = ctx.board.fight
    assert fight_ is not None  # just fought
    asked = False
    for name, points in fight_.losses:
        ship = ctx.board.ship_named(name)
        ways = boarding.ways_to_lose(ship, points)
        if len(ways) > 1:
            prompt = f"{name} loses {points} boarding value: which parties and flights go (CM-BRD-11, CM-FLY-25)"
            options = [way.to_json() for way in ways]
            ctx.request(ship.side, LOSSES_DECISION, rule="CM-BRD-11", options=options, prompt=prompt, ships=[name])
            asked = True
    if not asked:
        finish_round(ctx)
    return asked


def finish_round(ctx: Context[Board]) -> None:
    """The losses marked off, then surrender, the repelled boarders, the drops (CM-BRD-16..21, CM-ALT-05)."""
    fight_ = ctx.board.fight
    assert fight_ is not None  # fought this stage
    splits = dict(fight_.splits)
    for name, points in fight_.losses:
        way = splits.get(name)
        losses = Losses.of(way) if way is not None else boarding.ways_to_lose(ctx.board.ship_named(name), points)[0]
        data = {**losses.to_json(), "points": points, "clauses": ["CM-BRD-11", "CM-BRD-16"]}
        ctx.emit(LOSSES_TAKEN, data, ships=[name])
    strike(ctx, fight_)
    action = Grapple(fight_.attacker, fight_.defender)
    if fight_.winner == DEFENDERS and action in ctx.board.grapples:
        cut(ctx, action, "the boarders are repelled (CM-BRD-18)")
    drop_if_free(ctx, (fight_.attacker, fight_.defender))
    ctx.emit(BOARDING_DONE, {"ship": fight_.attacker})


def strike(ctx: Context[Board], fight_: BoardingRound) -> None:
    """A ship whose boarding value is 0 strikes (CM-BRD-20, attacker or defender: section 5), the prize of the
    ship she fought if any one is left aboard her to take her (CM-BRD-21)."""
    pair = (fight_.attacker, fight_.defender)
    beaten = [name for name in pair if boarding.boarding_value(ctx.board.ship_named(name)) == 0]
    for name in beaten:
        other = pair[1] if name == pair[0] else pair[0]
        taken_by = "" if other in beaten else other
        why = "her boarding value is 0: she strikes (CM-BRD-20)"
        drop_if_free(ctx, ctx.board.ship_named(name).grappled, letting_go=frozenset({name}))  # CM-ALT-05
        ctx.emit(FATE, {"ship": name, "status": STRUCK, "why": why, "taken_by": taken_by}, ships=[name, other])


def cut(ctx: Context[Board], action: Grapple, why: str) -> None:
    """The grapples go (CM-BRD-18); a ship they held above her ceiling drops to it as they go (CM-ALT-05)."""
    pair = (action.attacker, action.defender)
    drop_if_free(ctx, pair, letting_go=frozenset(pair))
    data = {"attacker": action.attacker, "defender": action.defender, "why": why}
    ctx.emit(GRAPPLES_CUT, data, ships=list(pair))
