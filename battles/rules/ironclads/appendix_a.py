"""Appendix A as a tool: a ship's Data Card from her particulars (IC-CARD-02..29), with the working shown line by line
as the text's worked examples show it. Pure.

- Guns (IC-CARD-03..11, 16..24): each gun's class by its weight of shot or its calibre (the smoothbore or rifled
  column; an unknown bore is read as smoothbore; where shot and calibre disagree the heavier class wins); each arc or
  turret adds its guns' stats, then rounds the sum up once, then is held to its boxes (25 a broadside, 10 the
  forward and rear arcs and each turret).
- Armour (IC-CARD-12..15, 25): iron inches plus a tenth of the wood backing (6 in of wood where its thickness is
  unknown), rounded up, at most 7; no iron, no Armour.
- Propulsion (IC-CARD-27): a stat per knot, rounded up, at most 20: the text states no cap but the card has 20 boxes
  (IC-CARD-01/48), so a faster ship is held to the card (docs/ironclads.md, "Data Cards and Appendix A").
- Hull (IC-CARD-28/29): a stat per 1,000 tons or part, at most 12; a monitor's doubled, still at most 12.

The table is data (``data/gun_classes.json``). The text's Roanoke counts one Heavy gun at 1.0 (IC-CARD-44); here the
table governs, as for every other gun, so her centre turret has 4 stats where the text's card shows 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Final

from battles.engine.jsonread import read_json_object, read_list, read_object, read_str
from battles.rules.ironclads.cards import (
    ARMOUR,
    BOXES,
    FORWARD,
    HULL,
    PORT,
    PROPULSION,
    REAR,
    STARBOARD,
    DataCard,
    card,
)
from battles.rules.ironclads.particulars import RIFLED, UNKNOWN_WOOD, Gun, Particulars, figure

DATA = Path(__file__).resolve().parent / "data"
WOOD_WHEN_UNKNOWN: Final = Fraction(6)  # IC-CARD-14
WOOD_PER_IRON_INCH: Final = 10  # IC-CARD-13: ten inches of wood stand for an inch of iron
TONS_PER_HULL: Final = 1000  # IC-CARD-28

TRACK_WORDS: Final = {
    FORWARD: "Forward arc",
    PORT: "Port broadside",
    STARBOARD: "Starboard broadside",
    REAR: "Rear arc",
    "forward turret": "Forward turret",
    "centre turret": "Centre turret",
    "rear turret": "Rear turret",
    ARMOUR: "Armour",
    PROPULSION: "Propulsion",
    HULL: "Hull",
}


@dataclass(frozen=True, slots=True)
class GunClass:
    """A row of the Gun Class table: the most shot and calibre of the class (None: no upper limit) and its stats."""

    name: str
    shot_lb: Fraction | None
    smoothbore_in: Fraction | None
    rifled_in: Fraction | None
    stats_per_gun: Fraction


def _limit(value: object) -> Fraction | None:
    return None if value is None else Fraction(str(value))


@cache
def gun_classes() -> tuple[GunClass, ...]:
    """The table, lightest class first (IC-CARD-04..09, 17..22)."""
    rows = read_list(read_json_object(DATA / "gun_classes.json")["classes"])
    return tuple(
        GunClass(
            name=read_str(row["name"]),
            shot_lb=_limit(row["shot_lb"]),
            smoothbore_in=_limit(row["smoothbore_in"]),
            rifled_in=_limit(row["rifled_in"]),
            stats_per_gun=Fraction(read_str(row["stats_per_gun"])),
        )
        for row in (read_object(r) for r in rows)
    )


def _first_fitting(value: Fraction, limits: list[Fraction | None]) -> int:
    """The lightest class whose limit holds ``value`` ("over the last limit, up to this one")."""
    return next(i for i, top in enumerate(limits) if top is None or value <= top)


def classify(gun: Gun) -> tuple[GunClass, str]:
    """A gun's class and why (IC-CARD-03/10/11): by shot, by calibre in its bore's column (smoothbore when the bore
    is unknown), the heavier where both are known."""
    table = gun_classes()
    found: list[tuple[int, str]] = []
    if gun.shot_lb is not None:
        index = _first_fitting(gun.shot_lb, [c.shot_lb for c in table])
        found.append((index, f"{figure(gun.shot_lb)} lb shot: {table[index].name}"))
    if gun.calibre_in is not None:
        rifled = gun.bore == RIFLED
        limits = [c.rifled_in if rifled else c.smoothbore_in for c in table]
        index = _first_fitting(gun.calibre_in, limits)
        column = "rifled" if rifled else "smoothbore" if gun.bore != "unknown" else "smoothbore (bore unknown)"
        found.append((index, f"{figure(gun.calibre_in)} in {column}: {table[index].name}"))
    if not found:
        raise ValueError(f"{gun}: neither a calibre nor a weight of shot")
    index = max(i for i, _ in found)
    why = "; ".join(w for _, w in found)
    if len(found) == 2 and found[0][0] != found[1][0]:
        why += f"; the heavier class, {table[index].name}"
    return table[index], why


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the working: the track it rates and what it says."""

    track: str
    text: str


@dataclass(frozen=True, slots=True)
class Rating:
    """The card Appendix A gives a ship and the working that gives it."""

    particulars: Particulars
    card: DataCard
    working: tuple[Line, ...]

    def lines(self, track: str | None = None) -> tuple[str, ...]:
        return tuple(f"{TRACK_WORDS[w.track]}: {w.text}" for w in self.working if track in (None, w.track))


def gun_stats(track: str, guns: tuple[Gun, ...]) -> tuple[int, list[Line]]:
    """An arc's or a turret's stats (IC-CARD-16..24): each class's guns times its stats a gun, summed, the sum
    rounded up once, held to the track's boxes."""
    lines: list[Line] = []
    by_class: dict[str, tuple[GunClass, int, list[str]]] = {}
    for gun in guns:
        gun_class, why = classify(gun)
        lines.append(Line(track, f"{gun}: {why}"))
        _, count, named = by_class.get(gun_class.name, (gun_class, 0, []))
        by_class[gun_class.name] = (gun_class, count + gun.count, [*named, str(gun)])
    parts: list[Fraction] = []
    for gun_class, count, _ in sorted(by_class.values(), key=lambda entry: -entry[0].stats_per_gun):
        part = count * gun_class.stats_per_gun
        parts.append(part)
        each = f"{float(gun_class.stats_per_gun):.1f}"  # the table's own way: 2.0, not 2
        lines.append(Line(track, f"{count} {gun_class.name} x {each} = {figure(part)}"))
    total = sum(parts, Fraction(0))
    stats = math.ceil(total)
    summed = " + ".join(figure(p) for p in parts)
    said = f"{summed} = {figure(total)}" if len(parts) > 1 else figure(total)
    said += f", rounded up = {stats}" if total.denominator != 1 else ""
    capped = min(stats, BOXES[track])
    if capped < stats:
        said += f", held to the card's {BOXES[track]} boxes = {capped}"
    lines.append(Line(track, f"{said} stats"))
    return capped, lines


def armour_stats(ship: Particulars) -> tuple[int, list[Line]]:
    """Effective armour (IC-CARD-12..15, 25): iron plus wood / 10, rounded up, at most 7."""
    if ship.belt_iron_in <= 0:
        return 0, [Line(ARMOUR, "no iron armour = 0 stats: a wooden screw ship")]
    iron = ship.belt_iron_in
    parts = [f"{figure(iron)} in iron = {figure(iron)} in"]
    wood: Fraction | None = None
    if ship.wood_backing_in == UNKNOWN_WOOD:
        wood = WOOD_WHEN_UNKNOWN
        parts.append(f"wood backing of unknown thickness, taken as {figure(wood)} in")
    elif isinstance(ship.wood_backing_in, Fraction) and ship.wood_backing_in > 0:
        wood = ship.wood_backing_in
    total = iron
    if wood is not None:
        equivalent = wood / WOOD_PER_IRON_INCH
        parts.append(f"{figure(wood)} in wood / {WOOD_PER_IRON_INCH} = {figure(equivalent)} in")
        total = iron + equivalent
        parts.append(f"{figure(iron)} + {figure(equivalent)} = {figure(total)} in")
    stats = math.ceil(total)
    said = f"rounded up = {stats}" if total.denominator != 1 else f"{stats}"
    capped = min(stats, BOXES[ARMOUR])
    if capped < stats:
        said += f", held to the limit of {BOXES[ARMOUR]}"
    kind = "a tinclad" if capped <= 2 else "an ironclad"
    return capped, [Line(ARMOUR, f"{'; '.join(parts)}; {said}: {capped} stats, {kind}")]


def propulsion_stats(ship: Particulars) -> tuple[int, list[Line]]:
    """A stat per knot, rounded up, held to the card's 20 boxes (IC-CARD-27)."""
    knots = ship.speed_knots
    stats = math.ceil(knots)
    said = f"{figure(knots)} knots" + (f", rounded up = {stats}" if knots.denominator != 1 else f" = {stats}")
    capped = min(stats, BOXES[PROPULSION])
    if capped < stats:
        said += f", held to the card's {BOXES[PROPULSION]} boxes = {capped}"
    return capped, [Line(PROPULSION, f"{said} stats")]


def hull_stats(ship: Particulars) -> tuple[int, list[Line]]:
    """A stat per 1,000 tons or part, at most 12; a monitor's doubled, still at most 12 (IC-CARD-28/29)."""
    tons = ship.displacement_tons
    per = -(-tons // TONS_PER_HULL)
    stats = min(per, BOXES[HULL])
    said = f"{tons:,} tons = {per}" + (f", held to {BOXES[HULL]}" if stats < per else "")
    if ship.monitor:
        doubled = stats * 2
        stats = min(doubled, BOXES[HULL])
        said += f"; a monitor, so doubled to {doubled}" + (f", held to {BOXES[HULL]}" if stats < doubled else "")
    else:
        said += "; not a monitor"
    return stats, [Line(HULL, f"{said} = {stats} stats")]


def rate(ship: Particulars) -> Rating:
    """Her Data Card and the working (Appendix A)."""
    stats: dict[str, int] = {}
    working: list[Line] = []
    for arc, guns in ship.arcs:
        stats[arc], lines = gun_stats(arc, guns)
        working += lines
    for turret in ship.turrets:
        stats[turret.name], lines = gun_stats(turret.name, turret.guns)
        working += lines
    for track, rater in ((ARMOUR, armour_stats), (PROPULSION, propulsion_stats), (HULL, hull_stats)):
        stats[track], lines = rater(ship)
        working += lines
    data_card = card(
        ship.name,
        stats,
        nation=ship.nation,
        years=ship.years,
        sisters=ship.sisters,
        turret_arcs={t.name: t.bears for t in ship.turrets},
        monitor=ship.monitor,
    )
    return Rating(ship, data_card, tuple(working))
