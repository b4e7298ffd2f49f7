"""Salvoes (IC-FIRE-01..12; docs/ironclads.md "Fire and damage"): which gun tracks fire at which target, how many
dice each salvo rolls, and what each face scores. No dice are rolled here: the Firing Phase rolls ``Salvo.dice``
through the engine with ``needed(band)`` and passes the faces to ``score``.

A ship's fire orders name a target for each gun track that fires (a mapping, so a fixed arc or a turret can only
ever have one target: a turret cannot split, IC-FIRE-03). Every fixed arc fires its own salvo (IC-FIRE-01);
the turrets firing at one target are summed into one salvo (IC-FIRE-02); a fixed arc and turrets at the same target
are separate salvoes, each with its own armour save (IC-SAVE-01).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from battles.engine import dice
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import arcs, zone
from battles.rules.ironclads.arcs import Refusal
from battles.rules.ironclads.cards import ARCS, ARMOUR, GUN_TRACKS, TURRETS, DataCard
from battles.rules.ironclads.scale import CLOSE, LONG, MIDDLE

ARMOUR_HALVES_AT: Final = 3  # a target with this many Armour stats left or more halves the dice (IC-FIRE-06)
CRITICAL, HIT, MISS = "critical", "hit", "miss"

# What each face scores in each band (IC-FIRE-09..11): (low, high, outcome), inclusive.
_FACES: Final[Mapping[str, tuple[tuple[int, int, str], ...]]] = {
    LONG: ((5, 6, HIT),),
    MIDDLE: ((4, 4, CRITICAL), (5, 6, HIT)),
    CLOSE: ((3, 4, CRITICAL), (5, 6, HIT)),
}


@dataclass(frozen=True, slots=True)
class Score:
    """What a salvo scored, or what of it the armour left: criticals (C) and ordinary hits (H)."""

    criticals: int = 0
    hits: int = 0

    @property
    def total(self) -> int:
        return self.criticals + self.hits


@dataclass(frozen=True, slots=True)
class Sight:
    """What one ship sees of one target: the tracks that bear on her, the range band (None beyond reach), whether
    the Zone of Fire is clear, the Armour she has left, and the arcs of hers a hit would be fired into."""

    target: str
    tracks: tuple[str, ...]
    band: str | None
    clear: bool
    armour_left: int
    fired_into: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Salvo:
    """One salvo: the tracks firing together, their stats, the dice to roll and the band that reads them."""

    target: str
    tracks: tuple[str, ...]
    stats: int
    dice: int
    band: str
    fired_into: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """A ship's fire orders checked: the salvoes to roll, and every order refused with its clause."""

    salvoes: tuple[Salvo, ...]
    refusals: tuple[Refusal, ...]


def sight(
    data_card: DataCard,
    ship: Hex,
    facing: int,
    target: str,
    target_card: DataCard,
    target_hex: Hex,
    target_facing: int,
    obstacles: Collection[Hex],
) -> Sight:
    """Her view of one target from the map: arcs (IC-ARC-07/09), range (IC-ZOF-03/04), Zone of Fire
    (IC-ZOF-01/02; ``obstacles`` are every other ship's hex and the land)."""
    return Sight(
        target=target,
        tracks=arcs.bearing_tracks(data_card, ship, facing, target_hex),
        band=zone.range_band(ship, target_hex),
        clear=zone.clear(ship, target_hex, obstacles),
        armour_left=target_card.left(ARMOUR),
        fired_into=arcs.fired_into(target_hex, target_facing, ship),
    )


def halved(count: int) -> int:
    """Half, rounded up (IC-FIRE-06/07/08)."""
    return (count + 1) // 2


def salvo_dice(stats: int, armour_left: int, *, rough: bool = False, on_fire: bool = False) -> int:
    """1D6 a stat (IC-FIRE-05), halved if the target has 3+ Armour left (IC-FIRE-06), halved again in a rough sea
    (IC-FIRE-07), halved once more, last, while she is on fire (IC-FIRE-08), each rounding up."""
    count = stats
    if armour_left >= ARMOUR_HALVES_AT:
        count = halved(count)
    if rough:
        count = halved(count)
    if on_fire:
        count = halved(count)
    return count


def needed(band: str) -> dice.Needed:
    """What each face of a salvo scores at this range, for the roll's log (IC-FIRE-09..11)."""
    text = {LONG: "5-6 a hit", MIDDLE: "4 a critical, 5-6 a hit", CLOSE: "3-4 a critical, 5-6 a hit"}[band]
    return dice.each_die(text, _FACES[band], MISS)


def score(band: str, faces: Sequence[int]) -> Score:
    """Count the criticals and hits among the faces rolled (IC-FIRE-09..11)."""
    rule = needed(band)
    outcomes = [rule.judge(face) for face in faces]
    return Score(criticals=outcomes.count(CRITICAL), hits=outcomes.count(HIT))


def collided(has_collided: bool) -> Refusal | None:
    """A ship in a collision this turn fires nothing (IC-COL-08); the flag is the board's."""
    if has_collided:
        return Refusal("IC-COL-08", "she collided this turn: her crew are bracing and shoring, not firing")
    return None


def _refusal(data_card: DataCard, track: str, seen: Sight | None, target: str) -> Refusal | None:
    if track not in GUN_TRACKS:
        return Refusal("IC-CARD-01", f"{track!r} is not a gun track")
    if seen is None:
        return Refusal("IC-FIRE-01", f"no such target as {target}")
    if not data_card.left(track):
        return Refusal("IC-FIRE-04", f"the {track} has no stats left to fire")
    if track not in seen.tracks:
        clause = "IC-ARC-07" if track in ARCS else "IC-ARC-08"
        return Refusal(clause, f"the {track} does not bear on {target}")
    if seen.band is None:
        return Refusal("IC-ZOF-03", f"{target} is beyond the guns' 100 cm")
    if not seen.clear:
        return Refusal("IC-ZOF-02", f"the Zone of Fire to {target} is not clear")
    return None


def plan(
    data_card: DataCard,
    orders: Mapping[str, str],
    sights: Mapping[str, Sight],
    *,
    rough: bool = False,
    on_fire: bool = False,
    has_collided: bool = False,
) -> Plan:
    """Check a ship's fire orders (gun track -> target) against what she sees, and group them into salvoes: one
    for each fixed arc, one for all the turrets at each target. Refused orders fire nothing."""
    stopped = collided(has_collided)
    if stopped is not None:
        return Plan((), (stopped,) if orders else ())
    refusals: list[Refusal] = []
    fixed: list[Salvo] = []
    turrets: dict[str, list[str]] = {}
    for track in sorted(orders, key=lambda t: GUN_TRACKS.index(t) if t in GUN_TRACKS else len(GUN_TRACKS)):
        target = orders[track]
        seen = sights.get(target)
        refused = _refusal(data_card, track, seen, target)
        if refused is not None:
            refusals.append(refused)
        elif track in TURRETS:
            turrets.setdefault(target, []).append(track)
        else:
            fixed.append(_salvo(data_card, (track,), _seen(seen), rough, on_fire))
    summed = [_salvo(data_card, tuple(group), _seen(sights.get(t)), rough, on_fire) for t, group in turrets.items()]
    return Plan(tuple(fixed + summed), tuple(refusals))


def _seen(seen: Sight | None) -> Sight:
    if seen is None:  # _refusal has refused every order without a sight
        raise AssertionError("an order without a target passed")
    return seen


def _salvo(data_card: DataCard, tracks: tuple[str, ...], seen: Sight, rough: bool, on_fire: bool) -> Salvo:
    stats = sum(data_card.left(t) for t in tracks)
    if seen.band is None:
        raise AssertionError("a salvo beyond reach passed")
    return Salvo(
        target=seen.target,
        tracks=tracks,
        stats=stats,
        dice=salvo_dice(stats, seen.armour_left, rough=rough, on_fire=on_fire),
        band=seen.band,
        fired_into=seen.fired_into,
    )
