"""Two submissions a side a turn: the seven scenarios played by the AI captains with the standing orders a side
has before it changes them (standing.DEFAULT), each side's submissions counted per turn (windows.py).

The figures (median and 95th percentile per scenario, before and after) are in docs/engine.md; this test
holds the bar: at most two submissions in 95% of a side's turns, in every scenario.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import simulate, windows
from battles.rules.sky_galleons import standing
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS

SCENARIOS = {str(s["slug"]): s for s in RS.example_scenarios()}


def played(slug: str, options: dict[str, Any]) -> windows.WindowFigures:
    battle = simulate.simulate(RS, SCENARIOS[slug], seed=simulate.seed_for(5), options=options)
    return windows.figures([(battle.events, battle.initial.sides, battle.final.turn)])


@pytest.mark.rule("SG-SEQ-02", "SG-SEQ-04")
@pytest.mark.parametrize("slug", sorted(SCENARIOS))
def test_a_side_submits_at_most_twice_in_95_percent_of_its_turns(slug: str) -> None:
    figures = played(slug, {standing.OPTION: True})
    assert figures.turns >= 2
    assert figures.within_two >= 0.95, figures.line()
    assert figures.median <= 2


def test_without_standing_orders_a_side_is_asked_far_more_often() -> None:
    """The measure can fail: played as at the table, every question put to the side, the bar is missed."""
    figures = played("pitched-battle", {standing.OPTION: False})
    assert figures.within_two < 0.5, figures.line()
    assert figures.median > 2
