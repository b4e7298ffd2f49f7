"""The captain's bounded move search (ai_moves.best_moves, battles/aikit/search.py) is exact: on every move of
whole battles it keeps the very plans, with the very scores, that scoring every plan (score_moves, then
ai_adjust_moves) lets come within NEAR_TIE of the best, so the die picks among the same moves."""

from __future__ import annotations

from typing import Any

import pytest

from battles.aikit import ties
from battles.engine import dice, policies, resolver, simulate
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.rules.sky_galleons import ai_moves, ai_reading, candidates, scenario, scenario_ai, tactics
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS


class CheckingCaptain(tactics.Captain):
    """A captain who, before each move, checks the bounded search against a full scoring."""

    checked = 0

    def _move(self, state: ai_reading.State, request: DecisionRequest) -> JSON:
        written = tactics.with_written(state, request)
        record = written.board.ship(request.ships[0])
        view = ai_moves.sight(written, record)
        if scenario_ai.stand_off(written.board, record) is None and not view.running and not ai_moves.droppers(record):
            traced = candidates.traced_moves(written, record)
            full = ai_moves.ai_adjust_moves(
                written, record, traced, ai_moves.score_moves(written, record, traced, None, view)
            )
            best = ai_moves.best_moves(written, ai_moves.sight(written, record), traced)
            assert [plan for _, plan in best] == ties.alike(full, ai_reading.NEAR_TIE)
            kept = {str(plan): score for score, plan in full}
            assert all(kept[str(plan)] == score for score, plan in best)
            CheckingCaptain.checked += 1
        return super()._move(state, request)


@pytest.mark.parametrize(("slug", "run"), [("the-great-raid", 1), ("john-bulls-tyranny", 2), ("hearts-of-oak", 3)])
def test_the_bounded_search_keeps_what_a_full_scoring_keeps(slug: str, run: int) -> None:
    seed = simulate.seed_for(21, run)
    initial = resolver.new_battle(SKY_GALLEONS, scenario.load_data(slug), seed_commitment=dice.commitment(seed))
    chosen: dict[str, Any] = {side: CheckingCaptain(seed + side.encode(), f"captain {side}") for side in initial.sides}
    before = CheckingCaptain.checked
    policies.auto_play(SKY_GALLEONS, initial, seed=seed, policies=chosen, max_decisions=simulate.MAX_DECISIONS)
    assert CheckingCaptain.checked - before > 20
