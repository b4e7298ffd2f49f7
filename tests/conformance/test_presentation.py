"""A ruleset that says nothing of its own presentation is still shown: the reference duel's bare game is narrated,
mapped and sheeted through the protocol's generic defaults, and drawn by the app's renderers (the log in
sentences, the map as SVG, the record sheet as HTML and PDF) with its pieces named."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib
from functools import cache

from battles import narration
from battles.drawing.hexmap import render_hexmap
from battles.drawing.pdf import sheet_pdf
from battles.drawing.record_sheet import render_record_sheet
from battles.engine import simulate
from battles.engine.presentation import LOST, RecordSheet
from tests.conformance.duel_ruleset import BARE_DUEL as DUEL

SVG = "{http://www.w3.org/2000/svg}"
ARTEFACTS = re.compile(r"\bNone\b|\bnull\b|\{|\}")


@cache
def fought() -> simulate.Simulation:
    return simulate.simulate(DUEL, DUEL.example_scenarios()[1], seed=b"presentation" * 3)


def test_every_event_of_a_duel_reads_as_a_sentence_naming_its_sides() -> None:
    battle = fought()
    names = narration.names_for({"red": "The Red Fleet", "blue": "Blue"}, DUEL.board_view(battle.final, None), DUEL)

    lines = narration.narrate_log([e.to_json() for e in battle.events], names, DUEL)

    assert len(lines) == len(battle.events)
    for line in lines:
        assert line.text[:1].isupper() or line.text[:1].isdigit(), line.text
        assert line.text.endswith("."), line.text
        assert not ARTEFACTS.search(line.text), line.text
    assert any("The Red Fleet" in line.text for line in lines)
    assert lines[-1].text.startswith("The battle ends")
    assert DUEL.side_name(battle.final, "red") == "red"  # its roster names no side: the key stands


def test_the_duel_map_is_drawn_with_a_counter_per_ship_at_its_hex() -> None:
    view = DUEL.board_view(fought().initial, None)

    root = ET.fromstring(render_hexmap(DUEL.map_view(view, {"selected": "Aphid"}), uid="duel"))

    drawn = {g.get("data-ship"): g for g in root.iter(f"{SVG}g") if g.get("data-ship")}
    assert set(drawn) == {"Aphid", "Swiftwood"}
    assert drawn["Aphid"].get("data-q") == "1"
    assert drawn["Aphid"].get("aria-pressed") == "true"
    assert root.get("data-cols") == "4"
    assert "Aphid" in (root.findtext(f"{SVG}desc") or "")


def test_the_duel_sheets_cross_off_lost_hull_and_print() -> None:
    battle = fought()
    view = DUEL.board_view(battle.final, None)
    sheets = [DUEL.record_sheet(view, name) for name in ("Aphid", "Swiftwood")]
    assert all(isinstance(sheet, RecordSheet) for sheet in sheets)
    drawn = [sheet for sheet in sheets if sheet is not None]
    lost = sum(row.lost for sheet in drawn for section in sheet.sections for row in section.rows)
    assert lost == sum(ship["hull_max"] - ship["hull"] for ship in view["ships"])
    assert lost > 0  # the cramped duel is fought to a sinking or close to one

    html = "".join(render_record_sheet(sheet) for sheet in drawn)
    assert 'data-ship="Aphid"' in html
    assert 'data-ship="Swiftwood"' in html
    assert html.count(f"box--{LOST}") == lost

    pdf = sheet_pdf(drawn)
    assert pdf.startswith(b"%PDF")
    text = b"".join(zlib.decompress(m) for m in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S))
    assert b"Aphid" in text
    assert b"Swiftwood" in text
