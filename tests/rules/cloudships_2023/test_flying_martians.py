"""Flying Martians (CM-FLY-*): aboard, two points of boarding value each and the captain's choice of what a
Boarding Party box takes; deployed, a flight's move, reach and survival as pure rules (flights.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid, resolver
from battles.engine.resolver import Context
from battles.rules.cloudships_2023 import flights, panels
from battles.rules.cloudships_2023.board import DamageDue
from battles.rules.cloudships_2023.flights import CLIMB, DESCEND, FlightError
from battles.rules.cloudships_2023.kinds import DAMAGE, PARTY_HITS_DECISION, PARTY_LOST
from battles.rules.cloudships_2023.phases.damage import cross_boxes
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, of_kind, resolve

MIDDLE = hexgrid.from_odd_q(15, 11)
N, NE = "north", "north-east"


def clause(start_band: str, steps: list[str]) -> str | None:
    try:
        flights.fly(MIDDLE, start_band, steps)
    except FlightError as error:
        return error.clause
    return None


# --- deployed: the move ------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-FLY-07", "CM-FLY-11", "CM-FLY-12")
def test_a_flight_flies_two_hexes_any_way_it_likes_up_to_high():
    flown = flights.fly(MIDDLE, panels.MEDIUM, [N, NE])
    assert (flown.hex, flown.band) == (hexgrid.neighbour(hexgrid.neighbour(MIDDLE, 0), 1), panels.MEDIUM)
    assert clause(panels.MEDIUM, [N, N, N]) == "CM-FLY-08"  # two points, nothing carried over
    assert clause(panels.HIGH, [CLIMB]) == "CM-FLY-07"


@pytest.mark.rule("CM-FLY-08")
def test_each_band_climbed_costs_a_point_so_a_flight_can_climb_two_straight_up():
    assert flights.fly(MIDDLE, panels.LOW, [CLIMB, CLIMB]).band == panels.HIGH
    assert clause(panels.LOW, [CLIMB, N, N]) == "CM-FLY-08"


@pytest.mark.rule("CM-FLY-09", "CM-FLY-10")
def test_golden_a_flight_swooping_from_high_to_low_has_2_plus_2_points():
    flown = flights.fly(MIDDLE, panels.HIGH, [DESCEND, DESCEND, N, N, N, N])
    assert (flown.band, flown.spent, flown.gained) == (panels.LOW, 4, 2)
    assert clause(panels.HIGH, [DESCEND, DESCEND, N, N, N, N, N]) == "CM-FLY-08"
    assert clause(panels.LOW, [DESCEND]) == "CM-FLY-07"


# --- deployed: attacking and attacked ---------------------------------------------------------------------------


@pytest.mark.rule("CM-FLY-17", "CM-FLY-19")
def test_a_flight_attacks_next_door_or_from_directly_above_short_two_hexes_off_long_and_never_from_below():
    medium, high, low = panels.MEDIUM, panels.HIGH, panels.LOW
    assert flights.reach(1, medium, medium) == "short"
    assert flights.reach(0, high, medium) == "short"  # directly above her
    assert flights.reach(2, medium, medium) == "long"
    assert flights.reach(3, medium, medium) is None
    assert flights.reach(1, low, medium) is None  # from below: the hull turns it (CM-FLY-17)
    assert flights.reach(0, low, medium) is None
    assert flights.reach(1, high, medium) is None


@pytest.mark.rule("CM-FLY-15", "CM-FLY-16")
def test_a_flight_shrugs_off_two_anti_personnel_hits_and_three_wipe_it_out():
    assert [flights.survives(hits) for hits in range(5)] == [True, True, True, False, False]


# --- aboard: the Boarding Party box ---------------------------------------------------------------------------------


def party_box_due(parties: int, carried: int, seed: bytes = b"cm-seed") -> Any:
    """The damage step of the Aphid's turn, the Locust owed damage that crosses one Boarding Party box; she has
    ``parties`` parties and ``carried`` flights aboard."""
    st = new(seed)
    board = mid_round(st, active="Aphid")
    locust = board.ship_named("Locust")
    track = ((panels.HULL, panels.BOARDING_PARTY, panels.HULL, panels.GROUND),)
    panel = replace(locust.panel, track=track, boarding_parties=parties, flying_martians=carried)
    board = changed(board, "Locust", panel=panel, parties=parties, flights=carried)
    board = replace(board, due=(DamageDue("Locust", 2, "Aphid"),))
    return at_stage(st, DAMAGE, board)


@pytest.mark.rule("CM-FLY-25", "CM-DMG-10")
def test_the_captain_chooses_whether_a_boarding_party_box_takes_a_party_or_a_flight_aboard():
    asked = resolve(party_box_due(parties=2, carried=1))
    request = asked.state.pending()[0]
    assert (request.kind, request.side, request.rule) == (PARTY_HITS_DECISION, "martians", "CM-FLY-25")
    assert request.options == ({"ship": "Locust", "flights": 0}, {"ship": "Locust", "flights": 1})
    for choice, parties, carried in (({"ship": "Locust", "flights": 1}, 2, 0), (request.default, 1, 1)):
        done = resolver.submit(
            CLOUDSHIPS, asked.state, side="martians", request_id=request.id, choice=choice, seed=b"cm-seed"
        )
        assert isinstance(done, resolver.Accepted)
        locust = done.state.board.ship_named("Locust")
        assert (locust.parties, locust.flights) == (parties, carried)
        assert done.state.board.flight_hits is None  # put away when the turn ends


@pytest.mark.rule("CM-FLY-25")
def test_no_question_when_there_is_no_choice_the_last_party_gone_a_flight_goes():
    plain = resolve(party_box_due(parties=1, carried=0))
    assert not plain.state.pending() or plain.state.pending()[0].kind != PARTY_HITS_DECISION
    only_flights = resolve(party_box_due(parties=0, carried=2))
    assert [e.data["flight"] for e in of_kind(only_flights.events, PARTY_LOST)] == [True]


@pytest.mark.rule("CM-FLY-28")
def test_a_gun_box_never_takes_a_flight_aboard_only_a_boarding_party_box_does():
    st = party_box_due(parties=1, carried=1)
    locust = st.board.ship_named("Locust")
    gun_track = ((panels.GUN, panels.GUN, panels.HULL, panels.GROUND),)
    st = st.evolve(board=changed(st.board, "Locust", panel=replace(locust.panel, track=gun_track)))
    ctx = Context(CLOUDSHIPS, st, b"cm-seed")
    cross_boxes(ctx, "Locust", 2, by="")
    after = ctx.state.board.ship_named("Locust")
    assert (after.flights, len(after.guns_lost)) == (1, 2)
