"""The Sky Galleons captain's orders (tactics.py): reliefs and strikes in the Initiative Phase, rams, grapples,
boarders and prizes, sealed orders, collision avoidance, and the exotic ordnance's orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.jsonread import read_list
from battles.rules.sky_galleons import (
    candidates,
    close_action,
    combat,
    flying,
    movement,
    ordnance,
    ordnance_play,
    portable_guns,
    prizes,
    queries,
    scenario_ai,
    signals,
    special_rules,
    validate,
)
from battles.rules.sky_galleons.ai_flight import flying_orders
from battles.rules.sky_galleons.ai_reading import (
    CAUGHT,
    DISBAND_AT,
    FIRE_RESERVE,
    PRESS_ON,
    RELIEF_RANKS,
    State,
    beaten,
    boarders_worth,
    can_lead_boarders,
    defenders_worth,
    edge_distance,
    enemies,
    fires_at_ships,
    hunters,
    is_merchant,
    over_the_land,
    prize_for,
    read_ship,
    running,
    side_target,
)
from battles.rules.sky_galleons.board import Board, party_of
from battles.rules.sky_galleons.kinds import (
    GRAPPLE,
    RAM,
)
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import ShipRecord, altitude_level, tint

# --- ORDERS ------------------------------------------------------------------------------------------------


def caught(board: Board, record: ShipRecord) -> int:
    """Enemy warships within CAUGHT hexes."""
    assert record.position is not None
    return sum(
        1 for h in hunters(board, record.side) if h.position and hexgrid.distance(h.position, record.position) <= CAUGHT
    )


def strikes(board: Board, record: ShipRecord) -> bool:
    """Strike the colours (SG-CREW-03): a beaten ship that cannot get away; a merchant hit and caught.

    "Cannot get away": stopped, or two enemy warships on it, or one on it and the edge more than two
    turns off. A merchant within a turn of the edge still runs for it.
    """
    if record.position is None:
        return False
    speed = queries.speed(record, board)
    edge = edge_distance(board.terrain, record.position)
    near = caught(board, record)
    if is_merchant(board, record):
        return record.hull_hits > 0 and near > 0 and edge > speed
    if not beaten(board, record) or scenario_ai.never_strikes(board, record):
        return False
    if scenario_ai.carrying_off(board, record) or scenario_ai.at_the_prize(board, record):
        return False
    return speed == 0 or near >= 2 or (near == 1 and edge > 2 * speed)


def crew_changes(record: ShipRecord, kept: int = 0) -> list[list[JSON]]:
    """The changes worth making on one ship, each as the alternatives to try in turn (the first legal one is
    taken): a relief for each empty station, then deckhands to each short-handed gun, ``kept`` of them held
    back for other work."""
    wanted: list[list[JSON]] = []
    for station, manned in (("helm", record.helm_manned), ("trim", record.trim_manned)):
        if not manned:  # SG-CREW-08/09: nobody at the helm, no course change; nobody trimming, no climb
            wanted.append([{"ship": record.name, "relief": station, "rank": rank} for rank in RELIEF_RANKS])
    spare = record.crew.deckhands - (FIRE_RESERVE if record.fire > 0 else 0) - kept
    for gun in record.guns:
        short = gun.crew - gun.manned
        if spare <= 0 or short <= 0 or not fires_at_ships(gun):
            continue
        men = min(short, spare)
        wanted.append([{"ship": record.name, "gun": gun.id, "men": men, "from": "deckhands"}])
        spare -= men
    return wanted


def initiative_orders(state: State, request: DecisionRequest) -> JSON:
    """Crew changes and colours struck, each change checked against those before it (SG-SEQ-02)."""
    board = state.board
    crew: list[JSON] = []
    strike: list[JSON] = []

    def legal(changes: list[JSON], struck: list[JSON]) -> bool:
        return validate.validate(state, request, {**close, "crew": changes, "strike": struck}) is None

    close = close_orders(state, request) if state.options.get("advanced") else {}
    for record in board.fighting(request.side):
        if strikes(board, record) and legal(crew, [*strike, record.name]):
            strike.append(record.name)
            continue
        for alternatives in crew_changes(record, scenario_ai.grapnel_hands(board, record)):
            for change in alternatives:
                if legal([*crew, change], strike):
                    crew.append(change)
                    break
    orders = {**close, "crew": crew, "strike": strike}
    orders = {**orders, **ordnance_orders(state, request, orders)}  # mines, drogues, bomb reloads
    return with_secret_orders(state, request, orders)


# --- close action: rams, grapples, boarders and prizes (what they are worth: ai_reading) --------------------


def boarding_pays(board: Board, record: ShipRecord, enemy: ShipRecord) -> bool:
    """Boarding this enemy is worth it: she is a merchant or beaten, or our boarders outweigh her defenders.
    A merchant never boards."""
    if is_merchant(board, record) or not can_lead_boarders(record):
        return False
    soft = is_merchant(board, enemy) or beaten(board, enemy)
    return soft or boarders_worth(record) >= PRESS_ON * defenders_worth(enemy)


def close_orders(state: State, request: DecisionRequest) -> dict[str, JSON]:
    """The Part II orders: declare the ships going for a prize (SG-RAM-01), form parties where boarders
    will be wanted, send them back to their posts when the enemy is far, cut grapples we do not want."""
    board = state.board
    rammers = 0
    parties: list[JSON] = []
    disband: list[JSON] = []
    cut: list[JSON] = []
    flights = flying_orders(state, request.side)  # flyers first: the ship need not close (SG-HM-02)
    flying_from = {str(read_ship(order)) for order in read_list(flights.get(flying.FORM_ORDER, []))}
    for record in board.fighting(request.side):
        prize = None if record.name in flying_from else prize_for(state, record)
        grappled = [board.ship(n) for n in record.grappled_with]
        enemy_alongside = [g for g in grappled if g.side != record.side and board.in_fight(g)]
        if prize is not None:
            rammers += 1
        winnable = [e for e in enemy_alongside if boarding_pays(board, record, e)]
        rams = record.ram and not scenario_ai.boards_first(board, record.side)
        wants_party = prize is not None and can_lead_boarders(record) and not rams
        wants_party = wants_party or (bool(winnable) and not is_merchant(board, record))
        if wants_party and not record.party.men and not record.boarders.men and can_lead_boarders(record):
            parties.append({"ship": record.name, "men": scenario_ai.party_men(board, record, party_of(record))})
        far = all(
            e.position is None or record.position is None or hexgrid.distance(e.position, record.position) > DISBAND_AT
            for e in enemies(board, record.side)
        )
        idle = far or scenario_ai.stands_down(board, record, None if prize is None else prize.name)
        if record.party.men and not record.boarders.men and not grappled and idle:
            disband.append(record.name)
        boarded = queries.boarders_on(board, record.name)
        quiet = special_rules.noncombatant(board, record)  # she casts off no grapple (SG-SCN-17)
        for other in enemy_alongside:
            if other not in winnable and not boarded and record.boarding != other.name and not quiet:
                cut.append([record.name, other.name])
    plans = prize_orders(state, request.side)
    tows: list[JSON] = []
    for record in board.fighting(request.side):  # take a prize or a crippled friend in tow (SG-TOW-01, BRD-21)
        for name in record.grappled_with:
            other = board.ship(name)
            towable = scenario_ai.may_tow(board, record.side, name) and name not in plans
            if board.ally(record.side, other) and queries.ready_tow(state, record.name) is None and towable:
                tows.append([record.name, name])
                break
    orders: dict[str, JSON] = {"ram": rammers} if rammers else {}
    seizing = scenario_ai.seize_orders(board, request.side)  # SG-SCN-19: home with the prize's passenger
    recall: list[JSON] = seizing.get("recall", [])
    cut += [pair for pair in seizing.get("cut", []) if pair not in cut]
    for key, value in (("recall", recall), ("parties", parties), ("disband", disband), ("cut", cut)):
        if value:
            orders[key] = list[JSON](value)
    if plans:
        orders["prizes"] = dict[str, JSON](plans)
    if tows:
        orders["tow"] = list[JSON](tows)
    orders.update(flights)
    checked: dict[str, JSON] = {}
    for key, order in orders.items():  # keep each order only if it holds with those before it
        if validate.validate(state, request, {"crew": [], "strike": [], **checked, key: order}) is None:
            checked[key] = order
    return checked


def prize_orders(state: State, side: str) -> dict[str, str]:
    """What the side does with each prize it holds (SG-BRD-21): crew her when its men may man her and she would
    make way with them; else pirates and privateers (the side's ai "prizes": "keep") hold her and take her in
    tow when a ship of theirs is alongside, and warships scuttle what they cannot keep."""
    board = state.board
    keep = board.ai.get(side, {}).get("prizes") == "keep"
    orders: dict[str, str] = {}
    for name, prize in sorted(board.prizes.items()):
        record = board.ship(name)
        if prize.captor != side or prize.order != prizes.HOLD or not record.afloat:
            continue
        boarders = prizes.aboard(board.ships, name, side)
        legal = {
            word
            for word in (prizes.CREW, prizes.SCUTTLE)
            if prizes.order_problem(name, word, side=side, prize=prize, record=record, boarders=boarders) is None
        }
        if prizes.CREW in legal and prizes.would_move(record, boarders, prize):
            orders[name] = prizes.CREW
        elif not keep and prizes.SCUTTLE in legal and scenario_ai.may_scuttle(board, side, name):
            orders[name] = prizes.SCUTTLE
    return orders


def attack_move(
    state: State, record: ShipRecord, traced: Sequence[tuple[list[str], list[movement.Step]]]
) -> JSON | None:
    """A ram or grapple on this ship's prize, if it may try one now: a grapple when it would board, a ram
    when it has one; a grapple coming alongside with the least chance of colliding with her (across her bow
    or stern, no turn in her hex: SG-COL-02/03), then the shortest such move."""
    prize = prize_for(state, record)
    if prize is None:
        return None
    kind = GRAPPLE if (record.party.men or not record.ram) and record.crew.deckhands else RAM
    if kind == RAM and not record.ram and prize.hull_size >= record.hull_size:
        return None  # a ram without one is a collision: it hurts the smaller rammer as much
    if kind == RAM and scenario_ai.boards_first(state.board, record.side):
        return None  # boarders first: the party forms in the next Initiative Phase
    if kind == GRAPPLE and not close_action.grapple_attempts(record, state.board.avoiding.get(prize.name, 0)):
        return None  # the prize is jinking: no hand could get a line across (SG-GRAP-03)
    aimed = candidates.attacks(state, record, traced, on=prize.name)
    moves = [m for m in aimed if isinstance(m, dict) and m.get(kind) == prize.name]
    paths = {str(plan): steps for plan, steps in traced}
    if scenario_ai.careful(state.board, record.side):  # no grapple or ram that flies her into the land
        moves = [m for m in moves if not _wrecking(paths.get(str(m["steps"]), []), state.board.terrain)]
    if not moves:
        return None

    def key(move: dict[str, JSON]) -> tuple[float, int, str]:
        plan = move["steps"] if isinstance(move["steps"], list) else []
        risk = alongside_risk(paths.get(str(plan), []), [str(t) for t in plan], prize) if kind == GRAPPLE else 0.0
        return risk, len(plan), str(plan)

    return min(moves, key=key)


def _wrecking(steps: Sequence[movement.Step], terrain: Terrain) -> bool:
    """The plan ends in the land (crashed, crash-landed or landed), or one level over it, where a grappled
    pair's forced drop or a lost trim puts her into it (SG-GRAP-09/10, SG-DMG-15)."""
    if not steps:
        return False
    last = steps[-1]
    return last.ends in (movement.CRASHED, movement.CRASH_LANDED, movement.LANDED) or over_the_land(
        terrain, last.hex, last.altitude
    )


def alongside_risk(steps: Sequence[movement.Step], plan: list[str], target: ShipRecord) -> float:
    """The chance of colliding as the move enters the target's hex at her altitude (SG-COL-01..03)."""
    for step in steps:
        if step.enters_hex and (step.hex, step.altitude) == (target.position, target.altitude):
            mods = movement.collision_modifiers(
                entered_from=hexgrid.rotate_facing(step.facing, 3),
                other_facing=target.facing,
                turned_in_hex=movement.turns_in_hex(plan, step.number + 1),
            )
            on = tint("collision", "collides_on_at_most") - sum(mods.values())
            return min(max(on / 6, 0.0), 1.0)
    return 0.0


def avoids(state: State, request: DecisionRequest) -> JSON:
    """Avoid a ram or grapple (SG-RAM-05) when it would hurt: a merchant always, a ram-fitted attacker, or
    boarders who outweigh our defenders."""
    board = state.board
    mine, theirs = board.ship(request.ships[0]), board.ship(request.ships[1])
    if is_merchant(board, mine) or theirs.ram:
        return True
    return boarders_worth(theirs) >= defenders_worth(mine)


def boarding_orders(state: State, side: str) -> JSON:
    """Send the boarders across when they outweigh the defenders (or the prize is a merchant or beaten),
    as many as may cross (SG-BRD-05/07)."""
    board = state.board
    orders: list[JSON] = []
    for name, targets in queries.boarding_options(state, side).items():
        record = board.ship(name)
        for target_name, men in targets.items():
            target = board.ship(target_name)
            if boarding_pays(board, record, target):
                orders.append({"ship": name, "target": target_name, "men": men})
                break
    return {"boardings": orders}


# --- sealed orders: portable machineguns and signals ----------------------------------------------------


def with_secret_orders(state: State, request: DecisionRequest, orders: dict[str, JSON]) -> JSON:
    """``orders`` with the Initiative Phase's sealed orders added, each kept only if it holds with the rest:
    portable machineguns trained on the aspect the nearest enemy is in (SG-MG-04); with the signal rule, a
    dead signalman replaced from the deckhands (SG-SIG-01) and one signal naming the side's target (SG-SIG-04)."""
    board = state.board
    extra: dict[str, JSON] = {}
    training = [order for record in board.fighting(request.side) for order in training_orders(board, record)]
    if training:
        extra["train"] = list[JSON](training)
    if state.options.get("signals"):
        crew: list[JSON] = [
            {"ship": r.name, "signalman": "deckhands"}
            for r in board.fighting(request.side)
            if not r.crew.signalman and r.crew.deckhands > 1
        ]
        if crew:
            extra["crew"] = [*cast(list[JSON], orders.get("crew", [])), *crew]
        order = signal_order(board, request.side)
        if order is not None:
            extra["signal"] = order
    for key, value in extra.items():
        if validate.validate(state, request, {**orders, key: value}) is None:
            orders = {**orders, key: value}
    return orders


def training_orders(board: Board, record: ShipRecord) -> list[JSON]:
    """Each portable machinegun turned to the aspect its nearest enemy is in, unless it bears on him already."""
    theirs = [e for e in enemies(board, record.side) if e.position is not None and e.position != record.position]
    if record.position is None or not theirs:
        return []
    position = record.position
    nearest = min(theirs, key=lambda e: (hexgrid.distance(position, e.position or position), e.name))
    assert nearest.position is not None
    seen = hexgrid.aspects(position, record.facing, nearest.position)
    laid = portable_guns.trained_record(record, board.trained)
    orders: list[JSON] = []
    for gun in laid.guns:
        if not combat.is_portable(gun) or gun.destroyed or gun.manned == 0 or {a.value for a in seen} & set(gun.arcs):
            continue
        aspect = next(a.value for a in hexgrid.Aspect if a in seen)
        orders.append({"ship": record.name, "gun": gun.id, "aspect": aspect})
    return orders


def signal_order(board: Board, side: str) -> JSON:
    """The flagship (the first ship able to signal) tells every ship which enemy to engage, when the side has
    more than one ship."""
    ships = board.fighting(side)
    target = side_target(board, side)
    sender = next((s for s in ships if signals.can_signal(s)), None)
    if len(ships) < 2 or sender is None or target is None:
        return None
    words = f"Engage the {target}"
    if len(words.split()) > signals.max_words():
        words = "Close and engage the enemy"
    return {"ship": sender.name, "to": signals.ALL, "words": words}


# --- avoiding collisions (the errata) -------------------------------------------------------------------


def avoids_collision(state: State, request: DecisionRequest) -> JSON:
    """Avoid a collision (SG-ERR-04) unless the other ship is the smaller enemy: it takes the worse of it (it
    rolls against our hull size, and the smaller ship may lose trim, SG-COL-06/08). A friend, a ship as big or
    bigger, and any ship when we are a merchant are avoided."""
    board = state.board
    mine, theirs = board.ship(request.ships[0]), board.ship(request.ships[1])
    if is_merchant(board, mine) or board.ally(mine.side, theirs):
        return True
    return theirs.hull_size >= mine.hull_size


# --- exotic ordnance orders (mines, drogues, bomb racks; moved here from ordnance_play: it is the AI's) -----

ALERT = 3  # hexes: an enemy this close and the mines go up, the drogues down

STAND_DOWN = 6  # hexes: no enemy this close and they come in again


def ordnance_orders(state: State, request: DecisionRequest, base: Mapping[str, JSON]) -> dict[str, JSON]:
    """Mines up and drogues down with an enemy within ALERT hexes, in again with none within STAND_DOWN;
    empty racks reloaded; mines cut loose by a ship that runs (they hold it to 3 hexes) or with an enemy
    right above it. Each order kept only if it holds with those before it."""
    board = state.board
    orders: dict[str, list[JSON]] = {key: [] for key in ordnance_play.ORDER_KEYS}
    for ship in board.fighting(request.side):
        foes = [e for e in enemies(board, ship.side) if not is_merchant(board, e)]
        nearest = min((ordnance_play.near(ship, e) for e in foes), default=99)
        runs = running(board, ship)
        mines_up = bool(ship.items_of(*ordnance.MINES, states=("raised",)))
        above = any(
            e.position == ship.position and altitude_level(e.altitude) > altitude_level(ship.altitude) for e in foes
        )
        if mines_up and (runs or above):
            orders["cut_mines"].append(ship.name)
        elif ship.items_of(*ordnance.MINES, states=("lowered",)) and not runs and nearest <= ALERT:
            orders["mines"].append({"ship": ship.name, "raised": True})
        if mines_up and not runs and not above and nearest > STAND_DOWN:
            orders["mines"].append({"ship": ship.name, "raised": False})
        drogues_down = bool(ship.items_of(ordnance.DROGUE, states=("lowered",)))
        if ship.items_of(ordnance.DROGUE, states=("raised", "lowered")):
            if not drogues_down and nearest <= ALERT and not runs:
                orders["drogues"].append({"ship": ship.name, "lowered": True})
            elif drogues_down and (runs or nearest > STAND_DOWN):
                orders["drogues"].append({"ship": ship.name, "lowered": False})
        orders["reload"] += [
            {"ship": ship.name, "rack": r.id} for r in ship.items_of(ordnance.BOMB_RACK, states=("empty",))
        ]
    checked: dict[str, JSON] = {}
    for key, wanted in orders.items():
        kept: list[JSON] = []
        for order in wanted:
            trial = {**base, **checked, key: [*kept, order]}
            if validate.validate(state, request, trial) is None:
                kept.append(order)
        if kept:
            checked[key] = kept
    return checked
