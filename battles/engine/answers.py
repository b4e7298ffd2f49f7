"""Answer schemas: what an answer to one pending decision looks like, as data every front end can read.

A ruleset describes each pending decision as a tree of fields (``Ruleset.answer_schema``); the web forms and
the API render from the same tree, and ONE generic assembler turns posted form fields back into the JSON
answer the ruleset's ``validate`` judges. The schema says the shape and the offered choices; the rules'
verdict on a whole answer stays with ``validate`` (a schema cannot say that two guns may not fire at once).

Field kinds: ``One`` (choose one), ``Many`` (choose several), ``Number``, ``Text`` (words, or raw JSON where
a ruleset offers nothing better), ``Hex`` (a hex on the map, as the map's ``[column, row]``), ``Path`` (steps
on the map, built one at a time), ``Group`` (named sub-fields: an object) and ``Repeat`` (a list, one slot per
item: a gun, a ship, a party). Each has a key, label, hint, default and the clause it answers.

How the answer is shaped from the tree:

* a ``Group`` is an object of its fields' values by key, with its ``fixed`` constants (what a slot stands
  for: the ship, the target); an optional field left empty is left out; a ``merge`` field's value (an object,
  or a list of objects) is merged into its group (lists joined, objects joined); ``bare``: when only that key
  is present the group is its bare value (a move with no extras is the plan alone);
* a ``Repeat`` is the list of its slots' values, empty slots left out;
* an empty value is None: a blank or "Nobody" choice, an optional 0, an optional group with nothing filled in
  (or without its ``needs`` field).

Posted fields are flat: a field's name is its keys from the root joined by dots (``shots.0``,
``parties.1.men.deckhands``); the root group's key is not part of it. Values are the canonical JSON of the
choice (``""`` for None), a number, or words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeAlias

from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, JSONObject, canonical

Posted: TypeAlias = Mapping[str, Sequence[str]]
MAX_TEXT = 200  # characters in a words field unless the field says otherwise


# The glyphs a ``cards`` widget can draw on a tile (the shared kit's vocabulary, not any game's words): a straight
# arrow ahead or back, a curved arrow either way, a climb or a dive, a bar for standing still.
GLYPHS = ("ahead", "reverse", "turn-right", "turn-left", "ascend", "descend", "stop")


@dataclass(frozen=True)
class Option:
    """One choice: its value, its label and a hint (a ``cards`` tile shows the hint as its small count); ``glyph``
    one of :data:`GLYPHS` for a tile to draw ("" none)."""

    value: JSON
    label: str
    hint: str = ""
    glyph: str = ""


@dataclass(frozen=True, kw_only=True)
class Field:
    """What every field has. ``section``: the heading a form shows it under (a ship's name); ``optional``:
    may be left empty (and is then left out of its group); ``merge``: its value joins its group's object."""

    key: str
    label: str = ""
    hint: str = ""
    clause: str = ""
    section: str = ""
    optional: bool = False
    merge: bool = False

    kind = ""

    def describe(self) -> JSONObject:
        data: JSONObject = {"kind": self.kind, "key": self.key, "label": self.label}
        for name in ("hint", "clause", "section"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        if self.optional:
            data["optional"] = True
        if self.merge:
            data["merge"] = True
        return data


@dataclass(frozen=True, kw_only=True)
class One(Field):
    """Choose one of the options. ``widget``: how a form shows it (radio, select or checkbox; ``cards``: radio
    buttons drawn as a row of playing-card tiles, each option's label, glyph and hint on its face)."""

    options: tuple[Option, ...]
    default: JSON = None
    widget: str = "radio"
    kind = "one"

    def describe(self) -> JSONObject:
        return {**super().describe(), **_options(self.options), "default": self.default, "widget": self.widget}


@dataclass(frozen=True, kw_only=True)
class Many(Field):
    """Choose between ``low`` and ``high`` of the options (``high`` None: as many as offered)."""

    options: tuple[Option, ...]
    default: tuple[JSON, ...] = ()
    low: int = 0
    high: int | None = None
    kind = "many"

    def describe(self) -> JSONObject:
        limits: JSONObject = {"min": self.low, "max": self.high, "default": list(self.default)}
        return {**super().describe(), **_options(self.options), **limits}


@dataclass(frozen=True, kw_only=True)
class Number(Field):
    """A whole number from ``low`` to ``high`` in ``step``s; an optional number left at 0 is empty."""

    low: int = 0
    high: int | None = None
    step: int = 1
    default: int = 0
    kind = "number"

    def describe(self) -> JSONObject:
        limits: JSONObject = {"min": self.low, "max": self.high, "step": self.step, "default": self.default}
        return {**super().describe(), **limits}


@dataclass(frozen=True, kw_only=True)
class Text(Field):
    """Words (runs of blanks closed up), or with ``as_json`` a raw JSON answer."""

    max_length: int = MAX_TEXT
    as_json: bool = False
    default: JSON = ""
    kind = "text"

    def describe(self) -> JSONObject:
        extra: JSONObject = {"max_length": self.max_length, "json": self.as_json, "default": self.default}
        return {**super().describe(), **extra}


@dataclass(frozen=True, kw_only=True)
class Hex(Field):
    """A hex as the map's ``[column, row]``: one of ``allowed`` (empty: any hex), or with ``only_allowed``
    False any hex, ``allowed`` being those offered (where the rules judge the hex with the other fields)."""

    allowed: tuple[tuple[int, int], ...] = ()
    only_allowed: bool = True
    default: tuple[int, int] | None = None
    kind = "hex"

    def describe(self) -> JSONObject:
        default: JSON = None if self.default is None else list(self.default)
        allowed: JSON = [list(spot) for spot in self.allowed]
        return {**super().describe(), "allowed": allowed, "only_allowed": self.only_allowed, "default": default}


@dataclass(frozen=True)
class Progress:
    """A path judged so far (live feedback while it is built): the steps in words, what they cost of the
    budget, the steps the rules accept next, and whether it may be sent as it stands (else the problem), with
    where it ends and a note on what limits it."""

    steps: tuple[str, ...] = ()
    words: str = ""
    spent: int = 0
    budget: int | None = None
    accepted: tuple[str, ...] = ()
    complete: bool = False
    problem: str = ""
    outcome: str = ""
    note: str = ""
    unit: tuple[str, ...] = ()  # what the budget counts, one and many ("hex", "hexes"); () movement points

    def to_json(self) -> JSONObject:
        return {
            "steps": list(self.steps),
            "words": self.words,
            "spent": self.spent,
            "budget": self.budget,
            "accepted": list(self.accepted),
            "complete": self.complete,
            "problem": self.problem,
            "outcome": self.outcome,
            "note": self.note,
            "unit": list(self.unit),
        }


@dataclass(frozen=True, kw_only=True)
class Path(Field):
    """Steps on the map, one token after another from ``steps`` (the vocabulary, with labels), at most
    ``max_steps``. ``progress``: the path built so far, judged (None when nothing was judged)."""

    steps: tuple[Option, ...]
    max_steps: int = 40
    default: tuple[str, ...] = ()
    progress: Progress | None = None
    kind = "path"

    def describe(self) -> JSONObject:
        data: JSONObject = {**super().describe(), "steps": _options(self.steps)["options"]}
        data.update({"max_steps": self.max_steps, "default": list(self.default)})
        data["progress"] = None if self.progress is None else self.progress.to_json()
        return data


@dataclass(frozen=True, kw_only=True)
class Group(Field):
    """An object: its fields by key, with ``fixed`` constants. ``needs``: an optional group is empty unless
    that field is filled. ``bare``: with only that key given, the group is that value alone."""

    fields: tuple[Field, ...]
    fixed: Mapping[str, JSON] = field(default_factory=dict)
    needs: str = ""
    bare: str = ""
    widget: str = ""
    kind = "group"

    def describe(self) -> JSONObject:
        data: JSONObject = {**super().describe(), "fields": [f.describe() for f in self.fields]}
        data.update({"fixed": dict(self.fixed), "needs": self.needs, "bare": self.bare, "widget": self.widget})
        return data


@dataclass(frozen=True, kw_only=True)
class Repeat(Field):
    """A list: one slot per item (each slot its own field, e.g. a gun with its own targets), between ``low``
    and ``high`` slots filled; empty slots are left out."""

    items: tuple[Field, ...]
    low: int = 0
    high: int | None = None
    kind = "repeat"

    def describe(self) -> JSONObject:
        data: JSONObject = {**super().describe(), "items": [f.describe() for f in self.items]}
        data.update({"min": self.low, "max": self.high})
        return data


@dataclass(frozen=True)
class AnswerSchema:
    """The answer to one request: its ``root`` field, a title, the clause, and ``layout``: a hint for the page
    (``options``, ``move``, ``fire``, ``orders``...; a renderer that knows none draws the fields)."""

    request: str
    root: Field
    title: str = ""
    clause: str = ""
    layout: str = ""
    # The default answer as a captain says it, for the form's "Instead: the default" line; empty: the engine's
    # generic spelling of the answer. Words for the page only: the answer itself is the request's default.
    default_words: str = ""

    def to_json(self) -> JSONObject:
        return {
            "request": self.request,
            "title": self.title,
            "clause": self.clause,
            "layout": self.layout,
            "root": self.root.describe(),
        }


def _options(options: Sequence[Option]) -> JSONObject:
    return {"options": [_option(o) for o in options]}


def _option(option: Option) -> JSONObject:
    data: JSONObject = {"value": option.value, "label": option.label}
    if option.hint:
        data["hint"] = option.hint
    if option.glyph:
        data["glyph"] = option.glyph
    return data


# --- names ------------------------------------------------------------------------------------------------


def child_name(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def leaves(schema: AnswerSchema | Field) -> Iterator[tuple[str, Field]]:
    """Every field a form draws (not groups or repeats) with its posted name, in order."""
    root = schema.root if isinstance(schema, AnswerSchema) else schema
    yield from _leaves(root, "" if isinstance(root, Group) else root.key)


def _leaves(item: Field, name: str) -> Iterator[tuple[str, Field]]:
    """The drawn fields under ``item``; a field without a heading takes the heading of what holds it."""
    parts = item.fields if isinstance(item, Group) and not item.widget else None
    parts = item.items if isinstance(item, Repeat) else parts
    if parts is None:
        yield name, item
        return
    for sub in parts:
        inherited = sub if sub.section or not item.section else replace(sub, section=item.section)
        yield from _leaves(inherited, child_name(name, sub.key))


def leaves_under(item: Field, name: str) -> Iterator[tuple[str, Field]]:
    """The fields inside a group drawn as one control (a party of men by rank), with their posted names."""
    if isinstance(item, Group):
        for sub in item.fields:
            yield from _leaves(sub, child_name(name, sub.key))


def find(schema: AnswerSchema, name: str) -> Field | None:
    return next((item for leaf, item in leaves(schema) if leaf == name), None)


def encode(value: JSON) -> str:
    """A choice as a form posts it: canonical JSON, None as a blank."""
    return "" if value is None else canonical(value)


# --- the assembler ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldError:
    name: str
    message: str
    clause: str = ""


class AnswerError(ValueError):
    """Posted fields that do not spell an answer; ``errors`` says which field and why."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(f"{e.name or 'answer'}: {e.message}" for e in self.errors))


@dataclass(frozen=True)
class Judgement:
    """A partial answer judged: the answer so far, the fields still to fill in, the fields filled in wrong."""

    answer: JSON
    missing: tuple[str, ...]
    errors: tuple[FieldError, ...]

    @property
    def complete(self) -> bool:
        return not self.missing and not self.errors

    def to_json(self) -> JSONObject:
        errors: JSON = [{"field": e.name, "message": e.message, "clause": e.clause} for e in self.errors]
        return {"answer": self.answer, "missing": list(self.missing), "errors": errors, "complete": self.complete}


@dataclass
class _Reading:
    posted: Posted
    missing: list[str] = field(default_factory=list)
    errors: list[FieldError] = field(default_factory=list)

    def first(self, name: str) -> str | None:
        values = self.posted.get(name)
        return str(values[0]) if values else None

    def all(self, name: str) -> list[str]:
        return [str(v) for v in self.posted.get(name) or ()]

    def wrong(self, name: str, item: Field, message: str) -> None:
        self.errors.append(FieldError(name, message, item.clause))


def assemble(schema: AnswerSchema, posted: Posted) -> JSON:
    """The JSON answer posted fields spell, or AnswerError naming each field missing or wrong."""
    judged = judge_partial(schema, posted)
    problems = [*(FieldError(name, "an answer is needed") for name in judged.missing), *judged.errors]
    if problems:
        raise AnswerError(problems)
    return judged.answer


def judge_partial(schema: AnswerSchema, posted: Posted) -> Judgement:
    """How far posted fields go to an answer: the answer so far (empty where missing), what is missing, what
    is wrong. The rules' verdict on the whole is the ruleset's ``validate``."""
    reading = _Reading(posted)
    root = schema.root
    answer = _read(root, "" if isinstance(root, Group) else root.key, reading)
    return Judgement(answer, tuple(reading.missing), tuple(reading.errors))


def _read(item: Field, name: str, reading: _Reading) -> JSON:
    if isinstance(item, Group):
        return _read_group(item, name, reading)
    if isinstance(item, Repeat):
        return _read_repeat(item, name, reading)
    if isinstance(item, Many):
        return _read_many(item, name, reading)
    text = reading.first(name)
    if isinstance(item, One):
        return _read_one(item, name, text, reading)
    if isinstance(item, Number):
        return _read_number(item, name, text, reading)
    if isinstance(item, Text):
        return _read_text(item, name, text, reading)
    if isinstance(item, Hex):
        return _read_hex(item, name, text, reading)
    if isinstance(item, Path):
        return _read_path(item, name, text, reading)
    raise TypeError(f"no reading for {type(item).__name__}")


def _parse(text: str) -> tuple[bool, JSON]:
    try:
        value: JSON = json.loads(text)
    except (TypeError, ValueError):
        return False, None
    return True, value


def _match(options: Sequence[Option], text: str) -> tuple[bool, JSON]:
    """The option a posted value names (compared in canonical spelling, so spacing does not matter)."""
    if text == "":
        found = [o for o in options if o.value is None]
        return bool(found), None
    ok, value = _parse(text)
    if ok:
        spelled = canonical(value)
        for option in options:
            if canonical(option.value) == spelled:
                return True, option.value
    return False, None


def _read_one(item: One, name: str, text: str | None, reading: _Reading) -> JSON:
    blank = any(o.value is None for o in item.options)  # a "Nobody" or "Hold fire": the choice left alone
    if text is None or text == "":
        if not (item.optional or blank):
            reading.missing.append(name)
        return None
    ok, value = _match(item.options, text)
    if not ok:
        reading.wrong(name, item, "not one of the choices offered")
    return value


def _read_many(item: Many, name: str, reading: _Reading) -> JSON:
    chosen: list[JSON] = []
    for text in reading.all(name):
        if text == "":
            continue
        ok, value = _match(item.options, text)
        if not ok:
            reading.wrong(name, item, "not one of the choices offered")
        elif canonical(value) not in {canonical(c) for c in chosen}:
            chosen.append(value)
    if len(chosen) < item.low:
        reading.wrong(name, item, f"choose at least {item.low}")
    if item.high is not None and len(chosen) > item.high:
        reading.wrong(name, item, f"choose at most {item.high}")
    return chosen


def _read_number(item: Number, name: str, text: str | None, reading: _Reading) -> JSON:
    text = (text or "").strip()
    if not text:
        if not item.optional:
            reading.missing.append(name)
        return None
    try:
        number = int(text)
    except ValueError:
        reading.wrong(name, item, "a whole number, please")
        return None
    if number < item.low or (item.high is not None and number > item.high):
        reading.wrong(name, item, f"from {item.low} to {item.high}" if item.high is not None else f"{item.low} or more")
    elif (number - item.low) % max(item.step, 1):
        reading.wrong(name, item, f"in steps of {item.step}")
    return None if item.optional and number == 0 else number


def _read_text(item: Text, name: str, text: str | None, reading: _Reading) -> JSON:
    if item.as_json:
        if not (text or "").strip():
            if not item.optional:
                reading.missing.append(name)
            return None
        ok, value = _parse(text or "")
        if not ok:
            reading.wrong(name, item, "not JSON")
        return value
    words = " ".join((text or "").split())
    if len(words) > item.max_length:
        reading.wrong(name, item, f"at most {item.max_length} characters")
    if not words:
        if not item.optional:
            reading.missing.append(name)
        return None
    return words


def _read_hex(item: Hex, name: str, text: str | None, reading: _Reading) -> JSON:
    if not text:
        if not item.optional:
            reading.missing.append(name)
        return None
    ok, value = _parse(text if text.lstrip().startswith("[") else f"[{text}]")
    spot = value if ok and isinstance(value, list) else []
    if len(spot) != 2 or not all(type(n) is int for n in spot):
        reading.wrong(name, item, "a hex as [column, row]")
        return None
    if item.allowed and item.only_allowed and (spot[0], spot[1]) not in item.allowed:
        reading.wrong(name, item, "not one of the hexes offered")
    return spot


def _read_path(item: Path, name: str, text: str | None, reading: _Reading) -> JSON:
    if text is None and not item.optional:  # not posted at all, as a hex or a number left blank; "[]" stays put
        reading.missing.append(name)
        return []
    ok, value = _parse(text or "[]")
    tokens = {o.value for o in item.steps}
    if not ok or not isinstance(value, list) or not all(isinstance(t, str) and t in tokens for t in value):
        reading.wrong(name, item, "steps the path does not know")
        return []
    if len(value) > item.max_steps:
        reading.wrong(name, item, f"at most {item.max_steps} steps")
    return value


def _read_group(item: Group, name: str, reading: _Reading) -> JSON:
    sub = _Reading(reading.posted)
    result: JSONObject = dict(item.fixed)
    filled = False
    for part in item.fields:
        value = _read(part, child_name(name, part.key), sub)
        if _empty(part, value):
            if part.optional or part.merge:
                continue
        else:
            filled = True
        if part.merge:
            _merge(result, value)
        else:
            result[part.key] = value
    if item.optional and (not filled or (item.needs and _empty(None, result.get(item.needs)))):
        return None  # an optional group left alone: nothing it holds is missing or wrong
    reading.missing.extend(sub.missing)
    reading.errors.extend(sub.errors)
    if item.bare and set(result) == {item.bare}:
        return result[item.bare]
    return result


def _empty(item: Field | None, value: JSON) -> bool:
    return value is None or value == {} or (value == [] and (item is None or item.optional or item.merge))


def _merge(into: JSONObject, value: JSON) -> None:
    """A merged field's object (or each object in its list) joins the group: lists joined, objects joined."""
    for part in value if isinstance(value, list) else [value]:
        if not isinstance(part, dict):
            continue
        for key, given in part.items():
            held = into.get(key)
            if isinstance(held, list) and isinstance(given, list):
                into[key] = [*held, *given]
            elif isinstance(held, dict) and isinstance(given, dict):
                into[key] = {**held, **given}
            else:
                into[key] = given


def _read_repeat(item: Repeat, name: str, reading: _Reading) -> JSON:
    values = [_read(slot, child_name(name, slot.key), reading) for slot in item.items]
    filled: list[JSON] = [v for v in values if v is not None]
    if len(filled) < item.low:
        reading.wrong(name, item, f"at least {item.low} needed")
    if item.high is not None and len(filled) > item.high:
        reading.wrong(name, item, f"at most {item.high} allowed")
    return filled


# --- from an answer back to posted fields -------------------------------------------------------------------


def disassemble(schema: AnswerSchema, answer: JSON) -> dict[str, list[str]]:
    """The posted fields that spell ``answer`` (a default to fill a form in, a refused answer shown again), or
    AnswerError where the schema cannot spell it. ``assemble`` of the result gives the answer back."""
    posted: dict[str, list[str]] = {}
    root = schema.root
    if not _write(root, "" if isinstance(root, Group) else root.key, answer, posted):
        raise AnswerError([FieldError(root.key, f"the form cannot spell {canonical(answer)}")])
    return posted


def _write(item: Field, name: str, value: JSON, posted: dict[str, list[str]]) -> bool:
    if isinstance(item, Group):
        return _write_group(item, name, value, posted)
    if isinstance(item, Repeat):
        return _write_repeat(item, name, value, posted)
    if value is None:
        blank = isinstance(item, One) and any(o.value is None for o in item.options)
        if blank:
            posted[name] = [""]
        return item.optional or blank
    if isinstance(item, One):
        ok = any(canonical(o.value) == canonical(value) for o in item.options)
        posted[name] = [encode(value)] if ok else []
        return ok
    if isinstance(item, Many):
        if not isinstance(value, list):
            return False
        posted[name] = [encode(v) for v in value]
        return all(any(canonical(o.value) == canonical(v) for o in item.options) for v in value)
    if isinstance(item, Number):
        posted[name] = [str(value)]
        return type(value) is int
    if isinstance(item, Text):
        posted[name] = [canonical(value) if item.as_json else str(value)]
        return item.as_json or isinstance(value, str)
    posted[name] = [canonical(value)]  # a hex or a path: its JSON
    return isinstance(value, list)


def _write_group(item: Group, name: str, value: JSON, posted: dict[str, list[str]]) -> bool:
    if value is None:
        return item.optional
    if item.bare and not isinstance(value, dict):
        value = {item.bare: value}
    if not isinstance(value, dict) or any(value.get(k) != v for k, v in item.fixed.items()):
        return False
    rest: JSONObject = {k: v for k, v in value.items() if k not in item.fixed}
    for part in item.fields:
        if part.merge:
            if not _write_merged(part, child_name(name, part.key), rest, posted):
                return False
            continue
        given = rest.pop(part.key, None)
        if given == [] and part.optional:
            given = None
        if not _write(part, child_name(name, part.key), given, posted):
            return False
    return all(v in (None, [], {}) for v in rest.values())


def _write_merged(part: Field, name: str, rest: JSONObject, posted: dict[str, list[str]]) -> bool:
    """Which of a merged field's options the group holds: each option whose keys and items are all there is
    chosen and taken out of what is left to spell."""
    options = part.options if isinstance(part, One | Many) else ()
    chosen: list[JSON] = []
    for option in options:
        if isinstance(option.value, dict) and option.value and _holds(rest, option.value):
            chosen.append(option.value)
            _take(rest, option.value)
            if isinstance(part, One):
                break
    posted[name] = [encode(v) for v in chosen]
    return bool(chosen) or part.optional or part.merge


def _holds(rest: JSONObject, part: JSONObject) -> bool:
    for key, given in part.items():
        held = rest.get(key)
        if isinstance(held, list) and isinstance(given, list):
            if not all(canonical(g) in {canonical(h) for h in held} for g in given):
                return False
        elif isinstance(held, dict) and isinstance(given, dict):
            if any(canonical(held.get(k)) != canonical(v) for k, v in given.items()):
                return False
        elif canonical(held) != canonical(given):
            return False
    return True


def _take(rest: JSONObject, part: JSONObject) -> None:
    for key, given in part.items():
        held = rest.get(key)
        if isinstance(held, list) and isinstance(given, list):
            spelled = {canonical(g) for g in given}
            rest[key] = [h for h in held if canonical(h) not in spelled]
        elif isinstance(held, dict) and isinstance(given, dict):
            rest[key] = {k: v for k, v in held.items() if k not in given}
        else:
            rest.pop(key, None)


def _write_repeat(item: Repeat, name: str, value: JSON, posted: dict[str, list[str]]) -> bool:
    """Each item of the list into the first free slot that can spell it."""
    if value is None:
        return item.optional
    if not isinstance(value, list):
        return False
    free = list(item.items)
    for given in value:
        for slot in free:
            trial: dict[str, list[str]] = {}
            if _write(slot, child_name(name, slot.key), given, trial):
                posted.update(trial)
                free.remove(slot)
                break
        else:
            return False
    return True


def with_progress(schema: AnswerSchema, progress: Progress) -> AnswerSchema:
    """The schema with its root path (or the path in its root group) judged as far as it was built."""
    root = schema.root
    if isinstance(root, Path):
        return replace(schema, root=replace(root, progress=progress))
    if isinstance(root, Group):
        fields = tuple(replace(f, progress=progress) if isinstance(f, Path) else f for f in root.fields)
        return replace(schema, root=replace(root, fields=fields))
    return schema


def value_label(value: JSON) -> str:
    """A listed option in plain words where the ruleset gives none: a word as it is, anything else as JSON."""
    if isinstance(value, str):
        return value.replace("_", " ")
    return "nothing" if value is None else canonical(value)


def default_schema(request: DecisionRequest) -> AnswerSchema:
    """The generic answer schema: one of the listed options, or (open-ended) the answer typed as JSON."""
    label = request.prompt[:1].upper() + request.prompt[1:] if request.prompt else "Your answer"
    root: Field
    if request.options is not None:
        options = tuple(Option(o, value_label(o)) for o in request.options)
        root = One(key="choice", label=label, options=options, default=request.default, clause=request.rule)
        layout = "options"
    else:
        hint = "The answer as JSON; the rules judge it when it is sent."
        root = Text(key="choice", label=label, as_json=True, default=request.default, clause=request.rule, hint=hint)
        layout = "json"
    return AnswerSchema(
        request.id, root, title=request.kind[:1].upper() + request.kind[1:], clause=request.rule, layout=layout
    )
