"""A damaged ship leaving Parhoon is first repaired as far as her captain's money goes (SGC-MONEY-03/07), in the
stated order: hull boxes, destroyed guns in record order, the other damage in the bill's order, new men last;
she sails damaged only for what he cannot pay, and the voyage's answer and the pages say what was done and what
stays damaged. A ship in port at another friendly city sails as she is: only Parhoon repairs (SGC-REPAIR-01)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import captains, ledger
from campaign import yard_selectors as sel
from campaign.models import CampaignShip, Captain, EntryKind, LedgerEntry, Role
from campaign.sailing_repairs import plan_for
from galleons import catalog, design
from galleons.record import ShipRecord
from strategic_map import voyages
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.strategic_map.test_voyages import _race, north, ship_for

pytestmark = pytest.mark.django_db

# SGC-REPAIR-05's worked hull: a size-2 Martian wooden hull of £10,000 to High has 8 boxes, £125 a hit.
HULL_HIT = math.ceil(10_000 / 8 / 10)
# SGC-REPAIR-02/03: a destroyed gun costs half its installing price to replace.
LIGHT_GUN = catalog.weapon("light_gun").cost_pounds // 2


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "jack": jack}


def _bank(club, amount: int) -> None:
    """Jack's balance set to ``amount`` by the umpire's adjustment (a ledger entry like any other)."""
    club["jack"].refresh_from_db()
    captains.captain_adjust_money(
        captain_id=club["jack"].pk,
        umpire=club["umpire"],
        amount=amount - club["jack"].balance,
        reason="the bank as the audit found it",
    )


def _balance(club) -> int:
    club["jack"].refresh_from_db()
    return club["jack"].balance


def _battered(club, *, rows: int, city: str = "parhoon", name: str = "Gull") -> CampaignShip:
    """A clearsight (the SGC-REPAIR-05 hull) with ``rows`` full hull rows hit and her first gun destroyed."""
    ship = ship_for(club["campaign"], club["jack"], "clearsight", name, city=city)
    if city != "parhoon":
        Captain.objects.filter(pk=club["jack"].pk).update(city=city)
    record = ShipRecord.from_json(ship.record)
    hull = tuple(replace(row, hits=row.boxes) if i < rows else row for i, row in enumerate(record.hull_rows))
    guns = (replace(record.guns[0], destroyed=True), *record.guns[1:])
    ship.record = replace(record, hull_rows=hull, guns=guns).to_json()
    ship.save(update_fields=["record"])
    return ship


def _sail(client, club, ship: CampaignShip, plan=None):
    plan = plan or [north(1)]
    return client.post(
        reverse("api_voyage_list", args=["syrtis"]), {"ship": ship.pk, "plan": plan}, content_type="application/json"
    )


def _record(ship: CampaignShip) -> ShipRecord:
    return ShipRecord.from_json(CampaignShip.objects.get(pk=ship.pk).record)


def test_the_clearsight_hull_is_the_rules_worked_example():
    rating = design.rate_design(design.design_from_catalog(catalog.ship_class("clearsight")))
    assert sel.hull_price(rating) == 10_000
    assert HULL_HIT == 125


@pytest.mark.rule("SGC-MONEY-03", "SGC-REPAIR-02", "SGC-REPAIR-04", "SGC-REPAIR-05")
def test_the_audits_ship_is_repaired_in_full_before_she_leaves_parhoon(client, club):
    ship = _battered(club, rows=1)
    _bank(club, 24_000)
    client.force_login(club["alice"])

    answer = _sail(client, club, ship)

    assert answer.status_code == 201, answer.content
    cost = 2 * HULL_HIT + LIGHT_GUN
    assert _balance(club) == 24_000 - cost
    entries = LedgerEntry.objects.filter(captain=club["jack"], kind=EntryKind.REPAIR).order_by("pk")
    # One entry a repair, in the stated order: the hull first, then the gun.
    assert [(e.amount, e.ship_id) for e in entries] == [(-2 * HULL_HIT, ship.pk), (-LIGHT_GUN, ship.pk)]
    record = _record(ship)
    assert record.hull_hits == 0
    assert not any(gun.destroyed for gun in record.guns)
    repairs = answer.json()["repairs"]
    assert repairs["paid"] == cost
    assert repairs["left"] == []
    assert repairs["repaired"] == ["hull hits (8 boxes) x2", "Light Gun [forward] destroyed"]
    assert "Parhoon" in repairs["words"]
    ledger.check(club["jack"])


@pytest.mark.rule("SGC-MONEY-07", "SGC-MONEY-03")
def test_a_poor_captain_has_the_hull_mended_first_as_far_as_his_money_goes_and_sails_damaged(client, club):
    ship = _battered(club, rows=2)
    _bank(club, 300)
    client.force_login(club["alice"])

    answer = _sail(client, club, ship)

    assert answer.status_code == 201, answer.content
    # Hull first: two of the four hits (£250); the £50 left does not buy the £200 gun.
    assert _balance(club) == 300 - 2 * HULL_HIT
    record = _record(ship)
    assert record.hull_hits == 2
    assert record.guns[0].destroyed
    repairs = answer.json()["repairs"]
    assert repairs["paid"] == 2 * HULL_HIT
    assert [line["key"] for line in repairs["left"]] == ["hull", "gun:1"]
    assert repairs["left"][0]["quantity"] == 2
    assert "sails damaged" in repairs["words"]
    assert "SGC-MONEY-07" in repairs["words"]


@pytest.mark.rule("SGC-MONEY-07")
def test_a_captain_with_nothing_in_the_bank_sails_damaged_without_debt(client, club):
    ship = _battered(club, rows=1)
    _bank(club, 0)
    client.force_login(club["alice"])

    answer = _sail(client, club, ship)

    assert answer.status_code == 201, answer.content
    assert _balance(club) == 0
    assert not LedgerEntry.objects.filter(captain=club["jack"], kind=EntryKind.REPAIR).exists()
    assert _record(ship).hull_hits == 2


@pytest.mark.rule("SGC-MONEY-03")
def test_a_retried_departure_pays_the_repairs_once(client, club):
    ship = _battered(club, rows=1)
    _bank(club, 24_000)
    client.force_login(club["alice"])

    first = _sail(client, club, ship)
    again = _sail(client, club, ship)

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert _balance(club) == 24_000 - 2 * HULL_HIT - LIGHT_GUN
    assert LedgerEntry.objects.filter(captain=club["jack"], kind=EntryKind.REPAIR).count() == 2


@pytest.mark.rule("SGC-MONEY-03")
def test_a_refused_plan_pays_for_no_repairs(client, club):
    ship = _battered(club, rows=1)
    _bank(club, 24_000)
    client.force_login(club["alice"])

    answer = _sail(client, club, ship, plan=[{"kind": "move", "path": [[30, 30]]}])

    assert answer.status_code == 400
    assert _balance(club) == 24_000
    assert _record(ship).hull_hits == 2


@pytest.mark.rule("SGC-REPAIR-01")
def test_a_damaged_ship_in_another_friendly_city_sails_without_repair(client, club):
    ship = _battered(club, rows=1, city="syrtis major")
    _bank(club, 24_000)
    client.force_login(club["alice"])

    answer = _sail(client, club, ship, plan=[{"kind": "move", "path": [[9, 10]]}])

    assert answer.status_code == 201, answer.content
    assert _balance(club) == 24_000
    assert _record(ship).hull_hits == 2
    repairs = answer.json()["repairs"]
    assert repairs["paid"] == 0
    assert [line["key"] for line in repairs["left"]] == ["hull", "gun:1"]
    assert "SGC-REPAIR-01" in repairs["words"]


@pytest.mark.rule("SGC-MONEY-07", "SGC-REPAIR-01")
def test_the_map_page_says_before_she_sails_what_parhoon_will_repair_and_what_stays_damaged(client, club):
    gull = _battered(club, rows=2)
    _bank(club, 300)
    client.force_login(club["alice"])

    html = client.get(reverse("campaign_map", args=["syrtis"])).content.decode()

    assert 'id="sailing-repairs"' in html
    assert f"£{2 * HULL_HIT:,}" in html
    assert "SGC-MONEY-07" in html
    CampaignShip.objects.filter(pk=gull.pk).update(city="syrtis major")
    Captain.objects.filter(pk=club["jack"].pk).update(city="syrtis major")
    html = client.get(reverse("campaign_map", args=["syrtis"])).content.decode()
    assert "SGC-REPAIR-01" in html
    assert "sails damaged" in html


@pytest.mark.rule("SGC-MONEY-03", "SGC-MONEY-07")
def test_the_ship_page_says_what_the_yard_will_do_if_she_sails_now(client, club):
    ship = _battered(club, rows=2)
    _bank(club, 300)
    client.force_login(club["alice"])

    html = client.get(reverse("ship_detail", args=[ship.pk])).content.decode()

    assert 'id="sailing-repairs"' in html
    assert f"£{2 * HULL_HIT:,}" in html
    assert "sails damaged" in html


@pytest.mark.rule("SGC-MONEY-03", "SGC-REPAIR-06")
def test_a_ship_too_damaged_to_move_is_mended_at_parhoon_and_sails(client, club):
    ship = ship_for(club["campaign"], club["jack"], "clearsight", "Gull")
    record = ShipRecord.from_json(ship.record)
    ship.record = replace(record, criticals=replace(record.criticals, screw_mast_hits=2)).to_json()
    ship.save(update_fields=["record"])
    _bank(club, 24_000)
    price = sel.repair_bill(ship).line("screw_mast").price
    client.force_login(club["alice"])

    answer = _sail(client, club, ship)

    assert answer.status_code == 201, answer.content
    assert _balance(club) == 24_000 - price
    assert _record(ship).criticals.screw_mast_hits == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.rule("SGC-MONEY-03")
def test_the_same_departure_racing_pays_the_repairs_once(club):
    ship = _battered(club, rows=1)
    _bank(club, 24_000)
    plan = [north(1)]

    outcomes = _race(
        lambda i: voyages.voyage_start(captain_id=club["jack"].pk, ship_id=ship.pk, user=club["alice"], plan=plan),
        6,
    )

    assert outcomes == ["created"] + ["found"] * 5
    assert _balance(club) == 24_000 - 2 * HULL_HIT - LIGHT_GUN
    ledger.check(club["jack"])


def test_the_map_page_costs_the_same_queries_for_one_damaged_ship_or_several(client, club):
    _battered(club, rows=1)
    client.force_login(club["alice"])
    url = reverse("campaign_map", args=["syrtis"])
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for n in range(3):
        _battered(club, rows=2, name=f"Kestrel {n}")
    with CaptureQueriesContext(connection) as several:
        html = client.get(url).content.decode()
    assert html.count("leaves Parhoon the yard repairs") == 4
    assert len(several.captured_queries) == len(one.captured_queries)


def _line(key: str, quantity: int, unit: int, why_not: str = "") -> sel.RepairLine:
    return sel.RepairLine(key, key, "SGC-REPAIR-02", quantity, unit, available=not why_not, why_not=why_not)


@pytest.mark.rule("SGC-MONEY-07", "SGC-AUCT-05", "SGC-START-06")
def test_the_order_hull_then_guns_then_the_rest_passes_over_a_line_too_dear_and_what_parhoon_cannot_do():
    bill = sel.RepairBill(
        (
            _line("hull", 4, 125),
            _line("gun:1", 1, 900),
            _line("gun:2", 1, 450, why_not="British: Parhoon does not make it (SGC-START-06)"),
            _line("gun:3", 1, 200),
            _line("screw_mast", 3, 100),
            _line("recruits", 6, 5),
        ),
        (),
    )

    plan = plan_for(bill, balance=930, ship_name="Prize", at_parhoon=True)

    # £500 of hull; the £900 gun passed over for the £200 one; two of three screw hits (£200); the £30 left
    # makes up the men.
    assert plan.chosen == (("hull", 4), ("gun:3", 1), ("screw_mast", 2), ("recruits", 6))
    assert (plan.repairs, plan.recruits) == (500 + 200 + 200, 30)
    assert [(line.key, line.quantity) for line in plan.left] == [("gun:1", 1), ("gun:2", 1), ("screw_mast", 1)]
    assert "British" in plan.words()
    assert plan_for(bill, balance=-50, ship_name="Prize", at_parhoon=True).cost == 0
    elsewhere = plan_for(bill, balance=1_000, ship_name="Prize", at_parhoon=False)
    assert (elsewhere.chosen, elsewhere.left) == ((), bill.lines)
