"""The umpire's New battle page over every registered ruleset (one test for all): each ruleset is offered, then
its own scenarios and options (a yes/no option a checkbox, a listed one a select, each with its clause), reloaded
with HTMX when the ruleset or scenario changes; the battle starts under the ruleset chosen; bad input is an error
on the form (422), never a 500."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from battles import engine_io, services
from battles.engine import ruleset
from battles.engine.events import JSON
from battles.engine.ruleset import resolve_options
from battles.forms import BattleCreateForm
from battles.models import Battle, BattleMode
from battles.rules.duel.ruleset import DUEL, Duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RULESETS = [rs.key for rs in engine_io.rulesets()]
NEW = reverse("battle_new", kwargs={"slug": "syrtis"})
FIELDS = reverse("battle_new_sides", kwargs={"slug": "syrtis"})


class OpenDuel(Duel):
    """The reference duel with an open range (any whole number of hexes, no choices) and scenarios that name no
    slug: the page's number field and its ``scenario-1``... slugs have a ruleset to be tested with."""

    key = "open_duel"
    title = "Open duel (tests only)"
    options = (DUEL.options[0], replace(DUEL.options[1], choices=None), *DUEL.options[2:])

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [{k: v for k, v in scenario.items() if k != "slug"} for scenario in super().example_scenarios()]


@pytest.fixture
def open_duel() -> Iterator[OpenDuel]:
    rs = OpenDuel()
    ruleset.register(rs)
    yield rs
    ruleset.unregister(rs.key, rs.version)


def form_data(campaign: Any, **chosen: str) -> dict[str, Any]:
    """The page's form as a browser posts it untouched for ``chosen`` (ruleset, scenario), in table mode."""
    form = BattleCreateForm(campaign=campaign, initial=chosen)
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    data.update(chosen, mode=BattleMode.TABLE)
    data.update({name: "umpire" for name in data if name.startswith("side_")})
    return data


def test_two_rulesets_at_least_are_offered():
    assert len(RULESETS) >= 2
    assert {"sky_galleons", "duel"} <= set(RULESETS)


def test_the_page_offers_every_registered_ruleset_the_campaigns_first(client, club):
    client.force_login(club["umpire"])
    html = client.get(NEW).content.decode()
    select = re.search(r'<select name="ruleset"[^>]*>(.*?)</select>', html, re.S)
    assert select
    assert re.findall(r'<option value="([^"]*)"', select.group(1)) == RULESETS
    assert re.search(rf'<option value="{club["campaign"].tactical_ruleset}" selected>', select.group(1))


@pytest.mark.parametrize("key", RULESETS)
def test_the_rulesets_scenarios_and_options_are_reloaded_for_it(client, club, key):
    client.force_login(club["umpire"])
    rs = engine_io.ruleset_for(key)
    scenarios = services.shipped_scenarios(key)
    assert scenarios, f"{key} ships no scenario to start a battle from"

    html = client.get(FIELDS, {"ruleset": key}, **HTMX).content.decode()

    select = re.search(r'<select name="scenario"[^>]*>(.*?)</select>', html, re.S)
    assert select
    assert re.findall(r'<option value="([^"]*)"', select.group(1)) == list(scenarios)
    first = next(iter(scenarios.values()))
    sides = services.scenario_sides(key, first)
    assert sides
    assert re.findall(r'<select name="side_([^"]+)"', html) == [side for side, _ in sides]
    for spec in rs.options:
        if spec.key in rs.play_defaults:  # left to the mode unless the umpire sets it
            assert re.search(rf'<select name="option_{spec.key}"[^>]*>\s*<option value="" selected>By the mode', html)
        elif spec.choices is not None and set(spec.choices) == {True, False}:
            assert re.search(rf'<input type="checkbox" name="option_{spec.key}"', html), spec.key
        elif spec.choices is not None:
            assert re.search(rf'<select name="option_{spec.key}"', html), spec.key
        assert spec.clause in html


@pytest.mark.parametrize("key", RULESETS)
def test_a_battle_starts_under_the_ruleset_chosen(client, club, key, django_capture_on_commit_callbacks):
    client.force_login(club["umpire"])
    slug, scenario = list(services.shipped_scenarios(key).items())[-1]
    data = form_data(club["campaign"], ruleset=key, scenario=slug)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(NEW, data)

    assert response.status_code == 302, response.content.decode()[:2000]
    battle = Battle.objects.get()
    rs = engine_io.ruleset_for(key)
    assert (battle.ruleset_key, battle.ruleset_version, battle.scenario_slug) == (rs.key, rs.version, slug)
    own = scenario.get("options")
    assert battle.options == resolve_options(rs, own if isinstance(own, dict) else {})
    assert set(battle.sides.values_list("controller", flat=True)) == {"umpire"}


def test_a_changed_ruleset_offers_its_own_scenarios_not_the_last_ones(client, club):
    client.force_login(club["umpire"])
    html = client.get(FIELDS, {"ruleset": "duel", "scenario": "john-bulls-tyranny"}, **HTMX).content.decode()
    assert "john-bulls-tyranny" not in html
    assert re.search(r'<option value="open-water" selected>', html)
    assert re.findall(r'<select name="side_([^"]+)"', html) == ["red", "blue"]
    # A listed option is a select of its choices, the rules' default chosen: the duel's range in hexes.
    long_range = re.search(r'<select name="option_long_range"[^>]*>(.*?)</select>', html, re.S)
    assert long_range
    assert re.findall(r'<option value="([^"]*)"', long_range.group(1)) == ["3", "4", "5"]
    assert re.search(r'<option value="4" selected>', long_range.group(1))


def test_scenarios_without_a_slug_are_offered_by_place_and_an_open_option_is_a_field_of_its_type(
    client, club, open_duel
):
    client.force_login(club["umpire"])
    html = client.get(FIELDS, {"ruleset": "open_duel", "scenario": "open-water"}, **HTMX).content.decode()
    select = re.search(r'<select name="scenario"[^>]*>(.*?)</select>', html, re.S)
    assert select
    assert re.findall(r'<option value="([^"]*)"', select.group(1)) == ["scenario-1", "scenario-2"]
    assert re.search(r'<option value="scenario-1" selected>', html)
    assert re.findall(r'<select name="side_([^"]+)"', html) == ["red", "blue"]
    # An open option is a field of its type: the range in hexes a number.
    assert re.search(r'<input type="number" name="option_long_range" value="4"', html)


@pytest.mark.parametrize(
    ("key", "scenario", "change", "error"),
    [
        ("duel", "open-water", {"ruleset": "whist"}, "Select a valid choice"),
        ("duel", "open-water", {"ruleset": "duel", "scenario": "john-bulls-tyranny"}, "Select a valid choice"),
        ("duel", "open-water", {"option_long_range": "far"}, "Select a valid choice"),
        ("open_duel", "scenario-1", {"option_long_range": "far"}, "Enter a whole number"),
        ("open_duel", "scenario-1", {"option_long_range": "4.5"}, "Enter a whole number"),
        ("duel", "open-water", {"option_secret_plots": "maybe"}, None),  # a checkbox reads anything posted as ticked
    ],
)
def test_bad_input_is_an_error_on_the_form_never_a_500(client, club, open_duel, key, scenario, change, error):
    client.force_login(club["umpire"])
    data = {**form_data(club["campaign"], ruleset=key, scenario=scenario), **change}

    response = client.post(NEW, data)

    if error is None:
        assert response.status_code == 302
        return
    assert response.status_code == 422
    assert error in response.content.decode()
    assert not Battle.objects.exists()


def test_a_listed_option_outside_its_choices_is_refused(client, club):
    client.force_login(club["umpire"])
    data = form_data(club["campaign"], ruleset="duel", scenario="open-water")
    assert data["option_long_range"] == "4"
    assert [spec.choices for spec in DUEL.options if spec.key == "long_range"] == [(3, 4, 5)]

    for outside in ("2", "6"):
        refused = client.post(NEW, {**data, "option_long_range": outside})
        assert refused.status_code == 422
        assert "Select a valid choice" in refused.content.decode()
    assert not Battle.objects.exists()
    assert client.post(NEW, {**data, "option_long_range": "5"}).status_code == 302
    assert Battle.objects.get().options["long_range"] == 5
