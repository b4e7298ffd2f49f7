"""The voyage services and API (strategic_map/voyages.py, voyage_selectors.py, voyage_api.py): setting out from
a city, the preview, re-planning until the order deadline and the locked day after it, the shortest way, and the
fog of war (another player's voyage or ship answers 404)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from campaign import captains
from campaign.models import CampaignShip, Captain, CaptainStatus, Role, ShipStatus
from galleons import catalog
from galleons.record import ShipRecord, ship_record_from_class
from strategic_map import voyages
from strategic_map.models import CampaignMapRules, OrderExtension, Voyage, VoyageStatus
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PARHOON = [7, 8]


def ship_for(campaign, captain: Captain, class_id: str, name: str, **fields: Any) -> CampaignShip:
    """A ship of the class, the captain's, in port at Parhoon."""
    record = ship_record_from_class(class_id, name=name, crew_quality="green")
    ship_class = catalog.ship_class(class_id)
    return CampaignShip.objects.create(
        campaign=campaign,
        captain=captain,
        name=name,
        class_id=class_id,
        record=fields.pop("record", record.to_json()),
        original_price=ship_class.price or 0,
        crew_quality="green",
        original_crew=record.men_alive,
        coal_days=fields.pop("coal_days", ship_class.raw.get("endurance_days")),
        status=fields.pop("status", ShipStatus.IN_PORT),
        city=fields.pop("city", "parhoon"),
        **fields,
    )


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    return {
        "campaign": campaign,
        "umpire": umpire,
        "alice": alice,
        "bob": bob,
        "jack": jack,
        "mary": mary,
        "gull": ship_for(campaign, jack, "small_bird", "Gull"),
        "aphid": ship_for(campaign, jack, "aphid", "Spark"),
        "kite": ship_for(campaign, mary, "bloodrunner", "Red Wind"),
    }


def north(*hexes: int, start: tuple[int, int] = (7, 8)) -> dict[str, Any]:
    """A move due north of ``start``: ``hexes`` hexes."""
    q, r = start
    return {"kind": "move", "path": [[q, r - n] for n in range(1, hexes[0] + 1)]}


def post(client, name: str, body: dict[str, Any], *args: Any):
    return client.post(reverse(name, args=args), body, content_type="application/json")


def patch(client, voyage_id: int, plan: Any):
    return client.patch(reverse("api_voyage_detail", args=[voyage_id]), {"plan": plan}, content_type="application/json")


def start(client, club, plan: Any, ship: str = "gull"):
    return post(client, "api_voyage_list", {"ship": club[ship].pk, "plan": plan}, "syrtis")


def schedule(campaign, *, deadline_in: timedelta) -> None:
    """Put the next tick so that the order deadline is ``deadline_in`` from now (negative: passed)."""
    campaign.next_tick_at = (
        timezone.now() + deadline_in + timedelta(hours=campaign.hours_per_day - campaign.order_deadline_hours)
    )
    campaign.save(update_fields=["next_tick_at"])


# --- setting out -------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-01", "SGC-MOVE-03")
def test_a_captain_sets_out_from_parhoon(client, club):
    client.force_login(club["alice"])
    plan = [north(2), {"kind": "patrol"}]
    answer = start(client, club, plan)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    voyage = Voyage.objects.get()
    assert body == {
        "id": voyage.pk,
        "ship": {"id": club["gull"].pk, "name": "Gull"},
        "captain": {"id": club["jack"].pk, "name": "Jack"},
        "status": "under_way",
        "q": 7,
        "r": 8,
        "label": "0812",
        "plan": plan,
        "plan_locked_days": 0,
        "order_deadline": None,
        "start_city": "Parhoon",
        "end_city": "",
        "started_day": 0,
        "repairs": {"paid": 0, "repaired": [], "left": [], "words": ""},
    }
    club["gull"].refresh_from_db()
    club["jack"].refresh_from_db()
    assert (club["gull"].status, club["gull"].city) == (ShipStatus.AT_SEA, "")
    assert (club["jack"].status, club["jack"].city) == (CaptainStatus.AT_SEA, "")


def test_the_same_orders_sent_twice_start_one_voyage(client, club):
    client.force_login(club["alice"])
    plan = [north(2), {"kind": "patrol", "path": []}]
    first = start(client, club, plan)
    again = start(client, club, plan)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert Voyage.objects.count() == 1
    # Other orders for a ship already at sea are a conflict: her voyage's plan is the place to change them.
    other = start(client, club, [north(1)])
    assert other.status_code == 409
    assert other.json() == {
        "detail": f"The Gull is already at sea (voyage {first.json()['id']}): change that voyage's plan."
    }


def _race(work, count: int) -> list[str]:
    barrier = threading.Barrier(count)

    def run(i: int) -> str:
        barrier.wait()
        try:
            _voyage, created = work(i)
            return "created" if created else "found"
        except ValidationError as error:
            return f"refused: {' '.join(error.messages)}"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return sorted(pool.map(run, range(count)))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_orders_racing_start_one_voyage(club):
    plan = [north(2)]
    outcomes = _race(
        lambda i: voyages.voyage_start(
            captain_id=club["jack"].pk, ship_id=club["gull"].pk, user=club["alice"], plan=plan
        ),
        6,
    )
    assert outcomes == ["created"] + ["found"] * 5
    assert Voyage.objects.filter(ship=club["gull"]).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_captain_racing_two_ships_out_sails_one(club):
    ships = [club["gull"].pk, club["aphid"].pk]
    outcomes = _race(
        lambda i: voyages.voyage_start(
            captain_id=club["jack"].pk, ship_id=ships[i], user=club["alice"], plan=[north(1)]
        ),
        2,
    )
    assert outcomes == ["created", "refused: Captain Jack is already at sea in another ship."]
    assert Voyage.objects.count() == 1


def test_a_captain_sails_one_ship_at_a_time(client, club):
    client.force_login(club["alice"])
    assert start(client, club, [north(1)]).status_code == 201
    second = start(client, club, [north(1)], ship="aphid")
    assert second.status_code == 409
    assert second.json() == {"detail": "Captain Jack is already at sea in another ship."}


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ([{"kind": "move", "path": [[7, 7], [7, 5]]}], "Day 1: Hex 2 of the path, 0809, is not next to 0811."),
        (
            [north(3)],
            "Day 1: Too far for one day: the Gull, a screw galley, sails 2 hexes a day; this path needs 3 hexes.",
        ),
        (
            [north(2), {"kind": "move", "path": [[7, 6], [7, 5], [7, 4]]}],
            "Day 2: Hex 1 of the path, 0810, is where she already is.",
        ),
        ([{"kind": "move", "path": [[7, 7], [7, -30]]}], "Day 1: Hex 2 of the path, (7, -30), is off the map."),
        ([{"kind": "sail"}], 'Day 1: A day is {"kind": "move", "path": [[q, r], ...]} or {"kind": "patrol"}.'),
        ([], "A voyage needs a plan of at least one day."),
        ("north", "A voyage needs a plan of at least one day."),
    ],
)
def test_a_plan_that_cannot_be_sailed_answers_400_with_the_reason(client, club, plan, message):
    client.force_login(club["alice"])
    answer = start(client, club, plan)
    assert answer.status_code == 400
    assert message in answer.json()["plan"]
    assert not Voyage.objects.exists()
    club["gull"].refresh_from_db()
    assert club["gull"].status == ShipStatus.IN_PORT


@pytest.mark.rule("SGC-MOVE-14")
def test_a_steam_ship_without_coal_cannot_move(client, club):
    CampaignShip.objects.filter(pk=club["aphid"].pk).update(coal_days=1)
    client.force_login(club["alice"])
    answer = start(client, club, [north(3), north(1, start=(7, 5))], ship="aphid")
    assert answer.status_code == 400
    assert answer.json()["plan"] == [
        "Day 2: The Spark has no coal left: a steam ship cannot move without it (SGC-MOVE-14)."
    ]
    assert start(client, club, [north(3), {"kind": "patrol"}], ship="aphid").status_code == 201


def test_a_ship_whose_speed_is_nothing_cannot_set_out(client, club):
    record = ShipRecord.from_json(club["gull"].record)
    damaged = replace(record, criticals=replace(record.criticals, screw_mast_hits=5))
    CampaignShip.objects.filter(pk=club["gull"].pk).update(record=damaged.to_json())
    # Nothing in the bank: Parhoon cannot mend her screw before she sails (SGC-MONEY-07).
    captains.captain_adjust_money(
        captain_id=club["jack"].pk, umpire=club["umpire"], amount=-club["jack"].balance, reason="an empty purse"
    )
    client.force_login(club["alice"])
    answer = start(client, club, [north(1)])
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "The Gull's speed is 0 after her damage: she cannot sail until she is repaired or jury-rigged."
    }


def test_a_prize_in_port_does_not_sail(client, club):
    prize = ship_for(
        club["campaign"], club["jack"], "small_bird", "Taken", status=ShipStatus.PRIZE, captured_by=club["jack"]
    )
    client.force_login(club["alice"])
    answer = post(client, "api_voyage_list", {"ship": prize.pk, "plan": [north(1)]}, "syrtis")
    assert answer.status_code == 409
    assert answer.json() == {"detail": "The Taken is a prize awaiting sale: prizes in port do not sail."}


def test_the_captain_must_be_ashore_with_his_ship(client, club):
    Captain.objects.filter(pk=club["jack"].pk).update(status=CaptainStatus.TREKKING, city="")
    client.force_login(club["alice"])
    answer = start(client, club, [north(1)])
    assert answer.status_code == 409
    assert answer.json() == {
        "detail": "Captain Jack must be ashore at Parhoon to sail the Gull; he is on an epic trek."
    }


def test_a_ship_in_port_elsewhere_sets_out_from_that_city(client, club):
    CampaignShip.objects.filter(pk=club["gull"].pk).update(city="syrtis major")
    Captain.objects.filter(pk=club["jack"].pk).update(city="syrtis major")
    client.force_login(club["alice"])
    answer = start(client, club, [{"kind": "move", "path": [[9, 10]]}])
    assert answer.status_code == 201, answer.content
    assert (answer.json()["start_city"], answer.json()["q"], answer.json()["r"]) == ("Syrtis Major", 9, 11)


def test_the_service_refuses_another_players_captain_or_ship(club):
    with pytest.raises(PermissionDenied):
        voyages.voyage_start(captain_id=club["jack"].pk, ship_id=club["gull"].pk, user=club["bob"], plan=[north(1)])
    with pytest.raises(PermissionDenied):
        voyages.voyage_start(captain_id=club["mary"].pk, ship_id=club["gull"].pk, user=club["bob"], plan=[north(1)])


# --- the fog of war ------------------------------------------------------------------------------------------------


def test_another_players_ship_and_voyage_answer_404(client, club):
    client.force_login(club["bob"])
    voyage_id = start(client, club, [north(1)], ship="kite").json()["id"]
    client.force_login(club["alice"])
    body = {"ship": club["kite"].pk, "plan": [north(1)]}
    assert post(client, "api_voyage_list", body, "syrtis").status_code == 404
    assert post(client, "api_voyage_preview", body, "syrtis").status_code == 404
    own_with_theirs = {"ship": club["gull"].pk, "plan": [north(1)], "voyage": voyage_id}
    assert post(client, "api_voyage_preview", own_with_theirs, "syrtis").status_code == 404
    route = reverse("api_voyage_route", args=["syrtis"])
    assert client.get(route, {"ship": club["kite"].pk, "home": 1}).status_code == 404
    assert client.get(route, {"ship": club["gull"].pk, "home": 1, "voyage": voyage_id}).status_code == 404
    assert client.get(reverse("api_voyage_detail", args=[voyage_id])).status_code == 404
    assert patch(client, voyage_id, [north(1)]).status_code == 404
    assert client.get(reverse("api_voyage_detail", args=[voyage_id + 100])).status_code == 404
    assert client.get(reverse("api_voyage_list", args=["syrtis"])).json() == []
    # Mary's plan is as she left it.
    assert Voyage.objects.get(pk=voyage_id).plan == [north(1)]


def test_the_umpire_reads_every_voyage_but_sails_none(client, club):
    client.force_login(club["bob"])
    mary = start(client, club, [north(1)], ship="kite").json()["id"]
    client.force_login(club["alice"])
    jack = start(client, club, [north(1)]).json()["id"]
    client.force_login(club["umpire"])
    listed = client.get(reverse("api_voyage_list", args=["syrtis"])).json()
    assert sorted(v["id"] for v in listed) == sorted([mary, jack])
    assert client.get(reverse("api_voyage_detail", args=[mary])).status_code == 200
    assert patch(client, mary, [north(2)]).status_code == 403
    assert start(client, club, [north(1)], ship="aphid").status_code == 404


def test_outside_the_campaign_everything_answers_404(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(1)]).json()["id"]
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("api_voyage_list", args=["syrtis"])).status_code == 404
    assert client.get(reverse("api_voyage_detail", args=[voyage_id])).status_code == 404
    body = {"ship": club["gull"].pk, "plan": [north(1)]}
    assert post(client, "api_voyage_preview", body, "syrtis").status_code == 404


# --- the preview ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-11")
def test_the_preview_shows_each_days_end_encounter_chance_and_coal(client, club):
    CampaignMapRules.objects.create(
        campaign=club["campaign"], territory_numbers={"Neutral West": {"move_through": 2, "patrol": 5}}
    )
    client.force_login(club["alice"])
    body = {"ship": club["aphid"].pk, "plan": [north(3), {"kind": "patrol"}], "voyage": None}
    answer = post(client, "api_voyage_preview", body, "syrtis")
    assert answer.status_code == 200
    preview = answer.json()
    assert (preview["valid"], preview["errors"], preview["start"]) == (True, [], PARHOON)
    assert [
        (d["index"], d["kind"], d["end"], d["end_label"], d["territory"], d["encounter_number"], d["encounter_chance"])
        for d in preview["days"]
    ] == [
        (0, "move", [7, 5], "0809", "Neutral West", 2, "2 in 6"),
        (1, "patrol", [7, 5], "0809", "Neutral West", 5, "5 in 6"),
    ]
    assert [(d["coal_after"], d["allowance"], d["hexes_used"], d["problems"]) for d in preview["days"]] == [
        (19, 3, 3, []),
        (18, 3, 0, []),
    ]


def test_a_bad_plan_previews_as_invalid_not_as_an_error(client, club):
    client.force_login(club["alice"])
    body = {"ship": club["gull"].pk, "plan": [north(3)]}
    preview = post(client, "api_voyage_preview", body, "syrtis").json()
    assert preview["valid"] is False
    assert preview["errors"] == [
        "Day 1: Too far for one day: the Gull, a screw galley, sails 2 hexes a day; this path needs 3 hexes."
    ]
    assert preview["days"][0]["problems"] == [
        "too far for one day: the Gull, a screw galley, sails 2 hexes a day; this path needs 3 hexes."
    ]
    garbage = post(client, "api_voyage_preview", {"ship": club["gull"].pk, "plan": {"x": 1}}, "syrtis").json()
    assert garbage == {"valid": False, "errors": ["The plan must be a list of days."], "start": PARHOON, "days": []}
    assert post(client, "api_voyage_preview", {"ship": "gull", "plan": []}, "syrtis").status_code == 400


def test_the_preview_of_a_voyage_plans_from_her_position(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2)]).json()["id"]
    Voyage.objects.filter(pk=voyage_id).update(q=7, r=6, plan=[])
    body = {"ship": club["gull"].pk, "plan": [north(2, start=(7, 6))], "voyage": voyage_id}
    preview = post(client, "api_voyage_preview", body, "syrtis").json()
    assert (preview["valid"], preview["start"], preview["days"][0]["end"]) == (True, [7, 6], [7, 4])
    # Without the voyage's id the ship's voyage under way is found all the same.
    del body["voyage"]
    assert post(client, "api_voyage_preview", body, "syrtis").json()["start"] == [7, 6]


# --- re-planning and the deadline ------------------------------------------------------------------------------------


def test_before_the_deadline_the_whole_plan_may_change(client, club):
    schedule(club["campaign"], deadline_in=timedelta(hours=2))
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2)]).json()["id"]
    new_plan = [{"kind": "patrol"}, north(1)]
    answer = patch(client, voyage_id, new_plan)
    assert answer.status_code == 200, answer.content
    assert (answer.json()["plan"], answer.json()["plan_locked_days"]) == (new_plan, 0)
    assert answer.json()["order_deadline"] is not None
    # Again: nothing changes.
    again = patch(client, voyage_id, new_plan)
    assert again.json() == answer.json()


def test_after_the_deadline_the_first_day_is_locked_and_the_rest_is_checked_from_its_end(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2), {"kind": "patrol"}]).json()["id"]
    schedule(club["campaign"], deadline_in=-timedelta(minutes=5))
    shown = client.get(reverse("api_voyage_detail", args=[voyage_id])).json()
    assert shown["plan_locked_days"] == 1
    # Changing the locked day is refused with the reason.
    changed = patch(client, voyage_id, [north(1), north(1, start=(7, 7))])
    assert changed.status_code == 400
    assert changed.json()["plan"][0].startswith("Day 1 is locked: its orders were due at ")
    # The new days are checked from where the locked day ends (7, 6), not from where she is.
    from_port = patch(client, voyage_id, [north(2), {"kind": "move", "path": [[7, 9]]}])
    assert from_port.status_code == 400
    assert from_port.json() == {
        "plan": ["Day 2: Hex 1 of the path, 0813, is not next to 0810."],
        "detail": "plan: Day 2: Hex 1 of the path, 0813, is not next to 0810.",
    }
    answer = patch(client, voyage_id, [north(2), north(2, start=(7, 6))])
    assert answer.status_code == 200, answer.content
    assert answer.json()["plan"] == [north(2), north(2, start=(7, 6))]
    assert answer.json()["plan_locked_days"] == 1


def test_an_extension_keeps_the_plan_open(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2)]).json()["id"]
    schedule(club["campaign"], deadline_in=-timedelta(minutes=5))
    OrderExtension.objects.create(
        campaign=club["campaign"],
        day=club["campaign"].day + 1,
        captain=club["jack"],
        until=timezone.now() + timedelta(hours=1),
        reason="his browser died",
        granted_by=club["umpire"],
    )
    answer = patch(client, voyage_id, [{"kind": "patrol"}])
    assert answer.status_code == 200, answer.content
    assert answer.json()["plan_locked_days"] == 0


def test_an_ended_voyage_cannot_be_replanned(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(1)]).json()["id"]
    Voyage.objects.filter(pk=voyage_id).update(status=VoyageStatus.ARRIVED)
    answer = patch(client, voyage_id, [north(1)])
    assert answer.status_code == 409
    assert answer.json() == {"detail": "That voyage is over (arrived): its plan cannot change."}


def test_an_empty_plan_holds_position(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(1)]).json()["id"]
    answer = patch(client, voyage_id, [])
    assert (answer.status_code, answer.json()["plan"]) == (200, [])


# --- the shortest way ---------------------------------------------------------------------------------------------


def test_the_route_to_a_hex_a_city_and_home(client, club):
    client.force_login(club["alice"])
    url = reverse("api_voyage_route", args=["syrtis"])
    to_hex = client.get(url, {"ship": club["gull"].pk, "to": "7,4"}).json()
    assert to_hex == {"plan": [north(2), north(2, start=(7, 6))]}
    to_city = client.get(url, {"ship": club["gull"].pk, "city": "syrtis major"}).json()["plan"]
    assert [len(day["path"]) for day in to_city] == [2, 2, 1]
    assert to_city[-1]["path"][-1] == [9, 11]
    # At sea, 3 hexes north of Parhoon: home is Gorovaan, a day away; the route is a valid plan.
    voyage_id = start(client, club, [north(1)]).json()["id"]
    Voyage.objects.filter(pk=voyage_id).update(q=7, r=5, plan=[])
    home = client.get(url, {"ship": club["gull"].pk, "home": "1", "voyage": voyage_id}).json()["plan"]
    assert home == [{"kind": "move", "path": [[8, 5], [9, 5]]}]
    assert patch(client, voyage_id, home).status_code == 200


def test_the_route_after_the_deadline_keeps_the_locked_day(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2), {"kind": "patrol"}]).json()["id"]
    schedule(club["campaign"], deadline_in=-timedelta(minutes=5))
    url = reverse("api_voyage_route", args=["syrtis"])
    plan = client.get(url, {"ship": club["gull"].pk, "to": "7,4", "voyage": voyage_id}).json()["plan"]
    assert plan == [north(2), north(2, start=(7, 6))]
    assert patch(client, voyage_id, plan).status_code == 200


@pytest.mark.parametrize(
    ("params", "field"),
    [({"to": "7"}, "to"), ({"to": "a,b"}, "to"), ({"to": "7,-40"}, "to"), ({"city": "Atlantis"}, "city"), ({}, "to")],
)
def test_a_bad_route_question_answers_400(client, club, params, field):
    client.force_login(club["alice"])
    answer = client.get(reverse("api_voyage_route", args=["syrtis"]), {"ship": club["gull"].pk, **params})
    assert answer.status_code == 400
    assert field in answer.json()
    assert client.get(reverse("api_voyage_route", args=["syrtis"]), {"home": 1}).status_code == 400


def test_the_schema_documents_the_voyage_api(client, club, tmp_path):
    client.force_login(club["alice"])
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    operations = {op["operationId"] for item in paths.values() for op in item.values() if isinstance(op, dict)}
    assert {
        "voyages_list",
        "voyages_start",
        "voyages_preview",
        "voyages_route",
        "voyages_retrieve",
        "voyages_plan",
    } <= operations


def test_ids_out_of_range_answer_404_or_400_never_500(client, club):
    client.force_login(club["alice"])
    huge = 10**30
    assert client.get(reverse("api_voyage_detail", args=[huge])).status_code == 404
    # In a query as in a body, an id a bigint cannot hold is outside the schema's bounds: a 400.
    assert client.get(reverse("api_voyage_route", args=["syrtis"]), {"ship": str(huge), "home": 1}).status_code == 400
    assert post(client, "api_voyage_preview", {"ship": huge, "plan": []}, "syrtis").status_code == 400
    assert post(client, "api_voyage_list", {"ship": -1, "plan": []}, "syrtis").status_code == 400


def test_a_voyage_that_is_not_the_ships_is_a_bad_question(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(1)]).json()["id"]
    body = {"ship": club["aphid"].pk, "plan": [], "voyage": voyage_id}
    answer = post(client, "api_voyage_preview", body, "syrtis")
    assert answer.status_code == 400
    assert answer.json()["voyage"] == [f"Voyage {voyage_id} is not the Spark's."]


@pytest.mark.rule("SGC-MOVE-13")
def test_a_prize_in_tow_slows_her_at_sea(client, club):
    client.force_login(club["alice"])
    voyage_id = start(client, club, [north(2)]).json()["id"]
    Voyage.objects.filter(pk=voyage_id).update(q=7, r=6, plan=[])
    ship_for(
        club["campaign"],
        None,
        "small_bird",
        "Taken",
        status=ShipStatus.PRIZE,
        captured_by=club["jack"],
        towed_by=club["gull"],
        city="",
    )
    body = {"ship": club["gull"].pk, "plan": [north(2, start=(7, 6))], "voyage": voyage_id}
    preview = post(client, "api_voyage_preview", body, "syrtis").json()
    # A size-2 galley towing a size-2 prize: 2 halved is 1, less 2 / 2 = 1, but never below 1 hex a day.
    assert preview["days"][0]["allowance"] == 1
    assert preview["errors"] == [
        "Day 1: Too far for one day: the Gull, a screw galley, sails 1 hex a day while towing; this path needs 2 hexes."
    ]
    route = client.get(reverse("api_voyage_route", args=["syrtis"]), {"ship": club["gull"].pk, "to": "7,4"}).json()
    assert route == {"plan": [north(1, start=(7, 6)), north(1, start=(7, 5))]}


def test_the_umpires_list_costs_the_same_queries_for_one_voyage_or_many(client, club, django_assert_max_num_queries):
    for n in range(6):
        player = UserFactory(username=f"player{n}")
        MembershipFactory(campaign=club["campaign"], user=player, role=Role.PLAYER)
        captain = captains.captain_found(campaign=club["campaign"], user=player, name=f"Captain {n}")
        ship = ship_for(club["campaign"], captain, "small_bird", f"Ship {n}")
        voyages.voyage_start(captain_id=captain.pk, ship_id=ship.pk, user=player, plan=[north(1)])
    schedule(club["campaign"], deadline_in=timedelta(hours=1))
    client.force_login(club["umpire"])
    with django_assert_max_num_queries(8):
        listed = client.get(reverse("api_voyage_list", args=["syrtis"])).json()
    assert len(listed) == 6
    assert all(v["order_deadline"] is not None for v in listed)
