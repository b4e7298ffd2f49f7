"""Each Movement Card executed on the board (battles/rules/barsoom/movement.py, impacts.py): moves, turns,
altitude, landing and crashing, collisions, rams, ships out of control, passing at other levels."""

from __future__ import annotations

import json
from itertools import product

import pytest

from battles.engine import hexgrid
from battles.rules.barsoom import movement, ships
from battles.rules.barsoom.board import Board, Ship, Way
from battles.rules.barsoom.kinds import (
    AHEAD,
    ASCEND,
    AT_THE_EDGE,
    BLOCKED,
    CARDS,
    CLIMBED,
    COLLIDED,
    COLLISION,
    CRASH,
    CRASHED,
    DESCEND,
    DESCENDED,
    EXTRA_ASCEND,
    HARD_LANDING,
    HELD,
    HELD_COURSE,
    LANDED,
    LEFT_MAP,
    MOVED,
    RAMMED,
    RAMMED_SHIP,
    RAMMING,
    REVERSE,
    STOP,
    STOPPED,
    TURN_LEFT,
    TURN_RIGHT,
    TURNED,
)
from battles.rules.barsoom.owed import DamageOwed

CRUISER, BATTLESHIP, SCOUT = "Heliumite cruiser", "Heliumite battleship", "scout flier"


def ship(name: str, vessel: str = CRUISER, at=(10, 10), facing=0, level=3, side="Helium", **kw) -> Ship:
    return Ship(name, side, ships.vessel(vessel), hexgrid.from_odd_q(*at), facing, level, **kw)


def board(*pieces: Ship) -> Board:
    return Board(30, 20, pieces)


def where(b: Board, name: str) -> tuple[int, int]:
    return hexgrid.to_odd_q(b.ship_named(name).hex)


def run(b: Board, name: str, *cards: str, **kw) -> tuple[Board, list[movement.Moved]]:
    done = []
    for card in cards:
        done.append(movement.execute(b, name, card, **kw))
        b = done[-1].board
    return b, done


# --- Ahead, Reverse, Turn, Stop ------------------------------------------------------------------------------------


@pytest.mark.rule("BR-MOV-03", "BR-CLS-02", "BR-CLS-05", "BR-CLS-06")
def test_ahead_moves_her_speed_in_hexes_along_her_facing():
    b = board(ship("Capital", BATTLESHIP), ship("Medium", at=(14, 10)), ship("Small", SCOUT, at=(18, 10)))
    for name, row in (("Capital", 8), ("Medium", 7), ("Small", 6)):
        moved = movement.execute(b, name, AHEAD)
        assert moved.outcome == MOVED
        assert where(moved.board, name)[1] == row
    east = board(ship("Medium", facing=2))
    assert (
        hexgrid.distance(
            east.ship_named("Medium").hex, movement.execute(east, "Medium", AHEAD).board.ship_named("Medium").hex
        )
        == 3
    )


@pytest.mark.rule("BR-MOV-04")
def test_reverse_moves_her_speed_backwards():
    moved = movement.execute(board(ship("Medium")), "Medium", REVERSE)
    assert (moved.outcome, where(moved.board, "Medium")) == (MOVED, (10, 13))
    assert moved.board.ship_named("Medium").facing == 0
    assert moved.board.ship_named("Medium").way == Way(0, 1, 0)


@pytest.mark.rule("BR-MOV-05")
def test_a_turn_is_one_hexside_to_its_side_or_none():
    b = board(ship("Medium"))
    assert movement.execute(b, "Medium", TURN_RIGHT).board.ship_named("Medium").facing == 1
    assert movement.execute(b, "Medium", TURN_LEFT).board.ship_named("Medium").facing == 5
    held = movement.execute(b, "Medium", TURN_RIGHT, turn=False)
    assert (held.outcome, held.board.ship_named("Medium").facing) == (HELD_COURSE, 0)
    # Ahead, Turn right, Ahead: three hexes north, then three north-east
    after, done = run(b, "Medium", AHEAD, TURN_RIGHT, AHEAD)
    assert [m.outcome for m in done] == [MOVED, TURNED, MOVED]
    assert where(after, "Medium") == (13, 5)


@pytest.mark.rule("BR-MOV-06")
def test_stop_spends_the_card_without_moving():
    b, _ = run(board(ship("Medium")), "Medium", AHEAD)
    stopped = movement.execute(b, "Medium", STOP)
    assert stopped.outcome == STOPPED
    assert where(stopped.board, "Medium") == where(b, "Medium")
    assert stopped.board.ship_named("Medium").way == Way()


def test_off_the_map_she_is_out_of_the_battle():
    gone = movement.execute(board(ship("Medium", at=(10, 1))), "Medium", AHEAD)
    assert gone.outcome == LEFT_MAP
    assert gone.board.ship_named("Medium").left_map
    assert movement.execute(gone.board, "Medium", AHEAD).outcome == HELD


@pytest.mark.rule("BR-DED-04", "BR-DED-03", "BR-OOC-02")
@pytest.mark.parametrize(("card", "start", "stop"), [(AHEAD, (10, 1), (10, 0)), (REVERSE, (10, 18), (10, 19))])
def test_the_maps_edge_holds_a_ship_moved_against_her_will(card, start, stop):
    """A DED's Arrow or an out-of-control card (forced) runs out at the last hex on the map, her way spent; she
    stays in the battle. The same card plotted by her captain takes her off the map (docs/barsoom.md section 5)."""
    b = board(ship("Medium", at=start))
    held = movement.execute(b, "Medium", card, forced=True)
    assert held.outcome == AT_THE_EDGE
    assert where(held.board, "Medium") == stop
    assert held.board.ship_named("Medium").in_play
    assert held.board.ship_named("Medium").way == Way()
    assert "BR-DED-04" in held.clauses
    again = movement.execute(held.board, "Medium", card, forced=True)  # already at the edge: she stays
    assert (again.outcome, where(again.board, "Medium")) == (AT_THE_EDGE, stop)
    assert movement.execute(b, "Medium", card).outcome == LEFT_MAP
    _, done = run(b, "Medium", TURN_RIGHT, forced=True)  # a DED's Turn never leaves her hex
    assert done[0].outcome == TURNED


@pytest.mark.rule("BR-DED-04", "BR-GRAP-10")
def test_the_maps_edge_holds_a_grappled_group_moved_against_its_will():
    pair = board(ship("Big", BATTLESHIP, at=(10, 1), grappled=("Little",)), ship("Little", at=(11, 1)))
    held = movement.execute(pair, "Big", AHEAD, forced=True)
    assert held.outcome == AT_THE_EDGE
    assert all(s.in_play and s.way == Way() for s in held.board.ships)
    assert where(held.board, "Big")[1] == 0
    assert movement.execute(pair, "Big", AHEAD).outcome == LEFT_MAP


# --- altitude -------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-MOV-07")
def test_descend_and_ascend_change_her_level_by_one():
    b = board(ship("Medium", level=3))
    assert movement.execute(b, "Medium", DESCEND).board.ship_named("Medium").level == 2
    assert movement.execute(b, "Medium", DESCEND).outcome == DESCENDED
    assert movement.execute(b, "Medium", ASCEND).board.ship_named("Medium").level == 4
    assert movement.execute(b, "Medium", ASCEND).outcome == CLIMBED
    top = movement.execute(board(ship("Medium", level=6)), "Medium", ASCEND)
    assert (top.outcome, top.board.ship_named("Medium").level) == (HELD, 6)


@pytest.mark.rule("BR-CLS-07")
def test_small_craft_climb_two_levels_a_turn_with_the_extra_ascend():
    after, done = run(board(ship("Small", SCOUT, level=1)), "Small", ASCEND, EXTRA_ASCEND, AHEAD)
    assert [m.outcome for m in done] == [CLIMBED, CLIMBED, MOVED]
    assert after.ship_named("Small").level == 3


@pytest.mark.rule("BR-MOV-13")
def test_ships_at_other_levels_are_passed_and_may_share_a_hex():
    b = board(ship("Medium", level=3), ship("Below", level=2, at=(10, 8)), ship("Above", level=4, at=(10, 7)))
    moved = movement.execute(b, "Medium", AHEAD)
    assert (moved.outcome, moved.damage, where(moved.board, "Medium")) == (MOVED, (), (10, 7))
    assert "BR-MOV-13" in moved.clauses
    assert moved.board.ship_at(hexgrid.from_odd_q(10, 7), 3).name == "Medium"
    assert moved.board.ship_at(hexgrid.from_odd_q(10, 7), 4).name == "Above"


def test_a_ship_at_the_level_she_would_move_to_in_her_hex_blocks_her():
    b = board(ship("Medium", level=3), ship("Over", level=4))
    blocked = movement.execute(b, "Medium", ASCEND)
    assert (blocked.outcome, blocked.contact, blocked.damage) == (BLOCKED, "Over", ())
    assert blocked.board == b


# --- landing and crashing --------------------------------------------------------------------------------------


@pytest.mark.rule("BR-LAND-01")
def test_a_ship_that_descends_to_the_ground_by_choice_lands_unharmed():
    landed = movement.execute(board(ship("Medium", level=1)), "Medium", DESCEND)
    assert (landed.outcome, landed.damage) == (LANDED, ())
    grounded = landed.board.ship_named("Medium")
    assert (grounded.level, grounded.landed, grounded.crashed) == (0, True, False)
    # on the ground she goes nowhere until she Ascends
    assert movement.execute(landed.board, "Medium", AHEAD).outcome == HELD
    assert movement.execute(landed.board, "Medium", TURN_LEFT).outcome == HELD
    up = movement.execute(landed.board, "Medium", ASCEND)
    assert (up.outcome, up.board.ship_named("Medium").level, up.board.ship_named("Medium").landed) == (
        CLIMBED,
        1,
        False,
    )


@pytest.mark.rule("BR-CLS-03", "BR-LAND-01", "BR-LAND-03")
def test_capital_ships_descend_two_levels_into_a_landing_unharmed_the_others_one():
    _, done = run(board(ship("Capital", BATTLESHIP, level=2)), "Capital", DESCEND, DESCEND)
    assert (done[-1].outcome, done[-1].damage) == (LANDED, ())
    _, done = run(board(ship("Medium", level=2)), "Medium", DESCEND, DESCEND)
    assert done[-1].outcome == LANDED
    assert done[-1].damage == (DamageOwed("Medium", 2, 0, HARD_LANDING, "BR-CLS-03"),)
    _, done = run(board(ship("Capital", BATTLESHIP, level=3)), "Capital", DESCEND, DESCEND, DESCEND)
    assert done[-1].damage == (DamageOwed("Capital", 3, 0, HARD_LANDING, "BR-CLS-03"),)
    # a Stop between the Descends breaks the row
    _, done = run(board(ship("Medium", level=2)), "Medium", DESCEND, STOP, DESCEND)
    assert (done[-1].outcome, done[-1].damage) == (LANDED, ())
    _, done = run(board(ship("Small", SCOUT, level=2)), "Small", DESCEND, DESCEND)
    assert done[-1].damage == (DamageOwed("Small", 2, 0, HARD_LANDING, "BR-CLS-03"),)


@pytest.mark.rule("BR-LAND-02", "BR-LAND-03", "BR-LAND-05")
def test_forced_to_the_ground_she_crashes_a_d10_for_each_descend_in_the_row():
    crash = movement.forced_descend(board(ship("Medium", level=1)), "Medium")
    assert crash.outcome == CRASHED
    assert crash.damage == (DamageOwed("Medium", 1, 0, CRASH, "BR-LAND-03"),)
    wreck = crash.board.ship_named("Medium")
    assert (wreck.level, wreck.crashed, wreck.landed) == (0, True, False)
    # a plotted Descend, then a damage result's: two Descends in a row
    b, _ = run(board(ship("Medium", level=2)), "Medium", DESCEND)
    assert movement.forced_descend(b, "Medium").damage == (DamageOwed("Medium", 2, 0, CRASH, "BR-LAND-03"),)
    # even a capital ship: her two safe Descends are a landing's, not a crash's
    b, _ = run(board(ship("Capital", BATTLESHIP, level=2)), "Capital", DESCEND)
    assert movement.forced_descend(b, "Capital").damage == (DamageOwed("Capital", 2, 0, CRASH, "BR-LAND-03"),)
    assert movement.forced_descend(crash.board, "Medium").outcome == HELD


@pytest.mark.rule("BR-LAND-04")
def test_a_crashed_ship_is_a_wreck_that_cannot_move():
    wrecked = movement.forced_descend(board(ship("Medium", level=1)), "Medium").board
    for card in (AHEAD, REVERSE, TURN_RIGHT, ASCEND, STOP):
        held = movement.execute(wrecked, "Medium", card)
        assert (held.outcome, held.board, held.clauses) == (HELD, wrecked, ("BR-LAND-04",))


@pytest.mark.rule("BR-DMG-06")
def test_a_stranded_ship_cannot_ascend():
    b = board(ship("Medium", level=0, landed=True, stranded=True))
    held = movement.execute(b, "Medium", ASCEND)
    assert (held.outcome, held.board) == (HELD, b)


# --- collisions and rams --------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-COL-01", "BR-COL-02")
def test_unintended_contact_is_a_collision_a_d10_each_for_every_ahead_leading_up():
    # B lies four hexes ahead: the first Ahead closes to one hex, the second makes contact after one hex
    b = board(ship("A"), ship("B", at=(10, 5), side="Zodanga"))
    after, done = run(b, "A", AHEAD, AHEAD)
    hit = done[-1]
    assert (hit.outcome, hit.contact, where(after, "A")) == (COLLIDED, "B", (10, 6))
    assert hit.damage == (DamageOwed("A", 2, 0, COLLISION, "BR-COL-02"), DamageOwed("B", 2, 0, COLLISION, "BR-COL-02"))
    assert after.ship_named("A").way == Way()
    # a Turn keeps her way; a Stop ends it
    b = board(ship("A"), ship("B", at=(13, 5), side="Zodanga"))
    _, done = run(b, "A", AHEAD, TURN_RIGHT, AHEAD)
    assert [d.rolls for d in done[-1].damage] == [2, 2]
    b = board(ship("A"), ship("B", at=(10, 5), side="Zodanga"))
    _, done = run(b, "A", AHEAD, STOP, AHEAD)
    assert done[-1].damage == (
        DamageOwed("A", 1, 0, COLLISION, "BR-COL-02"),
        DamageOwed("B", 1, 0, COLLISION, "BR-COL-02"),
    )


@pytest.mark.rule("BR-COL-03")
def test_a_head_on_collision_adds_both_ships_moves():
    coming = ship("B", at=(10, 5), facing=3, side="Zodanga", way=Way(aheads=1))
    _, done = run(board(ship("A"), coming), "A", AHEAD, AHEAD)
    assert done[-1].damage == (
        DamageOwed("A", 3, 0, COLLISION, "BR-COL-03"),
        DamageOwed("B", 3, 0, COLLISION, "BR-COL-03"),
    )
    assert done[-1].board.ship_named("B").way == Way()
    # backing into her stern-first is head-on too: her Reverse counts
    backing = ship("B", at=(10, 5), facing=0, side="Zodanga", way=Way(reverses=1))
    _, done = run(board(ship("A"), backing), "A", AHEAD, AHEAD)
    assert [d.rolls for d in done[-1].damage] == [3, 3]
    # a ship facing her but not moving this turn is not head-on
    idle = ship("B", at=(10, 5), facing=3, side="Zodanga")
    _, done = run(board(ship("A"), idle), "A", AHEAD, AHEAD)
    assert [d.rolls for d in done[-1].damage] == [2, 2]


@pytest.mark.rule("BR-RAM-01", "BR-RAM-02", "BR-RAM-04")
def test_a_ram_costs_the_rammer_d10_minus_2_a_move_and_the_rammed_one_d10_plus_2():
    b = board(ship("A"), ship("B", at=(10, 5), side="Zodanga"))
    b, _ = run(b, "A", AHEAD)
    rammed = movement.execute(b, "A", AHEAD, ram=True)
    assert (rammed.outcome, rammed.contact) == (RAMMED_SHIP, "B")
    assert rammed.damage == (DamageOwed("A", 2, -2, RAMMING, "BR-RAM-02"), DamageOwed("B", 1, 2, RAMMED, "BR-RAM-04"))
    # a stern ram, Reverse
    b = board(ship("A"), ship("B", at=(10, 13), side="Zodanga"))
    rammed = movement.execute(b, "A", REVERSE, ram=True)
    assert (rammed.outcome, where(rammed.board, "A")) == (RAMMED_SHIP, (10, 12))
    assert rammed.damage == (DamageOwed("A", 1, -2, RAMMING, "BR-RAM-02"), DamageOwed("B", 1, 2, RAMMED, "BR-RAM-04"))
    # a ram declared that meets no one is a move
    assert movement.execute(board(ship("A")), "A", AHEAD, ram=True).outcome == MOVED


@pytest.mark.rule("BR-RAM-03")
def test_a_head_on_ram_adds_both_ships_moves():
    coming = ship("B", at=(10, 5), facing=3, side="Zodanga", way=Way(aheads=2))
    _, done = run(board(ship("A"), coming), "A", AHEAD)
    rammed = movement.execute(done[-1].board, "A", AHEAD, ram=True)
    assert rammed.damage == (DamageOwed("A", 4, -2, RAMMING, "BR-RAM-03"), DamageOwed("B", 1, 2, RAMMED, "BR-RAM-04"))


@pytest.mark.rule("BR-COL-01", "BR-RAM-01")
def test_a_forced_move_never_rams():
    b = board(ship("A"), ship("B", at=(10, 8), side="Zodanga"))
    forced = movement.execute(b, "A", AHEAD, ram=True, forced=True)
    assert forced.outcome == COLLIDED
    assert [d.reason for d in forced.damage] == [COLLISION, COLLISION]


@pytest.mark.rule("BR-MOV-13")
def test_ships_at_different_levels_never_collide():
    b = board(ship("A", level=3), ship("B", at=(10, 8), level=2, side="Zodanga"))
    moved = movement.execute(b, "A", AHEAD, ram=True)
    assert (moved.outcome, moved.damage) == (MOVED, ())


# --- out of control ----------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-OOC-02")
def test_out_of_control_two_random_options_then_a_descend():
    done = movement.out_of_control(board(ship("A", level=3)), "A", (AHEAD, TURN_RIGHT))
    assert [m.outcome for m in done] == [MOVED, TURNED, DESCENDED]
    drifted = done[-1].board.ship_named("A")
    assert (hexgrid.to_odd_q(drifted.hex), drifted.facing, drifted.level) == ((10, 7), 1, 2)


@pytest.mark.rule("BR-OOC-02", "BR-LAND-05")
def test_out_of_control_the_descend_to_the_ground_is_a_crash():
    done = movement.out_of_control(board(ship("A", level=1)), "A", (STOP, STOP))
    assert done[-1].outcome == CRASHED
    assert done[-1].damage == (DamageOwed("A", 1, 0, CRASH, "BR-LAND-03"),)
    # a random Descend is forced too, and counts in the row
    done = movement.out_of_control(board(ship("A", level=2)), "A", (STOP, DESCEND))
    assert [m.outcome for m in done] == [STOPPED, DESCENDED, CRASHED]
    assert done[-1].damage == (DamageOwed("A", 2, 0, CRASH, "BR-LAND-03"),)
    done = movement.out_of_control(board(ship("A", level=1)), "A", (DESCEND, AHEAD))
    assert done[0].outcome == CRASHED
    assert [m.outcome for m in done[1:]] == [HELD, HELD]


# --- the board's JSON -------------------------------------------------------------------------------------------


def test_the_board_round_trips_through_plain_json():
    b = board(
        ship("A", grappled=("B",), way=Way(2, 0, 1)),
        ship("B", SCOUT, at=(11, 10), grappled=("A",), out_of_control=True),
        ship("C", BATTLESHIP, level=0, landed=True, stranded=True),
        ship("D", level=0, crashed=True, facing=4),
    )
    text = json.dumps(b.to_json())
    assert Board.from_json(json.loads(text)) == b


def test_each_turn_counts_her_way_afresh():
    b, _ = run(board(ship("A")), "A", AHEAD, DESCEND)
    assert b.ship_named("A").way == Way(1, 0, 1)
    assert b.new_turn().ship_named("A").way == Way()


def test_the_boards_invariants_hold_after_every_card_and_name_what_breaks():
    b = board(ship("A"), ship("B", at=(10, 5), side="Zodanga", level=1), ship("C", SCOUT, at=(12, 10), level=2))
    for name, card in (("A", AHEAD), ("B", DESCEND), ("C", DESCEND), ("A", AHEAD), ("C", ASCEND), ("A", REVERSE)):
        b = movement.execute(b, name, card).board
        assert b.problems() == [], (name, card)
    bad = board(ship("A", level=0), ship("B", level=7), ship("C", level=7, at=(1, 1), grappled=("Nobody",)))
    assert bad.problems() == [
        "A is at level 0, landed False, crashed False",
        "B is at level 7, outside 0 to 6",
        "C is at level 7, outside 0 to 6",
        "C is grappled with ['Nobody'], not ships of the board",
    ]
    assert board(ship("A"), ship("B")).problems() == ["B and A share a hex at level 3"]


def test_every_three_card_sequence_keeps_the_board_sound():
    """Every sequence of three cards (restrictions aside: forced moves and the optional rule can break them), for
    ships meeting head-on, passing at other levels, near the ground and grappled."""
    boards = (
        board(ship("A", level=1), ship("B", SCOUT, at=(10, 6), facing=3, level=1, side="Zodanga")),
        board(ship("A", BATTLESHIP, level=2), ship("B", at=(10, 8), level=1, side="Zodanga")),
        board(ship("A", level=1, grappled=("B",)), ship("B", SCOUT, at=(11, 10), level=1, side="Zodanga")),
    )
    for start in boards:
        for cards in product(CARDS, repeat=3):
            b = start
            for number, card in enumerate(cards):
                mover = "AB"[number % 2]
                b = movement.execute(b, mover, card, ram=number == 0).board
                assert b.problems() == [], (cards, number)
