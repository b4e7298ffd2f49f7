"""The Cloudships of Mars AI captain (battles/rules/cloudships_2023/ai.py): its wins against random legal play, and
the CPU a battle costs with the captain on both sides against random play on both sides.

The match: the even scenario of tests/rules/cloudships_2023/test_ai.py (like squadrons face to face), each seed
``simulate.seed_for(NUMBER, n)`` played once with the captain in each seat and ``RandomPolicy`` in the other. A draw
(the round limit) is no win. The cost: process CPU per battle, the example scenario (Raid on the canal) and the even
one, captains against captains and random against random, on the same seeds.

    python -m benchmarks.cloudships_ai              # 40 seeds (80 battles) and the cost of 10 battles each way
    python -m benchmarks.cloudships_ai --runs 10    # a probe
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import simulate
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from benchmarks import random_match
from benchmarks.random_match import Match
from tests.rules.cloudships_2023.battle_kit import SCENARIO
from tests.rules.cloudships_2023.test_ai import EVEN

RUNS = 40
COST_BATTLES = 10
NUMBER = 2023
FLOOR = 0.75


def match(runs: int = RUNS, *, number: int = NUMBER) -> Match:
    return Match(*random_match.tally(CLOUDSHIPS, EVEN, runs, number))


def cost(scenario: Mapping[str, Any], kind: str, battles: int = COST_BATTLES, *, number: int = NUMBER) -> float:
    """Process CPU seconds per battle of ``scenario`` with ``kind`` on every side."""
    sides = tuple(str(side["key"]) for side in scenario["sides"])
    began = time.process_time()
    for run in range(battles):
        random_match.play(CLOUDSHIPS, scenario, simulate.seed_for(number, run), dict.fromkeys(sides, kind))
    return (time.process_time() - began) / battles


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--cost", type=int, default=COST_BATTLES)
    args = parser.parse_args(argv)
    print(match(args.runs).line())
    for name, scenario in (("raid on the canal", SCENARIO), ("even", EVEN)):
        for kind in ("captain", "random"):
            print(f"{name}, {kind} on both sides: {cost(scenario, kind, args.cost):.2f} s CPU a battle")


if __name__ == "__main__":
    main()
