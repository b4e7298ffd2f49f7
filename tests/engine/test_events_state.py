import json

import pytest

from battles.engine import dice, events, resolver, state
from battles.engine.decisions import DecisionRequest
from battles.engine.events import Event
from tests.engine import toy


def test_canonical_json_is_sorted_and_compact():
    assert events.canonical({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'
    assert events.plain((1, (2, 3))) == [1, [2, 3]]
    with pytest.raises(ValueError, match="Out of range"):
        events.canonical(float("nan"))


def test_an_event_serialises_flat_and_round_trips():
    event = Event(
        seq=4,
        turn=2,
        phase="fire",
        kind="roll",
        ships=("Aphid", "Swiftwood"),
        data={
            "purpose": "to hit",
            "dice": [5],
            "modifiers": {"altitude": -1},
            "total": 4,
            "needed": "3+",
            "outcome": "hit",
        },
    )
    flat = event.to_json()
    assert flat["kind"] == "roll"
    assert flat["dice"] == [5]
    assert flat["seq"] == 4
    assert flat["ships"] == ["Aphid", "Swiftwood"]
    assert flat["visibility"] == "public"
    assert Event.from_json(json.loads(events.canonical(flat))) == event
    text = events.events_to_json([event, event])
    assert events.events_to_json(events.events_from_json(text)) == text


def test_visibility():
    public = Event(0, 1, "plot", "note")
    secret = Event(1, 1, "plot", "decision", visibility=events.side_only("red"))
    assert events.visible_events([public, secret], "blue") == [public]
    assert events.visible_events([public, secret], "red") == [public, secret]
    assert events.visible_events([public, secret], None) == [public, secret]


def test_decision_request_round_trip_and_options():
    request = DecisionRequest(
        id="d3",
        side="red",
        kind="fire",
        phase="fire",
        rule="SG-FIRE-01",
        default={"fire": False},
        options=({"fire": False}, {"fire": True}),
    )
    assert DecisionRequest.from_json(json.loads(events.canonical(request.to_json()))) == request
    assert request.allows({"fire": True})
    assert not request.allows({"fire": "maybe"})
    open_ended = DecisionRequest(id="d4", side="red", kind="plot", phase="plot", rule="SG-MOV-02", default=[])
    assert open_ended.allows(["anything"])


def test_state_round_trips_through_canonical_json():
    rs = toy.Bidding()
    seed = b"zebra-seed-1234"
    initial = resolver.new_battle(rs, {"turns": 2}, seed_commitment=dice.commitment(seed))
    opened = resolver.resolve(rs, initial, seed).state
    req = opened.pending("a")[0]
    answered = resolver.submit(rs, opened, side="a", request_id=req.id, choice=1, seed=seed)
    assert isinstance(answered, resolver.Accepted)
    for battle in (initial, opened, answered.state):
        text = state.state_to_json(rs, battle)
        assert state.state_from_json(rs, text) == battle
        assert state.state_to_json(rs, state.state_from_json(rs, text)) == text
    assert '"seed_commitment":"' + dice.commitment(seed) in text
    assert "zebra" not in text
    assert seed.hex() not in text


def test_pending_lists_unanswered_requests_by_side():
    rs = toy.Bidding()
    seed = b"pending"
    opened = resolver.resolve(rs, resolver.new_battle(rs, {}, seed_commitment=dice.commitment(seed)), seed).state
    assert [r.side for r in opened.pending()] == ["a", "b"]
    assert [r.side for r in opened.pending("b")] == ["b"]
    assert opened.request("nope") is None


def test_plain_copies_as_the_json_round_trip_does():
    """plain builds common data directly (issue 21); what it gives is what json.loads(canonical(...)) gives, key
    order included, and anything unusual still takes the round trip."""
    import enum

    class Word(enum.StrEnum):
        A = "a"

    class Number(enum.IntEnum):
        TWO = 2

    shapes = [
        {"b": 1, "a": (1, 2.5, [None, True]), "c": {"z": -0.0, "y": 1e16}},
        {1: "x", 2: [Word.A, Number.TWO]},
        {"k": Word.A, "n": Number.TWO},
        [[[]], (), {}],
        2**70,
        "text",
    ]
    for value in shapes:
        copied = events.plain(value)
        assert repr(copied) == repr(json.loads(events.canonical(value)))
    nested = {"a": [{"b": 1}]}
    copied = events.plain(nested)
    assert copied == nested
    assert copied["a"] is not nested["a"]
    assert copied["a"][0] is not nested["a"][0]
    for bad in (float("nan"), {"a": float("inf")}, {(1, 2): 3}, object()):
        with pytest.raises((TypeError, ValueError)):
            events.plain(bad)


def test_a_state_evolves_as_dataclasses_replace_would():
    import dataclasses

    start = resolver.new_battle(toy.Bidding(), {"turns": 2}, seed_commitment="")
    assert start.evolve(seq=3, phase="x") == dataclasses.replace(start, seq=3, phase="x")
    assert start.evolve() == start
    assert start.evolve() is not start
    with pytest.raises(TypeError):
        start.evolve(nonsense=1)
