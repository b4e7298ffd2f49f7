"""What Cloudships of Mars shows its players (presentation/): a sentence for every event kind the package logs,
the map's counters and a selected ship's arcs, and each ship's control panel as a record sheet, drawn by the
app's HTML and PDF renderers. Nothing a side may not see reaches its log or its map."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from battles.drawing.hexmap import render_hexmap
from battles.drawing.pdf import sheet_pdf
from battles.drawing.record_sheet import render_record_sheet
from battles.engine import hexgrid
from battles.engine.events import DECISION, DECISIONS
from battles.engine.presentation import HEXAGON, LAMPS, LOST, WHOLE, RecordSheet
from battles.narration import narrate_log
from battles.rules.cloudships_2023 import kinds, panels
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import FIRE_ORDERS, RETURN_FIRE
from battles.rules.cloudships_2023.presentation import narration
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import changed, fight, mid_round, new
from tests.rules.cloudships_2023.fire_kit import duel, give, shots, start

PACKAGE = Path(narration.__file__).resolve().parents[1]
NAMES = narration.names_for(new().board.to_json(), {})


def tell(kind: str, **data: Any) -> str:
    line = narrate_log([{"seq": 1, "turn": 2, "phase": "fire", "kind": kind, **data}], NAMES, CLOUDSHIPS)[0]
    return line.text


# --- the log in words ----------------------------------------------------------------------------------------


def _emitted_kinds() -> set[str]:
    """Every kind the package's source passes to ``ctx.emit`` by a name from kinds.py."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Name) and hasattr(kinds, first.id):
                    found.add(getattr(kinds, first.id))
    return found


def test_every_event_kind_the_package_names_or_emits_has_a_sentence_of_its_own() -> None:
    listed = {kind for name in dir(kinds) if name.endswith("KINDS") for kind in getattr(kinds, name)}
    emitted = _emitted_kinds()
    assert {kinds.VOLLEY, kinds.MOVED, kinds.BOX_CROSSED} <= emitted  # the walk finds them
    missing = sorted((listed | emitted) - set(narration.TELLERS))
    assert not missing, f"event kinds with no narration: {missing}"


def test_a_whole_battle_is_told_by_the_ruleset_line_by_line_with_no_plain_fallback() -> None:
    done = fight(new())
    names = CLOUDSHIPS.names(CLOUDSHIPS.board_view(done.state, None), {})
    for event in done.events:
        text = CLOUDSHIPS.narrate(event.to_json(), names)
        assert text, event.kind
        assert "None" not in text


@pytest.mark.parametrize(
    ("kind", "data", "said"),
    [
        (kinds.CARD_TURNED, {"ship": "Locust", "round": 2}, "Locust's card is turned: her turn begins."),
        (
            kinds.STATUS_CHECKED,
            {
                "ship": "Skylord",
                "movement": 3,
                "kite_roll": 4,
                "no_altitude_change": True,
                "no_direction_change": False,
                "whole_movement": False,
            },
            "Skylord checks her panel: movement 3 (the kite rolled 4); lights lit: no change of altitude.",
        ),
        (
            kinds.MOVED,
            {"ship": "Aphid", "step": "climb ahead", "hex": [5, 7], "facing": 2, "band": "High", "cost": 2},
            "Aphid climbs ahead (2 movement points): hex [5, 9], facing south-east, at High.",
        ),
        (
            kinds.RAM_TRIED,
            {"ship": "Hullcutter", "target": "Aphid", "scores": [5, 3], "hit": True, "speed": 3, "damage": 7},
            "Hullcutter rams Aphid: 5 against 3, a hit for 7 points (her ram value and 3 hexes moved).",
        ),
        (
            kinds.RAM_TRIED,
            {"ship": "Hullcutter", "target": "Aphid", "scores": [2, 4], "hit": False, "speed": 2, "damage": 0},
            "Hullcutter rams Aphid: 2 against 4: Aphid slips aside and Hullcutter slides past.",
        ),
        (
            kinds.COLLISION_CHECK,
            {"ship": "Locust", "other": "Aphid", "scores": [3, 3], "collided": True},
            "Locust comes into the hex and band of Aphid: 3 against 3, the same score: they collide.",
        ),
        (
            kinds.VOLLEY,
            {"ship": "Aphid", "shots": [{"ship": "Aphid", "gun": 3, "target": "Locust", "range": 1, "band": "short"}]},
            "Every order is carried out at once: Aphid's Nordenfelt 5-barrel (gun 3) at Locust (short range 1).",
        ),
        (
            kinds.DAMAGE_DUE,
            {"ship": "Locust", "points": 0, "by": "Aphid", "crew": 4},
            "Locust takes 4 anti-personnel hits from Aphid, to be read on her crew chart.",
        ),
        (
            kinds.CREW_HIT,
            {"ship": "Locust", "hits": 4, "by": "Aphid", "parties": 1},
            "Locust's crew chart: 4 anti-personnel hits from Aphid cost her 1 boarding party.",
        ),
        (
            kinds.BOX_CROSSED,
            {"ship": "Locust", "box": "Speed", "by": "Aphid"},
            "Locust crosses off a Speed box: one movement less.",
        ),
        (kinds.GUN_LOST, {"ship": "Locust", "gun": 2, "name": "3-pdr HRC"}, "Locust's 3-pdr HRC (gun 2) is destroyed."),
        (
            kinds.CRITICAL,
            {"ship": "Locust", "critical": "Bridge Hit", "permanent": False},
            "Critical hit on Locust: Bridge Hit; her No Altitude Change, No Direction Change and Bridge Hit lights go "
            "amber at the end of the turn.",
        ),
        (
            kinds.AMBER_LIT,
            {"ship": "Locust", "lights": ["Fire"], "criticals": ["Fire"]},
            "Locust's Fire light turns amber (Fire).",
        ),
        (kinds.FIRE_BURNS, {"ship": "Locust"}, "The fire aboard Locust burns on: one box crossed."),
        (kinds.REPAIRED, {"ship": "Locust", "light": "Fire"}, "Locust's crew puts the fire out."),
        (
            kinds.LIGHTS_CYCLED,
            {"round": 3},
            "End of round 3: red lights go out, amber lights turn red and the Fired markers come off.",
        ),
        (kinds.DROPPED, {"ship": "Reliant", "band": "Medium", "from": "High"}, "Reliant drops from High to Medium."),
        (
            kinds.FATE,
            {"ship": "Locust", "status": "crashed", "why": "her track is done"},
            "Locust falls to the ground and crashes (her track is done).",
        ),
        (
            kinds.PARTY_LOST,
            {"ship": "Aphid", "flight": False, "grapnel": True},
            "Aphid loses a boarding party, and her power grapnel with it.",
        ),
    ],
)
def test_sample_events_in_words(kind: str, data: dict[str, Any], said: str) -> None:
    assert tell(kind, **data) == said


def test_a_blanked_field_gives_the_plain_line_never_none() -> None:
    text = tell(kinds.GUN_LOST, ship="Locust", gun=None, name=None)
    assert "None" not in text


def test_bookkeeping_folds_away_and_the_story_does_not() -> None:
    assert CLOUDSHIPS.is_detail({"kind": kinds.GUN_FIRED})
    assert not CLOUDSHIPS.is_detail({"kind": kinds.VOLLEY})
    assert not CLOUDSHIPS.is_detail({"kind": kinds.CRITICAL})


def test_a_secret_return_fire_answer_is_in_no_other_sides_log_until_the_volley_reveals_it() -> None:
    opened = start(duel(2))
    ordered = give(opened.state, FIRE_ORDERS, shots(("Aphid", 1, "Locust")))
    answered = give(ordered.state, RETURN_FIRE, shots(("Locust", 1, "Aphid")))
    events = [*opened.events, *ordered.events, *answered.events]
    secret = next(e for e in events if e.kind == DECISION and e.data.get("decision") == RETURN_FIRE)
    assert secret.visibility != "public"
    before = events[: events.index(next(e for e in events if e.kind == DECISIONS and e.seq > secret.seq))]
    british = [seen for e in before if (seen := CLOUDSHIPS.event_view(e, "british")) is not None]
    martian = [seen for e in before if (seen := CLOUDSHIPS.event_view(e, "martians")) is not None]
    british_log = " ".join(line.text for line in narrate_log(british, NAMES, CLOUDSHIPS))
    martian_log = " ".join(line.text for line in narrate_log(martian, NAMES, CLOUDSHIPS))
    answer = 'Locust\'s 20-pdr/4" S (4" short) (gun 1) at Aphid'
    assert answer in martian_log
    assert answer not in british_log


# --- the map ---------------------------------------------------------------------------------------------------


def _marked_board() -> Board:
    board = mid_round(new(), active="Locust")
    lights = ((panels.NO_ALTITUDE_CHANGE, panels.AMBER), (panels.NO_DIRECTION_CHANGE, panels.RED))
    lights += ((panels.BRIDGE_HIT, panels.GREEN), (panels.FIRE, panels.AMBER))
    board = changed(
        board,
        "Locust",
        lights=lights,
        fired=(1, 2),
        crossed=9,
        guns_lost=(3,),
        parties=0,
        criticals=("Motive Power Hit",),
    )
    board = changed(board, "Skylord", status=kinds.CRASHED, band=panels.GROUND)
    return changed(board, "Hullcutter", status=kinds.LEFT)


def test_the_maps_counters_carry_facing_band_fired_markers_and_lit_lights_and_ring_the_ship_whose_card_is_up() -> None:
    board = _marked_board()
    view = CLOUDSHIPS.map_view(board.to_json(), {"selected": "Aphid"})
    counters = {c.key: c for c in view.counters}
    locust = counters["Locust"]
    assert locust.facing == board.ship_named("Locust").facing
    assert [(b.text, b.colour) for b in locust.badges] == [
        ("M", ""),
        ("F2", ""),
        ("Alt", "amber"),
        ("Dir", "red"),
        ("Fire", "amber"),
    ]
    assert set(locust.marks) == {"active", "burning"}
    assert counters["Aphid"].selected
    assert counters["Aphid"].badges[0].text == "M"
    assert counters["Skylord"].state == "crashed"
    assert "Hullcutter" not in counters
    assert view.off_map == ("Hullcutter",)
    assert view.overlays
    assert {o.look for o in view.overlays} <= {"arc--close", "arc--long"}
    svg = render_hexmap(view)
    assert "counter__tag--amber" in svg
    assert "counter--active" in svg


def test_a_selected_ships_arcs_reach_as_far_as_her_guns_and_mark_the_enemy_in_reach_with_the_score() -> None:
    board = duel(2)
    aphid = board.ship_named("Aphid")
    longest = max(g.long_range or 0 for g in aphid.panel.guns)
    arcs = CLOUDSHIPS.map_view(board.to_json(), {"selected": "Aphid"}).overlays
    reached = {h for o in arcs for h in o.hexes}
    assert reached
    assert max(hexgrid.distance(aphid.hex, h) for h in reached) == longest
    found = {o.ship: o for o in CLOUDSHIPS.ship_overlays(board.to_json(), options={}, turn=1)}
    marks = {t.target: t for t in found["Aphid"].targets}
    assert marks["Locust"].label == "3+"  # short range, main guns (CM-FIRE-07)
    assert "short range 2" in marks["Locust"].title


# --- the control panel -----------------------------------------------------------------------------------------


def _panel(name: str) -> RecordSheet:
    sheet = CLOUDSHIPS.record_sheet(_marked_board().to_json(), name)
    assert sheet is not None
    return sheet


def test_the_panel_shows_the_hexagon_movement_ceiling_and_ram_with_what_damage_left() -> None:
    sheet = _panel("Locust")
    hexagon = sheet.lead[0]
    assert (hexagon.look, hexagon.value, hexagon.aside) == (HEXAGON, "3", "now 1")  # parties and a Gatling gone
    movement, ceiling, ram = sheet.badges
    assert (movement.value, movement.aside) == ("6", "now 5")  # a Motive Power Hit (docs/cloudships.md section 4)
    assert (ceiling.value, ceiling.aside) == ("High", "now Medium")  # the Medium box crossed (CM-DMG-07)
    assert ram.value == "1"


def test_the_damage_track_is_crossed_box_by_box_a_row_a_band_with_the_boarding_boxes_blue() -> None:
    track = _panel("Locust").section("track")
    assert track is not None
    rows = track.rows
    assert [r.label for r in rows] == ["High", "Medium", "Low"]
    assert sum(r.lost for r in rows) == 9
    assert rows[0].look == "gone"
    assert rows[1].look == "ceiling"
    boxes = [b for r in rows for b in r.boxes]
    assert all(b.state == LOST for b in boxes[:9])
    assert all(b.state == WHOLE for b in boxes[9:])
    assert {b.colour for b in boxes if b.label == "B"} == {"blue"}


def test_three_lamps_a_light_the_one_showing_lit() -> None:
    lights = _panel("Locust").section("lights")
    assert lights is not None
    lamps = {row.label: row for row in lights.rows}
    assert all(row.look == LAMPS for row in lamps.values())
    fire = lamps[panels.FIRE]
    assert [(b.colour, b.state) for b in fire.boxes] == [("green", "empty"), ("amber", "whole"), ("red", "empty")]
    assert [b.state for b in lamps[panels.BRIDGE_HIT].boxes] == ["whole", "empty", "empty"]


def test_guns_show_arcs_in_red_ranges_scores_dice_damage_and_their_markers() -> None:
    guns = _panel("Locust").section("guns")
    assert guns is not None
    items = {item.key: item for block in guns.blocks for item in block.items}
    first = items["1"]
    assert first.values["arc_colour"] == "red"
    assert "short 1-3: 3+" in first.detail
    assert "long 4-6: 5+" in first.detail
    assert "damage 4" in first.detail
    assert first.state == "fired"
    assert items["3"].state == "destroyed"
    assert "short 1-1: 5+" in items["3"].detail
    assert items["7"].detail.endswith("damage 1d6")


def test_the_boarding_squares_and_the_charts() -> None:
    sheet = _panel("Reliant")
    boarding, crew, criticals = sheet.section("boarding"), sheet.section("crew"), sheet.section("criticals")
    assert boarding is not None
    assert crew is not None
    assert criticals is not None
    squares = boarding.rows[0].boxes
    assert len(squares) == 6
    assert {b.colour for b in squares} == {"blue"}
    assert [f.label for f in crew.blocks[0].facts][:2] == ["6+ hits", "10+ hits"]
    assert [f.label for f in criticals.blocks[0].facts] == [str(n) for n in range(2, 13)]


def test_the_same_panel_draws_as_html_and_as_pdf() -> None:
    sheet = _panel("Locust")
    html = render_record_sheet(sheet)
    for mark in ("sheet--control-panel", "sheet__hexagon", "sheet-row--lamps", "box--amber", "box--blue"):
        assert mark in html
    assert "sheet-gun__arcs--red" in html
    assert sheet_pdf([sheet, _panel("Reliant"), _panel("Skylord")]).startswith(b"%PDF")
