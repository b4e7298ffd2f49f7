"""Voyages on the strategic map: how far a ship sails in a day, and the checking of a plan of days.

Pure Python (no Django): the voyage services, the preview and the daily tick read the same rules. The numbers and
the designed readings (wind on a flat-top map, towing, coal, partial moves) are data, ``data/voyage-rules.json``,
and docs/strategic-map.md says why (SGC-MOVE-01..15).

A plan is a list of days, each ``{"kind": "move", "path": [[q, r], ...]}`` (the hexes entered, in order, each next
to the one before) or ``{"kind": "patrol"}`` (she stays where she is). It comes from a player, so it is checked
here as untrusted JSON and every fault is a sentence the player can act on.

The ship's allowance is counted in points: a steam ship has 3 a day, a screw galley 2, a boarding launch 1, each
hex costing 1; a kite has 4, a hex with or across the wind costing 1 and a hex against it 2 (SGC-MOVE-04/05/09).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import DataFile
from battles.engine.words import possessive
from galleons import sailing
from galleons.record import ShipRecord
from strategic_map.mapdata import City, MarsMap, UnknownMapName

RULES = DataFile(Path(__file__).resolve().parent / "data" / "voyage-rules.json")

MOVE = "move"
PATROL = "patrol"
DAY_KINDS = (MOVE, PATROL)

STEAM = "steam"
SCREW_GALLEY = "screw_galley"
KITE = "kite"
LAUNCH = "launch"

FRIENDLY = "friendly"

PROPULSION_WORDS = {
    STEAM: "a steam ship",
    SCREW_GALLEY: "a screw galley",
    KITE: "a kite",
    LAUNCH: "a boarding launch",
}


class EncounterNumbers(Protocol):
    """A territory's encounter numbers (strategic_map.map_rules.EncounterNumbers is one)."""

    def number_for(self, *, patrolling: bool) -> int | None: ...


def _direction_names() -> tuple[str, ...]:
    return hexgrid.DIRECTION_NAMES[hexgrid.Orientation.FLAT_TOP]


@cache
def wind_of_direction() -> tuple[str, ...]:
    """For each of the six directions (hexgrid numbering, flat-top: N, NE, SE, S, SW, NW): "with", "across" or
    "against" the prevailing west wind (SGC-MOVE-08, SGC-MOVE-10 designed)."""
    names = _direction_names()
    found: list[str] = []
    for name in names:
        kinds = [kind for kind in ("with", "across", "against") if name in RULES.texts("wind", kind)]
        if len(kinds) != 1:
            raise ValueError(f"voyage-rules.json wind: direction {name} must be in exactly one of with/across/against")
        found.append(kinds[0])
    return tuple(found)


def wind_between(a: Hex, b: Hex) -> str:
    """Whether the step from ``a`` to its neighbour ``b`` runs with, across or against the wind."""
    return wind_of_direction()[hexgrid.direction_to(a, b)]


def _kite_step_cost(wind: str) -> int:
    """Points a kite pays for a hex: her with-wind allowance over her rate in that direction (4/4 or 4/2)."""
    budget = RULES.whole("hexes_per_day", "kite_with_wind")
    if wind == "across":
        wind = RULES.get("wind", "across_counts_as")
    rate = RULES.whole("hexes_per_day", "kite_with_wind" if wind == "with" else "kite_against_wind")
    return budget // rate


@cache
def _kite_step_costs() -> Mapping[Hex, int]:
    """A kite's points for a step, by the step (the pathfinder asks thousands of times)."""
    return {step: _kite_step_cost(wind_of_direction()[direction]) for direction, step in enumerate(hexgrid.DIRECTIONS)}


# --- the ship ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipMovement:
    """What one ship can do on the map today: her daily points, what a hex costs her, and whether she can sail.

    ``coal_days`` is a steam ship's endurance left (None: not a steam ship, or not tracked)."""

    name: str
    propulsion: str
    hull_size: int
    base_points: int
    points: int
    towed_hull_sizes: tuple[int, ...]
    coal_days: int | None
    can_sail: bool
    cannot_sail_because: str | None

    @property
    def is_kite(self) -> bool:
        return self.propulsion == KITE

    @property
    def burns_coal(self) -> bool:
        return self.propulsion == STEAM and self.coal_days is not None

    @property
    def towing(self) -> bool:
        return bool(self.towed_hull_sizes)

    def step_cost(self, a: Hex, b: Hex) -> int:
        """Points for the step from ``a`` into its neighbour ``b`` (SGC-MOVE-04/05/09)."""
        return _kite_step_costs()[b - a] if self.is_kite else 1

    def describe(self) -> str:
        """Her allowance in words, for a refusal."""
        what = PROPULSION_WORDS[self.propulsion]
        tow = " while towing" if self.towing else ""
        if self.is_kite:
            points = f"{self.points} point{'s' if self.points != 1 else ''}"
            costs = "a hex with or across the wind costs 1, a hex against it 2"
            return f"the {self.name}, {what}, has {points} a day{tow}: {costs}"
        return f"the {self.name}, {what}, sails {self.points} hex{'es' if self.points != 1 else ''} a day{tow}"


def propulsion_of(record: ShipRecord) -> str:
    """steam, screw_galley, kite, or launch for a class whose campaign cruising speed is its own (SGC-MOVE-15)."""
    if sailing.campaign_cruising_hexes_per_day(record) is not None:
        return LAUNCH
    return record.propulsion


def base_points(record: ShipRecord) -> int:
    """The daily allowance by propulsion alone, not the tactical speed (SGC-MOVE-02..06, -15)."""
    launch = sailing.campaign_cruising_hexes_per_day(record)
    if launch is not None:
        return launch
    if record.is_kite:
        return RULES.whole("hexes_per_day", "kite_with_wind")
    return RULES.whole("hexes_per_day", record.propulsion)


def towing_points(points: int, *, tower_hull_size: int, towed_hull_sizes: Sequence[int]) -> int:
    """SGC-MOVE-13 (designed): the tactical towing rule on the day's allowance (galleons.sailing.tow_speed: halved
    rounding up, less floor(towed hull / tower hull), the formula governing where the text's second example
    disagrees, SG-TOW-08), several prizes counted by their hull sizes together, never below the minimum."""
    if not towed_hull_sizes:
        return points
    slowed = sailing.tow_speed(points, tower_hull_size, sum(towed_hull_sizes))
    return max(slowed, RULES.whole("towing", "minimum_hexes_per_day"))


def _cannot_sail(record: ShipRecord) -> str | None:
    if not record.afloat:
        return f"The {record.name} has crashed: she cannot sail."
    # A kite at her best (the top face of the die, with the wind): if even that is 0, damage has stopped her.
    speed = record.effective_speed(6 if record.is_kite else None, with_wind=True)
    if speed <= 0:
        return (
            f"The {possessive(record.name)} speed is 0 after her damage: "
            "she cannot sail until she is repaired or jury-rigged."
        )
    return None


def ship_movement(
    record: Mapping[str, Any] | ShipRecord,
    *,
    coal_days: int | None = None,
    towed_hull_sizes: Sequence[int] = (),
) -> ShipMovement:
    """The ship's movement on the map from her engine ship record (CampaignShip.record), her coal left and the
    hull sizes of the prizes she has in tow."""
    parsed = record if isinstance(record, ShipRecord) else ShipRecord.from_json(record)
    propulsion = propulsion_of(parsed)
    base = base_points(parsed)
    towed = tuple(towed_hull_sizes)
    why_not = _cannot_sail(parsed)
    return ShipMovement(
        name=parsed.name,
        propulsion=propulsion,
        hull_size=parsed.hull_size,
        base_points=base,
        points=towing_points(base, tower_hull_size=parsed.hull_size, towed_hull_sizes=towed),
        towed_hull_sizes=towed,
        coal_days=coal_days if propulsion == STEAM else None,
        can_sail=why_not is None,
        cannot_sail_because=why_not,
    )


# --- the map -------------------------------------------------------------------------------------------------


def on_map(atlas: MarsMap, hex_: Hex) -> bool:
    try:
        atlas.hex_at(hex_.q, hex_.r)
    except UnknownMapName:
        return False
    return True


def hex_label(atlas: MarsMap, hex_: Hex) -> str:
    return atlas.hex_at(hex_.q, hex_.r).label


def city_hex(atlas: MarsMap, city: City) -> Hex:
    return hexgrid.from_odd_q(city.col, city.row)


def friendly_cities(atlas: MarsMap) -> tuple[City, ...]:
    """The cities a ship may come home to: a city in a friendly hex."""
    return tuple(city for city in atlas.cities if atlas.hex_at_offset(city.col, city.row).allegiance == FRIENDLY)


def friendly_city_at(atlas: MarsMap, hex_: Hex) -> City | None:
    """The friendly city in this hex, if there is one."""
    for city in friendly_cities(atlas):
        if city_hex(atlas, city) == hex_:
            return city
    return None


def arrival_city(atlas: MarsMap, *, kind: str, end: Hex) -> City | None:
    """The friendly city a day's sailing ends the voyage in: a move that ends in a friendly city's hex brings her
    home. A patrol over a friendly city (guarding Umbra's approaches, say) does not: she never came in."""
    return friendly_city_at(atlas, end) if kind == MOVE else None


def encounter_chance(number: int | None) -> str:
    """The encounter die's odds in words: "2 in 6", or "none" where no die is rolled."""
    return "none" if not number else f"{number} in 6"


# --- checking a plan -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DayCheck:
    """One day of a plan as it would be sailed: where she ends, her encounter die, her coal, and what is wrong."""

    index: int
    kind: str
    path: tuple[Hex, ...]
    start: Hex
    end: Hex
    end_label: str
    territory: str
    encounter_number: int | None
    coal_after: int | None
    allowance: int
    hexes_used: int
    points_used: int
    problems: tuple[str, ...]
    locked: bool = False
    arrives_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "path": [h.to_json() for h in self.path],
            "end": self.end.to_json(),
            "end_label": self.end_label,
            "territory": self.territory,
            "encounter_number": self.encounter_number,
            "encounter_chance": encounter_chance(self.encounter_number),
            "coal_after": self.coal_after,
            "allowance": self.allowance,
            "hexes_used": self.hexes_used,
            "problems": list(self.problems),
        }

    def plan_day(self) -> dict[str, Any]:
        """The day as a plan stores it."""
        if self.kind == MOVE:
            return {"kind": MOVE, "path": [h.to_json() for h in self.path]}
        return {"kind": PATROL}


@dataclass(frozen=True, slots=True)
class PlanCheck:
    start: Hex
    days: tuple[DayCheck, ...]
    # Faults of the plan as a whole (not a list, too long...), then each unlocked day's problems as "Day n: ...".
    errors: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def plan(self) -> list[dict[str, Any]]:
        """The plan as it will be stored (only meaningful when valid)."""
        return [day.plan_day() for day in self.days]

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": list(self.errors),
            "start": self.start.to_json(),
            "days": [day.to_json() for day in self.days],
        }


def _as_hex(value: object) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return Hex(value[0], value[1])
    return None


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(slots=True)
class _Walk:
    """A day's path walked hex by hex, stopping at the first hex that cannot be entered."""

    at: Hex
    entered: list[Hex]
    points: int
    problems: list[str]


def _walk(raw_path: object, *, start: Hex, ship: ShipMovement, atlas: MarsMap) -> _Walk:
    walk = _Walk(at=start, entered=[], points=0, problems=[])
    if not isinstance(raw_path, list) or not raw_path:
        walk.problems.append("a move needs a path: the hexes entered, in order, as [[q, r], ...].")
        return walk
    limit = RULES.whole("plan", "max_hexes_in_a_day")
    if len(raw_path) > limit:
        walk.problems.append(f"a day's path is at most {limit} hexes; this one has {len(raw_path)}.")
        return walk
    for number, raw in enumerate(raw_path, start=1):
        hex_ = _as_hex(raw)
        if hex_ is None:
            walk.problems.append(f"hex {number} of the path is not [q, r] whole numbers: {_show(raw)}.")
            break
        if not on_map(atlas, hex_):
            walk.problems.append(f"hex {number} of the path, ({hex_.q}, {hex_.r}), is off the map.")
            break
        if hexgrid.distance(walk.at, hex_) != 1:
            here, there = hex_label(atlas, walk.at), hex_label(atlas, hex_)
            if hex_ == walk.at:
                walk.problems.append(f"hex {number} of the path, {there}, is where she already is.")
            else:
                walk.problems.append(f"hex {number} of the path, {there}, is not next to {here}.")
            break
        walk.points += ship.step_cost(walk.at, hex_)
        walk.entered.append(hex_)
        walk.at = hex_
    return walk


def _move_problems(walk: _Walk, *, ship: ShipMovement, coal: int | None) -> list[str]:
    problems: list[str] = []
    if not ship.can_sail:
        problems.append(ship.cannot_sail_because or f"The {ship.name} cannot sail.")
    if ship.burns_coal and coal is not None and coal <= 0:
        problems.append(f"The {ship.name} has no coal left: a steam ship cannot move without it (SGC-MOVE-14).")
    # Every ship that can sail makes the first hex of her day, whatever it costs (the towing minimum).
    if len(walk.entered) > 1 and walk.points > ship.points:
        spent = f"{walk.points} points" if ship.is_kite else f"{len(walk.entered)} hexes"
        problems.append(f"too far for one day: {ship.describe()}; this path needs {spent}.")
    return problems + walk.problems


def plan_check(
    plan: object,
    *,
    start: Hex,
    ship: ShipMovement,
    atlas: MarsMap,
    numbers: Mapping[str, EncounterNumbers],
    locked_days: int = 0,
) -> PlanCheck:
    """Check a plan of days from ``start`` (SGC-MOVE-01..15): each day's end, territory, encounter number, coal
    after, and problems. The first ``locked_days`` days are past their deadline: their problems are shown but no
    longer the player's to mend, so they do not make the plan invalid."""
    errors: list[str] = []
    days: list[DayCheck] = []
    if not isinstance(plan, list):
        return PlanCheck(start=start, days=(), errors=("The plan must be a list of days.",))
    max_days = RULES.whole("plan", "max_days")
    if len(plan) > max_days:
        return PlanCheck(
            start=start, days=(), errors=(f"A plan is at most {max_days} days; this one has {len(plan)}.",)
        )
    at = start
    coal = ship.coal_days if ship.burns_coal else None
    burn = RULES.whole("coal", "burned_per_day_at_sea")
    arrived: tuple[int, str] | None = None
    for index, raw in enumerate(plan):
        problems: list[str] = []
        path: tuple[Hex, ...] = ()
        points = 0
        day_start = at
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or kind not in DAY_KINDS:
            problems.append('a day is {"kind": "move", "path": [[q, r], ...]} or {"kind": "patrol"}.')
            kind = PATROL
        else:
            extra = sorted(str(key) for key in set(raw) - {"kind", "path"})
            if extra:
                problems.append(f"a day has only a kind and a path, not {', '.join(extra)}.")
            if kind == MOVE:
                walk = _walk(raw.get("path"), start=at, ship=ship, atlas=atlas)
                problems += _move_problems(walk, ship=ship, coal=coal)
                path, points, at = tuple(walk.entered), walk.points, walk.at
            elif raw.get("path"):
                problems.append("a patrol stays where she is: it has no path.")
        if arrived is not None:
            problems.append(
                f"the voyage ends at {arrived[1]} at the end of day {arrived[0] + 1}: this day would never be sailed."
            )
        # A steam ship burns a day of coal every day at sea, moving or patrolling (SGC-MOVE-14, designed).
        if coal is not None:
            coal = max(coal - burn, 0)
        map_hex = atlas.hex_at(at.q, at.r)
        number = (
            numbers[map_hex.territory].number_for(patrolling=kind == PATROL) if map_hex.territory in numbers else None
        )
        city = arrival_city(atlas, kind=kind, end=at)
        if city is not None and arrived is None:
            arrived = (index, city.name)
        locked = index < locked_days
        days.append(
            DayCheck(
                index=index,
                kind=kind,
                path=path,
                start=day_start,
                end=at,
                end_label=map_hex.label,
                territory=map_hex.territory,
                encounter_number=number,
                coal_after=coal,
                allowance=ship.points,
                hexes_used=len(path),
                points_used=points,
                problems=tuple(problems),
                locked=locked,
                arrives_at=city.name if city is not None else None,
            )
        )
        if not locked:
            errors += [f"Day {index + 1}: {_capital(problem)}" for problem in problems]
    return PlanCheck(start=start, days=tuple(days), errors=tuple(errors))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the shortest way ----------------------------------------------------------------------------------------


def route(start: Hex, goal: Hex, *, ship: ShipMovement, atlas: MarsMap) -> list[Hex] | None:
    """The cheapest way from ``start`` to ``goal`` in the ship's points (the wind counts for a kite), both ends
    included; None when the goal is off the map."""
    return hexgrid.find_path(
        start,
        goal,
        cost=ship.step_cost,
        passable=lambda h: on_map(atlas, h),
        min_step_cost=1.0,
    )


def split_into_days(path: Sequence[Hex], *, ship: ShipMovement) -> list[dict[str, Any]]:
    """A path (its start first) cut into move days, each as far as the ship's points reach, the first hex of a
    day always allowed."""
    days: list[dict[str, Any]] = []
    day: list[Hex] = []
    points = 0
    for a, b in itertools.pairwise(path):
        cost = ship.step_cost(a, b)
        if day and points + cost > ship.points:
            days.append({"kind": MOVE, "path": [h.to_json() for h in day]})
            day, points = [], 0
        day.append(b)
        points += cost
    if day:
        days.append({"kind": MOVE, "path": [h.to_json() for h in day]})
    return days


def route_plan(start: Hex, goal: Hex, *, ship: ShipMovement, atlas: MarsMap) -> list[dict[str, Any]] | None:
    """The shortest way to ``goal`` as a plan of move days; None when there is none."""
    path = route(start, goal, ship=ship, atlas=atlas)
    return None if path is None else split_into_days(path, ship=ship)


def nearest_friendly_city(
    start: Hex, *, ship: ShipMovement, atlas: MarsMap
) -> tuple[City, list[dict[str, Any]]] | None:
    """The friendly city fewest days away (then fewest points, then by name) and the plan that takes her there."""
    best: tuple[tuple[int, int, str], City, list[dict[str, Any]]] | None = None
    cost: Callable[[Hex, Hex], int] = ship.step_cost
    for city in friendly_cities(atlas):
        path = route(start, city_hex(atlas, city), ship=ship, atlas=atlas)
        if path is None:
            continue
        plan = split_into_days(path, ship=ship)
        key = (len(plan), sum(cost(a, b) for a, b in itertools.pairwise(path)), city.name)
        if best is None or key < best[0]:
            best = (key, city, plan)
    return None if best is None else (best[1], best[2])
