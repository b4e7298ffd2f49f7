"""The Ironclads AI captain against random legal play, and what its battles cost in their dice
(benchmarks/ironclads_ai.py). These replace the timed tests the suite once had: speed is measured here, as a ratio
to a floor measured in the same run, not by a wall-clock bound in `make test`.

Runs only under `make bench`; `python -m benchmarks.ironclads_ai` runs it on its own."""

from __future__ import annotations

import pytest

from benchmarks import ironclads_ai


def test_bench_the_ironclads_captain_beats_random_play(benchmark):
    """RUNS seeds of each quick historical scenario, the captain in each seat: at least FLOOR of the battles won."""
    result = benchmark.pedantic(ironclads_ai.match, rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + result.line())
    benchmark.extra_info.update({"share": round(result.share, 4), "draws": result.draws})
    assert result.share >= ironclads_ai.FLOOR, result.line()


@pytest.mark.parametrize("slug", ironclads_ai.SCENARIOS)
def test_bench_an_ironclads_battle_costs_at_most_its_ceiling_in_dice(benchmark, slug):
    """CPU per battle of the scenario with the captain on every side, over the CPU of rolling its dice alone."""
    cost = benchmark.pedantic(ironclads_ai.cost, args=(slug,), rounds=1, iterations=1, warmup_rounds=0)
    print("\n" + cost.line())
    benchmark.extra_info.update({"ratio": round(cost.ratio, 1), "cpu_per_battle_s": round(cost.cpu_per_battle, 3)})
    assert cost.ratio <= ironclads_ai.CEILING, cost.line()
