"""The Data Card drawn as the text draws it (IC-CARD-01, Appendix E; IC-SPD-06): numbered boxes, her stats whole,
beyond them struck through, losses crossed off from the right, turret arcs marked, Current Speed and Hits lines."""

from __future__ import annotations

import pytest

from battles.engine.presentation import EMPTY, LOST, WHOLE
from battles.rules.ironclads import cards, fleet, record_sheet
from battles.rules.ironclads.cards import PROPULSION


def gloire_sheet(**kwargs: object):  # type: ignore[no-untyped-def]
    return record_sheet.record_sheet(fleet.find("GLOIRE").rating().card, **kwargs)  # type: ignore[arg-type]


def states(row):  # type: ignore[no-untyped-def]
    return "".join({WHOLE: "W", LOST: "X", EMPTY: "-"}[b.state] for b in row.boxes)


@pytest.mark.rule("IC-CARD-01", "IC-CARD-33")
def test_gloires_card_as_the_text_draws_it_ic_card_01_ic_card_33() -> None:
    """IC-CARD-01/33: every track a row of numbered boxes; Port 13 of 25 bold, the rest struck; Armour all seven."""
    sheet = gloire_sheet()
    rows = {r.label: r for r in sheet.section("guns").rows + sheet.section("ship").rows}  # type: ignore[union-attr]
    assert list(rows) == [
        "Forward Arc", "Port Broadside Arc", "Starb Broadside Arc", "Rear Arc",
        "Forward Turret", "Centre Turret", "Rear Turret", "Armour", "Propulsion", "Hull",
    ]  # fmt: skip
    assert [b.label for b in rows["Port Broadside Arc"].boxes][:3] == ["01", "02", "03"]
    assert rows["Port Broadside Arc"].boxes[-1].label == "25"
    assert states(rows["Port Broadside Arc"]) == "W" * 13 + "-" * 12
    assert states(rows["Forward Arc"]) == "-" * 10
    assert states(rows["Armour"]) == "W" * 7
    assert states(rows["Propulsion"]) == "W" * 13 + "-" * 7
    assert states(rows["Hull"]) == "W" * 6 + "-" * 6
    assert sheet.title == "Name: GLOIRE"
    assert sheet.subtitle == "French, 1859-1879"
    assert sheet.facts[0].value == "INVINCIBLE, NORMANDIE"


@pytest.mark.rule("IC-SPD-06")
def test_stats_lost_are_crossed_off_from_the_right_ic_spd_06() -> None:
    """IC-SPD-06: GLOIRE loses 3 Propulsion of 13: 10 whole, 3 crossed off at the right, 7 never hers."""
    card = fleet.find("GLOIRE").rating().card
    hit, _ = card.cross_off(PROPULSION, 3)
    sheet = record_sheet.record_sheet(hit, current_speeds=(10, 8))
    propulsion = next(r for r in sheet.section("ship").rows if r.label == "Propulsion")  # type: ignore[union-attr]
    assert states(propulsion) == "W" * 10 + "X" * 3 + "-" * 7
    assert propulsion.summary == "Propulsion: 10 of 13 left (3 crossed off)"
    speed = sheet.section("ship").blocks[1].facts[0]  # type: ignore[union-attr]
    assert (speed.label, speed.value, speed.aside) == ("Current Speed", "8", "was 10")


@pytest.mark.rule("IC-CARD-01")
def test_turret_arcs_are_shown_with_the_ones_she_bears_into_marked_ic_card_01() -> None:
    """IC-CARD-01: Fwd/Port/Starboard/Rear beside each turret; Arminius's turrets bear into the broadsides only."""
    sheet = record_sheet.record_sheet(fleet.find("ARMINIUS").rating().card)
    items = {i.key: i for i in sheet.section("guns").blocks[1].items}  # type: ignore[union-attr]
    forward = items["Forward Turret"]
    assert forward.detail == "Fwd/PORT/STARBOARD/Rear"
    assert forward.summary == "bears Port and Starboard"
    assert [a[3] for a in forward.values["aspects"]] == [False, True, True, False]  # type: ignore[union-attr,index]
    assert forward.name == ""  # the label once, boxed: not "forward turret Forward Turret"
    assert "Centre Turret" not in items  # she has none: no blank arcs line for it


def test_a_ship_without_turrets_has_no_turret_arcs_ic_card_01() -> None:
    """A broadside ship's card keeps every turret's row of boxes (struck through) but no arcs lines for turrets she
    does not have."""
    sheet = gloire_sheet()
    guns = sheet.section("guns")
    assert guns is not None
    assert [b.heading for b in guns.blocks] == [""]
    assert "Forward Turret" in [r.label for r in guns.blocks[0].rows]


def test_a_fresh_card_leaves_the_current_speed_and_hits_lines_blank() -> None:
    facts = gloire_sheet().section("ship").blocks[1].facts  # type: ignore[union-attr]
    assert [(f.label, f.value) for f in facts] == [("Current Speed", ""), ("Hits", ""), ("Notes", "")]


def test_the_generic_renderers_draw_the_card_boxes_beyond_her_stats_struck_through() -> None:
    """The app's own HTML and PDF renderers draw it (no ruleset code in them): a struck box is the kit's uncoloured
    empty box."""
    from battles.drawing.pdf import sheet_pdf
    from battles.drawing.record_sheet import render_record_sheet

    html = str(render_record_sheet(gloire_sheet()))
    assert "sheet--data-card" in html
    assert html.count("box box--empty") == 10 + 12 + 12 + 10 + 30 + 7 + 6
    assert "Fwd/Port/Starboard/Rear" not in html  # a broadside ship: no turret arcs
    assert "FWD/PORT/STARBOARD/REAR" in str(render_record_sheet(monitor_sheet()))  # her turret bears all round
    assert sheet_pdf([gloire_sheet(), monitor_sheet()]).startswith(b"%PDF")


def monitor_sheet():  # type: ignore[no-untyped-def]
    """The scenario's Monitor: one centre turret bearing into every arc."""
    card = {"stats": {"centre turret": 6, "armour": 5, "propulsion": 6, "hull": 4}, "monitor": True}
    turrets = {"centre turret": ["forward", "port", "starboard", "rear"]}
    return record_sheet.record_sheet(cards.from_json({"name": "Monitor", **card, "turrets": turrets}))
