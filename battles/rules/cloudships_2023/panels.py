"""The control panel: a Cloudships of Mars ship as its player sees it (CM-SEQ-01).

The text describes the panel (guns with their positions, arcs, ranges, dice and damage; movement, altitude,
boarding parties, ram value, critical hit status, a damage track) but prints none, so the panels are designed
(docs/cloudships.md) and built from the campaign's ship by ``conversion.py``. A panel here is the ship as
built, immutable and serialisable; what happens to it in a battle (boxes crossed, lights lit, guns fired) is
the battle's state, a later step.

``ControlPanel.from_json(p.to_json()) == p`` for every panel, and the JSON is plain (lists, not tuples).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine.jsonread import read_bool, read_int, read_opt_int, read_opt_str, read_str

# The altitude bands, lowest first (CM-ALT-01); Really Low is the optional fifth (CM-ALT-06).
GROUND, REALLY_LOW, LOW, MEDIUM, HIGH = "Ground", "Really Low", "Low", "Medium", "High"
BANDS = (GROUND, LOW, MEDIUM, HIGH)
BANDS_WITH_REALLY_LOW = (GROUND, REALLY_LOW, LOW, MEDIUM, HIGH)

STEAM, SCREW_GALLEY, KITE = "steam", "screw galley", "kite"
# Mixed power, steam engines and sails (CM-MOV-18..23): no catalog panel has it; a scenario's or umpire's may.
MIXED = "steam and sail"
MOTIVE = (STEAM, SCREW_GALLEY, KITE, MIXED)
# Ships that count as steamers for the ramming roll and its kin (CM-RAM-02, CM-SMT-04, CM-TM-07; CM-MOV-23).
STEAMERS = frozenset({STEAM, MIXED})

# Gun systems (CM-GUN-06): every one of them can be picked by a Gun box or a Magazine Hit.
MAIN, ANTI_PERSONNEL, ROCKETS, BOMBS = "main", "anti-personnel", "rockets", "bombs"
SMUTTS, TETHER_MINE, DROGUE = "smutts torpedo", "tether mine", "drogue torpedo"
GUN_KINDS = (MAIN, ANTI_PERSONNEL, ROCKETS, BOMBS, SMUTTS, TETHER_MINE, DROGUE)
# Fired once and never reloaded (CM-FIRE-12 read for rockets, CM-BOMB-05, CM-SMT-11, CM-TM-12).
ONE_SHOT_KINDS = frozenset({ROCKETS, BOMBS, SMUTTS, TETHER_MINE, DROGUE})

ASPECTS = ("bow", "stern", "port", "starboard")
ANGLES = ("up", "down")

# The damage track's boxes (CM-DMG-03..11), and Ground, the track's end: the ship falls and crashes (CM-ALT-02).
HULL, GUN, SPEED, BOARDING_PARTY, CRITICAL = "Hull", "Gun", "Speed", "Boarding Party", "Critical"
# The Gun box printed in capitals: with the option agreed, the firer chooses the gun lost (CM-GUN-03..05).
GUN_CHOSEN = "GUN"
BOXES = (HULL, GUN, MEDIUM, LOW, SPEED, BOARDING_PARTY, CRITICAL, GROUND, GUN_CHOSEN)

# The status lights (CM-LIGHT-01..08): the text names the first three; Fire is ours (CM-REP-09).
NO_ALTITUDE_CHANGE, NO_DIRECTION_CHANGE, BRIDGE_HIT, FIRE = (
    "No Altitude Change",
    "No Direction Change",
    "Bridge Hit",
    "Fire",
)
LIGHTS = (NO_ALTITUDE_CHANGE, NO_DIRECTION_CHANGE, BRIDGE_HIT, FIRE)
GREEN, AMBER, RED = "green", "amber", "red"
COLOURS = (GREEN, AMBER, RED)

# The critical hits that light lights (CM-LIGHT-03/04 and the designed chart, docs/cloudships.md).
CRITICAL_LIGHTS: Mapping[str, tuple[str, ...]] = {
    "Lifters Damaged": (NO_ALTITUDE_CHANGE,),
    "Bridge Hit": (NO_ALTITUDE_CHANGE, NO_DIRECTION_CHANGE, BRIDGE_HIT),
    "Rudder Jammed": (NO_DIRECTION_CHANGE,),
    "Fire": (FIRE,),
}


def _choice(value: Any, choices: Sequence[str], what: str) -> str:
    text = read_str(value)
    if text not in choices:
        raise ValueError(f"{what} {text!r} is not one of {', '.join(choices)}")
    return text


def _strs(values: Any, choices: Sequence[str], what: str) -> tuple[str, ...]:
    if not isinstance(values, list):
        raise TypeError(f"{what}: expected a list, got {values!r}")
    return tuple(_choice(value, choices, what) for value in values)


def _exact(data: Any, keys: Sequence[str], what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or set(data) != set(keys):
        raise ValueError(f"{what}: expected exactly the keys {', '.join(keys)}, got {data!r}")
    return data


@dataclass(frozen=True, slots=True)
class Gun:
    """One gun system on the panel. ``number`` counts from the bow clockwise (CM-GUN-01).

    ``damage`` is a main gun's points per hit (CM-FIRE-10); anti-personnel guns score hits on the target's
    crew chart instead (CM-AP-06/07); rockets, bombs, torpedoes and mines roll ``roll`` for damage. Ranges
    are hexes (CM-FIRE-04); rockets, bombs, torpedoes and mines have none (CM-RKT-02, CM-BOMB-02, CM-SMT-01).
    """

    number: int
    name: str
    kind: str
    position: str
    arcs: tuple[str, ...]
    short_range: int | None
    long_range: int | None
    dice: int
    damage: int | None
    roll: str | None
    angle: str | None
    source: str

    @property
    def one_shot(self) -> bool:
        return self.kind in ONE_SHOT_KINDS

    KEYS = (
        "number",
        "name",
        "kind",
        "position",
        "arcs",
        "short_range",
        "long_range",
        "dice",
        "damage",
        "roll",
        "angle",
        "source",
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "kind": self.kind,
            "position": self.position,
            "arcs": list(self.arcs),
            "short_range": self.short_range,
            "long_range": self.long_range,
            "dice": self.dice,
            "damage": self.damage,
            "roll": self.roll,
            "angle": self.angle,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: Any) -> Gun:
        data = _exact(data, cls.KEYS, "gun")
        angle = read_opt_str(data["angle"])
        return cls(
            number=read_int(data["number"]),
            name=read_str(data["name"]),
            kind=_choice(data["kind"], GUN_KINDS, "gun kind"),
            position=read_str(data["position"]),
            arcs=_strs(data["arcs"], ASPECTS, "arc"),
            short_range=read_opt_int(data["short_range"]),
            long_range=read_opt_int(data["long_range"]),
            dice=read_int(data["dice"]),
            damage=read_opt_int(data["damage"]),
            roll=read_opt_str(data["roll"]),
            angle=None if angle is None else _choice(angle, ANGLES, "rocket angle"),
            source=read_str(data["source"]),
        )


@dataclass(frozen=True, slots=True)
class ControlPanel:
    """A ship's control panel as built (CM-SEQ-01).

    ``movement`` is None for a kite, which rolls its movement each turn (CM-MOV-12). ``track`` is the damage
    track, top row first (CM-DMG-01). ``crew_chart`` holds, for one, two... boarding parties lost, the
    anti-personnel hits that cost them (CM-AP-07). ``criticals`` is the two-dice chart, rolls 2 to 12
    (CM-DMG-11). ``lights`` are the status lights, all green on a ship as built (CM-LIGHT-01).
    """

    name: str
    class_id: str | None
    motive: str
    movement: int | None
    ceiling: str
    boarding_parties: int
    flying_martians: int
    power_grapnel: bool
    superior: bool
    ram: int
    guns: tuple[Gun, ...]
    track: tuple[tuple[str, ...], ...]
    crew_chart: tuple[int, ...]
    criticals: tuple[str, ...]
    vulnerable_magazine: bool
    lights: tuple[tuple[str, str], ...]

    @property
    def hexagon(self) -> int:
        """The boarding value of the undamaged ship, printed in the hexagon at the top (CM-BRD-10)."""
        anti_personnel = sum(1 for gun in self.guns if gun.kind == ANTI_PERSONNEL)
        return boarding_value(self.boarding_parties, self.flying_martians, anti_personnel, superior=self.superior)

    @property
    def track_length(self) -> int:
        return sum(len(row) for row in self.track)

    KEYS = (
        "name",
        "class_id",
        "motive",
        "movement",
        "ceiling",
        "boarding_parties",
        "flying_martians",
        "power_grapnel",
        "superior",
        "ram",
        "guns",
        "track",
        "crew_chart",
        "criticals",
        "vulnerable_magazine",
        "lights",
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "class_id": self.class_id,
            "motive": self.motive,
            "movement": self.movement,
            "ceiling": self.ceiling,
            "boarding_parties": self.boarding_parties,
            "flying_martians": self.flying_martians,
            "power_grapnel": self.power_grapnel,
            "superior": self.superior,
            "ram": self.ram,
            "guns": [gun.to_json() for gun in self.guns],
            "track": [list(row) for row in self.track],
            "crew_chart": list(self.crew_chart),
            "criticals": list(self.criticals),
            "vulnerable_magazine": self.vulnerable_magazine,
            "lights": dict(self.lights),
        }

    @classmethod
    def from_json(cls, data: Any) -> ControlPanel:
        data = _exact(data, cls.KEYS, "control panel")
        lights = data["lights"]
        # Any order: a battle's state is stored as canonical JSON, whose objects have their keys sorted.
        if not isinstance(lights, Mapping) or set(lights) != set(LIGHTS):
            raise ValueError(f"lights: expected {', '.join(LIGHTS)}, got {lights!r}")
        return cls(
            name=read_str(data["name"]),
            class_id=read_opt_str(data["class_id"]),
            motive=_choice(data["motive"], MOTIVE, "motive"),
            movement=read_opt_int(data["movement"]),
            ceiling=_choice(data["ceiling"], BANDS[1:], "ceiling"),
            boarding_parties=read_int(data["boarding_parties"]),
            flying_martians=read_int(data["flying_martians"]),
            power_grapnel=read_bool(data["power_grapnel"]),
            superior=read_bool(data["superior"]),
            ram=read_int(data["ram"]),
            guns=tuple(Gun.from_json(gun) for gun in _list(data["guns"], "guns")),
            track=tuple(_strs(row, BOXES, "track box") for row in _list(data["track"], "track")),
            crew_chart=tuple(read_int(hits) for hits in _list(data["crew_chart"], "crew chart")),
            criticals=tuple(read_str(entry) for entry in _list(data["criticals"], "criticals")),
            vulnerable_magazine=read_bool(data["vulnerable_magazine"]),
            lights=tuple((light, _choice(lights[light], COLOURS, light)) for light in LIGHTS),
        )


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"{what}: expected a list, got {value!r}")
    return value


def all_green() -> tuple[tuple[str, str], ...]:
    """Every light green: the panel's 'naked' state, nothing wrong (CM-LIGHT-01)."""
    return tuple((light, GREEN) for light in LIGHTS)


def boarding_value(parties: int, flights: int, anti_personnel: int, *, superior: bool) -> int:
    """Boarding value: one per boarding party, two per Flying Martian flight aboard (CM-FLY-23), one per working
    anti-personnel gun whatever its arc (CM-BRD-08) and one for a superior crew (CM-BRD-09, CM-SUP-06).

    A party of 4 with two flights is worth 8 (CM-FLY-24)."""
    flight_worth = 2
    return parties + flight_worth * flights + anti_personnel + (1 if superior else 0)
