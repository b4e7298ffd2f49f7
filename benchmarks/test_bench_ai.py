"""Issue 21's figures: a battle's cost against its dice, and the live AI captain against the reference captain.

Both run only under `make bench` (`make test` collects tests/ alone). benchmarks/battle_cost.py and
benchmarks/ai_match.py say how each is measured; both can be run on their own as `python -m benchmarks.NAME`.
"""

from __future__ import annotations

import pytest

from benchmarks import ai_match, battle_cost
from benchmarks.outcome_table import SCENARIOS


def test_bench_a_pitched_battle_costs_at_most_30_times_its_dice(benchmark):
    """CPU per auto-resolved Pitched Battle over the CPU of rolling its dice alone, in one run: 30x or below."""
    cost = benchmark.pedantic(battle_cost.measure, rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + cost.line())
    benchmark.extra_info.update(
        {
            "ms_cpu_per_battle": round(1000 * cost.cpu_per_battle, 1),
            "dice_per_battle": round(cost.dice_per_battle),
            "ms_dice_per_battle": round(1000 * cost.dice_cpu_per_battle, 3),
            "ratio": round(cost.ratio, 1),
        }
    )
    assert cost.ratio <= battle_cost.TARGET, cost.line()


@pytest.mark.parametrize("slug", SCENARIOS)
def test_bench_the_live_captain_does_not_lose_to_the_reference(benchmark, slug):
    """At least 200 battles of the scenario, every seed with the live captain in each seat against the reference
    in the others: its share (a draw counted half, scaled to two sides) is at least 45%."""
    result = benchmark.pedantic(ai_match.match, args=(slug,), rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + result.line())
    benchmark.extra_info.update({"share": round(result.share, 4), "draws": round(result.draws, 4)})
    assert result.runs >= ai_match.RUNS
    assert result.share >= ai_match.FLOOR, result.line()
