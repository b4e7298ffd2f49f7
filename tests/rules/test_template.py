"""The skeleton a new ruleset is copied from (battles/rules/_template) imports, is never registered by the app,
and as it stands plays a whole battle within the protocol: so a copy runs before its own rules replace the
example's."""

from __future__ import annotations

import json

import pytest

from battles import narration
from battles.engine import answers, dice, events, resolver, ruleset, simulate, state
from battles.rules._template.ruleset import RULESET


def test_the_template_is_skipped_by_discover_and_never_registered() -> None:
    found = ruleset.discover()
    assert "battles.rules._template" not in found
    with pytest.raises(KeyError):
        ruleset.get(RULESET.key)
    assert RULESET not in ruleset.all_rulesets()


def test_the_template_plays_a_battle_that_replays_byte_for_byte_and_reads_in_words() -> None:
    fought = simulate.simulate(RULESET, RULESET.example_scenarios()[0], seed=b"template" * 4)

    assert fought.final.over
    assert fought.final.turn == RULESET.example_scenarios()[0]["turns"]
    rebuilt = resolver.replay(RULESET, fought.initial, events.events_from_json(events.events_to_json(fought.events)))
    assert state.state_to_json(RULESET, rebuilt) == state.state_to_json(RULESET, fought.final)
    assert RULESET.check_invariants(fought.final) == []
    assert "sides" in RULESET.tally(fought.final)
    names = narration.names_for({}, RULESET.board_view(fought.final, None), RULESET)
    assert all(RULESET.narrate(e.to_json(), names) for e in fought.events)
    assert RULESET.map_view(RULESET.board_view(fought.final, None)).counters
    assert RULESET.record_sheet(RULESET.board_view(fought.final, None), "First") is not None


def test_the_templates_answer_schema_spells_its_answers() -> None:
    seed = b"template schema"
    first = resolver.resolve(
        RULESET,
        resolver.new_battle(RULESET, RULESET.example_scenarios()[0], seed_commitment=dice.commitment(seed)),
        seed,
    )
    request = first.state.pending()[0]
    schema = RULESET.answer_schema(first.state, request)
    assert json.loads(json.dumps(schema.to_json())) == schema.to_json()
    for answer in RULESET.candidates(first.state, request):
        assert answers.assemble(schema, answers.disassemble(schema, answer)) == answer
