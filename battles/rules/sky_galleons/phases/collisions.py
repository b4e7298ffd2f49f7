"""What a move runs into, as functions over the battle's context: rams fitted and unfitted (SG-RAM-01..12),
grapples made or missed (SG-GRAP-01..07), collisions and their damage (SG-COL-01..06), and the end of a move
(where it ends, hexes moved, a tow brought along; SG-MOV-01, SG-TOW-03).
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import dice as dice_
from battles.engine.hexgrid import Hex
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.sky_galleons import (
    agility,
    avoidance,
    close_action,
    combat,
    movement,
    queries,
)
from battles.rules.sky_galleons.board import (
    Board,
)
from battles.rules.sky_galleons.kinds import (
    CRASH_LANDED,
    CRASHED,
    ESCAPED,
    RAM,
)
from battles.rules.sky_galleons.phases import basics, boarding
from galleons.record import (
    ShipRecord,
    tint,
)


def ram(ctx: Context[Board], rammer_name: str, target_name: str) -> bool:
    """The ram roll and, if it strikes, its damage, the target's trim and the grapple (SG-RAM-06..14)."""
    rammer, target = ctx.board.ship(rammer_name), ctx.board.ship(target_name)
    ships = [rammer_name, target_name]
    if close_action.immobilized(target):
        ctx.emit(
            "ram",
            {"ship": rammer_name, "target": target_name, "clauses": ["SG-RAM-09"], "what": "sure"},
            ships=ships,
        )
    else:
        avoiding = ctx.board.avoiding.get(target_name, 0)
        rolled = ctx.roll(
            f"ram: {rammer_name} at {target_name}",
            modifiers=close_action.ram_modifiers(rammer, target, avoiding),
            needed=dice_.at_most(close_action.cint("ram", "succeeds_at_most"), "rammed", "misses"),
            ships=ships,
        )
        clauses = ["SG-RAM-06", "SG-RAM-07"] + (["SG-RAM-08"] if avoiding else [])
        ctx.emit(
            "ram",
            {"ship": rammer_name, "target": target_name, "clauses": clauses, "what": rolled.outcome},
            ships=ships,
        )
        if rolled.outcome != "rammed":
            return False
    lost_trim = ram_fitted(ctx, rammer, target) if rammer.ram else ram_unfitted(ctx, rammer, target)
    rammer, target = ctx.board.ship(rammer_name), ctx.board.ship(target_name)
    if not lost_trim and alongside(rammer, target) and boarding.in_fight(ctx.board, target):
        grappled(ctx, rammer_name, target_name, ["SG-RAM-13", "SG-RAM-14"])
    return True


def ram_fitted(ctx: Context[Board], rammer: ShipRecord, target: ShipRecord) -> bool:
    """A fitted ram: half the rammer's hull size in hull hits, an odd half on 4-6, no harm to the rammer;
    then 1d6 under the hits taken is a loss of trim (SG-RAM-11/12). True if trim was lost."""
    if ctx.option("ramming_speed"):  # AG-RSP-01..04
        hits, odd = agility.ramming_speed_hits(rammer, queries.speed(rammer, ctx.board))
    else:
        hits, odd = close_action.ram_hits(rammer)
    if odd:
        extra = ctx.roll(
            f"ram: the odd half hit on {target.name}",
            needed=dice_.at_least(close_action.cint("ram", "odd_half_hit_on_at_least"), "hit", "no effect"),
            ships=[target.name],
        )
        hits += 1 if extra.outcome == "hit" else 0
    if hits:
        changed, happened = combat.hull_hits(target, hits)
        basics.commit(ctx, {target.name: changed}, happened, clauses=["SG-RAM-11"])
    target = ctx.board.ship(target.name)
    if not target.afloat:
        return True
    trim = ctx.roll(
        f"ram: does {target.name} lose trim ({hits} hull hits taken)",
        needed=dice_.at_most(hits - 1, "loss of trim", "keeps trim"),
        ships=[target.name],
    )
    if trim.outcome != "loss of trim":
        return False
    changed, happened = combat.lose_trim(
        target,
        hits,
        now=queries.now(ctx.state),
        roller=basics.roller(ctx),
        rules=queries.rules(ctx.state),
        cause="ram",
    )
    basics.commit(ctx, {target.name: changed}, happened, clauses=["SG-RAM-12"])
    return True


def ram_unfitted(ctx: Context[Board], rammer: ShipRecord, target: ShipRecord) -> bool:
    """No ram fitted: a collision, but a rammer smaller than its target cannot lose trim (SG-RAM-14).
    True if the target lost trim."""
    ctx.emit(
        "collision",
        {"ship": rammer.name, "other": target.name, "clauses": ["SG-RAM-14", "SG-COL-04"]},
        ships=[rammer.name, target.name],
    )
    for victim, against in ((rammer.name, target.name), (target.name, rammer.name)):
        collision_damage(ctx, victim, ctx.board.ship(against).hull_size)
    rammer, target = ctx.board.ship(rammer.name), ctx.board.ship(target.name)
    difference = target.hull_size - rammer.hull_size
    if difference >= 0 or (-difference) // 2 < 1 or not target.afloat:
        return not target.afloat
    trim = ctx.roll(
        f"ram: does the smaller {target.name} lose trim",
        needed=dice_.at_most((-difference) // 2, "loss of trim", "keeps trim"),
        ships=[target.name],
    )
    if trim.outcome != "loss of trim":
        return False
    changed, happened = combat.lose_trim(
        target,
        (-difference) // 2,
        now=queries.now(ctx.state),
        roller=basics.roller(ctx),
        rules=queries.rules(ctx.state),
        cause="ram",
    )
    basics.commit(ctx, {target.name: changed}, happened, clauses=["SG-COL-08", "SG-RAM-14"])
    return True


def alongside(a: ShipRecord, b: ShipRecord) -> bool:
    return a.afloat and b.afloat and a.position == b.position and a.altitude == b.altitude


def grappled(ctx: Context[Board], a: str, b: str, clauses: Sequence[str]) -> None:
    ctx.emit("grappled", {"pair": [a, b], "clauses": list(clauses)}, ships=[a, b])


def grapple_or_miss(ctx: Context[Board], name: str, attack: tuple[str, str]) -> None:
    """At the end of the move: the grapple attempt if the ship ended beside its target (SG-GRAP-01/02);
    a ram whose path never met the target is a lost attempt."""
    kind, target_name = attack
    ship, target = ctx.board.ship(name), ctx.board.ship(target_name)
    reachable = boarding.in_fight(ctx.board, target) or ctx.board.captured.get(target_name) == ship.side
    if not (alongside(ship, target) and boarding.in_fight(ctx.board, ship) and reachable):
        ctx.emit(
            "attempt lost",
            {
                "ship": name,
                "target": target_name,
                "what": f"never came alongside to {kind}",
                "clauses": ["SG-RAM-06", "SG-GRAP-01"],
            },
            ships=[name, target_name],
        )
        return
    if kind == RAM:  # it ended its move in the target's hex without entering it: the ram is tried there
        ram(ctx, name, target_name)
        return
    if ctx.board.ally(ship.side, target):  # a friend or a prize: the lines go across at once (SG-TOW-02)
        grappled(ctx, name, target_name, ["SG-TOW-02"])
        return
    avoiding = ctx.board.avoiding.get(target_name, 0)
    attempts = close_action.grapple_attempts(ship, avoiding)
    clauses = ["SG-GRAP-01", "SG-GRAP-02"] + (["SG-GRAP-03"] if avoiding else [])
    if attempts == 0:
        ctx.emit(
            "attempt lost",
            {"ship": name, "target": target_name, "what": "no hands to throw a line", "clauses": clauses},
            ships=[name, target_name],
        )
        return
    on = close_action.cint("grapple", "succeeds_at_least")
    rolled = ctx.roll(
        f"grapple: {possessive(name)} {attempts} lines at {target_name}",
        count=attempts,
        needed=dice_.Judge(f"any die {on}+", lambda faces, _t: "grappled" if max(faces) >= on else "no hold"),
        ships=[name, target_name],
    )
    if rolled.outcome == "grappled":
        grappled(ctx, name, target_name, clauses)


def collision(
    ctx: Context[Board], mover: str, other: str, *, entered_from: int | None, turned: bool, leaving: bool
) -> bool:
    """The collision check and, on a collision, its damage and the smaller ship's trim (SG-COL-01..09)."""
    target = ctx.board.ship(other)
    mods = movement.collision_modifiers(entered_from=entered_from, other_facing=target.facing, turned_in_hex=turned)
    on = tint("collision", "collides_on_at_most")
    clauses = ["SG-COL-01", "SG-COL-02", "SG-COL-03"] + (["SG-COL-09"] if leaving else [])
    if ctx.option("errata") and ctx.board.avoiding.get(other):  # SG-ERR-04: it avoids as it would a ram
        mods.update(avoidance.check_modifiers(target, ctx.board.avoiding[other]))
        clauses.append("SG-ERR-04")
    check = ctx.roll(
        f"collision check: {mover} {'leaving' if leaving else 'entering'} {possessive(other)} hex",
        modifiers=mods,
        needed=dice_.at_most(on, "collision", "clear"),
        ships=[mover, other],
    )
    ctx.emit("collision check", {"ship": mover, "other": other, "clauses": clauses}, ships=[mover, other])
    if check.outcome != "collision":
        return False
    ctx.emit("collision", {"ship": mover, "other": other, "clauses": ["SG-COL-04"]}, ships=[mover, other])
    for victim, against in ((mover, other), (other, mover)):
        collision_damage(ctx, victim, ctx.board.ship(against).hull_size)
    a, b = ctx.board.ship(mover), ctx.board.ship(other)
    difference = abs(a.hull_size - b.hull_size)
    smaller = a if a.hull_size < b.hull_size else b
    if difference // 2 >= 1 and smaller.afloat:
        trim = ctx.roll(
            f"collision: does the smaller {smaller.name} lose trim",
            needed=dice_.at_most(difference // 2, "loss of trim", "keeps trim"),
            ships=[smaller.name],
        )
        if trim.outcome == "loss of trim":
            changed, happened = combat.lose_trim(
                smaller,
                difference // 2,
                now=queries.now(ctx.state),
                roller=basics.roller(ctx),
                rules=queries.rules(ctx.state),
                cause="collision",
            )
            basics.commit(ctx, {smaller.name: changed}, happened, clauses=["SG-COL-08"])
    return True


def collision_damage(ctx: Context[Board], victim: str, other_hull: int) -> None:
    """SG-COL-06/07: roll against the other ship's hull size; above 6, one hit sure and one more chance."""
    record = ctx.board.ship(victim)
    if not record.afloat:
        return
    big = tint("collision", "big_hull_over")
    sure = 1 if other_hull > big else 0
    against = other_hull - big if other_hull > big else other_hull
    rolled = ctx.roll(
        f"collision damage to {victim} (other hull size {other_hull})",
        needed=dice_.at_most(against, "hull hit", "no damage"),
        ships=[victim],
    )
    hits = sure + (1 if rolled.outcome == "hull hit" else 0)
    if hits:
        changed, happened = combat.hull_hits(record, hits)
        basics.commit(ctx, {victim: changed}, happened, clauses=["SG-COL-06", "SG-COL-07"] if sure else ["SG-COL-06"])


def sharing(board: Board, name: str, hex_: Hex | None, altitude: str) -> list[str]:
    """Other ships still afloat in that hex at that altitude (SG-COL-01/10/11)."""
    return [
        s.name
        for s in board.ships
        if s.name != name
        and s.afloat
        and s.name not in board.out
        and s.position == hex_
        and s.altitude == altitude
        and s.emplacement is None  # nothing collides with the ground's batteries and target hexes
    ]


def moved_done(ctx: Context[Board], name: str, hexes: int) -> None:
    towed = queries.ready_tow(ctx.state, name)
    if towed is not None and towed in ctx.board.ship(name).grappled_with:
        tower = ctx.board.ship(name)  # the ship in tow comes along, ending where its tower ends (SG-TOW-01)
        ctx.emit(
            "towed",
            {
                "ship": towed,
                "hex": None if tower.position is None else tower.position.to_json(),
                "facing": tower.facing,
                "altitude": tower.altitude,
                "clauses": ["SG-TOW-01", "SG-TOW-04"],
            },
            ships=[towed, name],
        )
        if ctx.board.out.get(name) == ESCAPED:
            basics.out(ctx, towed, ESCAPED, f"leaves the battle in tow of {name}", ["SG-TOW-01"])
    if ctx.option("agility"):  # its speed for the agility rating is the hexes it moved (AG-AGI-01)
        basics.commit(ctx, {name: agility.after_move(ctx.board.ship(name), hexes)}, [])
    ctx.emit("move done", {"ship": name, "hexes": hexes}, ships=[name])


def move_ends(ctx: Context[Board], name: str, ends: str, clauses: Sequence[str]) -> None:
    """The ``moved`` event already set a landed or crashed status (so no state in between has a ship flying
    inside the ground); here the ship leaves the fight with the right reason."""
    if ends == movement.LEFT_MAP:  # the moved event took it out of the fight
        ctx.emit("escaped", {"ship": name, "what": "leaves the battle over the map edge"}, ships=[name])
    elif ends == movement.LANDED:
        ctx.emit("landed", {"ship": name, "clauses": list(clauses)}, ships=[name])
    elif ends == movement.CRASH_LANDED:
        basics.out(ctx, name, CRASH_LANDED, "crash-lands: the crew is safe, the ship is lost", clauses)
    else:
        basics.out(ctx, name, CRASHED, "crashes into the land", clauses)
