"""The control panel as data (battles/rules/cloudships_2023/panels.py): its JSON and its hexagon."""

import json
from dataclasses import replace

import pytest

from battles.rules.cloudships_2023 import conversion, panels
from battles.rules.cloudships_2023.panels import ControlPanel, Gun


@pytest.fixture(scope="module")
def every_panel() -> tuple[ControlPanel, ...]:
    return conversion.catalog_panels()


@pytest.mark.rule("CM-SEQ-01")
def test_every_panel_round_trips_through_plain_json(every_panel):
    for panel in every_panel:
        text = json.dumps(panel.to_json())
        assert ControlPanel.from_json(json.loads(text)) == panel
        assert json.loads(text) == panel.to_json()


def test_a_changed_panel_round_trips_too(every_panel):
    """What an umpire may later edit (a superior crew, flights aboard, a vulnerable magazine, a lit light)
    survives the JSON."""
    edited = replace(
        every_panel[0],
        superior=True,
        flying_martians=2,
        vulnerable_magazine=True,
        lights=((panels.NO_ALTITUDE_CHANGE, panels.AMBER), *every_panel[0].lights[1:]),
    )
    assert ControlPanel.from_json(edited.to_json()) == edited


def test_a_panel_with_a_word_not_in_the_game_is_refused(every_panel):
    data = every_panel[0].to_json()
    with pytest.raises(ValueError, match="track box"):
        ControlPanel.from_json({**data, "track": [["Hull", "Mast"]]})
    with pytest.raises(ValueError, match="keys"):
        ControlPanel.from_json({**data, "armor": 2})
    with pytest.raises(ValueError, match="lights"):
        ControlPanel.from_json({**data, "lights": {"Fire": "green"}})


@pytest.mark.rule("CM-LIGHT-01")
def test_a_ship_as_built_shows_every_light_green(every_panel):
    for panel in every_panel:
        assert panel.lights == tuple((light, panels.GREEN) for light in panels.LIGHTS)


@pytest.mark.rule("CM-BRD-08", "CM-BRD-09", "CM-BRD-10", "CM-SUP-06")
def test_the_hexagon_adds_the_anti_personnel_guns_and_a_superior_crew():
    ap = Gun(1, "Nordenfelt", panels.ANTI_PERSONNEL, "port", ("port",), 1, 2, 5, None, None, None, "nordenfelt_5b")
    gun = Gun(2, "4in", panels.MAIN, "bow", ("bow",), 3, 6, 1, 4, None, None, "4in_short")
    panel = replace(conversion.catalog_panels()[0], boarding_parties=3, flying_martians=0, guns=(ap, gun))
    assert panel.hexagon == 3 + 1  # the Nordenfelt, whatever its arc; the 4-inch adds nothing
    assert replace(panel, superior=True).hexagon == 3 + 1 + 1


@pytest.mark.rule("CM-FLY-23", "CM-FLY-24")
def test_flying_martians_aboard_count_two_each_boarding_party_4_and_two_flights_is_8():
    assert panels.boarding_value(4, 2, 0, superior=False) == 8


@pytest.mark.rule("CM-LIGHT-03", "CM-LIGHT-04")
def test_lifters_damaged_and_bridge_hit_light_the_lights_the_text_names():
    assert panels.CRITICAL_LIGHTS["Lifters Damaged"] == (panels.NO_ALTITUDE_CHANGE,)
    assert panels.CRITICAL_LIGHTS["Bridge Hit"] == (
        panels.NO_ALTITUDE_CHANGE,
        panels.NO_DIRECTION_CHANGE,
        panels.BRIDGE_HIT,
    )


def test_every_critical_on_a_chart_is_known_and_only_the_fitted_specials_appear(every_panel):
    plain = set(conversion.read_str_map("criticals", "chart").values())
    specials = conversion.read_str_map("criticals", "special_names")
    for panel in every_panel:
        kinds = {gun.kind for gun in panel.guns}
        allowed = plain | {specials[kind] for kind in kinds if kind in specials}
        assert set(panel.criticals) <= allowed, panel.name
        assert len(panel.criticals) == 11
