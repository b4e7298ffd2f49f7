"""Sky Ships of Barsoom played whole, unregistered: the conformance suite's checks (tests/conformance) run on the
ruleset object directly, so they hold before the lead registers it. Random play from 50 seeds ends within the
scenario's turns with every invariant holding at every event; replay rebuilds the state byte for byte; the same
seed gives the same battle; the plots stay with their side until each card is revealed; junk answers are refused
naming a clause; the AI captains play legally; every schema spells its answers; the outcome is typed."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from battles.engine import answers, dice, events, policies, resolver, state
from battles.engine.decisions import ENGINE_CLAUSES, Rejection
from battles.engine.outcome import BattleOutcome
from battles.rules.barsoom.kinds import CARD_REVEALED, PLOT_CARDS
from battles.rules.barsoom.ruleset import BARSOOM
from tests.conformance.test_conformance import CLAUSE, JUNK, MAX_DECISIONS, fold_checking

SCENARIO = next(s for s in BARSOOM.example_scenarios() if s["slug"] == "patrol-meets-raider")
SEEDS = tuple(f"barsoom-{n}".encode() for n in range(50))


@cache
def played(seed: bytes, ai: bool = False) -> tuple[Any, Any]:
    initial = resolver.new_battle(BARSOOM, SCENARIO, seed_commitment=dice.commitment(seed))
    chosen = {
        side: BARSOOM.ai_policy(seed, side) if ai else policies.RandomPolicy(seed + side.encode())
        for side in initial.sides
    }
    return initial, policies.auto_play(BARSOOM, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)


@pytest.mark.rule("BR-SEQ-01")
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_ends_and_every_invariant_holds_at_every_event(seed: bytes) -> None:
    initial, outcome = played(seed)
    assert outcome.state.over
    assert outcome.state.turn <= SCENARIO["turns"]
    assert outcome.state.winner in (None, *outcome.state.sides)
    rebuilt = fold_checking(BARSOOM, initial, outcome.events, every=1 if seed == SEEDS[0] else 25)
    assert state.state_to_json(BARSOOM, rebuilt) == state.state_to_json(BARSOOM, outcome.state)


def test_replay_is_byte_for_byte_and_the_same_seed_gives_the_same_battle() -> None:
    _, first = played(SEEDS[0])
    text = events.events_to_json(first.events)
    assert events.events_to_json(events.events_from_json(text)) == text
    again = resolver.new_battle(BARSOOM, SCENARIO, seed_commitment=dice.commitment(SEEDS[0]))
    chosen = {side: policies.RandomPolicy(SEEDS[0] + side.encode()) for side in again.sides}
    rerun = policies.auto_play(BARSOOM, again, seed=SEEDS[0], policies=chosen, max_decisions=MAX_DECISIONS)
    assert events.events_to_json(rerun.events) == text
    assert len({events.events_to_json(played(seed)[1].events) for seed in SEEDS[:4]}) > 1
    log = [e.to_json() for e in first.events]
    assert dice.verify_log(SEEDS[0], log, dice.commitment(SEEDS[0])) == []


@pytest.mark.rule("BR-MOV-02")
@pytest.mark.rule("BR-SEQ-03")
def test_a_plot_stays_with_its_side_until_each_card_is_revealed() -> None:
    initial, outcome = played(SEEDS[1])
    secret = {
        e.data["request"]["id"]: e.data["request"]
        for e in outcome.events
        if e.kind == "decision_requested" and e.data["request"]["kind"] == PLOT_CARDS
    }
    assert secret
    assert all(r["secret"] for r in secret.values())
    for event in outcome.events:
        if event.kind == "decision" and event.data["request"] in secret:
            side = secret[event.data["request"]]["side"]
            assert event.visible_to(side)
            assert not any(event.visible_to(other) for other in outcome.state.sides if other != side)
        if event.kind == "decisions":  # the batch's public reveal carries nothing of a plot
            for answer in event.data["answers"].values():
                if answer["decision"] == PLOT_CARDS:
                    assert answer["choice"] is None
    # Mid-turn, the other side's board view shows only the cards revealed so far.
    current = outcome.state
    log = outcome.events
    for n, event in enumerate(log):
        if event.kind == CARD_REVEALED and event.data["slot"] == 0:
            current = resolver.replay(BARSOOM, initial, log[: n + 1])
            break
    name = log[n].data["ship"]
    side = current.board.ship(name).side
    other = next(s for s in current.sides if s != side)
    seen = BARSOOM.board_view(current, other)["plots"][name]
    assert seen == {"cards": [current.board.plots[name].cards[0]], "hidden": len(current.board.plots[name].cards) - 1}
    assert BARSOOM.board_view(current, side)["plots"][name]["cards"] == list(current.board.plots[name].cards)


def test_junk_is_refused_naming_a_clause_of_barsoom() -> None:
    seed = b"junk"
    current = resolver.resolve(
        BARSOOM, resolver.new_battle(BARSOOM, SCENARIO, seed_commitment=dice.commitment(seed)), seed
    ).state
    picker = policies.RandomPolicy(seed)
    for _ in range(20):
        if current.over:
            break
        request = current.pending()[0]
        refused = resolver.submit(BARSOOM, current, side=request.side, request_id=request.id, choice=JUNK, seed=seed)
        assert isinstance(refused, Rejection)
        assert CLAUSE.match(refused.clause)
        assert refused.clause not in ENGINE_CLAUSES
        assert refused.clause.startswith("BR-")
        seen = state.redact(current, request.side)
        schema = BARSOOM.answer_schema(seen, request)
        assert json.loads(json.dumps(schema.to_json())) == schema.to_json()
        for answer in [request.default, *BARSOOM.candidates(seen, request)][:30]:
            assert answers.assemble(schema, answers.disassemble(schema, answer)) == answer
        choice = picker.choose(BARSOOM, seen, request)
        accepted = resolver.submit(BARSOOM, current, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert isinstance(accepted, resolver.Accepted)
        current = accepted.state


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_the_ai_captains_end_every_battle_within_the_rules(seed: bytes) -> None:
    initial, outcome = played(seed, ai=True)
    assert outcome.state.over
    rebuilt = fold_checking(BARSOOM, initial, outcome.events, every=25)
    assert state.state_to_json(BARSOOM, rebuilt) == state.state_to_json(BARSOOM, outcome.state)


def test_the_outcome_is_typed_and_agrees_with_the_battle() -> None:
    initial, outcome = played(SEEDS[2])
    made = BARSOOM.outcome(initial, outcome.state)
    assert isinstance(made, BattleOutcome)
    assert (made.winner, made.turns, made.over) == (outcome.state.winner, outcome.state.turn, True)
    assert BattleOutcome.from_json(json.loads(json.dumps(made.to_json()))) == made
    assert {ship.name for ship in made.ships} == {s["name"] for s in SCENARIO["ships"]}
    assert BARSOOM.summary(outcome.state).startswith(f"Over after turn {outcome.state.turn}")
    assert BARSOOM.tally(outcome.state)["winner"] == outcome.state.winner


def test_every_event_is_told_in_words_and_every_ship_has_a_sheet() -> None:
    _, outcome = played(SEEDS[3])
    names = BARSOOM.names(BARSOOM.board_view(outcome.state, None), dict(outcome.state.board.side_names))
    for event in outcome.events:
        told = BARSOOM.narrate(event.to_json(), names)
        assert told, event.kind
        assert "None" not in told, event.kind
    view = BARSOOM.board_view(outcome.state, None)
    for ship in SCENARIO["ships"]:
        sheet = BARSOOM.record_sheet(view, ship["name"])
        assert sheet is not None
        assert sheet.sections[0].title == "Movement Cards"
    assert len(BARSOOM.map_view(view).counters) >= 1


@pytest.mark.rule("BR-WPN-05")
def test_a_selected_ship_shows_her_range_bands_and_the_enemies_her_guns_bear_on() -> None:
    initial, _ = played(SEEDS[0])
    view = BARSOOM.board_view(initial, "zodanga")
    overlays = {o.ship: o for o in BARSOOM.ship_overlays(view, options=initial.options, turn=1)}
    kantos = overlays["Kantos"]
    assert [mark.target for mark in kantos.targets] == ["Black Shadow"]
    assert kantos.targets[0].label == "9+"  # 22 hexes apart: the -2 band (19-27 hexes), a 7 needed at +0
    assert {o.look for o in kantos.overlays} >= {"arc--close", "arc--long", "ring--long"}
    counters = {c.key: c for c in BARSOOM.map_view(view).counters}
    assert counters["Kantos"].badges[0].text == "3"  # her level
