"""Sky Galleons fire combat, as pure functions over ship records (SG-FIRE, SG-DMG, SG-CRIT, SG-ARM, SG-CREW).

Every function takes the records it changes and a :data:`Roller` for its dice, and returns the new
records plus a list of plain "what happened" dicts for the event log, one per roll or effect::

    {"ship": "Swiftwood", "purpose": "to hit: Aphid 4in long vs Swiftwood, close range",
     "faces": [5], "modifiers": {"different altitude": -1}, "total": 4, "needed": "3+",
     "outcome": "hit", "clauses": ["SG-FIRE-09", "SG-FIRE-17"]}

Effects without dice have ``faces`` [] and ``total`` None. The roller is ``(purpose, count, sides) ->
faces``: the ruleset hands in a roller that rolls through ``ctx.roll`` with the roll's modifiers and judgement, so
every die is the battle's logged die, logged whole; tests hand in :class:`FixedDice`.

Numbers and tables come from ``data/combat-tables.json``; each of its entries names its clauses and, where
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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from battles.engine import hexgrid
from battles.rules.sky_galleons.record import (
    Gun,
    Moment,
    ShipRecord,
    altitude_level,
    altitude_levels,
    surface,
    table,
    tint,
    tstrs,
)

T = TypeVar("T")

Happening = dict[str, Any]


Judgement = Callable[[tuple[int, ...], int], str]


class Roller(Protocol):
    """The dice: ``count`` dice of ``sides`` sides for ``purpose``, their faces in order.

    The roll's modifiers, what it needs, how its outcome is judged from (faces, total) and the ship it
    concerns come along, so a ruleset can log the roll whole as it happens; a test roller may ignore them.
    """

    def __call__(
        self,
        purpose: str,
        count: int,
        sides: int,
        *,
        modifiers: Mapping[str, int],
        needed: str,
        judge: Judgement,
        ship: str,
    ) -> tuple[int, ...]: ...


class DiceExhausted(LookupError):
    """A :class:`FixedDice` was asked for more dice than it was given."""


class FixedDice:
    """A roller that hands out the faces it was given, in order, and remembers what each roll was for.

    For tests and worked examples: ``FixedDice(5, 2, 6)``. A face outside the die's sides is an error, so
    a test cannot quietly feed a 6 to a 2-sided pick. ``left`` is what was not used.
    """

    def __init__(self, *faces: int) -> None:
        self._faces = list(faces)
        self.calls: list[tuple[str, tuple[int, ...], int]] = []

    def __call__(self, purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
        if len(self._faces) < count:
            raise DiceExhausted(f"{purpose}: wanted {count} dice, {len(self._faces)} left")
        rolled = tuple(self._faces[:count])
        del self._faces[:count]
        bad = [face for face in rolled if not 1 <= face <= sides]
        if bad:
            raise ValueError(f"{purpose}: faces {bad} on a {sides}-sided die")
        self.calls.append((purpose, rolled, sides))
        return rolled

    @property
    def left(self) -> tuple[int, ...]:
        return tuple(self._faces)

    @property
    def purposes(self) -> list[str]:
        return [purpose for purpose, _, _ in self.calls]


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The switches that change combat: the C&G penetration by range (SG-CG-06/07), the errata (SG-ERR-07/08)."""

    two_range_penetration: bool = field(default_factory=lambda: bool(table("armor", "two_range_penetration_default")))
    errata: bool = True


class FireRefused(ValueError):
    """A gun may not fire at that target; ``clause`` names the rule."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


# --- the log -------------------------------------------------------------------------------------------


class _Log:
    """Rolls through the roller and writes down every roll and effect as a plain dict."""

    def __init__(self, roller: Roller) -> None:
        self.roller = roller
        self.happened: list[Happening] = []

    def roll(
        self,
        purpose: str,
        *,
        ship: str,
        clauses: Sequence[str],
        needed: str,
        judge: Callable[[tuple[int, ...], int], str],
        count: int = 1,
        sides: int = 6,
        modifiers: Mapping[str, int] | None = None,
    ) -> tuple[int, ...]:
        mods = dict(modifiers or {})
        faces = tuple(self.roller(purpose, count, sides, modifiers=mods, needed=needed, judge=judge, ship=ship))
        if len(faces) != count or any(not 1 <= face <= sides for face in faces):
            raise ValueError(f"{purpose}: the roller gave {faces} for {count}d{sides}")
        total = sum(faces) + sum(mods.values())
        self.happened.append(
            {
                "ship": ship,
                "purpose": purpose,
                "faces": list(faces),
                "modifiers": mods,
                "total": total,
                "needed": needed,
                "outcome": judge(faces, total),
                "clauses": list(clauses),
            }
        )
        return faces

    def pick(self, purpose: str, items: Sequence[T], *, ship: str, clauses: Sequence[str]) -> T:
        """One of ``items`` by a die with as many sides (no roll when there is only one)."""
        if not items:
            raise ValueError(f"{purpose}: nothing to pick from")
        if len(items) == 1:
            return items[0]
        labels = [str(item) for item in items]
        (face,) = self.roll(
            purpose,
            ship=ship,
            clauses=clauses,
            sides=len(items),
            needed=f"1-{len(items)}",
            judge=lambda faces, _total: labels[faces[0] - 1],
        )
        return items[face - 1]

    def note(self, purpose: str, *, ship: str, clauses: Sequence[str], outcome: str) -> None:
        self.happened.append(
            {
                "ship": ship,
                "purpose": purpose,
                "faces": [],
                "modifiers": {},
                "total": None,
                "needed": "",
                "outcome": outcome,
                "clauses": list(clauses),
            }
        )


def _no_dice(purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
    raise AssertionError(f"{purpose}: this step rolls no dice")


# --- can it fire, and how ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FireSolution:
    """Whether one gun may fire at one ship now, and on what terms (SG-FIRE-*).

    ``needed`` is what die + modifiers must reach. ``aspects`` are the firer's aspects that hold the target
    (the gun's arcs must include one, SG-FIRE-02); ``incoming`` the target's aspects that hold the firer
    (the guns a Gun hit can destroy, SG-DMG-09).
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

    @property
    def target_higher(self) -> bool:
        return self.altitude_difference > 0

    @property
    def clauses(self) -> list[str]:
        """The clauses this solution applied, for the log."""
        found = ["SG-FIRE-09" if self.band == "close" else "SG-FIRE-10", "SG-FIRE-07"]
        if self.altitude_difference > 0:
            found.append("SG-FIRE-15")
        if self.altitude_difference:
            found.append("SG-FIRE-17")
        if "green crew" in self.modifiers:
            found.append("SG-CQ-02")
        if "crack crew" in self.modifiers:
            found.append("SG-CQ-06")
        if "burning" in self.modifiers:
            found.append("SG-CRIT-19")
        return found

    @property
    def describe(self) -> str:
        if not self.allowed:
            return f"{self.firer} gun {self.gun_id} may not fire at {self.target}: {self.reason} ({self.clause})"
        terms = [f"{self.band} range {self.effective_range}"]
        terms += [f"{name} {value:+d}" for name, value in self.modifiers.items()]
        return f"{self.firer} gun {self.gun_id} vs {self.target}, " + ", ".join(terms)


def _refuse(firer: ShipRecord, gun_id: str, target: ShipRecord, clause: str, reason: str) -> FireSolution:
    return FireSolution(firer.name, gun_id, target.name, False, clause, reason)


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
    ranges = gun.weapon.range_hexes
    if ranges is None:
        return None
    if ranges.close is not None and effective_range <= ranges.close:
        return "close"
    if ranges.long is not None and effective_range <= ranges.long:
        return "long"
    return None


def fire_solution(
    firer: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules | None = None,
    same_hex: tuple[str, str] | None = None,
) -> FireSolution:
    """May ``firer``'s gun fire at ``target`` now, and how? Refusals name their clause."""
    rules = rules or CombatRules()
    gun = firer.gun(gun_id)
    weapon = gun.weapon
    if not firer.afloat or not target.afloat:
        return _refuse(firer, gun_id, target, "SG-DMG-16", "a crashed ship neither fires nor is fired at")
    if firer.name == target.name:
        return _refuse(firer, gun_id, target, "SG-FIRE-04", "a gun fires at an enemy vessel, not its own ship")
    if gun.destroyed:
        return _refuse(firer, gun_id, target, "SG-DMG-08", "the gun is destroyed")
    if weapon.personnel_only:
        return _refuse(firer, gun_id, target, "SG-FIRE-25", f"{weapon.name} attacks only as small arms fire")
    if gun.rate is None:
        return _refuse(firer, gun_id, target, "SG-CG-94", f"{weapon.name} does not roll to hit")
    if gun.damage_value is None:
        return _refuse(firer, gun_id, target, "SG-CG-89", f"{weapon.name} has no damage value of its own")
    if gun.jammed:
        return _refuse(firer, gun_id, target, "SG-CG-52", "the gun is jammed")
    if gun.manned == 0:
        return _refuse(firer, gun_id, target, "SG-CREW-10", "nobody is left at the gun")
    if firer.stunned(now):
        return _refuse(firer, gun_id, target, "SG-CRIT-37", "the crew is still stunned by the loss of trim")
    if gun.last_fired == now.turn:
        return _refuse(firer, gun_id, target, "SG-SEQ-06", "the gun has already fired this turn")
    if not gun.ready(now.turn):
        return _refuse(firer, gun_id, target, "SG-FIRE-05", "the gun is still reloading")
    aspects, incoming = sight_lines(firer, target, same_hex)
    if not set(aspects) & set(gun.arcs):
        return _refuse(
            firer, gun_id, target, "SG-FIRE-02", f"the target is in the {'/'.join(aspects)} aspect, out of its arc"
        )
    distance = hexgrid.distance(_on_map(firer), _on_map(target))
    difference = altitude_level(target.altitude) - altitude_level(firer.altitude)
    if abs(difference) > distance:
        return _refuse(
            firer,
            gun_id,
            target,
            "SG-FIRE-13",
            f"{abs(difference)} levels of altitude apart at {distance} hexes",
        )
    per_level = tint(
        "altitude_and_range", "range_added_per_level_higher" if difference > 0 else "range_added_per_level_lower"
    )
    effective = distance + abs(difference) * per_level
    band = range_band(gun, effective)
    if band is None:
        return _refuse(firer, gun_id, target, "SG-FIRE-07", f"range {effective} is beyond the gun's reach")
    rate = gun.rate
    dv = gun.damage_value
    return FireSolution(
        firer=firer.name,
        gun_id=gun_id,
        target=target.name,
        allowed=True,
        distance=distance,
        altitude_difference=difference,
        effective_range=effective,
        band=band,
        shots=rate.shots,
        needed=tint("to_hit", band),
        modifiers=to_hit_modifiers(firer, target),
        penetration=penetration_at(gun, band, rules),
        damage_value=dv,
        aspects=aspects,
        incoming=incoming,
    )


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
    ]


def roll_to_hit(
    ships: Mapping[str, ShipRecord], solution: FireSolution, *, roller: Roller
) -> tuple[list[str], list[Happening]]:
    """Roll a gun's shots at the target and, for each miss, the second roll at its hex-mates.

    Returns the ship hit by each hitting shot, the target's hits first (SG-FIRE-04, SG-FIRE-09..12).
    """
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    log = _Log(roller)
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
    others = ships_beside(ships, target, solution.firer)
    strays: list[str] = []
    for _ in range(misses if others else 0):
        (face,) = log.roll(
            f"missed shot, second roll at the other ships in {target.name}'s hex",
            ship=target.name,
            clauses=["SG-FIRE-11"],
            modifiers=solution.modifiers,
            needed=needed,
            judge=lambda faces, _total: "hit" if faces[0] + modifier >= solution.needed else "miss",
        )
        if face + modifier >= solution.needed:
            strays.append(log.pick("which ship the stray shot hits", others, ship=target.name, clauses=["SG-FIRE-12"]))
    return hit + strays, log.happened


def fire_gun_marked(firer: ShipRecord, gun_id: str, now: Moment) -> ShipRecord:
    """The firer with the gun marked as fired this turn; it reloads from here (SG-SEQ-06, SG-FIRE-05)."""
    return firer.with_gun(replace(firer.gun(gun_id), last_fired=now.turn))


# --- damage: hit location, hull, crew, guns, armor -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shot:
    """One hit as the damage rules see it.

    ``incoming`` are the target's aspects the fire came from (a Gun hit destroys a gun bearing there,
    SG-DMG-09); ``from_below`` is true when the target is higher than the firer (Crew hits become Hull hits,
    SG-DMG-07); ``internal`` marks damage from inside the ship (a magazine or boiler going up), which the
    armor does not reduce.
    """

    damage_value: int
    penetration: int = 0
    incoming: tuple[str, ...] = ("bow", "starboard", "stern", "port")
    from_below: bool = False
    source: str = ""
    internal: bool = False


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
        rows[index] = replace(row, hits=row.hits + take)
        left -= take
    marked = replace(record, hull_rows=tuple(rows))
    outcome = f"{hits - left} hull hits"
    if marked.max_altitude is None:
        marked = replace(marked, status="crashed")
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


def _posts(record: ShipRecord, first_from_gun: str | None) -> list[str]:
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
        return record.with_gun(replace(gun, manned=gun.manned - men))
    if post == "maneuver":
        return replace(record, crew=replace(record.crew, maneuver_lost=record.crew.maneuver_lost + men))
    return replace(record, crew=record.crew.with_count(post, record.crew.count(post) - men))


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
    order = _posts(record, first_from_gun)
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
        record = replace(record, criticals=replace(record.criticals, officer_check_phase=now.index))
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
    return [gun.id for gun in record.guns if not gun.destroyed and set(gun.arcs) & set(incoming)]


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
    for _ in range(tint("damage", "gun_reroll_limit")):
        location = _hit_location(log, target)
        if location != "gun" or _guns_bearing(target, shot.incoming):
            break
        log.note(
            f"no gun of {target.name} bears on the {'/'.join(shot.incoming)} aspect: roll the location again",
            ship=target.name,
            clauses=["SG-DMG-10"],
            outcome="reroll",
        )
    else:
        raise RuntimeError("the hit location die never left the Gun result")
    if location == "crew" and shot.from_below:
        log.note(
            f"{target.name} is higher than the firer: the Crew hit becomes a Hull hit",
            ship=target.name,
            clauses=["SG-DMG-07"],
            outcome="hull",
        )
        location = table("damage", "higher_target_crew_becomes")
    if location == "hull":
        hits = _armored(log, target, shot, target.armor, "hull")
        return _mark_hull_hits(target, hits, log, clauses=("SG-DMG-05", "SG-DMG-11"))
    if location == "crew":
        men = _ceil_half(shot.damage_value, tint("damage", "crew_hit_divisor"))
        return _take_casualties(target, men, now=now, log=log, source=f"Crew hit, damage value {shot.damage_value}")
    if location == "gun":
        return _gun_hit(target, shot, now=now, log=log)
    return _resolve_critical(target, shot, now=now, log=log, rules=rules)


def _gun_hit(target: ShipRecord, shot: Shot, *, now: Moment, log: _Log) -> ShipRecord:
    """Destroy a gun bearing on the incoming aspect; damage points past the first kill its crew first (SG-DMG-08/09)."""
    gun_id = log.pick(
        f"which of {target.name}'s guns bearing {'/'.join(shot.incoming)} is hit",
        _guns_bearing(target, shot.incoming),
        ship=target.name,
        clauses=["SG-DMG-09"],
    )
    gun = target.gun(gun_id)
    value = shot.damage_value
    if gun.armor is not None:
        value = _armored(log, target, shot, gun.armor, f"armored gun {gun_id}")
        if value == 0:
            return target
    target = target.with_gun(replace(gun, destroyed=True))
    log.note(
        f"{target.name}'s gun {gun_id} ({gun.name}) is destroyed",
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
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """One gun fires at one ship: to hit, stray shots, then every hit resolved. Raises FireRefused."""
    rules = rules or CombatRules()
    solution = fire_solution(ships[firer], gun_id, ships[target], now=now, rules=rules, same_hex=same_hex)
    return resolve_fire(ships, solution, now=now, roller=roller, rules=rules)


def resolve_fire(
    ships: Mapping[str, ShipRecord],
    solution: FireSolution,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Fire a gun on a solution found earlier: the ruleset finds every solution when fire is declared and
    resolves them in turn, so a gun knocked out by a shot of the same volley still fires (simultaneous
    fire at the end of a movement phase, SG-SEQ-05 / SG-FIRE-01). A target that has already crashed is
    not shot at again."""
    rules = rules or CombatRules()
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    firer, gun_id, target = solution.firer, solution.gun_id, solution.target
    result = dict(ships)
    result[firer] = fire_gun_marked(ships[firer], gun_id, now)
    if not result[target].afloat:
        log = _Log(roller)
        log.note(
            f"{firer} gun {gun_id}: {target} has already fallen",
            ship=target,
            clauses=["SG-DMG-16"],
            outcome="no shot",
        )
        return result, log.happened
    hits, happened = roll_to_hit(result, solution, roller=roller)
    shooter = result[firer]
    log = _Log(roller)
    for name in hits:
        victim = result[name]
        if name == target:
            incoming, from_below = solution.incoming, solution.target_higher
        else:
            incoming = sight_lines(shooter, victim)[1]
            from_below = altitude_level(victim.altitude) > altitude_level(shooter.altitude)
        shot = Shot(
            damage_value=solution.damage_value,
            penetration=solution.penetration,
            incoming=incoming,
            from_below=from_below,
            source=f"{firer} gun {gun_id} ({shooter.gun(gun_id).name})",
        )
        result[name] = _apply_hit(victim, shot, now=now, log=log, rules=rules)
    return result, happened + log.happened


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
            f"{target.name}'s {kind} jammed: freeing it needs more than {jam} (or a 6)",
            ship=target.name,
            clauses=["SG-CRIT-38", "SG-CRIT-39"] if kind == "rudder" else ["SG-CRIT-42", "SG-CRIT-39"],
            outcome=f"jammed {jam}",
        )
        return replace(target, criticals=replace(target.criticals, **changes))
    if kind == "screw_mast":
        hits = target.criticals.screw_mast_hits + 1
        what = "mast hit: -1 to its movement die" if target.is_kite else "screw hit: speed -1 for good"
        log.note(
            f"{target.name}: {what}",
            ship=target.name,
            clauses=["SG-CRIT-29"] if target.is_kite else ["SG-CRIT-28"],
            outcome=f"screw/mast hits {hits}",
        )
        return replace(target, criticals=replace(target.criticals, screw_mast_hits=hits))
    raise ValueError(f"unknown critical result {kind!r}")


def _magazines(record: ShipRecord) -> list[str]:
    """Guns whose magazine can go up: not destroyed, damage value 1 or more (SG-CRIT-10/14)."""
    least = tint("magazine", "min_gun_damage_value")
    return [
        gun.id
        for gun in record.guns
        if not gun.destroyed and gun.damage_value is not None and gun.damage_value >= least
    ]


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
    gun_id = log.pick(
        f"which of {record.name}'s magazines explodes", candidates, ship=record.name, clauses=["SG-CRIT-10"]
    )
    gun = record.gun(gun_id)
    value = gun.damage_value or 0
    record = record.with_gun(replace(gun, destroyed=True, manned=0))
    log.note(
        f"{record.name}'s magazine of gun {gun_id} ({gun.name}) explodes: gun and {gun.manned} crew lost",
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
            f"which of {record.name}'s bridge crew is killed", aboard, ship=record.name, clauses=["SG-CRIT-43"]
        )
        record = replace(record, crew=crew.with_count(post, crew.count(post) - 1))
        log.note(f"{record.name}: bridge hit kills the {post}", ship=record.name, clauses=["SG-CRIT-15"], outcome=post)
    locked = now.turn + tint("bridge", "no_course_or_altitude_change_turns")
    log.note(
        f"{record.name} may not voluntarily change course or altitude in turn {locked}",
        ship=record.name,
        clauses=["SG-CRIT-16"],
        outcome=f"locked turn {locked}",
    )
    return replace(record, criticals=replace(record.criticals, helm_locked_turn=locked))


def _start_fire(record: ShipRecord, level: int, log: _Log, *, clauses: Sequence[str]) -> ShipRecord:
    """A fire of ``level`` starts, adding to any fire already burning (SG-CRIT-17, SG-CRIT-49 decision)."""
    fire_level = record.fire + level
    log.note(
        f"fire on {record.name}: level {level} started, now {fire_level}",
        ship=record.name,
        clauses=[*clauses, "SG-CRIT-49"],
        outcome=f"fire {fire_level}",
    )
    return replace(record, fire=fire_level)


def _boiler(record: ShipRecord, shot: Shot, *, now: Moment, log: _Log, rules: CombatRules) -> ShipRecord:
    """A steam ship's boiler: it blows on 1d6 below the damage value, else speed is lost for a while
    (SG-CRIT-25..27, SG-CRIT-44)."""
    value = _armored(log, record, shot, record.armor, "boiler")
    if value == 0:
        return record
    (face,) = log.roll(
        f"does {record.name}'s boiler blow (damage value {value})",
        ship=record.name,
        clauses=["SG-CRIT-25"],
        needed=f"less than {value}",
        judge=lambda faces, _total: "boiler blows" if faces[0] < value else "boiler holds",
    )
    if face >= value:
        loss = record.criticals.boiler_loss + value
        log.note(
            f"{record.name}'s boiler holds: speed -{value}, recovering 1 a turn",
            ship=record.name,
            clauses=["SG-CRIT-27"],
            outcome=f"boiler loss {loss}",
        )
        return replace(record, criticals=replace(record.criticals, boiler_loss=loss))
    crew = record.crew
    record = replace(
        record,
        crew=replace(crew, maneuver_lost=sum(crew.maneuver_rows)),
        criticals=replace(record.criticals, boiler_blown=True),
    )
    extra = record.engine_size or 0
    log.note(
        f"{record.name}'s boiler blows: engine crew killed, speed 0 for good, {extra} more criticals",
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
    needed = f"more than {damage_value}"
    if rules.errata and damage_value >= tint("trim", "errata_damage_value_at_least"):
        needed = f"{tint('trim', 'errata_modified_roll_needed')}+"
    needed += " (a natural 6 always)"
    clauses = ["SG-CRIT-31", "SG-CRIT-33", "SG-CRIT-34", "SG-CRIT-35", "SG-CRIT-36"]
    if rules.errata:
        clauses += ["SG-ERR-07", "SG-ERR-08"]
    while True:
        mods = trim_modifiers(record)
        if mods is None:
            recovered = False
            log.note(f"nobody aboard {record.name} to recover trim", ship=record.name, clauses=clauses, outcome="fails")
        else:
            (face,) = log.roll(
                f"{record.name} recovers trim ({cause}) at {record.altitude}?",
                ship=record.name,
                clauses=clauses,
                modifiers=mods,
                needed=needed,
                judge=lambda faces, total: (
                    "recovered" if trim_recovers(faces[0], total, damage_value, rules) else "drops"
                ),
            )
            recovered = trim_recovers(face, face + sum(mods.values()), damage_value, rules)
        if recovered:
            break
        level = altitude_level(record.altitude) - 1
        record = replace(record, altitude=_level_name(level))
        if record.altitude == surface():
            record = replace(record, status="crashed")
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
    phases = tint("trim", "stunned_movement_phases")
    log.note(
        f"{record.name}'s crew is stunned for the next {phases} movement phases",
        ship=record.name,
        clauses=["SG-CRIT-37"],
        outcome=f"stunned phases {now.index + 1}-{now.index + phases}",
    )
    return replace(
        record,
        criticals=replace(record.criticals, stunned_from=now.index + 1, stunned_through=now.index + phases),
    )


def _level_name(level: int) -> str:
    return altitude_levels()[max(level, 0)]


def check_untrimmed(
    record: ShipRecord, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[ShipRecord, list[Happening]]:
    """End of a maneuver phase: with nobody at the trim station, a 6 is a loss of trim (SG-CREW-09)."""
    log = _Log(roller)
    if record.trim_manned or record.status != "flying":
        return record, []
    on = tint("stations", "untrimmed_loss_of_trim_on")
    (face,) = log.roll(
        f"nobody at {record.name}'s trim station: does it stay in trim",
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
        record = replace(record, fire=record.fire + growth)
        log.note(
            f"the fire on {record.name} grows", ship=record.name, clauses=["SG-CRIT-18"], outcome=f"fire {record.fire}"
        )
    if record.criticals.boiler_loss > 0:
        loss = max(record.criticals.boiler_loss - tint("boiler", "temporary_loss_recovered_per_turn"), 0)
        record = replace(record, criticals=replace(record.criticals, boiler_loss=loss))
        log.note(
            f"{record.name}'s engine gang patches the boiler",
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
            f"{record.name}'s crew is stunned: no fire fighting",
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
    return replace(record, fire=level), log.happened


def _free(log: _Log, record: ShipRecord, what: str, jam: int, clauses: Sequence[str]) -> bool:
    always = tint("rudder_and_lifters", "natural_always_frees")
    (face,) = log.roll(
        f"free {record.name}'s jammed {what}",
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
        c = replace(c, rudder_jam=0)
    if c.lifters_jam and _free(log, record, "lifters", c.lifters_jam, ["SG-CRIT-42"]):
        c = replace(c, lifters_jam=0)
    record = replace(record, criticals=c)
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
            record = replace(record, criticals=replace(record.criticals, jury_rigged=True))
    return record, log.happened
