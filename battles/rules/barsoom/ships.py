"""The ship classes and the fleet list (data/classes.json; docs/barsoom.md section 3).

The text has no ship stats (BR-CLS-12): a ship is her class (capital ship, medium ship or small craft, BR-CLS-01),
a speed, the guns aboard by weapon class, her crew and the bombs she may carry. The three classes are the text's
(BR-CLS-02..11); the fleet list is ours, Barsoomian ships after the novels with stated stand-in numbers. Each
ship carries her class's figures whole, so a battle stored with her reads the same if the data file changes.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battles.engine.events import JSONObject
from battles.engine.jsonread import read_bool, read_int, read_json_object, read_list, read_object, read_str
from battles.rules.barsoom import scale
from battles.rules.barsoom.kinds import CLASSES

CLASSES_FILE = Path(__file__).resolve().parent / "data" / "classes.json"
WEAPON_CLASSES = (scale.HEAVY, scale.MEDIUM_WEAPON, scale.LIGHT)


@dataclass(frozen=True)
class Bombs:
    """The bombs a ship may carry: a die ("D6", "D3") rolled when she is fitted out, or a fixed number ("1")."""

    sides: int = 0  # 0: a fixed number
    fixed: int = 0

    @classmethod
    def parse(cls, text: str) -> Bombs:
        if text.startswith("D") and text[1:].isdigit() and int(text[1:]) > 0:
            return cls(sides=int(text[1:]))
        if text.isdigit():
            return cls(fixed=int(text))
        raise ValueError(f"bombs are a die (D6, D3) or a number, not {text!r}")

    @property
    def spec(self) -> str:
        return f"D{self.sides}" if self.sides else str(self.fixed)

    @property
    def most(self) -> int:
        return self.sides or self.fixed

    def count(self, face: int | None = None) -> int:
        """Bombs aboard: the die's face (rolled by the caller, through the engine's dice), or the fixed number."""
        if not self.sides:
            return self.fixed
        if face is None or not 1 <= face <= self.sides:
            raise ValueError(f"{self.spec} bombs need a face from 1 to {self.sides}, not {face!r}")
        return face


@dataclass(frozen=True)
class ShipClass:
    """A class as the text gives it. ``size`` orders the classes for grappled ships (the smaller follows the
    larger, BR-GRAP-10); ``safe_landing_descends``: consecutive Descends she may make into a landing without
    damage (BR-CLS-03, docs/barsoom.md section 5); the damage modifiers are the weapons' (BR-CLS-09/10)."""

    key: str
    name: str
    size: int
    speed_inches: int
    ascends_per_turn: int
    reverses_per_turn: int
    turns_per_forward: int
    extra_ascend: bool
    safe_landing_descends: int
    bombs: Bombs
    light_weapons_harm: bool
    light_weapon_damage_modifier: int
    heavy_weapon_damage_modifier: int

    @property
    def speed(self) -> int:
        """Hexes an Ahead or Reverse moves her."""
        return scale.speed_hexes(self.speed_inches)

    def to_json(self) -> JSONObject:
        return {
            "key": self.key,
            "name": self.name,
            "size": self.size,
            "speed_inches": self.speed_inches,
            "ascends_per_turn": self.ascends_per_turn,
            "reverses_per_turn": self.reverses_per_turn,
            "turns_per_forward": self.turns_per_forward,
            "extra_ascend": self.extra_ascend,
            "safe_landing_descends": self.safe_landing_descends,
            "bombs": self.bombs.spec,
            "light_weapons_harm": self.light_weapons_harm,
            "light_weapon_damage_modifier": self.light_weapon_damage_modifier,
            "heavy_weapon_damage_modifier": self.heavy_weapon_damage_modifier,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], key: str | None = None) -> ShipClass:
        key = read_str(data["key"]) if key is None else key
        if key not in CLASSES:
            raise ValueError(f"a ship class is one of {', '.join(CLASSES)}, not {key!r}")
        made = cls(
            key=key,
            name=read_str(data["name"]),
            size=read_int(data["size"]),
            speed_inches=read_int(data["speed_inches"]),
            ascends_per_turn=read_int(data["ascends_per_turn"]),
            reverses_per_turn=read_int(data["reverses_per_turn"]),
            turns_per_forward=read_int(data["turns_per_forward"]),
            extra_ascend=read_bool(data["extra_ascend"]),
            safe_landing_descends=read_int(data["safe_landing_descends"]),
            bombs=Bombs.parse(read_str(data["bombs"])),
            light_weapons_harm=read_bool(data["light_weapons_harm"]),
            light_weapon_damage_modifier=read_int(data["light_weapon_damage_modifier"]),
            heavy_weapon_damage_modifier=read_int(data["heavy_weapon_damage_modifier"]),
        )
        scale.speed_hexes(made.speed_inches)  # a class speed is whole hexes, or the file is wrong
        return made


@dataclass(frozen=True)
class Guns:
    """Guns aboard by weapon class (BR-WPN-01): what each can do is the weapons' business (weapons.py)."""

    heavy: int = 0
    medium: int = 0
    light: int = 0

    def to_json(self) -> JSONObject:
        return {scale.HEAVY: self.heavy, scale.MEDIUM_WEAPON: self.medium, scale.LIGHT: self.light}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Guns:
        if set(data) != set(WEAPON_CLASSES):
            raise ValueError(f"guns are counted as {', '.join(WEAPON_CLASSES)}, not {sorted(data)}")
        counts = [read_int(data[weapon]) for weapon in WEAPON_CLASSES]
        if min(counts) < 0:
            raise ValueError(f"a gun count is never negative: {dict(data)}")
        return cls(*counts)


@dataclass(frozen=True)
class Vessel:
    """A ship of the fleet list: her class whole, her own speed (the designer's "fast ships 8 inches",
    BR-CLS-12), her guns, crew (the figures aboard, "all that will fit": a stand-in number) and bombs (her class's
    allowance or fewer)."""

    name: str
    ship_class: ShipClass
    speed_inches: int
    guns: Guns
    crew: int
    bombs: Bombs
    after: str = ""

    @property
    def speed(self) -> int:
        """Hexes an Ahead or Reverse moves her (BR-MOV-03/04)."""
        return scale.speed_hexes(self.speed_inches)

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "class": self.ship_class.to_json(),
            "speed_inches": self.speed_inches,
            "guns": self.guns.to_json(),
            "crew": self.crew,
            "bombs": self.bombs.spec,
            "after": self.after,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], classes: Mapping[str, ShipClass] | None = None) -> Vessel:
        """A vessel from her JSON; ``class`` is her class whole, or (in the data file) a class's key."""
        spelled = data["class"]
        if isinstance(spelled, str):
            if classes is None or spelled not in classes:
                raise ValueError(f"{data.get('name')!r}: no ship class {spelled!r}")
            ship_class = classes[spelled]
        else:
            ship_class = ShipClass.from_json(read_object(spelled))
        vessel = cls(
            name=read_str(data["name"]),
            ship_class=ship_class,
            speed_inches=read_int(data["speed_inches"]),
            guns=Guns.from_json(read_object(data["guns"])),
            crew=read_int(data["crew"]),
            bombs=Bombs.parse(read_str(data["bombs"])),
            after=read_str(data.get("after", "")),
        )
        scale.speed_hexes(vessel.speed_inches)
        if vessel.crew < 1:
            raise ValueError(f"{vessel.name}: a ship has a crew")
        if vessel.bombs.most > ship_class.bombs.most:
            raise ValueError(f"{vessel.name}: a {ship_class.name} carries at most {ship_class.bombs.spec} bombs")
        return vessel


@functools.cache
def classes() -> Mapping[str, ShipClass]:
    """The three classes, largest first."""
    data = read_object(read_json_object(CLASSES_FILE)["classes"])
    if list(data) != list(CLASSES):
        raise ValueError(f"{CLASSES_FILE.name}: the classes are {', '.join(CLASSES)}, in that order")
    return {key: ShipClass.from_json(read_object(data[key]), key) for key in CLASSES}


@functools.cache
def fleet() -> tuple[Vessel, ...]:
    """The fleet list, in the file's order."""
    known = classes()
    ships = tuple(
        Vessel.from_json(read_object(item), known) for item in read_list(read_json_object(CLASSES_FILE)["fleet"])
    )
    names = [ship.name for ship in ships]
    if len(set(names)) != len(names):
        raise ValueError(f"{CLASSES_FILE.name}: a fleet name appears twice")
    return ships


def vessel(name: str) -> Vessel:
    """A ship of the fleet list by name."""
    for ship in fleet():
        if ship.name == name:
            return ship
    raise KeyError(f"no ship {name!r} in the fleet list")
