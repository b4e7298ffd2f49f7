"""Formations on hexes (Appendix D, optional: IC-FORM-01..16)."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex, from_odd_q
from battles.rules.ironclads import formations, movement
from battles.rules.ironclads.board import Board
from battles.rules.ironclads.formations import FREE, LINE_ABREAST, LINE_ASTERN, REJOIN, WITHDRAW, Formations
from battles.rules.ironclads.movement import AHEAD, PORT1, PORT2, STARBOARD2, Order
from battles.rules.ironclads.speed import Setting
from tests.rules.ironclads.boards import board_of, clause, ship

LINE = "Ironclad Squadron"


def column(*rows: int, col: int = 10) -> list[Hex]:
    return [from_odd_q(col, row) for row in rows]


def line_astern(*places: Hex, enemy: Hex | None = None, **more: object) -> tuple[Board, Formations]:
    """Ships A, B, C... facing north at speed 4 in those hexes, one squadron in line astern in that order."""
    ships = [ship(chr(65 + n), at, 0, 4) for n, at in enumerate(places)]
    if enemy is not None:
        ships.append(ship("Z", enemy, 3, 4, side="CSA"))
    board = board_of(*ships, **more)
    unit = formations.squadron(LINE, [s.name for s in ships if s.side == "Union"], LINE_ASTERN)
    return board, formations.check(Formations((unit,)), board)


def go(speed: int, *path: str) -> Order:
    return Order(Setting(speed), tuple(path))


@pytest.mark.rule("IC-FORM-01", "IC-FORM-13")
def test_formations_are_optional_and_a_ship_in_formation_steers_freely_ic_form_01_ic_form_13() -> None:
    """IC-FORM-01/13: without formations every ship is free; in formation, every legal order is hers."""
    board, kept = line_astern(*column(10, 11, 12))
    assert formations.duty(Formations(), board, "B") == FREE
    assert formations.duty(kept, board, "B") == FREE
    assert formations.allowed(kept, board, "B") == tuple(
        o for o in movement.orders(board, "B") if movement.judge(board, "B", o) is None
    )
    assert formations.judge(kept, board, "B", go(4, PORT2, AHEAD)) is None


@pytest.mark.rule("IC-FORM-02", "IC-FORM-06")
def test_squadrons_of_one_to_four_in_line_abreast_or_line_astern_ic_form_02_ic_form_06() -> None:
    """IC-FORM-02/06: one to four ships; the two formations; anything else is refused."""
    assert formations.squadron("S", ["A"]).ships == ("A",)
    assert formations.squadron("S", "ABCD", LINE_ABREAST).formation == LINE_ABREAST
    with pytest.raises(ValueError, match="one to 4"):
        formations.squadron("S", "ABCDE")
    with pytest.raises(ValueError, match="one to 4"):
        formations.squadron("S", [])
    with pytest.raises(ValueError, match="formations are"):
        formations.squadron("S", "AB", "wedge")


@pytest.mark.rule("IC-FORM-03")
def test_a_squadron_of_one_is_in_formation_ic_form_03() -> None:
    """IC-FORM-03: alone from the start, or left alone when the rest are sunk."""
    board, kept = line_astern(from_odd_q(3, 3))
    assert formations.in_formation(kept.squadrons[0], board) == {"A"}
    board, kept = line_astern(*column(10, 11), from_odd_q(14, 14))
    assert kept.squadrons[0].red == {"B"}  # two ships: the line A-C misses B
    board = board.with_ship(evolve(board.ship("A"), sunk=True)).with_ship(evolve(board.ship("C"), sunk=True))
    left = formations.check(kept, board)
    assert left.squadrons[0].ships == ("B",)
    assert left.squadrons[0].red == frozenset()


@pytest.mark.rule("IC-FORM-04")
def test_formation_is_judged_only_at_the_start_of_the_movement_phase_ic_form_04() -> None:
    """IC-FORM-04: a ship that leaves the line during the phase carries no red marker until the next check."""
    board, kept = line_astern(*column(10, 11, 12))
    board = movement.execute(board, "B", go(4, PORT2, AHEAD)).board
    assert formations.duty(kept, board, "B") == FREE
    assert formations.check(kept, board.next_turn()).squadrons[0].red == {"B"}


@pytest.mark.rule("IC-FORM-05")
def test_only_the_squadrons_own_ships_count_ic_form_05() -> None:
    """IC-FORM-05: land and enemy ships on the line do not break it; a friendly ship of another squadron on the
    line is not in this one's formation."""
    board, kept = line_astern(*column(10, 12, 14), enemy=from_odd_q(10, 11), land=(from_odd_q(10, 13),))
    assert formations.in_formation(kept.squadrons[0], board) == {"A", "B", "C"}
    assert kept.squadrons[0].red == frozenset()
    board = board_of(*[ship(n, at) for n, at in zip("ABX", column(10, 12, 11), strict=True)])
    unit = formations.squadron(LINE, "AB")
    assert formations.in_formation(unit, board) == {"A", "B"}


@pytest.mark.rule("IC-FORM-08")
def test_the_end_ships_are_always_in_formation_ic_form_08() -> None:
    """IC-FORM-08 (decision): line astern, the leader and the last ship; line abreast, the two farthest apart."""
    board, kept = line_astern(*column(10, 11), from_odd_q(16, 16))
    unit = kept.squadrons[0]
    ships = formations.members(unit, board)
    ends = formations.end_ships(unit, ships)
    assert ends is not None
    assert [s.name for s in ends] == ["A", "C"]
    assert unit.red == {"B"}
    abreast = evolve(unit, formation=LINE_ABREAST)
    ends = formations.end_ships(abreast, ships)
    assert ends is not None
    assert [s.name for s in ends] == ["A", "C"]
    wide = evolve(abreast, ships=("B", "C", "A"))
    ends = formations.end_ships(wide, formations.members(wide, board))
    assert ends is not None
    assert {s.name for s in ends} == {"A", "C"}  # farthest apart, whatever the listed order


@pytest.mark.rule("IC-FORM-09", "IC-FORM-11")
def test_the_test_line_puts_a_ship_it_crosses_in_formation_and_red_marks_the_rest_ic_form_09_ic_form_11() -> None:
    """IC-FORM-09/11: a column is in formation; a ship two hexes off the line gets a red marker, and loses it when
    she is back on the line at the next check."""
    board, kept = line_astern(*column(10, 11, 12, 13))
    assert kept.squadrons[0].red == frozenset()
    board, kept = line_astern(from_odd_q(10, 10), from_odd_q(12, 11), *column(12, 13))
    assert kept.squadrons[0].red == {"B"}
    back = board.with_ship(evolve(board.ship("B"), hex=from_odd_q(10, 11)))
    assert formations.check(kept, back).squadrons[0].red == frozenset()


def test_a_line_along_a_hexside_takes_both_hexes() -> None:
    """The two nudged lines: between (10,10) and (12,10) the line runs on the hexside of (11,9)/(11,10)... both."""
    a, b = from_odd_q(10, 10), from_odd_q(12, 10)
    assert formations.drawn(a, b) >= {a, b}
    assert len(formations.drawn(a, b)) == 4
    assert formations.drawn(a, a) == {a}


@pytest.mark.rule("IC-FORM-07", "IC-FORM-10")
def test_a_line_astern_in_a_turn_draws_through_the_turn_point_ic_form_07_ic_form_10() -> None:
    """IC-FORM-07/10: the leader turned at T and steamed on south-east; the line leader -> T -> last ship crosses
    the ships between, which the straight line misses."""
    turn = from_odd_q(10, 10)
    se = [hexgrid.neighbour(turn, 2)]
    se += [hexgrid.neighbour(se[-1], 2), hexgrid.neighbour(hexgrid.neighbour(se[-1], 2), 2)]
    board, kept = line_astern(se[2], se[0], turn, from_odd_q(10, 11))
    assert kept.squadrons[0].red == {"B", "C"}
    marked = evolve(kept, squadrons=(evolve(kept.squadrons[0], turn_point=turn),))
    assert formations.check(marked, board).squadrons[0].red == frozenset()


@pytest.mark.rule("IC-FORM-07")
def test_the_turn_point_goes_where_the_leader_turns_and_up_when_the_last_turns_there_ic_form_07() -> None:
    """IC-FORM-07: placed by the leader's turn, taken up by the last ship's turn in that hex."""
    turn = from_odd_q(10, 10)
    board, kept = line_astern(turn, from_odd_q(10, 11))
    move = movement.execute(board, "A", go(4, STARBOARD2, AHEAD))
    marked = formations.after_move(kept, move)
    assert marked.squadrons[0].turn_point == turn
    move = movement.execute(move.board, "B", go(4, AHEAD, STARBOARD2))
    assert move.turned_in == turn
    assert formations.after_move(marked, move).squadrons[0].turn_point is None
    assert formations.after_move(marked, movement.execute(board, "B", go(4, AHEAD))) == marked


@pytest.mark.rule("IC-FORM-12")
def test_out_of_formation_she_must_steer_back_as_fast_as_she_can_ic_form_12() -> None:
    """IC-FORM-12 (decision): two hexes east of the line, straight on keeps her two off; a turn to port brings her
    within one: only the orders ending nearest the line are hers."""
    board, kept = line_astern(from_odd_q(10, 10), from_odd_q(12, 11), *column(12, 13))
    assert formations.duty(kept, board, "B") == REJOIN
    assert clause(formations.judge(kept, board, "B", go(4, AHEAD))) == "IC-FORM-12"
    assert formations.judge(kept, board, "B", go(4, PORT1, AHEAD)) is None
    ends = {movement.execute(board, "B", o).board.ship("B").hex for o in formations.allowed(kept, board, "B")}
    assert all(min(hexgrid.distance(h, c) for c in column(10, 11, 12, 13)) == 1 for h in ends)


@pytest.mark.rule("IC-FORM-14")
def test_a_ship_ordered_to_break_off_leaves_her_squadron_ic_form_14() -> None:
    """IC-FORM-14: out of the squadron, in formation by default (no red marker), bound away."""
    board, kept = line_astern(from_odd_q(10, 10), from_odd_q(12, 11), *column(12, 13))
    off = formations.break_off(kept, "B")
    assert off.squadrons[0].ships == ("A", "C", "D")
    assert "B" not in off.squadrons[0].red
    assert off.of("B") is None
    assert formations.duty(off, board, "B") == WITHDRAW
    alone = formations.break_off(Formations((formations.squadron("S", "B"),)), "B")
    assert alone.squadrons == ()


@pytest.mark.rule("IC-FORM-15")
def test_breaking_off_she_heads_away_from_the_enemy_and_off_the_map_ic_form_15() -> None:
    """IC-FORM-15 (decision): off the map when she can; else as far from the nearest enemy as any order ends."""
    board, kept = line_astern(from_odd_q(10, 0), enemy=from_odd_q(10, 8))
    off = formations.break_off(kept, "A")
    assert formations.judge(off, board, "A", go(4, AHEAD)) is None  # off the top edge
    assert movement.execute(board, "A", go(4, AHEAD)).broke_off
    assert clause(formations.judge(off, board, "A", go(4, STARBOARD2, AHEAD))) == "IC-FORM-15"
    board, kept = line_astern(from_odd_q(10, 5), enemy=from_odd_q(10, 12))
    off = formations.break_off(kept, "A")
    assert formations.judge(off, board, "A", go(4, AHEAD)) is None
    assert clause(formations.judge(off, board, "A", go(4, PORT2, AHEAD))) == "IC-FORM-15"


@pytest.mark.rule("IC-FORM-16")
def test_an_enemy_within_25_cm_frees_her_whatever_her_formation_ic_form_16() -> None:
    """IC-FORM-16: 6 hexes (24 cm) is within 25 cm, 7 (28 cm) is not; free even out of formation or breaking off."""
    places = (from_odd_q(10, 10), from_odd_q(12, 11), *column(12, 13))
    board, kept = line_astern(*places, enemy=hexgrid.neighbour(from_odd_q(18, 11), 3))
    assert hexgrid.distance(board.ship("B").hex, board.ship("Z").hex) == 6
    assert formations.evasive(board, "B")
    assert formations.duty(kept, board, "B") == FREE
    assert formations.judge(kept, board, "B", go(4, AHEAD)) is None
    assert formations.duty(formations.break_off(kept, "B"), board, "B") == FREE
    far = board.with_ship(evolve(board.ship("Z"), hex=hexgrid.neighbour(board.ship("Z").hex, 2)))
    assert hexgrid.distance(far.ship("B").hex, far.ship("Z").hex) == 7
    assert formations.duty(kept, far, "B") == REJOIN


def test_formations_round_trip_through_json() -> None:
    unit = evolve(formations.squadron(LINE, "ABC"), turn_point=from_odd_q(4, 4), red=frozenset({"B"}))
    state = Formations((unit, formations.squadron("Other", "D", LINE_ABREAST)), frozenset({"E"}))
    assert Formations.from_json(state.to_json()) == state
