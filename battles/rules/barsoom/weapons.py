"""Ship-borne weapons (BR-WPN-01..18) and hits (BR-HIT-01..07): reach, elevation, range bands, the roll to hit,
the severity of a hit and what it owes a ship or her crew, jams and reloads.

Pure functions over numbers read from data/weapons.json: the fire phase rolls the dice through the engine's
dice and passes the faces here. Distances are hexes of 2 inches and levels of 2 inches (the Barsoom scale);
docs/barsoom.md section 7 gives every reading chosen where the text leaves it to En Garde!.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from battles.engine import dice
from battles.engine.jsonread import DataFile, read_int, read_list, read_object, read_opt_int, read_str
from battles.engine.words import possessive
from battles.rules.barsoom.damage import DamageDue
from battles.rules.barsoom.scale import range_3d

DATA = DataFile(Path(__file__).resolve().parent / "data" / "weapons.json")


class WeaponClass(StrEnum):
    """The three classes of ship's armament (BR-WPN-01)."""

    HEAVY = "heavy"
    MEDIUM = "medium"
    LIGHT = "light"


class Severity(StrEnum):
    """How bad a hit is (BR-HIT-03..06)."""

    STUNNED = "stunned"
    LIGHT = "light"
    GRIEVOUS = "grievous"
    CRITICAL = "critical"


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon as data/weapons.json lists it. ``reach`` is in hexes: the class's, or a thrown or hand
    weapon's own; ``damage_rolls`` is a heavy weapon's Damage-table rolls for a Light Hit (BR-WPN-09)."""

    name: str
    weapon_class: WeaponClass
    reach: int
    fixed: bool
    automatic: bool = False
    shots: int = 1
    damage_rolls: int = 1
    dropped: bool = False
    thrown: bool = False
    wound_on_crew: int = 0


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a weapon may not fire at a target: the clause and words a player can read."""

    clause: str
    reason: str


@dataclass(frozen=True, slots=True)
class CrewHit:
    """What a hit does to crew: killed outright, or the host game's wound roll with this benefit."""

    kills: bool
    wound_modifier: int


def class_rules(weapon_class: WeaponClass) -> dict[str, Any]:
    return read_object(DATA.get("classes", weapon_class.value))


@cache
def catalogue() -> Mapping[str, Weapon]:
    """Every weapon of data/weapons.json by name."""
    found: dict[str, Weapon] = {}
    for item in read_list(DATA.get("weapons")):
        entry = read_object(item)
        weapon_class = WeaponClass(read_str(entry["class"]))
        rules = class_rules(weapon_class)
        found[read_str(entry["name"])] = Weapon(
            name=read_str(entry["name"]),
            weapon_class=weapon_class,
            reach=read_int(entry.get("reach", rules["reach"])),
            fixed=bool(entry["fixed"]),
            automatic=bool(entry.get("automatic", False)),
            shots=read_int(entry.get("shots", 1)),
            damage_rolls=read_int(entry.get("damage_rolls", 1)),
            dropped=bool(entry.get("dropped", False)),
            thrown=bool(entry.get("thrown", False)),
            wound_on_crew=read_int(entry.get("wound_on_crew", rules["wound_on_crew"])),
        )
    return found


def weapon(name: str) -> Weapon:
    return catalogue()[name]


# --- where a weapon reaches ------------------------------------------------------------------------------------


def range_between(hexes: int, levels: int) -> int:
    """The range in hexes to a target ``hexes`` away and ``levels`` above or below: the straight line, a hex
    and a level being 2 inches each, rounded to the nearest hex (so always within half a hex of the text's
    inches). The one measure of distance between ships (scale.range_3d): a jump's gap and a grapnel's throw are
    measured the same way (boarding.apart)."""
    return range_3d(hexes, levels)


def range_modifier(distance: int) -> int:
    """The En Garde! range band's modifier (BR-WPN-04..07): up to 9 hexes (under 18") +0, up to 18 -1, up to 27
    -2, beyond -3. A range landing on a band's edge takes the nearer band."""
    for item in read_list(DATA.get("range_bands")):
        band = read_object(item)
        up_to = read_opt_int(band["up_to"])
        if up_to is None or distance <= up_to:
            return read_int(band["modifier"])
    raise AssertionError("the last band is open-ended")  # pragma: no cover


def in_elevation(weapon: Weapon, hexes: int, levels: int) -> bool:
    """A fixed gun elevates and depresses 45 degrees (BR-WPN-02): the height apart in inches, 2 a level, may be
    no more than the distance across in inches, 2 a hex; so no more levels than hexes. Hand-held and thrown
    weapons are not fixed and bear at any angle."""
    return not weapon.fixed or abs(levels) <= hexes


def refusal(weapon: Weapon, *, hexes: int, levels: int, at_ship: bool, small_craft: bool = False) -> Refusal | None:
    """None if ``weapon`` may fire at a target ``hexes`` away and ``levels`` up (+) or down (-), else why not.
    A ship target is the hull (``at_ship``); otherwise it is crew."""
    if weapon.dropped:
        return Refusal("BR-BOMB-03", f"a {weapon.name.lower()} is only dropped straight down (bombs.py)")
    if at_ship and not harms(weapon, small_craft=small_craft):
        return Refusal("BR-WPN-17", f"a {weapon.name.lower()} cannot harm a ship bigger than a small craft")
    if not in_elevation(weapon, hexes, levels):
        return Refusal("BR-WPN-02", f"{abs(levels)} levels off at {hexes} hexes is beyond 45 degrees")
    distance = range_between(hexes, levels)
    if distance > weapon.reach:
        return Refusal(
            reach_clause(weapon), f"range {distance} is beyond {possessive('a ' + weapon.name.lower())} {weapon.reach}"
        )
    return None


def reach_clause(weapon: Weapon) -> str:
    return {WeaponClass.HEAVY: "BR-WPN-12", WeaponClass.MEDIUM: "BR-WPN-16", WeaponClass.LIGHT: "BR-WPN-18"}[
        weapon.weapon_class
    ]


def harms(weapon: Weapon, *, small_craft: bool) -> bool:
    """Heavy and medium weapons harm every ship; light ones only small craft (BR-WPN-08, BR-WPN-17, BR-CLS-09)."""
    return bool(class_rules(weapon.weapon_class)["harms_ships"]) or small_craft


# --- the roll to hit and the hit's severity -------------------------------------------------------------------


def to_hit_modifiers(weapon: Weapon, *, distance: int, at_crew: bool) -> dict[str, int]:
    """The named modifiers of a roll to hit, as the log shows them: the range band, and a heavy weapon's -2 at
    crew (BR-WPN-10). Nothing for movement, the firer's or the target's: the text ignores it (BR-HIT-02)."""
    modifiers = {"range": range_modifier(distance)}
    crew = read_int(class_rules(weapon.weapon_class)["to_hit_on_crew"])
    if at_crew and crew:
        modifiers["heavy weapon at crew"] = crew
    return modifiers


def hit_result(faces: Sequence[int], modifiers: Mapping[str, int]) -> int:
    """2D6 less 6 plus the modifiers (BR-HIT-01); above 0 is a hit."""
    rules = read_object(DATA.get("to_hit"))
    if len(faces) != read_int(rules["dice"]):
        raise ValueError(f"a roll to hit is 2D6, not {len(faces)} dice")
    return sum(faces) - read_int(rules["less"]) + sum(modifiers.values())


def severity(result: int) -> Severity | None:
    """None for a miss (0 or less); else the stand-in severity by the size of the result (BR-HIT-07): 1
    Stunned, 2-3 Light, 4-5 Grievous, 6 or more Critical."""
    for band in _severity_bands():
        low, high = read_int(band["from"]), read_opt_int(band["to"])
        if result >= low and (high is None or result <= high):
            return Severity(read_str(band["severity"]))
    return None


def needed() -> dice.Needed:
    """A roll to hit as the log judges it: the 2D6 with the shot's modifiers, the severity named by the bands
    above (shifted by the 6 taken off), a miss otherwise."""
    less = read_int(read_object(DATA.get("to_hit"))["less"])
    bands = [
        (read_int(band["from"]) + less, None if band["to"] is None else read_int(band["to"]) + less, band["severity"])
        for band in _severity_bands()
    ]
    words = ", ".join(
        f"{band['from']}{'+' if band['to'] is None else '' if band['to'] == band['from'] else '-' + str(band['to'])} "
        f"{band['severity']}"
        for band in _severity_bands()
    )
    return dice.table(f"2D6-6 above 0: {words}", bands, "miss")


def _severity_bands() -> list[dict[str, Any]]:
    return [read_object(item) for item in read_list(DATA.get("severity")) if "severity" in item]


def _severity_band(found: Severity) -> dict[str, Any]:
    return next(band for band in _severity_bands() if band["severity"] == found.value)


def ship_damage(weapon: Weapon, found: Severity, *, small_craft: bool) -> DamageDue:
    """What a hit on a ship owes: a Stunned hit one DED, else 1, 2 or 3 d10 on the Damage table (BR-HIT-03..06),
    a heavy weapon's extra rolls added (BR-WPN-09), each roll modified by the class against the ship: medium
    -2, light on small craft -4, heavy on small craft +1 (BR-WPN-13, BR-CLS-09/10). Nothing from a weapon that
    cannot harm her (BR-WPN-17)."""
    if not harms(weapon, small_craft=small_craft):
        return DamageDue(0)
    band = _severity_band(found)
    if band["ded"]:
        return DamageDue(0, ded=True)
    rolls = read_int(band["damage_rolls"]) + weapon.damage_rolls - 1
    return DamageDue(rolls, damage_modifier(weapon, small_craft=small_craft))


def damage_modifier(weapon: Weapon, *, small_craft: bool) -> int:
    rules = class_rules(weapon.weapon_class)
    return read_int(rules["small_craft_damage_modifier" if small_craft else "damage_modifier"])


def crew_hit(weapon: Weapon) -> CrewHit:
    """A hit on crew: a heavy weapon kills outright (BR-WPN-10); a medium one gives +3 to the wound roll
    (BR-WPN-14), a bomb its own +2 (BR-BOMB-02); a light one wounds as normal."""
    kills = bool(class_rules(weapon.weapon_class)["kills_crew"])
    return CrewHit(kills, 0 if kills else weapon.wound_on_crew)


# --- automatic fire, jams and reloads -------------------------------------------------------------------------


def dice_to_roll(weapon: Weapon) -> int:
    """Dice thrown at once for one firing: 2D6 a shot, all of an automatic weapon's shots together (BR-WPN-15)."""
    return weapon.shots * read_int(read_object(DATA.get("to_hit"))["dice"])


def shots_of(faces: Sequence[int]) -> list[tuple[int, int]]:
    """The dice of one firing paired into its rolls to hit, in the order thrown (the text's coloured dice)."""
    if len(faces) % 2:
        raise ValueError("rolls to hit are pairs of dice")
    return [(faces[i], faces[i + 1]) for i in range(0, len(faces), 2)]


def jammed(weapon: Weapon, faces: Sequence[int]) -> bool:
    """An automatic weapon jams when two or more of all the dice it threw show a 1 (BR-WPN-15)."""
    return weapon.automatic and sum(1 for face in faces if face == 1) >= read_int(DATA.get("automatic", "jams_on_ones"))


def ready_on(weapon: Weapon, fired_on: int, *, jammed: bool = False) -> int:
    """The first turn the weapon may fire again after firing on turn ``fired_on``: a heavy gun always spends
    the next turn reloading (BR-WPN-11), a jammed automatic the next turn clearing (BR-WPN-15)."""
    idle = read_int(class_rules(weapon.weapon_class)["reload_turns"])
    if jammed:
        idle = max(idle, read_int(DATA.get("automatic", "jammed_turns")))
    return fired_on + 1 + idle
