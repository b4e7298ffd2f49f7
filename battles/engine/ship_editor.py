"""The ship editor: how an umpire changes a scenario's ships before the battle begins (optional per ruleset).

A ruleset whose ships are data an umpire may fairly change (a Cloudships of Mars control panel: movement, ceiling,
guns...) gives a ``ShipEditor`` as its ``ship_editor``; the others leave it None and the New battle page shows
nothing more. The editor speaks only of scenario documents (the JSON the ruleset's ``setup`` reads), so the battle
app never reads a ruleset's ship format:

- ``editable_ships(scenario)``: each ship the umpire may change, with her figures as a ``Group`` of the answer
  schema's fields (``battles.engine.answers``: ``Number`` with its bounds, ``One`` (a yes/no one is a checkbox),
  ``Many``, ``Text``, ``Repeat`` and ``Group``; no ``Hex`` or ``Path``), each field's default her figure as the
  scenario gives it. The page draws the fields and the one generic assembler turns what is posted back into JSON,
  so the shape is checked there and the rules' verdict stays with the ruleset;
- ``edit(scenario, edits)``: the scenario with the ships changed (``edits``: a ship's name to what her fields
  spell), each changed ship written whole into it, so the battle's stored scenario is the battle (replay and the
  seed's verification read it); or a ``Rejection`` naming the clause and the reason a player can read. A ship
  whose fields spell her as she stands is left as she is.

Pure, like the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from battles.engine.answers import Group
from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject


@dataclass(frozen=True)
class EditableShip:
    """One ship the umpire may change: her ``name`` in the scenario (the key of her edits), a heading
    (``label``), her figures now in one line (``summary``) and her ``fields``, each defaulting to her figure."""

    name: str
    label: str
    summary: str
    fields: Group


@dataclass(frozen=True)
class EditedScenario:
    """The scenario after the umpire's edits, and the names of the ships whose figures changed (in its order)."""

    scenario: JSONObject
    changed: tuple[str, ...]


@runtime_checkable
class ShipEditor(Protocol):
    def editable_ships(self, scenario: Mapping[str, JSON]) -> tuple[EditableShip, ...]: ...

    def edit(self, scenario: Mapping[str, JSON], edits: Mapping[str, JSON]) -> EditedScenario | Rejection: ...
