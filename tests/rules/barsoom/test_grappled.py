"""Grappled ships move together (battles/rules/barsoom/grappled.py, through movement.execute)."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.rules.barsoom import grappled, movement, ships
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.kinds import (
    AHEAD,
    ASCEND,
    COLLIDED,
    COLLISION,
    COUNTERED,
    CRASH,
    DESCEND,
    DESCENDED,
    FOLLOWS,
    HELD,
    MOVED,
    REVERSE,
    STOP,
    TURN_LEFT,
    TURN_RIGHT,
    TURNED,
)
from battles.rules.barsoom.owed import DamageOwed

CRUISER, BATTLESHIP, SCOUT = "Heliumite cruiser", "Heliumite battleship", "scout flier"


def ship(name: str, vessel: str, at: tuple[int, int], level: int = 3, **kw) -> Ship:
    return Ship(
        name, "Helium" if name < "M" else "Zodanga", ships.vessel(vessel), hexgrid.from_odd_q(*at), 0, level, **kw
    )


def where(b: Board, name: str) -> tuple[int, int]:
    return hexgrid.to_odd_q(b.ship_named(name).hex)


def equal() -> Board:
    return Board(30, 20, (ship("A", CRUISER, (10, 10), grappled=("Z",)), ship("Z", CRUISER, (11, 10), grappled=("A",))))


def unequal(small_level: int = 3, capital_level: int = 3) -> Board:
    return Board(
        30,
        20,
        (
            ship("Capital", BATTLESHIP, (10, 10), capital_level, grappled=("Small",)),
            ship("Small", SCOUT, (11, 10), small_level),
        ),
    )


@pytest.mark.rule("BR-GRAP-08")
def test_equal_ships_share_one_option_which_the_other_follows():
    b = equal()
    assert [grappled.role(b, n) for n in ("A", "Z")] == [grappled.SHARES, grappled.SHARES]
    assert grappled.options_a_turn(b, "A", 3) == 1
    moved = movement.execute(b, "A", AHEAD)
    assert (moved.outcome, where(moved.board, "A"), where(moved.board, "Z")) == (MOVED, (10, 7), (11, 7))
    assert "BR-GRAP-08" in moved.clauses
    # an option that does not oppose it is no counter: she follows
    followed = grappled.move(b, "A", AHEAD, counter=STOP)
    assert (where(followed.board, "A"), where(followed.board, "Z")) == ((10, 7), (11, 7))


@pytest.mark.rule("BR-GRAP-09")
def test_opposite_options_cancel():
    b = equal()
    for card, counter in ((ASCEND, DESCEND), (AHEAD, REVERSE), (TURN_RIGHT, TURN_LEFT), (DESCEND, ASCEND)):
        countered = grappled.move(b, "A", card, counter=counter)
        assert (countered.outcome, countered.board) == (COUNTERED, b), card


@pytest.mark.rule("BR-GRAP-10")
def test_the_smaller_ship_follows_the_larger():
    b = unequal()
    assert [grappled.role(b, n) for n in ("Capital", "Small")] == [grappled.LEADS, grappled.FOLLOWS]
    assert [grappled.options_a_turn(b, n, 3) for n in ("Capital", "Small")] == [3, 0]
    held = movement.execute(b, "Small", AHEAD)
    assert (held.outcome, held.board) == (FOLLOWS, b)
    moved = movement.execute(b, "Capital", AHEAD)
    assert (where(moved.board, "Capital"), where(moved.board, "Small")) == ((10, 8), (11, 8))
    # a turn swings her about the larger ship's hex: south-east of it becomes south of it
    swung = movement.execute(b, "Capital", TURN_RIGHT)
    assert swung.outcome == TURNED
    assert (where(swung.board, "Small"), swung.board.ship_named("Small").facing) == ((10, 11), 1)
    assert swung.board.ship_named("Capital").facing == 1
    up = movement.execute(b, "Capital", ASCEND)
    assert [s.level for s in up.board.ships] == [4, 4]


@pytest.mark.rule("BR-GRAP-10", "BR-LAND-05")
def test_a_ship_dragged_to_the_ground_crashes_and_then_moors_the_group():
    b = unequal(small_level=1, capital_level=2)
    down = movement.execute(b, "Capital", DESCEND)
    assert down.outcome == DESCENDED
    assert down.damage == (DamageOwed("Small", 1, 0, CRASH, "BR-LAND-03"),)
    assert [(s.level, s.crashed) for s in down.board.ships] == [(1, False), (0, True)]
    assert movement.execute(down.board, "Capital", AHEAD).outcome == HELD
    assert movement.execute(down.board, "Capital", DESCEND).outcome == HELD


@pytest.mark.rule("BR-COL-02", "BR-GRAP-10")
def test_a_grappled_group_collides_as_one():
    b = Board(30, 20, (*unequal().ships, ship("Other", CRUISER, (11, 8))))
    hit = movement.execute(b, "Capital", AHEAD)
    assert (hit.outcome, hit.contact) == (COLLIDED, "Other")
    assert hit.damage == (
        DamageOwed("Small", 1, 0, COLLISION, "BR-COL-02"),
        DamageOwed("Other", 1, 0, COLLISION, "BR-COL-02"),
    )
    assert (where(hit.board, "Capital"), where(hit.board, "Small")) == ((10, 9), (11, 9))


def test_grapples_chain_into_one_group():
    b = Board(
        30,
        20,
        (
            ship("A", CRUISER, (10, 10), grappled=("B",)),
            ship("B", CRUISER, (11, 10)),
            ship("C", SCOUT, (12, 10), grappled=("B",)),
            ship("D", SCOUT, (20, 10)),
        ),
    )
    assert [s.name for s in grappled.group(b, "C")] == ["A", "B", "C"]
    assert grappled.role(b, "D") == grappled.FREE
    assert grappled.role(b, "C") == FOLLOWS
    assert movement.execute(b, "A", STOP).board == b
