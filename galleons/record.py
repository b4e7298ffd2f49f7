"""The Sky Galleons ship record: the record sheet a player keeps for each ship, as immutable data.

Pure Python. A :class:`ShipRecord` holds what the paper record sheet holds (SG-DMG-11/20, SG-CREW-05,
SG-ARM-02/10/11): the hull boxes in rows per altitude (highest row first) with the hits marked, the armor
value, each gun with its mount, firing aspects, crew circles and reload state, the bridge crew, petty
officers, deckhands, maneuvering crew rows and marines, the fire burning aboard and the critical damage
(rudder and lifters jammed with their damage values, screw/mast hits, boiler), and where the ship is
(position, facing, altitude). Everything else is derived: the ceiling left after hull hits, the speed left
after maneuvering crew losses, screw hits and boiler damage, how fast a short-handed gun fires, whether
anyone is at the helm or the trim station.

Rules that change a record (damage, criticals, casualties, fires, repairs) live in the Sky Galleons tactical
ruleset's ``combat.py``, and those of the exotic ordnance (the record's ``ordnance`` items: Hale batteries,
liquid fire racks, mines, drogues, Smutts torpedoes...) in its ``ordnance.py``; this module only builds
records, reads them and makes the crew assignments the Initiative Phase allows. The record is the campaign's
ship (docs/galleons.md), so it lives outside ``battles/rules``: a module named below without a package
(``combat.py``, ``agility.py``, ``flying.py``...) is one of ``battles/rules/sky_galleons``, which imports
this one, never the reverse.

``to_json`` / ``from_json`` round-trip exactly: ``ShipRecord.from_json(r.to_json()) == r`` and the JSON
of the result is the JSON given. The figures come from ``data/combat-tables.json`` (each entry names its
clauses), the catalog and the design rater; none is written here.

Readings (documented in combat-tables.json as well):

* A catalog class keeps its published crew, ceiling and speed (DESIGN.md section 8); its guns, mounts and
  turncrank rows come from the design rater run over the class.
* A gun is armored when it has a turret or sponson armor value, or when it is a fixed mount under the hull
  armor or protection (it then has the ship's armor value); other guns are unarmored.
* A gun that fired on turn T with n turns of reloading is ready again on turn T + n + 1 (SG-FIRE-06);
  each missing gunner costs a shot, or a turn of reloading once the gun is down to one shot (SG-CREW-10/11,
  SGD-ARMT-21, SG-CG-92). Missing gunners are counted when the gun next wants to fire.
* A dead helmsman or trimsman may be relieved by an extra petty officer or an officer (SG-CREW-04/07);
  the relief is marked on the record and still counts in his own rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, TypeVar, cast

from battles.engine.frozen import copies_directly, evolve
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import DataFile
from galleons import catalog, design
from galleons.catalog import ShipClass, Weapon
from galleons.design import ShipDesign, ShipRating

COMBAT_TABLES_FILE = catalog.DATA_DIR / "combat-tables.json"
ORDNANCE_FILE = catalog.DATA_DIR / "ordnance.json"

# Gun-hit and magazine picks name ordnance (a group of items or one item) with this prefix (ordnance.py).
ORDNANCE_PREFIX = "ordnance:"

KITE_SPEED = "K"


# --- the tables ----------------------------------------------------------------------------------------


COMBAT_TABLES = DataFile(COMBAT_TABLES_FILE)
ORDNANCE_TABLES = DataFile(ORDNANCE_FILE)


def combat_tables() -> Mapping[str, Any]:
    """combat-tables.json, parsed once. Read-only by convention: callers must not mutate it."""
    return COMBAT_TABLES.data


def ordnance_tables() -> Mapping[str, Any]:
    """ordnance.json, parsed once. Read-only by convention: callers must not mutate it."""
    return ORDNANCE_TABLES.data


# Typed readers by key path: table("trim", "die") is any entry, tint a whole number, tstrs a list of text.
table = COMBAT_TABLES.get
tint = COMBAT_TABLES.whole
tstrs = COMBAT_TABLES.texts
otable = ORDNANCE_TABLES.get
oint = ORDNANCE_TABLES.whole
ostrs = ORDNANCE_TABLES.texts


@cache
def altitude_levels() -> tuple[str, ...]:
    """Ground, Very Low ... Very High, lowest first (SG-ALT-01)."""
    return tstrs("altitude", "levels_low_to_high")


@cache
def altitude_level(altitude: str) -> int:
    """0 for the ground, 1 for Very Low ... 5 for Very High."""
    try:
        return altitude_levels().index(altitude)
    except ValueError:
        raise ValueError(f"unknown altitude {altitude!r}; the altitudes are {', '.join(altitude_levels())}") from None


@cache
def surface() -> str:
    return str(table("altitude", "surface"))


def _altitude_code(name: str) -> str:
    """ "High" or "H" -> "H" (the catalog writes ceilings out in full)."""
    names: Mapping[str, str] = table("altitude", "names")
    for code, full in names.items():
        if name in (code, full):
            return code
    raise ValueError(f"unknown altitude {name!r}")


# --- when: turn and movement phase ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Moment:
    """A point in the sequence of play: the turn and its movement phase (1 = first player's, 2 = second's...).

    Fire, boarding and repairs happen at the end of a movement phase (SG-SEQ-05..08), so the phase is
    the clock the record's lingering effects run on ("the next two movement phases", SG-CRIT-37). A turn
    has one movement phase per player: two in the basic game, more in a multiplayer scenario (SG-SCN-05).
    """

    turn: int
    phase: int = 1
    phases: int = 2

    def __post_init__(self) -> None:
        if self.turn < 1 or self.phases < 1 or not 1 <= self.phase <= self.phases:
            raise ValueError(
                f"a moment is turn 1 or later and movement phase 1..{self.phases}, not {self.turn}/{self.phase}"
            )

    @property
    def index(self) -> int:
        """Movement phases since the battle began: with two a turn, turn 1 phase 1 is 1, turn 1 phase 2 is 2,
        turn 2 phase 1 is 3."""
        return self.phases * (self.turn - 1) + self.phase


# --- small typed readers for the JSON ------------------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, *, minimum: int | None = 0) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{key}: must be at least {minimum}, got {value}")
    return value


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key, minimum=None)


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise ValueError(f"{key}: expected true or false, got {value!r}")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key}: expected text, got {value!r}")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def _choice(data: Mapping[str, Any], key: str, choices: Sequence[str]) -> str:
    value = _str(data, key)
    if value not in choices:
        raise ValueError(f"{key}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def _strs(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{key}: expected a list of text, got {value!r}")
    return tuple(value)


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data[key]
    if not isinstance(value, list) or not all(type(item) is int and item >= 0 for item in value):
        raise ValueError(f"{key}: expected a list of whole numbers, got {value!r}")
    return tuple(value)


def _object(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data[key]
    if not isinstance(value, Mapping):
        raise ValueError(f"{key}: expected an object, got {value!r}")
    return value


class _Part(Protocol):
    def to_json(self) -> dict[str, Any]: ...


P = TypeVar("P", bound=_Part)


def _part(parse: Callable[[Any], P], data: Any, old: P | None) -> P:
    """``parse(data)``, or ``old`` where the data is its JSON: what parsing would give (a part reads back to
    itself), without the checks and the catalog look-ups (ShipRecord.from_json's ``like``)."""
    return old if old is not None and old.to_json() == data else parse(data)


def _parts(parse: Callable[[Any], P], items: list[Any], old: Sequence[P]) -> tuple[P, ...]:
    """Each item parsed, or the part at the same place in ``old`` where the item is its JSON (see _part)."""
    return tuple(_part(parse, item, old[n] if n < len(old) else None) for n, item in enumerate(items))


@cache  # on the classes' own key tuples: a handful of entries, the same for every battle
def _key_sets(keys: tuple[str, ...], optional: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """(the keys a part must have, the keys it may have)."""
    return frozenset(keys), frozenset(keys) | frozenset(optional)


def _exact_keys(data: Any, keys: Sequence[str], what: str, optional: Sequence[str] = ()) -> Mapping[str, Any]:
    # Exact keys both ways: an unknown key would be dropped on the way back and break the round trip.
    # ``optional`` keys are written only when set, so they may be absent, but never null.
    if not isinstance(data, Mapping):
        raise ValueError(f"{what}: expected an object, got {data!r}")
    required, allowed = _key_sets(tuple(keys), tuple(optional))
    present = data.keys()
    if required <= present <= allowed and all(data[key] is not None for key in present - required):
        return data  # the common case, at set speed (every part of every record parsed comes through here)
    unknown = sorted(set(data) - set(keys) - set(optional))
    missing = sorted(set(keys) - set(data))
    if unknown or missing:
        raise ValueError(f"{what}: unknown keys {unknown}, missing keys {missing}")
    nulls = sorted(key for key in optional if key in data and data[key] is None)
    if nulls:
        raise ValueError(f"{what}: leave out {nulls} rather than write null")
    return data


# --- the parts of the record ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HullRow:
    """A row of hull boxes for one altitude; hits fill the highest remaining row first (SG-DMG-13)."""

    altitude: str
    boxes: int
    hits: int = 0

    @property
    def full(self) -> bool:
        return self.hits >= self.boxes

    @property
    def left(self) -> int:
        return self.boxes - self.hits

    KEYS = ("altitude", "boxes", "hits")

    def to_json(self) -> dict[str, Any]:
        return {"altitude": self.altitude, "boxes": self.boxes, "hits": self.hits}

    @classmethod
    def from_json(cls, data: Any) -> HullRow:
        data = _exact_keys(data, cls.KEYS, "hull row")
        row = cls(_choice(data, "altitude", altitude_levels()), _int(data, "boxes", minimum=1), _int(data, "hits"))
        if row.hits > row.boxes:
            raise ValueError(f"hull row {row.altitude}: {row.hits} hits in {row.boxes} boxes")
        return row


@dataclass(frozen=True, slots=True)
class FireRate:
    """How a gun fires as its crew stands: shots this turn, then turns of reloading before the next."""

    shots: int
    reload_turns: int


def fire_rate(weapon_type: Weapon, crew_short: int = 0) -> FireRate | None:
    """A weapon's rate of fire with ``crew_short`` gunners missing; None if it does not fire as a gun.

    ROF n: n shots a turn, one fewer per missing gunner (SG-CREW-10); once down to one shot, each further
    missing gunner adds a turn of reloading, as for a gun of ROF 1 (SG-CREW-11). ROF (n): one shot, then n
    turns of reloading, one more per missing gunner (SG-FIRE-05, SGD-ARMT-21, SG-CG-92). Jam-prone
    machineguns count their normal rate (SG-CG-51). Rockets, liquid fire and the like ("D6") are not
    gunfire (SG-CG-94).
    """
    rof = weapon_type.rate_of_fire
    if rof is None or rof.dice is not None:
        return None
    short = max(crew_short, 0)
    added = tint("rate_of_fire", "reload_turns_added_per_missing_gunner")
    if rof.reload_turns is not None:
        return FireRate(1, rof.reload_turns + short * added)
    shots = rof.shots if rof.shots is not None else rof.normal
    if shots is None:
        return None
    left = shots - short * tint("rate_of_fire", "shots_lost_per_missing_gunner")
    if left >= 1:
        return FireRate(left, 0)
    # Down to one shot already: the men still missing each cost a turn of reloading.
    return FireRate(1, (1 - left) * added)


@cache  # the weapon's catalog entry and the tables are read once: a pure function of (weapon id, men short)
def _fire_rate_of(weapon_id: str, crew_short: int) -> FireRate | None:
    return fire_rate(catalog.weapon(weapon_id), crew_short)


@dataclass(frozen=True, slots=True)
class Gun:
    """One gun on the deck plan: its mount and firing aspects (SG-FIRE-02), crew circles (SG-FIRE-03)."""

    id: str
    weapon_id: str
    mount: str
    arcs: tuple[str, ...]
    # Crew circles on the record sheet, and the men actually at the gun now.
    crew: int
    manned: int
    # The mount's armor value; None for an unarmored gun (SG-ARM-09..11).
    armor: int | None = None
    # The turn it last fired: each weapon fires once a turn (SG-SEQ-06) and then reloads (SG-FIRE-05).
    last_fired: int | None = None
    destroyed: bool = False
    jammed: bool = False
    # A portable machinegun: the turn it was last moved to another aspect; it may not fire that turn
    # (SG-MG-04, SG-CG-56). Written to JSON only when set.
    trained_turn: int | None = None

    @property
    def weapon(self) -> Weapon:
        return catalog.weapon(self.weapon_id)

    @property
    def name(self) -> str:
        return self.weapon.name

    @property
    def crew_short(self) -> int:
        return max(self.crew - self.manned, 0)

    @property
    def damage_value(self) -> int | None:
        dv = self.weapon.damage_value
        return dv if isinstance(dv, int) else None

    @property
    def rate(self) -> FireRate | None:
        """Its rate of fire with the crew it has now (SG-CREW-10/11)."""
        return _fire_rate_of(self.weapon_id, self.crew_short)

    def ready(self, turn: int) -> bool:
        """Whole, manned, loaded and not yet fired this turn: fired on T, ready on T + reload + 1 at the
        earliest (SG-FIRE-06, SG-SEQ-06). A gun with nobody left at it cannot fire."""
        rate = self.rate
        if rate is None or self.destroyed or self.jammed or self.manned == 0:
            return False
        return self.last_fired is None or turn - self.last_fired > rate.reload_turns

    KEYS = ("id", "weapon", "mount", "arcs", "crew", "manned", "armor", "last_fired", "destroyed", "jammed")
    OPTIONAL_KEYS = ("trained_turn",)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "weapon": self.weapon_id,
            "mount": self.mount,
            "arcs": list(self.arcs),
            "crew": self.crew,
            "manned": self.manned,
            "armor": self.armor,
            "last_fired": self.last_fired,
            "destroyed": self.destroyed,
            "jammed": self.jammed,
        }
        if self.trained_turn is not None:
            data["trained_turn"] = self.trained_turn
        return data

    @classmethod
    def from_json(cls, data: Any) -> Gun:
        data = _exact_keys(data, cls.KEYS, "gun", cls.OPTIONAL_KEYS)
        weapon_id = _str(data, "weapon")
        catalog.weapon(weapon_id)  # an unknown weapon fails here, not at the first shot
        arcs = _strs(data, "arcs")
        bad = [arc for arc in arcs if arc not in design.ASPECTS]
        if bad:
            raise ValueError(f"gun {data['id']!r}: unknown firing aspects {bad}")
        return cls(
            id=_str(data, "id"),
            weapon_id=weapon_id,
            mount=_str(data, "mount"),
            arcs=arcs,
            crew=_int(data, "crew"),
            manned=_int(data, "manned"),
            armor=_opt_int(data, "armor"),
            last_fired=_opt_int(data, "last_fired"),
            destroyed=_bool(data, "destroyed"),
            jammed=_bool(data, "jammed"),
            trained_turn=_opt_int(data, "trained_turn"),
        )


# Crew posts as the casualty rules name them ("gunners" means the guns' crews, "gun:<id>" one gun's).
CREW_COUNTS = (
    "captain",
    "officers",
    "helmsman",
    "trimsman",
    "signalman",
    "petty_officers",
    "deckhands",
    "marine_officers",
    "marines",
)


@dataclass(frozen=True, slots=True)
class Crew:
    """The crew boxes outside the gun crews (SG-DMG-20, SG-CREW-05): bridge, deck, maneuver, marines.

    Counts are the men alive and aboard. The bridge is the captain "C", the other officers "O", the
    helmsman "H", the trimsman "T" and the signalman "S"; extra petty officers "P" are in the deck crew.
    """

    captain: int
    officers: int
    helmsman: int
    trimsman: int
    signalman: int
    petty_officers: int
    deckhands: int
    marine_officers: int
    marines: int
    maneuver_kind: str
    # Maneuvering crew boxes per row, top row first; casualties fill from the top (SGD-MCH-04/06).
    maneuver_rows: tuple[int, ...]
    maneuver_lost: int = 0
    # Who stands in at an empty helm or trim station: "petty_officer", "officer" or "captain" (SG-CREW-04/07).
    helm_relief: str | None = None
    trim_relief: str | None = None

    @property
    def maneuver(self) -> int:
        """Maneuvering crew alive."""
        return max(sum(self.maneuver_rows) - self.maneuver_lost, 0)

    @property
    def maneuver_rows_lost(self) -> int:
        """Rows of maneuvering crew boxes completely marked off, from the top (SG-CREW-12)."""
        lost, left = 0, self.maneuver_lost
        for boxes in self.maneuver_rows:
            if left < boxes:
                break
            left -= boxes
            lost += 1
        return lost

    def with_count(self, post: str, men: int) -> Crew:
        """The crew with ``men`` at ``post`` (one of CREW_COUNTS)."""
        self.count(post)
        if men < 0:
            raise ValueError(f"{post}: cannot have {men} men")
        changes: dict[str, Any] = {post: men}
        return evolve(self, **changes)

    def count(self, post: str) -> int:
        if post not in CREW_COUNTS:
            raise ValueError(f"unknown crew post {post!r}")
        return int(getattr(self, post))

    @property
    def party_leader(self) -> str | None:
        """The post of the officer who leads a party off the ship: a marine officer before a sea officer, the
        captain last (SG-BRD-01, SG-MAR-02, SG-SCN-37); None when none is left."""
        for post in ("marine_officers", "officers", "captain"):
            if getattr(self, post):
                return post
        return None

    def _available(self, rank: str) -> int:
        return {"petty_officer": self.petty_officers, "officer": self.officers, "captain": self.captain}[rank]

    def _relief_holds(self, station: str) -> bool:
        """The relief named for ``station`` is still alive, counting a relief of the same rank at the helm."""
        relief = self.helm_relief if station == "helm" else self.trim_relief
        if relief is None:
            return False
        needed = 1
        if station == "trim" and not self.helmsman and self.helm_relief == relief:
            needed += 1
        return self._available(relief) >= needed

    @property
    def helm_manned(self) -> bool:
        """Someone at the helm: the helmsman, or a relief still alive (SG-CREW-04/07/08)."""
        return self.helmsman > 0 or self._relief_holds("helm")

    @property
    def trim_manned(self) -> bool:
        """Someone at the trim station: the trimsman, or a relief still alive (SG-CREW-04/07/09)."""
        return self.trimsman > 0 or self._relief_holds("trim")

    @property
    def officers_aboard(self) -> int:
        """Officers, marine officers included; a relief at a station still counts (SG-CREW-04)."""
        return self.captain + self.officers + self.marine_officers

    @property
    def petty_officers_aboard(self) -> int:
        return self.helmsman + self.trimsman + self.petty_officers

    @property
    def total(self) -> int:
        """Every man alive outside the gun crews."""
        return sum(self.count(post) for post in CREW_COUNTS) + self.maneuver

    KEYS = (*CREW_COUNTS, "maneuver_kind", "maneuver_rows", "maneuver_lost", "helm_relief", "trim_relief")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {post: self.count(post) for post in CREW_COUNTS}
        data.update(
            maneuver_kind=self.maneuver_kind,
            maneuver_rows=list(self.maneuver_rows),
            maneuver_lost=self.maneuver_lost,
            helm_relief=self.helm_relief,
            trim_relief=self.trim_relief,
        )
        return data

    @classmethod
    def from_json(cls, data: Any) -> Crew:
        data = _exact_keys(data, cls.KEYS, "crew")
        kinds: Mapping[str, str] = table("ship_record", "maneuver_kinds")
        ranks = tstrs("stations", "relief_ranks")
        fields: dict[str, Any] = {post: _int(data, post) for post in CREW_COUNTS}
        for key in ("helm_relief", "trim_relief"):
            fields[key] = None if data[key] is None else _choice(data, key, ranks)
        crew = cls(
            maneuver_kind=_choice(data, "maneuver_kind", tuple(kinds.values())),
            maneuver_rows=_ints(data, "maneuver_rows"),
            maneuver_lost=_int(data, "maneuver_lost"),
            **fields,
        )
        if crew.maneuver_lost > sum(crew.maneuver_rows):
            raise ValueError(f"crew: {crew.maneuver_lost} maneuvering crew lost of {sum(crew.maneuver_rows)}")
        return crew


@dataclass(frozen=True, slots=True)
class Criticals:
    """Critical damage and the effects that outlast a turn (SG-CRIT-*), and the phase's officer check.

    ``rudder_jam`` and ``lifters_jam`` are the damage values to beat to free them, cumulative (SG-CRIT-39);
    0 means free. Turns and movement phases are :class:`Moment` turns and indexes.
    """

    rudder_jam: int = 0
    lifters_jam: int = 0
    screw_mast_hits: int = 0
    # Speed lost to a boiler that held; it recovers by 1 a turn (SG-CRIT-27).
    boiler_loss: int = 0
    boiler_blown: bool = False
    jury_rigged: bool = False
    # After a Bridge hit the ship may not voluntarily change course or altitude in this turn (SG-CRIT-16).
    helm_locked_turn: int | None = None
    # After a loss of trim: no moving, firing, fire fighting or crew changes in these movement phases.
    stunned_from: int | None = None
    stunned_through: int | None = None
    # The movement phase whose officer casualty check has been rolled (once a phase, SG-DMG-19).
    officer_check_phase: int | None = None

    KEYS = (
        "rudder_jam",
        "lifters_jam",
        "screw_mast_hits",
        "boiler_loss",
        "boiler_blown",
        "jury_rigged",
        "helm_locked_turn",
        "stunned_from",
        "stunned_through",
        "officer_check_phase",
    )

    def to_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.KEYS}

    @classmethod
    def from_json(cls, data: Any) -> Criticals:
        data = _exact_keys(data, cls.KEYS, "criticals")
        return cls(
            rudder_jam=_int(data, "rudder_jam"),
            lifters_jam=_int(data, "lifters_jam"),
            screw_mast_hits=_int(data, "screw_mast_hits"),
            boiler_loss=_int(data, "boiler_loss"),
            boiler_blown=_bool(data, "boiler_blown"),
            jury_rigged=_bool(data, "jury_rigged"),
            helm_locked_turn=_opt_int(data, "helm_locked_turn"),
            stunned_from=_opt_int(data, "stunned_from"),
            stunned_through=_opt_int(data, "stunned_through"),
            officer_check_phase=_opt_int(data, "officer_check_phase"),
        )


# Where a boarding party's men come from, and the rank they fight as (SG-BRD-01, SG-MAR-01/02): marine
# officers lead like officers; any gun's crew may go as seamen ("gun:<id>").
PARTY_POSTS = {
    "captain": "officers",
    "officers": "officers",
    "marine_officers": "officers",
    "petty_officers": "petty_officers",
    "deckhands": "seamen",
    "signalman": "seamen",
    "marines": "marines",
}
PARTY_RANKS = ("officers", "petty_officers", "seamen", "marines")


def party_rank(post: str) -> str:
    """The rank a man from ``post`` fights as in a boarding party; ValueError for a post that cannot go."""
    if post.startswith("gun:"):
        return "seamen"
    if post not in PARTY_POSTS:
        raise ValueError(f"{post!r} cannot join a boarding party; men come from {', '.join(PARTY_POSTS)} or gun:<id>")
    return PARTY_POSTS[post]


@dataclass(frozen=True, slots=True)
class Party:
    """A boarding party by rank (SG-BRD-01), and the posts its men left, to go back to (SG-BRD-04).

    The record keeps two: the party formed and still at home, and the boarders across on an enemy ship.
    ``posts`` is kept on the party at home only, as formed (the dead do not come back).
    """

    officers: int = 0
    petty_officers: int = 0
    seamen: int = 0
    marines: int = 0
    posts: tuple[tuple[str, int], ...] = ()

    @property
    def men(self) -> int:
        return self.officers + self.petty_officers + self.seamen + self.marines

    @property
    def leaders(self) -> int:
        """Officers and petty officers: a party with none must go home (SG-BRD-17)."""
        return self.officers + self.petty_officers

    def count(self, rank: str) -> int:
        if rank not in PARTY_RANKS:
            raise ValueError(f"unknown party rank {rank!r}")
        return int(getattr(self, rank))

    def with_count(self, rank: str, men: int) -> Party:
        self.count(rank)
        if men < 0:
            raise ValueError(f"{rank}: cannot have {men} men")
        changes: dict[str, Any] = {rank: men}
        return evolve(self, **changes)

    def plus(self, other: Party) -> Party:
        """Both parties together (boarders coming home); the posts are this party's."""
        return Party(
            self.officers + other.officers,
            self.petty_officers + other.petty_officers,
            self.seamen + other.seamen,
            self.marines + other.marines,
            self.posts,
        )

    KEYS = (*PARTY_RANKS, "posts")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {rank: self.count(rank) for rank in PARTY_RANKS}
        data["posts"] = [[post, men] for post, men in self.posts]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Party:
        data = _exact_keys(data, cls.KEYS, "boarding party")
        posts = data["posts"]
        if not isinstance(posts, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and type(p[1]) is int and p[1] > 0
            for p in posts
        ):
            raise ValueError(f"posts: expected [[post, men], ...], got {posts!r}")
        for post, _ in posts:
            party_rank(post)
        return cls(**{rank: _int(data, rank) for rank in PARTY_RANKS}, posts=tuple((p, m) for p, m in posts))


NO_PARTY = Party()


def ordnance_kinds() -> Mapping[str, Mapping[str, Any]]:
    """The exotic ordnance a record carries as items, by weapon id (ordnance.json record/kinds)."""
    kinds: Mapping[str, Mapping[str, Any]] = otable("record", "kinds")
    return kinds


@dataclass(frozen=True, slots=True)
class Ordnance:
    """One exotic ordnance item on the record sheet (SG-HALE-07, SG-LF-06, SG-SMT-09...): a Hale battery,
    a liquid fire rack, a spike hopper, a bomb rack or a spare bomb load, a tether mine, a drogue or a
    Smutts torpedo, and what it is doing now (``state``, one of its kind's words in ordnance.json).

    A Hale battery has the ``aspect`` it faces and its ``angle``, "up" or "down" (SG-HALE-02/07); ``since``
    is the turn the state began (a rack being reloaded counts its turns from it, SG-CG-77). The rules that
    change items are in ``ordnance.py``."""

    id: str
    weapon_id: str
    state: str
    aspect: str | None = None
    angle: str | None = None
    since: int | None = None

    @property
    def name(self) -> str:
        return catalog.weapon(self.weapon_id).name

    KEYS = ("id", "weapon", "state")
    OPTIONAL_KEYS = ("aspect", "angle", "since")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "weapon": self.weapon_id, "state": self.state}
        for key in self.OPTIONAL_KEYS:
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Ordnance:
        data = _exact_keys(data, cls.KEYS, "ordnance item", cls.OPTIONAL_KEYS)
        weapon_id = _choice(data, "weapon", tuple(ordnance_kinds()))
        return cls(
            id=_str(data, "id"),
            weapon_id=weapon_id,
            state=_choice(data, "state", tuple(ordnance_kinds()[weapon_id]["states"])),
            aspect=None if data.get("aspect") is None else _choice(data, "aspect", design.ASPECTS),
            angle=None if data.get("angle") is None else _choice(data, "angle", ostrs("hale_rockets", "angles")),
            since=_opt_int(data, "since"),
        )


# --- the record ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipRecord:
    """One ship's record sheet in play. Immutable: the rules return changed copies."""

    name: str
    class_id: str | None
    class_name: str
    nation: str
    side: str
    propulsion: str
    hull_material: str
    hull_size: int
    # Steam ships: the engine (boiler) size, which sets the criticals of a boiler explosion (SG-CRIT-44).
    engine_size: int | None
    ram: bool
    armor: int
    # The movement allowance as rated; "K" for a kite, whose speed is rolled each turn (SG-KITE-01).
    speed: int | str
    crew_quality: str
    # Highest altitude first, as the record sheet draws them (SG-ALT-03).
    hull_rows: tuple[HullRow, ...]
    guns: tuple[Gun, ...]
    crew: Crew
    # The owner's standing order for taking casualties (SG-DMG-18); see combat-tables.json casualty_order.
    casualty_order: tuple[str, ...]
    # The level of the fire burning aboard; 0 = none (SG-CRIT-17/49).
    fire: int
    criticals: Criticals
    altitude: str
    facing: int
    position: Hex | None
    status: str
    # The boarding party formed and at home, the boarders across and the ship they are on (SG-BRD-01/05).
    party: Party = NO_PARTY
    boarders: Party = NO_PARTY
    boarding: str | None = None
    # The ships it is grappled with (SG-GRAP-04..11).
    grappled_with: tuple[str, ...] = ()
    # The marines' small arm (a catalog small arm id, or a weapon that makes no small arms fire such as
    # "shotgun"); None: by nation (SG-SAF-05, combat-tables.json small_arms). Written to JSON only when set.
    marine_arms: str | None = None
    # The turn the marines last fired small arms: once a turn, like a gun (SG-SEQ-06). JSON only when set.
    marines_fired: int | None = None
    # Exotic ordnance carried as items outside the guns (ordnance.py). JSON only when there is some.
    ordnance: tuple[Ordnance, ...] = ()
    # A ground target rather than a vessel: "battery", "city" or "fortress" (SG-GB, SG-BOMB). JSON only when set.
    emplacement: str | None = None
    # The Agility rules (agility.py), each written to JSON only when set: the hexes the ship moved in its
    # latest move, its speed for the agility rating (AG-AGI-01); a steam ship's Endurance track, its boxes,
    # those crossed off for days travelled and those lost to coal bunker hits (AG-END-01..05).
    agility_speed: int | None = None
    endurance: int | None = None
    endurance_used: int | None = None
    coal_lost: int | None = None
    # Shotgun marines who fired their double attack (SG-CG-17): the ship the boarding action is on, until
    # the action ends and they reload (SG-CG-18, close_action.py). JSON only when set.
    shotguns_spent: str | None = None
    # High Martians (flying.py), each written to JSON only when set: a High Martian crew (SG-HM-01..08), the
    # crew quality its men fight boarding actions with (SG-HM-07; None: its crew quality) and the Throckmorton
    # conveyors aboard (SG-THR-01).
    high_martian: bool = False
    boarding_quality: str | None = None
    conveyors: int | None = None

    # -- hull and altitude --

    @property
    def hull_boxes(self) -> int:
        return sum(row.boxes for row in self.hull_rows)

    @property
    def hull_hits(self) -> int:
        return sum(row.hits for row in self.hull_rows)

    @property
    def max_altitude(self) -> str | None:
        """The highest row not yet filled (SG-DMG-14, SGD-HITS-01); None once every box is checked."""
        for row in self.hull_rows:
            if not row.full:
                return row.altitude
        return None

    @property
    def must_drop(self) -> int:
        """Levels the ship sits above its ceiling: it drops that far, free, next movement (SG-DMG-15)."""
        ceiling = self.max_altitude
        if ceiling is None or self.status != "flying":
            return 0
        return max(altitude_level(self.altitude) - altitude_level(ceiling), 0)

    @property
    def afloat(self) -> bool:
        return self.status != "crashed"

    # -- propulsion and speed --

    @property
    def is_kite(self) -> bool:
        return self.propulsion == "kite"

    @property
    def is_steam(self) -> bool:
        return self.propulsion == "steam"

    def _maneuverable(self) -> bool:
        """Not stopped for good: boiler whole and some maneuvering crew left (SG-CRIT-26, SG-CREW-13)."""
        crew = self.crew
        return not self.criticals.boiler_blown and not (sum(crew.maneuver_rows) and crew.maneuver == 0)

    def _speed(self, kite_die: int | None, with_wind: bool, screw_mast_hits: int) -> int:
        """Speed after crew losses, boiler damage and ``screw_mast_hits``, before any jury-rig."""
        if not self._maneuverable():
            return 0
        crew = self.crew
        if self.is_kite:
            if kite_die is None:
                raise ValueError(f"{self.name} is a kite: its speed needs the movement die (SG-KITE-02/04)")
            # Mast hits come off the kite's movement die (SG-CRIT-29); topmen off its speed (SGD-MCH-05).
            die = kite_die - screw_mast_hits * tint("screw_mast", "kite_die_lost_per_critical")
            lost = crew.maneuver_lost * tint("maneuvering_crew", "speed_lost_per_man", "kite")
            return max(_kite_speed(die, with_wind=with_wind) - lost, 0)
        if not isinstance(self.speed, int):
            raise ValueError(f"{self.name}: only kites have a rolled speed, not {self.speed!r}")
        if self.is_steam:
            lost = crew.maneuver_lost * tint("maneuvering_crew", "speed_lost_per_man", "steam")
        else:
            lost = crew.maneuver_rows_lost
        screw = screw_mast_hits * tint("screw_mast", "speed_lost_per_critical")
        return max(self.speed - lost - self.criticals.boiler_loss - screw, 0)

    def effective_speed(self, kite_die: int | None = None, *, with_wind: bool = True) -> int:
        """The movement allowance left after crew losses and damage (SG-CREW-12..14, SG-CRIT-26..30).

        A kite passes its movement die and whether it runs with the wind (SG-KITE-02/04). A jury-rig
        gives speed 1 to a ship the screw or mast hits have stopped (SG-CRIT-30).
        """
        speed = self._speed(kite_die, with_wind, self.criticals.screw_mast_hits)
        if speed == 0 and self.criticals.jury_rigged and self._maneuverable():
            return tint("screw_mast", "jury_rig_speed")
        return speed

    @property
    def jury_rig_possible(self) -> bool:
        """Screw or mast hits have brought the best speed to 0, and no jury-rig yet (SG-CRIT-30)."""
        c = self.criticals
        if c.jury_rigged or c.screw_mast_hits == 0 or not self._maneuverable():
            return False
        # A kite at its best: the top face of the die, running with the wind.
        best_die = 6 if self.is_kite else None
        return self._speed(best_die, True, c.screw_mast_hits) == 0 < self._speed(best_die, True, 0)

    # -- crew, stations and what the ship may do --

    @property
    def helm_manned(self) -> bool:
        return self.crew.helm_manned

    @property
    def trim_manned(self) -> bool:
        return self.crew.trim_manned

    def stunned(self, now: Moment) -> bool:
        """Still stunned by a loss of trim in this movement phase (SG-CRIT-37)."""
        c = self.criticals
        return (
            c.stunned_from is not None
            and c.stunned_through is not None
            and (c.stunned_from <= now.index <= c.stunned_through)
        )

    def can_change_course(self, now: Moment) -> bool:
        """Not jammed, someone at the helm, no bridge hit last turn, not stunned (SG-CRIT-16/38, SG-CREW-08)."""
        return (
            self.criticals.rudder_jam == 0
            and self.helm_manned
            and self.criticals.helm_locked_turn != now.turn
            and not self.stunned(now)
        )

    def can_change_speed(self, now: Moment) -> bool:
        """Nobody at the helm: no change of speed either (SG-CREW-08)."""
        return self.helm_manned and not self.stunned(now)

    def can_change_altitude(self, now: Moment) -> bool:
        """Lifters free, someone at the trim station, no bridge hit last turn (SG-CRIT-16/42, SG-CREW-09)."""
        return (
            self.criticals.lifters_jam == 0
            and self.trim_manned
            and self.criticals.helm_locked_turn != now.turn
            and not self.stunned(now)
        )

    @property
    def boarders_quality(self) -> str:
        """The crew quality its men fight boarding actions with: a High Martian crew's own (SG-HM-07)."""
        return self.boarding_quality or self.crew_quality

    @property
    def officers_alive(self) -> int:
        """Officers aboard, in the boarding party and across with the boarders."""
        return self.crew.officers_aboard + self.party.officers + self.boarders.officers

    @property
    def all_officers_lost(self) -> bool:
        """With every officer dead the ship withdraws, or surrenders if caught (SG-CREW-03); officers away
        with the boarders are not lost."""
        return self.officers_alive == 0

    @property
    def men_alive(self) -> int:
        """Every man of the ship alive: aboard, in the party, and across as boarders."""
        return self.crew_aboard + self.party.men + self.boarders.men

    @property
    def gunners(self) -> int:
        return sum(gun.manned for gun in self.guns)

    @property
    def crew_aboard(self) -> int:
        return self.crew.total + self.gunners

    def gun(self, gun_id: str) -> Gun:
        for gun in self.guns:
            if gun.id == gun_id:
                return gun
        raise KeyError(f"{self.name} has no gun {gun_id!r}; its guns are {', '.join(g.id for g in self.guns)}")

    def with_gun(self, gun: Gun) -> ShipRecord:
        """The record with ``gun`` replacing the gun of the same id."""
        self.gun(gun.id)
        return self.evolve(guns=tuple(gun if g.id == gun.id else g for g in self.guns))

    def evolve(self, **changes: Any) -> ShipRecord:
        """The record with ``changes``: ``dataclasses.replace``, at a fraction of its cost (battles.engine.frozen; the
        folds move a ship with it for every step). An unknown field is a TypeError, as there."""
        return evolve(self, **changes)

    def item(self, item_id: str) -> Ordnance:
        """One ordnance item by id (H1, F2, M3...)."""
        for item in self.ordnance:
            if item.id == item_id:
                return item
        known = ", ".join(i.id for i in self.ordnance) or "none"
        raise KeyError(f"{self.name} has no ordnance item {item_id!r}; its items are {known}")

    def with_items(self, *items: Ordnance) -> ShipRecord:
        """The record with each of ``items`` replacing the item of the same id."""
        changed = {item.id: item for item in items}
        for item_id in changed:
            self.item(item_id)
        return self.evolve(ordnance=tuple(changed.get(i.id, i) for i in self.ordnance))

    def items_of(self, *weapon_ids: str, states: Sequence[str] = ()) -> tuple[Ordnance, ...]:
        """The items of those weapons, in record order, only those in ``states`` if given."""
        return tuple(i for i in self.ordnance if i.weapon_id in weapon_ids and (not states or i.state in states))

    # -- JSON --

    KEYS = (
        "name",
        "class_id",
        "class_name",
        "nation",
        "side",
        "propulsion",
        "hull_material",
        "hull_size",
        "engine_size",
        "ram",
        "armor",
        "speed",
        "crew_quality",
        "hull_rows",
        "guns",
        "crew",
        "casualty_order",
        "fire",
        "criticals",
        "altitude",
        "facing",
        "position",
        "status",
        "party",
        "boarders",
        "boarding",
        "grappled_with",
    )
    AGILITY_KEYS = ("agility_speed", "endurance", "endurance_used", "coal_lost")
    FLYING_KEYS = ("high_martian", "boarding_quality", "conveyors")
    OPTIONAL_KEYS = (
        "marine_arms",
        "marines_fired",
        "ordnance",
        "emplacement",
        *AGILITY_KEYS,
        "shotguns_spent",
        *FLYING_KEYS,
    )

    def to_json(self) -> dict[str, Any]:
        return self._json(_part_json)

    def plain_json(self) -> dict[str, Any]:
        """``to_json`` as the event log's ``plain`` copy spells it, built directly: every object's keys in sorted
        order (a ``ship`` event's record, basics.commit). The parts' JSON holds no object below their own, so
        sorting the record's and each part's keys is all plain does.

        Each part's sorted JSON is built once and given again for the very same part (``_plain_part``): a record
        changed by one shot shares all its other parts with the last, and rebuilding them was most of this. The
        record's own object and lists are fresh; a part's JSON is shared by the ship events that carry it, which
        is safe as event data is never mutated (Event)."""
        return _sorted(self._json(_plain_part))

    def _json(self, part_json: Callable[[_Part], dict[str, Any]]) -> dict[str, Any]:
        """The record's JSON, with ``part_json`` giving each part's (hull row, gun, crew, criticals, party,
        ordnance item)."""
        data: dict[str, Any] = {
            "name": self.name,
            "class_id": self.class_id,
            "class_name": self.class_name,
            "nation": self.nation,
            "side": self.side,
            "propulsion": self.propulsion,
            "hull_material": self.hull_material,
            "hull_size": self.hull_size,
            "engine_size": self.engine_size,
            "ram": self.ram,
            "armor": self.armor,
            "speed": self.speed,
            "crew_quality": self.crew_quality,
            "hull_rows": [part_json(row) for row in self.hull_rows],
            "guns": [part_json(gun) for gun in self.guns],
            "crew": part_json(self.crew),
            "casualty_order": list(self.casualty_order),
            "fire": self.fire,
            "criticals": part_json(self.criticals),
            "altitude": self.altitude,
            "facing": self.facing,
            "position": None if self.position is None else self.position.to_json(),
            "status": self.status,
            "party": part_json(self.party),
            "boarders": part_json(self.boarders),
            "boarding": self.boarding,
            "grappled_with": list(self.grappled_with),
        }
        for key in ("marine_arms", "marines_fired", "emplacement"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.ordnance:
            data["ordnance"] = [part_json(item) for item in self.ordnance]
        for key in self.AGILITY_KEYS:
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.shotguns_spent is not None:
            data["shotguns_spent"] = self.shotguns_spent
        if self.high_martian:
            data["high_martian"] = True
        for key in ("boarding_quality", "conveyors"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_json(cls, data: Any, *, like: ShipRecord | None = None) -> ShipRecord:
        """Parse a record; raises ValueError naming the first bad field.

        ``like``: a record this one was changed from (a ``ship`` event's fold passes the record the event
        replaces). Its parts whose JSON the data repeats (most of a record, after one shot) are taken as they
        are rather than parsed again, which was most of a battle's folding; each part reads back to itself
        (``from_json(part.to_json()) == part``), so the record is the one parsing the data gives."""
        data = _exact_keys(data, cls.KEYS, "ship record", cls.OPTIONAL_KEYS)
        speed: int | str = data["speed"]
        if speed != KITE_SPEED:
            speed = _int(data, "speed")
        rows = data["hull_rows"]
        guns = data["guns"]
        items = data.get("ordnance", [])
        if not isinstance(rows, list) or not isinstance(guns, list) or not isinstance(items, list):
            raise ValueError("hull_rows, guns and ordnance: expected lists")
        if "ordnance" in data and not items:
            raise ValueError("ship record: leave out ['ordnance'] rather than write an empty list")
        record = cls(
            name=_str(data, "name"),
            class_id=_opt_str(data, "class_id"),
            class_name=_str(data, "class_name"),
            nation=_str(data, "nation"),
            side=_str(data, "side"),
            propulsion=_choice(data, "propulsion", tstrs("ship_record", "propulsion")),
            hull_material=_choice(data, "hull_material", tstrs("ship_record", "hull_materials")),
            hull_size=_int(data, "hull_size", minimum=1),
            engine_size=_opt_int(data, "engine_size"),
            ram=_bool(data, "ram"),
            armor=_int(data, "armor"),
            speed=speed,
            crew_quality=_choice(data, "crew_quality", tstrs("ship_record", "crew_qualities")),
            hull_rows=_parts(HullRow.from_json, rows, () if like is None else like.hull_rows),
            guns=_parts(Gun.from_json, guns, () if like is None else like.guns),
            crew=_part(Crew.from_json, _object(data, "crew"), None if like is None else like.crew),
            casualty_order=_strs(data, "casualty_order"),
            fire=_int(data, "fire"),
            criticals=_part(Criticals.from_json, _object(data, "criticals"), None if like is None else like.criticals),
            altitude=_choice(data, "altitude", altitude_levels()),
            facing=_int(data, "facing"),
            position=None if data["position"] is None else Hex.from_json(data["position"]),
            status=_choice(data, "status", tstrs("ship_record", "statuses")),
            party=_part(Party.from_json, data["party"], None if like is None else like.party),
            boarders=_part(Party.from_json, data["boarders"], None if like is None else like.boarders),
            boarding=_opt_str(data, "boarding"),
            grappled_with=_strs(data, "grappled_with"),
            marine_arms=_opt_str(data, "marine_arms"),
            marines_fired=_opt_int(data, "marines_fired"),
            ordnance=_parts(Ordnance.from_json, items, () if like is None else like.ordnance),
            emplacement=None
            if data.get("emplacement") is None
            else _choice(data, "emplacement", ostrs("record", "emplacements")),
            **{key: _opt_int(data, key) for key in cls.AGILITY_KEYS},
            shotguns_spent=_opt_str(data, "shotguns_spent"),
            high_martian=_bool(data, "high_martian") if "high_martian" in data else False,
            boarding_quality=None
            if data.get("boarding_quality") is None
            else _choice(data, "boarding_quality", tstrs("ship_record", "crew_qualities")),
            conveyors=_opt_int(data, "conveyors"),
        )
        check_record(record)
        return record


def _sorted(data: dict[str, Any]) -> dict[str, Any]:
    return dict(sorted(data.items()))


def _part_json(part: _Part) -> dict[str, Any]:
    return part.to_json()


def _plain_part(part: _Part) -> dict[str, Any]:
    """A part's JSON with its keys sorted (ShipRecord.plain_json), built once for each part object. Found again only
    for the very same part, by identity: a part is immutable, and the table holds it, so its id is no other
    object's while it is there. The table is emptied whole when it grows past a battle's worth of parts, and a
    reader that misses builds the JSON again (the same JSON)."""
    kept = _PLAIN_PARTS.get(id(part))
    if kept is not None and kept[0] is part:
        return kept[1]
    made = _sorted(part.to_json())
    if len(_PLAIN_PARTS) >= _PLAIN_PARTS_KEPT:
        _PLAIN_PARTS.clear()
    _PLAIN_PARTS[id(part)] = (part, made)
    return made


_PLAIN_PARTS: dict[int, tuple[_Part, dict[str, Any]]] = {}
_PLAIN_PARTS_KEPT = 4096


@cache
def marine_arms_known() -> tuple[str, ...]:
    """What marines may carry: the catalog's small arms and the weapons that make no small arms fire."""
    return (*(arm.id for arm in catalog.small_arms()), *tstrs("small_arms", "no_small_arms_fire"))


def check_record(record: ShipRecord) -> None:
    """Raise ValueError if the record is not one the rules could produce (for parsing and invariants)."""
    problems = record_problems(record)
    if problems:
        raise ValueError(f"{record.name}: " + "; ".join(problems))


def record_problems(record: ShipRecord) -> list[str]:
    """What is wrong with a record: the ruleset's check_invariants can report these."""
    problems: list[str] = []
    levels = [altitude_level(row.altitude) for row in record.hull_rows]
    if levels != sorted(levels, reverse=True) or len(set(levels)) != len(levels):
        problems.append("hull rows must run from the highest altitude down, one row per altitude")
    if any(row.hits > row.boxes for row in record.hull_rows):
        problems.append("a hull row has more hits than boxes")
    ids = [gun.id for gun in record.guns]
    if len(set(ids)) != len(ids):
        problems.append("gun ids must be unique")
    if any(gun.manned < 0 or gun.manned > gun.crew for gun in record.guns):
        problems.append("a gun has more men than crew circles, or fewer than none")
    if not 0 <= record.facing <= 5:
        problems.append(f"facing {record.facing} is not a hexside 0-5")
    if record.is_kite != (record.speed == KITE_SPEED):
        problems.append("kites, and only kites, have the rolled speed 'K'")
    if record.crew.maneuver_kind != table("ship_record", "maneuver_kinds")[record.propulsion]:
        problems.append(f"{record.propulsion} ships have {table('ship_record', 'maneuver_kinds')[record.propulsion]}")
    for post in record.casualty_order:
        if post not in tstrs("casualty_order", "posts") and not (post.startswith("gun:") and post[4:] in ids):
            problems.append(f"unknown post {post!r} in the casualty order")
    if (record.boarders.men > 0) != (record.boarding is not None):
        problems.append("boarders across need the ship they are on, and only boarders do")
    if record.boarders.posts:
        problems.append("the boarders keep no posts: the party at home does")
    if record.name in record.grappled_with or len(set(record.grappled_with)) != len(record.grappled_with):
        problems.append("a ship is grappled with other ships, each once")
    if record.marine_arms is not None and record.marine_arms not in marine_arms_known():
        problems.append(f"unknown marine arms {record.marine_arms!r}; known: {', '.join(marine_arms_known())}")
    for name, value in (("fire", record.fire), ("crew", min(record.crew.count(p) for p in CREW_COUNTS))):
        if value < 0:
            problems.append(f"{name} below zero")
    problems += _ordnance_problems(record)
    problems += _agility_problems(record)
    if (record.conveyors or 0) < 0:
        problems.append("conveyors below zero")
    return problems


def _agility_problems(record: ShipRecord) -> list[str]:
    """The agility rules' figures (agility.py): no negative speed or boxes, no more boxes used than there are."""
    problems = [f"{key} below zero" for key in record.AGILITY_KEYS if (getattr(record, key) or 0) < 0]
    used = (record.endurance_used or 0) + (record.coal_lost or 0)
    if used and (record.endurance is None or used > record.endurance):
        problems.append("more endurance boxes used and lost than the Endurance track has")
    return problems


def _ordnance_problems(record: ShipRecord) -> list[str]:
    problems: list[str] = []
    ids = [item.id for item in record.ordnance]
    if len(set(ids)) != len(ids) or set(ids) & {gun.id for gun in record.guns}:
        problems.append("ordnance item ids must be unique, and not a gun's id")
    kinds = ordnance_kinds()
    for item in record.ordnance:
        if item.weapon_id not in kinds or item.state not in kinds[item.weapon_id]["states"]:
            problems.append(f"ordnance item {item.id}: {item.weapon_id} cannot be {item.state!r}")
        battery = item.weapon_id == "hale_rockets"
        if battery != (item.aspect is not None and item.angle is not None):
            problems.append(f"ordnance item {item.id}: Hale batteries, and only they, have an aspect and an angle")
    if record.emplacement is not None and record.emplacement not in ostrs("record", "emplacements"):
        problems.append(f"unknown emplacement {record.emplacement!r}")
    return problems


# --- building records ----------------------------------------------------------------------------------


def _kite_speed(die: int, *, with_wind: bool) -> int:
    """A kite's speed for a movement die already reduced by mast hits (SGD-SPD-06/08, SG-CRIT-29)."""
    if die >= 1:
        return design.kite_speed(min(die, 6), with_wind=with_wind)
    # A die brought to 0 or below: with the wind 1 + die, never below 0; against it nothing.
    return max(design.kite_speed(1, with_wind=with_wind) - 1 + die, 0) if with_wind else 0


def _gun_armor(gun: design.GunRecord, ship_armor: int) -> int | None:
    if gun.turret_armor > 0:
        return gun.turret_armor
    mounts: Mapping[str, Mapping[str, Any]] = design.design_tables()["mounts"]["table"]
    kind = mounts.get(gun.mount, {}).get("kind")
    if ship_armor > 0 and kind in tstrs("ship_record", "armored_mount_kinds"):
        return ship_armor
    return None


def _guns(rating: ShipRating) -> tuple[Gun, ...]:
    return tuple(
        Gun(
            id=str(number),
            weapon_id=gun.weapon_id,
            mount=gun.mount,
            arcs=gun.arcs,
            crew=gun.crew,
            # A parenthesised crew is not supplied with the gun: it starts unmanned (SG-CG-93).
            manned=gun.crew if gun.crew_provided else 0,
            armor=_gun_armor(gun, rating.armor),
        )
        for number, gun in enumerate(rating.guns, start=1)
    )


def _battery_layout(count: int, class_id: str | None) -> list[tuple[str, str]]:
    """Facings and angles for ``count`` Hale batteries: the class's own layout when ordnance.json has one
    for that many, else broadside, alternately port and starboard, a pair down then a pair up."""
    by_class: Mapping[str, Sequence[Sequence[Any]]] = otable("hale_rockets", "layout", "by_class")
    if class_id is not None and class_id in by_class:
        laid = [(str(aspect), str(angle)) for aspect, angle, n in by_class[class_id] for _ in range(int(n))]
        if len(laid) == count:
            return laid
    cycle: Sequence[Sequence[str]] = otable("hale_rockets", "layout", "cycle")
    return [(str(cycle[n % len(cycle)][0]), str(cycle[n % len(cycle)][1])) for n in range(count)]


def build_ordnance(exotics: Sequence[tuple[str, int]], class_id: str | None = None) -> tuple[Ordnance, ...]:
    """The ordnance items for exotic loads ``(weapon id, count)`` as the design rates them.

    Items are numbered by kind (ordnance.json record/kinds); bomb loads fill the racks first, one a rack,
    and the rest are spares (SG-CG-77); Hale batteries are laid out by :func:`_battery_layout`. Exotics
    the record does not keep as items (none at present) are left out."""
    kinds = ordnance_kinds()
    counts: dict[str, int] = {}
    for weapon, count in exotics:
        counts[weapon] = counts.get(weapon, 0) + count
    loads = counts.get("bomb_load", 0)
    racks_loaded = min(counts.get("bomb_rack", 0), loads)
    numbers: dict[str, int] = {}
    items: list[Ordnance] = []

    def add(weapon: str, state: str, aspect: str | None = None, angle: str | None = None) -> None:
        prefix = str(kinds[weapon]["prefix"])
        numbers[prefix] = numbers.get(prefix, 0) + 1
        items.append(Ordnance(f"{prefix}{numbers[prefix]}", weapon, state, aspect, angle))

    for weapon in kinds:
        count = counts.get(weapon, 0)
        if weapon == "hale_rockets":
            for aspect, angle in _battery_layout(count, class_id):
                add(weapon, str(kinds[weapon]["initial"]), aspect, angle)
        elif weapon == "bomb_rack":
            for n in range(count):
                add(weapon, "loaded" if n < racks_loaded else "empty")
        elif weapon == "bomb_load":
            for _ in range(count - racks_loaded):
                add(weapon, str(kinds[weapon]["initial"]))
        else:
            for _ in range(count):
                add(weapon, str(kinds[weapon]["initial"]))
    return tuple(items)


def _quality(crew_quality: str) -> str:
    if crew_quality not in tstrs("ship_record", "crew_qualities"):
        raise ValueError(f"crew quality is one of {', '.join(tstrs('ship_record', 'crew_qualities'))}")
    return crew_quality


def _record(
    *,
    name: str,
    class_id: str | None,
    class_name: str,
    nation: str,
    rating: ShipRating,
    crew: Crew,
    ceiling: str,
    speed: int | str,
    crew_quality: str,
    side: str,
    position: Hex | None,
    facing: int,
    altitude: str | None,
) -> ShipRecord:
    d = rating.design
    rows = design.hull_rows(d.hull_size, cast(design.Altitude, _altitude_code(ceiling)))
    engine = d.propulsion.engine_size if isinstance(d.propulsion, design.SteamPropulsion) else None
    record = ShipRecord(
        name=name,
        class_id=class_id,
        class_name=class_name,
        nation=nation,
        side=side,
        propulsion=d.propulsion.type,
        hull_material=d.hull,
        hull_size=d.hull_size,
        engine_size=engine,
        ram=d.ram,
        armor=d.armor,
        speed=speed,
        crew_quality=_quality(crew_quality),
        hull_rows=tuple(HullRow(row.altitude, row.boxes) for row in reversed(rows)),
        guns=_guns(rating),
        # The exotics carried outside the guns (Hale rockets, liquid fire, mines, torpedoes...): ordnance.py.
        ordnance=build_ordnance([(e.weapon_id, e.count) for e in rating.exotics], class_id),
        crew=crew,
        casualty_order=tstrs("casualty_order", "default"),
        fire=0,
        criticals=Criticals(),
        altitude=_altitude_code(altitude) if altitude is not None else _altitude_code(ceiling),
        facing=facing,
        position=position,
        status="flying",
    )
    check_record(record)
    return record


def _maneuver_rows(propulsion: str, maneuver: int, hull_size: int, speed: int | str) -> tuple[int, ...]:
    if propulsion == "screw_galley" and isinstance(speed, int):
        return design.maneuver_rows(maneuver, hull_size, speed)
    # Steam ships and kites lose speed man by man (SGD-MCH-01/05): one row holds them all.
    return (maneuver,)


def ship_record_from_class(
    class_name_or_id: str | ShipClass,
    *,
    name: str,
    crew_quality: str = "trained",
    side: str = "",
    position: Hex | None = None,
    facing: int = 0,
    altitude: str | None = None,
) -> ShipRecord:
    """A fresh record for a catalog class: published crew, ceiling and speed; guns and rows as rated.

    ``altitude`` defaults to the ceiling. Raises ValueError for a class with no figures.
    """
    ship = class_name_or_id if isinstance(class_name_or_id, ShipClass) else catalog.ship_class(class_name_or_id)
    if ship.crew is None or ship.max_altitude is None or ship.speed is None:
        raise ValueError(f"{ship.name} has no crew, ceiling or speed in the catalog (data status {ship.data_status})")
    rating = design.rate_design(design.design_from_catalog(ship))
    c = ship.crew
    kind = table("ship_record", "maneuver_kinds")[rating.design.propulsion.type]
    crew = Crew(
        captain=c.bridge.count("C"),
        officers=c.bridge.count("O"),
        helmsman=c.bridge.count("H"),
        trimsman=c.bridge.count("T"),
        signalman=c.bridge.count("S"),
        petty_officers=c.extra_petty_officers,
        deckhands=c.deckhands,
        marine_officers=c.marine_officers,
        marines=c.marine_ratings,
        maneuver_kind=kind,
        maneuver_rows=_maneuver_rows(rating.design.propulsion.type, c.maneuver, ship.hull_size or 1, ship.speed),
    )
    return _record(
        name=name,
        class_id=ship.id,
        class_name=ship.name,
        nation=ship.nation,
        rating=rating,
        crew=crew,
        ceiling=ship.max_altitude,
        speed=ship.speed,
        crew_quality=crew_quality,
        side=side,
        position=position,
        facing=facing,
        altitude=altitude,
    )


def ship_record_from_design(
    ship_design: ShipDesign | Mapping[str, Any],
    *,
    name: str,
    crew_quality: str = "trained",
    nation: str = "",
    side: str = "",
    position: Hex | None = None,
    facing: int = 0,
    altitude: str | None = None,
) -> ShipRecord:
    """A fresh record for a design (the JSON design format or a ShipDesign), as the rater rates it.

    Raises ValueError if the design cannot fly; a design that breaks design rules is still recorded (the
    yard decides whether to build it).
    """
    d = ship_design if isinstance(ship_design, ShipDesign) else design.parse_design(ship_design)
    rating = design.rate_design(d)
    if rating.max_altitude is None:
        raise ValueError(f"{name}: the design cannot fly (SGD-ALT-06)")
    c = rating.crew
    crew = Crew(
        captain=c.captain,
        officers=c.additional_officers,
        helmsman=c.helmsman,
        trimsman=c.trimsman,
        signalman=c.signalman,
        petty_officers=c.additional_petty_officers,
        deckhands=c.deckhands,
        marine_officers=c.marine_officers,
        marines=c.marine_ratings,
        maneuver_kind=c.maneuver_kind,
        maneuver_rows=rating.maneuver_rows if rating.maneuver_rows is not None else (c.maneuver,),
    )
    return _record(
        name=name,
        class_id=None,
        class_name=d.name or name,
        nation=nation or d.yard,
        rating=rating,
        crew=crew,
        ceiling=rating.max_altitude,
        speed=rating.speed,
        crew_quality=crew_quality,
        side=side,
        position=position,
        facing=facing,
        altitude=altitude,
    )


# --- the men at their posts ----------------------------------------------------------------------------

# The post of the maneuvering crew (engineers, turncranks or topmen), as the casualty order names it.
MANEUVER_POST = "maneuver"


def men_at_posts(record: ShipRecord) -> dict[str, int]:
    """The men at each post of the record sheet now (SG-CREW-05, SG-DMG-20): the crew boxes (CREW_COUNTS), the
    maneuvering crew (``maneuver``) and each gun's crew (``gun:<id>``). Men away in a party are not at posts."""
    posts = {post: record.crew.count(post) for post in CREW_COUNTS}
    posts[MANEUVER_POST] = record.crew.maneuver
    posts.update((f"gun:{gun.id}", gun.manned) for gun in record.guns)
    return posts


# --- crew assignments (Initiative Phase, SG-SEQ-02) ----------------------------------------------------


def assign_relief(record: ShipRecord, station: str, rank: str) -> ShipRecord:
    """Put an extra petty officer or an officer at the empty helm or trim station (SG-CREW-04/07).

    Raises ValueError when the station is still held by its own man or nobody of that rank is left.
    """
    if station not in ("helm", "trim"):
        raise ValueError("the stations are 'helm' and 'trim'")
    if rank not in tstrs("stations", "relief_ranks"):
        raise ValueError(f"only {', '.join(tstrs('stations', 'relief_ranks'))} may relieve a key petty officer")
    crew = record.crew
    own = crew.helmsman if station == "helm" else crew.trimsman
    if own:
        raise ValueError(f"the {station} is still manned by its own petty officer")
    changes: dict[str, Any] = {f"{station}_relief": rank}
    candidate = evolve(crew, **changes)
    held = candidate.helm_manned if station == "helm" else candidate.trim_manned
    if not held:
        raise ValueError(f"nobody of rank {rank} is left to take the {station}")
    return record.evolve(crew=candidate)


def assign_gun_crew(record: ShipRecord, gun_id: str, men: int, *, source: str = "deckhands") -> ShipRecord:
    """Move ``men`` from another post (usually deckhands, SG-CREW-16, SG-CG-93) to a gun's empty circles."""
    gun = record.gun(gun_id)
    if gun.destroyed:
        raise ValueError(f"gun {gun_id} is destroyed")
    if men < 0 or gun.manned + men > gun.crew:
        raise ValueError(f"gun {gun_id} has {gun.crew - gun.manned} empty crew circles, not {men}")
    crew = record.crew
    if source.startswith("gun:"):
        donor = record.gun(source[4:])
        if donor.manned < men or donor.id == gun.id:
            raise ValueError(f"gun {donor.id} cannot spare {men} men")
        record = record.with_gun(evolve(donor, manned=donor.manned - men))
    else:
        if crew.count(source) < men:
            raise ValueError(f"only {crew.count(source)} {source} are left")
        record = record.evolve(crew=crew.with_count(source, crew.count(source) - men))
    return record.with_gun(evolve(record.gun(gun_id), manned=gun.manned + men))


# ShipRecord.evolve and the rules' changes to a record's parts copy them directly (battles.engine.frozen), never
# through dataclasses.replace: each is frozen, slotted and made by its __init__ alone.
assert all(map(copies_directly, (ShipRecord, HullRow, Gun, Crew, Criticals, Party, Ordnance)))
