"""The map's API and page: the static map with the campaign's numbers and the stand-in notes; the positions under
the fog of war (a player's own ships and reports, never another captain's, in the API and in the page's HTML);
the umpire sees all; a non-member gets 404; the queries stay flat from 2 to 20 voyages; the schema validates."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from strategic_map import mapdata
from strategic_map.models import CampaignMapRules
from tests.factories import UserFactory
from tests.strategic_map.map_club import extra_ship, map_club, meet, to_sea, trek

pytestmark = pytest.mark.django_db

PLAN = [{"kind": "move", "path": [[8, 7], [9, 7]]}, {"kind": "patrol"}]


@pytest.fixture
def club():
    club = map_club()
    club.dart_voyage = to_sea(club.dart, 9, 6, PLAN)
    club.gull_voyage = to_sea(club.gull, 12, 3, [{"kind": "move", "path": [[13, 3]]}])
    club.dart_met = meet(club.dart_voyage, "Enemy Merchantman")
    club.gull_met = meet(club.gull_voyage, "Cloud captain's galleon")
    club.mary_trek = trek(club.mary, 4, 4)
    return club


def _map(client, slug="syrtis"):
    return client.get(reverse("api_campaign_map", args=[slug]))


def _positions(client, slug="syrtis"):
    return client.get(reverse("api_campaign_map_positions", args=[slug]))


@pytest.mark.rule("SGC-MAP-01", "SGC-MAP-03")
def test_the_map_has_every_hex_and_this_campaigns_encounter_numbers(client, club):
    CampaignMapRules.objects.create(
        campaign=club.campaign, territory_numbers={"Shastapsh": {"move_through": 4, "patrol": 6}}
    )
    client.force_login(club.alice)
    answer = _map(client)
    assert answer.status_code == 200
    data = answer.json()
    assert (data["width"], data["height"], len(data["hexes"])) == (20, 25, 500)
    parhoon = next(h for h in data["hexes"] if h["label"] == "0812")
    assert parhoon == {
        **parhoon,
        "q": 7,
        "r": 8,
        "city": "Parhoon",
        "territory": "British",
        "allegiance": "friendly",
        "british": True,
    }
    numbers = {t["name"]: (t["move_through"], t["patrol"]) for t in data["territories"]}
    assert numbers["Shastapsh"] == (4, 6)  # the umpire's edit
    assert numbers["Astusapes"] == (2, 5)  # the reference
    assert numbers["British"] == (None, None)
    canal_hexes = {tuple(h) for c in data["canals"] for h in c["hexes"]}
    assert all(mapdata.mars_map().hex_at(q, r).canal_type for q, r in canal_hexes)
    assert {c["name"] for c in data["cities"]} == {c.name for c in mapdata.mars_map().cities}


@pytest.mark.rule("SGC-MAP-02", "SGC-MAP-04")
def test_the_map_says_which_parts_are_designed_stand_ins(client, club):
    client.force_login(club.alice)
    provenance = {p["part"]: p["stand_in"] for p in _map(client).json()["provenance"]}
    assert provenance["hexes"] is True
    assert provenance["cities"] is True
    assert provenance["frame"] is False


def test_a_player_sees_only_his_own_positions_plans_and_reports(client, club):
    client.force_login(club.alice)
    data = _positions(client).json()
    assert data["umpire"] is False
    assert [(v["ship"]["name"], v["label"], v["plan"]) for v in data["voyages"]] == [("Dart", "1011", PLAN)]
    assert [(e["result"], e["ships"]) for e in data["encounters"]] == [("Enemy Merchantman", ["Dart"])]
    assert data["treks"] == []
    text = _positions(client).content.decode()
    for secret in ("Gull", "Mary", "Cloud captain", '"q":12,"r":3', "1310"):
        assert secret not in text


def test_the_page_shows_a_player_his_ship_and_reports_and_never_another_captains(client, club):
    client.force_login(club.alice)
    page = client.get(reverse("campaign_map", args=["syrtis"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-ship="{club.dart.pk}"' in html
    assert "Enemy Merchantman" in html
    assert "Gull" not in html
    assert "Mary" not in html
    assert "Cloud captain&#x27;s galleon" not in html
    assert "Cloud captain's galleon" not in html
    assert f'data-voyage="{club.gull_voyage.pk}"' not in html
    # The planner offers his ship at sea for new orders.
    assert f'value="voyage:{club.dart_voyage.pk}"' in html


def test_a_player_without_ships_at_sea_sees_none_on_the_page(client, club):
    client.force_login(club.carol)
    html = client.get(reverse("campaign_map", args=["syrtis"])).content.decode()
    for secret in ("Dart", "Gull", "Enemy Merchantman", "Cloud captain"):
        assert secret not in html
    assert "Your ships have met nothing yet." in html


def test_the_umpire_sees_every_ship_encounter_and_trek(client, club):
    client.force_login(club.umpire)
    data = _positions(client).json()
    assert data["umpire"] is True
    assert [v["ship"]["name"] for v in data["voyages"]] == ["Dart", "Gull"]
    assert len(data["encounters"]) == 2
    assert [(t["captain"]["name"], t["party"]) for t in data["treks"]] == [("Mary", 12)]
    html = client.get(reverse("campaign_map", args=["syrtis"])).content.decode()
    assert f'data-ship="{club.gull.pk}"' in html
    assert f'data-trek="{club.mary_trek.pk}"' in html
    assert 'id="planner"' not in html  # the umpire has no ships to send


@pytest.mark.parametrize("name", ["api_campaign_map", "api_campaign_map_positions", "campaign_map"])
def test_a_non_member_gets_404(client, club, name):
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse(name, args=["syrtis"])).status_code == 404
    client.force_login(club.alice)
    assert client.get(reverse(name, args=["no-such-campaign"])).status_code == 404


def test_signed_out_the_page_asks_for_a_sign_in_and_the_api_refuses(client, club):
    assert client.get(reverse("campaign_map", args=["syrtis"])).status_code == 302
    assert _positions(client).status_code in (401, 403)


def test_the_campaign_and_captain_pages_link_the_map(client, club):
    client.force_login(club.alice)
    url = reverse("campaign_map", args=["syrtis"])
    assert url in client.get(reverse("campaign_detail", args=["syrtis"])).content.decode()
    assert url in client.get(reverse("captain_detail", args=[club.jack.pk])).content.decode()


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("reader", ["alice", "umpire"])
def test_queries_stay_flat_with_2_or_20_voyages(client, reader):
    small, large = map_club("small"), map_club("large")
    for club, count in ((small, 1), (large, 10)):
        for captain, like in ((club.jack, club.dart), (club.mary, club.gull)):
            ships = [like] + [extra_ship(captain, like, f"{like.name} {n}") for n in range(1, count)]
            for n, ship in enumerate(ships):
                meet(to_sea(ship, n % 20, n % 25, PLAN), "Merchant", by_day=n % 2 == 1)
            trek(captain, 3, 3)
    for name in ("api_campaign_map_positions", "campaign_map"):
        client.force_login(getattr(small, reader))
        few = _count(client, reverse(name, args=["small"]))
        client.force_login(getattr(large, reader))
        many = _count(client, reverse(name, args=["large"]))
        assert few == many, name


def test_the_schema_validates_with_the_map_operations(client, club, tmp_path):
    client.force_login(club.alice)
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    operations = {op["operationId"] for item in paths.values() for op in item.values() if isinstance(op, dict)}
    assert {"campaigns_map", "campaigns_map_positions"} <= operations
