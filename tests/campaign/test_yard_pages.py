"""The Parhoon yard's pages (campaign/yard_views.py): the yard with the classes it builds and the live design
rater, a ship's page with her record sheet, repair bill, refit and sale; another player's answers 404."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import captains, yard
from campaign import yard_selectors as sel
from campaign.models import CampaignShip, Captain, EntryKind, LedgerEntry, Role, ShipStatus
from galleons import catalog
from galleons.record import Criticals, ShipRecord
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

# The design editor's fields for a small legal galley (campaign.yard_forms.DesignForm).
GULL_FORM: dict[str, Any] = {
    "design_name": "Parhoon Gull",
    "hull": "wood",
    "hull_size": "2",
    "armor": "1",
    "propulsion": "screw_galley",
    "turncranks": "12",
    "weapon_0": "light_gun",
    "mount_0": "forward",
    "weapon_1": "light_gun",
    "mount_1": "stern tower",
    "marines": "4",
}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", recruit_cost_per_man=5)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack}


def _balance(table) -> int:
    return Captain.objects.get(pk=table["jack"].pk).balance


def _battered(table) -> CampaignShip:
    """Jack's Clearsight back from a fight: two rows of hull boxes hit, a gun destroyed, men lost, a fire."""
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="clearsight", name="Gull")
    record = ShipRecord.from_json(ship.record)
    first, second, *rest = record.hull_rows
    record = replace(
        record,
        hull_rows=(replace(first, hits=first.boxes), replace(second, hits=second.boxes), *rest),
        guns=(replace(record.guns[0], destroyed=True, manned=0), *record.guns[1:]),
        crew=replace(record.crew, deckhands=0, maneuver_lost=2),
        fire=2,
        criticals=Criticals(screw_mast_hits=1, jury_rigged=True),
    )
    ship.record = record.to_json()
    ship.save()
    return ship


def _pounds(text: str) -> int:
    return int(text.replace("£", "").replace(",", ""))


# --- the yard -------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-START-02", "SGC-START-09")
def test_the_owner_buys_a_catalog_galley_from_the_yard_page_and_finds_her_on_his_captains_page(client, table):
    client.force_login(table["alice"])
    html = client.get(reverse("captain_yard", args=[table["jack"].pk])).content.decode()
    for offer in sel.parhoon_catalog():
        assert f'data-class="{offer.quote.class_id}"' in html
    assert "£6,000" in html  # the Fleetfoot's catalog price
    assert 'data-class="aphid"' not in html  # British-built: not Parhoon's to sell

    response = client.post(
        reverse("captain_yard_buy", args=[table["jack"].pk]), {"class_id": "fleetfoot", "name": "Dart"}
    )

    ship = CampaignShip.objects.get(name="Dart")
    assert response["Location"] == reverse("ship_detail", args=[ship.pk])
    assert _balance(table) == 30_000 - 6_000
    captain_page = client.get(reverse("captain_detail", args=[table["jack"].pk])).content.decode()
    assert f'href="{reverse("ship_detail", args=[ship.pk])}">Dart</a>' in captain_page


@pytest.mark.rule("SGC-START-09")
def test_a_first_ship_dearer_than_the_advance_is_refused_on_the_page_with_the_services_reason(client, table):
    client.force_login(table["alice"])
    response = client.post(
        reverse("captain_yard_buy", args=[table["jack"].pk]), {"class_id": "endtime", "name": "Doom"}, follow=True
    )
    html = response.content.decode()
    assert "SGC-START-09" in html
    assert "£32,300" in html
    assert "£30,000" in html
    assert not CampaignShip.objects.exists()
    assert _balance(table) == 30_000


@pytest.mark.rule("SGD-HULL-05", "SGC-START-03")
def test_the_live_quote_partial_shows_a_violation_with_its_clause_and_no_commission_button(client, table):
    client.force_login(table["alice"])
    url = reverse("captain_yard_quote", args=[table["jack"].pk])

    steel = client.post(url, {**GULL_FORM, "hull": "steel"}, **HTMX)
    html = steel.content.decode()
    assert "<html" not in html  # the partial alone
    assert "SGD-HULL-05" in html
    assert "Parhoon will not build her" in html
    assert "Commission her" not in html

    legal = client.post(url, GULL_FORM, **HTMX).content.decode()
    price = sel.design_quote(sel.at_parhoon({"name": "Parhoon Gull", **_gull_json()}))["parhoon"]["price"]
    assert f"Parhoon will build her for £{price:,}" in legal
    assert "Commission her" in legal


def _gull_json() -> dict[str, Any]:
    return {
        "hull": "wood",
        "hull_size": 2,
        "ram": False,
        "armor": 1,
        "propulsion": {"type": "screw_galley", "turncranks": 12},
        "weapons": [{"weapon": "light_gun", "mount": "forward"}, {"weapon": "light_gun", "mount": "stern tower"}],
        "exotics": [],
        "marines": 4,
    }


def test_the_quote_names_input_it_cannot_rate_and_works_without_javascript(client, table):
    client.force_login(table["alice"])
    url = reverse("captain_yard_quote", args=[table["jack"].pk])
    missing = client.post(url, {**GULL_FORM, "turncranks": ""}, **HTMX).content.decode()
    assert "propulsion.turncranks" in missing
    garbled = client.post(url, {**GULL_FORM, "hull_size": "many"}, **HTMX).content.decode()
    assert "hull_size" in garbled
    # The Rate button without HTMX: the whole page, the editor as the player left it, rated.
    page = client.post(url, {**GULL_FORM, "hull": "steel"}).content.decode()
    assert "<html" in page
    assert "SGD-HULL-05" in page
    assert re.search(r'<option value="steel" selected>', page)


@pytest.mark.rule("SGC-START-09")
def test_a_design_beyond_the_advance_is_rated_but_offers_no_commission_button(client, table):
    client.force_login(table["alice"])
    big = {**GULL_FORM, "hull_size": "6", "turncranks": "36"}
    html = client.post(reverse("captain_yard_quote", args=[table["jack"].pk]), big, **HTMX).content.decode()
    price = sel.design_quote({**_gull_json(), "hull_size": 6, "propulsion": {"type": "screw_galley", "turncranks": 36}})
    assert price["parhoon"]["buildable"]
    assert price["parhoon"]["price"] > 30_000
    assert "more than Captain Jack may pay now" in html
    assert "Commission her" not in html


@pytest.mark.rule("SGC-START-07")
def test_the_owner_commissions_a_design_from_the_editor_at_its_rated_price(client, table):
    client.force_login(table["alice"])
    response = client.post(
        reverse("captain_yard_commission", args=[table["jack"].pk]), {**GULL_FORM, "ship_name": "Kestrel"}
    )
    ship = CampaignShip.objects.get(name="Kestrel")
    assert response["Location"] == reverse("ship_detail", args=[ship.pk])
    quote = sel.design_quote({"name": "Parhoon Gull", **_gull_json()})
    assert _balance(table) == 30_000 - quote["parhoon"]["price"]

    refused = client.post(
        reverse("captain_yard_commission", args=[table["jack"].pk]),
        {**GULL_FORM, "hull": "steel", "ship_name": "Ironside"},
    )
    assert refused.status_code == 400
    assert "SGD-HULL-05" in refused.content.decode()
    assert not CampaignShip.objects.filter(name="Ironside").exists()


# --- a ship's page --------------------------------------------------------------------------------------------


def test_the_ship_page_draws_her_record_sheet_with_the_damage_crossed_off_and_prints_it(client, table):
    ship = _battered(table)
    record = ShipRecord.from_json(ship.record)
    client.force_login(table["alice"])
    html = client.get(reverse("ship_detail", args=[ship.pk])).content.decode()
    assert 'class="sheet' in html
    assert f"{record.hull_hits} of {record.hull_boxes} hull boxes hit" in html
    assert "sheet-gun--destroyed" in html
    pdf = client.get(reverse("ship_sheet_pdf", args=[ship.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


@pytest.mark.rule("SGC-REPAIR-01", "SGC-MONEY-03")
def test_the_bill_is_shown_line_by_line_every_line_ticked_and_its_total_the_sum_of_the_lines(client, table):
    ship = _battered(table)
    bill = sel.repair_bill(ship)
    client.force_login(table["alice"])
    html = client.get(reverse("ship_detail", args=[ship.pk])).content.decode()

    ticked = re.findall(r'<input type="checkbox" name="line" value="([^"]+)"[^>]*checked', html)
    assert ticked == [line.key for line in bill.lines]
    prices = [_pounds(p) for p in re.findall(r'<td class="num">(£[\d,]+)</td>\s*</tr>', html)]
    assert prices == [line.price for line in bill.lines]
    total = int(re.search(r'data-bill-total="(\d+)"', html).group(1))  # type: ignore[union-attr]
    assert total == sum(prices) == bill.total
    assert "SGC-REPAIR-04" in html


@pytest.mark.rule("SGC-MONEY-07", "SGC-REPAIR-04")
def test_the_owner_confirms_the_repairs_he_ticked_after_seeing_their_total_and_pays_it_once(client, table):
    ship = _battered(table)
    bill = sel.repair_bill(ship)
    before = _balance(table)
    client.force_login(table["alice"])
    ticked = {"line": ["hull", "gun:1"], "qty-hull": "2"}
    expected = 2 * bill.line("hull").unit_price + bill.line("gun:1").price

    live = client.post(reverse("ship_repair_total", args=[ship.pk]), ticked, **HTMX).content.decode()
    assert f"£{expected:,}" in live
    confirm = client.post(reverse("ship_repair", args=[ship.pk]), ticked).content.decode()
    assert f"Confirm repairs for £{expected:,}" in confirm
    assert _balance(table) == before  # nothing paid before he confirms
    key = re.search(r'name="idempotency_key" value="([0-9a-f]+)"', confirm).group(1)  # type: ignore[union-attr]
    chosen = re.findall(r'name="chosen" value="([^"]+)"', confirm)
    assert chosen == ["hull:2", "gun:1"]

    order = {"chosen": chosen, "idempotency_key": key, "confirm": "1"}
    client.post(reverse("ship_repair", args=[ship.pk]), order)
    client.post(reverse("ship_repair", args=[ship.pk]), order)  # a double click

    assert _balance(table) == before - expected
    assert ShipRecord.from_json(CampaignShip.objects.get(pk=ship.pk).record).hull_hits == (
        ShipRecord.from_json(ship.record).hull_hits - 2
    )
    assert LedgerEntry.objects.filter(captain=table["jack"], kind=EntryKind.REPAIR).count() == 1


@pytest.mark.rule("SGC-MONEY-07")
def test_repairs_beyond_the_bank_are_refused_on_the_page_with_the_balance(client, table):
    ship = _battered(table)
    captains.captain_adjust_money(
        captain_id=table["jack"].pk, umpire=table["umpire"], amount=-_balance(table) + 10, reason="test"
    )
    client.force_login(table["alice"])
    live = client.post(reverse("ship_repair_total", args=[ship.pk]), {"line": ["hull"]}, **HTMX).content.decode()
    assert "more than the £10 in the bank" in live
    order = {"chosen": ["hull"], "idempotency_key": "k", "confirm": "1"}
    page = client.post(reverse("ship_repair", args=[ship.pk]), order, follow=True).content.decode()
    assert "£10 in the bank" in page
    assert "SGC-MONEY-07" in page
    assert _balance(table) == 10


@pytest.mark.rule("SGC-MONEY-04")
def test_the_owner_refits_a_gun_and_sells_her_at_the_price_shown(client, table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    client.force_login(table["alice"])
    pair = {"action_0": "add", "weapon_0": "sweeper", "mount_0": "port wing"}
    pair |= {"action_1": "add", "weapon_1": "sweeper", "mount_1": "starboard wing"}
    client.post(reverse("ship_refit", args=[ship.pk]), pair)
    refit = LedgerEntry.objects.get(captain=table["jack"], kind=EntryKind.REFIT)
    assert refit.amount == -2 * catalog.weapon("sweeper").cost_pounds

    ship.refresh_from_db()
    offer = client.get(reverse("ship_sell", args=[ship.pk])).content.decode()
    price = sel.sale_price(ship)
    assert f"Sell her for £{price:,}" in offer
    before = _balance(table)
    response = client.post(reverse("ship_sell", args=[ship.pk]))
    assert response["Location"] == reverse("captain_detail", args=[table["jack"].pk])
    assert CampaignShip.objects.get(pk=ship.pk).status == ShipStatus.SOLD
    assert _balance(table) == before + price


def test_a_refit_parhoon_will_not_fit_is_refused_with_its_clause(client, table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    client.force_login(table["alice"])
    page = client.post(
        reverse("ship_refit", args=[ship.pk]), {"action_0": "replace", "gun_0": "1", "weapon_0": "6pdr"}, follow=True
    ).content.decode()
    assert "SGD-ARMT-15" in page
    assert not LedgerEntry.objects.filter(kind=EntryKind.REFIT).exists()


# --- who may see what -----------------------------------------------------------------------------------------

PAGES = [
    ("get", "captain_yard", "captain", {}),
    ("post", "captain_yard_buy", "captain", {"class_id": "fleetfoot", "name": "Thief"}),
    ("post", "captain_yard_quote", "captain", GULL_FORM),
    ("post", "captain_yard_commission", "captain", {**GULL_FORM, "ship_name": "Thief"}),
    ("get", "ship_detail", "ship", {}),
    ("get", "ship_sheet_pdf", "ship", {}),
    ("post", "ship_repair", "ship", {"line": ["hull"]}),
    ("post", "ship_repair", "ship", {"chosen": ["hull"], "idempotency_key": "k", "confirm": "1"}),
    ("post", "ship_repair_total", "ship", {"line": ["hull"]}),
    ("post", "ship_refit", "ship", {"action_0": "remove", "gun_0": "1"}),
    ("get", "ship_sell", "ship", {}),
    ("post", "ship_sell", "ship", {}),
]


@pytest.mark.parametrize(("method", "name", "target", "data"), PAGES)
def test_another_players_captain_and_ship_answer_404_on_every_page(client, table, method, name, target, data):
    ship = _battered(table)
    before = (_balance(table), ship.record)
    pk = table["jack"].pk if target == "captain" else ship.pk
    for user in (table["bob"], UserFactory(username="stranger")):
        client.force_login(user)
        assert getattr(client, method)(reverse(name, args=[pk]), data).status_code == 404
    client.force_login(table["bob"])
    assert getattr(client, method)(reverse(name, args=[pk + 1000]), data).status_code == 404
    ship.refresh_from_db()
    assert (_balance(table), ship.record) == before


def test_the_umpire_sees_the_ship_and_the_yard_but_gives_no_orders(client, table):
    ship = _battered(table)
    client.force_login(table["umpire"])
    html = client.get(reverse("ship_detail", args=[ship.pk])).content.decode()
    assert "Gull" in html
    assert "Price these repairs" not in html
    assert "Refit her" not in html
    yard_html = client.get(reverse("captain_yard", args=[table["jack"].pk])).content.decode()
    assert "only the captain's own player orders ships" in yard_html
    before = _balance(table)
    order = {"chosen": ["hull"], "idempotency_key": "u", "confirm": "1"}
    refused = client.post(reverse("ship_repair", args=[ship.pk]), order, follow=True)
    assert refused.status_code == 200
    assert "not yours" in refused.content.decode()
    assert _balance(table) == before


# --- queries --------------------------------------------------------------------------------------------------


def test_the_ship_page_and_the_yard_page_cost_no_more_queries_with_more_ships_and_ledger_entries(client, table):
    ship = _battered(table)
    client.force_login(table["alice"])
    urls = [reverse("ship_detail", args=[ship.pk]), reverse("captain_yard", args=[table["jack"].pk])]
    for url in urls:
        client.get(url)
    few = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        few.append(len(queries.captured_queries))
    captains.captain_adjust_money(captain_id=table["jack"].pk, umpire=table["umpire"], amount=90_000, reason="prizes")
    for n in range(5):
        yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name=f"Dart {n}")
    many = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        many.append(len(queries.captured_queries))
    assert many == few
