"""The Cloudships AI captain's answers to the boarding and ordnance decisions (ai.py over tactics.py): it grapples
and boards on when a round is likelier won than not and casts off when losing, takes its boarding losses keeping
the most boarding value, lets out mines and drogues at enemies near at the band they ride, and launches a Smutts
torpedo only with an enemy first on its line. Each answer is asked by the rules at a state of the test's making."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import ai, boarding, panels, tactics
from battles.rules.cloudships_2023.board import Board, BoardingRound
from battles.rules.cloudships_2023.kinds import (
    BOARD,
    BOARD_DECISION,
    CAST_OFF,
    GRAPPLE,
    LOSSES_DECISION,
    NOTHING,
    ORDNANCE_DECISION,
    PARTY_HITS_DECISION,
)
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023 import ordnance_kit
from tests.rules.cloudships_2023.battle_kit import changed, resolve
from tests.rules.cloudships_2023.ordnance_kit import DROGUE, HIGH, LOW, MEDIUM, MINE, TORPEDO, ahead
from tests.rules.cloudships_2023.test_boarding import aboard, locked


def asked(state: BattleState[Board], kind: str) -> DecisionRequest:
    request = resolve(state).state.pending()[0]
    assert request.kind == kind, request.kind
    return request


def captain_says(state: BattleState[Board], request: DecisionRequest) -> JSON:
    choice = ai.Captain(b"ai-seed").propose(CLOUDSHIPS, state, request)
    assert request.allows(choice)
    assert CLOUDSHIPS.validate(state, request, choice) is None
    return choice


# --- grapple, board on, cast off -------------------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-01", "CM-BRD-03")
@pytest.mark.parametrize(
    ("aphid", "locust", "wanted"),
    [
        ({"parties": 6}, {"parties": 1}, {GRAPPLE: "Locust"}),  # far the stronger: the odds favour her
        ({"parties": 1}, {"parties": 6}, NOTHING),  # the weaker leaves well alone
        ({"parties": 2}, {"parties": 2}, NOTHING),  # alike: a round is likelier lost or tied than won
    ],
)
def test_she_grapples_only_when_a_round_is_likelier_won_than_not(aphid, locust, wanted):
    state = aboard(Aphid=aphid, Locust=locust)
    request = asked(state, BOARD_DECISION)
    assert captain_says(state, request) == wanted


@pytest.mark.rule("CM-BRD-17", "CM-BRD-18")
@pytest.mark.parametrize(
    ("aphid", "locust", "wanted"), [({"parties": 5}, {"parties": 1}, BOARD), ({"parties": 1}, {"parties": 5}, CAST_OFF)]
)
def test_she_boards_on_while_winning_and_casts_off_when_losing(aphid, locust, wanted):
    state = locked(aboard(Aphid=aphid, Locust=locust))
    request = asked(state, BOARD_DECISION)
    assert request.default == {BOARD: "Locust"}
    assert captain_says(state, request) == {wanted: "Locust"}


@pytest.mark.rule("CM-BRD-07", "CM-BRD-12", "CM-BRD-20")
@pytest.mark.parametrize(("mine", "standing"), [(4, 1.0), (3, 5 / 6), (2, 4 / 6), (1, 0.0)])
def test_the_odds_are_a_round_won_a_die_plus_boarding_value_each_and_her_own_loss_survived(mine, standing):
    """Her boarding value ``mine`` (parties alone: the Aphid's anti-personnel guns lost) against the Locust's."""
    st = aboard(Aphid={"parties": mine}, Locust={"parties": 1})
    aphid = st.board.ship_named("Aphid")
    anti_personnel = tuple(gun.number for gun in aphid.panel.guns if gun.kind == panels.ANTI_PERSONNEL)
    aphid = replace(aphid, guns_lost=anti_personnel)
    locust = st.board.ship_named("Locust")
    assert boarding.boarding_value(aphid) == mine
    his = boarding.boarding_value(locust)
    wins = sum(1 for die in range(1, 7) for other in range(1, 7) if die + mine > other + his)
    assert tactics.boarding_odds(aphid, locust) == pytest.approx(wins / 36 * standing)


# --- boarding losses and party hits ----------------------------------------------------------------------------


def losses_request(board: Board, name: str, points: int) -> tuple[Board, DecisionRequest]:
    board = replace(board, fight=BoardingRound("Aphid", "Locust", "attackers", ((name, points),)))
    ship = board.ship_named(name)
    options = tuple(way.to_json() for way in boarding.ways_to_lose(ship, points))
    request = DecisionRequest("r1", ship.side, LOSSES_DECISION, "boarding", "CM-BRD-11", options[0], options)
    return board, request


@pytest.mark.rule("CM-BRD-11", "CM-FLY-25")
def test_her_losses_keep_the_most_boarding_value_and_the_flights_when_her_track_spares_them():
    state = aboard(Locust={"parties": 4, "flights": 2})
    locust = state.board.ship_named("Locust")
    ahead_boxes = locust.boxes()[locust.crossed :].count(panels.BOARDING_PARTY)
    board, request = losses_request(state.board, "Locust", 2)
    choice = boarding.Losses.of(captain_says(state.evolve(board=board), request))
    if ahead_boxes <= 2:
        assert (choice.parties, choice.flights) == (2, 0)  # two parties, the flights kept
    else:
        assert (choice.parties, choice.flights) == (0, 1)  # one flight: the parties left to take the boxes
    board, request = losses_request(state.board, "Locust", 1)
    assert boarding.Losses.of(captain_says(state.evolve(board=board), request)).parties == 1  # never a flight for 1


@pytest.mark.rule("CM-BRD-11", "CM-FLY-25")
def test_with_more_boarding_party_boxes_ahead_than_parties_she_gives_up_a_flight_first():
    state = aboard(Locust={"parties": 2, "flights": 2})
    locust = state.board.ship_named("Locust")
    track = ((panels.BOARDING_PARTY,) * 6, *locust.panel.track[1:])
    state = state.evolve(board=changed(state.board, "Locust", panel=replace(locust.panel, track=track), crossed=0))
    board, request = losses_request(state.board, "Locust", 2)
    choice = boarding.Losses.of(captain_says(state.evolve(board=board), request))
    assert (choice.parties, choice.flights) == (0, 1)
    assert tactics.flights_worth_keeping(board.ship_named("Locust"), 2) is False


@pytest.mark.rule("CM-FLY-25")
def test_boarding_party_hits_take_as_few_flights_as_may_be():
    options: tuple[JSON, ...] = ({"ship": "Locust", "flights": 1}, {"ship": "Locust", "flights": 2})
    request = DecisionRequest("r2", "martians", PARTY_HITS_DECISION, "damage", "CM-FLY-25", options[0], options)
    assert ai.party_hits(request) == {"ship": "Locust", "flights": 1}


# --- mines, drogues and torpedoes -------------------------------------------------------------------------------


def orders(state: BattleState[Board]) -> dict[str, Any]:
    """The captain's orders, each kind spelled out (an order of nothing is left out of the answer)."""
    choice = captain_says(state, asked(state, ORDNANCE_DECISION))
    assert isinstance(choice, dict)
    return {"let_out": [], "winch_in": [], "launch": [], **choice}


def kinds_let_out(state: BattleState[Board]) -> set[str]:
    gloire = state.board.ship_named("Gloire")
    return {gloire.gun(number).kind for number in orders(state)["let_out"]}


@pytest.mark.rule("CM-TM-01", "CM-TM-03", "CM-DT-01")
def test_she_lets_out_a_mine_at_an_enemy_near_above_her_and_a_drogue_at_one_near_below():
    above = ordnance_kit.at_move("Gloire", places={"Locust": (ahead(2), HIGH)})
    assert kinds_let_out(above) == {panels.TETHER_MINE}
    assert MINE in orders(above)["let_out"]  # each mine out strikes in turn until one hits (CM-TM-06)
    below = ordnance_kit.at_move("Gloire", places={"Hullcutter": (ahead(2), LOW)})
    assert kinds_let_out(below) == {panels.DROGUE}
    assert DROGUE in orders(below)["let_out"]
    far = ordnance_kit.at_move("Gloire", places={"Locust": (ahead(12), HIGH)})
    assert orders(far)["let_out"] == []


@pytest.mark.rule("CM-SMT-01", "CM-SMT-06")
def test_she_launches_a_torpedo_only_with_an_enemy_first_on_its_line_within_twenty_hexes():
    on_line = ordnance_kit.at_move("Triumph", places={"Skyfire": (ahead(8), MEDIUM)})
    assert orders(on_line)["launch"] == [TORPEDO]
    other_band = ordnance_kit.at_move("Triumph", places={"Skyfire": (ahead(8), HIGH)})
    assert orders(other_band)["launch"] == []
    friend_first = ordnance_kit.at_move("Triumph", places={"Gloire": (ahead(3), MEDIUM), "Skyfire": (ahead(8), MEDIUM)})
    assert orders(friend_first)["launch"] == []
    assert tactics.TORPEDO_REACH == 20


# --- the move: alongside a ship she would board, and after the prize a capture names ------------------------------


def moving(state: BattleState[Board], name: str) -> tactics.Sight:
    return tactics.sight(state.board, state.board.ship_named(name))


@pytest.mark.rule("CM-BRD-01")
def test_ending_alongside_an_enemy_she_would_board_is_worth_a_share_of_her_boxes_and_nothing_when_she_would_not():
    strong = aboard(Aphid={"parties": 6}, Locust={"parties": 1})
    locust = strong.board.ship_named("Locust")
    alongside = (locust.hex, 0, locust.band)
    worth = tactics.boarding_worth(moving(strong, "Aphid"), alongside)
    odds = tactics.boarding_odds(strong.board.ship_named("Aphid"), locust)
    left = locust.panel.track_length - locust.crossed
    assert worth == pytest.approx(tactics.BOARD_SHARE * (odds - 0.5) * left * tactics.target_value(locust))
    assert tactics.boarding_worth(moving(strong, "Aphid"), (locust.hex, 0, HIGH)) == 0.0  # another band
    weak = aboard(Aphid={"parties": 1}, Locust={"parties": 6})
    assert tactics.boarding_worth(moving(weak, "Aphid"), alongside) == 0.0
    held = locked(strong)
    assert tactics.boarding_worth(moving(held, "Aphid"), alongside) == 0.0  # locked already: no other


def test_a_capture_sends_its_ship_after_the_prize_and_no_one_else():
    state = aboard()
    capture = {"kind": "capture", "ship": "Aphid", "prize": "Locust"}
    board = replace(state.board, victory=capture)
    assert tactics.prize_for(board, board.ship_named("Aphid")) == board.ship_named("Locust")
    assert tactics.prize_for(board, board.ship_named("Reliant")) is None
    assert tactics.prize_for(state.board, state.board.ship_named("Aphid")) is None  # the last side flying
    view = tactics.sight(board, board.ship_named("Aphid"))
    locust = board.ship_named("Locust")
    assert tactics.pursuit(view, (locust.hex, 0, locust.band)) == 0.0
    two_off = hexgrid.neighbour(hexgrid.neighbour(locust.hex, 0), 0)
    assert tactics.pursuit(view, (two_off, 0, HIGH)) == pytest.approx(3 * tactics.PRIZE_PULL)  # 2 hexes, 1 band
