"""Flying Martians in play (CM-FLY-02..21, CM-FLY-27; the rules in deployed.py and flights.py, docs/cloudships.md
section 8).

- **The start of the mother ship's turn** (``start_of_turn``, stage MOVE, after the ordnance's): one decision,
  ``flying martians``, her side's: flights deployed from aboard into her hex and band (CM-FLY-04), then each
  deployed flight's path flown, before her own move (CM-FLY-06), then the flights named redocked (CM-FLY-20). A
  ship with no flight aboard to deploy and none on the table is not asked.
- **In the volley** (``aboard_hits``, ``roll_flights``, from phases/fire.py): a flight's attack is a Nordenfelt's
  five dice, 5+ short, 6 long (CM-FLY-13, CM-AP-02/03); a flight aboard adds its hits to her anti-personnel total
  (CM-FLY-27, CM-AP-08), a deployed flight's are its own total (CM-AP-09); both wait for step 4 as crew hits.
  Anti-personnel guns at a flight: each firing ship's hits on it summed, a superior crew's extra hit added
  (CM-AP-08/10); 2 or fewer are shrugged off, 3 wipe it out (CM-FLY-15/16), once every die is rolled (CM-SEQ-09).
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import dice
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import deployed, flights, gunnery, panels
from battles.rules.cloudships_2023.board import Board, FlightOrders, FlightShot, Ship
from battles.rules.cloudships_2023.deployed import flight_name
from battles.rules.cloudships_2023.firing import SHORT, Refusal
from battles.rules.cloudships_2023.kinds import (
    DAMAGE_DUE,
    FLIGHT_ATTACKED,
    FLIGHT_DEPLOYED,
    FLIGHT_FLEW,
    FLIGHT_HIT,
    FLIGHT_REDOCKED,
    FLIGHTS_DECISION,
    FLIGHTS_READY,
    GUN_FIRED,
)

NOTHING = FlightOrders().to_json()
PROMPT = '{"deploy": n, "fly": {flight: [steps]}, "redock": [flight]}; a step is a direction, climb or descend'
SUPERIOR = "superior crew"


def start_of_turn(ctx: Context[Board]) -> bool:
    """Her flights at the start of her turn, before her move is asked. True while it waits for her orders."""
    board = ctx.board
    name = board.active
    if name is None or board.move is not None or board.martians.flown == (name, ctx.state.turn):
        return False
    ship = board.ship_named(name)
    orders = board.martians.orders
    if orders is None:
        if not deployed.has_choices(board, ship):
            return False
        prompt = f"{possessive(name)} Flying Martians: {PROMPT}"
        ctx.request(ship.side, FLIGHTS_DECISION, rule="CM-FLY-04", default=NOTHING, prompt=prompt, ships=[name])
        return True
    carry_out(ctx, ship, orders)
    ctx.emit(FLIGHTS_READY, {"ship": name, "round": ctx.state.turn}, ships=[name])
    return False


def carry_out(ctx: Context[Board], ship: Ship, orders: FlightOrders) -> None:
    """Deploy, fly, redock, each in the order named (judged when answered, on this same board)."""
    for number in deployed.new_numbers(ctx.board, ship.name, orders.deploy):
        data = {"ship": ship.name, "flight": number, "hex": ship.hex.to_json(), "band": ship.band}
        ctx.emit(FLIGHT_DEPLOYED, {**data, "clauses": ["CM-FLY-02", "CM-FLY-04"]}, ships=[ship.name])
    for number, path in orders.fly:
        flight = ctx.board.martians.flight((ship.name, number))
        assert flight is not None  # judged: a flight on the table
        end = deployed.path_problem(ctx.board, flight, path)  # judged when answered: never a refusal here
        assert not isinstance(end, Refusal)
        data = {"ship": ship.name, "flight": number, "hex": end[0].to_json(), "band": end[1]}
        ctx.emit(FLIGHT_FLEW, {**data, "path": list(path), "clauses": ["CM-FLY-06"]}, ships=[ship.name])
    for number in orders.redock:
        data = {"ship": ship.name, "flight": number, "clauses": ["CM-FLY-20", "CM-FLY-21"]}
        ctx.emit(FLIGHT_REDOCKED, data, ships=[ship.name])


# --- the volley ---------------------------------------------------------------------------------------------------


def attack(ctx: Context[Board], firer: Ship, shot: FlightShot) -> int:
    """One flight's attack: a Nordenfelt's dice (CM-FLY-13); the hits are returned to be totalled."""
    band = deployed.attack_band(ctx.board, firer, shot)
    short = band == SHORT
    needed = gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=short, superior=False)
    clause = "CM-FLY-27" if shot.number == 0 else "CM-FLY-13"
    who = f"a flight aboard {firer.name}" if shot.number == 0 else flight_name((firer.name, shot.number))
    rolled = ctx.roll(
        f"{who} attacks {shot.target}, {band} range ({clause})",
        count=flights.DICE,
        needed=dice.each_die(f"{needed}+", [(needed, None, "hit")], "miss"),
        ships=[firer.name, shot.target],
    )
    hits = sum(1 for face in rolled.dice if face >= needed)
    data = {"ship": firer.name, "flight": shot.number, "target": shot.target, "band": band, "hits": hits}
    ctx.emit(FLIGHT_ATTACKED, {**data, "clauses": [clause]}, ships=[firer.name, shot.target])
    return hits


def aboard_hits(ctx: Context[Board], firer: str, shots: Sequence[FlightShot]) -> dict[str, int]:
    """The attacks of ``firer``'s flights aboard (CM-FLY-27), hits by target, to add to her anti-personnel
    guns' (CM-AP-08)."""
    ship = ctx.board.ship_named(firer)
    found: dict[str, int] = {}
    for shot in shots:
        if shot.ship == firer and shot.number == 0 and not shot.gun:
            found[shot.target] = found.get(shot.target, 0) + attack(ctx, ship, shot)
    return found


def roll_flights(ctx: Context[Board], shots: Sequence[FlightShot]) -> None:
    """The deployed flights' attacks, each its own total (CM-AP-09); then the anti-personnel guns at flights, and
    the flights their hits wipe out, once every die is rolled (CM-SEQ-09)."""
    for shot in shots:
        if shot.number and not shot.gun:
            hits = attack(ctx, ctx.board.ship_named(shot.ship), shot)
            if hits:
                crew_due(ctx, shot.target, shot.ship, hits)
    at_flights = [shot for shot in shots if shot.gun]
    totals: dict[tuple[str, tuple[str, int]], int] = {}
    for shot in at_flights:
        key = (shot.ship, shot.flight)
        totals[key] = totals.get(key, 0) + fire_at_flight(ctx, shot)
    for (firer, flight), hits in totals.items():
        total = gunnery.crew_total(hits, superior=ctx.board.ship_named(firer).panel.superior)
        wiped = not flights.survives(total)
        data = {"ship": firer, "flight": [flight[0], flight[1]], "hits": total, "wiped": wiped}
        ctx.emit(FLIGHT_HIT, {**data, "clauses": ["CM-FLY-15", "CM-FLY-16"]}, ships=[firer, flight[0]])


def fire_at_flight(ctx: Context[Board], shot: FlightShot) -> int:
    """A gun's dice at a flight: 5+ short, 6 long, a superior crew's +1 on the die (CM-AP-02..05, CM-FLY-18)."""
    firer = ctx.board.ship_named(shot.ship)
    gun = firer.gun(shot.gun)
    band = deployed.gun_band(ctx.board, firer, gun, shot.flight)
    ctx.emit(GUN_FIRED, {"ship": firer.name, "gun": gun.number, "name": gun.name}, ships=[firer.name])
    needed = gunnery.score_to_hit(panels.ANTI_PERSONNEL, short=band == SHORT, superior=False)
    rolled = ctx.roll(
        f"{possessive(firer.name)} {gun.name} ({gun.number}) at {flight_name(shot.flight)}, {band} range (CM-FLY-18)",
        count=gun.dice,
        modifiers={SUPERIOR: 1} if firer.panel.superior else {},
        needed=dice.each_die(f"{needed}+", [(needed, None, "hit")], "miss"),
        ships=[firer.name, shot.flight[0]],
    )
    bonus = sum(rolled.modifiers.values())
    return sum(1 for face in rolled.dice if face + bonus >= needed)


def crew_due(ctx: Context[Board], target: str, by: str, hits: int) -> None:
    """A deployed flight's hits, due at step 4 on the target's crew chart, and on every ship grappled with her
    that the flight's mother ship is not (fire into a boarding action, CM-BRD-23)."""
    ship = ctx.board.ship_named(target)
    outside = [name for name in ship.grappled if name != by] if by not in ship.grappled else []
    for name in (target, *outside):
        ctx.emit(DAMAGE_DUE, {"ship": name, "points": 0, "by": by, "crew": hits}, ships=[name, by])
