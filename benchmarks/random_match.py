"""What the rulesets' AI-against-random benchmarks share (cloudships_ai, ironclads_ai): a battle with each side played
by the ruleset's AI captain or by random legal play, and the tally of the captain's wins."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine import dice, policies, resolver, simulate
from battles.engine.policies import Policy
from battles.engine.ruleset import Ruleset


@dataclass(frozen=True)
class Match:
    battles: int
    wins: int
    draws: int
    what: str = ""  # the scenarios played, for the line

    @property
    def share(self) -> float:
        return self.wins / self.battles

    def line(self) -> str:
        low, high = simulate.wilson(self.wins, self.battles)
        where = f"{self.what}, " if self.what else ""
        return (
            f"{where}captain vs random: {self.wins} wins of {self.battles} ({self.share:.0%}, "
            f"95% {low:.0%}..{high:.0%}), {self.draws} draws"
        )


def policy(rs: Ruleset[Any], kind: str, seed: bytes, side: str) -> Policy:
    if kind == "captain":
        return rs.ai_policy(seed + b"|" + side.encode(), side)
    return policies.RandomPolicy(seed + b"|" + side.encode(), f"random {side}")


def play(rs: Ruleset[Any], data: Mapping[str, Any], seed: bytes, kinds: Mapping[str, str]) -> str | None:
    """One battle with each side played by ``kinds[side]`` (captain or random): the winner."""
    initial = resolver.new_battle(rs, data, seed_commitment=dice.commitment(seed))
    chosen = {side: policy(rs, kinds[side], seed, side) for side in initial.sides}
    return policies.auto_play(rs, initial, seed=seed, policies=chosen).state.winner


def tally(rs: Ruleset[Any], data: Mapping[str, Any], runs: int, number: int) -> tuple[int, int, int]:
    """Each seed played once with the captain in each seat and random play in the others: battles, wins, draws."""
    sides = tuple(str(side["key"]) for side in data["sides"])
    wins = draws = 0
    for run in range(runs):
        seed = simulate.seed_for(number, run)
        for mine in sides:
            winner = play(rs, data, seed, {side: "captain" if side == mine else "random" for side in sides})
            wins += winner == mine
            draws += winner is None
    return runs * len(sides), wins, draws
