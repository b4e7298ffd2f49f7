"""Ironclads 1850-1890 played whole, on the ruleset object directly (so the checks hold before it is registered):
random play from 40 seeds ends within the scenario's Game Turns with every invariant holding at every event; replay
rebuilds the state byte for byte; the same seed gives the same battle; junk answers are refused naming an IC clause;
every schema spells its answers; the AI captains play legally, and fast; the outcome is typed; every event is told."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from battles.engine import answers, dice, events, policies, resolver, state
from battles.engine.decisions import ENGINE_CLAUSES, Rejection
from battles.engine.outcome import BattleOutcome
from battles.rules.ironclads.ruleset import IRONCLADS
from tests.conformance.test_conformance import CLAUSE, JUNK, MAX_DECISIONS, fold_checking

SCENARIO = IRONCLADS.example_scenarios()[0]
SEEDS = tuple(f"ironclads-{n}".encode() for n in range(40))


@cache
def played(seed: bytes, ai: bool = False, formations: bool = False) -> tuple[Any, Any]:
    options = {"formations": formations}
    initial = resolver.new_battle(IRONCLADS, SCENARIO, seed_commitment=dice.commitment(seed), options=options)
    chosen = {
        side: IRONCLADS.ai_policy(seed, side) if ai else policies.RandomPolicy(seed + side.encode())
        for side in initial.sides
    }
    return initial, policies.auto_play(IRONCLADS, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)


@pytest.mark.rule("IC-SEQ-06")
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_ends_and_every_invariant_holds_at_every_event(seed: bytes) -> None:
    initial, outcome = played(seed, formations=seed.endswith(b"7"))
    assert outcome.state.over
    assert outcome.state.turn <= SCENARIO["turns"]
    assert outcome.state.winner in (None, *outcome.state.sides)
    rebuilt = fold_checking(IRONCLADS, initial, outcome.events, every=1 if seed == SEEDS[0] else 25)
    assert state.state_to_json(IRONCLADS, rebuilt) == state.state_to_json(IRONCLADS, outcome.state)


def test_replay_is_byte_for_byte_and_the_same_seed_gives_the_same_battle() -> None:
    _, first = played(SEEDS[0])
    text = events.events_to_json(first.events)
    assert events.events_to_json(events.events_from_json(text)) == text
    again = resolver.new_battle(IRONCLADS, SCENARIO, seed_commitment=dice.commitment(SEEDS[0]))
    chosen = {side: policies.RandomPolicy(SEEDS[0] + side.encode()) for side in again.sides}
    rerun = policies.auto_play(IRONCLADS, again, seed=SEEDS[0], policies=chosen, max_decisions=MAX_DECISIONS)
    assert events.events_to_json(rerun.events) == text
    assert len({events.events_to_json(played(seed)[1].events) for seed in SEEDS[:4]}) > 1
    log = [e.to_json() for e in first.events]
    assert dice.verify_log(SEEDS[0], log, dice.commitment(SEEDS[0])) == []


def test_junk_is_refused_naming_a_clause_of_ironclads_and_every_schema_spells_its_answers() -> None:
    seed = b"junk"
    current = resolver.resolve(
        IRONCLADS, resolver.new_battle(IRONCLADS, SCENARIO, seed_commitment=dice.commitment(seed)), seed
    ).state
    picker = policies.RandomPolicy(seed)
    for _ in range(20):
        if current.over:
            break
        request = current.pending()[0]
        refused = resolver.submit(IRONCLADS, current, side=request.side, request_id=request.id, choice=JUNK, seed=seed)
        assert isinstance(refused, Rejection)
        assert CLAUSE.match(refused.clause)
        assert refused.clause not in ENGINE_CLAUSES
        assert refused.clause.startswith("IC-")
        seen = state.redact(current, request.side)
        schema = IRONCLADS.answer_schema(seen, request)
        assert json.loads(json.dumps(schema.to_json())) == schema.to_json()
        for answer in [request.default, *IRONCLADS.candidates(seen, request)]:
            assert answers.assemble(schema, answers.disassemble(schema, answer)) == answer
        choice = picker.choose(IRONCLADS, seen, request)
        accepted = resolver.submit(
            IRONCLADS, current, side=request.side, request_id=request.id, choice=choice, seed=seed
        )
        assert isinstance(accepted, resolver.Accepted)
        current = accepted.state


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_the_ai_captains_end_every_battle_within_the_rules(seed: bytes) -> None:
    initial, outcome = played(seed, ai=True)
    assert outcome.state.over
    rebuilt = fold_checking(IRONCLADS, initial, outcome.events, every=25)
    assert state.state_to_json(IRONCLADS, rebuilt) == state.state_to_json(IRONCLADS, outcome.state)


def test_an_ai_battle_ends() -> None:
    """A whole battle of the AI captains ends (its speed is measured in `make bench`, not asserted here)."""
    seed = b"timed"
    initial = resolver.new_battle(IRONCLADS, SCENARIO, seed_commitment=dice.commitment(seed))
    chosen = {side: IRONCLADS.ai_policy(seed, side) for side in initial.sides}
    outcome = policies.auto_play(IRONCLADS, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)
    assert outcome.state.over


def test_the_outcome_is_typed_and_agrees_with_the_battle() -> None:
    initial, outcome = played(SEEDS[2])
    made = IRONCLADS.outcome(initial, outcome.state)
    assert isinstance(made, BattleOutcome)
    assert (made.winner, made.turns, made.over) == (outcome.state.winner, outcome.state.turn, True)
    assert BattleOutcome.from_json(json.loads(json.dumps(made.to_json()))) == made
    assert {ship.name for ship in made.ships} == {s["name"] for s in SCENARIO["ships"]}
    assert IRONCLADS.summary(outcome.state).startswith(f"Over after turn {outcome.state.turn}")
    assert IRONCLADS.tally(outcome.state)["winner"] == outcome.state.winner


def test_every_event_is_told_in_words_and_every_ship_has_a_sheet() -> None:
    _, outcome = played(SEEDS[3])
    names = IRONCLADS.names(IRONCLADS.board_view(outcome.state, None), dict(outcome.state.board.side_names))
    for event in outcome.events:
        told = IRONCLADS.narrate(event.to_json(), names)
        assert told, event.kind
        assert "None" not in told, event.kind
    view = IRONCLADS.board_view(outcome.state, None)
    for ship in SCENARIO["ships"]:
        sheet = IRONCLADS.record_sheet(view, ship["name"])
        assert sheet is not None
    assert IRONCLADS.map_view(view).terrain  # the scenario's land


def test_the_log_counts_in_good_english() -> None:
    """Seen in the browser's log: "take 1 stats", "4 not saveds"; a critical's 1D3 and the save dice told plainly."""
    names = IRONCLADS.names({}, {})
    one = {"kind": "criticals rolled", "ship": "Virginia", "demands": [1], "faces": [1]}
    two = {"kind": "criticals rolled", "ship": "Virginia", "demands": [1, 3], "faces": [1, 5]}
    assert IRONCLADS.narrate(one, names) == "Virginia's critical takes 1 stat."
    assert IRONCLADS.narrate(two, names) == "Virginia's criticals take 1 and 3 stats."
    from battles.engine.telling import outcome_words
    from battles.rules.ironclads import saves

    assert outcome_words(saves.needed("close").judge_dice((6, 2, 1), 0)) == "1 save, 2 failed saves"
