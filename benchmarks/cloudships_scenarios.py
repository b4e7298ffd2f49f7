"""The seven Sky Galleons scenarios translated to Cloudships of Mars (scenario_bridge.py), auto-resolved many
times with the Cloudships AI captain on every side, in the outcome table's form (benchmarks/outcome_table.py) and
beside the Sky Galleons figures of docs/scenarios.md ("Outcome table").

    python -m benchmarks.cloudships_scenarios                      # 500 runs of each, var/cloudships-scenarios.md
    python -m benchmarks.cloudships_scenarios --runs 100 sg-hearts-of-oak   # a probe

Run n of a scenario is played on ``simulate.seed_for(number, n)``, as the Sky Galleons table's are, on
``--processes`` worker processes (2 by default); ``make bench`` runs it through
benchmarks/test_bench_cloudships_scenarios.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from battles.engine.jsonread import read_json_object
from battles.rules.cloudships_2023 import scenario_bridge
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from benchmarks import scenario_runs
from benchmarks.outcome_table import Row, commit
from benchmarks.scenario_runs import NUMBER, PROCESSES, RUNS, lopsided

RULESET = CLOUDSHIPS
SCENARIOS = tuple(scenario_bridge.PREFIX + slug for slug in scenario_bridge.SLUGS)
# "the round limit": the start of the reason a battle ended by its round limit gives (victory.py)
BENCH = scenario_runs.Bench(
    "benchmarks.cloudships_scenarios", SCENARIOS, "the round limit", Path("var") / "cloudships-scenarios.md"
)
__all__ = ["NUMBER", "PROCESSES", "RUNS", "SCENARIOS", "SKY_GALLEONS", "lopsided", "markdown", "scenario", "table"]
# The Sky Galleons outcome table (docs/scenarios.md, 500 runs each on simulate.seed_for(1, n)): wins by side,
# draws, turn-limit endings, median turns.
SKY_GALLEONS = {
    "thieves-fall-out": "Blackwood 37.8%, Tharn 31.6%, Roquette 30.4%; draws 0.2%; turn limit 0.0%; 9 turns",
    "john-bulls-tyranny": "British 46.6%, Irish 44.6%; draws 8.8%; turn limit 5.2%; 9 turns",
    "diplomatic-incident": "Germans 61.8%, British 38.2%; draws 0.0%; turn limit 0.4%; 7 turns",
    "slash-and-run": "British 59.0%, Martians 41.0%; draws 0.0%; turn limit 0.0%; 17 turns",
    "hearts-of-oak": "British 65.4%, High Martians 33.6%; draws 1.0%; turn limit 0.2%; 13 turns",
    "the-great-raid": "High Martians 74.0%, British 26.0%; draws 0.0%; turn limit 1.8%; 13 turns",
    "pitched-battle": "Oenotrians 49.8%, British 48.2%; draws 2.0%; turn limit 0.0%; 10 turns",
}


def scenario(slug: str) -> dict[str, Any]:
    return dict(read_json_object(scenario_bridge.SCENARIOS_DIR / f"{slug}.json"))


def markdown(rows: Sequence[Row], *, runs: int, number: int) -> str:
    lines = [
        f"Made at commit {commit()} with `python -m benchmarks.cloudships_scenarios --runs {runs} --number {number}`:"
        f" run n of each scenario on `simulate.seed_for({number}, n)`, n = 0..{runs - 1}, the Cloudships AI captain"
        " on every side.",
        "",
        "| Scenario | Runs | Wins | Draws | Round-limit endings | Median rounds | Sky Galleons (500 runs) |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        sky = SKY_GALLEONS.get(row.slug.removeprefix(scenario_bridge.PREFIX), "")
        lines.append("| " + " | ".join([*row.cells(), sky]) + " |")
    return "\n".join(lines) + "\n"


def table(
    slugs: Sequence[str] = SCENARIOS, *, runs: int = RUNS, number: int = NUMBER, processes: int = PROCESSES
) -> list[Row]:
    return scenario_runs.table(BENCH, slugs, runs=runs, number=number, processes=processes)


if __name__ == "__main__":
    raise SystemExit(scenario_runs.main(BENCH, markdown, description=__doc__.splitlines()[0]))
