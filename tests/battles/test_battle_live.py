"""Live play and the page that keeps itself up to date: the changes endpoint (204 while nothing the viewer may see
has changed, in a flat number of queries; the moving regions as out-of-band swaps otherwise; a 404 for whoever
may not see the battle; the other side's secret answer moving nothing), live windows in minutes, a passed live
deadline applied by the page's own polling without a worker, and the umpire's pace switch."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from battles import changes, engine_io, regions, services
from battles.models import Battle, BattleEvent, BattleMode, BattleStatus, Decision, DecisionSource
from battles.services import SideControl
from tests.battles.test_new_battle_page import form_data
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def duel(club: dict[str, Any], start_battle: Any) -> Any:
    """A Duel between Alice (Red) and Bob (Blue): both place their ships at once, in secret."""

    def start(mode: str = BattleMode.LIVE, **kwargs: Any) -> Battle:
        sides = {"red": SideControl("player", club["alice"]), "blue": SideControl("player", club["bob"])}
        return start_battle("close-quarters", mode=mode, ruleset_key="duel", sides=sides, **kwargs)

    return start


def page_of(battle: Battle) -> str:
    return reverse("battle_detail", kwargs={"pk": battle.pk})


def changes_url(client: Any, battle: Battle) -> str:
    """The changes URL the battle page asks, as the page renders it for the signed-in viewer."""
    html = client.get(page_of(battle)).content.decode()
    found = re.search(r'id="battle-changes" hx-get="([^"]+)"', html)
    assert found, "the page asks for changes while the battle is open"
    return found.group(1).replace("&amp;", "&")


def open_request(battle: Battle, side: str) -> Any:
    battle.refresh_from_db()
    stored = set(Decision.objects.live().filter(battle=battle).values_list("request_id", flat=True))
    return next(r for r in engine_io.current_state(battle).pending(side) if r.id not in stored)


def answer(battle: Battle, user: Any, side: str, capture: Any) -> None:
    request = open_request(battle, side)
    with capture(execute=True):
        services.battle_submit_decision(battle_id=battle.pk, user=user, request_id=request.id, choice=request.default)


def swapped(html: str) -> set[str]:
    """The ids of the regions a changes response swaps in place."""
    return set(re.findall(r'<\w+ hx-swap-oob="true"[^>]*? id="([^"]+)"', html))


# --- the changes endpoint ------------------------------------------------------------------------------------


def test_nothing_changed_is_a_204_in_one_query_however_long_the_battle(client, club, duel, play_defaults):
    battle = duel()
    client.force_login(club["bob"])
    url = changes_url(client, battle)
    with CaptureQueriesContext(connection) as fresh:
        response = client.get(url, **HTMX)
    assert response.status_code == 204
    assert response.content == b""

    # A few decisions on, the answer costs the same queries: the session, the user, and the battle's mark.
    play_defaults(battle, limit=6)
    mark = changes.change_mark(user=club["bob"], battle_id=battle.pk, side="blue").mark
    url = f"{reverse('battle_changes', kwargs={'pk': battle.pk})}?{urlencode({'since': mark, 'as': 'blue'})}"
    assert BattleEvent.objects.filter(battle=battle).count() > 10
    with CaptureQueriesContext(connection) as later:
        assert client.get(url, **HTMX).status_code == 204
    battle_queries = [q["sql"] for q in later.captured_queries if '"battles_battle"' in q["sql"]]
    assert len(battle_queries) == 1, battle_queries
    assert len(later.captured_queries) == len(fresh.captured_queries) <= 3


def test_a_move_comes_back_as_the_pages_regions_swapped_in_place(
    client, club, duel, django_capture_on_commit_callbacks
):
    battle = duel()
    client.force_login(club["bob"])
    url = changes_url(client, battle)

    answer(battle, club["alice"], "red", django_capture_on_commit_callbacks)
    answer(battle, club["bob"], "blue", django_capture_on_commit_callbacks)
    response = client.get(url, **HTMX)

    assert response.status_code == 200
    assert "HX-Refresh" not in response
    html = response.content.decode()
    assert {"battle-status", "battle-map", "battle-log", "battle-changes", "decisions"} <= swapped(html)
    assert "<html" not in html
    assert "Turn 1" in html
    # The new mark rides in the swapped changes element: asked again, nothing has changed.
    again = re.search(r'id="battle-changes" hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert client.get(again, **HTMX).status_code == 204


def test_the_form_being_filled_in_is_never_replaced_while_it_is_still_open(client, club, duel):
    battle = duel(mode=BattleMode.ASYNC)
    client.force_login(club["bob"])
    url = changes_url(client, battle)
    assert "open=" in url
    assert "as=blue" in url

    # The umpire switches the battle to live play: the status line changes, Bob's open placement does not.
    services.battle_set_pace(battle_id=battle.pk, user=club["umpire"], live=True, live_minutes=5)
    html = client.get(url, **HTMX).content.decode()

    assert {"battle-status", "battle-changes"} <= swapped(html)
    assert "decisions" not in swapped(html)
    assert "5 minutes a decision" in html


def test_the_other_sides_secret_answer_changes_nothing_until_it_is_public(
    client, club, duel, django_capture_on_commit_callbacks
):
    battle = duel()
    client.force_login(club["bob"])
    url = changes_url(client, battle)

    answer(battle, club["alice"], "red", django_capture_on_commit_callbacks)  # her placement, in secret
    battle.refresh_from_db()
    assert battle.status == BattleStatus.WAITING
    assert client.get(url, **HTMX).status_code == 204

    answer(battle, club["bob"], "blue", django_capture_on_commit_callbacks)  # both in: the placements revealed
    assert client.get(url, **HTMX).status_code == 200


def test_a_second_tab_learns_of_the_viewers_own_answer(client, club, duel, django_capture_on_commit_callbacks):
    battle = duel()
    client.force_login(club["bob"])
    url = changes_url(client, battle)
    answer(battle, club["bob"], "blue", django_capture_on_commit_callbacks)

    html = client.get(url, **HTMX).content.decode()
    assert "decisions" in swapped(html)
    assert "Nothing for you to decide now" in html


def test_whoever_may_not_see_the_battle_gets_a_404_as_on_its_page(client, club, duel):
    battle = duel()
    url = reverse("battle_changes", kwargs={"pk": battle.pk})
    client.force_login(UserFactory(username="stranger"))
    assert client.get(page_of(battle)).status_code == 404
    assert client.get(url, {"since": "0"}, **HTMX).status_code == 404

    client.force_login(club["bob"])  # a player asking as the other side
    assert client.get(url, {"since": "0", "as": "red"}, **HTMX).status_code == 404
    assert client.get(page_of(battle), {"as": "red"}).status_code == 404

    private = duel(private=True)
    member = UserFactory(username="carol")
    MembershipFactory(campaign=club["campaign"], user=member)
    client.force_login(member)
    assert client.get(page_of(private)).status_code == 404
    assert client.get(reverse("battle_changes", kwargs={"pk": private.pk}), {"since": "0"}).status_code == 404


def test_the_umpire_may_watch_as_one_side(client, club, duel):
    battle = duel()
    client.force_login(club["umpire"])
    url = changes_url(client, battle)
    assert "as=" not in url
    assert client.get(url, **HTMX).status_code == 204
    blue = reverse("battle_changes", kwargs={"pk": battle.pk})
    assert client.get(blue, {"since": "x", "as": "blue"}, **HTMX).status_code == 200
    assert client.get(blue, {"since": "x", "as": "green"}, **HTMX).status_code == 404


# --- live windows and their deadlines ---------------------------------------------------------------------------


def test_a_live_battle_gives_each_window_its_minutes(club, duel, django_capture_on_commit_callbacks):
    battle = duel(live_minutes=2)
    assert battle.mode == BattleMode.LIVE
    assert timedelta(minutes=1) < battle.deadline - timezone.now() <= timedelta(minutes=2)

    answer(battle, club["alice"], "red", django_capture_on_commit_callbacks)
    answer(battle, club["bob"], "blue", django_capture_on_commit_callbacks)
    battle.refresh_from_db()
    assert battle.turn == 1
    assert timedelta(minutes=1) < battle.deadline - timezone.now() <= timedelta(minutes=2)


def test_a_passed_live_deadline_is_applied_by_the_pages_polling_without_a_worker(
    client, club, duel, django_capture_on_commit_callbacks
):
    battle = duel()
    answer(battle, club["alice"], "red", django_capture_on_commit_callbacks)
    Battle.objects.filter(pk=battle.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    client.force_login(club["alice"])
    url = changes_url(client, battle)

    # The defaults are given under the battle's lock and its resolution queued after the commit (run in-process
    # when Celery is eager, as under `make run`; here when the captured callbacks run, after the response).
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(url, **HTMX)
    assert response.status_code == 200
    assert "Resolving" in response.content.decode()
    defaulted = Decision.objects.get(battle=battle, side__key="blue", turn=0)
    assert defaulted.source == DecisionSource.DEADLINE

    battle.refresh_from_db()
    assert battle.turn == 1
    assert battle.deadline > timezone.now()
    resolved = client.get(url, **HTMX).content.decode()
    assert "Turn 1" in resolved
    # Polled again (by either player), nothing is given twice.
    client.force_login(club["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.get(changes_url(client, battle), **HTMX).status_code == 204
    assert Decision.objects.filter(battle=battle, source=DecisionSource.DEADLINE).count() == 1


def test_web_play_leaves_a_passed_deadline_to_the_worker(client, club, duel):
    battle = duel(mode=BattleMode.ASYNC)
    Battle.objects.filter(pk=battle.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    client.force_login(club["alice"])
    client.get(changes_url(client, battle), **HTMX)
    assert not Decision.objects.filter(battle=battle, source=DecisionSource.DEADLINE).exists()


# --- the umpire's pace switch and the new battle page -----------------------------------------------------------


def test_the_umpire_switches_a_battle_to_live_and_back(client, club, duel):
    battle = duel(mode=BattleMode.ASYNC)
    pace = reverse("battle_pace", kwargs={"pk": battle.pk})
    client.force_login(club["bob"])
    assert client.post(pace, {"live": "on", "live_minutes": "10"}).status_code == 403

    client.force_login(club["umpire"])
    assert f'action="{pace}"' in client.get(page_of(battle)).content.decode()
    client.post(pace, {"live": "on", "live_minutes": "10"})
    battle.refresh_from_db()
    assert (battle.mode, battle.live_minutes) == (BattleMode.LIVE, 10)
    assert timedelta(minutes=9) < battle.deadline - timezone.now() <= timedelta(minutes=10)

    client.post(pace, {"live_minutes": "10"})
    battle.refresh_from_db()
    assert battle.mode == BattleMode.ASYNC
    assert battle.deadline - timezone.now() > timedelta(hours=47)


def test_a_live_window_is_one_of_those_offered(club, duel):
    battle = duel(mode=BattleMode.ASYNC)
    with pytest.raises(services.BattleRefused, match="2, 5, 10, 15 minutes"):
        services.battle_set_pace(battle_id=battle.pk, user=club["umpire"], live=True, live_minutes=7)


def test_the_new_battle_page_starts_a_live_battle(client, club, django_capture_on_commit_callbacks):
    client.force_login(club["umpire"])
    url = reverse("battle_new", kwargs={"slug": "syrtis"})
    assert "Minutes for each decision (live play)" in client.get(url).content.decode()
    data = {
        **form_data(club["campaign"], ruleset="duel", scenario="close-quarters"),
        "title": "The Ambush at Gorovaan",
        "mode": BattleMode.LIVE,
        "live_minutes": "15",
        "side_red": f"player:{club['alice'].pk}",
        "side_blue": f"player:{club['bob'].pk}",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    battle = Battle.objects.get(title="The Ambush at Gorovaan")
    assert (battle.mode, battle.live_minutes) == (BattleMode.LIVE, 15)
    html = client.get(page_of(battle)).content.decode()
    assert 'hx-trigger="every 2s"' in html


def test_an_answer_sent_from_the_page_updates_it_in_place(client, club, duel):
    battle = duel()
    request = open_request(battle, "blue")
    client.force_login(club["bob"])
    url = reverse("battle_decision", kwargs={"pk": battle.pk, "request_id": request.id})
    response = client.post(url, {"form": "place", "use_default": "1"}, **HTMX)
    assert response.status_code == 200
    assert "HX-Refresh" not in response
    assert "decisions" in swapped(response.content.decode())


# --- cutting the regions out of a page --------------------------------------------------------------------------


def test_regions_are_cut_whole_with_nested_tags_of_their_kind():
    page = (
        '<main><div id="a" class="x"><div>inner</div><svg id="m"><path d="M0"/><g><path/></g></svg></div>\n'
        '<section id="b"><p>one</p></section><div id="c"/></main>'
    )
    found = regions.cut(page, ["a", "b", "m", "c"])
    assert found["a"].startswith('<div id="a"')
    assert found["a"].endswith("</svg></div>")
    assert "m" not in found  # a region inside another goes with it
    assert found["b"] == '<section id="b"><p>one</p></section>'
    assert found["c"] == '<div id="c"/>'
    swaps = regions.out_of_band(page, ["b", "gone"])
    assert '<section hx-swap-oob="true" id="b">' in swaps
    assert '<div id="gone" hx-swap-oob="delete"></div>' in swaps


def test_the_api_starts_a_live_battle_and_says_its_window(client, club, django_capture_on_commit_callbacks):
    client.force_login(club["umpire"])
    body = {
        "campaign": "syrtis",
        "ruleset": "duel",
        "scenario": "close-quarters",
        "mode": "live",
        "live_minutes": 10,
        "sides": {
            "red": {"controller": "player", "player": "alice"},
            "blue": {"controller": "player", "player": "bob"},
        },
    }
    refused = client.post(reverse("api_battle_list"), {**body, "live_minutes": 7}, content_type="application/json")
    assert refused.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post(reverse("api_battle_list"), body, content_type="application/json")
    assert made.status_code == 201, made.json()
    view = client.get(reverse("api_battle_detail", kwargs={"battle_id": made.json()["id"]})).json()
    assert (view["mode"], view["live_minutes"]) == ("live", 10)
