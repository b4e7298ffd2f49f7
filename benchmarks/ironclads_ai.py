"""The Ironclads 1850-1890 AI captain (battles/rules/ironclads/ai.py): its wins against random legal play, and what
its battles cost against what their dice cost (the floor of benchmarks/battle_cost.py).

The match: the historical scenarios that play in a fraction of a second (Hampton Roads on both days, Angamos), each
seed ``simulate.seed_for(NUMBER, n)`` played once with the captain in each seat and ``RandomPolicy`` in the other, so
it must win from the weaker side too (the Huascar alone against two Chilean ironclads). A draw is no win. (Monitor
and Virginia alone, the test scenario, is no measure: ten turns at the range neither armour fears end mostly at the
turn limit on what the problems table took.)

The cost: for each historical scenario, COST_BATTLES battles with the captain on every side. The figure is their CPU
time divided by the CPU time of rolling all their dice again through the engine's dice service, both measured in one
run, so the machine's speed cancels out. Beside it, the same battles' CPU per ship moved a turn (the AI's work grows
with the ships it looks at and the turns they fight, so the figure a ship a turn compares scenarios).

    python -m benchmarks.ironclads_ai              # the match (20 seeds, 120 battles) and the cost of each scenario
    python -m benchmarks.ironclads_ai --runs 10    # a probe
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine import simulate
from battles.rules.ironclads.ruleset import IRONCLADS
from benchmarks import battle_cost, random_match
from benchmarks.random_match import Match

RUNS = 20
COST_BATTLES = 4
NUMBER = 1862
FLOOR = 0.8  # the captain's share of wins against random play it must keep
MATCH = ("hampton-roads", "hampton-roads-monitor", "angamos")
SCENARIOS = ("hampton-roads", "hampton-roads-monitor", "lissa", "angamos")
# The most an AI battle may cost in its dice. Measured (4 battles each): 27x (Hampton Roads, 9 March) to 84x-111x
# (Lissa, 18 ships, whose captains each look at every enemy for every order; its dice take some 20 ms, so the clock's
# grain moves the ratio). The ceiling leaves room for that, not for a captain that looks twice as hard.
CEILING = 200.0


def scenario(slug: str) -> dict[str, Any]:
    found = [dict(s) for s in IRONCLADS.example_scenarios() if s["slug"] == slug]
    if not found:
        raise ValueError(f"no Ironclads scenario {slug!r}")
    return found[0]


@dataclass(frozen=True)
class Cost:
    slug: str
    battles: int
    cpu_per_battle: float  # seconds, the captain on every side
    dice_cpu_per_battle: float  # seconds to roll one battle's dice alone
    ship_turns_per_battle: float  # the scenario's ships times the Game Turns played

    @property
    def ratio(self) -> float:
        return self.cpu_per_battle / self.dice_cpu_per_battle

    def line(self) -> str:
        per_ship_turn = 1000 * self.cpu_per_battle / self.ship_turns_per_battle
        return (
            f"{self.slug}: {1000 * self.cpu_per_battle:.0f} ms CPU a battle ({per_ship_turn:.1f} ms a ship a turn), "
            f"{1000 * self.dice_cpu_per_battle:.2f} ms to roll its dice alone: {self.ratio:.0f}x its dice"
        )


def match(runs: int = RUNS, *, number: int = NUMBER) -> Match:
    battles = wins = draws = 0
    for slug in MATCH:
        played = random_match.tally(IRONCLADS, scenario(slug), runs, number)
        battles, wins, draws = battles + played[0], wins + played[1], draws + played[2]
    return Match(battles, wins, draws, ", ".join(MATCH))


def cost(slug: str, battles: int = COST_BATTLES, *, number: int = NUMBER) -> Cost:
    data = scenario(slug)
    simulate.simulate(IRONCLADS, data, seed=simulate.seed_for(number + 1000))  # imports and caches warm
    played: list[tuple[bytes, list[dict[str, Any]]]] = []
    turns = 0
    began = time.process_time()
    for run in range(battles):
        seed = simulate.seed_for(number, run)
        battle = simulate.simulate(IRONCLADS, data, seed=seed)
        played.append((seed, battle_cost.rolls_of(battle.events)))
        turns += int(battle.outcome["turns"])
    battle_cpu = time.process_time() - began
    began = time.process_time()
    for _ in range(battle_cost.DICE_REPEATS):
        for seed, rolls in played:
            battle_cost.roll_again(seed, rolls)
    dice_cpu = (time.process_time() - began) / battle_cost.DICE_REPEATS
    ship_turns = len(data["ships"]) * turns
    return Cost(slug, battles, battle_cpu / battles, dice_cpu / battles, ship_turns / battles)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--cost", type=int, default=COST_BATTLES)
    parser.add_argument("slugs", nargs="*", default=list(SCENARIOS))
    args = parser.parse_args(argv)
    print(match(args.runs).line())
    for slug in args.slugs:
        print(cost(slug, args.cost).line())


if __name__ == "__main__":
    main()
