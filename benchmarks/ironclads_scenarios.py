"""The Ironclads 1850-1890 historical scenarios (battles/rules/ironclads/scenarios/), auto-resolved many times with
the Ironclads AI captain on every side, in the outcome table's form (benchmarks/outcome_table.py), each beside a line
on what happened in the real battle; docs/ironclads.md "Scenarios" keeps the table.

    python -m benchmarks.ironclads_scenarios                     # 500 runs of each, var/ironclads-scenarios.md
    python -m benchmarks.ironclads_scenarios --runs 100 lissa    # a probe

Run n of a scenario is played on ``simulate.seed_for(number, n)``, as the Sky Galleons table's are, on
``--processes`` worker processes (2 by default); ``make bench`` runs it through
benchmarks/test_bench_ironclads_scenarios.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from battles.rules.ironclads.ruleset import IRONCLADS
from benchmarks import scenario_runs
from benchmarks.outcome_table import Row, commit
from benchmarks.scenario_runs import NUMBER, PROCESSES, RUNS

RULESET = IRONCLADS
SCENARIOS = ("hampton-roads", "hampton-roads-monitor", "lissa", "angamos")
# "the turns are played": the start of the reason a battle ended by its turn limit gives (phases/turn.py)
BENCH = scenario_runs.Bench(
    "benchmarks.ironclads_scenarios", SCENARIOS, "the turns are played", Path("var") / "ironclads-scenarios.md"
)
__all__ = ["HISTORY", "NUMBER", "PROCESSES", "RUNS", "SCENARIOS", "markdown", "scenario", "table"]
# What happened, one line a scenario, printed beside the table (the scenario's description says more).
HISTORY = {
    "hampton-roads": "Confederate success: Cumberland sunk, Congress burned, Minnesota aground; no Confederate loss",
    "hampton-roads-monitor": "A draw between the ironclads; Minnesota saved, Virginia withdrew to Norfolk",
    "lissa": "Austrian victory: Re d'Italia rammed and sunk, Palestro blown up; no Austrian ship lost",
    "angamos": "Chilean victory: Huáscar taken after some 90 minutes, Grau killed; no Chilean loss",
}


def scenario(slug: str) -> dict[str, Any]:
    found = [dict(s) for s in IRONCLADS.example_scenarios() if s["slug"] == slug]
    if not found:
        raise ValueError(f"no Ironclads scenario {slug!r}")
    return found[0]


def markdown(rows: Sequence[Row], *, runs: int, number: int) -> str:
    lines = [
        f"Made at commit {commit()} with `python -m benchmarks.ironclads_scenarios --runs {runs} --number {number}`:"
        f" run n of each scenario on `simulate.seed_for({number}, n)`, n = 0..{runs - 1}, the Ironclads AI captain"
        " on every side.",
        "",
        "| Scenario | Runs | Wins | Draws | Turn-limit endings | Median turns | Seconds | History |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        lines.append("| " + " | ".join([*row.cells(), f"{row.seconds:.0f}", HISTORY.get(row.slug, "")]) + " |")
    return "\n".join(lines) + "\n"


def table(
    slugs: Sequence[str] = SCENARIOS, *, runs: int = RUNS, number: int = NUMBER, processes: int = PROCESSES
) -> list[Row]:
    return scenario_runs.table(BENCH, slugs, runs=runs, number=number, processes=processes)


if __name__ == "__main__":
    raise SystemExit(scenario_runs.main(BENCH, markdown, description=__doc__.splitlines()[0]))
