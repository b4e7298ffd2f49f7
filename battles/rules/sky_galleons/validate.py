"""Whether an answer stands: each decision's checks as functions over the battle state, the request and the
choice (SG-SEQ-02, SG-MOV-01..06, SG-RAM-01, SG-BRD-01..24, SG-FIRE-01..12, SG-ERR-06/24, SG-HM-03..06), and
the fire solutions a side has (what a fire answer is checked against). A rejection names the clause.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.jsonread import read_int, read_list
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.sky_galleons import (
    class_rules,
    close_action,
    combat,
    flying,
    movement,
    ordnance_play,
    portable_guns,
    prizes,
    queries,
    setup_rules,
    sightlines,
    signals,
    special_rules,
    standing,
)
from battles.rules.sky_galleons.board import (
    Board,
    move_parts,
    read_pair_ints,
)
from battles.rules.sky_galleons.close_action import PartyError
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.flying import FLY
from battles.rules.sky_galleons.kinds import (
    BOARD,
    CRASH_LANDED,
    CRASHED,
    ESCAPED,
    FIRE,
    GRAPPLE,
    MOVE,
    ORDERS,
    PLACE,
    PLOT,
    RAM,
    REINFORCE,
)
from battles.rules.sky_galleons.movement import PlanError
from galleons.record import (
    Moment,
    ShipRecord,
    altitude_level,
    altitude_levels,
    assign_gun_crew,
    assign_relief,
)

SHOT_KEYS = {"ship", "gun", "target", "ammunition", "rate"}


def validate(state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
    board = state.board
    if request.kind == PLACE:
        return placement_problem(state, board.ship(request.ships[0]), choice)
    if request.kind == MOVE:
        return move_problem(state, board.ship(request.ships[0]), choice)
    if request.kind == ORDERS:
        return orders_problem(state, request.side, choice)
    if request.kind == FIRE:
        return fire_problem(state, request.side, choice)
    if request.kind == BOARD:
        return board_problem(state, request.side, choice)
    if request.kind == FLY:
        return fly_problem(state, request.ships[0], choice)
    if request.kind == PLOT:
        return plot_problem(state, request.side, choice)
    if request.kind == REINFORCE:
        rule = special_rules.pending_reinforcement(board)
        if rule is None:  # pragma: no cover - asked only while one is due
            return Rejection("SG-SCN-24", "no reinforcement is due")
        return special_rules.reinforcement_problem(board, rule, choice)
    return None


def placement_problem(state: BattleState[Board], record: ShipRecord, choice: JSON) -> Rejection | None:
    if not isinstance(choice, dict) or set(choice) != {"hex", "facing", "altitude"}:
        return Rejection("SG-SCN-04", 'a set-up is {"hex": [col, row], "facing": 0-5, "altitude": "M"}')
    try:
        hex_ = hexgrid.from_odd_q(*read_pair_ints(choice["hex"]))
    except (TypeError, ValueError):
        return Rejection("SG-SCN-04", "hex must be [col, row]")
    board = state.board
    if not board.terrain.on_map(hex_):
        return Rejection("SG-SCN-04", f"{choice['hex']} is off the map")
    if choice["facing"] not in range(6) or type(choice["facing"]) is not int:
        return Rejection("SG-FACE-01", "facing is a hexside, 0-5 clockwise from north")
    altitude = choice["altitude"]
    ceiling = record.max_altitude
    if altitude not in altitude_levels() or ceiling is None:
        return Rejection("SG-ALT-01", f"altitude is one of {list(altitude_levels())}")
    if altitude_level(str(altitude)) > altitude_level(ceiling):
        return Rejection("SG-ALT-03", f"{record.name} cannot fly above {ceiling}")
    landed = setup_rules.lands_at(board, record, hex_, str(altitude))
    if altitude_level(str(altitude)) <= altitude_level(board.terrain.ground(hex_)) and not landed:
        return Rejection("SG-ALT-02", "the land there is as high as that")
    problem = setup_rules.placement_problem(board, record, hex_, read_int(choice["facing"]), str(altitude))
    if problem is not None:
        return problem
    for other in board.ships:
        placed_enemy = other.name in board.placed and other.side != record.side and other.position is not None
        if placed_enemy and other.position is not None and hexgrid.distance(other.position, hex_) < board.min_distance:
            return Rejection("SG-SCN-04", f"closer than {board.min_distance} hexes to {other.name} of {other.side}")
    return None


def move_problem(state: BattleState[Board], record: ShipRecord, choice: JSON) -> Rejection | None:
    if isinstance(choice, dict) and "drops" in choice:  # liquid fire, spikes, bombs dropped on the way
        problem = ordnance_play.drops_problem(state, record, choice)
        if problem is not None:
            return problem
        choice = {k: v for k, v in choice.items() if k != "drops"}
        choice = choice["steps"] if set(choice) == {"steps"} else choice
    shape = f"a move is a list of steps ({', '.join(movement.STEPS)})"
    if state.options["advanced"]:
        shape += ', or {"steps": [...], "ram": ship} or {"steps": [...], "grapple": ship}'
    if isinstance(choice, dict):
        kinds = set(choice) - {"steps"}
        if not state.options["advanced"] or "steps" not in choice or len(kinds) != 1 or kinds - {RAM, GRAPPLE}:
            return Rejection("SG-MOV-01", shape)
        steps = choice["steps"]
    else:
        steps = choice
    if not isinstance(steps, list) or not all(isinstance(t, str) for t in steps):
        return Rejection("SG-MOV-01", shape)
    problem = special_rules.before_move_problem(state.board, record, choice)
    if problem is not None:
        return problem
    allowed = queries.allowance(state, record)
    try:
        path = queries.trace(record, [str(t) for t in steps], allowed=allowed, terrain=state.board.terrain)
    except PlanError as error:
        return Rejection(error.clause, error.reason)
    hexes = ordnance_play.hexes_problem(record, [str(t) for t in steps])  # raised mines: 3 hexes (SG-TM-04)
    if hexes is not None:
        return hexes
    problem = special_rules.move_problem(state.board, record, path, held=allowed.held_speed is not None)
    if problem is not None:
        return problem
    if isinstance(choice, dict):
        return attack_problem(state, record, move_parts(choice)[1], path)
    return None


def attack_problem(
    state: BattleState[Board],
    record: ShipRecord,
    attack: tuple[str, str] | None,
    path: Sequence[movement.Step],
) -> Rejection | None:
    """A ram or grapple: first player's phase only, within the number declared, at an enemy the path meets
    at its altitude (SG-RAM-01/03/06, SG-GRAP-01)."""
    assert attack is not None
    kind, target_name = attack
    board = state.board
    friend = board.by_name.get(target_name)
    if friend is not None and friend.name != record.name and board.ally(record.side, friend):
        end = (path[-1].hex, path[-1].altitude) if path else (record.position, record.altitude)
        if kind != GRAPPLE or end != (friend.position, friend.altitude) or not friend.afloat:
            return Rejection(
                "SG-TOW-02", f"to take {target_name} in hand, grapple: end the move in her hex at her altitude"
            )
        return None
    if board.phase_no != 1:
        return Rejection("SG-RAM-03", "rams and grapples are tried only in the first player's movement phase")
    used = board.ram_attempts.get(record.side, 0)
    if used >= board.rammers.get(record.side, 0):
        return Rejection(
            "SG-RAM-01", f"you declared {board.rammers.get(record.side, 0)} ships to ram or grapple this turn"
        )
    target = board.by_name.get(target_name)
    if target is None or target.side == record.side or not board.in_fight(target):
        return Rejection("SG-RAM-06", f"{target_name} is not an enemy ship in the fight")
    where = [(step.hex, step.altitude) for step in path if step.enters_hex or step.changes_altitude]
    end = (path[-1].hex, path[-1].altitude) if path else (record.position, record.altitude)
    at = (target.position, target.altitude)
    if kind == RAM and at not in [*where, end]:
        return Rejection(
            "SG-RAM-06",
            f"to ram, the path must pass through or end in {possessive(target_name)} hex at its altitude",
        )
    if kind == GRAPPLE and end != at:
        return Rejection("SG-GRAP-01", f"to grapple, end the move in {possessive(target_name)} hex at its altitude")
    if kind == GRAPPLE and not record.crew.deckhands:
        return Rejection("SG-GRAP-02", f"{record.name} has no deckhands to throw grapnels")
    return None


def orders_problem(state: BattleState[Board], side: str, choice: JSON) -> Rejection | None:
    advanced = bool(state.options["advanced"])
    keys = {"crew", "strike", "train", standing.KEY, *ordnance_play.ORDER_KEYS}
    keys |= {"signal"} if state.options["signals"] else set()
    close = {"ram", "parties", "disband", "recall", "cut", "tow", "prizes", *flying.ORDER_KEYS}
    keys |= close if advanced else set()
    if not isinstance(choice, dict) or set(choice) - keys:
        return Rejection(
            "SG-SEQ-02",
            'orders are {"crew": [changes], "strike": [ship names]'
            + (
                ', "ram": ships that will ram or grapple, "parties": [{"ship", "men": {post: n}}], '
                '"disband": [ships], "recall": [ships], "cut": [[ship, other]], "tow": [[tower, ship in tow]], '
                '"prizes": {prize: "crew" | "hold" | "scuttle" | "abandon"}, '
                '"flying_parties": [{"ship", "men": {post: n}}], "recall_flyers": [flying parties]}'
                if advanced
                else "}"
            ),
        )
    if standing.KEY in choice:
        wrong = standing.problem(state, side, choice[standing.KEY])
        if wrong is not None:
            return wrong
    not_lists = {"ram", "prizes", "signal", standing.KEY, *ordnance_play.ORDER_KEYS}
    lists = {key: choice.get(key, []) for key in keys - not_lists}
    if not all(isinstance(value, list) for value in lists.values()):
        return Rejection("SG-SEQ-02", f"{', '.join(sorted(lists))} are lists")
    own = {s.name: s for s in state.board.fighting(side)}
    records = dict(own)
    problem = flying.turnscrews_problem(own, choice)  # SG-HM-08 before the party rules' own clauses
    problem = problem or special_rules.orders_problem(state.board, side, choice)
    if problem is None and advanced:
        problem = close_orders_problem(state, side, choice, records)
    if problem is not None:
        return problem
    crew, strike = read_list(lists["crew"]), read_list(lists["strike"])
    for change in crew:
        if not isinstance(change, dict) or str(change.get("ship")) not in own:
            return Rejection("SG-SEQ-02", f"a crew change names one of your ships in the fight: {sorted(own)}")
        record = records[str(change["ship"])]
        if record.stunned(queries.now(state)):
            return Rejection("SG-CRIT-37", f"{possessive(record.name)} crew is stunned: no crew changes")
        try:
            records[record.name] = crew_change(record, change)
        except (ValueError, KeyError, TypeError) as error:
            return Rejection("SG-CREW-07", f"{record.name}: {error}")
    for name in strike:
        if str(name) not in own:
            return Rejection("SG-CREW-03", f"only your own ships in the fight can strike: {sorted(own)}")
    problem = ordnance_play.orders_problem(state, choice, records)  # mines, drogues, reloads, cut loose
    if problem is not None:
        return problem
    return portable_guns.orders_problem(choice, records, queries.now(state)) or signals.orders_problem(
        choice, records, state.board.by_name
    )


def signal_links(state: BattleState[Board]) -> dict[str, dict[str, JSON]]:
    """For the battle app: each ship in the fight, whether it can signal, whom it can read and who can read
    it, and whether it is cut off from its side (SG-SIG-01..03)."""
    return signals.links(state.board.fighting(), state.board.wind)


def close_orders_problem(
    state: BattleState[Board], side: str, choice: dict[str, JSON], records: dict[str, ShipRecord]
) -> Rejection | None:
    """The Part II orders, checked on copies in the order they are carried out: recall, disband, parties
    (SG-BRD-01..04, SG-CREW-01, SG-BRD-19), cuts (SG-GRAP-05..07), the ram declaration (SG-RAM-01)."""
    ram = choice.get("ram", 0)
    if type(ram) is not int or not 0 <= ram <= len(records):
        return Rejection("SG-RAM-01", f"ram is how many of your {len(records)} ships will try to ram or grapple")
    now = queries.now(state)
    found = _party_orders_problem(state, choice, records, now)
    if found is not None:
        return found
    prize = prizes.orders_problem(
        choice.get("prizes", {}), side=side, prizes=state.board.prizes, ships=state.board.by_name, records=records
    )
    if prize is not None:  # SG-BRD-21..24
        return Rejection(*prize)
    found = _grapple_orders_problem(state, choice, records, now)
    if found is not None:
        return found
    return flying_orders_problem(state, side, choice, records)


def _own(records: dict[str, ShipRecord], now: Moment, name: JSON, clause: str) -> ShipRecord | Rejection:
    """The side's own ship an order names, with a crew fit to change posts (SG-CRIT-37)."""
    if str(name) not in records:
        return Rejection(clause, f"{name} is not one of your ships in the fight: {sorted(records)}")
    record = records[str(name)]
    if record.stunned(now):
        return Rejection("SG-CRIT-37", f"{possessive(record.name)} crew is stunned: no crew changes")
    return record


def _party_orders_problem(
    state: BattleState[Board], choice: dict[str, JSON], records: dict[str, ShipRecord], now: Moment
) -> Rejection | None:
    """Boarders recalled, parties disbanded and parties formed, carried out on the copies in ``records``
    (SG-BRD-01..04, SG-BRD-17, SG-BRD-19)."""
    for name in read_list(choice.get("recall", [])):
        record = _own(records, now, name, "SG-BRD-17")
        if isinstance(record, Rejection):
            return record
        if not record.boarders.men:
            return Rejection("SG-BRD-17", f"{record.name} has no boarders across")
        records[record.name] = close_action.bring_home(record)
    for name in read_list(choice.get("disband", [])):
        record = _own(records, now, name, "SG-BRD-04")
        if isinstance(record, Rejection):
            return record
        if not record.party.men:
            return Rejection("SG-BRD-04", f"{record.name} has no boarding party at home")
        try:
            records[record.name] = close_action.disband_party(record)
        except PartyError as error:
            return Rejection(error.clause, error.reason)
    for order in read_list(choice.get("parties", [])):
        if not isinstance(order, dict) or set(order) != {"ship", "men"} or not isinstance(order["men"], dict):
            return Rejection("SG-BRD-01", 'a boarding party is {"ship": name, "men": {"officers": 1, ...}}')
        record = _own(records, now, order["ship"], "SG-BRD-01")
        if isinstance(record, Rejection):
            return record
        if record.crew.officers_aboard == 0 and queries.boarders_on(state.board, record.name):
            return Rejection("SG-BRD-19", f"{record.name} has no officer left to add men to her defenders")
        try:
            men = {str(k): v for k, v in order["men"].items() if type(v) is int}
            if len(men) != len(order["men"]):
                raise PartyError("SG-BRD-01", "men are whole numbers")
            records[record.name] = close_action.form_party(record, men)
        except PartyError as error:
            return Rejection(error.clause, error.reason)
    return None


def _grapple_orders_problem(
    state: BattleState[Board], choice: dict[str, JSON], records: dict[str, ShipRecord], now: Moment
) -> Rejection | None:
    """Grapples cut (SG-GRAP-05..07) and tows rigged (SG-TOW-01)."""
    for pair in read_list(choice.get("cut", [])):
        if not isinstance(pair, list) or len(pair) != 2:
            return Rejection("SG-GRAP-07", "a cut names [your ship, the ship it is grappled with]")
        record = _own(records, now, pair[0], "SG-GRAP-07")
        if isinstance(record, Rejection):
            return record
        other = str(pair[1])
        if other not in record.grappled_with:
            return Rejection("SG-GRAP-07", f"{record.name} is not grappled with {other}")
        if queries.boarders_on(state.board, record.name):
            return Rejection("SG-GRAP-05", f"enemy boarders are aboard {record.name}: the grapple holds")
        if record.boarding == other and record.boarders.men:
            return Rejection(
                "SG-GRAP-06", f"{possessive(record.name)} boarders are still aboard {other}: recall them first"
            )
    for pair in read_list(choice.get("tow", [])):
        if not isinstance(pair, list) or len(pair) != 2:
            return Rejection("SG-TOW-01", "a tow names [your towing ship, the ship to take in tow]")
        record = _own(records, now, pair[0], "SG-TOW-01")
        if isinstance(record, Rejection):
            return record
        problem = tow_problem(state.board, record, str(pair[1]))
        if problem is not None:
            return problem
        leaving = prizes.tow_problem(str(pair[1]), choice.get("prizes", {}), state.board.prizes)
        if leaving is not None:
            return Rejection(*leaving)
    return None


def tow_problem(board: Board, tower: ShipRecord, name: str) -> Rejection | None:
    """A tow is rigged between grappled ships, a friend or a prize, with an officer or petty officer at the
    towed ship's trim station (SG-TOW-01/03/09/10)."""
    towed = board.by_name.get(name)
    if towed is None or name not in tower.grappled_with:
        return Rejection("SG-TOW-01", f"{tower.name} must be grappled with {name} to rig a tow")
    if not board.ally(tower.side, towed):
        return Rejection("SG-TOW-01", f"{name} is neither a friend nor a prize of yours")
    if name in board.tows or board.towing(tower.name) is not None or tower.name in board.tows:
        return Rejection("SG-TOW-03", "a ship tows one ship, and a ship in tow tows none")
    if not close_action.tow_trim_manned(towed, tower):
        return Rejection(
            "SG-TOW-09", f"nobody of rank is at {possessive(name)} trim station to keep her trimmed in tow"
        )
    return None


def fire_problem(state: BattleState[Board], side: str, choice: JSON) -> Rejection | None:
    if not isinstance(choice, dict) or set(choice) != {"shots"} or not isinstance(choice["shots"], list):
        return Rejection("SG-SEQ-05", 'fire is {"shots": [{"ship": ..., "gun": ..., "target": ...}]}')
    board = state.board
    used: set[tuple[str, str]] = set()
    for shot in choice["shots"]:
        if ordnance_play.special_shot(board, shot):
            continue  # salvoes, launches and grapnel shots: ordnance_play.special_problem below
        keys = set(shot) if isinstance(shot, dict) else set()
        if not isinstance(shot, dict) or not {"ship", "gun", "target"} <= keys <= SHOT_KEYS:
            return Rejection(
                "SG-SEQ-05",
                'each shot is {"ship": ..., "gun": ..., "target": ...}, with "ammunition" (shell, shrapnel, '
                'grape) and "rate" (normal, max) if wanted',
            )
        if not all(isinstance(shot.get(k, ""), str) for k in ("ammunition", "rate")):
            return Rejection("SG-SEQ-05", "ammunition and rate are words")
        if not state.options["advanced"] and shot.get("ammunition", "shell") != "shell":
            return Rejection("SG-SHR-01", "shrapnel and grape are advanced rules, not in play")
        if not state.options["advanced"] and shot.get("rate", "normal") != "normal":
            return Rejection("SG-MG-08", "machineguns flat out are advanced rules, not in play")
        ship, gun, target = str(shot["ship"]), str(shot["gun"]), str(shot["target"])
        if flying.find(board.flyers, ship) or flying.find(board.flyers, target):  # SG-HM-06, SG-SHR-06
            problem = party_shot_problem(state, side, shot, used)
            if problem is not None:
                return problem
            continue
        if ship not in board.by_name or board.ship(ship).side != side or not board.in_fight(board.ship(ship)):
            return Rejection("SG-SEQ-05", f"{ship} is not one of your ships in the fight")
        if target not in board.by_name or board.ship(target).side == side:
            return Rejection("SG-FIRE-04", f"{target} is not an enemy ship")
        if (ship, gun) in used:
            return Rejection("SG-FIRE-04", f"{ship} gun {gun} fires once, at one ship (all its shots together)")
        if queries.friends_aboard(state, side, target):
            return Rejection("SG-ERR-06", f"your boarders are aboard {target}: no ship fires at her")
        used.add((ship, gun))
        if gun not in combat.firing_ids(board.ship(ship)):
            return Rejection("SG-FIRE-02", f"{ship} has no gun {gun}")
        solution = ordnance_play.fire_solution(
            portable_guns.trained_record(board.ship(ship), board.trained),
            gun,
            board.ship(target),
            now=queries.now(state),
            rules=queries.rules(state),
            same_hex=board.relative(ship, target),
            ammunition=str(shot.get("ammunition", "shell")),
            rate=str(shot.get("rate", "normal")),
        )
        if not solution.allowed:
            return Rejection(solution.clause, solution.describe)
        problem = special_rules.shot_problem(board, board.ship(ship), board.ship(target))
        if problem is not None:
            return problem
        blocked = sight_blocked(state, solution)
        if blocked is not None:
            return blocked
    conflict = class_rules.shot_conflict(board.by_name, choice["shots"])  # SG-CLS-08
    if conflict is not None:
        return Rejection(*conflict)
    return ordnance_play.special_problem(state, side, choice["shots"])


def board_problem(state: BattleState[Board], side: str, choice: JSON) -> Rejection | None:
    shape = 'boarding is {"boardings": [{"ship": ..., "target": ..., "men": n}]}'
    if not isinstance(choice, dict) or set(choice) != {"boardings"} or not isinstance(choice["boardings"], list):
        return Rejection("SG-BRD-05", shape)
    options = queries.boarding_options(state, side)
    seen: set[str] = set()
    for order in choice["boardings"]:
        if not isinstance(order, dict) or set(order) != {"ship", "target", "men"} or type(order["men"]) is not int:
            return Rejection("SG-BRD-05", shape)
        name, target, men = str(order["ship"]), str(order["target"]), order["men"]
        if name in seen:
            return Rejection("SG-BRD-05", f"{name} sends one boarding party a phase")
        seen.add(name)
        if name not in options:
            return Rejection("SG-BRD-05", f"{name} has no party ready to board a ship grappled with it")
        if target not in options[name]:
            return Rejection("SG-BRD-05", f"{name} may board only {sorted(options[name])}")
        if not 1 <= men <= options[name][target]:
            return Rejection("SG-BRD-07", f"1 to {options[name][target]} men may cross from {name} this phase")
    return None


def fly_problem(state: BattleState[Board], name: str, choice: JSON) -> Rejection | None:
    party = flying.find(state.board.flyers, name)
    if party is None:
        return Rejection("SG-HM-03", f"{name} is no longer in the air")
    ships = {s.name: s for s in state.board.fighting()}
    return flying.flight_problem(party, choice, terrain=state.board.terrain, turn=state.turn, ships=ships)


def flying_orders_problem(
    state: BattleState[Board], side: str, choice: dict[str, JSON], records: dict[str, ShipRecord]
) -> Rejection | None:
    board = state.board
    return flying.orders_problem(
        records,
        board.flyers,
        side,
        choice,
        ships=board.by_name,
        terrain=board.terrain,
        now=queries.now(state),
        errata=bool(state.options["errata"]),
        boarded=[name for name in records if queries.boarders_on(board, name)],
    )


def party_shot_problem(
    state: BattleState[Board], side: str, shot: dict[str, JSON], used: set[tuple[str, str]]
) -> Rejection | None:
    board = state.board
    return flying.shot_problem(
        side,
        shot,
        ships=board.by_name,
        fighting=[s.name for s in board.fighting()],
        flyers=board.flyers,
        used=used,
        shielded=shielded(state, side),
        now=queries.now(state),
        rules=queries.rules(state),
    )


def sight_blocked(state: BattleState[Board], solution: FireSolution) -> Rejection | None:
    """The optional line of sight: ships between firer and target may block the shot (SG-LOS-01..08)."""
    if not state.options["line_of_sight"]:
        return None
    board = state.board
    gone = (ESCAPED, CRASHED, CRASH_LANDED)
    others = [
        s
        for s in board.ships
        if s.afloat and s.position is not None and s.emplacement is None and board.out.get(s.name) not in gone
    ]
    firer, target = (sightlines.obstacle(board.ship(n)) for n in (solution.firer, solution.target))
    blocked = sightlines.blocked_by(firer, target, map(sightlines.obstacle, others), lob_gun=solution.lob_gun)
    return None if blocked is None else Rejection(blocked.clause, blocked.reason)


def solutions(state: BattleState[Board], side: str) -> list[FireSolution]:
    """Every gun of the side that may fire now, at every target it may fire at."""
    return list(_solutions(state, side))


def can_fire(state: BattleState[Board], side: str) -> bool:
    """Has the side any shot at all (SG-SEQ-05)? Stops at the first: asking the fire decision only needs one."""
    return next(_solutions(state, side), None) is not None


def _solutions(state: BattleState[Board], side: str) -> Iterator[FireSolution]:
    board = state.board
    now = queries.now(state)
    rules = queries.rules(state)
    targets = [t for t in board.fighting() if t.side != side and not queries.friends_aboard(state, side, t.name)]
    for ship in board.fighting(side):
        ship = portable_guns.trained_record(ship, board.trained)  # SG-MG-06: on its secret aspect
        distances = combat.distances(ship, targets)  # once a ship, for all her guns
        for gun in combat.firing_ids(ship):
            if combat.gun_idle(ship, gun, now=now, rules=rules):  # refused at every target: none is asked
                continue
            for target, distance in zip(targets, distances, strict=True):
                if distance is not None and combat.beyond_reach(ship, gun, distance, rules=rules):
                    continue  # refused on range (out_of_reach): not worked out
                solution = combat.fire_solution(
                    ship, gun, target, now=now, rules=rules, same_hex=board.relative(ship.name, target.name)
                )
                if (
                    solution.allowed
                    and special_rules.shot_problem(board, ship, target) is None
                    and sight_blocked(state, solution) is None
                ):
                    yield solution
    yield from (s for s in ordnance_play.ground_solutions(state, side) if sight_blocked(state, s) is None)
    yield from party_solutions(state, side)


def party_solutions(state: BattleState[Board], side: str) -> list[FireSolution]:
    board = state.board
    if not board.flyers or not state.options["advanced"]:  # basic rules: parties sit out (flying.json)
        return []
    return flying.fire_solutions(
        side,
        board.fighting(),
        board.flyers,
        shielded=shielded(state, side),
        now=queries.now(state),
        rules=queries.rules(state),
    )


def shielded(state: BattleState[Board], side: str) -> list[str]:
    """Enemy ships the side's boarders are aboard: with the errata nobody fires at them (SG-ERR-06)."""
    return [s.name for s in state.board.fighting() if s.side != side and queries.friends_aboard(state, side, s.name)]


def party_shot(state: BattleState[Board], shot: Mapping[str, JSON]) -> FireSolution:
    firer, target = flying.shot_ends(state.board.by_name, state.board.flyers, shot)
    assert firer is not None
    assert target is not None
    return flying.shot_solution(firer, target, shot, now=queries.now(state), rules=queries.rules(state))


def plot_problem(state: BattleState[Board], side: str, choice: JSON) -> Rejection | None:
    """A side's plots: a plain plan for each of its plotting ships, at most its share, legal as a move."""
    shape = 'plots are {"plots": {ship: [steps]}}, a plain list of steps for each ship'
    if not isinstance(choice, dict) or set(choice) != {"plots"} or not isinstance(choice["plots"], dict):
        return Rejection("SG-ERR-24", shape)
    ships = {s.name: s for s in queries.plotters(state, side)}
    for name, steps in choice["plots"].items():
        if name not in ships:
            return Rejection("SG-ERR-24", f"{name} does not plot: your plotting ships are {sorted(ships)}")
        if not isinstance(steps, list) or not all(isinstance(t, str) for t in steps):
            return Rejection("SG-ERR-24", shape)
        most = queries.share(queries.allowance(state, ships[name], plotted=False).speed)
        if movement.plan_cost([str(t) for t in steps]) > most:
            return Rejection("SG-ERR-24", f"{name} plots half her movement at most: {most} MP")
        wrong = move_problem(state, ships[name], steps)
        if wrong is not None:
            return Rejection(wrong.clause, f"{name}: {wrong.reason}")
    return None


def crew_change(record: ShipRecord, change: Mapping[str, JSON]) -> ShipRecord:
    """One crew change: a relief at an empty station, or men to a gun (SG-SEQ-02, SG-CREW-04/07/16)."""
    if "relief" in change:
        if set(change) != {"ship", "relief", "rank"}:
            raise ValueError('a relief is {"ship", "relief": "helm"|"trim", "rank"}')
        return assign_relief(record, str(change["relief"]), str(change["rank"]))
    if "gun" in change:
        if set(change) - {"ship", "gun", "men", "from"} or type(change.get("men")) is not int:
            raise ValueError('men to a gun is {"ship", "gun", "men": n, "from": "deckhands"|"gun:ID"}')
        return assign_gun_crew(
            record, str(change["gun"]), read_int(change["men"]), source=str(change.get("from", "deckhands"))
        )
    if "signalman" in change:  # SG-SIG-01: another crewman takes the dead signalman's place
        if set(change) != {"ship", "signalman"}:
            raise ValueError('a new signalman is {"ship", "signalman": the post he comes from}')
        return signals.replace_signalman(record, str(change["signalman"]))
    raise ValueError('a crew change is a "relief", men to a "gun" or a new "signalman"')
