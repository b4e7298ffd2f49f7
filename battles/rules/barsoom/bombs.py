"""Bombs and grenades (BR-BOMB-01..05) and the bombs each class carries (BR-CLS-04/05/11).

A bomb is a medium weapon that is only dropped, straight down: onto a target in the dropping ship's hex, any
number of levels below. It still needs a roll to hit, +2 on a stationary target, wounds crew at +2 and rolls
at -2 on the Damage table against a ship (its class's, weapons.py). A grenade is a light weapon thrown a short
way. Pure functions: the set-up phase rolls the bombs carried and passes the face here.
"""

from __future__ import annotations

from battles.engine.jsonread import read_int, read_object
from battles.rules.barsoom import weapons
from battles.rules.barsoom.weapons import Refusal, Weapon

BOMB: Weapon = weapons.weapon("Bomb")
GRENADE: Weapon = weapons.weapon("Grenade")


def drop_refusal(*, hexes: int, levels: int) -> Refusal | None:
    """None if a bomb falls on a target ``hexes`` away and ``levels`` up (+) or down (-), else why not: only
    straight down, so the same hex and at least one level lower (BR-BOMB-03)."""
    if hexes != 0 or levels >= 0:
        return Refusal("BR-BOMB-03", "a bomb is dropped only straight down, on a target in her hex and below her")
    return None


def to_hit_modifiers(*, levels_below: int, stationary: bool) -> dict[str, int]:
    """A dropped bomb's roll to hit (BR-BOMB-04): the range band of the drop (every drop of six levels or less is
    +0) and +2 on a target that is stationary."""
    modifiers = {"range": weapons.range_modifier(weapons.range_between(0, levels_below))}
    if stationary:
        modifiers["stationary target"] = read_int(_bombs()["stationary_to_hit"])
    return modifiers


def bomb_die(ship_class: str) -> int | None:
    """The die rolled at set-up for the bombs a ``ship_class`` ship carries (capital a D6, medium a D3), None
    where the count is fixed (a small craft's one)."""
    carried = read_object(read_object(_bombs()["carried"])[ship_class])
    return read_int(carried["die"]) if "die" in carried else None


def bombs_carried(ship_class: str, face: int | None = None) -> int:
    """Bombs a ship carries into the fight: the face of her class's die, or her class's fixed count
    (BR-CLS-04, BR-CLS-05, BR-CLS-11)."""
    sides = bomb_die(ship_class)
    if sides is None:
        return read_int(read_object(read_object(_bombs()["carried"])[ship_class])["count"])
    if face is None or not 1 <= face <= sides:
        raise ValueError(f"a {ship_class} ship's bombs are a D{sides} rolled at set-up, not {face!r}")
    return face


def throw_refusal(*, hexes: int, levels: int, at_ship: bool, small_craft: bool = False) -> Refusal | None:
    """A grenade is thrown as a light weapon (BR-BOMB-01): its own short reach, at any angle, harming a ship
    only if she is a small craft."""
    return weapons.refusal(GRENADE, hexes=hexes, levels=levels, at_ship=at_ship, small_craft=small_craft)


def _bombs() -> dict[str, object]:
    return read_object(weapons.DATA.get("bombs"))
