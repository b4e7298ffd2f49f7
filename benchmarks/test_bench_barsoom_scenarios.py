"""The Sky Ships of Barsoom scenarios, 500 battles each with the AI captain on every side
(benchmarks/barsoom_scenarios.py): the outcome table printed, and the issue's bounds reported (no side above 80%,
under 5% of battles ended by the turn limit).

Slow (some 1,500 battles), so only `make bench` runs it; `python -m benchmarks.barsoom_scenarios` on its own."""

from __future__ import annotations

from benchmarks import barsoom_scenarios
from benchmarks.outcome_table import Row


def test_bench_barsoom_outcome_table_of_the_scenarios(benchmark):
    def table() -> list[Row]:
        return barsoom_scenarios.table()

    rows = benchmark.pedantic(table, rounds=1, iterations=1, warmup_rounds=0)
    runs, number = barsoom_scenarios.RUNS, barsoom_scenarios.NUMBER
    print("\n" + barsoom_scenarios.markdown(rows, runs=runs, number=number))
    assert [row.slug for row in rows] == list(barsoom_scenarios.SCENARIOS)
    for row in rows:
        assert row.runs == barsoom_scenarios.RUNS
        assert abs(sum(row.wins.values()) + row.draws - 1) < 1e-9
        benchmark.extra_info[row.slug] = {
            "wins": {side: round(share, 4) for side, share in row.wins.items()},
            "turn_limit": round(row.turn_limit, 4),
            "out_of_bounds": barsoom_scenarios.lopsided(row),
        }
