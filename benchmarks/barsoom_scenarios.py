"""The Sky Ships of Barsoom scenarios (battles/rules/barsoom/scenarios/), auto-resolved many times with the Barsoom
AI captain on every side, in the outcome table's form (benchmarks/outcome_table.py); docs/barsoom.md section 10
keeps the table.

    python -m benchmarks.barsoom_scenarios                                 # 500 runs of each, var/barsoom-scenarios.md
    python -m benchmarks.barsoom_scenarios --runs 100 convoy-escort        # a probe

Run n of a scenario is played on ``simulate.seed_for(number, n)``, as the Sky Galleons table's are, on
``--processes`` worker processes (2 by default); ``make bench`` runs it through
benchmarks/test_bench_barsoom_scenarios.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from battles.rules.barsoom.ruleset import BARSOOM
from benchmarks import scenario_runs
from benchmarks.outcome_table import Row, commit
from benchmarks.scenario_runs import NUMBER, PROCESSES, RUNS, lopsided

RULESET = BARSOOM
SCENARIOS = ("patrol-meets-raider", "convoy-escort", "fleet-action-over-zodanga")
# "the turns are played": the start of the reason a battle ended by its turn limit gives (phases/turn.py)
BENCH = scenario_runs.Bench(
    "benchmarks.barsoom_scenarios", SCENARIOS, "the turns are played", Path("var") / "barsoom-scenarios.md"
)
__all__ = ["NUMBER", "PROCESSES", "RUNS", "SCENARIOS", "lopsided", "markdown", "scenario", "table"]


def scenario(slug: str) -> dict[str, Any]:
    found = [dict(s) for s in BARSOOM.example_scenarios() if s["slug"] == slug]
    if not found:
        raise ValueError(f"no Barsoom scenario {slug!r}")
    return found[0]


def markdown(rows: Sequence[Row], *, runs: int, number: int) -> str:
    lines = [
        f"Made at commit {commit()} with `python -m benchmarks.barsoom_scenarios --runs {runs} --number {number}`:"
        f" run n of each scenario on `simulate.seed_for({number}, n)`, n = 0..{runs - 1}, the Barsoom AI captain"
        " on every side.",
        "",
        "| Scenario | Runs | Wins | Draws | Turn-limit endings | Median turns | Seconds |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append("| " + " | ".join([*row.cells(), f"{row.seconds:.0f}"]) + " |")
    return "\n".join(lines) + "\n"


def table(
    slugs: Sequence[str] = SCENARIOS, *, runs: int = RUNS, number: int = NUMBER, processes: int = PROCESSES
) -> list[Row]:
    return scenario_runs.table(BENCH, slugs, runs=runs, number=number, processes=processes)


if __name__ == "__main__":
    raise SystemExit(scenario_runs.main(BENCH, markdown, description=__doc__.splitlines()[0]))
