"""Class rules: what the ship descriptions of Cloudships & Gunboats say of one class alone (SG-CLS-*).

The rules are data: each catalog class may carry a ``class_rules`` list in ``galleons/data/ship-catalog.json``, one
entry per rule, ``{"rule": <kind>, "clauses": [...], ...its figures}``. This module reads them for a ship
record (by its ``class_id``; a ship built from a design has none) and says what each kind does. The engine
asks at a few hooks: combat's magazine, untrimmed check and fire solution, the ruleset's fire declaration
and turn upkeep, the AI's fire orders. Nothing here names a class.

The kinds:

* ``chain_reaction_magazine`` (the Eagle, SG-CLS-01): any magazine result sets off every rocket, bomb and
  gun magazine and bursts the boiler: the ship is destroyed outright.
* ``design_exception`` (the Eagle's rocket load, SG-CLS-02): design rules the class may break (``waives``).
* ``tiring_crew`` (the boarding launch, SG-CLS-03..06): no flywheel; her maximum speed drops by 1 after a
  turn she moved more than half of it, rises by 1 (never above ``max_speed``) after a turn she moved less
  than half, and holds after exactly half. Read: a launch that does not move at all rests, even at
  maximum 0 (half of nothing is nothing, and she would never recover). Her campaign cruising speed is
  data (``campaign_cruising_hexes_per_day``).
* ``outrigger_gross_trim`` (the Fleetfoot, SG-CLS-07): the text gives no figure; read as: her outrigger
  lifter keeps her in gross trim, so an empty trim station costs her no loss of trim (the SG-CREW-09 roll
  is not made); fine trim is still the trimsman's, so without one she changes no altitude (SG-CREW-09
  otherwise holds).
* ``one_gun_per_target`` (the Dauntless and the Danger, SG-CLS-08): of the guns of the listed weapons only
  one may fire at any one target in a fire phase. The forward gun's fixed mount already keeps it to the
  bow; the rule bites where a target sits on the line between two aspects, or in the ship's own hex.
* ``gunports`` (Skylord, Skyfire, Hamburg, SG-CLS-11..13): every gun in a fixed mount, none firing into
  the aspects of ``no_fire_into``. The mounts in the catalog carry it; :func:`class_problems` checks it.
* ``ventral_turret`` (the Gloire, SG-CLS-14/15): the gun of that mount fires into every aspect but never at
  a ship higher than its own.
* ``local_weapon_names`` (the Czarina's Gorloff guns, SG-CLS-16), ``earth_built_average_price`` (its price,
  for the campaign yard) and ``converted_kite`` (the Ranger and the Mikasa rated as steam ships,
  SG-CLS-17): facts about the class the catalog's figures already carry; :func:`class_problems` checks them.

A class built as a variant of another (the Danger, the improved Aphid: SG-CLS-09/10) says so in
``variant_of``; :func:`variant_of` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import Any

from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.engine.words import possessive
from battles.rules.sky_galleons.dice import _Log
from galleons import catalog, design, sailing
from galleons.catalog import ShipClass
from galleons.record import Gun, ShipRecord, altitude_level, ordnance_kinds

CHAIN_REACTION = "chain_reaction_magazine"
DESIGN_EXCEPTION = "design_exception"
TIRING_CREW = "tiring_crew"
OUTRIGGER = "outrigger_gross_trim"
ONE_GUN_PER_TARGET = "one_gun_per_target"
GUNPORTS = "gunports"
VENTRAL_TURRET = "ventral_turret"
LOCAL_WEAPON_NAMES = "local_weapon_names"
EARTH_BUILT_AVERAGE_PRICE = "earth_built_average_price"
CONVERTED_KITE = "converted_kite"
KINDS = (
    CHAIN_REACTION,
    DESIGN_EXCEPTION,
    TIRING_CREW,
    OUTRIGGER,
    ONE_GUN_PER_TARGET,
    GUNPORTS,
    VENTRAL_TURRET,
    LOCAL_WEAPON_NAMES,
    EARTH_BUILT_AVERAGE_PRICE,
    CONVERTED_KITE,
)


@dataclass(frozen=True, slots=True)
class ClassRule:
    """One rule of a class: its kind, clauses, and its figures as the catalog gives them."""

    kind: str
    clauses: tuple[str, ...]
    data: Mapping[str, Any]

    def whole(self, key: str) -> int:
        return read_int(self.data[key])

    def texts(self, key: str) -> tuple[str, ...]:
        return tuple(read_str(item) for item in read_list(self.data.get(key, [])))

    @classmethod
    def from_json(cls, data: Any) -> ClassRule:
        entry = read_object(data)
        kind = read_str(entry["rule"])
        if kind not in KINDS:
            raise ValueError(f"unknown class rule {kind!r}; the rules are {', '.join(KINDS)}")
        return cls(kind, tuple(read_str(c) for c in read_list(entry["clauses"])), MappingProxyType(dict(entry)))


@cache
def _rules(class_id: str) -> tuple[ClassRule, ...]:
    return tuple(ClassRule.from_json(entry) for entry in catalog.ship_class(class_id).raw.get("class_rules") or ())


def rules_of(ship: ShipRecord | ShipClass) -> tuple[ClassRule, ...]:
    """The class rules of a catalog class or of a record built from one (none for a designed ship)."""
    class_id = ship.id if isinstance(ship, ShipClass) else ship.class_id
    return () if class_id is None else _rules(class_id)


def rule(ship: ShipRecord | ShipClass, kind: str) -> ClassRule | None:
    return next((r for r in rules_of(ship) if r.kind == kind), None)


# --- the Eagle's magazines (SG-CLS-01) ------------------------------------------------------------------


def magazine_chain_reaction(record: ShipRecord, log: _Log) -> ShipRecord | None:
    """A magazine result on a class whose magazines go up together: every rocket, bomb and gun magazine
    aboard and the boiler explode, and the ship is destroyed outright. None for any other class."""
    found = rule(record, CHAIN_REACTION)
    if found is None:
        return None
    kinds = ordnance_kinds()
    items = []
    gone = 0
    for item in record.ordnance:
        aboard = item.state == kinds[item.weapon_id]["initial"]
        if item.weapon_id == "bomb_rack" and item.state == "loaded":
            items.append(replace(item, state="empty"))
            gone += 1
        elif item.weapon_id == "bomb_load" and aboard:
            items.append(replace(item, state="used"))
            gone += 1
        elif aboard and "detonated" in kinds[item.weapon_id]["states"]:
            items.append(replace(item, state="detonated"))
            gone += 1
        else:
            items.append(item)
    magazines = sum(1 for gun in record.guns if not gun.destroyed and (gun.damage_value or 0) > 0)
    destroyed = replace(
        record,
        hull_rows=tuple(replace(row, hits=row.boxes) for row in record.hull_rows),
        guns=tuple(replace(gun, destroyed=True, manned=0) for gun in record.guns),
        ordnance=tuple(items),
        criticals=replace(record.criticals, boiler_blown=record.criticals.boiler_blown or record.is_steam),
        status="crashed",
    )
    log.note(
        f"{possessive(record.name)} magazines go up together: {gone} rocket batteries, bombs and other stores, "
        f"{magazines} gun magazines" + (" and the boiler" if record.is_steam else ""),
        ship=record.name,
        clauses=list(found.clauses),
        outcome="destroyed outright",
    )
    return destroyed


# --- the Eagle's rocket load (SG-CLS-02) ----------------------------------------------------------------


def waived(ship: ShipClass) -> tuple[str, ...]:
    """The design rules the class is allowed to break."""
    return tuple(clause for r in rules_of(ship) for clause in r.texts("waives"))


def design_errors(ship: ShipClass, rating: design.ShipRating) -> tuple[design.RuleViolation, ...]:
    """The design rules the class breaks, less those its class rules allow (a yard's view of the class)."""
    allowed = set(waived(ship))
    return tuple(error for error in rating.errors if error.clause not in allowed)


# --- the boarding launch (SG-CLS-03..06) ----------------------------------------------------------------


def tiring_crew_speed(record: ShipRecord, hexes_moved: int) -> int | None:
    """The maximum speed after a turn in which the ship moved ``hexes_moved`` hexes: 1 less after more than
    half the current maximum, 1 more (never above the class's cap) after less than half or none, the same
    after exactly half. None when the class has no such rule or nothing changes."""
    found = rule(record, TIRING_CREW)
    if found is None or not isinstance(record.speed, int):
        return None
    current, cap = record.speed, found.whole("max_speed")
    if hexes_moved * 2 > current:
        speed = max(current - 1, 0)
    elif hexes_moved * 2 < current or hexes_moved == 0:
        speed = min(current + 1, cap)
    else:
        speed = current
    return None if speed == current else speed


# The launch's campaign cruising speed is the ship model's (galleons/sailing.py): the voyage rules read it too.
campaign_cruising_hexes_per_day = sailing.campaign_cruising_hexes_per_day


# --- the Fleetfoot (SG-CLS-07) -------------------------------------------------------------------------


def keeps_gross_trim(record: ShipRecord) -> bool:
    return rule(record, OUTRIGGER) is not None


# --- the Dauntless (SG-CLS-08) -------------------------------------------------------------------------


def exclusive_guns(record: ShipRecord) -> tuple[frozenset[str], ...]:
    """Groups of gun ids of which only one may fire at any one target in a fire phase."""
    groups = []
    for found in rules_of(record):
        if found.kind == ONE_GUN_PER_TARGET:
            weapons = set(found.texts("weapons"))
            groups.append(frozenset(gun.id for gun in record.guns if gun.weapon_id in weapons))
    return tuple(groups)


def _clashes(ships: Mapping[str, ShipRecord], shots: Sequence[Any]) -> list[int]:
    """Indexes of the shots that are a second gun of one group at one target."""
    taken: set[tuple[str, int, str]] = set()
    clashing = []
    for index, shot in enumerate(shots):
        if not isinstance(shot, Mapping):
            continue
        record = ships.get(str(shot.get("ship")))
        if record is None:
            continue
        for number, group in enumerate(exclusive_guns(record)):
            if str(shot.get("gun")) in group:
                key = (record.name, number, str(shot.get("target")))
                if key in taken:
                    clashing.append(index)
                taken.add(key)
    return clashing


def shot_conflict(ships: Mapping[str, ShipRecord], shots: Sequence[Any]) -> tuple[str, str] | None:
    """(clause, reason) if the declared shots fire two guns of one group at one target."""
    clashing = _clashes(ships, shots)
    if not clashing:
        return None
    shot = shots[clashing[0]]
    record = ships[str(shot["ship"])]
    found = rule(record, ONE_GUN_PER_TARGET)
    assert found is not None
    return found.clauses[
        0
    ], f"only one of {possessive(record.name)} guns {', '.join(sorted(exclusive_guns(record)[0]))} " + (
        f"may engage {shot['target']}"
    )


def without_conflicts(ships: Mapping[str, ShipRecord], shots: Sequence[Any]) -> list[Any]:
    """The shots less every second gun of a group at one target (the first declared keeps its shot)."""
    clashing = set(_clashes(ships, shots))
    return [shot for index, shot in enumerate(shots) if index not in clashing]


# --- the Gloire's ventral turret (SG-CLS-14/15) ---------------------------------------------------------


def gun_refusal(firer: ShipRecord, gun: Gun, target: ShipRecord) -> tuple[str, str] | None:
    """(clause, reason) if a class rule forbids this gun this target: a ventral turret at a higher ship."""
    for found in rules_of(firer):
        if found.kind != VENTRAL_TURRET or gun.mount != read_str(found.data["mount"]):
            continue
        if altitude_level(target.altitude) > altitude_level(firer.altitude):
            return found.clauses[-1], f"the {gun.mount} turret cannot engage a ship higher than {firer.name}"
    return None


# --- variants and the catalog's own consistency --------------------------------------------------------


def variant_of(ship: ShipClass) -> ShipClass | None:
    """The class this one is a variant of (the Danger of the Dauntless, SG-CLS-09; the improved Aphid,
    SG-CLS-10), if any."""
    entry = ship.raw.get("variant_of")
    return None if not entry else catalog.ship_class(read_str(read_object(entry)["class"]))


def local_names(ship: ShipClass) -> Mapping[str, tuple[str, ...]]:
    """Names a class's navy gives catalog weapons: {"Gorloff gun": ("gatling_05in", "gatling_1in")}."""
    found = rule(ship, LOCAL_WEAPON_NAMES)
    if found is None:
        return {}
    names = read_object(found.data["names"])
    return {name: tuple(read_str(w) for w in read_list(ids)) for name, ids in names.items()}


def class_problems(ship: ShipClass) -> list[str]:
    """Where the catalog's figures contradict the class's own rules (empty for a consistent class)."""
    problems: list[str] = []
    guns = [mount for mount in ship.mounts if not design.is_exotic_store(mount.weapon_id)]
    mounts: Mapping[str, Mapping[str, Any]] = design.design_tables()["mounts"]["table"]
    for found in rules_of(ship):
        if found.kind == GUNPORTS:
            for mount in guns:
                kinds = {mounts[design.canonical_mount(p) or p]["kind"] for p in mount.positions}
                if kinds != {"fixed"}:
                    problems.append(f"{mount.weapon_name} is not in a fixed gunport mount")
                barred = set(found.texts("no_fire_into")) & {a for arc in mount.arcs for a in arc}
                if barred:
                    problems.append(f"{mount.weapon_name} fires into {', '.join(sorted(barred))}")
        elif found.kind == VENTRAL_TURRET:
            where = read_str(found.data["mount"])
            if not any(design.canonical_mount(p) == where for mount in guns for p in mount.positions):
                problems.append(f"no gun in the {where} mount")
        elif found.kind == ONE_GUN_PER_TARGET:
            if sum(m.count for m in guns if m.weapon_id in found.texts("weapons")) < 2:
                problems.append("fewer than two guns share a target")
        elif found.kind == LOCAL_WEAPON_NAMES:
            carried = {m.weapon_id for m in ship.mounts}
            names = local_names(ship).items()
            problems += [f"{name} names no weapon aboard" for name, ids in names if not carried & set(ids)]
        elif found.kind == CONVERTED_KITE:
            rated_as = read_str(found.data["rated_as"])
            if ship.propulsion is None or ship.propulsion.type != rated_as:
                problems.append(f"a converted kite rated as {rated_as} has other propulsion")
    if ship.raw.get("variant_of") and variant_of(ship) is None:
        problems.append("variant of an unknown class")
    return problems
