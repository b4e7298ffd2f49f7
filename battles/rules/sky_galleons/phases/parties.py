"""Flying parties in the sequence of play, as functions over the battle's context: formed or recalled by the
initiative orders, and moved one at a time in their side's movement phase (flying.py, SG-HM-02..06).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from battles.engine.events import JSON
from battles.engine.jsonread import read_int, read_object
from battles.engine.resolver import Context
from battles.rules.sky_galleons import (
    flying,
    queries,
    special_rules,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.flying import FLY
from battles.rules.sky_galleons.kinds import (
    FLYING,
)
from battles.rules.sky_galleons.phases import basics


def form_flyers(ctx: Context[Board], order: Mapping[str, JSON]) -> None:
    """A flying party formed in the Initiative Phase and put in its ship's hex (SG-HM-02, SG-THR-01)."""
    board, turn = ctx.board, ctx.state.turn
    record = board.ship(str(order["ship"]))
    men = {str(k): read_int(v) for k, v in read_object(order["men"]).items()}
    name = flying.party_name(board.flyers, record.name, turn)
    launched = flying.launched(board.flyers, record.name, turn)
    errata = bool(ctx.option("errata"))
    changed, party = flying.form(record, men, name=name, turn=turn, launched=launched, errata=errata)
    clauses = ["SG-HM-02", "SG-BRD-01"] + ([] if record.high_martian else ["SG-THR-01", "SG-ERR-13"])
    # The posts the men left are the side's own (SG-SEQ-02); the party taking wing is seen by all.
    ctx.emit(
        "party order",
        {"ship": record.name, "order": {"flying party": name, "men": dict(men)}, "clauses": clauses},
        ships=[record.name, name],
        secret_to=record.side,
    )
    basics.commit(ctx, {record.name: changed}, [], secret_to=record.side)
    basics.flyers(ctx, name, party)


def recall_flyers(ctx: Context[Board], name: str) -> None:
    """A flying party aboard a ship takes wing again in her hex (flying.json boarding)."""
    party = flying.find(ctx.board.flyers, name)
    assert party is not None
    assert party.aboard is not None
    ship = ctx.board.ship(party.aboard)
    flown = flying.take_wing(party, ship, ctx.board.terrain)
    what = f"{name} leaves {ship.name} and takes wing"
    basics.flyers(ctx, name, flown, [basics.note(name, what, "recalled", ["SG-BRD-17", "SG-HM-03"])])


def ask_fly(ctx: Context[Board]) -> bool:
    """Ask for the next flying party's move of the moving side, if any (SG-HM-03). True if asked."""
    side = ctx.board.moving
    assert side is not None
    party = flying.next_to_fly(ctx.board.flyers, side, queries.now(ctx.state))
    if party is None or not ctx.option("advanced"):
        return False
    basics.stage(ctx, FLYING, asking=party.name)
    ctx.request(
        side,
        FLY,
        rule="SG-HM-03",
        default=[],
        prompt=f"move {party.name} ({party.men.men} men): up to 2 hexes, steps {', '.join(flying.directions())}, "
        'climb (2 MP), descend (1 MP, one level a turn); {"steps": [...], "board": ship} to board a ship in '
        "the hex it ends in, at its altitude",
        ships=[party.name],
    )
    return True


def fly(ctx: Context[Board], name: str, choice: JSON) -> None:
    """The party's move, step by step, then the ship it boards if any (SG-HM-03..05)."""
    party = flying.find(ctx.board.flyers, name)
    assert party is not None
    steps, target = flying.flight_parts(choice)
    for step in flying.trace(party, steps, terrain=ctx.board.terrain, turn=ctx.state.turn):
        ctx.emit(
            flying.MOVED_EVENT,
            {
                "party": name,
                "step": step.token,
                "hex": step.hex.to_json(),
                "altitude": step.altitude,
                "cost": step.cost,
                "clauses": list(step.clauses),
            },
            ships=[name],
        )
    moved = flying.find(ctx.board.flyers, name)
    assert moved is not None
    flown = replace(moved, flown=queries.now(ctx.state).index)
    basics.flyers(ctx, name, flown)
    if target is not None:
        after, record, happened = flying.land(flown, ctx.board.ship(target))
        basics.commit(ctx, {target: record}, happened)
        basics.flyers(ctx, name, after)
    else:  # come down on a landing party waiting for its ship (SG-SCN-40)
        special_rules.overwhelm(ctx, flown.side, flown.position, flown.altitude)
