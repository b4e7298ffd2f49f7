"""battles.engine.memo.Recent: an answer is found again only for the very same objects and equal values."""

from __future__ import annotations

from battles.engine.memo import Recent


def test_an_answer_is_found_for_the_same_objects_and_equal_values_only():
    memo: Recent[str] = Recent(2)
    board, other = {"a": 1}, {"a": 1}  # equal, but not the same object
    memo.keep((board,), (3, "x"), "kept")
    assert memo.recall((board,), (3, "x")) == "kept"
    assert memo.recall((other,), (3, "x")) is None
    assert memo.recall((board,), (4, "x")) is None


def test_only_the_last_few_are_kept():
    memo: Recent[int] = Recent(2)
    keys = [object() for _ in range(3)]
    for n, key in enumerate(keys):
        memo.keep((key,), (), n)
    assert memo.recall((keys[0],), ()) is None
    assert memo.recall((keys[1],), ()) == 1
    assert memo.recall((keys[2],), ()) == 2


def test_each_set_of_objects_keeps_its_last_few_values_and_asking_again_keeps_it_newest():
    memo: Recent[int] = Recent(2)
    firer, target, third = object(), object(), object()
    for gun in range(3):
        memo.keep((firer, target), (gun,), gun)
    assert memo.recall((firer, target), (0,)) is None  # two values a set of objects
    assert [memo.recall((firer, target), (gun,)) for gun in (1, 2)] == [1, 2]
    assert memo.recall((target, firer), (1,)) is None  # the objects in their places
    memo.keep((third,), (), 9)
    memo.keep((firer, target), (3,), 3)  # kept again: now the newest set of objects
    memo.keep((target,), (), 8)
    assert memo.recall((third,), ()) is None
    assert memo.recall((firer, target), (3,)) == 3
    assert memo.recall((target,), ()) == 8
