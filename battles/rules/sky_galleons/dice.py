"""The dice and the log of a Sky Galleons rule step (SG-FIRE, SG-DMG and every module that rolls).

Below combat and every other rules module: a step takes a :class:`Roller` and writes each roll and effect
down as a plain dict (:data:`Happening`) through :class:`_Log`. Tests hand in :class:`FixedDice`. Kept apart
from combat.py so the modules combat asks (class_rules.py) can log without importing combat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

Happening = dict[str, Any]


Judgement = Callable[[tuple[int, ...], int], str]


class Roller(Protocol):
    """The dice: ``count`` dice of ``sides`` sides for ``purpose``, their faces in order.

    The roll's modifiers, what it needs, how its outcome is judged from (faces, total) and the ship it
    concerns come along, so a ruleset can log the roll whole as it happens; a test roller may ignore them.
    """

    def __call__(
        self,
        purpose: str,
        count: int,
        sides: int,
        *,
        modifiers: Mapping[str, int],
        needed: str,
        judge: Judgement,
        ship: str,
    ) -> tuple[int, ...]: ...


class DiceExhausted(LookupError):
    """A :class:`FixedDice` was asked for more dice than it was given."""


class FixedDice:
    """A roller that hands out the faces it was given, in order, and remembers what each roll was for.

    For tests and worked examples: ``FixedDice(5, 2, 6)``. A face outside the die's sides is an error, so
    a test cannot quietly feed a 6 to a 2-sided pick. ``left`` is what was not used.
    """

    def __init__(self, *faces: int) -> None:
        self._faces = list(faces)
        self.calls: list[tuple[str, tuple[int, ...], int]] = []

    def __call__(self, purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
        if len(self._faces) < count:
            raise DiceExhausted(f"{purpose}: wanted {count} dice, {len(self._faces)} left")
        rolled = tuple(self._faces[:count])
        del self._faces[:count]
        bad = [face for face in rolled if not 1 <= face <= sides]
        if bad:
            raise ValueError(f"{purpose}: faces {bad} on a {sides}-sided die")
        self.calls.append((purpose, rolled, sides))
        return rolled

    @property
    def left(self) -> tuple[int, ...]:
        return tuple(self._faces)

    @property
    def purposes(self) -> list[str]:
        return [purpose for purpose, _, _ in self.calls]


# --- the log -------------------------------------------------------------------------------------------


class _Log:
    """Rolls through the roller and writes down every roll and effect as a plain dict."""

    def __init__(self, roller: Roller) -> None:
        self.roller = roller
        self.happened: list[Happening] = []

    def roll(
        self,
        purpose: str,
        *,
        ship: str,
        clauses: Sequence[str],
        needed: str,
        judge: Callable[[tuple[int, ...], int], str],
        count: int = 1,
        sides: int = 6,
        modifiers: Mapping[str, int] | None = None,
    ) -> tuple[int, ...]:
        mods = dict(modifiers or {})
        faces = tuple(self.roller(purpose, count, sides, modifiers=mods, needed=needed, judge=judge, ship=ship))
        if len(faces) != count or any(not 1 <= face <= sides for face in faces):
            raise ValueError(f"{purpose}: the roller gave {faces} for {count}d{sides}")
        total = sum(faces) + sum(mods.values())
        self.happened.append(
            {
                "ship": ship,
                "purpose": purpose,
                "faces": list(faces),
                "modifiers": mods,
                "total": total,
                "needed": needed,
                "outcome": judge(faces, total),
                "clauses": list(clauses),
            }
        )
        return faces

    def pick(self, purpose: str, items: Sequence[T], *, ship: str, clauses: Sequence[str]) -> T:
        """One of ``items`` by a die with as many sides (no roll when there is only one)."""
        if not items:
            raise ValueError(f"{purpose}: nothing to pick from")
        if len(items) == 1:
            return items[0]
        labels = [str(item) for item in items]
        (face,) = self.roll(
            purpose,
            ship=ship,
            clauses=clauses,
            sides=len(items),
            needed=f"1-{len(items)}",
            judge=lambda faces, _total: labels[faces[0] - 1],
        )
        return items[face - 1]

    def note(self, purpose: str, *, ship: str, clauses: Sequence[str], outcome: str) -> None:
        self.happened.append(note(purpose, ship=ship, clauses=clauses, outcome=outcome))


def note(purpose: str, *, ship: str, clauses: Sequence[str], outcome: str) -> Happening:
    """A rule's effect without dice, as a happening."""
    return {
        "ship": ship,
        "purpose": purpose,
        "faces": [],
        "modifiers": {},
        "total": None,
        "needed": "",
        "outcome": outcome,
        "clauses": list(clauses),
    }


def _no_dice(purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
    raise AssertionError(f"{purpose}: this step rolls no dice")
