"""Flying Martians on the board (CM-FLY-02..21, CM-FLY-26/27; docs/cloudships.md section 8): what a captain may
order his flights to do, judged against the board, each refusal naming its clause. The flight's own move, reach
and survival are flights.py's; the phases carry the orders out (phases/flights.py, phases/fire.py).

- At the start of her turn a ship deploys flights from aboard into her hex and band (CM-FLY-02/04), flies each
  flight she has deployed (before her own move, CM-FLY-06) and redocks those that end in her hex at her band
  (CM-FLY-20). A ship in a boarding action keeps her flights aboard: they are in the fight (decided).
- In her fire orders (``"flights"``) each deployed flight of hers may attack an enemy ship as one Nordenfelt
  (CM-FLY-13), from its own hex and band; each flight aboard may too, as an anti-personnel gun with no arc
  (CM-FLY-27), once a round, from her hex and band, in return fire as well. Both reach as a flight does
  (CM-FLY-17/19) and need no line of sight (they fly round what is in the way: decided).
- Her anti-personnel guns (and no other, CM-FLY-14) may fire at an enemy's deployed flight (``"at_flights"``) from
  below, above or level (CM-FLY-18): arc, 45 degrees and range as at a ship (CM-FIRE-02..05).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import firing, flights, panels
from battles.rules.cloudships_2023.board import Board, Flight, FlightOrders, FlightShot, Ship
from battles.rules.cloudships_2023.firing import LONG, SHORT, Refusal
from battles.rules.cloudships_2023.flights import FlightError
from battles.rules.cloudships_2023.panels import Gun

MOST_POINTS = flights.SPEED + 2  # a flight's most points in a turn: two bands swooped down (CM-FLY-10)


def flight_name(key: tuple[str, int]) -> str:
    """ "Locust's flight 1": a flight as the log and the map call it."""
    return f"{possessive(key[0])} flight {key[1]}"


# --- the start of her turn: deploy, fly, redock (CM-FLY-04..06, CM-FLY-20) ---------------------------------------


def aboard_to_deploy(ship: Ship) -> int:
    """The flights she may deploy: all aboard, unless she is in a boarding action (decided: they are fighting)."""
    return ship.flights if ship.flying and not ship.grappled else 0


def has_choices(board: Board, ship: Ship) -> bool:
    return ship.flying and (aboard_to_deploy(ship) > 0 or bool(board.martians.of(ship.name)))


def new_numbers(board: Board, ship: str, count: int) -> tuple[int, ...]:
    """The numbers the next ``count`` flights she deploys will carry: the lowest not in use."""
    used = {flight.number for flight in board.martians.of(ship)}
    free = (number for number in range(1, len(used) + count + 1) if number not in used)
    return tuple(next(free) for _ in range(count))


def flights_after_deploying(board: Board, ship: Ship, deploy: int) -> tuple[Flight, ...]:
    """Her flights on the table once ``deploy`` more are placed in her hex at her band (CM-FLY-04)."""
    placed = tuple(Flight(ship.name, n, ship.hex, ship.band) for n in new_numbers(board, ship.name, deploy))
    return (*board.martians.of(ship.name), *placed)


def orders_problem(board: Board, ship: Ship, orders: FlightOrders) -> Refusal | None:
    """None if the orders are hers to give now, else why not."""
    if not 0 <= orders.deploy <= aboard_to_deploy(ship):
        return Refusal("CM-FLY-04", f"{ship.name} has {aboard_to_deploy(ship)} flights aboard she may deploy")
    out = {flight.number: flight for flight in flights_after_deploying(board, ship, orders.deploy)}
    numbers = [number for number, _ in orders.fly]
    if len(set(numbers)) != len(numbers) or len(set(orders.redock)) != len(orders.redock):
        return Refusal("CM-FLY-06", "each flight flies once and redocks once")
    ends: dict[int, tuple[Hex, str]] = {n: (flight.hex, flight.band) for n, flight in out.items()}
    for number, path in orders.fly:
        if number not in out:
            return Refusal("CM-FLY-03", f"{ship.name} has no flight {number} on the table")
        found = path_problem(board, out[number], path)
        if isinstance(found, Refusal):
            return found
        ends[number] = found
    return _redock_problem(board, ship, orders, ends)


def _redock_problem(board: Board, ship: Ship, orders: FlightOrders, ends: dict[int, tuple[Hex, str]]) -> Refusal | None:
    before = {flight.number for flight in board.martians.of(ship.name)}
    for number in orders.redock:
        if number not in before:
            return Refusal("CM-FLY-05", f"flight {number} is not out from before this turn: it stays deployed")
        if ends[number] != (ship.hex, ship.band):
            return Refusal("CM-FLY-20", f"flight {number} redocks only in {possessive(ship.name)} hex, at her band")
    return None


def path_problem(board: Board, flight: Flight, path: Sequence[str]) -> tuple[Hex, str] | Refusal:
    """Where the flight's path ends, or why the rules refuse it (CM-FLY-07..12; on the table, CM-FLY-07)."""
    if flight.band not in flights.FLIGHT_BANDS:  # deployed from a ship at the optional Really Low
        return (flight.hex, flight.band) if not path else Refusal("CM-FLY-07", "a flight flies from Low up to High")
    try:
        flown = flights.fly(flight.hex, flight.band, path)
    except FlightError as error:
        return Refusal(error.clause, error.reason)
    if not all(board.on_map(hex_) for hex_ in _hexes(flight.hex, path)):
        return Refusal("CM-FLY-07", "a flight flies anywhere on the table, not off it")
    return flown.hex, flown.band


def _hexes(start: Hex, path: Sequence[str]) -> list[Hex]:
    hexes, here = [start], start
    for step in path:
        if step in flights.DIRECTIONS:
            here = hexgrid.neighbour(here, flights.DIRECTIONS.index(step))
            hexes.append(here)
    return hexes


def every_end(board: Board, flight: Flight) -> dict[tuple[Hex, str], tuple[str, ...]]:
    """Every hex and band the flight can end its move at, each with one of the shortest paths there: a search
    step by step, each path grown by one step from where it left the flight (path_problem's rules, on the
    table)."""
    found: dict[tuple[Hex, str], tuple[str, ...]] = {(flight.hex, flight.band): ()}
    if flight.band not in flights.FLIGHT_BANDS:  # deployed at the optional Really Low: it stays there
        return found
    layer: list[tuple[tuple[str, ...], flights.Aloft]] = [
        ((), flights.Aloft(flight.hex, flights.FLIGHT_BANDS.index(flight.band)))
    ]
    steps = (*flights.DIRECTIONS, flights.CLIMB, flights.DESCEND)
    for number in range(MOST_POINTS + 2):  # the two descents are steps too
        grown = []
        for path, aloft in layer:
            for step in steps:
                after = flights.step_on(aloft, step, number)
                if isinstance(after, FlightError) or (after.hex != aloft.hex and not board.on_map(after.hex)):
                    continue
                end = (after.hex, flights.FLIGHT_BANDS[after.height])
                if end not in found:
                    found[end] = (*path, step)
                    grown.append(((*path, step), after))
        layer = grown
    return found


Ends = dict[tuple[Hex, str], tuple[str, ...]]


def path_towards(board: Board, flight: Flight, goal: tuple[Hex, str], ends: Ends | None = None) -> tuple[str, ...]:
    """The path that ends nearest ``goal`` (hexes first, then bands), the shortest such. ``ends``: the flight's
    every_end, when the caller has it already."""
    ends = every_end(board, flight) if ends is None else ends
    height = panels.BANDS_WITH_REALLY_LOW.index

    def far(end: tuple[Hex, str]) -> tuple[int, int, int]:
        return hexgrid.distance(end[0], goal[0]), abs(height(end[1]) - height(goal[1])), len(ends[end])

    return ends[min(ends, key=far)]


# --- the fire step: flights attacking, anti-personnel guns at flights (CM-FLY-13/14/17..19/27) -------------------


@dataclass(frozen=True)
class FlightAim:
    """A flight's attack or a gun's shot at a flight as it will be rolled: the range band (short or long)."""

    shot: FlightShot
    band: str


def attack_refusal(board: Board, firer: Ship, shot: FlightShot, *, return_fire: bool) -> Refusal | None:
    """May ``firer``'s flight (deployed, or aboard for ``number`` 0) attack ``shot.target`` now?"""
    target = next((ship for ship in board.flying() if ship.name == shot.target), None)
    if target is None or target.side == firer.side:
        return Refusal("CM-SEQ-07", f"{shot.target} is not an enemy ship in the fight")
    if shot.number == 0:
        if firer.grappled and target.name not in firer.grappled:
            return Refusal("CM-BRD-22", f"{firer.name} is in a boarding action: she may fire only at her grappler")
        where: tuple[Hex, str] = (firer.hex, firer.band)
    else:
        flight = board.martians.flight((firer.name, shot.number))
        if flight is None:
            return Refusal("CM-FLY-03", f"{firer.name} has no flight {shot.number} on the table")
        if return_fire:
            return Refusal("CM-FLY-06", "a deployed flight acts in its mother ship's turn, not in return fire")
        where = (flight.hex, flight.band)
    return _reach_refusal(where, target)


def _reach_refusal(where: tuple[Hex, str], target: Ship) -> Refusal | None:
    if firing.climb(where[1], target.band) > 0:
        return Refusal("CM-FLY-17", f"a flight cannot hurt {target.name} from below: only her hull")
    if flights.reach(hexgrid.distance(where[0], target.hex), where[1], target.band) is None:
        return Refusal("CM-FLY-19", f"{target.name} is beyond a flight's reach: next door, two hexes, or just above")
    return None


def attack_band(board: Board, firer: Ship, shot: FlightShot) -> str:
    """Short or long for a legal attack (CM-FLY-19)."""
    target = board.ship_named(shot.target)
    flight = board.martians.flight((firer.name, shot.number))
    hex_, band = (firer.hex, firer.band) if flight is None else (flight.hex, flight.band)
    return flights.reach(hexgrid.distance(hex_, target.hex), band, target.band) or LONG


def aboard_ready(board: Board, ship: Ship) -> int:
    """Her flights aboard that have not fired this round (CM-FLY-27, once a round as any gun, CM-FIRE-01)."""
    return max(0, ship.flights - board.martians.fired.count(ship.name))


def gun_at_flight_refusal(board: Board, firer: Ship, gun: Gun, key: tuple[str, int]) -> Refusal | None:
    """May ``firer``'s ``gun`` fire at the deployed flight ``key`` now? Anti-personnel guns only (CM-FLY-14), up
    as well as down or level (CM-FLY-18); arc, 45 degrees and range as at a ship (CM-FIRE-02..05)."""
    flight = board.martians.flight(key)
    if flight is None or board.ship_named(flight.ship).side == firer.side:
        return Refusal("CM-SEQ-07", f"{flight_name(key)} is no enemy flight on the table")
    if gun.kind != panels.ANTI_PERSONNEL:
        return Refusal("CM-FLY-14", f"only anti-personnel weapons may fire at a flight, not {gun.name}")
    ready = _gun_ready(firer, gun)
    if ready is not None:
        return ready
    if firer.grappled:
        return Refusal("CM-BRD-22", f"{firer.name} is in a boarding action: she may fire only at her grappler")
    seen = {str(aspect) for aspect in hexgrid.aspects(firer.hex, firer.facing, flight.hex)}
    if not seen & set(gun.arcs):
        return Refusal("CM-FIRE-02", f"{flight_name(key)} is outside the arc of {gun.name}")
    hexes, climb = hexgrid.distance(firer.hex, flight.hex), firing.climb(firer.band, flight.band)
    if hexes < abs(climb):
        return Refusal("CM-FIRE-05", f"{flight_name(key)} is {abs(climb)} bands off but {hexes} hexes away")
    if gun.long_range is None or hexes + max(0, climb) > gun.long_range:
        return Refusal("CM-FIRE-04", f"{flight_name(key)} is at range {hexes + max(0, climb)}, beyond {gun.name}")
    return None


def _gun_ready(firer: Ship, gun: Gun) -> Refusal | None:
    if gun.number in firer.guns_lost:
        return Refusal("CM-DMG-06", f"{possessive(firer.name)} {gun.name} is destroyed")
    if gun.number in firer.fired:
        return Refusal("CM-FIRE-01", f"{possessive(firer.name)} {gun.name} has fired this round")
    return None


def gun_band(board: Board, firer: Ship, gun: Gun, key: tuple[str, int]) -> str:
    flight = board.martians.flight(key)
    assert flight is not None  # a legal shot names a flight on the table
    reach = hexgrid.distance(firer.hex, flight.hex) + max(0, firing.climb(firer.band, flight.band))
    return SHORT if gun.short_range is not None and reach <= gun.short_range else LONG


def legal_flight_shots(board: Board, firer: Ship, targets: Sequence[Ship], *, return_fire: bool) -> list[FlightShot]:
    """Every attack her flights may make at ``targets`` (a flight aboard named once, 0) and every shot her
    anti-personnel guns may fire at an enemy flight (none in return fire: that answers the active ship)."""
    numbers = [0] if aboard_ready(board, firer) else []
    numbers += [] if return_fire else [flight.number for flight in board.martians.of(firer.name)]
    attacks = [FlightShot(firer.name, number=number, target=target.name) for number in numbers for target in targets]
    found = [shot for shot in attacks if attack_refusal(board, firer, shot, return_fire=return_fire) is None]
    if not return_fire:
        found += [
            FlightShot(firer.name, gun=gun.number, flight=flight.key)
            for gun in firer.panel.guns
            for flight in board.martians.out
            if gun_at_flight_refusal(board, firer, gun, flight.key) is None
        ]
    return found
