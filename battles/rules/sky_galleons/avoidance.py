"""Avoiding a collision as a ship avoids a ram (the errata, SG-ERR-04/05).

The basic rules make a collision check whenever a ship enters, climbs or drops into, or leaves, a hex it
shares with another ship at its altitude (SG-COL-01/09/11). The errata let the other ship maneuver to avoid
the collision exactly as it would avoid a ram (SG-RAM-05/08): it spends half its movement allowance, rounded
up, and those movement points are added to the collision check's die (a collision on a modified 1 or 2), with
its crew's quality as for an avoiding ram target (SG-CQ-03/07). If it has already had its Movement Phase this
turn, the points come off next turn's allowance instead (SG-ERR-05).

As for a ram, the ship decides when the move is announced, before it is carried out; a ship avoids once a
turn, and its avoidance counts against every check and every ram that turn. This module says who may be
asked, what it costs and what it does to the check, and runs the asking (:func:`ask`, :func:`answered`) for
the ruleset. Readings in data/optional-rules.json ``collision_avoidance``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from battles.engine.events import JSON, Event
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list
from battles.engine.resolver import Context
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.sky_galleons import close_action, movement, queries
from battles.rules.sky_galleons.board import move_parts
from battles.rules.sky_galleons.kinds import AVOID_COLLISION, COLLIDING
from battles.rules.sky_galleons.phases import basics
from galleons.record import Moment, ShipRecord

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board, Fold


def can_avoid(record: ShipRecord, now: Moment) -> bool:
    """Free to maneuver: not stopped by damage, stunned or grappled (as for a ram, SG-RAM-05/09)."""
    return not (close_action.immobilized(record) or record.stunned(now) or record.grappled_with)


def cost(speed: int) -> int:
    """Movement points spent avoiding: half the allowance, rounded up (SG-RAM-05 via SG-ERR-04)."""
    return close_action.avoidance_mp(speed)


def check_modifiers(other: ShipRecord, avoiding_mp: int) -> dict[str, int]:
    """What the avoiding ship adds to a collision check against it: its movement points spent avoiding, and its
    crew's quality as an avoiding ram target's (Green -1, Crack +1) (SG-ERR-04, SG-RAM-08, SG-CQ-03/07)."""
    if not avoiding_mp:
        return {}
    mods = {f"{other.name} avoiding ({avoiding_mp} MP)": avoiding_mp}
    quality: Mapping[str, int] = close_action.close_tables()["ram"]["crew_quality"]
    if quality[other.crew_quality]:
        mods[f"{other.crew_quality} crew avoiding"] = int(quality[other.crew_quality])
    return mods


def met_on_the_way(
    mover: ShipRecord, path: Sequence[movement.Step], others: Iterable[ShipRecord], began_together: Iterable[str]
) -> list[str]:
    """The ships a move traced as ``path`` will check collisions against, in the order it meets them: those in
    each hex it enters, climbs or drops into at their altitude (SG-COL-01/11), and, as it first moves ahead out
    of its starting hex, those there at its altitude since the phase began (``began_together``, SG-COL-09).
    ``others`` are the ships afloat and in the fight."""
    where: dict[str, tuple[Hex | None, str]] = {o.name: (o.position, o.altitude) for o in others}
    where.pop(mover.name, None)
    together = set(began_together)
    met: list[str] = []
    altitude, left = mover.altitude, False
    for step in path:
        if step.token == movement.AHEAD and not left:
            left = True
            met += [n for n, spot in where.items() if n in together and spot == (mover.position, altitude)]
        if step.enters_hex or step.changes_altitude:
            met += [n for n, spot in where.items() if spot == (step.hex, step.altitude)]
        altitude = step.altitude
        if step.ends:
            break
    return list(dict.fromkeys(met))


def has_moved(order: Sequence[str], phase_no: int, moves_done: Sequence[str], record: ShipRecord) -> bool:
    """Has the ship had its own Movement Phase this turn (its side's phase is over, or it has moved in it)?"""
    if record.side not in order:
        return False
    own = order.index(record.side) + 1
    return own < phase_no or (own == phase_no and record.name in moves_done)


# --- in the sequence of play: asked before the move, answered, then the move --------------------------


def ask(ctx: Context[Board], name: str, move: JSON) -> bool:
    """Before ``name``'s move goes ahead, each ship it will check a collision against, and that may avoid, is
    asked at once (SG-ERR-04/05); True if any was. A ship already avoiding is not asked (its avoidance counts
    anyway), nor a ram's target (asked as a ram's, SG-RAM-05)."""
    if not ctx.option("errata"):
        return False

    board, now = ctx.board, queries.now(ctx.state)
    record = board.ship(name)
    steps, attack = move_parts(move)
    path = queries.trace(record, steps, allowed=queries.allowance(ctx.state, record), terrain=board.terrain)
    others = [s for s in board.ships if s.afloat and s.name not in board.out]
    together = [s.name for s in others if s.name not in board.moves_done]
    asked = [
        other
        for other in met_on_the_way(record, path, others, together)
        if other not in board.avoiding and (attack is None or attack[1] != other) and can_avoid(board.ship(other), now)
    ]
    if not asked:
        return False
    ahead = {"ship": name, "move": move, "avoiders": asked, "clauses": ["SG-ERR-04"]}
    ctx.emit("collision ahead", ahead, ships=[name, *asked])
    basics.stage(ctx, COLLIDING, asking=name)
    for other in asked:
        mp = cost(queries.speed(board.ship(other), board))
        ctx.request(
            board.ship(other).side,
            AVOID_COLLISION,
            rule="SG-ERR-04",
            options=[False, True],
            prompt=f"{possessive(name)} move takes it into {possessive(other)} hex: avoid the collision? "
            f"({mp} of {possessive(other)} movement points, this turn or, if she has moved, the next)",
            ships=[other, name],
        )
    return True


def answered(ctx: Context[Board]) -> None:
    """The ships asked avoid or not (SG-ERR-04/05); the held move then goes ahead (the ruleset's sequence: a
    plotted one in the plotted moves, plotting.py, any other as the moving ship's move)."""
    answers = [a.choice for a in ctx.board.decided if a.kind == AVOID_COLLISION]
    for other, avoids in zip(ctx.board.avoiders, answers, strict=True):
        if avoids is True:
            board = ctx.board
            record = board.ship(other)
            moved = has_moved(board.order, board.phase_no, board.moves_done, record)
            data = {"ship": other, "mp": cost(queries.speed(record, board)), "next_turn": moved}
            clauses = ["SG-ERR-04"] + (["SG-ERR-05"] if moved else [])
            ctx.emit("avoiding", {**data, "clauses": clauses}, ships=[other])


# --- the fold -----------------------------------------------------------------------------------------------


def _collision_ahead(state: BattleState[Board], event: Event) -> Board:
    """A move held while the ships it will run into are asked (SG-ERR-04)."""
    avoiders = tuple(str(n) for n in read_list(event.data["avoiders"]))
    return replace(state.board, held_move=event.data["move"], avoiders=avoiders)


def _avoiding(state: BattleState[Board], event: Event) -> Board:
    board, data = state.board, event.data
    avoiding = {**board.avoiding, str(data["ship"]): read_int(data["mp"])}
    if data.get("next_turn"):  # avoided after its own move: next turn pays (SG-ERR-05)
        owing = {**board.owing, str(data["ship"]): read_int(data["mp"])}
        return replace(board, avoiding=avoiding, owing=owing)
    return replace(board, avoiding=avoiding)


FOLDS: Mapping[str, Fold] = {"collision ahead": _collision_ahead, "avoiding": _avoiding}
