"""The board: the map, the sea state and each ship's place (docs/ironclads.md "Hex play")."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.engine.frozen import evolve
from battles.rules.ironclads import board, movement
from battles.rules.ironclads.board import Board
from battles.rules.ironclads.cards import PROPULSION
from battles.rules.ironclads.movement import AHEAD, Order
from battles.rules.ironclads.speed import Setting
from tests.rules.ironclads.boards import CENTRE, board_of, ship


def test_the_board_round_trips_through_json_with_every_field() -> None:
    hit, _ = ship("A", CENTRE).card.cross_off(PROPULSION, 3)
    full = board_of(
        ship("A", CENTRE, 2, 1, astern=True, carry=3, steering=2, smokestacks=True, bridge_turn=4),
        ship("B", hexgrid.from_odd_q(3, 3), 5, 7, side="CSA", moved=True, turned=True, collided=True),
        ship("C", hexgrid.from_odd_q(3, 3), broken_off=True),
        ship("D", hexgrid.from_odd_q(4, 4), sunk=True),
        land=tuple(board.from_offsets([(0, 0), (1, 0)])),
        rough=True,
        turn=3,
    )
    full = full.with_ship(evolve(full.ship("A"), card=hit))
    assert Board.from_json(full.to_json()) == full


@pytest.mark.rule("IC-SEA-01", "IC-SEA-02")
def test_the_sea_is_rough_only_on_a_double_1_ic_sea_01_ic_sea_02() -> None:
    """IC-SEA-01/02: one D6 a side; both 1 -> rough, anything else calm."""
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert [r for r in rolls if board.rough_sea(*r)] == [(1, 1)]


@pytest.mark.rule("IC-SEA-03")
def test_the_sea_state_stays_for_the_whole_game_ic_sea_03() -> None:
    """IC-SEA-03: rolled once; a new turn and a move keep it."""
    rough = board_of(ship("A", CENTRE, 0, 4), rough=True)
    after = movement.execute(rough, "A", Order(Setting(4), (AHEAD,))).board.next_turn()
    assert after.rough
    assert movement.settings(after, after.ship("A"))[0] == Setting(5)
    assert max(s.speed for s in movement.settings(after.next_turn(), after.ship("A"))) <= 6


def test_a_board_that_cannot_be_is_refused() -> None:
    with pytest.raises(ValueError, match="share a name"):
        board_of(ship("A", CENTRE), ship("A", hexgrid.from_odd_q(1, 1)))
    with pytest.raises(ValueError, match="off the map"):
        board_of(ship("A", hexgrid.from_odd_q(30, 1)))
    with pytest.raises(ValueError, match="fills her hex"):
        board_of(ship("A", CENTRE), ship("B", CENTRE))
    with pytest.raises(ValueError, match="fills her hex"):
        board_of(ship("A", CENTRE), land=(CENTRE,))
    with pytest.raises(ValueError, match="steering"):
        board.Ship.from_json({**ship("A", CENTRE).to_json(), "steering": 3})


def test_the_odd_q_map_bounds_and_its_occupants() -> None:
    b = board_of(ship("A", CENTRE), cols=20, rows=20)
    assert b.on_map(hexgrid.from_odd_q(19, 19))
    assert not b.on_map(hexgrid.from_odd_q(20, 0))
    assert not b.on_map(hexgrid.from_odd_q(0, -1))
    assert b.occupant(CENTRE) == b.ship("A")
    with pytest.raises(KeyError):
        b.ship("Z")
