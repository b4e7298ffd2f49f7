"""The live AI captain against the reference captain of issue 21 (benchmarks/reference_captain), scenario by scenario.

For each of the seven scenarios, at least ``runs`` battles: each seed ``simulate.seed_for(NUMBER, n)`` is played
once with the live captain in each seat and the reference captain in every other, so every seat is the live
captain's equally often, on the same dice (a scenario that favours one side favours neither captain, and luck
falls alike on both). The live captain scores a win as 1, a draw as an equal share (1/2 of a two-sided battle),
a loss as 0. Its share is that score over the battles, scaled to two sides: with three captains a fair share is
a third, which counts as 50% (Thieves Fall Out). The issue asks for at least 45% in every scenario. Two captains
that decide alike score exactly 50%: each seed's battle is the same whoever sits where, and its winner's seat is
the live one once.

    python -m benchmarks.ai_match                          # 200 battles of each scenario, both cores
    python -m benchmarks.ai_match --runs 40 pitched-battle # a probe

``make bench`` runs it through benchmarks/test_bench_ai.py.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from battles.engine import dice, policies, resolver, simulate
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from benchmarks.outcome_table import SCENARIOS
from benchmarks.reference_captain import reference_policy

RUNS = 200
NUMBER = 21  # not the outcome table's 1: the match's own battles
PROCESSES = 2
FLOOR = 0.45


def play(job: tuple[str, int, int, int]) -> dict[str, Any]:
    """Seed ``run`` of ``slug`` with the live captain in seat ``seat`` and the reference in the rest."""
    slug, number, run, seat = job
    data = scenario.load_data(slug)
    seed = simulate.seed_for(number, run)
    initial = resolver.new_battle(SKY_GALLEONS, data, seed_commitment=dice.commitment(seed))
    seats = list(initial.sides)
    live = seats[seat]
    chosen = {
        side: simulate.policy_for(SKY_GALLEONS, seed, side)
        if side == live
        else reference_policy(SKY_GALLEONS, seed, side)
        for side in seats
    }
    played = policies.auto_play(SKY_GALLEONS, initial, seed=seed, policies=chosen, max_decisions=simulate.MAX_DECISIONS)
    outcome = simulate.outcome_of(SKY_GALLEONS, played.state)
    winner = outcome["winner"]
    score = 1 / len(seats) if winner is None else 1.0 if winner == live else 0.0  # a draw: an equal share
    return {"live": live, "winner": winner, "score": score, "turns": int(outcome["turns"]), "sides": len(seats)}


@dataclass(frozen=True)
class Result:
    slug: str
    runs: int
    share: float  # the live captain's score over the battles, scaled to two sides
    wins: float
    draws: float
    seconds: float

    def line(self) -> str:
        return (
            f"{self.slug}: live captain {100 * self.share:.1f}% over {self.runs} battles "
            f"(won {100 * self.wins:.1f}%, drew {100 * self.draws:.1f}%) in {self.seconds:.0f} s"
        )


def match(slug: str, runs: int = RUNS, *, number: int = NUMBER, processes: int = PROCESSES) -> Result:
    started = time.monotonic()
    sides = len(scenario.load_data(slug)["sides"])
    seeds = -(-runs // sides)  # every seed in every seat: at least ``runs`` battles
    jobs = [(slug, number, run, seat) for run in range(seeds) for seat in range(sides)]
    with get_context("fork").Pool(max(processes, 1)) as pool:
        played = pool.map(play, jobs, chunksize=1)
    scores = [p["score"] for p in played]
    battles = len(scores)
    return Result(
        slug=slug,
        runs=battles,
        share=sum(scores) / battles * sides / 2,
        wins=sum(1 for s in scores if s == 1.0) / battles,
        draws=sum(1 for p in played if p["winner"] is None) / battles,
        seconds=time.monotonic() - started,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=list(SCENARIOS))
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--number", type=int, default=NUMBER)
    parser.add_argument("--processes", type=int, default=PROCESSES)
    args = parser.parse_args(argv)
    for slug in args.slugs:
        print(match(slug, args.runs, number=args.number, processes=args.processes).line(), flush=True)


if __name__ == "__main__":
    main()
