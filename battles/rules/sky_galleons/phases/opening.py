"""The opening of a battle, as functions over the battle's context: the scenario's set-up, the Crack crew
choice (SG-SCN-44), placement in the set-up order (SG-SCN-04) and the start of each turn (SG-SEQ-01).
"""

from __future__ import annotations

from battles.engine import hexgrid
from battles.engine.jsonread import read_list, read_object
from battles.engine.resolver import Context
from battles.rules.sky_galleons import (
    candidates,
    ordnance_play,
    setup_rules,
    special_rules,
    victory,
)
from battles.rules.sky_galleons.board import (
    Board,
    read_pair_ints,
)
from battles.rules.sky_galleons.kinds import (
    CREW_CHOICE,
    CREW_STAGE,
    PLACE,
    PLACEMENT,
    UPKEEP,
)
from battles.rules.sky_galleons.phases import basics


def setup(ctx: Context[Board]) -> None:
    board = ctx.board
    if board.wind_rule == "roll":  # DESIGN.md "Wind": 1d6, 1 = north, then clockwise
        rolled = ctx.roll("wind: the hexside it blows from (1 = north, clockwise)", needed=basics.faces("hexside"))
        ctx.emit("wind", {"direction": rolled.total - 1})
    elif isinstance(board.wind_rule, int):
        ctx.emit("wind", {"direction": board.wind_rule})
    if not ask_crew_choice(ctx):
        set_up_ships(ctx)


def set_up_ships(ctx: Context[Board]) -> None:
    board = ctx.board
    if board.setup_kind == "placement":
        fixed = [str(side) for side in read_list(board.scenario_rules.get("order", []))]
        order = fixed or basics.roll_off(ctx, list(board.side_order), "set-up order", low_first=True)
        placing = [s.name for side in order for s in board.ships if s.side == side and s.emplacement is None]
        ctx.emit("placement order", {"sides": order, "ship_order": placing})
        basics.stage(ctx, PLACEMENT)
    else:
        basics.marks(ctx, setup_rules.fixed_entry_marks(board), "enters by the {} edge", "SG-SCN-04")
        begin_turn(ctx)


def ask_crew_choice(ctx: Context[Board]) -> bool:
    """SG-SCN-44: the side picks the ship with the Crack crew before anyone sets up."""
    rule = special_rules.pending_crew_choice(ctx.board)
    if rule is None:
        return False
    basics.stage(ctx, CREW_STAGE)
    ctx.request(
        str(rule["side"]),
        CREW_CHOICE,
        rule="SG-SCN-44",
        options=special_rules.crew_choice_options(ctx.board, rule),
        prompt=f"which ship has the {rule['quality']} crew"
        + (f" (her marines carry {rule['marine_arms']})" if rule.get("marine_arms") else ""),
    )
    return True


def crew_chosen(ctx: Context[Board]) -> None:
    rule = special_rules.pending_crew_choice(ctx.board)
    answer = next(a for a in ctx.board.decided if a.kind == CREW_CHOICE)
    assert rule is not None
    chosen = special_rules.with_crack_crew(ctx.board.ship(str(answer.choice)), rule)
    special_rules.commit(ctx, chosen)
    key = special_rules.crew_choice_key(str(rule["side"]))
    special_rules.mark(ctx, key, chosen.name, f"{chosen.name} has the {rule['quality']} crew", ["SG-SCN-44"])
    if not ask_crew_choice(ctx):
        set_up_ships(ctx)


def placement(ctx: Context[Board]) -> None:
    board = ctx.board
    for answer in board.decided:
        if answer.kind == PLACE:
            spot = read_object(answer.choice)
            hex_ = hexgrid.from_odd_q(*read_pair_ints(spot["hex"]))
            ctx.emit(
                "placed",
                {
                    "ship": board.asking,
                    "hex": hex_.to_json(),
                    "facing": spot["facing"],
                    "altitude": spot["altitude"],
                },
                ships=[board.asking],
            )
            entry = setup_rules.entry_marks(board, board.ship(board.asking), hex_)
            basics.marks(ctx, entry, "enters by the {} edge", "SG-SCN-04")
    order = [name for name in ctx.board.placing if name not in ctx.board.placed]
    if not order:
        begin_turn(ctx)
        return
    name = order[0]
    basics.stage(ctx, PLACEMENT, asking=name)
    record = ctx.board.ship(name)
    ctx.request(
        record.side,
        PLACE,
        rule="SG-SCN-04",
        default=candidates.default_placement(ctx.state, record),
        prompt=f"set up {name}: hex [col, row], facing 0-5, altitude; at least {board.min_distance} hexes "
        "from every other side's ships",
        ships=[name],
    )


def begin_turn(ctx: Context[Board]) -> None:
    if ctx.state.turn >= ctx.board.turn_limit:
        if ctx.board.victory == ordnance_play.BOMBARDMENT:  # the defender holds out (SG-SCN-25)
            reason = f"turn limit {ctx.board.turn_limit} reached"
            basics.end(ctx, ordnance_play.turn_limit_winner(ctx.board), reason, ["SG-SCN-25"])
        else:
            ended = victory.at_turn_limit(ctx.board)
            basics.end(ctx, ended.winner, ended.reason, ended.clauses)
        return
    ctx.begin_turn()
    ctx.begin_phase("initiative")
    basics.stage(ctx, UPKEEP, phase_no=0)
