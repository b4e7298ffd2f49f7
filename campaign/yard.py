"""The Parhoon yard's services: buying a catalog class or commissioning a design (SGC-START-02..12), refits,
selling a ship to the yard, repairs (SGC-REPAIR-01..06, SGC-MONEY-03/04/07), and the crew experience check at
the end of a voyage (SGC-EXP-01..14).

Every service locks the captain (campaign.ledger, pk order) before the ship, pays through the ledger and answers
bad input with a ValidationError or PermissionDenied that says why. The reads (what Parhoon builds, a design's
quote, a ship's repair bill) are in campaign.yard_selectors; the designed choices in docs/campaign.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from accounts.models import User
from battles.engine.words import possessive, without_article
from campaign import dice, economy, ledger, locks
from campaign import yard_selectors as sel
from campaign.models import (
    Campaign,
    CampaignShip,
    Captain,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    ShipStatus,
    VoyageExperience,
    Yard,
)
from campaign.sailing_repairs import SailingRepairs, departure_key, departure_memo
from galleons import catalog
from galleons import design as sg_design
from galleons.catalog import UnknownShipClass
from galleons.design import DesignInputError, ShipDesign
from galleons.record import (
    HullRow,
    ShipRecord,
    altitude_level,
    ship_record_from_class,
    ship_record_from_design,
)

GONE = (ShipStatus.SOLD, ShipStatus.LOST, ShipStatus.CROWN)


# --- checks shared by the services ----------------------------------------------------------------------------


def _own_captain(captain_id: int, user: User) -> Captain:
    """The captain, locked, if he is the user's; a captain who is not the user's is as good as not there."""
    captain = ledger.lock_captains([captain_id]).get(captain_id)  # after his campaign's row (campaign.locks)
    if captain is None or captain.player_id != user.pk:
        raise PermissionDenied("That captain is not yours.")
    return captain


def _ashore_at_parhoon(captain: Captain) -> None:
    if captain.status != CaptainStatus.ASHORE or captain.city != sel.PARHOON:
        raise ValidationError(
            f"Captain {captain.name} must be ashore at Parhoon to deal with its yard (SGC-REPAIR-01); "
            f"he is {captain.get_status_display().lower()}{f' at {captain.city}' if captain.city else ''}."
        )


def _own_ship(ship_id: int, user: User) -> tuple[Captain, CampaignShip]:
    """The ship and her captain, both locked (campaign, captain, ship: campaign.locks' order), if she is the
    user's and in port at Parhoon with her captain ashore there (SGC-REPAIR-01)."""
    found = CampaignShip.objects.filter(pk=ship_id).values_list("captain_id", flat=True).first()
    if found is None:
        raise PermissionDenied("That ship is not yours.")
    captain = _own_captain(found, user)
    ship = locks.ship(captain.campaign, ship_id)
    if ship is None or ship.captain_id != captain.pk:
        raise PermissionDenied("That ship is not yours.")
    if ship.status != ShipStatus.IN_PORT or ship.city != sel.PARHOON:
        raise ValidationError(f"The {ship.name} must be in port at Parhoon for the yard to work on her.")
    _ashore_at_parhoon(captain)
    return captain, ship


def _ship_name(campaign: Campaign, name: str) -> str:
    """Her name as kept: without an article typed before it, since every page says "the Gull" (a ship named
    "The Gull" read "the The Gull"); a name that is only "The" is kept as it is."""
    name = without_article(" ".join(name.split()))
    if not name:
        raise ValidationError({"name": "A ship needs a name."})
    if len(name) > 80:
        raise ValidationError({"name": "A ship's name is 80 letters at most."})
    # Battles tell ships apart by name (grapples, boarding), so two afloat in one campaign may not share one.
    if CampaignShip.objects.filter(campaign=campaign, name__iexact=name).exclude(status__in=GONE).exists():
        raise ValidationError({"name": f"There is already a ship called {name} in this campaign."})
    return name


def _pay(captain: Captain, amount: int, kind: str, *, memo: str, ship: CampaignShip, user: User, key: str = "") -> None:
    """Take ``amount`` from the captain's bank (nothing when it is nothing), refusing with his numbers."""
    if amount <= 0:
        return
    try:
        ledger.post(captain, -amount, kind, memo=memo, ship=ship, user=user, idempotency_key=key)
    except ledger.InsufficientFunds as error:
        raise ValidationError(f"{error} ({memo})") from error


def _first_ship_within_advance(captain: Captain, price: int, what: str) -> None:
    """The colonial administration's advance builds the first ship: one costing more is refused (SGC-START-09)."""
    campaign: Campaign = captain.campaign
    if CampaignShip.objects.filter(captain=captain).exists():
        return
    if price > campaign.starting_advance:
        raise ValidationError(
            f"A first ship must be built within the advance (SGC-START-09): {what} costs £{price:,}, "
            f"the advance is £{campaign.starting_advance:,}."
        )


def _commissioned(
    captain: Captain,
    user: User,
    *,
    name: str,
    record: ShipRecord,
    rating: sg_design.ShipRating,
    price: int,
    class_id: str = "",
    ship_design: ShipDesign | None = None,
    what: str,
) -> CampaignShip:
    campaign: Campaign = captain.campaign
    ship = CampaignShip.objects.create(
        campaign=campaign,
        captain=captain,
        name=name,
        class_id=class_id,
        design=None if ship_design is None else ship_design.to_json(),
        record=record.to_json(),
        yard=Yard.MARTIAN,
        original_price=price,
        hull_price=sel.hull_price(rating),
        crew_quality=record.crew_quality,
        # All men aboard, marines included (SGC-EXP-13, designed): they are the ship's company whose losses the
        # experience rule counts.
        original_crew=record.men_alive,
        coal_days=rating.endurance_days,
        status=ShipStatus.IN_PORT,
        city=sel.PARHOON,
    )
    _pay(captain, price, EntryKind.PURCHASE, memo=f"The {name}, {what}, built at Parhoon", ship=ship, user=user)
    ChronicleEntry.objects.create(
        campaign=campaign,
        day=campaign.day,
        kind=ChronicleKind.SHIP_COMMISSIONED,
        text=f"Captain {captain.name} commissions the {name}, {what}, at Parhoon.",
        captain=captain,
    )
    return ship


# --- buying and commissioning ---------------------------------------------------------------------------------


@transaction.atomic
def ship_buy_class(*, captain_id: int, user: User, class_id: str, name: str) -> CampaignShip:
    """Buy a catalog class Parhoon builds, at its catalog price (SGC-START-02..09, DESIGN.md section 8). Her
    crew is newly raised at the campaign's starting quality, Green by the rules (SGC-START-11)."""
    captain = _own_captain(captain_id, user)
    _ashore_at_parhoon(captain)
    try:
        quote = sel.class_quote(class_id)
    except UnknownShipClass as error:
        raise ValidationError({"class_id": str(error)}) from error
    if not quote.buildable:
        reasons = "; ".join(f"{p.message} ({p.clause})" for p in quote.problems)
        raise ValidationError({"class_id": f"Parhoon cannot build a {quote.name}: {reasons}."})
    what = f"a {quote.name}"
    _first_ship_within_advance(captain, quote.price, what)
    name = _ship_name(captain.campaign, name)
    ship_class = catalog.ship_class(class_id)
    campaign: Campaign = captain.campaign
    record = ship_record_from_class(ship_class, name=name, crew_quality=campaign.starting_quality)
    rating = sg_design.rate_design(sg_design.design_from_catalog(ship_class))
    return _commissioned(
        captain, user, name=name, record=record, rating=rating, price=quote.price, class_id=ship_class.id, what=what
    )


@transaction.atomic
def ship_commission_design(*, captain_id: int, user: User, design: Any, name: str) -> CampaignShip:
    """Commission a design (the rater's JSON) at Parhoon: legal, buildable by a Martian yard, paid at the rated
    price rounded up to the pound (SGC-START-02..09). The record is the engine's for the rated design."""
    captain = _own_captain(captain_id, user)
    _ashore_at_parhoon(captain)
    try:
        parsed = sg_design.parse_design(sel.at_parhoon(design))
    except DesignInputError as error:
        raise ValidationError({"design": list(error.problems)}) from error
    rating = sg_design.rate_design(parsed)
    verdict = sel.parhoon_verdict(rating)
    if not verdict.buildable:
        reasons = "; ".join(f"{p.field}: {p.message} ({p.clause})" for p in verdict.problems)
        raise ValidationError({"design": f"Parhoon will not build this design: {reasons}."})
    what = f"a {parsed.name} of Parhoon's building" if parsed.name else "a ship of Parhoon's building"
    _first_ship_within_advance(captain, verdict.price, "this design")
    name = _ship_name(captain.campaign, name)
    campaign: Campaign = captain.campaign
    record = ship_record_from_design(parsed, name=name, crew_quality=campaign.starting_quality)
    return _commissioned(
        captain, user, name=name, record=record, rating=rating, price=verdict.price, ship_design=parsed, what=what
    )


# --- refits ---------------------------------------------------------------------------------------------------


def _refit_weapons(record: ShipRecord, changes: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The design's weapon list after the changes, and for each entry the id of the record gun it keeps (""
    for a new gun). Changes: {"action": "add", "weapon", "mount", "turret_armor"?}, {"action": "remove",
    "gun"}, {"action": "replace", "gun", "weapon", "mount"?, "turret_armor"?}."""
    entries: list[dict[str, Any]] = [w.to_json() for w in sel.weapons_of(record)]
    keeps = [g.id for g in record.guns]
    if not isinstance(changes, Sequence) or isinstance(changes, str) or not changes:
        raise ValidationError({"changes": "A refit is a list of changes: add, remove or replace a gun."})
    for n, change in enumerate(changes):
        where = f"changes[{n}]"
        if not isinstance(change, Mapping):
            raise ValidationError({"changes": f"{where}: expected an object with an action"})
        action = change.get("action")
        if action == "add":
            fields = {k: change[k] for k in ("weapon", "mount", "turret_armor") if k in change}
            entries.append(fields)
            keeps.append("")
            continue
        if action not in ("remove", "replace"):
            raise ValidationError({"changes": f"{where}: the action is add, remove or replace, not {action!r}"})
        gun_id = str(change.get("gun", ""))
        if gun_id not in keeps:
            raise ValidationError({"changes": f"{where}: the {record.name} has no gun {gun_id!r} to {action}"})
        index = keeps.index(gun_id)
        if action == "remove":
            del entries[index], keeps[index]
        else:
            entries[index] = {
                "weapon": change.get("weapon"),
                "mount": change.get("mount", entries[index]["mount"]),
                **({"turret_armor": change["turret_armor"]} if "turret_armor" in change else {}),
            }
            keeps[index] = f"new:{gun_id}"
    return entries, keeps


def _refitted_rows(
    record: ShipRecord, before: sg_design.ShipRating, after: sg_design.ShipRating
) -> tuple[HullRow, ...] | None:
    """Her hull rows after a refit: the weight the refit adds or takes off moves her lift value, and her ceiling
    moves by as many levels as the rater's does (SGD-ALT-*); a catalog ship keeps her published ceiling otherwise.
    Her hits stay, filled from the top row down (SG-DMG-13). None if she could no longer fly with them."""
    levels = sg_design.altitude_levels()
    if before.max_altitude is None or after.max_altitude is None:
        return None
    shift = levels.index(after.max_altitude) - levels.index(before.max_altitude)
    top = levels.index(cast(sg_design.Altitude, record.hull_rows[0].altitude)) + shift
    if shift == 0:
        return record.hull_rows
    if not 0 <= top < len(levels):
        return None
    fresh = tuple(HullRow(r.altitude, r.boxes) for r in reversed(sg_design.hull_rows(record.hull_size, levels[top])))
    if record.hull_hits >= sum(r.boxes for r in fresh):
        return None
    return sel.rows_with_hits(fresh, record.hull_hits)


@transaction.atomic
def ship_refit(*, ship_id: int, user: User, changes: Sequence[Mapping[str, Any]]) -> CampaignShip:
    """Add, remove or replace weapon mounts at Parhoon (SGC-REPAIR-01, SGC-MONEY-04), at the Martian yard's
    prices: a new gun costs its price (with its turret), a gun taken out or replaced credits nothing. The
    refitted design is rated again and must break no rule she did not already break and
    carry nothing Parhoon cannot make (SGC-START-06). New guns come with their own crews, recruited; the weight
    changed may move her ceiling (her hull rows follow)."""
    captain, ship = _own_ship(ship_id, user)
    record = sel.ship_record(ship)
    before = sel.fitted_design(ship)
    before_rating = sg_design.rate_design(before)
    entries, keeps = _refit_weapons(record, changes)
    data = {**before.to_json(), "weapons": entries}
    try:
        after = sg_design.parse_design(data)
    except DesignInputError as error:
        raise ValidationError({"changes": list(error.problems)}) from error
    rating = sg_design.rate_design(after)
    problems = [e for e in rating.errors if e.clause in sel.yard_clauses()]
    added = Counter(e.clause for e in rating.errors) - Counter(e.clause for e in before_rating.errors)
    problems += [e for e in rating.errors if e.clause in added and e not in problems]
    if problems:
        reasons = "; ".join(f"{p.field}: {p.message} ({p.clause})" for p in problems)
        raise ValidationError({"changes": f"Parhoon will not fit this: {reasons}."})
    rows = _refitted_rows(record, before_rating, rating)
    if rows is None:
        raise ValidationError({"changes": f"After this refit the {ship.name} could not fly with her hull hits."})
    # The engine builds the new guns as it would for the refitted design; the guns kept stay as they are.
    fresh = ship_record_from_design(after, name=ship.name, crew_quality=ship.crew_quality).guns
    used = [int(g.id) for g in record.guns if g.id.isdigit()]
    next_id = max(used, default=0) + 1
    guns, price, new_men, old_crews, old_men, hands_back = [], 0, 0, 0, 0, 0
    by_id = {g.id: g for g in record.guns}
    kept = {k for k in keeps if k and not k.startswith("new:")}
    for gun_id, gun in by_id.items():
        if gun_id in kept:
            continue
        if gun.weapon.crew_quarters_provided:
            # The gunners of guns taken out man the new ones first; the rest go ashore.
            old_crews += gun.crew
            old_men += gun.manned
        else:
            hands_back += gun.manned  # deckhands lent to a gun without its own crew (SG-CG-93) go back on deck
    for index, keep in enumerate(keeps):
        if keep and not keep.startswith("new:"):
            guns.append(by_id[keep])
            continue
        gun_id = keep[len("new:") :] if keep else str(next_id)
        if not keep:
            next_id += 1
        guns.append(replace(fresh[index], id=gun_id))
        price += sel.whole_pounds(rating.guns[index].pounds)
        new_men += fresh[index].manned
    if price == 0 and [g.to_json() for g in guns] == [g.to_json() for g in record.guns]:
        raise ValidationError({"changes": "The refit changes nothing."})
    what = "; ".join(str(c.get("action")) + " " + str(c.get("weapon") or c.get("gun")) for c in changes)
    _pay(captain, price, EntryKind.REFIT, memo=f"Refit of the {ship.name}: {what}", ship=ship, user=user)
    campaign: Campaign = ship.campaign
    recruits = max(new_men - old_men, 0)
    _pay(
        captain,
        recruits * campaign.recruit_cost_per_man,
        EntryKind.RECRUITS,
        memo=f"{recruits} men for the {possessive(ship.name)} new guns",
        ship=ship,
        user=user,
    )
    ceiling = rows[0].altitude
    altitude = record.altitude if altitude_level(record.altitude) <= altitude_level(ceiling) else ceiling
    crew = replace(record.crew, deckhands=record.crew.deckhands + hands_back)
    ship.record = replace(record, guns=tuple(guns), hull_rows=rows, altitude=altitude, crew=crew).to_json()
    # The ship's company as refitted: the experience rule counts losses against it (SGC-EXP-02).
    ship.original_crew = max(ship.original_crew + new_men - old_crews, 0)
    ship.save(update_fields=["record", "original_crew"])
    return ship


# --- selling --------------------------------------------------------------------------------------------------


@transaction.atomic
def ship_sell(*, ship_id: int, user: User) -> CampaignShip:
    """Sell a ship to the Parhoon yard (SGC-MONEY-04 allows buying a new ship; the rules give no sale price):
    designed, the crown's price, half her original price (SGC-AUCT-01), less the repair bill for her damage, and
    never below nothing. Her crew is paid off with her: the bill's recruits are not taken off."""
    captain, ship = _own_ship(ship_id, user)
    bill = sel.repair_bill(ship)
    price = sel.sale_price(ship, bill)
    if price:
        ledger.post(
            captain,
            price,
            EntryKind.SALE,
            memo=f"The {ship.name} sold to the Parhoon yard (half her price £{ship.original_price:,}, "
            f"less repairs £{bill.damage_total:,})",
            ship=ship,
            user=user,
        )
    ship.status = ShipStatus.SOLD
    ship.save(update_fields=["status"])
    return ship


# --- repairs --------------------------------------------------------------------------------------------------


@transaction.atomic
def ship_repair(*, ship_id: int, user: User, lines: Sequence[str] | None = None, idempotency_key: str) -> CampaignShip:
    """Pay Parhoon to repair the ship: every line of her bill, or the lines the captain chooses when the money
    does not run to all (SGC-MONEY-07, designed: she may sail damaged). Repairs are a REPAIR entry, new men a
    RECRUITS entry (SGC-EXP-14); the same idempotency key again does nothing more. The new men do not change the
    crew's quality here: the experience check counts the losses they replace (SGC-EXP-02, docs/campaign.md)."""
    if not idempotency_key:
        raise ValidationError({"idempotency_key": "A repair order needs an idempotency key."})
    captain, ship = _own_ship(ship_id, user)
    keys = (f"{idempotency_key}:repair", f"{idempotency_key}:recruits")
    if captain.ledger.filter(idempotency_key__in=keys).exists():
        return ship
    bill = sel.repair_bill(ship)
    chosen = sel.chosen_repairs(bill, lines)
    repairs, recruits = sel.repair_costs(bill, chosen)
    if repairs + recruits > captain.balance:
        raise ValidationError(
            {
                "lines": f"{captain.name} has £{captain.balance:,} in the bank; these repairs cost "
                f"£{repairs + recruits:,}. Choose fewer: the {ship.name} may sail damaged (SGC-MONEY-07)."
            }
        )
    done = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in chosen.items())
    _pay(
        captain,
        repairs,
        EntryKind.REPAIR,
        memo=f"Repairs to the {ship.name}: {done}",
        ship=ship,
        user=user,
        key=keys[0],
    )
    _pay(
        captain,
        recruits,
        EntryKind.RECRUITS,
        memo=f"{chosen.get(sel.RECRUITS, 0)} men recruited for the {ship.name}",
        ship=ship,
        user=user,
        key=keys[1],
    )
    ship.record = sel.repaired(sel.ship_record(ship), sel.whole_record(ship), chosen).to_json()
    ship.save(update_fields=["record"])
    return ship


def sailing_repairs_pay(
    *, captain: Captain, ship: CampaignShip, user: User, plan: SailingRepairs, mended: ShipRecord, voyage_id: int
) -> None:
    """Pay for the repairs she must have before she leaves Parhoon (SGC-MONEY-03; as far as the money goes,
    SGC-MONEY-07: the order is campaign.sailing_repairs'), and write her mended record. For the voyage service,
    inside its transaction, with the captain and ship already locked (campaign.locks' order); the voyage's own
    keys make a retried departure pay once. A ledger entry for each repair (new men a RECRUITS one); ``mended``
    is her record with the plan done (campaign.sailing_repairs.record_after, which the voyage checked)."""
    if not plan.needed:
        return
    for (key, _), item, price in zip(plan.chosen, plan.done, plan.prices, strict=True):
        _pay(
            captain,
            price,
            EntryKind.RECRUITS if key == sel.RECRUITS else EntryKind.REPAIR,
            memo=departure_memo(ship.name, item),
            ship=ship,
            user=user,
            key=departure_key(voyage_id, key),
        )
    ship.record = mended.to_json()
    ship.save(update_fields=["record"])


# --- crew experience ------------------------------------------------------------------------------------------


@transaction.atomic
def voyage_end_experience(*, ship_id: int, voyage_key: str, prize: bool, losses: int) -> VoyageExperience:
    """The crew experience check as the ship returns from a voyage (SGC-EXP-01..13): economy.experience_check
    says what the rule asks, campaign.dice rolls the die when one is needed (logged with the ship and voyage),
    and the ship's quality and record follow. Once per ship and voyage: the same key again gives back the
    first check, and the same key with other figures is refused."""
    voyage_key = voyage_key.strip()[:120]
    if not voyage_key:
        raise ValidationError({"voyage_key": "The check is made once a voyage: name the voyage."})
    if losses < 0:
        raise ValidationError({"losses": "Losses are counted in men, never below none."})
    campaign_locked = locks.campaign_of(CampaignShip, ship_id)  # first: the die below is numbered under it
    ship = None if campaign_locked is None else locks.ship(campaign_locked, ship_id)
    if ship is None:
        raise ValidationError({"ship_id": f"No ship {ship_id}."})
    earlier = VoyageExperience.objects.filter(ship=ship, voyage_key=voyage_key).first()
    if earlier is not None:
        if (earlier.prize, earlier.losses) != (prize, losses):
            raise ValidationError(
                f"The {possessive(ship.name)} check for voyage {voyage_key} was made with prize={earlier.prize}, "
                f"losses={earlier.losses}."
            )
        return earlier
    check = economy.experience_check(
        quality=ship.crew_quality, original_crew=ship.original_crew, losses=losses, prize=prize
    )
    campaign: Campaign = ship.campaign
    roll = None
    if check.needs_roll:
        roll = dice.roll(
            campaign,
            f"crew experience of the {ship.name} (ship {ship.pk}) after voyage {voyage_key}",
            captain=ship.captain,
        )
    after = check.after(None if roll is None else roll.result)
    result = VoyageExperience.objects.create(
        ship=ship,
        voyage_key=voyage_key,
        prize=prize,
        losses=losses,
        threshold=check.threshold,
        quality_before=ship.crew_quality,
        quality_after=after,
        roll=roll,
        day=campaign.day,
    )
    if after != ship.crew_quality:
        record = sel.ship_record(ship)
        ship.crew_quality = after
        ship.record = replace(record, crew_quality=after).to_json()
        ship.save(update_fields=["crew_quality", "record"])
        quality = ship.get_crew_quality_display()
        rose = economy.qualities().index(after) > economy.qualities().index(check.quality)
        ChronicleEntry.objects.create(
            campaign=campaign,
            day=campaign.day,
            kind=ChronicleKind.CREW_EXPERIENCE,
            text=f"The crew of the {ship.name} {'rises to' if rose else 'falls back to'} {quality}.",
            captain=ship.captain,
        )
    return result
