"""A ship's move on hexes (IC-MOV-01..11, IC-SPD-04, IC-SPD-08, IC-PROB-02/03/07, IC-SEQ-07)."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.engine.frozen import evolve
from battles.rules.ironclads import movement, scale
from battles.rules.ironclads.movement import AHEAD, ASTERN, PORT1, PORT2, STARBOARD1, STARBOARD2, Order
from battles.rules.ironclads.speed import STOPPED, Setting
from tests.rules.ironclads.boards import CENTRE, board_of, clause, ship


def go(speed: int, *path: str, astern: bool = False) -> Order:
    return Order(Setting(speed, astern), tuple(path))


@pytest.mark.rule("IC-MOV-01", "IC-MOV-02")
def test_she_moves_her_allowance_in_whole_hexes_carrying_the_rest_ic_mov_01_ic_mov_02() -> None:
    """IC-MOV-01/02: speed 8 from a fresh carry of 2 cm is (2 + 8) // 4 = 2 hexes, 2 cm carried; exactly 2 steps."""
    board = board_of(ship("A", CENTRE, 0, 8))
    assert movement.paths(board, board.ship("A"), Setting(8))[0] == (AHEAD, AHEAD)
    assert movement.judge(board, "A", go(8, AHEAD, AHEAD)) is None
    assert clause(movement.judge(board, "A", go(8, AHEAD))) == "IC-MOV-02"
    assert clause(movement.judge(board, "A", go(8, AHEAD, AHEAD, AHEAD))) == "IC-MOV-02"
    done = movement.execute(board, "A", go(8, AHEAD, AHEAD)).board.ship("A")
    assert (done.hex, done.carry) == (hexgrid.neighbour(hexgrid.neighbour(CENTRE, 0), 0), 2)


@pytest.mark.rule("IC-MOV-01")
def test_turn_after_turn_her_hexes_keep_within_half_a_hex_of_her_cm_ic_mov_01() -> None:
    """IC-MOV-01: speed 5 for eight turns: 40 cm, 10 hexes; never more than 2 cm off the text's run."""
    board = board_of(ship("A", hexgrid.from_odd_q(1, 19), 0, 5), cols=3, rows=20)
    run = 0
    for turn in range(1, 9):
        path = movement.paths(board, board.ship("A"), Setting(5))[0]  # straight on
        board = movement.execute(board, "A", Order(Setting(5), path)).board.next_turn()
        run += len(path)
        assert abs(scale.to_cm(run) - 5 * turn) <= 2
    assert run == 10


@pytest.mark.rule("IC-MOV-03", "IC-MOV-10", "IC-MOV-11")
def test_she_steps_along_her_facing_and_turns_without_spending_allowance_ic_mov_03_ic_mov_10_ic_mov_11() -> None:
    """IC-MOV-03/10/11: a step goes to the hex her bow faces; a turn of one or two hexsides (the Turn Device's half
    turn) costs no allowance; an unknown step is refused."""
    board = board_of(ship("A", CENTRE, 0, 8))
    move = movement.execute(board, "A", go(8, AHEAD, STARBOARD2, AHEAD))
    first = hexgrid.neighbour(CENTRE, 0)
    assert move.hexes == (CENTRE, first, hexgrid.neighbour(first, 2))
    assert move.board.ship("A").facing == 2
    assert move.turned_in == first
    assert clause(movement.judge(board, "A", go(8, AHEAD, "starboard3", AHEAD))) == "IC-MOV-03"
    assert movement.spell((AHEAD, STARBOARD2, AHEAD)) == "ahead 1, starboard2, ahead 1"
    assert movement.spell(()) == "no move"


@pytest.mark.rule("IC-MOV-04")
def test_one_turn_a_game_turn_at_any_point_of_her_move_ic_mov_04() -> None:
    """IC-MOV-04: the turn goes before, between or after the steps; a second turn is refused."""
    board = board_of(ship("A", CENTRE, 0, 8))
    paths = movement.paths(board, board.ship("A"), Setting(8))
    assert len(paths) == 1 + 4 * 3  # straight, and each of four turns in each of three places
    assert (PORT1, AHEAD, AHEAD) in paths
    assert (AHEAD, PORT1, AHEAD) in paths
    assert (AHEAD, AHEAD, PORT1) in paths
    ends = {movement.execute(board, "A", Order(Setting(8), p)).board.ship("A").hex for p in paths}
    assert len(ends) == 1 + 4 * 2  # a turn after the last step changes only her facing
    assert clause(movement.judge(board, "A", go(8, PORT1, AHEAD, STARBOARD1, AHEAD))) == "IC-MOV-04"


@pytest.mark.rule("IC-MOV-05", "IC-MOV-06")
def test_she_passes_between_ships_in_the_hexes_beside_her_path_ic_mov_05_ic_mov_06() -> None:
    """IC-MOV-05/06: a ship fills her hex (base and casting, overhangs ignored): a hex between two ships is a gap
    wide enough; passing beside them touches nothing."""
    first = hexgrid.neighbour(CENTRE, 0)
    board = board_of(
        ship("A", CENTRE, 0, 8), ship("B", hexgrid.neighbour(first, 1)), ship("C", hexgrid.neighbour(first, 5))
    )
    move = movement.execute(board, "A", go(8, AHEAD, AHEAD))
    assert move.collision is None
    assert movement.judge(board, "A", go(8, AHEAD, AHEAD)) is None


@pytest.mark.rule("IC-MOV-07")
def test_leaving_the_map_breaks_her_off_ic_mov_07() -> None:
    """IC-MOV-07: a step off the map removes her: no longer afloat, nobody's occupant, out of the battle."""
    edge = hexgrid.from_odd_q(5, 0)
    board = board_of(ship("A", edge, 0, 4))
    move = movement.execute(board, "A", go(4, AHEAD))
    gone = move.board.ship("A")
    assert move.broke_off
    assert gone.broken_off
    assert not gone.afloat
    assert move.board.occupant(edge) is None
    assert move.board.afloat == ()


@pytest.mark.rule("IC-MOV-08", "IC-MOV-09")
def test_astern_she_steps_to_the_hex_behind_and_turns_normally_ic_mov_08_ic_mov_09() -> None:
    """IC-MOV-08/09: stopped, she may back at 1; at a carry of 3 cm that is one hex astern, with a turn; astern steps
    are refused going ahead and ahead steps going astern."""
    board = board_of(ship("A", CENTRE, 0, 0, carry=3))
    move = movement.execute(board, "A", go(1, ASTERN, STARBOARD1, astern=True))
    backed = move.board.ship("A")
    assert (backed.hex, backed.facing, backed.setting) == (hexgrid.neighbour(CENTRE, 3), 1, Setting(1, True))
    assert clause(movement.judge(board, "A", go(1, AHEAD, astern=True))) == "IC-MOV-09"
    moving = board_of(ship("A", CENTRE, 0, 8))
    assert clause(movement.judge(moving, "A", go(8, ASTERN, ASTERN))) == "IC-MOV-08"
    assert clause(movement.judge(moving, "A", go(1, ASTERN, astern=True))) == "IC-MOV-08"


@pytest.mark.rule("IC-SPD-04")
def test_a_stopped_ship_neither_moves_nor_turns_ic_spd_04() -> None:
    """IC-SPD-04: at 0 her only path is to stay; a turn is refused; her carry starts afresh."""
    board = board_of(ship("A", CENTRE, 0, 1, carry=3))
    assert movement.paths(board, board.ship("A"), STOPPED) == ((),)
    assert clause(movement.judge(board, "A", go(0, PORT1))) == "IC-SPD-04"
    stopped = movement.execute(board, "A", go(0)).board.ship("A")
    assert (stopped.hex, stopped.facing, stopped.speed, stopped.carry) == (CENTRE, 0, 0, scale.FRESH_CARRY_CM)


def test_a_ship_under_way_with_no_whole_hex_still_turns() -> None:
    """Speed 1 from a carry of 0 moves no hex this turn, but she is not stopped: she may turn."""
    board = board_of(ship("A", CENTRE, 0, 1, carry=0))
    assert movement.paths(board, board.ship("A"), Setting(1)) == ((), (PORT1,), (PORT2,), (STARBOARD1,), (STARBOARD2,))


@pytest.mark.rule("IC-SPD-08")
def test_her_speed_is_set_when_she_is_chosen_to_move_ic_spd_08() -> None:
    """IC-SPD-08 (decision): the order carries the new speed, judged against the old; the move sets it."""
    board = board_of(ship("A", CENTRE, 0, 8))
    assert clause(movement.judge(board, "A", go(11, AHEAD, AHEAD, AHEAD))) == "IC-SPD-05"
    assert movement.execute(board, "A", go(9, AHEAD, AHEAD)).board.ship("A").speed == 9
    assert {o.setting.speed for o in movement.orders(board, "A")} == {9, 8, 7, 6}


@pytest.mark.rule("IC-PROB-02", "IC-PROB-03")
def test_steering_problems_allow_one_hexside_and_major_ones_none_ic_prob_02_ic_prob_03() -> None:
    """IC-PROB-02/03: 4 cm round the Turn Device is under one hexside's 6 cm: one hexside; a second hit, none."""
    board = board_of(ship("A", CENTRE, 0, 8, steering=1), ship("B", hexgrid.from_odd_q(2, 2), 0, 8, steering=2))
    assert movement.turns_allowed(board, board.ship("A"), Setting(8)) == (PORT1, STARBOARD1)
    assert clause(movement.judge(board, "A", go(8, PORT2, AHEAD, AHEAD))) == "IC-PROB-02"
    assert movement.judge(board, "A", go(8, PORT1, AHEAD, AHEAD)) is None
    assert movement.turns_allowed(board, board.ship("B"), Setting(8)) == ()
    assert clause(movement.judge(board, "B", go(8, PORT1, AHEAD, AHEAD))) == "IC-PROB-03"


@pytest.mark.rule("IC-PROB-07")
def test_a_bridge_hit_allows_no_turn_for_the_next_game_turn_only_ic_prob_07() -> None:
    """IC-PROB-07: hit in turn 1's Firing Phase, she keeps speed and course in turn 2, and is free in turn 3."""
    board = board_of(ship("A", CENTRE, 0, 8, bridge_turn=2)).next_turn()
    assert movement.orders(board, "A") == (go(8, AHEAD, AHEAD),)
    assert clause(movement.judge(board, "A", go(8, AHEAD, PORT1, AHEAD))) == "IC-PROB-07"
    assert clause(movement.judge(board, "A", go(9, AHEAD, AHEAD))) == "IC-PROB-07"
    later = movement.execute(board, "A", go(8, AHEAD, AHEAD)).board.next_turn()
    assert len(movement.orders(later, "A")) > 1


@pytest.mark.rule("IC-SEQ-07")
def test_the_side_without_initiative_moves_first_then_alternating_ic_seq_07() -> None:
    """IC-SEQ-07: without the Initiative first, then in turn; a side with none left passes, the other moves the rest;
    a ship that has moved is not chosen again."""
    board = board_of(
        ship("U1", hexgrid.from_odd_q(1, 1)),
        ship("U2", hexgrid.from_odd_q(3, 1)),
        ship("U3", hexgrid.from_odd_q(5, 1)),
        ship("C1", hexgrid.from_odd_q(1, 9), side="Confederate"),
    )
    assert movement.side_to_move(board, "Union", None) == "Confederate"
    board = movement.execute(board, "C1", go(0)).board
    assert clause(movement.judge(board, "C1", go(0))) == "IC-SEQ-07"
    assert movement.side_to_move(board, "Union", "Confederate") == "Union"
    board = movement.execute(board, "U1", go(0)).board
    assert movement.side_to_move(board, "Union", "Union") == "Union"  # the Confederates have none left
    for name in ("U2", "U3"):
        board = movement.execute(board, name, go(0)).board
    assert movement.side_to_move(board, "Union", "Union") is None


def test_an_order_is_read_from_its_json() -> None:
    order = go(8, AHEAD, PORT1, AHEAD)
    assert movement.order_of(order.to_json()) == order
    assert clause(movement.order_of({"speed": "8", "path": []})) == "IC-SPD-03"  # type: ignore[arg-type]
    assert clause(movement.order_of({"speed": 8})) == "IC-MOV-03"
    assert clause(movement.order_of({"speed": 8, "path": [1]})) == "IC-MOV-03"


def test_a_move_is_pure() -> None:
    board = board_of(ship("A", CENTRE, 0, 8))
    movement.execute(board, "A", go(8, AHEAD, AHEAD))
    assert board.ship("A") == evolve(board.ship("A"))
    assert board.ship("A").hex == CENTRE
