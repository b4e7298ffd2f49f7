"""Fire in the sequence of play, as functions over the battle's context: every side declares its fire at once
and in secret, and the shots are resolved on the solutions found at declaration (simultaneous fire,
SG-SEQ-06, SG-FIRE-01..12), flying parties' volleys among them (SG-HM-04/05).
"""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine.frozen import evolve
from battles.engine.jsonread import read_list, read_object
from battles.engine.resolver import Context
from battles.rules.sky_galleons import (
    combat,
    flying,
    ordnance_play,
    portable_guns,
    queries,
    validate,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.flying import FlyingParty
from battles.rules.sky_galleons.kinds import (
    FIRE,
    FIRING,
    PHASE_END,
)
from battles.rules.sky_galleons.phases import basics, boarding
from galleons.record import ShipRecord


def ask_fire(ctx: Context[Board]) -> None:
    for record in ctx.board.fighting():  # a jammed machinegun's crew tries to clear it (SG-MG-09)
        if any(gun.jammed for gun in record.guns):
            changed, happened = combat.clear_jams(record, now=queries.now(ctx.state), roller=basics.roller(ctx))
            basics.commit(ctx, {record.name: changed}, happened)
    basics.stage(ctx, FIRING)
    asked = False
    for side in ctx.board.order:
        if validate.can_fire(ctx.state, side) or ordnance_play.special_ready(ctx.state, side):
            asked = True
            ctx.request(
                side,
                FIRE,
                rule="SG-SEQ-05",
                default={"shots": []},
                secret=True,
                prompt='fire: {"shots": [{"ship": ..., "gun": ..., "target": ...}]}, each gun once',
                ships=[s.name for s in ctx.board.fighting(side)],
            )
    if not asked:
        basics.stage(ctx, PHASE_END)


def firing(ctx: Context[Board]) -> None:
    """Resolve the declared shots on the solutions found at declaration, the moving side's first."""
    board = ctx.board
    flyers = {party.name: party for party in board.flyers}  # as declared (simultaneous fire)
    # Every shot is aimed from the ships as they stand now, at the start of the step (simultaneous fire).
    aimed = _trained(board)
    volley, specials = _volley(ctx, flyers)
    for solution in volley:
        _shot(ctx, board, solution, flyers, aimed)
    ordnance_play.resolve_specials(ctx, specials)
    if ordnance_play.run_torpedoes(ctx):  # a torpedo just launched makes its first run (SG-SMT-03)
        return
    basics.stage(ctx, PHASE_END)


def _volley(
    ctx: Context[Board], flyers: Mapping[str, FlyingParty]
) -> tuple[list[FireSolution], list[ordnance_play.Special]]:
    """The declared shots as fire solutions, side by side in the order of play, and the special shots
    (Hale salvoes, Smutts launches, grapnel shots) set aside for ordnance_play."""
    board = ctx.board
    declared = {a.side: read_list(read_object(a.choice)["shots"]) for a in board.decided if a.kind == FIRE}
    volley: list[FireSolution] = []
    specials: list[ordnance_play.Special] = []
    for side in board.order:
        specials += ordnance_play.declared(ctx.state, declared.get(side, []))
        for shot in declared.get(side, []):
            if ordnance_play.special_shot(board, shot):
                continue
            s = read_object(shot)
            if str(s["ship"]) in flyers or str(s["target"]) in flyers:
                volley.append(validate.party_shot(ctx.state, s))
                continue
            firer, target = board.ship(str(s["ship"])), board.ship(str(s["target"]))
            firer = portable_guns.trained_record(firer, board.trained)
            volley.append(
                ordnance_play.fire_solution(
                    firer,
                    str(s["gun"]),
                    target,
                    now=queries.now(ctx.state),
                    rules=queries.rules(ctx.state),
                    same_hex=board.relative(firer.name, target.name),
                    ammunition=str(s.get("ammunition", "shell")),
                    rate=str(s.get("rate", "normal")),
                )
            )
    return volley, specials


def _shot(
    ctx: Context[Board],
    board: Board,
    solution: FireSolution,
    flyers: Mapping[str, FlyingParty],
    aimed: Mapping[str, ShipRecord],
) -> None:
    """Resolve one shot of the volley. ``board`` is the board as the step began: boarders crossing then
    have no armor (SG-ERR-12)."""
    if solution.small_arms and solution.target in board.crossing:  # SG-ERR-12: no armor for boarders
        solution = evolve(solution, unprotected=board.crossing[solution.target][1])
    ctx.emit(
        "fire",
        {
            "ship": solution.firer,
            "gun": solution.gun_id,
            "target": solution.target,
            "range": solution.effective_range,
            "band": solution.band,
            "shots": solution.shots,
            "clauses": solution.clauses,
            **portable_guns.revealed(ctx.board.trained, solution.firer, solution.gun_id),
        },
        ships=[solution.firer, solution.target],
    )
    if solution.firer in flyers or solution.target in flyers:  # a flying party fires or is fired at
        party_volley(ctx, solution, flyers)
        return
    before = ctx.board.ship(solution.target)
    ships, happened = combat.resolve_fire(
        _trained(ctx.board),
        solution,
        now=queries.now(ctx.state),
        roller=basics.roller(ctx),
        rules=queries.rules(ctx.state),
        aimed=aimed,
    )
    board_now = ctx.board.by_name
    ships = {
        name: record if record is board_now[name] else portable_guns.untrained(record, board_now[name])
        for name, record in ships.items()
    }  # a record the shot left as it was has nothing to untrain
    basics.commit(ctx, ships, happened)
    if solution.target in ctx.board.crossing and (solution.small_arms or solution.ammunition != "shell"):
        boarding.hit_crossing(ctx, before)


def _trained(board: Board) -> dict[str, ShipRecord]:
    """The ships with their portable guns on their secretly trained aspects (SG-MG-06): as they are where no gun
    has been trained, without looking at each gun of each ship for every shot."""
    if not board.trained:
        return dict(board.by_name)
    return portable_guns.trained_fleet(board.by_name, board.trained)


def party_volley(ctx: Context[Board], solution: FireSolution, declared: Mapping[str, FlyingParty]) -> None:
    """Resolve a shot by or at a flying party. A party that fell earlier in the volley still fires
    (simultaneous fire, SG-SEQ-05), and is not brought back by it."""
    board = ctx.board
    firer = board.by_name.get(solution.firer) or flying.find(board.flyers, solution.firer)
    target = board.by_name.get(solution.target) or flying.find(board.flyers, solution.target)
    volley = flying.resolve(
        firer or declared[solution.firer],
        target,
        solution,
        ships=board.by_name,
        now=queries.now(ctx.state),
        roller=basics.roller(ctx),
        rules=queries.rules(ctx.state),
    )
    basics.commit(ctx, volley.ships, volley.happened)
    for name, party in volley.parties.items():
        if flying.find(ctx.board.flyers, name) is not None:
            basics.flyers(ctx, name, party)
    before = board.by_name.get(solution.target)
    if before is not None and before.name in ctx.board.crossing and solution.small_arms:
        boarding.hit_crossing(ctx, before)
