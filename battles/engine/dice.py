"""Counter-based dice: every die is a pure function of (seed, stream, counter). See docs/engine.md.

The algorithm, so that anyone holding the seed can re-verify a battle's log:

    block(j)  = HMAC-SHA256(key=seed, msg=UTF-8 of f"{stream}|{counter}|{j}")    for j = 0, 1, 2, ...
    bytes     = block(0) || block(1) || ...
    k         = the fewest bytes with 256**k >= sides (k = 1 for every die up to a d256)
    limit     = 256**k - (256**k mod sides)
    face      = x mod sides + 1 for the first k-byte big-endian chunk x of ``bytes`` with x < limit

Rejecting chunks at or above ``limit`` keeps every face equally likely (no modulo bias). One die uses one
counter; a roll of n dice uses n consecutive counters of its stream. The battle's position in each stream
(the next counter) is part of the battle state, so replaying the log restores it exactly. Nothing here
uses Python's ``random``, whose algorithms may change between versions.

The seed is a server secret until the battle ends; ``commitment(seed)`` (SHA-256 hex) is published at the
start, so players can check afterwards that the seed they are shown is the one the battle used.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAIN = "main"


def new_seed() -> bytes:
    """A fresh secret seed for a battle."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public fingerprint of a seed: SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def _stream_bytes(seed: bytes, stream: str, counter: int) -> Iterable[int]:
    for block in range(1 << 16):  # 2**16 blocks without an acceptable chunk cannot happen in practice
        yield from _block(seed, stream, counter, block)
    raise RuntimeError("dice: no acceptable chunk in 2**16 blocks")  # pragma: no cover


def _block(seed: bytes, stream: str, counter: int, block: int) -> bytes:
    """The ``block``-th 32 bytes of the stream's die at ``counter``: HMAC-SHA256 (the one-shot ``hmac.digest``)."""
    return hmac.digest(seed, f"{stream}|{counter}|{block}".encode(), "sha256")


def face(seed: bytes, stream: str, counter: int, sides: int = 6) -> int:
    """The face of one die with ``sides`` faces at ``counter`` in ``stream`` (1..sides)."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    if counter < 0:
        raise ValueError("counters start at 0")
    width = max(1, ((sides - 1).bit_length() + 7) // 8)
    span = 256**width
    limit = span - span % sides
    if width == 1:  # every die the rules roll: the first acceptable byte, as the loop below finds it, sooner
        for block in range(1 << 16):
            for byte in _block(seed, stream, counter, block):
                if byte < limit:
                    return byte % sides + 1
    chunk: list[int] = []
    for byte in _stream_bytes(seed, stream, counter):
        chunk.append(byte)
        if len(chunk) == width:
            value = int.from_bytes(bytes(chunk), "big")
            if value < limit:
                return value % sides + 1
            chunk.clear()
    raise AssertionError("unreachable")  # pragma: no cover


def faces(seed: bytes, stream: str, counter: int, count: int, sides: int = 6) -> tuple[int, ...]:
    """``count`` dice from consecutive counters starting at ``counter``."""
    return tuple(face(seed, stream, counter + i, sides) for i in range(count))


# --- what a roll needs, and what it was -------------------------------------------------------------


@dataclass(frozen=True)
class Needed:
    """What a modified total must be, as data: the text for the log and the bands that judge it.

    ``bands`` are (low, high, outcome) with inclusive bounds, None meaning unbounded; the first band
    holding the total names the outcome, else ``otherwise``. With ``per_die`` each die, plus the roll's
    modifiers, is judged on its own instead (a salvo; quick-firers scoring each die), and the outcome
    counts them: "hit:2,critical:1,miss:3".
    """

    text: str
    bands: tuple[tuple[int | None, int | None, str], ...]
    otherwise: str = ""
    per_die: bool = False

    def judge(self, total: int) -> str:
        for low, high, outcome in self.bands:
            if (low is None or total >= low) and (high is None or total <= high):
                return outcome
        return self.otherwise

    def judge_dice(self, dice: Sequence[int], modifier: int) -> str:
        if not self.per_die:
            return self.judge(sum(dice) + modifier)
        counts: dict[str, int] = {}
        for die in dice:
            label = self.judge(die + modifier)
            counts[label] = counts.get(label, 0) + 1
        order = [outcome for _, _, outcome in self.bands] + [self.otherwise]
        return ",".join(f"{label}:{counts[label]}" for label in dict.fromkeys(order) if label in counts)


@dataclass(frozen=True)
class Judge:
    """What a roll needs when bands cannot say it (a per-die count with a second chance, "more than the
    jam or a natural 6"...): the text for the log and a function of (faces, total) naming the outcome."""

    text: str
    rule: Callable[[tuple[int, ...], int], str] = field(compare=False)

    def judge_dice(self, dice: Sequence[int], modifier: int) -> str:
        faces = tuple(dice)
        return self.rule(faces, sum(faces) + modifier)


def at_least(n: int, success: str = "success", failure: str = "failure") -> Needed:
    return Needed(f"{n}+", ((n, None, success),), failure)


def at_most(n: int, success: str = "success", failure: str = "failure") -> Needed:
    return Needed(f"{n} or less", ((None, n, success),), failure)


def table(text: str, bands: Sequence[tuple[int | None, int | None, str]], otherwise: str = "") -> Needed:
    """A roll on a table: each band of totals names a result."""
    return Needed(text, tuple(bands), otherwise)


def each_die(text: str, bands: Sequence[tuple[int | None, int | None, str]], otherwise: str = "") -> Needed:
    """Judge every die of a roll on its own, e.g. a salvo: 5-6 a hit, 3-4 a critical."""
    return Needed(text, tuple(bands), otherwise, per_die=True)


@dataclass(frozen=True)
class Roll:
    """One roll of one or more dice, as the log records it."""

    purpose: str
    stream: str
    counter: int
    sides: int
    dice: tuple[int, ...]
    modifiers: Mapping[str, int] = field(default_factory=dict)
    needed: str = ""
    outcome: str = ""

    @property
    def natural(self) -> int:
        return sum(self.dice)

    @property
    def total(self) -> int:
        return self.natural + sum(self.modifiers.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "stream": self.stream,
            "counter": self.counter,
            "sides": self.sides,
            "dice": list(self.dice),
            "modifiers": dict(self.modifiers),
            "total": self.total,
            "needed": self.needed,
            "outcome": self.outcome,
        }

    def plain_json(self) -> dict[str, Any] | None:
        """``to_json`` as the event log's ``plain`` copy spells it, built directly (keys in sorted order, fresh
        lists and objects): a roll event's data, the most frequent but one. None where a value is not exactly a str
        or an int (a subclass, a float): plain's JSON round trip has the last word on those."""
        mods = self.modifiers
        exact = (
            type(self.purpose) is str
            and type(self.stream) is str
            and type(self.needed) is str
            and type(self.outcome) is str
            and type(self.counter) is int
            and type(self.sides) is int
            and all(type(die) is int for die in self.dice)
            and all(type(key) is str for key in mods)
            and all(type(value) is int for value in mods.values())
        )
        if not exact:
            return None
        return {
            "counter": self.counter,
            "dice": list(self.dice),
            "modifiers": dict(sorted(mods.items())),
            "needed": self.needed,
            "outcome": self.outcome,
            "purpose": self.purpose,
            "sides": self.sides,
            "stream": self.stream,
            "total": self.total,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Roll:
        return cls(
            purpose=str(data["purpose"]),
            stream=str(data["stream"]),
            counter=int(data["counter"]),
            sides=int(data["sides"]),
            dice=tuple(int(d) for d in data["dice"]),
            modifiers={str(k): int(v) for k, v in data["modifiers"].items()},
            needed=str(data["needed"]),
            outcome=str(data["outcome"]),
        )


def make_roll(
    seed: bytes,
    purpose: str,
    *,
    stream: str,
    counter: int,
    count: int = 1,
    sides: int = 6,
    modifiers: Mapping[str, int] | None = None,
    needed: Needed | Judge | None = None,
) -> Roll:
    """Roll ``count`` dice at a known position. Pure: the same arguments give the same Roll."""
    if count < 1:
        raise ValueError("roll at least one die")
    mods = dict(modifiers or {})
    rolled = faces(seed, stream, counter, count, sides)
    return Roll(
        purpose=purpose,
        stream=stream,
        counter=counter,
        sides=sides,
        dice=rolled,
        modifiers=mods,
        needed=needed.text if needed else "",
        outcome=needed.judge_dice(rolled, sum(mods.values())) if needed else "",
    )


@dataclass(frozen=True)
class Dice:
    """The dice of one battle at one position: the seed and the next counter of each stream.

    Immutable: ``roll`` returns the roll and the dice moved on. The battle state keeps the counters;
    the seed never goes into the state or the log.
    """

    seed: bytes = field(repr=False)
    counters: Mapping[str, int] = field(default_factory=dict)

    def position(self, stream: str = MAIN) -> int:
        return self.counters.get(stream, 0)

    def roll(
        self,
        purpose: str,
        *,
        count: int = 1,
        sides: int = 6,
        modifiers: Mapping[str, int] | None = None,
        needed: Needed | Judge | None = None,
        stream: str = MAIN,
    ) -> tuple[Roll, Dice]:
        start = self.position(stream)
        result = make_roll(
            self.seed,
            purpose,
            stream=stream,
            counter=start,
            count=count,
            sides=sides,
            modifiers=modifiers,
            needed=needed,
        )
        return result, Dice(self.seed, {**self.counters, stream: start + count})


# --- verification ---------------------------------------------------------------------------------


def verify(seed: bytes, roll: Roll | Mapping[str, Any]) -> bool:
    """Does the logged roll match what the seed gives at its stream and counter (faces and total)?"""
    logged = roll if isinstance(roll, Roll) else Roll.from_json(roll)
    recomputed = faces(seed, logged.stream, logged.counter, len(logged.dice), logged.sides)
    if recomputed != logged.dice:
        return False
    return isinstance(roll, Roll) or int(roll["total"]) == logged.total


def verify_log(seed: bytes, events: Iterable[Mapping[str, Any]], published_commitment: str = "") -> list[str]:
    """Check a whole log of JSON events against the seed; an empty list means it verifies.

    Every roll's faces and total must be what the seed gives, and each stream's counters must run on
    without gaps or reuse, so no roll was made and quietly dropped.
    """
    problems = []
    if published_commitment and commitment(seed) != published_commitment:
        problems.append("the seed does not match the published commitment")
    expected: dict[str, int] = {}
    for event in events:
        if event.get("kind") != "roll":
            continue
        where = f"event {event.get('seq')}"
        stream, counter = str(event["stream"]), int(event["counter"])
        if counter != expected.get(stream, 0):
            wanted = expected.get(stream, 0)
            problems.append(f"{where}: stream {stream!r} counter {counter}, expected {wanted}")
        expected[stream] = counter + len(event["dice"])
        if not verify(seed, event):
            problems.append(f"{where}: the dice or total do not match the seed")
    return problems
