"""What exotic ordnance aboard counts as a gun or a magazine (SG-HALE-10/11, SG-LF-07/08, SG-CG-64/71/74).

A Gun hit or a Magazine critical may fall on ordnance as well as on guns: ``combat.py`` resolves every hit and
lists these picks beside the guns, and ``ordnance.py`` works the weapons. Both need the same answers, so they
live here, below both, reading only the records and the data files; this is what keeps ``combat.py`` from
importing ``ordnance.py`` (which is built on it). The groups are ``galleons/data/ordnance.json``'s.
"""

from __future__ import annotations

from galleons import catalog
from galleons.record import ORDNANCE_PREFIX, Ordnance, ShipRecord, ostrs

HALE = "hale_rockets"
LIQUID_FIRE = "liquid_fire_rack"
SPIKES = "spike_dropper"
BOMB_RACK = "bomb_rack"
BOMB_LOAD = "bomb_load"
DROGUE = "drogue_torpedo"
SMUTTS_TORPEDO = "smutts_torpedo"
MINES = ("tether_mine_martian", "tether_mine_british")
# The magazine and contact groups name all tether mines together.
MINE_GROUP = "tether_mine"
GONE = ("destroyed", "detonated")


def weapon_damage_value(weapon_id: str) -> int:
    """A weapon's damage value, from weapons.json."""
    value = catalog.weapon(weapon_id).damage_value
    if not isinstance(value, int):
        raise TypeError(f"weapons.json {weapon_id}: expected a numeric damage value, got {value!r}")
    return value


def weapon_penetration(weapon_id: str) -> int:
    """A weapon's Pen, at close range where it has one (weapons.json)."""
    pen = catalog.weapon(weapon_id).penetration
    return 0 if pen is None else pen.close if pen.close is not None else pen.long or 0


def whole_items(record: ShipRecord, weapon: str) -> tuple[Ordnance, ...]:
    """The items of one weapon aboard not yet destroyed or gone off."""
    """The items of one weapon aboard not yet destroyed or gone off."""
    return tuple(i for i in record.ordnance if i.weapon_id == weapon and i.state not in GONE)


def gun_hit_targets(record: ShipRecord) -> list[str]:
    """Ordnance a Gun hit may fall on, as picks for combat.py: one for all the Hale batteries, one for all
    the liquid fire racks, one per spike hopper, while whole (SG-HALE-10, SG-LF-07, SG-CG-64/71/74)."""
    found = [f"{ORDNANCE_PREFIX}{w}" for w in ostrs("gun_hits", "one_gun_for_all") if whole_items(record, w)]
    for weapon in ostrs("gun_hits", "each_a_gun"):
        found += [f"{ORDNANCE_PREFIX}{i.id}" for i in whole_items(record, weapon)]
    return found


def magazine_items(record: ShipRecord, group: str) -> tuple[Ordnance, ...]:
    """The items of one magazine group that can go up: loaded batteries and racks, torpedoes aboard, mines not
    raised, drogues not lowered."""
    """The items of one magazine group that can go up: loaded batteries and racks, torpedoes aboard, mines not
    raised, drogues not lowered."""
    if group == HALE:
        return record.items_of(HALE, states=("loaded",))
    if group == LIQUID_FIRE:
        return record.items_of(LIQUID_FIRE, states=("loaded",))
    if group == SMUTTS_TORPEDO:
        return record.items_of(SMUTTS_TORPEDO, states=("stowed",))
    if group == MINE_GROUP:
        return record.items_of(*MINES, states=("lowered",))
    if group == DROGUE:
        return record.items_of(DROGUE, states=("raised",))
    raise ValueError(f"unknown ordnance magazine {group!r}")


def magazine_targets(record: ShipRecord) -> list[str]:
    """Ordnance that can go up on a Magazine critical, as picks for combat.py (ordnance.json magazines)."""
    return [f"{ORDNANCE_PREFIX}{g}" for g in ostrs("magazines", "groups") if magazine_items(record, g)]
