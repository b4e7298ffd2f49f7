"""The Sky Galleons captain's fire (tactics.py): each gun at the mark where its shots are worth most, the
bombardment shared out over the hexes; who moves first, and the relative position asked of a side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.rules.sky_galleons import (
    class_rules,
    combat,
    ordnance_play,
    portable_guns,
    queries,
    scenario_ai,
    validate,
)
from battles.rules.sky_galleons.ai_flight import party_shot_worth
from battles.rules.sky_galleons.ai_reading import (
    FOCUS,
    SMALL_ARMS_MAN,
    STRAY_RISK,
    WARBAND_FIRST,
    State,
    bombards,
    damage,
    fires_at_ships,
    hit_chance,
    loaded,
    side_target,
    silenced,
    worth_of_hit,
)
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import FireSolution
from galleons.record import ShipRecord

# --- FIRE --------------------------------------------------------------------------------------------------


def shot_worth(board: Board, solution: FireSolution, focus: str | None) -> float:
    """Expected damage of the shot, more for the side's target and for a target already hurt."""
    if solution.target not in board.by_name or solution.firer not in board.by_name:
        return party_shot_worth(board, solution)
    target = board.ship(solution.target)
    hits = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
    if solution.small_arms:  # men killed, the saves made (SG-SAF-13): a man is worth a fifth of a hull box
        saved = min(max(solution.save_number - sum(solution.save_modifiers.values()), 0), 6) / 6
        value = hits * (1 - saved) * SMALL_ARMS_MAN
    else:
        value = hits * worth_of_hit(solution.damage_value, solution.penetration, target.armor)
    value *= 1 + damage(board, target)
    if solution.target == focus:
        value *= 1 + FOCUS
    firer = board.ship(solution.firer)
    if any(
        s.side == firer.side and s.position == target.position and s.altitude == target.altitude
        for s in board.fighting()
    ):
        value *= STRAY_RISK
    return value


def fire_orders(state: State, side: str) -> JSON:
    """Every gun that can fire, once, at the target where its shots are worth most."""
    board = state.board
    focus = side_target(board, side)
    best: dict[tuple[str, str], tuple[float, FireSolution]] = {}
    at_hexes: dict[tuple[str, str], list[FireSolution]] = {}
    careful = scenario_ai.careful(board, side)
    for solution in validate.solutions(state, side):
        weight = scenario_ai.fire_weight(board, side, solution.target)
        if not weight or (careful and silenced(board, solution.target)):
            continue
        if careful:
            solution = against_gunners(state, solution)
        key = (solution.firer, solution.gun_id)
        worth = weight * shot_worth(board, solution, focus) * ordnance_play.target_weight(board, side, solution.target)
        if careful and solution.target not in board.by_name and scenario_ai.party_ashore(board, side):
            worth *= WARBAND_FIRST  # every flyer shot down is one fewer to come down on the party (SG-SCN-40)
        if worth <= 0:
            continue
        if key not in best or worth > best[key][0]:
            best[key] = (worth, solution)
        if bombards(board.by_name.get(solution.target)):
            at_hexes.setdefault(key, []).append(solution)
    if at_hexes:
        best = share_bombardment(board, best, at_hexes)
    shots: list[JSON] = [
        {"ship": s.firer, "gun": s.gun_id, "target": s.target, **loaded(s)}
        for _, s in (best[key] for key in sorted(best))
    ]
    shots = class_rules.without_conflicts(board.by_name, shots)  # one gun of a pair a target (SG-CLS-08)
    return {"shots": shots + ordnance_play.ai_special_shots(state, side)}  # Hale salvoes, Smutts launches


def against_gunners(state: State, solution: FireSolution) -> FireSolution:
    """At a ground battery, shrapnel or grape where the gun has it: a hull hit does nothing to a battery
    (SG-GB-03) and its armor stops shell, while shrapnel kills the gun's whole damage value of gunners
    whatever the armor, a Gun hit counting as Crew, and adds 1 to hit (SG-SHR-02..05)."""
    board = state.board
    target = board.by_name.get(solution.target)
    firer = board.by_name.get(solution.firer)
    if target is None or firer is None or target.emplacement != ordnance_play.BATTERY or solution.small_arms:
        return solution
    kinds = [k for k in combat.ammunition_for(firer.gun(solution.gun_id)) if k != solution.ammunition]
    for kind in kinds:
        loaded_with = ordnance_play.fire_solution(
            portable_guns.trained_record(firer, board.trained),
            solution.gun_id,
            target,
            now=queries.now(state),
            rules=queries.rules(state),
            same_hex=board.relative(firer.name, target.name),
            ammunition=kind,
        )
        if loaded_with.allowed:
            return loaded_with
    return solution


def share_bombardment(
    board: Board,
    best: dict[tuple[str, str], tuple[float, FireSolution]],
    at_hexes: Mapping[tuple[str, str], Sequence[FireSolution]],
) -> dict[tuple[str, str], tuple[float, FireSolution]]:
    """The guns whose best mark is a hex to bombard share the hexes out, the heaviest first: each at the hex
    where its hit should add the most of the points still wanted there (points beyond a hex's total are lost,
    SG-BOMB-01/02), counting the hits the guns before it should score; of hexes alike, the nearest to done."""
    wanted = {
        s.target: float(board.ship(s.target).hull_boxes - board.ship(s.target).hull_hits)
        for ss in at_hexes.values()
        for s in ss
    }
    shared = dict(best)
    guns = [key for key, (_, solution) in best.items() if key in at_hexes and solution.target in wanted]
    for key in sorted(guns, key=lambda k: (-best[k][1].damage_value, k)):

        def gain(solution: FireSolution) -> float:
            chance = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
            return chance * min(solution.damage_value, max(wanted[solution.target], 0.0))

        choice = max(at_hexes[key], key=lambda s: (round(gain(s), 6), -wanted[s.target], s.target))
        chance = choice.shots * hit_chance(choice.needed, sum(choice.modifiers.values()))
        wanted[choice.target] -= chance * choice.damage_value
        shared[key] = (best[key][0], choice)
    return shared


# --- FIRST and POSITION ------------------------------------------------------------------------------------


def strength(board: Board, side: str) -> tuple[int, int]:
    """(guns that can fire at ships, ships) still in the fight."""
    ships = board.fighting(side)
    return sum(1 for s in ships for g in s.guns if fires_at_ships(g) and g.manned > 0), len(ships)


def first_player(state: State, request: DecisionRequest) -> JSON:
    """Who moves first (SG-SEQ-03).

    Movement is one side at a time and every side fires after every movement phase. Moving last lets a
    captain see where the enemy went and answer it, bringing its guns round on him; that is worth most to
    the stronger side, which has the guns to punish what it sees. The weaker side moves first instead: it
    takes its pick of position for the first fire of the turn, before the stronger side has closed.
    """
    board = state.board
    options = [str(o) for o in request.options or ()]
    side = request.side
    if board.rammers.get(side, 0) and side in options:
        return side  # rams and grapples are tried only in the first movement phase (SG-RAM-03)
    rivals = [strength(board, s) for s in board.sides_fighting() if s != side]
    if not rivals or strength(board, side) <= max(rivals):
        return side if side in options else request.default
    # To move last, name the next side after ours: the order runs round from the side named (SG-SCN-05),
    # and a side out of the fight (not among the options) has no movement phase.
    order = list(board.side_order)
    start = order.index(side)
    following = [order[(start + step) % len(order)] for step in range(1, len(order))]
    return next((s for s in following if s in options), request.default)


def aspect_guns(record: ShipRecord, aspect: str) -> float:
    """What the ship's guns bearing on ``aspect`` are worth at point-blank range (close, needing 3+)."""
    total = 0.0
    for gun in record.guns:
        rate, dv = gun.rate, gun.damage_value
        if fires_at_ships(gun) and gun.manned > 0 and aspect in gun.arcs and rate and dv:
            total += rate.shots * dv
    return total


def relative_position(state: State, request: DecisionRequest) -> JSON:
    """In a shared hex (SG-MOV-05/06): where most of our guns bear on him and fewest of his on us."""
    board = state.board
    mine, theirs = (board.ship(name) for name in request.ships[:2])
    options = [o for o in request.options or () if isinstance(o, list) and len(o) == 2]
    if not options:
        return request.default

    def worth(option: list[JSON]) -> float:
        return aspect_guns(mine, str(option[0])) - aspect_guns(theirs, str(option[1]))

    return max(options, key=worth)  # the first of the best, in the request's (sorted) order
