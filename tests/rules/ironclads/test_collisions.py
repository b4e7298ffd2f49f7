"""Collisions on hexes (IC-COL-01..11)."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.rules.ironclads import movement
from battles.rules.ironclads.cards import HULL, PROPULSION
from battles.rules.ironclads.movement import AHEAD, PORT1, STARBOARD1, Order
from battles.rules.ironclads.speed import STOPPED, Setting
from tests.rules.ironclads.boards import CENTRE, board_of, clause, ship

NORTH = 0


def north(hex_: hexgrid.Hex, n: int) -> hexgrid.Hex:
    for _ in range(n):
        hex_ = hexgrid.neighbour(hex_, NORTH)
    return hex_


def go(speed: int, *path: str) -> Order:
    return Order(Setting(speed), tuple(path))


@pytest.mark.rule("IC-COL-11", "IC-COL-03", "IC-COL-05", "IC-COL-07", "IC-COL-08")
def test_the_worked_example_speed_8_cannot_avoid_another_ship_ic_col_11() -> None:
    """IC-COL-11: at speed 8 (two hexes) with her bridge hit (no turn, no change of speed), a ship two hexes ahead
    cannot be avoided: she stops in the hex before it, both lose 3 Propulsion and 1 Hull, both stop, neither fires."""
    board = board_of(ship("A", CENTRE, NORTH, 8, bridge_turn=1), ship("B", north(CENTRE, 2), 3, 4))
    order = go(8, AHEAD, AHEAD)
    assert movement.orders(board, "A") == (order,)
    assert movement.judge(board, "A", order) is None  # unavoidable, so legal
    move = movement.execute(board, "A", order)
    a, b = move.board.ship("A"), move.board.ship("B")
    assert move.collision == movement.Collision("B", north(CENTRE, 2), 3, 1)
    assert a.hex == north(CENTRE, 1)  # the hex before contact: the "1 cm back"
    assert (a.card.left(PROPULSION), a.card.left(HULL)) == (9, 5)
    assert (b.card.left(PROPULSION), b.card.left(HULL)) == (9, 5)
    assert (a.setting, b.setting) == (STOPPED, STOPPED)
    assert a.collided
    assert b.collided  # no fire this turn (IC-COL-08)
    assert b.hex == north(CENTRE, 2)


@pytest.mark.rule("IC-COL-01")
def test_a_colliding_order_is_refused_when_she_could_steer_clear_ic_col_01() -> None:
    """IC-COL-01: straight on she would hit the ship ahead; a turn (or another speed) avoids it, so the straight
    order is refused and the turning one is legal."""
    board = board_of(ship("A", CENTRE, NORTH, 8), ship("B", north(CENTRE, 2)))
    assert clause(movement.judge(board, "A", go(8, AHEAD, AHEAD))) == "IC-COL-01"
    assert movement.judge(board, "A", go(8, PORT1, AHEAD, AHEAD)) is None
    assert movement.collides(board, "A", go(8, AHEAD, AHEAD))
    assert not movement.collides(board, "A", go(8, PORT1, AHEAD, AHEAD))


@pytest.mark.rule("IC-COL-01")
def test_slowing_down_counts_as_steering_clear_ic_col_01() -> None:
    """IC-COL-01 (decision): "if at all possible" covers her speed too, set in the same moment: with major steering
    problems she cannot turn; at 7 or 6 she moves two hexes, into the ship, but at 5 only (2 + 5) // 4 = 1."""
    board = board_of(ship("A", CENTRE, NORTH, 6, steering=2), ship("B", north(CENTRE, 2)))
    assert clause(movement.judge(board, "A", go(7, AHEAD, AHEAD))) == "IC-COL-01"
    assert movement.judge(board, "A", go(5, AHEAD)) is None


@pytest.mark.rule("IC-COL-02")
def test_entering_a_ship_or_land_hex_is_a_collision_passing_beside_is_not_ic_col_02() -> None:
    """IC-COL-02: the base (her hex) touching a casting (its hex) or land: stepping into that hex. Beside is clear."""
    beside = hexgrid.neighbour(north(CENTRE, 1), 1)
    board = board_of(ship("A", CENTRE, NORTH, 8, bridge_turn=1), ship("B", beside), land=(north(CENTRE, 3),))
    assert movement.execute(board, "A", go(8, AHEAD, AHEAD)).collision is None
    reef = board_of(ship("A", CENTRE, NORTH, 8, bridge_turn=1), land=(north(CENTRE, 2),))
    assert movement.execute(reef, "A", go(8, AHEAD, AHEAD)).collision == movement.Collision(
        None, north(CENTRE, 2), 3, 1
    )


@pytest.mark.rule("IC-COL-03")
def test_she_does_no_more_after_a_collision_ic_col_03() -> None:
    """IC-COL-03: the rest of her path, a turn included, is not made."""
    board = board_of(ship("A", CENTRE, NORTH, 9), ship("B", north(CENTRE, 1)))
    move = movement.execute(board, "A", go(9, AHEAD, AHEAD, STARBOARD1))
    a = move.board.ship("A")
    assert (a.hex, a.facing, a.turned, move.hexes) == (CENTRE, NORTH, False, (CENTRE,))


@pytest.mark.rule("IC-COL-04", "IC-COL-05", "IC-COL-06")
@pytest.mark.parametrize(
    ("mover_speed", "losses"),
    [(1, (2, 1)), (4, (2, 1)), (5, (3, 1)), (8, (3, 1)), (9, (5, 2)), (20, (5, 2))],
)
def test_losses_go_by_the_movers_speed_band_ic_col_04_to_06(mover_speed: int, losses: tuple[int, int]) -> None:
    """IC-COL-04..06: 1-4 -> 2 Propulsion, 1 Hull; 5-8 -> 3 and 1; 9 or more -> 5 and 2."""
    assert movement.collision_losses(mover_speed) == losses


@pytest.mark.rule("IC-COL-04")
def test_a_slow_collision_costs_both_ships_2_propulsion_and_1_hull_ic_col_04() -> None:
    """IC-COL-04 on the board: the MOVER's speed 3 sets the losses, though the ship struck steams at 12."""
    board = board_of(ship("A", CENTRE, NORTH, 3, bridge_turn=1), ship("B", north(CENTRE, 1), 2, 12))
    move = movement.execute(board, "A", go(3, AHEAD))
    assert move.collision == movement.Collision("B", north(CENTRE, 1), 2, 1)
    for name in "AB":
        card = move.board.ship(name).card
        assert (card.left(PROPULSION), card.left(HULL)) == (10, 5)


@pytest.mark.rule("IC-COL-07", "IC-COL-09")
def test_both_stop_and_the_ship_struck_waits_for_a_later_turn_ic_col_07_ic_col_09() -> None:
    """IC-COL-07/09 (decision): both at 0; the ship struck does no more this Movement Phase; next turn both may get
    under way and fire again."""
    board = board_of(ship("A", CENTRE, NORTH, 4, bridge_turn=1), ship("B", north(CENTRE, 1), 0, 10, side="CSA"))
    after = movement.execute(board, "A", go(4, AHEAD)).board
    assert after.ship("B").speed == 0
    assert clause(movement.judge(after, "B", go(0))) == "IC-SEQ-07"
    later = after.next_turn()
    for name in "AB":
        assert not later.ship(name).collided
        assert Setting(1) in movement.settings(later, later.ship(name))


@pytest.mark.rule("IC-COL-10")
def test_running_onto_land_costs_only_the_mover_ic_col_10() -> None:
    """IC-COL-10 (decision): land takes no loss; she loses by her speed band, stops, and does not fire."""
    board = board_of(
        ship("A", CENTRE, NORTH, 9, bridge_turn=1),
        ship("B", hexgrid.from_odd_q(2, 2)),
        land=(north(CENTRE, 2),),
    )
    move = movement.execute(board, "A", go(9, AHEAD, AHEAD))
    a = move.board.ship("A")
    assert move.collision == movement.Collision(None, north(CENTRE, 2), 5, 2)
    assert (a.hex, a.card.left(PROPULSION), a.card.left(HULL), a.speed, a.collided) == (north(CENTRE, 1), 7, 4, 0, True)
    assert move.board.ship("B") == board.ship("B")


def test_collision_losses_never_apply_to_a_stopped_ship() -> None:
    with pytest.raises(ValueError, match="stopped"):
        movement.collision_losses(0)
