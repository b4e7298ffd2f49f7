"""What the rulesets' scenario benchmarks share (cloudships_scenarios, barsoom_scenarios, ironclads_scenarios): play
each scenario many times with the AI captain on every side, on worker processes, and count the outcomes into the
outcome table's rows (benchmarks/outcome_table.py). Each benchmark module names its ruleset (``RULESET``), how it
finds a scenario (``scenario(slug)``), its scenarios and its turn limit's words, and how its table reads.

A worker is handed the benchmark module's name and imports it, so the task stays picklable whatever the ruleset.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from battles.engine import simulate
from benchmarks.outcome_table import Row

RUNS = 500
NUMBER = 1
PROCESSES = 2


@dataclass(frozen=True)
class Bench:
    module: str  # the benchmark module: its RULESET and scenario(slug)
    scenarios: tuple[str, ...]
    turn_limit: str  # the start of the reason a battle ended by its turn (or round) limit gives
    out: Path


def play(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """One battle's outcome, trimmed to what the table counts (a worker's task: picklable in and out)."""
    module, slug, number, run = job
    bench = importlib.import_module(module)
    outcome = simulate.simulate(bench.RULESET, bench.scenario(slug), seed=simulate.seed_for(number, run)).outcome
    return {"winner": outcome["winner"], "reason": str(outcome["reason"]), "turns": int(outcome["turns"])}


def outcomes(
    bench: Bench, slug: str, runs: int, *, number: int = NUMBER, processes: int = PROCESSES
) -> list[dict[str, Any]]:
    jobs = [(bench.module, slug, number, run) for run in range(runs)]
    with get_context("fork").Pool(max(processes, 1)) as pool:
        return list(pool.imap(play, jobs, chunksize=2))


def summarise(bench: Bench, slug: str, played: Sequence[dict[str, Any]], seconds: float = 0.0) -> Row:
    data = importlib.import_module(bench.module).scenario(slug)
    sides = {str(side["key"]): str(side["name"]) for side in data["sides"]}
    total = len(played)
    winners = Counter(o["winner"] for o in played)
    return Row(
        slug=slug,
        title=str(data["title"]),
        runs=total,
        wins={name: winners[key] / total for key, name in sides.items()},
        draws=winners[None] / total,
        turn_limit=sum(1 for o in played if o["reason"].startswith(bench.turn_limit)) / total,
        median_turns=statistics.median(o["turns"] for o in played),
        seconds=seconds,
        reasons=dict(Counter(f"{o['winner']}: {o['reason']}" for o in played).most_common()),
    )


def lopsided(row: Row) -> bool:
    """The issues' bounds for a designed scenario: no side above 80%, under 5% of the battles ended by the limit."""
    return max(row.wins.values()) > 0.8 or row.turn_limit >= 0.05


def table(
    bench: Bench,
    slugs: Sequence[str] | None = None,
    *,
    runs: int = RUNS,
    number: int = NUMBER,
    processes: int = PROCESSES,
) -> list[Row]:
    rows = []
    for slug in bench.scenarios if slugs is None else slugs:
        started = time.monotonic()
        played = outcomes(bench, slug, runs, number=number, processes=processes)
        rows.append(summarise(bench, slug, played, time.monotonic() - started))
        print(f"{slug}: {runs} runs in {rows[-1].seconds:.0f} s", file=sys.stderr, flush=True)
        for reason, count in rows[-1].reasons.items():
            print(f"  {count:4d}  {reason}", file=sys.stderr, flush=True)
    return rows


def main(
    bench: Bench, markdown: Callable[..., str], argv: Sequence[str] | None = None, *, description: str = ""
) -> int:
    """The command line of a benchmark module: the table of the scenarios named (all by default), written to
    ``--out`` (and the reasons to its .json beside it) and printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("slugs", nargs="*", default=list(bench.scenarios))
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--number", type=int, default=NUMBER)
    parser.add_argument("--processes", type=int, default=PROCESSES)
    parser.add_argument("--out", type=Path, default=bench.out)
    args = parser.parse_args(argv)
    rows = table(bench, args.slugs, runs=args.runs, number=args.number, processes=args.processes)
    text = markdown(rows, runs=args.runs, number=args.number)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    args.out.with_suffix(".json").write_text(json.dumps({row.slug: row.reasons for row in rows}, indent=1))
    print(text)
    return 0
