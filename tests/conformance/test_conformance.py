"""One conformance suite, run against every registered ruleset (after OpenSpiel's api_test).

A ruleset is covered as soon as it is registered: ``discover()`` imports every package under
``battles.rules``, and each registers itself. Each ruleset must give at least one example scenario with
a turn limit, so that random play always ends.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine import answers, dice, events, policies, resolver, ruleset, simulate, state
from battles.engine.decisions import ENGINE_CLAUSES, Rejection
from battles.engine.events import Event
from battles.engine.outcome import BattleOutcome
from tests.conformance.duel_ruleset import BARE_DUEL

ruleset.discover()  # the reference duel (battles/rules/duel) is one of them

RULESETS = ruleset.all_rulesets()
CLAUSE = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*-\d{2}$")
ROLL_FIELDS = {"purpose", "dice", "modifiers", "total", "needed", "outcome", "seq", "turn", "phase", "ships"}
MAX_DECISIONS = 5_000
JUNK = {"__not_a_legal_answer__": [None, 1.5, "x"]}
# The battles every scenario is played with by random policies: replayed event by event, and read by the
# tests of determinism, dice, the end and secrets.
SEEDS = (b"conformance-1", b"conformance-2", b"conformance-3")
# Beyond each scenario's first battle, purity and the JSON round trip are checked every this many events.
SAMPLE = 20


def scenario_cases() -> list[Any]:
    return [
        pytest.param(rs, scenario, id=f"{rs.key}-{rs.version}-scenario{i}")
        for rs in RULESETS
        for i, scenario in enumerate(rs.example_scenarios() or [None])
    ]


def play(rs: ruleset.Ruleset[Any], scenario: Any, seed: bytes, options: Any = None) -> tuple[Any, Any]:
    initial = resolver.new_battle(rs, scenario, seed_commitment=dice.commitment(seed), options=options)
    sides = initial.sides
    chosen = {side: policies.RandomPolicy(seed + side.encode()) for side in sides}
    return initial, policies.auto_play(rs, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)


_PLAYED: dict[tuple[str, str, str, bytes], tuple[Any, Any]] = {}


def played(rs: ruleset.Ruleset[Any], scenario: Any, seed: bytes) -> tuple[Any, Any]:
    """The battle random play gives with ``seed``, played once and shared by the tests that only read it.

    The states are immutable and no test changes a log, so sharing cannot hide anything; the battle is
    played afresh by test_same_seed_same_battle to check it comes out the same."""
    key = (rs.key, rs.version, events.canonical(scenario), seed)
    if key not in _PLAYED:
        _PLAYED[key] = play(rs, scenario, seed)
    return _PLAYED[key]


def fold_checking(rs: ruleset.Ruleset[Any], initial: state.BattleState[Any], log: list[Event], every: int = 1) -> Any:
    """Replay event by event, checking the invariants at every state, and purity (folding an event leaves
    the state it folds alone) and the JSON round trip at every ``every``-th event, at the first event of
    each kind and at the last; ``every=1`` checks them all at every event.

    Serialising the state is what a check costs (a Sky Galleons board is tens of kilobytes), so only the
    replay of each scenario's first battle checks every event; the other battles check a sample.
    """
    current = initial
    before: str | None = None  # the JSON of ``current``, when the last round trip already wrote it
    kinds: set[str] = set()
    for n, event in enumerate(log):
        thorough = n % every == 0 or event.kind not in kinds or n == len(log) - 1
        kinds.add(event.kind)
        if thorough and before is None:
            before = state.state_to_json(rs, current)
        following = resolver.apply_event(rs, current, event)
        if thorough:
            assert state.state_to_json(rs, current) == before, f"apply mutated the state at event {event.seq}"
        current = following
        problems = rs.check_invariants(current)
        assert not problems, f"after event {event.seq} ({event.kind}): {problems}"
        before = None
        if thorough:
            text = state.state_to_json(rs, current)
            assert state.state_to_json(rs, state.state_from_json(rs, text)) == text
            before = text
    return current


@pytest.mark.parametrize("rs", RULESETS, ids=lambda rs: f"{rs.key}-{rs.version}")
def test_ruleset_describes_itself(rs):
    assert rs.key
    assert rs.version
    assert rs.title
    assert isinstance(rs, ruleset.Ruleset)
    defaults = ruleset.resolve_options(rs)
    assert set(defaults) == {spec.key for spec in rs.options}
    events.canonical(dict(rs.tables))  # tables are data
    assert rs.example_scenarios(), "give the conformance suite at least one scenario"
    assert ruleset.get(rs.key, rs.version) is rs


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
@pytest.mark.parametrize("seed", SEEDS)
def test_replay_rebuilds_the_state_byte_for_byte(rs, scenario, seed):
    initial, outcome = played(rs, scenario, seed)
    assert outcome.state.over, "random play must end (give example scenarios a turn limit)"
    text = events.events_to_json(outcome.events)
    reread = events.events_from_json(text)
    assert events.events_to_json(reread) == text
    assert [e.seq for e in reread] == list(range(len(reread)))
    # Invariants at every event of every battle; purity and the round trip at every event of the first.
    rebuilt = fold_checking(rs, initial, reread, every=1 if seed == SEEDS[0] else SAMPLE)
    assert state.state_to_json(rs, rebuilt) == state.state_to_json(rs, outcome.state)
    assert rs.check_invariants(outcome.state) == []


def played_as_the_app_stores_it(rs: ruleset.Ruleset[Any], scenario: Any, seed: bytes) -> list[Event]:
    """Random play as ``play`` gives it, but with the state written as JSON and read back before every answer, as
    the app keeps a battle between requests (its keys sorted)."""
    initial = resolver.new_battle(rs, scenario, seed_commitment=dice.commitment(seed), options=None)
    chosen = {side: policies.RandomPolicy(seed + side.encode()) for side in initial.sides}
    first = resolver.resolve(rs, initial, seed)
    current, log = first.state, list(first.events)
    for _ in range(MAX_DECISIONS):
        current = state.state_from_json(rs, state.state_to_json(rs, current))
        if current.over:
            return log
        request = current.pending()[0]
        choice = chosen[request.side].choose(rs, state.redact(current, request.side), request)
        outcome = resolver.submit(rs, current, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert not isinstance(outcome, resolver.Rejection), outcome
        current, log = outcome.state, log + outcome.events
    raise AssertionError("random play must end")


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_a_battle_stored_between_answers_is_the_same_battle(rs, scenario):
    """Nothing a phase does may hang on the order of a mapping the stored JSON sorts: the battle played with its
    state stored and read back between answers makes the same events as the battle played in memory (an Ironclads
    Firing Phase once crossed off damage in name order live and in firing order in memory, and the replay of a
    battle played in the app would not verify)."""
    _, plain = played(rs, scenario, SEEDS[0])
    stored = played_as_the_app_stores_it(rs, scenario, SEEDS[0])
    assert events.events_to_json(stored) == events.events_to_json(plain.events)


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_same_seed_same_battle(rs, scenario):
    _, first = played(rs, scenario, SEEDS[0])
    _, again = play(rs, scenario, SEEDS[0])  # afresh, after whatever battles this process played before
    assert events.events_to_json(first.events) == events.events_to_json(again.events)
    others = {events.events_to_json(played(rs, scenario, seed)[1].events) for seed in SEEDS}
    assert len(others) > 1, "different seeds should give different battles"


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_every_roll_is_logged_and_verifies_from_the_seed(rs, scenario):
    verified = 0
    for seed in SEEDS:
        _, outcome = played(rs, scenario, seed)
        log = [e.to_json() for e in outcome.events]
        rolls = [e for e in log if e["kind"] == "roll"]
        if not rolls:  # a battle over before a die is cast (every side struck at once) has nothing to verify
            assert outcome.state.over
            continue
        for roll in rolls:
            assert set(roll) >= ROLL_FIELDS
            assert roll["total"] == sum(roll["dice"]) + sum(roll["modifiers"].values())
        assert dice.verify_log(seed, log, dice.commitment(seed)) == []
        rolls[-1]["dice"] = [d % rolls[-1]["sides"] + 1 for d in rolls[-1]["dice"]]  # tamper with one roll
        assert dice.verify_log(seed, log) != []
        verified += 1
    if not verified:
        pytest.skip(f"{rs.key}: these battles ended before any die was rolled")


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_illegal_decisions_are_rejected_naming_a_clause(rs, scenario):
    seed = b"illegal"
    initial = resolver.new_battle(rs, scenario, seed_commitment=dice.commitment(seed))
    current = resolver.resolve(rs, initial, seed).state
    chooser = policies.RandomPolicy(seed)
    checked = 0
    while not current.over and checked < 40:
        request = current.pending()[0]
        before = state.state_to_json(rs, current)
        other = next(s for s in current.sides if s != request.side)
        tries = {
            "unknown": {"side": request.side, "request_id": "no-such-decision", "choice": request.default},
            "wrong side": {"side": other, "request_id": request.id, "choice": request.default},
            "junk": {"side": request.side, "request_id": request.id, "choice": JUNK},
        }
        for label, attempt in tries.items():
            outcome = resolver.submit(rs, current, seed=seed, **attempt)
            assert isinstance(outcome, Rejection), f"{label} answer accepted for {request.kind}"
            assert CLAUSE.match(outcome.clause), f"{label}: {outcome.clause!r} is not a clause id"
            assert outcome.reason
            if label == "junk":
                assert outcome.clause not in ENGINE_CLAUSES, "the ruleset's own clause should be named"
        assert state.state_to_json(rs, current) == before
        assert (
            resolver.check_decision(rs, current, side=request.side, request_id=request.id, choice=request.default)
            is None
        ), "the default must be legal"
        choice = chooser.choose(rs, state.redact(current, request.side), request)
        accepted = resolver.submit(rs, current, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert isinstance(accepted, resolver.Accepted)
        if current.request(request.id) and accepted.state.request(request.id):
            again = resolver.submit(
                rs, accepted.state, side=request.side, request_id=request.id, choice=choice, seed=seed
            )
            assert isinstance(again, Rejection)
            assert again.clause == "ENG-DEC-03"
        current = accepted.state
        checked += 1
    assert checked


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_nothing_is_decided_after_the_end(rs, scenario):
    for seed in SEEDS:
        _, outcome = played(rs, scenario, seed)
        last_request = next(e for e in reversed(outcome.events) if e.kind == "decision_requested")
        request = last_request.data["request"]
        refused = resolver.submit(
            rs, outcome.state, side=request["side"], request_id=request["id"], choice=request["default"], seed=seed
        )
        assert isinstance(refused, Rejection)
        assert refused.clause == "ENG-DEC-04"


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_secret_answers_stay_with_their_side_until_revealed(rs, scenario):
    secrets = 0
    for seed in SEEDS:
        _, outcome = played(rs, scenario, seed)
        secret = {
            e.data["request"]["id"]: e.data["request"]["side"]
            for e in outcome.events
            if e.kind == "decision_requested" and e.data["request"]["secret"]
        }
        for event in outcome.events:
            if event.kind == "decision" and event.data["request"] in secret:
                side = secret[event.data["request"]]
                assert event.visibility == events.side_only(side)
                others = [s for s in outcome.state.sides if s != side]
                assert all(not event.visible_to(o) for o in others)
                assert event.visible_to(side)
                assert event.visible_to(None)
        secrets += len(secret)
    if not secrets:
        pytest.skip(f"{rs.key}: no secret decisions in this scenario")


def examples_for(rs: ruleset.Ruleset[Any], scenario: Any) -> int:
    """How many random battles the search below plays of a scenario: EXAMPLES, or fewer for a scenario whose battles
    are long, so that each scenario gets about the same number of events checked (EVENT_BUDGET), never fewer than
    FEWEST battles. Measured by the events of its first conformance battle, so the count is the same on every
    machine. (A 10,000-event Cloudships fleet action costs some 8 s a battle to play and check; 25 of them were
    over 3 minutes of the suite, where 5 check as many events as 25 of a small scenario.)"""
    _, first = played(rs, scenario, SEEDS[0])
    return max(FEWEST, min(EXAMPLES, EVENT_BUDGET // max(len(first.events), 1)))


EXAMPLES, FEWEST, EVENT_BUDGET = 25, 5, 40_000


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_no_seed_crashes_stalls_or_breaks_an_invariant(rs, scenario):
    @settings(max_examples=examples_for(rs, scenario), deadline=None)
    @given(seed=st.binary(min_size=1, max_size=12), data=st.data())
    def random_battle(seed: bytes, data: st.DataObject) -> None:
        switches = {
            spec.key: data.draw(st.sampled_from(spec.choices), label=spec.key) for spec in rs.options if spec.choices
        }
        initial, outcome = play(rs, scenario, seed, switches)  # StalledBattle past MAX_DECISIONS = a loop
        assert outcome.state.over
        assert outcome.state.winner in (None, *outcome.state.sides)
        rebuilt = fold_checking(rs, initial, outcome.events, every=SAMPLE)
        assert state.state_to_json(rs, rebuilt) == state.state_to_json(rs, outcome.state)

    random_battle()


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=1, max_size=12))
def test_the_rulesets_own_ai_ends_every_battle_within_the_rules(rs, scenario, seed):
    """The ruleset's AI captains (simulate.policy_for) play as legally as random play does."""
    initial = resolver.new_battle(rs, scenario, seed_commitment=dice.commitment(seed))
    chosen = {side: simulate.policy_for(rs, seed, side) for side in initial.sides}
    outcome = policies.auto_play(rs, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)
    assert outcome.state.over
    rebuilt = fold_checking(rs, initial, outcome.events, every=SAMPLE)
    assert state.state_to_json(rs, rebuilt) == state.state_to_json(rs, outcome.state)


@pytest.mark.parametrize("rs", RULESETS, ids=lambda rs: f"{rs.key}-{rs.version}")
def test_every_pending_decision_has_an_answer_schema_that_spells_its_answers(rs):
    """Each open request's answer schema (battles.engine.answers) is plain JSON, and every answer the
    ruleset offers that the schema can spell as form fields assembles back to itself; a ruleset on the
    generic default spells its defaults and candidates, all of them."""
    generic = type(rs).answer_schema is ruleset.BaseRuleset.answer_schema
    scenario = (rs.example_scenarios() or [None])[0]
    seed = SEEDS[0]
    current = resolver.resolve(rs, resolver.new_battle(rs, scenario, seed_commitment=dice.commitment(seed)), seed).state
    picker = policies.RandomPolicy(seed)
    for _ in range(12):
        if current.over:
            break
        request = current.pending()[0]
        seen = state.redact(current, request.side)
        schema = rs.answer_schema(seen, request)
        assert schema.request == request.id
        assert json.loads(json.dumps(schema.to_json())) == schema.to_json()
        for answer in [request.default, *rs.candidates(seen, request)]:
            try:
                fields = answers.disassemble(schema, answer)
            except answers.AnswerError:
                assert not generic, (rs.key, request.kind, answer)
                continue
            assert answers.assemble(schema, fields) == answer, (rs.key, request.kind, answer)
        choice = picker.choose(rs, seen, request)
        current = resolver.submit(rs, current, side=request.side, request_id=request.id, choice=choice, seed=seed).state


@pytest.mark.parametrize(("rs", "scenario"), scenario_cases())
def test_the_outcome_is_typed_versioned_and_agrees_with_the_battle(rs, scenario):
    """What a campaign reads of any ruleset's battle: BaseRuleset's defaults or the ruleset's own."""
    initial, played_ = played(rs, scenario, SEEDS[0])
    final = played_.state
    made = rs.outcome(initial, final)
    assert isinstance(made, BattleOutcome)
    assert (made.ruleset, made.version, made.winner, made.turns, made.over) == (
        rs.key,
        rs.version,
        final.winner,
        final.turn,
        True,
    )
    assert BattleOutcome.from_json(json.loads(json.dumps(made.to_json()))) == made
    for ship in made.ships:
        assert {ship.side_at_start, ship.side_at_end} <= set(final.sides), ship.name
        assert 0 <= ship.crew_lost <= max(ship.crew_at_start, ship.crew_lost)
    assert rs.summary(final).startswith(f"Over after turn {final.turn}")
    assert rs.tally(final)["winner"] == final.winner


def test_the_bare_duel_gives_its_outcome_through_the_defaults():
    """The reference duel's game without its hooks overrides none of them: the engine's defaults serve it."""
    for hook in ("outcome", "summary", "tally", "ai_policy", "leaving_policy", "deadline_default", "roster"):
        assert hook not in vars(type(BARE_DUEL)), hook
    initial, played_ = played(BARE_DUEL, BARE_DUEL.example_scenarios()[0], SEEDS[0])
    made = BARE_DUEL.outcome(initial, played_.state)
    assert made.reason == played_.state.result
    assert made.winner == played_.state.winner
    assert made.ships == ()  # the default roster names the sides only: no ships to report
