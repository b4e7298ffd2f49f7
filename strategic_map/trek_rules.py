"""Epic treks (SGC-TREK-01..28): a captain who lost his ship walks home across Mars, hex by hex. Pure: no Django.

One die per hex entered on the trek table (the row is the hex's city, canal or terrain; the column its allegiance).
Every function takes its dice as arguments; strategic_map.treks rolls them (logged) and stores what happens.

Decisions where the text is silent or disagrees (docs/strategic-map.md "Epic treks"):

- Losses (SGC-TREK-25): two readings, a campaign option. ``per_six`` (the rule, the default, DESIGN.md section 8):
  n men of every full six, then a die for each man left over, lost on n or less. ``worked_example``: one man per
  full six, then the dice, which is what the text's own example (15 men, 2 in 6) computes.
- The captain is one of the party and the last to die (SGC-TREK-26): the trek ends in death only when the losses
  take the whole party.
- Found (SGC-TREK-15..17) always ends the trek safely, as the finders are a non-hostile party: in a city, the
  British representatives there send the party home; on a canal, the party is led along it to the nearest city
  on it that is not hostile; with no canal (or only hostile cities along it) the finders take it to the nearest
  friendly city. "Home", wherever the party is sent from a city that is not friendly, is the friendly city at the
  end of the shortest way home from there.
- Reaching a friendly city (SGC-TREK-10): the city's own roll is made (SGC-TREK-03), and unless it is Lost,
  Captured or kills everyone, the party is safe there.
- The shortest way home: the cheapest path on the map (hexgrid.find_path) to the friendly city it reaches most
  cheaply, a step into a friendly hex costing less than a neutral one and far less than a hostile one, a canal
  hex a little less than the land around it. Ties go to fewer hexes, then the city's name: deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from strategic_map.mapdata import TREK_ROW_CITY, City, EpicTrekTable, MapHex, MarsMap

FRIENDLY = "friendly"
NEUTRAL = "neutral"
HOSTILE = "hostile"
ALLEGIANCES = (FRIENDLY, NEUTRAL, HOSTILE)

# A route a player sets is at most this many hexes: the map is 20 x 25, so any sensible route home is shorter.
MAX_ROUTE = 60


class Outcome(StrEnum):
    """SGC-TREK-12: the five results of the trek table."""

    LOST = "L"
    FOUND = "F"
    PASSAGE = "P"
    ATTACKED = "A"
    CAPTURED = "C"


OUTCOME_WORDS = {
    Outcome.LOST: "Lost",
    Outcome.FOUND: "Found",
    Outcome.PASSAGE: "Passage",
    Outcome.ATTACKED: "Attacked",
    Outcome.CAPTURED: "Captured",
}


class LossReading(StrEnum):
    """SGC-TREK-25: how many men a loss of n in six costs for each full six (Campaign.trek_losses)."""

    PER_SIX = "per_six"
    WORKED_EXAMPLE = "worked_example"


class Ending(StrEnum):
    """How a trek ends; the values are the trek's status (strategic_map.models.TrekStatus)."""

    SAFE = "safe"
    CAPTURED = "captured"
    PERISHED = "perished"


class BadTrekCode(ValueError):
    """A trek table entry that is not one of the codes P, F, C, L, L:n, A, A:n."""


class RouteRefused(ValueError):
    """A route the party cannot walk, with the reason in words."""


# --- the table's codes --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrekCode:
    """One entry of the trek table: the outcome and, for Lost and Attacked, the men lost in every six."""

    outcome: Outcome
    loss: int = 0

    def __str__(self) -> str:
        return f"{self.outcome}:{self.loss}" if self.loss else str(self.outcome)

    @property
    def words(self) -> str:
        base = OUTCOME_WORDS[self.outcome]
        return f"{base}, {self.loss} in 6 lost" if self.loss else base


# "A:2" as the map file writes it, "A2" as the rules' text does (SGC-TREK-14, -19).
_CODE = re.compile(r"^\s*([LFPAC])\s*(?::?\s*([0-9]+))?\s*$")


def parse_code(code: str) -> TrekCode:
    """The table's text ("P", "L:1", "F", "A:2", "C") as a TrekCode; only Lost and Attacked carry losses."""
    match = _CODE.match(code.upper())
    if match is None:
        raise BadTrekCode(f"{code!r} is not a trek table code (P, F, C, L, L:n, A or A:n)")
    outcome = Outcome(match.group(1))
    loss = int(match.group(2)) if match.group(2) else 0
    if loss and outcome not in (Outcome.LOST, Outcome.ATTACKED):
        raise BadTrekCode(f"{code!r}: only Lost and Attacked lose men")
    if not 0 <= loss <= 6:
        raise BadTrekCode(f"{code!r}: a loss is a number of men in every six, 1 to 6")
    return TrekCode(outcome, loss)


def table_problems(table: Mapping[str, Mapping[str, Sequence[str]]], rows: Sequence[str]) -> list[str]:
    """What is wrong with a trek table (the umpire's edit, SGC-TREK-11): every allegiance needs every row, each of
    six readable codes. Empty when it is sound."""
    problems: list[str] = []
    for allegiance in ALLEGIANCES:
        columns = table.get(allegiance)
        if not isinstance(columns, Mapping):
            problems.append(f"the {allegiance} column is missing")
            continue
        for row in rows:
            codes = columns.get(row)
            if not isinstance(codes, Sequence) or isinstance(codes, str) or len(codes) != 6:
                problems.append(f"{allegiance} {row_words(row)}: six results are needed, one for each die")
                continue
            for die, code in enumerate(codes, start=1):
                try:
                    parse_code(str(code))
                except BadTrekCode as error:
                    problems.append(f"{allegiance} {row_words(row)}, die {die}: {error}")
    return problems


def table_code(table: EpicTrekTable, hex_: MapHex, die: int) -> TrekCode:
    """SGC-TREK-04, -12: the trek table's result for a die in this hex (its row and its allegiance's column)."""
    return parse_code(table.result(allegiance=hex_.allegiance, row=hex_.trek_row, die=die))


def row_words(row: str) -> str:
    """A trek table row as a reader says it: "grand canal", "city", "hills"."""
    return row.replace("_", " ")


def hex_words(hex_: MapHex) -> str:
    """ "0812 (Parhoon, city, friendly)" or "0913 (hills, hostile)"."""
    what = [hex_.city] if hex_.city else []
    what += [row_words(hex_.trek_row), hex_.allegiance]
    return f"{hex_.label} ({', '.join(what)})"


# --- losses -------------------------------------------------------------------------------------------------------


def loss_dice_count(party: int, loss: int) -> int:
    """SGC-TREK-23: a die for each man beyond the last full six (none when nothing is lost)."""
    return party % 6 if loss > 0 and party > 0 else 0


def fixed_losses(party: int, loss: int, reading: LossReading) -> int:
    """The men lost at once from the full sixes: n each (the rule) or one each (the worked example)."""
    if loss <= 0:
        return 0
    sixes = party // 6
    return sixes * loss if reading is LossReading.PER_SIX else sixes


def losses(*, party: int, loss: int, reading: LossReading, dice: Sequence[int]) -> int:
    """SGC-TREK-22..25: the men a loss of ``loss`` in six costs a party of ``party`` (the captain counted), with one
    die per man beyond the full sixes (``dice``, loss_dice_count of them), each lost on ``loss`` or less."""
    if party < 0:
        raise ValueError("a party cannot be fewer than no men")
    wanted = loss_dice_count(party, loss)
    if len(dice) != wanted:
        raise ValueError(f"{wanted} loss dice are needed for {party} men at {loss} in 6, not {len(dice)}")
    if any(not 1 <= die <= 6 for die in dice):
        raise ValueError(f"a 1D6 roll is 1..6: {list(dice)}")
    lost = fixed_losses(party, loss, reading) + sum(1 for die in dice if die <= loss)
    return min(party, lost)


# --- the map as the trek sees it ----------------------------------------------------------------------------------


def on_map(mars: MarsMap, hex_: Hex) -> bool:
    try:
        mars.hex_at(hex_.q, hex_.r)
    except KeyError:
        return False
    return True


def city_hex(mars: MarsMap, city: City) -> MapHex:
    return mars.hex_at_offset(city.col, city.row)


def friendly_cities(mars: MarsMap) -> tuple[City, ...]:
    """SGC-TREK-10: the cities whose hex is friendly, where a trek ends safely."""
    return tuple(city for city in mars.cities if city_hex(mars, city).allegiance == FRIENDLY)


# The price of stepping into a hex on the way home: friendly ground is safest, hostile ground is worth a long detour.
STEP_COST = {FRIENDLY: 2.0, NEUTRAL: 3.0, HOSTILE: 8.0}
# A canal is a road: people, water and boats along it (the Found result follows canals).
CANAL_SAVING = 1.0
MIN_STEP_COST = min(STEP_COST.values()) - CANAL_SAVING


def step_cost(hex_: MapHex) -> float:
    return STEP_COST[hex_.allegiance] - (CANAL_SAVING if hex_.canal_type or hex_.trek_row == TREK_ROW_CITY else 0.0)


@dataclass(frozen=True, slots=True)
class WayHome:
    """The shortest way home from a hex: the friendly city it ends in, and the hexes to enter, in order."""

    city: str
    path: tuple[Hex, ...]
    cost: float


def way_home(mars: MarsMap, start: Hex) -> WayHome:
    """The cheapest walk from ``start`` to a friendly city (see the module's notes); from a friendly city, none."""
    here = mars.hex_at(start.q, start.r)
    if here.city is not None and here.allegiance == FRIENDLY:
        return WayHome(city=here.city, path=(), cost=0.0)
    best: tuple[float, int, str, tuple[Hex, ...]] | None = None
    for city in friendly_cities(mars):
        goal = city_hex(mars, city)
        path = hexgrid.find_path(
            start,
            Hex(goal.q, goal.r),
            cost=lambda _a, b: step_cost(mars.hex_at(b.q, b.r)),
            passable=lambda h: on_map(mars, h),
            min_step_cost=MIN_STEP_COST,
        )
        if path is None:
            continue
        steps = tuple(path[1:])
        cost = sum(step_cost(mars.hex_at(h.q, h.r)) for h in steps)
        candidate = (cost, len(steps), city.name, steps)
        if best is None or candidate[:3] < best[:3]:
            best = candidate
    if best is None:
        raise RouteRefused(f"no way home from {here.label}")
    return WayHome(city=best[2], path=best[3], cost=best[0])


# --- Found (SGC-TREK-15..17) ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rescue:
    """Where a Found result takes the party: the friendly city the trek ends in, and how it got there."""

    city: str
    words: str


def _sent_home(mars: MarsMap, city: City, how: str) -> Rescue:
    home = way_home(mars, Hex(*_axial(mars, city)))
    return Rescue(home.city, f"{how}; British representatives in {city.name} arrange passage home to {home.city}")


def _axial(mars: MarsMap, city: City) -> tuple[int, int]:
    hex_ = city_hex(mars, city)
    return hex_.q, hex_.r


def found_rescue(mars: MarsMap, hex_: MapHex) -> Rescue:
    """SGC-TREK-15, -16, -17 (decided): where a party found in this hex ends its trek (always safely)."""
    if hex_.city is not None:
        city = mars.city(hex_.city)
        if hex_.allegiance == FRIENDLY:
            return Rescue(city.name, f"found in {city.name}, a friendly city")
        return _sent_home(mars, city, f"found in {city.name}")
    # Along the canal(s) it was found on: the nearest city on them that is not hostile, counted in canal hexes.
    position = (hex_.col, hex_.row)
    candidates: list[tuple[int, int, str, str]] = []
    for canal in mars.canals:
        if canal.id not in hex_.canal_ids or position not in canal.hexes:
            continue
        here = canal.hexes.index(position)
        for name in canal.waypoints:
            city = mars.city(name)
            allegiance = city_hex(mars, city).allegiance
            if allegiance == HOSTILE or (city.col, city.row) not in canal.hexes:
                continue
            along = abs(canal.hexes.index((city.col, city.row)) - here)
            candidates.append((along, 0 if allegiance == FRIENDLY else 1, city.name, canal.name))
    if candidates:
        _along, rank, name, canal_name = min(candidates)
        city = mars.city(name)
        how = f"found on the {canal_name} and led along it to {city.name}"
        return Rescue(city.name, how) if rank == 0 else _sent_home(mars, city, how)
    home = way_home(mars, Hex(hex_.q, hex_.r))
    why = "found away from any canal" if not hex_.canal_ids else "found on a canal with only hostile cities on it"
    return Rescue(home.city, f"{why}; taken to {home.city}, the nearest friendly city")


# --- one roll of the trek -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollResult:
    """What one die on the trek table did to the party."""

    code: TrekCode
    losses: int
    party_after: int
    # None: the trek goes on (Lost: the same hex again; Passage, Attacked: the next hex).
    ending: Ending | None
    end_city: str
    moves_on: bool
    words: str


def roll_result(
    *, mars: MarsMap, hex_: MapHex, code: TrekCode, party: int, loss_dice: Sequence[int], reading: LossReading
) -> RollResult:
    """SGC-TREK-10, -13..20, -26, -28: the party of ``party`` men rolled ``code`` in ``hex_``."""
    lost = losses(party=party, loss=code.loss, reading=reading, dice=loss_dice)
    after = party - lost
    said = [code.words]
    if lost:
        said.append(f"{lost} {'man' if lost == 1 else 'men'} lost, {after} left")

    def done(ending: Ending | None, words: str, *, end_city: str = "", moves_on: bool = False) -> RollResult:
        return RollResult(code, lost, after, ending, end_city, moves_on, "; ".join([*said, words]))

    if after == 0:
        # SGC-TREK-26: the captain is the last of his party to die, so this is his end too.
        return done(Ending.PERISHED, "the whole party is lost, the captain last of all")
    if code.outcome is Outcome.CAPTURED:
        return done(Ending.CAPTURED, "the party is taken captive: the captain's sailing days are over for now")
    if code.outcome is Outcome.FOUND:
        rescue = found_rescue(mars, hex_)
        return done(Ending.SAFE, f"{rescue.words}: safe", end_city=rescue.city)
    if code.outcome is Outcome.LOST:
        return done(None, "no way through: the party tries this hex again")
    if hex_.city is not None and hex_.allegiance == FRIENDLY:
        return done(Ending.SAFE, f"the party reaches {hex_.city}, a friendly city: safe", end_city=hex_.city)
    return done(None, "the party may go on to the next hex", moves_on=True)


# --- the route ------------------------------------------------------------------------------------------------------


def route_check(mars: MarsMap, here: Hex, route: Sequence[Hex]) -> tuple[Hex, ...]:
    """SGC-TREK-28: a route is hexes on the map, each next to the one before, the first next to the party."""
    if len(route) > MAX_ROUTE:
        raise RouteRefused(f"a route is at most {MAX_ROUTE} hexes; choose the next ones later")
    previous = here
    for number, step in enumerate(route, start=1):
        if not on_map(mars, step):
            raise RouteRefused(f"hex {number} of the route, ({step.q}, {step.r}), is not on the map")
        if hexgrid.distance(previous, step) != 1:
            where = mars.hex_at(step.q, step.r).label
            before = mars.hex_at(previous.q, previous.r).label
            whose = "the party's hex" if number == 1 else "the hex before it"
            raise RouteRefused(f"hex {number} of the route, {where}, is not next to {whose}, {before}")
        previous = step
    return tuple(route)


@dataclass(frozen=True, slots=True)
class NextHex:
    """The hex the party enters after a Passage or an Attacked it survived, and the route left after it."""

    hex: Hex
    route: tuple[Hex, ...]
    by_way_home: bool


def next_hex(mars: MarsMap, here: Hex, route: Sequence[Hex]) -> NextHex:
    """SGC-TREK-28: the first hex of the player's route, or with none chosen the shortest way home's next hex."""
    if route and on_map(mars, route[0]) and hexgrid.distance(here, route[0]) == 1:
        return NextHex(route[0], tuple(route[1:]), by_way_home=False)
    home = way_home(mars, here)
    if not home.path:
        raise RouteRefused("the party is already in a friendly city")
    return NextHex(home.path[0], (), by_way_home=True)


def roll_words(*, hex_: MapHex, die: int, result: RollResult, note: str = "") -> str:
    """A roll in the log, in words."""
    words = f"{hex_words(hex_)}: rolled {die}, {result.words}"
    return f"{note}. {words}" if note else words


# --- the calendar: a roll is a week -----------------------------------------------------------------------------

# The rules roll once a week (the number of rolls is the weeks the journey took); a campaign's trek_days_per_roll
# says how many days a roll is (campaign.models.DAYS_PER_ROLL_AS_WRITTEN as written, fewer as a house rule).


def next_roll_day(*, started_day: int, last_roll_day: int | None, days_per_roll: int) -> int:
    """The campaign day of a trek's next roll: its first (the landing hex, SGC-TREK-03) on the day after it set out,
    each later one ``days_per_roll`` days after the one before (a week as written: a roll is a week, SGC-TREK and
    the checklist's note). Reckoned from the last roll, so an umpire's change of the setting moves the next."""
    if last_roll_day is None:
        return started_day + 1
    return last_roll_day + max(days_per_roll, 1)
