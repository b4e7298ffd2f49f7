"""Decisions: what the engine asks a side, and why it turns an answer down.

A request is addressed to one side and has a kind ("plot movement", "fire", "declare ram"...), the
phase it belongs to, the rule clause that governs it, and either its legal options listed out or, where
they are too many to list, a ruleset validator. Several requests open at once are decided
simultaneously (both sides plotting); one at a time gives an order (movement by initiative). Answers to
a ``secret`` request stay with their side until every request open with it is answered; the ``sealed``
keys of a secret object answer stay with it for good (a gun's hidden aspect, a coded signal).

An ``umpire`` request is the umpire's to answer, not a player's (the go-ahead before a card is turned): it is
still addressed to a side, the side in whose name it is logged and whose policy answers it where no person plays
(auto-resolve, the odds, random play), so the engine, its replay and its policies treat it as any other. Only who
may answer it in web play differs, which the app decides (battles.services.may_answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine.events import JSON, JSONObject, canonical

# The engine's own clauses, named when it turns a decision down before the ruleset is asked.
NO_SUCH_DECISION = "ENG-DEC-01"
NOT_YOUR_DECISION = "ENG-DEC-02"
ALREADY_DECIDED = "ENG-DEC-03"
BATTLE_OVER = "ENG-DEC-04"
NOT_AN_OPTION = "ENG-DEC-05"
NOT_JSON = "ENG-DEC-06"

# A request's ``sealed`` naming this keeps its whole answer from the reveal (a ship's written move, carried out
# later: the other sides see each move as it is made, never the plan).
WHOLE = "*"

# The decision event's flag for an answer a side's standing orders gave (Ruleset.standing_answer): a decision
# put to no one, which windows.py does not count.
STANDING = "standing"

ENGINE_CLAUSES: dict[str, str] = {
    NO_SUCH_DECISION: "only an open decision may be answered",
    NOT_YOUR_DECISION: "a decision is answered by the side it is addressed to",
    ALREADY_DECIDED: "a decision is answered once",
    BATTLE_OVER: "nothing is decided once the battle has ended",
    NOT_AN_OPTION: "an enumerated decision is answered with one of its options",
    NOT_JSON: "an answer is plain JSON data",
}


@dataclass(frozen=True)
class DecisionRequest:
    """A decision the engine waits for. ``options`` None means open-ended: the ruleset validates."""

    id: str
    side: str
    kind: str
    phase: str
    rule: str
    default: JSON
    options: tuple[JSON, ...] | None = None
    secret: bool = False
    prompt: str = ""
    ships: tuple[str, ...] = ()
    # Keys of a secret object answer kept out of the batch's public reveal: only its side ever sees them.
    sealed: tuple[str, ...] = ()
    # The umpire's to answer in web play (the module's docstring); its side's policy answers it elsewhere.
    umpire: bool = False

    def allows(self, choice: JSON) -> bool:
        """Is ``choice`` one of the listed options? (Always True for an open-ended request.)"""
        if self.options is None:
            return True
        spelled = canonical(choice)
        return any(canonical(option) == spelled for option in self.options)

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "id": self.id,
            "side": self.side,
            "kind": self.kind,
            "phase": self.phase,
            "rule": self.rule,
            "default": self.default,
            "options": None if self.options is None else list(self.options),
            "secret": self.secret,
            "prompt": self.prompt,
            "ships": list(self.ships),
        }
        if self.sealed:  # written only when set, so requests without sealed keys keep their old spelling
            data["sealed"] = list(self.sealed)
        if self.umpire:  # likewise: every request before the flag keeps its spelling, and old logs load as they are
            data["umpire"] = True
        return data

    def reveal(self, choice: JSON) -> JSON:
        """The answer as every side sees it when the batch closes: without its sealed keys."""
        if WHOLE in self.sealed:
            return None
        if not self.sealed or not isinstance(choice, dict):
            return choice
        return {key: value for key, value in choice.items() if key not in self.sealed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionRequest:
        options = data["options"]
        return cls(
            id=str(data["id"]),
            side=str(data["side"]),
            kind=str(data["kind"]),
            phase=str(data["phase"]),
            rule=str(data["rule"]),
            default=data["default"],
            options=None if options is None else tuple(options),
            secret=bool(data["secret"]),
            prompt=str(data["prompt"]),
            ships=tuple(str(s) for s in data["ships"]),
            sealed=tuple(str(k) for k in data.get("sealed", ())),
            umpire=bool(data.get("umpire", False)),
        )


@dataclass(frozen=True)
class Rejection:
    """Why a decision was turned down: the clause it breaks and a reason a player can read."""

    clause: str
    reason: str

    def __str__(self) -> str:
        return f"{self.clause}: {self.reason}"
