"""Flying Martians deployed on the table (CM-FLY-04..21): the pure rules of a flight as a piece of its own, its
move, its reach and what anti-personnel fire does to it. Played on the board by deployed.py and phases/flights.py
(docs/cloudships.md section 8). Aboard, a flight is two points of boarding value (boarding.py) and an
anti-personnel gun with no arc (CM-FLY-27, deployed.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.cloudships_2023 import panels

SPEED = 2  # CM-FLY-07
DICE = 5  # a flight attacks as one Nordenfelt (CM-FLY-13)
SHRUGGED_OFF = 2  # anti-personnel hits a flight ignores; one more wipes it out (CM-FLY-15/16)
FLIGHT_BANDS = (panels.LOW, panels.MEDIUM, panels.HIGH)  # anywhere up to High (CM-FLY-07)
CLIMB, DESCEND = "climb", "descend"
# A hex flown is named by its direction: a flight faces any way at will (CM-FLY-11).
DIRECTIONS = ("north", "north-east", "south-east", "south", "south-west", "north-west")


class FlightError(ValueError):
    """A flight's path the rules refuse, with the clause it breaks."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(f"{clause}: {reason}")
        self.clause = clause
        self.reason = reason


@dataclass(frozen=True)
class Flown:
    """Where a flight's path ends, and the points it spent and gained."""

    hex: Hex
    band: str
    spent: int
    gained: int


class Aloft(NamedTuple):
    """A flight part-way along its path: where it is, its height (an index into FLIGHT_BANDS), the points spent
    and gained so far."""

    hex: Hex
    height: int
    spent: int = 0
    gained: int = 0


def step_on(aloft: Aloft, step: str, number: int) -> Aloft | FlightError:
    """One step of a flight's path (``number`` counts from 0), or why it is refused: a hex in any direction or a
    band climbed costs a point, a band descended gains one (CM-FLY-08/09); never above High nor down to Ground
    (CM-FLY-07). Returned, not raised, so that every_end can try a great many steps cheaply."""
    if step == DESCEND:
        if aloft.height == 0:
            return FlightError("CM-FLY-07", f"step {number + 1}: a flight flies no lower than {FLIGHT_BANDS[0]}")
        return Aloft(aloft.hex, aloft.height - 1, aloft.spent, aloft.gained + 1)
    here, height = aloft.hex, aloft.height
    if step == CLIMB:
        if height == len(FLIGHT_BANDS) - 1:
            return FlightError("CM-FLY-07", f"step {number + 1}: a flight flies no higher than High")
        height += 1
    elif step in DIRECTIONS:
        here = hexgrid.neighbour(here, DIRECTIONS.index(step))
    else:
        return FlightError("CM-FLY-07", f"step {number + 1}: {step!r} is no step of a flight's")
    spent = aloft.spent + 1
    if spent > SPEED + aloft.gained:
        return FlightError("CM-FLY-08", f"step {number + 1}: {spent} points, the flight has {SPEED + aloft.gained}")
    return Aloft(here, height, spent, aloft.gained)


def fly(start: Hex, band: str, steps: Sequence[str]) -> Flown:
    """Trace a flight's path step by step (step_on); the points gained may be spent after the descent that gains
    them; what is left is lost (CM-FLY-12)."""
    aloft = Aloft(start, FLIGHT_BANDS.index(band))
    for number, step in enumerate(steps):
        found = step_on(aloft, step, number)
        if isinstance(found, FlightError):
            raise found
        aloft = found
    return Flown(aloft.hex, FLIGHT_BANDS[aloft.height], aloft.spent, aloft.gained)


def reach(distance: int, flight_band: str, target_band: str) -> str | None:
    """A deployed flight's attack on a ship (CM-FLY-17/19; docs/cloudships.md section 5): from below, none; at
    the ship's band, short in her hex or the next, long two hexes off; directly above her (her hex, one band up),
    short; nothing else."""
    up = panels.BANDS_WITH_REALLY_LOW.index(flight_band) - panels.BANDS_WITH_REALLY_LOW.index(target_band)
    if up < 0:
        return None
    if up == 0:
        return "short" if distance <= 1 else "long" if distance == 2 else None
    return "short" if (distance, up) == (0, 1) else None


def survives(hits: int) -> bool:
    """Anti-personnel fire on a deployed flight: 2 hits or fewer are shrugged off, 3 or more wipe it out
    (CM-FLY-15/16)."""
    return hits <= SHRUGGED_OFF
