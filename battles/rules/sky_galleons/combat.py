"""Sky Galleons fire combat, as pure functions over ship records (SG-FIRE, SG-DMG, SG-CRIT, SG-ARM, SG-CREW).

Every function takes the records it changes and a :data:`Roller` for its dice, and returns the new
records plus a list of plain "what happened" dicts for the event log, one per roll or effect::

    {"ship": "Swiftwood", "purpose": "to hit: Aphid 4in long vs Swiftwood, close range",
     "faces": [5], "modifiers": {"different altitude": -1}, "total": 4, "needed": "3+",
     "outcome": "hit", "clauses": ["SG-FIRE-09", "SG-FIRE-17"]}

Effects without dice have ``faces`` [] and ``total`` None. The roller is ``(purpose, count, sides) ->
faces``: the ruleset hands in a roller that rolls through ``ctx.roll`` with the roll's modifiers and judgement, so
every die is the battle's logged die, logged whole; tests hand in :class:`FixedDice`.

Numbers and tables come from ``galleons/data/combat-tables.json``; each of its entries names its clauses and, where
the text is ambiguous, silent or lost, the reading this module applies (``decision``). The readings that
shape this module most:

* The altitude limit compares levels with hexes before range is added for a higher target; two ships in
  one hex at different altitudes cannot fire at each other (SG-FIRE-13..16).
* A missed shot at a target sharing its hex with others is rolled again against the same number; the
  others are the ships at the target's altitude (SG-FIRE-11/12).
* The to-hit dice of one gun are rolled together, then the second rolls of its missed shots, then each hit
  is resolved in turn, the target's first.
* A Gun hit's damage points past the first are casualties, the destroyed gun's crew first (the chart's
  word); the guns it can hit are those bearing on the aspect the fire came from (SG-DMG-08..10).
* The owner's choice of casualties is his standing casualty order on the record (SG-DMG-18); the officer
  check is rolled at the ship's first gunfire casualty of a movement phase (SG-DMG-19).
* Armor works location by location: crew, and the Fire, Rudder, Lifters and Screw/Mast criticals, always
  take the full damage value; the hull, armored guns, magazine, bridge, trim and boiler take it halved or
  not at all (SG-ARM-09). Damage from inside (a magazine's hull hits and follow-on critical, a boiler's
  criticals) is not reduced. Penetration by range is on by default (SG-CG-06).
* Magazines are the guns of damage value 1 or more; with none a Magazine result is a Fire (SG-CRIT-14).
* Bridge casualties are picked by die (the chart, SG-CRIT-43). One fire level per ship: a new Fire adds to
  it (SG-CRIT-49). Boiler size is engine size (SG-CRIT-44). One Screw/Mast critical costs 1, whatever the
  damage value (SG-CRIT-45/46).
* Loss of trim is rolled again at once after each 1-level drop until recovered or crashed (main text over
  the chart, SG-CRIT-47); the roller is the original trimsman, then the captain, officers and petty
  officers, then anyone (SG-CRIT-33); the errata's modified 6 against damage values of 6 or more is on by
  default (SG-ERR-07). Nobody at the trim station: on a 6 a loss of trim against damage value 6 (SG-CREW-09).

The advanced fire rules (Part II) are switches on :class:`CombatRules` or choices made when a shot is
declared, so a battle under the basic rules plays as before:

* Small arms (``small_arms``, SG-SAF, SG-MAR-01): "P" guns and the ship's marines, the pseudo-gun
  :data:`MARINES`, roll hit dice and the target rolls saving throws; only crew are lost. :func:`firing_ids`
  lists what a ship can fire. The readings of the lost chart cells (SG-SAF-12/16/17) are in the table.
* Lob guns (``lob_guns``, SG-LOB): all round, no altitude effects, a natural 6 to hit whatever the modifiers,
  and a loss of trim per hit.
* Shrapnel and grape (SG-SHR, SG-CG-11): ``fire_solution(..., ammunition="shrapnel" | "grape")``.
* Machineguns (SG-MG, SG-CG-50..57): ``fire_solution(..., rate="max")`` for the jam-prone guns,
  :func:`clear_jams` each fire phase, :func:`train_portable_gun` in the Initiative Phase.
* Optional: nonexploding rounds (``nonexploding_rounds``, SG-NEX) and restricted firing arcs
  (``restricted_arcs``, SG-ARC, a stand-in for the lost illustration). Line of sight (SG-LOS) is not here:
  it needs every other ship on the board (sightlines.py, asked by the ruleset).

A rule set layered on these rules changes the fire procedure through a :class:`FireModel`, ``CombatRules.model``:
the basic model changes nothing; agility.py's ``AgilityFireModel`` (AG-*) overrides the steps it changes. This
module never imports the rule sets built on it.

Exotic ordnance is worked by ``ordnance.py``, which is built on this module and never imported by it. For records
that carry some, the Gun hit and Magazine picks include the ordnance that counts as a gun or a magazine
(``ordnance_stores.py``, below both), and the hits on it and on ground targets (``record.emplacement``) are
resolved here with the other hit steps they call and are called by (SG-HALE-10/11, SG-LF-07/08, SG-SMT-10,
SG-BOMB, SG-GB).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.engine import hexgrid
from battles.engine.frozen import evolve
from battles.engine.words import possessive
from battles.rules.sky_galleons import class_rules
from battles.rules.sky_galleons.dice import DiceExhausted as DiceExhausted
from battles.rules.sky_galleons.dice import FixedDice as FixedDice
from battles.rules.sky_galleons.dice import Happening as Happening
from battles.rules.sky_galleons.dice import Judgement as Judgement
from battles.rules.sky_galleons.dice import Roller as Roller
from battles.rules.sky_galleons.dice import _Log as _Log
from battles.rules.sky_galleons.dice import _no_dice
from battles.rules.sky_galleons.dice import note as note
from battles.rules.sky_galleons.ordnance_stores import (
    DROGUE,
    HALE,
    LIQUID_FIRE,
    MINE_GROUP,
    SMUTTS_TORPEDO,
    gun_hit_targets,
    magazine_items,
    magazine_targets,
    weapon_damage_value,
    weapon_penetration,
    whole_items,
)
from galleons import catalog
from galleons.catalog import RangeBands, SmallArm
from galleons.record import (
    ORDNANCE_PREFIX,
    Gun,
    Moment,
    Ordnance,
    ShipRecord,
    altitude_level,
    altitude_levels,
    oint,
    ostrs,
    surface,
    table,
    tint,
    tstrs,
)


@dataclass(frozen=True)
class FireModel:
    """The steps of the basic fire procedure that a rule set layered on the basic rules may change.

    :func:`fire_solution` and :func:`resolve_fire` run the procedure (SG-FIRE, SG-DMG) and ask the battle's
    model, ``CombatRules.model``, at each of these steps; this one is the basic rules' and changes nothing. A
    rule set subclasses it and overrides only the steps it changes (agility.py's ``AgilityFireModel``,
    AG-*), and the ruleset chooses the model once from the battle's options, so combat never names it.
    Models are frozen values, equal when of one class with equal switches.
    """

    def beyond_long_range(self, gun: Gun, effective_range: int) -> bool:
        """May the gun fire past its long range, rolling as at long range? Never under the basic rules
        (SG-FIRE-07). A model's answer may not come back further out: a gun with neither a band nor this
        leave at a range has neither at a longer one (:func:`out_of_reach` relies on it)."""
        return False

    def adjust_solution(
        self, solution: FireSolution, target: ShipRecord, gun: Gun, *, beyond_long: bool
    ) -> FireSolution:
        """The gun's solution as the model has it: band, to-hit modifiers, penetration (basic: as found)."""
        return solution

    def roll_to_hit(
        self,
        log: _Log,
        ships: Mapping[str, ShipRecord],
        solution: FireSolution,
        aimed: Mapping[str, ShipRecord] | None,
    ) -> tuple[list[str], tuple[int, ...]]:
        """The ships a gun's shots hit and the faces of the first roll (SG-FIRE-09..12)."""
        return _roll_to_hit(log, ships, solution, aimed)

    def resolve_hit(
        self,
        victim: ShipRecord,
        shot: Shot,
        solution: FireSolution,
        shooter: ShipRecord,
        *,
        now: Moment,
        log: _Log,
        rules: CombatRules,
        stood: ShipRecord,
    ) -> ShipRecord:
        """One hit of the gun's: hit location, then what it crosses off (SG-DMG-*). ``shooter`` and ``stood``
        are the firer and the ship hit as they stood when the fire step began (simultaneous fire)."""
        return _apply_hit(victim, shot, now=now, log=log, rules=rules)


def _flag(*path: str) -> Callable[[], bool]:
    return lambda: bool(table(*path))


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The switches that change combat: the C&G penetration by range (SG-CG-06/07), the errata (SG-ERR-07/08,
    and the small arms saves SG-ERR-03/10/11), the advanced rules of small arms fire (SG-SAF, SG-MAR-01) and
    lob guns (SG-LOB), and the optional rules: nonexploding rounds (SG-NEX), restricted firing arcs
    (SG-ARC) and green crews firing machineguns flat out (SG-CG-54). Each default is in combat-tables.json;
    all the new ones are off, the basic rules."""

    two_range_penetration: bool = field(default_factory=_flag("armor", "two_range_penetration_default"))
    errata: bool = True
    small_arms: bool = field(default_factory=_flag("small_arms", "in_play_by_default"))
    lob_guns: bool = field(default_factory=_flag("lob_guns", "in_play_by_default"))
    nonexploding_rounds: bool = field(default_factory=_flag("nonexploding_rounds", "default"))
    restricted_arcs: bool = field(default_factory=_flag("restricted_arcs", "default"))
    green_machineguns_at_max: bool = field(default_factory=_flag("machineguns", "green_at_maximum_default"))
    # The fire procedure's changeable steps: the basic rules', or a rule set's layered on them (agility.py).
    model: FireModel = field(default_factory=FireModel)


class FireRefused(ValueError):
    """A gun may not fire at that target; ``clause`` names the rule."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


# --- can it fire, and how ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FireSolution:
    """Whether one gun may fire at one ship now, and on what terms (SG-FIRE-*).

    ``needed`` is what die + modifiers must reach. ``aspects`` are the firer's aspects that hold the target
    (the gun's arcs must include one, SG-FIRE-02); ``incoming`` the target's aspects that hold the firer
    (the guns a Gun hit can destroy, SG-DMG-09).

    ``small_arms``: the shots are small arms hit dice (a "P" gun or the marines, SG-SAF-01); a hit is saved
    when die + ``save_modifiers`` is no more than ``save_number`` (SG-SAF-13/14, SG-ERR-10/11).
    ``weapon`` is the weapon id, or the marines' small arm. ``ammunition`` is "shell", "shrapnel" or
    "grape" (SG-SHR); ``rate`` "normal" or "max" (SG-CG-51/52); ``lob_gun`` marks the lob gun's rules
    (SG-LOB-02..04).
    """

    firer: str
    gun_id: str
    target: str
    allowed: bool
    clause: str = ""
    reason: str = ""
    distance: int | None = None
    altitude_difference: int = 0
    effective_range: int | None = None
    band: str | None = None
    shots: int = 0
    needed: int = 0
    modifiers: Mapping[str, int] = field(default_factory=dict)
    penetration: int = 0
    damage_value: int = 0
    aspects: tuple[str, ...] = ()
    incoming: tuple[str, ...] = ()
    weapon: str = ""
    small_arms: bool = False
    save_number: int = 0
    save_modifiers: Mapping[str, int] = field(default_factory=dict)
    ammunition: str = "shell"
    rate: str = "normal"
    lob_gun: bool = False
    # Clauses of the optional rules that changed the solution (agility.py, AG-*), for the log.
    extra_clauses: tuple[str, ...] = ()
    # Small arms hits, up to this many, fall on men the ship's armor does not protect (its boarders crossing,
    # SG-BRD-10): they save against the basic number, without the armor (SG-ERR-12).
    unprotected: int = 0

    @property
    def target_higher(self) -> bool:
        return self.altitude_difference > 0

    @property
    def from_below(self) -> bool:
        """The shot comes up from below the target (SG-DMG-07); a lob gun's never does (SG-LOB-04)."""
        return self.target_higher and not self.lob_gun

    @property
    def clauses(self) -> list[str]:
        """The clauses this solution applied, for the log."""
        if self.small_arms:
            found = ["SG-SAF-10", "SG-SAF-11", "SG-SAF-15" if self.gun_id == MARINES else "SG-SAF-03"]
        elif self.lob_gun:
            found = ["SG-LOB-02", "SG-LOB-04", "SG-FIRE-07"]
        else:
            found = ["SG-FIRE-09" if self.band == "close" else "SG-FIRE-10", "SG-FIRE-07"]
        if self.altitude_difference > 0 and not self.lob_gun:
            found.append("SG-FIRE-15")
        if "different altitude" in self.modifiers:
            found.append("SG-FIRE-17")
        if "green crew" in self.modifiers:
            found.append("SG-CQ-02")
        if "crack crew" in self.modifiers:
            found.append("SG-CQ-06")
        if "burning" in self.modifiers:
            found.append("SG-CRIT-19")
        if self.ammunition != "shell":
            found += ["SG-SHR-01", "SG-SHR-02"]
        if self.rate == "max":
            found.append("SG-CG-52")
        return found + list(self.extra_clauses)

    @property
    def shooter(self) -> str:
        return "marines" if self.gun_id == MARINES else f"gun {self.gun_id}"

    @property
    def describe(self) -> str:
        if not self.allowed:
            return f"{self.firer} {self.shooter} may not fire at {self.target}: {self.reason} ({self.clause})"
        terms = [f"{self.band} range {self.effective_range}"]
        if self.small_arms:
            terms.insert(0, f"small arms ({self.weapon}) {self.shots} dice")
        if self.ammunition != "shell":
            terms.append(self.ammunition)
        if self.rate == "max":
            terms.append("maximum rate")
        terms += [f"{name} {value:+d}" for name, value in self.modifiers.items()]
        return f"{self.firer} {self.shooter} vs {self.target}, " + ", ".join(terms)


def _refuse(firer: ShipRecord, gun_id: str, target: ShipRecord, clause: str, reason: str) -> FireSolution:
    return FireSolution(firer.name, gun_id, target.name, False, clause, reason)


@functools.cache  # a pure function of a set of aspects, of which there are a handful: fire_solution asks it often
def _aspect_names(found: frozenset[hexgrid.Aspect]) -> tuple[str, ...]:
    return tuple(aspect.value for aspect in hexgrid.Aspect if aspect in found)


def _on_map(ship: ShipRecord) -> hexgrid.Hex:
    if ship.position is None:
        raise ValueError(f"{ship.name} is not on the map")
    return ship.position


def sight_lines(
    firer: ShipRecord, target: ShipRecord, same_hex: tuple[str, str] | None = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the firer's aspects holding the target, the target's aspects holding the firer).

    Ships in one hex are in whatever aspects the player who moved last declared (SG-MOV-05):
    ``same_hex`` = (firer's aspect of the target, target's aspect of the firer); undeclared, every aspect.
    """
    if firer.position is None or target.position is None:
        raise ValueError(f"{firer.name} and {target.name} must both be on the map")
    if firer.position == target.position and same_hex is not None:
        return (same_hex[0],), (same_hex[1],)
    return (
        _aspect_names(hexgrid.aspects(firer.position, firer.facing, target.position)),
        _aspect_names(hexgrid.aspects(target.position, target.facing, firer.position)),
    )


def penetration_at(gun: Gun, band: str, rules: CombatRules) -> int:
    """The gun's penetration at this range band: close/long by range (SG-CG-06), or the close value at all
    ranges (SG-CG-07); a gun with no close figure uses its long one; "-" pierces nothing (SG-CG-88)."""
    pen = gun.weapon.penetration
    if pen is None:
        return 0
    value = pen.long if rules.two_range_penetration and band == "long" else pen.close
    if value is None:
        value = pen.long
    return value or 0


def to_hit_modifiers(firer: ShipRecord, target: ShipRecord) -> dict[str, int]:
    """The to-hit modifiers of the firing ship against the target (SG-FIRE-17/40, SG-CQ-02/06, SG-CRIT-19)."""
    mods: dict[str, int] = {}
    if firer.altitude != target.altitude:
        mods["different altitude"] = tint("to_hit_modifiers", "different_altitude")
    quality = tint("to_hit_modifiers", "crew_quality", firer.crew_quality)
    if quality:
        mods[f"{firer.crew_quality} crew"] = quality
    if firer.fire > 0:
        mods["burning"] = tint("to_hit_modifiers", "burning")
    return mods


def range_band(gun: Gun, effective_range: int) -> str | None:
    """ "close", "long" or None (out of range) for an effective range in hexes (SG-FIRE-07/08, SG-CG-86)."""
    return _band(gun.weapon.range_hexes, effective_range)


def _band(ranges: RangeBands | None, effective_range: int) -> str | None:
    if ranges is None:
        return None
    if ranges.close is not None and effective_range <= ranges.close:
        return "close"
    if ranges.long is not None and effective_range <= ranges.long:
        return "long"
    return None


# --- small arms, marines, machineguns, ammunition: what the advanced rules add ------------------------

# The marines' pseudo-gun id in fire declarations and solutions (SG-MAR-01, SG-SAF-01).
MARINES: str = str(table("small_arms", "pseudo_gun"))


def firing_ids(record: ShipRecord) -> list[str]:
    """What the ship may name to fire: its gun ids, then :data:`MARINES` when it has marines aboard.

    Whether each may fire now, and at whom, is :func:`fire_solution`'s question (marines fire only with
    ``CombatRules.small_arms``)."""
    ids = [gun.id for gun in record.guns]
    if record.crew.marines + record.crew.marine_officers > 0:
        ids.append(MARINES)
    return ids


def marine_arms(record: ShipRecord) -> str:
    """The marines' weapon: the record's own, else muskets for Martian crews and modern rifles for the rest
    (SG-SAF-05; the nation words are in combat-tables.json)."""
    if record.marine_arms is not None:
        return record.marine_arms
    arms: Mapping[str, Any] = table("small_arms", "marine_arms")
    nation = record.nation.casefold()
    martian = any(word in nation for word in arms["martian_nation_words"])
    return str(arms["martian" if martian else "earth"])


def small_arm(arm_id: str) -> SmallArm:
    """A marines' weapon from the catalog (modern_rifle, musket, bow, rifle_musket)."""
    for arm in catalog.small_arms():
        if arm.id == arm_id:
            return arm
    raise KeyError(f"unknown small arm {arm_id!r}; known: {', '.join(a.id for a in catalog.small_arms())}")


def marines_firing(record: ShipRecord, rules: CombatRules) -> int:
    """Marines aboard who can fire: officers count among them; with the errata no more than 5 per hull size
    fight, the rest are passengers (SG-ERR-03)."""
    men = record.crew.marines + record.crew.marine_officers
    if rules.errata:
        men = min(men, record.hull_size * tint("small_arms", "errata_marines_per_hull_size"))
    return men


def small_arms_modifiers(firer: ShipRecord, target: ShipRecord) -> dict[str, int]:
    """Small arms hit roll modifiers: a different altitude and a burning firer, never crew quality
    (SG-FIRE-17, SG-CRIT-19, SG-CQ-02/06; SG-SAF-17 reading in combat-tables.json)."""
    mods: dict[str, int] = {}
    if firer.altitude != target.altitude:
        mods["different altitude"] = tint("small_arms", "hit_modifiers", "different_altitude")
    if firer.fire > 0:
        mods["burning"] = tint("small_arms", "hit_modifiers", "burning")
    return mods


def save_modifiers(firer: ShipRecord, *, bowmen: bool) -> dict[str, int]:
    """The target's saving throw modifiers, from the firing troops: bows, green, crack (SG-SAF-14/16, SG-CQ-05)."""
    mods: dict[str, int] = {}
    if bowmen:
        mods["bowmen"] = tint("small_arms", "save_modifiers", "bowmen")
    quality = tint("small_arms", "save_modifiers", "crew_quality", firer.crew_quality)
    if quality:
        mods[f"{firer.crew_quality} firers"] = quality
    return mods


def save_number(target: ShipRecord, rules: CombatRules) -> int:
    """A hit is saved on this or less (SG-SAF-13); with the errata the target's armor adds to it (SG-ERR-10)."""
    number = tint("small_arms", "save_number")
    if rules.errata and table("small_arms", "errata_save_adds_target_armor"):
        number += target.armor
    return number


def save_made(face: int, modifier: int, number: int, rules: CombatRules) -> bool:
    """One saving throw: die + modifier no more than the save number; with the errata a 6 never saves
    (SG-SAF-13, SG-ERR-11)."""
    if rules.errata and face >= tint("small_arms", "errata_never_saves_on"):
        return False
    return face + modifier <= number


def is_lob_gun(gun: Gun) -> bool:
    return gun.weapon_id in tstrs("lob_guns", "weapons")


def is_portable(gun: Gun) -> bool:
    """Maxims, Gardners and 1-barrel Nordenfelts are carried about the ship (SG-MG-04/07, SG-CG-55)."""
    return gun.weapon_id in tstrs("machineguns", "portable")


def ammunition_for(gun: Gun) -> tuple[str, ...]:
    """What the gun may fire: shell, and shrapnel (British guns) or grape (Martian guns, howitzers)
    (SG-SHR-01, SG-CG-11). "P" guns and machineguns fire only as they are."""
    return _ammunition_of(gun.weapon_id)


@functools.cache  # the weapon's alone (its catalog entry and the tables, read once): every fire solution asks
def _ammunition_of(weapon_id: str) -> tuple[str, ...]:
    weapon = catalog.weapon(weapon_id)
    found = [str(table("shrapnel_and_grape", "default_ammunition"))]
    if weapon.personnel_only or not isinstance(weapon.damage_value, int):  # Gun.damage_value
        return tuple(found)
    kinds: Mapping[str, Mapping[str, Any]] = table("shrapnel_and_grape", "ammunition")
    for kind, rule in kinds.items():
        if weapon.id in rule["except"]:
            continue
        if weapon.category in rule["categories"] or weapon.id in rule["weapons"]:
            found.append(kind)
    return tuple(found)


def _restricted_arc_holds(gun: Gun, firer: ShipRecord, target: ShipRecord) -> bool:
    """The optional restricted arc of the gun's mount holds the target (SG-ARC-01, stand-in for SG-ARC-02).

    Each half-plane named for the mount must hold it: "ahead"/"astern" of the beam line, "port"/"starboard"
    of the keel line, a target on a line being inside. Mounts not listed, portable guns and targets in the
    firer's own hex keep the basic aspects."""
    mounts: Mapping[str, Sequence[str]] = table("restricted_arcs", "mounts")
    if is_portable(gun) or gun.mount not in mounts or firer.position == target.position:
        return True
    v = hexgrid.rotate(_on_map(target) - _on_map(firer), -firer.facing)
    # The frame of hexgrid.aspects: bow up; "side" is positive to starboard.
    ahead = -(2 * v.r + v.q)
    side = 3 * v.q
    tests = {"ahead": ahead >= 0, "astern": ahead <= 0, "starboard": side >= 0, "port": side <= 0}
    return all(tests[half] for half in mounts[gun.mount])


def _max_shots(gun: Gun) -> int | None:
    """Shots at the maximum rate of a jam-prone gun, one fewer per missing gunner (SG-CG-52, SG-CREW-10)."""
    rof = gun.weapon.rate_of_fire
    if rof is None or rof.maximum is None:
        return None
    return max(rof.maximum - gun.crew_short * tint("rate_of_fire", "shots_lost_per_missing_gunner"), 1)


def fire_solution(
    firer: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules | None = None,
    same_hex: tuple[str, str] | None = None,
    ammunition: str = "shell",
    rate: str = "normal",
) -> FireSolution:
    """May ``firer``'s gun fire at ``target`` now, and how? Refusals name their clause.

    ``gun_id`` :data:`MARINES` is the ship's marines firing small arms (with ``rules.small_arms``).
    ``ammunition``: "shell", or "shrapnel"/"grape" where the gun carries it (:func:`ammunition_for`,
    SG-SHR-01). ``rate``: "normal", or "max" for a gun with two rates of fire (SG-CG-51/52); a green ship
    fires those at "max" anyway under ``rules.green_machineguns_at_max`` (SG-CG-54). The rules' fire model
    has the last word on the terms (:class:`FireModel`).
    """
    rules = rules or CombatRules()
    if gun_id == MARINES:
        return _marines_solution(
            firer, target, now=now, rules=rules, same_hex=same_hex, ammunition=ammunition, rate=rate
        )
    gun = firer.gun(gun_id)
    refusal = _gun_refusal(firer, gun, target, now=now, rules=rules) or _load_refusal(gun, rate, ammunition)
    if refusal is not None:
        return _refuse(firer, gun_id, target, *refusal)
    if _max_shots(gun) is not None and rules.green_machineguns_at_max and firer.crew_quality == "green":
        rate = "max"
    lob = rules.lob_guns and is_lob_gun(gun)
    aspects, incoming = sight_lines(firer, target, same_hex)
    refusal = _arc_refusal(firer, gun, target, aspects, rules=rules, lob=lob)
    if refusal is not None:
        return _refuse(firer, gun_id, target, *refusal)
    reach = _gun_reach(firer, gun, target, lob=lob)
    if isinstance(reach, FireSolution):
        return reach
    distance, difference, effective = reach
    banded = _gun_band(firer, gun, target, effective, ammunition=ammunition, rules=rules)
    if isinstance(banded, FireSolution):
        return banded
    band, beyond_long = banded
    base = FireSolution(
        firer=firer.name,
        gun_id=gun_id,
        target=target.name,
        allowed=True,
        distance=distance,
        altitude_difference=difference,
        effective_range=effective,
        band=band,
        shots=_shots(gun, rate),
        aspects=aspects,
        incoming=incoming,
        weapon=gun.weapon.id,
        rate=rate,
    )
    solution = _gun_terms(base, firer, gun, target, band, rules=rules, ammunition=ammunition, lob=lob)
    return rules.model.adjust_solution(solution, target, gun, beyond_long=beyond_long)


# Why a gun may not fire: (clause, reason).
Refusal = tuple[str, str]


def _gun_refusal(firer: ShipRecord, gun: Gun, target: ShipRecord, *, now: Moment, rules: CombatRules) -> Refusal | None:
    """Why the gun may not fire now, whatever its target's bearing and range (SG-DMG-08/16, SG-FIRE-04/05/25,
    SG-CG-52/89/94, SG-CREW-10, SG-CRIT-37, SG-SEQ-06, SG-MG-04); None when it may."""
    if not firer.afloat or not target.afloat:
        return "SG-DMG-16", "a crashed ship neither fires nor is fired at"
    if firer.name == target.name:
        return "SG-FIRE-04", "a gun fires at an enemy vessel, not its own ship"
    return _idle_refusal(firer, gun, now=now, rules=rules)


def gun_idle(firer: ShipRecord, gun_id: str, *, now: Moment, rules: CombatRules | None = None) -> bool:
    """Is the gun refused whatever the target, as :func:`fire_solution` with shell at the normal rate refuses it
    (afloat, whole, manned, loaded, not fired...)? Finding a side's shots asks this once a gun, not once a
    target. Marines are never idle here: their fire is worked out otherwise."""
    if gun_id == MARINES:
        return False
    gun = firer.gun(gun_id)
    rules = rules or CombatRules()
    return (
        not firer.afloat
        or _idle_refusal(firer, gun, now=now, rules=rules) is not None
        or _load_refusal(gun, "normal", "shell") is not None
    )


def out_of_reach(firer: ShipRecord, gun_id: str, target: ShipRecord, *, rules: CombatRules | None = None) -> bool:
    """Is the target beyond the gun's reach whatever the altitudes, so that :func:`fire_solution` refuses the shot
    (on range, SG-FIRE-07 / SG-SAF-11, or on an earlier ground)? The effective range is never shorter than the
    distance (altitude only adds to it, SG-FIRE-15; a lob gun's is the distance, SG-LOB-04), and a gun with no
    band at a range has none further out (FireModel.beyond_long_range). Finding a side's shots asks this
    before working out a whole solution. Marines' small arms reach as far as their arm's bands (SG-SAF-11)."""
    if firer.position is None or target.position is None:
        return False
    return beyond_reach(firer, gun_id, hexgrid.distance(firer.position, target.position), rules=rules)


def distances(firer: ShipRecord, targets: Sequence[ShipRecord]) -> list[int | None]:
    """Each target's distance from the firer, for :func:`beyond_reach`; None where either is off the map (where
    :func:`out_of_reach` says no)."""
    here = firer.position
    if here is None:
        return [None] * len(targets)
    return [None if target.position is None else hexgrid.distance(here, target.position) for target in targets]


def beyond_reach(firer: ShipRecord, gun_id: str, distance: int, *, rules: CombatRules | None = None) -> bool:
    """:func:`out_of_reach` of a target ``distance`` hexes from the firer: a side's shots are found with each
    target's distance worked out once a ship, not once a gun."""
    if not _range_only_grows():
        return False
    if gun_id == MARINES:
        arm_id = marine_arms(firer)  # arms that make no small arms fire are refused earlier (SG-CG-16)
        return (
            arm_id not in tstrs("small_arms", "no_small_arms_fire")
            and _band(small_arm(arm_id).range_hexes, distance) is None
        )
    gun = firer.gun(gun_id)
    return range_band(gun, distance) is None and not (rules or CombatRules()).model.beyond_long_range(gun, distance)


@functools.cache  # the tables are read once
def _range_only_grows() -> bool:
    """Do levels of altitude only ever add to the range (SG-FIRE-15)? As the tables stand, yes."""
    per_level = ("range_added_per_level_higher", "range_added_per_level_lower")
    return all(tint("altitude_and_range", key) >= 0 for key in per_level)


def _idle_refusal(firer: ShipRecord, gun: Gun, *, now: Moment, rules: CombatRules) -> Refusal | None:
    """The part of :func:`_gun_refusal` that looks at no target."""
    weapon = gun.weapon
    if gun.destroyed:
        return "SG-DMG-08", "the gun is destroyed"
    if weapon.personnel_only and not rules.small_arms:
        return "SG-FIRE-25", f"{weapon.name} attacks only as small arms fire"
    if gun.rate is None:
        return "SG-CG-94", f"{weapon.name} does not roll to hit"
    if gun.damage_value is None and not weapon.personnel_only:
        return "SG-CG-89", f"{weapon.name} has no damage value of its own"
    if gun.jammed:
        return "SG-CG-52", "the gun is jammed"
    if gun.manned == 0:
        return "SG-CREW-10", "nobody is left at the gun"
    if firer.stunned(now):
        return "SG-CRIT-37", "the crew is still stunned by the loss of trim"
    if gun.last_fired == now.turn:
        return "SG-SEQ-06", "the gun has already fired this turn"
    if gun.trained_turn == now.turn:
        return "SG-MG-04", "the gun was moved to another aspect this turn"
    if not gun.ready(now.turn):
        return "SG-FIRE-05", "the gun is still reloading"
    return None


def _load_refusal(gun: Gun, rate: str, ammunition: str) -> Refusal | None:
    """Why the gun may not fire at that rate or with that ammunition (SG-CG-11/51, SG-SHR-01)."""
    weapon = gun.weapon
    if rate not in tstrs("machineguns", "rates"):
        return "SG-CG-51", f"the rates of fire are {', '.join(tstrs('machineguns', 'rates'))}"
    if rate == "max" and _max_shots(gun) is None:
        return "SG-CG-51", f"{weapon.name} has a single rate of fire"
    if ammunition not in ammunition_for(gun):
        # Howitzers are the guns of the shrapnel category kept to shell and grape (SG-CG-11).
        howitzer = weapon.id in table("shrapnel_and_grape", "ammunition", "shrapnel", "except")
        clause = "SG-CG-11" if ammunition == "shrapnel" and howitzer else "SG-SHR-01"
        return clause, f"{weapon.name} does not fire {ammunition}"
    return None


def _arc_refusal(
    firer: ShipRecord, gun: Gun, target: ShipRecord, aspects: Sequence[str], *, rules: CombatRules, lob: bool
) -> Refusal | None:
    """Why the target is out of the gun's arc: its aspects (a lob gun fires all round), the optional
    restricted arcs, a mount its class limits (SG-FIRE-02, SG-LOB-02, SG-ARC-01, class_rules.py)."""
    if not lob:
        if not set(aspects) & set(gun.arcs):
            return "SG-FIRE-02", f"the target is in the {'/'.join(aspects)} aspect, out of its arc"
        if rules.restricted_arcs and not _restricted_arc_holds(gun, firer, target):
            return "SG-ARC-01", f"the target is outside the {gun.mount} mount's arc"
    if firer.class_id is not None:  # a mount its class limits (class_rules.py: the Gloire's ventral turret)
        return class_rules.gun_refusal(firer, gun, target)
    return None


def _gun_reach(firer: ShipRecord, gun: Gun, target: ShipRecord, *, lob: bool) -> tuple[int, int, int] | FireSolution:
    """(distance, altitude difference in levels, effective range), or the refusal: a lob gun ignores
    altitude but not its own hex; small arms never fire up (SG-FIRE-13/15, SG-LOB-04/05, SG-SAF-02)."""
    distance = hexgrid.distance(_on_map(firer), _on_map(target))
    difference = altitude_level(target.altitude) - altitude_level(firer.altitude)
    if lob:
        if distance == 0:
            return _refuse(firer, gun.id, target, "SG-LOB-05", "a lob gun may not fire into its own hex")
        return distance, difference, distance
    if gun.weapon.personnel_only and difference > 0:
        return _refuse(firer, gun.id, target, "SG-SAF-02", "small arms never fire at a higher ship")
    refused = _altitude_limit(firer, gun.id, target, distance, difference)
    if refused is not None:
        return refused
    return distance, difference, _effective_range(distance, difference)


def _gun_band(
    firer: ShipRecord, gun: Gun, target: ShipRecord, effective_range: int, *, ammunition: str, rules: CombatRules
) -> tuple[str, bool] | FireSolution:
    """(the range band, whether it lies beyond long range by the fire model's leave), or the refusal: beyond
    the gun's reach, or shrapnel or grape outside their bands (SG-FIRE-07/08, SG-SAF-11, SG-SHR-01)."""
    band = range_band(gun, effective_range)
    beyond_long = band is None and rules.model.beyond_long_range(gun, effective_range)
    if beyond_long:
        band = "long"  # rolled as at long range; the model's adjust_solution marks the band its own (AG-EXT-04)
    if band is None:
        clause = "SG-SAF-11" if gun.weapon.personnel_only else "SG-FIRE-07"
        return _refuse(firer, gun.id, target, clause, f"range {effective_range} is beyond the gun's reach")
    if ammunition != "shell" and band not in table("shrapnel_and_grape", "ammunition", ammunition, "bands"):
        return _refuse(firer, gun.id, target, "SG-SHR-01", f"{ammunition} may not be fired at {band} range")
    return band, beyond_long


def _shots(gun: Gun, rate: str) -> int:
    """The gun's shots this turn: at its maximum rate, or its rate of fire (SG-CG-52, SG-FIRE-05)."""
    max_shots = _max_shots(gun)
    if rate == "max" and max_shots is not None:
        return max_shots
    if gun.rate is None:
        raise ValueError(f"SG-CG-94: {gun.weapon.name} does not roll to hit")
    return gun.rate.shots


def _gun_terms(
    base: FireSolution,
    firer: ShipRecord,
    gun: Gun,
    target: ShipRecord,
    band: str,
    *,
    rules: CombatRules,
    ammunition: str,
    lob: bool,
) -> FireSolution:
    """What the shots need and do: small arms hit dice and the target's saves (SG-SAF-10..14), or the to-hit
    number and modifiers, penetration and damage value (SG-FIRE-09/10/17, SG-SHR-02, SG-LOB-02)."""
    if gun.weapon.personnel_only:
        return evolve(
            base,
            needed=tint("small_arms", "hit_number", band),
            modifiers=small_arms_modifiers(firer, target),
            small_arms=True,
            save_number=save_number(target, rules),
            save_modifiers=save_modifiers(firer, bowmen=False),
        )
    # A lob gun hits on a natural 6 and nothing else, at every range (SG-LOB-02): no modifier touches its roll.
    modifiers = {} if lob else to_hit_modifiers(firer, target)
    if ammunition != "shell":
        modifiers[ammunition] = tint("shrapnel_and_grape", "to_hit_modifier")
    return evolve(
        base,
        needed=tint("lob_guns", "needed") if lob else tint("to_hit", band),
        modifiers=modifiers,
        penetration=penetration_at(gun, band, rules),
        damage_value=gun.damage_value or 0,
        ammunition=ammunition,
        lob_gun=lob,
    )


def _altitude_limit(
    firer: ShipRecord, gun_id: str, target: ShipRecord, distance: int, difference: int
) -> FireSolution | None:
    if abs(difference) > distance:
        return _refuse(
            firer,
            gun_id,
            target,
            "SG-FIRE-13",
            f"{abs(difference)} levels of altitude apart at {distance} hexes",
        )
    return None


def _effective_range(distance: int, difference: int) -> int:
    """Distance plus the levels a higher target stands above the firer (SG-FIRE-15)."""
    per_level = tint(
        "altitude_and_range", "range_added_per_level_higher" if difference > 0 else "range_added_per_level_lower"
    )
    return distance + abs(difference) * per_level


def _marines_solution(
    firer: ShipRecord,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules,
    same_hex: tuple[str, str] | None,
    ammunition: str,
    rate: str,
) -> FireSolution:
    """The marines' small arms: one die per complete group, the arm's ranges, any aspect, once a turn
    (SG-SAF-01/02/05..12/15, SG-MAR-01)."""
    refusal = _marines_refusal(firer, target, now=now, rules=rules, ammunition=ammunition, rate=rate)
    if refusal is not None:
        return _refuse(firer, MARINES, target, *refusal)
    arm = small_arm(marine_arms(firer))
    aspects, incoming = sight_lines(firer, target, same_hex)
    distance = hexgrid.distance(_on_map(firer), _on_map(target))
    difference = altitude_level(target.altitude) - altitude_level(firer.altitude)
    if difference > 0:
        return _refuse(firer, MARINES, target, "SG-SAF-02", "small arms never fire at a higher ship")
    refused = _altitude_limit(firer, MARINES, target, distance, difference)
    if refused is not None:
        return refused
    band = _band(arm.range_hexes, distance)
    if band is None:
        return _refuse(firer, MARINES, target, "SG-SAF-11", f"range {distance} is beyond the {arm.name}' reach")
    return FireSolution(
        firer=firer.name,
        gun_id=MARINES,
        target=target.name,
        allowed=True,
        distance=distance,
        altitude_difference=difference,
        effective_range=distance,
        band=band,
        shots=marines_firing(firer, rules) // arm.men_per_die,
        needed=tint("small_arms", "hit_number", band),
        modifiers=small_arms_modifiers(firer, target),
        aspects=aspects,
        incoming=incoming,
        weapon=arm.id,
        small_arms=True,
        save_number=save_number(target, rules),
        save_modifiers=save_modifiers(firer, bowmen=arm.id == table("small_arms", "bow")),
    )


def _marines_refusal(
    firer: ShipRecord, target: ShipRecord, *, now: Moment, rules: CombatRules, ammunition: str, rate: str
) -> Refusal | None:
    """Why the marines may not fire now, whatever the target's bearing and range (SG-SAF-01/15, SG-MAR-01,
    SG-CG-16, SG-DMG-16, SG-FIRE-04, SG-CRIT-48, SG-SEQ-06); None when they may."""
    if not rules.small_arms:
        return "SG-SAF-01", "small arms fire is not in play (an advanced rule)"
    if not firer.afloat or not target.afloat:
        return "SG-DMG-16", "a crashed ship neither fires nor is fired at"
    if firer.name == target.name:
        return "SG-FIRE-04", "marines fire at an enemy vessel, not their own ship"
    if ammunition != str(table("shrapnel_and_grape", "default_ammunition")) or rate != "normal":
        return "SG-SAF-01", "marines fire their small arms as they are"
    men = marines_firing(firer, rules)
    if men == 0:
        return "SG-MAR-01", "no marines aboard"
    arm_id = marine_arms(firer)
    if arm_id in tstrs("small_arms", "no_small_arms_fire"):
        return "SG-CG-16", f"marines armed with {arm_id} make no small arms fire"
    arm = small_arm(arm_id)
    if men // arm.men_per_die == 0:
        return "SG-SAF-15", f"{men} marines make no complete group of {arm.men_per_die}"
    if firer.stunned(now):
        return "SG-CRIT-48", "the crew is still stunned by the loss of trim"
    if firer.marines_fired == now.turn:
        return "SG-SEQ-06", "the marines have already fired this turn"
    return None


# --- rolling to hit ------------------------------------------------------------------------------------


def ships_beside(ships: Mapping[str, ShipRecord], target: ShipRecord, firer: str) -> list[str]:
    """The other ships in the target's hex at its altitude, which a missed shot may hit (SG-FIRE-11)."""
    return [
        ship.name
        for ship in ships.values()
        if ship.name not in (target.name, firer)
        and ship.afloat
        and ship.position == target.position
        and ship.altitude == target.altitude
        and ship.emplacement is None  # ships only: not a ground battery, a target hex or mines (ordnance_play)
    ]


def roll_to_hit(
    ships: Mapping[str, ShipRecord], solution: FireSolution, *, roller: Roller, rules: CombatRules | None = None
) -> tuple[list[str], list[Happening]]:
    """Roll a gun's shots at the target and, for each miss, the second roll at its hex-mates.

    Returns the ship hit by each hitting shot, the target's hits first (SG-FIRE-04, SG-FIRE-09..12). The
    rules' fire model rolls them (its own way for a band of its own, agility.py's extreme range).
    """
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    log = _Log(roller)
    hits, _faces = (rules or CombatRules()).model.roll_to_hit(log, ships, solution, None)
    return hits, log.happened


def _roll_to_hit(
    log: _Log,
    ships: Mapping[str, ShipRecord],
    solution: FireSolution,
    aimed: Mapping[str, ShipRecord] | None = None,
) -> tuple[list[str], tuple[int, ...]]:
    """The ships hit, and the faces of the first roll (for the jam check, SG-CG-52). ``aimed``: the ships
    as they stood when the fire step began (simultaneous fire): a missed shot may hit the ships that were
    then beside the target at its altitude, if they are still flying."""
    target = ships[solution.target]
    modifier = sum(solution.modifiers.values())
    needed = f"{solution.needed}+"

    def judge(faces: tuple[int, ...], _total: int) -> str:
        hits = sum(1 for face in faces if face + modifier >= solution.needed)
        return f"hit:{hits},miss:{len(faces) - hits}" if len(faces) > 1 else ("hit" if hits else "miss")

    faces = log.roll(
        f"to hit: {solution.describe}",
        ship=target.name,
        clauses=solution.clauses,
        count=solution.shots,
        modifiers=solution.modifiers,
        needed=needed,
        judge=judge,
    )
    hit = [target.name for face in faces if face + modifier >= solution.needed]
    misses = len(faces) - len(hit)
    aimed = ships if aimed is None else aimed
    others = [n for n in ships_beside(aimed, aimed[target.name], solution.firer) if ships[n].afloat]
    strays: list[str] = []
    for _ in range(misses if others else 0):
        (face,) = log.roll(
            f"missed shot, second roll at the other ships in {possessive(target.name)} hex",
            ship=target.name,
            clauses=["SG-FIRE-11"],
            modifiers=solution.modifiers,
            needed=needed,
            judge=lambda faces, _total: "hit" if faces[0] + modifier >= solution.needed else "miss",
        )
        if face + modifier >= solution.needed:
            strays.append(log.pick("which ship the stray shot hits", others, ship=target.name, clauses=["SG-FIRE-12"]))
    return hit + strays, faces


def fire_gun_marked(firer: ShipRecord, gun_id: str, now: Moment) -> ShipRecord:
    """The firer with the gun (or its marines, :data:`MARINES`) marked as fired this turn; a gun reloads
    from here (SG-SEQ-06, SG-FIRE-05)."""
    if gun_id == MARINES:
        return evolve(firer, marines_fired=now.turn)
    return firer.with_gun(evolve(firer.gun(gun_id), last_fired=now.turn))


def _jam_check(record: ShipRecord, solution: FireSolution, faces: Sequence[int], log: _Log) -> ShipRecord:
    """At the maximum rate any 1 among the dice jams the gun (SG-CG-52, SG-MG-08)."""
    jams_on = tint("machineguns", "jams_on")
    if solution.rate != "max" or jams_on not in faces:
        return record
    gun = record.gun(solution.gun_id)
    log.note(
        f"{possessive(record.name)} gun {gun.id} ({gun.name}) jams firing at its maximum rate",
        ship=record.name,
        clauses=["SG-CG-52", "SG-MG-08"],
        outcome="jammed",
    )
    return record.with_gun(evolve(gun, jammed=True))


def clear_jams(record: ShipRecord, *, now: Moment, roller: Roller) -> tuple[ShipRecord, list[Happening]]:
    """Start of a fire phase: each jammed gun's gunner tries to clear it, 4+ on a die; a gun cleared may
    fire in this phase. No gunner or a stunned crew: no try (SG-MG-09, SG-CG-53, SG-CRIT-37)."""
    log = _Log(roller)
    if not record.afloat:
        return record, []
    clear_on = tint("machineguns", "clear_on")
    for gun in record.guns:
        if not gun.jammed or gun.destroyed:
            continue
        if gun.manned == 0 or record.stunned(now):
            log.note(
                f"nobody free to clear {possessive(record.name)} jammed gun {gun.id}",
                ship=record.name,
                clauses=["SG-CG-53", "SG-CRIT-37"] if gun.manned else ["SG-CG-53"],
                outcome="still jammed",
            )
            continue
        (face,) = log.roll(
            f"clear the jam of {possessive(record.name)} gun {gun.id} ({gun.name})",
            ship=record.name,
            clauses=["SG-CG-53", "SG-MG-09"],
            sides=tint("machineguns", "clear_die_sides"),
            needed=f"{clear_on}+",
            judge=lambda faces, _total: "cleared" if faces[0] >= clear_on else "still jammed",
        )
        if face >= clear_on:
            record = record.with_gun(evolve(gun, jammed=False))
    return record, log.happened


def train_portable_gun(record: ShipRecord, gun_id: str, aspect: str, *, now: Moment) -> ShipRecord:
    """Initiative Phase: move a portable machinegun to fire into ``aspect`` alone; moved, it may not fire
    this turn (SG-MG-04/07, SG-CG-55/56). Keeping the aspect secret until it fires is the ruleset's
    (SG-MG-06, SG-CG-57). Raises ValueError for a gun that is not portable or an unknown aspect."""
    gun = record.gun(gun_id)
    if not is_portable(gun):
        raise ValueError(f"SG-CG-55: {possessive(record.name)} gun {gun_id} ({gun.name}) is not a portable machinegun")
    if aspect not in {a.value for a in hexgrid.Aspect}:
        raise ValueError(f"unknown firing aspect {aspect!r}")
    if gun.arcs == (aspect,):
        return record
    return record.with_gun(evolve(gun, arcs=(aspect,), trained_turn=now.turn))


def weapon_limit_problems(records: Iterable[ShipRecord]) -> list[str]:
    """What breaks the advanced rules' limits on weapons: one lob gun per ship (SG-LOB-01), at most one
    Maxim in a battle (SG-MG-03). For the ruleset's set-up checks."""
    problems: list[str] = []
    per_battle: Mapping[str, int] = table("machineguns", "per_battle")
    counts = dict.fromkeys(per_battle, 0)
    for record in records:
        lobs = sum(1 for gun in record.guns if is_lob_gun(gun))
        if lobs > tint("lob_guns", "per_ship"):
            problems.append(f"{record.name} carries {lobs} lob guns; a ship has room for one (SG-LOB-01)")
        for gun in record.guns:
            if gun.weapon_id in counts:
                counts[gun.weapon_id] += 1
    for weapon_id, most in per_battle.items():
        if counts[weapon_id] > most:
            problems.append(f"{counts[weapon_id]} {weapon_id} guns in the battle; at most {most} (SG-MG-03)")
    return problems


# --- damage: hit location, hull, crew, guns, armor -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shot:
    """One hit as the damage rules see it.

    ``incoming`` are the target's aspects the fire came from (a Gun hit destroys a gun bearing there,
    SG-DMG-09); ``from_below`` is true when the target is higher than the firer (Crew hits become Hull hits,
    SG-DMG-07); ``internal`` marks damage from inside the ship (a magazine or boiler going up), which the
    armor does not reduce. ``ammunition`` other than "shell" is shrapnel or grape (SG-SHR-03..05).
    """

    damage_value: int
    penetration: int = 0
    incoming: tuple[str, ...] = ("bow", "starboard", "stern", "port")
    from_below: bool = False
    source: str = ""
    internal: bool = False
    # "shell", or "shrapnel"/"grape": crew damage only, at the full damage value (SG-SHR-03..05).
    ammunition: str = "shell"
    # How every armor value the hit meets is counted, when a rule changes it (agility.py's long range
    # penetration doubles it, AG-LRP-02/03); None: as it stands.
    armor_counted: Callable[[int], int] | None = None


@dataclass(frozen=True, slots=True)
class ArmorEffect:
    """What armor leaves of a damage value: ``whole`` hits for certain and, if ``half``, one more on 4-6."""

    effect: str
    whole: int
    half: bool = False


def armor_effect(damage_value: int, penetration: int, armor: int) -> ArmorEffect:
    """Armor against a round (SG-ARM-03..08): full damage if the armor is no thicker than the penetration,
    none if it is more than twice as thick (for penetration 0: thicker than 1), else half, the odd half
    point decided by a die."""
    if armor <= penetration:
        return ArmorEffect("full", damage_value)
    limit = penetration * tint("armor", "no_effect_above_multiple_of_penetration")
    if penetration == 0:
        limit = tint("armor", "penetration_0_halved_up_to_armor")
    if armor > limit:
        return ArmorEffect("none", 0)
    divisor = tint("armor", "halving_divisor")
    return ArmorEffect("halved", damage_value // divisor, damage_value % divisor != 0)


def _armored(log: _Log, record: ShipRecord, shot: Shot, armor: int, what: str) -> int:
    """The damage value that reaches a protected location (SG-ARM-03..09), rolling the half point."""
    if shot.internal:
        return shot.damage_value
    if shot.armor_counted is not None:
        armor = shot.armor_counted(armor)
    effect = armor_effect(shot.damage_value, shot.penetration, armor)
    if effect.effect == "full":
        return effect.whole
    clauses = ["SG-ARM-03", "SG-ARM-06"] + (["SG-ARM-08"] if shot.penetration == 0 else [])
    if effect.effect == "none":
        log.note(
            f"armor {armor} against penetration {shot.penetration}: the {what} hit has no effect",
            ship=record.name,
            clauses=clauses,
            outcome="no effect",
        )
        return 0
    hits = effect.whole
    if effect.half:
        threshold = tint("armor", "fraction_hits_on")
        (face,) = log.roll(
            f"armor {armor} halves damage value {shot.damage_value} on the {what}: does the half hit take effect",
            ship=record.name,
            clauses=[*clauses, "SG-ARM-04"],
            sides=tint("armor", "fraction_die_sides"),
            needed=f"{threshold}+",
            judge=lambda faces, _total: "hit" if faces[0] >= threshold else "no effect",
        )
        hits += int(face >= threshold)
    else:
        log.note(
            f"armor {armor} halves damage value {shot.damage_value} on the {what}",
            ship=record.name,
            clauses=clauses,
            outcome=f"{hits}",
        )
    return hits


def _mark_hull_hits(record: ShipRecord, hits: int, log: _Log, *, clauses: Sequence[str] = ("SG-DMG-11",)) -> ShipRecord:
    """Check off ``hits`` hull boxes from the highest row left (SG-DMG-11..16); every box gone: it crashes."""
    if hits <= 0 or not record.afloat:
        return record
    ceiling = record.max_altitude
    rows = list(record.hull_rows)
    left = hits
    for index, row in enumerate(rows):
        take = min(left, row.left)
        rows[index] = evolve(row, hits=row.hits + take)
        left -= take
    marked = evolve(record, hull_rows=tuple(rows))
    outcome = f"{hits - left} hull hits"
    if marked.max_altitude is None:
        marked = evolve(marked, status="crashed")
        outcome += ": every hull box checked, the ship crashes"
        clauses = [*clauses, "SG-DMG-16"]
    elif marked.max_altitude != ceiling:
        outcome += f": ceiling now {marked.max_altitude}"
        clauses = [*clauses, "SG-DMG-14"]
        if marked.must_drop:
            outcome += f", must drop {marked.must_drop} level(s) next movement phase"
            clauses = [*clauses, "SG-DMG-15"]
    log.note(f"hull hits on {record.name}", ship=record.name, clauses=[*clauses, "SG-DMG-13"], outcome=outcome)
    return marked


def _ceil_half(value: int, divisor: int) -> int:
    return -(-value // divisor)


def casualty_posts(record: ShipRecord, first_from_gun: str | None = None) -> list[str]:
    """Every crew post in the order casualties are taken: a destroyed gun's crew first, then the owner's
    standing order ("gunners" = destroyed guns' crews, then the other guns in record order), then anything
    the order left out, so that every man can be lost (SG-DMG-08/18)."""
    gun_posts = [f"gun:{gun.id}" for gun in sorted(record.guns, key=lambda gun: not gun.destroyed)]
    order: list[str] = [f"gun:{first_from_gun}"] if first_from_gun else []
    for post in (*record.casualty_order, *tstrs("casualty_order", "default")):
        for each in gun_posts if post == "gunners" else [post]:
            if each not in order:
                order.append(each)
    return order


def _alive(record: ShipRecord, post: str) -> int:
    if post.startswith("gun:"):
        return record.gun(post[4:]).manned
    if post == "maneuver":
        return record.crew.maneuver
    return record.crew.count(post)


def _kill(record: ShipRecord, post: str, men: int) -> ShipRecord:
    if post.startswith("gun:"):
        gun = record.gun(post[4:])
        return record.with_gun(evolve(gun, manned=gun.manned - men))
    if post == "maneuver":
        return evolve(record, crew=evolve(record.crew, maneuver_lost=record.crew.maneuver_lost + men))
    return evolve(record, crew=record.crew.with_count(post, record.crew.count(post) - men))


def _take_casualties(
    record: ShipRecord,
    men: int,
    *,
    now: Moment,
    log: _Log,
    source: str,
    first_from_gun: str | None = None,
    officer_check: bool = True,
) -> ShipRecord:
    """Kill ``men`` crewmen by the owner's casualty order (SG-DMG-17..19, SG-DMG-08).

    The first crew casualty of a movement phase rolls the officer check: on a 6 the first man lost is an
    officer or petty officer, the first such post in the owner's order (SG-DMG-19).
    """
    order = casualty_posts(record, first_from_gun)
    men = min(men, sum(_alive(record, post) for post in order))
    if men <= 0:
        return record
    officer_first = False
    if officer_check and record.criticals.officer_check_phase != now.index:
        on = tint("officer_casualties", "officer_on")
        (face,) = log.roll(
            f"officer casualty check for {record.name} this phase",
            ship=record.name,
            clauses=["SG-DMG-19"],
            sides=tint("officer_casualties", "die_sides"),
            needed=f"{on}",
            judge=lambda faces, _total: (
                "an officer or petty officer is among the casualties" if faces[0] >= on else "no officer required"
            ),
        )
        officer_first = face >= on
        record = evolve(record, criticals=evolve(record.criticals, officer_check_phase=now.index))
    lost: dict[str, int] = {}
    left = men
    if officer_first:
        ranks = tuple(table("officer_casualties", "ranks"))
        for post in [p for p in order if p in ranks] + [r for r in ranks if r not in order]:
            if _alive(record, post):
                record = _kill(record, post, 1)
                lost[post] = 1
                left -= 1
                break
    for post in order:
        if left == 0:
            break
        take = min(left, _alive(record, post))
        if take:
            record = _kill(record, post, take)
            lost[post] = lost.get(post, 0) + take
            left -= take
    log.note(
        f"{men} crew casualties on {record.name} ({source})",
        ship=record.name,
        clauses=["SG-DMG-18"],
        outcome=", ".join(f"{post} {count}" for post, count in lost.items()),
    )
    return record


def _hit_location(log: _Log, record: ShipRecord) -> str:
    """Roll 1d6 on the hit location table (SG-DMG-01..04)."""
    locations: Mapping[str, str] = table("hit_location", "table")
    (face,) = log.roll(
        f"hit location on {record.name}",
        ship=record.name,
        clauses=["SG-DMG-01", "SG-DMG-02", "SG-DMG-03", "SG-DMG-04"],
        sides=tint("hit_location", "die_sides"),
        needed="table",
        judge=lambda faces, _total: locations[str(faces[0])],
    )
    return locations[str(face)]


def _guns_bearing(record: ShipRecord, incoming: Sequence[str]) -> list[str]:
    found = [gun.id for gun in record.guns if not gun.destroyed and set(gun.arcs) & set(incoming)]
    if record.ordnance:  # exotic ordnance that counts as guns (ordnance_stores.py: SG-HALE-10, SG-LF-07, SG-CG-74)
        found += gun_hit_targets(record)
    return found


def hull_hits(record: ShipRecord, hits: int) -> tuple[ShipRecord, list[Happening]]:
    """Check off ``hits`` hull boxes (collisions, rams and the like; armor is the caller's business)."""
    log = _Log(_no_dice)
    return _mark_hull_hits(record, hits, log), log.happened


def crew_casualties(
    record: ShipRecord, men: int, *, now: Moment, roller: Roller, source: str, officer_check: bool = True
) -> tuple[ShipRecord, list[Happening]]:
    """Kill ``men`` crewmen by the owner's casualty order, rolling the phase's officer check (SG-DMG-18/19)."""
    log = _Log(roller)
    return _take_casualties(record, men, now=now, log=log, source=source, officer_check=officer_check), log.happened


def apply_hit(
    target: ShipRecord,
    shot: Shot,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> tuple[ShipRecord, list[Happening]]:
    """Resolve one hit on ``target``: hit location, then hull, crew, gun or critical damage (SG-DMG-*)."""
    log = _Log(roller)
    return _apply_hit(target, shot, now=now, log=log, rules=rules or CombatRules()), log.happened


def _apply_hit(target: ShipRecord, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    if not target.afloat:
        return target
    if target.emplacement is not None:  # a ground target (SG-BOMB-02, SG-GB-03..06)
        return _ground_hit(target, shot, now=now, log=log, rules=rules)
    shell = shot.ammunition == "shell"
    for _ in range(tint("damage", "gun_reroll_limit")):
        location = _hit_location(log, target)
        if location != "gun" or not shell or _guns_bearing(target, shot.incoming):
            break
        log.note(
            f"no gun of {target.name} bears on the {'/'.join(shot.incoming)} aspect: roll the location again",
            ship=target.name,
            clauses=["SG-DMG-10"],
            outcome="reroll",
        )
    else:
        raise RuntimeError("the hit location die never left the Gun result")
    if not shell and location == "gun":
        log.note(
            f"{shot.ammunition}: the Gun hit on {target.name} is a Crew hit",
            ship=target.name,
            clauses=["SG-SHR-04"],
            outcome="crew",
        )
        location = str(table("shrapnel_and_grape", "gun_hit_becomes"))
    if location == "crew" and shot.from_below:
        log.note(
            f"{target.name} is higher than the firer: the Crew hit becomes a Hull hit",
            ship=target.name,
            clauses=["SG-DMG-07"],
            outcome="hull",
        )
        location = table("damage", "higher_target_crew_becomes")
    if not shell and location in tstrs("shrapnel_and_grape", "no_effect_locations"):
        log.note(
            f"{shot.ammunition}: a {location.capitalize()} hit on {target.name} has no effect",
            ship=target.name,
            clauses=["SG-SHR-03"],
            outcome="no effect",
        )
        return target
    if location == "hull":
        hits = _armored(log, target, shot, target.armor, "hull")
        return _mark_hull_hits(target, hits, log, clauses=("SG-DMG-05", "SG-DMG-11"))
    if location == "crew":
        if shell:
            men = _ceil_half(shot.damage_value, tint("damage", "crew_hit_divisor"))
            source = f"Crew hit, damage value {shot.damage_value}"
        else:
            # SG-SHR-05: the full damage value.
            men = _ceil_half(shot.damage_value, tint("shrapnel_and_grape", "crew_hit_divisor"))
            source = f"{shot.ammunition} Crew hit, damage value {shot.damage_value} (SG-SHR-05)"
        return _take_casualties(target, men, now=now, log=log, source=source)
    if location == "gun":
        return _gun_hit(target, shot, now=now, log=log)
    return _resolve_critical(target, shot, now=now, log=log, rules=rules)


def _gun_hit(target: ShipRecord, shot: Shot, *, now: Moment, log: _Log) -> ShipRecord:
    """Destroy a gun bearing on the incoming aspect; damage points past the first kill its crew first (SG-DMG-08/09)."""
    gun_id = log.pick(
        f"which of {possessive(target.name)} guns bearing {'/'.join(shot.incoming)} is hit",
        _guns_bearing(target, shot.incoming),
        ship=target.name,
        clauses=["SG-DMG-09"],
    )
    if gun_id.startswith(ORDNANCE_PREFIX):
        return _ordnance_gun_hit(target, gun_id, shot, now=now, log=log)
    gun = target.gun(gun_id)
    value = shot.damage_value
    if gun.armor is not None:
        value = _armored(log, target, shot, gun.armor, f"armored gun {gun_id}")
        if value == 0:
            return target
    target = target.with_gun(evolve(gun, destroyed=True))
    log.note(
        f"{possessive(target.name)} gun {gun_id} ({gun.name}) is destroyed",
        ship=target.name,
        clauses=["SG-DMG-08"],
        outcome="destroyed",
    )
    extra = (value - 1) * tint("damage", "gun_hit_extra_casualties_per_damage_point_over")
    if extra > 0:
        target = _take_casualties(
            target, extra, now=now, log=log, source=f"Gun hit on gun {gun_id}", first_from_gun=gun_id
        )
    return target


def fire(
    ships: Mapping[str, ShipRecord],
    firer: str,
    gun_id: str,
    target: str,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
    same_hex: tuple[str, str] | None = None,
    ammunition: str = "shell",
    rate: str = "normal",
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """One gun (or the marines) fires at one ship: to hit, stray shots, then every hit resolved. Raises
    FireRefused."""
    rules = rules or CombatRules()
    solution = fire_solution(
        ships[firer], gun_id, ships[target], now=now, rules=rules, same_hex=same_hex, ammunition=ammunition, rate=rate
    )
    return resolve_fire(ships, solution, now=now, roller=roller, rules=rules)


def resolve_fire(
    ships: Mapping[str, ShipRecord],
    solution: FireSolution,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
    aimed: Mapping[str, ShipRecord] | None = None,
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Fire a gun on a solution found earlier: the ruleset finds every solution when fire is declared and
    resolves them in turn, so a gun knocked out by a shot of the same volley still fires, and a firer
    crashed by one still fires hers (simultaneous fire at the end of a movement phase, SG-SEQ-05 /
    SG-FIRE-01). A target that has already crashed is not shot at again.

    ``aimed`` are the ships as they stood when the fire step began (default ``ships``): the shot's geometry
    comes from them, as its solution's modifiers do, so a loss of trim earlier in the step does not move
    who a missed shot may hit nor whether a hit comes from below; the damage falls on ``ships``, the
    records as earlier shots of the step left them.

    Small arms solutions roll hit dice and saving throws (SG-SAF); at the maximum rate a 1 jams the gun
    (SG-CG-52); optional nonexploding rounds (SG-NEX) and each lob gun hit's loss of trim (SG-LOB-03) are
    resolved with the hits."""
    rules = rules or CombatRules()
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    firer, gun_id, target = solution.firer, solution.gun_id, solution.target
    result = dict(ships)
    result[firer] = fire_gun_marked(ships[firer], gun_id, now)
    log = _Log(roller)
    if not result[target].afloat:
        log.note(
            f"{firer} {solution.shooter}: {target} has already fallen",
            ship=target,
            clauses=["SG-DMG-16"],
            outcome="no shot",
        )
        return result, log.happened
    if solution.small_arms:
        return _small_arms_fire(result, solution, now=now, log=log, rules=rules), log.happened
    aimed = ships if aimed is None else aimed
    hits, faces = rules.model.roll_to_hit(log, result, solution, aimed)
    result[firer] = _jam_check(result[firer], solution, faces, log)
    for name in hits:
        result[name] = _gun_hit_on(result, name, solution, aimed, now=now, log=log, rules=rules)
    return result, log.happened


def _gun_hit_on(
    ships: Mapping[str, ShipRecord],
    name: str,
    solution: FireSolution,
    aimed: Mapping[str, ShipRecord],
    *,
    now: Moment,
    log: _Log,
    rules: CombatRules,
) -> ShipRecord:
    """One hit of the gun's on the ship ``name``, as the rules' fire model resolves it, then a lob gun's loss
    of trim (SG-LOB-03). The shot comes from where the firer stood when the step began."""
    aimer = aimed[solution.firer]  # where she fired from, at the start of the step
    shot = _shot(ships, name, solution, aimed, log=log, rules=rules)
    hit = rules.model.resolve_hit(ships[name], shot, solution, aimer, now=now, log=log, rules=rules, stood=aimed[name])
    if not (solution.lob_gun and hit.afloat):
        return hit
    log.note(
        f"the lob gun's blow costs {name} its trim, whatever its armor",
        ship=name,
        clauses=["SG-LOB-03"],
        outcome="loss of trim",
    )
    return _lose_trim(hit, solution.damage_value, now=now, log=log, rules=rules, cause="lob gun hit")


def _shot(
    ships: Mapping[str, ShipRecord],
    name: str,
    solution: FireSolution,
    aimed: Mapping[str, ShipRecord],
    *,
    log: _Log,
    rules: CombatRules,
) -> Shot:
    """The hit on ``name`` as the damage rules see it: the aspect it came in by and whether from below, for
    the target as its solution found them, for a stray hit from where both stood (SG-DMG-07/09, SG-FIRE-12);
    the damage value after any nonexploding round passes through (SG-NEX)."""
    if name == solution.target:
        incoming, from_below = solution.incoming, solution.from_below
    else:
        aimer, stood = aimed[solution.firer], aimed[name]
        incoming = sight_lines(aimer, stood)[1]
        from_below = altitude_level(stood.altitude) > altitude_level(aimer.altitude) and not solution.lob_gun
    gun_id = solution.gun_id
    return Shot(
        damage_value=_nonexploding(log, ships[name], solution, rules),
        penetration=solution.penetration,
        incoming=incoming,
        from_below=from_below,
        source=f"{solution.firer} gun {gun_id} ({ships[solution.firer].gun(gun_id).name})",
        ammunition=solution.ammunition,
    )


def _nonexploding(log: _Log, victim: ShipRecord, solution: FireSolution, rules: CombatRules) -> int:
    """The optional nonexploding rounds: a round piercing more than twice the armor, damage value above 1,
    passes through on 4-6 and hits at damage value 1 (SG-NEX-01..04, SG-CG-78). Shrapnel and grape burst."""
    value = solution.damage_value
    if (
        not rules.nonexploding_rounds
        or solution.ammunition != "shell"
        or value <= tint("nonexploding_rounds", "unaffected_at_most")
        or solution.penetration <= tint("nonexploding_rounds", "above_multiple_of_armor") * victim.armor
    ):
        return value
    through = tint("nonexploding_rounds", "passes_through_on")
    rest = tint("nonexploding_rounds", "pass_through_damage_value")
    (face,) = log.roll(
        f"does the round (penetration {solution.penetration}) pass through {victim.name} (armor {victim.armor})",
        ship=victim.name,
        clauses=["SG-NEX-01", "SG-NEX-02", "SG-NEX-03"],
        sides=tint("nonexploding_rounds", "die_sides"),
        needed=f"{through}+ passes through",
        judge=lambda faces, _total: "passes through" if faces[0] >= through else "explodes",
    )
    return rest if face >= through else value


def _small_arms_fire(
    ships: dict[str, ShipRecord], solution: FireSolution, *, now: Moment, log: _Log, rules: CombatRules
) -> dict[str, ShipRecord]:
    """Small arms hit dice, the target's saving throws, the casualties left (SG-SAF-01/10/13/14, SG-ERR-10/11)."""
    target = ships[solution.target]
    modifier = sum(solution.modifiers.values())

    def hit_judge(faces: tuple[int, ...], _total: int) -> str:
        hits = sum(1 for face in faces if face + modifier >= solution.needed)
        return f"hit:{hits},miss:{len(faces) - hits}"

    faces = log.roll(
        f"small arms to hit: {solution.describe}",
        ship=target.name,
        clauses=solution.clauses,
        count=solution.shots,
        modifiers=solution.modifiers,
        needed=f"{solution.needed}+",
        judge=hit_judge,
    )
    if solution.gun_id != MARINES:
        ships[solution.firer] = _jam_check(ships[solution.firer], solution, faces, log)
    hits = sum(1 for face in faces if face + modifier >= solution.needed)
    if hits == 0:
        return ships
    lost = _saving_throws(target, solution, hits, log=log, rules=rules)
    if lost:
        ships[target.name] = _take_casualties(
            target, lost, now=now, log=log, source=f"small arms from {solution.firer} {solution.shooter}"
        )
    return ships


def _saving_throws(target: ShipRecord, solution: FireSolution, hits: int, *, log: _Log, rules: CombatRules) -> int:
    """The target's saving throw for each small arms hit; the men lost, one for each throw failed
    (SG-SAF-13/14/16, SG-CQ-05, SG-ERR-10..12)."""
    save_mod = sum(solution.save_modifiers.values())
    number = solution.save_number
    bare = tint("small_arms", "save_number")  # armor does not protect boarding parties (SG-ERR-12)

    def saved_on(faces: Sequence[int]) -> int:
        return sum(
            1
            for n, face in enumerate(faces)
            if save_made(face, save_mod, bare if n < solution.unprotected else number, rules)
        )

    def save_judge(faces: tuple[int, ...], _total: int) -> str:
        saved = saved_on(faces)
        return f"saved:{saved},casualties:{len(faces) - saved}"

    clauses = ["SG-SAF-13", "SG-SAF-14"]
    if rules.errata:
        clauses += ["SG-ERR-10", "SG-ERR-11"]
    if any(name.startswith("green") for name in solution.save_modifiers):
        clauses.append("SG-CQ-05")
    if any(name.startswith("crack") for name in solution.save_modifiers):
        clauses.append("SG-SAF-16")
    never = f", a {tint('small_arms', 'errata_never_saves_on')} never saves" if rules.errata else ""
    needed = f"{number} or less each{never}"
    if solution.unprotected and bare != number:
        clauses.append("SG-ERR-12")
        needed = f"{bare} or less for the first {min(solution.unprotected, hits)} (boarders crossing), then " + needed
    saves = log.roll(
        f"saving throws: {target.name} against {hits} small arms hits",
        ship=target.name,
        clauses=clauses,
        count=hits,
        modifiers=solution.save_modifiers,
        needed=needed,
        judge=save_judge,
    )
    return len(saves) - saved_on(saves)


# --- critical hits -------------------------------------------------------------------------------------


def critical_hit(
    target: ShipRecord, shot: Shot, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[ShipRecord, list[Happening]]:
    """A Critical hit location: roll 2d6 on the Critical Hit table and apply the result (SG-CRIT-01..09)."""
    log = _Log(roller)
    return _resolve_critical(target, shot, now=now, log=log, rules=rules or CombatRules()), log.happened


def apply_critical(
    target: ShipRecord, kind: str, shot: Shot, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[ShipRecord, list[Happening]]:
    """Apply one named critical result (a table value, e.g. "rudder") without rolling for it."""
    log = _Log(roller)
    return _critical(target, kind, shot, now=now, log=log, rules=rules or CombatRules()), log.happened


def _resolve_critical(target: ShipRecord, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """Roll 2d6 on the Critical Hit table and apply the result (SG-CRIT-01..09)."""
    results: Mapping[str, str] = table("critical_hits", "table")
    faces = log.roll(
        f"critical hit on {target.name} (damage value {shot.damage_value})",
        ship=target.name,
        clauses=["SG-CRIT-01"],
        count=tint("critical_hits", "dice"),
        sides=tint("critical_hits", "die_sides"),
        needed="table",
        judge=lambda _faces, total: results[str(total)],
    )
    return _critical(target, results[str(sum(faces))], shot, now=now, log=log, rules=rules)


def _critical(target: ShipRecord, kind: str, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """Apply one critical result: magazine, bridge, fire_boiler, trim, rudder, fire, lifters, screw_mast."""
    if not target.afloat:
        return target
    if kind == "magazine":
        value = _armored(log, target, shot, target.armor, "magazine")
        if value == 0:
            return target
        return _magazine(target, fire_fallback=shot.damage_value, now=now, log=log, rules=rules)
    if kind == "bridge":
        return _bridge(target, shot, now=now, log=log)
    if kind == "fire_boiler":
        if not target.is_steam:
            return _start_fire(target, shot.damage_value, log, clauses=["SG-CRIT-24", "SG-CRIT-17"])
        return _boiler(target, shot, now=now, log=log, rules=rules)
    if kind == "trim":
        value = _armored(log, target, shot, target.armor, "trim controls")
        if value == 0:
            return target
        return _lose_trim(target, value, now=now, log=log, rules=rules, cause="Trim Damage critical")
    if kind == "fire":
        return _start_fire(target, shot.damage_value, log, clauses=["SG-CRIT-07", "SG-CRIT-17"])
    if kind in ("rudder", "lifters"):
        field_name = f"{kind}_jam"
        jam = getattr(target.criticals, field_name) + shot.damage_value
        changes: dict[str, Any] = {field_name: jam}
        log.note(
            f"{possessive(target.name)} {kind} jammed: freeing it needs more than {jam} (or a 6)",
            ship=target.name,
            clauses=["SG-CRIT-38", "SG-CRIT-39"] if kind == "rudder" else ["SG-CRIT-42", "SG-CRIT-39"],
            outcome=f"jammed {jam}",
        )
        return evolve(target, criticals=evolve(target.criticals, **changes))
    if kind == "screw_mast":
        hits = target.criticals.screw_mast_hits + 1
        what = "mast hit: -1 to its movement die" if target.is_kite else "screw hit: speed -1 for good"
        log.note(
            f"{target.name}: {what}",
            ship=target.name,
            clauses=["SG-CRIT-29"] if target.is_kite else ["SG-CRIT-28"],
            outcome=f"screw/mast hits {hits}",
        )
        return evolve(target, criticals=evolve(target.criticals, screw_mast_hits=hits))
    raise ValueError(f"unknown critical result {kind!r}")


def _magazines(record: ShipRecord) -> list[str]:
    """Guns whose magazine can go up: not destroyed, damage value 1 or more (SG-CRIT-10/14)."""
    least = tint("magazine", "min_gun_damage_value")
    found = [
        gun.id
        for gun in record.guns
        if not gun.destroyed and gun.damage_value is not None and gun.damage_value >= least
    ]
    if record.ordnance:  # exotic ordnance that can go up (ordnance_stores.py: SG-HALE-11, SG-LF-08, SG-SMT-10...)
        found += magazine_targets(record)
    return found


def _magazine(
    record: ShipRecord, *, fire_fallback: int | None, now: Moment, log: _Log, rules: CombatRules
) -> ShipRecord:
    """A magazine goes up: a random gun and its crew are lost, hull hits and one more critical at that gun's
    damage value (SG-CRIT-10..12). No magazine left: a Fire result (SG-CRIT-13), or for a fire reaching the
    magazines 1d6 hull hits (SG-CRIT-20)."""
    candidates = _magazines(record)
    if not candidates:
        if fire_fallback is not None:
            log.note(
                f"{record.name} has no magazine left: treated as a Fire",
                ship=record.name,
                clauses=["SG-CRIT-13", "SG-CRIT-14"],
                outcome="fire",
            )
            return _start_fire(record, fire_fallback, log, clauses=["SG-CRIT-13", "SG-CRIT-17"])
        faces = log.roll(
            f"{record.name} has no magazine left: hull hits from the fire",
            ship=record.name,
            clauses=["SG-CRIT-20"],
            count=tint("fire", "no_magazine_hull_hit_dice"),
            needed="hull hits",
            judge=lambda _faces, total: f"{total} hull hits",
        )
        return _mark_hull_hits(record, sum(faces), log, clauses=("SG-CRIT-20",))
    if record.class_id is not None:  # a class whose magazines all go up at once (class_rules.py, SG-CLS-01)
        destroyed = class_rules.magazine_chain_reaction(record, log)
        if destroyed is not None:
            return destroyed
    gun_id = log.pick(
        f"which of {possessive(record.name)} magazines explodes", candidates, ship=record.name, clauses=["SG-CRIT-10"]
    )
    if gun_id.startswith(ORDNANCE_PREFIX):
        return _ordnance_magazine(record, gun_id, now=now, log=log, rules=rules)
    gun = record.gun(gun_id)
    value = gun.damage_value or 0
    record = record.with_gun(evolve(gun, destroyed=True, manned=0))
    log.note(
        f"{possessive(record.name)} magazine of gun {gun_id} ({gun.name}) explodes: gun and {gun.manned} crew lost",
        ship=record.name,
        clauses=["SG-CRIT-10", "SG-CRIT-11", "SG-CRIT-12"],
        outcome=f"damage value {value}",
    )
    record = _mark_hull_hits(record, value, log, clauses=("SG-CRIT-11",))
    inside = Shot(damage_value=value, source=f"magazine of gun {gun_id}", internal=True)
    return _resolve_critical(record, inside, now=now, log=log, rules=rules)


def _bridge(record: ShipRecord, shot: Shot, *, now: Moment, log: _Log) -> ShipRecord:
    """Bridge crew killed, ceil(DV / 2), each picked by die; no voluntary course or altitude change next
    turn (SG-CRIT-15/16/43)."""
    value = _armored(log, record, shot, record.armor, "bridge")
    if value == 0:
        return record
    killed = _ceil_half(value, tint("bridge", "casualty_divisor"))
    for _ in range(killed):
        crew = record.crew
        aboard = [
            post
            for post in ("captain", "officers", "helmsman", "trimsman", "signalman")
            for _ in range(crew.count(post))
        ]
        if not aboard:
            break
        post = log.pick(
            f"which of {possessive(record.name)} bridge crew is killed",
            aboard,
            ship=record.name,
            clauses=["SG-CRIT-43"],
        )
        record = evolve(record, crew=crew.with_count(post, crew.count(post) - 1))
        log.note(f"{record.name}: bridge hit kills the {post}", ship=record.name, clauses=["SG-CRIT-15"], outcome=post)
    locked = now.turn + tint("bridge", "no_course_or_altitude_change_turns")
    log.note(
        f"{record.name} may not voluntarily change course or altitude in turn {locked}",
        ship=record.name,
        clauses=["SG-CRIT-16"],
        outcome=f"locked turn {locked}",
    )
    return evolve(record, criticals=evolve(record.criticals, helm_locked_turn=locked))


def _start_fire(record: ShipRecord, level: int, log: _Log, *, clauses: Sequence[str]) -> ShipRecord:
    """A fire of ``level`` starts, adding to any fire already burning (SG-CRIT-17, SG-CRIT-49 decision)."""
    fire_level = record.fire + level
    log.note(
        f"fire on {record.name}: level {level} started, now {fire_level}",
        ship=record.name,
        clauses=[*clauses, "SG-CRIT-49"],
        outcome=f"fire {fire_level}",
    )
    return evolve(record, fire=fire_level)


def _boiler(record: ShipRecord, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """A steam ship's boiler: it blows on 1d6 below the damage value, else speed is lost for a while
    (SG-CRIT-25..27, SG-CRIT-44)."""
    value = _armored(log, record, shot, record.armor, "boiler")
    if value == 0:
        return record
    (face,) = log.roll(
        f"does {possessive(record.name)} boiler blow (damage value {value})",
        ship=record.name,
        clauses=["SG-CRIT-25"],
        needed=f"less than {value}",
        judge=lambda faces, _total: "boiler blows" if faces[0] < value else "boiler holds",
    )
    if face >= value:
        loss = record.criticals.boiler_loss + value
        log.note(
            f"{possessive(record.name)} boiler holds: speed -{value}, recovering 1 a turn",
            ship=record.name,
            clauses=["SG-CRIT-27"],
            outcome=f"boiler loss {loss}",
        )
        return evolve(record, criticals=evolve(record.criticals, boiler_loss=loss))
    crew = record.crew
    record = evolve(
        record,
        crew=evolve(crew, maneuver_lost=sum(crew.maneuver_rows)),
        criticals=evolve(record.criticals, boiler_blown=True),
    )
    extra = record.engine_size or 0
    log.note(
        f"{possessive(record.name)} boiler blows: engine crew killed, speed 0 for good, {extra} more criticals",
        ship=record.name,
        clauses=["SG-CRIT-26", "SG-CRIT-44"],
        outcome="boiler blown",
    )
    inside = Shot(
        damage_value=tint("boiler", "explosion_critical_damage_value"), source="boiler explosion", internal=True
    )
    for _ in range(extra):
        record = _resolve_critical(record, inside, now=now, log=log, rules=rules)
    return record


# --- hits on exotic ordnance and ground targets ----------------------------------------------------------
# Here, not in ordnance.py, because these steps and the hit steps above call each other (a magazine's rockets
# are hits again, a ground battery's Gun hit is a Gun hit): ordnance.py builds on this module, never under it.


def _ordnance_gun_hit(target: ShipRecord, pick: str, shot: Shot, *, now: Moment, log: _Log) -> ShipRecord:
    """A Gun hit on ordnance: one whole item of the group (picked by die) or the hopper is destroyed; damage
    points past the first kill crew as for a gun (SG-HALE-10, SG-LF-07, SG-CG-64/71/74, SG-DMG-08)."""
    key = pick.removeprefix(ORDNANCE_PREFIX)
    if key in ostrs("gun_hits", "one_gun_for_all"):
        ids = [i.id for i in whole_items(target, key)]
        item = target.item(
            log.pick(f"which of {possessive(target.name)} {key} is hit", ids, ship=target.name, clauses=["SG-DMG-09"])
        )
    else:
        item = target.item(key)
    clauses = {HALE: ["SG-HALE-10", "SG-CG-64"], LIQUID_FIRE: ["SG-LF-07", "SG-CG-71"]}.get(
        item.weapon_id, ["SG-CG-74", "SG-ERR-23"]
    )
    target = target.with_items(evolve(item, state="destroyed", since=now.turn))
    log.note(
        f"{possessive(target.name)} {item.name} {item.id} is destroyed",
        ship=target.name,
        clauses=clauses,
        outcome="destroyed",
    )
    extra = (shot.damage_value - 1) * tint("damage", "gun_hit_extra_casualties_per_damage_point_over")
    if extra > 0:
        target = _take_casualties(target, extra, now=now, log=log, source=f"Gun hit on {item.name} {item.id}")
    return target


# The clauses of each ordnance magazine group going up.
_ORDNANCE_MAGAZINE_CLAUSES = {
    HALE: ("SG-HALE-11", "SG-CG-65"),
    LIQUID_FIRE: ("SG-LF-08", "SG-CG-71"),
    SMUTTS_TORPEDO: ("SG-SMT-10", "SG-CG-33"),
    MINE_GROUP: ("SG-TM-12", "SG-CG-43"),
    DROGUE: ("SG-DT-08", "SG-CG-49"),
}


def _hits_from_inside(
    record: ShipRecord, group: str, items: Sequence[Ordnance], log: _Log, clauses: list[str]
) -> list[Shot]:
    """The hits of a magazine going up that are not a fire: a Hale battery's 1d6 rockets, or one hit for each
    torpedo, mine or drogue (SG-HALE-11, SG-SMT-10, SG-TM-12, SG-DT-08); from inside, so armor does not count."""
    if group == HALE:
        sides = oint("magazines", "rocket_hits_die_sides")
        (count,) = log.roll(
            f"Hale battery {items[0].id} goes off aboard {record.name}: rockets hitting her",
            ship=record.name,
            clauses=clauses,
            sides=sides,
            needed=f"1d{sides} hits",
            judge=lambda faces, _total: f"{faces[0]} hits",
        )
        source = f"Hale battery {items[0].id}"
        return [Shot(weapon_damage_value(HALE), weapon_penetration(HALE), source=source, internal=True)] * count
    return [
        Shot(
            weapon_damage_value(i.weapon_id), weapon_penetration(i.weapon_id), source=f"{i.name} {i.id}", internal=True
        )
        for i in items
    ]


def _ordnance_magazine(record: ShipRecord, pick: str, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """An ordnance magazine goes up (SG-HALE-11, SG-LF-08, SG-SMT-10, SG-TM-12, SG-DT-08, SG-CG-33/43/49/65/71):
    one loaded Hale battery (1d6 rocket hits on the ship), one unused liquid fire rack (a fire of 1d6), or
    every torpedo aboard, every mine not raised, every drogue not lowered (a hit each). Hits from inside are
    located one by one and not reduced by armor."""
    group = pick.removeprefix(ORDNANCE_PREFIX)
    items = magazine_items(record, group)
    if group in (HALE, LIQUID_FIRE):
        chosen = log.pick(
            f"which of {possessive(record.name)} {group} goes up",
            [i.id for i in items],
            ship=record.name,
            clauses=["SG-CRIT-10"],
        )
        items = (record.item(chosen),)
    record = record.with_items(*(evolve(i, state="detonated", since=now.turn) for i in items))
    clauses = list(_ORDNANCE_MAGAZINE_CLAUSES[group])
    log.note(
        f"magazine: {possessive(record.name)} {', '.join(i.id for i in items)} go up",
        ship=record.name,
        clauses=clauses,
        outcome=f"{len(items)} detonated",
    )
    if group == LIQUID_FIRE:
        sides = oint("magazines", "fire_die_sides")
        (level,) = log.roll(
            f"liquid fire rack {items[0].id} bursts aboard {record.name}: level of the fire",
            ship=record.name,
            clauses=clauses,
            sides=sides,
            needed=f"1d{sides} fire level",
            judge=lambda faces, _total: f"fire {faces[0]}",
        )
        return _start_fire(record, level, log, clauses=clauses)
    for shot in _hits_from_inside(record, group, items, log, clauses):
        record = _apply_hit(record, shot, now=now, log=log, rules=rules)
    return record


def _score_points(target: ShipRecord, points: int, log: _Log, *, clauses: Sequence[str]) -> ShipRecord:
    """Damage points on a bombardment hex: a box each; all checked, the hex is destroyed (SG-BOMB-01..03)."""
    rows = list(target.hull_rows)
    left = points
    for index, row in enumerate(rows):
        take = min(left, row.left)
        rows[index] = evolve(row, hits=row.hits + take)
        left -= take
    scored = evolve(target, hull_rows=tuple(rows))
    outcome = f"{points} damage points, {scored.hull_hits} of {scored.hull_boxes}"
    if scored.hull_hits >= scored.hull_boxes:
        scored = evolve(scored, status="crashed")
        outcome += ": destroyed"
    log.note(f"damage points on {target.name}", ship=target.name, clauses=[*clauses, "SG-BOMB-01"], outcome=outcome)
    return scored


def _ground_hit(target: ShipRecord, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """One hit on a ground target. A city or fortress hex scores the hit's damage value in
    points (SG-BOMB-02). A ground battery is hit as a ship but a Hull hit does nothing (SG-GB-03); its crew
    and guns are behind its armor (SG-GB-04); a Critical counts only as Fire (out of action, SG-GB-07) or
    Magazine (destroyed, SG-GB-06), nothing else (SG-GB-05)."""
    if target.emplacement in ("city", "fortress"):
        return _score_points(target, shot.damage_value, log, clauses=["SG-BOMB-02"])
    shell = shot.ammunition == "shell"
    for _ in range(tint("damage", "gun_reroll_limit")):
        location = _hit_location(log, target)
        if location != "gun" or not shell or any(not g.destroyed for g in target.guns):
            break
    else:
        raise RuntimeError("the hit location die never left the Gun result")
    if location == "gun" and not shell:
        location = str(table("shrapnel_and_grape", "gun_hit_becomes"))
    if location == "crew" and shot.from_below:
        location = str(table("damage", "higher_target_crew_becomes"))
    if location == "hull" or (not shell and location == "critical"):
        log.note(
            f"a {location.capitalize()} hit on {target.name} has no effect",
            ship=target.name,
            clauses=["SG-GB-03"],
            outcome="no effect",
        )
        return target
    if location == "crew":
        value = _armored(log, target, shot, target.armor, "battery crew")
        divisor = tint("damage" if shell else "shrapnel_and_grape", "crew_hit_divisor")
        men = -(-value // divisor)
        return _take_casualties(target, men, now=now, log=log, source=f"Crew hit on the battery ({shot.source})")
    if location == "gun":
        return _gun_hit(target, shot, now=now, log=log)
    results: Mapping[str, str] = table("critical_hits", "table")
    faces = log.roll(
        f"critical hit on {target.name} (damage value {shot.damage_value})",
        ship=target.name,
        clauses=["SG-CRIT-01", "SG-GB-05"],
        count=tint("critical_hits", "dice"),
        sides=tint("critical_hits", "die_sides"),
        needed="table",
        judge=lambda _faces, total: results[str(total)],
    )
    kind = results[str(sum(faces))]
    if kind not in ostrs("ground", "battery_critical_results"):
        log.note(
            f"{kind} means nothing to a ground battery", ship=target.name, clauses=["SG-GB-05"], outcome="no effect"
        )
        return target
    if kind == "magazine":
        if _armored(log, target, shot, target.armor, "magazine") == 0:
            return target
        log.note(
            f"{possessive(target.name)} magazine explodes: the battery is destroyed",
            ship=target.name,
            clauses=["SG-GB-06"],
            outcome="destroyed",
        )
        return evolve(target, status="crashed")
    return _start_fire(target, shot.damage_value, log, clauses=["SG-GB-05", "SG-GB-07"])


# --- loss of trim --------------------------------------------------------------------------------------


def _trim_roller(record: ShipRecord) -> tuple[str, int] | None:
    """Who tries to recover trim and at what modifier (SG-CRIT-33); None with nobody aboard."""
    crew = record.crew
    mods: Mapping[str, int] = table("trim", "roller_modifiers")
    if crew.trimsman:
        return "trimsman", mods["trimsman"]
    if crew.captain:
        return "captain", mods["captain"]
    if crew.officers + crew.marine_officers + crew.helmsman + crew.petty_officers:
        return "officer_or_petty_officer", mods["officer_or_petty_officer"]
    if record.crew_aboard:
        return "crewman", mods["crewman"]
    return None


def trim_recovers(natural: int, total: int, damage_value: int, rules: CombatRules) -> bool:
    """Trim is recovered on a natural 6, or a modified roll above the damage value; with the errata also on a
    modified 6 when the damage value is 6 or more (SG-CRIT-31/35, SG-ERR-07)."""
    if natural >= tint("trim", "natural_always_recovers"):
        return True
    if total > damage_value:
        return True
    return (
        rules.errata
        and damage_value >= tint("trim", "errata_damage_value_at_least")
        and total >= tint("trim", "errata_modified_roll_needed")
    )


def trim_modifiers(record: ShipRecord) -> dict[str, int] | None:
    """The recovery roll's modifiers: who rolls, hull size, crew quality (SG-CRIT-33/34, SG-ERR-08, SG-CQ-04/08)."""
    roller = _trim_roller(record)
    if roller is None:
        return None
    who, modifier = roller
    mods: dict[str, int] = {}
    if modifier:
        mods[f"{who.replace('_', ' ')} at the trim"] = modifier
    bonus = record.hull_size // tint("trim", "hull_size_per_bonus")
    if bonus:
        mods["hull size"] = bonus
    quality = tint("trim", "crew_quality", record.crew_quality)
    if quality:
        mods[f"{record.crew_quality} crew"] = quality
    return mods


def lose_trim(
    record: ShipRecord,
    damage_value: int,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
    cause: str = "loss of trim",
) -> tuple[ShipRecord, list[Happening]]:
    """A loss of trim (a Trim Damage critical; a collision passes floor(hull size difference / 2))."""
    log = _Log(roller)
    return _lose_trim(record, damage_value, now=now, log=log, rules=rules or CombatRules(), cause=cause), log.happened


def _lose_trim(
    record: ShipRecord, damage_value: int, *, now: Moment, log: _Log, rules: CombatRules, cause: str
) -> ShipRecord:
    """Roll to recover at once; each failure drops a level and the roll is made again, until it recovers or
    reaches the ground and crashes (SG-CRIT-31..37, SG-CRIT-47, SG-ERR-07..09). Then two movement phases
    stunned."""
    if record.status != "flying":
        return record
    if record.grappled_with:  # held up by the grapple (SG-GRAP-09)
        log.note(
            f"{record.name} is grappled: the loss of trim is ignored",
            ship=record.name,
            clauses=["SG-GRAP-09"],
            outcome="ignored",
        )
        return record
    while not _trim_recovered(record, damage_value, log=log, rules=rules, cause=cause):
        record = _drop_a_level(record, log)
        if record.status == "crashed":
            return record
    phases = tint("trim", "stunned_movement_phases")
    log.note(
        f"{possessive(record.name)} crew is stunned for the next {phases} movement phases",
        ship=record.name,
        clauses=["SG-CRIT-37"],
        outcome=f"stunned phases {now.index + 1}-{now.index + phases}",
    )
    return evolve(
        record,
        criticals=evolve(record.criticals, stunned_from=now.index + 1, stunned_through=now.index + phases),
    )


def _trim_recovered(record: ShipRecord, damage_value: int, *, log: _Log, rules: CombatRules, cause: str) -> bool:
    """One roll to recover trim; nobody aboard to roll fails (SG-CRIT-31..35, SG-ERR-07/08)."""
    needed = f"more than {damage_value}"
    if rules.errata and damage_value >= tint("trim", "errata_damage_value_at_least"):
        needed = f"{tint('trim', 'errata_modified_roll_needed')}+"
    needed += " (a natural 6 always)"
    clauses = ["SG-CRIT-31", "SG-CRIT-33", "SG-CRIT-34", "SG-CRIT-35", "SG-CRIT-36"]
    if rules.errata:
        clauses += ["SG-ERR-07", "SG-ERR-08"]
    mods = trim_modifiers(record)
    if mods is None:
        log.note(f"nobody aboard {record.name} to recover trim", ship=record.name, clauses=clauses, outcome="fails")
        return False
    (face,) = log.roll(
        f"{record.name} recovers trim ({cause}) at {record.altitude}?",
        ship=record.name,
        clauses=clauses,
        modifiers=mods,
        needed=needed,
        judge=lambda faces, total: "recovered" if trim_recovers(faces[0], total, damage_value, rules) else "drops",
    )
    return trim_recovers(face, face + sum(mods.values()), damage_value, rules)


def _drop_a_level(record: ShipRecord, log: _Log) -> ShipRecord:
    """Trim not recovered: a level lower; at the ground the ship crashes (SG-CRIT-36, SG-ALT-10)."""
    record = evolve(record, altitude=_level_name(altitude_level(record.altitude) - 1))
    if record.altitude == surface():
        record = evolve(record, status="crashed")
        log.note(
            f"{record.name} drops to the ground and crashes",
            ship=record.name,
            clauses=["SG-CRIT-36", "SG-ALT-10"],
            outcome="crashed",
        )
        return record
    log.note(
        f"{record.name} drops to {record.altitude}",
        ship=record.name,
        clauses=["SG-CRIT-36"],
        outcome=record.altitude,
    )
    return record


def _level_name(level: int) -> str:
    return altitude_levels()[max(level, 0)]


def check_untrimmed(
    record: ShipRecord, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[ShipRecord, list[Happening]]:
    """End of a maneuver phase: with nobody at the trim station, a 6 is a loss of trim (SG-CREW-09)."""
    log = _Log(roller)
    if record.trim_manned or record.status != "flying":
        return record, []
    # An outrigger keeps her in gross trim (class_rules.py, SG-CLS-07).
    if record.class_id is not None and class_rules.keeps_gross_trim(record):
        log.note(
            f"nobody at {possessive(record.name)} trim station: her outrigger keeps her in gross trim",
            ship=record.name,
            clauses=["SG-CLS-07"],
            outcome="in trim",
        )
        return record, log.happened
    on = tint("stations", "untrimmed_loss_of_trim_on")
    (face,) = log.roll(
        f"nobody at {possessive(record.name)} trim station: does it stay in trim",
        ship=record.name,
        clauses=["SG-CREW-09"],
        needed=f"{on} loses trim",
        judge=lambda faces, _total: "loss of trim" if faces[0] >= on else "in trim",
    )
    if face >= on:
        record = _lose_trim(
            record,
            tint("stations", "untrimmed_damage_value"),
            now=now,
            log=log,
            rules=rules or CombatRules(),
            cause="nobody at the trim station",
        )
    return record, log.happened


# --- fires, turn upkeep and repairs --------------------------------------------------------------------


def begin_turn(record: ShipRecord) -> tuple[ShipRecord, list[Happening]]:
    """Start of a turn: fires grow 1 level (2 on kites), a holding boiler's speed loss shrinks by 1
    (SG-CRIT-18/27, SG-SEQ-10)."""
    log = _Log(_no_dice)
    if record.fire > 0 and record.afloat:
        growth = tint("fire", "growth_per_turn_kite" if record.is_kite else "growth_per_turn")
        record = evolve(record, fire=record.fire + growth)
        log.note(
            f"the fire on {record.name} grows", ship=record.name, clauses=["SG-CRIT-18"], outcome=f"fire {record.fire}"
        )
    if record.criticals.boiler_loss > 0:
        loss = max(record.criticals.boiler_loss - tint("boiler", "temporary_loss_recovered_per_turn"), 0)
        record = evolve(record, criticals=evolve(record.criticals, boiler_loss=loss))
        log.note(
            f"{possessive(record.name)} engine gang patches the boiler",
            ship=record.name,
            clauses=["SG-CRIT-27"],
            outcome=f"boiler loss {loss}",
        )
    return record, log.happened


def fire_reaches_magazine(
    record: ShipRecord, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[ShipRecord, list[Happening]]:
    """Start of the ship's own movement phase: a fire above its hull size sets off a magazine, or with none
    left does 1d6 hull hits (SG-CRIT-20)."""
    log = _Log(roller)
    if record.fire <= record.hull_size or not record.afloat:
        return record, []
    log.note(
        f"the fire on {record.name} (level {record.fire}) is above its hull size {record.hull_size}",
        ship=record.name,
        clauses=["SG-CRIT-20"],
        outcome="magazine critical",
    )
    return _magazine(record, fire_fallback=None, now=now, log=log, rules=rules or CombatRules()), log.happened


def fight_fire(record: ShipRecord, *, now: Moment, roller: Roller) -> tuple[ShipRecord, list[Happening]]:
    """End of the ship's own movement phase: a die per deckhand and extra petty officer; each 6 (5 or 6 on a
    steel ship) puts out a level (SG-CRIT-21..23). A crew stunned by a loss of trim cannot (SG-CRIT-37)."""
    log = _Log(roller)
    if record.fire <= 0 or not record.afloat:
        return record, []
    if record.stunned(now):
        log.note(
            f"{possessive(record.name)} crew is stunned: no fire fighting",
            ship=record.name,
            clauses=["SG-CRIT-37"],
            outcome="none",
        )
        return record, log.happened
    fighters = record.crew.deckhands + record.crew.petty_officers
    if fighters == 0:
        log.note(
            f"nobody left on {record.name} to fight the fire", ship=record.name, clauses=["SG-CRIT-21"], outcome="none"
        )
        return record, log.happened
    success = tint("fire", "fight_success_from", record.hull_material)
    faces = log.roll(
        f"fire fighting on {record.name}: {fighters} men",
        ship=record.name,
        clauses=["SG-CRIT-21", "SG-CRIT-22" if record.hull_material == "steel" else "SG-CRIT-23"],
        count=fighters,
        sides=tint("fire", "fight_die_sides"),
        needed=f"{success}+ each",
        judge=lambda faces, _total: f"{sum(1 for face in faces if face >= success)} levels put out",
    )
    level = max(record.fire - sum(1 for face in faces if face >= success), 0)
    return evolve(record, fire=level), log.happened


def _free(log: _Log, record: ShipRecord, what: str, jam: int, clauses: Sequence[str]) -> bool:
    always = tint("rudder_and_lifters", "natural_always_frees")
    (face,) = log.roll(
        f"free {possessive(record.name)} jammed {what}",
        ship=record.name,
        clauses=clauses,
        needed=f"more than {jam} (a 6 always)",
        judge=lambda faces, _total: "freed" if faces[0] > jam or faces[0] >= always else "still jammed",
    )
    return face > jam or face >= always


def repair(record: ShipRecord, *, roller: Roller) -> tuple[ShipRecord, list[Happening]]:
    """The repair rolls at the end of the ship's own movement phase: a jammed rudder, jammed lifters, a
    jury-rig (SG-SEQ-08, SG-CRIT-30/38..42)."""
    log = _Log(roller)
    if not record.afloat:
        return record, []
    c = record.criticals
    if c.rudder_jam and _free(log, record, "rudder", c.rudder_jam, ["SG-CRIT-38", "SG-CRIT-41"]):
        c = evolve(c, rudder_jam=0)
    if c.lifters_jam and _free(log, record, "lifters", c.lifters_jam, ["SG-CRIT-42"]):
        c = evolve(c, lifters_jam=0)
    record = evolve(record, criticals=c)
    if record.jury_rig_possible:
        on = tint("screw_mast", "jury_rig_on")
        (face,) = log.roll(
            f"jury-rig {'a mast' if record.is_kite else 'a propeller'} on {record.name}",
            ship=record.name,
            clauses=["SG-CRIT-30"],
            needed=f"{on}",
            judge=lambda faces, _total: "jury-rigged" if faces[0] >= on else "not yet",
        )
        if face >= on:
            record = evolve(record, criticals=evolve(record.criticals, jury_rigged=True))
    return record, log.happened
