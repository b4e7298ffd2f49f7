"""The example's one phase pair: ask each side for its stance (TPL-SEQ-01), then roll for each side, a bold
stance adding one, the higher roll scoring a point (TPL-SEQ-02); the most points after the turns wins
(TPL-END-01). A phase function reads ``ctx.state`` and ``ctx.board``, rolls with ``ctx.roll`` (logged) and
records what happened with ``ctx.emit``; it never changes the board itself (the fold does)."""

from __future__ import annotations

from battles.engine.jsonread import read_int
from battles.engine.resolver import Context
from battles.rules._template.board import Board
from battles.rules._template.kinds import ORDERS, RESOLVE, SCORED, STANCE, STANCES


def ask_stances(ctx: Context[Board]) -> None:
    ctx.begin_turn()
    ctx.begin_phase(ORDERS)
    for side in ctx.state.sides:
        piece = ctx.board.piece_of(side)
        ctx.request(side, STANCE, rule="TPL-SEQ-01", options=list(STANCES), secret=True, ships=[piece.name])


def resolve_turn(ctx: Context[Board]) -> None:
    ctx.begin_phase(RESOLVE)
    rolls = {}
    for side in ctx.state.sides:
        bold = ctx.board.stances.get(side) == "bold"
        bonus = {"bold": read_int(ctx.tables["bold_bonus"])} if bold else {}  # tables are data (data/)
        rolls[side] = ctx.roll(f"score: {side}", modifiers=bonus).total
    best = max(rolls.values())
    leaders = [side for side, total in rolls.items() if total == best]
    if len(leaders) == 1:
        ctx.emit(SCORED, {"piece": ctx.board.piece_of(leaders[0]).name})
    if ctx.state.turn >= ctx.board.turns:
        points = {p.side: p.points for p in ctx.board.pieces}
        top = max(points.values())
        winners = [side for side, n in points.items() if n == top]
        ctx.end_battle(winners[0] if len(winners) == 1 else None, "the turns are played")  # TPL-END-01
    else:
        ask_stances(ctx)
