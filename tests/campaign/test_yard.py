"""The Parhoon yard (campaign/yard.py, campaign/yard_selectors.py): what a Martian yard builds and at what price,
the first ship within the advance, refits, sales, repairs and the crew experience check after a voyage."""

from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connections, transaction

from campaign import captains, ledger, yard
from campaign import yard_selectors as sel
from campaign.dice import die_for
from campaign.models import (
    CampaignRoll,
    CampaignShip,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    LedgerEntry,
    Role,
    ShipStatus,
    VoyageExperience,
)
from galleons import catalog, design
from galleons.record import Criticals, ShipRecord, ship_record_from_class
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

GULL: dict[str, Any] = {
    "name": "Parhoon Gull",
    "hull": "wood",
    "hull_size": 2,
    "armor": 1,
    "propulsion": {"type": "screw_galley", "turncranks": 12},
    "weapons": [{"weapon": "Light Gun", "mount": "forward"}, {"weapon": "Light Gun", "mount": "stern tower"}],
    "marines": 4,
}


@pytest.fixture
def table():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, recruit_cost_per_man=5)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack}


def _give(table, amount: int) -> None:
    captains.captain_adjust_money(
        captain_id=table["jack"].pk, umpire=table["umpire"], amount=amount, reason="prize money for the test"
    )


def _ship(table, class_id: str, name: str, **fields: Any) -> CampaignShip:
    """A ship of the class already Jack's, as the auctions or an earlier purchase would have left her."""
    record = ship_record_from_class(class_id, name=name, crew_quality=fields.pop("crew_quality", "green"))
    ship_class = catalog.ship_class(class_id)
    rating = design.rate_design(design.design_from_catalog(ship_class))
    return CampaignShip.objects.create(
        campaign=table["campaign"],
        captain=table["jack"],
        name=name,
        class_id=class_id,
        record=record.to_json(),
        original_price=ship_class.price or 0,
        hull_price=sel.hull_price(rating),
        crew_quality=record.crew_quality,
        original_crew=record.men_alive,
        **fields,
    )


def _damage(ship: CampaignShip, **changes: Any) -> ShipRecord:
    record = replace(ShipRecord.from_json(ship.record), **changes)
    ship.record = record.to_json()
    ship.save()
    return record


def _balance(table) -> int:
    table["jack"].refresh_from_db()
    return table["jack"].balance


# --- what Parhoon builds --------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-START-02", "SGC-START-03", "SGC-START-04", "SGC-START-06", "SGC-START-08")
def test_parhoon_builds_martian_galleys_and_kites_but_no_steam_ship_british_gun_or_british_yard_class():
    quotes = {q.class_id: q for q in sel.parhoon_classes(buildable_only=False)}
    buildable = {q.class_id for q in sel.parhoon_classes()}
    assert {"clearsight", "fleetfoot", "small_bird", "bloodrunner", "whisperdeath", "endtime"} <= buildable
    for class_id in buildable:
        ship = catalog.ship_class(class_id)
        assert (ship.yard_type, ship.hull_material) == ("martian", "wood")
        assert ship.propulsion is not None
        assert ship.propulsion.type in ("screw_galley", "kite")
    # Martian-built but steam-driven and carrying Earth guns: the rater's yard clauses refuse them.
    for class_id in ("ranger", "mikasa"):
        clauses = {p.clause for p in quotes[class_id].problems}
        assert {"SGD-PROP-03", "SGD-ARMT-15"} <= clauses
    assert {p.clause for p in quotes["aphid"].problems} == {"SGC-START-02"}
    assert "aphid" not in buildable
    assert "intrepid" not in buildable


def test_a_catalog_class_keeps_its_published_figures_at_parhoon_despite_the_raters_mount_readings():
    # The Swiftwood breaks the stand-in mount table (SGD-ARMT-02), but she was built: DESIGN.md section 8.
    assert not design.rate_design(design.design_from_catalog(catalog.ship_class("swiftwood"))).ok
    quote = sel.class_quote("swiftwood")
    assert quote.buildable
    assert quote.price == catalog.ship_class("swiftwood").price


@pytest.mark.rule("SGC-START-05", "SGC-START-07")
def test_a_design_quote_prices_parhoon_work_at_martian_yard_rates_with_protection_not_plate():
    quote = sel.design_quote(GULL)
    assert quote["input_errors"] == []
    assert quote["parhoon"]["buildable"]
    bill = {c["component"]: c["pounds"] for c in quote["rating"]["components"]}
    assert bill["hull (wood, martian yard)"] == 5000 * 2
    assert bill["12 turncranks"] == 100 * 12
    # Protection: 20 t per armor value per hull size at £50 a ton.
    assert bill["Martian protection AV 1"] == 20 * 1 * 2 * 50
    assert quote["parhoon"]["price"] == math.ceil(sum(bill.values()))


@pytest.mark.rule("SGC-START-02", "SGC-START-03", "SGC-START-04", "SGC-START-06")
@pytest.mark.parametrize(
    ("change", "clause"),
    [
        ({"hull": "steel"}, "SGD-HULL-05"),
        ({"propulsion": {"type": "steam", "engine_size": 1, "bunker_size": 2}}, "SGD-PROP-03"),
        ({"weapons": [{"weapon": "6-pdr", "mount": "forward"}]}, "SGD-ARMT-15"),
        ({"yard": "british"}, "SGC-START-02"),
    ],
)
def test_a_design_parhoon_cannot_build_is_quoted_with_the_rule_it_breaks(change, clause):
    quote = sel.design_quote({**GULL, **change})
    assert not quote["parhoon"]["buildable"]
    assert clause in {p["clause"] for p in quote["parhoon"]["problems"]}


def test_a_malformed_design_is_quoted_with_its_input_problems_not_an_error():
    quote = sel.design_quote({**GULL, "hull_size": 0, "cannons": 3})
    assert quote["rating"] is None
    assert any(p.startswith("hull_size") for p in quote["input_errors"])
    assert any(p.startswith("cannons") for p in quote["input_errors"])


# --- buying and commissioning ---------------------------------------------------------------------------------


@pytest.mark.rule("SGC-START-09", "SGC-START-11", "SGC-START-12")
def test_a_captain_buys_a_catalog_galley_at_parhoon_within_the_advance_with_a_green_crew(table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="clearsight", name="Gull")

    price = catalog.ship_class("clearsight").price
    assert price is not None
    assert _balance(table) == 30_000 - price
    entry = LedgerEntry.objects.get(captain=table["jack"], kind=EntryKind.PURCHASE)
    assert (entry.amount, entry.ship) == (-price, ship)
    fresh = ship_record_from_class("clearsight", name="Gull", crew_quality="green")
    assert ShipRecord.from_json(ship.record) == fresh
    assert (ship.crew_quality, ship.original_price, ship.status, ship.city) == ("green", price, "in_port", "parhoon")
    assert ship.hull_price == 5000 * 2  # the hull line alone, not the ram (SGC-REPAIR-06, designed)
    assert ship.original_crew == fresh.men_alive == 26
    assert ship.coal_days is None  # a screw galley burns no coal
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.SHIP_COMMISSIONED, captain=table["jack"]).exists()
    ledger.check(table["jack"])


def test_the_umpire_may_start_crews_at_another_quality(table):
    table["campaign"].starting_quality = "trained"
    table["campaign"].save()
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    assert ship.crew_quality == ShipRecord.from_json(ship.record).crew_quality == "trained"


@pytest.mark.rule("SGC-START-09")
def test_a_first_ship_dearer_than_the_advance_is_refused_with_the_numbers_even_with_more_money(table):
    _give(table, 20_000)
    with pytest.raises(ValidationError, match=r"SGC-START-09.*£32,300.*£30,000"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="endtime", name="Doom")
    # Once he has a ship, he may buy what his bank pays for.
    yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="endtime", name="Doom")
    assert _balance(table) == 50_000 - 6000 - 32_300


def test_a_ship_the_bank_cannot_pay_for_is_refused_with_the_balance(table):
    yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="sky_runner", name="Runner")
    with pytest.raises(ValidationError, match=r"£9,800 in the bank; £12,800 is asked"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="clearsight", name="Gull")
    assert _balance(table) == 9_800
    assert CampaignShip.objects.count() == 1


@pytest.mark.rule("SGC-START-04", "SGC-START-06")
def test_parhoon_will_not_sell_a_steam_ship_with_british_guns(table):
    with pytest.raises(ValidationError, match="SGD-PROP-03"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="ranger", name="Ranger")
    with pytest.raises(ValidationError, match="unknown ship class"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="flying dutchman", name="X")


@pytest.mark.rule("SGC-REPAIR-01")
def test_only_the_captains_own_player_buys_and_only_ashore_at_parhoon(table):
    with pytest.raises(PermissionDenied):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["bob"], class_id="fleetfoot", name="Dart")
    captains.captain_set_status(
        captain_id=table["jack"].pk, umpire=table["umpire"], status=CaptainStatus.AT_SEA, reason="sailed"
    )
    with pytest.raises(ValidationError, match="ashore at Parhoon"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    assert CampaignShip.objects.count() == 0
    assert _balance(table) == 30_000


def test_two_ships_afloat_in_a_campaign_do_not_share_a_name(table):
    yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    with pytest.raises(ValidationError, match=r"(?i)already a ship called dart"):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name=" dart ")


@pytest.mark.rule("SGC-START-05", "SGC-START-07", "SGC-START-09")
def test_a_design_is_commissioned_at_its_rated_price_with_the_engines_record_for_it(table):
    ship = yard.ship_commission_design(captain_id=table["jack"].pk, user=table["alice"], design=GULL, name="Gull")

    rating = design.rate_design(design.parse_design({**GULL, "yard": "martian"}))
    assert ship.original_price == math.ceil(rating.price) == 14_080
    assert _balance(table) == 30_000 - 14_080
    record = ShipRecord.from_json(ship.record)
    assert (record.class_id, record.hull_size, record.armor, len(record.guns)) == (None, 2, 1, 2)
    assert ship.original_crew == record.men_alive == rating.crew.total
    assert ship.design == rating.design.to_json()
    assert ship.class_id == ""
    assert ship.hull_price == 10_000


@pytest.mark.rule("SGC-START-03", "SGC-START-09")
def test_a_design_parhoon_cannot_build_or_the_advance_cannot_pay_is_refused(table):
    with pytest.raises(ValidationError, match="SGD-HULL-05"):
        yard.ship_commission_design(
            captain_id=table["jack"].pk, user=table["alice"], design={**GULL, "hull": "steel"}, name="Iron"
        )
    with pytest.raises(ValidationError, match="SGC-START-09"):
        yard.ship_commission_design(
            captain_id=table["jack"].pk, user=table["alice"], design={**GULL, "hull_size": 6}, name="Big"
        )
    with pytest.raises(ValidationError, match="unknown field"):
        yard.ship_commission_design(
            captain_id=table["jack"].pk, user=table["alice"], design={**GULL, "sails": 3}, name="Odd"
        )
    assert CampaignShip.objects.count() == 0


# --- refits ---------------------------------------------------------------------------------------------------


def test_a_refit_adds_guns_at_martian_prices_with_their_crews(table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    crew = ship.original_crew
    changes = [
        {"action": "add", "weapon": "Sweeper", "mount": "port wing"},
        {"action": "add", "weapon": "Sweeper", "mount": "starboard wing"},
    ]
    ship = yard.ship_refit(ship_id=ship.pk, user=table["alice"], changes=changes)

    record = ShipRecord.from_json(ship.record)
    assert [(g.id, g.weapon_id, g.mount, g.manned) for g in record.guns[2:]] == [
        ("3", "sweeper", "port wing", 1),
        ("4", "sweeper", "starboard wing", 1),
    ]
    refit = LedgerEntry.objects.get(captain=table["jack"], kind=EntryKind.REFIT)
    assert refit.amount == -2 * catalog.weapon("sweeper").cost_pounds
    recruits = LedgerEntry.objects.get(captain=table["jack"], kind=EntryKind.RECRUITS)
    assert recruits.amount == -2 * 5
    assert ship.original_crew == crew + 2 == record.men_alive
    rating = design.rate_design(sel.fitted_design(ship))
    assert rating.ok
    # Twenty tons more bring her lift value down a level: her Very High row is gone (SGD-ALT-*).
    assert (rating.max_altitude, [row.altitude for row in record.hull_rows]) == ("H", ["H", "M", "L", "VL"])
    assert record.altitude == "H"


def test_a_replaced_gun_credits_nothing_and_a_removed_gun_costs_nothing(table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    before = _balance(table)
    ship = yard.ship_refit(
        ship_id=ship.pk, user=table["alice"], changes=[{"action": "replace", "gun": "1", "weapon": "Light Gun"}]
    )
    assert (
        _balance(table) == before - 400 - 5
    )  # the light gun's price and its second man; the sweeper is not bought back
    assert [(g.id, g.weapon_id) for g in ShipRecord.from_json(ship.record).guns] == [
        ("1", "light_gun"),
        ("2", "sweeper"),
    ]
    ship = yard.ship_refit(ship_id=ship.pk, user=table["alice"], changes=[{"action": "remove", "gun": "2"}])
    assert _balance(table) == before - 405
    assert [g.id for g in ShipRecord.from_json(ship.record).guns] == ["1"]


@pytest.mark.rule("SGC-START-06")
@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ([{"action": "add", "weapon": "6-pdr", "mount": "port wing"}], "SGD-ARMT-15"),
        ([{"action": "add", "weapon": "Sweeper", "mount": "port wing"}], "SG-ERR-02"),
        ([{"action": "add", "weapon": "Sweeper", "mount": "forward"}], "SGD-ARMT-02"),
        ([{"action": "remove", "gun": "9"}], "no gun '9'"),
        ([{"action": "scrape"}], "add, remove or replace"),
        ([{"action": "add", "weapon": "Death Ray", "mount": "forward"}], "Death Ray"),
    ],
)
def test_a_refit_that_breaks_a_rule_or_carries_a_british_gun_is_refused(table, changes, match):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    before = (_balance(table), ship.record)
    with pytest.raises(ValidationError, match=match):
        yard.ship_refit(ship_id=ship.pk, user=table["alice"], changes=changes)
    ship.refresh_from_db()
    assert (_balance(table), ship.record) == before


# --- repairs --------------------------------------------------------------------------------------------------


def _battered_clearsight(table) -> CampaignShip:
    ship = _ship(table, "clearsight", "Gull")
    record = ShipRecord.from_json(ship.record)
    first, second, *rest = record.hull_rows
    crew = replace(record.crew, deckhands=0, maneuver_lost=2)
    guns = (replace(record.guns[0], destroyed=True, manned=0), replace(record.guns[1], jammed=True, last_fired=7))
    _damage(
        ship,
        hull_rows=(replace(first, hits=first.boxes), replace(second, hits=second.boxes), *rest),
        guns=guns + record.guns[2:],
        crew=crew,
        fire=2,
        criticals=Criticals(rudder_jam=2, screw_mast_hits=1, jury_rigged=True),
    )
    return ship


@pytest.mark.rule("SGC-REPAIR-02", "SGC-REPAIR-03", "SGC-REPAIR-04", "SGC-REPAIR-05", "SGC-REPAIR-06")
def test_the_repair_bill_prices_hull_hits_guns_criticals_and_new_men_line_by_line(table):
    ship = _battered_clearsight(table)
    bill = sel.repair_bill(ship)

    hits = ShipRecord.from_json(ship.record).hull_hits
    boxes = ShipRecord.from_json(ship.record).hull_boxes
    assert (hits, boxes) == (4, 8)
    hull = bill.line("hull")
    assert (hull.quantity, hull.unit_price, hull.clause) == (hits, math.ceil(10_000 / boxes / 10), "SGC-REPAIR-04")
    assert bill.line("gun:1").price == catalog.weapon("light_gun").cost_pounds // 2
    # A screw hit: half the turncranks' price per hull size (designed, SGC-REPAIR-06).
    assert bill.line("screw_mast").price == math.ceil(12 * 100 / 2 / 2)
    # Two deckhands, two turncrank men and the destroyed gun's two gunners.
    assert (bill.line("recruits").quantity, bill.line("recruits").price) == (6, 6 * 5)
    assert bill.total == sum(line.price for line in bill.lines)
    assert any("fire" in note for note in bill.cleared)
    assert any("rudder" in note for note in bill.cleared)
    with pytest.raises(KeyError):
        bill.line("gun:2")  # a jam is cleared free, not bought


@pytest.mark.rule("SGC-REPAIR-01", "SGC-MONEY-03", "SGC-EXP-14")
def test_a_full_repair_makes_her_as_she_left_the_yard_and_pays_repairs_and_recruits_apart(table):
    ship = _battered_clearsight(table)
    bill = sel.repair_bill(ship)
    before = _balance(table)

    ship = yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key="after-first-cruise")

    assert ShipRecord.from_json(ship.record) == ship_record_from_class("clearsight", name="Gull", crew_quality="green")
    amounts = dict(LedgerEntry.objects.filter(captain=table["jack"], ship=ship).values_list("kind", "amount"))
    assert amounts == {EntryKind.REPAIR: -(bill.total - 30), EntryKind.RECRUITS: -30}
    assert _balance(table) == before - bill.total
    assert sel.repair_bill(ship).lines == ()
    # The same order again moves no money and changes nothing.
    yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key="after-first-cruise")
    assert _balance(table) == before - bill.total
    ledger.check(table["jack"])


@pytest.mark.rule("SGC-MONEY-07", "SG-CRIT-30")
def test_a_captain_short_of_money_chooses_what_to_repair_and_sails_damaged(table):
    ship = _battered_clearsight(table)
    hits = ShipRecord.from_json(ship.record).hull_hits
    ship = yard.ship_repair(ship_id=ship.pk, user=table["alice"], lines=["hull:2", "gun:1"], idempotency_key="k1")

    record = ShipRecord.from_json(ship.record)
    assert record.hull_hits == hits - 2
    assert not record.guns[0].destroyed
    assert record.guns[0].manned == 0
    assert record.criticals.screw_mast_hits == 1
    assert record.criticals.jury_rigged
    assert record.fire == 0
    assert record.criticals.rudder_jam == 0
    assert not record.guns[1].jammed
    assert {line.key for line in sel.repair_bill(ship).lines} == {"hull", "screw_mast", "recruits"}
    ship = yard.ship_repair(ship_id=ship.pk, user=table["alice"], lines=["screw_mast"], idempotency_key="k2")
    assert not ShipRecord.from_json(ship.record).criticals.jury_rigged  # the jury rig comes down


@pytest.mark.rule("SGC-MONEY-07")
def test_repairs_beyond_the_bank_are_refused_and_the_captain_told_to_choose_fewer(table):
    ship = _battered_clearsight(table)
    captains.captain_adjust_money(
        captain_id=table["jack"].pk, umpire=table["umpire"], amount=-29_900, reason="spent ashore"
    )
    with pytest.raises(ValidationError, match=r"£100 in the bank.*SGC-MONEY-07"):
        yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key="k")
    with pytest.raises(ValidationError, match="between 1 and"):
        yard.ship_repair(ship_id=ship.pk, user=table["alice"], lines=["hull:99"], idempotency_key="k")
    with pytest.raises(ValidationError, match="No repair 'mast'"):
        yard.ship_repair(ship_id=ship.pk, user=table["alice"], lines=["mast"], idempotency_key="k")
    assert _balance(table) == 100


@pytest.mark.rule("SGC-REPAIR-01")
def test_repairs_are_made_only_at_parhoon_and_only_for_the_ships_own_captain(table):
    ship = _battered_clearsight(table)
    with pytest.raises(PermissionDenied):
        yard.ship_repair(ship_id=ship.pk, user=table["bob"], idempotency_key="k")
    ship.city = "thoth"
    ship.save()
    with pytest.raises(ValidationError, match="in port at Parhoon"):
        yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key="k")


@pytest.mark.rule("SGC-REPAIR-02", "SGC-REPAIR-06")
def test_stores_used_are_bought_again_at_their_price_and_stores_destroyed_at_half(table):
    ship = _ship(table, "whisperdeath", "Hush")
    record = ShipRecord.from_json(ship.record)
    states = {"F1": "dropped", "F2": "destroyed", "D1": "lowered", "D2": "released"}
    _damage(ship, ordnance=tuple(replace(i, state=states[i.id]) for i in record.ordnance))
    bill = sel.repair_bill(ship)
    assert bill.line("ordnance:F1").price == 200  # a rack of liquid fire dropped: a new one
    assert bill.line("ordnance:F2").price == 100  # a rack shot away: half its cost
    assert bill.line("ordnance:D2").price == 20
    with pytest.raises(KeyError):
        bill.line("ordnance:D1")  # a drogue lowered is only hauled back aboard
    ship = yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key="k")
    assert ShipRecord.from_json(ship.record).ordnance == record.ordnance


@pytest.mark.rule("SGC-START-06", "SGC-REPAIR-01")
def test_parhoon_cannot_replace_the_british_guns_of_a_bought_prize(table):
    ship = _ship(table, "aphid", "Greenfly")
    record = ShipRecord.from_json(ship.record)
    _damage(ship, guns=(replace(record.guns[0], destroyed=True), *record.guns[1:]))
    line = sel.repair_bill(ship).line("gun:1")
    assert not line.available
    assert "SGC-START-06" in line.why_not
    assert sel.repair_bill(ship).total == 0
    with pytest.raises(ValidationError, match="British"):
        yard.ship_repair(ship_id=ship.pk, user=table["alice"], lines=["gun:1"], idempotency_key="k")


# --- selling --------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MONEY-04", "SGC-AUCT-01")
def test_the_yard_buys_a_ship_at_half_her_price_less_her_damage(table):
    whole = _ship(table, "fleetfoot", "Dart")
    before = _balance(table)
    yard.ship_sell(ship_id=whole.pk, user=table["alice"])
    assert _balance(table) == before + 3000
    whole.refresh_from_db()
    assert whole.status == ShipStatus.SOLD

    battered = _battered_clearsight(table)
    bill = sel.repair_bill(battered)
    before = _balance(table)
    yard.ship_sell(ship_id=battered.pk, user=table["alice"])
    assert _balance(table) == before + 12_800 // 2 - (bill.total - bill.line("recruits").price)
    with pytest.raises(ValidationError):
        yard.ship_sell(ship_id=battered.pk, user=table["alice"])  # sold once
    ledger.check(table["jack"])


def test_a_wreck_fetches_nothing_from_the_yard(table):
    ship = _ship(table, "fleetfoot", "Wreck")
    record = ShipRecord.from_json(ship.record)
    *upper, lowest = record.hull_rows
    _damage(ship, hull_rows=(*(replace(row, hits=row.boxes) for row in upper), lowest))
    ship.hull_price = 200_000  # an absurd hull makes the bill outrun half her price
    ship.save()
    before = LedgerEntry.objects.count()
    yard.ship_sell(ship_id=ship.pk, user=table["alice"])
    assert LedgerEntry.objects.count() == before
    ship.refresh_from_db()
    assert ship.status == ShipStatus.SOLD


# --- crew experience ------------------------------------------------------------------------------------------


def _forty(table, quality: str) -> CampaignShip:
    ship = _ship(table, "clearsight", "Gull", crew_quality=quality)
    ship.original_crew = 40  # the rule's worked example: T = 6
    ship.save()
    return ship


@pytest.mark.rule("SGC-EXP-01", "SGC-EXP-02", "SGC-EXP-03", "SGC-EXP-12")
def test_back_with_a_prize_and_fewer_than_a_sixth_lost_the_crew_rises_without_a_roll(table):
    ship = _forty(table, "green")
    check = yard.voyage_end_experience(ship_id=ship.pk, voyage_key="voyage-1", prize=True, losses=5)
    ship.refresh_from_db()
    assert (check.threshold, check.roll, check.quality_after) == (6, None, "trained")
    assert ship.crew_quality == ShipRecord.from_json(ship.record).crew_quality == "trained"
    assert CampaignRoll.objects.count() == 0
    entry = ChronicleEntry.objects.get(kind=ChronicleKind.CREW_EXPERIENCE)
    assert "Gull" in entry.text
    assert "Trained" in entry.text


@pytest.mark.rule("SGC-EXP-04", "SGC-EXP-05", "SGC-EXP-06", "SGC-EXP-12")
@pytest.mark.parametrize(("losses", "fails_at"), [(7, 1), (13, 2), (36, 6)])
def test_back_with_a_prize_and_heavy_losses_the_rise_fails_on_a_low_roll(table, losses, fails_at):
    ship = _forty(table, "green")
    seed = table["campaign"].seed
    check = yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v", prize=True, losses=losses)
    ship.refresh_from_db()
    if fails_at >= 6:
        assert check.roll is None
        assert ship.crew_quality == "green"
        return
    assert check.roll is not None
    assert "Gull" in check.roll.purpose
    assert "voyage v" in check.roll.purpose
    die = die_for(seed, check.roll.seq, 6)
    assert check.roll.result == die
    assert ship.crew_quality == ("trained" if die > fails_at else "green")


@pytest.mark.rule("SGC-EXP-07", "SGC-EXP-08", "SGC-EXP-09")
def test_no_check_is_needed_for_a_crack_crew_with_a_prize_a_green_one_without_or_light_losses(table):
    crack = _forty(table, "crack")
    assert yard.voyage_end_experience(ship_id=crack.pk, voyage_key="v", prize=True, losses=0).quality_after == "crack"
    crack.status = ShipStatus.SOLD
    crack.save()
    green = _forty(table, "green")
    assert yard.voyage_end_experience(ship_id=green.pk, voyage_key="v", prize=False, losses=30).quality_after == "green"
    green.status = ShipStatus.SOLD
    green.save()
    trained = _forty(table, "trained")
    check = yard.voyage_end_experience(ship_id=trained.pk, voyage_key="v", prize=False, losses=5)
    assert check.quality_after == "trained"
    assert CampaignRoll.objects.count() == 0
    assert not ChronicleEntry.objects.filter(kind="crew_experience").exists()


@pytest.mark.rule("SGC-EXP-10", "SGC-EXP-11")
def test_back_without_a_prize_a_seasoned_crew_may_fall_back_by_the_losses(table):
    ship = _forty(table, "trained")
    check = yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v", prize=False, losses=12)
    ship.refresh_from_db()
    assert check.roll is not None
    assert ship.crew_quality == ("green" if check.roll.result <= 2 else "trained")
    assert check.quality_after == ship.crew_quality


@pytest.mark.rule("SGC-EXP-01")
def test_the_experience_check_is_made_once_a_voyage(table):
    ship = _forty(table, "green")
    first = yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v1", prize=True, losses=7)
    again = yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v1", prize=True, losses=7)
    assert again.pk == first.pk
    assert CampaignRoll.objects.count() == 1
    with pytest.raises(ValidationError, match="prize=True, losses=7"):
        yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v1", prize=False, losses=7)
    with transaction.atomic():
        yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v2", prize=True, losses=0)
    assert VoyageExperience.objects.filter(ship=ship).count() == 2


# --- races on PostgreSQL --------------------------------------------------------------------------------------


def _race(work, count: int) -> list[str]:
    start = threading.Barrier(count)

    def run(i: int) -> str:
        start.wait()
        try:
            work(i)
            return "done"
        except ValidationError as error:
            return f"refused: {error}"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.rule("SGC-MONEY-03")
def test_repair_orders_racing_for_one_ship_pay_her_bill_once(table):
    ship = _battered_clearsight(table)
    bill = sel.repair_bill(ship)
    before = _balance(table)

    outcomes = _race(lambda i: yard.ship_repair(ship_id=ship.pk, user=table["alice"], idempotency_key=f"k{i}"), 8)

    assert outcomes == ["done"] * 8
    assert _balance(table) == before - bill.total
    ship.refresh_from_db()
    assert sel.repair_bill(ship).lines == ()
    ledger.check(table["jack"])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.rule("SGC-EXP-01")
def test_experience_checks_racing_for_one_voyage_roll_once(table):
    ship = _forty(table, "green")

    outcomes = _race(lambda i: yard.voyage_end_experience(ship_id=ship.pk, voyage_key="v", prize=True, losses=13), 8)

    assert outcomes == ["done"] * 8
    assert VoyageExperience.objects.filter(ship=ship).count() == 1
    assert CampaignRoll.objects.count() == 1
