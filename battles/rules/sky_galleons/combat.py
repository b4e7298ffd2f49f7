"""Sky Galleons fire combat, as pure functions over ship records (SG-FIRE, SG-DMG, SG-CRIT, SG-ARM, SG-CREW).

Every function takes the records it changes and a :data:`Roller` for its dice, and returns the new
records plus a list of plain "what happened" dicts for the event log, one per roll or effect::

    {"ship": "Swiftwood", "purpose": "to hit: Aphid 4in long vs Swiftwood, close range",
     "faces": [5], "modifiers": {"different altitude": -1}, "total": 4, "needed": "3+",
     "outcome": "hit", "clauses": ["SG-FIRE-09", "SG-FIRE-17"]}

Effects without dice have ``faces`` [] and ``total`` None. The roller is ``(purpose, count, sides) ->
faces``: the ruleset hands in ``lambda purpose, count, sides: ctx.roll(purpose, count=count,
sides=sides).dice`` so every die is the battle's logged die; tests hand in :class:`FixedDice`.

Numbers and tables come from ``data/combat-tables.json``; each of its entries names its clauses and, where
the text is ambiguous, silent or lost, the reading this module applies (``decision``). The readings that
shape this module most:

* The altitude limit compares levels with hexes before range is added for a higher target; two ships in
  one hex at different altitudes cannot fire at each other (SG-FIRE-13..16).
* A missed shot at a target sharing its hex with others is rolled again against the same number; the
  others are the ships at the target's altitude (SG-FIRE-11/12).
* The to-hit dice of one gun are rolled together, then the second rolls of its missed shots, then each hit
  is resolved in turn, the target's first.
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
    table,
    tint,
)

T = TypeVar("T")

Happening = dict[str, Any]


class Roller(Protocol):
    """The dice: ``count`` dice of ``sides`` sides for ``purpose``, their faces in order."""

    def __call__(self, purpose: str, count: int, sides: int) -> tuple[int, ...]: ...


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

    def __call__(self, purpose: str, count: int, sides: int) -> tuple[int, ...]:
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
        faces = tuple(self.roller(purpose, count, sides))
        if len(faces) != count or any(not 1 <= face <= sides for face in faces):
            raise ValueError(f"{purpose}: the roller gave {faces} for {count}d{sides}")
        mods = dict(modifiers or {})
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
