"""The seven scenarios auto-resolved many times: who wins, how often the turn limit ends it, how long they take.

One command writes the outcome table that docs/scenarios.md keeps as the baseline ("Outcome table"):

    python -m benchmarks.outcome_table                       # 500 runs of each scenario, var/outcome-table.md
    python -m benchmarks.outcome_table --runs 200 thieves-fall-out the-great-raid   # a probe
    python -m benchmarks.outcome_table --first 500 --runs 500 thieves-fall-out      # runs 500..999 only

Run ``n`` of a scenario is played on ``simulate.seed_for(number, n)`` (``--number``, 1 by default), so the same
command gives the same table on the same commit. The battles are shared among ``--processes`` worker
processes (2 by default: the machine's cores); each battle is deterministic, so the count does not change
the numbers. ``make bench`` runs it through benchmarks/test_bench_scenarios.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from battles.engine import simulate
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SCENARIOS = (  # the book's order, Scenario 1 to 7
    "thieves-fall-out",
    "john-bulls-tyranny",
    "diplomatic-incident",
    "slash-and-run",
    "hearts-of-oak",
    "the-great-raid",
    "pitched-battle",
)
RUNS = 500
NUMBER = 1
PROCESSES = 2
OUT = Path("var") / "outcome-table.md"
TURN_LIMIT = "turn limit"  # the start of the reason a battle ended by its turn limit gives (victory.at_turn_limit)


def play(job: tuple[str, int, int]) -> dict[str, Any]:
    """One battle's outcome, trimmed to what the table counts (a worker's task: picklable in and out)."""
    slug, number, run = job
    outcome = simulate.simulate(SKY_GALLEONS, scenario.load_data(slug), seed=simulate.seed_for(number, run)).outcome
    return {"winner": outcome["winner"], "reason": str(outcome["reason"]), "turns": int(outcome["turns"])}


def outcomes(
    slug: str,
    runs: int,
    *,
    number: int = NUMBER,
    processes: int = PROCESSES,
    progress: Path | None = None,
    first: int = 0,
) -> list[dict[str, Any]]:
    """``runs`` battles of ``slug`` on runs 0..runs-1 of ``number``, in run order; with ``progress``, each
    outcome is appended to that file (a JSON line) as it comes, so a long run can be read before it ends."""
    jobs = [(slug, number, run) for run in range(first, first + runs)]
    played: list[dict[str, Any]] = []
    with get_context("fork").Pool(max(processes, 1)) as pool:
        for job, outcome in zip(jobs, pool.imap(play, jobs, chunksize=2), strict=True):
            played.append(outcome)
            if progress is not None:
                with progress.open("a") as log:
                    log.write(json.dumps({"slug": slug, "run": job[2], **outcome}) + "\n")
    return played


@dataclass(frozen=True)
class Row:
    slug: str
    title: str
    runs: int
    wins: dict[str, float]  # side id -> share, in the scenario's side order
    draws: float
    turn_limit: float  # battles ended by the turn limit, whoever the limit gives them to
    median_turns: float
    seconds: float
    reasons: dict[str, int]  # how the battles ended, most common first (printed, not tabled)

    def cells(self) -> list[str]:
        wins = ", ".join(f"{side} {pct(share)}" for side, share in self.wins.items())
        median = f"{self.median_turns:g}"
        return [self.title, str(self.runs), wins, pct(self.draws), pct(self.turn_limit), median]


def pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def summarise(slug: str, played: Sequence[dict[str, Any]], seconds: float = 0.0) -> Row:
    data = scenario.load_data(slug)
    sides = [str(side["id"]) for side in data["sides"]]
    total = len(played)
    winners = Counter(o["winner"] for o in played)
    return Row(
        slug=slug,
        title=str(data["title"]),
        runs=total,
        wins={side: winners[side] / total for side in sides},
        draws=winners[None] / total,
        turn_limit=sum(1 for o in played if o["reason"].startswith(TURN_LIMIT)) / total,
        median_turns=statistics.median(o["turns"] for o in played),
        seconds=seconds,
        reasons=dict(Counter(f"{o['winner']}: {o['reason']}" for o in played).most_common()),
    )


def commit() -> str:
    try:
        found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    return found.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def markdown(rows: Iterable[Row], *, runs: int, number: int, made_at: str = "", first: int = 0) -> str:
    made_at = made_at or commit()
    lines = [
        f"Made at commit {made_at} with `python -m benchmarks.outcome_table --runs {runs} --number {number}`: "
        f"run n of each scenario is played on `simulate.seed_for({number}, n)`, n = {first}..{first + runs - 1}.",
        "",
        "| Scenario | Runs | Wins | Draws | Turn-limit endings | Median turns |",
        "| --- | ---: | --- | ---: | ---: | ---: |",
    ]
    ordered = sorted(rows, key=lambda row: SCENARIOS.index(row.slug) if row.slug in SCENARIOS else len(SCENARIOS))
    lines += ["| " + " | ".join(row.cells()) + " |" for row in ordered]
    return "\n".join(lines) + "\n"


def table(
    slugs: Sequence[str] = SCENARIOS,
    *,
    runs: int = RUNS,
    number: int = NUMBER,
    processes: int = PROCESSES,
    out: Path | None = None,
    first: int = 0,
) -> list[Row]:
    """The rows, one scenario after another; with ``out``, the table so far is written after each scenario
    (a long run shows its progress) and every battle's outcome to ``out`` with the suffix .json."""
    rows = []
    raw: dict[str, list[dict[str, Any]]] = {}
    made_at = commit()  # the code the battles run on, whatever is committed while they run
    if out is not None:
        out.with_suffix(".progress.jsonl").unlink(missing_ok=True)
    for slug in slugs:
        started = time.monotonic()
        progress = None if out is None else out.with_suffix(".progress.jsonl")
        played = outcomes(slug, runs, number=number, processes=processes, progress=progress, first=first)
        rows.append(summarise(slug, played, time.monotonic() - started))
        if out is not None:
            raw[slug] = played
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(markdown(rows, runs=runs, number=number, made_at=made_at, first=first))
            out.with_suffix(".json").write_text(json.dumps({"number": number, "first": first, "outcomes": raw}))
        print(f"{slug}: {runs} runs in {rows[-1].seconds:.0f} s", file=sys.stderr, flush=True)
        for reason, count in rows[-1].reasons.items():
            print(f"  {count:4d}  {reason}", file=sys.stderr, flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=list(SCENARIOS), help="scenarios (all seven by default)")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--number", type=int, default=NUMBER, help="the simulation number the seeds derive from")
    parser.add_argument("--processes", type=int, default=PROCESSES)
    parser.add_argument("--first", type=int, default=0, help="the first run (a later slice of the same seeds)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = table(
        args.slugs, runs=args.runs, number=args.number, processes=args.processes, out=args.out, first=args.first
    )
    print(markdown(rows, runs=args.runs, number=args.number, first=args.first))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
