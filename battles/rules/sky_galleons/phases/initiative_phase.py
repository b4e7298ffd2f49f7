"""The Initiative Phase, as functions over the battle's context (SG-SEQ-01..03): fires grow and boilers
recover, reinforcements arrive, each side's crew changes and colours struck are decided at once and in secret
and carried out, and the scenario's victory is checked (victory.py, SG-SCN-06).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from battles.engine.events import JSON
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.sky_galleons import (
    class_rules,
    close_action,
    combat,
    flying,
    ordnance_play,
    plotting,
    portable_guns,
    queries,
    signals,
    special_rules,
    standing,
    validate,
    victory,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.kinds import (
    FIRST,
    FIRST_STAGE,
    ORDERS,
    ORDERS_STAGE,
    REINFORCE,
    REINFORCING,
    SEALED_ORDERS,
    STRUCK,
)
from battles.rules.sky_galleons.phases import basics, boarding, parties


def check_victory(ctx: Context[Board], *, initiative: bool = False) -> bool:
    """The scenario's victory condition (victory.py; SG-SCN-06 last_flying by default; a bombardment,
    ordnance_play, SG-SCN-25), after the special rules note what they track; ``initiative``: checked in
    the Initiative Phase."""
    turn = ctx.state.turn
    special_rules.emit_marks(ctx, special_rules.marks_now(ctx.board, turn))
    special_rules.emit_marks(ctx, victory.seize_marks(ctx.board, turn, initiative=initiative))
    if ctx.board.victory == ordnance_play.BOMBARDMENT:
        return ordnance_play.bombardment_over(ctx)
    result = victory.check(ctx.board)
    if result is None:
        return False
    basics.end(ctx, result.winner, result.reason, result.clauses)
    return True


def upkeep(ctx: Context[Board]) -> None:
    """SG-SEQ-10 (1): fires grow, held boilers recover; SG-CREW-03: leaderless and stopped, it strikes."""
    for record in ctx.board.fighting():
        changed, happened = combat.begin_turn(record)
        basics.commit(ctx, {record.name: changed}, happened)
        tired = class_rules.tiring_crew_speed(changed, ctx.board.last_moved.get(record.name, 0))
        if tired is not None and ctx.state.turn > 1:  # a launch's crew tires and rests (SG-CLS-03/04)
            note = basics.note(
                record.name, f"{possessive(record.name)} crew: maximum speed now {tired}", "speed", ["SG-CLS-03"]
            )
            basics.commit(ctx, {record.name: replace(changed, speed=tired)}, [note])
    ordnance_play.upkeep(ctx)  # bomb racks reloading, ground batteries' fires (SG-CG-77, SG-GB-07)
    for record in ctx.board.fighting():
        if not record.all_officers_lost or flying.officers_out(ctx.board.flyers, record.name):
            continue  # officers away in a flying party are not lost (SG-CREW-03)
        boarders = queries.boarders_on(ctx.board, record.name)
        if boarders:
            what = "every officer lost with enemy boarders aboard: she surrenders"
            boarding.capture(ctx, record.name, boarders[0].side, what, ["SG-CREW-03"])
        elif queries.speed(record, ctx.board) == 0:
            basics.out(ctx, record.name, STRUCK, "every officer lost and the ship cannot move", ["SG-CREW-03"])
    special_rules.upkeep(ctx)  # the scenario's own bookkeeping (SG-SCN-24, SG-SCN-38..40)
    if check_victory(ctx, initiative=True):
        return
    if ctx.option(standing.OPTION) or not ask_reinforcement(ctx, alone=True):
        ask_orders(ctx)


def ask_reinforcement(ctx: Context[Board], *, alone: bool = False) -> bool:
    """SG-SCN-24: a reinforcement due is chosen and lands before the orders are carried out (the text does not
    say when in the turn it comes): asked ``alone`` before the orders, or with standing orders with them (one
    submission)."""
    rule = special_rules.pending_reinforcement(ctx.board)
    if rule is None:
        return False
    if alone:
        basics.stage(ctx, REINFORCING, asking=str(rule["side"]))
    ctx.request(
        str(rule["side"]),
        REINFORCE,
        rule="SG-SCN-24",
        default=special_rules.reinforcement_default(ctx.board, rule),
        prompt=f'another ship: {{"class": one of {rule["classes"]}, "hex": [col, row] in the {rule["arrive"]}, '
        '"facing": 0-5}, landed',
    )
    return True


def reinforced(ctx: Context[Board]) -> None:
    """The reinforcement asked alone lands; then the next, or the orders."""
    _land_reinforcement(ctx)
    if not ask_reinforcement(ctx, alone=True):
        ask_orders(ctx)


def _land_reinforcement(ctx: Context[Board]) -> None:
    rule = special_rules.pending_reinforcement(ctx.board)
    answer = next((a for a in ctx.board.decided if a.kind == REINFORCE), None)
    if rule is not None and answer is not None:
        special_rules.reinforce(ctx, rule, read_object(answer.choice))


def ask_orders(ctx: Context[Board]) -> None:
    basics.stage(ctx, ORDERS_STAGE)
    if ctx.option(standing.OPTION):
        ask_reinforcement(ctx)
    advanced = bool(ctx.option("advanced"))
    for side in ctx.board.sides_fighting():  # SG-SEQ-02, asked of all sides at once
        ships = [s.name for s in ctx.board.fighting(side)]
        ctx.request(
            side,
            ORDERS,
            rule="SG-SEQ-02",
            default={"crew": [], "strike": []},
            secret=True,
            prompt="crew changes (relief at helm or trim, men to guns) and colours struck"
            + (
                "; boarding parties formed or disbanded, boarders recalled, grapples cut, and how many "
                "ships will try to ram or grapple"
                if advanced
                else ""
            )
            + ordnance_play.orders_prompt(ctx.board.fighting(side)),
            ships=ships,
            sealed=SEALED_ORDERS,
        )
    plotting.ask(ctx)


def orders(ctx: Context[Board]) -> None:
    _land_reinforcement(ctx)
    declared: dict[str, int] = {}
    for answer in ctx.board.decided:
        if answer.kind != ORDERS:
            continue
        choice = read_object(answer.choice)
        if standing.KEY in choice:  # they stand until changed, the side's own business (standing.py)
            given = {"side": answer.side, "orders": choice[standing.KEY], "clauses": ["SG-SEQ-02"]}
            ctx.emit("standing orders", given, secret_to=answer.side)
        declared[answer.side] = read_int(choice.get("ram", 0))
        _party_orders(ctx, answer.side, choice)
        _crew_changes(ctx, answer.side, choice)
        for name, order in sorted(read_object(choice.get("prizes", {})).items()):
            boarding.prize_order(ctx, answer.side, str(name), order)  # crew or scuttle a prize (SG-BRD-21)
        ordnance_play.carry_out_orders(ctx, choice)  # mines, drogues, reloads, mines cut loose
        _grapples_and_tows(ctx, choice)
        for name in read_list(choice.get("strike", [])):
            basics.out(ctx, str(name), STRUCK, "strikes her colours", ["SG-CREW-03"])
    orders = [(a.side, read_object(a.choice)) for a in ctx.board.decided if a.kind == ORDERS]
    portable_guns.train(ctx, orders)  # seen by their own side alone (SG-MG-06)
    signals.hoist(ctx, orders)  # read by who can read them (SG-SIG-04/05)
    plotting.made(ctx)
    if check_victory(ctx):
        return
    sides = ctx.board.sides_fighting()
    winner = _initiative(ctx, sides, declared)
    ctx.emit("initiative", {"winner": winner}, ships=[])
    basics.stage(ctx, FIRST_STAGE)
    ctx.request(
        winner,
        FIRST,
        rule="SG-SEQ-03",
        options=[winner] + [s for s in sides if s != winner],
        prompt="you hold the initiative: which side moves first?",
    )


def _party_orders(ctx: Context[Board], side: str, choice: dict[str, JSON]) -> None:
    """A side's orders to its boarding and flying parties: recall, disband, form (SG-BRD-01/02/04/17)."""
    for name in read_list(choice.get("recall", [])):  # boarders leaving the enemy's deck are seen
        one_order(ctx, str(name), {"recall": True}, close_action.bring_home, ["SG-BRD-17"])
    for name in read_list(choice.get("disband", [])):  # a party at home is a crew assignment (SG-SEQ-02)
        one_order(ctx, str(name), {"disband": True}, close_action.disband_party, ["SG-BRD-04"], secret_to=side)
    for order in read_list(choice.get("parties", [])):
        party = read_object(order)
        men = {str(k): read_int(v) for k, v in read_object(party["men"]).items()}
        one_order(
            ctx,
            str(party["ship"]),
            {"party": dict(men)},
            lambda r, men=men: close_action.form_party(r, men),
            ["SG-BRD-01", "SG-BRD-02"],
            secret_to=side,
        )
    for order in read_list(choice.get(flying.FORM_ORDER, [])):
        parties.form_flyers(ctx, read_object(order))
    for name in read_list(choice.get(flying.RECALL_ORDER, [])):
        parties.recall_flyers(ctx, str(name))


def _crew_changes(ctx: Context[Board], side: str, choice: dict[str, JSON]) -> None:
    """A side's changes to its crews' posts (validate.crew_change)."""
    for change in read_list(choice.get("crew", [])):
        record = ctx.board.ship(str(read_object(change)["ship"]))
        updated = validate.crew_change(record, read_object(change))
        # Crew assignments are the side's own business (SG-SEQ-02): logged to it alone.
        secret = side
        ctx.emit("crew change", {"ship": record.name, "change": change}, ships=[record.name], secret_to=secret)
        basics.commit(ctx, {record.name: updated}, [], secret_to=secret)


def _grapples_and_tows(ctx: Context[Board], choice: dict[str, JSON]) -> None:
    """A side's grapples cut (SG-GRAP-05/06/07) and tows rigged (SG-TOW-01/03)."""
    for pair in read_list(choice.get("cut", [])):
        a, b = (str(n) for n in read_list(pair))
        if b in ctx.board.ship(a).grappled_with:  # both sides may cut the same grapple
            ctx.emit(
                "grapple cut",
                {"pair": [a, b], "clauses": ["SG-GRAP-05", "SG-GRAP-06", "SG-GRAP-07"]},
                ships=[a, b],
            )
    for pair in read_list(choice.get("tow", [])):
        tower, towed = (str(n) for n in read_list(pair))
        ctx.emit(
            "tow rigged",
            {
                "tower": tower,
                "towed": towed,
                "rigged_turn": ctx.state.turn,
                "clauses": ["SG-TOW-01", "SG-TOW-03"],
            },
            ships=[tower, towed],
        )


def _initiative(ctx: Context[Board], sides: list[str], declared: dict[str, int]) -> str:
    """The side that wins the initiative: with the advanced rules, the one that declared the most rams,
    else by a roll-off (SG-RAM-01/02, SG-SEQ-03, SG-SCN-05)."""
    if ctx.option("advanced"):
        declared = {side: declared.get(side, 0) for side in sides}
        ctx.emit("ram declarations", {"declared": declared, "clauses": ["SG-RAM-01"]})
        most = max(declared.values())
        leaders = [side for side in sides if declared[side] == most]
        if most and len(leaders) == 1:  # SG-RAM-01: most ships declared takes the initiative
            return leaders[0]
        # SG-RAM-02 (in a multiplayer game, the sides tied at the most roll off)
        return basics.roll_off(ctx, leaders, "initiative", low_first=False)[0]
    return basics.roll_off(ctx, sides, "initiative", low_first=False)[0]  # SG-SEQ-03, SG-SCN-05


def one_order(
    ctx: Context[Board],
    name: str,
    order: JSON,
    change: Any,
    clauses: Sequence[str],
    *,
    secret_to: str = "",
) -> None:
    """One boarding party order of the Initiative Phase, logged and committed (to ``secret_to`` alone if
    given: a party formed or disbanded at home is not seen from across the sky)."""
    record = ctx.board.ship(name)
    data = {"ship": name, "order": order, "clauses": list(clauses)}
    ctx.emit("party order", data, ships=[name], secret_to=secret_to)
    basics.commit(ctx, {name: change(record)}, [], secret_to=secret_to)
