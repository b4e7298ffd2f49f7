"""How each of the duel's decisions is answered, as an answer schema (battles.engine.answers): a placement is
a hex of the ship's deployment hexes and a facing; a plot is a path of steps built one at a time, each step
judged as it is added; a fire decision is one of its listed choices."""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine import answers, hexgrid
from battles.engine.answers import AnswerSchema, Option
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.jsonread import read_int
from battles.engine.state import BattleState
from battles.engine.telling import COMPASS, listed
from battles.engine.words import possessive
from battles.rules.duel.board import Board, Ship, follow
from battles.rules.duel.kinds import AHEAD, FIRE, PLACE, PLOT, PORT, STARBOARD
from battles.rules.duel.phases.fire import needed_to_hit
from battles.rules.duel.validate import deploy_hexes, plot_problem

STEP_LABELS = {AHEAD: "Ahead one hex", PORT: "Turn to port", STARBOARD: "Turn to starboard"}
FACINGS = tuple(Option(n, f"Facing {COMPASS[n]}") for n in range(6))


def answer_schema(
    state: BattleState[Board],
    request: DecisionRequest,
    tables: Mapping[str, JSON],
    *,
    partial: JSON = None,
    sides: Mapping[str, str] | None = None,
) -> AnswerSchema:
    board = state.board
    ship = board.ship_of(request.side)
    if request.kind == PLACE:
        return _placement(board, ship, request)
    if request.kind == PLOT:
        return _plot(board, ship, request, partial)
    if request.kind == FIRE:
        return _fire(board, ship, request, tables)
    return answers.default_schema(request)


def _placement(board: Board, ship: Ship, request: DecisionRequest) -> AnswerSchema:
    default = request.default if isinstance(request.default, dict) else {}
    spot = default.get("hex")
    here = (read_int(spot[0]), read_int(spot[1])) if isinstance(spot, list) and len(spot) == 2 else None
    facing = default.get("facing")
    root = answers.Group(
        key="placement",
        label=f"Place {ship.name}",
        clause="DUEL-SET-02",
        fields=(
            answers.Hex(key="hex", label="Hex", allowed=deploy_hexes(board, ship), default=here, clause="DUEL-SET-02"),
            answers.One(key="facing", label="Facing", options=FACINGS, default=facing, clause="DUEL-SET-03"),
        ),
    )
    return AnswerSchema(request.id, root, title=f"Place {ship.name}", clause="DUEL-SET-02", layout="place")


def _plot(board: Board, ship: Ship, request: DecisionRequest, partial: JSON) -> AnswerSchema:
    plan = [str(step) for step in partial] if isinstance(partial, list) else []
    problem = plot_problem(board, ship, list[JSON](plan))
    accepted = tuple(
        step
        for step in (AHEAD, PORT, STARBOARD)
        if problem is None and plot_problem(board, ship, list[JSON]([*plan, step])) is None
    )
    path = follow(ship, plan) if problem is None else []
    end_hex, end_facing = path[-1] if path else (ship.hex, ship.facing)
    col, row = hexgrid.to_odd_q(end_hex)
    progress = answers.Progress(
        steps=tuple(plan),
        words=listed(plan, last="then"),
        spent=len(plan),
        budget=ship.speed,
        accepted=accepted,
        complete=problem is None,
        problem=problem.reason if problem else "",
        outcome=f"{ship.name} ends in hex [{col}, {row}] facing {COMPASS[end_facing]}",
        note="one step is a hex ahead or a turn of one hexside",
    )
    root = answers.Path(
        key="steps",
        label=f"Plot {ship.name}",
        steps=tuple(Option(step, label) for step, label in STEP_LABELS.items()),
        max_steps=ship.speed,
        clause="DUEL-MOV-01",
        progress=progress,
    )
    return AnswerSchema(request.id, root, title=f"Plot {ship.name}", clause="DUEL-MOV-01", layout="move")


def _fire(board: Board, ship: Ship, request: DecisionRequest, tables: Mapping[str, JSON]) -> AnswerSchema:
    enemy = board.enemy_of(ship.side)
    needs = needed_to_hit(tables, ship, enemy)
    labels = {False: "Hold fire", True: f"Fire the broadside at {enemy.name} (needs {needs}+)"}
    options = tuple(Option(o, labels[bool(o.get("fire"))]) for o in request.options or () if isinstance(o, dict))
    root = answers.One(
        key="choice",
        label=f"{possessive(ship.name)} broadside",
        options=options,
        default=request.default,
        clause="DUEL-FIRE-01",
    )
    return AnswerSchema(request.id, root, title=f"Fire: {ship.name}", clause="DUEL-FIRE-01", layout="options")
