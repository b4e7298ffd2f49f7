"""Grappling and boarding read from the board (CM-BRD-*, CM-PG-*, CM-FLY-22..28): a ship's boarding value now,
what the active captain may do in the boarding step, the ways a ship can take her boarding losses, and who may fire
at whom while ships are locked together (a prize is told in the outcome: outcome.py). Pure: the boarding step
(phases/boarding.py) rolls and emits; docs/cloudships.md section 8 gives the reasons.

- Boarding value (CM-BRD-08..10, CM-FLY-23): a boarding party 1, a flight aboard 2, a working anti-personnel gun
  1, a superior crew 1 (CM-SUP-06 is CM-BRD-09: counted once), less what has been marked off.
- Losses (CM-BRD-11..16): points off the boarding value, taken from the parties and the flights aboard in the
  order the captain chooses (a flight takes two points, a whole flight for a last odd point), then, with no one
  left on deck, marked off the rest; never a gun lost (CM-BRD-16). At 0 the ship strikes (CM-BRD-20).
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine.events import JSON, JSONObject
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, Grapple, Ship
from battles.rules.cloudships_2023.kinds import ATTACKERS, BOARD, CAST_OFF, DEFENDERS, GRAPPLE, NOTHING, TIE

FLIGHT_WORTH = 2  # a flight aboard counts 1 + 1 (CM-FLY-23)


# --- boarding value ---------------------------------------------------------------------------------------------


def value_parts(ship: Ship) -> dict[str, int]:
    """What makes up ``ship``'s boarding value now, by name, the parts that count nothing left out: the roll's
    modifiers, so the log shows each (CM-BRD-08..10, CM-FLY-23/24, CM-SUP-06)."""
    anti_personnel = sum(1 for gun in ship.working_guns() if gun.kind == panels.ANTI_PERSONNEL)
    parts = {
        "boarding parties": ship.parties,
        "flights aboard": FLIGHT_WORTH * ship.flights,
        "anti-personnel guns": anti_personnel,
        "superior crew": 1 if ship.panel.superior else 0,
        "marked off": -ship.marked,
    }
    return {name: value for name, value in parts.items() if value}


def boarding_value(ship: Ship) -> int:
    """The hexagon less what the ship has lost: parties, flights, anti-personnel guns, points marked off
    (CM-BRD-10). Never below 0."""
    return max(0, sum(value_parts(ship).values()))


# --- who is locked with whom ------------------------------------------------------------------------------------


def attacking(board: Board, name: str) -> Grapple | None:
    """The boarding action ``name`` is carrying on as the attacker, if any (one at a time: section 8)."""
    return next((g for g in board.grapples if g.attacker == name), None)


def defending(board: Board, name: str) -> tuple[Grapple, ...]:
    return tuple(g for g in board.grapples if g.defender == name)


def locked(board: Board, name: str) -> bool:
    """Boarding or being boarded (CM-BRD-22): grappled to another ship."""
    return bool(board.ship_named(name).grappled)


# --- what the active captain may do ----------------------------------------------------------------------------


def grapple_targets(board: Board, name: str) -> tuple[str, ...]:
    """The enemy ships in the fight ``name`` may grapple: in her hex at her band when her move is over (CM-BRD-01,
    read as where she ends: section 8), not already grappled to her. A ship locked in a boarding action starts
    no other."""
    ship = board.ship_named(name)
    if ship.grappled:
        return ()
    return tuple(
        other.name
        for other in board.flying()
        if other.side != ship.side and (other.hex, other.band) == (ship.hex, ship.band)
    )


def choices(board: Board, name: str) -> list[JSON]:
    """The answers to the boarding decision, the default first: carrying on a boarding action she began, board on
    (CM-BRD-17) or cast off; else leave well alone, or grapple a ship there (CM-BRD-01). Empty when there is
    nothing to decide (she is no attacker and no enemy shares her hex and band, or she is only boarded)."""
    ship = board.ship_named(name)
    if not ship.flying:
        return []
    action = attacking(board, name)
    if action is not None:
        return [{BOARD: action.defender}, {CAST_OFF: action.defender}]
    targets = grapple_targets(board, name)
    grapples: list[JSON] = [{GRAPPLE: target} for target in targets]
    return [NOTHING, *grapples] if targets else []


def words(choice: JSON) -> str:
    """A choice in the captain's words, for the form and the log."""
    if not isinstance(choice, dict):
        return "Leave well alone"
    ((key, ship),) = choice.items()
    spoken = {GRAPPLE: "Grapple and board", BOARD: "Board on: fight a round aboard", CAST_OFF: "Cast off from"}
    return f"{spoken[str(key)]} {ship}"


# --- losses -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Losses:
    """One way ``ship`` takes a loss of boarding value: parties and flights lost, points marked off the rest."""

    ship: str
    parties: int
    flights: int
    marked: int

    def to_json(self) -> JSONObject:
        return {"ship": self.ship, "parties": self.parties, "flights": self.flights, "marked": self.marked}

    @classmethod
    def of(cls, data: JSON) -> Losses:
        if not isinstance(data, dict):
            raise TypeError(f"boarding losses are an object, not {data!r}")
        return cls(str(data["ship"]), int(str(data["parties"])), int(str(data["flights"])), int(str(data["marked"])))


def taken(ship: Ship, points: int, flights_first: int) -> Losses:
    """``points`` of boarding value off ``ship``, ``flights_first`` flights given up before any party: then the
    parties, then more flights, then marked off what is left (never a gun, CM-BRD-16)."""
    owed = points
    flights = min(flights_first, ship.flights)
    owed = max(0, owed - FLIGHT_WORTH * flights)
    parties = min(ship.parties, owed)
    owed -= parties
    more = min(ship.flights - flights, -(-owed // FLIGHT_WORTH))
    flights += more
    owed = max(0, owed - FLIGHT_WORTH * more)
    rest = boarding_value(ship) - ship.parties - FLIGHT_WORTH * ship.flights
    return Losses(ship.name, parties, flights, min(owed, max(0, rest)))


def ways_to_lose(ship: Ship, points: int) -> list[Losses]:
    """Every distinct way ``ship`` may take ``points`` of boarding losses, parties first (the default: the flights
    are worth two and can fly) to flights first. One way only when she has no choice (CM-FLY-25, section 8)."""
    most = min(ship.flights, -(-points // FLIGHT_WORTH))
    found: list[Losses] = []
    for first in range(most + 1):
        way = taken(ship, points, first)
        if way not in found:
            found.append(way)
    return found


def winner(attackers: int, defenders: int) -> str:
    """Who won a round of boarding: the higher total; equal totals tie (CM-BRD-11/15)."""
    return ATTACKERS if attackers > defenders else DEFENDERS if defenders > attackers else TIE
