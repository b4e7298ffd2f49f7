"""Read-only questions the rules and the AI ask of a Sky Galleons battle: the moment of play, a ship's speed
and movement allowance (SG-MOV-01, SG-RAM-05, SG-KITE-02/04, SG-TOW-04..07, SG-ERR-24/25, SG-DT-03, SG-TM-04),
the combat switches the options set, who is aboard whom, and which ships fight or run. Functions over the
battle state; nothing here changes it, and nothing here knows the AI.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from battles.engine.frozen import evolve
from battles.engine.jsonread import DataFile
from battles.engine.memo import Recent
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.sky_galleons import agility, close_action, flying, movement, ordnance, special_rules, victory
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import CombatRules
from battles.rules.sky_galleons.kinds import KITE_DIE_EXPECTED
from battles.rules.sky_galleons.movement import Allowance
from galleons.record import Moment, ShipRecord, altitude_level, record_problems

OPTIONAL_RULES = DataFile(Path(__file__).parent / "data" / "optional-rules.json")


# --- plotted movement and carried ordnance (plotting, ordnance_play) ------------------------------------------


def share(points: int) -> int:
    """The most a ship may plot: its allowance times the plotted share (a half), rounded up (SG-ERR-24)."""
    top = OPTIONAL_RULES.whole("plotted_movement", "plot_share", "numerator")
    bottom = OPTIONAL_RULES.whole("plotted_movement", "plot_share", "denominator")
    return -(-max(points, 0) * top // bottom)


def plot_allowance(full: Allowance) -> Allowance:
    """The allowance a plot is traced against: the plotted share of the speed and of a held course."""
    held = None if full.held_speed is None else share(full.held_speed)
    return evolve(full, speed=share(full.speed), held_speed=held)


def allowance_after_plot(full: Allowance, spent: int, cap: int) -> Allowance:
    """The allowance in the ship's own Movement Phase after a plotted move that spent ``spent`` MP: what is left
    of the turn's allowance, and no more than ``cap`` (what it plotted; 0 if a collision stopped it) (SG-ERR-25)."""
    speed = max(min(full.speed - spent, cap), 0)
    held = None if full.held_speed is None else max(min(full.held_speed - spent, cap), 0)
    return evolve(full, speed=speed, held_speed=held)


def limit_allowance(record: ShipRecord, allowed: movement.Allowance) -> movement.Allowance:
    """Lowered drogues take 1 off the allowance (SG-DT-03); raised mines hold the move to 3 hexes (SG-TM-04),
    a held course too (the hexes are counted by :func:`hexes_problem`)."""
    limits = ordnance.movement_limits(record)
    if not limits.clauses:
        return allowed
    lost = limits.allowance_lost
    sail = allowed.sail
    if sail is not None and lost:
        sail = evolve(sail, run=max(sail.run - lost, 0), beat=max(sail.beat - lost, 0))
    speed = max(allowed.speed - lost, 0)
    held = allowed.held_speed
    if held is not None:
        held = min(held, speed, limits.max_hexes if limits.max_hexes is not None else held)
        if sail is not None:  # a helmless kite: only as far as the drogues leave her on her heading
            held = min(held, sail.on(record.facing))
    return evolve(allowed, speed=speed, sail=sail, held_speed=held)


# --- the moment, speeds and allowances ---------------------------------------------------------------------


def rules(state: BattleState[Board]) -> CombatRules:
    """The combat switches: small arms and lob guns come with the advanced rules."""
    # Asked for every shot and every gun weighed, of options that never change during a battle: kept for the
    # last few options objects (battles.engine.memo; CombatRules is immutable).
    found = _RULES.recall((state.options,), ())
    if found is None:
        found = combat_rules(state.options)
        _RULES.keep((state.options,), (), found)
    return found


_RULES: Recent[CombatRules] = Recent(4)


def combat_rules(options: Mapping[str, object]) -> CombatRules:
    """The combat switches of a battle played under ``options`` (its options are public: every side and the
    map's overlays read them alike)."""
    advanced = bool(options["advanced"])
    return CombatRules(
        two_range_penetration=bool(options["two_range_penetration"]),
        errata=bool(options["errata"]),
        small_arms=advanced,
        lob_guns=advanced,
        nonexploding_rounds=bool(options["nonexploding_rounds"]),
        restricted_arcs=bool(options["restricted_arcs"]),
        green_machineguns_at_max=advanced and bool(options["green_machineguns_flat_out"]),
        model=agility.fire_model(options),
    )


def now(state: BattleState[Board]) -> Moment:
    phases = len(state.board.side_order)
    return Moment(max(state.turn, 1), min(max(state.board.phase_no, 1), phases), phases)


def speed(record: ShipRecord, board: Board | None = None) -> int:
    """The movement allowance as things stand: a kite's running speed on the die rolled for it this
    phase, or, before it rolls, on an even die (KITE_DIE_EXPECTED)."""
    if record.is_kite:
        return record.effective_speed(kite_die(board, record))
    return record.effective_speed()


def kite_die(board: Board | None, record: ShipRecord) -> int:
    if board is not None and record.name in board.kite_dice:
        return board.kite_dice[record.name]
    return KITE_DIE_EXPECTED


def allowance(state: BattleState[Board], record: ShipRecord, *, plotted: bool = True) -> movement.Allowance:
    """The movement allowance, less what the ship spent avoiding rams and grapples this turn (SG-RAM-05);
    a kite's from its movement die and the wind (SG-KITE-02/04); none for a ship hove to (SG-SCN-17). With
    plotted movement, half of it for the plot and what the plot leaves in the ship's own phase (SG-ERR-24/25;
    ``plotted=False``: the whole)."""
    # Asked of a ship at her request, at her answer's check and at every step of her move, of one board: the
    # answer depends on the board, the record, the options and the turn alone (battles.engine.memo).
    same, equal = (state.board, record, state.options), (state.turn, plotted)
    found = _ALLOWANCES.recall(same, equal)
    if found is None:
        found = special_rules.held_still(state.board, record, _allowance(state, record, plotted=plotted))
        _ALLOWANCES.keep(same, equal, found)
    return found


_ALLOWANCES: Recent[movement.Allowance] = Recent(8)


def trace(record: ShipRecord, plan: list[str], *, allowed: Allowance, terrain: movement.Terrain) -> list[movement.Step]:
    """movement.trace of a ship's move: traced at her answer's check, when it is still possible, when it waits on
    another ship's avoidance and when it is made, of one record. The trace depends on its arguments alone and its
    steps are immutable, so the last few are kept (battles.engine.memo), each given as a fresh list. A plan the
    rules refuse is traced again, and raises PlanError, each time it is asked."""
    same, equal = (record, terrain), (tuple(plan), allowed)
    found = _TRACES.recall(same, equal)
    if found is None:
        found = tuple(movement.trace(record, plan, allowed=allowed, terrain=terrain))
        _TRACES.keep(same, equal, found)
    return list(found)


_TRACES: Recent[tuple[movement.Step, ...]] = Recent(8)


def _allowance(state: BattleState[Board], record: ShipRecord, *, plotted: bool) -> movement.Allowance:
    board = state.board
    if plotted and state.options["plotted_movement"] and not record.is_kite:
        if board.phase_no == 0:  # plotted before anyone avoided anything this turn
            unavoided = state.evolve(board=board.evolve(avoiding={}))
            return plot_allowance(allowance(unavoided, record, plotted=False))
        if record.name in board.plotted:
            return allowance_after_plot(allowance(state, record, plotted=False), *board.plotted[record.name])
    avoided = board.avoiding.get(record.name, 0) + board.owed.get(record.name, 0)  # SG-RAM-05, SG-ERR-05
    last = board.last_moved.get(record.name, 0)
    towed = ready_tow(state, record.name)
    if towed is not None:
        return limit_allowance(record, tow_allowance(state, record, board.ship(towed), last))
    if record.is_kite and board.wind is not None:
        sailing = movement.allowance(
            record, now=now(state), last_hexes=last, kite_die=kite_die(board, record), wind=board.wind
        )
        if sailing.sail is not None and sailing.held_speed is not None:
            # With nobody at the helm she holds last turn's speed only as far as the heading now allows.
            sailing = evolve(sailing, held_speed=min(sailing.held_speed, sailing.sail.on(record.facing)))
        if not avoided or sailing.sail is None:
            return limit_allowance(record, sailing)
        # Avoiding comes off the die's allowance on every heading (SG-RAM-05 with SG-KITE-02/04).
        sail = evolve(sailing.sail, run=max(sailing.sail.run - avoided, 0), beat=max(sailing.sail.beat - avoided, 0))
        held = None if sailing.held_speed is None else min(sailing.held_speed, sail.on(record.facing))
        return limit_allowance(
            record, evolve(sailing, speed=max(sailing.speed - avoided, 0), sail=sail, held_speed=held)
        )
    allowed = movement.allowance(record, now=now(state), speed=max(speed(record) - avoided, 0), last_hexes=last)
    return limit_allowance(record, allowed)  # drogues and mines (SG-DT-03, SG-TM-04)


def ready_tow(state: BattleState[Board], tower: str) -> str | None:
    """The ship ``tower`` may tow this phase: rigged in an earlier turn (SG-TOW-03)."""
    towed = state.board.towing(tower)
    if towed is None or state.board.tows[towed][1] >= state.turn:
        return None
    return towed


def tow_allowance(state: BattleState[Board], tower: ShipRecord, towed: ShipRecord, last: int) -> movement.Allowance:
    """Towing: half the allowance, less the weight of the tow (SG-TOW-04..07); a kite halves its die,
    twice upwind (SG-TOW-05)."""
    board, moment = state.board, now(state)
    if tower.is_kite and board.wind is not None:
        die = kite_die(board, tower)
        sailing = movement.allowance(
            tower, now=moment, last_hexes=last, kite_die=close_action.tow_kite_die(die, upwind=False), wind=board.wind
        )
        assert sailing.sail is not None
        weight = towed.hull_size // max(tower.hull_size, 1)
        run = max(sailing.sail.run - weight, 0)
        beat = max(tower.effective_speed(close_action.tow_kite_die(die, upwind=True), with_wind=False) - weight, 0)
        sail = evolve(sailing.sail, run=run, beat=beat)
        return evolve(sailing, speed=sail.allowance, sail=sail)
    towing = close_action.tow_speed(speed(tower, board), tower.hull_size, towed.hull_size)
    return movement.allowance(tower, now=moment, speed=towing, last_hexes=last)


def boarders_on(board: Board, name: str) -> list[ShipRecord]:
    """Enemy ships whose boarders are aboard ``name`` now."""
    target = board.ship(name)
    ships = [s for s in board.ships if s.boarding == name and s.boarders.men and s.side != target.side and s.afloat]
    # Enemy flying parties aboard fight as boarders too (flying.boarding_stand_in, SG-HM-05).
    return ships + [flying.boarding_stand_in(p) for p in flying.aboard(board.flyers, name) if p.side != target.side]


def crossing_limit(board: Board, a: ShipRecord, b: ShipRecord) -> int:
    aspects = board.relative(a.name, b.name)
    over = aspects is not None and any(aspect in ("bow", "stern") for aspect in aspects)
    return close_action.crossing_limit(a, b, over_bow_or_stern=over)


def friends_aboard(state: BattleState[Board], side: str, target: str) -> bool:
    """The errata: no ship fires at a ship with friendly boarders aboard (SG-ERR-06)."""
    return bool(state.options["errata"]) and any(s.side == side for s in boarders_on(state.board, target))


def shared_pairs(board: Board) -> list[tuple[str, str]]:
    """The moving side's ships sharing hex and altitude with an enemy, not yet declared (SG-MOV-05)."""
    side = board.moving
    pairs = []
    for mine in board.fighting(side):
        for theirs in board.fighting():
            if (
                theirs.side != side
                and theirs.position == mine.position
                and theirs.altitude == mine.altitude
                and board.relative(mine.name, theirs.name) is None
            ):
                pairs.append((mine.name, theirs.name))
    return pairs


def held(state: BattleState[Board], record: ShipRecord) -> bool:
    """Grappled and not towing: it may not move (SG-GRAP-08); a tower moves with its tow only."""
    if not record.grappled_with:
        return False
    towed = ready_tow(state, record.name)
    return towed is None or set(record.grappled_with) != {towed}


def plotters(state: BattleState[Board], side: str) -> list[ShipRecord]:
    """The side's ships that plot: in the fight, free to move, and not kites (their die is rolled later)."""
    return [s for s in state.board.fighting(side) if not s.is_kite and not held(state, s)]


def boarding_options(state: BattleState[Board], side: str) -> dict[str, dict[str, int]]:
    """For each of the side's ships that may send boarders now: each enemy it may board and how many men
    may cross (SG-BRD-05..09; SG-BRD-06: not with enemy boarders aboard; SG-CRIT-37/48: not stunned)."""
    board = state.board
    moment = now(state)
    found: dict[str, dict[str, int]] = {}
    for ship in board.fighting(side):
        if not ship.party.men or ship.stunned(moment) or boarders_on(board, ship.name):
            continue
        targets: dict[str, int] = {}
        for name in (*ship.grappled_with, *flying.alongside(ship, board.fighting())):  # SG-HM-01: no grapple
            other = board.ship(name)
            if other.side == side or not board.in_fight(other):
                continue
            if ship.boarding not in (None, name):
                continue  # one ship at a time
            targets[name] = min(ship.party.men, crossing_limit(board, ship, other))
        if targets:
            found[ship.name] = targets
    return found


def check_invariants(state: BattleState[Board]) -> list[str]:
    problems: list[str] = []
    board = state.board
    for ship in board.ships:
        problems += [f"{ship.name}: {p}" for p in record_problems(ship)]
        if ship.position is not None and not board.terrain.on_map(ship.position) and ship.name not in board.out:
            problems.append(f"{ship.name} is off the map but still in the fight")
        if (
            ship.afloat
            and ship.status == "flying"
            and altitude_level(ship.altitude)
            <= altitude_level(board.terrain.ground(ship.position) if ship.position else "G")
            and ship.name not in board.out
        ):
            problems.append(f"{ship.name} flies inside the ground at {ship.altitude}")
    for ship in board.ships:
        for other in ship.grappled_with:
            if other not in board.by_name or ship.name not in board.ship(other).grappled_with:
                problems.append(f"{ship.name} is grappled with {other}, but not {other} with {ship.name}")
        if ship.boarding is not None and ship.boarding not in board.by_name:
            problems.append(f"{possessive(ship.name)} boarders are aboard {ship.boarding}, which is not in the battle")
    problems += flying.problems(board.flyers, board.by_name, board.terrain)
    if state.turn > board.turn_limit:
        problems.append(f"turn {state.turn} past the limit {board.turn_limit}")
    if (
        state.over
        and victory.ends_only_with_one_side(board)
        and len(board.sides_fighting()) > 1
        and state.turn < board.turn_limit
    ):
        problems.append("the battle ended with two sides still in the fight before the turn limit")
    return problems
