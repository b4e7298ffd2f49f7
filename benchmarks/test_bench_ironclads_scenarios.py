"""The Ironclads 1850-1890 historical scenarios, 500 battles each with the AI captain on every side
(benchmarks/ironclads_scenarios.py): the outcome table printed with a line on what happened in each real battle
beside it (the issue asks for the distribution compared with history, not for balance: history was lopsided).

Slow (some 2,000 battles), so only `make bench` runs it; `python -m benchmarks.ironclads_scenarios` on its own."""

from __future__ import annotations

from benchmarks import ironclads_scenarios
from benchmarks.outcome_table import Row


def test_bench_ironclads_outcome_table_of_the_historical_scenarios(benchmark):
    def table() -> list[Row]:
        return ironclads_scenarios.table()

    rows = benchmark.pedantic(table, rounds=1, iterations=1, warmup_rounds=0)
    runs, number = ironclads_scenarios.RUNS, ironclads_scenarios.NUMBER
    print("\n" + ironclads_scenarios.markdown(rows, runs=runs, number=number))
    assert [row.slug for row in rows] == list(ironclads_scenarios.SCENARIOS)
    assert set(ironclads_scenarios.HISTORY) == set(ironclads_scenarios.SCENARIOS)
    for row in rows:
        assert row.runs == ironclads_scenarios.RUNS
        assert abs(sum(row.wins.values()) + row.draws - 1) < 1e-9
        benchmark.extra_info[row.slug] = {
            "wins": {side: round(share, 4) for side, share in row.wins.items()},
            "turn_limit": round(row.turn_limit, 4),
            "seconds": round(row.seconds, 1),
        }
