"""The seven Sky Galleons scenarios translated to Cloudships (scenario_bridge.py), 500 battles each with the AI
captain on every side (benchmarks/cloudships_scenarios.py): the outcome table printed beside the Sky Galleons
figures, and the issue's bounds reported (no side above 80%, under 5% of battles ended by the round limit).

Slow (some 3,500 battles), so only `make bench` runs it; `python -m benchmarks.cloudships_scenarios` on its own."""

from __future__ import annotations

from benchmarks import cloudships_scenarios
from benchmarks.outcome_table import Row


def test_bench_cloudships_outcome_table_of_the_seven_translated_scenarios(benchmark):
    def table() -> list[Row]:
        return cloudships_scenarios.table()

    rows = benchmark.pedantic(table, rounds=1, iterations=1, warmup_rounds=0)
    runs, number = cloudships_scenarios.RUNS, cloudships_scenarios.NUMBER
    print("\n" + cloudships_scenarios.markdown(rows, runs=runs, number=number))
    assert [row.slug for row in rows] == list(cloudships_scenarios.SCENARIOS)
    for row in rows:
        assert row.runs == cloudships_scenarios.RUNS
        assert abs(sum(row.wins.values()) + row.draws - 1) < 1e-9
        benchmark.extra_info[row.slug] = {
            "wins": {side: round(share, 4) for side, share in row.wins.items()},
            "round_limit": round(row.turn_limit, 4),
            "out_of_bounds": cloudships_scenarios.lopsided(row),
        }
