"""Ship design and rating (SGD-*): a pure rater from a design to its game figures and rule violations.

A design is what a player orders from a yard (hull, propulsion, armor, weapons, marines). Rating it gives
tonnage, lift value and maximum altitude, speed, endurance, crew by category, price, the record-sheet
layout the tactical engine needs (hull boxes per altitude row, maneuvering crew rows, gun crews) and every
rule the design breaks. Nothing here talks to Django: the engine, the yard and ``manage.py rate_design``
all call :func:`parse_design` and :func:`rate_design`.

Readings (DESIGN.md section 8 and the checklist), each cited where the code applies it:

* The Cloudships & Gunboats design text supersedes the Sky Galleons one where they differ (SG-CG-01);
  the Challenge #43 errata is official (balanced armament SG-ERR-02, marines per hull size SG-ERR-03).
* Bridge crew of a new design is three: captain, helmsman, trimsman (SGD-CREW-11). Catalog classes
  list a signalman too; ``ShipDesign.signalman`` adds him as a rating outside the /15 officer count.
* Ram price is the written 1,000 pounds per hull size (SGD-HULL-03); catalog comparisons also show the
  100 per hull size their published prices imply.
* Kite speed against the wind is (1 + 1D6) / 2 rounded down (SGD-SPD-08).
* British weapons are not allowed in Martian yards (SGD-ARMT-15).
* Screw galley speed above 4 is halved, not capped (SGD-PROP-08).
* Tether mines take internal space as the design text says (SGD-EXO-08 over the table, SG-CG-85).
* Mount positions: the illustrations are lost (SGD-ARMT-08/27); the stand-in is in design-tables.json.
* Endurance is rounded down to whole days (the text gives no rounding; a part day of coal is not a day's
  steaming).
* Additional petty officers go to Earth navies' ships (SGD-CREW-09 says British; the published European,
  American and Japanese ships carry them too); ``ShipDesign.earth_navy`` defaults to "built in a
  British yard".

The JSON design format (:meth:`ShipDesign.from_json`)::

    {"yard": "martian" | "british", "hull": "wood" | "steel", "hull_size": 3, "ram": false, "armor": 0,
     "propulsion": {"type": "screw_galley", "turncranks": 12}
                 | {"type": "steam", "engine_size": 4, "forced_draught": true, "bunker_size": 8}
                 | {"type": "kite"},
     "weapons": [{"weapon": "Heavy Gun", "mount": "forward", "count": 1, "turret_armor": 0}, ...],
     "exotics": [{"weapon": "Liquid Fire", "count": 2}, ...],
     "marines": 0, "passengers": 0, "signalman": false, "earth_navy": null, "name": "optional"}

Weapon names are the catalog's ids, names or aliases in any case, or a short name from the tables
("Liquid Fire", "Tether Mine"). Mounts: forward, forward port/starboard (90-degree halves), stern tower,
stern port/starboard, port/starboard wing, port/starboard broadside, fixed bow/stern/port/starboard
(under the hull armor or through Martian gunports), amidships (the lob gun's turntable).

Numbers are data: every rate and table comes from ``data/design-tables.json``, which names its clauses.
Arithmetic is exact (fractions): marines weigh 2.5 t and armored pivot mounts add tenths of a gun's weight.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, TypeAlias, cast

from battles.engine.jsonread import DataFile
from galleons import catalog
from galleons.catalog import ShipClass, UnknownWeapon, Weapon

DESIGN_TABLES_FILE = catalog.DATA_DIR / "design-tables.json"

Yard: TypeAlias = Literal["martian", "british"]
HullMaterial: TypeAlias = Literal["wood", "steel"]
Altitude: TypeAlias = Literal["VL", "L", "M", "H", "VH"]
Speed: TypeAlias = int | Literal["K"]
JsonValue: TypeAlias = Any

YARDS: tuple[Yard, ...] = ("martian", "british")
HULL_MATERIALS: tuple[HullMaterial, ...] = ("wood", "steel")
PROPULSION_TYPES = ("steam", "screw_galley", "kite")
ASPECTS = ("bow", "stern", "port", "starboard")


# --- the tables ----------------------------------------------------------------------------------------


DESIGN_TABLES = DataFile(DESIGN_TABLES_FILE)


def design_tables() -> Mapping[str, Any]:
    """design-tables.json, parsed once. Read-only by convention: callers must not mutate it."""
    return DESIGN_TABLES.data


_table = DESIGN_TABLES.get
_tint = DESIGN_TABLES.whole


def _tfrac(*path: str) -> Fraction:
    # Fractions are written as strings ("2.5", "0.1") so that they stay exact.
    value = _table(*path)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"design-tables.json {'/'.join(path)}: expected a number as text, got {value!r}")
    return Fraction(value)


# --- input errors --------------------------------------------------------------------------------------


class DesignInputError(ValueError):
    """The input is not a well-formed design. Each problem names its field ("weapons[2].mount: ...").

    This is for input that cannot be rated at all; a well-formed design that breaks a design rule is
    rated and the broken rules are listed in ``ShipRating.errors``.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


class _Problems:
    """Collects every input problem so one bad file reports all of them at once."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}")

    def raise_if_any(self) -> None:
        if self.items:
            raise DesignInputError(self.items)


def _whole(problems: _Problems, where: str, value: Any, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(where, f"expected a whole number, got {value!r}")
        return minimum
    if value < minimum:
        problems.add(where, f"must be at least {minimum}, got {value}")
        return minimum
    return value


def _flag(problems: _Problems, where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        problems.add(where, f"expected true or false, got {value!r}")
        return False
    return value


def _choice(problems: _Problems, where: str, value: Any, choices: Sequence[str]) -> str:
    text = value.strip().casefold() if isinstance(value, str) else value
    if text not in choices:
        problems.add(where, f"expected one of {', '.join(choices)}, got {value!r}")
        return choices[0]
    return cast(str, text)


def _mount_key(text: str) -> str:
    return " ".join(text.replace("-", " ").split()).casefold()


def canonical_mount(name: str) -> str | None:
    """A mount name or alias ("port wing", "wing_port", "aft") -> its table name, or None if unknown."""
    key = _mount_key(name)
    table: Mapping[str, Any] = _table("mounts", "table")
    if key in table:
        return key
    aliases: Mapping[str, str] = _table("mounts", "aliases")
    for alias, target in aliases.items():
        if _mount_key(alias) == key:
            return target
    return None


def known_mounts() -> tuple[str, ...]:
    return tuple(_table("mounts", "table"))


def resolve_weapon(name: str, yard: Yard) -> Weapon:
    """A weapon by catalog id, name or alias (any case), or by one of the design tables' short names.

    Raises :class:`catalog.UnknownWeapon` listing every name that would have worked.
    """
    try:
        return catalog.weapon(name)
    except UnknownWeapon:
        pass
    key = " ".join(name.split()).casefold()
    short: Mapping[str, str] = _table("weapon_aliases", "names")
    by_yard: Mapping[str, Mapping[str, str]] = _table("weapon_aliases", "by_yard")
    if key in short:
        return catalog.weapon(short[key])
    if key in by_yard:
        # "Tether mine" is a Martian or a British mine depending on who builds the ship.
        return catalog.weapon(by_yard[key][yard])
    known = [w.name for w in catalog.weapons()] + list(short) + list(by_yard)
    raise UnknownWeapon(name, known) from None


def exotic_space(weapon_id: str) -> str | None:
    """ "deck", "internal" or None for an exotic weapon carried as stores; raises KeyError for a gun."""
    spaces: Mapping[str, str | None] = _table("exotics", "space")
    return spaces[weapon_id]


def is_exotic_store(weapon_id: str) -> bool:
    """Exotics carried in deck or internal space (or as stores) rather than on a gun mount."""
    return weapon_id in _table("exotics", "space")


# --- the typed design ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SteamPropulsion:
    engine_size: int
    forced_draught: bool
    bunker_size: int
    type: Literal["steam"] = "steam"

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "type": self.type,
            "engine_size": self.engine_size,
            "forced_draught": self.forced_draught,
            "bunker_size": self.bunker_size,
        }


@dataclass(frozen=True, slots=True)
class GalleyPropulsion:
    turncranks: int
    type: Literal["screw_galley"] = "screw_galley"

    def to_json(self) -> dict[str, JsonValue]:
        return {"type": self.type, "turncranks": self.turncranks}


@dataclass(frozen=True, slots=True)
class KitePropulsion:
    type: Literal["kite"] = "kite"

    def to_json(self) -> dict[str, JsonValue]:
        return {"type": self.type}


Propulsion: TypeAlias = SteamPropulsion | GalleyPropulsion | KitePropulsion


@dataclass(frozen=True, slots=True)
class WeaponMount:
    """``count`` guns of one type on one kind of mount. ``turret_armor`` > 0: an armored turret or sponson."""

    weapon_id: str
    mount: str
    count: int = 1
    turret_armor: int = 0

    def to_json(self) -> dict[str, JsonValue]:
        data: dict[str, JsonValue] = {"weapon": self.weapon_id, "mount": self.mount}
        if self.count != 1:
            data["count"] = self.count
        if self.turret_armor:
            data["turret_armor"] = self.turret_armor
        return data


@dataclass(frozen=True, slots=True)
class ExoticLoad:
    """Exotic weapons carried in deck or internal space (or as stores, like drogues and bomb loads)."""

    weapon_id: str
    count: int

    def to_json(self) -> dict[str, JsonValue]:
        return {"weapon": self.weapon_id, "count": self.count}


@dataclass(frozen=True, slots=True)
class ShipDesign:
    """A design as ordered from a yard. Build it with :meth:`from_json`, which validates every field."""

    yard: Yard
    hull: HullMaterial
    hull_size: int
    ram: bool
    armor: int
    propulsion: Propulsion
    weapons: tuple[WeaponMount, ...] = ()
    exotics: tuple[ExoticLoad, ...] = ()
    marines: int = 0
    # Passengers use the additional-crew allowance (SGD-XCREW-02) but are not marines: no per-hull limit.
    passengers: int = 0
    # New designs have a three-man bridge (SGD-CREW-11); the catalog's stat blocks add a signalman.
    signalman: bool = False
    # Additional petty officers (SGD-CREW-09); None means "built in a British yard".
    earth_navy: bool | None = None
    name: str | None = None

    FIELDS = (
        "name",
        "yard",
        "hull",
        "hull_size",
        "ram",
        "armor",
        "propulsion",
        "weapons",
        "exotics",
        "marines",
        "passengers",
        "signalman",
        "earth_navy",
    )

    @property
    def has_earth_navy_crew(self) -> bool:
        return self.yard == "british" if self.earth_navy is None else self.earth_navy

    @classmethod
    def from_json(cls, data: Any) -> ShipDesign:
        """Parse and validate the JSON design format. Raises :class:`DesignInputError` naming each field."""
        problems = _Problems()
        if not isinstance(data, Mapping):
            raise DesignInputError([f"design: expected a JSON object, got {type(data).__name__}"])
        for key in data:
            if key not in cls.FIELDS:
                problems.add(str(key), f"unknown field; the fields are {', '.join(cls.FIELDS)}")
        missing = [name for name in ("yard", "hull", "hull_size", "propulsion") if name not in data]
        for name in missing:
            problems.add(name, "missing")
        yard = cast(Yard, _choice(problems, "yard", data["yard"], YARDS)) if "yard" in data else "martian"
        hull = cast(HullMaterial, _choice(problems, "hull", data["hull"], HULL_MATERIALS)) if "hull" in data else "wood"
        hull_size = _whole(problems, "hull_size", data.get("hull_size", 1), minimum=1)
        ram = _flag(problems, "ram", data.get("ram", False))
        armor = _whole(problems, "armor", data.get("armor", 0), minimum=0)
        propulsion = _parse_propulsion(problems, data.get("propulsion", {"type": "kite"}))
        weapons = _parse_weapons(problems, data.get("weapons", []), yard)
        exotics = _parse_exotics(problems, data.get("exotics", []), yard)
        marines = _whole(problems, "marines", data.get("marines", 0), minimum=0)
        passengers = _whole(problems, "passengers", data.get("passengers", 0), minimum=0)
        signalman = _flag(problems, "signalman", data.get("signalman", False))
        earth_navy_raw = data.get("earth_navy")
        earth_navy = None if earth_navy_raw is None else _flag(problems, "earth_navy", earth_navy_raw)
        name_raw = data.get("name")
        if name_raw is not None and not isinstance(name_raw, str):
            problems.add("name", f"expected text, got {name_raw!r}")
        problems.raise_if_any()
        return cls(
            yard=yard,
            hull=hull,
            hull_size=hull_size,
            ram=ram,
            armor=armor,
            propulsion=propulsion,
            weapons=weapons,
            exotics=exotics,
            marines=marines,
            passengers=passengers,
            signalman=signalman,
            earth_navy=earth_navy,
            name=name_raw if isinstance(name_raw, str) else None,
        )

    def to_json(self) -> dict[str, JsonValue]:
        data: dict[str, JsonValue] = {
            "yard": self.yard,
            "hull": self.hull,
            "hull_size": self.hull_size,
            "ram": self.ram,
            "armor": self.armor,
            "propulsion": self.propulsion.to_json(),
            "weapons": [w.to_json() for w in self.weapons],
            "exotics": [e.to_json() for e in self.exotics],
            "marines": self.marines,
        }
        if self.name is not None:
            data = {"name": self.name, **data}
        if self.passengers:
            data["passengers"] = self.passengers
        if self.signalman:
            data["signalman"] = True
        if self.earth_navy is not None:
            data["earth_navy"] = self.earth_navy
        return data


def parse_design(data: Any) -> ShipDesign:
    """The JSON design format -> a validated :class:`ShipDesign` (raises :class:`DesignInputError`)."""
    return ShipDesign.from_json(data)


def _parse_propulsion(problems: _Problems, data: Any) -> Propulsion:
    if not isinstance(data, Mapping):
        problems.add("propulsion", f"expected an object with a type, got {data!r}")
        return KitePropulsion()
    kind = _choice(problems, "propulsion.type", data.get("type"), PROPULSION_TYPES)
    allowed = {
        "steam": ("type", "engine_size", "forced_draught", "bunker_size"),
        "screw_galley": ("type", "turncranks"),
        "kite": ("type",),
    }[kind]
    for key in data:
        if key not in allowed:
            problems.add(f"propulsion.{key}", f"not a {kind} field; a {kind} has {', '.join(allowed)}")
    if kind == "steam":
        for required in ("engine_size", "bunker_size"):
            if required not in data:
                problems.add(f"propulsion.{required}", "missing (steam needs engine_size and bunker_size)")
        return SteamPropulsion(
            engine_size=_whole(problems, "propulsion.engine_size", data.get("engine_size", 1), minimum=1),
            forced_draught=_flag(problems, "propulsion.forced_draught", data.get("forced_draught", False)),
            bunker_size=_whole(problems, "propulsion.bunker_size", data.get("bunker_size", 0), minimum=0),
        )
    if kind == "screw_galley":
        if "turncranks" not in data:
            problems.add("propulsion.turncranks", "missing (a screw galley needs turncranks)")
        return GalleyPropulsion(
            turncranks=_whole(problems, "propulsion.turncranks", data.get("turncranks", 1), minimum=1)
        )
    return KitePropulsion()


def _parse_weapon_name(problems: _Problems, where: str, entry: Mapping[str, Any], yard: Yard) -> Weapon | None:
    name = entry.get("weapon")
    if not isinstance(name, str):
        problems.add(f"{where}.weapon", f"expected a weapon name, got {name!r}")
        return None
    try:
        return resolve_weapon(name, yard)
    except UnknownWeapon as error:
        problems.add(f"{where}.weapon", str(error))
        return None


def _parse_weapons(problems: _Problems, data: Any, yard: Yard) -> tuple[WeaponMount, ...]:
    if not isinstance(data, list):
        problems.add("weapons", f"expected a list of {{weapon, mount}} objects, got {data!r}")
        return ()
    mounts: list[WeaponMount] = []
    for index, entry in enumerate(data):
        where = f"weapons[{index}]"
        if not isinstance(entry, Mapping):
            problems.add(where, f"expected an object with weapon and mount, got {entry!r}")
            continue
        for key in entry:
            if key not in ("weapon", "mount", "count", "turret_armor"):
                problems.add(f"{where}.{key}", "unknown field; a weapon has weapon, mount, count, turret_armor")
        weapon_type = _parse_weapon_name(problems, where, entry, yard)
        mount_raw = entry.get("mount")
        mount = canonical_mount(mount_raw) if isinstance(mount_raw, str) else None
        if mount is None:
            problems.add(f"{where}.mount", f"unknown mount {mount_raw!r}; known: {', '.join(known_mounts())}")
        count = _whole(problems, f"{where}.count", entry.get("count", 1), minimum=1)
        turret_armor = _whole(problems, f"{where}.turret_armor", entry.get("turret_armor", 0), minimum=0)
        if mount is not None and turret_armor and _table("mounts", "table", mount, "kind") == "fixed":
            problems.add(
                f"{where}.turret_armor",
                "a fixed mount is covered by the hull's armor (SGD-ARMT-12); turret_armor is for pivot "
                "and broadside mounts",
            )
        if weapon_type is not None and is_exotic_store(weapon_type.id):
            problems.add(
                f"{where}.weapon",
                f"{weapon_type.name} takes deck or internal space, not a gun mount: list it under exotics",
            )
            continue
        if weapon_type is not None and mount is not None:
            mounts.append(WeaponMount(weapon_type.id, mount, count, turret_armor))
    return tuple(mounts)


def _parse_exotics(problems: _Problems, data: Any, yard: Yard) -> tuple[ExoticLoad, ...]:
    if not isinstance(data, list):
        problems.add("exotics", f"expected a list of {{weapon, count}} objects, got {data!r}")
        return ()
    loads: list[ExoticLoad] = []
    for index, entry in enumerate(data):
        where = f"exotics[{index}]"
        if not isinstance(entry, Mapping):
            problems.add(where, f"expected an object with weapon and count, got {entry!r}")
            continue
        for key in entry:
            if key not in ("weapon", "count"):
                problems.add(f"{where}.{key}", "unknown field; an exotic has weapon and count")
        weapon_type = _parse_weapon_name(problems, where, entry, yard)
        count = _whole(problems, f"{where}.count", entry.get("count", 1), minimum=1)
        if weapon_type is None:
            continue
        if not is_exotic_store(weapon_type.id):
            stores = ", ".join(catalog.weapon(w).name for w in _table("exotics", "space"))
            problems.add(
                f"{where}.weapon",
                f"{weapon_type.name} needs a gun mount: list it under weapons with a mount (exotics are {stores})",
            )
            continue
        loads.append(ExoticLoad(weapon_type.id, count))
    return tuple(loads)


# --- rating results ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """One design rule the design breaks: the clause, the input field concerned and what is wrong."""

    clause: str
    field: str
    message: str

    def to_json(self) -> dict[str, JsonValue]:
        return {"clause": self.clause, "field": self.field, "message": self.message}


@dataclass(frozen=True, slots=True)
class Component:
    """A line of the yard bill: what it is, its weight and its price."""

    name: str
    tons: Fraction
    pounds: Fraction

    def to_json(self) -> dict[str, JsonValue]:
        return {"component": self.name, "tons": _number(self.tons), "pounds": _number(self.pounds)}


@dataclass(frozen=True, slots=True)
class CrewComplement:
    """The ship's company by category (SGD-CREW-*). Officers + petty officers + ratings = total."""

    captain: int
    additional_officers: int
    helmsman: int
    trimsman: int
    additional_petty_officers: int
    signalman: int
    deckhands: int
    maneuver_kind: Literal["engineers", "turncranks", "topmen"]
    maneuver: int
    gunners: int
    marine_officers: int
    marine_ratings: int
    passengers: int
    # The crew the /15 officer count is taken from (SGD-CREW-08, with the 3-man bridge of SGD-CREW-11).
    officer_basis: int
    # The crew (officers excluded) the /10 petty officer count is taken from (SGD-CREW-09).
    petty_officer_basis: int

    @property
    def officers(self) -> int:
        return self.captain + self.additional_officers + self.marine_officers

    @property
    def petty_officers(self) -> int:
        return self.helmsman + self.trimsman + self.additional_petty_officers

    @property
    def ratings(self) -> int:
        return self.signalman + self.deckhands + self.maneuver + self.gunners + self.marine_ratings

    @property
    def marines(self) -> int:
        return self.marine_officers + self.marine_ratings

    @property
    def total(self) -> int:
        return self.officers + self.petty_officers + self.ratings

    @property
    def bridge(self) -> tuple[str, ...]:
        """Record-sheet bridge boxes: C, H, T (S if carried), one O per additional officer (SG-CREW-05)."""
        return ("C", "H", "T") + ("S",) * self.signalman + ("O",) * self.additional_officers

    @property
    def summary(self) -> str:
        """The stat-block form "officers+petty officers+ratings"."""
        return f"{self.officers}+{self.petty_officers}+{self.ratings}"

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "summary": self.summary,
            "total": self.total,
            "officers": self.officers,
            "petty_officers": self.petty_officers,
            "ratings": self.ratings,
            "bridge": list(self.bridge),
            "captain": self.captain,
            "additional_officers": self.additional_officers,
            "helmsman": self.helmsman,
            "trimsman": self.trimsman,
            "additional_petty_officers": self.additional_petty_officers,
            "signalman": self.signalman,
            "deckhands": self.deckhands,
            "maneuver": {"kind": self.maneuver_kind, "count": self.maneuver},
            "gunners": self.gunners,
            "marines": {
                "officers": self.marine_officers,
                "ratings": self.marine_ratings,
                "total": self.marines,
            },
            "passengers": self.passengers,
            "officer_basis": self.officer_basis,
            "petty_officer_basis": self.petty_officer_basis,
        }


@dataclass(frozen=True, slots=True)
class GunRecord:
    """One gun as the engine's ship record needs it: where it fires and who mans it."""

    weapon_id: str
    name: str
    mount: str
    arcs: tuple[str, ...]
    side: str | None
    crew: int
    # False for a parenthesised crew: the men come from other stations, usually deckhands (SG-CG-93).
    crew_provided: bool
    turret_armor: int
    tons: Fraction
    pounds: Fraction
    # Combat figures the ship record carries with the gun (SGD-ARMT-18/19): small arms hit crew only.
    personnel_only: bool = False
    damage_value: int | str | None = None
    range_close: int | None = None
    range_long: int | None = None

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "weapon": self.weapon_id,
            "name": self.name,
            "mount": self.mount,
            "arcs": list(self.arcs),
            "side": self.side,
            "crew": self.crew,
            "crew_provided": self.crew_provided,
            "turret_armor": self.turret_armor,
            "personnel_only": self.personnel_only,
            "damage_value": self.damage_value,
            "range": {"close": self.range_close, "long": self.range_long},
            "tons": _number(self.tons),
            "pounds": _number(self.pounds),
        }


@dataclass(frozen=True, slots=True)
class ExoticRecord:
    weapon_id: str
    name: str
    count: int
    space: str | None
    tons: Fraction
    pounds: Fraction

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "weapon": self.weapon_id,
            "name": self.name,
            "count": self.count,
            "space": self.space,
            "tons": _number(self.tons),
            "pounds": _number(self.pounds),
        }


@dataclass(frozen=True, slots=True)
class HullRow:
    """A row of hull boxes: hits fill the highest row first and a full row loses that altitude (SG-DMG-11)."""

    altitude: Altitude
    boxes: int

    def to_json(self) -> dict[str, JsonValue]:
        return {"altitude": self.altitude, "boxes": self.boxes}


@dataclass(frozen=True, slots=True)
class KiteSpeed:
    """A kite's speed is rolled each turn (SGD-SPD-06/08): the speed for each face of the die."""

    with_wind: tuple[int, ...]
    against_wind: tuple[int, ...]

    def to_json(self) -> dict[str, JsonValue]:
        return {"with_wind": list(self.with_wind), "against_wind": list(self.against_wind)}


@dataclass(frozen=True, slots=True)
class ShipRating:
    """Everything the rules derive from a design. ``errors`` is empty when the design is legal."""

    design: ShipDesign
    tonnage: Fraction
    hull_capacity: int
    lift_value: Fraction
    max_altitude: Altitude | None
    speed: Speed
    speed_raw: Fraction | None
    kite_speed: KiteSpeed | None
    endurance_days: int | None
    price: Fraction
    ram_cost_per_hull_size: int
    crew: CrewComplement
    components: tuple[Component, ...]
    guns: tuple[GunRecord, ...]
    exotics: tuple[ExoticRecord, ...]
    hull_rows: tuple[HullRow, ...]
    # Screw galleys: boxes per row, top row first (SGD-MCH-06). Steam and kites lose 1 speed a man.
    maneuver_rows: tuple[int, ...] | None
    deck_spaces: tuple[int, int]
    internal_spaces: tuple[int, int]
    broadside_tons: tuple[Fraction, Fraction]
    knots: int | None
    horsepower: int | None
    errors: tuple[RuleViolation, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def can_fly(self) -> bool:
        return self.max_altitude is not None

    @property
    def hull_boxes(self) -> int:
        return sum(row.boxes for row in self.hull_rows)

    @property
    def armor(self) -> int:
        return self.design.armor

    @property
    def hull_size(self) -> int:
        return self.design.hull_size

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "design": self.design.to_json(),
            "tonnage": _number(self.tonnage),
            "hull_capacity": self.hull_capacity,
            "lift_value": round(float(self.lift_value), 4),
            "max_altitude": self.max_altitude,
            "speed": self.speed,
            "speed_raw": None if self.speed_raw is None else _number(self.speed_raw),
            "kite_speed": None if self.kite_speed is None else self.kite_speed.to_json(),
            "endurance_days": self.endurance_days,
            "price": _number(self.price),
            "ram_cost_per_hull_size": self.ram_cost_per_hull_size,
            "crew": self.crew.to_json(),
            "hull_rows": [row.to_json() for row in self.hull_rows],
            "hull_boxes": self.hull_boxes,
            "maneuver_rows": None if self.maneuver_rows is None else list(self.maneuver_rows),
            "guns": [gun.to_json() for gun in self.guns],
            "exotics": [exotic.to_json() for exotic in self.exotics],
            "deck_spaces": {"used": self.deck_spaces[0], "available": self.deck_spaces[1]},
            "internal_spaces": {"used": self.internal_spaces[0], "available": self.internal_spaces[1]},
            "broadside_tons": {
                "port": _number(self.broadside_tons[0]),
                "starboard": _number(self.broadside_tons[1]),
            },
            "knots": self.knots,
            "horsepower": self.horsepower,
            "components": [c.to_json() for c in self.components],
            "ok": self.ok,
            "errors": [e.to_json() for e in self.errors],
        }


def _number(value: Fraction) -> int | float:
    """Whole numbers print as ints; the rest (2.5 t marines) as floats."""
    return int(value) if value.denominator == 1 else float(value)


# --- the rules, one function each ----------------------------------------------------------------------


def _floor(value: Fraction) -> int:
    return value.numerator // value.denominator


def _halve_excess(raw: Fraction, over: int) -> int:
    """Speed above the efficient limit counts half, fractions down (SGD-SPD-01, SGD-SPD-04)."""
    if raw > over:
        return _floor(over + (raw - over) / _tint("speed", "excess_divisor"))
    return _floor(raw)


def steam_speed_raw(engine_size: int, hull_size: int) -> Fraction:
    """S = 6 Es / Hs before the excess over 6 is halved (SGD-SPD-01)."""
    return Fraction(_tint("speed", "steam_multiplier") * engine_size, hull_size)


def steam_speed(engine_size: int, hull_size: int) -> int:
    """Steam speed with the excess over 6 halved, rounded down (SGD-SPD-01..03, SGD-SPD-07)."""
    return halved_steam_speed(steam_speed_raw(engine_size, hull_size))


def halved_steam_speed(raw: Fraction | int) -> int:
    """A calculated steam speed after the halving above 6: 7 -> 6, 8 or 9 -> 7, 10 or 11 -> 8."""
    return _halve_excess(Fraction(raw), _tint("speed", "steam_excess_over"))


def galley_speed_raw(turncranks: int, hull_size: int) -> Fraction:
    return Fraction(turncranks, hull_size)


def galley_speed(turncranks: int, hull_size: int) -> int:
    """Turncranks / Hs with the excess over 4 halved, rounded down (SGD-SPD-04/05, SGD-PROP-08)."""
    return halved_galley_speed(galley_speed_raw(turncranks, hull_size))


def halved_galley_speed(raw: Fraction | int) -> int:
    """A calculated galley speed after the halving above 4: 6 or 7 -> 5."""
    return _halve_excess(Fraction(raw), _tint("speed", "galley_excess_over"))


def kite_speed(die: int, *, with_wind: bool) -> int:
    """A kite's speed for one 1D6 roll: 1 + die with the wind, (1 + die) / 2 down against it."""
    if not 1 <= die <= 6:
        raise ValueError(f"a 1D6 roll is 1..6, not {die}")
    if with_wind:
        return _tint("speed", "kite_with_wind", "add") + die
    return _tint("speed", "kite_against_wind_by_die", str(die))


def kite_speed_table() -> KiteSpeed:
    return KiteSpeed(
        with_wind=tuple(kite_speed(die, with_wind=True) for die in range(1, 7)),
        against_wind=tuple(kite_speed(die, with_wind=False) for die in range(1, 7)),
    )


def endurance_days(bunker_size: int, engine_size: int) -> int:
    """E = 10 Bs / Es days, whole days (SGD-BUNK-02)."""
    per = _tint("bunker", "endurance_days_per_bunker_size_per_engine_size")
    return _floor(Fraction(per * bunker_size, engine_size))


def lift_value(hull_size: int, tonnage: Fraction | int) -> Fraction:
    """LV = hull capacity (100 Hs) / total tons (SGD-ALT-01, SGD-ALT-07)."""
    if tonnage <= 0:
        raise ValueError("a ship weighs something: tonnage must be positive")
    return Fraction(_tint("hull", "capacity_tons_per_hull_size") * hull_size) / Fraction(tonnage)


def max_altitude_for(lift: Fraction) -> Altitude | None:
    """VH at LV 1.2 and up, H at 1.0, M at 0.8, L at 0.6; None below 0.6: it cannot fly (SGD-ALT-02..06)."""
    for threshold, level in _table("altitude", "lift_value_thresholds"):
        if lift >= Fraction(threshold):
            return cast(Altitude, level)
    return None


def altitude_levels() -> tuple[Altitude, ...]:
    return cast(tuple[Altitude, ...], tuple(_table("altitude", "levels_low_to_high")))


def hull_rows(hull_size: int, max_altitude: Altitude | None) -> tuple[HullRow, ...]:
    """One row of Hs boxes per altitude from Very Low up to the ceiling (SG-DMG-11/12, SGD-HITS-01).

    Hs 3 with a High ceiling -> VL, L, M, H rows of 3 boxes. A ship that cannot fly has no rows.
    """
    if max_altitude is None:
        return ()
    levels = altitude_levels()
    boxes = hull_size * _tint("hull_hits", "boxes_per_row_per_hull_size")
    return tuple(HullRow(level, boxes) for level in levels[: levels.index(max_altitude) + 1])


def altitude_after_hull_hits(hull_size: int, max_altitude: Altitude, hull_hits: int) -> Altitude | None:
    """The ceiling after ``hull_hits``: one level lost per Hs hits; None once below Very Low (crashed).

    SGD-HITS-01/02/03.
    """
    levels = altitude_levels()
    remaining = levels.index(max_altitude) - hull_hits // hull_size
    return levels[remaining] if remaining >= 0 else None


def maneuver_rows(turncranks: int, hull_size: int, speed: int) -> tuple[int, ...]:
    """Screw galley turncrank boxes: ``speed`` rows of Hs, the excess on the top row (SGD-MCH-06/07).

    Hs 4, speed 3, 14 turncranks -> (6, 4, 4). A galley too slow to move has all its boxes in one row.
    """
    if speed <= 0:
        return (turncranks,)
    rows = [hull_size] * speed
    rows[0] += turncranks - hull_size * speed
    return tuple(rows)


def speed_after_turncrank_losses(rows: Sequence[int], casualties: int) -> int:
    """Casualties fill rows from the top; each full row costs 1 speed; all gone -> 0 (SGD-MCH-04/06)."""
    speed = len(rows)
    left = casualties
    for boxes in rows:
        if left < boxes:
            break
        left -= boxes
        speed -= 1
    return max(speed, 0)


def speed_after_engineer_or_topman_losses(speed: int, casualties: int) -> int:
    """Steam ships and kites lose one speed per engineer or topman lost (SGD-MCH-01, SGD-MCH-05)."""
    return max(speed - casualties, 0)


def reload_turns_short_handed(reload_turns: int, crew_short: int) -> int:
    """Each missing crewman adds a turn of reloading: ROF (1) short one man fires as (2) (SGD-ARMT-21)."""
    return reload_turns + max(crew_short, 0)


def knots(speed: int) -> int:
    """Background: speed x 5 knots (SGD-BG-01)."""
    return speed * _tint("background", "knots_per_speed")


def horsepower(engine_size: int) -> int:
    """Background: 125 hp per engine size (SGD-BG-02)."""
    return engine_size * _tint("background", "horsepower_per_engine_size")


def crew_complement(
    *,
    hull_size: int,
    maneuver_kind: Literal["engineers", "turncranks", "topmen"],
    maneuver: int,
    gunners: int,
    marines: int = 0,
    passengers: int = 0,
    signalman: bool = False,
    earth_navy: bool = False,
) -> CrewComplement:
    """The crew rules (SGD-CREW-02..12), with the C&G three-man bridge (SGD-CREW-11)."""
    bridge = len(_table("crew", "bridge"))
    deckhands = hull_size * _tint("crew", "deckhands_per_hull_size")
    officer_basis = bridge + deckhands + maneuver + gunners
    additional_officers = officer_basis // _tint("crew", "crew_per_additional_officer")
    # "The crew excluding officers": helmsman, trimsman, a signalman if carried, the hands and gunners.
    petty_officer_basis = officer_basis - _tint("crew", "bridge_officers") + int(signalman)
    additional_petty_officers = (
        petty_officer_basis // _tint("crew", "crew_per_additional_petty_officer") if earth_navy else 0
    )
    marine_officers = marines // _tint("additional_crew", "marines_per_marine_officer")
    return CrewComplement(
        captain=_tint("crew", "bridge_officers"),
        additional_officers=additional_officers,
        helmsman=1,
        trimsman=1,
        additional_petty_officers=additional_petty_officers,
        signalman=int(signalman),
        deckhands=deckhands,
        maneuver_kind=maneuver_kind,
        maneuver=maneuver,
        gunners=gunners,
        marine_officers=marine_officers,
        marine_ratings=marines - marine_officers,
        passengers=passengers,
        officer_basis=officer_basis,
        petty_officer_basis=petty_officer_basis,
    )


def _rate_of_fire_above_one(weapon_type: Weapon) -> bool:
    rof = weapon_type.rate_of_fire
    if rof is None:
        return False
    return (rof.shots or 0) > 1 or (rof.normal or 0) > 1


# --- the rater -----------------------------------------------------------------------------------------


class _Rater:
    """One rating in progress: the running bill of components and the list of broken rules."""

    def __init__(self, design: ShipDesign, ram_cost_per_hull_size: int) -> None:
        self.design = design
        self.ram_cost = ram_cost_per_hull_size
        self.components: list[Component] = []
        self.errors: list[RuleViolation] = []
        self.guns: list[GunRecord] = []
        self.exotic_records: list[ExoticRecord] = []
        self.yard: Mapping[str, Any] = _table("yards", design.yard)

    def add(self, name: str, tons: Fraction | int, pounds: Fraction | int) -> None:
        self.components.append(Component(name, Fraction(tons), Fraction(pounds)))

    def error(self, clause: str, where: str, message: str) -> None:
        self.errors.append(RuleViolation(clause, where, message))

    def hull(self) -> None:
        d = self.design
        costs: Mapping[str, int] = self.yard["hull_cost_per_hull_size"]
        if d.hull not in costs:
            self.error("SGD-HULL-05", "hull", f"{d.hull} hulls are not built in {d.yard} yards")
            # Price it as the British yard would, so the rest of the bill still means something.
            cost = _tint("yards", "british", "hull_cost_per_hull_size", d.hull)
        else:
            cost = costs[d.hull]
        self.add(f"hull ({d.hull}, {d.yard} yard)", 0, cost * d.hull_size)
        if d.ram:
            self.add("ram", _tint("hull", "ram_tons_per_hull_size") * d.hull_size, self.ram_cost * d.hull_size)

    def propulsion(self) -> None:
        d, p = self.design, self.design.propulsion
        if isinstance(p, SteamPropulsion):
            if not self.yard["steam_engines"]:
                self.error("SGD-PROP-03", "propulsion.type", f"steam engines are not built in {d.yard} yards")
            key = "forced_draught_engine" if p.forced_draught else "engine"
            tons = _tint("propulsion", "steam", f"{key}_tons_per_engine_size") * p.engine_size
            cost = _tint("propulsion", "steam", f"{key}_cost_per_engine_size") * p.engine_size
            kind = "forced draught" if p.forced_draught else "conventional"
            self.add(f"engine ES {p.engine_size} {kind}", tons, cost)
            self.add(
                f"coal bunker BS {p.bunker_size}",
                _tint("bunker", "tons_per_bunker_size") * p.bunker_size,
                _tint("bunker", "cost_per_bunker_size") * p.bunker_size,
            )
            minimum = _tint("bunker", "min_bunker_size_per_engine_size") * p.engine_size
            if p.bunker_size < minimum:
                self.error(
                    "SGD-BUNK-03",
                    "propulsion.bunker_size",
                    f"bunker size {p.bunker_size} is below twice the engine size ({minimum})",
                )
        elif isinstance(p, GalleyPropulsion):
            self.add(
                f"{p.turncranks} turncranks",
                _tint("propulsion", "screw_galley", "tons_per_turncrank") * p.turncranks,
                int(self.yard["turncrank_cost"]) * p.turncranks,
            )
        else:
            self.add(
                "kite rigging",
                _tint("propulsion", "kite", "rigging_tons_per_hull_size") * d.hull_size,
                _tint("propulsion", "kite", "rigging_cost_per_hull_size") * d.hull_size,
            )

    def armor(self) -> None:
        d = self.design
        if not d.armor:
            return
        kind = str(self.yard["armor_kind"])
        if kind == "plate" and d.hull == "wood":
            self.error("SGD-HULL-04", "armor", "wooden hulls may not carry armor plate")
        tons = _tint("armor", kind, "tons_per_armor_value_per_hull_size") * d.armor * d.hull_size
        label = "armor plate" if kind == "plate" else "Martian protection"
        self.add(f"{label} AV {d.armor}", tons, tons * _tint("armor", kind, "cost_per_ton"))

    def weapons(self) -> None:
        d = self.design
        mounts: Mapping[str, Mapping[str, Any]] = _table("mounts", "table")
        exotics_rules: Mapping[str, Any] = _table("exotics")
        pivot_fraction = _tfrac("armored_mounts", "pivot_weight_fraction_per_armor_value")
        turret_cost = _tfrac("armored_mounts", "turret_cost_fraction")
        halves_used: Counter[str] = Counter()
        half_sides: Counter[tuple[str, str]] = Counter()
        per_ship: Counter[str] = Counter()
        for index, entry in enumerate(d.weapons):
            where = f"weapons[{index}]"
            weapon_type = catalog.weapon(entry.weapon_id)
            mount = mounts[entry.mount]
            kind = str(mount["kind"])
            self._availability(weapon_type, where)
            if mount.get("not_a_design_rule_mount"):
                self.error(
                    "SGD-ARMT-02",
                    f"{where}.mount",
                    f"'{entry.mount}' is not a mount position of the design rules",
                )
            only_for = mount.get("only_for")
            if only_for and entry.weapon_id not in only_for:
                self.error("SGD-EXO-05", f"{where}.mount", f"the '{entry.mount}' turntable is for the lob gun only")
            position = mount.get("position")
            if position is not None and entry.weapon_id not in exotics_rules["no_pivot_position"]:
                halves_used[position] += int(mount["halves"]) * entry.count
                if "half" in mount:
                    half_sides[(position, str(mount["half"]))] += entry.count
            rof_above_one = _rate_of_fire_above_one(weapon_type)
            armored = entry.turret_armor > 0
            # An armored mount adds weight when it pivots; a gun firing more than once a turn must pivot to be
            # armored at all (SGD-ARMT-09/10/13).
            pivot_type = kind in ("pivot", "turntable") or (kind == "broadside" and rof_above_one)
            if armored and pivot_type and d.yard == "martian":
                self.error(
                    "SGD-ARMT-14",
                    f"{where}.turret_armor",
                    "Martian yards may not build protected pivoting mounts",
                )
            if kind == "fixed" and d.armor and rof_above_one:
                self.error(
                    "SGD-ARMT-13",
                    f"{where}.mount",
                    f"{weapon_type.name} fires more than once a turn: it can be armored only in a pivot-type mount",
                )
            tons = Fraction(weapon_type.weight_tons)
            pounds = Fraction(weapon_type.cost_pounds)
            if armored:
                if pivot_type:
                    tons *= 1 + pivot_fraction * entry.turret_armor
                pounds *= 1 + turret_cost
            arcs = tuple(mount["arcs"])
            if entry.weapon_id in exotics_rules["all_aspects"]:
                arcs = ASPECTS
            if entry.weapon_id in exotics_rules["bow_only"] and tuple(arcs) != ("bow",):
                self.error(
                    "SGD-EXO-04",
                    f"{where}.mount",
                    f"{weapon_type.name} fires only to the bow: mount it 'fixed bow'",
                )
            per_ship[entry.weapon_id] += entry.count
            label = f"{entry.count} x {weapon_type.name} [{entry.mount}]"
            if armored:
                label += f" armored AV {entry.turret_armor}"
            self.add(label, tons * entry.count, pounds * entry.count)
            for _ in range(entry.count):
                self.guns.append(
                    GunRecord(
                        weapon_id=weapon_type.id,
                        name=weapon_type.name,
                        mount=entry.mount,
                        arcs=arcs,
                        side=mount.get("side"),
                        crew=weapon_type.crew,
                        crew_provided=bool(weapon_type.crew_quarters_provided),
                        turret_armor=entry.turret_armor,
                        tons=tons,
                        pounds=pounds,
                        personnel_only=weapon_type.personnel_only,
                        damage_value=weapon_type.damage_value,
                        range_close=weapon_type.range_hexes.close if weapon_type.range_hexes else None,
                        range_long=weapon_type.range_hexes.long if weapon_type.range_hexes else None,
                    )
                )
        capacity: Mapping[str, int] = _table("mounts", "position_halves")
        for position, used in sorted(halves_used.items()):
            if used > capacity[position]:
                self.error(
                    "SGD-ARMT-02",
                    "weapons",
                    f"the {position.replace('_', ' ')} position holds one 180-degree pivot or two 90-degree "
                    f"mounts; this design puts more there",
                )
        for (position, half), used in sorted(half_sides.items()):
            if used > 1:
                self.error(
                    "SGD-ARMT-06",
                    "weapons",
                    f"only one {half} 90-degree mount fits at the {position} position",
                )
        # Either kind of Smutts discharger counts: one a ship (SGD-EXO-04).
        dischargers = sum(n for w, n in per_ship.items() if w in exotics_rules["bow_only"])
        if dischargers > 1:
            self.error("SGD-EXO-04", "weapons", f"one Smutts discharger per ship, not {dischargers}")
        if per_ship["lob_gun"] > 1:
            self.error("SGD-EXO-05", "weapons", f"one lob gun per ship, not {per_ship['lob_gun']}")

    def _availability(self, weapon_type: Weapon, where: str) -> None:
        if self.design.yard == "martian" and not weapon_type.martian_yard:
            self.error(
                "SGD-ARMT-15",
                f"{where}.weapon",
                f"{weapon_type.name} is a British weapon: not fitted in Martian yards",
            )

    def exotics(self) -> tuple[int, int]:
        d = self.design
        deck = internal = 0
        wooden: Sequence[str] = _table("exotics", "not_on_wooden_hulls")
        for index, load in enumerate(d.exotics):
            where = f"exotics[{index}]"
            weapon_type = catalog.weapon(load.weapon_id)
            self._availability(weapon_type, where)
            space = exotic_space(load.weapon_id)
            if space == "deck":
                deck += load.count
            elif space == "internal":
                internal += load.count
            if load.weapon_id in wooden and d.hull == "wood":
                self.error("SGD-EXO-02", f"{where}.weapon", f"{weapon_type.name} may not be mounted in a wooden ship")
            tons = Fraction(weapon_type.weight_tons)
            pounds = Fraction(weapon_type.cost_pounds)
            self.add(f"{load.count} x {weapon_type.name}", tons * load.count, pounds * load.count)
            self.exotic_records.append(
                ExoticRecord(
                    load.weapon_id,
                    weapon_type.name,
                    load.count,
                    space,
                    tons * load.count,
                    pounds * load.count,
                )
            )
        deck_spaces = d.hull_size * _tint("exotics", "deck_spaces_per_hull_size")
        internal_spaces = d.hull_size * _tint("exotics", "internal_spaces_per_hull_size")
        if deck > deck_spaces:
            self.error(
                "SGD-EXO-07",
                "exotics",
                f"{deck} deck-space exotics on {deck_spaces} deck spaces (one per hull size)",
            )
        if internal > internal_spaces:
            self.error(
                "SGD-EXO-08",
                "exotics",
                f"{internal} internal-space exotics on {internal_spaces} internal spaces (one per hull size)",
            )
        return deck, internal

    def additional_crew(self) -> None:
        d = self.design
        tons = _tfrac("additional_crew", "tons_each")
        cost = _tint("additional_crew", "cost_each")
        if d.marines:
            self.add(f"{d.marines} marines (quarters)", tons * d.marines, cost * d.marines)
        if d.passengers:
            self.add(f"{d.passengers} passengers (quarters)", tons * d.passengers, cost * d.passengers)
        limit = _tint("additional_crew", "max_marines_per_hull_size") * d.hull_size
        if d.marines > limit:
            self.error("SG-ERR-03", "marines", f"{d.marines} marines: at most {limit} (five per hull size)")

    def balance(self) -> tuple[Fraction, Fraction]:
        port = sum((g.tons for g in self.guns if g.side == "port"), Fraction(0))
        starboard = sum((g.tons for g in self.guns if g.side == "starboard"), Fraction(0))
        if port != starboard:
            self.error(
                "SG-ERR-02",
                "weapons",
                f"armament unbalanced: {_number(port)} t to port, {_number(starboard)} t to starboard",
            )
        return port, starboard


def rate_design(design: ShipDesign, *, ram_cost_per_hull_size: int | None = None) -> ShipRating:
    """Rate a design: its figures, its record-sheet layout and the rules it breaks.

    ``ram_cost_per_hull_size`` defaults to the written 1,000 (SGD-HULL-03); the catalog report passes the
    100 that the published Martian rams imply to show the difference.
    """
    ram_cost = (
        _tint("hull", "ram_cost_per_hull_size_written") if ram_cost_per_hull_size is None else ram_cost_per_hull_size
    )
    rater = _Rater(design, ram_cost)
    rater.hull()
    rater.propulsion()
    rater.armor()
    rater.weapons()
    deck, internal = rater.exotics()
    rater.additional_crew()
    port, starboard = rater.balance()

    tonnage = sum((c.tons for c in rater.components), Fraction(0))
    price = sum((c.pounds for c in rater.components), Fraction(0))
    hs = design.hull_size
    if tonnage > _tint("hull", "max_tons_per_hull_size") * hs:
        rater.error(
            "SGD-HULL-02",
            "hull_size",
            f"{_number(tonnage)} t is over {_tint('hull', 'max_tons_per_hull_size')} t per hull size",
        )
    # Every propulsion weighs something, so the tonnage is never zero.
    lift = lift_value(hs, tonnage)
    ceiling = max_altitude_for(lift)
    if ceiling is None:
        rater.error(
            "SGD-ALT-06",
            "hull_size",
            f"lift value {float(lift):.3f} is below {_table('altitude', 'min_lift_value_to_fly')}: it cannot fly",
        )

    p = design.propulsion
    speed: Speed
    speed_raw: Fraction | None
    kite: KiteSpeed | None = None
    rows: tuple[int, ...] | None = None
    endurance: int | None = None
    power: int | None = None
    if isinstance(p, SteamPropulsion):
        speed_raw = steam_speed_raw(p.engine_size, hs)
        speed = steam_speed(p.engine_size, hs)
        endurance = endurance_days(p.bunker_size, p.engine_size)
        power = horsepower(p.engine_size)
        maneuver_kind: Literal["engineers", "turncranks", "topmen"] = "engineers"
        maneuver = p.engine_size * _tint("crew", "engineers_per_engine_size")
    elif isinstance(p, GalleyPropulsion):
        speed_raw = galley_speed_raw(p.turncranks, hs)
        speed = galley_speed(p.turncranks, hs)
        rows = maneuver_rows(p.turncranks, hs, speed)
        maneuver_kind = "turncranks"
        maneuver = p.turncranks
    else:
        speed_raw = None
        speed = "K"
        kite = kite_speed_table()
        maneuver_kind = "topmen"
        maneuver = hs * _tint("crew", "topmen_per_hull_size")

    gunners = sum(g.crew for g in rater.guns if g.crew_provided)
    gunners += sum(
        catalog.weapon(e.weapon_id).crew * e.count
        for e in design.exotics
        if catalog.weapon(e.weapon_id).crew_quarters_provided
    )
    crew = crew_complement(
        hull_size=hs,
        maneuver_kind=maneuver_kind,
        maneuver=maneuver,
        gunners=gunners,
        marines=design.marines,
        passengers=design.passengers,
        signalman=design.signalman,
        earth_navy=design.has_earth_navy_crew,
    )
    return ShipRating(
        design=design,
        tonnage=tonnage,
        hull_capacity=_tint("hull", "capacity_tons_per_hull_size") * hs,
        lift_value=lift,
        max_altitude=ceiling,
        speed=speed,
        speed_raw=speed_raw,
        kite_speed=kite,
        endurance_days=endurance,
        price=price,
        ram_cost_per_hull_size=ram_cost,
        crew=crew,
        components=tuple(rater.components),
        guns=tuple(rater.guns),
        exotics=tuple(rater.exotic_records),
        hull_rows=hull_rows(hs, ceiling),
        maneuver_rows=rows,
        deck_spaces=(deck, hs * _tint("exotics", "deck_spaces_per_hull_size")),
        internal_spaces=(internal, hs * _tint("exotics", "internal_spaces_per_hull_size")),
        broadside_tons=(port, starboard),
        knots=knots(speed) if isinstance(speed, int) else None,
        horsepower=power,
        errors=tuple(rater.errors),
    )


def rate_design_json(data: Any) -> dict[str, JsonValue]:
    """The JSON design format in, the rating's JSON out (raises :class:`DesignInputError`)."""
    return rate_design(parse_design(data)).to_json()


# --- the catalog classes, rated ------------------------------------------------------------------------


def _catalog_mount(position: str) -> str:
    mount = canonical_mount(position)
    if mount is None:
        raise ValueError(f"catalog mount position {position!r} has no entry in design-tables.json mounts")
    return mount


def design_from_catalog(ship: ShipClass) -> ShipDesign:
    """The design a catalog class is built from: its hull, propulsion, armor, weapons and marines.

    Raises ValueError for a class with no figures (the name-only stubs).
    """
    if ship.propulsion is None or ship.hull_size is None or ship.yard_type is None or ship.hull_material is None:
        raise ValueError(f"{ship.name} has no design figures in the catalog (data status {ship.data_status})")
    p = ship.propulsion
    propulsion: Propulsion
    if p.type == "steam":
        bunker = ship.raw.get("bunker_size")
        if p.engine_size is None or not isinstance(bunker, int):
            raise ValueError(f"{ship.name}: a steam class needs engine_size and bunker_size")
        propulsion = SteamPropulsion(p.engine_size, bool(p.forced_draught), bunker)
    elif p.type == "screw_galley":
        if p.turncranks is None:
            raise ValueError(f"{ship.name}: a screw galley needs turncranks")
        propulsion = GalleyPropulsion(p.turncranks)
    else:
        propulsion = KitePropulsion()
    weapons: list[WeaponMount] = []
    exotics: list[ExoticLoad] = []
    for line in ship.mounts:
        if is_exotic_store(line.weapon_id):
            exotics.append(ExoticLoad(line.weapon_id, line.count))
            continue
        turret = (line.turret_armor_value or 0) if line.armored_mount_type == "turret/sponson" else 0
        positions = line.positions if len(line.positions) == line.count else line.positions[:1] * line.count
        for position, count in Counter(_catalog_mount(pos) for pos in positions).items():
            weapons.append(WeaponMount(line.weapon_id, position, count, turret))
    passengers = ship.raw.get("passengers")
    categories: Sequence[str] = _table("catalog", "earth_navy_categories")
    return ShipDesign(
        yard=cast(Yard, ship.yard_type),
        hull=cast(HullMaterial, ship.hull_material),
        hull_size=ship.hull_size,
        ram=bool(ship.ram),
        armor=ship.armor_value or 0,
        propulsion=propulsion,
        weapons=tuple(weapons),
        exotics=tuple(exotics),
        marines=ship.marines or 0,
        passengers=passengers if isinstance(passengers, int) else 0,
        # The stat blocks list a signalman on the bridge (SGD-CREW-11).
        signalman=ship.crew is not None and "S" in ship.crew.bridge,
        earth_navy=ship.category in categories,
        name=ship.name,
    )


@dataclass(frozen=True, slots=True)
class FigureComparison:
    """One published figure against the rated one. ``difference`` is rated minus published."""

    figure: str
    published: JsonValue
    rated: JsonValue
    stated: bool
    difference: JsonValue = None

    @property
    def matches(self) -> bool:
        return bool(self.published == self.rated)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "figure": self.figure,
            "published": self.published,
            "rated": self.rated,
            "difference": self.difference,
            "published_is": "stated" if self.stated else "reconstructed",
            "matches": self.matches,
        }


@dataclass(frozen=True, slots=True)
class ClassComparison:
    """A catalog class rated by the design rules, beside its published figures."""

    class_id: str
    name: str
    data_status: str
    rating: ShipRating
    figures: tuple[FigureComparison, ...]
    price_with_ram_100: int | float

    @property
    def differences(self) -> tuple[FigureComparison, ...]:
        return tuple(f for f in self.figures if not f.matches)

    @property
    def has_stated_figures(self) -> bool:
        return any(f.stated for f in self.figures)

    @property
    def reproduces_stated_figures_with_ram_100(self) -> bool:
        """Exact once the ram is priced at the 100 per hull size the published Martian ships imply."""
        rest = [f for f in self.stated_differences if f.figure != "price"]
        price = [f for f in self.figures if f.figure == "price"]
        return not rest and all(f.published == self.price_with_ram_100 for f in price if f.stated)

    @property
    def stated_differences(self) -> tuple[FigureComparison, ...]:
        return tuple(f for f in self.differences if f.stated)

    @property
    def reproduces_stated_figures(self) -> bool:
        """Every stated figure comes out of the rules exactly."""
        return not self.stated_differences

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "class": self.class_id,
            "name": self.name,
            "data_status": self.data_status,
            "reproduces_stated_figures": self.reproduces_stated_figures,
            "reproduces_stated_figures_with_ram_100": self.reproduces_stated_figures_with_ram_100,
            "differences": [f.to_json() for f in self.differences],
            "figures": [f.to_json() for f in self.figures],
            "price_with_ram_100_per_hull_size": self.price_with_ram_100,
            "rule_violations": [e.to_json() for e in self.rating.errors],
        }


def _stated(ship: ShipClass, *names: str) -> bool:
    return any(name in ship.provenance and ship.provenance[name].is_stated for name in names)


def _difference(published: JsonValue, rated: JsonValue) -> JsonValue:
    if isinstance(published, int | float) and isinstance(rated, int | float):
        return rated - published
    return None if published == rated else f"{published} -> {rated}"


def compare_with_catalog(ship: ShipClass) -> ClassComparison:
    """Rate a catalog class with the written rules and list every figure that differs from the catalog."""
    design = design_from_catalog(ship)
    rating = rate_design(design)
    ram_100 = rate_design(design, ram_cost_per_hull_size=_tint("hull", "ram_cost_per_hull_size_published_ships"))
    codes: Mapping[str, str] = _table("catalog", "altitude_codes")
    figures: list[FigureComparison] = []

    def figure(name: str, published: JsonValue, rated: JsonValue, *stated_as: str) -> None:
        if published is None:
            return
        figures.append(
            FigureComparison(
                name, published, rated, _stated(ship, *(stated_as or (name,))), _difference(published, rated)
            )
        )

    figure("tonnage", ship.tonnage, _number(rating.tonnage))
    figure("price", ship.price, _number(rating.price))
    altitude = codes.get(ship.max_altitude or "", ship.max_altitude)
    figure("max_altitude", altitude, rating.max_altitude)
    figure("speed", ship.speed, rating.speed)
    endurance = ship.raw.get("endurance_days")
    figure("endurance_days", endurance, rating.endurance_days)
    if ship.crew is not None:
        published_crew = f"{ship.crew.officers}+{ship.crew.petty_officers}+{ship.crew.ratings}"
        figure("crew", published_crew, rating.crew.summary, "crew", "crew_record_sheet")
        figure("officers", ship.crew.officers, rating.crew.officers, "crew", "crew_record_sheet")
        figure(
            "petty_officers",
            ship.crew.petty_officers,
            rating.crew.petty_officers,
            "crew",
            "crew_record_sheet",
        )
        figure("ratings", ship.crew.ratings, rating.crew.ratings, "crew", "crew_record_sheet")
    return ClassComparison(
        class_id=ship.id,
        name=ship.name,
        data_status=ship.data_status,
        rating=rating,
        figures=tuple(figures),
        price_with_ram_100=_number(ram_100.price),
    )


def catalog_comparisons() -> tuple[ClassComparison, ...]:
    """Every catalog class that has design figures (the name-only stubs are left out)."""
    return tuple(compare_with_catalog(ship) for ship in catalog.ship_classes() if ship.has_figures)


def catalog_report_markdown() -> str:
    """The catalog rating report (docs/catalog-rating-report.md): published classes the rules reproduce."""
    comparisons = catalog_comparisons()
    lines = [
        "# Catalog rating report",
        "",
        "Generated by `python manage.py rate_design --catalog-report` (code in",
        "`galleons/design.py`); do not edit by hand. Each catalog class is rebuilt",
        "from its components (hull, propulsion, armor, weapons, marines) and rated with the written",
        "design rules: Cloudships & Gunboats over Sky Galleons, the errata, a three-man bridge plus the",
        "signalman the stat blocks list (SGD-CREW-11), and the written ram price of 1,000 pounds per",
        "hull size (SGD-HULL-03). Catalog ships keep their published figures in play (DESIGN.md",
        "section 8); this report lists where the rules would give something else.",
        "",
        "A difference is rated minus published. *stated* figures are quoted from the rule text;",
        "*reconstructed* ones were rebuilt by the catalog's authors (see",
        "`galleons/data/catalog-notes.md`) and usually match by construction.",
        "",
        "## Summary",
        "",
        "| class | status | reproduces stated figures | differences (rated - published) | price with ram at 100/HS |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in comparisons:
        diffs = ", ".join(
            f"{f.figure} {_signed(f.difference)}{'' if f.stated else ' (reconstructed)'}" for f in c.differences
        )
        lines.append(f"| {c.name} | {c.data_status} | {_verdict(c)} | {diffs or 'none'} | {c.price_with_ram_100:,} |")
    stated = [c for c in comparisons if c.has_stated_figures]
    exact = [c.name for c in stated if c.reproduces_stated_figures]
    exact_100 = [c.name for c in stated if not c.reproduces_stated_figures and c.reproduces_stated_figures_with_ram_100]
    differ = [c.name for c in stated if not c.reproduces_stated_figures_with_ram_100]
    lines += [
        "",
        f"Of the {len(stated)} classes with stated figures, the rules reproduce every stated figure of "
        f"{len(exact)}: {', '.join(exact) or 'none'}.",
        f"With the ram at 100 per hull size, also: {', '.join(exact_100) or 'none'}.",
        f"The rest differ: {', '.join(differ) or 'none'}.",
        "Classes with no stated figure are reconstructed with the rules and match by construction;",
        "partially stated classes whose armament the OCR lost (Skyfire, Dauntless, Locust, Czarina,",
        "Gloire) carry armament fitted to their stated totals, so their matches are weaker evidence.",
    ]
    lines += ["", "## Classes", ""]
    for c in comparisons:
        r = c.rating
        lines += [
            f"### {c.name} (`{c.class_id}`, {c.data_status})",
            "",
            f"Rated: {_number(r.tonnage)} t, lift value {float(r.lift_value):.4f}, "
            f"ceiling {r.max_altitude or 'cannot fly'}, "
            f"speed {r.speed}, endurance {r.endurance_days if r.endurance_days is not None else '-'}, "
            f"price {_number(r.price):,} (ram at 100/HS: {c.price_with_ram_100:,}), crew {r.crew.summary}.",
            "",
            "| figure | published | rated | difference | published is |",
            "| --- | --- | --- | --- | --- |",
        ]
        for f in c.figures:
            lines.append(
                f"| {f.figure} | {f.published} | {f.rated} | {'-' if f.matches else _signed(f.difference)} | "
                f"{'stated' if f.stated else 'reconstructed'} |"
            )
        lines.append("")
        if r.errors:
            lines.append("Design-rule violations:")
            lines.append("")
            lines += [f"- {e.clause} ({e.field}): {e.message}" for e in r.errors]
        else:
            lines.append("No design-rule violations.")
        lines.append("")
    return "\n".join(lines)


def _signed(value: JsonValue) -> str:
    if isinstance(value, int | float):
        return f"{value:+,}"
    return str(value)


def _verdict(comparison: ClassComparison) -> str:
    if not comparison.has_stated_figures:
        return "n/a (nothing stated)"
    if comparison.reproduces_stated_figures:
        return "yes"
    return "with ram at 100/HS" if comparison.reproduces_stated_figures_with_ram_100 else "no"
