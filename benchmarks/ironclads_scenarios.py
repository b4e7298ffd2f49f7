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

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from battles.engine import simulate
from battles.rules.ironclads.ruleset import IRONCLADS
from benchmarks.outcome_table import Row, commit

SCENARIOS = ("hampton-roads", "hampton-roads-monitor", "lissa", "angamos")
RUNS = 500
NUMBER = 1
PROCESSES = 2
OUT = Path("var") / "ironclads-scenarios.md"
TURN_LIMIT = "the turns are played"  # the start of the reason a battle ended by its turn limit gives (phases/turn.py)
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


def play(job: tuple[str, int, int]) -> dict[str, Any]:
    """One battle's outcome, trimmed to what the table counts (a worker's task: picklable in and out)."""
    slug, number, run = job
    outcome = simulate.simulate(IRONCLADS, scenario(slug), seed=simulate.seed_for(number, run)).outcome
    return {"winner": outcome["winner"], "reason": str(outcome["reason"]), "turns": int(outcome["turns"])}


def outcomes(slug: str, runs: int, *, number: int = NUMBER, processes: int = PROCESSES) -> list[dict[str, Any]]:
    jobs = [(slug, number, run) for run in range(runs)]
    with get_context("fork").Pool(max(processes, 1)) as pool:
        return list(pool.imap(play, jobs, chunksize=2))


def summarise(slug: str, played: Sequence[dict[str, Any]], seconds: float = 0.0) -> Row:
    data = scenario(slug)
    sides = {str(side["key"]): str(side["name"]) for side in data["sides"]}
    total = len(played)
    winners = Counter(o["winner"] for o in played)
    return Row(
        slug=slug,
        title=str(data["title"]),
        runs=total,
        wins={name: winners[key] / total for key, name in sides.items()},
        draws=winners[None] / total,
        turn_limit=sum(1 for o in played if o["reason"].startswith(TURN_LIMIT)) / total,
        median_turns=statistics.median(o["turns"] for o in played),
        seconds=seconds,
        reasons=dict(Counter(f"{o['winner']}: {o['reason']}" for o in played).most_common()),
    )


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
    rows = []
    for slug in slugs:
        started = time.monotonic()
        played = outcomes(slug, runs, number=number, processes=processes)
        rows.append(summarise(slug, played, time.monotonic() - started))
        print(f"{slug}: {runs} runs in {rows[-1].seconds:.0f} s", file=sys.stderr, flush=True)
        for reason, count in rows[-1].reasons.items():
            print(f"  {count:4d}  {reason}", file=sys.stderr, flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=list(SCENARIOS))
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--number", type=int, default=NUMBER)
    parser.add_argument("--processes", type=int, default=PROCESSES)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = table(args.slugs, runs=args.runs, number=args.number, processes=args.processes)
    text = markdown(rows, runs=args.runs, number=args.number)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    args.out.with_suffix(".json").write_text(json.dumps({row.slug: row.reasons for row in rows}, indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
