"""The Parhoon yard's API (campaign/yard_api.py): what Parhoon builds, a design's rating with no side effects,
buying and commissioning, a ship with her record and bill, repairs, refits and sales; another player's captain or
ship answers 404 on every endpoint, bad input 400 with the service's reason, never 500."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from campaign import captains, yard
from campaign import yard_selectors as sel
from campaign.models import CampaignShip, Captain, ChronicleEntry, EntryKind, LedgerEntry, Role, ShipStatus
from galleons import catalog
from galleons.record import ShipRecord
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
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", recruit_cost_per_man=5)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack}


def _post(client, url: str, body: Any):
    return client.post(url, body, content_type="application/json")


def _balance(table) -> int:
    return Captain.objects.get(pk=table["jack"].pk).balance


def _battered(table) -> CampaignShip:
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="clearsight", name="Gull")
    record = ShipRecord.from_json(ship.record)
    first, *rest = record.hull_rows
    record = replace(
        record,
        hull_rows=(replace(first, hits=first.boxes), *rest),
        guns=(replace(record.guns[0], destroyed=True, manned=0), *record.guns[1:]),
        crew=replace(record.crew, deckhands=0),
    )
    ship.record = record.to_json()
    ship.save()
    return ship


@pytest.mark.rule("SGC-START-02", "SGC-START-06")
def test_the_classes_parhoon_builds_with_their_figures_and_none_it_does_not(client, table):
    client.force_login(table["bob"])
    classes = {c["class_id"]: c for c in client.get(reverse("api_yard_classes")).json()}
    assert set(classes) == {q.class_id for q in sel.parhoon_classes()}
    fleetfoot = catalog.ship_class("fleetfoot")
    assert (classes["fleetfoot"]["price"], classes["fleetfoot"]["tonnage"], classes["fleetfoot"]["speed"]) == (
        fleetfoot.price,
        fleetfoot.tonnage,
        fleetfoot.speed,
    )
    assert classes["bloodrunner"]["speed"] == "K"  # a kite's speed is rolled
    assert classes["fleetfoot"]["guns"]
    assert "aphid" not in classes


@pytest.mark.rule("SGD-HULL-05", "SGC-START-03")
def test_a_quote_rates_a_design_with_parhoons_verdict_and_changes_nothing(client, table):
    client.force_login(table["alice"])
    counts = (LedgerEntry.objects.count(), CampaignShip.objects.count(), ChronicleEntry.objects.count())
    legal = _post(client, reverse("api_yard_quote"), {"design": GULL}).json()
    assert legal["parhoon"] == sel.design_quote(GULL)["parhoon"]
    assert legal["parhoon"]["buildable"]
    assert legal["rating"]["tonnage"] > 0
    steel = _post(client, reverse("api_yard_quote"), {"design": {**GULL, "hull": "steel"}}).json()
    assert "SGD-HULL-05" in {p["clause"] for p in steel["parhoon"]["problems"]}
    malformed = _post(client, reverse("api_yard_quote"), {"design": {**GULL, "hull_size": 0}}).json()
    assert malformed["rating"] is None
    assert any(p.startswith("hull_size") for p in malformed["input_errors"])
    assert _post(client, reverse("api_yard_quote"), {"design": "a fast ship"}).status_code == 400
    assert (LedgerEntry.objects.count(), CampaignShip.objects.count(), ChronicleEntry.objects.count()) == counts


@pytest.mark.rule("SGC-START-07", "SGC-START-09")
def test_the_owner_buys_a_class_and_commissions_a_design_through_the_api(client, table):
    client.force_login(table["alice"])
    url = reverse("api_captain_ships", args=[table["jack"].pk])
    bought = _post(client, url, {"name": "Dart", "class_id": "fleetfoot"})
    assert bought.status_code == 201
    assert (bought.json()["name"], bought.json()["status"], bought.json()["bill"]["lines"]) == ("Dart", "in_port", [])
    commissioned = _post(client, url, {"name": "Kestrel", "design": GULL})
    assert commissioned.status_code == 201
    price = sel.design_quote(GULL)["parhoon"]["price"]
    assert commissioned.json()["original_price"] == price
    assert _balance(table) == 30_000 - 6_000 - price


def test_a_ship_comes_with_her_record_and_her_bill_whose_total_is_the_sum_of_its_lines(client, table):
    ship = _battered(table)
    client.force_login(table["alice"])
    data = client.get(reverse("api_ship_detail", args=[ship.pk])).json()
    assert data["record"] == ship.record
    lines = data["bill"]["lines"]
    assert {line["key"] for line in lines} >= {"hull", "gun:1", "recruits"}
    assert data["bill"]["total"] == sum(line["price"] for line in lines if line["available"])
    assert data["bill"] == sel.repair_bill(ship).to_json()
    assert data["sale_price"] == sel.sale_price(ship)


@pytest.mark.rule("SGC-MONEY-07", "SGC-REPAIR-03")
def test_the_owner_repairs_the_lines_he_chooses_once_per_idempotency_key(client, table):
    ship = _battered(table)
    bill = sel.repair_bill(ship)
    before = _balance(table)
    client.force_login(table["alice"])
    url = reverse("api_ship_repair", args=[ship.pk])
    body = {"lines": ["gun:1", "hull:1"], "idempotency_key": "home-from-thoth"}
    first = _post(client, url, body)
    again = _post(client, url, body)
    assert (first.status_code, again.status_code) == (200, 200)
    paid = bill.line("gun:1").price + bill.line("hull").unit_price
    assert _balance(table) == before - paid
    assert [line["key"] for line in again.json()["bill"]["lines"]] == ["hull", "recruits"]
    everything = _post(client, url, {"idempotency_key": "the-rest"})
    assert everything.json()["bill"]["lines"] == []


def test_the_owner_refits_and_sells_through_the_api(client, table):
    ship = yard.ship_buy_class(captain_id=table["jack"].pk, user=table["alice"], class_id="fleetfoot", name="Dart")
    client.force_login(table["alice"])
    changes = [
        {"action": "add", "weapon": "Sweeper", "mount": "port wing"},
        {"action": "add", "weapon": "Sweeper", "mount": "starboard wing"},
    ]
    refit = _post(client, reverse("api_ship_refit", args=[ship.pk]), {"changes": changes})
    assert refit.status_code == 200
    assert [g["weapon"] for g in refit.json()["record"]["guns"]][-2:] == ["sweeper", "sweeper"]
    price = refit.json()["sale_price"]
    before = _balance(table)
    sold = _post(client, reverse("api_ship_sell", args=[ship.pk]), {})
    assert sold.json()["status"] == ShipStatus.SOLD
    assert _balance(table) == before + price
    assert LedgerEntry.objects.get(captain=table["jack"], kind=EntryKind.SALE).amount == price


ENDPOINTS = [
    ("get", "api_ship_detail", "ship", None),
    ("post", "api_ship_repair", "ship", {"idempotency_key": "theft"}),
    ("post", "api_ship_refit", "ship", {"changes": [{"action": "remove", "gun": "1"}]}),
    ("post", "api_ship_sell", "ship", {}),
    ("post", "api_captain_ships", "captain", {"name": "Thief", "class_id": "fleetfoot"}),
    ("post", "api_captain_ships", "captain", {"name": "Thief", "design": GULL}),
]


@pytest.mark.parametrize(("method", "name", "target", "body"), ENDPOINTS)
def test_another_players_captain_and_ship_answer_404_on_every_endpoint(client, table, method, name, target, body):
    ship = _battered(table)
    before = (_balance(table), ship.record, CampaignShip.objects.count())
    pk = table["jack"].pk if target == "captain" else ship.pk
    for user in (table["bob"], UserFactory(username="stranger")):
        client.force_login(user)
        for key in (pk, pk + 1000):
            url = reverse(name, args=[key])
            response = client.get(url) if method == "get" else _post(client, url, body)
            assert response.status_code == 404
    ship.refresh_from_db()
    assert (_balance(table), ship.record, CampaignShip.objects.count()) == before


def test_the_umpire_reads_a_ship_but_only_her_captains_player_orders_work(client, table):
    ship = _battered(table)
    client.force_login(table["umpire"])
    assert client.get(reverse("api_ship_detail", args=[ship.pk])).status_code == 200
    assert _post(client, reverse("api_ship_repair", args=[ship.pk]), {"idempotency_key": "u"}).status_code == 403


@pytest.mark.parametrize(
    ("name", "body", "reason"),
    [
        ("api_captain_ships", {"name": "Doom", "class_id": "endtime"}, "£32,300 is asked"),
        ("api_captain_ships", {"name": "Nobody", "class_id": "no_such_class"}, "class_id"),
        ("api_captain_ships", {"name": "Aphid", "class_id": "aphid"}, "SGC-START-02"),
        ("api_captain_ships", {"name": "Both", "class_id": "fleetfoot", "design": GULL}, "one of the two"),
        ("api_captain_ships", {"name": "Iron", "design": {**GULL, "hull": "steel"}}, "SGD-HULL-05"),
        ("api_captain_ships", {"name": "Bad", "design": {**GULL, "hull_size": "big"}}, "hull_size"),
        ("api_captain_ships", {"name": "Gull", "class_id": "fleetfoot"}, "already a ship called Gull"),
        ("api_ship_repair", {"lines": ["hull"]}, "idempotency_key"),
        ("api_ship_repair", {"lines": ["mainmast"], "idempotency_key": "k"}, "No repair 'mainmast'"),
        ("api_ship_repair", {"lines": ["hull:99"], "idempotency_key": "k"}, "between 1 and"),
        ("api_ship_refit", {"changes": [{"action": "paint"}]}, "add, remove or replace"),
        ("api_ship_refit", {"changes": []}, "list of changes"),
        ("api_ship_refit", {"changes": [{"action": "replace", "gun": "1", "weapon": "6-pdr"}]}, "SGD-ARMT-15"),
    ],
)
def test_bad_input_is_a_400_with_the_services_reason_never_a_500(client, table, name, body, reason):
    ship = _battered(table)
    before = (_balance(table), ship.record)
    client.force_login(table["alice"])
    pk = table["jack"].pk if name == "api_captain_ships" else ship.pk
    response = _post(client, reverse(name, args=[pk]), body)
    assert response.status_code == 400
    assert reason in str(response.json())
    ship.refresh_from_db()
    assert (_balance(table), ship.record) == before


def test_a_ship_at_sea_is_not_the_yards_to_repair(client, table):
    ship = _battered(table)
    CampaignShip.objects.filter(pk=ship.pk).update(status=ShipStatus.AT_SEA, city="")
    client.force_login(table["alice"])
    response = _post(client, reverse("api_ship_repair", args=[ship.pk]), {"idempotency_key": "k"})
    assert response.status_code == 400
    assert "in port at Parhoon" in str(response.json())
    assert client.get(reverse("api_ship_detail", args=[ship.pk])).json()["sale_price"] is None
