"""Scenario benchmarks: the shipped scenarios auto-resolved by the hundred, on both cores (benchmarks/outcome_table.py).

Slow (the outcome table is some 3,500 battles, half an hour on two cores), so only `make bench` runs them:
`make test` collects tests/ alone. Each is timed once (one round); what matters is what the battles give.
"""

from __future__ import annotations

from benchmarks import outcome_table

THIEVES = "thieves-fall-out"
THIEVES_RUNS = 1000
FAIR_SHARE_SLACK = 0.04  # each of three captains alike wins a third of the battles, give or take this


def test_bench_thieves_fall_out_each_captain_wins_a_third(benchmark):
    """SG-SCN-02/04/05: three identical Sky Runners, Trained (SG-SCN-03), set up and moving in turn round the
    table: over 1,000 seeded battles each captain wins 33% +/- 4 (draws counted apart and reported)."""

    def battles() -> outcome_table.Row:
        played = outcome_table.outcomes(THIEVES, THIEVES_RUNS)
        return outcome_table.summarise(THIEVES, played)

    row = benchmark.pedantic(battles, rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({f"{side} wins": round(share, 4) for side, share in row.wins.items()})
    benchmark.extra_info["draws"] = round(row.draws, 4)
    print(f"\n{THIEVES}, {row.runs} runs: " + ", ".join(row.cells()[2:4]) + " draws")
    assert row.runs == THIEVES_RUNS
    for side, share in row.wins.items():
        assert abs(share - 1 / 3) <= FAIR_SHARE_SLACK, (side, row.wins, row.draws)


def test_bench_outcome_table_of_the_seven_scenarios(benchmark):
    """The baseline docs/scenarios.md keeps ("Outcome table"): 500 battles of each scenario, written to
    var/outcome-table.md (the same as `python -m benchmarks.outcome_table`)."""

    def table() -> list[outcome_table.Row]:
        return outcome_table.table(out=outcome_table.OUT)

    rows = benchmark.pedantic(table, rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + outcome_table.markdown(rows, runs=outcome_table.RUNS, number=outcome_table.NUMBER))
    assert [row.slug for row in rows] == list(outcome_table.SCENARIOS)
    for row in rows:
        assert row.runs == outcome_table.RUNS
        assert abs(sum(row.wins.values()) + row.draws - 1) < 1e-9
        benchmark.extra_info[row.slug] = {"seconds": round(row.seconds), "turn_limit": round(row.turn_limit, 4)}
