"""The Cloudships AI captain against random legal play, and what its battles cost (benchmarks/cloudships_ai.py).

Runs only under `make bench`; `python -m benchmarks.cloudships_ai` runs it on its own."""

from __future__ import annotations

from benchmarks import cloudships_ai


def test_bench_the_cloudships_captain_beats_random_play(benchmark):
    """RUNS seeds of the even scenario, the captain in each seat: at least FLOOR of the battles won."""
    result = benchmark.pedantic(cloudships_ai.match, rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + result.line())
    benchmark.extra_info.update({"share": round(result.share, 4), "draws": result.draws})
    assert result.share >= cloudships_ai.FLOOR, result.line()


def test_bench_a_cloudships_battle_of_captains_costs_no_more_than_one_of_random_play(benchmark):
    """CPU per battle of the example scenario, captains on both sides against random play on both sides."""
    scenario = cloudships_ai.SCENARIO
    captains = benchmark.pedantic(cloudships_ai.cost, args=(scenario, "captain"), rounds=1, iterations=1)
    random = cloudships_ai.cost(scenario, "random")
    print(f"\ncaptains {captains:.2f} s, random {random:.2f} s CPU a battle")
    benchmark.extra_info.update({"captains_s": round(captains, 3), "random_s": round(random, 3)})
    assert captains <= random
