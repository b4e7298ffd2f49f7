"""Sky Galleons scenarios as data: the JSON format (docs/scenarios.md), its checks, and the scenario library.

A scenario file names its map, wind, sides and ships (by catalog class or by design), where each ship
starts, how the sides set up, the special rules and the victory condition. Positions are odd-q offset
``[col, row]`` on the tactical map, as a printed map numbers its hexes; facings are 0-5 clockwise from
north (hexgrid). ``load(slug)`` reads one of the scenarios shipped in ``scenarios/``; ``parse(data)``
checks any scenario and returns it in the form the ruleset sets a battle up from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import flying, ordnance_play
from battles.rules.sky_galleons.flying import FlyingParty
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.record import (
    ShipRecord,
    altitude_level,
    altitude_levels,
    ship_record_from_class,
    ship_record_from_design,
    tstrs,
)

SCENARIO_DIR = Path(__file__).parent / "scenarios"
FORMAT = "red-captain/sky-galleons-scenario"
FORMAT_VERSION = 1

SETUP_KINDS = ("fixed", "placement")
VICTORY_KINDS = ("last_flying", ordnance_play.BOMBARDMENT)
# The special rules this version of the ruleset enforces; a scenario naming another is refused, never
# silently played without it.
SPECIAL_RULES = ("multiplayer_initiative",)
DEFAULT_MAP = (30, 22)  # DESIGN.md "Tactical map"
DEFAULT_TURN_LIMIT = 40


class ScenarioError(ValueError):
    """A scenario that cannot be played; the message says where and why."""


@dataclass(frozen=True)
class ShipSetup:
    """One ship as the scenario places it (``record`` carries position, facing and altitude)."""

    record: ShipRecord
    role: str = "warship"  # "warship" or "merchant": merchants run (AI)


@dataclass(frozen=True)
class SideSetup:
    id: str
    name: str
    ships: tuple[ShipSetup, ...]
    ai: Mapping[str, Any] = field(default_factory=dict)
    # Ground batteries, mines on the ground and city or fortress hexes (ordnance_play.ground_setup).
    ground: tuple[ShipRecord, ...] = ()
    # Flying parties on the map at the start (flying.py; the Great Raid's High Martians on the kraag).
    flyers: tuple[FlyingParty, ...] = ()


@dataclass(frozen=True)
class Scenario:
    slug: str
    title: str
    terrain: Terrain
    sides: tuple[SideSetup, ...]
    wind: int | str | None
    turn_limit: int
    setup: str
    min_distance: int
    special_rules: tuple[str, ...]
    victory: str
    options: Mapping[str, Any]
    victory_side: str = ""  # the bombarding side of a bombardment victory (SG-SCN-25)

    @property
    def ships(self) -> tuple[ShipRecord, ...]:
        """Every record on the board: each side's ships, then its ground (emplacements)."""
        return tuple(record for side in self.sides for record in (*(s.record for s in side.ships), *side.ground))

    @property
    def flyers(self) -> tuple[FlyingParty, ...]:
        return tuple(party for side in self.sides for party in side.flyers)


def available() -> list[str]:
    """The slugs of the scenarios shipped with the ruleset, in file order."""
    return sorted(path.stem for path in SCENARIO_DIR.glob("*.json"))


@cache
def _raw(slug: str) -> str:
    path = SCENARIO_DIR / f"{slug}.json"
    if not path.is_file():
        raise ScenarioError(f"no scenario {slug!r}; the scenarios are {', '.join(available())}")
    return path.read_text(encoding="utf-8")


def load_data(slug: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_raw(slug))
    return data


def load(slug: str) -> Scenario:
    return parse(load_data(slug))


# --- checking ------------------------------------------------------------------------------------------


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise ScenarioError(f"{where}: {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ScenarioError(f"{where}: {key!r} must be {_kind_name(kind)}, not {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(
        {int: "an integer", str: "a string", list: "a list", dict: "an object"}.get(k, k.__name__) for k in kinds
    )


def _int(data: Mapping[str, Any], key: str, where: str, default: int, minimum: int = 0) -> int:
    value = data.get(key, default)
    if type(value) is not int or value < minimum:
        raise ScenarioError(f"{where}: {key!r} must be an integer of at least {minimum}, not {value!r}")
    return value


def _unknown(data: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    extra = sorted(set(data) - set(known))
    if extra:
        raise ScenarioError(f"{where}: unknown keys {extra}; allowed {sorted(known)}")


def _offset_hex(value: Any, where: str, terrain: Terrain | None = None) -> Hex:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise ScenarioError(f"{where}: a hex is [col, row], not {value!r}")
    hex_ = hexgrid.from_odd_q(value[0], value[1])
    if terrain is not None and not terrain.on_map(hex_):
        raise ScenarioError(f"{where}: {value} is off the {terrain.cols} x {terrain.rows} map")
    return hex_


def _altitude(value: Any, where: str) -> str:
    if value not in altitude_levels():
        raise ScenarioError(f"{where}: altitude {value!r} is not one of {list(altitude_levels())}")
    return str(value)


def _terrain(data: Any) -> Terrain:
    where = "map"
    if not isinstance(data, dict):
        raise ScenarioError("map: must be an object")
    _unknown(data, ("cols", "rows", "terrain", "note"), where)
    cols = _int(data, "cols", where, DEFAULT_MAP[0], minimum=4)
    rows = _int(data, "rows", where, DEFAULT_MAP[1], minimum=4)
    bare = Terrain(cols, rows)
    heights: dict[Hex, str] = {}
    for n, entry in enumerate(data.get("terrain", [])):
        spot = f"map.terrain[{n}]"
        if not isinstance(entry, dict):
            raise ScenarioError(f"{spot}: must be an object")
        _unknown(entry, ("hex", "height", "kind"), spot)
        heights[_offset_hex(entry.get("hex"), spot, bare)] = _altitude(entry.get("height"), spot)
    return Terrain(cols, rows, heights)


def _ship(data: Any, side: str, where: str, terrain: Terrain, default_quality: str) -> ShipSetup:
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: must be an object")
    keys = ("name", "class", "design", "crew_quality", "position", "facing", "altitude", "role")
    _unknown(data, (*keys, *ordnance_play.SHIP_KEYS, *FLYING_SHIP_KEYS), where)
    name = _need(data, "name", str, where)
    quality = data.get("crew_quality", default_quality)
    if quality not in tstrs("ship_record", "crew_qualities"):
        raise ScenarioError(
            f"{where}: crew_quality {quality!r} is not one of {list(tstrs('ship_record', 'crew_qualities'))}"
        )
    position = _offset_hex(data.get("position"), f"{where}.position", terrain)
    facing = data.get("facing", 0)
    if type(facing) is not int or facing not in range(6):
        raise ScenarioError(f"{where}: facing must be 0-5 (0 = north, clockwise), not {facing!r}")
    altitude = _altitude(data.get("altitude", "M"), where)
    role = data.get("role", "warship")
    if role not in ("warship", "merchant"):
        raise ScenarioError(f"{where}: role must be 'warship' or 'merchant', not {role!r}")
    if ("class" in data) == ("design" in data):
        raise ScenarioError(f"{where}: give the ship a 'class' from the catalog or a 'design', one of the two")
    source = _need(data, "class", str, where) if "class" in data else data["design"]
    build = ship_record_from_class if "class" in data else ship_record_from_design
    try:
        record = build(
            source, name=name, crew_quality=quality, side=side, position=position, facing=facing, altitude=altitude
        )
        record = flying.equip(record, data)  # High Martians and conveyors (SG-HM-07, SG-THR-01)
    except (KeyError, ValueError, LookupError) as error:
        raise ScenarioError(f"{where}: {error}") from error
    try:  # extra tether mines, a landed start, and the fitting checks (SG-SMT-02/09)
        record = ordnance_play.fit_ship(record, data, terrain)
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from error
    ceiling = record.max_altitude
    if ceiling is None or altitude_level(altitude) > altitude_level(ceiling):
        raise ScenarioError(f"{where}: {name} cannot fly at {altitude}; its ceiling is {ceiling} (SG-ALT-03)")
    if record.status != "landed" and altitude_level(altitude) <= altitude_level(terrain.ground(position)):
        raise ScenarioError(f"{where}: {name} starts at {altitude}, in the ground at {data['position']}")
    return ShipSetup(record, role)


FLYING_SHIP_KEYS = ("high_martian", "boarding_quality", "throckmorton_conveyors", "marine_arms")


def _flying_parties(
    data: Any, side: str, where: str, terrain: Terrain, default_quality: str
) -> tuple[FlyingParty, ...]:
    """A side's flying parties on the map at the start (flying.scenario_party; docs/scenarios.md)."""
    if not isinstance(data, list):
        raise ScenarioError(f"{where}: flying_parties must be a list")
    found = []
    for n, entry in enumerate(data):
        spot = f"{where}.flying_parties[{n}]"
        if not isinstance(entry, dict):
            raise ScenarioError(f"{spot}: must be an object")
        position = _offset_hex(entry.get("position"), f"{spot}.position", terrain)
        try:
            found.append(
                flying.scenario_party(
                    entry, side=side, position=position, terrain=terrain, default_quality=default_quality
                )
            )
        except ValueError as error:
            raise ScenarioError(f"{spot}: {error}") from error
    return tuple(found)


def parse(data: Any) -> Scenario:
    """Check a scenario (the JSON format in docs/scenarios.md) and return it ready to set up."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    _unknown(
        data,
        (
            "format",
            "version",
            "slug",
            "title",
            "source",
            "clauses",
            "description",
            "map",
            "wind",
            "turn_limit",
            "setup",
            "sides",
            "special_rules",
            "victory",
            "options",
            "crew_quality",
        ),
        "scenario",
    )
    if data.get("format", FORMAT) != FORMAT or data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise ScenarioError(f"scenario: format must be {FORMAT!r} version {FORMAT_VERSION}")
    slug = _need(data, "slug", str, "scenario")
    title = _need(data, "title", str, "scenario")
    terrain = _terrain(data.get("map", {}))
    wind = data.get("wind")
    if not (wind is None or wind == "roll" or (type(wind) is int and wind in range(6))):
        raise ScenarioError('scenario: wind is null, "roll" or the hexside 0-5 it blows from')
    default_quality = data.get("crew_quality", "trained")  # SG-SCN default: Trained
    setup = data.get("setup", {"kind": "fixed"})
    if not isinstance(setup, dict) or setup.get("kind") not in SETUP_KINDS:
        raise ScenarioError(f"scenario: setup.kind must be one of {list(SETUP_KINDS)}")
    _unknown(setup, ("kind", "min_distance", "note"), "setup")
    min_distance = _int(setup, "min_distance", "setup", 0)
    sides_data = _need(data, "sides", list, "scenario")
    sides: list[SideSetup] = []
    names: set[str] = set()
    for s, side in enumerate(sides_data):
        where = f"sides[{s}]"
        if not isinstance(side, dict):
            raise ScenarioError(f"{where}: must be an object")
        _unknown(side, ("id", "name", "ships", "ai", "flying_parties", *ordnance_play.SIDE_KEYS), where)
        side_id = _need(side, "id", str, where)
        ships_data = _need(side, "ships", list, where)
        try:
            ground = ordnance_play.ground_setup(side, side_id, where, terrain, default_quality)
        except ValueError as error:
            raise ScenarioError(str(error)) from error
        if not ships_data and not ground:
            raise ScenarioError(f"{where}: a side needs at least one ship")
        ships = tuple(
            _ship(ship, side_id, f"{where}.ships[{n}]", terrain, default_quality) for n, ship in enumerate(ships_data)
        )
        for record in (*(ship.record for ship in ships), *ground):
            if record.name in names:
                raise ScenarioError(f"{where}: two ships are called {record.name!r}; names must differ")
            names.add(record.name)
        ai = side.get("ai", {})
        if not isinstance(ai, dict):
            raise ScenarioError(f"{where}: ai must be an object")
        flyers = _flying_parties(side.get("flying_parties", []), side_id, where, terrain, default_quality)
        for party in flyers:
            if party.name in names:
                raise ScenarioError(f"{where}: two ships or flying parties are called {party.name!r}")
            names.add(party.name)
        sides.append(SideSetup(side_id, str(side.get("name", side_id)), ships, ai, ground=ground, flyers=flyers))
    if len(sides) < 2 or len({side.id for side in sides}) != len(sides):
        raise ScenarioError("scenario: a battle needs two or more sides with distinct ids")
    rules = tuple(data.get("special_rules", []))
    unknown_rules = sorted(set(rules) - set(SPECIAL_RULES))
    if unknown_rules:
        raise ScenarioError(f"scenario: special rules {unknown_rules} are not played yet; known: {list(SPECIAL_RULES)}")
    victory = data.get("victory", {"kind": "last_flying"})
    if not isinstance(victory, dict) or victory.get("kind") not in VICTORY_KINDS:
        raise ScenarioError(f"scenario: victory.kind must be one of {list(VICTORY_KINDS)}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError("scenario: options must be an object")
    try:
        bombarding = ordnance_play.victory_side(victory, [(side.id, side.ground) for side in sides])
    except ValueError as error:
        raise ScenarioError(str(error)) from error
    scenario = Scenario(
        slug=slug,
        title=title,
        terrain=terrain,
        sides=tuple(sides),
        wind=wind,
        turn_limit=_int(data, "turn_limit", "scenario", DEFAULT_TURN_LIMIT, minimum=1),
        setup=str(setup["kind"]),
        min_distance=min_distance,
        special_rules=rules,
        victory=str(victory["kind"]),
        options=options,
        victory_side=bombarding,
    )
    _check_distances(scenario)
    return scenario


def _check_distances(scenario: Scenario) -> None:
    """Starting positions keep the set-up distance from every other side's ships (SG-SCN-04)."""
    ships = [ship for ship in scenario.ships if ship.emplacement is None]  # the ground is where the map puts it
    for a in ships:
        for b in ships:
            if a.side < b.side and a.position is not None and b.position is not None:
                apart = hexgrid.distance(a.position, b.position)
                if apart < scenario.min_distance:
                    raise ScenarioError(
                        f"{a.name} and {b.name} start {apart} hexes apart; the set-up asks for {scenario.min_distance}"
                    )


def catalog_check() -> None:
    """Every shipped scenario parses (used by tests and the ``--list`` command)."""
    for slug in available():
        load(slug)
