"""The sequence of play's small steps, as functions over the battle's context (SG-SEQ-01..12): set the stage,
roll, commit record changes with their happenings (a ship sunk or crashed is out of the fight, her flying
parties take wing), take a ship out, mark what the special rules track, end the battle. Every phase and
phase helper uses them; they use nothing above the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from battles.engine import dice as dice_
from battles.engine.events import JSON
from battles.engine.frozen import evolve
from battles.engine.resolver import Context
from battles.rules.sky_galleons import (
    combat,
    flying,
    special_rules,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.combat import Happening, Judgement, Roller
from battles.rules.sky_galleons.flying import FlyingParty
from battles.rules.sky_galleons.kinds import (
    CRASH_LANDED,
    CRASHED,
)
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import (
    NO_PARTY,
    ShipRecord,
    altitude_level,
)


def stage(ctx: Context[Board], stage: str, *, asking: str = "", phase_no: int | None = None) -> None:
    data: dict[str, Any] = {"asking": asking}  # the keys in sorted order, as plain has them
    if phase_no is not None:
        data["phase_no"] = phase_no
    data["stage"] = stage
    # Fresh, of exact strings and an int, it is what plain would copy, and kept without the copy (Context.emit's
    # copied; test_engine_shortcuts); anything else (a str subclass) is copied.
    exact = type(stage) is str and type(asking) is str and (phase_no is None or type(phase_no) is int)
    ctx.emit("stage", data, copied=exact)


def roller(ctx: Context[Board]) -> Roller:
    def roll(
        purpose: str,
        count: int,
        sides: int,
        *,
        modifiers: Mapping[str, int],
        needed: str,
        judge: Judgement,
        ship: str,
    ) -> tuple[int, ...]:
        return ctx.roll(
            purpose,
            count=count,
            sides=sides,
            modifiers=modifiers,
            needed=dice_.Judge(needed, judge),
            ships=[ship] if ship else [],
        ).dice

    return roll


def commit(
    ctx: Context[Board],
    changed: Mapping[str, ShipRecord],
    happened: Iterable[Happening],
    *,
    clauses: Sequence[str] = (),
    secret_to: str = "",
) -> None:
    """Log what a rule did (its notes; its rolls are logged as they were made) and fold changed records.

    Each note names the side of the ship it is about, so the log can be trimmed for the other sides
    (visibility.py); ``secret_to`` keeps the changed records to one side (a change of crew assignments)."""
    notes = [
        {
            "ship": h["ship"],
            **side_of(ctx.board, str(h["ship"])),
            "what": h["purpose"],
            "outcome": h["outcome"],
            "clauses": h["clauses"],
        }
        for h in happened
        if not h["faces"]
    ]
    rolled = [{"what": h["purpose"], "outcome": h["outcome"], "clauses": h["clauses"]} for h in happened if h["faces"]]
    if notes or rolled or clauses:
        names = sorted({str(n["ship"]) for n in notes} | set(changed))
        data = {"notes": notes, "rolls": rolled, "clauses": list(clauses)}
        ctx.emit("effects", data, ships=names, secret_to=secret_to)
    downed = []
    for name, record in changed.items():
        before = ctx.board.ship(name)
        record = into_the_land(ctx.board.terrain, record)
        if record is before:  # unchanged (a rule hands back every ship it was given), not compared field by field
            continue
        if record != before:
            # The record's plain JSON is built for this event alone (copied), and the fold takes the record itself
            # (source): parsing that JSON back gives an equal record (test_engine_shortcuts).
            data = {"record": record.plain_json(), "ship": name}  # keys in sorted order, as plain has them
            ctx.emit("ship", data, ships=[name], secret_to=secret_to, source=record, copied=True)
            if before.afloat and not record.afloat and name not in ctx.board.out:
                downed.append(name)
    # Every changed record is folded before a wreck frees its grapples and boarders, so that a record
    # worked out before she went down (her grappled firer's) cannot bring a cut grapple back.
    for name in downed:
        out(ctx, name, CRASHED, "is destroyed", ["SG-DMG-16", "SG-ALT-10"])


def out(ctx: Context[Board], name: str, reason: str, what: str, clauses: Sequence[str]) -> None:
    if name in ctx.board.out:
        return
    ctx.emit("out", {"ship": name, "reason": reason, "what": what, "clauses": list(clauses)}, ships=[name])
    if reason in (CRASHED, CRASH_LANDED):
        wrecked(ctx, name)


def wrecked(ctx: Context[Board], name: str) -> None:
    """A ship that goes down frees the ships grappled to it and takes the boarders aboard her with it."""
    for other in ctx.board.ship(name).grappled_with:
        ctx.emit("grapple cut", {"pair": [name, other], "clauses": ["SG-GRAP-10"]}, ships=[name, other])
    for ship in ctx.board.ships:
        if ship.boarding == name and ship.boarders.men:
            lost = evolve(ship, boarders=NO_PARTY, boarding=None)
            happened = [note(ship.name, f"{ship.boarders.men} boarders go down with {name}", "lost", [])]
            commit(ctx, {ship.name: lost}, happened)
    for party in flying.aboard(ctx.board.flyers, name):  # flyers aboard take wing (flying.json boarding)
        what = f"{party.name} takes wing as {name} goes down"
        flown = flying.take_wing(party, ctx.board.ship(name), ctx.board.terrain)
        flyers(ctx, party.name, flown, [note(party.name, what, "in the air", ["SG-HM-03"])])


def flyers(ctx: Context[Board], name: str, party: FlyingParty | None, happened: Iterable[Happening] = ()) -> None:
    """Log what a rule did to a flying party and fold the whole party (None: it is gone)."""
    commit(ctx, {}, happened)
    record = None if party is None else party.to_json()
    ctx.emit(flying.PARTY_EVENT, {"party": name, "record": record}, ships=[name])


def end(ctx: Context[Board], winner: str | None, reason: str, clauses: Sequence[str] = ("SG-SCN-06",)) -> None:
    ctx.emit("result", {"winner": winner, "reason": reason, "clauses": list(clauses)})
    ctx.end_battle(winner, reason)


def side_of(board: Board, name: str) -> dict[str, str]:
    """``{"side": ...}`` for a ship or flying party on the board, else nothing (a torpedo, a hex)."""
    if name in board.by_name:
        return {"side": board.by_name[name].side}
    party = flying.find(board.flyers, name)
    return {} if party is None else {"side": party.side}


def marks(ctx: Context[Board], marks: Mapping[str, JSON], what: str, clause: str) -> None:
    for key, value in marks.items():
        special_rules.mark(ctx, key, value, what.format(value), [clause])


def roll_off(ctx: Context[Board], sides: list[str], purpose: str, *, low_first: bool) -> list[str]:
    """Each side rolls 1d6; ties roll again among themselves (SG-SEQ-03 says nothing of ties). Returns
    the winner first (the lowest first with ``low_first``, SG-SCN-04), then the rest in side order."""
    contenders = list(sides)
    while True:
        rolls = {side: ctx.roll(f"{purpose}: {side}", needed=faces("roll")).total for side in contenders}
        best = (min if low_first else max)(rolls.values())
        leaders = [side for side in contenders if rolls[side] == best]
        if len(leaders) == 1:
            winner = leaders[0]
            break
        contenders = leaders
    start = list(ctx.board.side_order).index(winner)
    rotated = list(ctx.board.side_order[start:] + ctx.board.side_order[:start])
    return [side for side in rotated if side in sides]


def into_the_land(terrain: Terrain, record: ShipRecord) -> ShipRecord:
    """A flying ship that a rule has dropped to the height of the land under her (a loss of trim over high
    ground) has crashed into it (SG-ALT-10): in the same record, so no state has her flying inside the ground."""
    if record.status != "flying" or record.position is None:
        return record
    ground = terrain.ground(record.position)
    if altitude_level(record.altitude) > altitude_level(ground):
        return record
    return evolve(record, status="crashed", altitude=ground)


def note(ship: str, what: str, outcome: str, clauses: Sequence[str]) -> Happening:
    return combat.note(what, ship=ship, clauses=clauses, outcome=outcome)


def faces(what: str) -> dice_.Judge:
    return dice_.Judge("any", lambda faces, _total: f"{what} {faces[0]}")
