"""Flying Martians deployed on the table and fighting from aboard (CM-FLY-01..06, 13, 14, 18, 20, 21, 26, 27;
docs/cloudships.md section 8): the Aphid is fitted with two flights, as a scenario or the umpire would."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, hexgrid, policies, resolver
from battles.engine.events import ROLL
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import ai, answers, boarding, deployed, firing, panels, setup, validate
from battles.rules.cloudships_2023.board import Board, DamageDue, Flight, FlightShot, Martians, Ship
from battles.rules.cloudships_2023.kinds import (
    AT_FLIGHTS_KEY,
    DAMAGE,
    DAMAGE_DUE,
    FIRE_ORDERS,
    FLIGHT_ATTACKED,
    FLIGHT_DEPLOYED,
    FLIGHT_FLEW,
    FLIGHT_HIT,
    FLIGHT_REDOCKED,
    FLIGHTS_DECISION,
    FLIGHTS_KEY,
    GUN_IN_CAPITALS,
    MOVE,
    MOVE_DECISION,
    PARTY_LOST,
    RETURN_FIRE,
)
from battles.rules.cloudships_2023.phases.turn import status_of
from battles.rules.cloudships_2023.presentation import narration
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import SCENARIO, at_stage, changed, mid_round, new, of_kind, resolve, ship
from tests.rules.cloudships_2023.fire_kit import ORIGIN, away, duel, give, refused, request_of, start

MIDDLE = hexgrid.from_odd_q(15, 11)
N, S = "north", "south"


def fitted(board: Board, name: str = "Aphid", flights: int = 2, parties: int | None = None) -> Board:
    """``name`` with ``flights`` flights of Flying Martians on her panel and aboard (CM-FLY-01)."""
    panel = replace(ship(board, name).panel, flying_martians=flights)
    kept = ship(board, name).parties if parties is None else parties
    return changed(board, name, panel=panel, flights=flights, parties=kept)


def out(board: Board, *flights: Flight) -> Board:
    """``flights`` on the table, from before this turn."""
    carried = {f.ship: sum(1 for g in flights if g.ship == f.ship) for f in flights}
    for name, count in carried.items():
        board = changed(board, name, flights=ship(board, name).flights - count)
    return replace(board, martians=Martians(out=flights))


def at_move(board: Board, seed: bytes = b"cm-seed") -> BattleState[Board]:
    """Stage MOVE of the Aphid's turn, her status checked."""
    status = status_of(ship(board, "Aphid"))
    return at_stage(new(seed), MOVE, replace(board, status=status))


def turn_start(flights: int = 2) -> Board:
    """The Aphid's card up, in the middle of the map at Medium facing north, ``flights`` aboard."""
    st = new()
    board = changed(mid_round(st, active="Aphid"), "Aphid", hex=MIDDLE, facing=0, band=panels.MEDIUM)
    return fitted(board, flights=flights)


def answered(state: BattleState[Board], choice: Any, seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    asked = resolve(state, seed)
    request = asked.state.pending()[0]
    assert request.kind == FLIGHTS_DECISION
    done = resolver.submit(CLOUDSHIPS, asked.state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert isinstance(done, resolver.Accepted), done
    return done


def flights_clause(state: BattleState[Board], choice: Any) -> str | None:
    asked = resolve(state)
    request = asked.state.pending()[0]
    found = CLOUDSHIPS.validate(asked.state, request, choice)
    return None if found is None else found.clause


# --- fitted, and either way of using them ----------------------------------------------------------------------------


@pytest.mark.rule("CM-FLY-01", "CM-FLY-03")
def test_flights_are_fitted_on_the_panel_and_serve_aboard_or_as_a_piece_of_their_own():
    board = turn_start()
    aphid = ship(board, "Aphid")
    fresh = Ship.fresh("Aphid", aphid.side, aphid.panel, aphid.hex, 0, aphid.band)
    assert (fresh.flights, aphid.panel.hexagon - ship(new().board, "Aphid").panel.hexagon) == (2, 4)
    assert boarding.boarding_value(aphid) == boarding.boarding_value(replace(aphid, flights=0)) + 4
    done = answered(at_move(board), {"deploy": 1})
    after = ship(done.state.board, "Aphid")
    assert boarding.boarding_value(after) == boarding.boarding_value(aphid) - 2  # out there, not in the fight aboard
    assert [f.key for f in done.state.board.martians.out] == [("Aphid", 1)]
    assert Board.from_json(done.state.board.to_json()) == done.state.board
    plain = resolve(at_move(changed(mid_round(new(), active="Aphid"), "Aphid", hex=MIDDLE)))
    assert plain.state.pending()[0].kind == MOVE_DECISION  # no flights, no question


# --- the start of her turn: deploy, fly first, stay out, redock ----------------------------------------------------


@pytest.mark.rule("CM-FLY-02", "CM-FLY-04")
def test_at_the_start_of_her_turn_a_ship_deploys_flights_into_her_hex_at_her_height():
    done = answered(at_move(turn_start()), {"deploy": 2})
    placed = of_kind(done.events, FLIGHT_DEPLOYED)
    assert [(e.data["flight"], e.data["hex"], e.data["band"]) for e in placed] == [
        (1, MIDDLE.to_json(), panels.MEDIUM),
        (2, MIDDLE.to_json(), panels.MEDIUM),
    ]
    assert ship(done.state.board, "Aphid").flights == 0
    assert done.state.pending()[0].kind == MOVE_DECISION  # then her move
    assert flights_clause(at_move(turn_start()), {"deploy": 3}) == "CM-FLY-04"
    grappled = changed(turn_start(), "Aphid", grappled=("Locust",))
    assert deployed.aboard_to_deploy(ship(grappled, "Aphid")) == 0  # in a boarding action they are fighting


@pytest.mark.rule("CM-FLY-06", "CM-FLY-08")
def test_a_deployed_flight_flies_before_its_mother_ship_moves():
    done = answered(at_move(turn_start()), {"deploy": 1, "fly": {"1": [N, N]}})
    kinds = [e.kind for e in done.events if e.kind in (FLIGHT_DEPLOYED, FLIGHT_FLEW)]
    assert kinds == [FLIGHT_DEPLOYED, FLIGHT_FLEW]
    flight = done.state.board.martians.out[0]
    assert (flight.hex, flight.band) == (hexgrid.neighbour(hexgrid.neighbour(MIDDLE, 0), 0), panels.MEDIUM)
    assert ship(done.state.board, "Aphid").hex == MIDDLE  # she has not moved yet: her move is asked now
    assert done.state.pending()[0].kind == MOVE_DECISION
    assert flights_clause(at_move(turn_start()), {"deploy": 1, "fly": {"1": [N, N, N]}}) == "CM-FLY-08"
    assert flights_clause(at_move(turn_start()), {"fly": {"1": [N]}}) == "CM-FLY-03"  # none out to fly


@pytest.mark.rule("CM-FLY-05")
def test_a_deployed_flight_stays_out_turn_after_turn_until_redocked():
    board = out(turn_start(), Flight("Aphid", 1, away(1, start=MIDDLE), panels.MEDIUM))
    done = answered(at_move(board), {})  # the default: all as it is
    assert [f.key for f in done.state.board.martians.out] == [("Aphid", 1)]
    assert flights_clause(at_move(turn_start()), {"deploy": 1, "redock": [1]}) == "CM-FLY-05"


@pytest.mark.rule("CM-FLY-07", "CM-ALT-06")
def test_a_flight_deployed_at_really_low_stays_there_and_its_orders_are_carried_out_without_flying_it():
    """docs/cloudships.md section 8: a flight flies from Low up to High, so one deployed from a ship at the
    optional Really Low stays there until it redocks; an empty path for it is an order like any other (random
    play once found fly() asked for a band it does not know)."""
    low = Flight("Aphid", 1, away(1, start=MIDDLE), panels.REALLY_LOW)
    board = out(changed(turn_start(), "Aphid", band=panels.REALLY_LOW), low)
    assert flights_clause(at_move(board), {"fly": {"1": [N]}}) == "CM-FLY-07"
    done = answered(at_move(board), {"fly": {"1": []}, "deploy": 1})
    flew = of_kind(done.events, FLIGHT_FLEW)
    assert [(e.data["hex"], e.data["band"]) for e in flew] == [(low.hex.to_json(), panels.REALLY_LOW)]
    placed = sorted((f.number, f.band) for f in done.state.board.martians.out)
    assert placed == [(1, panels.REALLY_LOW), (2, panels.REALLY_LOW)]


@pytest.mark.rule("CM-FLY-20", "CM-FLY-21")
def test_a_flight_redocks_by_flying_into_her_hex_before_she_moves_and_is_part_of_her_parties_again():
    board = out(turn_start(), Flight("Aphid", 1, away(2, start=MIDDLE), panels.MEDIUM))
    before = boarding.boarding_value(ship(board, "Aphid"))
    assert flights_clause(at_move(board), {"fly": {"1": [S]}, "redock": [1]}) == "CM-FLY-20"
    done = answered(at_move(board), {"fly": {"1": [S, S]}, "redock": [1]})
    assert [e.data["flight"] for e in of_kind(done.events, FLIGHT_REDOCKED)] == [1]
    after = done.state.board
    assert (after.martians.out, ship(after, "Aphid").flights) == ((), 2)
    assert boarding.boarding_value(ship(after, "Aphid")) == before + 2
    locust = ship(after, "Locust")
    assert deployed.gun_at_flight_refusal(after, locust, locust.panel.guns[0], ("Aphid", 1)) is not None


# --- the fire step ----------------------------------------------------------------------------------------------------


def flight_duel(flight_at: int = 1, band: str = panels.MEDIUM) -> Board:
    """The Aphid and the Locust bow to bow 4 hexes apart, the Aphid's flight 1 ``flight_at`` hexes short of the
    Locust at ``band``, the other flight aboard; the Aphid's card up."""
    board = fitted(duel(4))
    return out(board, Flight("Aphid", 1, away(4 - flight_at), band))


@pytest.mark.rule("CM-FLY-13", "CM-FLY-19")
def test_a_deployed_flight_attacks_as_one_nordenfelt_five_dice_its_hits_due_on_the_crew_chart():
    for seed in (b"f1", b"f2", b"f3"):
        asked = start(flight_duel(), seed)
        attack = {"ship": "Aphid", "flight": 1, "target": "Locust"}
        done = give(asked.state, FIRE_ORDERS, {"shots": [], FLIGHTS_KEY: [attack]}, seed)
        while done.state.pending() and done.state.pending()[0].kind == RETURN_FIRE:
            done = give(done.state, RETURN_FIRE, {"shots": []}, seed)
        roll = next(e for e in done.events if e.kind == ROLL and "flight 1 attacks" in e.data["purpose"])
        assert len(roll.data["dice"]) == 5
        hits = sum(1 for face in roll.data["dice"] if face >= 5)  # short range: next door
        attacked = of_kind(done.events, FLIGHT_ATTACKED)[0].data
        assert (attacked["band"], attacked["hits"]) == ("short", hits)
        crew = [e.data["crew"] for e in of_kind(done.events, DAMAGE_DUE) if e.data["by"] == "Aphid"]
        assert crew == ([hits] if hits else [])
    assert refused(start(flight_duel(flight_at=3)).state, FIRE_ORDERS, {"shots": [], FLIGHTS_KEY: [attack]}) == (
        "CM-FLY-19"
    )


@pytest.mark.rule("CM-FLY-14", "CM-FLY-18", "CM-FLY-15", "CM-FLY-16")
def test_only_anti_personnel_guns_fire_at_a_flight_from_below_above_or_level_three_hits_wipe_it_out():
    # the flight a band above her, on her starboard beam where her Gatling bears
    board = changed(flight_duel(band=panels.HIGH), "Locust", band=panels.MEDIUM, facing=1)
    board = replace(board, active="Locust")
    locust = ship(board, "Locust")
    ap = next(g for g in locust.panel.guns if g.kind == panels.ANTI_PERSONNEL)
    main = next(g for g in locust.panel.guns if g.kind == panels.MAIN)
    assert deployed.gun_at_flight_refusal(board, locust, main, ("Aphid", 1)) == deployed.Refusal(
        "CM-FLY-14", f"only anti-personnel weapons may fire at a flight, not {main.name}"
    )
    bearing = [
        g
        for g in locust.panel.guns
        if g.kind == panels.ANTI_PERSONNEL and deployed.gun_at_flight_refusal(board, locust, g, ("Aphid", 1)) is None
    ]
    assert bearing  # up at a flight is allowed (CM-FLY-18), as it never is at a ship (CM-AP-12)
    below = replace(board, martians=Martians(out=(Flight("Aphid", 1, away(3), panels.LOW),)))
    assert all(deployed.gun_at_flight_refusal(below, locust, g, ("Aphid", 1)) is None for g in bearing)
    board = replace(board, martians=Martians(out=(Flight("Aphid", 1, away(3), panels.MEDIUM),)))  # level: 5+
    seen = set()
    for n in range(80):
        seed = b"ap-%d" % n
        asked = start(board, seed)
        shots = [{"ship": "Locust", "gun": g.number, "flight": ["Aphid", 1]} for g in bearing]
        done = give(asked.state, FIRE_ORDERS, {"shots": [], AT_FLIGHTS_KEY: shots}, seed, name="Locust")
        hit = of_kind(done.events, FLIGHT_HIT)[0].data
        assert hit["wiped"] == (hit["hits"] >= 3)
        assert (done.state.board.martians.flight(("Aphid", 1)) is None) == hit["wiped"]
        seen.add(hit["wiped"])
        if seen == {True, False}:
            break
    assert seen == {True, False}
    assert ap.number in {g.number for g in locust.panel.guns}


@pytest.mark.rule("CM-FLY-26", "CM-FLY-25")
def test_a_deployed_flight_is_never_lost_to_its_ships_boarding_party_box():
    board = fitted(mid_round(new(), active="Locust"), parties=0)
    board = out(board, Flight("Aphid", 1, ORIGIN, panels.MEDIUM))  # one out, one aboard
    track = ((panels.BOARDING_PARTY, panels.BOARDING_PARTY, panels.HULL, panels.GROUND),)
    board = changed(board, "Aphid", panel=replace(ship(board, "Aphid").panel, track=track))
    board = replace(board, due=(DamageDue("Aphid", 2, "Locust"),))
    done = resolve(at_stage(new(), DAMAGE, board))
    lost = [e.data for e in of_kind(done.events, PARTY_LOST)]
    assert [e["flight"] for e in lost] == [True]  # the one aboard; the second box finds nobody
    assert ship(done.state.board, "Aphid").flights == 0
    assert [f.key for f in done.state.board.martians.out] == [("Aphid", 1)]


@pytest.mark.rule("CM-FLY-27", "CM-AP-08")
def test_a_flight_aboard_fires_as_an_anti_personnel_gun_with_no_arc_once_a_round():
    board = fitted(duel(2), flights=1)
    board = changed(board, "Locust", hex=away(1, direction=3))  # right astern of her: no gun of hers bears
    aphid, locust = ship(board, "Aphid"), ship(board, "Locust")
    bearing = [s.gun for s in firing.legal_shots(board, aphid, (locust,))]
    assert all(aphid.gun(number).kind != panels.ANTI_PERSONNEL for number in bearing)  # no AP gun of hers bears
    legal = deployed.legal_flight_shots(board, aphid, (locust,), return_fire=False)
    assert FlightShot("Aphid", number=0, target="Locust") in legal
    attack = {"ship": "Aphid", "flight": 0, "target": "Locust"}
    asked = start(board)
    assert refused(asked.state, FIRE_ORDERS, {"shots": [], FLIGHTS_KEY: [attack, attack]}) == "CM-FLY-27"
    done = give(asked.state, FIRE_ORDERS, {"shots": [], FLIGHTS_KEY: [attack]})
    while done.state.pending() and done.state.pending()[0].kind == RETURN_FIRE:
        done = give(done.state, RETURN_FIRE, {"shots": []}, name=done.state.pending()[0].ships[0])
    hits = of_kind(done.events, FLIGHT_ATTACKED)[0].data["hits"]
    crew = [e.data["crew"] for e in of_kind(done.events, DAMAGE_DUE) if e.data["by"] == "Aphid"]
    assert crew == ([hits] if hits else [])
    assert deployed.aboard_ready(done.state.board, ship(done.state.board, "Aphid")) == 0  # fired this round


# --- the map, the words, the form and the AI ----------------------------------------------------------------------


def test_a_flight_on_the_table_is_a_counter_of_its_own_and_its_doings_are_told():
    board = flight_duel()
    counters = {c.key: c for c in CLOUDSHIPS.map_view(board.to_json(), {}).counters}
    flight = counters["Aphid/flight 1"]
    assert (flight.hex, flight.label, flight.side, flight.shape) == (away(3), "F1", ship(board, "Aphid").side, "square")
    names = narration.names_for({}, {})
    said = narration.TELLERS[FLIGHT_HIT]({"ship": "Locust", "flight": ["Aphid", 1], "hits": 3, "wiped": True}, names)
    assert said == "Locust fires on Aphid's flight 1: 3 hits, it wiped out"


def test_the_form_offers_every_end_a_flight_can_reach_and_the_ai_brings_its_flights_home():
    board = out(turn_start(), Flight("Aphid", 1, away(2, start=MIDDLE), panels.MEDIUM))
    asked = resolve(at_move(board))
    request = request_of(asked.state, FLIGHTS_DECISION)
    schema = answers.schema(asked.state, request).to_json()
    assert "redock" in str(schema)
    assert "deploy" in str(schema)
    choice = ai.Captain(b"ai").choose(CLOUDSHIPS, asked.state, request)
    assert choice == {"deploy": 0, "fly": {"1": [S, S]}, "redock": [1]}
    for candidate in validate.candidates(asked.state, request):
        assert CLOUDSHIPS.validate(asked.state, request, candidate) is None
    fire = start(flight_duel())
    orders = ai.Captain(b"ai").choose(CLOUDSHIPS, fire.state, request_of(fire.state, FIRE_ORDERS))
    assert isinstance(orders, dict)
    assert orders.get(FLIGHTS_KEY)
    assert CLOUDSHIPS.validate(fire.state, request_of(fire.state, FIRE_ORDERS), orders) is None


# --- whole battles ----------------------------------------------------------------------------------------------------


def refitted_scenario() -> dict[str, Any]:
    """The example scenario with Flying Martians on the Aphid and the Locust, the Reliant under steam and sail and
    the Skylord's first Gun box printed GUN: every piece of this slice in one battle."""
    scenario = json.loads(json.dumps(SCENARIO))
    catalog = setup.catalog()
    for entry in scenario["ships"]:
        panel = catalog[entry["class"]]
        if entry["name"] in ("Aphid", "Locust"):
            panel = replace(panel, flying_martians=2)
        if entry["name"] == "Reliant":
            panel = replace(panel, motive=panels.MIXED, movement=3)
        if entry["name"] == "Skylord":
            row = list(panel.track[0])
            row[row.index(panels.GUN)] = panels.GUN_CHOSEN
            panel = replace(panel, track=(tuple(row), *panel.track[1:]))
        entry["panel"] = panel.to_json()
        del entry["class"]
    return scenario


@pytest.mark.parametrize("who", ["random", "captain"])
def test_whole_battles_with_flights_mixed_power_and_gun_boxes_keep_the_invariants_and_replay(who: str):
    seed = b"flights-battle"
    options = {GUN_IN_CAPITALS: True}
    initial = resolver.new_battle(
        CLOUDSHIPS, refitted_scenario(), seed_commitment=dice.commitment(seed), options=options
    )
    make = policies.RandomPolicy if who == "random" else ai.Captain
    chosen = {side: make(seed + side.encode(), who) for side in initial.sides}
    done = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen)
    assert done.state.over
    current = initial
    for event in done.events:
        current = resolver.apply_event(CLOUDSHIPS, current, event)
        assert CLOUDSHIPS.check_invariants(current) == [], event.kind
    assert current.board == done.state.board
    if who == "random":
        assert of_kind(done.events, FLIGHT_DEPLOYED)
    again = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in done.events]
