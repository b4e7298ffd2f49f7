"""Line of sight, the Locust's rockets from High, anti-personnel hits on the crew chart at step 4, the Magazine Hit
and the special points of the critical chart, the AI's candidates, the fire form, and whole battles fought."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import answers, policies, resolver
from battles.rules.cloudships_2023 import conversion, firing, panels
from battles.rules.cloudships_2023.board import Board, DamageDue
from battles.rules.cloudships_2023.kinds import (
    BOX_CROSSED,
    CREW_HIT,
    DAMAGE,
    FIRE_ORDERS,
    GUN_FIRED,
    GUN_LOST,
    PARTY_LOST,
    VOLLEY,
)
from battles.rules.cloudships_2023.phases.damage import PERMANENT_EFFECTS, SPECIAL_POINTS
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import SCENARIO, at_stage, changed, new, of_kind, ship
from tests.rules.cloudships_2023.fire_kit import ORIGIN, away, duel, judged, request_of, shots, start

LOW, MEDIUM, HIGH = panels.LOW, panels.MEDIUM, panels.HIGH


# --- line of sight ------------------------------------------------------------------------------------------------


def sight(aphid: str, locust: str, blocker: str, at: int):
    """Aphid at ORIGIN, Locust 4 hexes north, the Hullcutter ``at`` hexes north of the Aphid at ``blocker``."""
    board = duel(hexes=4, aphid_band=aphid, locust_band=locust)
    board = changed(board, "Hullcutter", hex=away(at), band=blocker)
    found = firing.blocker(board, ship(board, "Aphid"), ship(board, "Locust"))
    return None if found is None else found.name


@pytest.mark.rule("CM-LOS-01", "CM-LOS-02")
def test_a_ship_between_at_the_band_of_both_always_blocks():
    assert [sight(MEDIUM, MEDIUM, MEDIUM, at) for at in (1, 2, 3)] == ["Hullcutter"] * 3
    board = changed(duel(hexes=4), "Hullcutter", hex=away(2), band=MEDIUM)
    assert judged(board, shots(("Aphid", 1, "Locust"))) == "CM-LOS-01"


@pytest.mark.rule("CM-LOS-03")
def test_a_ship_at_the_targets_band_blocks_only_nearer_the_target():
    assert sight(MEDIUM, HIGH, HIGH, 3) == "Hullcutter"
    assert sight(MEDIUM, HIGH, HIGH, 1) is None


@pytest.mark.rule("CM-LOS-04")
def test_a_ship_at_the_firers_band_blocks_only_nearer_the_firer():
    assert sight(MEDIUM, HIGH, MEDIUM, 1) == "Hullcutter"
    assert sight(MEDIUM, HIGH, MEDIUM, 3) is None


@pytest.mark.rule("CM-LOS-05")
def test_a_ship_at_neither_band_or_halfway_or_off_the_line_does_not_block():
    assert sight(MEDIUM, HIGH, LOW, 2) is None
    assert sight(MEDIUM, HIGH, HIGH, 2) is None  # as near one as the other: "nearer" is strict
    assert sight(MEDIUM, HIGH, MEDIUM, 2) is None
    board = changed(duel(hexes=4), "Hullcutter", hex=away(2, 2), band=MEDIUM)
    assert firing.blocker(board, ship(board, "Aphid"), ship(board, "Locust")) is None


# --- the Locust's rockets -----------------------------------------------------------------------------------------


@pytest.mark.rule("CM-RKT-03", "CM-RKT-02")
def test_golden_a_locust_at_high_fires_rockets_at_a_target_on_the_ground_exactly_3_hexes_away():
    board = duel(active="Locust")
    board = changed(board, "Locust", hex=ORIGIN, facing=0, band=HIGH)
    locust = ship(board, "Locust")
    rockets = locust.gun(7)
    assert (rockets.kind, rockets.angle, rockets.arcs) == (panels.ROCKETS, "down", ("port",))
    found = {}
    for hexes in (2, 3, 4):
        target = replace(ship(board, "Aphid"), hex=away(hexes, 5), band=panels.GROUND)
        found[hexes] = firing.refusal(board, locust, rockets, target)
    assert found[3] is None
    assert found[2].clause == found[4].clause == "CM-RKT-02"


# --- step 4: crew hits ---------------------------------------------------------------------------------------------


def damage(board: Board, *due: DamageDue, seed: bytes = b"cm-seed"):
    return resolver.resolve(CLOUDSHIPS, at_stage(new(seed, umpire=True), DAMAGE, replace(board, due=due)), seed)


@pytest.mark.rule("CM-AP-06", "CM-AP-07", "CM-AP-09")
def test_anti_personnel_hits_are_read_on_the_targets_crew_chart_each_firing_ships_apart():
    board = duel()
    reliant = ship(board, "Reliant")
    assert reliant.panel.crew_chart[:2] == (6, 10)
    done = damage(board, DamageDue("Reliant", 0, "Locust", crew=5), DamageDue("Reliant", 0, "Skylord", crew=10))
    assert [(e.data["hits"], e.data["parties"]) for e in of_kind(done.events, CREW_HIT)] == [(5, 0), (10, 2)]
    assert len(of_kind(done.events, PARTY_LOST)) == 2
    assert not of_kind(done.events, BOX_CROSSED)  # crew, never hull
    assert ship(done.state.board, "Reliant").parties == reliant.parties - 2


# --- the critical hit chart's permanent effects ------------------------------------------------------------------


def critical_board(name: str, critical: str, **changes) -> Board:
    """``name``'s track one Critical box then hull, her chart nothing but ``critical``."""
    board = duel()
    s = ship(board, name)
    panel = replace(s.panel, track=(("Critical",) + ("Hull",) * 40 + ("Ground",),), criticals=(critical,) * 11)
    return changed(board, name, panel=replace(panel, **changes))


@pytest.mark.rule("CM-MAG-01", "CM-MAG-02", "CM-MAG-03", "CM-MAG-04", "CM-MAG-05", "CM-GUN-06")
def test_a_magazine_hit_blows_up_a_gun_picked_among_all_aboard_and_does_its_most_in_a_turn():
    board = critical_board("Aphid", "Magazine Hit")
    aphid = ship(board, "Aphid")
    bearing = {gun.number for gun in aphid.guns_bearing_on(ship(board, "Locust").hex)}
    seen = set()
    for n in range(40):
        done = damage(board, DamageDue("Aphid", 1, "Locust"), seed=b"mag-%d" % n)
        lost = of_kind(done.events, GUN_LOST)[0].data["gun"]
        pick = next(e for e in done.events if e.kind == "roll" and "Magazine Hit" in e.data["purpose"])
        assert pick.data["sides"] == len(aphid.panel.guns)
        gun = aphid.gun(lost)
        crossed = len(of_kind(done.events, BOX_CROSSED)) - 1  # the Critical box itself
        if gun.kind == panels.ANTI_PERSONNEL:
            assert [e.data["hits"] for e in of_kind(done.events, CREW_HIT)] == [5]  # a Nordenfelt: 5 on the chart
            assert crossed == 0
        else:
            assert crossed == {1: 4, 2: 3, 4: 3}[lost]  # the 4-inch short 4; a 1-pdr QF three shells of 1
        seen.add(lost)
    assert seen - bearing  # guns that could not bear on the Locust blow up too


@pytest.mark.rule("CM-MAG-06")
def test_a_vulnerable_ship_takes_double():
    board = critical_board("Aphid", "Magazine Hit", vulnerable_magazine=True)
    for n in range(20):
        done = damage(board, DamageDue("Aphid", 1, "Locust"), seed=b"mag-%d" % n)
        gun = ship(board, "Aphid").gun(of_kind(done.events, GUN_LOST)[0].data["gun"])
        if gun.kind == panels.MAIN:
            assert len(of_kind(done.events, BOX_CROSSED)) - 1 == 2 * gun.dice * (gun.damage or 0)


@pytest.mark.rule("CM-MAG-07", "CM-MAG-08")
def test_a_rocket_magazine_blows_up_a_loaded_battery_for_its_die_and_with_none_loaded_does_nothing_more():
    board = critical_board("Reliant", "Rocket Magazine")
    rockets = {gun.number for gun in ship(board, "Reliant").panel.guns if gun.kind == panels.ROCKETS}
    board = changed(board, "Reliant", spent=tuple(sorted(rockets))[:4])
    done = damage(board, DamageDue("Reliant", 1, "Locust"))
    lost = of_kind(done.events, GUN_LOST)[0].data["gun"]
    assert lost in rockets - set(tuple(sorted(rockets))[:4])
    blast = next(e for e in done.events if e.kind == "roll" and "blows up" in e.data["purpose"])
    assert len(of_kind(done.events, BOX_CROSSED)) - 1 == blast.data["total"]
    empty = damage(changed(board, "Reliant", spent=tuple(sorted(rockets))), DamageDue("Reliant", 1, "Locust"))
    assert not of_kind(empty.events, GUN_LOST)
    assert len(of_kind(empty.events, BOX_CROSSED)) == 1


def test_every_special_point_the_conversion_prints_has_its_effect():
    names = conversion.TABLES.data["criticals"]["special_names"]
    assert {name: kind for kind, name in names.items()} == SPECIAL_POINTS
    assert set(PERMANENT_EFFECTS) == {"Magazine Hit", *SPECIAL_POINTS}


# --- candidates and the form -----------------------------------------------------------------------------------


@pytest.mark.rule("CM-SEQ-07")
def test_the_candidates_are_hold_fire_each_gun_at_each_target_and_every_gun_at_one_target_all_legal():
    board = changed(duel(), "Hullcutter", hex=away(2, 2), facing=5, band=MEDIUM)
    asked = start(board).state
    request = request_of(asked, FIRE_ORDERS)
    found = CLOUDSHIPS.candidates(asked, request)
    legal = firing.legal_shots(
        asked.board, ship(asked.board, "Aphid"), firing.enemies(asked.board, ship(board, "Aphid"))
    )
    assert found[0] == {"shots": []}
    assert [c["shots"][0] for c in found[1 : 1 + len(legal)]] == [s.to_json() for s in legal]
    whole = [c["shots"] for c in found[1 + len(legal) :]]
    assert {shot["target"] for volley in whole for shot in volley} == {"Locust", "Hullcutter"}
    assert all(CLOUDSHIPS.validate(asked, request, choice) is None for choice in found)


def test_the_fire_form_offers_each_gun_hold_fire_or_its_targets_and_assembles_a_legal_answer():
    asked = start(duel()).state
    request = request_of(asked, FIRE_ORDERS)
    schema = CLOUDSHIPS.answer_schema(asked, request)
    assert schema.layout == "fire"
    slots = schema.root.fields[0].items
    assert [slot.key for slot in slots] == ["1", "2", "4"]  # the guns that bear on the Locust ahead
    assert slots[0].options[0].label == "Hold fire"
    assert "short range 2, hits on 3+" in slots[0].options[1].label
    posted = {"shots.1": [answers.encode({"ship": "Aphid", "gun": 1, "target": "Locust"})], "shots.2": [""]}
    choice = answers.assemble(schema, posted)
    assert choice == shots(("Aphid", 1, "Locust"))
    assert CLOUDSHIPS.validate(asked, request, choice) is None


# --- whole battles ----------------------------------------------------------------------------------------------


CLOSE = {
    **SCENARIO,
    "rounds": 4,
    "ships": [
        {"name": "Aphid", "side": "british", "class": "aphid", "hex": [12, 10], "facing": 1, "band": "Medium"},
        {"name": "Reliant", "side": "british", "class": "reliant", "hex": [12, 12], "facing": 1, "band": "High"},
        {"name": "Locust", "side": "martians", "class": "locust", "hex": [15, 10], "facing": 4, "band": "Medium"},
        {"name": "Skylord", "side": "martians", "class": "skylord", "hex": [15, 12], "facing": 0, "band": "High"},
        {"name": "Hullcutter", "side": "martians", "class": "hullcutter", "hex": [14, 14], "facing": 5, "band": "Low"},
    ],
}


@pytest.mark.rule("CM-SEQ-09", "CM-SEQ-16")
def test_ships_in_reach_fight_whole_battles_chosen_at_random_every_state_keeping_the_invariants():
    for seed in (b"close-1", b"close-2"):
        initial = new(seed, scenario=CLOSE)
        chosen = {side: policies.RandomPolicy(seed, side) for side in initial.sides}
        done = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen)
        assert done.state.over
        assert of_kind(done.events, GUN_FIRED)
        assert of_kind(done.events, VOLLEY)
        current = initial
        for event in done.events:
            current = resolver.apply_event(CLOUDSHIPS, current, event)
            assert CLOUDSHIPS.check_invariants(current) == [], event.kind
        assert resolver.rerun(CLOUDSHIPS, initial, done.events, seed) == done.events
