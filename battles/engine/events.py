"""Events: the battle log. A battle is its initial state plus these, in order; see docs/engine.md.

An event serialises flat: the envelope (seq, turn, phase, kind, ships, visibility) and the kind's own
fields side by side, e.g. a roll::

    {"kind": "roll", "purpose": "to hit", "dice": [5], "modifiers": {"altitude": -1}, "total": 4,
     "needed": "3+", "outcome": "hit", "stream": "main", "counter": 17, "sides": 6,
     "seq": 42, "turn": 3, "phase": "fire", "ships": ["Aphid", "Swiftwood"], "visibility": "public"}
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None
JSONObject: TypeAlias = dict[str, JSON]


def canonical(value: Any) -> str:
    """The one JSON spelling used for logs, state and comparisons: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def plain(value: Any) -> JSON:
    """``value`` as plain JSON data (tuples become lists); raises on anything JSON cannot carry.

    Everything an event carries passes through here before it is applied, so a live battle folds
    exactly the same data a replay reads back from the log.
    """
    try:
        return _copy(value)
    except _Unusual:  # anything but plain dicts with string keys, lists, tuples and exact scalars
        result: JSON = json.loads(canonical(value))
        return result


class _Unusual(Exception):
    """A value ``_copy`` leaves to the JSON round trip (a subclass, a non-string key, a NaN...)."""


def _copy(value: Any) -> JSON:
    """What ``json.loads(canonical(value))`` gives, built directly for the common shapes: objects with their keys
    sorted (as the round trip orders them), tuples as lists, fresh containers. The round trip ran for every
    event and cost more than most folds; anything it would treat specially goes to it instead."""
    kind = type(value)
    if kind in _ATOMS:
        return value  # type: ignore[no-any-return]
    if kind is dict:
        if not {*map(type, value)} <= _TEXT:  # keys of exactly str (the quickest test of them all)
            raise _Unusual
        return {key: item if type(item) in _ATOMS else _copy(item) for key, item in sorted(value.items())}
    if kind is list or kind is tuple:
        return [item if type(item) in _ATOMS else _copy(item) for item in value]
    if kind is float and math.isfinite(value):
        return value  # type: ignore[no-any-return]
    raise _Unusual


_TEXT = frozenset({str})
_ATOMS = frozenset({str, int, bool, type(None)})  # exactly these types: a subclass (an enum) takes the round trip


PUBLIC = "public"


def side_only(side: str) -> str:
    """The visibility of an event only ``side`` (and the umpire) may see."""
    return f"side:{side}"


# Kinds the engine itself emits and folds; a ruleset's own events use other names.
ROLL = "roll"
TURN = "turn"
PHASE = "phase"
DECISION_REQUESTED = "decision_requested"
DECISION = "decision"
DECISIONS = "decisions"
BATTLE_ENDED = "battle_ended"
ENGINE_KINDS = frozenset({ROLL, TURN, PHASE, DECISION_REQUESTED, DECISION, DECISIONS, BATTLE_ENDED})

ENVELOPE = ("seq", "turn", "phase", "kind", "ships", "visibility")


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``data`` is plain JSON and must never be mutated."""

    seq: int
    turn: int
    phase: str
    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    ships: tuple[str, ...] = ()
    visibility: str = PUBLIC
    # What the ruleset built ``data`` from, where its fold would only parse the data back into it (a ship's new
    # record): an immutable value the fold may take as it is. Never logged and never compared: an event read
    # back from the log has none, and its fold parses the data (Context.emit's ``source``).
    source: Any = field(default=None, compare=False, repr=False)  # Any, not object: mypyc resolves the name at import

    def to_json(self) -> JSONObject:
        envelope: JSONObject = {
            "seq": self.seq,
            "turn": self.turn,
            "phase": self.phase,
            "kind": self.kind,
            "ships": list(self.ships),
            "visibility": self.visibility,
        }
        return {**self.data, **envelope}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k not in ENVELOPE}
        return cls(
            seq=int(data["seq"]),
            turn=int(data["turn"]),
            phase=str(data["phase"]),
            kind=str(data["kind"]),
            data=rest,
            ships=tuple(str(s) for s in data["ships"]),
            visibility=str(data["visibility"]),
        )

    def visible_to(self, side: str | None) -> bool:
        """May ``side`` see this event? ``None`` is the umpire, who sees everything."""
        return side is None or self.visibility in (PUBLIC, side_only(side))


def events_to_json(events: Iterable[Event]) -> str:
    return canonical([e.to_json() for e in events])


def events_from_json(text: str) -> list[Event]:
    return [Event.from_json(item) for item in json.loads(text)]


def visible_events(events: Iterable[Event], side: str | None) -> list[Event]:
    """The part of the log a side may see: public events and its own secret ones."""
    return [e for e in events if e.visible_to(side)]
