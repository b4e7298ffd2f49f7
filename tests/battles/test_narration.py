"""The battle log in plain language (battles.narration, told by the Sky Galleons ruleset): every event of a
whole AI battle of each shipped scenario reads as a sentence, the dice say what they were for, what they needed
and what came of them, and a field blanked for a side's view or an event kind nobody taught the narrator still
gives a readable sentence."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from battles import engine_io, narration
from battles.engine import simulate
from tests.battles.conftest import first_scenario

SG = engine_io.ruleset_for("sky_galleons")

ARTEFACTS = re.compile(r"\bNone\b|[{}\[\]]{2}|\{|\}|\bnull\b|\bTrue\b|\bFalse\b")


@cache
def scenarios() -> dict[str, Any]:
    rs = engine_io.ruleset_for("sky_galleons")
    return {str(s["slug"]): s for s in rs.example_scenarios()}


@pytest.mark.parametrize("slug", sorted(scenarios()))
def test_every_event_of_an_ai_battle_narrates_to_a_clean_sentence(slug: str) -> None:
    rs = engine_io.ruleset_for("sky_galleons")
    fought = simulate.simulate(rs, scenarios()[slug], seed=simulate.seed_for(7))
    names = narration.names_for({}, rs.board_view(fought.initial, None), rs)

    lines = narration.narrate_log([e.to_json() for e in fought.events], names, rs)

    assert len(lines) == len(fought.events)
    for line, event in zip(lines, fought.events, strict=True):
        assert line.text.strip(), event
        assert not ARTEFACTS.search(line.text), (event.kind, line.text)
        assert line.text[0].isupper() or line.text[0].isdigit(), line.text
        assert line.text.endswith((".", "!", "?")), line.text
    told = {line.kind for line in lines if not line.detail}
    assert {"roll", "turn", "battle_ended"} <= told
    assert lines[-1].text.startswith("The battle ends")


def test_a_to_hit_roll_says_what_it_needed_what_was_rolled_and_what_came_of_it() -> None:
    event = {
        "kind": "roll",
        "purpose": "to hit: Aphid gun 1 vs Fenian Ram, close range 3, different altitude -1",
        "dice": [5],
        "modifiers": {"different altitude": -1},
        "needed": "3+",
        "total": 4,
        "outcome": "hit",
        "sides": 6,
    }

    assert narration.narrate(event, rules=SG) == (
        "To hit: Aphid gun 1 vs Fenian Ram, close range 3, different altitude -1: needs 3+; "
        "rolled 5, -1 for different altitude, 4: hit."
    )


def test_small_arms_dice_are_counted_in_words() -> None:
    event = {
        "kind": "roll",
        "purpose": "small arms to hit: Hamburg marines vs Dauntless",
        "dice": [5, 3, 6],
        "modifiers": {},
        "needed": "5+",
        "total": 14,
        "outcome": "hit:2,miss:1",
    }

    assert narration.narrate(event, rules=SG).endswith("rolled 5, 3, 6: 2 hits, 1 miss.")


def test_a_gun_is_named_by_its_weapon_when_the_board_is_known() -> None:
    board = {"ships": [{"name": "Aphid", "guns": [{"id": "1", "weapon": "4in_short"}]}]}
    names = narration.names_for({"british": "Royal Navy"}, board, SG)

    text = narration.narrate(
        {"kind": "fire", "ship": "Aphid", "gun": "1", "target": "Fenian Ram", "band": "close", "range": 2, "shots": 1},
        names,
        SG,
    )

    assert text.startswith("Aphid's gun 1 (20-pdr")
    assert text.endswith("fires at Fenian Ram, close range 2.")
    assert (
        narration.narrate({"kind": "initiative", "winner": "british"}, names, SG) == "Royal Navy wins the initiative."
    )


def test_blanked_fields_are_left_out_not_written_as_none() -> None:
    """A side's view blanks what it may not see (an enemy's casualty posts, another side's prompt)."""
    effects = {"kind": "effects", "notes": [{"what": "2 crew casualties on Aphid", "outcome": None}], "rolls": []}
    asked = {"kind": "decision_requested", "request": {"side": "irish", "kind": "fire", "ships": [], "prompt": None}}
    crew = {"kind": "crew change", "ship": "Aphid", "change": None}
    moved = {"kind": "moved", "ship": None, "step": "ahead", "hex": None}

    for event in (effects, asked, crew, moved):
        text = narration.narrate(event, rules=SG)
        assert text
        assert "None" not in text, text
    assert narration.narrate(effects, rules=SG) == "2 crew casualties on Aphid."
    assert narration.narrate(asked, rules=SG) == "Irish is asked to decide: fire."


def test_an_unknown_event_kind_still_reads() -> None:
    text = narration.narrate(
        {"kind": "kraken sighted", "where": "off the port bow", "count": 2, "clauses": ["X-1"]}, rules=SG
    )

    assert text == "Kraken sighted: where off the port bow, count 2."


def test_the_bookkeeping_is_marked_as_detail() -> None:
    assert narration.is_detail({"kind": "stage", "stage": "moving"}, SG)
    assert narration.is_detail({"kind": "effects", "notes": []}, SG)
    assert not narration.is_detail({"kind": "effects", "notes": [{"what": "a hit"}]}, SG)
    assert not narration.is_detail({"kind": "roll"}, SG)


# --- every registered ruleset ------------------------------------------------------------------------------


def test_every_rulesets_log_is_told_in_its_own_words_for_each_side(every_ruleset) -> None:
    """Every event of an AI battle of the ruleset's first scenario is told by the ruleset (never the plain
    kind-and-fields line), as a clean sentence, in the umpire's log and in each side's view of it."""
    rs = every_ruleset
    fought = simulate.simulate(rs, first_scenario(rs), seed=simulate.seed_for(19))
    sides = {str(entry["side"]): str(entry["name"]) for entry in rs.roster(fought.initial)}
    for side in (None, *fought.final.sides):
        names = narration.names_for(sides, rs.board_view(fought.final, side), rs)
        seen = [view for e in fought.events if (view := rs.event_view(e, side)) is not None]
        for event in seen:
            assert rs.narrate(event, names), (side, event)
        lines = narration.narrate_log(seen, names, rs)
        for line in lines:
            assert not ARTEFACTS.search(line.text), (side, line.kind, line.text)
            assert line.text[0].isupper() or line.text[0].isdigit(), line.text
            assert line.text.endswith((".", "!", "?")), line.text
        assert lines[-1].text.startswith("The battle ends")
    assert {"roll", "turn", "battle_ended"} <= {e.kind for e in fought.events}
