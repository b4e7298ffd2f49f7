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
