"""Signal communication (SG-SIG-01..05): battles/rules/sky_galleons/signals.py and the optional signal rule.

Flat-top axial hexes; the wind is the hexside it blows from (0 = north, clockwise).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine.decisions import DecisionRequest
from battles.engine.events import canonical, visible_events
from battles.engine.hexgrid import Hex
from battles.engine.state import redact
from battles.rules.sky_galleons import signals
from battles.rules.sky_galleons.kinds import FIRST, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import ShipRecord, ship_record_from_class
from tests.rules.sky_galleons.battle_harness import State, at, calm, drive, kinds, refused, scenario, ship, start

NORTH, SOUTH = 0, 3


def record(name: str, at_: Hex, side: str = "a", **changes: Any) -> ShipRecord:
    made = ship_record_from_class("Sky Runner", name=name, position=at_, facing=0, altitude="M", side=side)
    return replace(made, **changes)


def no_signalman(r: ShipRecord) -> ShipRecord:
    return replace(r, crew=r.crew.with_count("signalman", 0))


# --- who can signal and read ---------------------------------------------------------------------------


@pytest.mark.rule("SG-SIG-01")
def test_a_ship_signals_and_reads_through_its_signalman() -> None:
    a, b = record("A", Hex(0, 0)), record("B", Hex(0, 3))
    assert signals.can_signal(a)
    assert signals.can_read(b, a, None)
    mute = no_signalman(a)
    assert not signals.can_signal(mute)
    assert not signals.can_read(b, mute, None)  # nobody hoists its flags
    assert not signals.can_read(mute, b, None)  # and nobody reads them aboard


@pytest.mark.rule("SG-SIG-01")
def test_another_crewman_may_take_the_dead_signalmans_place() -> None:
    mute = no_signalman(record("A", Hex(0, 0)))
    again = signals.replace_signalman(mute, "deckhands")
    assert again.crew.signalman == 1
    assert again.crew.deckhands == mute.crew.deckhands - 1
    assert signals.can_signal(again)
    with pytest.raises(ValueError, match="still at his post"):
        signals.replace_signalman(record("A", Hex(0, 0)), "deckhands")
    with pytest.raises(ValueError, match="one of"):
        signals.replace_signalman(mute, "helmsman")
    with pytest.raises(ValueError, match="no officers"):
        signals.replace_signalman(replace(mute, crew=mute.crew.with_count("officers", 0)), "officers")


@pytest.mark.rule("SG-SIG-02")
def test_upwind_is_toward_the_hexside_the_wind_blows_from() -> None:
    reader = Hex(0, 0)
    assert signals.upwind(reader, Hex(0, -2), NORTH)  # straight into a north wind
    assert signals.upwind(reader, Hex(1, -2), NORTH)  # off to one side but still ahead of the beam
    assert not signals.upwind(reader, Hex(0, 2), NORTH)  # downwind
    assert not signals.upwind(reader, Hex(2, -1), NORTH)  # exactly abeam: not upwind
    assert not signals.upwind(reader, reader, NORTH)
    assert signals.upwind(reader, Hex(0, 2), SOUTH)


@pytest.mark.rule("SG-SIG-02", "SG-SIG-05")
def test_no_ship_reads_a_burning_ship_upwind_of_it() -> None:
    reader = record("Reader", Hex(0, 0))
    burning = record("Burning", Hex(0, -3), fire=2)
    assert not signals.can_read(reader, burning, NORTH)  # the smoke blows down onto the reader
    assert signals.can_read(reader, burning, SOUTH)  # it blows away from it
    assert signals.can_read(reader, burning, None)  # no wind: the smoke rises straight up
    assert signals.can_read(reader, replace(burning, fire=0), NORTH)
    assert signals.can_read(burning, reader, NORTH)  # the burning ship still reads the others


@pytest.mark.rule("SG-SIG-01", "SG-SIG-03")
def test_the_links_show_who_is_cut_off_from_his_side() -> None:
    ships = [
        record("A", Hex(0, 0)),
        no_signalman(record("B", Hex(0, 4))),
        record("C", Hex(4, 0), side="b"),
    ]
    links = signals.links(ships, None)
    assert links["A"]["reads"] == ["C"]
    assert links["A"]["read_by"] == ["C"]
    assert links["B"] == {"side": "a", "can_signal": False, "reads": [], "read_by": [], "cut_off": True}
    assert links["A"]["cut_off"] is True  # its only friend, B, can neither read nor be read
    assert links["C"]["cut_off"] is False  # no friends to be cut off from


# --- the optional signal rule in a battle ---------------------------------------------------------------

SEED = b"signals"
FLAG = {"ship": "Flag", "to": "all", "words": "Form line to my stern"}


def fleet(options: dict[str, Any], *, wind: int | None = None) -> State:
    """Side a: the Flag at (6, 8) and the Consort at (6, 5), three hexes north; side b: the Runner at (10, 6)."""
    a = [ship("Flag", "Sky Runner", (6, 8)), ship("Consort", "Sky Runner", (6, 5))]
    b = [ship("Runner", "Sky Runner", (10, 6), facing=3)]
    return start(scenario(a, b, wind=wind), SEED, options)[1]


def orders_request(s: State, side: str = "a") -> DecisionRequest:
    request = s.pending(side)[0]
    assert request.kind == ORDERS
    return request


def hoist(s: State, signal: dict[str, Any]) -> list[Any]:
    decide = calm({"a": {"signal": signal}})
    _, events, _ = drive(s, decide, SEED, at(FIRST))
    return events


@pytest.mark.rule("SG-SIG-04", "SG-SIG-05")
def test_a_signal_is_read_only_by_the_senders_side_with_naval_codes() -> None:
    events = hoist(fleet({"signals": True}), FLAG)
    read = kinds(events, "signal")
    assert len(read) == 1
    assert read[0].visibility == "side:a"
    assert read[0].data["readers"] == ["Consort"]
    assert (read[0].data["words"], read[0].data["to"]) == ("Form line to my stern", "all")
    assert not [e for e in visible_events(events, "b") if "Form line" in canonical(e.data)]


@pytest.mark.rule("SG-SIG-05")
def test_without_naval_codes_any_side_able_to_read_the_signal_gets_it() -> None:
    events = hoist(fleet({"signals": True, "naval_codes": False}), FLAG)
    read = {e.visibility: e.data["readers"] for e in kinds(events, "signal")}
    assert read == {"side:a": ["Consort"], "side:b": ["Runner"]}


@pytest.mark.rule("SG-SIG-05", "SG-SIG-02")
def test_a_burning_senders_signal_is_passed_only_to_those_who_can_read_it() -> None:
    # The Consort is three hexes north of the burning Flag. In a north wind the smoke blows south, away from
    # the Consort, which reads her; in a south wind it blows north over the Consort, which cannot.
    state = fleet({"signals": True}, wind=NORTH)
    flag = state.board.ship("Flag")
    state = replace(state, board=state.board.with_ship(replace(flag, fire=1)))
    assert kinds(hoist(state, FLAG), "signal")[0].data["readers"] == ["Consort"]
    state = fleet({"signals": True}, wind=SOUTH)
    state = replace(state, board=state.board.with_ship(replace(state.board.ship("Flag"), fire=1)))
    read = kinds(hoist(state, FLAG), "signal")
    assert read[0].data["readers"] == []  # its own side still learns nobody could read it


@pytest.mark.rule("SG-SIG-04", "SG-SIG-01")
def test_a_signal_is_six_words_at_most_from_a_ship_with_a_signalman() -> None:
    state = fleet({"signals": True})
    request = orders_request(state)
    base: dict[str, Any] = {"crew": [], "strike": []}
    assert RS.validate(state, request, {**base, "signal": FLAG}) is None
    long = {**FLAG, "words": "Form line to my stern at once"}
    assert refused(state, request, {**base, "signal": long}).clause == "SG-SIG-04"
    assert refused(state, request, {**base, "signal": {**FLAG, "to": "Nobody"}}).clause == "SG-SIG-04"
    assert refused(state, request, {**base, "signal": {**FLAG, "ship": "Runner"}}).clause == "SG-SIG-04"
    assert RS.validate(state, request, {**base, "signal": {**FLAG, "to": "Consort"}}) is None
    mute = replace(state, board=state.board.with_ship(no_signalman(state.board.ship("Flag"))))
    assert refused(mute, request, {**base, "signal": FLAG}).clause == "SG-SIG-01"
    relieved = {"crew": [{"ship": "Flag", "signalman": "deckhands"}], "strike": [], "signal": FLAG}
    assert RS.validate(mute, request, relieved) is None
    # With the optional rule off there are no signals to hoist.
    plain = fleet({})
    assert refused(plain, orders_request(plain), {**base, "signal": FLAG}).clause == "SG-SEQ-02"


@pytest.mark.rule("SG-SIG-05")
def test_the_signal_is_kept_out_of_the_public_reveal_of_the_orders() -> None:
    events = hoist(fleet({"signals": True}), FLAG)
    decisions = kinds(events, "decisions")
    assert decisions
    assert all("Form line" not in canonical(e.data) for e in decisions)
    own = [e for e in kinds(events, "decision") if "Form line" in canonical(e.data)]
    assert [e.visibility for e in own] == ["side:a"]


@pytest.mark.rule("SG-SIG-01", "SG-SIG-03")
def test_the_ruleset_tells_the_battle_app_who_can_read_whom() -> None:
    state = fleet({})
    links = RS.signal_links(state)
    assert links["Flag"]["reads"] == ["Consort", "Runner"]
    assert links["Flag"]["cut_off"] is False
    mute = replace(state, board=state.board.with_ship(no_signalman(state.board.ship("Consort"))))
    assert RS.signal_links(mute)["Flag"]["cut_off"] is True


@pytest.mark.rule("SG-SIG-04", "SG-SIG-01")
def test_the_captain_hoists_the_sides_target_and_replaces_a_dead_signalman() -> None:
    state = fleet({"signals": True})
    state = replace(state, board=state.board.with_ship(no_signalman(state.board.ship("Flag"))))
    request = orders_request(state)
    answer = Captain(b"ai").choose(RS, redact(state, "a"), request)
    assert isinstance(answer, dict)
    assert {"ship": "Flag", "signalman": "deckhands"} in answer["crew"]
    assert answer["signal"] == {"ship": "Consort", "to": "all", "words": "Engage the Runner"}  # Flag is mute now
    assert RS.validate(state, request, answer) is None
    assert "signal" not in Captain(b"ai").choose(RS, redact(fleet({}), "a"), orders_request(fleet({})))
