"""The card designer: a ruleset's tool that turns a ship's particulars into her record sheet, with the working that
gives it (optional per ruleset, like the ship editor: ship_editor.py). A ruleset whose rules say how to build a ship's
card from reference figures (an appendix of ratings) gives a ``CardDesigner`` as its ``card_designer``; the others
leave it None and the app lists no designer for them.

The designer speaks only in the answer schema's fields and the record-sheet model, so the battle app draws its form
and its card without knowing the ruleset:

- ``title`` and ``about``: what the page is called and says above the form;
- ``fields()``: the particulars as a ``Group`` of ``battles.engine.answers`` fields (``Text``, ``Number``, a yes/no
  ``One``, ``Many``), each with its ``section`` (a heading on the form) and its default;
- ``design(values)``: ``values`` a field's key to what was posted for it (text, a whole number, true or false, a list
  of chosen values); the card and its working, or a ``DesignRefused`` naming the field at fault (its key) and why,
  which the page says on that field. Pure, like the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from battles.engine.answers import Group
from battles.engine.events import JSON
from battles.engine.presentation import RecordSheet


@dataclass(frozen=True)
class DesignedCard:
    """The card the particulars give (``sheet``) and the working, a line at a time."""

    sheet: RecordSheet
    working: tuple[str, ...]


@dataclass(frozen=True)
class DesignRefused:
    """Particulars that give no card: the field at fault (a key of ``fields()``; "" for the whole form) and why."""

    field: str
    message: str


@runtime_checkable
class CardDesigner(Protocol):
    title: str
    about: str

    def fields(self) -> Group: ...

    def design(self, values: Mapping[str, JSON]) -> DesignedCard | DesignRefused: ...
