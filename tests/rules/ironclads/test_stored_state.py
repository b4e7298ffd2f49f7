"""The battle as the app plays it: its state stored as JSON between answers (keys sorted) and read back before the
next, then verified by re-running its log from the seed in memory (battles.selectors.battle_verify). Both must make
the same events: nothing a phase does may hang on the order of a mapping that the stored JSON sorts. Found by the
browser test: two ships damaged in one Firing Phase (IC-SEQ-08 step B) were crossed off in name order live and in
fire order on the re-run, and the replay would not verify."""

from __future__ import annotations

import json
from collections import Counter

from battles.engine import dice, resolver
from battles.engine import state as state_
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import DAMAGE_RESOLVED
from battles.rules.ironclads.ruleset import IRONCLADS

SEEDS = 12


def stored(state: BattleState[Battle]) -> BattleState[Battle]:
    """The state as the app keeps it between requests: written as JSON and read back."""
    return state_.state_from_json(IRONCLADS, state_.state_to_json(IRONCLADS, state))


def played_as_the_app_plays(seed: bytes) -> tuple[BattleState[Battle], list[Event]]:
    """Every answer the default, one at a time, the state stored and read back before each."""
    scene = IRONCLADS.example_scenarios()[0]
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed), options={})
    started = resolver.resolve(IRONCLADS, initial, seed)
    state, log = stored(started.state), list(started.events)
    while not state.over:
        request = next(r for r in state.pending() if r.id not in state.answers)
        outcome = resolver.submit(
            IRONCLADS, state, side=request.side, request_id=request.id, choice=request.default, seed=seed
        )
        assert not isinstance(outcome, resolver.Rejection), outcome
        state, log = stored(outcome.state), log + outcome.events
    return initial, log


def test_a_battle_stored_between_answers_is_made_again_event_for_event_by_its_seed() -> None:
    damaged_together = 0
    for n in range(SEEDS):
        seed = bytes([n]) * 32
        initial, log = played_as_the_app_plays(seed)
        again = resolver.rerun(IRONCLADS, initial, log, seed)
        assert [json.dumps(e.to_json(), sort_keys=True) for e in again] == [
            json.dumps(e.to_json(), sort_keys=True) for e in log
        ], f"seed {n}"
        per_turn = Counter(e.turn for e in log if e.kind == DAMAGE_RESOLVED)
        damaged_together += sum(1 for count in per_turn.values() if count > 1)
    assert damaged_together, "no Firing Phase damaged both ships: the order was never put to the test"
