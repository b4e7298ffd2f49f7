"""Auto-resolve battles with AI policies, once or many times: the odds calculator.

``simulate`` plays one battle from a scenario with every side run by the ruleset's AI (its ``ai_policy``)
and returns the log and the ruleset's figures (its ``tally``). ``odds`` plays ``runs``
battles on seeds derived from one number and sums the outcomes up into a distribution. Pure and
deterministic: the same number gives the same battles, event for event.
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine import dice, policies, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, Event
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


def distribution(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """What happened over many battles: who won how often, how long they took, what each side lost."""
    total = len(outcomes)
    if total == 0:
        return {"runs": 0}
    winners = Counter("draw" if o["winner"] is None else str(o["winner"]) for o in outcomes)
    turns = [int(o["turns"]) for o in outcomes]
    result: dict[str, Any] = {
        "runs": total,
        "winners": {name: {"battles": n, "share": round(n / total, 4)} for name, n in winners.most_common()},
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
