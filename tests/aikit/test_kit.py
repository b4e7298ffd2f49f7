"""The AI kit (battles/aikit): the memo by identity, the seeded tie-break, and the bounded search."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from battles.aikit import odds, search, ties
from battles.aikit.memo import Memo


@dataclass(frozen=True)
class Ship:
    name: str


def test_the_memo_keeps_a_value_for_the_very_object_not_an_equal_one() -> None:
    made: list[str] = []
    memo: Memo[str] = Memo()

    def make(ship: Ship) -> str:
        made.append(ship.name)
        return ship.name.upper()

    first, twin = Ship("Belle"), Ship("Belle")
    assert memo.get((first,), "guns", lambda: make(first)) == "BELLE"
    assert memo.get((first,), "guns", lambda: make(first)) == "BELLE"
    assert memo.get((twin,), "guns", lambda: make(twin)) == "BELLE"  # equal, but another object: worked out again
    assert memo.get((first,), "other", lambda: make(first)) == "BELLE"  # another key
    assert made == ["Belle", "Belle", "Belle"]


def test_the_memo_starts_afresh_at_its_limit() -> None:
    memo: Memo[int] = Memo(limit=3)
    ships = [Ship(str(n)) for n in range(4)]
    for n, ship in enumerate(ships):
        memo.get((ship,), None, lambda n=n: n)
    assert len(memo) == 1  # the fourth found it full and cleared it


def test_alike_keeps_the_answers_near_the_best_in_their_order() -> None:
    scored = [(1.0, "a"), (3.0, "b"), (2.95, "c"), (2.0, "d"), (3.0, "e")]
    assert ties.alike(scored, 0.1) == ["b", "c", "e"]
    assert ties.alike([], 0.1) == []


def test_the_pick_is_the_seeds_and_every_answer_can_come_up() -> None:
    answers = ["a", "b", "c"]
    assert ties.pick(answers, b"seed", "policy|x|1") == ties.pick(answers, b"seed", "policy|x|1")
    picked = {ties.pick(answers, b"seed", f"policy|x|{n}") for n in range(60)}
    assert picked == set(answers)


def test_the_bounded_search_gives_exactly_the_alike_answers_a_full_scoring_gives() -> None:
    """Random scores with random bounds above them: within() leaves unscored only what could not be alike, and
    scores calls only a part of the candidates."""
    rng = random.Random(21)
    for _ in range(200):
        scores = [round(rng.uniform(-10, 10), 2) for _ in range(rng.randint(1, 60))]
        bounds = [s + rng.choice([0.0, 0.05, rng.uniform(0, 5)]) for s in scores]
        calls: list[int] = []
        finer = [min(b, s + rng.choice([0.0, 0.5])) for b, s in zip(bounds, scores, strict=True)]
        full = ties.alike([(s, i) for i, s in enumerate(scores)], 0.1)
        for tighter in (None, finer.__getitem__):
            calls.clear()
            found = search.within(range(len(scores)), bounds.__getitem__, scored_by(scores, calls), 0.1, finer=tighter)
            assert [i for i, value in enumerate(found) if value is not None] == full
            assert all(found[i] == scores[i] for i in full)
            assert len(calls) == len(set(calls))  # each scored at most once


def scored_by(scores: list[float], calls: list[int]) -> Callable[[int], float]:
    def score(i: int) -> float:
        calls.append(i)
        return scores[i]

    return score


def test_with_tight_bounds_the_search_scores_few() -> None:
    scores = list(range(100))
    calls: list[int] = []
    search.within(scores, float, lambda i: calls.append(i) or float(i), 0.1)
    assert calls == [99]  # the best; 98's bound is already more than 0.1 below it


def test_one_die_against_a_score() -> None:
    assert odds.at_least(3) == 4 / 6
    assert odds.at_least(5, bonus=1) == 3 / 6
    assert odds.at_least(7) == 0.0
    assert odds.at_least(7, bonus=1) == 1 / 6
    assert odds.at_least(1) == odds.at_least(-2) == 1.0


def test_two_dice_against_each_other_by_counting_faces() -> None:
    assert odds.beats() == 15 / 36  # equal scores are no win
    assert odds.beats(1) == 21 / 36
    assert odds.beats(0, 1) == 10 / 36
    assert odds.beats(1, 1) == odds.beats()
    assert odds.beats(6) == 1.0


def test_any_of_several_dice() -> None:
    assert odds.any_of(0.5, 2) == 0.75
    assert odds.any_of(1 / 6, 0) == 0.0
