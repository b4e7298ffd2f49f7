"""Tether mines and drogue torpedoes (CM-TM-*, CM-DT-*): let out and winched in at the start of a ship's turn,
striking from the band above or below at the enemy ships in each hex she enters, by the ramming roll; damage due
with a critical on a natural 6, crossed at step 4; one shot."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import answers, policies, resolver
from battles.rules.cloudships_2023 import ordnance
from battles.rules.cloudships_2023.board import OrdnanceOrders
from battles.rules.cloudships_2023.kinds import (
    BOX_CROSSED,
    CONTACT,
    CRITICAL,
    DAMAGE_DUE,
    GUN_FIRED,
    LET_OUT,
    MOVE_DECISION,
    ORDNANCE_DECISION,
    READIED,
    REALLY_LOW_BAND,
    TORPEDO_FLEW,
    TORPEDO_LAUNCHED,
    TURN_ENDED,
    WINCHED_IN,
)
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import changed, new, of_kind, resolve, ship, until
from tests.rules.cloudships_2023.fire_kit import refused, request_of
from tests.rules.cloudships_2023.ordnance_kit import (
    DROGUE,
    HIGH,
    LOW,
    MARTIAN_MINE,
    MEDIUM,
    MINE,
    ORDNANCE,
    ahead,
    at_move,
    battle,
    rolls,
    seeds,
    superior,
    turn,
    with_board,
)

LET_MINE = {"let_out": [MINE]}


def out(state, name: str) -> tuple[int, ...]:
    return state.board.ordnance.cables(name)


# --- let out and winched in at the start of the turn ---------------------------------------------------------


@pytest.mark.rule("CM-TM-01", "CM-TM-02")
def test_a_mine_let_out_at_the_start_of_her_turn_stays_out_until_winched_in_at_a_later_start():
    first = turn(at_move("Gloire"), LET_MINE, ["ahead"])
    assert of_kind(first.events, LET_OUT)[0].data["band"] == HIGH  # the band above her Medium
    assert out(first.state, "Gloire") == (MINE,)
    # Her next turn (the next round): still out; it may be winched in now.
    later = at_move("Gloire").evolve(turn=2)
    later = with_board(later, lambda b: replace(b, ordnance=first.state.board.ordnance))
    asked = resolve(later)
    request = request_of(asked.state, ORDNANCE_DECISION)
    assert refused(asked.state, ORDNANCE_DECISION, {"let_out": [MINE]}) == "CM-TM-01"  # out already
    assert refused(asked.state, ORDNANCE_DECISION, {"winch_in": [MINE + 1]}) == "CM-TM-02"  # never let out
    assert refused(asked.state, ORDNANCE_DECISION, {"winch_in": [MINE]}) is None
    assert request.rule == "CM-TM-01"
    back = turn(later, {"winch_in": [MINE]}, None)
    assert of_kind(back.events, WINCHED_IN)[0].data["gun"] == MINE
    assert out(back.state, "Gloire") == ()
    gloire = ship(back.state.board, "Gloire")
    assert MINE not in gloire.spent  # back aboard, unspent: it may go out again
    assert ordnance.may_let_out(gloire, gloire.gun(MINE), back.state.board, really_low=False) is None


@pytest.mark.rule("CM-TM-01")
def test_the_orders_are_asked_before_the_move_and_a_ship_with_nothing_to_use_is_not_asked():
    asked = resolve(at_move("Gloire"))
    assert [r.kind for r in asked.state.pending()] == [ORDNANCE_DECISION]
    plain = resolve(at_move("Locust"))  # no mines, drogues or torpedoes
    assert [r.kind for r in plain.state.pending()] == [MOVE_DECISION]
    assert of_kind(plain.events, READIED)


@pytest.mark.rule("CM-TM-03")
def test_a_tether_mine_rides_the_band_above_so_a_ship_at_high_cannot_let_one_out():
    high = resolve(at_move("Gloire", band=HIGH))
    assert refused(high.state, ORDNANCE_DECISION, LET_MINE) == "CM-TM-03"
    assert refused(high.state, ORDNANCE_DECISION, {"let_out": [DROGUE]}) is None  # a drogue hangs below
    low = turn(at_move("Gloire", band=LOW), {"let_out": [MINE, DROGUE]}, [])
    assert [e.data["band"] for e in of_kind(low.events, LET_OUT)] == [MEDIUM, "Ground"]


@pytest.mark.rule("CM-TM-01", "CM-TM-02", "CM-SMT-01")
def test_orders_that_name_no_such_system_or_twice_or_the_wrong_kind_are_refused_with_the_clause():
    asked = resolve(at_move("Gloire")).state
    assert refused(asked, ORDNANCE_DECISION, {"let_out": [1]}) == "CM-TM-01"  # a main gun
    assert refused(asked, ORDNANCE_DECISION, {"launch": [MINE]}) == "CM-SMT-01"
    assert refused(asked, ORDNANCE_DECISION, {"let_out": [99]}) == "CM-SEQ-01"
    assert refused(asked, ORDNANCE_DECISION, {"let_out": [MINE, MINE]}) == "CM-TM-02"
    assert refused(asked, ORDNANCE_DECISION, {"drop": [MINE]}) == "CM-TM-01"
    assert refused(asked, ORDNANCE_DECISION, {"let_out": ["nine"]}) == "CM-TM-01"
    lost = with_board(asked, lambda b: changed(b, "Gloire", guns_lost=(MINE,)))
    assert refused(lost, ORDNANCE_DECISION, LET_MINE) == "CM-DMG-06"


# --- the strike ----------------------------------------------------------------------------------------------


def mine_run(seed: bytes, *, target: str = "Locust", band: str = HIGH, better: bool = False):
    """The Gloire at Medium lets out a mine and moves one hex ahead, under ``target`` there at ``band``."""
    state = at_move("Gloire", seed, places={target: (ahead(1), band)})
    if better:
        state = with_board(state, lambda b: superior(b, "Gloire"))
    return turn(state, LET_MINE, ["ahead"], seed)


@pytest.mark.rule("CM-TM-04", "CM-TM-07", "CM-RAM-03")
def test_moving_beneath_an_enemy_the_mine_strikes_by_the_ramming_roll_the_steamer_adding_one():
    seen = set()
    for seed in seeds("mine"):
        done = mine_run(seed)
        contact = of_kind(done.events, CONTACT)[0].data
        assert (contact["ship"], contact["gun"], contact["target"]) == ("Gloire", MINE, "Locust")
        mine, theirs = rolls(done.events, "strikes at"), rolls(done.events, "evades")
        assert (mine[0]["modifiers"], theirs[0]["modifiers"]) == ({}, {"steam": 1})  # the Locust is a steamer
        assert contact["scores"] == [mine[0]["total"], theirs[0]["total"]]
        assert contact["hit"] == (contact["scores"][0] > contact["scores"][1])
        seen.add("tie" if contact["scores"][0] == contact["scores"][1] else "hit" if contact["hit"] else "miss")
        if len(seen) == 3:
            break
    assert seen == {"hit", "miss", "tie"}


@pytest.mark.rule("CM-TM-05")
def test_a_superior_crew_adds_one_to_the_mines_roll():
    done = mine_run(b"mine-superior", target="Hullcutter", better=True)
    assert rolls(done.events, "strikes at")[0]["modifiers"] == {"superior crew": 1}
    assert rolls(done.events, "evades")[0]["modifiers"] == {}  # a screw galley adds nothing


@pytest.mark.rule("CM-TM-04")
def test_a_mine_strikes_only_at_enemies_at_the_band_above_in_a_hex_she_enters():
    friend = mine_run(b"mine-friend", target="Triumph")
    assert not of_kind(friend.events, CONTACT)
    level = mine_run(b"mine-level", target="Locust", band=MEDIUM)  # at her own band: a collision check, no mine
    assert not of_kind(level.events, CONTACT)
    beside = turn(at_move("Gloire", places={"Locust": (ahead(1, direction=1), HIGH)}), LET_MINE, ["ahead"])
    assert not of_kind(beside.events, CONTACT)


@pytest.mark.rule("CM-TM-06")
def test_with_two_ships_above_the_mine_tries_each_in_turn_until_it_hits():
    orders = set()
    for seed in seeds("two-above"):
        places = {"Locust": (ahead(1), HIGH), "Skyfire": (ahead(1), HIGH)}
        done = turn(at_move("Gloire", seed, places=places), LET_MINE, ["ahead"], seed)
        contacts = [e.data for e in of_kind(done.events, CONTACT)]
        targets = [c["target"] for c in contacts]
        assert targets in (["Skyfire"], ["Skyfire", "Locust"])  # the board's order; the Skyfire comes first
        assert [c["hit"] for c in contacts][:-1] == [False] * (len(contacts) - 1)  # on a miss it tries the next
        orders.add(tuple(targets))
        if len(orders) == 2:
            break
    assert orders == {("Skyfire",), ("Skyfire", "Locust")}


def first_hit(prefix: str, make, predicate=lambda done: True):
    for seed in seeds(prefix, 300):
        done = make(seed)
        if any(c.data["hit"] for c in of_kind(done.events, CONTACT)) and predicate(done):
            return done
    raise AssertionError("no seed gave a hit")


def damage_roll(done) -> dict:
    return rolls(done.events, "explodes on")[0]


@pytest.mark.rule("CM-TM-09", "CM-TM-10", "CM-TM-12")
def test_golden_a_mine_that_hits_explodes_for_1d6_plus_2_a_natural_6_adding_a_critical_and_is_spent():
    done = first_hit("mine-six", mine_run, lambda d: damage_roll(d)["dice"] == [6])
    roll = damage_roll(done)
    assert (roll["modifiers"], roll["total"]) == ({"tether mine": 2}, 8)
    assert [e.data for e in of_kind(done.events, DAMAGE_DUE)] == [
        {"ship": "Locust", "points": 8, "by": "Gloire", "crew": 0, "critical": 1}
    ]
    assert of_kind(done.events, GUN_FIRED)[0].data["gun"] == MINE
    assert MINE in ship(done.state.board, "Gloire").spent
    assert out(done.state, "Gloire") == ()
    # Step 4: eight boxes, then the critical rolled on her chart.
    step4 = until(done.events, TURN_ENDED)
    crossed = [e for e in of_kind(step4, BOX_CROSSED) if e.data["ship"] == "Locust"]
    assert len(crossed) == 8
    assert any(e.data["ship"] == "Locust" for e in of_kind(step4, CRITICAL))


@pytest.mark.rule("CM-TM-12")
def test_a_mine_spent_cannot_be_let_out_again_but_a_miss_leaves_it_out():
    hit = first_hit("spent", mine_run)
    state = at_move("Gloire")
    state = with_board(state, lambda b: changed(b, "Gloire", spent=ship(hit.state.board, "Gloire").spent))
    assert refused(resolve(state).state, ORDNANCE_DECISION, LET_MINE) == "CM-TM-12"
    for seed in seeds("missed"):
        done = mine_run(seed)
        if not of_kind(done.events, CONTACT)[0].data["hit"]:
            assert out(done.state, "Gloire") == (MINE,)
            assert MINE not in ship(done.state.board, "Gloire").spent
            return
    raise AssertionError("no seed gave a miss")


@pytest.mark.rule("CM-TM-08", "CM-TM-10")
def test_golden_a_martian_mine_explodes_for_1d6_and_a_6_adds_a_critical():
    def run(seed: bytes):
        state = at_move("Skyfire", seed, places={"Triumph": (ahead(1), HIGH)})
        return turn(state, {"let_out": [MARTIAN_MINE]}, ["ahead"], seed)

    done = first_hit("martian", run, lambda d: damage_roll(d)["dice"] == [6])
    roll = damage_roll(done)
    assert roll["modifiers"] == {}
    assert len(roll["dice"]) == 1
    due = of_kind(done.events, DAMAGE_DUE)[0].data
    assert due["points"] == roll["dice"][0]
    assert due["critical"] == 1  # a 6: the Martian mine's critical too (CM-TM-10)


# --- drogues ----------------------------------------------------------------------------------------------------


def drogue_run(seed: bytes, *, band: str = HIGH, target: str = "Locust", target_band: str = MEDIUM, **options):
    state = at_move("Gloire", seed, band=band, places={target: (ahead(1), target_band)})
    if options:
        state = state.evolve(options={**state.options, **options})
    return turn(state, {"let_out": [DROGUE]}, ["ahead"], seed)


@pytest.mark.rule("CM-DT-01", "CM-DT-02")
def test_a_drogue_strikes_the_band_below_by_the_ramming_roll_a_superior_crew_adding_one():
    done = drogue_run(b"drogue")
    assert of_kind(done.events, LET_OUT)[0].data["band"] == MEDIUM
    contact = of_kind(done.events, CONTACT)[0].data
    assert (contact["system"], contact["target"]) == ("drogue torpedo", "Locust")
    better = at_move("Gloire", b"drogue", band=HIGH, places={"Locust": (ahead(1), MEDIUM)})
    better = with_board(better, lambda b: superior(b, "Gloire"))
    done = turn(better, {"let_out": [DROGUE]}, ["ahead"], b"drogue")
    assert rolls(done.events, "strikes at")[0]["modifiers"] == {"superior crew": 1}
    assert rolls(done.events, "evades")[0]["modifiers"] == {"steam": 1}


@pytest.mark.rule("CM-DT-03")
def test_from_low_a_drogue_reaches_only_the_ground_so_it_strikes_no_ship():
    low = drogue_run(b"drogue-low", band=LOW, target_band="Really Low", **{REALLY_LOW_BAND: True})
    assert of_kind(low.events, LET_OUT)[0].data["band"] == "Ground"
    assert not of_kind(low.events, CONTACT)


@pytest.mark.rule("CM-DT-04", "CM-DT-05")
def test_golden_a_drogue_explodes_for_2d6_and_a_6_on_either_die_adds_one_critical():
    def six_on_one(done) -> bool:
        faces = damage_roll(done)["dice"]
        return 6 in faces and faces != [6, 6]

    done = first_hit("drogue-six", drogue_run, six_on_one)
    roll = damage_roll(done)
    assert roll["modifiers"] == {}
    assert len(roll["dice"]) == 2
    due = of_kind(done.events, DAMAGE_DUE)[0].data
    assert (due["points"], due["critical"]) == (sum(roll["dice"]), 1)
    plain = first_hit("drogue-plain", drogue_run, lambda d: 6 not in damage_roll(d)["dice"])
    assert "critical" not in of_kind(plain.events, DAMAGE_DUE)[0].data


# --- the AI's candidates, the default and the form -------------------------------------------------------------


@pytest.mark.rule("CM-TM-01")
def test_the_candidates_are_legal_the_default_leaves_all_as_it_is_and_the_form_offers_each_system():
    state = resolve(at_move("Gloire")).state
    request = request_of(state, ORDNANCE_DECISION)
    assert request.default == OrdnanceOrders().to_json()
    found = CLOUDSHIPS.candidates(state, request)
    assert found[0] == request.default == {}  # nothing ordered: the form's blank answer
    assert {"let_out": [MINE]} in found
    assert all(CLOUDSHIPS.validate(state, request, choice) is None for choice in found)
    schema = CLOUDSHIPS.answer_schema(state, request)
    fields = {leaf.key: leaf for _, leaf in answers.leaves(schema)}
    assert set(fields) == {"let_out"}  # nothing out to winch in, no torpedo
    labels = [option.label for option in fields["let_out"].options]
    assert "rides High, 1d6+2" in labels[0]
    assert "rides Low, 2d6" in labels[-1]
    assert answers.assemble(schema, {"let_out": [str(MINE)]}) == {"let_out": [MINE]}
    assert all(answers.assemble(schema, answers.disassemble(schema, choice)) == choice for choice in found)
    assert CLOUDSHIPS.validate(state, request, {"let_out": [MINE]}) is None
    assert battle().board.ordnance == battle().board.ordnance.__class__()


# --- whole battles ----------------------------------------------------------------------------------------------


def close_quarters() -> dict:
    """The ordnance battle with the sides a few hexes apart, at every band."""
    scenario = {**ORDNANCE, "ships": [dict(s) for s in ORDNANCE["ships"]]}
    spots = {"Gloire": [12, 8], "Triumph": [12, 12], "Skyfire": [15, 8], "Locust": [15, 11], "Hullcutter": [14, 10]}
    bands = {"Gloire": "Medium", "Triumph": "Medium", "Skyfire": "High", "Locust": "Medium", "Hullcutter": "Low"}
    for entry in scenario["ships"]:
        if entry["name"] in spots:
            entry.update(hex=spots[entry["name"]], band=bands[entry["name"]])
    return scenario


@pytest.mark.rule("CM-TM-04", "CM-SMT-06")
def test_ships_with_mines_and_torpedoes_fight_whole_battles_at_random_every_state_keeping_the_invariants():
    seen: set[str] = set()
    # Seeds whose random battles include a contact with the present candidates (validate.move_candidates): a random
    # player strikes a mine or a torpedo in about one battle in six.
    for seed in (b"ordnance-1", b"ordnance-2", b"ordnance-9"):
        initial = new(seed, scenario=close_quarters())
        chosen = {side: policies.RandomPolicy(seed, side) for side in initial.sides}
        done = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen)
        assert done.state.over
        seen |= {e.kind for e in done.events}
        current = initial
        for event in done.events:
            current = resolver.apply_event(CLOUDSHIPS, current, event)
            assert CLOUDSHIPS.check_invariants(current) == [], event.kind
        assert resolver.rerun(CLOUDSHIPS, initial, done.events, seed) == done.events
    assert {LET_OUT, TORPEDO_LAUNCHED, TORPEDO_FLEW, CONTACT} <= seen
