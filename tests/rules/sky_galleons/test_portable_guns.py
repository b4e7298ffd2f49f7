"""Portable machineguns trained in secret (SG-MG-04/06, SG-CG-56/57): battles/rules/sky_galleons/portable_guns.py
and the ruleset's sealed initiative order ``train``.

The Aphid (side a) at (6, 8) facing north, her gun 5 refitted as a Gardner on the starboard broadside; the
Sky Runner Runner (side b) two hexes off her port beam at (4, 8). Nobody moves; only the Gardner fires.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.events import canonical, visible_events
from battles.engine.state import redact, state_to_json
from battles.rules.sky_galleons import portable_guns
from battles.rules.sky_galleons.kinds import FIRE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from tests.rules.sky_galleons.battle_harness import State, at, calm, drive, kinds, refused, scenario, ship, start

SEED = b"maxim"
GARDNER = "5"
TRAIN = {"train": [{"ship": "Aphid", "gun": GARDNER, "aspect": "port"}]}


def armed(seed: bytes = SEED) -> tuple[State, State]:
    initial, first = start(scenario([ship("Aphid", "Aphid", (6, 8))], [ship("Runner", "Sky Runner", (4, 8))]), seed)

    def refit(s: State) -> State:
        aphid = s.board.ship("Aphid")
        gun = replace(aphid.gun(GARDNER), weapon_id="gardner", crew=1, manned=1, arcs=("starboard",))
        return replace(s, board=s.board.with_ship(aphid.with_gun(gun)))

    return refit(initial), refit(first)


def gardner_fires(state: State, request: DecisionRequest) -> Any:
    if request.kind == FIRE and request.side == "a":
        shots = [{"ship": "Aphid", "gun": GARDNER, "target": "Runner"}]
        return {"shots": shots} if RS.validate(state, request, {"shots": shots}) is None else {"shots": []}
    return calm({"a": TRAIN} if state.turn == 1 else {})(state, request)


def test_training_a_gun_lays_it_on_one_aspect_for_the_fire_rules() -> None:
    _, first = armed()
    aphid = first.board.ship("Aphid")
    assert portable_guns.moves(aphid, {}, GARDNER, "port")
    assert not portable_guns.moves(aphid, {}, GARDNER, "starboard")  # already there: no move, no lost turn
    trained = {portable_guns.key("Aphid", GARDNER): ("port", 1)}
    laid = portable_guns.trained_record(aphid, trained)
    assert (laid.gun(GARDNER).arcs, laid.gun(GARDNER).trained_turn) == (("port",), 1)
    assert portable_guns.untrained(laid, aphid) == aphid
    assert portable_guns.revealed(trained, "Aphid", GARDNER) == {"trained_aspect": "port"}
    assert portable_guns.revealed(trained, "Aphid", "1") == {}


@pytest.mark.rule("SG-MG-04", "SG-CG-56", "SG-CG-55")
def test_a_training_order_names_a_portable_gun_and_an_aspect() -> None:
    _, first = armed()
    request = first.pending("a")[0]
    assert request.kind == ORDERS
    base = {"crew": [], "strike": []}
    assert RS.validate(first, request, {**base, **TRAIN}) is None
    wrong = [
        {"ship": "Aphid", "gun": "1", "aspect": "port"},  # the 4" gun is not portable
        {"ship": "Aphid", "gun": GARDNER, "aspect": "up"},
        {"ship": "Runner", "gun": GARDNER, "aspect": "port"},  # not our ship
        {"ship": "Aphid", "gun": GARDNER},
    ]
    for order in wrong:
        assert refused(first, request, {**base, "train": [order]}).clause == "SG-MG-04"
    twice = {**base, "train": [TRAIN["train"][0], {"ship": "Aphid", "gun": GARDNER, "aspect": "stern"}]}
    assert refused(first, request, twice).clause == "SG-MG-04"


@pytest.mark.rule("SG-MG-06", "SG-CG-57", "SG-MG-04")
def test_the_trained_aspect_stays_secret_until_the_gun_fires() -> None:
    initial, first = armed()
    # Turn 1: trained to port, it may not fire.
    state, events, request = drive(first, gardner_fires, SEED, at(FIRE, "a", turn=1))
    assert request is not None
    trained = kinds(events, "gun trained")
    assert len(trained) == 1
    assert trained[0].visibility == "side:a"
    assert (trained[0].data["aspect"], trained[0].turn) == ("port", 1)
    assert not [s for s in RS.solutions(state, "a") if s.gun_id == GARDNER]
    shot = {"shots": [{"ship": "Aphid", "gun": GARDNER, "target": "Runner"}]}
    assert refused(state, request, shot).clause == "SG-MG-04"
    # The orders were revealed without the training; the record never shows it.
    revealed = [e for e in events if e.kind == "decisions" and "train" in canonical(e.data)]
    assert not revealed
    assert state.board.ship("Aphid").gun(GARDNER).arcs == ("starboard",)
    # Turn 2: it fires out of the port aspect, and the fire event names it, for everyone.
    state, more, _ = drive(state, gardner_fires, SEED, at(ORDERS, turn=3))
    fire = [e for e in kinds(more, "fire") if e.data["gun"] == GARDNER]
    assert fire
    assert fire[0].visibility == "public"
    assert fire[0].data["trained_aspect"] == "port"
    log = events + more
    before_fire = [e for e in visible_events(log, "b") if e.seq < fire[0].seq]
    assert not [e for e in before_fire if '"port"' in canonical(e.data) and "Aphid" in e.ships]
    records = [e.data["record"] for e in log if e.kind == "ship" and e.data["ship"] == "Aphid"]
    assert records  # she fired: her gun marked as fired is a public record change
    assert all(gun["arcs"] == ["starboard"] for r in records for gun in r["guns"] if gun["id"] == GARDNER)
    # The fold from the log rebuilds the same battle, the secret included.
    replayed = resolver.replay(RS, first, log)
    assert state_to_json(RS, replayed) == state_to_json(RS, state)
    assert replayed.board.trained == {portable_guns.key("Aphid", GARDNER): ("port", 1)}
    assert initial.board.trained == {}


@pytest.mark.rule("SG-MG-04")
def test_the_captain_trains_a_portable_gun_on_the_enemys_aspect() -> None:
    _, first = armed()
    request = first.pending("a")[0]
    answer = Captain(b"ai").choose(RS, redact(first, "a"), request)
    assert isinstance(answer, dict)
    assert answer["train"] == TRAIN["train"]
    assert RS.validate(first, request, answer) is None
