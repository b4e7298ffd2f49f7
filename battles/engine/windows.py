"""Submission windows: how many times a battle asks each side to sit down and answer, turn by turn.

A side answers in windows, not prompts: every decision open to it at one moment is one submission (one form,
one "Send orders"; the app answers them together), and a decision its standing orders answered was never
put to it at all, nor was one the umpire answers (``DecisionRequest.umpire``: the go-ahead before a card).
Read off the log: the decisions asked between two closed batches (``decisions`` events) are open together, so
each side with at least one of them left to answer by hand has one window there. Any ruleset: the log's engine
events are all this reads.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from battles.engine.decisions import STANDING
from battles.engine.events import DECISION, DECISION_REQUESTED, DECISIONS, Event


def windows(events: Iterable[Event]) -> Counter[tuple[int, str]]:
    """Submission windows per (turn, side), from a battle's full log."""
    counted: Counter[tuple[int, str]] = Counter()
    asked: dict[str, tuple[int, str]] = {}  # open request id -> (turn, side)
    by_hand: set[str] = set()
    for event in events:
        if event.kind == DECISION_REQUESTED:
            request = event.data["request"]
            assert isinstance(request, dict)
            if not request.get("umpire"):  # the umpire's, not the side's to sit down for
                asked[str(request["id"])] = (event.turn, str(request["side"]))
        elif event.kind == DECISION and not event.data.get(STANDING):
            by_hand.add(str(event.data["request"]))
        elif event.kind == DECISIONS:
            counted.update({asked[r] for r in by_hand if r in asked})
            asked, by_hand = {}, set()
    return counted


@dataclass(frozen=True)
class WindowFigures:
    """Submissions per side per turn over a set of battles: every turn a side fought counts, none asked
    being 0."""

    turns: int
    median: float
    p95: float
    most: int
    within_two: float  # the share of side-turns with at most two submissions

    def line(self) -> str:
        return (
            f"median {self.median:g}, p95 {self.p95:g}, max {self.most}, "
            f"{self.within_two:.0%} of {self.turns} side-turns at most 2"
        )


def figures(battles: Sequence[tuple[Iterable[Event], Sequence[str], int]]) -> WindowFigures:
    """The figures over ``battles``: each its log, its sides and the turns it lasted (turn 1 on; set-up is
    turn 0 and counted apart)."""
    counts: list[int] = []
    for events, sides, turns in battles:
        counted = windows(events)
        counts += [counted.get((turn, side), 0) for turn in range(1, turns + 1) for side in sides]
    if not counts:
        return WindowFigures(0, 0, 0, 0, 1.0)
    ordered = sorted(counts)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    within = sum(1 for n in counts if n <= 2) / len(counts)
    return WindowFigures(len(counts), statistics.median(counts), p95, max(counts), within)


def per_turn(counted: Mapping[tuple[int, str], int], side: str) -> dict[int, int]:
    """One side's windows by turn."""
    return {turn: n for (turn, s), n in sorted(counted.items()) if s == side}
