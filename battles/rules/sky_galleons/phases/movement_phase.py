"""The movement phases, as functions over the battle's context (SG-SEQ-04..12): the first player's choice, each
side's phase start (fire reaching a magazine, forced drops; SG-CRIT-20, SG-DMG-15), its ships' moves one at a
time with their collision checks and rams' avoidance (SG-MOV, SG-RAM-05), a move held for collision avoidance
(SG-ERR-04/05), positions in shared hexes (SG-MOV-05/06), boarders crossing (SG-BRD-05..09), flying parties
(SG-HM-03), and the phase end; then the next phase or turn. PLAY is the face the phase helpers (plotting,
ordnance_play) are handed to carry a move out or go on to the next phase.
"""

from __future__ import annotations

from dataclasses import replace

from battles.engine import hexgrid
from battles.engine.decisions import WHOLE
from battles.engine.events import JSON
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.sky_galleons import (
    avoidance,
    candidates,
    close_action,
    combat,
    flying,
    movement,
    ordnance_play,
    plotting,
    queries,
    special_rules,
    standing,
    validate,
)
from battles.rules.sky_galleons.board import (
    Board,
    move_parts,
    pair_key,
)
from battles.rules.sky_galleons.flying import FLY
from battles.rules.sky_galleons.kinds import (
    AVOID,
    AVOIDING,
    BOARD,
    BOARDING,
    CRASHED,
    FIRST,
    MOVE,
    MOVING,
    PHASE_START,
    POSITION,
    POSITIONS,
    RAM,
)
from battles.rules.sky_galleons.phases import basics, boarding, collisions, fire, initiative_phase, opening, parties
from galleons.record import (
    ShipRecord,
    altitude_level,
    altitude_levels,
    tint,
)


def first_player(ctx: Context[Board]) -> None:
    first = next(str(a.choice) for a in ctx.board.decided if a.kind == FIRST)
    order = list(ctx.board.side_order)
    start = order.index(first)
    rotated = order[start:] + order[:start]  # the rest follow in turn (SG-SEQ-03, SG-SCN-05)
    ctx.emit("movement order", {"order": rotated})
    if ordnance_play.run_torpedoes(ctx):  # torpedoes in flight run before the first move (SG-SMT-03)
        return
    moves_begin(ctx)


def moves_begin(ctx: Context[Board]) -> None:
    """After the torpedo runs: the plotted moves first, if any (SG-ERR-25), else the first Movement Phase."""
    if plotting.begin(ctx):
        return
    next_phase(ctx, 1)


def next_phase(ctx: Context[Board], phase_no: int) -> None:
    while phase_no <= len(ctx.board.order) and not moves_at_all(ctx, ctx.board.order[phase_no - 1]):
        phase_no += 1  # a side with nothing left in the fight has no movement phase
    if phase_no > len(ctx.board.order):
        opening.begin_turn(ctx)
        return
    side = ctx.board.order[phase_no - 1]
    ctx.begin_phase(f"movement {phase_no}: {side}")
    basics.stage(ctx, PHASE_START, phase_no=phase_no)


def moves_at_all(ctx: Context[Board], side: str) -> bool:
    """The side has a movement phase: a ship in the fight, or a flying party in the air, which flies on
    when its side's ships are gone where the battle goes on without them (SG-HM-03: a party moves as it
    will, with no word of its ship; the Great Raid's warbands hold the kraag, SG-SCN-40)."""
    advanced = bool(ctx.option("advanced"))
    return bool(ctx.board.fighting(side)) or (advanced and bool(flying.in_the_air(ctx.board.flyers, side)))


def phase_start(ctx: Context[Board]) -> None:
    side = ctx.board.moving
    assert side is not None
    for record in ctx.board.fighting():  # shotgun marines reload once their boarding action is over
        reloaded = close_action.reload_shotguns(record, boarded=bool(queries.boarders_on(ctx.board, record.name)))
        if reloaded != record:
            note = basics.note(
                record.name, f"{possessive(record.name)} shotgun marines reload", "reloaded", ["SG-CG-18"]
            )
            basics.commit(ctx, {record.name: reloaded}, [note])
    boarding.scuttling(ctx, side)
    for kite in [s for s in ctx.board.fighting(side) if s.is_kite]:  # SG-KITE-02/04
        rolled = ctx.roll(f"{possessive(kite.name)} movement die (kite)", needed=basics.faces("die"), ships=[kite.name])
        ctx.emit("kite die", {"ship": kite.name, "die": rolled.total, "clauses": ["SG-KITE-02", "SG-KITE-04"]})
    roller = basics.roller(ctx)
    now = queries.now(ctx.state)
    for record in ctx.board.fighting(side):
        changed, happened = combat.fire_reaches_magazine(record, now=now, roller=roller, rules=queries.rules(ctx.state))
        basics.commit(ctx, {record.name: changed}, happened)
    for record in ctx.board.fighting(side):
        if record.grappled_with and not grappled_drop(ctx, record):
            continue
        record = ctx.board.ship(record.name)
        altitude, ends = movement.forced_drop(record, ctx.board.terrain)
        if altitude != record.altitude:
            # A drop to the land crashes her in the same event: no state has her flying inside the ground.
            crashed = {"crashed": True} if ends else {}
            ctx.emit(
                "forced drop",
                {"ship": record.name, "altitude": altitude, "clauses": ["SG-DMG-15"], **crashed},
                ships=[record.name],
            )
            if ends:
                basics.out(ctx, record.name, CRASHED, "drops to the ground", ["SG-ALT-10"])
    basics.stage(ctx, MOVING)
    ask_move(ctx)


def grappled_drop(ctx: Context[Board], record: ShipRecord) -> bool:
    """A grappled ship that must drop stays up (SG-GRAP-09) unless the ship it is grappled with must drop
    too (SG-GRAP-10); with its ceiling two levels below it, the grapple breaks and it drops with a loss of
    trim (SG-GRAP-11). True if the drop goes ahead now."""
    if not record.must_drop:
        return False
    if record.must_drop >= 2:
        for other in record.grappled_with:
            ctx.emit("grapple cut", {"pair": [record.name, other], "clauses": ["SG-GRAP-11"]}, ships=[record.name])
        dropped = replace(ctx.board.ship(record.name), altitude=altitude_levels()[altitude_level(record.altitude) - 2])
        happened = [basics.note(record.name, f"the grapple breaks and {record.name} drops two levels", "drops", [])]
        basics.commit(ctx, {record.name: dropped}, happened, clauses=["SG-GRAP-11"])
        changed, rolled = combat.lose_trim(
            ctx.board.ship(record.name),
            tint("stations", "untrimmed_damage_value"),
            now=queries.now(ctx.state),
            roller=basics.roller(ctx),
            rules=queries.rules(ctx.state),
            cause="grapple broken",
        )
        basics.commit(ctx, {record.name: changed}, rolled, clauses=["SG-GRAP-11"])
        return True
    if any(ctx.board.ship(other).must_drop for other in record.grappled_with):
        return True
    ctx.emit(
        "move held",
        {"ship": record.name, "why": "grappled: stays at her height", "clauses": ["SG-GRAP-09"]},
        ships=[record.name],
    )
    return False


def ask_move(ctx: Context[Board]) -> None:
    """Go on with the moving side's phase: the next move written, else its ships' moves asked (with standing
    orders, all at once: one submission, each ship a decision of the one batch; else one ship at a time), else
    its flying parties and then fire."""
    if remaining(ctx.board):
        go_on(ctx)
        return
    side = ctx.board.moving
    assert side is not None
    waiting = [s for s in ctx.board.fighting(side) if s.name not in ctx.board.moves_done]
    waiting = [s for s in waiting if not _held(ctx, s)]
    if not ctx.option(standing.OPTION):
        waiting = waiting[:1]  # one ship at a time, as at the table (SG-SEQ-04)
    if not waiting:
        if not parties.ask_fly(ctx):  # then the side's flying parties (SG-HM-03)
            after_movement(ctx)
        return
    basics.stage(ctx, MOVING, asking="|".join(s.name for s in waiting))  # the ships asked, in this order
    for record in waiting:
        allowed = queries.allowance(ctx.state, record)
        ctx.request(
            side,
            MOVE,
            rule="SG-MOV-01",
            default=candidates.default_move(ctx.state, record),
            prompt=f"plan {possessive(record.name)} move: {allowed.speed} MP; "
            f"steps {', '.join(movement.step_kinds(record))}",
            ships=[record.name],
            # Written now, made one ship after another: the other sides see each move as it is made.
            secret=True,
            sealed=(WHOLE,),
        )


def _held(ctx: Context[Board], record: ShipRecord) -> bool:
    """SG-GRAP-08, SG-TOW-01: a grappled ship, or one in tow, stays where it is (logged, and done moving)."""
    if not queries.held(ctx.state, record):
        return False
    tower = ctx.board.tower_of(record.name)
    why = f"in tow of {tower}" if tower else f"grappled with {', '.join(record.grappled_with)}"
    ctx.emit(
        "move held",
        {"ship": record.name, "why": why, "clauses": ["SG-TOW-01"] if tower else ["SG-GRAP-08"]},
        ships=[record.name],
    )
    collisions.moved_done(ctx, record.name, 0)
    return True


def remaining(board: Board) -> list[tuple[str, JSON]]:
    """The moves written and not yet made, of ships still in the fight, in the order they were written."""
    return [
        (name, move)
        for name, move in board.written
        if name not in board.moves_done and board.in_fight(board.ship(name))
    ]


def moving_stage(ctx: Context[Board]) -> None:
    """The moving side's moves are written (kept to it alone until each is made); carry them out."""
    answers = [a.choice for a in ctx.board.decided if a.kind == MOVE]
    side = ctx.board.moving
    names = ctx.board.asking.split("|")
    moves = dict(zip(names, answers, strict=True))
    ctx.emit("moves written", {"moves": moves, "order": names, "clauses": ["SG-SEQ-04"]}, secret_to=side or "")
    ask_move(ctx)


def go_on(ctx: Context[Board]) -> None:
    """Carry the written moves out, one ship after another in the order written (SG-SEQ-04), until one waits on
    another ship's answer (avoiding a ram or a collision); then the phase goes on."""
    for name, move in remaining(ctx.board):
        # The list was taken before the moves began: a ship wrecked by one made before hers (a collision, a
        # ram) is out of the fight and makes none (SG-DMG-16).
        if not ctx.board.in_fight(ctx.board.ship(name)) or _held(ctx, ctx.board.ship(name)):
            continue
        ctx.emit("asking", {"ship": name})  # her move is next (the stage stays: moving)
        if _move_one(ctx, name, still_possible(ctx, name, move)):
            return
    ask_move(ctx)


def still_possible(ctx: Context[Board], name: str, move: JSON) -> JSON:
    """The written move, or as much of its plan as the ship can still make now that the ships before it have
    moved (a collision, a ram, a hex or a height taken): written with the rest, a move is judged on the board
    as it was; made later, it is cut where the rules would refuse it, its attack and drops given up."""
    record = ctx.board.ship(name)
    if validate.move_problem(ctx.state, record, move) is None:
        return move
    steps, _ = move_parts(move)
    kept = plotting.still_possible(ctx.state, record, steps)
    ctx.emit("move cut", {"ship": name, "steps": kept, "written": move, "clauses": ["SG-SEQ-04"]}, ships=[name])
    return list[JSON](kept)


def _move_one(ctx: Context[Board], name: str, move: JSON) -> bool:
    """One ship's written move: a ram declared first waits on its target's avoidance (SG-RAM-04/05), a move into
    another ship on its avoidance (SG-ERR-04); else it is made. True if it waits on an answer."""
    steps, attack = move_parts(move)
    drops = ordnance_play.drops_of(move)
    if attack is not None and not ctx.board.ally(ctx.board.ship(name).side, ctx.board.ship(attack[1])):
        ctx.emit(
            "held move",
            {"ship": name, "side": ctx.board.ship(name).side, "move": move, "clauses": ["SG-RAM-04"]},
            ships=[name, attack[1]],
        )
        if ask_avoid(ctx, name, attack):
            return True
    if avoidance.ask(ctx, name, move):
        return True
    carry_out(ctx, name, steps, attack, drops)  # a friendly grapple needs no declaration (SG-TOW-02)
    return False


def ask_avoid(ctx: Context[Board], name: str, attack: tuple[str, str]) -> bool:
    """Ask the target whether it avoids (SG-RAM-05), unless it cannot or already does this turn."""
    kind, target_name = attack
    target = ctx.board.ship(target_name)
    if (
        target_name in ctx.board.avoiding
        or special_rules.hove_to(ctx.board, target_name)  # SG-SCN-17: she waits to be taken
        or close_action.immobilized(target)
        or target.stunned(queries.now(ctx.state))
        or target.grappled_with
    ):
        return False
    mp = close_action.avoidance_mp(queries.speed(target, ctx.board))
    basics.stage(ctx, AVOIDING, asking=name)
    ctx.request(
        target.side,
        AVOID,
        rule="SG-RAM-05",
        options=ordnance_play.avoid_options(target),  # with mines raised: cut them loose first (SG-TM-04/05)
        prompt=f"{name} tries to {kind} {target_name}: avoid it? "
        f"({mp} of {possessive(target_name)} movement points this turn)",
        ships=[target_name, name],
    )
    return True


def avoiding_stage(ctx: Context[Board]) -> None:
    answer = next(a for a in ctx.board.decided if a.kind == AVOID)
    name = ctx.board.asking
    steps, attack = move_parts(ctx.board.held_move)
    assert attack is not None
    if answer.choice is True or ordnance_play.cut_before_avoiding(ctx, attack[1], answer.choice):
        target = ctx.board.ship(attack[1])
        mp = close_action.avoidance_mp(queries.speed(target, ctx.board))
        ctx.emit("avoiding", {"ship": target.name, "mp": mp, "clauses": ["SG-RAM-05"]}, ships=[target.name])
    basics.stage(ctx, MOVING, asking=name)
    if avoidance.ask(ctx, name, ctx.board.held_move):
        return
    carry_out(ctx, name, steps, attack, ordnance_play.drops_of(ctx.board.held_move))
    ask_move(ctx)


def carry_out(
    ctx: Context[Board],
    name: str,
    plan: list[str],
    attack: tuple[str, str] | None = None,
    drops: ordnance_play.Drops | None = None,
) -> None:
    """Walk a plan step by step, checking collisions as the ship enters shared hexes (SG-COL-*); a ram is
    tried where the path meets the target, a grapple where the move ends beside it (SG-RAM-04/06,
    SG-GRAP-01)."""
    record = ctx.board.ship(name)
    steps = queries.trace(record, plan, allowed=queries.allowance(ctx.state, record), terrain=ctx.board.terrain)
    start = record.position
    hexes = 0
    drops = drops or ordnance_play.Drops()
    for step in steps:
        before = ctx.board.ship(name)
        if (
            step.token == movement.AHEAD
            and before.position == start
            and _collides_leaving(ctx, name, plan, before, step)
        ):
            collisions.moved_done(ctx, name, hexes)
            return
        _emit_step(ctx, name, step)
        if step.token == movement.AHEAD:
            hexes += 1
        if ordnance_play.after_step(ctx, name, before, step, drops):
            break  # drops made as it leaves a hex; mines or a drogue went off on it: its move ends (SG-TM-07)
        if step.ends:
            collisions.move_ends(ctx, name, step.ends, step.clauses)
            break
        if step.enters_hex or step.changes_altitude:
            stopped, attack = _meet_ships(ctx, name, plan, before, step, attack)
            if stopped:
                break
    ordnance_play.move_ended(ctx, name, drops, hexes)
    if attack is not None:
        collisions.grapple_or_miss(ctx, name, attack)
    collisions.moved_done(ctx, name, hexes)


def _collides_leaving(ctx: Context[Board], name: str, plan: list[str], before: ShipRecord, step: movement.Step) -> bool:
    """SG-COL-09: leaving a hex shared since the phase began (with ships at the altitude it is at now; a
    ship that moved in this phase already checked on the way in), check again. True if it collided."""
    turned = any(t in movement.TURNS for t in plan[: step.number])
    began_together = [
        other
        for other in collisions.sharing(ctx.board, name, before.position, before.altitude)
        if other not in ctx.board.moves_done
    ]
    return any(
        collisions.collision(ctx, name, other, entered_from=None, turned=turned, leaving=True)
        for other in began_together
    )


def _emit_step(ctx: Context[Board], name: str, step: movement.Step) -> None:
    """Log one step of a move, with the clauses it follows. The most frequent event of a battle: its data is
    built fresh, of strings, integers and lists of them, with its keys in sorted order, as plain would copy it,
    so the copy is skipped (Context.emit's ``copied``; test_engine_shortcuts)."""
    data = {
        "altitude": step.altitude,
        "clauses": list(step.clauses),
        "cost": step.cost,
        "ends": step.ends,
        "facing": step.facing,
        "hex": step.hex.to_json(),
        "ship": name,
        "step": step.token,
    }
    ctx.emit("moved", data, ships=[name], copied=True)


def _meet_ships(
    ctx: Context[Board],
    name: str,
    plan: list[str],
    before: ShipRecord,
    step: movement.Step,
    attack: tuple[str, str] | None,
) -> tuple[bool, tuple[str, str] | None]:
    """A ship entering a hex or altitude others share: a ram tried if its target is there (SG-RAM-04/06),
    then a collision check with each of the rest (SG-COL-*). Returns whether its move stops, and the attack
    still to make (none once the ram is tried)."""
    entered_from = hexgrid.rotate_facing(before.facing, 3) if step.token == movement.AHEAD else None
    turned = movement.turns_in_hex(plan, step.number + 1)
    sharing = collisions.sharing(ctx.board, name, step.hex, step.altitude)
    if attack is not None and attack[0] == RAM and attack[1] in sharing:
        target_name, attack = attack[1], None
        if collisions.ram(ctx, name, target_name):
            return True, attack  # the rammer stops in the target's hex
        sharing.remove(target_name)  # a ram that misses makes no contact
    for other in sharing:
        if collisions.collision(ctx, name, other, entered_from=entered_from, turned=turned, leaving=False):
            return True, attack
    return False, attack


def after_movement(ctx: Context[Board]) -> None:
    basics.stage(ctx, POSITIONS)
    ask_position(ctx)


def ask_position(ctx: Context[Board]) -> None:
    pairs = queries.shared_pairs(ctx.board)
    if not pairs:
        ask_board(ctx)
        return
    mine, theirs = pairs[0]
    a, b = ctx.board.ship(mine), ctx.board.ship(theirs)
    options = sorted([list(p) for p in hexgrid.relative_positions(a.facing, b.facing)])
    basics.stage(ctx, POSITIONS, asking=pair_key(mine, theirs))
    side = ctx.board.moving
    assert side is not None
    ctx.request(
        side,
        POSITION,
        rule="SG-MOV-06",
        options=options,
        prompt=f"{mine} shares a hex with {theirs}: [{theirs} is in my aspect, I am in his aspect]",
        ships=[mine, theirs],
    )


def positions_stage(ctx: Context[Board]) -> None:
    answer = next((a for a in ctx.board.decided if a.kind == POSITION), None)
    if answer is not None and ctx.board.asking:
        mine, theirs = read_list(answer.choice)
        ctx.emit(
            "relative position",
            {"pair": ctx.board.asking, "aspects": [mine, theirs], "clauses": ["SG-MOV-05"]},
            ships=ctx.board.asking.split("|"),
        )
    ask_position(ctx)


def ask_board(ctx: Context[Board]) -> None:
    side = ctx.board.moving
    assert side is not None
    if not ctx.option("advanced") or not queries.boarding_options(ctx.state, side):
        fire.ask_fire(ctx)
        return
    basics.stage(ctx, BOARDING)
    ctx.request(
        side,
        BOARD,
        rule="SG-BRD-05",
        default={"boardings": []},
        prompt='send boarders across: {"boardings": [{"ship": ..., "target": ..., "men": n}]}',
        ships=list(queries.boarding_options(ctx.state, side)),
    )


def boarding_stage(ctx: Context[Board]) -> None:
    answer = next(a for a in ctx.board.decided if a.kind == BOARD)
    for each in read_list(read_object(answer.choice)["boardings"]):
        order = read_object(each)
        name, target, men = str(order["ship"]), str(order["target"]), read_int(order["men"])
        leap = [] if target in ctx.board.ship(name).grappled_with else ["SG-HM-01"]
        ctx.emit(
            "crossing",
            {"ship": name, "target": target, "men": men, "clauses": ["SG-BRD-05", "SG-BRD-07", *leap]},
            ships=[name, target],
        )
    fire.ask_fire(ctx)


def phase_end(ctx: Context[Board]) -> None:
    """SG-SEQ-07: the moving side's boarders cross and fight; SG-SEQ-08: its fire fighting and repairs;
    SG-CREW-09: the untrimmed check."""
    side = ctx.board.moving
    assert side is not None
    boarding.cross(ctx)
    boarding.boarding_actions(ctx, side)
    if initiative_phase.check_victory(ctx):
        return
    roller = basics.roller(ctx)
    now = queries.now(ctx.state)
    for record in ctx.board.fighting(side):
        changed, happened = combat.fight_fire(record, now=now, roller=roller)
        basics.commit(ctx, {record.name: changed}, happened)
        changed, happened = combat.repair(ctx.board.ship(record.name), roller=roller)
        basics.commit(ctx, {record.name: changed}, happened)
        changed, happened = combat.check_untrimmed(
            ctx.board.ship(record.name), now=now, roller=roller, rules=queries.rules(ctx.state)
        )
        basics.commit(ctx, {record.name: changed}, happened)
    if initiative_phase.check_victory(ctx):
        return
    next_phase(ctx, ctx.board.phase_no + 1)


def flying_stage(ctx: Context[Board]) -> None:
    answer = next(a for a in ctx.board.decided if a.kind == FLY)
    parties.fly(ctx, ctx.board.asking, answer.choice)
    if not parties.ask_fly(ctx):
        after_movement(ctx)


def collision_answered(ctx: Context[Board]) -> None:
    """The ships asked have avoided or not (avoidance.py, SG-ERR-04/05); the held move goes ahead: a plotted
    one in the plotted moves (plotting.py), any other as the moving ship's move."""
    avoidance.answered(ctx)
    name = ctx.board.asking
    steps, attack = move_parts(ctx.board.held_move)
    if ctx.board.phase_no == 0:
        plotting.resume(PLAY, ctx, name, steps)
        return
    basics.stage(ctx, MOVING, asking=name)
    carry_out(ctx, name, steps, attack)
    ask_move(ctx)


class _Sequence:
    """The movement phases as the phase helpers see them (play.Play): carry a move out, begin the moves, go on
    to the next phase, check for victory."""

    def carry_out(self, ctx: Context[Board], name: str, plan: list[str]) -> None:
        carry_out(ctx, name, plan)

    def next_phase(self, ctx: Context[Board], phase_no: int) -> None:
        next_phase(ctx, phase_no)

    def moves_begin(self, ctx: Context[Board]) -> None:
        moves_begin(ctx)

    def check_victory(self, ctx: Context[Board], *, initiative: bool = False) -> bool:
        return initiative_phase.check_victory(ctx, initiative=initiative)


PLAY = _Sequence()
