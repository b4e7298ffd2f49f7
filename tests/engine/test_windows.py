"""Submission windows counted off a log (battles/engine/windows.py): the decisions of one batch left to a side are
one submission; one answered by a standing order is none."""

from __future__ import annotations

from typing import Any

from battles.engine import windows
from battles.engine.events import DECISION, DECISION_REQUESTED, DECISIONS, Event


class Log:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, turn: int, kind: str, **data: Any) -> None:
        self.events.append(Event(seq=len(self.events), turn=turn, phase="", kind=kind, data=data))

    def batch(self, turn: int, asked: list[tuple[str, str]], standing: tuple[str, ...] = ()) -> None:
        """Requests (id, side) asked together, answered (those in ``standing`` by standing order), closed."""
        for request_id, side in asked:
            self.add(turn, DECISION_REQUESTED, request={"id": request_id, "side": side})
        for request_id, side in asked:
            flag = {"standing": True} if request_id in standing else {}
            self.add(turn, DECISION, request=request_id, side=side, choice=None, **flag)
        self.add(turn, DECISIONS, answers={}, order=[r for r, _ in asked])


def test_requests_open_together_are_one_submission_per_side() -> None:
    log = Log()
    log.batch(1, [("d0", "a"), ("d1", "b")])  # the orders: both sides at once
    log.batch(1, [("d2", "a"), ("d3", "a"), ("d4", "a")])  # a's three ships' moves
    log.batch(1, [("d5", "a"), ("d6", "b")], standing=("d5", "d6"))  # fire by standing order
    log.batch(1, [("d7", "b")])  # b's one ship's move
    log.batch(2, [("d8", "a")])
    assert windows.windows(log.events) == {(1, "a"): 2, (1, "b"): 2, (2, "a"): 1}
    assert windows.per_turn(windows.windows(log.events), "a") == {1: 2, 2: 1}


def test_figures_count_every_side_turn_and_share_within_two() -> None:
    log = Log()
    for n in range(3):
        log.batch(1, [(f"d{n}", "a")])  # a is asked three times in turn 1
    figures = windows.figures([(log.events, ["a", "b"], 2)])
    assert (figures.turns, figures.most, figures.median) == (4, 3, 0)
    assert figures.within_two == 0.75
    assert figures.p95 == 3


def test_the_umpires_own_decision_is_no_sides_submission() -> None:
    """The go-ahead before a card (DecisionRequest.umpire) is logged under a side but answered by the umpire: the
    side never sits down for it."""
    log = Log()
    log.add(1, DECISION_REQUESTED, request={"id": "d0", "side": "a", "umpire": True})
    log.add(1, DECISION, request="d0", side="a", choice="turn")
    log.add(1, DECISIONS, answers={}, order=["d0"])
    log.batch(1, [("d1", "a")])  # her move
    assert windows.windows(log.events) == {(1, "a"): 1}
