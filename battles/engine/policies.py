"""AI policies: who answers a decision when no human does (auto-resolve, non-player ships, defaults).

A policy sees the battle as its side may see it (``redact``) and picks one answer from the ruleset's
legal candidates. It must be deterministic: any chance comes from counter-based dice, so a battle played
by policies replays exactly. Ruleset tactics (Sky Galleons captains who close and board...) are policies
living with their ruleset; the engine only ships the protocol and two baselines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from battles.engine import dice
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event
from battles.engine.resolver import Accepted, EngineError, resolve, submit
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState, redact


class Policy(Protocol):
    name: str

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        """An answer to ``request``; ``state`` is already redacted for the request's side."""
        ...


class DefaultPolicy:
    """Always the request's default: what happens when a side lets its deadline pass."""

    name = "default"

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        return request.default


class RandomPolicy:
    """Uniformly one of the ruleset's legal candidates, from its own counter-based dice stream.

    The stream is named after the policy and the request, so a choice depends only on the seed and
    the request: replaying or re-running a battle makes the same choices.
    """

    def __init__(self, seed: bytes, name: str = "random") -> None:
        self._seed = seed
        self.name = name

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        candidates = list(ruleset.candidates(state, request))
        if not candidates:
            return request.default
        pick = dice.face(self._seed, f"policy|{self.name}|{request.side}|{request.id}", 0, len(candidates))
        return candidates[pick - 1]


class StalledBattle(EngineError):
    """Policies made more decisions than allowed without the battle ending."""


def auto_play(
    ruleset: Ruleset[Any],
    state: BattleState[Any],
    *,
    seed: bytes,
    policies: Mapping[str, Policy],
    max_decisions: int = 10_000,
) -> Accepted[Any]:
    """Let policies answer every decision until the battle ends. Sides without a policy stop play:
    the result then has their decisions open (a human still to move)."""
    first = resolve(ruleset, state, seed)
    state, events = first.state, list(first.events)
    made = 0
    while not state.over:
        ready = [r for r in state.pending() if r.side in policies]
        if not ready:
            break
        request = ready[0]
        if made >= max_decisions:
            raise StalledBattle(f"{ruleset.key}: no end after {max_decisions} decisions")
        policy = policies[request.side]
        choice = policy.choose(ruleset, redact(state, request.side), request)
        outcome = submit(ruleset, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
        if isinstance(outcome, Rejection):
            raise EngineError(f"policy {policy.name} made an illegal decision for {request.id}: {outcome}")
        state, events = outcome.state, _join(events, outcome.events)
        made += 1
    return Accepted(state, events)


def _join(events: list[Event], more: list[Event]) -> list[Event]:
    events.extend(more)
    return events
