"""The rules engine alone (issue 21): a Pitched Battle's recorded answers re-submitted through the resolver, with the
AI taken out. Each answer goes in as the auto-play loop gives it (the side's redacted view, ``resolver.submit``:
the ruleset's ``validate``, the phases, every event emitted and folded), so the time is what the rules cost an
auto-resolved battle on top of the captains' thinking.

The battle is played once by the AI on the fingerprint seed (tests/rules/sky_galleons/test_fingerprints.py) to
record its answers; the timed rounds give the same log, event for event.
"""

from __future__ import annotations

from typing import Any

from battles.engine import resolver, simulate
from battles.engine.decisions import STANDING, Rejection
from battles.engine.events import DECISION, Event
from battles.engine.state import BattleState, redact
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SLUG = "pitched-battle"
SEED = simulate.seed_for(19)


def answers_of(events: list[Event]) -> list[tuple[str, str, Any]]:
    """(side, request id, choice) of each answer a captain gave, in the order given (standing orders are the
    engine's own answers: the re-run makes them again)."""
    return [
        (str(e.data["side"]), str(e.data["request"]), e.data["choice"])
        for e in events
        if e.kind == DECISION and not e.data.get(STANDING)
    ]


def rerun(initial: BattleState[Any], answers: list[tuple[str, str, Any]], seed: bytes) -> list[Event]:
    """The battle again from ``initial``, each answer submitted as policies.auto_play submits an AI's."""
    started = resolver.resolve(SKY_GALLEONS, initial, seed)
    state, events = started.state, list(started.events)
    for side, request_id, choice in answers:
        redact(state, side)  # what auto_play shows the captain before it answers
        outcome = resolver.submit(SKY_GALLEONS, state, side=side, request_id=request_id, choice=choice, seed=seed)
        assert not isinstance(outcome, Rejection), outcome
        state = outcome.state
        events.extend(outcome.events)
    return events


def test_bench_rules_engine_pitched_battle(benchmark):
    """Rules-only CPU per Pitched Battle: the AI's recorded answers re-submitted (ms per battle = mean)."""
    played = simulate.simulate(SKY_GALLEONS, scenario.load_data(SLUG), seed=SEED)
    answers = answers_of(played.events)
    events = benchmark.pedantic(rerun, args=(played.initial, answers, SEED), rounds=5, iterations=1, warmup_rounds=1)
    assert [e.to_json() for e in events] == [e.to_json() for e in played.events]
    benchmark.extra_info.update(events=len(events), answers=len(answers))
