"""The Sky Galleons captain's flying parties (flying.py, tactics.py): High Martians and flyers, where they go
and what they shoot, a warband's leap onto a ship.
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import (
    candidates,
    flying,
    movement,
    scenario_ai,
)
from battles.rules.sky_galleons.ai_reading import (
    BOARD_EDGE,
    LEADER_WORTH,
    PRESS_ON,
    SMALL_ARMS_MAN,
    State,
    beaten,
    defenders_worth,
    enemies,
    hit_chance,
    is_merchant,
    level,
    prize_for,
    quality_factor,
    running,
)
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import FireSolution
from galleons.record import ShipRecord

# --- High Martians and flying parties (flying.py) ----------------------------------------------------------


PARTY_MAN = 0.6  # a man shot out of a flying party: a boarder who will not come over the side

FLIGHT_REACH = 2  # hexes a flying party covers in a turn (SG-HM-03)


def party_shot_worth(board: Board, solution: FireSolution) -> float:
    """A shot by or at a flying party: the men it should kill, after their saving throws (SG-SAF-13, SG-SHR-06)."""
    hits = solution.shots * hit_chance(solution.needed, sum(solution.modifiers.values()))
    saved = min(max(2 - sum(solution.save_modifiers.values()), 0), 6) / 6
    men = hits * (1 if solution.small_arms else solution.damage_value) * (1 - saved)
    target = flying.find(board.flyers, solution.target)
    if target is None:
        return men * SMALL_ARMS_MAN
    return min(men, target.men.men) * PARTY_MAN  # no more than the men it has


def flyers_worth(party: flying.FlyingParty) -> float:
    """What a flying party weighs in boarding combat (as boarders_worth)."""
    men = party.men
    lead = men.officers + men.marines
    return (LEADER_WORTH * lead + men.petty_officers + men.seamen) * (1.5 if party.boarding_quality == "crack" else 1.0)


def reachable(at: Hex, altitude: str, there: Hex, their_altitude: str) -> bool:
    """Can a flying party at (at, altitude) end a move at (there, their_altitude) this turn (SG-HM-03/04):
    two hexes level, one hex and a level down, or a level up in place."""
    distance = hexgrid.distance(at, there)
    gap = level(their_altitude) - level(altitude)
    return (gap == 0 and distance <= FLIGHT_REACH) or (gap == -1 and distance <= 1) or (gap == 1 and distance == 0)


def flight_prey(board: Board, side: str, at: Hex, altitude: str, worth: float) -> ShipRecord | None:
    """The enemy ship a flying party of that worth should go for from there: one it can reach this turn
    whose defenders it outweighs (with the side's boarders already aboard her), the weakest first."""
    found = []
    for enemy in enemies(board, side):
        if enemy.position is None or board.captured.get(enemy.name):
            continue
        if not reachable(at, altitude, enemy.position, enemy.altitude):
            continue
        aboard = sum(flyers_worth(p) for p in flying.aboard(board.flyers, enemy.name) if p.side == side)
        soft = is_merchant(board, enemy) or beaten(board, enemy)
        edge = PRESS_ON if soft else BOARD_EDGE
        if worth + aboard >= edge * defenders_worth(enemy):
            found.append(((defenders_worth(enemy), hexgrid.distance(at, enemy.position), enemy.name), enemy))
    return min(found, key=lambda item: item[0])[1] if found else None


def flying_orders(state: State, side: str) -> dict[str, JSON]:
    """Flying parties sent at an enemy within a flight whose defenders they outweigh (not from a merchant or
    a running ship; the ship then goes for no prize itself); parties aboard an enemy that now outweighs them
    come back into the air (recalled)."""
    board = state.board
    formed: list[JSON] = []
    for record in board.fighting(side):
        if not flying.can_form(record) or running(board, record) or record.party.men:
            continue
        men = flying.party_of(record)
        if not men or record.position is None or record.boarders.men:
            continue
        lead = sum(n for post, n in men.items() if post in ("officers", "captain", "marine_officers", "marines"))
        worth = (LEADER_WORTH * lead + sum(men.values()) - lead) * quality_factor(record)
        if flight_prey(board, side, record.position, record.altitude, worth) is not None:
            formed.append({"ship": record.name, "men": dict[str, JSON](men)})
    recalled: list[JSON] = []
    for party in board.flyers:
        if party.side != side or party.aboard is None or board.captured.get(party.aboard):
            continue
        target = board.ship(party.aboard)
        if not board.in_fight(target):
            continue
        ours = sum(flyers_worth(p) for p in flying.aboard(board.flyers, target.name) if p.side == side)
        if ours < PRESS_ON * defenders_worth(target) or not flying.can_board(party):
            recalled.append(party.name)
    found: dict[str, JSON] = {}
    if formed:
        found[flying.FORM_ORDER] = formed
    if recalled:
        found[flying.RECALL_ORDER] = recalled
    return found


def flight(state: State, request: DecisionRequest) -> JSON:
    """A flying party's move: board an enemy it can overwhelm if one is in reach, else close on the nearest
    such enemy; outnumbered or leaderless, home to its ship (or the nearest friend) and aboard her."""
    board = state.board
    party = flying.find(board.flyers, request.ships[0])
    if party is None:
        return request.default
    options = candidates.fly_candidates(state, party.name)
    held = scenario_ai.garrison(board, party.side)
    if held:
        return garrison_flight(board, party, options, held, state.turn)
    worth = flyers_worth(party)
    prey = flight_prey(board, party.side, party.position, party.altitude, worth) if flying.can_board(party) else None
    goal = prey or flight_home(board, party)
    if goal is None or goal.position is None:
        return request.default
    for option in options:
        if isinstance(option, dict) and option.get("board") == goal.name:
            return option
    goal_at = goal.position

    def closeness(option: JSON) -> tuple[int, int]:
        steps, _ = flying.flight_parts(option)
        path = flying.trace(party, steps, terrain=board.terrain, turn=state.turn)
        end, altitude = flying.end_of(party, path)
        return hexgrid.distance(end, goal_at), abs(level(altitude) - level(goal.altitude))

    plain = [o for o in options if isinstance(o, list)]
    return min(plain, key=closeness) if plain else request.default


def garrison_flight(
    board: Board, party: flying.FlyingParty, options: Sequence[JSON], held: frozenset[Hex], turn: int
) -> JSON:
    """A flying party holding a zone (scenario_ai ``garrison``): down on an enemy landing party waiting to be
    picked up if it can get there (SG-SCN-40), else aboard an enemy within GARRISON_REACH of the zone whose
    defenders it outweighs (SG-HM-05), else back onto the zone, landed (the nearest of its hexes)."""
    terrain = board.terrain

    def reach(option: JSON) -> tuple[Hex, str]:
        steps, _ = flying.flight_parts(option)
        return flying.end_of(party, flying.trace(party, steps, terrain=terrain, turn=turn))

    plain = [o for o in options if isinstance(o, list)]
    if not plain:
        return []
    waiting = scenario_ai.party_to_overwhelm(board, party.side)
    if waiting is not None and party.men.men:
        ground = terrain.ground(waiting)
        down = [o for o in plain if reach(o) == (waiting, ground)]
        if down:
            return min(down, key=lambda o: (len(o), str(o)))
        if hexgrid.distance(party.position, waiting) <= FLIGHT_REACH + 1:  # a turn away: close in, level above
            return min(plain, key=lambda o: (hexgrid.distance(reach(o)[0], waiting), level(reach(o)[1]), str(o)))
    if flying.can_board(party):
        prey = flight_prey(board, party.side, party.position, party.altitude, flyers_worth(party))
        if prey is not None and prey.position is not None and near_zone(prey.position, held):
            for option in options:
                if isinstance(option, dict) and option.get("board") == prey.name:
                    return option

    def homeward(option: JSON) -> tuple[int, int, int, str]:
        end, altitude = reach(option)
        off = min(hexgrid.distance(end, h) for h in held)
        steps, _ = flying.flight_parts(option)
        return off, abs(level(altitude) - level(terrain.ground(end))), len(steps), str(option)  # at its post, stays

    return min(plain, key=homeward)


def near_zone(hex_: Hex, zone: frozenset[Hex]) -> bool:
    return min(hexgrid.distance(hex_, h) for h in zone) <= scenario_ai.GARRISON_REACH


def flight_home(board: Board, party: flying.FlyingParty) -> ShipRecord | None:
    """Its own ship if she is still in the fight, else the nearest ship of its side."""
    own = board.fighting(party.side)
    home = next((s for s in own if s.name == party.home), None)
    if home is not None:
        return home
    placed = [s for s in own if s.position is not None]
    if not placed:
        return None
    return min(placed, key=lambda s: (hexgrid.distance(party.position, s.position or party.position), s.name))


def leap_move(state: State, record: ShipRecord, traced: Sequence[tuple[list[str], list[movement.Step]]]) -> JSON | None:
    """A High Martian ship with its party formed ends its move in its prize's hex at her altitude, to board
    her without a grapple (SG-HM-01): the shortest such plan."""
    if not record.high_martian or not record.party.men:
        return None
    prize = prize_for(state, record)
    if prize is None:
        return None
    at = (prize.position, prize.altitude)
    plans = [plan for plan, path in traced if path and (path[-1].hex, path[-1].altitude) == at and not path[-1].ends]
    if not plans:
        return None
    best: list[str] = min(plans, key=lambda plan: (len(plan), str(plan)))
    return list[JSON](best)
