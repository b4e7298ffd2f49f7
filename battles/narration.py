"""The battle log in plain language: one sentence for each event a viewer may see, for any ruleset.

The log is the truth and stays JSON; this only reads it. The battle's ruleset tells each event (its
``narrate``; the engine's own kinds, such as a roll or a turn, come with every ruleset) and says which lines
are bookkeeping a page may fold away (``is_detail``); an event it cannot tell still gets a readable sentence
from its kind and fields. Views of the log blank what a side may not see (``null``): a blank is left out of
the sentence, never written as "None".

The small words of the log (``value_words``, ``choice_words``, ``phase_words``...) are the engine's
(battles/engine/telling.py), named here too for the pages and forms that use them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine.presentation import GenericPresentation, Presentation
from battles.engine.telling import (
    COMPASS,
    NO_NAMES,
    Names,
    choice_words,
    facing_name,
    generic_line,
    hex_name,
    phase_words,
    sentence,
    value_words,
)

__all__ = [
    "COMPASS",
    "NO_NAMES",
    "Line",
    "Names",
    "choice_words",
    "facing_name",
    "hex_name",
    "is_detail",
    "names_for",
    "narrate",
    "narrate_log",
    "phase_words",
    "value_words",
]


# Where no ruleset is given: the engine's own kinds told, every other kind in a plain line.
GENERIC = GenericPresentation()


@dataclass(frozen=True)
class Line:
    """One event told as a sentence. ``detail``: bookkeeping a reader may skip."""

    seq: int
    turn: int
    phase: str
    kind: str
    text: str
    detail: bool = False


def names_for(sides: Mapping[str, str], board: Any, rules: Presentation | None = None) -> Names:
    """How the log calls sides and pieces: the sides' display names, and what the ruleset reads off a board
    view (Sky Galleons: its guns' weapons)."""
    return (rules or GENERIC).names(board, sides)


def narrate(event: Mapping[str, Any], names: Names = NO_NAMES, rules: Presentation | None = None) -> str:
    """One event (as the log's JSON, envelope included) as one sentence: the ruleset's, or a plain line."""
    return sentence((rules or GENERIC).narrate(event, names) or generic_line(event, names))


def is_detail(event: Mapping[str, Any], rules: Presentation | None = None) -> bool:
    return (rules or GENERIC).is_detail(event)


def narrate_log(
    events: Sequence[Mapping[str, Any]], names: Names = NO_NAMES, rules: Presentation | None = None
) -> list[Line]:
    return [
        Line(
            seq=int(e.get("seq", 0)),
            turn=int(e.get("turn", 0)),
            phase=str(e.get("phase", "")),
            kind=str(e.get("kind", "")),
            text=narrate(e, names, rules),
            detail=is_detail(e, rules),
        )
        for e in events
    ]
