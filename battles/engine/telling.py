"""The log in words, the generic part: small words every ruleset's narrator shares, the engine's own event
kinds (a roll, a turn, a phase, a decision asked for and given, the battle's end) told as sentences, and a
plain line from any event's kind and fields where a ruleset says nothing.

Pure, no framework: a ruleset's narrator (its ``narrate``) builds on these; the app's ``battles.narration``
calls the ruleset and falls back to :func:`generic_line`. Views of the log blank what a side may not see
(``null``): a blank is left out of a sentence, never written as "None".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import BATTLE_ENDED, DECISION, DECISION_REQUESTED, DECISIONS, PHASE, ROLL, TURN
from battles.engine.words import possessive

# Hexsides and facings, clockwise from north on the flat-topped map (hexgrid's numbering).
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")

# The fields of the log's envelope, not of the event itself.
ENVELOPE = ("seq", "turn", "phase", "kind", "ships", "visibility")


@dataclass(frozen=True)
class Names:
    """How the log and the forms call sides and guns: side keys to their names, (piece, gun id) to the gun's
    weapon name."""

    sides: Mapping[str, str]
    guns: Mapping[tuple[str, str], str]

    def side(self, key: Any) -> str:
        if key is None:
            return "nobody"
        return self.sides.get(str(key), str(key).replace("_", " ").title())

    def gun(self, ship: Any, gun: Any) -> str:
        weapon = self.guns.get((str(ship), str(gun)))
        return f"{possessive(ship)} gun {gun} ({weapon})" if weapon else f"{possessive(ship)} gun {gun}"


NO_NAMES = Names({}, {})


Teller = Callable[[Mapping[str, Any], Names], str]


# --- small words ---------------------------------------------------------------------------------------


def present(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != {}


def sentence(text: str) -> str:
    """Spaces tidied, a capital first letter and a full stop."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def listed(items: Iterable[Any], *, last: str = "and") -> str:
    words = [str(i) for i in items if present(i)]
    if len(words) <= 1:
        return "".join(words)
    if last == "then":  # steps in order: "ahead, port, then ahead"
        return f"{', '.join(words[:-1])}, then {words[-1]}"
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def plural(count: Any, word: str) -> str:
    many = {"man": "men", "hex": "hexes", "casualty": "casualties", "miss": "misses"}.get(word, f"{word}s")
    if type(count) is not int:
        return f"some {many}"
    return f"{count} {word if count == 1 else many}"


def hex_name(value: Any) -> str:
    """An axial hex of the log as the map's [column, row] (odd-q), the way the set-up forms spell it."""
    try:
        col, row = hexgrid.to_odd_q(hexgrid.Hex.from_json(value))
    except (TypeError, ValueError):
        return ""
    return f"hex [{col}, {row}]"


def facing_name(value: Any) -> str:
    return f"facing {COMPASS[value % 6]}" if type(value) is int else ""


def altitude_name(value: Any) -> str:
    return f"altitude {value}" if present(value) else ""


def value_words(value: Any) -> str:
    """Any JSON value in words (for choices and unknown events): lists joined, objects as key value pairs."""
    if value is None:
        return "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return listed(value_words(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        parts = [f"{str(k).replace('_', ' ')} {value_words(v)}" for k, v in value.items() if v is not None]
        return ", ".join(parts) if parts else "nothing"
    return str(value)


def obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def obj_or_none(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def comma_joined(parts: Iterable[str]) -> str:
    return ", ".join(p for p in parts if p)


def modifiers(mods: Any) -> str:
    if not isinstance(mods, Mapping):
        return ""
    return ", ".join(f"{int(v):+d} for {k}" for k, v in sorted(mods.items()) if type(v) is int and v)


def outcome_words(text: Any) -> str:
    """Dice outcomes read as words: "hit:3,miss:7" is "3 hits, 7 misses"."""
    if not present(text):
        return ""
    spelled = str(text)
    parts = [p.split(":", 1) for p in spelled.split(",")]
    if all(len(p) == 2 and p[1].strip().isdigit() for p in parts):
        words = []
        for word, count in parts:
            word = word.strip().replace("_", " ")
            word = "casualty" if word == "casualties" else word
            words.append(plural(int(count), "miss" if word == "miss" else word))
        return ", ".join(words)
    return spelled.replace("_", " ")


def phase_words(phase: Any, n: Names = NO_NAMES) -> str:
    """A phase name as words: "movement 1: germans" is "movement phase 1 (Germans)"."""
    text = str(phase or "")
    head, _, side = text.partition(": ")
    if side and head.startswith("movement"):
        return f"{head.replace('movement', 'movement phase')} ({n.side(side)})"
    return text.replace("_", " ")


def choice_words(kind: Any, choice: Any) -> str:
    """A decision's answer in words, for the log and the correction form."""
    if choice is None:
        return "kept secret"
    if kind == "move" or (isinstance(choice, list) and all(isinstance(s, str) for s in choice)):
        if isinstance(choice, Mapping):
            steps = listed(choice.get("steps") or []) or "no steps"
            extra = [f"{k} {value_words(v)}" for k, v in choice.items() if k != "steps" and present(v)]
            return f"{steps}" + (f", then {listed(extra)}" if extra else "")
        return listed(choice, last="then") if choice else "hold course (no steps)"
    if kind == "fire" and isinstance(choice, Mapping):
        shots = choice.get("shots")
        if not shots:
            return "hold fire"
        if isinstance(shots, list):
            told = [
                f"{s.get('ship')} gun {s.get('gun')} at {s.get('target')}"
                if isinstance(s, Mapping) and "gun" in s
                else value_words(s)
                for s in shots
            ]
            return listed(told)
    spot = seq(choice.get("hex")) if isinstance(choice, Mapping) else []
    if isinstance(choice, Mapping) and len(spot) == 2:
        col, row = spot  # a set-up or a reinforcement: the map's [column, row]
        rest = {k: v for k, v in choice.items() if k not in ("hex", "facing", "altitude")}
        return comma_joined(
            [
                value_words(rest) if rest else "",
                f"hex [{col}, {row}]",
                facing_name(choice.get("facing")),
                altitude_name(choice.get("altitude")),
            ]
        )
    if kind == "initiative orders" and isinstance(choice, Mapping):
        parts = [f"{str(k).replace('_', ' ')}: {value_words(v)}" for k, v in choice.items() if present(v)]
        return "; ".join(parts) if parts else "no orders"
    return value_words(choice)


# --- the engine's own kinds ----------------------------------------------------------------------------


def _roll(e: Mapping[str, Any], n: Names) -> str:
    purpose = str(e.get("purpose") or "a roll")
    head, _, whose = purpose.rpartition(": ")
    if head and whose in n.sides:  # "initiative: irish" is the Irish side's roll, by its name
        purpose = f"{head}: {n.side(whose)}"
    dice = seq(e.get("dice"))
    faces = ", ".join(str(d) for d in dice[:24]) + (f" and {len(dice) - 24} more" if len(dice) > 24 else "")
    sides = e.get("sides")
    die = f"d{sides}" if type(sides) is int and sides != 6 else ""
    needed = e.get("needed")
    needs = "" if needed in (None, "", "any") else ("on the table" if needed == "table" else f"needs {needed}")
    mods = modifiers(e.get("modifiers"))
    total = e.get("total")
    rolled = f"rolled {faces}" + (f" on a {die}" if die else "")
    if mods:
        rolled += f", {mods}" + (f", {total}" if type(total) is int and len(dice) == 1 else "")
    elif len(dice) > 1 and len(dice) <= 3 and type(total) is int and needed in ("table", "any"):
        rolled += f" ({total})"
    outcome = outcome_words(e.get("outcome"))
    if outcome.split(" ")[-1:] == [str(total)] and len(dice) == 1 and not mods:
        outcome = ""  # "roll 5", "die 5": the face says it already
    head = f"{purpose}: {needs}; {rolled}" if needs else f"{purpose}: {rolled}"
    return f"{head}: {outcome}" if outcome else head


def _turn(e: Mapping[str, Any], n: Names) -> str:
    return f"Turn {e.get('turn')} begins"


def _phase(e: Mapping[str, Any], n: Names) -> str:
    words = phase_words(e.get("phase"), n)
    return f"{words} begins" if words.startswith("movement") else f"the {words} phase begins"


def _decision_requested(e: Mapping[str, Any], n: Names) -> str:
    request = obj(e.get("request"))
    ships = listed(request.get("ships") or [])
    prompt = request.get("prompt")
    what = f"{n.side(request.get('side'))} is asked to decide: {request.get('kind') or 'a decision'}"
    if ships:
        what += f" for {ships}"
    return f"{what} ({str(prompt).split(':')[0]})" if present(prompt) and ":" in str(prompt) else what


def _decision(e: Mapping[str, Any], n: Names) -> str:
    kind = e.get("decision") or "a decision"
    return f"{n.side(e.get('side'))} answers {kind}: {choice_words(e.get('decision'), e.get('choice'))}"


def _decisions(e: Mapping[str, Any], n: Names) -> str:
    answers = obj(e.get("answers"))
    told = []
    for answer in answers.values():
        if isinstance(answer, Mapping):
            kind = answer.get("decision")
            told.append(f"{n.side(answer.get('side'))}, {kind}: {choice_words(kind, answer.get('choice'))}")
    return "Decided: " + "; ".join(told) if told else "The decisions are in"


def _battle_ended(e: Mapping[str, Any], n: Names) -> str:
    winner = e.get("winner")
    reason = e.get("reason") or "the battle is over"
    return f"The battle ends: {reason}. " + (f"{n.side(winner)} wins" if present(winner) else "A draw")


ENGINE_TELLERS: dict[str, Teller] = {
    ROLL: _roll,
    TURN: _turn,
    PHASE: _phase,
    DECISION_REQUESTED: _decision_requested,
    DECISION: _decision,
    DECISIONS: _decisions,
    BATTLE_ENDED: _battle_ended,
}

# The engine's bookkeeping: requests and answers, which a page may fold away.
ENGINE_DETAIL = frozenset({DECISION_REQUESTED, DECISION, DECISIONS})


def generic_line(e: Mapping[str, Any], n: Names = NO_NAMES) -> str:
    """An event kind nobody taught a narrator: its kind and its fields, in words."""
    kind = str(e.get("kind") or "event").replace("_", " ")
    fields = {k: v for k, v in e.items() if k not in ENVELOPE and k != "clauses" and v is not None}
    if not fields:
        return kind
    return f"{kind}: {value_words(fields)}"


def tell(tellers: Mapping[str, Teller], event: Mapping[str, Any], names: Names) -> str | None:
    """The event told by its kind's teller in ``tellers`` (None when there is none, or when the teller met a
    field of an unexpected shape or a blank: the caller says what there is instead)."""
    teller = tellers.get(str(event.get("kind")))
    if teller is None:
        return None
    try:
        text = teller(event, names)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        return None
    if not text.strip() or re.search(r"\bNone\b", text):
        return None
    return text
