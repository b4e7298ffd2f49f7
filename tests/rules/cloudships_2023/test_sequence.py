"""The Cloudships sequence of play: rounds of cards drawn by logged dice, a ship's five steps, the end of the round,
the end of the battle; the deck never shown; replay byte for byte."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from battles.engine import dice, events, policies, resolver, state
from battles.engine.events import ROLL
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.kinds import (
    CARD_TURNED,
    CRASHED,
    DECK,
    DECK_MADE,
    MOVE_DECISION,
    STATUS_CHECKED,
    STRUCK,
    TURN_CARD,
    TURN_ENDED,
    TURN_IT,
    TURN_STEPS,
)
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import (
    SCENARIO,
    at_stage,
    changed,
    fight,
    mid_round,
    new,
    of_kind,
    resolve,
)

SHIPS = [str(entry["name"]) for entry in SCENARIO["ships"]]


def rounds_of(log: list[events.Event]) -> list[list[str]]:
    """The cards turned, round by round."""
    rounds: list[list[str]] = []
    for event in log:
        if event.kind == DECK_MADE:
            rounds.append([])
        elif event.kind == CARD_TURNED:
            rounds[-1].append(str(event.data["ship"]))
    return rounds


@pytest.mark.rule("CM-SEQ-03", "CM-SEQ-04", "CM-SEQ-13")
def test_every_round_turns_one_card_per_ship_each_once_then_a_new_round_begins():
    fought = fight(new())
    assert fought.state.over
    played = rounds_of(fought.events)
    assert len(played) == SCENARIO["rounds"] == fought.state.turn
    for turned in played:
        assert sorted(turned) == sorted(SHIPS)
    made = of_kind(fought.events, DECK_MADE)
    assert [e.data["cards"] for e in made] == [SHIPS] * len(played)  # the cards, in the board's order, never drawn


@pytest.mark.rule("CM-SEQ-03")
def test_each_card_is_drawn_by_a_logged_die_over_the_cards_left_and_the_last_needs_none():
    fought = fight(new())
    log = fought.events
    for n, event in enumerate(log):
        if event.kind != CARD_TURNED:
            continue
        before = log[n - 1]
        if before.kind == ROLL:
            assert before.data["purpose"].startswith("the next card")
            assert before.data["outcome"] == event.data["ship"]
            assert before.data["sides"] >= 2
        else:  # the round's last card: nothing left to choose from
            made = max(i for i in range(n) if log[i].kind == DECK_MADE)
            assert len(of_kind(log[made:n], CARD_TURNED)) == len(SHIPS) - 1
    assert dice.verify_log(b"cm-seed", [e.to_json() for e in log], fought.state.seed_commitment) == []


@pytest.mark.rule("CM-SEQ-04")
def test_the_deck_is_shuffled_afresh_every_round():
    orders = Counter(
        tuple(turned) for seed in (b"a", b"b", b"c") for turned in rounds_of(fight(new(seed), seed).events)
    )
    assert len(orders) > 10  # 18 rounds of 5 cards: a deck that were not shuffled would give one order
    firsts = Counter(order[0] for order in orders)
    assert set(firsts) == set(SHIPS)


@pytest.mark.rule("CM-SEQ-05", "CM-SEQ-06", "CM-SEQ-07", "CM-SEQ-11", "CM-SEQ-12", "CM-SEQ-13")
def test_a_ships_turn_goes_status_move_fire_damage_ambers_then_ends():
    log = fight(new()).events
    first = next(n for n, e in enumerate(log) if e.kind == CARD_TURNED)
    end = next(n for n, e in enumerate(log) if e.kind == TURN_ENDED)
    stages = list(dict.fromkeys(e.phase for e in log[first + 1 : end + 1]))
    assert stages == list(TURN_STEPS)
    assert [e.kind for e in log[first:end] if e.kind == STATUS_CHECKED] == [STATUS_CHECKED]


def player_view(st: state.BattleState[Board], log: list[events.Event], side: str) -> str:
    seen = state.redact(st, side)
    board = CLOUDSHIPS.board_view(seen, side)
    data = state.state_to_data(CLOUDSHIPS, seen)
    data.update(board=board, seed_commitment="")  # the one thing two seeds must differ in
    shown = [CLOUDSHIPS.event_view(e, side) for e in log]
    return events.canonical({"state": data, "log": [e for e in shown if e is not None]})


@pytest.mark.rule("CM-SEQ-03")
def test_no_player_and_not_even_the_umpire_can_see_the_order_of_the_cards_not_yet_turned():
    """Two battles whose cards come up in different orders look the same to every side, byte for byte, up to the
    moment the first card is turned: nothing a player is shown depends on the order. The draws are dice not yet
    rolled, so the state and the log hold no order to hide (the umpire's view, None, is the same too)."""
    seeds = [b"order-%d" % n for n in range(12)]
    waiting = {seed: resolve(new(seed, umpire=True), seed) for seed in seeds}  # at the first go-ahead
    assert all(started.state.pending()[0].kind == TURN_CARD for started in waiting.values())
    orders = {seed: rounds_of(fight(new(seed), seed).events)[0] for seed in seeds}
    a, b = seeds[0], next(s for s in seeds if orders[s] != orders[seeds[0]])
    for side in (*new().sides, None):
        views = [player_view(waiting[s].state, waiting[s].events, side) for s in (a, b)]
        assert views[0] == views[1]
        assert json.loads(views[0])["state"]["board"]["deck"] == {"cards": SHIPS, "turned": []}  # which, not how


@pytest.mark.rule("CM-SEQ-03")
def test_with_the_umpire_option_each_card_waits_for_the_umpires_go_ahead_and_the_app_turns_it_otherwise():
    started = resolve(new(umpire=True))
    request = started.state.pending()[0]
    assert (request.kind, request.options, request.side) == (TURN_CARD, (TURN_IT,), new().sides[0])
    assert request.umpire
    assert not request.secret
    assert not of_kind(started.events, CARD_TURNED)
    after = resolver.submit(
        CLOUDSHIPS, started.state, side=request.side, request_id=request.id, choice=TURN_IT, seed=b"cm-seed"
    )
    assert isinstance(after, resolver.Accepted)
    turned = of_kind(after.events, CARD_TURNED)
    assert len(turned) == 1
    moving = after.state.pending()[0]  # her captain moves her, then says "next"
    assert (moving.kind, moving.ships) == (MOVE_DECISION, (turned[0].data["ship"],))
    after = resolver.submit(
        CLOUDSHIPS, after.state, side=moving.side, request_id=moving.id, choice=moving.default, seed=b"cm-seed"
    )
    assert isinstance(after, resolver.Accepted)
    following = after.state.pending()[0]
    assert following.kind == TURN_CARD
    assert following.umpire
    owner = after.state.board.ship_named(str(turned[0].data["ship"])).side
    assert following.side == owner  # logged under the side that has just finished: its captain's, where no one plays
    assert all(r.kind != TURN_CARD for r in resolve(new()).state.pending())  # no go-ahead without the option


@pytest.mark.rule("CM-BRD-21", "CM-ALT-02")
def test_a_ship_out_of_the_fight_has_no_card_this_round_or_the_next():
    st = new()
    board = mid_round(st)
    board = replace(board, deck=replace(board.deck, turned=()))
    board = changed(board, "Locust", status=STRUCK)
    board = changed(board, "Reliant", status=CRASHED, band=panels.GROUND)
    fought = fight(at_stage(st, DECK, board))
    played = rounds_of([events.Event(0, 1, DECK, DECK_MADE, {"cards": []}), *fought.events])
    assert all("Locust" not in turned and "Reliant" not in turned for turned in played)
    assert sorted(played[0]) == ["Aphid", "Hullcutter", "Skylord"]


@pytest.mark.rule("CM-SEQ-03")
def test_a_card_whose_ship_falls_before_it_is_turned_is_taken_out():
    st = new()
    board = mid_round(st)
    board = replace(board, deck=replace(board.deck, turned=("Aphid",)))
    assert board.cards_left() == ("Reliant", "Locust", "Skylord", "Hullcutter")
    assert changed(board, "Skylord", status=CRASHED, band=panels.GROUND).cards_left() == (
        "Reliant",
        "Locust",
        "Hullcutter",
    )


def test_the_battle_ends_when_one_side_alone_still_flies():
    st = new()
    board = mid_round(st, active="Aphid")
    board = changed(board, "Reliant", status=CRASHED, band=panels.GROUND)
    board = changed(board, "Aphid", status=CRASHED, band=panels.GROUND)
    fought = resolve(at_stage(st, TURN_STEPS[-1], board))
    assert fought.state.over
    assert fought.state.winner == "martians"
    assert of_kind(fought.events, TURN_ENDED)


def test_the_battle_ends_at_the_scenarios_round_limit_a_draw():
    fought = fight(new())
    assert fought.state.over
    assert fought.state.winner is None
    assert fought.state.turn == SCENARIO["rounds"]
    assert "round limit" in fought.state.result


def test_a_scenario_without_a_round_limit_gets_the_default_and_rejects_a_ship_above_her_ceiling():
    scenario = {key: value for key, value in SCENARIO.items() if key != "rounds"}
    assert new(scenario=scenario).board.rounds == 12
    ships = [dict(entry) for entry in SCENARIO["ships"]]
    ships[4]["band"] = "High"  # the Hullcutter's ceiling is High: fine
    new(scenario={**SCENARIO, "ships": ships})
    ships[0]["band"] = "Ground"
    with pytest.raises(ValueError, match="Aphid"):
        new(scenario={**SCENARIO, "ships": ships})


# --- replay -----------------------------------------------------------------------------------------------------


def fought_with_answers(seed: bytes) -> tuple[state.BattleState[Board], list[events.Event], state.BattleState[Board]]:
    initial = new(seed, umpire=True)
    done = policies.auto_play(
        CLOUDSHIPS, initial, seed=seed, policies={side: policies.DefaultPolicy() for side in initial.sides}
    )
    return initial, done.events, done.state


def test_the_same_seed_and_answers_give_the_same_log_byte_for_byte_and_replay_rebuilds_the_state():
    initial, log, final = fought_with_answers(b"replay")
    again = fought_with_answers(b"replay")
    assert events.events_to_json(log) == events.events_to_json(again[1])
    assert final.over
    text = events.events_to_json(log)
    rebuilt = resolver.replay(CLOUDSHIPS, initial, events.events_from_json(text))
    assert state.state_to_json(CLOUDSHIPS, rebuilt) == state.state_to_json(CLOUDSHIPS, final)
    assert resolver.rerun(CLOUDSHIPS, initial, log, b"replay") == log
    assert events.events_to_json(fought_with_answers(b"other")[1]) != text


def test_every_state_of_a_battle_round_trips_through_json_and_keeps_the_invariants():
    initial, log, _ = fought_with_answers(b"round trip")
    current = initial
    for event in log:
        current = resolver.apply_event(CLOUDSHIPS, current, event)
        text = state.state_to_json(CLOUDSHIPS, current)
        assert state.state_to_json(CLOUDSHIPS, state.state_from_json(CLOUDSHIPS, text)) == text
        assert CLOUDSHIPS.check_invariants(current) == [], event.kind
