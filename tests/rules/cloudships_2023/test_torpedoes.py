"""Smutts torpedoes (CM-SMT-*): launched at the start of the launcher's turn, ten hexes a turn straight and level for
two turns, a ramming roll with its ram of 2 at every ship it meets at its band, 1d6+2 and a critical on a natural 6;
and what the bombs, torpedoes, mines and drogues are as guns aboard (CM-BOMB-03/04, CM-SMT-10, CM-TM-11, CM-DT-06)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import resolver
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, DamageDue, Torpedo
from battles.rules.cloudships_2023.kinds import (
    BOX_CROSSED,
    CONTACT,
    DAMAGE,
    DAMAGE_DUE,
    GUN_FIRED,
    GUN_LOST,
    ORDNANCE_DECISION,
    TORPEDO_FLEW,
    TORPEDO_GONE,
    TORPEDO_LAUNCHED,
)
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, of_kind, resolve, ship
from tests.rules.cloudships_2023.fire_kit import refused
from tests.rules.cloudships_2023.ordnance_kit import (
    HIGH,
    MEDIUM,
    MIDDLE,
    TORPEDO,
    ahead,
    at_move,
    battle,
    rolls,
    seeds,
    superior,
    turn,
    with_board,
)

LAUNCH = {"launch": [TORPEDO]}
SOUTH = 3


def launched(seed: bytes = b"cm-seed", places=None, better: bool = False):
    """The Triumph at MIDDLE, Medium, facing north, launches her torpedo and stays where she is."""
    state = at_move("Triumph", seed, places=places)
    if better:
        state = with_board(state, lambda b: superior(b, "Triumph"))
    return turn(state, LAUNCH, [], seed)


def flown(events) -> list:
    return [e.data["hex"] for e in of_kind(events, TORPEDO_FLEW)]


@pytest.mark.rule("CM-SMT-01", "CM-SMT-11")
def test_a_torpedo_flies_ten_hexes_straight_ahead_at_its_launch_band_and_its_launcher_is_spent():
    done = launched()
    assert of_kind(done.events, GUN_FIRED)[0].data["gun"] == TORPEDO
    assert of_kind(done.events, TORPEDO_LAUNCHED)[0].data["band"] == MEDIUM
    assert flown(done.events) == [ahead(n).to_json() for n in range(1, 11)]
    assert done.state.board.ordnance.torpedoes == (Torpedo("Triumph", TORPEDO, ahead(10), 0, MEDIUM, 1),)
    assert TORPEDO in ship(done.state.board, "Triumph").spent
    again = at_move("Triumph")
    again = with_board(again, lambda b: changed(b, "Triumph", spent=(TORPEDO,)))
    assert not [r for r in resolve(again).state.pending() if r.kind == ORDNANCE_DECISION]  # nothing left to ask
    assert refused(resolve(at_move("Triumph")).state, ORDNANCE_DECISION, LAUNCH) is None


def second_turn(seed: bytes = b"cm-seed", places=None):
    """Round 2, the Triumph's turn: her torpedo, launched last turn, is 10 hexes north of MIDDLE heading south."""
    state = at_move("Triumph", seed, places=places).evolve(turn=2)
    state = with_board(state, lambda b: changed(b, "Triumph", hex=ahead(1, MIDDLE, 1), spent=(TORPEDO,)))
    torpedo = Torpedo("Triumph", TORPEDO, ahead(10), SOUTH, MEDIUM, 1)
    state = with_board(state, lambda b: replace(b, ordnance=replace(b.ordnance, torpedoes=(torpedo,))))
    return resolve(state, seed)


@pytest.mark.rule("CM-SMT-01", "CM-SMT-07")
def test_at_the_start_of_her_next_turn_it_flies_ten_more_then_self_destructs():
    done = second_turn()
    assert flown(done.events) == [ahead(10 - n).to_json() for n in range(1, 11)]
    assert [e.data["flight"] for e in of_kind(done.events, TORPEDO_FLEW)] == [2] * 10
    assert "self-destructs" in of_kind(done.events, TORPEDO_GONE)[0].data["why"]
    assert done.state.board.ordnance.torpedoes == ()


def test_a_torpedo_that_flies_off_the_map_is_gone_and_one_whose_launcher_is_out_self_destructs():
    state = at_move("Triumph")
    state = with_board(state, lambda b: changed(b, "Triumph", hex=ahead(6)))  # row 5: off the top after 5 hexes
    done = turn(state, LAUNCH, [])
    assert len(flown(done.events)) == 5
    assert "off the map" in of_kind(done.events, TORPEDO_GONE)[0].data["why"]
    orphan = at_move("Gloire").evolve(turn=2)
    torpedo = Torpedo("Triumph", TORPEDO, MIDDLE, SOUTH, MEDIUM, 1)
    orphan = with_board(orphan, lambda b: changed(b, "Triumph", status="sunk"))
    orphan = with_board(orphan, lambda b: replace(b, ordnance=replace(b.ordnance, torpedoes=(torpedo,))))
    gone = resolve(orphan)
    assert "launcher is out" in of_kind(gone.events, TORPEDO_GONE)[0].data["why"]
    assert not of_kind(gone.events, TORPEDO_FLEW)


@pytest.mark.rule("CM-SMT-02", "CM-SMT-03", "CM-SMT-05", "CM-SMT-12")
def test_a_ship_in_its_path_at_its_band_is_a_ramming_roll_the_torpedo_adding_two_and_a_superior_crew_nothing():
    seen = set()
    for seed in seeds("smt"):
        done = launched(seed, places={"Hullcutter": (ahead(4), MEDIUM)}, better=True)
        contact = of_kind(done.events, CONTACT)[0].data
        mine, theirs = rolls(done.events, "strikes at")[0], rolls(done.events, "evades")[0]
        assert (mine["modifiers"], theirs["modifiers"]) == ({"torpedo's ram": 2}, {})  # a screw galley: nothing
        assert contact["hit"] == (mine["total"] > theirs["total"])
        if contact["hit"]:
            assert len(flown(done.events)) == 4  # it explodes there
            assert done.state.board.ordnance.torpedoes == ()
        else:
            assert len(flown(done.events)) == 10  # it carries on past
        seen.add(contact["hit"])
        if len(seen) == 2:
            break
    assert seen == {True, False}


@pytest.mark.rule("CM-SMT-04")
def test_against_a_steamer_the_torpedo_still_adds_two_and_the_steamer_one():
    done = launched(places={"Locust": (ahead(2), MEDIUM)})
    assert rolls(done.events, "strikes at")[0]["modifiers"] == {"torpedo's ram": 2}
    assert rolls(done.events, "evades")[0]["modifiers"] == {"steam": 1}


@pytest.mark.rule("CM-SMT-06")
def test_a_torpedo_may_meet_several_ships_over_its_two_turns_and_miss_them_all():
    kinds = set()
    for seed in seeds("several", 300):
        done = launched(seed, places={"Locust": (ahead(2), MEDIUM), "Skyfire": (ahead(5), MEDIUM)})
        contacts = [(c.data["target"], c.data["hit"]) for c in of_kind(done.events, CONTACT)]
        assert contacts[0][0] == "Locust"
        if contacts[0][1]:
            assert len(contacts) == 1
        else:
            assert contacts[1][0] == "Skyfire"
            kinds.add("missed both" if not contacts[1][1] else "missed one, hit the next")
        if len(kinds) == 2:
            break
    assert kinds == {"missed both", "missed one, hit the next"}
    later = second_turn(places={"Locust": (ahead(3), MEDIUM), "Gloire": (ahead(7), MEDIUM)})
    assert of_kind(later.events, CONTACT)[0].data["target"] == "Gloire"  # friend or foe: it meets what it meets


def test_ships_at_another_band_are_not_met():
    done = launched(places={"Locust": (ahead(2), HIGH)})
    assert not of_kind(done.events, CONTACT)


@pytest.mark.rule("CM-SMT-08", "CM-SMT-09")
def test_golden_a_torpedo_explodes_for_1d6_plus_2_and_a_natural_6_adds_a_critical():
    found = {}
    for seed in seeds("smt-dmg", 400):
        done = launched(seed, places={"Hullcutter": (ahead(3), MEDIUM)})
        blast = rolls(done.events, "explodes on")
        if blast and blast[0]["dice"] in ([6], [3]):
            found[blast[0]["dice"][0]] = (blast[0], of_kind(done.events, DAMAGE_DUE)[0].data)
        if len(found) == 2:
            break
    six, three = found[6], found[3]
    assert (six[0]["modifiers"], six[0]["total"]) == ({"smutts torpedo": 2}, 8)
    assert (six[1]["points"], six[1]["critical"]) == (8, 1)
    assert (three[1]["points"], "critical" in three[1]) == (5, False)


@pytest.mark.rule("CM-BRD-22")
def test_a_ship_in_a_boarding_action_launches_no_torpedo():
    state = resolve(at_move("Triumph")).state
    held = with_board(state, lambda b: changed(b, "Triumph", grappled=("Locust",)))
    assert refused(held, ORDNANCE_DECISION, LAUNCH) == "CM-BRD-22"


# --- as guns aboard --------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-BOMB-03", "CM-TM-11", "CM-DT-06", "CM-SMT-10")
def test_bomb_racks_mines_drogues_and_the_torpedo_launcher_count_as_guns_a_gun_box_can_take():
    board = battle().board
    board = changed(board, "Gloire", hex=MIDDLE, facing=0)
    board = changed(board, "Triumph", hex=MIDDLE, facing=0)
    gloire, triumph = ship(board, "Gloire"), ship(board, "Triumph")
    astern = ahead(3, MIDDLE, SOUTH)
    slung = {g.number for g in gloire.guns_bearing_on(astern) if g.kind in (panels.TETHER_MINE, panels.DROGUE)}
    assert slung == {g.number for g in gloire.panel.guns if g.kind in (panels.TETHER_MINE, panels.DROGUE)}
    whisper = ship(board, "Whisperdeath")
    assert {g.kind for g in whisper.guns_bearing_on(ahead(3))} >= {panels.BOMBS, panels.DROGUE}
    assert TORPEDO in {g.number for g in triumph.guns_bearing_on(ahead(3))}  # the bow tube, seen from ahead
    assert TORPEDO not in {g.number for g in triumph.guns_bearing_on(astern)}  # hidden from astern


def damage(board: Board, *due: DamageDue, seed: bytes = b"cm-seed"):
    return resolver.resolve(CLOUDSHIPS, at_stage(battle(seed), DAMAGE, replace(board, due=due)), seed)


def critical_board(name: str, critical: str, **changes) -> Board:
    board = mid_round(battle(), active="Locust")
    s = ship(board, name)
    panel = replace(s.panel, track=(("Critical",) + ("Hull",) * 40 + ("Ground",),), criticals=(critical,) * 11)
    return changed(board, name, panel=replace(panel, **changes))


@pytest.mark.rule("CM-BOMB-04", "CM-SMT-10", "CM-TM-11", "CM-DT-06")
def test_each_systems_own_critical_point_blows_up_one_still_loaded_for_its_roll():
    cases = [
        ("Whisperdeath", "Bomb Racks Hit", panels.BOMBS, {}),
        ("Triumph", "Torpedo Hit", panels.SMUTTS, {"smutts torpedo": 2}),
        ("Gloire", "Tether Mine Hit", panels.TETHER_MINE, {"tether mine": 2}),
        ("Gloire", "Drogue Hit", panels.DROGUE, {}),
    ]
    for name, point, kind, plus in cases:
        board = critical_board(name, point)
        done = damage(board, DamageDue(name, 1, "Locust"))
        lost = ship(board, name).gun(of_kind(done.events, GUN_LOST)[0].data["gun"])
        assert lost.kind == kind
        blast = next(e.data for e in done.events if e.kind == "roll" and "blows up" in e.data["purpose"])
        assert blast["modifiers"] == plus
        assert len(of_kind(done.events, BOX_CROSSED)) - 1 == blast["total"]
        spent = tuple(g.number for g in ship(board, name).panel.guns if g.kind == kind)
        empty = damage(changed(board, name, spent=spent), DamageDue(name, 1, "Locust"))
        assert not of_kind(empty.events, GUN_LOST)
        assert len(of_kind(empty.events, BOX_CROSSED)) == 1
