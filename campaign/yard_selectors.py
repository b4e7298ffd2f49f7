"""Reads for the Parhoon yard: what it can build and at what price (SGC-START-02..09), the live quote for a
design, what a ship is fitted with now, and her repair bill (SGC-REPAIR-01..06, SGC-MONEY-03/07).

The rules of ship design are the engine's (galleons.design): a design is legal when the rater
reports no violation, and Parhoon builds it when none of the violations is one the rater raises for a Martian
yard (campaign-rules.json yard/yard_clauses). Nothing here writes; campaign.yard does.

How a ship's whole state is known without storing a second record: her fresh record (from her catalog class, or
from the design she was commissioned to) gives the crew at every post and the stores she carries; her guns are
those on her record now (a refit changes them), each as it was fitted: whole, unjammed, manned by its own crew.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError

from campaign import economy
from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, ShipStatus
from galleons import catalog, design
from galleons.design import DesignInputError, RuleViolation, ShipDesign, ShipRating
from galleons.record import (
    NO_PARTY,
    Criticals,
    Gun,
    HullRow,
    ShipRecord,
    ordnance_kinds,
    ship_record_from_class,
    ship_record_from_design,
)

PARHOON = "parhoon"
# A ship no yard will work on again, so no repair bill is drawn for her: lost, or sold away.
GONE_FROM_THE_YARD = (ShipStatus.LOST, ShipStatus.SOLD, ShipStatus.CROWN)
MARTIAN = "martian"


def yard_clauses() -> tuple[str, ...]:
    """The rater's clauses that say a Martian yard cannot build something (SGC-START-03..06)."""
    return economy.RULES.texts("yard", "yard_clauses")


def whole_pounds(pounds: Fraction | int) -> int:
    """A yard bill in whole pounds, rounded up (designed: the yard does not work for shillings)."""
    return math.ceil(pounds)


# --- what Parhoon builds --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Parhoon's answer on a rated design: ``problems`` empty when it will build her, at ``price``."""

    price: int
    problems: tuple[RuleViolation, ...]

    @property
    def buildable(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"buildable": self.buildable, "price": self.price, "problems": [p.to_json() for p in self.problems]}


def parhoon_verdict(rating: ShipRating, *, catalog_class: bool = False) -> Verdict:
    """Whether Parhoon builds this rated design (SGC-START-02..08).

    A new design must break no design rule at all. A catalog class keeps its published figures (DESIGN.md
    section 8): only what a Martian yard cannot build refuses it, not the mount or balance readings the rater
    applies to designs the ship was drawn before."""
    problems: list[RuleViolation] = []
    if rating.design.yard != MARTIAN:
        problems.append(
            RuleViolation("SGC-START-02", "yard", "Parhoon is a Martian yard: a ship built there is Martian-built")
        )
    clauses = yard_clauses()
    problems += [e for e in rating.errors if catalog_class is False or e.clause in clauses]
    return Verdict(whole_pounds(rating.price), tuple(problems))


@dataclass(frozen=True)
class ClassQuote:
    """A catalog class at Parhoon: its catalog price and whether the yard builds it."""

    class_id: str
    name: str
    propulsion: str
    hull_size: int
    price: int
    problems: tuple[RuleViolation, ...]

    @property
    def buildable(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "class_id": self.class_id,
            "name": self.name,
            "propulsion": self.propulsion,
            "hull_size": self.hull_size,
            "price": self.price,
            "buildable": self.buildable,
            "problems": [p.to_json() for p in self.problems],
        }


def class_quote(class_id: str) -> ClassQuote:
    """A catalog class as Parhoon sees it. Raises catalog.UnknownShipClass (a KeyError) for an unknown class."""
    ship = catalog.ship_class(class_id)
    problems: list[RuleViolation] = []
    if (
        not ship.has_figures
        or ship.price is None
        or ship.crew is None
        or ship.speed is None
        or ship.max_altitude is None
    ):
        problems.append(RuleViolation("SGC-START-02", "class", f"the catalog has no figures to build {ship.name} from"))
        return ClassQuote(ship.id, ship.name, "", ship.hull_size or 0, ship.price or 0, tuple(problems))
    rating = design.rate_design(design.design_from_catalog(ship))
    verdict = parhoon_verdict(rating, catalog_class=True)
    # Catalog ships are sold at their published price (DESIGN.md section 8), not the rater's sum.
    return ClassQuote(
        ship.id, ship.name, rating.design.propulsion.type, ship.hull_size or 0, ship.price, verdict.problems
    )


def parhoon_classes(*, buildable_only: bool = True) -> list[ClassQuote]:
    """The catalog classes Parhoon builds (or every class with its refusal), cheapest first."""
    quotes = [class_quote(ship.id) for ship in catalog.ship_classes()]
    if buildable_only:
        quotes = [q for q in quotes if q.buildable]
    return sorted(quotes, key=lambda q: (q.price, q.name))


@dataclass(frozen=True)
class ClassOnOffer:
    """A catalog class in Parhoon's list, with the figures a buyer compares (the catalog's published ones)."""

    quote: ClassQuote
    tonnage: int
    speed: int | str
    max_altitude: str
    crew: int
    guns: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.quote.to_json(),
            "tonnage": self.tonnage,
            "speed": self.speed,
            "max_altitude": self.max_altitude,
            "crew": self.crew,
            "guns": list(self.guns),
        }


def parhoon_catalog() -> list[ClassOnOffer]:
    """What Parhoon builds (``parhoon_classes``) with each class's tonnage, speed, ceiling, crew and guns."""
    offers = []
    for quote in parhoon_classes():
        ship = catalog.ship_class(quote.class_id)
        guns = tuple(
            f"{m.count} x {m.weapon_name}" + ("" if m.exotic else f" ({m.mount})") for m in ship.mounts if m.count
        )
        offers.append(
            ClassOnOffer(
                quote,
                tonnage=ship.tonnage or 0,
                speed=ship.speed if ship.speed is not None else "",
                max_altitude=ship.max_altitude or "",
                crew=ship.crew.total if ship.crew is not None else 0,
                guns=guns,
            )
        )
    return offers


def gun_weapons() -> tuple[catalog.Weapon, ...]:
    """Weapons that go on a gun mount (the rest are exotics carried in deck or internal space), in table order.
    British ones are listed too: the rater says why Parhoon refuses them (SGD-ARMT-15)."""
    return tuple(w for w in catalog.weapons() if not design.is_exotic_store(w.id))


def exotic_weapons() -> tuple[catalog.Weapon, ...]:
    return tuple(w for w in catalog.weapons() if design.is_exotic_store(w.id))


def yard_refusal(captain: Captain) -> str | None:
    """Why the Parhoon yard will not deal with this captain now, or None: it deals only with a captain ashore at
    Parhoon (SGC-REPAIR-01); one at sea, lost, captured or walking home on an epic trek is offered nothing."""
    if captain.status == CaptainStatus.ASHORE and captain.city == PARHOON:
        return None
    where = f" at {captain.city.title()}" if captain.city and captain.status == CaptainStatus.ASHORE else ""
    return (
        f"Captain {captain.name} is {captain.get_status_display().lower()}{where}: the Parhoon yard deals with him "
        "when he is ashore at Parhoon."
    )


def ship_budget(captain: Captain) -> int:
    """The most the captain may pay for a ship now: his balance, and for his first ship no more than the
    campaign's advance either (SGC-START-09). One query."""
    campaign: Campaign = captain.campaign
    if CampaignShip.objects.filter(captain=captain).exists():
        return captain.balance
    return min(captain.balance, campaign.starting_advance)


def at_parhoon(data: Any) -> Any:
    """A design ordered at Parhoon: the yard is Martian unless the design says otherwise (then refused)."""
    if isinstance(data, Mapping) and "yard" not in data:
        return {**data, "yard": MARTIAN}
    return data


def design_quote(data: Any) -> dict[str, Any]:
    """The live rater page's answer for a design as the player edits it: the engine's rating and Parhoon's
    verdict, or the input's problems when it cannot be rated yet (never raises for bad input)."""
    try:
        parsed = design.parse_design(at_parhoon(data))
    except DesignInputError as error:
        return {"input_errors": list(error.problems), "rating": None, "parhoon": None}
    rating = design.rate_design(parsed)
    return {"input_errors": [], "rating": rating.to_json(), "parhoon": parhoon_verdict(rating).to_json()}


def component_price(rating: ShipRating, prefix: str) -> int:
    """The price of the rater's first bill line starting with ``prefix`` ("hull (", "engine ES"...), or 0."""
    for component in rating.components:
        if component.name.startswith(prefix):
            return whole_pounds(component.pounds)
    return 0


def hull_price(rating: ShipRating) -> int:
    """The hull's own price: the hull line of the bill, not the ram nor the Martian protection (SGC-REPAIR-06,
    designed: those are components of their own)."""
    return component_price(rating, "hull (")


# --- what a ship is fitted with -------------------------------------------------------------------------------


def base_design(ship: CampaignShip) -> ShipDesign:
    """The design she was built to: her catalog class's, or the one she was commissioned to."""
    if ship.design:
        return design.parse_design(ship.design)
    return design.design_from_catalog(catalog.ship_class(ship.class_id))


def _turret_armor(gun: Gun) -> int:
    # A fixed mount takes the hull's armor (SGD-ARMT-12); any other armored gun has a turret or sponson.
    mounts: Mapping[str, Mapping[str, Any]] = design.design_tables()["mounts"]["table"]
    if gun.armor and mounts.get(gun.mount, {}).get("kind") != "fixed":
        return gun.armor
    return 0


def weapons_of(record: ShipRecord) -> tuple[design.WeaponMount, ...]:
    """The record's guns as design weapon mounts, one mount per gun, in the record's order (so the rating's guns
    line up with the record's)."""
    return tuple(design.WeaponMount(g.weapon_id, g.mount, 1, _turret_armor(g)) for g in record.guns)


def fitted_design(ship: CampaignShip) -> ShipDesign:
    """The design she is now: the one she was built to, with the guns her record carries (refits change them)."""
    return replace(base_design(ship), weapons=weapons_of(ship_record(ship)))


def ship_record(ship: CampaignShip) -> ShipRecord:
    return ShipRecord.from_json(ship.record)


def fresh_record(ship: CampaignShip) -> ShipRecord:
    """A new record of the ship she was built as, with her name and crew quality."""
    if ship.design:
        return ship_record_from_design(ship.design, name=ship.name, crew_quality=ship.crew_quality)
    return ship_record_from_class(ship.class_id, name=ship.name, crew_quality=ship.crew_quality)


def fitted_gun(gun: Gun) -> Gun:
    """A gun as the yard fits it: whole, clear, loaded, manned by its own crew unless its crew is borrowed from
    the deckhands (a parenthesised crew starts unmanned, SG-CG-93)."""
    manned = gun.crew if gun.weapon.crew_quarters_provided else 0
    return replace(gun, manned=manned, last_fired=None, destroyed=False, jammed=False, trained_turn=None)


def whole_record(ship: CampaignShip) -> ShipRecord:
    """The ship as she would leave the yard with everything repaired and every man aboard."""
    now = ship_record(ship)
    fresh = fresh_record(ship)
    return replace(fresh, guns=tuple(fitted_gun(g) for g in now.guns), hull_rows=rows_with_hits(now.hull_rows, 0))


def rows_with_hits(rows: Sequence[HullRow], hits: int) -> tuple[HullRow, ...]:
    """The rows with ``hits`` hits filled from the highest row down, as damage fills them (SG-DMG-13)."""
    out: list[HullRow] = []
    for row in rows:
        taken = min(row.boxes, hits)
        out.append(HullRow(row.altitude, row.boxes, taken))
        hits -= taken
    return tuple(out)


# --- the repair bill ------------------------------------------------------------------------------------------

HULL = "hull"
RECRUITS = "recruits"
SCREW_MAST = "screw_mast"
BOILER = "boiler"
COAL_BUNKER = "coal_bunker"
GUN = "gun:"
ORDNANCE = "ordnance:"
# Lines a captain may take part of ("hull:3" for three hits).
PARTIAL = (HULL, SCREW_MAST, COAL_BUNKER)


@dataclass(frozen=True)
class RepairLine:
    """One line of a repair bill: ``key`` is what the captain names to choose it."""

    key: str
    what: str
    clause: str
    quantity: int
    unit_price: int
    available: bool = True
    why_not: str = ""

    @property
    def price(self) -> int:
        return self.quantity * self.unit_price

    @property
    def partial(self) -> bool:
        return self.key in PARTIAL

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "what": self.what,
            "clause": self.clause,
            "quantity": self.quantity,
            "unit_price": self.unit_price,
            "price": self.price,
            "partial": self.partial,
            "available": self.available,
            "why_not": self.why_not,
        }


@dataclass(frozen=True)
class RepairBill:
    """What Parhoon would charge to make the ship whole (shown before the captain confirms). ``cleared`` lists
    what the yard puts right free with any repair (fires out, jams freed...)."""

    lines: tuple[RepairLine, ...]
    cleared: tuple[str, ...]

    @property
    def total(self) -> int:
        """Everything the yard can do, priced (lines it cannot do are not in the total)."""
        return sum(line.price for line in self.lines if line.available)

    @property
    def damage_total(self) -> int:
        """The bill without the new men: what the damage takes off a ship's value when she is sold."""
        return sum(line.price for line in self.lines if line.available and line.key != RECRUITS)

    def line(self, key: str) -> RepairLine:
        for line in self.lines:
            if line.key == key:
                return line
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        return {"lines": [line.to_json() for line in self.lines], "cleared": list(self.cleared), "total": self.total}


def _not_at_parhoon(weapon_id: str) -> str:
    if catalog.weapon(weapon_id).martian_yard:
        return ""
    return f"{catalog.weapon(weapon_id).name} is British: Parhoon does not make it (SGC-START-06)"


def _line(key: str, what: str, clause: str, quantity: int, unit: int, weapon_id: str | None = None) -> RepairLine:
    why_not = _not_at_parhoon(weapon_id) if weapon_id else ""
    return RepairLine(key, what, clause, quantity, unit, available=not why_not, why_not=why_not)


def ordnance_action(weapon_id: str, state: str) -> str | None:
    """What the yard does for a store in this state (campaign-rules.json yard/ordnance); None: nothing to do."""
    actions: Mapping[str, str] = economy.RULES.get("yard", "ordnance").get(weapon_id, {})
    return actions.get(state)


def repair_bill(ship: CampaignShip) -> RepairBill:
    """Every repair the ship needs, each with its clause and price (SGC-REPAIR-01..06, SGC-MONEY-03).

    Hull hits at the hull's price over its boxes over ten; a destroyed gun or component at half its cost;
    criticals at half the part they broke (designed, SGC-REPAIR-06); stores used in battle bought again at their
    price and stores destroyed at half; the men lost made up at the campaign's price a man (SGC-EXP-14)."""
    campaign: Campaign = ship.campaign
    now = ship_record(ship)
    whole = whole_record(ship)
    rating = design.rate_design(fitted_design(ship))
    lines: list[RepairLine] = []

    if now.hull_hits:
        price = ship.hull_price or hull_price(rating)
        unit = economy.hull_hit_repair_cost(price, now.hull_boxes)
        lines.append(_line(HULL, f"hull hits ({now.hull_boxes} boxes)", "SGC-REPAIR-04", now.hull_hits, unit))

    for gun, rated in zip(now.guns, rating.guns, strict=True):
        if gun.destroyed:
            unit = economy.component_repair_cost(whole_pounds(rated.pounds))
            what = f"{gun.name} [{gun.mount}] destroyed"
            lines.append(_line(f"{GUN}{gun.id}", what, "SGC-REPAIR-03", 1, unit, gun.weapon_id))

    c = now.criticals
    if c.screw_mast_hits:
        machinery = _propulsion_price(rating)
        unit = economy.component_repair_cost(whole_pounds(Fraction(machinery, now.hull_size)))
        what = "screw/mast hits" + (" (jury-rigged)" if c.jury_rigged else "")
        lines.append(_line(SCREW_MAST, what, "SGC-REPAIR-06", c.screw_mast_hits, unit))
    if c.boiler_blown:
        unit = economy.component_repair_cost(component_price(rating, "engine ES"))
        lines.append(_line(BOILER, "boiler blown: a new engine", "SGC-REPAIR-02", 1, unit))
    if now.coal_lost and now.endurance:
        bunker = component_price(rating, "coal bunker")
        unit = economy.component_repair_cost(whole_pounds(Fraction(bunker, now.endurance)))
        lines.append(_line(COAL_BUNKER, "coal bunker boxes lost", "SGC-REPAIR-06", now.coal_lost, unit))

    for item in now.ordnance:
        action = ordnance_action(item.weapon_id, item.state)
        if action is None or action == "reset":
            continue
        priced = action.split(":", 1)[1] if ":" in action else item.weapon_id
        cost = catalog.weapon(priced).cost_pounds
        unit = economy.component_repair_cost(cost) if action == "replace" else cost
        clause = "SGC-REPAIR-02" if action == "replace" else "SGC-REPAIR-06"
        what = f"{item.name} {item.id} {item.state}: " + ("replaced" if action == "replace" else "restocked")
        lines.append(_line(f"{ORDNANCE}{item.id}", what, clause, 1, unit, priced))

    lost = whole.men_alive - now.men_alive
    if lost > 0:
        unit = campaign.recruit_cost_per_man
        lines.append(_line(RECRUITS, "men recruited to replace those lost", "SGC-EXP-14", lost, unit))
    return RepairBill(tuple(lines), tuple(_cleared(now)))


def chosen_repairs(bill: RepairBill, lines: Sequence[str] | None) -> dict[str, int]:
    """The lines the captain chose (None: every line the yard can do), as key -> quantity. "hull:3" takes three
    of the hull's hits; only the hull, screw/mast and coal bunker lines may be taken in part (SGC-MONEY-07).
    Raises ValidationError naming the line for a choice not on the bill or not Parhoon's to make."""
    if lines is None:
        return {line.key: line.quantity for line in bill.lines if line.available}
    if isinstance(lines, str):
        raise ValidationError({"lines": "Name the repairs as a list of line keys."})
    chosen: dict[str, int] = {}
    for raw in lines:
        key, count = str(raw), ""
        head, _, tail = key.partition(":")
        if head in PARTIAL and tail:
            key, count = head, tail
        try:
            line = bill.line(key)
        except KeyError:
            known = ", ".join(line.key for line in bill.lines) or "none: she needs no repairs"
            raise ValidationError({"lines": f"No repair {key!r} on the bill; the lines are {known}."}) from None
        if not line.available:
            raise ValidationError({"lines": f"{line.what}: {line.why_not}"})
        quantity = line.quantity
        if count:
            if not count.isdigit() or not 1 <= int(count) <= line.quantity:
                raise ValidationError({"lines": f"{key}: between 1 and {line.quantity}, not {count!r}"})
            quantity = int(count)
        chosen[key] = quantity
    return chosen


def repair_costs(bill: RepairBill, chosen: Mapping[str, int]) -> tuple[int, int]:
    """What the chosen lines cost: the repairs, and the new men apart (a RECRUITS entry, SGC-EXP-14)."""
    repairs = sum(bill.line(k).unit_price * n for k, n in chosen.items() if k != RECRUITS)
    recruits = bill.line(RECRUITS).unit_price * chosen[RECRUITS] if RECRUITS in chosen else 0
    return repairs, recruits


def sale_price(ship: CampaignShip, bill: RepairBill | None = None) -> int:
    """What the Parhoon yard pays for her (designed, docs/campaign.md): the crown's price, half her original price
    (SGC-AUCT-01), less her repair bill without the recruits, never below nothing."""
    bill = repair_bill(ship) if bill is None else bill
    return max(economy.crown_price(ship.original_price) - bill.damage_total, 0)


def _propulsion_price(rating: ShipRating) -> int:
    p = rating.design.propulsion
    if isinstance(p, design.SteamPropulsion):
        return component_price(rating, "engine ES")
    if isinstance(p, design.GalleyPropulsion):
        return component_price(rating, f"{p.turncranks} turncranks")
    return component_price(rating, "kite rigging")


def _cleared(record: ShipRecord) -> list[str]:
    """What the yard puts right free with any repair: things not broken but left as the battle left them."""
    c = record.criticals
    notes = []
    if record.fire:
        notes.append(f"fire (level {record.fire}) put out")
    if c.rudder_jam:
        notes.append("rudder freed")
    if c.lifters_jam:
        notes.append("lifters freed")
    if c.boiler_loss:
        notes.append("boiler brought back to pressure")
    jammed = [g.id for g in record.guns if g.jammed]
    if jammed:
        notes.append(f"jams cleared (guns {', '.join(jammed)})")
    for item in record.ordnance:
        if ordnance_action(item.weapon_id, item.state) == "reset":
            notes.append(f"{item.name} {item.id} stowed")
    return notes


def turned_to(record: ShipRecord) -> ShipRecord:
    """The record with the battle's passing states cleared (the free part of any repair): fires out, jams freed,
    guns loaded, stores back in their places, no stun or bridge lock, no temporary boiler loss."""
    kinds = ordnance_kinds()
    c = record.criticals
    criticals = Criticals(
        screw_mast_hits=c.screw_mast_hits,
        boiler_blown=c.boiler_blown,
        jury_rigged=c.jury_rigged,
    )
    items = tuple(
        replace(item, state=str(kinds[item.weapon_id]["initial"]), since=None)
        if ordnance_action(item.weapon_id, item.state) == "reset"
        else item
        for item in record.ordnance
    )
    guns = tuple(replace(g, last_fired=None, jammed=False, trained_turn=None) for g in record.guns)
    return replace(
        record,
        fire=0,
        criticals=criticals,
        guns=guns,
        ordnance=items,
        marines_fired=None,
        shotguns_spent=None,
        agility_speed=None,
    )


def repaired(record: ShipRecord, whole: ShipRecord, chosen: Mapping[str, int]) -> ShipRecord:
    """The record after the chosen lines (key -> quantity) are repaired, and the free clearing done."""
    record = turned_to(record)
    c = record.criticals
    if HULL in chosen:
        record = replace(record, hull_rows=rows_with_hits(record.hull_rows, record.hull_hits - chosen[HULL]))
    if SCREW_MAST in chosen:
        hits = c.screw_mast_hits - chosen[SCREW_MAST]
        # The jury rig came down once the screw or masts are properly mended (SG-CRIT-30).
        c = replace(c, screw_mast_hits=hits, jury_rigged=c.jury_rigged and hits > 0)
    if BOILER in chosen:
        c = replace(c, boiler_blown=False)
    record = replace(record, criticals=c)
    if COAL_BUNKER in chosen:
        record = replace(record, coal_lost=(record.coal_lost or 0) - chosen[COAL_BUNKER])
    mended = {key[len(GUN) :] for key in chosen if key.startswith(GUN)}
    record = replace(record, guns=tuple(replace(g, destroyed=False) if g.id in mended else g for g in record.guns))
    kinds = ordnance_kinds()
    stocked = {key[len(ORDNANCE) :] for key in chosen if key.startswith(ORDNANCE)}
    record = replace(
        record,
        ordnance=tuple(
            replace(i, state="loaded" if i.weapon_id == "bomb_rack" else str(kinds[i.weapon_id]["initial"]), since=None)
            if i.id in stocked
            else i
            for i in record.ordnance
        ),
    )
    if RECRUITS in chosen:
        # Every post filled again: the new men go where the old ones fell, and the party comes home.
        manned = {g.id: g.manned for g in whole.guns}
        record = replace(
            record,
            crew=whole.crew,
            guns=tuple(replace(g, manned=manned[g.id]) for g in record.guns),
            party=NO_PARTY,
            boarders=NO_PARTY,
            boarding=None,
        )
    return record
