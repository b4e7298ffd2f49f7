"""Battle benchmarks: how fast the AI auto-resolves Sky Galleons battles (the odds calculator's speed).

`make bench` reports the time per battle; battles per second = 1 / mean. The same fixed seeds every
round, so rounds are comparable. The replay benchmark folds a logged battle without any rule running.
"""

from __future__ import annotations

from battles.engine import resolver, simulate
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

THIEVES = scenario.load_data("thieves-fall-out")
BATCH = 20


def test_bench_auto_resolve_thieves_fall_out_20_battles(benchmark):
    """Twenty AI-resolved Thieves Fall Out battles per round (simulate_battle --runs 20)."""

    def batch() -> list[dict]:
        return [played.outcome for played in simulate.runs(SKY_GALLEONS, THIEVES, number=1, count=BATCH)]

    outcomes = benchmark.pedantic(batch, rounds=3, iterations=1, warmup_rounds=0)
    assert len(outcomes) == BATCH
    assert all(o["over"] for o in outcomes)
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["battles_per_second"] = round(BATCH / mean, 1)


def test_bench_replay_one_battle(benchmark):
    """Fold a whole battle's log back into its final state (what loading a battle page costs)."""
    played = simulate.simulate(SKY_GALLEONS, THIEVES, seed=simulate.seed_for(1))
    state = benchmark(resolver.replay, SKY_GALLEONS, played.initial, played.events)
    assert state == played.final
    benchmark.extra_info["events"] = len(played.events)
