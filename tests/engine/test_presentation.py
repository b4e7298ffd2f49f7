"""The presentation part of the protocol (battles/engine/presentation.py and telling.py): its types, and the
generic defaults every ruleset inherits from BaseRuleset (the engine's own events told, a plain line left to
the app for the rest, a map and plain sheets from a board view's pieces)."""

from __future__ import annotations

import dataclasses

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.presentation import (
    LOST,
    UNKNOWN,
    WHOLE,
    Box,
    GenericPresentation,
    MapView,
    Presentation,
    RecordSheet,
    Row,
    counter_labels,
    generic_map,
    wind_from,
)
from battles.engine.telling import ENGINE_TELLERS, Names, choice_words, generic_line, tell, value_words
from tests.engine.toy import Bidding

GENERIC = GenericPresentation()
NAMES = Names({"a": "The Reds"}, {})


def test_the_types_are_frozen_and_a_row_counts_its_crossed_boxes() -> None:
    row = Row("H", "Hull", (Box(LOST), Box(WHOLE), Box(LOST)), "2 of 3 lost")
    assert row.lost == 2
    assert row.known
    assert not Row("?", "Crew", (Box(UNKNOWN),), "not known").known
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.label = "X"  # type: ignore[misc]


def test_a_ruleset_is_a_presentation_with_generic_defaults() -> None:
    toy = Bidding()
    assert isinstance(toy, Presentation)
    assert toy.narrate({"kind": "turn", "turn": 3}, NAMES) == "Turn 3 begins"
    assert toy.narrate({"kind": "bid", "side": "a", "bid": 2}, NAMES) is None  # the app writes a plain line
    assert toy.is_detail({"kind": "decision_requested"})
    assert not toy.is_detail({"kind": "roll"})


def test_engine_kinds_are_told_and_a_roll_says_what_it_needed() -> None:
    roll = {"kind": "roll", "purpose": "initiative: a", "dice": [5], "needed": "4+", "total": 5, "outcome": "win"}
    assert tell(ENGINE_TELLERS, roll, NAMES) == "initiative: The Reds: needs 4+; rolled 5: win"
    ended = {"kind": "battle_ended", "winner": "a", "reason": "the last ship sank"}
    assert GENERIC.narrate(ended, NAMES) == "The battle ends: the last ship sank. The Reds wins"


def test_a_teller_that_meets_a_blank_gives_way_to_the_plain_line() -> None:
    asked = {"kind": "decision", "side": "a", "decision": None, "choice": None}
    assert "None" not in (GENERIC.narrate(asked, NAMES) or "")
    assert generic_line({"kind": "kraken", "where": "aft", "count": 2, "seq": 4}) == "kraken: where aft, count 2"


def test_words_for_values_and_choices() -> None:
    assert value_words({"a": [1, 2], "b": None, "c": True}) == "a 1 and 2, c yes"
    assert choice_words("move", ["ahead", "port", "ahead"]) == "ahead, port, then ahead"
    assert choice_words("fire", {"shots": []}) == "hold fire"
    assert choice_words("set up", {"hex": [2, 3], "facing": 1}) == "hex [2, 3], facing north-east"


def test_counter_labels_are_short_and_never_shared() -> None:
    assert counter_labels(["Triumph", "Hullcutter 2"]) == {"Triumph": "Tr", "Hullcutter 2": "H2"}
    labels = counter_labels(["Gull", "Gulliver"])
    assert labels["Gull"] != labels["Gulliver"]


def test_the_generic_map_places_the_pieces_of_a_board_view() -> None:
    view = {
        "cols": 6,
        "rows": 5,
        "wind": 1,
        "side_names": {"a": "The Reds"},
        "ships": [
            {"name": "Ajax", "side": "a", "hex": hexgrid.from_odd_q(2, 3).to_json(), "facing": 7},
            {"name": "Lost", "side": "b", "hex": None},
        ],
    }
    drawn = GENERIC.map_view(view, {"selected": "Ajax"})
    assert isinstance(drawn, MapView)
    assert (drawn.cols, drawn.rows) == (6, 5)
    (ajax,) = drawn.counters
    assert ajax.hex == hexgrid.from_odd_q(2, 3)
    assert ajax.facing == 1
    assert ajax.selected
    assert ajax.side_name == "The Reds"
    assert "hex 2,3" in ajax.title
    assert drawn.off_map == ("Lost",)
    assert drawn.wind == wind_from(1)
    assert drawn.wind is not None
    assert drawn.wind.title == "Wind from the north-east, blowing south-west"


def test_the_generic_map_sizes_itself_from_the_pieces_when_the_view_does_not_say() -> None:
    drawn = generic_map({"pieces": [{"name": "X", "side": "a", "position": [4, 1]}]})
    assert drawn.counters[0].hex == Hex(4, 1)
    assert drawn.cols >= 5
    assert generic_map(None).counters == ()


def test_the_generic_sheets_cross_off_counts_below_their_maximum() -> None:
    view = {"ships": [{"name": "Ajax", "side": "a", "hull": 3, "hull_max": 5, "speed": 4, "crew": None, "crew_max": 2}]}
    sheet = GENERIC.record_sheet(view, "Ajax")
    assert isinstance(sheet, RecordSheet)
    assert GENERIC.record_sheet(view, "Nobody") is None
    assert sheet.title == "Ajax"
    section = sheet.section("record")
    assert section is not None
    hull, crew = section.rows
    assert [b.state for b in hull.boxes] == [WHOLE] * 3 + [LOST] * 2
    assert not crew.known
    assert ("Speed", "4") in [(f.label, f.value) for f in sheet.facts]
