"""The Sky Galleons battle outcome (outcome.py): the typed outcome a campaign reads, built from the battle result
(results.py) and the final board. A boarding capture held and then crewed, a crash landing, and the round trip
through JSON the stored result makes."""

from __future__ import annotations

import pytest

from battles.engine import outcome as words
from battles.engine.outcome import BattleOutcome
from battles.rules.sky_galleons.kinds import MOVE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import ShipRecord
from tests.rules.sky_galleons import test_ordnance_battle as ob
from tests.rules.sky_galleons.battle_harness import drive, ship, start
from tests.rules.sky_galleons.battle_harness import scenario as battle
from tests.rules.sky_galleons.test_boarding_battle import orders
from tests.rules.sky_galleons.test_results import boarded


@pytest.mark.rule("SG-BRD-13", "SG-BRD-21", "SG-BRD-22", "SGC-TREK-01")
def test_a_ship_taken_by_boarders_is_captured_with_her_captain_her_prisoners_and_her_guard() -> None:
    initial, state = boarded(b"results-taken")
    found = RS.outcome(initial, state)
    assert (found.ruleset, found.version, found.turns, found.over) == ("sky_galleons", "1", state.turn, False)
    runner = found.ship("Runner")
    assert runner is not None
    assert (runner.fate, runner.captured_by, runner.side_at_start, runner.side_at_end) == (
        words.CAPTURED,
        "a",
        "b",
        "a",
    )
    assert (runner.crew_at_start, runner.crew_lost, runner.prisoners, runner.captain) == (27, 3, 24, words.CAPTURED)
    assert (runner.prize_guard, dict(runner.prize_crew)) == ("Reaver", {})
    # Her record is the one on the board at the end, in the campaign's record format.
    assert ShipRecord.from_json(runner.record) == state.board.ship("Runner")
    reaver = found.ship("Reaver")
    assert reaver is not None
    assert (reaver.fate, reaver.captain, reaver.crew_lost, reaver.crew_away) == (words.FIGHTING, words.ABOARD, 0, 9)
    assert reaver.detail["away"] == {
        "boarders": 8,
        "flying_parties": 0,
        "landing_party": 0,
        "prize_crews": 0,
        "guards": 1,
    }
    assert {ship.name for ship in found.ships} == {"Reaver", "Runner", "Far"}


@pytest.mark.rule("SG-BRD-21", "SG-BRD-22")
def test_a_crewed_prize_names_her_prize_crew_by_the_ship_they_came_from() -> None:
    seed = b"results-taken"
    initial, state = boarded(seed)
    state, _, request = drive(
        state, orders(extra={"a": {"prizes": {"Runner": "crew"}}}), seed, lambda s, r: r.kind == MOVE
    )
    assert request is not None
    found = RS.outcome(initial, state)
    runner, reaver = found.ship("Runner"), found.ship("Reaver")
    assert runner is not None
    assert reaver is not None
    assert (runner.fate, dict(runner.prize_crew), runner.prize_guard) == (words.CAPTURED, {"Reaver": 8}, "Reaver")
    assert (reaver.crew_away, reaver.detail["away"]["prize_crews"], reaver.detail["away"]["guards"]) == (9, 8, 1)


@pytest.mark.rule("SG-ALT-10", "SG-ALT-12", "SGC-TREK-01")
def test_a_crash_landing_keeps_her_captain_and_a_crash_loses_the_men_aboard() -> None:
    data = battle(
        [
            ship("Lander", "Aphid (original)", (5, 8), altitude="VL"),
            ship("Ram", "Aphid (original)", (9, 8), altitude="L"),
        ],
        [ship("Far", "Sky Runner", (14, 2))],
        turns=3,
        map={"cols": 16, "rows": 12, "terrain": [{"hex": [9, 6], "height": "L"}]},
    )
    seed = b"results-crash"
    initial, state = start(data, seed)
    moves = {"Lander": ["ahead", "ahead", "descend"], "Ram": ["ahead", "ahead"]}
    state, _, _ = drive(state, ob.script(moves=moves), seed, lambda s, r: s.turn == 2)
    found = RS.outcome(initial, state)
    lander, ram = found.ship("Lander"), found.ship("Ram")
    assert lander is not None
    assert ram is not None
    assert (lander.fate, lander.captain, lander.crew_lost) == (words.CRASH_LANDED, words.CRASH_LANDED, 0)
    assert (ram.fate, ram.captain, ram.crew_lost) == (words.CRASHED, words.KILLED, 15)


def test_the_outcome_goes_to_json_and_back_unchanged() -> None:
    initial, state = boarded(b"results-taken")
    found = RS.outcome(initial, state)
    assert BattleOutcome.from_json(found.to_json()) == found
