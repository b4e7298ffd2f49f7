"""Plotted movement, the errata's optional variant (SG-ERR-24/25; option ``plotted_movement``, off by default).

In the Initiative Phase, at the same time as the crew changes, each side secretly plots half of each ship's
movement, in movement points: a plain plan of steps costing at most half the ship's allowance, rounded up
(:func:`share`). Plotting less is allowed, but it lowers the whole turn's movement. Once the initiative is
decided the plotted moves are carried out, all before anyone's Movement Phase; then play goes on as usual,
except that in its own Movement Phase no ship may spend more movement points than its plotted move did
(:func:`rest`), so a ship moves at most twice what it plotted, and never more than its allowance.

The readings (data/optional-rules.json ``plotted_movement``):

* Odd allowances round up: a speed 5 ship plots up to 3 MP, and has 2 left for its own phase.
* The plotted moves are carried out in the turn's movement order (the side that moves first first, each
  side's ships in scenario order), each ship's whole plot in turn with the usual collision checks; that order
  settles who enters a shared hex first.
* A ship stopped by a collision in its plotted move moves no more that turn (SG-COL-04).
* Kites do not plot: their allowance comes from the movement die rolled in their own phase (SG-KITE-02/04).
  A ship that may not move (grappled, or in tow) plots nothing.
* With nobody at the helm the ship holds its course (SG-CREW-08): it plots the first half, rounded up, of
  the hexes it holds, and moves the rest in its own phase.

The allowances are pure (:func:`share`, :func:`plotting`, :func:`rest`); the rest of the module runs the
variant in the ruleset's sequence of play: the plot decision (:func:`ask`, :func:`problem`,
:func:`candidates`), the plots kept (:func:`made`) and carried out (:func:`begin`, :func:`carry_out`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from battles.engine.events import JSON, Event
from battles.engine.jsonread import DataFile, read_int, read_list, read_object
from battles.engine.resolver import Context
from battles.engine.state import BattleState
from battles.rules.sky_galleons import avoidance, candidates, queries, validate
from battles.rules.sky_galleons.kinds import PLOT, PLOTTED
from battles.rules.sky_galleons.phases import basics
from galleons.record import ShipRecord

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board, Fold
    from battles.rules.sky_galleons.play import Play

OPTIONAL_RULES = DataFile(Path(__file__).parent / "data" / "optional-rules.json")


# --- in the sequence of play ------------------------------------------------------------------------------


def ask(ctx: Context[Board]) -> None:
    """With the variant on, each side plots half of each ship's move with its orders, in secret (SG-ERR-24)."""
    if not ctx.option("plotted_movement"):
        return
    for side in ctx.board.sides_fighting():
        ships = [s.name for s in queries.plotters(ctx.state, side)]
        if ships:
            ctx.request(
                side,
                PLOT,
                rule="SG-ERR-24",
                default=candidates.plot_default(ctx.state, side),
                secret=True,
                prompt='plot half of each ship\'s move: {"plots": {ship: [steps]}}; a ship left out does not move '
                "this turn",
                ships=ships,
            )


def made(ctx: Context[Board]) -> None:
    """The plots, kept for after the initiative, each side's logged to it alone: the others see each plot as
    it is carried out (SG-ERR-25). A plotting ship left out plotted nothing (SG-ERR-24)."""
    if not ctx.option("plotted_movement"):
        return
    plotted: dict[str, JSON] = {}
    for answer in ctx.board.decided:
        if answer.kind == PLOT:
            plotted.update(read_object(read_object(answer.choice)["plots"]))
    for side in ctx.board.side_order:
        plots = {name: steps for name, steps in plotted.items() if ctx.board.ship(name).side == side}
        if side in ctx.board.sides_fighting():
            for record in queries.plotters(ctx.state, side):
                plots.setdefault(record.name, [])
        if plots:
            ctx.emit("plots", {"plots": plots, "clauses": ["SG-ERR-24"]}, secret_to=side)


def begin(ctx: Context[Board]) -> bool:
    """Once the movement order is known, the plotted moves go first, if there are any (SG-ERR-25)."""
    if not ctx.board.plots:
        return False
    ctx.begin_phase("plotted movement")
    basics.stage(ctx, PLOTTED)
    return True


def order(board: Board) -> list[str]:
    """The plotted moves in the order they are carried out: the turn's movement order, each side's ships in
    scenario order."""
    return [s.name for side in board.order for s in board.ships if s.side == side and s.name in board.plots]


def carry_out(rs: Play, ctx: Context[Board]) -> None:
    """Carry out the plotted moves one ship at a time (a move that will run into a ship waits for its answer,
    avoidance.py), then the first Movement Phase (SG-ERR-25)."""

    for name in order(ctx.board):
        if name in ctx.board.plotted:
            continue
        record = ctx.board.ship(name)
        steps = still_possible(ctx.state, record, list(ctx.board.plots[name]))
        if not steps or not ctx.board.in_fight(record) or queries.held(ctx.state, record):
            ctx.emit("plotted move", {"ship": name, "mp": 0, "cap": 0, "clauses": ["SG-ERR-25"]}, ships=[name])
            continue
        if avoidance.ask(ctx, name, list[JSON](steps)):
            return
        move(rs, ctx, name, steps)
    rs.next_phase(ctx, 1)


def still_possible(state: BattleState[Board], record: ShipRecord, steps: list[str]) -> list[str]:
    """The plot as far as the ship can still carry it out: damage taken since it was written (a collision in
    another ship's plotted move) may have cut its allowance. Nothing if not even its start is possible."""
    if not state.board.in_fight(record):
        return []
    for end in range(len(steps), 0, -1):
        if validate.move_problem(state, record, list[JSON](steps[:end])) is None:
            return steps[:end]
    return []


def resume(rs: Play, ctx: Context[Board], name: str, steps: list[str]) -> None:
    """A plotted move held for collision avoidance goes ahead; the next ones follow on the next advance."""
    basics.stage(ctx, PLOTTED)
    move(rs, ctx, name, steps)


def move(rs: Play, ctx: Context[Board], name: str, steps: list[str]) -> None:
    """One plotted move, and what it leaves the ship for its own phase: as many MP as it spent, none if a
    collision stopped it (SG-ERR-25, SG-COL-04)."""
    first = len(ctx.events)
    rs.carry_out(ctx, name, steps)
    done = ctx.events[first:]
    spent = sum(read_int(e.data["cost"]) for e in done if e.kind == "moved" and e.data["ship"] == name)
    stopped = any(e.kind == "collision" and e.data["ship"] == name for e in done)
    data = {"ship": name, "mp": spent, "cap": 0 if stopped else spent}
    ctx.emit("plotted move", {**data, "clauses": ["SG-ERR-25"] + (["SG-COL-04"] if stopped else [])}, ships=[name])


# --- the fold -----------------------------------------------------------------------------------------------


def _plots(state: BattleState[Board], event: Event) -> Board:
    """One side's plots (each side's are logged to it alone, SG-ERR-24)."""
    plots = {str(k): tuple(str(t) for t in read_list(v)) for k, v in read_object(event.data["plots"]).items()}
    return replace(state.board, plots={**state.board.plots, **plots})


def _plotted_move(state: BattleState[Board], event: Event) -> Board:
    plotted = (read_int(event.data["mp"]), read_int(event.data["cap"]))
    return replace(state.board, plotted={**state.board.plotted, str(event.data["ship"]): plotted})


FOLDS: Mapping[str, Fold] = {"plots": _plots, "plotted move": _plotted_move}
