"""The battle as one side may see it (battles/rules/sky_galleons/visibility.py, the ruleset's board_view and
event_view): own ships whole, the enemy as seen across the sky, the umpire everything.

Two shipped scenarios played by the AI are walked event by event, each event and the boards a player is served
checked for each side; a harness battle (side a: the Sky Runner Runner at (4, 8); side b: the Hullcutter Reaver
at (10, 8) with a Gardner as gun 6 and two tether mines aboard, one man short at gun 1) is played twice, once
with side b's hidden business (men to a gun, a boarding party, the Gardner trained, a signal, then the party
disbanded) and once without: side a's view of the battle must not tell the two apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from battles.engine.decisions import DecisionRequest
from battles.engine.events import DECISION_REQUESTED, DECISIONS, ENGINE_KINDS, JSON, Event, JSONObject, canonical
from battles.engine.resolver import apply_event
from battles.engine.simulate import seed_for, simulate
from battles.engine.state import state_from_json, state_to_json
from battles.rules.sky_galleons import flying, ordnance, ordnance_play, scenario, visibility
from battles.rules.sky_galleons.kinds import ORDERS, PLOT
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import Ordnance, ShipRecord
from tests.rules.sky_galleons.battle_harness import State, calm, drive, ship, start
from tests.rules.sky_galleons.battle_harness import scenario as harness_scenario

# What may be kept to one side: secret answers, and the events carrying a side's own business (with the records
# and notes of a crew change committed to that side too).
SECRET_KINDS = {"decision", "ship", "effects", *visibility.OWN_SIDE_KINDS}
KNOWN_KINDS = ENGINE_KINDS | visibility.TRIMMED_KINDS | visibility.OWN_SIDE_KINDS | visibility.PUBLIC_KINDS
ENVELOPE = ("seq", "turn", "phase", "kind", "ships", "visibility")
REQUEST_ID = re.compile(r'"d[0-9]+"')  # the engine's request ids, "d" and the number of the event that opened it


def walk(initial: State, events: list[Event]) -> Iterator[tuple[State, Event]]:
    """Each event with the state it leaves."""
    state = initial
    for event in events:
        state = apply_event(RS, state, event)
        yield state, event


def _object(value: JSON) -> JSONObject:
    assert isinstance(value, dict), value
    return value


def _list(value: JSON) -> list[JSON]:
    assert isinstance(value, list), value
    return value


# --- what an enemy record may show --------------------------------------------------------------------------


def assert_seen_from_outside(seen: JSONObject, full: JSONObject) -> None:
    """``seen`` is another side's ship as a side sees it; ``full`` the record itself."""
    assert set(seen) <= set(full)
    for key in visibility.SEEN_KEYS & set(full):
        assert seen[key] == full[key], key  # what shows is shown as it is
    crew = _object(seen["crew"])
    assert {k for k, v in crew.items() if v is not None} <= visibility.SEEN_CREW_KEYS  # SG-SEQ-02
    assert set(_object(seen["party"]).values()) == {None}  # the party at home and its size
    assert _object(seen["boarders"])["posts"] is None
    assert {k: v for k, v in _object(seen["boarders"]).items() if k != "posts"} == {
        k: v for k, v in _object(full["boarders"]).items() if k != "posts"
    }  # boarders fighting on a deck are seen
    for key in visibility.BLANKED_KEYS & set(full):
        assert seen[key] is None, key
    guns, true_guns = _list(seen["guns"]), _list(full["guns"])
    assert len(guns) == len(true_guns)
    for gun, true_gun in zip(guns, true_guns, strict=True):
        gun, true_gun = _object(gun), _object(true_gun)
        assert gun["manned"] is None
        assert "trained_turn" not in gun  # SG-MG-06
        assert (gun["destroyed"], gun["last_fired"], gun["arcs"]) == (
            true_gun["destroyed"],
            true_gun["last_fired"],
            true_gun["arcs"],
        )
    for item in _list(seen.get("ordnance", [])):
        item = _object(item)
        assert item["state"] not in visibility.UNSHOWN_ORDNANCE.get(str(item["weapon"]), ())


def assert_board_seen(state: State, side: str | None, *, rebuilt: State | None = None) -> JSONObject:
    """The board ``side`` is served: JSON, the same every time (and from ``rebuilt``, the state read back from
    its JSON), the umpire's whole, own ships whole, the enemy's as seen from outside, the other sides' secrets
    gone."""
    seen = _object(RS.board_view(state, side))
    assert json.loads(canonical(seen)) == seen
    if rebuilt is not None:
        assert canonical(RS.board_view(rebuilt, side)) == canonical(seen)
    full = _object(RS.board_to_json(state.board))
    if side is None:
        assert seen == full
        return seen
    assert set(seen) == set(full)
    board = state.board
    for shown, true in zip(_list(seen["ships"]), _list(full["ships"]), strict=True):
        shown, true = _object(shown), _object(true)
        if true["side"] == side:
            assert shown == true  # own ships in full
        else:
            assert_seen_from_outside(shown, true)
    assert set(_object(seen["ai"])) <= {side}
    owners = {name: board.ship(name).side for name in board.by_name}
    assert {owners[key.rsplit("|", 1)[0]] for key in _object(seen["trained"])} <= {side}  # SG-MG-06
    mine = {request.id for request in state.requests if request.side == side}
    assert set(_object(seen["sealed"])) <= mine  # SG-MG-06, SG-SIG-05
    for name, steps in _object(seen["plots"]).items():  # SG-ERR-24/25
        if owners[name] != side and name not in board.plotted:
            assert steps is None
    for name, men in _object(seen["crew_at_start"]).items():
        assert (men is None) == (owners[name] != side)
    for answer in _list(seen["decided"]):
        answer = _object(answer)
        assert_choice_seen(str(answer["kind"]), answer["side"], answer["choice"], side)
    return seen


def assert_choice_seen(kind: str, owner: JSON, choice: JSON, side: str) -> None:
    if owner == side:
        return
    if kind == ORDERS:
        assert set(_object(choice)) <= visibility.SEEN_ORDERS  # SG-SEQ-02; the ram count shows, SG-RAM-01
    if kind == PLOT:
        assert choice == {"plots": None}  # SG-ERR-24


def assert_event_seen(event: Event, side: str) -> JSONObject | None:
    """One event as ``side`` sees it: withheld exactly when it is kept to another side, else the same event
    with the other sides' detail trimmed."""
    assert event.kind in KNOWN_KINDS  # every kind the ruleset logs is read one way or another
    seen = RS.event_view(event, side)
    assert (seen is None) == (not event.visible_to(side))
    if seen is None:
        assert event.kind in SECRET_KINDS
        return None
    whole = event.to_json()
    assert json.loads(canonical(seen)) == seen
    assert {k: seen[k] for k in ENVELOPE} == {k: whole[k] for k in ENVELOPE}
    if event.kind in ("crew change",):
        assert event.visibility == f"side:{side}"  # crew assignments stay with their side (SG-SEQ-02)
    if event.kind == "party order" and "recall" not in _object(event.data["order"]):
        assert event.visibility == f"side:{side}"  # a party formed or disbanded at home
    if event.kind == "plots":
        assert event.visibility == f"side:{side}"  # SG-ERR-24
    if event.kind in ("ship", "reinforcement"):
        record, true = _object(seen["record"]), _object(whole["record"])
        if true["side"] == side:
            assert record == true
        else:
            assert_seen_from_outside(record, true)
    if event.kind == "effects":
        for note in _list(seen["notes"]):
            note = _object(note)
            if note.get("side", side) != side and "SG-DMG-18" in _list(note["clauses"]):
                assert note["outcome"] is None  # the posts the men fell at (SG-DMG-18)
    if event.kind == DECISION_REQUESTED:
        request = _object(seen["request"])
        if request["side"] != side:
            assert (request["default"], request["prompt"]) == (None, "")
            if request["secret"]:
                assert request["options"] is None
    if event.kind == DECISIONS:
        for answer in _object(seen["answers"]).values():
            answer = _object(answer)
            assert_choice_seen(str(answer["decision"]), answer["side"], answer["choice"], side)
    return seen


# --- battles played by the AI ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-SEQ-02", "SG-RAM-01", "SG-DMG-18", "SG-MG-06")
# Seeds of battles with crew changes to hide (checked below).
@pytest.mark.parametrize(("slug", "number"), [("john-bulls-tyranny", 5), ("the-great-raid", 6)])
def test_each_side_sees_its_own_ships_whole_and_the_enemy_as_seen_across_the_sky(slug: str, number: int) -> None:
    played = simulate(RS, scenario.load_data(slug), seed=seed_for(number))
    sides = played.initial.sides
    withheld: dict[str, set[str]] = {side: set() for side in sides}
    blanked_casualties = checked = 0
    for state, event in walk(played.initial, played.events):
        assert RS.event_view(event, None) == event.to_json()  # the umpire sees everything
        for side in sides:
            seen = assert_event_seen(event, side)
            if seen is None:
                withheld[side].add(event.kind)
            elif event.kind == "effects":
                blanked_casualties += sum(1 for n in _list(seen["notes"]) if _object(n)["outcome"] is None)
        if event.kind in (DECISION_REQUESTED, DECISIONS):  # the boards a player is served when asked
            checked += 1
            rebuilt = state_from_json(RS, state_to_json(RS, state)) if checked % 20 == 1 else None
            for viewer in (None, *sides):
                assert_board_seen(state, viewer, rebuilt=rebuilt)
    # Not vacuous: secret answers, crew changes and casualties were there to hide.
    assert all("decision" in kinds for kinds in withheld.values())
    assert any("crew change" in kinds for kinds in withheld.values())
    assert blanked_casualties > 0


# --- a harness battle with hidden business on one side ----------------------------------------------------------

GARDNER = "6"
HIDDEN_ORDERS: Mapping[int, Mapping[str, Any]] = {
    1: {
        "crew": [{"ship": "Reaver", "gun": "1", "men": 1, "from": "deckhands"}],
        "parties": [{"ship": "Reaver", "men": {"marine_officers": 1, "marines": 9, "deckhands": 4}}],
        "train": [{"ship": "Reaver", "gun": GARDNER, "aspect": "port"}],
        "signal": {"ship": "Reaver", "to": "all", "words": "engage the enemy more closely"},
    },
    2: {"disband": ["Reaver"]},
}


def harness_battle(seed: bytes, options: Mapping[str, Any] | None = None) -> State:
    """The battle at its first decision, the Reaver refitted: a Gardner as gun 6, gun 1 a man short."""
    reaver = {**ship("Reaver", "Hullcutter", (10, 8)), "tether_mines": 2}
    data = harness_scenario([ship("Runner", "Sky Runner", (4, 8))], [reaver], turns=3)
    state = start(data, seed, {"signals": True, **(options or {})})[1]
    record = state.board.ship("Reaver")
    gardner = replace(record.gun(GARDNER), weapon_id="gardner", crew=1, manned=1, arcs=("stern",))
    short = replace(record.gun("1"), manned=record.gun("1").manned - 1)
    return replace(state, board=state.board.with_ship(record.with_gun(gardner).with_gun(short)))


def play(state: State, decide: Callable[[State, DecisionRequest], Any], seed: bytes) -> list[Event]:
    events = drive(state, decide, seed, lambda _s, _r: False)[1]
    return events


def hidden_business(hide: bool) -> Callable[[State, DecisionRequest], Any]:
    def decide(state: State, request: DecisionRequest) -> Any:
        if hide and request.kind == ORDERS and request.side == "b":
            return {"crew": [], "strike": [], **HIDDEN_ORDERS.get(state.turn, {})}
        return calm()(state, request)

    return decide


def as_seen(initial: State, events: list[Event], side: str | None) -> list[str]:
    """What ``side`` is shown, event by event, with the board after each, as canonical JSON.

    The events' numbers and the request ids made from them are renumbered in the order the side meets them:
    the engine numbers events over the whole log, so the events withheld before one shift its number (how
    many were withheld is not hidden by the views; the battle app renumbers what it serves)."""
    shown = []
    for state, event in walk(initial, events):
        seen = RS.event_view(event, side)
        if seen is not None:
            shown.append(canonical([{k: v for k, v in seen.items() if k != "seq"}, RS.board_view(state, side)]))
    ids: dict[str, str] = {}
    return [REQUEST_ID.sub(lambda m: ids.setdefault(m.group(), f'"r{len(ids)}"'), text) for text in shown]


@pytest.mark.rule("SG-SEQ-02", "SG-MG-06", "SG-SIG-05", "SG-BRD-01", "SG-BRD-04", "SG-DMG-18")
def test_the_enemy_cannot_tell_whether_a_side_changed_its_crew_formed_a_party_or_trained_a_gun() -> None:
    seed = b"hidden-business"
    start_state = harness_battle(seed)
    quiet, busy = (play(start_state, hidden_business(hide), seed) for hide in (False, True))
    assert as_seen(start_state, busy, "a") == as_seen(start_state, quiet, "a")
    # Side b and the umpire do see it (so the business was done, and the test can fail).
    assert as_seen(start_state, busy, "b") != as_seen(start_state, quiet, "b")
    assert as_seen(start_state, busy, None) != as_seen(start_state, quiet, None)
    kept = {e.kind for e in busy if not e.visible_to("a")} - {e.kind for e in quiet if not e.visible_to("a")}
    assert kept == {"crew change", "party order", "ship", "gun trained", "signal"}
    for state, event in walk(start_state, busy):
        boards = {side: assert_board_seen(state, side) for side in ("a", "b")}
        for side in ("a", "b"):
            assert_event_seen(event, side)
        if event.kind == "party order":  # formed: side b's board shows its party, side a's does not
            seen = {side: reaver(board) for side, board in boards.items()}
            assert seen["b"]["party"] == state.board.ship("Reaver").to_json()["party"]
            assert set(_object(seen["a"]["party"]).values()) == {None}
        if event.kind == "gun trained":
            assert set(_object(boards["b"]["trained"])) == {f"Reaver|{GARDNER}"}
            assert _object(boards["a"]["trained"]) == {}


def reaver(board: JSONObject) -> JSONObject:
    return next(_object(s) for s in _list(board["ships"]) if _object(s)["name"] == "Reaver")


@pytest.mark.rule("SG-ERR-24", "SG-ERR-25")
def test_a_plot_is_seen_by_the_enemy_only_as_it_is_carried_out() -> None:
    seed = b"hidden-plots"
    start_state = harness_battle(seed, {"plotted_movement": True})

    def plots(steps: list[str]) -> Callable[[State, DecisionRequest], Any]:
        def decide(state: State, request: DecisionRequest) -> Any:
            if request.kind == PLOT:
                return {"plots": {"Reaver": steps} if request.side == "b" else {}}
            return calm()(state, request)

        return decide

    one, two = (play(start_state, plots(steps), seed) for steps in (["ahead"], ["ahead", "ahead"]))

    def until_carried_out(events: list[Event]) -> list[Event]:
        first = next(i for i, e in enumerate(events) if e.kind == "moved" and e.data["ship"] == "Reaver")
        return events[:first]

    before_one, before_two = until_carried_out(one), until_carried_out(two)
    assert [e.kind for e in before_one if e.kind == "plots"] == ["plots", "plots"]  # one for each side
    assert as_seen(start_state, before_one, "a") == as_seen(start_state, before_two, "a")
    assert as_seen(start_state, before_one, "b") != as_seen(start_state, before_two, "b")
    # Once carried out, the plot is on side a's board too.
    for state, event in walk(start_state, one):
        if event.kind == "plotted move" and event.data["ship"] == "Reaver":
            rebuilt = state_from_json(RS, state_to_json(RS, state))
            assert _object(assert_board_seen(state, "a", rebuilt=rebuilt)["plots"])["Reaver"] == ["ahead"]
            break
        assert_board_seen(state, "a")
    else:
        pytest.fail("the Reaver never carried out her plot")


# --- the pieces ----------------------------------------------------------------------------------------------


def test_every_kind_the_ruleset_logs_is_read_one_way_or_another() -> None:
    """A new kind of event must be classified in visibility.py (public, trimmed, or kept to its side)."""
    source = "".join(path.read_text() for path in Path(visibility.__file__).parent.rglob("*.py"))
    emitted = set(re.findall(r'emit\(\s*"([^"]+)"', source)) | set(flying.EVENTS)
    assert len(emitted) > 40
    assert emitted <= KNOWN_KINDS - ENGINE_KINDS
    assert emitted >= visibility.TRIMMED_KINDS | visibility.OWN_SIDE_KINDS | visibility.PUBLIC_KINDS


def test_every_record_field_is_seen_blanked_or_trimmed_by_a_rule() -> None:
    trimmed = {"guns", "crew", "party", "boarders", "ordnance"}
    known = visibility.SEEN_KEYS | visibility.BLANKED_KEYS | trimmed
    assert set(ShipRecord.KEYS) | set(ShipRecord.OPTIONAL_KEYS) == known


@pytest.mark.rule("SG-SMT-09", "SG-TM-03", "SG-CG-77")
def test_stocks_aboard_are_not_seen_until_they_show() -> None:
    state = harness_battle(b"stocks")
    reaver = state.board.ship("Reaver")
    items = (
        Ordnance("T1", ordnance.SMUTTS_TORPEDO, "stowed"),
        Ordnance("T2", ordnance.SMUTTS_TORPEDO, "launched", since=1),
        Ordnance("L1", ordnance.BOMB_LOAD, "spare"),
        Ordnance("B1", ordnance.BOMB_RACK, "empty"),
        Ordnance("D1", ordnance.DROGUE, "raised"),
        Ordnance("D2", ordnance.DROGUE, "lowered", since=1),
    )
    record = replace(reaver, ordnance=(*reaver.ordnance, *items)).to_json()
    seen = visibility.ship_seen(record, "a")
    shown = [_object(item)["id"] for item in _list(seen["ordnance"])]
    assert shown == ["T2", "B1", "D2"]  # the mines aboard (lowered, safe), T1, L1 and D1 are not
    assert visibility.ship_seen(record, "b") == record
    assert "ordnance" not in visibility.ship_seen(replace(reaver, ordnance=items[:1]).to_json(), "a")


@pytest.mark.rule("SG-DMG-18", "SG-CG-77")
def test_an_enemy_ships_casualties_show_their_number_not_their_posts() -> None:
    notes: list[JSON] = [
        {
            "ship": "Reaver",
            "side": "b",
            "what": "2 crew casualties on Reaver",
            "outcome": "gun:1 2",
            "clauses": ["SG-DMG-18"],
        },
        {
            "ship": "Reaver",
            "side": "b",
            "what": "4 of Reaver's deckhands reload rack B1",
            "outcome": "x",
            "clauses": ["SG-CG-77"],
        },
        {
            "ship": "Reaver",
            "side": "b",
            "what": "hull hits on Reaver",
            "outcome": "2 hull hits",
            "clauses": ["SG-DMG-13"],
        },
        {"ship": "T1", "what": "torpedo leaves the map", "outcome": "gone", "clauses": ["SG-SMT-03"]},
    ]
    seen = visibility.notes_seen(notes, "a")
    assert seen == [{**_object(notes[0]), "outcome": None}, notes[2], notes[3]]
    assert visibility.notes_seen(notes, "b") == notes


@pytest.mark.rule("SG-SEQ-02", "SG-RAM-01", "SG-ERR-24", "SG-MG-06")
def test_another_sides_orders_and_plots_show_only_what_is_carried_out_in_the_open() -> None:
    orders: JSON = {
        "crew": [{"ship": "Reaver", "gun": "1", "men": 1}],
        "parties": [{"ship": "Reaver", "men": {"officers": 1}}],
        "disband": ["Reaver"],
        "reload": [{"ship": "Reaver", "rack": "B1"}],
        "flying_parties": [{"ship": "Reaver", "men": {"officers": 1}}],
        "ram": 1,
        "strike": [],
        "cut": [["Reaver", "Runner"]],
        "mines": [{"ship": "Reaver", "raised": True}],
    }
    assert visibility.choice_seen(ORDERS, "b", orders, "a") == {
        "ram": 1,
        "strike": [],
        "cut": [["Reaver", "Runner"]],
        "mines": [{"ship": "Reaver", "raised": True}],
    }
    assert visibility.choice_seen(ORDERS, "b", orders, "b") == orders
    assert visibility.choice_seen(PLOT, "b", {"plots": {"Reaver": ["ahead"]}}, "a") == {"plots": None}
    assert visibility.choice_seen("fire", "b", {"shots": []}, "a") == {"shots": []}
    hidden = {"crew", "parties", "disband", "reload", flying.FORM_ORDER, "train", "signal"}
    assert not hidden & visibility.SEEN_ORDERS
    public = {"strike", "ram", "recall", "cut", "tow", "prizes", *ordnance_play.ORDER_KEYS, *flying.ORDER_KEYS}
    assert public >= visibility.SEEN_ORDERS
