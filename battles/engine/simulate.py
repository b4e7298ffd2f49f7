"""Auto-resolve battles with AI policies, once or many times: the odds calculator.

``simulate`` plays one battle from a scenario with every side run by the ruleset's AI (its ``ai_policy``)
and returns the log and the ruleset's figures (its ``tally``). ``runs`` plays many battles on seeds derived from
one number, and ``distribution`` sums the outcomes up. Pure and deterministic: the same number gives the same
battles, event for event.

The odds calculator splits a simulation into chunks (``chunk_plan``) that any process may play
(``play_chunk``: plain data in, plain data out, so it crosses a process pool or a Celery message); run ``n`` is
always played on ``seed_for(number, n)``, so the results are the same however the runs are split.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine import dice, policies, resolver
from battles.engine import ruleset as registry
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, Event, plain
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState, redact

MAX_DECISIONS = 20_000


def seed_for(number: int, run: int = 0) -> bytes:
    """The dice seed of run ``run`` of a simulation numbered ``number`` (run 0 is the single battle)."""
    return hashlib.sha256(f"red-captain simulate {number} run {run}".encode()).digest()


def policy_for(ruleset: Ruleset[Any], seed: bytes, side: str) -> policies.Policy:
    """The ruleset's AI captain for ``side``, on the side's own dice drawn from the battle's ``seed``."""
    return ruleset.ai_policy(seed + b"|" + side.encode(), side)


def ai_answer(ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest, seed: bytes) -> JSON:
    """The ruleset's AI captain's answer to ``request``, seeing the battle as the request's side may."""
    return policy_for(ruleset, seed, request.side).choose(ruleset, redact(state, request.side), request)


@dataclass(frozen=True)
class Simulation:
    seed: bytes
    initial: BattleState[Any]
    final: BattleState[Any]
    events: list[Event]
    outcome: dict[str, Any]


def outcome_of(ruleset: Ruleset[Any], state: BattleState[Any]) -> dict[str, Any]:
    """The ruleset's figures for the odds calculator (``tally``): winner, reason, turns, and its own."""
    return dict(ruleset.tally(state))


def simulate(
    ruleset: Ruleset[Any],
    scenario: Mapping[str, JSON],
    *,
    seed: bytes,
    options: Mapping[str, JSON] | None = None,
) -> Simulation:
    initial = resolver.new_battle(ruleset, scenario, seed_commitment=dice.commitment(seed), options=options)
    chosen = {side: policy_for(ruleset, seed, side) for side in initial.sides}
    played = policies.auto_play(ruleset, initial, seed=seed, policies=chosen, max_decisions=MAX_DECISIONS)
    return Simulation(seed, initial, played.state, played.events, outcome_of(ruleset, played.state))


def runs(
    ruleset: Ruleset[Any],
    scenario: Mapping[str, JSON],
    *,
    number: int,
    count: int,
    options: Mapping[str, JSON] | None = None,
) -> Iterator[Simulation]:
    for run in range(count):
        yield simulate(ruleset, scenario, seed=seed_for(number, run), options=options)


# The odds calculator's chunk plans, by number: the sizes of the first chunks, then the size of every later one.
# An odds run keeps the number of the plan it was split by (OddsRun.chunking), so a run begun before the plan
# changed is finished on its own chunks. Plan 2: a first wave of small chunks, two of each size, so that both
# cores of a two-core machine play one at once and a first estimate comes after two battles (~1.5 s of a
# Pitched Battle's CPU), then chunks small enough that a stopped run's last chunks free the cores within seconds
# (what a killed worker replays is at most one chunk).
CHUNK_PLANS: dict[int, tuple[tuple[int, ...], int]] = {
    1: ((6, 10, 15, 20), 25),
    2: ((2, 2, 4, 4, 8, 8), 12),
}
CHUNKING = 2  # the plan a new run is split by


def chunk_plan(runs: int, chunking: int = CHUNKING) -> list[tuple[int, int]]:
    """The runs ``[start, stop)`` of each chunk of a simulation of ``runs`` battles split by plan ``chunking``."""
    first, later = CHUNK_PLANS[chunking]
    sizes = iter(first)
    plan: list[tuple[int, int]] = []
    start = 0
    while start < runs:
        stop = min(runs, start + next(sizes, later))
        plan.append((start, stop))
        start = stop
    return plan


def summary_of(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """What the distribution needs of one battle (the per-ship detail stays out of the stored chunks)."""
    keep = ("winner", "reason", "turns", "sides")
    summary = plain({key: outcome[key] for key in keep if key in outcome})
    assert isinstance(summary, dict)
    return summary


@dataclass(frozen=True)
class ChunkJob:
    """Runs ``start``..``stop - 1`` of simulation ``number``: plain data, picklable, for any process to play."""

    ruleset_key: str
    scenario: Mapping[str, JSON]
    options: Mapping[str, JSON]
    number: int
    start: int
    stop: int


def play_chunk(job: ChunkJob) -> list[dict[str, Any]]:
    """Play a chunk's runs, each on its own seed (``seed_for(number, n)``), and return their summaries."""
    try:
        rs = registry.get(job.ruleset_key)
    except KeyError:  # a fresh process (a pool's worker) has registered no ruleset yet
        registry.discover()
        rs = registry.get(job.ruleset_key)
    return [
        summary_of(simulate(rs, job.scenario, seed=seed_for(job.number, n), options=job.options).outcome)
        for n in range(job.start, job.stop)
    ]


def prepare() -> int:
    """Register the rulesets in this process (a pool's new worker): done ahead, a first chunk plays at once."""
    return len(registry.discover())


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share (95% for z = 1.96): unlike the share plus or minus its error, it
    stays inside 0..1 and is honest after a handful of battles, or when one side has won all of them."""
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def distribution(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """What happened over many battles: who won how often, how long they took, what each side lost."""
    total = len(outcomes)
    if total == 0:
        return {"runs": 0}
    winners = Counter("draw" if o["winner"] is None else str(o["winner"]) for o in outcomes)
    turns = [int(o["turns"]) for o in outcomes]
    result: dict[str, Any] = {
        "runs": total,
        "winners": {name: _share(n, total) for name, n in winners.most_common()},
        "reasons": dict(Counter(str(o["reason"]) for o in outcomes).most_common()),
        "turns": {
            "mean": round(statistics.fmean(turns), 2),
            "median": statistics.median(turns),
            "min": min(turns),
            "max": max(turns),
        },
    }
    sides: dict[str, dict[str, float]] = {}
    for outcome in outcomes:
        for side, figures in outcome.get("sides", {}).items():
            into = sides.setdefault(side, {})
            for key, value in figures.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    into[key] = into.get(key, 0) + value
    if sides:
        result["sides_mean"] = {
            side: {key: round(value / total, 3) for key, value in figures.items()} for side, figures in sides.items()
        }
    return result


def _share(battles: int, total: int) -> dict[str, Any]:
    low, high = wilson(battles, total)
    return {"battles": battles, "share": round(battles / total, 4), "low": round(low, 4), "high": round(high, 4)}
