"""What an auto-resolved battle costs against what its dice cost (issue 21): the ratio the odds calculator lives by.

A battle's floor is rolling its dice: the same rolls (purpose, stream, counter, count, sides, modifiers) through
the engine's own dice service (``dice.Dice.roll``) and nothing else. The figure is the CPU time of the battles
divided by the CPU time of rolling all their dice, both measured in one run, so the machine's speed cancels out.
The battles are the largest scenario's (the Pitched Battle, 11 ships), both sides the AI captain, on the seeds
``simulate.seed_for(NUMBER, n)``.

    python -m benchmarks.battle_cost            # 6 battles; prints CPU per battle, dice per battle, the ratio
    python -m benchmarks.battle_cost --profile  # the same under cProfile, the 40 costliest calls
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine import dice, simulate
from battles.engine.events import Event
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

LARGEST = "pitched-battle"
BATTLES = 6
NUMBER = 5
DICE_REPEATS = 20  # the dice are rolled this many times over so that their time is well above the clock's grain
TARGET = 30.0  # the ceiling on the ratio; 10 is the mark to aim at


@dataclass(frozen=True)
class Cost:
    battles: int
    cpu_per_battle: float  # seconds
    dice_per_battle: float  # dice rolled (a roll of 3d6 is 3)
    rolls_per_battle: float
    dice_cpu_per_battle: float  # seconds to roll one battle's dice alone
    events_per_battle: float

    @property
    def ratio(self) -> float:
        return self.cpu_per_battle / self.dice_cpu_per_battle

    def line(self) -> str:
        return (
            f"{LARGEST}: {1000 * self.cpu_per_battle:.0f} ms CPU a battle, {self.dice_per_battle:.0f} dice in "
            f"{self.rolls_per_battle:.0f} rolls ({1000 * self.dice_cpu_per_battle:.2f} ms to roll them alone), "
            f"{self.events_per_battle:.0f} events: {self.ratio:.0f}x its dice"
        )


def rolls_of(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [dict(event.data) for event in events if event.kind == "roll"]


def roll_again(seed: bytes, rolls: Sequence[dict[str, Any]]) -> int:
    """Roll the logged rolls again through the dice service, at their streams; the dice rolled."""
    rolled = 0
    service = dice.Dice(seed, {})
    for roll in rolls:
        made, service = service.roll(
            str(roll["purpose"]),
            count=len(roll["dice"]),
            sides=int(roll["sides"]),
            modifiers=roll.get("modifiers") or None,
            stream=str(roll["stream"]),
        )
        rolled += len(made.dice)
    return rolled


def measure(battles: int = BATTLES, *, number: int = NUMBER, options: dict[str, Any] | None = None) -> Cost:
    data = scenario.load_data(LARGEST)
    simulate.simulate(SKY_GALLEONS, data, seed=simulate.seed_for(number + 1000))  # imports and caches warm
    played: list[tuple[bytes, list[dict[str, Any]], int]] = []
    started = time.process_time()
    for run in range(battles):
        seed = simulate.seed_for(number, run)
        battle = simulate.simulate(SKY_GALLEONS, data, seed=seed, options=options)
        played.append((seed, rolls_of(battle.events), len(battle.events)))
    battle_cpu = time.process_time() - started
    started = time.process_time()
    dice_rolled = 0
    for _ in range(DICE_REPEATS):
        dice_rolled = sum(roll_again(seed, rolls) for seed, rolls, _ in played)
    dice_cpu = (time.process_time() - started) / DICE_REPEATS
    return Cost(
        battles=battles,
        cpu_per_battle=battle_cpu / battles,
        dice_per_battle=dice_rolled / battles,
        rolls_per_battle=sum(len(rolls) for _, rolls, _ in played) / battles,
        dice_cpu_per_battle=dice_cpu / battles,
        events_per_battle=sum(events for _, _, events in played) / battles,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=BATTLES)
    parser.add_argument("--number", type=int, default=NUMBER)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        cost = measure(args.battles, number=args.number)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    else:
        cost = measure(args.battles, number=args.number)
    print(cost.line())


if __name__ == "__main__":
    main()
