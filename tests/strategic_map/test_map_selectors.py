"""The fog of war on the map (DESIGN.md section 5): a player sees his own ships, plans, encounter reports and
treks, never another captain's; the umpire sees everything; a non-member sees nothing (404); and the reads cost
the same number of queries for 2 voyages as for 20."""

from __future__ import annotations

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from strategic_map import map_selectors
from tests.factories import UserFactory
from tests.strategic_map.map_club import extra_ship, map_club, meet, to_sea, trek

pytestmark = pytest.mark.django_db

PLAN = [{"kind": "move", "path": [[8, 7], [9, 7]]}, {"kind": "patrol"}]


@pytest.fixture
def club():
    club = map_club()
    club.dart_voyage = to_sea(club.dart, 9, 6, PLAN)
    club.gull_voyage = to_sea(club.gull, 12, 3, [{"kind": "patrol"}])
    club.dart_met = meet(club.dart_voyage, "Enemy Merchantman")
    club.dart_met_by_day = meet(club.dart_voyage, "Pirate galley", day=3, by_day=True)
    club.gull_met = meet(club.gull_voyage, "Cloud captain")
    club.mary_trek = trek(club.mary, 4, 4)
    return club


def test_a_player_sees_his_own_voyages_reports_and_ships_in_port_and_no_one_elses(club):
    sight = map_selectors.map_sight(user=club.alice, slug="syrtis")
    assert not sight.is_umpire
    assert [v.ship.name for v in sight.voyages] == ["Dart"]
    assert sight.voyages[0].plan == PLAN
    assert {e.result for e in sight.encounters} == {"Enemy Merchantman", "Pirate galley"}
    assert sight.treks == ()
    bob = map_selectors.map_sight(user=club.bob, slug="syrtis")
    assert [v.ship.name for v in bob.voyages] == ["Gull"]
    assert [e.result for e in bob.encounters] == ["Cloud captain"]
    assert [t.captain.name for t in bob.treks] == ["Mary"]


def test_an_encounter_shared_with_another_captain_names_only_the_readers_own_ship(club):
    club.dart_met.voyages.add(club.gull_voyage)
    alice = map_selectors.map_sight(user=club.alice, slug="syrtis")
    shared = next(e for e in alice.encounters if e.pk == club.dart_met.pk)
    assert [v.ship.name for v in shared.seen_voyages] == ["Dart"]
    umpire = map_selectors.map_sight(user=club.umpire, slug="syrtis")
    shared = next(e for e in umpire.encounters if e.pk == club.dart_met.pk)
    assert sorted(v.ship.name for v in shared.seen_voyages) == ["Dart", "Gull"]


def test_a_player_with_no_captain_sees_only_the_map(club):
    sight = map_selectors.map_sight(user=club.carol, slug="syrtis")
    assert (sight.voyages, sight.encounters, sight.treks, sight.ships_in_port) == ((), (), (), ())
    svg = map_selectors.map_svg(sight)
    assert "Dart" not in svg
    assert "Gull" not in svg
    assert "data-encounter=" not in svg
    assert "data-trek=" not in svg


def test_the_umpire_sees_every_voyage_encounter_and_trek(club):
    sight = map_selectors.map_sight(user=club.umpire, slug="syrtis")
    assert sight.is_umpire
    assert [v.ship.name for v in sight.voyages] == ["Dart", "Gull"]  # by captain: Jack, Mary
    assert len(sight.encounters) == 3
    assert [t.captain.name for t in sight.treks] == ["Mary"]
    svg = map_selectors.map_svg(sight)
    assert f'data-ship="{club.dart.pk}"' in svg
    assert f'data-ship="{club.gull.pk}"' in svg


def test_the_players_map_draws_his_ship_and_plan_and_never_the_others(club):
    svg = map_selectors.map_svg(map_selectors.map_sight(user=club.alice, slug="syrtis"))
    assert f'data-ship="{club.dart.pk}"' in svg
    assert f'data-ship="{club.gull.pk}"' not in svg
    assert "Gull" not in svg
    assert "Mary" not in svg
    assert 'data-ship-name="Dart"' in svg  # her standing plan
    assert f'data-encounter="{club.gull_met.pk}"' not in svg
    assert f'data-encounter="{club.dart_met.pk}"' in svg


def test_a_ship_in_port_is_the_players_to_send_out_and_is_drawn_at_her_city(club):
    club.dart_voyage.delete()
    club.dart.status = "in_port"
    club.dart.save()
    sight = map_selectors.map_sight(user=club.alice, slug="syrtis")
    assert [s.name for s in sight.ships_in_port] == ["Dart"]
    parhoon = map_selectors.city_hex("parhoon")
    assert (parhoon.label, parhoon.city) == ("0812", "Parhoon")
    marks = map_selectors.overlays(sight).ships
    assert [(m.name, m.q, m.r) for m in marks] == [("Dart", parhoon.q, parhoon.r)]


def test_a_non_member_finds_no_campaign(club):
    with pytest.raises(Http404):
        map_selectors.map_sight(user=UserFactory(username="stranger"), slug="syrtis")
    with pytest.raises(Http404):
        map_selectors.map_sight(user=club.alice, slug="no-such-campaign")


def test_a_malformed_stored_plan_is_drawn_as_no_movement_never_an_error():
    assert map_selectors.plan_days([{"kind": "move", "path": [[1, 2], "x", [3]]}, "junk", {"kind": "patrol"}]) == (
        ((1, 2),),
        (),
        (),
    )
    assert map_selectors.plan_days(None) == ()


def _queries(user, slug: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        sight = map_selectors.map_sight(user=user, slug=slug)
        map_selectors.map_svg(sight)
    return len(queries)


@pytest.mark.parametrize("reader", ["alice", "umpire"])
def test_the_queries_stay_flat_from_2_to_20_voyages(reader):
    small, large = map_club("small"), map_club("large")
    for club, count in ((small, 1), (large, 10)):
        for captain, like in ((club.jack, club.dart), (club.mary, club.gull)):
            ships = [like] + [extra_ship(captain, like, f"{like.name} {n}") for n in range(1, count)]
            for n, ship in enumerate(ships):
                voyage = to_sea(ship, n % 20, n % 25, PLAN)
                meet(voyage, "Merchant", by_day=n % 2 == 0)
            trek(captain, 3, 3)
    few = _queries(getattr(small, reader), "small")
    many = _queries(getattr(large, reader), "large")
    assert few == many
    assert many <= 8
