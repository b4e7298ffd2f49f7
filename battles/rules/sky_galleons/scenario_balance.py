"""How a scenario's sides weigh against each other, by the designer's advice on balance (SG-SCN-48..50).

The advice is for players making new scenarios: fleets of similar cost, the Martians allowed up to half as
much money again (SG-SCN-48); with ships already designed, twice the British tonnage in Martian ships for
a good fight (SG-SCN-49); crew quality can make up for being outgunned (SG-SCN-50). ``balance(data)``
checks a scenario (scenario.parse) and totals each side's warships from the catalog or the design rules:
cost, tonnage, hull boxes, guns and crews, then weighs the sides against the figures in
``data/scenario-balance.json``. Advice, not rules: nothing here stops a battle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from battles.engine.jsonread import DataFile
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.datafiles import DATA_DIR
from galleons import catalog, design
from galleons.record import ShipRecord, tstrs

BALANCE_TABLES = DataFile(DATA_DIR / "scenario-balance.json")
BRITISH, MARTIAN = "british", "martian"
# The ground a side may have (ordnance_play.ground_setup), by its records' emplacement, in the report's words.
GROUND_WORDS = {
    "battery": "ground batteries",
    "city": "city hexes",
    "fortress": "fortress hexes",
    "minefield": "mined hexes",
}


def _ratio(*path: str) -> Fraction:
    """A guideline's ratio as an exact fraction (1.5 is 3/2)."""
    value = BALANCE_TABLES.get(*path)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"scenario-balance.json {'/'.join(path)}: expected a number, got {value!r}")
    return Fraction(str(value))


@dataclass(frozen=True)
class ShipStrength:
    """One warship as the scenario sets her up: what she cost, weighs and carries into the fight."""

    name: str
    ship_class: str
    yard: str
    designed: bool  # from a design (rated by the design rules), not a catalog class
    cost: int
    tonnage: int
    hull_boxes: int
    guns: int
    crew_quality: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "class": self.ship_class,
            "yard": self.yard,
            "designed": self.designed,
            "cost": self.cost,
            "tonnage": self.tonnage,
            "hull_boxes": self.hull_boxes,
            "guns": self.guns,
            "crew_quality": self.crew_quality,
        }


@dataclass(frozen=True)
class SideStrength:
    """A side's warships totalled, and what it has that the design rules do not price."""

    id: str
    name: str
    ships: tuple[ShipStrength, ...]
    not_counted: tuple[str, ...]

    @property
    def yard(self) -> str | None:
        """The yard every warship of the side came from; None for a side with ships of both (or none)."""
        yards = {ship.yard for ship in self.ships}
        return yards.pop() if len(yards) == 1 else None

    @property
    def designed(self) -> bool:
        return any(ship.designed for ship in self.ships)

    @property
    def cost(self) -> int:
        return sum(ship.cost for ship in self.ships)

    @property
    def tonnage(self) -> int:
        return sum(ship.tonnage for ship in self.ships)

    @property
    def hull_boxes(self) -> int:
        return sum(ship.hull_boxes for ship in self.ships)

    @property
    def guns(self) -> int:
        return sum(ship.guns for ship in self.ships)

    @property
    def crews(self) -> dict[str, int]:
        """Ships by crew quality, worst first."""
        counted = Counter(ship.crew_quality for ship in self.ships)
        return {quality: counted[quality] for quality in tstrs("ship_record", "crew_qualities") if counted[quality]}

    @property
    def crew_rank(self) -> Fraction:
        """The mean crew quality of its ships: Green 0, Trained 1, Crack 2 (SG-SCN-50)."""
        order = tstrs("ship_record", "crew_qualities")
        if not self.ships:
            return Fraction(0)
        return Fraction(sum(order.index(ship.crew_quality) for ship in self.ships), len(self.ships))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "yard": self.yard,
            "warships": len(self.ships),
            "cost": self.cost,
            "tonnage": self.tonnage,
            "hull_boxes": self.hull_boxes,
            "guns": self.guns,
            "crews": self.crews,
            "crew_rank": round(float(self.crew_rank), 3),
            "ships": [ship.to_json() for ship in self.ships],
            "not_counted": list(self.not_counted),
        }


@dataclass(frozen=True)
class Balance:
    """A scenario's sides and how they weigh against the designer's advice.

    ``money_ratio`` and ``tonnage_ratio`` are the Martian side's over the British side's, for a British-yard
    side against a Martian-yard side; otherwise ``money_ratio`` is the dearest side's cost over the
    cheapest's and the verdicts are None. ``crews_offset`` is the side whose better crews offset the other's
    guns (two sides only), None when neither does.
    """

    slug: str
    title: str
    sides: tuple[SideStrength, ...]
    british: str | None
    martian: str | None
    money_ratio: Fraction | None
    money_in_guideline: bool | None  # SG-SCN-48
    tonnage_ratio: Fraction | None
    tonnage_in_guideline: bool | None  # SG-SCN-49
    crews_offset: str | None  # SG-SCN-50

    def side(self, side_id: str) -> SideStrength:
        return next(side for side in self.sides if side.id == side_id)

    def to_json(self) -> dict[str, Any]:
        def shown(ratio: Fraction | None) -> float | None:
            return None if ratio is None else round(float(ratio), 3)

        return {
            "slug": self.slug,
            "title": self.title,
            "british": self.british,
            "martian": self.martian,
            "money": {
                "clause": "SG-SCN-48",
                "ratio": shown(self.money_ratio),
                "guideline": [float(_ratio("money", "martian_over_british_min")), float(money_limit())],
                "in_guideline": self.money_in_guideline,
            },
            "tonnage": {
                "clause": "SG-SCN-49",
                "ratio": shown(self.tonnage_ratio),
                "guideline_min": float(_ratio("tonnage", "martian_over_british_min")),
                "in_guideline": self.tonnage_in_guideline,
            },
            "crews": {"clause": "SG-SCN-50", "offset_by": self.crews_offset},
            "sides": [side.to_json() for side in self.sides],
        }


def money_limit() -> Fraction:
    """How much more money the Martian side may have than the British (SG-SCN-48): 1.5 times."""
    return _ratio("money", "martian_over_british_max")


def _ship_strength(record: ShipRecord, entry: Mapping[str, Any], quality: str) -> ShipStrength:
    """A warship's figures: the catalog's price and tonnage for a class, the rater's for a design."""
    if "design" in entry:
        rating = design.rate_design(design.parse_design(entry["design"]))
        yard: str = rating.design.yard
        cost, tonnage, designed = round(rating.price), round(rating.tonnage), True
    else:
        ship = catalog.ship_class(str(entry["class"]))
        if ship.yard_type is None or ship.price is None or ship.tonnage is None:
            raise ValueError(f"{record.name}: the catalog has no yard, price or tonnage for {ship.name}")
        yard, cost, tonnage, designed = ship.yard_type, ship.price, ship.tonnage, False
    return ShipStrength(
        name=record.name,
        ship_class=record.class_name,
        yard=yard,
        designed=designed,
        cost=cost,
        tonnage=tonnage,
        hull_boxes=sum(row.boxes for row in record.hull_rows),
        guns=len(record.guns),
        crew_quality=quality,
    )


def _chosen_crews(rules: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Ship name -> crew quality a crack_crew_choice rule gives its default ship (SG-SCN-44)."""
    return {
        str(rule["default"]): str(rule["quality"])
        for rule in rules
        if rule["rule"] == "crack_crew_choice" and rule.get("default")
    }


def _not_counted(side: scenario.SideSetup, rules: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """What the side brings that the design rules do not price, each in a few words."""
    found = [f"merchant {ship.record.name}" for ship in side.ships if ship.role == "merchant"]
    kinds = Counter(record.emplacement or "ground" for record in side.ground)
    found += [f"{count} {GROUND_WORDS.get(kind, kind)}" for kind, count in sorted(kinds.items())]
    if side.flyers:
        found.append(f"{len(side.flyers)} flying parties ({sum(p.men.men for p in side.flyers)} men)")
    for rule in rules:
        if rule["rule"] == "reinforcements" and rule["side"] == side.id:
            found.append(f"reinforcements ({', '.join(str(c) for c in rule['classes'])})")
    return tuple(found)


def sides_strength(data: Mapping[str, Any]) -> tuple[scenario.Scenario, tuple[SideStrength, ...]]:
    """Check the scenario and total each side's warships. Raises ScenarioError for an unplayable one."""
    checked = scenario.parse(dict(data))
    chosen = _chosen_crews(checked.rules)
    sides = []
    for side, side_data in zip(checked.sides, data["sides"], strict=True):
        entries = {str(entry["name"]): entry for entry in side_data["ships"]}
        ships = tuple(
            _ship_strength(s.record, entries[s.record.name], chosen.get(s.record.name, s.record.crew_quality))
            for s in side.ships
            if s.role == "warship"
        )
        sides.append(SideStrength(side.id, side.name, ships, _not_counted(side, checked.rules)))
    return checked, tuple(sides)


def _crews_offset(sides: Sequence[SideStrength]) -> str | None:
    """The side that has fewer guns and the better crews (SG-SCN-50), of two."""
    if len(sides) != 2:
        return None
    weaker, stronger = sorted(sides, key=lambda side: side.guns)
    if weaker.guns < stronger.guns and weaker.crew_rank > stronger.crew_rank:
        return weaker.id
    return None


def balance(data: Mapping[str, Any]) -> Balance:
    """Weigh a scenario's sides against the designer's advice (SG-SCN-48..50)."""
    checked, sides = sides_strength(data)
    british = [side for side in sides if side.yard == BRITISH]
    martian = [side for side in sides if side.yard == MARTIAN]
    crews_offset = _crews_offset(sides)
    if len(sides) == 2 and len(british) == 1 and len(martian) == 1:
        earth, mars = british[0], martian[0]
        money = Fraction(mars.cost, earth.cost)
        tons = Fraction(mars.tonnage, earth.tonnage)
        catalog_only = not (earth.designed or mars.designed)
        return Balance(
            slug=checked.slug,
            title=checked.title,
            sides=sides,
            british=earth.id,
            martian=mars.id,
            money_ratio=money,
            money_in_guideline=_ratio("money", "martian_over_british_min") <= money <= money_limit(),
            tonnage_ratio=tons,
            tonnage_in_guideline=tons >= _ratio("tonnage", "martian_over_british_min") if catalog_only else None,
            crews_offset=crews_offset,
        )
    costs = [side.cost for side in sides if side.cost]
    return Balance(
        slug=checked.slug,
        title=checked.title,
        sides=sides,
        british=None,
        martian=None,
        money_ratio=Fraction(max(costs), min(costs)) if costs else None,
        money_in_guideline=None,
        tonnage_ratio=None,
        tonnage_in_guideline=None,
        crews_offset=crews_offset,
    )


def describe(weighed: Balance) -> str:
    """The balance as a few lines of text, for ``simulate_battle --balance``."""
    lines = [f"{weighed.title} ({weighed.slug})"]
    for side in weighed.sides:
        crews = ", ".join(f"{count} {quality}" for quality, count in side.crews.items())
        lines.append(
            f"  {side.name} [{side.id}, {side.yard or 'mixed'} yard]: {len(side.ships)} warships, "
            f"£{side.cost:,}, {side.tonnage:,} t, {side.hull_boxes} hull boxes, {side.guns} guns; crews {crews}"
        )
        if side.not_counted:
            lines.append(f"    not priced: {', '.join(side.not_counted)}")
    if weighed.british and weighed.martian and weighed.money_ratio is not None:
        lines.append(
            f"  money (SG-SCN-48): Martians {float(weighed.money_ratio):.2f}x the British, guideline "
            f"{float(_ratio('money', 'martian_over_british_min')):g}-{float(money_limit()):g}x: "
            f"{'within' if weighed.money_in_guideline else 'outside'}"
        )
        assert weighed.tonnage_ratio is not None
        verdict = {True: "enough", False: "short", None: "designed ships: use the money guideline"}
        lines.append(
            f"  tonnage (SG-SCN-49): Martians {float(weighed.tonnage_ratio):.2f}x the British, at least "
            f"{float(_ratio('tonnage', 'martian_over_british_min')):g}x for a good fight: "
            f"{verdict[weighed.tonnage_in_guideline]}"
        )
    elif weighed.money_ratio is not None:
        lines.append(f"  money (SG-SCN-48): the dearest side costs {float(weighed.money_ratio):.2f}x the cheapest")
    offset = weighed.crews_offset
    lines.append(
        "  crews (SG-SCN-50): "
        + (f"{weighed.side(offset).name} makes up for fewer guns with better crews" if offset else "no offset")
    )
    return "\n".join(lines)
