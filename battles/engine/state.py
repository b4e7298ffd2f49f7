"""The battle state: the engine's envelope around a ruleset's own board. Plain, immutable, JSON-able.

The engine owns the envelope (turn, phase, dice position, open decisions, result); the ruleset owns
``board``, of whatever immutable type it likes, and tells the engine how to (de)serialise it. Nothing
changes a state in place: the resolver's fold makes a new one for every event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Protocol, TypeVar

from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, JSONObject, canonical

B = TypeVar("B")


class BoardCodec(Protocol[B]):
    """How a ruleset turns its board into JSON and back (every Ruleset is one)."""

    def board_to_json(self, board: B) -> JSON: ...

    def board_from_json(self, data: JSON) -> B: ...


@dataclass(frozen=True)
class BattleState(Generic[B]):
    """Everything needed to carry on a battle, except the secret dice seed."""

    ruleset: str
    version: str
    options: Mapping[str, JSON]
    sides: tuple[str, ...]
    seed_commitment: str
    board: B
    seq: int = 0  # how many events have been applied = the next event's number
    turn: int = 0
    phase: str = "setup"
    dice: Mapping[str, int] = field(default_factory=dict)  # next counter per dice stream
    requests: tuple[DecisionRequest, ...] = ()  # the open batch; resolution waits until all answered
    answers: Mapping[str, JSON] = field(default_factory=dict)  # request id -> choice, this batch
    asked: int = 0  # decisions requested so far: the next request's number (its id, d<asked>)
    over: bool = False
    winner: str | None = None
    result: str = ""

    def request(self, request_id: str) -> DecisionRequest | None:
        return next((r for r in self.requests if r.id == request_id), None)

    def pending(self, side: str | None = None) -> list[DecisionRequest]:
        """Open requests not yet answered, for one side or (None) for all."""
        return [r for r in self.requests if r.id not in self.answers and (side is None or r.side == side)]

    def evolve(self, **changes: Any) -> BattleState[B]:
        """The state with ``changes``: what ``dataclasses.replace`` gives, without its per-field ``__init__``
        (the resolver makes two new states for every event, and replace was a tenth of a battle's CPU).
        No field has a default factory or a ``__post_init__`` to re-run, so copying the fields is the same."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"BattleState has no field {sorted(unknown)}")
        new = object.__new__(type(self))
        fields_ = new.__dict__
        fields_.update(self.__dict__)
        fields_.update(changes)
        return new


_STATE_FIELDS = frozenset(f.name for f in fields(BattleState))


def redact(state: BattleState[B], side: str | None) -> BattleState[B]:
    """The state as ``side`` may see it: other sides' secret answers not yet revealed are removed."""
    if side is None:
        return state
    hidden = {r.id for r in state.requests if r.secret and r.side != side}
    if not hidden & set(state.answers):
        return state
    return state.evolve(answers={k: v for k, v in state.answers.items() if k not in hidden})


def state_to_data(codec: BoardCodec[B], state: BattleState[B]) -> JSONObject:
    return {
        "ruleset": state.ruleset,
        "version": state.version,
        "options": dict(state.options),
        "sides": list(state.sides),
        "seed_commitment": state.seed_commitment,
        "board": codec.board_to_json(state.board),
        "seq": state.seq,
        "turn": state.turn,
        "phase": state.phase,
        "dice": dict(state.dice),
        "requests": [r.to_json() for r in state.requests],
        "answers": dict(state.answers),
        "asked": state.asked,
        "over": state.over,
        "winner": state.winner,
        "result": state.result,
    }


def state_from_data(codec: BoardCodec[B], data: Mapping[str, Any]) -> BattleState[B]:
    return BattleState(
        ruleset=str(data["ruleset"]),
        version=str(data["version"]),
        options=dict(data["options"]),
        sides=tuple(str(s) for s in data["sides"]),
        seed_commitment=str(data["seed_commitment"]),
        board=codec.board_from_json(data["board"]),
        seq=int(data["seq"]),
        turn=int(data["turn"]),
        phase=str(data["phase"]),
        dice={str(k): int(v) for k, v in data["dice"].items()},
        requests=tuple(DecisionRequest.from_json(r) for r in data["requests"]),
        answers=dict(data["answers"]),
        asked=int(data.get("asked", 0)),
        over=bool(data["over"]),
        winner=None if data["winner"] is None else str(data["winner"]),
        result=str(data["result"]),
    )


def state_to_json(codec: BoardCodec[B], state: BattleState[B]) -> str:
    """The canonical JSON text of a state: equal states give identical bytes."""
    return canonical(state_to_data(codec, state))


def state_from_json(codec: BoardCodec[B], text: str) -> BattleState[B]:
    return state_from_data(codec, json.loads(text))


def pending_from_json(text: str) -> list[DecisionRequest]:
    """The open, unanswered requests of a stored state, read without building its board: a list of battles
    says whose decision is waiting without paying for every board."""
    data = json.loads(text)
    answers = data["answers"]
    return [request for request in map(DecisionRequest.from_json, data["requests"]) if request.id not in answers]
