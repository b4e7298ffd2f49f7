"""Tiny rulesets for the engine's own tests: one that works, and some that break the protocol."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.dice import at_least
from battles.engine.events import DECISIONS, JSON, Event
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState


@dataclass(frozen=True)
class Tally:
    turns: int
    scores: Mapping[str, int] = field(default_factory=dict)
    bids: Mapping[str, int] = field(default_factory=dict)


class Bidding(BaseRuleset[Tally]):
    """Each turn both sides bid 0-2 in secret; a die roll of 4+ doubles the higher bid's score."""

    key = "toy-bidding"
    version = "1"
    title = "Toy bidding"
    options = (OptionSpec("secret", True, "bids are secret", choices=(True, False)),)

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Tally]:
        turns = scenario.get("turns", 2)
        assert isinstance(turns, int)
        return Setup(sides=("a", "b"), board=Tally(turns=turns, scores={"a": 0, "b": 0}))

    def board_to_json(self, board: Tally) -> JSON:
        return {"turns": board.turns, "scores": dict(board.scores), "bids": dict(board.bids)}

    def board_from_json(self, data: JSON) -> Tally:
        assert isinstance(data, dict)
        turns, scores, bids = data["turns"], data["scores"], data["bids"]
        assert isinstance(turns, int)
        assert isinstance(scores, dict)
        assert isinstance(bids, dict)
        return Tally(turns, {k: int(str(v)) for k, v in scores.items()}, {k: int(str(v)) for k, v in bids.items()})

    def advance(self, ctx: Context[Tally]) -> None:
        if ctx.state.phase in ("setup", "score"):
            if ctx.state.phase == "score":
                self._score(ctx)
                if ctx.state.turn >= ctx.board.turns:
                    winner = max(ctx.board.scores, key=lambda s: (ctx.board.scores[s], s))
                    ctx.end_battle(winner, "most points")
                    return
            ctx.begin_turn()
            ctx.begin_phase("bid")
            for side in ctx.state.sides:
                ctx.request(
                    side, "bid", rule="TOY-BID-01", options=[0, 1, 2], default=0, secret=bool(ctx.option("secret"))
                )
        elif ctx.state.phase == "bid":
            ctx.begin_phase("score")

    def _score(self, ctx: Context[Tally]) -> None:
        bids = ctx.board.bids
        best = max(bids, key=lambda s: (bids[s], s))
        luck = ctx.roll(f"luck for {best}", needed=at_least(4, "double", "single"))
        points = bids[best] * (2 if luck.outcome == "double" else 1)
        ctx.emit("scored", {"side": best, "points": points})

    def apply(self, state: BattleState[Tally], event: Event) -> Tally:
        board = state.board
        if event.kind == DECISIONS:
            answers = event.data["answers"]
            assert isinstance(answers, dict)
            bids = {str(a["side"]): int(str(a["choice"])) for a in answers.values() if isinstance(a, dict)}
            return replace(board, bids=bids)
        if event.kind == "scored":
            side, points = str(event.data["side"]), int(str(event.data["points"]))
            return replace(board, scores={**board.scores, side: board.scores[side] + points})
        return board

    def check_invariants(self, state: BattleState[Tally]) -> list[str]:
        return [f"{s} below zero" for s, v in state.board.scores.items() if v < 0]


class Open(Bidding):
    """Like Bidding, but the bid is open-ended and checked by the ruleset."""

    key = "toy-open"

    def advance(self, ctx: Context[Tally]) -> None:
        if ctx.state.phase == "setup":
            ctx.begin_turn()
            ctx.begin_phase("bid")
            ctx.request("a", "bid", rule="TOY-BID-02", default=1)
        else:
            ctx.end_battle("a", "done")

    def validate(self, state: BattleState[Tally], request: DecisionRequest, choice: JSON) -> Rejection | None:
        if not isinstance(choice, int) or not 0 < choice < 10:
            return Rejection("TOY-BID-02", "a bid is a whole number from 1 to 9")
        return None


class Stalls(Bidding):
    key = "toy-stalls"

    def advance(self, ctx: Context[Tally]) -> None:
        return None


class Runaway(Bidding):
    key = "toy-runaway"

    def advance(self, ctx: Context[Tally]) -> None:
        while True:
            ctx.emit("tick")


class Misbehaves(Bidding):
    """Does whatever the test sets ``self.mistake`` to."""

    key = "toy-misbehaves"
    mistake = "reserved"

    def advance(self, ctx: Context[Tally]) -> None:
        if self.mistake == "reserved":
            ctx.emit("roll", {"dice": [6]})
        elif self.mistake == "envelope":
            ctx.emit("note", {"seq": 99})
        elif self.mistake == "not json":
            ctx.emit("note", {"when": object()})
        elif self.mistake == "bad default":
            ctx.request("a", "bid", rule="TOY-BID-01", options=[1, 2], default=3)
        elif self.mistake == "no side":
            ctx.request("z", "bid", rule="TOY-BID-01", options=[1])
