"""The one chance an AI captain takes: which of the answers scored alike (battles.engine.dice, never ``random``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from battles.engine import dice

T = TypeVar("T")


def alike(scored: Sequence[tuple[float, T]], near: float) -> list[T]:
    """The answers scored within ``near`` of the best, in the order given (empty for no answers)."""
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [answer for score, answer in scored if score >= best - near]


def pick(answers: Sequence[T], seed: bytes, stream: str) -> T:
    """One of ``answers`` by a die on ``stream`` of the captain's own ``seed``: the same seed, the same pick."""
    return answers[dice.face(seed, stream, 0, len(answers)) - 1]
