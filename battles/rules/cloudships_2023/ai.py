"""The Cloudships of Mars AI captain, as the ruleset offers it (the protocol's ai_policy and leaving_policy).

The Captain answers every decision of the ruleset as a plain player would (tactics.py reads the board for him):

* the move: every end the move can reach is scored (tactics.score_course): the worth of her guns that will bear
  from there, each at the enemy where its shot is worth most; less half the worth of the enemy guns bearing on
  her there; less the hexes beyond her best short range and the bands between her and the nearest enemy; less
  the room she lacks ahead for a full move straight on (the map's edge, and a Bridge Hit that would fly her off
  it); less the collisions on the way; plus a ram's worth when her odds are good. The best, and among those
  scored alike one picked by the captain's own die;
* fire orders: every gun that can fire does, each at the enemy where its expected damage is worth most (an
  anti-personnel gun at a crew, rockets where they reach), a ship already fired on first among equals, so that no
  idle shot invites more return fire;
* return fire: every gun that can fire back does;
* grapple or board (CM-BRD-01/17/18): grapple the enemy in her hex she is likeliest to beat when her chance of
  winning a round (a die plus boarding value each, tactics.boarding_odds) is better than even; carrying on a
  boarding action, board on while that chance stays better than even, else cast off;
* boarding losses (CM-BRD-11): the way that keeps the most boarding value (parties first); among ways alike, the
  flights kept unless the Boarding Party boxes ahead on her track would rather have parties to take them;
* boarding party hits (CM-FLY-25): as few flights as may be (a party lost costs one point, a flight two);
* mines and torpedoes (CM-TM-01, CM-DT-01, CM-SMT-01): let out each tether mine and drogue when an enemy she
  could reach this move flies at the band it rides; launch a Smutts torpedo when the first ship on its line
  within its 20 hexes at her band is an enemy; winch nothing in (a cable out costs nothing);
* the umpire's go-ahead: turn the card;
* a ship her side's tuning sends running (``sides[].ai.run``: a campaign's merchants and prizes in tow) makes for
  the nearest map edge and grapples nobody, firing as she goes.

Deterministic: the only chance is the pick among moves scored alike, a die on the captain's own stream
(battles.aikit.ties), so a battle played by captains replays event for event. The rules never import this module.
"""

from __future__ import annotations

from typing import Any, cast

from battles.aikit import ties
from battles.aikit.memo import Memo
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.policies import Policy
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import boarding, deployed, firing, ordnance, tactics, validate
from battles.rules.cloudships_2023.board import Board, FlightOrders, OrdnanceOrders, Ship, Shot
from battles.rules.cloudships_2023.kinds import (
    AT_FLIGHTS_KEY,
    BOARD,
    BOARD_DECISION,
    CAST_OFF,
    FIRE_ORDERS,
    FLIGHTS_DECISION,
    FLIGHTS_KEY,
    GRAPPLE,
    HIT_FIRST,
    LOSSES_DECISION,
    MOVE_DECISION,
    NOTHING,
    ORDNANCE_DECISION,
    PARTY_HITS_DECISION,
    REALLY_LOW_BAND,
    RETURN_FIRE,
    RUN,
    TURN_CARD,
    TURN_IT,
)
from battles.rules.cloudships_2023.tactics import Course

KEY = "cloudships_2023"
SURRENDER, WITHDRAW = "surrender", "withdraw"


class Captain:
    """The Cloudships AI captain (see the module docstring). ``Captain(seed)`` plays any side."""

    def __init__(self, seed: bytes, name: str = "captain") -> None:
        self._seed = seed
        self.name = name
        # An enemy's fire at a hex and band, kept while she is the same object (unmoved, unhurt): every ship of
        # the side, turn after turn, reads it from the memo until the enemy moves or is hit.
        self._fire: Memo[tuple[float, float]] = Memo()

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        choice = self.propose(ruleset, state, request)
        if not request.allows(choice) or ruleset.validate(state, request, choice) is not None:
            return request.default  # never offer an illegal answer; the default is always legal
        return choice

    def propose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        """The answer before ``choose`` checks it (tests play with this, so that a mistake shows)."""
        if ruleset.key != KEY or not isinstance(state.board, Board):
            return request.default  # another game: this captain knows only Cloudships
        return self.answer(cast(BattleState[Board], state), request)

    def answer(self, state: BattleState[Board], request: DecisionRequest) -> JSON:
        if request.kind in (MOVE_DECISION, BOARD_DECISION) and runs(state.board, request.ships[0]):
            return run(state, request)
        if request.kind == MOVE_DECISION:
            return self.move(state, request)
        if request.kind in (FIRE_ORDERS, RETURN_FIRE):
            orders = (fire_orders if request.kind == FIRE_ORDERS else return_fire)(state.board, request)
            orders = with_flights(state.board, request, orders)
            return with_hit_first(state.board, orders) if validate.chosen_guns(state) else orders
        if request.kind == TURN_CARD:
            return TURN_IT
        if request.kind == FLIGHTS_DECISION:
            return flights_home(state.board, request)
        if request.kind == BOARD_DECISION:
            return grapple_or_board(state.board, request)
        if request.kind == LOSSES_DECISION:
            return boarding_losses(state.board, request)
        if request.kind == PARTY_HITS_DECISION:
            return party_hits(request)
        if request.kind == ORDNANCE_DECISION:
            return mines_and_torpedoes(state, request)
        return request.default  # a decision this captain does not know: the rules' own default

    def move(self, state: BattleState[Board], request: DecisionRequest) -> JSON:
        board, ship = state.board, state.board.ship_named(request.ships[0])
        view = tactics.sight(board, ship)
        found = tactics.courses(validate.mover_of(state, ship.name))
        staying = [course for course in found if not course.left_map] or found
        every = tactics.with_rams(ship, staying, view.enemies)
        found_at: dict[tuple[Hex, str], float] = {}

        def fire_at(hex_: Hex, band: str) -> float:
            if (hex_, band) not in found_at:
                fire = [self.enemy_fire(enemy, (hex_, band)) for enemy in view.enemies]
                found_at[hex_, band] = tactics.threat(ship, fire)
            return found_at[hex_, band]

        scored = [(tactics.score_course(board, view, course, fire_at), course) for course in every]
        alike = ties.alike(scored, tactics.NEAR_TIE)
        if not alike:
            return request.default
        return order_of(ties.pick(alike, self._seed, f"policy|{self.name}|{request.side}|{request.id}"))

    def enemy_fire(self, enemy: Ship, at: tuple[Hex, str]) -> tuple[float, float]:
        return self._fire.get((enemy,), at, lambda: tactics.enemy_fire(enemy, at))


def order_of(course: Course) -> JSON:
    """A course as the move's answer: the plain list of steps, or with the ram declared (board.MoveOrder)."""
    if course.ram is None:
        return list[JSON](course.plan)
    return {"steps": list[JSON](course.plan), "ram": course.ram}


def fire_orders(board: Board, request: DecisionRequest) -> JSON:
    """Every gun that may fire does, each at the target where its shot is worth most (the rules' legal shots:
    arcs, range, 45 degrees, sight); among targets worth alike, one already fired on, so as to draw no more
    return fire than the shots are worth."""
    firer = board.ship_named(validate.firer_of(request))
    legal = firing.legal_shots(board, firer, validate.targets_for(board, request))
    worth = {shot: round(shot_worth(board, shot), 6) for shot in legal}
    guns = list(dict.fromkeys(shot.gun for shot in legal))
    best = {gun: max(value for shot, value in worth.items() if shot.gun == gun) for gun in guns}
    chosen: dict[int, Shot] = {}
    for gun in sorted(guns, key=lambda number: -best[number]):  # the weightiest guns choose their targets first
        fired_on = {shot.target for shot in chosen.values()}
        options = [shot for shot in legal if shot.gun == gun]
        chosen[gun] = max(options, key=lambda shot: (worth[shot], shot.target in fired_on))
    return {"shots": [chosen[gun].to_json() for gun in guns]}  # in the gun's order, as the panel numbers them


def return_fire(board: Board, request: DecisionRequest) -> JSON:
    """Every gun that can fire back at the active ship does (CM-SEQ-08): held, its Fired marker would come off
    at the round's end all the same."""
    return fire_orders(board, request)


def with_hit_first(board: Board, orders: JSON) -> JSON:
    """With the GUN option agreed (CM-GUN-03..05): for each ship fired on, her guns the captain wants a GUN box to
    take, the most dangerous first (what each would do at short range), spent one-shot weapons left out."""
    shots = validate.read_shots(orders) or ()
    if not shots:
        return orders
    named: dict[str, JSON] = {}
    for target in dict.fromkeys(shot.target for shot in shots):
        ship = board.ship_named(target)
        ready = [gun for gun in ship.working_guns() if gun.number not in ship.spent]
        ranked = sorted(ready, key=lambda gun: -tactics.expected(gun, firing.SHORT, superior=ship.panel.superior))
        named[target] = [gun.number for gun in ranked]
    return {**orders, HIT_FIRST: named} if isinstance(orders, dict) else orders


def flights_home(board: Board, request: DecisionRequest) -> JSON:
    """Her flights are worth most aboard (two of boarding value each and an anti-personnel gun with no arc,
    CM-FLY-23/27): she deploys none, and any on the table fly home and redock as soon as they reach her."""
    ship = board.ship_named(request.ships[0])
    paths, redock = [], []
    for flight in board.martians.of(ship.name):
        path = deployed.path_towards(board, flight, (ship.hex, ship.band))
        paths.append((flight.number, path))
        if deployed.path_problem(board, flight, path) == (ship.hex, ship.band):
            redock.append(flight.number)
    return FlightOrders(fly=tuple(paths), redock=tuple(redock)).to_json()


def with_flights(board: Board, request: DecisionRequest, orders: JSON) -> JSON:
    """Every flight that may attack does, at the enemy with the most crew to lose; each gun left idle fires at
    an enemy flight it can reach (CM-FLY-13/14/27)."""
    firer = board.ship_named(validate.firer_of(request))
    back = request.kind == RETURN_FIRE
    legal = deployed.legal_flight_shots(board, firer, validate.targets_for(board, request), return_fire=back)
    if not legal or not isinstance(orders, dict):
        return orders
    crew = {ship.name: ship.parties + ship.flights for ship in board.ships}
    attacks: list[JSON] = []
    ready = {0: deployed.aboard_ready(board, firer)} | {f.number: 1 for f in board.martians.of(firer.name)}
    for number, times in ready.items():
        mine = [shot for shot in legal if not shot.gun and shot.number == number]
        if mine:
            best = max(mine, key=lambda shot: crew.get(shot.target, 0))
            attacks += [best.to_json()] * times
    busy = {shot.gun for shot in validate.read_shots(orders) or ()}
    at_flights = {shot.gun: shot for shot in legal if shot.gun and shot.gun not in busy}
    extra = {FLIGHTS_KEY: attacks} if attacks else {}
    extra |= {AT_FLIGHTS_KEY: [shot.to_json() for shot in at_flights.values()]} if at_flights else {}
    return {**orders, **extra}


def grapple_or_board(board: Board, request: DecisionRequest) -> JSON:
    """Grapple the enemy she likeliest beats, when better than even; board on while better than even, else cast
    off (CM-BRD-01/17/18)."""
    ship = board.ship_named(request.ships[0])
    options = list(request.options or ())
    held = [option for option in options if isinstance(option, dict) and BOARD in option]
    if held:
        enemy = board.ship_named(str(held[0][BOARD]))
        winning = tactics.boarding_odds(ship, enemy) > tactics.BOARD_ODDS
        return held[0] if winning else {CAST_OFF: enemy.name}
    grapples = [option for option in options if isinstance(option, dict) and GRAPPLE in option]
    if not grapples:
        return request.default
    best = max(grapples, key=lambda option: tactics.boarding_odds(ship, board.ship_named(str(option[GRAPPLE]))))
    chance = tactics.boarding_odds(ship, board.ship_named(str(best[GRAPPLE])))
    return best if chance > tactics.BOARD_ODDS else NOTHING


def boarding_losses(board: Board, request: DecisionRequest) -> JSON:
    """The way that keeps the most boarding value; among those, flights or parties kept as
    tactics.flights_worth_keeping says (CM-BRD-11)."""
    ways = [boarding.Losses.of(option) for option in request.options or ()]
    if not ways:
        return request.default
    ship = board.ship_named(ways[0].ship)
    points = next((owed for name, owed in board.fight.losses if name == ship.name), 0) if board.fight else 0
    keep_flights = tactics.flights_worth_keeping(ship, points)

    def kept(way: boarding.Losses) -> tuple[int, int]:
        value = -(way.parties + boarding.FLIGHT_WORTH * way.flights + way.marked)
        return value, -way.flights if keep_flights else -way.parties

    return max(ways, key=kept).to_json()


def party_hits(request: DecisionRequest) -> JSON:
    """As few of the Boarding Party boxes on flights as may be: a flight is two points of boarding value, a party
    one (CM-FLY-23/25)."""
    options = [option for option in request.options or () if isinstance(option, dict)]
    if not options:
        return request.default
    return min(options, key=lambda option: int(str(option["flights"])))


def mines_and_torpedoes(state: BattleState[Board], request: DecisionRequest) -> JSON:
    """Let out each mine and drogue with an enemy near at its band; launch each torpedo with an enemy first on
    its line (CM-TM-01, CM-DT-01, CM-SMT-01)."""
    board = state.board
    ship = board.ship_named(request.ships[0])
    really_low = bool(state.options.get(REALLY_LOW_BAND, False))
    ready = ordnance.choices(board, ship, really_low=really_low)
    view = tactics.sight(board, ship)

    def worth_letting_out(number: int) -> bool:
        band = ordnance.reach(ship.gun(number).kind, ship.band, really_low=really_low)
        return band is not None and bool(tactics.enemies_near(view, band))

    let_out = tuple(number for number in ready.let_out if worth_letting_out(number))
    launch = tuple(number for number in ready.launch if tactics.torpedo_target(board, ship, ship.gun(number)))
    return OrdnanceOrders(let_out=let_out, launch=launch).to_json()


def shot_worth(board: Board, shot: Shot) -> float:
    firer, target = board.ship_named(shot.ship), board.ship_named(shot.target)
    return tactics.gun_worth(firer.gun(shot.gun), firing.aim(board, shot).band, firer, target)


class Leaving(Captain):
    """A side that left the battle in the app while its ships still fly. ``surrender``: the rules' defaults.
    ``withdraw``: each ship makes for the nearest map edge and flies off it, firing as she goes."""

    def __init__(self, seed: bytes, name: str, how: str) -> None:
        super().__init__(seed, name)
        self.how = how

    def answer(self, state: BattleState[Board], request: DecisionRequest) -> JSON:
        if self.how == SURRENDER:
            return request.default
        if request.kind == MOVE_DECISION:
            return run(state, request)
        return super().answer(state, request)


def runs(board: Board, name: str) -> bool:
    """A ship her side's tuning sends running (a campaign's merchants and prizes in tow, campaign.py)."""
    tuning = board.captains.get(board.ship_named(name).side)
    running = tuning.get(RUN) if isinstance(tuning, dict) else None
    return isinstance(running, list) and name in running


def run(state: BattleState[Board], request: DecisionRequest) -> JSON:
    """A running ship makes for the nearest map edge and flies off it; she grapples nobody (a boarding action she
    is in goes on as the rules' default says)."""
    if request.kind != MOVE_DECISION:
        return request.default
    ship = state.board.ship_named(request.ships[0])
    found = tactics.courses(validate.mover_of(state, ship.name))
    if not found:
        return request.default
    return order_of(max(found, key=lambda course: away_score(state.board, ship, course)))


def away_score(board: Board, ship: Ship, course: Course) -> tuple[int, int]:
    """Off the map first, the fewer steps the better; else the nearer the edge."""
    if course.left_map:
        return 1, -len(course.plan)
    hex_ = course.end(ship)[0]
    return 0, -min(tactics.room_ahead(board, hex_, side, board.cols + board.rows) for side in range(6))


def captain(seed: bytes, side: str) -> Policy:
    """The AI captain for a side (battles.engine.simulate.policy_for)."""
    return Captain(seed, f"captain {side}")


def leaving(seed: bytes, side: str, how: str) -> Policy:
    """Who answers for a side that surrendered (``surrender``) or withdraws (``withdraw``) in the battle app."""
    return Leaving(seed, f"leaving {side}", how)
