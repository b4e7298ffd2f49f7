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
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import flying, maps, ordnance_play, setup_rules, special_rules, victory
from battles.rules.sky_galleons.close_action import PartyError, all_home
from battles.rules.sky_galleons.flying import FlyingParty
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import (
    NO_PARTY,
    Criticals,
    ShipRecord,
    altitude_level,
    altitude_levels,
    marine_arms_known,
    ship_record_from_class,
    ship_record_from_design,
    tstrs,
)

SCENARIO_DIR = Path(__file__).parent / "scenarios"
FORMAT = "red-captain/sky-galleons-scenario"
FORMAT_VERSION = 1

SETUP_KINDS = ("fixed", "placement")
VICTORY_KINDS = victory.KINDS
# The special rules this version of the ruleset enforces; a scenario naming another is refused, never
# silently played without it.
SPECIAL_RULES = special_rules.NAMES
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
    # Where the side's ships may start (setup_rules.parse_side_setup): area, edge, altitude, landed.
    setup: Mapping[str, JSON] = field(default_factory=dict)


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
    # The special rules with their parameters (special_rules.parse_rule), the victory's (victory.py), a
    # fixed set-up order (side ids; empty: roll for it) and whether the sides enter by opposite edges.
    rules: tuple[Mapping[str, JSON], ...] = ()
    victory_params: Mapping[str, JSON] = field(default_factory=dict)
    setup_order: tuple[str, ...] = ()
    opposite_edges: bool = False

    def rules_json(self) -> dict[str, JSON]:
        """What the ruleset keeps on its board of the scenario's rules (Board.scenario_rules)."""
        return {
            "sides": {side.id: dict(side.setup) for side in self.sides},
            "rules": [dict(rule) for rule in self.rules],
            "victory": dict(self.victory_params),
            "order": list(self.setup_order),
            "opposite_edges": self.opposite_edges,
        }

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
    """The map: a base map file (maps.py) with the scenario's own terrain and zones, or a map of its own."""
    try:
        return maps.build_terrain(data)
    except maps.MapError as error:
        raise ScenarioError(str(error)) from error


SHIP_KEYS = ("name", "class", "design", "record", "crew_quality", "position", "facing", "altitude", "role")
# Added with the set-up rules: the marines' arms (SG-SAF-05), the crew's quality in boarding actions
# (SG-HM-07), a landed start (SG-SCN-23/36) and the owner's standing order for casualties (SG-DMG-18).
SHIP_MORE_KEYS = ("marine_arms", "boarding_quality", "landed", "casualty_order")
SIDE_DEFAULTS = ("crew_quality", "marine_arms", "boarding_quality", "high_martian")


def _ship(
    data: Any, side: str, where: str, terrain: Terrain, default_quality: str, defaults: Mapping[str, Any] | None = None
) -> ShipSetup:
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: must be an object")
    _unknown(data, (*SHIP_KEYS, *SHIP_MORE_KEYS, *ordnance_play.SHIP_KEYS, *FLYING_SHIP_KEYS), where)
    entry_keys = set(data)
    data = {**(defaults or {}), **data}
    name = _need(data, "name", str, where)
    quality = data.get("crew_quality", default_quality)
    order = _crew_entries(data, where, quality)
    position = _offset_hex(data.get("position"), f"{where}.position", terrain)
    facing = data.get("facing", 0)
    if type(facing) is not int or facing not in range(6):
        raise ScenarioError(f"{where}: facing must be 0-5 (0 = north, clockwise), not {facing!r}")
    landed = data.get("landed", False)
    if type(landed) is not bool:
        raise ScenarioError(f"{where}: landed is true or false")
    ground = terrain.ground(position)
    altitude = ground if landed else _altitude(data.get("altitude", "M"), where)  # landed: on the land, as given or not
    role = data.get("role", "warship")
    if role not in ("warship", "merchant"):
        raise ScenarioError(f"{where}: role must be 'warship' or 'merchant', not {role!r}")
    if sum(key in data for key in ("class", "design", "record")) != 1:
        raise ScenarioError(f"{where}: give the ship a 'class' from the catalog, a 'design' or a 'record', one of them")
    try:
        if "record" in data:
            record = _ship_entering(
                data, entry_keys, name=name, side=side, position=position, facing=facing, altitude=altitude
            )
        else:
            source = _need(data, "class", str, where) if "class" in data else data["design"]
            build = ship_record_from_class if "class" in data else ship_record_from_design
            record = build(
                source, name=name, crew_quality=quality, side=side, position=position, facing=facing, altitude=altitude
            )
            record = flying.equip(record, data)  # High Martians and conveyors (SG-HM-07, SG-THR-01)
    except (KeyError, ValueError, LookupError, TypeError) as error:
        raise ScenarioError(f"{where}: {error}") from error
    try:  # extra tether mines, a landed start, and the fitting checks (SG-SMT-02/09)
        record = ordnance_play.fit_ship(record, data, terrain)
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from error
    _check_ceiling(record, data, where, name=name, altitude=altitude, ground=ground, landed=landed)
    record = replace(
        record,
        status="landed" if landed else record.status,
        casualty_order=record.casualty_order if order is None else tuple(str(post) for post in order),
    )
    return ShipSetup(record, role)


def _crew_entries(data: Mapping[str, Any], where: str, quality: Any) -> Any:
    """Check a ship entry's crew: its qualities (SG-HM-07), the casualty order (SG-DMG-18) and the marines'
    arms (SG-SAF-05); return the casualty order as given (None when the entry gives none)."""
    qualities = tstrs("ship_record", "crew_qualities")
    for key in ("crew_quality", "boarding_quality"):
        if data.get(key, quality) not in qualities:
            raise ScenarioError(f"{where}: {key} {data[key]!r} is not one of {list(qualities)}")
    order = data.get("casualty_order")
    posts = tstrs("casualty_order", "posts")
    if order is not None and not (isinstance(order, list) and sorted(order) == sorted(posts)):
        raise ScenarioError(f"{where}: casualty_order names every post once: {list(posts)}")
    arms = data.get("marine_arms")
    if arms is not None and arms not in marine_arms_known():
        raise ScenarioError(f"{where}: marine_arms {arms!r} is not one of {list(marine_arms_known())}")
    return order


def _ship_entering(
    data: Mapping[str, Any], entry_keys: set[str], *, name: str, side: str, position: Hex, facing: int, altitude: str
) -> ShipRecord:
    """A ship entering with the record she carries from earlier battles (a campaign ship): her own crew
    quality and High Martian flags unless the entry itself says otherwise. Raises what record_entering and
    flying.equip raise; the caller names the entry."""
    record = record_entering(data["record"], name=name, side=side, position=position, facing=facing)
    record = replace(record, altitude=altitude)
    own = {
        "crew_quality": record.crew_quality,
        "high_martian": record.high_martian,
        "boarding_quality": record.boarding_quality,
        "marine_arms": record.marine_arms,
        "throckmorton_conveyors": record.conveyors,
    }
    explicit = {key: data[key] for key in own if key in entry_keys}
    record = flying.equip(record, {k: v for k, v in {**own, **explicit}.items() if v is not None})
    if "crew_quality" in explicit:
        record = replace(record, crew_quality=str(explicit["crew_quality"]))
    return record


def _check_ceiling(
    record: ShipRecord, data: Mapping[str, Any], where: str, *, name: str, altitude: str, ground: str, landed: bool
) -> None:
    """A ship starts no higher than her ceiling (SG-ALT-03) and, unless landed, above the ground."""
    ceiling = record.max_altitude
    if ceiling is None or altitude_level(altitude) > altitude_level(ceiling):
        raise ScenarioError(f"{where}: {name} cannot fly at {altitude}; its ceiling is {ceiling} (SG-ALT-03)")
    if not landed and altitude_level(altitude) <= altitude_level(ground):
        raise ScenarioError(f"{where}: {name} starts at {altitude}, in the ground at {data['position']}")


def record_entering(data: Any, *, name: str, side: str, position: Hex, facing: int) -> ShipRecord:
    """A ship record carried over from earlier battles (a campaign ship's), ready for a new battle: her damage,
    crew casualties, lost guns and spent ordnance as they are; what belongs to one battle only is reset: the
    turns her guns last fired, jammed guns (a day's work frees them), portable guns' training, the stuns,
    helm locks and officer checks of the last fight, a jammed rudder or lifters and a boiler's lost pressure
    (freed and recovered in the days since), her fire (put out, or she would not be here), her movement
    history, her marines' and shotguns' last shots, grapples, and her boarding party and boarders, back at
    their posts (SG-BRD-04). Raises ValueError for a record that does not parse."""
    record = ShipRecord.from_json(data)
    if record.status == "crashed":
        raise ValueError(f"{record.name} has crashed: she cannot enter a battle")
    if record.party.men or record.boarders.men:
        try:
            record = all_home(record)
        except PartyError as error:
            raise ValueError(str(error)) from error
    old = record.criticals
    return replace(
        record,
        name=name,
        side=side,
        position=position,
        facing=facing,
        status="flying",
        fire=0,
        guns=tuple(replace(gun, last_fired=None, jammed=False, trained_turn=None) for gun in record.guns),
        criticals=Criticals(
            screw_mast_hits=old.screw_mast_hits, boiler_blown=old.boiler_blown, jury_rigged=old.jury_rigged
        ),
        party=NO_PARTY,
        boarders=NO_PARTY,
        boarding=None,
        grappled_with=(),
        marines_fired=None,
        shotguns_spent=None,
        agility_speed=None,
    )


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


SCENARIO_KEYS = (
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
)
SIDE_KEYS = ("id", "name", "ships", "ai", "setup", "flying_parties", *SIDE_DEFAULTS, *ordnance_play.SIDE_KEYS)


def parse(data: Any) -> Scenario:
    """Check a scenario (the JSON format in docs/scenarios.md) and return it ready to set up."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    _unknown(data, SCENARIO_KEYS, "scenario")
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
    _unknown(setup, ("kind", "min_distance", "note", "order", "opposite_edges"), "setup")
    min_distance = _int(setup, "min_distance", "setup", 0)
    sides_data = _need(data, "sides", list, "scenario")
    names: set[str] = set()  # every ship's and flying party's, across the sides: names must differ
    sides = [_side(side, f"sides[{s}]", terrain, default_quality, names) for s, side in enumerate(sides_data)]
    if len(sides) < 2 or len({side.id for side in sides}) != len(sides):
        raise ScenarioError("scenario: a battle needs two or more sides with distinct ids")
    rosters = {side.id: [ship.record.name for ship in side.ships] for side in sides}
    rules, won = _rules_and_victory(data, rosters, terrain)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError("scenario: options must be an object")
    try:
        bombarding = ordnance_play.victory_side(won, [(side.id, side.ground) for side in sides])
    except ValueError as error:
        raise ScenarioError(str(error)) from error
    order, opposite = _setup_order(setup, rosters)
    scenario = Scenario(
        slug=slug,
        title=title,
        terrain=terrain,
        sides=tuple(sides),
        wind=wind,
        turn_limit=_int(data, "turn_limit", "scenario", DEFAULT_TURN_LIMIT, minimum=1),
        setup=str(setup["kind"]),
        min_distance=min_distance,
        special_rules=tuple(str(rule["rule"]) for rule in rules),
        victory=str(won["kind"]),
        options=options,
        victory_side=bombarding,
        rules=rules,
        victory_params=won,
        setup_order=order,
        opposite_edges=opposite,
    )
    _check_distances(scenario)
    _check_set_up(scenario)
    return scenario


def _side(side: Any, where: str, terrain: Terrain, default_quality: str, names: set[str]) -> SideSetup:
    """One side of a scenario: its ships, ground targets, flying parties and set-up. Adds their names to
    ``names``, refusing one already there."""
    if not isinstance(side, dict):
        raise ScenarioError(f"{where}: must be an object")
    _unknown(side, SIDE_KEYS, where)
    side_id = _need(side, "id", str, where)
    ships_data = _need(side, "ships", list, where)
    try:
        ground = ordnance_play.ground_setup(side, side_id, where, terrain, default_quality)
    except ValueError as error:
        raise ScenarioError(str(error)) from error
    if not ships_data and not ground:
        raise ScenarioError(f"{where}: a side needs at least one ship")
    try:
        start = setup_rules.parse_side_setup(side.get("setup"), f"{where}.setup", terrain)
    except ValueError as error:
        raise ScenarioError(str(error)) from error
    defaults = {key: side[key] for key in SIDE_DEFAULTS if key in side}
    if start["landed"]:
        defaults["landed"] = True
    ships = tuple(
        _ship(ship, side_id, f"{where}.ships[{n}]", terrain, default_quality, defaults)
        for n, ship in enumerate(ships_data)
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
    name = str(side.get("name", side_id))
    return SideSetup(side_id, name, ships, ai, ground=ground, flyers=flyers, setup=start)


def _rules_and_victory(
    data: Mapping[str, Any], rosters: dict[str, list[str]], terrain: Terrain
) -> tuple[tuple[dict[str, JSON], ...], dict[str, JSON]]:
    """The scenario's special rules and its victory condition, checked against the sides' rosters."""
    rules_data = data.get("special_rules", [])
    if not isinstance(rules_data, list):
        raise ScenarioError("scenario: special_rules is a list")
    try:
        rules = tuple(
            special_rules.parse_rule(rule, f"special_rules[{n}]", rosters, terrain) for n, rule in enumerate(rules_data)
        )
        won = victory.parse_victory(data.get("victory"), rosters)
    except (ValueError, LookupError) as error:
        raise ScenarioError(f"scenario: {error}") from error
    return rules, won


def _setup_order(setup: Mapping[str, Any], rosters: Mapping[str, list[str]]) -> tuple[tuple[str, ...], bool]:
    """The order the sides set up in (every side once, or none given) and whether they start on opposite
    edges of the map."""
    order = setup.get("order", [])
    if order and sorted(order) != sorted(rosters):
        raise ScenarioError(f"setup.order: name every side once, in the order they set up: {list(rosters)}")
    opposite = setup.get("opposite_edges", False)
    if type(opposite) is not bool:
        raise ScenarioError("setup.opposite_edges is true or false")
    return tuple(str(side) for side in order), opposite


def _check_set_up(scenario: Scenario) -> None:
    """Every ship starts where its side's set-up allows (setup_rules); the sides entering by an edge each
    keep to one, opposite each other when the scenario says so."""
    entries: dict[str, str] = {}
    for side in scenario.sides:
        for ship in side.ships:
            record = ship.record
            assert record.position is not None
            named = str(side.setup.get("edge", "any"))
            edges = (entries[side.id],) if side.id in entries else maps.EDGES if named == "any" else (named,)
            why = setup_rules.spot_problem(
                scenario.terrain, side.setup, record.position, record.facing, record.altitude, edges=edges
            )
            if why is not None:
                raise ScenarioError(f"{record.name} of {side.id} cannot start there: {why}")
            edge = maps.edge_of(scenario.terrain, record.position)
            if side.setup.get("area") == "edge" and edge is not None:
                entries.setdefault(side.id, edge)
    if scenario.opposite_edges:
        used = list(entries.values())
        if len(used) != 2 or maps.OPPOSITE[used[0]] != used[1]:
            raise ScenarioError(f"setup.opposite_edges: two sides enter by opposite edges, not {entries}")


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
