"""The strategic campaign map around Syrtis Major, as typed read-only records.

Pure Python (no Django): the voyage, encounter and trek code and the Django loader read the same records.
The map itself is ``data/mars-syrtis-major-map.json``; ``data/mars-syrtis-major-provenance.json`` says
which parts the rules state and which are designed stand-ins, so every screen can label them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battles.engine.hexgrid import from_odd_q
from battles.engine.jsonread import read_int, read_json_object, read_opt_int, read_opt_str, read_str

DATA_DIR = Path(__file__).resolve().parent / "data"
MAP_FILE = DATA_DIR / "mars-syrtis-major-map.json"
PROVENANCE_FILE = DATA_DIR / "mars-syrtis-major-provenance.json"

STATED = "stated"
DESIGNED_STAND_IN = "designed_stand_in"

# Trek table rows that are not terrains: the row is city, else canal, else the hex's base terrain.
TREK_ROW_CITY = "city"
TREK_ROW_CANAL = {"grand": "grand_canal", "petty": "petty_canal"}


class UnknownMapName(KeyError):
    """A hex, city or territory that is not on the map. Carries the names that are."""

    def __init__(self, kind: str, name: object, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(name)

    def __str__(self) -> str:
        # KeyError would print only the repr of the key; say what was looked for and what exists.
        if not self.known:
            return f"unknown {self.kind} {self.name!r}: not on the map"
        shown = ", ".join(self.known[:40]) + (" ..." if len(self.known) > 40 else "")
        return f"unknown {self.kind} {self.name!r}; known: {shown}"


# --- small typed readers for the JSON ------------------------------------------------------------------


# --- records -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartProvenance:
    """Whether one part of the map is stated by the rules or a designed stand-in, and why."""

    part: str
    status: str
    note: str
    lines: tuple[int, ...]

    @property
    def is_stand_in(self) -> bool:
        return self.status == DESIGNED_STAND_IN


@dataclass(frozen=True, slots=True)
class Territory:
    """An encounter territory: an encounter on 1D6 <= move_through (moving) or <= patrol (patrolling).

    British territory has no numbers (None): the rules give it no encounter roll.
    """

    name: str
    move_through: int | None
    patrol: int | None
    note: str | None
    provenance: PartProvenance

    @property
    def has_encounters(self) -> bool:
        return self.move_through is not None


@dataclass(frozen=True, slots=True)
class MapHex:
    col: int
    row: int
    q: int
    r: int
    label: str
    terrain: str
    # The terrain under a city; the trek table uses it when no city or canal row applies.
    base_terrain: str
    region: str | None
    territory: str
    allegiance: str
    allegiance_reason: str
    british: bool
    city: str | None
    site: str | None
    canal_type: str | None
    canal_ids: tuple[str, ...]
    # (moving through, patrolling) from the territory; None where there is no encounter roll.
    encounter: tuple[int, int] | None

    @property
    def axial(self) -> tuple[int, int]:
        return (self.q, self.r)

    @property
    def trek_row(self) -> str:
        """The Epic Trek table row for this hex: city, else canal, else its base terrain."""
        if self.city is not None:
            return TREK_ROW_CITY
        if self.canal_type is not None:
            return TREK_ROW_CANAL[self.canal_type]
        return self.base_terrain


@dataclass(frozen=True, slots=True)
class City:
    name: str
    col: int
    row: int
    label: str
    owner: str
    role: str
    # Not in the Sky Galleons rules' list; a club may leave it off.
    optional: bool
    is_start_city: bool
    has_martian_yard: bool


@dataclass(frozen=True, slots=True)
class Site:
    """A place that is not a city: a High Martian kraag, a cloud captains' haven."""

    name: str
    col: int
    row: int
    kind: str
    role: str


@dataclass(frozen=True, slots=True)
class Canal:
    id: str
    name: str
    type: str
    # Cities along the canal, in order.
    waypoints: tuple[str, ...]
    # (col, row) of the map edge where the canal runs off the map, if it does.
    edge_exit: tuple[int, int] | None
    # (col, row) of each hex along the canal, in order.
    hexes: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class EpicTrekTable:
    """A 1D6 roll per hex entered, by the hex's allegiance and row (see MapHex.trek_row).

    A designed stand-in: the rules' own table is missing from the text.
    """

    die: str
    row_selection: str
    # Result code ("P", "L:n", "F", "A:n", "C") -> what it means.
    codes: Mapping[str, str] = field(compare=False)
    # allegiance -> row -> six result codes, index die - 1.
    table: Mapping[str, Mapping[str, tuple[str, ...]]] = field(compare=False)
    provenance: PartProvenance

    @property
    def is_stand_in(self) -> bool:
        return self.provenance.is_stand_in

    def result(self, *, allegiance: str, row: str, die: int) -> str:
        if not 1 <= die <= 6:
            raise ValueError(f"a 1D6 roll is 1..6, not {die}")
        return self.table[allegiance][row][die - 1]


@dataclass(frozen=True, slots=True)
class MarsMap:
    """The whole strategic map, with lookups by axial (q, r), offset (col, row) and CCRR label."""

    title: str
    status: str
    width: int
    height: int
    hex_size_miles: int
    coordinate_system: Mapping[str, str] = field(compare=False)
    terrain_types: tuple[str, ...]
    territories: Mapping[str, Territory] = field(compare=False)
    hexes: tuple[MapHex, ...]
    cities: tuple[City, ...]
    sites: tuple[Site, ...]
    canals: tuple[Canal, ...]
    allegiance_rules: Mapping[str, Any] = field(compare=False)
    epic_trek_table: EpicTrekTable
    provenance: Mapping[str, PartProvenance] = field(compare=False)
    _by_axial: Mapping[tuple[int, int], MapHex] = field(compare=False, repr=False)
    _by_label: Mapping[str, MapHex] = field(compare=False, repr=False)

    @property
    def start_city(self) -> City:
        return next(city for city in self.cities if city.is_start_city)

    def hex_at(self, q: int, r: int) -> MapHex:
        try:
            return self._by_axial[(q, r)]
        except KeyError:
            raise UnknownMapName("hex (q, r)", (q, r), ()) from None

    def hex_at_offset(self, col: int, row: int) -> MapHex:
        return self.hex_at(*offset_to_axial(col, row))

    def hex_by_label(self, label: str) -> MapHex:
        try:
            return self._by_label[label]
        except KeyError:
            raise UnknownMapName("hex label", label, ()) from None

    def city(self, name: str) -> City:
        for city in self.cities:
            if city.name.casefold() == name.casefold():
                return city
        raise UnknownMapName("city", name, (city.name for city in self.cities))

    def territory(self, name: str) -> Territory:
        for territory in self.territories.values():
            if territory.name.casefold() == name.casefold():
                return territory
        raise UnknownMapName("territory", name, self.territories)


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    """Flat-top, odd-q offset (odd columns shifted half a hex down) to axial (q, r): the one hex module's."""
    axial = from_odd_q(col, row)
    return axial.q, axial.r


# --- building the map from the files -------------------------------------------------------------------


def _provenance(data: Mapping[str, Any]) -> dict[str, PartProvenance]:
    return {
        part: PartProvenance(
            part=part,
            status=read_str(entry["status"]),
            note=read_str(entry["note"]),
            lines=tuple(read_int(line) for line in entry.get("lines") or ()),
        )
        for part, entry in data["parts"].items()
    }


def _territories(data: Mapping[str, Any], provenance: Mapping[str, PartProvenance]) -> dict[str, Territory]:
    return {
        name: Territory(
            name=name,
            move_through=read_opt_int(entry.get("move_through")),
            patrol=read_opt_int(entry.get("patrol")),
            note=read_opt_str(entry.get("note")),
            # A territory may carry its own verdict (British has no numbers in the rules).
            provenance=provenance.get(f"territories.{name}", provenance["territories"]),
        )
        for name, entry in data.items()
    }


def _hex(data: Mapping[str, Any]) -> MapHex:
    encounter = data.get("encounter")
    return MapHex(
        col=read_int(data["col"]),
        row=read_int(data["row"]),
        q=read_int(data["q"]),
        r=read_int(data["r"]),
        label=read_str(data["label"]),
        terrain=read_str(data["terrain"]),
        base_terrain=read_str(data["base_terrain"]),
        region=read_opt_str(data.get("region")),
        territory=read_str(data["territory"]),
        allegiance=read_str(data["allegiance"]),
        allegiance_reason=read_str(data["allegiance_reason"]),
        british=bool(data["british"]),
        city=read_opt_str(data.get("city")),
        site=read_opt_str(data.get("site")),
        canal_type=read_opt_str(data.get("canal")),
        canal_ids=tuple(read_str(canal) for canal in data.get("canals") or ()),
        encounter=(read_int(encounter[0]), read_int(encounter[1])) if encounter else None,
    )


def _city(data: Mapping[str, Any], *, start_city: str, martian_yards: frozenset[str]) -> City:
    name = read_str(data["name"])
    return City(
        name=name,
        col=read_int(data["col"]),
        row=read_int(data["row"]),
        label=read_str(data["label"]),
        owner=read_str(data["owner"]),
        role=read_str(data["role"]),
        optional=bool(data.get("optional", False)),
        is_start_city=name == start_city,
        has_martian_yard=name in martian_yards,
    )


def _site(data: Mapping[str, Any]) -> Site:
    return Site(
        name=read_str(data["name"]),
        col=read_int(data["col"]),
        row=read_int(data["row"]),
        kind=read_str(data["kind"]),
        role=read_str(data["role"]),
    )


def _canal(data: Mapping[str, Any]) -> Canal:
    waypoints: list[str] = []
    edge_exit: tuple[int, int] | None = None
    for waypoint in data["waypoints"]:
        if isinstance(waypoint, Mapping):
            col, row = waypoint["edge_exit"]
            edge_exit = (read_int(col), read_int(row))
        else:
            waypoints.append(read_str(waypoint))
    return Canal(
        id=read_str(data["id"]),
        name=read_str(data["name"]),
        type=read_str(data["type"]),
        waypoints=tuple(waypoints),
        edge_exit=edge_exit,
        hexes=tuple((read_int(col), read_int(row)) for col, row in data["hexes"]),
    )


def _trek_table(data: Mapping[str, Any], provenance: PartProvenance) -> EpicTrekTable:
    table = {
        allegiance: MappingProxyType({row: tuple(read_str(c) for c in codes) for row, codes in rows.items()})
        for allegiance, rows in data["table"].items()
    }
    return EpicTrekTable(
        die=read_str(data["die"]),
        row_selection=read_str(data["row_selection"]),
        codes=MappingProxyType({code: read_str(meaning) for code, meaning in data["codes"].items()}),
        table=MappingProxyType(table),
        provenance=provenance,
    )


@cache
def mars_map() -> MarsMap:
    """The strategic map, parsed once per process."""
    data = read_json_object(MAP_FILE)
    facts = read_json_object(PROVENANCE_FILE)
    provenance = _provenance(facts)
    hexes = tuple(_hex(entry) for entry in data["hexes"])
    martian_yards = frozenset(read_str(name) for name in facts["martian_yard_cities"])
    return MarsMap(
        title=read_str(data["title"]),
        status=read_str(data["status"]),
        width=read_int(data["width"]),
        height=read_int(data["height"]),
        hex_size_miles=read_int(data["hex_size_miles"]),
        coordinate_system=MappingProxyType({k: read_str(v) for k, v in data["coordinate_system"].items()}),
        terrain_types=tuple(read_str(terrain) for terrain in data["terrain_types"]),
        territories=MappingProxyType(_territories(data["territories"], provenance)),
        hexes=hexes,
        cities=tuple(
            _city(entry, start_city=read_str(facts["start_city"]), martian_yards=martian_yards)
            for entry in data["cities"]
        ),
        sites=tuple(_site(entry) for entry in data["sites"]),
        canals=tuple(_canal(entry) for entry in data["canals"]),
        allegiance_rules=MappingProxyType(dict(data["allegiance_rules"])),
        epic_trek_table=_trek_table(data["epic_trek_table"], provenance["epic_trek_table"]),
        provenance=MappingProxyType(provenance),
        _by_axial=MappingProxyType({h.axial: h for h in hexes}),
        _by_label=MappingProxyType({h.label: h for h in hexes}),
    )
