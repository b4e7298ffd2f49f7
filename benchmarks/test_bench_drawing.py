"""Drawing benchmarks: what drawing a full Pitched Battle costs a battle page (eleven ships on the 30 x 22 canal
map) and a printed set of its record sheets.

The board is the one the first ship is asked to move on, with the fixed seed every round; `make bench` reports
the time per drawing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from battles.drawing.hexmap import render_hexmap
from battles.drawing.pdf import sheet_pdf
from battles.drawing.record_sheet import render_record_sheet
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.kinds import MOVE
from battles.rules.sky_galleons.presentation.sheets import record_sheet, sheet_data
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from tests.rules.sky_galleons import battle_harness as h

SEED = b"bench-drawing" * 3


@pytest.fixture(scope="module")
def pitched():
    initial, state = h.start(scenario.load_data("pitched-battle"), SEED)
    state, _, request = h.drive(state, lambda s, r: None, SEED, lambda s, r: r.kind == MOVE)
    assert request is not None
    return RS.board_to_json(initial.board), RS.board_to_json(state.board), state.turn


def test_bench_draw_pitched_battle_map(benchmark, pitched):
    """The map with every counter, a selected gun's arcs and range rings, and a three-hex move: the ruleset's
    map view and the SVG drawn from it."""
    _, board, _ = pitched
    triumph = next(s for s in board["ships"] if s["name"] == "Triumph")
    q, r = triumph["position"]
    path = [[q, r], [q + 1, r - 1], [q + 2, r - 1]]
    focus = {"selected": "Triumph", "gun": "1", "arcs": True, "rings": True}
    svg = benchmark(lambda: render_hexmap(RS.map_view(board, focus), path=path))
    assert len(ET.fromstring(svg).findall(".//{http://www.w3.org/2000/svg}g[@data-ship]")) == 11
    benchmark.extra_info["svg_bytes"] = len(svg.encode())


def test_bench_draw_pitched_battle_record_sheets(benchmark, pitched):
    """All eleven record sheets as HTML."""
    start, board, turn = pitched
    starts = {s["name"]: s for s in start["ships"]}

    def draw() -> list[str]:
        return [
            render_record_sheet(sheet_data(record_sheet(s, start=starts.get(s["name"]), board=board, turn=turn)))
            for s in board["ships"]
        ]

    sheets = benchmark(draw)
    assert len(sheets) == 11
    benchmark.extra_info["html_bytes"] = sum(len(s.encode()) for s in sheets)


def test_bench_print_pitched_battle_record_sheets_pdf(benchmark, pitched):
    """All eleven record sheets in one PDF."""
    start, board, turn = pitched
    starts = {s["name"]: s for s in start["ships"]}

    def draw() -> bytes:
        return sheet_pdf(
            [sheet_data(record_sheet(s, start=starts.get(s["name"]), board=board, turn=turn)) for s in board["ships"]]
        )

    data = benchmark.pedantic(draw, rounds=5, iterations=1, warmup_rounds=1)
    assert data.startswith(b"%PDF")
    benchmark.extra_info["pdf_bytes"] = len(data)
