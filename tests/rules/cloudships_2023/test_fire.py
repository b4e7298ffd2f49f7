"""Step 3, fire and return fire: who is asked, what an order may hold (each refusal's clause), the dice of main
guns, anti-personnel guns and rockets (the text's worked examples as golden tests on known dice), Fired markers
and spent weapons, and the damage left due for step 4."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import dice
from battles.rules.cloudships_2023 import firing, panels
from battles.rules.cloudships_2023.kinds import (
    DAMAGE_DUE,
    FIRE_ORDERS,
    GUN_FIRED,
    RETURN_FIRE,
    TURN_CARD,
    VOLLEY,
)
from tests.rules.cloudships_2023.battle_kit import changed, of_kind, ship
from tests.rules.cloudships_2023.fire_kit import (
    ORIGIN,
    away,
    duel,
    give,
    judged,
    refused,
    request_of,
    shots,
    start,
    superior,
)

# Seeds whose first dice are known (dice.faces(seed, MAIN, 0, n)): the fire step's first roll is the battle's first.
AP_1_2_4_5_6, SIX, FIVE, FOUR = b"ap-822", b"six-4", b"five-5", b"four-4"
STARBOARD_ABEAM = 2  # from Aphid facing north, the direction whose hexes lie in her starboard arc alone


def test_the_seeds_give_the_dice_the_golden_tests_say():
    assert dice.faces(AP_1_2_4_5_6, dice.MAIN, 0, 5) == (1, 2, 4, 5, 6)
    assert [dice.face(seed, dice.MAIN, 0) for seed in (SIX, FIVE, FOUR)] == [6, 5, 4]


def dues(events):
    return [(e.data["ship"], e.data["points"], e.data["by"], e.data["crew"]) for e in of_kind(events, DAMAGE_DUE)]


# --- who is asked -----------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-SEQ-07")
def test_the_active_captain_is_asked_her_fire_orders_and_holding_fire_ends_the_step():
    asked = start(duel())
    request = request_of(asked.state, FIRE_ORDERS)
    assert (request.side, request.ships, request.rule, request.default) == (
        "british",
        ("Aphid",),
        "CM-SEQ-07",
        {"shots": []},
    )
    held = give(asked.state, FIRE_ORDERS, {"shots": []})
    assert [e.data["shots"] for e in of_kind(held.events, VOLLEY)] == [[]]
    assert not of_kind(held.events, GUN_FIRED)
    assert held.state.board.volley is None
    assert [r.kind for r in held.state.pending()] == [TURN_CARD]  # the turn went on to its end


@pytest.mark.rule("CM-SEQ-07")
def test_a_ship_with_no_gun_able_to_fire_is_not_asked():
    done = start(duel(hexes=9))
    assert [r.kind for r in done.state.pending()] == [TURN_CARD]
    assert not of_kind(done.events, VOLLEY)


@pytest.mark.rule("CM-SEQ-08", "CM-SEQ-02")
def test_each_ship_fired_on_is_asked_its_return_fire_in_secret_in_one_batch():
    board = duel()
    board = changed(board, "Hullcutter", hex=away(2, STARBOARD_ABEAM), facing=5, band=panels.MEDIUM)
    asked = start(board)
    ordered = give(asked.state, FIRE_ORDERS, shots(("Aphid", 1, "Locust"), ("Aphid", 3, "Hullcutter")))
    returning = ordered.state.pending()
    assert [(r.kind, r.ships, r.secret, r.rule) for r in returning] == [
        (RETURN_FIRE, ("Locust",), True, "CM-SEQ-08"),
        (RETURN_FIRE, ("Hullcutter",), True, "CM-SEQ-08"),
    ]
    assert not of_kind(ordered.events, GUN_FIRED)  # nothing is rolled before every answer is in


@pytest.mark.rule("CM-SEQ-08")
def test_return_fire_is_only_at_the_active_ship():
    board = changed(duel(), "Reliant", hex=away(1, 5), facing=0, band=panels.MEDIUM)
    ordered = give(start(board).state, FIRE_ORDERS, shots(("Aphid", 1, "Locust")))
    assert refused(ordered.state, RETURN_FIRE, shots(("Locust", 1, "Reliant"))) == "CM-SEQ-08"
    assert refused(ordered.state, RETURN_FIRE, shots(("Locust", 1, "Aphid"))) is None


# --- what an order may hold -------------------------------------------------------------------------------------


@pytest.mark.rule("CM-FIRE-02")
def test_a_gun_fires_only_at_a_target_in_its_arc():
    asked = start(duel()).state  # Locust dead ahead: the bow and the 1-pdrs bear, the broadside Nordenfelts not
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 1, "Locust"))) is None
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 2, "Locust"))) is None
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 3, "Locust"))) == "CM-FIRE-02"


@pytest.mark.rule("CM-FIRE-03", "CM-FIRE-04")
def test_range_is_hexes_plus_a_band_the_target_is_higher_and_a_gun_reaches_its_long_range():
    level = duel(hexes=6)  # the 4-inch short reaches 6
    assert judged(level, shots(("Aphid", 1, "Locust"))) is None
    assert judged(level, shots(("Aphid", 2, "Locust"))) == "CM-FIRE-04"  # the 1-pdr only 4
    assert judged(duel(hexes=6, locust_band=panels.HIGH), shots(("Aphid", 1, "Locust"))) == "CM-FIRE-04"  # 7
    assert judged(duel(hexes=6, locust_band=panels.LOW), shots(("Aphid", 1, "Locust"))) is None  # lower: 6
    assert firing.range_to(ship(level, "Aphid"), ship(duel(hexes=6, locust_band=panels.HIGH), "Locust")) == 7
    two_up = duel(hexes=6, aphid_band=panels.LOW, locust_band=panels.HIGH)
    assert firing.range_to(ship(two_up, "Aphid"), ship(two_up, "Locust")) == 8
    assert firing.range_to(ship(two_up, "Locust"), ship(two_up, "Aphid")) == 6


@pytest.mark.rule("CM-FIRE-05")
def test_no_gun_fires_steeper_than_45_degrees():
    one_below = start(duel(hexes=1, locust_band=panels.LOW)).state
    assert refused(one_below, FIRE_ORDERS, shots(("Aphid", 1, "Locust"))) is None
    two_below = duel(hexes=1, aphid_band=panels.HIGH, locust_band=panels.LOW)
    assert judged(two_below, shots(("Aphid", 1, "Locust"))) == "CM-FIRE-05"
    assert judged(duel(hexes=2, aphid_band=panels.HIGH, locust_band=panels.LOW), shots(("Aphid", 1, "Locust"))) is None
    board = changed(duel(hexes=1, locust_band=panels.LOW), "Locust", hex=ORIGIN)  # right below her
    assert judged(board, shots(("Aphid", 1, "Locust"))) == "CM-FIRE-05"
    assert start(board).state.pending()[0].kind == TURN_CARD  # nothing can fire: she is not asked


@pytest.mark.rule("CM-AP-12")
def test_anti_personnel_guns_cannot_fire_up_at_a_ship_but_may_fire_down():
    up = changed(duel(locust_band=panels.HIGH), "Locust", hex=away(2, STARBOARD_ABEAM))
    assert judged(up, shots(("Aphid", 3, "Locust"))) == "CM-AP-12"
    down = changed(duel(locust_band=panels.LOW), "Locust", hex=away(2, STARBOARD_ABEAM))
    assert judged(down, shots(("Aphid", 3, "Locust"))) is None


@pytest.mark.rule("CM-FIRE-01", "CM-SEQ-10")
def test_each_gun_fires_once_a_round_its_fired_marker_on():
    asked = start(duel()).state
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 1, "Locust"), ("Aphid", 1, "Locust"))) == "CM-FIRE-01"
    marked = start(changed(duel(), "Aphid", fired=(1,))).state
    assert refused(marked, FIRE_ORDERS, shots(("Aphid", 1, "Locust"))) == "CM-FIRE-01"
    assert refused(marked, FIRE_ORDERS, shots(("Aphid", 2, "Locust"))) is None


@pytest.mark.rule("CM-DMG-06", "CM-SEQ-07")
def test_a_lost_gun_an_own_ship_and_another_ships_guns_are_refused():
    board = changed(duel(), "Aphid", guns_lost=(1,))
    board = changed(board, "Reliant", hex=away(2, STARBOARD_ABEAM), band=panels.MEDIUM)
    asked = start(board).state
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 1, "Locust"))) == "CM-DMG-06"
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 3, "Reliant"))) == "CM-SEQ-07"
    assert refused(asked, FIRE_ORDERS, shots(("Locust", 1, "Aphid"))) == "CM-SEQ-07"
    assert refused(asked, FIRE_ORDERS, {"shots": [{"ship": "Aphid", "gun": "1", "target": "Locust"}]}) == "CM-SEQ-07"


@pytest.mark.rule("CM-BRD-22")
def test_a_ship_in_a_boarding_action_fires_only_at_the_ship_she_is_grappled_with():
    board = changed(duel(), "Aphid", grappled=("Hullcutter",))
    board = changed(board, "Hullcutter", hex=ORIGIN, band=panels.MEDIUM, grappled=("Aphid",))
    asked = start(board).state
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 1, "Locust"))) == "CM-BRD-22"
    assert refused(asked, FIRE_ORDERS, shots(("Aphid", 3, "Hullcutter"))) is None  # same hex, same band: range 0


# --- the dice ---------------------------------------------------------------------------------------------------


def fire_alone(board, order, seed):
    """Give ``order`` and let every ship fired on hold her fire: the volley's events."""
    ordered = give(start(board, seed).state, FIRE_ORDERS, order, seed)
    done = ordered
    while any(r.kind == RETURN_FIRE for r in done.state.pending()):
        done = give(done.state, RETURN_FIRE, {"shots": []}, seed)
    return list(ordered.events) + (list(done.events) if done is not ordered else [])


@pytest.mark.rule("CM-FIRE-06", "CM-FIRE-07", "CM-FIRE-10", "CM-FIRE-11")
def test_golden_a_main_gun_hits_on_3_short_for_its_damage_and_one_more_on_a_natural_6():
    order = shots(("Aphid", 1, "Locust"))  # the 4-inch short (damage 4) at 2 hexes: short range
    assert dues(fire_alone(duel(), order, SIX)) == [("Locust", 5, "Aphid", 0)]
    assert dues(fire_alone(duel(), order, FOUR)) == [("Locust", 4, "Aphid", 0)]
    events = fire_alone(duel(), order, b"cm-seed")
    roll = next(e for e in events if e.kind == "roll")
    assert "short range 2" in roll.data["purpose"]
    assert "CM-FIRE-07" in roll.data["purpose"]
    assert roll.data["needed"] == "3+"
    face = roll.data["dice"][0]
    assert dues(events) == ([("Locust", 4 + (face == 6), "Aphid", 0)] if face >= 3 else [])


@pytest.mark.rule("CM-FIRE-08", "CM-FIRE-11")
def test_golden_a_main_gun_hits_on_5_long():
    order = shots(("Aphid", 1, "Locust"))
    assert dues(fire_alone(duel(hexes=5), order, FOUR)) == []
    assert dues(fire_alone(duel(hexes=5), order, FIVE)) == [("Locust", 4, "Aphid", 0)]
    assert dues(fire_alone(duel(hexes=5), order, SIX)) == [("Locust", 5, "Aphid", 0)]


@pytest.mark.rule("CM-FIRE-09", "CM-SUP-02", "CM-FIRE-11")
def test_golden_a_superior_crew_adds_one_to_the_die_but_a_modified_6_does_no_extra_damage():
    board = superior(duel(hexes=5), "Aphid")
    order = shots(("Aphid", 1, "Locust"))
    assert dues(fire_alone(board, order, FOUR)) == [("Locust", 4, "Aphid", 0)]  # 4 + 1 makes 5: a hit long
    assert dues(fire_alone(board, order, FIVE)) == [("Locust", 4, "Aphid", 0)]  # a 6 by the +1: no extra point
    roll = next(e for e in fire_alone(board, order, FIVE) if e.kind == "roll")
    assert roll.data["modifiers"] == {"superior crew": 1}


@pytest.mark.rule("CM-FIRE-06")
def test_a_quick_firer_rolls_its_dice_each_scored_alone():
    events = fire_alone(duel(), shots(("Aphid", 2, "Locust")), b"qf")  # a 1-pdr, 3 dice of 1 point, short
    roll = next(e for e in events if e.kind == "roll")
    assert len(roll.data["dice"]) == 3
    hits = [face for face in roll.data["dice"] if face >= 3]
    assert dues(events) == [("Locust", 1 + (face == 6), "Aphid", 0) for face in hits]


def abeam(hexes: int):
    return changed(duel(), "Locust", hex=away(hexes, STARBOARD_ABEAM))


@pytest.mark.rule("CM-AP-01", "CM-AP-02", "CM-AP-04", "CM-AP-06")
def test_golden_anti_personnel_dice_1_2_4_5_6_at_short_range_are_2_crew_hits_and_no_hull_damage():
    events = fire_alone(abeam(1), shots(("Aphid", 3, "Locust")), AP_1_2_4_5_6)  # a Nordenfelt: 5 dice
    roll = next(e for e in events if e.kind == "roll")
    assert (roll.data["dice"], roll.data["needed"]) == ([1, 2, 4, 5, 6], "5+")
    assert dues(events) == [("Locust", 0, "Aphid", 2)]


@pytest.mark.rule("CM-AP-03", "CM-AP-05")
def test_golden_the_same_dice_at_long_range_are_1_hit():
    events = fire_alone(abeam(2), shots(("Aphid", 3, "Locust")), AP_1_2_4_5_6)
    assert dues(events) == [("Locust", 0, "Aphid", 1)]


@pytest.mark.rule("CM-AP-11", "CM-SUP-03", "CM-SUP-05", "CM-AP-10")
def test_golden_a_superior_crew_makes_the_same_dice_four_hits():
    events = fire_alone(superior(abeam(1), "Aphid"), shots(("Aphid", 3, "Locust")), AP_1_2_4_5_6)
    assert dues(events) == [("Locust", 0, "Aphid", 4)]


@pytest.mark.rule("CM-SUP-04")
def test_golden_a_superior_crew_at_long_range_hits_on_5_and_6():
    events = fire_alone(superior(abeam(2), "Aphid"), shots(("Aphid", 3, "Locust")), AP_1_2_4_5_6)
    assert dues(events) == [("Locust", 0, "Aphid", 3)]  # the 5 and the 6, and one more


@pytest.mark.rule("CM-AP-08")
def test_the_hits_of_a_ships_anti_personnel_guns_on_one_target_are_added_together():
    board = changed(duel(), "Locust", hex=away(1, STARBOARD_ABEAM))
    board = changed(board, "Aphid", panel=_two_starboard_nordenfelts(ship(board, "Aphid").panel))
    events = fire_alone(board, shots(("Aphid", 3, "Locust"), ("Aphid", 5, "Locust")), b"two guns")
    rolls = [e for e in events if e.kind == "roll"]
    hits = sum(1 for roll in rolls for face in roll.data["dice"] if face >= 5)
    assert len(rolls) == 2
    assert dues(events) == ([("Locust", 0, "Aphid", hits)] if hits else [])


def _two_starboard_nordenfelts(panel: panels.ControlPanel) -> panels.ControlPanel:
    guns = tuple(replace(gun, arcs=("starboard",)) if gun.number == 5 else gun for gun in panel.guns)
    return replace(panel, guns=guns)


@pytest.mark.rule("CM-AP-09", "CM-SEQ-08")
def test_each_ship_fired_on_returns_fire_and_the_hits_of_different_ships_are_kept_apart():
    board = changed(duel(), "Locust", hex=away(1, STARBOARD_ABEAM), facing=0)
    board = changed(board, "Skylord", hex=away(1, 1), facing=0, band=panels.MEDIUM)
    ordered = give(start(board).state, FIRE_ORDERS, shots(("Aphid", 2, "Locust"), ("Aphid", 3, "Skylord")))
    aphid = ship(ordered.state.board, "Aphid")
    back = firing.legal_shots(ordered.state.board, ship(ordered.state.board, "Locust"), (aphid,))
    assert 6 in {s.gun for s in back}  # her port Gatling too: its crew hits are hers alone
    first = give(ordered.state, RETURN_FIRE, {"shots": [s.to_json() for s in back]}, name="Locust")
    done = give(first.state, RETURN_FIRE, shots(("Skylord", 7, "Aphid")), name="Skylord")
    fired = [(e.data["ship"], e.data["gun"]) for e in of_kind(done.events, GUN_FIRED)]
    assert fired == [("Aphid", 2), ("Aphid", 3)] + [("Locust", s.gun) for s in back] + [("Skylord", 7)]
    crew_on_aphid = [d for d in dues(done.events) if d[0] == "Aphid" and d[3]]
    assert len(crew_on_aphid) <= 1
    assert all(d[2] == "Locust" for d in crew_on_aphid)
    assert {d[2] for d in dues(done.events) if d[0] == "Aphid"} <= {"Locust", "Skylord"}


@pytest.mark.rule("CM-SEQ-09", "CM-GUN-02", "CM-SEQ-10")
def test_fire_is_simultaneous_a_ship_brought_down_by_it_still_fires_back():
    board = changed(duel(), "Locust", panel=replace(ship(duel(), "Locust").panel, track=(("Hull", "Ground"),)))
    ordered = give(start(board, SIX).state, FIRE_ORDERS, shots(("Aphid", 1, "Locust")), SIX)
    done = give(ordered.state, RETURN_FIRE, shots(("Locust", 1, "Aphid")), SIX)
    assert [(e.data["ship"], e.data["gun"]) for e in of_kind(done.events, GUN_FIRED)] == [("Aphid", 1), ("Locust", 1)]
    after = done.state.board
    assert ship(after, "Locust").status == "crashed"
    assert ship(after, "Aphid").fired == (1,)
    assert ship(after, "Locust").fired == (1,)
    back = dice.face(SIX, dice.MAIN, 1)  # the Locust's die, rolled after the Aphid's 6
    expected = [("Locust", 5, "Aphid", 0)] + ([("Aphid", 4 + (back == 6), "Locust", 0)] if back >= 3 else [])
    assert dues(done.events) == expected


# --- rockets ----------------------------------------------------------------------------------------------------


def rocket_board(hexes: int, target_band: str):
    """Locust (rockets fitted to fire down, port) at High facing north, the Aphid ``hexes`` off her port beam."""
    board = duel(active="Locust")
    board = changed(board, "Locust", hex=ORIGIN, facing=0, band=panels.HIGH)
    return changed(board, "Aphid", hex=away(hexes, 5), facing=0, band=target_band)


@pytest.mark.rule("CM-RKT-01", "CM-RKT-02")
def test_rockets_fire_only_at_exactly_45_degrees_the_way_they_are_fitted():
    rocket = shots(("Locust", 7, "Aphid"))
    assert judged(rocket_board(2, panels.LOW), rocket, name="Locust") is None
    assert judged(rocket_board(1, panels.MEDIUM), rocket, name="Locust") is None
    for hexes, band in ((1, panels.LOW), (3, panels.LOW), (2, panels.MEDIUM)):
        assert judged(rocket_board(hexes, band), rocket, name="Locust") == "CM-RKT-02"
    board = rocket_board(1, panels.MEDIUM)
    locust = ship(board, "Locust")
    up = tuple(replace(gun, angle="up") if gun.number == 7 else gun for gun in locust.panel.guns)
    board = changed(board, "Locust", panel=replace(locust.panel, guns=up))
    assert judged(board, rocket, name="Locust") == "CM-RKT-01"


@pytest.mark.rule("CM-RKT-04", "CM-RKT-05", "CM-RKT-06", "CM-FIRE-12", "CM-SEQ-10")
def test_a_rocket_battery_hits_without_a_roll_to_hit_does_its_die_and_is_spent():
    events = fire_alone(rocket_board(2, panels.LOW), shots(("Locust", 7, "Aphid")), FOUR)
    roll = next(e for e in events if e.kind == "roll")
    assert (roll.data["dice"], roll.data["needed"]) == ([4], "")
    assert "CM-RKT-06" in roll.data["purpose"]
    assert dues(events) == [("Aphid", 4, "Locust", 0)]
    after = start(rocket_board(2, panels.LOW), FOUR)
    ordered = give(after.state, FIRE_ORDERS, shots(("Locust", 7, "Aphid")), FOUR)
    final = (
        ordered
        if ordered.state.pending()[0].kind != RETURN_FIRE
        else give(ordered.state, RETURN_FIRE, {"shots": []}, FOUR)
    )
    locust = ship(final.state.board, "Locust")
    assert (locust.fired, locust.spent) == ((7,), (7,))


@pytest.mark.rule("CM-RKT-07")
def test_a_superior_crew_adds_one_point_to_each_rocket():
    events = fire_alone(superior(rocket_board(2, panels.LOW), "Locust"), shots(("Locust", 7, "Aphid")), FOUR)
    assert dues(events) == [("Aphid", 5, "Locust", 0)]


# --- bombs and fire into a boarding action ---------------------------------------------------------------------


@pytest.mark.rule("CM-BOMB-01", "CM-BOMB-02", "CM-BOMB-05", "CM-BOMB-06")
def test_bombs_fall_on_a_ship_below_in_the_same_hex_for_their_die_once():
    board = duel(hexes=1, aphid_band=panels.HIGH, locust_band=panels.LOW)
    aphid = ship(board, "Aphid")
    bombs = replace(aphid.panel.guns[0], number=9, name="Bomb rack", kind=panels.BOMBS, arcs=(), roll="1d6")
    board = changed(board, "Aphid", panel=replace(aphid.panel, guns=(*aphid.panel.guns, bombs)))
    order = shots(("Aphid", 9, "Locust"))
    assert judged(board, order) == "CM-BOMB-02"
    below = changed(board, "Locust", hex=ORIGIN)
    assert judged(below, order) is None
    assert dues(fire_alone(below, order, FOUR)) == [("Locust", 4, "Aphid", 0)]
    assert dues(fire_alone(superior(below, "Aphid"), order, FOUR)) == [("Locust", 5, "Aphid", 0)]
    assert judged(changed(below, "Aphid", spent=(9,)), order) == "CM-FIRE-12"


@pytest.mark.rule("CM-BRD-23")
def test_fire_into_a_boarding_action_does_the_same_damage_to_both_ships():
    board = changed(duel(), "Locust", grappled=("Reliant",))
    board = changed(board, "Reliant", hex=away(2), band=panels.MEDIUM, grappled=("Locust",))
    events = fire_alone(board, shots(("Aphid", 1, "Locust")), SIX)
    assert dues(events) == [("Locust", 5, "Aphid", 0), ("Reliant", 5, "Aphid", 0)]
