"""Umpires edit a control panel before the battle (panel_fields.py, panel_edits.py; issue 22): the fields spell the
panel untouched, every figure is held within its stated bound, a gun's arcs and ranges are judged, what follows
from an edit is rebuilt by the conversion's rules, and a changed ship goes into the scenario with her panel whole."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from battles.engine import answers
from battles.engine.decisions import Rejection
from battles.rules.cloudships_2023 import conversion, panels, setup
from battles.rules.cloudships_2023.panel_edits import PANEL_EDITOR, edited
from battles.rules.cloudships_2023.panel_fields import (
    AP_DICE,
    CREW_STEP,
    DAMAGE,
    FLIGHTS,
    HULL_BOXES,
    LONG_RANGE,
    MAIN_DICE,
    MOVEMENT,
    PARTIES,
    RAM,
    Bound,
    fields_of,
    figures,
)
from battles.rules.cloudships_2023.panels import ControlPanel
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS

LOCUST = setup.catalog()["locust"]  # guns: 1 bow 4-inch (main), 2 3-pdr, 3 Gatling (anti-personnel), ..., 7 rockets
SKYLORD = setup.catalog()["skylord"]  # a kite


def scenario() -> dict[str, Any]:
    return copy.deepcopy(dict(CLOUDSHIPS.example_scenarios()[0]))


def change(panel: ControlPanel, **figures_: Any) -> dict[str, Any]:
    """The panel's figures with some changed, as the form spells them."""
    return {**figures(panel), **figures_}


def gun_change(panel: ControlPanel, index: int, **gun: Any) -> dict[str, Any]:
    found = figures(panel)
    guns = [dict(g) for g in found["guns"]]
    guns[index].update(gun)
    return {**found, "guns": guns}


def refused(result: ControlPanel | Rejection, clause: str, words: str) -> None:
    assert isinstance(result, Rejection), result
    assert result.clause == clause
    assert words in result.reason


def test_the_ruleset_offers_the_panel_editor():
    assert CLOUDSHIPS.ship_editor is PANEL_EDITOR


def test_the_fields_spell_every_catalog_panel_as_it_stands_and_change_nothing():
    for class_id, panel in setup.catalog().items():
        schema = answers.AnswerSchema(class_id, fields_of(panel))
        spelled = answers.assemble(schema, answers.disassemble(schema, figures(panel)))
        assert spelled == figures(panel), class_id
        assert edited(panel, spelled) == panel, class_id


def test_every_ship_of_the_scenario_is_offered_with_her_panel_in_a_line():
    ships = PANEL_EDITOR.editable_ships(scenario())
    assert [ship.name for ship in ships] == ["Aphid", "Reliant", "Locust", "Skylord", "Hullcutter"]
    locust = ships[2]
    assert locust.label == "Locust (The Martian raiders)"
    assert locust.summary == "movement 6 · ceiling High · boarding 3 · ram 1 · 7 guns · 21 boxes"
    names = [name for name, _ in answers.leaves(locust.fields)]
    assert {"movement", "ceiling", "hulls.High", "guns.0.dice", "guns.0.arcs", "guns.6.angle", "new_gun.kind"} <= set(
        names
    )
    assert "guns.2.damage" not in names  # an anti-personnel gun scores crew hits, no damage (CM-AP-06)


SCALARS = [
    ("movement", MOVEMENT),
    ("ram", RAM),
    ("boarding_parties", PARTIES),
    ("crew_step", CREW_STEP),
    ("flying_martians", FLIGHTS),
]


@pytest.mark.parametrize(("key", "bound"), SCALARS)
def test_each_figure_is_held_within_its_stated_bound(key: str, bound: Bound):
    for inside in (bound.low, bound.high):
        result = edited(LOCUST, change(LOCUST, **{key: inside}))
        assert isinstance(result, ControlPanel), (key, inside, result)
    for outside in (bound.low - 1, bound.high + 1):
        refused(edited(LOCUST, change(LOCUST, **{key: outside})), bound.clause, f"is {bound.words}")


def test_the_figures_land_on_the_panel_and_what_follows_is_rebuilt():
    result = edited(LOCUST, change(LOCUST, movement=5, ram=3, boarding_parties=3, crew_step=2, flying_martians=2))
    assert isinstance(result, ControlPanel)
    assert (result.movement, result.ram, result.boarding_parties, result.flying_martians) == (5, 3, 3, 2)
    assert result.crew_chart == (4, 6, 8)  # 2 shrugged off, then a party every 2 hits (CM-AP-07)
    assert result.hexagon == 3 + 2 * 2 + 2  # parties, flights worth 2 each, the two Gatlings (CM-BRD-10)
    assert result.track == LOCUST.track
    assert result.guns == LOCUST.guns


@pytest.mark.parametrize("key", ["superior", "power_grapnel", "vulnerable_magazine"])
def test_the_yes_no_figures(key: str):
    result = edited(LOCUST, change(LOCUST, **{key: True}))
    assert isinstance(result, ControlPanel)
    assert getattr(result, key) is True
    refused(edited(LOCUST, change(LOCUST, **{key: "yes"})), "CM-SEQ-01", "does not spell a control panel")


@pytest.mark.rule("CM-MOV-12")
def test_a_kite_rolls_her_movement_and_a_steamer_needs_one():
    refused(edited(SKYLORD, change(SKYLORD, movement=4)), "CM-MOV-12", "a kite rolls her movement")
    steamer = edited(SKYLORD, change(SKYLORD, motive=panels.STEAM, movement=3))
    assert isinstance(steamer, ControlPanel)
    assert (steamer.motive, steamer.movement) == (panels.STEAM, 3)
    refused(edited(SKYLORD, change(SKYLORD, motive=panels.STEAM)), "CM-MOV-01", "not nothing")
    kite = edited(LOCUST, {**change(LOCUST, motive=panels.KITE), "movement": None})
    assert isinstance(kite, ControlPanel)
    assert kite.movement is None
    refused(edited(LOCUST, change(LOCUST, motive="oars")), "CM-MOV-12", "not 'oars'")


@pytest.mark.rule("CM-DMG-01")
def test_the_track_is_rebuilt_from_the_hull_boxes_a_row_from_the_ceiling_down():
    result = edited(LOCUST, change(LOCUST, hulls={"High": 10, "Medium": 4, "Low": 6}))
    assert isinstance(result, ControlPanel)
    assert result.track == conversion.track_of({"High": 10, "Medium": 4, "Low": 6})
    assert [row.count(panels.HULL) for row in result.track] == [10, 4, 6]
    assert [row[-1] for row in result.track] == [panels.MEDIUM, panels.LOW, panels.GROUND]
    lowered = edited(LOCUST, change(LOCUST, ceiling=panels.MEDIUM, hulls={"High": 0, "Medium": 4, "Low": 6}))
    assert isinstance(lowered, ControlPanel)
    assert lowered.ceiling == panels.MEDIUM
    assert len(lowered.track) == 2
    above = change(LOCUST, ceiling=panels.MEDIUM, hulls={"High": 5, "Medium": 4, "Low": 6})
    refused(edited(LOCUST, above), "CM-DMG-01", "no High row: leave it at 0")
    for outside in (HULL_BOXES.low - 1, HULL_BOXES.high + 1):
        hulls = {"High": 5, "Medium": outside, "Low": 6}
        refused(edited(LOCUST, change(LOCUST, hulls=hulls)), "CM-DMG-01", "the Medium row's hull boxes is 1 to 60")
    refused(edited(LOCUST, change(LOCUST, ceiling="Ground")), "CM-ALT-01", "not 'Ground'")


@pytest.mark.rule("CM-FIRE-01", "CM-FIRE-04", "CM-FIRE-10", "CM-AP-01")
@pytest.mark.parametrize(
    ("index", "key", "bound"),
    [(0, "dice", MAIN_DICE), (0, "damage", DAMAGE), (0, "long_range", LONG_RANGE), (2, "dice", AP_DICE)],
)
def test_a_guns_dice_damage_and_range_are_bounded(index: int, key: str, bound: Bound):
    for inside in (bound.low, bound.high):
        within = {"short_range": min(LOCUST.guns[index].short_range or 0, inside)} if key == "long_range" else {}
        result = edited(LOCUST, gun_change(LOCUST, index, **{key: inside}, **within))
        assert isinstance(result, ControlPanel), (key, inside, result)
        assert getattr(result.guns[index], key) == inside
    for outside in (bound.low - 1, bound.high + 1):
        refused(edited(LOCUST, gun_change(LOCUST, index, **{key: outside})), bound.clause, f"is {bound.words}")


def test_the_umpire_changes_a_guns_dice_and_ranges():
    result = edited(LOCUST, gun_change(LOCUST, 1, dice=2, damage=3, short_range=3, long_range=5))
    assert isinstance(result, ControlPanel)
    gun = result.guns[1]
    assert (gun.number, gun.dice, gun.damage, gun.short_range, gun.long_range) == (2, 2, 3, 3, 5)
    assert result.guns[0] == LOCUST.guns[0]
    refused(edited(LOCUST, gun_change(LOCUST, 1, short_range=6, long_range=5)), "CM-FIRE-04", "beyond its long")


@pytest.mark.rule("CM-FIRE-02")
def test_a_guns_arcs_are_ticked_from_the_four_and_one_at_least():
    result = edited(LOCUST, gun_change(LOCUST, 0, arcs=["starboard", "bow"]))
    assert isinstance(result, ControlPanel)
    assert result.guns[0].arcs == ("bow", "starboard")  # the arcs it had keep their order
    wider = edited(LOCUST, gun_change(LOCUST, 2, arcs=["starboard", "bow", "stern"]))
    assert isinstance(wider, ControlPanel)
    assert wider.guns[2].arcs == ("starboard", "bow", "stern")
    refused(edited(LOCUST, gun_change(LOCUST, 0, arcs=[])), "CM-FIRE-02", "needs at least one arc")
    refused(edited(LOCUST, gun_change(LOCUST, 0, arcs=["aloft"])), "CM-FIRE-02", "not aloft")


@pytest.mark.rule("CM-RKT-01")
def test_a_rocket_batterys_side_and_angle():
    result = edited(LOCUST, gun_change(LOCUST, 6, arcs=["starboard"], angle="up"))
    assert isinstance(result, ControlPanel)
    assert (result.guns[6].arcs, result.guns[6].angle) == (("starboard",), "up")
    refused(edited(LOCUST, gun_change(LOCUST, 6, angle="sideways")), "CM-RKT-01", "up or down")


@pytest.mark.rule("CM-GUN-01", "CM-GUN-06", "CM-DMG-11")
def test_a_gun_taken_off_or_added_and_the_guns_numbered_again_from_the_bow():
    off = edited(LOCUST, gun_change(LOCUST, 6, remove=True))  # the rocket battery
    assert isinstance(off, ControlPanel)
    assert [g.number for g in off.guns] == [1, 2, 3, 4, 5, 6]
    assert "Rocket Magazine" not in off.criticals  # no rockets aboard: the chart's point goes back (CM-MAG-07)
    new = {"kind": "main", "name": "Long 9", "position": "starboard bow", "arcs": ["bow", "starboard"]}
    added = edited(
        LOCUST, {**figures(LOCUST), "new_gun": {**new, "short_range": 4, "long_range": 8, "dice": 1, "damage": 5}}
    )
    assert isinstance(added, ControlPanel)
    assert len(added.guns) == 8
    gun = added.guns[1]  # bow, then starboard bow: clockwise from the bow
    assert (gun.number, gun.name, gun.kind, gun.arcs, gun.damage) == (2, "Long 9", "main", ("bow", "starboard"), 5)
    assert added.criticals == LOCUST.criticals
    gatling = {**new, "kind": "anti-personnel", "name": "", "short_range": 1, "long_range": 2, "dice": 1, "damage": 0}
    refused(edited(LOCUST, {**figures(LOCUST), "new_gun": gatling}), "CM-AP-01", "4 to 6")
    fitted = edited(LOCUST, {**figures(LOCUST), "new_gun": {**gatling, "dice": 5}})
    assert isinstance(fitted, ControlPanel)
    assert fitted.guns[1].name == "Anti-personnel gun"
    assert fitted.guns[1].damage is None
    refused(edited(LOCUST, {**figures(LOCUST), "new_gun": {**new, "kind": "drogue torpedo"}}), "CM-GUN-06", "main")


@pytest.mark.parametrize(
    "junk",
    [None, [], "Locust", {"motive": "steam"}, {**figures(LOCUST), "guns": "all"}, {**figures(LOCUST), "ram": "3"}],
)
def test_junk_is_refused_with_a_reason_never_raised(junk: Any):
    result = edited(LOCUST, junk)
    assert isinstance(result, Rejection)
    assert result.reason


def test_the_guns_must_be_the_panels_own():
    short = {**figures(LOCUST), "guns": figures(LOCUST)["guns"][:-1]}
    refused(edited(LOCUST, short), "CM-GUN-01", "load it again")


def test_a_changed_ship_goes_into_the_scenario_with_her_panel_whole_and_the_others_stay():
    given = scenario()
    result = PANEL_EDITOR.edit(
        given, {"Locust": change(LOCUST, movement=5), "Aphid": figures(setup.catalog()["aphid"])}
    )
    assert not isinstance(result, Rejection)
    assert result.changed == ("Locust",)
    entries = {entry["name"]: entry for entry in result.scenario["ships"]}
    assert "class" not in entries["Locust"]
    assert ControlPanel.from_json(entries["Locust"]["panel"]).movement == 5
    assert entries["Aphid"] == given["ships"][0]  # left as the scenario gives her
    assert given == scenario()  # the scenario handed in is not changed
    board = setup.board_from_scenario(result.scenario)
    assert board.ship_named("Locust").panel.movement == 5


def test_a_ceiling_below_the_band_she_starts_in_is_refused():
    skylord = PANEL_EDITOR.edit(
        scenario(), {"Skylord": change(SKYLORD, ceiling=panels.MEDIUM, hulls={"High": 0, "Medium": 20, "Low": 20})}
    )
    assert isinstance(skylord, Rejection)
    assert "starts at 'High'" in skylord.reason


def test_a_ship_not_in_the_scenario_is_refused():
    result = PANEL_EDITOR.edit(scenario(), {"Intrepid": figures(LOCUST)})
    assert isinstance(result, Rejection)
    assert "no ship 'Intrepid'" in result.reason
    assert PANEL_EDITOR.editable_ships({"ships": "none"}) == ()
