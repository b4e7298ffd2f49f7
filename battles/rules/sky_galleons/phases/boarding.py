"""Boarding and prizes in the sequence of play, as functions over the battle's context: boarders crossing and
hit as they cross (SG-BRD-10), the boarding actions at the end of the moving side's phase (SG-BRD-11..20),
flying parties that fought aboard (SG-HM-05), ships captured, prizes taken, crewed, towed or scuttled
(SG-BRD-21..24).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from battles.engine.events import JSON
from battles.engine.resolver import Context
from battles.rules.sky_galleons import (
    close_action,
    flying,
    prizes,
    queries,
    special_rules,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.kinds import (
    CAPTURED,
)
from battles.rules.sky_galleons.phases import basics
from battles.rules.sky_galleons.prizes import Prize
from galleons.record import (
    ShipRecord,
)


def boarding_actions(ctx: Context[Board], side: str) -> None:
    """One round of boarding combat on every enemy ship the side's boarders are aboard (SG-SEQ-07,
    SG-BRD-12..18)."""
    targets = sorted(
        {s.boarding for s in ctx.board.ships if s.side == side and s.boarders.men and s.boarding}
        | flying.boarded(ctx.board.flyers, side)
    )
    for target in targets:
        defender = ctx.board.ship(target)
        if not in_fight(ctx.board, defender):
            continue
        attackers = [s for s in queries.boarders_on(ctx.board, target) if s.side == side]
        if not attackers:
            continue
        if special_rules.offers_no_resistance(ctx.board, target):
            capture(ctx, target, side, "boarded: she offers no resistance", ["SG-SCN-17"])
            continue
        fight = close_action.boarding_round(
            attackers,
            defender,
            roller=basics.roller(ctx),
            officers_only=bool(ctx.option("officer_led_boarding")),
        )
        ctx.emit(
            "boarding action",
            {
                "target": target,
                "attackers": [a.name for a in attackers],
                "attackers_lost": fight.attackers_lost,
                "defenders_lost": fight.defenders_lost,
                "retreated": list(fight.retreated),
                "clauses": ["SG-SEQ-07", "SG-BRD-12", "SG-BRD-14", "SG-BRD-15"],
            },
            ships=[target, *(a.name for a in attackers)],
        )
        basics.commit(ctx, {n: r for n, r in fight.records.items() if n in ctx.board.by_name}, fight.happened)
        flyers_fought(ctx, target, fight.records)
        if fight.taken:
            capture(ctx, target, side, "taken by boarders", ["SG-BRD-13", "SG-BRD-18"])


def capture(ctx: Context[Board], name: str, captor: str, what: str, clauses: Sequence[str]) -> None:
    if name in ctx.board.out:
        return
    ctx.emit("captured", {"ship": name, "by": captor, "what": what, "clauses": list(clauses)}, ships=[name])
    basics.out(ctx, name, CAPTURED, what, clauses)
    take_prize(ctx, name, captor)


def record_prize(
    ctx: Context[Board], name: str, prize: Prize, clauses: Sequence[str], *, rejoins: bool = False
) -> None:
    data = {"ship": name, "prize": prize.to_json(), "rejoins": rejoins, "clauses": list(clauses)}
    ctx.emit("prize", data, ships=[name])


def take_prize(ctx: Context[Board], name: str, captor: str) -> None:
    """She is held by the boarders aboard, one of whom guards her prisoners (SG-BRD-21/22)."""
    boarders = prizes.aboard(ctx.board.ships, name, captor)
    prize, changed, happened = prizes.taken(ctx.board.ship(name), captor, boarders, ctx.board.prizes.get(name))
    basics.commit(ctx, changed, happened)
    record_prize(ctx, name, prize, ["SG-BRD-21", "SG-BRD-22"])


def prize_order(ctx: Context[Board], side: str, name: str, order: JSON) -> None:
    """The captor's order in the Initiative Phase: her prize crew takes her away, casting off her captors'
    grapples, and she fights for them; or she is to be scuttled (SG-BRD-21/23/24)."""
    word = prizes.order_word(order)
    if word == prizes.CREW:
        for other in ctx.board.ship(name).grappled_with:
            if ctx.board.ship(other).side == side:
                ctx.emit("grapple cut", {"pair": [name, other], "clauses": ["SG-BRD-21"]}, ships=[name, other])
        boarders = prizes.aboard(ctx.board.ships, name, side)
        crewed, changed = prizes.crewed(ctx.board.ship(name), boarders, ctx.board.prizes[name])
        what = f"{sum(m for _, m in crewed.crew_from)} of her captors' men crew {name}: she fights for them"
        basics.commit(ctx, changed, [basics.note(name, what, "crewed", ["SG-BRD-21", "SG-BRD-23"])])
        record_prize(ctx, name, crewed, ["SG-BRD-21", "SG-BRD-23"], rejoins=True)
    elif word == prizes.SCUTTLE:
        record_prize(ctx, name, replace(ctx.board.prizes[name], order=word), ["SG-BRD-21", "SG-BRD-24"])


def scuttling(ctx: Context[Board], side: str) -> None:
    """A prize being scuttled, at each of her captor's movement phases: the boarders but one officer
    withdraw, then he comes home (or is lost with her) and she crashes (SG-BRD-24)."""
    for name, prize in sorted(ctx.board.prizes.items()):
        if prize.captor != side or prize.status != "scuttling":
            continue
        record, boarders = ctx.board.ship(name), prizes.aboard(ctx.board.ships, name, side)
        if prize.stage == prizes.ORDERED:
            guard = ctx.board.by_name.get(prize.guard_ship or "")
            done, changed, happened = prizes.withdraw(record, boarders, prize, guard)
        else:
            done, changed, happened = prizes.scuttle(record, boarders, prize, roller=basics.roller(ctx))
        basics.commit(ctx, changed, happened)
        record_prize(ctx, name, done, ["SG-BRD-24"])
        if not ctx.board.ship(name).afloat:
            basics.wrecked(ctx, name)


def flyers_fought(ctx: Context[Board], target: str, records: Mapping[str, ShipRecord]) -> None:
    """The flying parties after a round of boarding combat on ``target``: still aboard, beaten back into
    the air (SG-BRD-17), or gone."""
    ship = ctx.board.ship(target)
    for party in flying.aboard(ctx.board.flyers, target):
        if party.name in records:
            after = flying.after_boarding(party, records[party.name], ship, ctx.board.terrain)
            basics.flyers(ctx, party.name, after)


def hit_crossing(ctx: Context[Board], before: ShipRecord) -> None:
    """Small arms, shrapnel or grape on a ship whose boarders are crossing: the men crossing take the crew
    hits, and fewer cross (SG-BRD-10/11)."""
    target, men = ctx.board.crossing[before.name]
    record, fell = close_action.crossing_casualties(before, ctx.board.ship(before.name), men)
    if not fell:
        return
    what = f"{fell} of the boarders crossing from {before.name} are hit"
    crossed = basics.note(before.name, what, f"{men - fell} cross", ["SG-BRD-10"])
    basics.commit(ctx, {before.name: record}, [crossed])
    ctx.emit(
        "crossing",
        {"ship": before.name, "target": target, "men": men - fell, "clauses": ["SG-BRD-10", "SG-BRD-11"]},
        ships=[before.name, target],
    )


def cross(ctx: Context[Board]) -> None:
    """The men declared crossing go across, if the ships are still grappled (SG-BRD-05/07), or side by side
    for High Martians (SG-HM-01)."""
    for name, (target, men) in sorted(ctx.board.crossing.items()):
        ship, other = ctx.board.ship(name), ctx.board.ship(target)
        held = target in (*ship.grappled_with, *flying.alongside(ship, [other]))
        if not held or not in_fight(ctx.board, other) or not ship.party.men:
            continue
        changed, sent = close_action.send_across(ship, target, min(men, ship.party.men))
        basics.commit(
            ctx,
            {name: changed},
            [basics.note(name, f"{sent} boarders cross from {name} to {target}", "across", ["SG-BRD-05", "SG-BRD-07"])],
        )


def in_fight(board: Board, record: ShipRecord) -> bool:
    return board.in_fight(record)
