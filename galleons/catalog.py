"""The Sky Galleons ship catalog and weapon tables, as typed read-only records.

Pure Python: the engine, the yard and the Django loader all read the same records. The figures live in
``data/*.json`` (see ``data/README.md`` for what is stated and what is reconstructed); nothing here
hard-codes a figure. Every loader is cached, so the files are parsed once per process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from battles.engine.jsonread import read_int, read_json_object, read_opt_int, read_opt_str, read_str

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIP_CATALOG_FILE = DATA_DIR / "ship-catalog.json"
WEAPONS_FILE = DATA_DIR / "weapons.json"

STATED = "stated"
RECONSTRUCTED = "reconstructed"
# Weakest first: a class is only as sure as its least certain reconstructed field.
CONFIDENCE_LEVELS = ("very_low", "low", "medium", "high")
# A class with no figures at all (data_status "name_only") has no confidence to speak of.
NO_CONFIDENCE = "none"

JsonDict = Mapping[str, Any]


# --- errors --------------------------------------------------------------------------------------------


class UnknownReferenceName(KeyError):
    """A name that is not in the reference data. Carries the names that are, so the message can help."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(name)

    def __str__(self) -> str:
        # KeyError would print only the repr of the name; say what was looked for and what exists.
        return f"unknown {self.kind} {self.name!r}; known: {', '.join(self.known)}"


class UnknownWeapon(UnknownReferenceName):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__("weapon", name, known)


class UnknownShipClass(UnknownReferenceName):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__("ship class", name, known)


class UnknownEncounterCategory(UnknownReferenceName):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__("encounter category", name, known)


class UnknownTerritory(UnknownReferenceName):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__("territory", name, known)


# --- small typed readers for the JSON ------------------------------------------------------------------


def _opt_bool(value: Any) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        raise TypeError(f"expected true/false, got {value!r}")
    return value


def _strs(values: Any) -> tuple[str, ...]:
    return tuple(read_str(value) for value in values or ())


def _frozen(data: Mapping[str, Any]) -> JsonDict:
    return MappingProxyType(dict(data))


@cache
def _key(name: str) -> str:
    """Lookup key: case and surrounding space do not matter. Kept: a gun looks its weapon up by name."""
    return " ".join(name.split()).casefold()


@cache
def ship_catalog_json() -> JsonDict:
    """The whole ship catalog file, parsed once."""
    return _frozen(read_json_object(SHIP_CATALOG_FILE))


@cache
def weapons_json() -> JsonDict:
    """The whole weapons file, parsed once."""
    return _frozen(read_json_object(WEAPONS_FILE))


# --- provenance ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where one figure came from: quoted from the rules (stated) or rebuilt (reconstructed)."""

    flag: str
    method: str | None
    confidence: str | None
    basis: str | None
    lines: tuple[int, ...]
    quote: str | None

    @property
    def is_stated(self) -> bool:
        return self.flag == STATED

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Provenance:
        lines = [read_int(line) for line in data.get("lines") or ()]
        if data.get("line") is not None:
            lines.insert(0, read_int(data["line"]))
        return cls(
            flag=read_str(data["flag"]),
            method=read_opt_str(data.get("method")),
            confidence=read_opt_str(data.get("confidence")),
            basis=read_opt_str(data.get("basis")),
            lines=tuple(lines),
            quote=read_opt_str(data.get("quote")),
        )


def weakest_confidence(provenances: Iterable[Provenance]) -> str:
    """The weakest confidence among reconstructed figures; "high" when every figure is stated.

    Totals computed from other figures say "as inputs": they add no doubt of their own, so they are skipped.
    """
    levels = [p.confidence for p in provenances if not p.is_stated and p.confidence in CONFIDENCE_LEVELS]
    return min(levels, key=CONFIDENCE_LEVELS.index) if levels else "high"


# --- ship classes --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Propulsion:
    """Kite rigging, screw galley turncranks or a steam engine (the engine size sets the engineers)."""

    type: str
    engine_size: int | None
    engine_hp: int | None
    forced_draught: bool | None
    turncranks: int | None
    slave_turncranks: bool | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Propulsion:
        return cls(
            type=read_str(data["type"]),
            engine_size=read_opt_int(data.get("engine_size")),
            engine_hp=read_opt_int(data.get("engine_hp")),
            forced_draught=_opt_bool(data.get("forced_draught")),
            turncranks=read_opt_int(data.get("turncranks")),
            slave_turncranks=_opt_bool(data.get("slave_turncranks")),
        )


@dataclass(frozen=True, slots=True)
class Crew:
    """The ship's company as the stat block gives it: officers + petty officers + ratings, and its duties."""

    officers: int
    petty_officers: int
    ratings: int
    total: int
    bridge: tuple[str, ...]
    deckhands: int
    extra_petty_officers: int
    maneuver: int
    maneuver_kind: str
    gunners: int
    marine_officers: int
    marine_ratings: int

    @property
    def marines(self) -> int:
        return self.marine_officers + self.marine_ratings

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Crew:
        deck = data.get("deck") or {}
        marines = data.get("marines") or {}
        return cls(
            officers=read_int(data["officers"]),
            petty_officers=read_int(data["petty_officers"]),
            ratings=read_int(data["ratings"]),
            total=read_int(data["total"]),
            bridge=_strs(data.get("bridge")),
            deckhands=read_int(deck.get("deckhands", 0)),
            extra_petty_officers=read_int(deck.get("extra_petty_officers", 0)),
            maneuver=read_int(data["maneuver"]),
            maneuver_kind=read_str(data["maneuver_kind"]),
            gunners=read_int(data["gunners"]),
            marine_officers=read_int(marines.get("officers", 0)),
            marine_ratings=read_int(marines.get("ratings", 0)),
        )


@dataclass(frozen=True, slots=True)
class Mount:
    """One line of a class's armament: `count` weapons of one type at one position."""

    weapon_id: str
    weapon_name: str
    count: int
    mount: str
    positions: tuple[str, ...]
    arcs: tuple[tuple[str, ...], ...]
    armored: bool
    armored_mount_type: str | None
    turret_armor_value: int | None
    exotic: bool
    provenance: Provenance

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, exotic: bool) -> Mount:
        return cls(
            weapon_id=read_str(data["weapon_id"]),
            weapon_name=read_str(data["weapon_name"]),
            count=read_int(data["count"]),
            mount=read_str(data["mount"]),
            positions=_strs(data.get("positions")),
            arcs=tuple(_strs(arc) for arc in data.get("arcs") or ()),
            armored=bool(data.get("armored")),
            armored_mount_type=read_opt_str(data.get("armored_mount_type")),
            turret_armor_value=read_opt_int(data.get("turret_armor_value")),
            exotic=exotic,
            provenance=Provenance.from_json(data["provenance"]),
        )


@dataclass(frozen=True, slots=True)
class ShipClass:
    """A ship class from the catalog. Figures are None where the text lost them and nothing was rebuilt."""

    id: str
    name: str
    aliases: tuple[str, ...]
    category: str
    data_status: str
    confidence: str
    nation: str
    builder: str
    yard_type: str | None
    propulsion: Propulsion | None
    hull_size: int | None
    hull_material: str | None
    ram: bool | None
    armor_value: int | None
    armor_kind: str | None
    # A number, or "K" for a kite (its speed is rolled each turn).
    speed: int | str | None
    max_altitude: str | None
    tonnage: int | None
    price: int | None
    crew: Crew | None
    marines: int | None
    mounts: tuple[Mount, ...]
    # Left out of equality and hashing: a record is identified by its figures, and mappings do not hash.
    provenance: Mapping[str, Provenance] = field(compare=False)
    raw: JsonDict = field(compare=False)

    @property
    def is_stated(self) -> bool:
        """Fully published in the rules (one of the seven)."""
        return self.data_status == STATED

    @property
    def has_figures(self) -> bool:
        return self.tonnage is not None

    @property
    def is_kite(self) -> bool:
        return self.propulsion is not None and self.propulsion.type == "kite"

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, aliases: tuple[str, ...]) -> ShipClass:
        provenance = {
            name: Provenance.from_json(entry)
            for name, entry in (data.get("provenance") or {}).items()
            # "armament" says "see each mount"; the mounts carry their own provenance.
            if isinstance(entry, Mapping)
        }
        mounts = tuple(Mount.from_json(m, exotic=False) for m in data.get("armament") or ()) + tuple(
            Mount.from_json(m, exotic=True) for m in data.get("exotic_weapons") or ()
        )
        speed = data.get("speed")
        status = read_str(data["data_status"])
        return cls(
            id=read_str(data["id"]),
            name=read_str(data["name"]),
            aliases=aliases,
            category=read_str(data["category"]),
            data_status=status,
            confidence=(
                NO_CONFIDENCE
                if status == "name_only"
                else weakest_confidence([*provenance.values(), *(m.provenance for m in mounts)])
            ),
            nation=read_str(data["nation"]),
            builder=read_str(data["builder"]),
            yard_type=read_opt_str(data.get("yard_type")),
            propulsion=Propulsion.from_json(data["propulsion"]) if data.get("propulsion") else None,
            hull_size=read_opt_int(data.get("hull_size")),
            hull_material=read_opt_str(data.get("hull_material")),
            ram=_opt_bool(data.get("ram")),
            armor_value=read_opt_int(data.get("armor_value")),
            armor_kind=read_opt_str(data.get("armor_kind")),
            speed=speed if isinstance(speed, str) else read_opt_int(speed),
            max_altitude=read_opt_str(data.get("max_altitude")),
            tonnage=read_opt_int(data.get("tonnage")),
            price=read_opt_int(data.get("price")),
            crew=Crew.from_json(data["crew"]) if data.get("crew") else None,
            marines=read_opt_int(data.get("marines")),
            mounts=mounts,
            provenance=MappingProxyType(provenance),
            raw=_frozen(data),
        )


def _short_name(name: str) -> str:
    """ "Aphid (original)" -> "Aphid"; "Ranger (USS Ranger)" -> "Ranger"."""
    return re.sub(r"\s*\(.*\)\s*$", "", name).strip()


@cache
def ship_classes() -> tuple[ShipClass, ...]:
    """Every class in catalog order."""
    records = ship_catalog_json()["classes"]
    short_names = [_short_name(read_str(record["name"])) for record in records]
    # A short name is an alias only when one class claims it ("Aphid" could be either Aphid).
    claimed = [_key(short) for short in short_names]
    classes = []
    for record, short in zip(records, short_names, strict=True):
        unique = claimed.count(_key(short)) == 1 and _key(short) != _key(record["name"])
        classes.append(ShipClass.from_json(record, aliases=(short,) if unique else ()))
    return tuple(classes)


class _Named(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...


NamedRecord = TypeVar("NamedRecord", bound=_Named)


def _name_index(records: Iterable[NamedRecord], kind: str) -> Mapping[str, NamedRecord]:
    """Lookup key of every id, name and alias -> its record. A name two records claim is a data error,
    not something for the later record to win silently."""
    index: dict[str, NamedRecord] = {}
    for record in records:
        for name in (record.id, record.name, *record.aliases):
            other = index.setdefault(_key(name), record)
            if other is not record:
                raise ValueError(f"{kind} name {name!r} is claimed by {other.id} and {record.id}")
    return MappingProxyType(index)


@cache
def _ship_class_index() -> Mapping[str, ShipClass]:
    return _name_index(ship_classes(), "ship class")


def ship_class(name: str) -> ShipClass:
    """A class by id, name or alias, in any case. Raises UnknownShipClass."""
    try:
        return _ship_class_index()[_key(name)]
    except KeyError:
        raise UnknownShipClass(name, (ship.name for ship in ship_classes())) from None


# --- weapons -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RangeBands:
    """Close and long values (ranges in hexes, or penetration). None: no such band ("—" in the tables)."""

    close: int | None
    long: int | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RangeBands:
        return cls(close=read_opt_int(data.get("close")), long=read_opt_int(data.get("long")))


@dataclass(frozen=True, slots=True)
class RateOfFire:
    """Exactly one way of firing is set: shots a turn, one shot then reload turns, jam-prone, or a die."""

    shots: int | None = None
    reload_turns: int | None = None
    # Jam-prone machineguns fire `normal`, or up to `maximum` at the risk of jamming.
    normal: int | None = None
    maximum: int | None = None
    dice: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> RateOfFire | None:
        if data is None:
            return None
        if isinstance(data, int):
            return cls(shots=read_int(data))
        return cls(
            reload_turns=read_opt_int(data.get("reload_turns")),
            normal=read_opt_int(data.get("normal")),
            maximum=read_opt_int(data.get("max")),
            dice=read_opt_str(data.get("dice")),
        )


@dataclass(frozen=True, slots=True)
class FieldGun:
    """The consolidated list's field-gun columns, for personal-scale combat (SG-CG-02): rate of fire as the
    table writes it, range and burst in yards, and the wheeled carriage's weight and cost. A "—" in the weight
    and cost columns (None here) means there is no field carriage: naval or fortress mounts only (SG-CG-03).
    ``corrected`` are the asterisked cells, which differ from the older books and win (SG-CG-05)."""

    rate_of_fire: str
    range_yards: int
    burst: int
    weight: int | None
    cost: int | None
    corrected: tuple[str, ...]

    @property
    def has_carriage(self) -> bool:
        return self.weight is not None and self.cost is not None

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> FieldGun | None:
        if not data:
            return None
        return cls(
            rate_of_fire=read_str(data["rof"]),
            range_yards=read_int(data["range_yards"]),
            burst=read_int(data["burst"]),
            weight=read_opt_int(data.get("weight")),
            cost=read_opt_int(data.get("cost")),
            corrected=_strs(data.get("asterisk_marked_changes")),
        )


def designations(name: str) -> tuple[str, ...]:
    """The names a dual designation joins: "12-pdr/3\"" -> ("12-pdr", "3\""), one gun under two names, the
    inch form for naval use and the shot weight for field use (SG-CG-04). A parenthesised gloss is dropped
    first; a name without a slash is its only designation."""
    bare = _short_name(name)
    parts = tuple(part.strip() for part in bare.split("/"))
    return parts if len(parts) > 1 and all(parts) else ()


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon type, with the authoritative figures (the consolidated list where the books disagree)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    category: str
    weight_tons: int
    # None where the weapon cannot pierce; see `personnel_only` for small-arms weapons.
    penetration: RangeBands | None
    # An int, "P" (personnel only) or "F" (starts fires); None where the table leaves it blank.
    damage_value: int | str | None
    rate_of_fire: RateOfFire | None
    crew: int
    crew_quarters_provided: bool | None
    range_hexes: RangeBands | None
    range_total_hexes: int | None
    cost_pounds: int
    british_yard: bool
    martian_yard: bool
    requires_space: str | None
    authoritative_source: str
    # The personal-scale field-gun columns of the consolidated list; None for weapons it gives none.
    field_gun: FieldGun | None
    source_lines: Mapping[str, int] = field(compare=False)
    raw: JsonDict = field(compare=False)

    @property
    def personnel_only(self) -> bool:
        return self.raw.get("penetration") == "P" or self.damage_value == "P"

    @property
    def data_status(self) -> str:
        """Every weapon row is quoted from the rules."""
        return STATED

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Weapon:
        penetration = data.get("penetration")
        ranges = data.get("range_hexes")
        damage = data.get("damage_value")
        name = read_str(data["name"])
        aliases = _strs(data.get("aliases"))
        return cls(
            id=read_str(data["id"]),
            name=name,
            # Either half of a dual designation finds the gun (SG-CG-04).
            aliases=aliases + tuple(d for d in designations(name) if d not in aliases),
            category=read_str(data["category"]),
            weight_tons=read_int(data["weight_tons"]),
            penetration=RangeBands.from_json(penetration) if isinstance(penetration, Mapping) else None,
            damage_value=damage if isinstance(damage, str) else read_opt_int(damage),
            rate_of_fire=RateOfFire.from_json(data.get("rate_of_fire")),
            crew=read_int(data["crew"]),
            crew_quarters_provided=_opt_bool(data.get("crew_quarters_provided")),
            range_hexes=RangeBands.from_json(ranges) if ranges else None,
            range_total_hexes=read_opt_int(ranges.get("total_hexes")) if ranges else None,
            cost_pounds=read_int(data["cost_pounds"]),
            british_yard=bool(data["availability"]["british_yard"]),
            martian_yard=bool(data["availability"]["martian_yard"]),
            requires_space=read_opt_str(data.get("requires_space")),
            authoritative_source=read_str(data["authoritative_source"]),
            field_gun=FieldGun.from_json(data.get("field_gun_rpg")),
            source_lines=MappingProxyType(
                {source: read_int(entry["line"]) for source, entry in (data.get("sources") or {}).items()}
            ),
            raw=_frozen(data),
        )


@cache
def weapons() -> tuple[Weapon, ...]:
    """Every weapon type in table order."""
    return tuple(Weapon.from_json(record) for record in weapons_json()["weapons"])


@cache
def _weapon_index() -> Mapping[str, Weapon]:
    return _name_index(weapons(), "weapon")


def weapon(name: str) -> Weapon:
    """A weapon by id, name or alias, in any case. Raises UnknownWeapon."""
    try:
        return _weapon_index()[_key(name)]
    except KeyError:
        raise UnknownWeapon(name, (w.name for w in weapons())) from None


@dataclass(frozen=True, slots=True)
class SmallArm:
    """A marines' weapon: one die per `men_per_die` men firing."""

    id: str
    name: str
    men_per_die: int
    range_hexes: RangeBands
    hit_close: str
    hit_long: str
    save: str
    lines: tuple[int, ...]
    notes: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SmallArm:
        return cls(
            id=read_str(data["id"]),
            name=read_str(data["name"]),
            men_per_die=read_int(data["men_per_die"]),
            range_hexes=RangeBands.from_json(data["range_hexes"]),
            hit_close=read_str(data["hit_numbers"]["close"]),
            hit_long=read_str(data["hit_numbers"]["long"]),
            save=read_str(data["save"]),
            lines=tuple(read_int(line) for line in data.get("lines") or ()),
            notes=read_str(data.get("notes") or ""),
        )


@cache
def small_arms() -> tuple[SmallArm, ...]:
    return tuple(SmallArm.from_json(record) for record in weapons_json()["small_arms"])


# --- encounters ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EncounterCategory:
    """A kind of ship met on campaign (Pirate Ship, Warship...), the classes to draw from and its crew."""

    name: str
    description: str
    class_ids: tuple[str, ...]
    crew_quality: str | None
    line: int
    raw: JsonDict = field(compare=False)

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> EncounterCategory:
        quality = data.get("crew_quality")
        if isinstance(quality, Mapping):
            quality = quality.get("quality")
        return cls(
            name=name,
            description=read_str(data.get("description") or ""),
            class_ids=_strs(data.get("class_ids")),
            crew_quality=read_opt_str(quality),
            line=read_int(data["line"]),
            raw=_frozen(data),
        )


@cache
def encounter_categories() -> tuple[EncounterCategory, ...]:
    return tuple(
        EncounterCategory.from_json(name, data)
        for name, data in ship_catalog_json()["encounter_categories"].items()
        # "_usage" is a note on the whole list, not a category.
        if not name.startswith("_")
    )


def encounter_category(name: str) -> EncounterCategory:
    for category in encounter_categories():
        if _key(category.name) == _key(name):
            return category
    raise UnknownEncounterCategory(name, (c.name for c in encounter_categories()))


@dataclass(frozen=True, slots=True)
class EncounterTable:
    """A territory's encounter roll: an encounter on 1D6 <= the number, then 1D6 for what is met."""

    territory: str
    move_through: int
    patrol: int
    # Index die - 1: the result for a roll of 1..6.
    type_roll: tuple[str, ...]
    lines: tuple[int, ...]

    def encounter_for(self, die: int) -> str:
        if not 1 <= die <= len(self.type_roll):
            raise ValueError(f"a 1D6 roll is 1..6, not {die}")
        return self.type_roll[die - 1]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EncounterTable:
        rolls = data["type_roll_1d6"]
        return cls(
            territory=read_str(data["territory"]),
            move_through=read_int(data["encounter_if_moving_on_1d6_le"]),
            patrol=read_int(data["encounter_if_patrolling_on_1d6_le"]),
            type_roll=tuple(read_str(rolls[str(die)]) for die in range(1, len(rolls) + 1)),
            lines=(read_int(data["line_clean_copy"]), read_int(data["line_first_copy"])),
        )


@cache
def encounter_tables() -> tuple[EncounterTable, ...]:
    return tuple(EncounterTable.from_json(record) for record in ship_catalog_json()["encounter_tables"])


def encounter_table(territory: str) -> EncounterTable:
    for table in encounter_tables():
        if _key(table.territory) == _key(territory):
            return table
    raise UnknownTerritory(territory, (t.territory for t in encounter_tables()))
