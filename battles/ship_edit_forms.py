"""The New battle page's ship editor for any ruleset that has one (``Ruleset.ship_editor``,
battles/engine/ship_editor.py): each ship the umpire may change before the battle, her fields as Django form fields
under the headings the ruleset names, and the posted fields read back into the scenario the battle starts from.

The ruleset's fields are the answer schema's kinds (battles.engine.answers); each becomes a Django field of its kind
(a bounded whole number, a checkbox for yes/no, a list, checkboxes for several, words), so a value out of its
bounds or not offered is an error on its own field. The generic assembler then spells each ship's edit as JSON,
and the ruleset's ``edit`` judges it, a ship at a time, so its refusal is shown on the ship it concerns. A ruleset
without an editor adds no field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms

from battles.engine import answers
from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject, canonical
from battles.engine.ruleset import Ruleset
from battles.engine.ship_editor import EditableShip

PREFIX = "ship"
YES_NO = {canonical(True), canonical(False)}


@dataclass
class Slot:
    """A field and its note: its bounds and why (in a gun's section, where the whys would repeat, the bounds)."""

    field: forms.BoundField
    note: str


@dataclass
class Section:
    """Fields under one heading (the ship, her damage track, a gun); ``compact``: drawn in a tight grid."""

    title: str
    slots: list[Slot]
    compact: bool = False


@dataclass
class ShipForm:
    """One ship's editor on the page: the ruleset's ship, her fields' names on the form with their names in the
    ruleset's fields (``leaves``), and the ruleset's refusal of her edit."""

    ship: EditableShip
    index: int
    leaves: dict[str, str] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    refusal: str = ""
    invalid: bool = False  # a field of hers or her edit refused: the page opens her

    @property
    def name(self) -> str:
        return self.ship.name

    def has_errors(self, form: forms.BaseForm) -> bool:
        return bool(self.refusal) or any(name in form.errors for name in self.leaves)


def form_name(index: int, leaf: str) -> str:
    """A field's name on the page: the ship's place and the leaf's keys, dots made dashes (ids stay plain)."""
    return f"{PREFIX}{index}-{leaf.replace('.', '-')}"


def django_field(item: answers.Field) -> forms.Field:
    """The Django field of one of the editor's fields; never required (the assembler says what is missing, so an
    optional group, such as a new gun, may be left alone)."""
    if isinstance(item, answers.Number):
        return forms.IntegerField(
            label=item.label, required=False, min_value=item.low, max_value=item.high, initial=item.default
        )
    if isinstance(item, answers.One) and {canonical(o.value) for o in item.options} == YES_NO:
        return forms.BooleanField(label=item.label, required=False, initial=bool(item.default))
    if isinstance(item, answers.One):
        choices = [(answers.encode(o.value), o.label) for o in item.options]
        return forms.ChoiceField(
            label=item.label, choices=choices, required=False, initial=answers.encode(item.default)
        )
    if isinstance(item, answers.Many):
        return forms.MultipleChoiceField(
            label=item.label,
            choices=[(answers.encode(o.value), o.label) for o in item.options],
            required=False,
            initial=[answers.encode(v) for v in item.default],
            widget=forms.CheckboxSelectMultiple,
        )
    if isinstance(item, answers.Text) and not item.as_json:
        default = item.default if isinstance(item.default, str) else ""
        return forms.CharField(label=item.label, required=False, max_length=item.max_length, initial=default)
    raise TypeError(f"a ship editor's fields are numbers, choices and words, not {type(item).__name__}")


def add_ship_fields(form: forms.BaseForm, rs: Ruleset[Any], scenario: Mapping[str, JSON]) -> list[ShipForm]:
    """A field on ``form`` for each of each ship's figures the ruleset lets the umpire change."""
    editor = rs.ship_editor
    if editor is None or not scenario:
        return []
    ships = []
    for index, ship in enumerate(editor.editable_ships(scenario)):
        found = ShipForm(ship, index)
        sections: dict[str, Section] = {}
        for leaf, item in answers.leaves(ship.fields):
            name = form_name(index, leaf)
            form.fields[name] = django_field(item)
            form.fields[name].label_suffix = ""  # labels over small fields, and beside checkboxes: no colon
            found.leaves[name] = leaf
            title = item.section or ship.label
            section = sections.setdefault(title, Section(title, [], compact=_compact(ship, title)))
            section.slots.append(Slot(form[name], _note(item, short=section.compact)))
        found.sections = list(sections.values())
        ships.append(found)
    return ships


def _note(item: answers.Field, *, short: bool) -> str:
    """What the page says under a field: a number's bounds, and unless ``short`` the reason for them."""
    if isinstance(item, answers.Number) and item.high is not None:
        bounds = f"{item.low} to {item.high}"
        return bounds if short or not item.hint else item.hint
    return "" if short else item.hint


def _compact(ship: EditableShip, title: str) -> bool:
    """Every section but the ship's own: a gun's repeats (its hints are said once, on the page's note), the others
    say their hint in their heading."""
    return title != (ship.fields.section or ship.label)


def edited_scenario(
    form: forms.BaseForm, rs: Ruleset[Any], scenario: Mapping[str, JSON], ships: list[ShipForm]
) -> tuple[JSONObject, tuple[str, ...]] | None:
    """The scenario with the ships the umpire changed written into it, and their names; None where nothing changed
    or something is wrong (then said on the form: a field's bound on the field, the rules' refusal on the ship)."""
    editor = rs.ship_editor
    if editor is None or not ships:
        return None
    edits: dict[str, JSON] = {}
    for ship in ships:
        answer = _answer(form, ship)
        if answer is not None:
            edits[ship.name] = answer
    if form.errors or len(edits) != len(ships):
        return None
    current: JSONObject = dict(scenario)
    changed: list[str] = []
    for ship in ships:
        result = editor.edit(current, {ship.name: edits[ship.name]})
        if isinstance(result, Rejection):
            ship.refusal = result.reason
            form.add_error(None, f"{result.reason[:1].upper()}{result.reason[1:]} ({result.clause}).")
            return None
        current = result.scenario
        changed += result.changed
    return (current, tuple(changed)) if changed else None


def _answer(form: forms.BaseForm, ship: ShipForm) -> JSON:
    """The ship's edit as the ruleset spells it, or None where a field is wrong (each told on its field)."""
    cleaned = getattr(form, "cleaned_data", {})
    if any(name not in cleaned for name in ship.leaves):
        return None  # a field's own check failed: its error is on it
    posted = {leaf: _posted(cleaned[name]) for name, leaf in ship.leaves.items()}
    try:
        return answers.assemble(answers.AnswerSchema(ship.name, ship.ship.fields), posted)
    except answers.AnswerError as error:
        names = {leaf: name for name, leaf in ship.leaves.items()}
        for problem in error.errors:
            where = names.get(problem.name)
            if where is None:
                form.add_error(None, f"{ship.ship.label}: {problem.name or 'the panel'}: {problem.message}.")
            else:
                form.add_error(where, f"{problem.message[:1].upper()}{problem.message[1:]}.")
        return None


def _posted(value: Any) -> list[str]:
    """A cleaned value as the assembler reads a posted one."""
    if value is None:
        return [""]
    if isinstance(value, bool):
        return [canonical(value)]
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)]
