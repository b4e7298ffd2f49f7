"""``evolve``: what ``dataclasses.replace`` gives for the rules' immutable records, at a fraction of its cost.

``replace`` passes every field through the class's ``__init__``, which a frozen dataclass writes field by field
through ``object.__setattr__``; a ship record has forty fields and the rules change one or two of them for every
hit, casualty and step. A frozen dataclass with ``__slots__``, no ``__post_init__`` and every field set by
``__init__`` is copied here by a function made once for its class, which sets each slot straight through its
descriptor: the same fields, the same values, no ``__init__`` to run (so nothing is skipped that replace would
do). Any other class goes to ``replace`` itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_Copier = Callable[[Any, Mapping[str, Any]], Any]

_COPIERS: dict[type, _Copier] = {}


def evolve(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``; an unknown field is a TypeError, as there."""
    copier = _COPIERS.get(type(obj))
    if copier is None:
        copier = _COPIERS.setdefault(type(obj), _copier(type(obj)))
    result: T = copier(obj, changes)
    return result


def copies_directly(cls: type) -> bool:
    """Does :func:`evolve` copy ``cls`` itself (rather than hand it to ``dataclasses.replace``)?"""
    params = getattr(cls, "__dataclass_params__", None)
    return (
        params is not None
        and params.frozen
        and "__slots__" in cls.__dict__
        and not hasattr(cls, "__post_init__")
        and all(f.init for f in dataclasses.fields(cls))
        # an InitVar is an __init__ argument but no field: only __init__ knows what to do with it
        and not any(isinstance(t, dataclasses.InitVar) for t in getattr(cls, "__annotations__", {}).values())
    )


def _replace(obj: Any, changes: Mapping[str, Any]) -> Any:
    return dataclasses.replace(obj, **changes)


def _copier(cls: type) -> _Copier:
    """The copy function for ``cls``: generated, as dataclasses generates ``__init__``, one line a field."""
    if not copies_directly(cls):
        return _replace
    names = [f.name for f in dataclasses.fields(cls)]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_known": frozenset(names), "_TypeError": TypeError}
    lines = [
        "def copy(obj, changes):",
        "    if not changes.keys() <= _known:",
        "        raise _TypeError(f'{_cls.__name__} has no field {sorted(changes.keys() - _known)}')",
        "    new = _new(_cls)",
    ]
    for n, name in enumerate(names):
        scope[f"_set{n}"] = getattr(cls, name).__set__  # the slot's member descriptor
        lines.append(f"    _set{n}(new, changes[{name!r}] if {name!r} in changes else obj.{name})")
    lines.append("    return new")
    exec("\n".join(lines), scope)
    copy: _Copier = scope["copy"]
    return copy
