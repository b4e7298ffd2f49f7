"""battles.engine.frozen.evolve gives what dataclasses.replace gives: copied directly for a frozen, slotted class
made by its __init__ alone, through replace for any other."""

from __future__ import annotations

import dataclasses

import pytest

from battles.engine.frozen import copies_directly, evolve


@dataclasses.dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: tuple[str, ...] = ()
    c: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a below zero")


@dataclasses.dataclass(frozen=True, slots=True)
class Derived:
    a: int
    twice: int = dataclasses.field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.a)


@dataclasses.dataclass(frozen=True)
class Unslotted:
    a: int


def test_a_plain_record_is_copied_directly_with_its_changes():
    assert copies_directly(Plain)
    first = Plain(1, ("x",), {"k": 2})
    changed = evolve(first, a=5)
    assert changed == dataclasses.replace(first, a=5) == Plain(5, ("x",), {"k": 2})
    assert type(changed) is Plain
    assert changed.b is first.b
    assert changed.c is first.c  # the values themselves, as replace passes them on
    assert evolve(first) == first
    assert evolve(first) is not first
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.a = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field"):
        evolve(first, nonsense=1)


def test_a_class_with_more_to_its_init_goes_through_replace():
    assert not copies_directly(Checked)
    assert not copies_directly(Derived)
    assert not copies_directly(Unslotted)
    with pytest.raises(ValueError, match="below zero"):
        evolve(Checked(1), a=-1)  # the check in __post_init__ runs, as with replace
    assert evolve(Derived(2), a=3).twice == 6  # the derived field worked out again
    assert evolve(Unslotted(1), a=2) == Unslotted(2)
