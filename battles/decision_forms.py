"""The decision forms of the battle page, drawn from the ruleset's answer schema (battles.engine.answers) for
any ruleset: what a side may answer to each open decision, and the way back from a posted form to the answer
the engine judges.

Reads only (a selector in all but name). The ruleset's ``answer_schema`` says which choices to offer (for
Sky Galleons only legal ones, each judged by the engine); this module turns the schema's fields into the
controls the templates draw (radio buttons, selects, checkboxes, numbers, words, a party of ranks, a path
built step by step) under the headings the schema names, and a posted form back into the answer through the
one generic assembler. The answer is judged again by the ruleset when it is sent, and a combination the
rules forbid comes back with the rule's reason.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from battles import narration
from battles.engine import answers, resolver
from battles.engine.answers import AnswerSchema
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, canonical
from battles.engine.state import BattleState
from battles.engine.words import capfirst

MAX_PLAN = 40  # steps: no legal move is longer; a longer plan in a URL is somebody's mischief

# The common words of hex movement, as the board script reads them to turn a clicked hex into steps: "forward"
# one hex the way the piece faces, a "turn" of so many hexsides (minus to port), or a "go" one hex towards a
# hexside whatever the facing (hexgrid's numbering, north first, clockwise). Only a path's own tokens that are
# here are sent to the page; any other token (climb, descend) is offered as a button only, and every step the
# script builds is judged by the ruleset like a pressed button.
STEP_GEOMETRY: dict[str, tuple[str, int]] = {
    "ahead": ("forward", 1),
    "port": ("turn", -1),
    "starboard": ("turn", 1),
    "power port": ("turn", -1),
    "power starboard": ("turn", 1),
    "tack port": ("turn", -2),
    "tack starboard": ("turn", 2),
    "hard port": ("turn", -2),
    "hard starboard": ("turn", 2),
    **{compass: ("go", n) for n, compass in enumerate(("N", "NE", "SE", "S", "SW", "NW"))},
}


class FormError(ValueError):
    """A posted form that does not spell an answer (tampered or stale); the page shows the message."""


@dataclass(frozen=True)
class Option:
    value: str  # the answer (or its part) as a form posts it (battles.engine.answers.encode)
    label: str
    selected: bool = False
    hint: str = ""  # a card tile's small count ("3 left")
    glyph: str = ""  # what a card tile draws (answers.GLYPHS)


@dataclass
class Field:
    """One control: ``radio`` / ``select`` / ``checkbox`` / ``cards`` (``options``; ``cards``: radio buttons drawn
    as playing-card tiles), ``number`` (``low`` .. ``high``),
    ``text``, ``json`` (a raw answer) or ``party`` (numbers of men by rank, in ``parts``)."""

    name: str
    label: str
    control: str
    options: list[Option] = field(default_factory=list)
    low: int = 0
    high: int = 0
    value: str = ""
    hint: str = ""
    parts: list[Field] = field(default_factory=list)
    board: str = ""  # "hex": a hex of the map, answered by a click on it where the board script runs


@dataclass
class Group:
    """Fields under one heading (a ship, a gun)."""

    legend: str
    fields: list[Field]


@dataclass
class MoveBuilder:
    """A path built step by step: the plan so far and the steps the rules accept next (the schema's Path
    judged), then what it may end with and what may be dropped on the way."""

    ship: str
    name: str  # the posted name of the plan
    plan: list[str]
    plan_words: str
    cost: int
    allowance: int | None
    steps: list[Option]  # the next steps offered: value is the token
    legal: bool
    problem: str
    ends: str
    note: str
    attacks: list[Option]
    just: str = ""  # the attack left alone ("Just move")
    drops: list[Field] = field(default_factory=list)
    vocabulary: list[str] = field(default_factory=list)  # every token the path knows
    unit: tuple[str, ...] = ()  # what the allowance counts, one and many (Progress.unit); () movement points

    @property
    def allowance_words(self) -> str:
        """The allowance with what it counts: "1 movement point", "2 hexes"."""
        one, many = self.unit if len(self.unit) == 2 else ("movement point", "movement points")
        return f"{self.allowance} {one if self.allowance == 1 else many}"

    @property
    def unit_short(self) -> str:
        """What the plan's count says after "1 of 2": MP, or the ruleset's own word."""
        return self.unit[1] if len(self.unit) == 2 else "MP"

    @property
    def plan_json(self) -> str:
        return json.dumps(self.plan)

    @property
    def accepted_json(self) -> str:
        return json.dumps([step.value for step in self.steps])

    @property
    def geometry_json(self) -> str:
        """What each of the path's tokens does on the map, where it is one of the common words."""
        return json.dumps({t: list(STEP_GEOMETRY[t]) for t in self.vocabulary if t in STEP_GEOMETRY})


@dataclass
class DecisionForm:
    request: DecisionRequest
    schema: AnswerSchema
    side_name: str
    title: str
    form: str  # the schema's layout: options / move / fire / orders / plot / place / board / candidates / json
    groups: list[Group] = field(default_factory=list)
    move: MoveBuilder | None = None
    idempotency_key: str = field(default_factory=lambda: uuid.uuid4().hex)
    error: str = ""
    error_clause: str = ""
    default_words: str = ""
    notice: str = ""  # why a path clicked on the board stopped short
    use_default: bool = False  # its default ticked on the orders form

    @property
    def id(self) -> str:
        return self.request.id

    @property
    def prefix(self) -> str:
        return prefix_of(self.id)

    @property
    def ship(self) -> str:
        return self.request.ships[0] if self.request.ships else ""

    @property
    def go_ahead(self) -> bool:
        """The umpire's own decision with one answer (the go-ahead before a card): the page draws it as one button
        saying what it does, nothing to choose."""
        return self.request.umpire and self.request.options is not None and len(self.request.options) == 1

    @property
    def button_words(self) -> str:
        """The go-ahead's button: the request's prompt ("Turn the next card"), else its title."""
        return capfirst(self.request.prompt.rstrip(".")) if self.request.prompt else self.title


# --- building the forms -----------------------------------------------------------------------------------


def build(
    rs: Any,
    state: BattleState[Any],
    request: DecisionRequest,
    *,
    names: narration.Names = narration.NO_NAMES,
    plan: Sequence[str] | None = None,
    step_by_step: bool = True,
) -> DecisionForm:
    """The form for one open request, on the state as the request's side sees it. ``step_by_step`` False: a
    path is chosen from the ruleset's candidate answers (the umpire's correction form) instead of built."""
    partial: JSON = list[JSON](plan[:MAX_PLAN]) if plan is not None else None
    schema: AnswerSchema = rs.answer_schema(state, request, partial=partial, sides=dict(names.sides))
    if not step_by_step and _path(schema) is not None:
        schema = candidates_schema(rs, state, request, title=schema.title)
    form = DecisionForm(
        request=request,
        schema=schema,
        side_name=names.side(request.side),
        title=schema.title or capfirst(request.kind),
        form=schema.layout or "fields",
        default_words=_default_words(schema, request),
    )
    if _path(schema) is not None:
        form.form = "move"
        form.move = _move_builder(schema, request)
    else:
        form.groups = groups(schema)
    return form


def legal(rs: Any, state: BattleState[Any], request: DecisionRequest, choice: JSON) -> bool:
    """Would the engine take this answer now? (The one test every option a ruleset offers passes.)"""
    return resolver.check_decision(rs, state, side=request.side, request_id=request.id, choice=choice) is None


def candidates_schema(rs: Any, state: BattleState[Any], request: DecisionRequest, *, title: str) -> AnswerSchema:
    """One of the ruleset's candidate answers that the engine takes, the default first."""
    seen: set[str] = set()
    options: list[answers.Option] = []
    for choice in [request.default, *rs.candidates(state, request)]:
        spelled = canonical(choice)
        if spelled in seen or not legal(rs, state, request, choice):
            continue
        seen.add(spelled)
        options.append(answers.Option(choice, narration.choice_words(request.kind, choice) or "(nothing)"))
    label = capfirst(request.prompt) if request.prompt else "Your answer"
    default = options[0].value if options else None
    root = answers.One(key="choice", label=label, options=tuple(options), default=default, clause=request.rule)
    return AnswerSchema(request.id, root, title=title, clause=request.rule, layout="candidates")


def _default_words(schema: AnswerSchema, request: DecisionRequest) -> str:
    if schema.default_words:
        return schema.default_words
    root = schema.root
    if isinstance(root, answers.One) and schema.layout == "options":
        spelled = canonical(request.default)
        return next((o.label for o in root.options if canonical(o.value) == spelled), "")
    return narration.choice_words(request.kind, request.default)


def _path(schema: AnswerSchema) -> answers.Path | None:
    root = schema.root
    if isinstance(root, answers.Path):
        return root
    if isinstance(root, answers.Group):
        return next((f for f in root.fields if isinstance(f, answers.Path)), None)
    return None


def groups(schema: AnswerSchema | answers.Field, *, skip: Sequence[str] = ()) -> list[Group]:
    """The schema's fields as controls, under their headings in the order the headings first come."""
    found: dict[str, Group] = {}
    for name, item in answers.leaves(schema):
        if name in skip or isinstance(item, answers.Path):
            continue
        control = _control(name, item)
        found.setdefault(item.section, Group(item.section, [])).fields.append(control)
    return list(found.values())


def _options(options: Sequence[answers.Option], chosen: Sequence[JSON]) -> list[Option]:
    spelled = {canonical(c) for c in chosen}
    return [
        Option(answers.encode(o.value), o.label, canonical(o.value) in spelled, hint=o.hint, glyph=o.glyph)
        for o in options
    ]


def _control(name: str, item: answers.Field) -> Field:
    """One leaf of the schema as the control a template draws."""
    if isinstance(item, answers.One):
        picked = [item.default] if item.widget != "checkbox" else []
        return Field(name, item.label, item.widget, _options(item.options, picked), hint=item.hint)
    if isinstance(item, answers.Many):
        return Field(name, item.label, "checkbox", _options(item.options, item.default), hint=item.hint)
    if isinstance(item, answers.Number):
        high = item.high if item.high is not None else 0
        return Field(name, item.label, "number", low=item.low, high=high, value=str(item.default), hint=item.hint)
    if isinstance(item, answers.Hex) and item.allowed:
        spots = tuple(answers.Option([col, row], f"[{col}, {row}]") for col, row in item.allowed)
        chosen: list[JSON] = [] if item.default is None else [list(item.default)]
        return Field(name, item.label, "select", _options(spots, chosen), hint=item.hint, board="hex")
    if isinstance(item, answers.Group):  # a group drawn as one control: a party of men by rank
        parts = [_control(sub, part) for sub, part in answers.leaves_under(item, name)]
        return Field(name, item.label, item.widget, hint=item.hint, parts=parts)
    if isinstance(item, answers.Text) and item.as_json:
        return Field(name, item.label, "json", value=canonical(item.default), hint=item.hint)
    default = item.default if isinstance(item, answers.Text) and isinstance(item.default, str) else ""
    return Field(name, item.label, "text", value=default, hint=item.hint)


def _move_builder(schema: AnswerSchema, request: DecisionRequest) -> MoveBuilder:
    path = _path(schema)
    assert path is not None
    progress = path.progress or answers.Progress()
    labels = {str(o.value): o.label for o in path.steps}
    root = schema.root
    extras = root.fields if isinstance(root, answers.Group) else ()
    attack = next((f for f in extras if isinstance(f, answers.One) and f.merge), None)
    attacks = [o for o in (attack.options if attack else ()) if o.value is not None]
    just = next((o.label for o in (attack.options if attack else ()) if o.value is None), "")
    drops = [f for f in extras if isinstance(f, answers.Repeat)]
    return MoveBuilder(
        ship=request.ships[0] if request.ships else "",
        name=path.key,
        plan=list(progress.steps),
        plan_words=progress.words,
        cost=progress.spent,
        allowance=progress.budget,
        steps=[Option(token, labels.get(token, token)) for token in progress.accepted],
        legal=progress.complete,
        problem=progress.problem,
        ends=progress.outcome,
        note=progress.note,
        attacks=[Option(answers.encode(o.value), o.label) for o in attacks],
        just=just,
        drops=[f for group in drops for f in groups(group)[0].fields] if drops else [],
        vocabulary=[str(o.value) for o in path.steps],
        unit=progress.unit,
    )


# --- from a posted form back to an answer -----------------------------------------------------------------


def posted(data: Any) -> dict[str, list[str]]:
    """A POST QueryDict (or a plain mapping) as the assembler reads it: each name with all its values."""
    if hasattr(data, "getlist"):
        return {key: [str(v) for v in data.getlist(key)] for key in data}
    return {str(k): [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in dict(data).items()}


def posted_plan(form_data: Any, name: str = "steps") -> list[str] | None:
    """The path a posted move names, so its form can be built on it before the answer is assembled."""
    text = form_data.get(name) if hasattr(form_data, "get") else None
    if text is None:
        return None
    try:
        plan = json.loads(text)
    except ValueError:
        return None
    return [str(t) for t in plan][:MAX_PLAN] if isinstance(plan, list) else None


def prefix_of(request_id: str) -> str:
    """Before each of a decision's fields' names in the page's one orders form, which holds every open one."""
    return f"{request_id}:"


def own_fields(data: Any, request_id: str) -> QueryDict:
    """One decision's fields out of the page's orders form, without their prefix (a form posted on its own,
    with bare names, is read as it is)."""
    own = QueryDict(mutable=True)
    prefix = prefix_of(request_id)
    prefixed = any(str(key).startswith(prefix) for key in data)
    for key in data:
        name = str(key)
        if prefixed and not name.startswith(prefix):
            continue
        values = data.getlist(key) if hasattr(data, "getlist") else [data[key]]
        own.setlist(name[len(prefix) :] if prefixed else name, [str(v) for v in values])
    return own


def choice_from_post(form: DecisionForm, data: Any) -> JSON:
    """The answer a posted decision form spells. Legality is the engine's."""
    try:
        return answers.assemble(form.schema, posted(data))
    except answers.AnswerError as error:
        raise FormError(_words(form.schema, error)) from error


def _words(schema: AnswerSchema, error: answers.AnswerError) -> str:
    """Each field's problem, by its label where it has one."""
    told = []
    for problem in error.errors:
        item = answers.find(schema, problem.name)
        label = item.label if item is not None and item.label else "Your answer"
        told.append(f"{label}: {problem.message}")
    return capfirst("; ".join(told)) + "."
