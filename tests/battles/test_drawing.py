"""Drawing the battle: the SVG hex map, the HTML record sheet, the PDF record sheet and its view."""

from __future__ import annotations

import copy
import json
import math
import re
import xml.etree.ElementTree as ET
import zlib
from dataclasses import replace
from typing import Any

import pytest
from django.template import Context, Template
from django.urls import reverse

from battles.drawing import hexmap as drawing
from battles.drawing import record_sheet as sheet_drawing
from battles.drawing.hexmap import SIZE
from battles.drawing.pdf import latin1, sheet_pdf
from battles.engine import hexgrid, simulate
from battles.engine.hexgrid import Hex
from battles.engine.presentation import (
    EMPTY,
    HEXAGON,
    LAMPS,
    LOST,
    UNKNOWN,
    WHOLE,
    Badge,
    Block,
    Box,
    Counter,
    Fact,
    Item,
    MapView,
    RecordSheet,
    Row,
    Section,
)
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.kinds import MOVE
from battles.rules.sky_galleons.presentation.sheets import record_sheet, sheet_data
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import HullRow, ship_record_from_class
from tests.battles.conftest import first_scenario
from tests.factories import UserFactory
from tests.rules.sky_galleons import battle_harness as h

SVG = "{http://www.w3.org/2000/svg}"
SEED = b"drawing" * 4


FOCUS = ("selected", "gun", "arcs", "rings")


def hexmap(board: dict[str, Any], **options: Any) -> drawing.HexMap:
    """The Sky Galleons map view of ``board`` with the focus asked for, as the renderer lays it out."""
    focus = {k: v for k, v in options.items() if k in FOCUS}
    return drawing.hexmap(RS.map_view(board, focus), **{k: v for k, v in options.items() if k not in FOCUS})


def render_record_sheet(ship: dict[str, Any], **options: Any) -> str:
    """A Sky Galleons ship's sheet as the app's renderer draws it."""
    return sheet_drawing.render_record_sheet(sheet_data(record_sheet(ship, **options)))


def render_hexmap(board: dict[str, Any], **options: Any) -> str:
    focus = {k: v for k, v in options.items() if k in FOCUS}
    return drawing.render_hexmap(RS.map_view(board, focus), **{k: v for k, v in options.items() if k not in FOCUS})


@pytest.fixture(scope="module")
def pitched() -> dict[str, Any]:
    """The Pitched Battle's board (canal map, eleven ships) when the first ship is asked to move."""
    _, state = h.start(scenario.load_data("pitched-battle"), SEED)
    state, _, request = h.drive(state, lambda s, r: None, SEED, lambda s, r: r.kind == MOVE)
    assert request is not None
    return RS.board_to_json(state.board)


def board_copy(board: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(board)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def counters(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-ship"): g for g in root.iter(f"{SVG}g") if g.get("data-ship")}


def by_class(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def translate(element: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", ""))
    assert match, element.get("transform")
    return float(match.group(1)), float(match.group(2))


def hexes_in(d: str) -> int:
    """Hex outlines in a layer's path data: each starts with a move-to."""
    return d.count("M")


def ship(board: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in board["ships"] if s["name"] == name)


# --- the map --------------------------------------------------------------------------------------------------


def test_map_is_well_formed_svg_with_one_counter_per_ship_at_its_hex_centre(pitched):
    root = parse(render_hexmap(pitched))
    assert root.tag == f"{SVG}svg"
    drawn = counters(root)
    assert sorted(drawn) == sorted(s["name"] for s in pitched["ships"])
    shared = {}
    for s in pitched["ships"]:
        shared.setdefault(tuple(s["position"]), []).append(s["name"])
    for s in pitched["ships"]:
        g = drawn[s["name"]]
        x, y = hexgrid.to_pixel(Hex(*s["position"]), SIZE)
        assert float(g.get("data-cx")) == pytest.approx(x, abs=0.01)
        assert float(g.get("data-cy")) == pytest.approx(y, abs=0.01)
        if len(shared[tuple(s["position"])]) == 1:  # alone in her hex: the counter sits on its centre
            assert translate(g) == pytest.approx((x, y), abs=0.01)
        col, row = hexgrid.to_odd_q(Hex(*s["position"]))
        assert (int(g.get("data-col")), int(g.get("data-row"))) == (col, row)
        assert g.get("data-side") == s["side"]
        assert g.find(f"{SVG}title").text.startswith(s["name"])


def test_map_counter_sits_where_the_scenario_placed_the_ship(pitched):
    """Scenario [col, row] 0,10 (odd-q) is the Triumph's start: the counter's data and pixels agree with it."""
    g = counters(parse(render_hexmap(pitched)))["Triumph"]
    assert (g.get("data-col"), g.get("data-row")) == ("0", "10")
    assert translate(g) == pytest.approx(hexgrid.to_pixel(hexgrid.from_odd_q(0, 10), SIZE), abs=0.01)


@pytest.mark.parametrize("facing", range(6))
def test_facing_arrow_points_at_the_hexside_the_ship_faces(pitched, facing):
    board = board_copy(pitched)
    ship(board, "Dauntless")["facing"] = facing
    g = counters(parse(render_hexmap(board)))["Dauntless"]
    arrow = by_class(g, "counter__facing")[0]
    assert arrow.get("transform") == f"rotate({60 * facing})"
    # The arrow is drawn pointing north; rotated by the facing it points at the neighbour on that hexside.
    tip_y = min(float(v) for v in re.findall(r"[-\d.]+", arrow.get("d"))[1::2])
    angle = math.radians(60 * facing)
    tip = (-tip_y * math.sin(angle), tip_y * math.cos(angle))  # SVG rotate(a): clockwise on screen
    here = Hex(*ship(board, "Dauntless")["position"])
    nx, ny = hexgrid.to_pixel(hexgrid.neighbour(here, facing), SIZE)
    hx, hy = hexgrid.to_pixel(here, SIZE)
    step = (nx - hx, ny - hy)
    cos = (tip[0] * step[0] + tip[1] * step[1]) / (math.hypot(*tip) * math.hypot(*step))
    assert cos == pytest.approx(1.0, abs=1e-6)


def test_map_is_accessible_and_counters_are_focusable(pitched):
    root = parse(render_hexmap(pitched))
    assert root.get("role") == "group"
    assert "11 ships" in root.get("aria-label")
    terrain = by_class(root, "hexmap__terrain")[0]
    assert terrain.get("role") == "img"
    assert "30 by 22 hexes" in terrain.get("aria-label")
    for g in counters(root).values():
        assert g.get("tabindex") == "0"
        assert g.get("aria-label") == g.find(f"{SVG}title").text
        assert g.get("data-altitude") == "H"


def test_overlays_appear_only_when_asked(pitched):
    plain = parse(render_hexmap(pitched, selected="Triumph", gun="1"))
    assert not by_class(plain, "hexmap__arc")
    assert not by_class(plain, "hexmap__ring")
    assert not by_class(plain, "hexmap__path")
    assert "counter--selected" in counters(plain)["Triumph"].get("class")
    arcs_only = parse(render_hexmap(pitched, selected="Triumph", gun="1", arcs=True))
    assert by_class(arcs_only, "hexmap__arc")
    assert not by_class(arcs_only, "hexmap__ring")
    rings_only = parse(render_hexmap(pitched, selected="Triumph", gun="1", rings=True))
    assert by_class(rings_only, "hexmap__ring")
    assert not by_class(rings_only, "hexmap__arc")
    # No gun named, or one the ship does not have: nothing to draw.
    for gun in (None, "99"):
        root = parse(render_hexmap(pitched, selected="Triumph", gun=gun, arcs=True, rings=True))
        assert not by_class(root, "hexmap__arc")
        assert not by_class(root, "hexmap__ring")


@pytest.mark.rule("SG-FACE-04")
def test_arcs_shade_the_map_hexes_the_gun_bears_on_by_range_band(pitched):
    """Triumph's gun 1 (a 6in forward: bow and both broadsides, close 5, long 10) facing NE."""
    board = board_copy(pitched)
    triumph = ship(board, "Triumph")
    gun = next(g for g in triumph["guns"] if g["id"] == "1")
    assert gun["arcs"] == ["bow", "port", "starboard"]
    here, facing = Hex(*triumph["position"]), triumph["facing"]
    on_map = set(hexgrid.rectangle_odd_q(30, 22))
    bearing = [
        x
        for x in on_map
        if x != here
        and hexgrid.distance(here, x) <= 10
        and hexgrid.aspects(here, facing, x) & {"bow", "port", "starboard"}
    ]
    close = [x for x in bearing if hexgrid.distance(here, x) <= 5]
    drawn = hexmap(board, selected="Triumph", gun="1", arcs=True)
    layers = {layer.css.split("--")[-1]: hexes_in(layer.d) for layer in drawn.arcs}
    assert layers == {"close": len(close), "long": len(bearing) - len(close)}
    astern = hexgrid.neighbour(here, facing + 3)
    assert hexgrid.aspects(here, facing, astern) == {hexgrid.Aspect.STERN}
    assert astern not in bearing
    # The arc's edges: the bow-and-broadsides arc ends at the two lines either side of the stern.
    assert len(drawn.arc_rays) == 2


@pytest.mark.rule("SG-FIRE-07")
def test_range_rings_are_the_hexes_at_close_and_long_range(pitched):
    triumph = ship(pitched, "Triumph")
    here = Hex(*triumph["position"])
    on_map = set(hexgrid.rectangle_odd_q(30, 22))
    drawn = hexmap(pitched, selected="Triumph", gun="1", rings=True)
    rings = {layer.css.split("--")[-1]: hexes_in(layer.d) for layer in drawn.rings}
    assert rings == {
        "close": sum(1 for x in hexgrid.ring(here, 5) if x in on_map),
        "long": sum(1 for x in hexgrid.ring(here, 10) if x in on_map),
    }


def test_states_struck_crashed_landed_and_off_the_map(pitched):
    board = board_copy(pitched)
    board["out"] = {"Aphid": "struck", "Swiftwood": "crashed", "Clearsight 2": "escaped"}
    ship(board, "Swiftwood")["status"] = "crashed"
    ship(board, "Dauntless")["status"] = "landed"
    ship(board, "Hullcutter 1")["fire"] = 2
    root = parse(render_hexmap(board))
    drawn = counters(root)
    assert "Clearsight 2" not in drawn
    assert "not on the map: Clearsight 2" in root.find(f"{SVG}desc").text
    for name, state in (("Aphid", "struck"), ("Swiftwood", "crashed"), ("Dauntless", "landed")):
        g = drawn[name]
        assert g.get("data-state") == state
        assert f"counter--{state}" in g.get("class")
        assert by_class(g, f"counter__mark--{state}"), f"{name} has no mark for {state}"
    assert "colours struck" in drawn["Aphid"].find(f"{SVG}title").text
    assert "counter--burning" in drawn["Hullcutter 1"].get("class")
    assert drawn["Triumph"].get("data-state") == ""
    assert not [e for e in drawn["Triumph"].iter() if "counter__mark" in (e.get("class") or "")]


def test_ships_sharing_a_hex_are_each_drawn_round_its_centre(pitched):
    board = board_copy(pitched)
    ship(board, "Aphid")["position"] = ship(board, "Triumph")["position"]
    drawn = counters(parse(render_hexmap(board)))
    a, b = translate(drawn["Aphid"]), translate(drawn["Triumph"])
    assert a != b
    assert drawn["Aphid"].get("data-cx") == drawn["Triumph"].get("data-cx")
    x, y = hexgrid.to_pixel(Hex(*ship(board, "Triumph")["position"]), SIZE)
    assert all(math.dist(p, (x, y)) < SIZE * 0.6 for p in (a, b))


@pytest.mark.rule("SG-WIND-01")
@pytest.mark.parametrize(("wind", "rotation", "words"), [(0, 180, "from the north"), (2, 300, "from the south-east")])
def test_wind_arrow_points_downwind(pitched, wind, rotation, words):
    board = board_copy(pitched)
    board["wind"] = wind
    root = parse(render_hexmap(board))
    rose = by_class(root, "hexmap__wind")[0]
    assert words in rose.get("aria-label")
    assert by_class(rose, "hexmap__wind-arrow")[0].get("transform") == f"rotate({rotation})"
    board["wind"] = None
    assert not by_class(parse(render_hexmap(board)), "hexmap__wind")


def test_terrain_zones_and_heights(pitched):
    root = parse(render_hexmap(pitched))
    city = by_class(root, "hexmap__zone--city")
    assert city
    assert city[0].find(f"{SVG}title").text == "City"
    assert not by_class(root, "hexmap__height")
    highland = h.scenario([h.ship("A", "Aphid", (2, 2))], [h.ship("B", "Aphid", (27, 19))], map={"base": "highland"})
    _, state = h.start(highland, SEED)
    board = RS.board_to_json(state.board)
    root = parse(render_hexmap(board, coordinates=True))
    levels = {e.get("class").split("--")[-1] for e in by_class(root, "hexmap__height")}
    assert levels == {"VL", "L", "M", "H"}
    assert by_class(root, "hexmap__zone--fortress")
    # The kraag's top: seven hexes at High round [15, 11].
    high = by_class(root, "hexmap__height--H")[0]
    assert hexes_in(high.get("d")) == 7
    assert len(by_class(root, "hexmap__coord")) == 30 * 22


def test_path_preview_runs_through_the_hexes_given(pitched):
    start = Hex(*ship(pitched, "Triumph")["position"])
    path = [start, hexgrid.neighbour(start, 1), hexgrid.neighbour(hexgrid.neighbour(start, 1), 2)]
    root = parse(render_hexmap(pitched, path=[p.to_json() for p in path]))
    line = by_class(root, "hexmap__path")[0]
    points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    assert points == [pytest.approx(hexgrid.to_pixel(p, SIZE), abs=0.01) for p in path]
    assert "Planned move: 2 hexes" in by_class(root, "hexmap__overlay--path")[0].get("aria-label")


def test_two_maps_on_a_page_keep_their_ids_apart(pitched):
    a, b = (parse(render_hexmap(pitched, uid=uid)) for uid in ("map-a", "map-b"))
    assert a.get("id") == "map-a"
    assert b.get("id") == "map-b"
    assert a.get("aria-describedby") == "map-a-desc"


def test_template_tags_draw_the_map_and_a_sheet(pitched):
    page = Template(
        "{% load battle_drawing %}<div>{% hexmap board rules=rules selected='Triumph' uid='m' %}"
        "{% record_sheet triumph rules=rules board=board turn=1 %}</div>"
    ).render(Context({"board": pitched, "triumph": ship(pitched, "Triumph"), "rules": RS}))
    assert page.count("<svg") == 1 + len(ship(pitched, "Triumph")["guns"])  # the map, and a glyph per gun
    assert 'id="m"' in page
    assert 'class="sheet sheet--ship-record"' in page


# --- the record sheet -------------------------------------------------------------------------------------------


def seen_as_enemy(record: dict[str, Any]) -> dict[str, Any]:
    """A record as another side sees it, the shape of the Sky Galleons board_view (visibility.ship_seen): gun
    crews at their guns, crew counts, reliefs, standing orders, the party at home and the Endurance blanked."""
    seen = copy.deepcopy(record)
    seen["guns"] = [{**gun, "manned": None} for gun in seen["guns"]]
    seen["crew"] = {k: v if k in ("maneuver_kind", "maneuver_rows") else None for k, v in seen["crew"].items()}
    seen["casualty_order"] = None
    seen["party"] = dict.fromkeys(seen["party"])
    seen["boarders"] = {**seen["boarders"], "posts": None}
    for key in ("endurance", "endurance_used", "coal_lost"):
        if key in seen:
            seen[key] = None
    return seen


def triumph_hit(hits: int, **crew: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh Triumph (15 boxes a row, High down to Very Low) and the same ship with ``hits`` hull hits from the
    top row down (SG-DMG-13) and the crew counts given."""
    fresh = ship_record_from_class("Triumph", name="Triumph", side="british", position=hexgrid.from_odd_q(3, 4))
    rows, left = [], hits
    for row in fresh.hull_rows:
        taken = min(left, row.boxes)
        rows.append(HullRow(row.altitude, row.boxes, taken))
        left -= taken
    hit = replace(fresh, hull_rows=tuple(rows), crew=replace(fresh.crew, **crew))
    return fresh.to_json(), hit.to_json()


def section(html: str, name: str) -> str:
    start = html.index(f"sheet__section--{name}")
    return html[start : html.index("</section>", start)]


@pytest.mark.rule("SG-DMG-13")
def test_sheet_crosses_off_the_hull_boxes_hit_from_the_top_row():
    start, ship_now = triumph_hit(17)
    sheet = record_sheet(ship_now, start=start)
    assert [row.label for row in sheet.hull] == ["H", "M", "L", "VL"]
    assert [row.lost for row in sheet.hull] == [15, 2, 0, 0]
    assert sheet.hull_summary == "17 of 60 hull boxes hit"
    assert ("Ceiling now", "Medium") in [(f.label, f.value) for f in sheet.facts]
    html = render_record_sheet(ship_now, start=start)
    hull = section(html, "hull")
    assert hull.count("box box--lost") == 17
    assert hull.count("box box--whole") == 60 - 17
    assert "sheet-row--gone" in hull
    assert "sheet-row--ceiling" in hull


@pytest.mark.rule("SG-CREW-05")
def test_sheet_crosses_off_crew_lost_since_the_start():
    start, ship_now = triumph_hit(0, deckhands=12, officers=1, marines=10)
    sheet = record_sheet(ship_now, start=start)
    assert [(b.label, b.state) for b in sheet.bridge.boxes] == [
        ("C", WHOLE),
        ("O", WHOLE),
        ("O", LOST),
        ("H", WHOLE),
        ("T", WHOLE),
        ("S", WHOLE),
    ]
    deckhands = sheet.deck[1]
    assert (deckhands.lost, len(deckhands.boxes)) == (3, 15)
    assert sheet.marines[1].lost == 8
    assert sheet.casualty_order is not None
    assert sheet.casualty_order.startswith("deckhands")
    # Without the start the catalog's fresh Triumph stands in: the same boxes.
    assert record_sheet(ship_now).deck[1].lost == 3


@pytest.mark.rule("SGD-MCH-04")
def test_maneuvering_crew_lost_fill_the_rows_from_the_top():
    start, ship_now = triumph_hit(0)
    ship_now["crew"]["maneuver_rows"] = [5, 4, 4]
    ship_now["crew"]["maneuver_lost"] = 6
    rows = record_sheet(ship_now, start=start).maneuver
    assert [row.lost for row in rows] == [5, 1, 0]
    assert rows[0].look == "gone"


def test_gun_crew_circles_show_the_men_at_the_gun():
    _, ship_now = triumph_hit(0)
    gun = ship_now["guns"][0]
    gun.update(manned=1, last_fired=3)
    sheet = record_sheet(ship_now, turn=4)
    line = sheet.guns[0]
    assert [c.state for c in line.circles] == [WHOLE, "empty"]
    assert line.state.startswith("fired turn 3")
    assert line.figures.startswith("ROF 1")
    assert set(line.arcs) == {"bow", "port", "starboard"}
    assert [w.aspect for w in line.wedges if w.on] == ["bow", "starboard", "port"]
    smutts = next(g for g in sheet.guns if g.name == "Smutts Discharger")
    assert smutts.armored
    assert smutts.armor == 3


def test_enemy_sheet_draws_hidden_parts_as_unknown_not_zero():
    start, ship_now = triumph_hit(5, deckhands=2)
    seen = seen_as_enemy(ship_now)
    sheet = record_sheet(seen, start=seen_as_enemy(start))
    assert not sheet.whole
    # What is seen stays: hull hits, guns and their crew circles' number, the maneuvering crew's rows.
    assert sum(row.lost for row in sheet.hull) == 5
    assert len(sheet.guns) == len(ship_now["guns"])
    assert all(c.state == UNKNOWN for g in sheet.guns for c in g.circles)
    assert [len(g.circles) for g in sheet.guns] == [g["crew"] for g in ship_now["guns"]]
    # Hidden: every crew row unknown, none drawn as zero or as crossed off.
    for row in (sheet.bridge, *sheet.deck, *sheet.marines, *sheet.maneuver):
        assert not row.known
        assert row.lost == 0
        assert "not known" in row.summary
    assert sheet.casualty_order is None
    assert ("Boarding party", "not known") in [(f.label, f.value) for f in sheet.parties]
    assert sheet.speed_now is None
    html = render_record_sheet(seen)
    assert "Casualties taken from" not in html
    assert "box--lost" not in section(html, "crew")
    assert "As seen from another ship" in html


def test_endurance_track_when_the_record_has_one():
    _, ship_now = triumph_hit(0)
    assert record_sheet(ship_now).endurance is None
    ship_now.update(endurance=6, endurance_used=2, coal_lost=1)
    track = record_sheet(ship_now).endurance
    assert track is not None
    assert [b.state for b in track.boxes] == [LOST, LOST, LOST, WHOLE, WHOLE, WHOLE]
    assert [b.label for b in track.boxes if b.label] == ["C"]
    hidden = record_sheet(seen_as_enemy(ship_now)).endurance
    assert hidden is not None
    assert not hidden.known


# --- the PDF ----------------------------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    """Every content stream of the PDF, inflated, as Latin-1 text (fpdf2 writes the text operators there)."""
    chunks = []
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        raw = match.group(1)
        try:
            chunks.append(zlib.decompress(raw).decode("latin-1"))
        except zlib.error:
            chunks.append(raw.decode("latin-1"))
    return "\n".join(chunks)


def test_pdf_sheet_is_a_pdf_with_the_ship_on_it():
    start, ship_now = triumph_hit(17)
    data = sheet_pdf([sheet_data(record_sheet(ship_now, start=start))])
    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert "(Triumph)" in text
    assert "17 OF 60 HULL BOXES HIT" in text


def test_pdf_writes_names_outside_latin1():
    assert latin1("\u00c6gir \u2013 \u0141\u00f3d\u017a \u706b") == "\u00c6gir - L\u00f3dz ?"
    _, ship_now = triumph_hit(0)
    ship_now["name"] = "\u0141\u00f3d\u017a"
    assert "(L\u00f3dz)" in pdf_text(sheet_pdf([sheet_data(record_sheet(ship_now))]))


# --- the views --------------------------------------------------------------------------------------------------


@pytest.fixture
def tyranny(start_battle):
    """John Bull's Tyranny in the app: Alice has the Irish Fenian Ram, Bob the British Aphid."""
    return start_battle("john-bulls-tyranny")


def sheet_url(battle, name: str, pdf: bool = True) -> str:
    return reverse("battle_ship_sheet_pdf" if pdf else "battle_ship_sheet", args=[battle.pk, name])


def test_pdf_view_gives_a_player_his_own_ship(client, club, tyranny):
    client.force_login(club["alice"])
    response = client.get(sheet_url(tyranny, "Fenian Ram"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "private" in response["Cache-Control"]
    assert response.content.startswith(b"%PDF")
    assert "(Fenian Ram)" in pdf_text(response.content)


def test_pdf_view_gives_the_enemy_as_seen(client, club, tyranny):
    client.force_login(club["alice"])
    response = client.get(sheet_url(tyranny, "Aphid"))
    assert response.status_code == 200
    assert "(Aphid)" in pdf_text(response.content)


def test_sheet_views_answer_404_outside_the_campaign(client, club, tyranny):
    client.force_login(UserFactory(username="stranger"))
    assert client.get(sheet_url(tyranny, "Fenian Ram")).status_code == 404
    assert client.get(sheet_url(tyranny, "Fenian Ram", pdf=False)).status_code == 404


def test_sheet_views_answer_404_for_a_ship_not_in_the_battle(client, club, tyranny):
    client.force_login(club["alice"])
    assert client.get(sheet_url(tyranny, "Triumph")).status_code == 404
    assert client.get(reverse("battle_ship_sheet_pdf", args=[tyranny.pk + 1000, "Aphid"])).status_code == 404


def test_sheet_views_need_a_signed_in_user(client, tyranny):
    response = client.get(sheet_url(tyranny, "Aphid"))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_html_sheet_page_for_the_umpire_and_a_player(client, club, tyranny):
    client.force_login(club["umpire"])
    page = client.get(sheet_url(tyranny, "Aphid", pdf=False))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="sheet sheet--ship-record"' in html
    assert "Casualties taken from" in html
    client.force_login(club["alice"])
    html = client.get(sheet_url(tyranny, "Aphid", pdf=False)).content.decode()
    assert "Aphid" in html
    assert reverse("battle_ship_sheet_pdf", args=[tyranny.pk, "Aphid"]) in html


def test_sheet_views_draw_the_ship_through_the_viewers_board_view(client, club, tyranny, monkeypatch):
    """The sheet shows what the ruleset's board_view gives the viewer's side: here a view that trims the other
    side's ships as the Sky Galleons view does."""
    whole = type(RS).board_view
    asked = []

    def trimmed(self, state, side):
        asked.append(side)
        board = whole(self, state, side)
        if side is not None:
            board = {**board, "ships": [s if s["side"] == side else seen_as_enemy(s) for s in board["ships"]]}
        return board

    monkeypatch.setattr(type(RS), "board_view", trimmed)
    client.force_login(club["alice"])
    html = client.get(sheet_url(tyranny, "Aphid", pdf=False)).content.decode()
    assert set(asked) == {"irish"}
    assert "As seen from another ship" in html
    assert "Casualties taken from" not in html
    own = client.get(sheet_url(tyranny, "Fenian Ram", pdf=False)).content.decode()
    assert "As seen from another ship" not in own
    assert "Casualties taken from" in own


def test_the_battle_page_crosses_off_the_crew_lost_since_the_start_of_the_battle(client, club, tyranny):
    """The page's sheets are drawn against each ship as the viewer saw her at the start, not the catalog's
    fresh ship: here the Fenian Ram began with two deckhands more than her class."""
    state = json.loads(tyranny.initial_state)
    ram = next(s for s in state["board"]["ships"] if s["name"] == "Fenian Ram")
    ram["crew"]["deckhands"] += 2
    tyranny.initial_state = json.dumps(state)
    tyranny.save(update_fields=["initial_state"])
    client.force_login(club["alice"])

    page = client.get(reverse("battle_detail", args=[tyranny.pk]))

    sheets = {ship["name"]: start for ship, start in page.context["sheets"]}
    now = next(ship for ship, _ in page.context["sheets"] if ship["name"] == "Fenian Ram")
    assert sheets["Fenian Ram"]["crew"]["deckhands"] == now["crew"]["deckhands"] + 2
    drawn = render_record_sheet(now, start=sheets["Fenian Ram"], board=page.context["board"], turn=page.context["turn"])
    assert drawn in page.content.decode()
    assert render_record_sheet(now, board=page.context["board"], turn=page.context["turn"]) != drawn


# --- every registered ruleset ------------------------------------------------------------------------------


def test_every_rulesets_map_and_sheets_are_drawn_from_its_presentation(every_ruleset):
    """The map: a counter per piece the ruleset places, at its hex, facing its way, with its first badge; the
    sheets: each piece's record in HTML and in the PDF, in the ruleset's own look."""
    rs = every_ruleset
    fought = simulate.simulate(rs, first_scenario(rs), seed=SEED)
    for state in (fought.initial, fought.final):
        board = rs.board_view(state, None)
        view = rs.map_view(board)
        root = ET.fromstring(drawing.render_hexmap(view, uid=rs.key))
        drawn = {g.get("data-ship"): g for g in root.iter(f"{SVG}g") if g.get("data-ship")}
        assert set(drawn) == {c.key for c in view.counters}
        assert drawn
        for counter in view.counters:
            g = drawn[counter.key]
            assert (g.get("data-q"), g.get("data-r")) == (str(counter.hex.q), str(counter.hex.r))
            assert g.get("data-facing") == str(counter.facing or 0)
            if counter.badges:
                assert counter.badges[0].text in ET.tostring(g, encoding="unicode")
        sheets = [rs.record_sheet(board, c.key, start=rs.board_view(fought.initial, None)) for c in view.counters]
        drawn_sheets = [s for s in sheets if s is not None]
        assert len(drawn_sheets) == len(sheets)
        html = "".join(sheet_drawing.render_record_sheet(s) for s in drawn_sheets)
        for sheet in drawn_sheets:
            assert f'data-ship="{sheet.key}"' in html
            assert any(section.rows or section.blocks for section in sheet.sections)
        pdf = sheet_pdf(drawn_sheets)
        assert pdf.startswith(b"%PDF")
        text = b"".join(zlib.decompress(m) for m in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S))
        assert all(latin1(sheet.title).encode("latin-1") in text for sheet in drawn_sheets)


# --- colours, lamps, hexagons and counter tags (docs/engine.md "Colours, lamps and hexagons") -------------------


def _coloured_sheet() -> RecordSheet:
    lamps = Row(
        "Fire", "Fire", (Box(EMPTY, "", "green"), Box(WHOLE, "", "amber"), Box(EMPTY, "", "red")), "amber", LAMPS
    )
    squares = Row("Parties", "Parties", (Box(WHOLE, "", "blue"), Box(LOST, "", "blue")), "1 of 2 left")
    gun = Item("1", "Gun", "bow", "Gun 1", values={"aspects": [["bow", -30, 30, True]], "arc_colour": "red"})
    return RecordSheet(
        key="Test",
        title="Test",
        lead=(Fact("Value", "5", look=HEXAGON, aside="now 3"),),
        badges=(Fact("Ram value", "2"),),
        sections=(Section("s", "S", (Block(rows=(lamps, squares), items=(gun,)),)),),
    )


def test_coloured_boxes_lamps_hexagon_figures_and_coloured_arcs_draw_in_html_and_pdf() -> None:
    sheet = _coloured_sheet()
    html = sheet_drawing.render_record_sheet(sheet)
    assert 'class="box box--whole box--amber"' in html
    assert "box--empty box--green" in html
    assert "box--lost box--blue" in html
    assert "sheet-row--lamps" in html
    assert 'class="sheet__hexagon"' in html
    assert "sheet__figure-label" in html  # a figure with no look names itself
    assert "sheet-gun__arcs--red" in html
    assert sheet_pdf([sheet]).startswith(b"%PDF")


def test_a_counters_later_badges_are_tags_in_their_colour() -> None:
    piece = Counter(
        "A", Hex(1, 1), "A", "x", "X", "A", facing=0, badges=(Badge("M"), Badge("F1"), Badge("Dir", "", "red"))
    )
    drawn = drawing.hexmap(MapView("m", 4, 4, counters=(piece,))).counters[0]
    assert [t.text for t in drawn.tags] == ["F1", "Dir"]
    assert drawn.tags[1].css == "counter__tag counter__tag--red"
    assert drawn.badge_label == "M"
