"""The umpire edits a ship before the battle on the New battle page (battles/ship_edit_forms.py over the ruleset's
``ship_editor``; issue 22): only a ruleset with an editor shows the ships' panels; an edited ship reaches the
battle's stored scenario, its state and its record sheet, and the battle replays and verifies; a ship left alone
keeps the shipped scenario; bad or hostile input is an error on the form (422), never a 500; only the umpire may."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles import engine_io, selectors
from battles.models import Battle, BattleMode
from tests.battles.test_new_battle_page import FIELDS, HTMX, NEW, form_data

pytestmark = pytest.mark.django_db

CLOUDSHIPS = {"ruleset": "cloudships_2023", "scenario": "raid-on-the-canal"}
LOCUST = "ship2-"  # the raid's third ship; her guns: 1 the bow 4-inch, 2 a 3-pdr (3 dice of 2), 3 a Gatling...


def locust_edited(club: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = form_data(club["campaign"], **CLOUDSHIPS)
    assert data[LOCUST + "movement"] == 6
    assert data[LOCUST + "guns-1-dice"] == 3
    data.update({LOCUST + key: value for key, value in changes.items()})
    return data


@pytest.mark.parametrize("key", [rs.key for rs in engine_io.rulesets()])
def test_only_a_ruleset_with_a_ship_editor_shows_the_ships_panels(client, club, key):
    client.force_login(club["umpire"])
    html = client.get(FIELDS, {"ruleset": key}, **HTMX).content.decode()
    has_editor = engine_io.ruleset_for(key).ship_editor is not None
    assert ("Ships' panels" in html) is has_editor
    assert has_editor is (key == "cloudships_2023")


def test_each_ship_is_offered_folded_with_her_figures_and_the_bounds_stated(client, club):
    client.force_login(club["umpire"])
    html = client.get(FIELDS, CLOUDSHIPS, **HTMX).content.decode()
    ships = re.findall(r'<details class="ship-edit" data-ship="([^"]+)">', html)
    assert ships == ["Aphid", "Reliant", "Locust", "Skylord", "Hullcutter"]
    assert "movement 6 · ceiling High · boarding 3 · ram 1 · 7 guns · 21 boxes" in html
    assert re.search(r'<input type="number" name="ship2-movement" value="6"[^>]* min="0" max="10"', html)
    assert "1 to 10; normally 3 to 6" in html  # a bound and its reason
    assert re.search(r'name="ship2-guns-2-dice" value="4"[^>]* min="4" max="6"', html)  # CM-AP-01's 4 to 6 dice
    assert re.search(r'<input type="checkbox" name="ship2-guns-0-arcs" value="&quot;bow&quot;"[^>]*checked', html)


def test_an_edited_ship_enters_the_battle_whole_and_the_battle_verifies(
    client, club, django_capture_on_commit_callbacks
):
    client.force_login(club["umpire"])
    data = locust_edited(club, **{"movement": 5, "guns-1-dice": 2, "guns-6-remove": "on"})
    data["mode"] = BattleMode.AUTO

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(NEW, data)

    assert response.status_code == 302, response.content.decode()[:3000]
    battle = Battle.objects.get()
    assert battle.scenario_slug == ""  # no longer the shipped scenario (odds of it would not be this battle's)
    assert battle.title == "Raid on the canal (edited: Locust)"
    entries = {entry["name"]: entry for entry in battle.scenario["ships"]}
    panel = entries["Locust"]["panel"]
    assert panel["movement"] == 5
    assert panel["guns"][1]["dice"] == 2
    assert len(panel["guns"]) == 6
    assert entries["Aphid"] == {
        "name": "Aphid",
        "side": "british",
        "class": "aphid",
        "hex": [4, 10],
        "facing": 2,
        "band": "Medium",
    }
    initial = engine_io.rules_of(battle).board_view(engine_io.initial_state(battle), None)
    locust = next(ship for ship in initial["ships"] if ship["name"] == "Locust")
    assert locust["panel"]["movement"] == 5
    battle.refresh_from_db()
    assert battle.is_finished
    assert selectors.battle_verify(battle=battle) == []
    sheet = client.get(reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": "Locust"})).content.decode()
    assert "2 dice · damage 2" in sheet  # the 3-pdr's dice as edited
    assert "Hale Rocket Battery" not in sheet
    replay = client.get(reverse("battle_replay", kwargs={"pk": battle.pk}), {"turn": "1"})
    assert replay.status_code == 200


def test_a_ship_left_alone_keeps_the_shipped_scenario(client, club, django_capture_on_commit_callbacks):
    client.force_login(club["umpire"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(NEW, form_data(club["campaign"], **CLOUDSHIPS))
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert (battle.scenario_slug, battle.title) == ("raid-on-the-canal", "Raid on the canal")


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"movement": 11}, "Ensure this value is less than or equal to 10"),
        ({"movement": "fast"}, "Enter a whole number"),
        ({"movement": "9" * 40}, "Ensure this value is less than or equal to 10"),
        ({"guns-2-dice": 3}, "Ensure this value is greater than or equal to 4"),
        ({"guns-0-arcs": ['"aloft"']}, "Select a valid choice"),
        ({"guns-0-arcs": []}, "Choose at least 1."),
        ({"guns-1-short_range": 6, "guns-1-long_range": 5}, "beyond its long range (5) (CM-FIRE-04)"),
        ({"ceiling": '"Medium"'}, "the track has no High row: leave it at 0 (CM-DMG-01)"),
        ({"ceiling": '"Ground"'}, "Select a valid choice"),
        ({"motive": '"kite"'}, "a kite rolls her movement each turn"),
        (
            {"movement": ""},
            "a steam ship's movement is 1 to 10 (normally 3 to 6; the catalog's run from 2 to 8), not nothing",
        ),
        ({"new_gun-kind": '"main"'}, "the new gun needs at least one arc"),
        ({"new_gun-kind": '"main"', "new_gun-arcs": ['"bow"'], "new_gun-dice": ""}, "An answer is needed"),
        ({"hulls-High": -1}, "Ensure this value is greater than or equal to 0"),
    ],
)
def test_a_bad_edit_is_an_error_on_the_form_never_a_500(client, club, changes, error):
    client.force_login(club["umpire"])
    data = locust_edited(club, **changes)

    response = client.post(NEW, data)

    html = response.content.decode()
    assert response.status_code == 422, html[:2000]
    assert error.replace("'", "&#x27;") in html, re.findall(r'<ul class="errorlist.*?</ul>', html)
    assert '<details class="ship-edit" data-ship="Locust" open>' in html  # opened where the fault is
    assert not Battle.objects.exists()


def test_a_skylord_brought_below_the_band_she_starts_in_is_refused(client, club):
    client.force_login(club["umpire"])
    data = form_data(club["campaign"], **CLOUDSHIPS)
    data.update({"ship3-ceiling": '"Medium"', "ship3-hulls-High": 0})  # she starts at High

    response = client.post(NEW, data)

    assert response.status_code == 422
    assert "starts at &#x27;High&#x27;" in response.content.decode()
    assert not Battle.objects.exists()


def test_only_the_umpire_may_edit_a_ship_or_start_the_battle(client, club):
    client.force_login(club["alice"])
    data = locust_edited(club, movement=5)
    assert client.post(NEW, data).status_code in (403, 404)
    assert client.get(FIELDS, CLOUDSHIPS, **HTMX).status_code in (403, 404)
    assert not Battle.objects.exists()
