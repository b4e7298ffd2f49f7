import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine import hexgrid
from battles.engine.hexgrid import ORIGIN, Aspect, Hex, Orientation

coord = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coord, coord)
facings = st.integers(min_value=0, max_value=5)
FAST = settings(max_examples=150, deadline=None)

BOW, STERN, PORT, STARBOARD = Aspect.BOW, Aspect.STERN, Aspect.PORT, Aspect.STARBOARD


def bearing(hex_: Hex, orientation: Orientation) -> float:
    """Compass bearing of a hex from the origin, degrees clockwise from screen-up."""
    x, y = hexgrid.to_pixel(hex_, 1.0, orientation)
    return math.degrees(math.atan2(x, -y)) % 360


def test_flat_top_direction_zero_is_north_then_clockwise():
    assert [bearing(d, Orientation.FLAT_TOP) for d in hexgrid.DIRECTIONS] == pytest.approx([0, 60, 120, 180, 240, 300])
    assert [hexgrid.direction_name(d) for d in range(6)] == ["N", "NE", "SE", "S", "SW", "NW"]


def test_pointy_top_direction_zero_is_the_hexside_left_of_the_top_vertex():
    assert [bearing(d, Orientation.POINTY_TOP) for d in hexgrid.DIRECTIONS] == pytest.approx(
        [330, 30, 90, 150, 210, 270]
    )
    assert hexgrid.direction_name(2, Orientation.POINTY_TOP) == "E"


@FAST
@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert hexgrid.distance(a, b) == hexgrid.distance(b, a)
    assert (hexgrid.distance(a, b) == 0) == (a == b)


@FAST
@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a, b, c):
    assert hexgrid.distance(a, c) <= hexgrid.distance(a, b) + hexgrid.distance(b, c)


def test_distance_known_values():
    assert hexgrid.distance(Hex(0, 0), Hex(3, -1)) == 3
    assert hexgrid.distance(Hex(-2, 3), Hex(2, -1)) == 4
    assert all(hexgrid.distance(ORIGIN, n) == 1 for n in hexgrid.neighbours(ORIGIN))


@FAST
@given(hexes, hexes)
def test_line_runs_from_end_to_end_through_adjacent_hexes(a, b):
    path = hexgrid.line(a, b)
    assert path[0] == a
    assert path[-1] == b
    assert len(path) == hexgrid.distance(a, b) + 1
    assert all(hexgrid.distance(p, q) == 1 for p, q in itertools.pairwise(path))


def test_line_along_a_hexside_falls_the_same_way_every_time():
    # (0,0) to (2,-1) runs exactly between (1,-1) and (1,0); the nudge picks one, always the same,
    # and the same one whichever way the line is drawn.
    assert hexgrid.line(ORIGIN, Hex(2, -1)) == [ORIGIN, Hex(1, 0), Hex(2, -1)]
    assert hexgrid.line(Hex(2, -1), ORIGIN) == [Hex(2, -1), Hex(1, 0), ORIGIN]


@given(hexes, st.integers(min_value=0, max_value=12))
@settings(max_examples=60, deadline=None)
def test_ring_holds_6n_distinct_hexes_at_distance_n(centre, n):
    found = hexgrid.ring(centre, n)
    assert len(found) == (6 * n if n else 1)
    assert len(set(found)) == len(found)
    assert all(hexgrid.distance(centre, h) == n for h in found)


def test_within_counts_every_hex_once():
    assert len(set(hexgrid.within(Hex(3, 4), 3))) == len(hexgrid.within(Hex(3, 4), 3)) == 37
    with pytest.raises(ValueError, match="radius"):
        hexgrid.ring(ORIGIN, -1)


@FAST
@given(st.integers(-60, 60), st.integers(-60, 60))
def test_odd_q_offset_round_trip(col, row):
    assert hexgrid.to_odd_q(hexgrid.from_odd_q(col, row)) == (col, row)


@FAST
@given(hexes)
def test_axial_to_odd_q_round_trip(hex_):
    assert hexgrid.from_odd_q(*hexgrid.to_odd_q(hex_)) == hex_


def test_odd_q_shoves_odd_columns_down():
    # Column 1 sits half a hex lower: its row-0 hex has column 0 row 0 to the north-west.
    assert hexgrid.from_odd_q(1, 0) == Hex(1, 0)
    assert hexgrid.neighbour(hexgrid.from_odd_q(1, 0), 5) == hexgrid.from_odd_q(0, 0)
    assert hexgrid.neighbour(hexgrid.from_odd_q(1, 0), 1) == hexgrid.from_odd_q(2, 0)
    assert hexgrid.neighbour(hexgrid.from_odd_q(0, 0), 2) == hexgrid.from_odd_q(1, 0)
    assert hexgrid.from_odd_q(2, 0) == Hex(2, -1)
    assert len(list(hexgrid.rectangle_odd_q(30, 22))) == 660


@FAST
@given(hexes, facings, st.integers(-12, 12))
def test_rotation(hex_, d, k):
    assert hexgrid.rotate(hexgrid.neighbour(ORIGIN, d), k) == hexgrid.neighbour(ORIGIN, d + k)
    assert hexgrid.rotate(hex_, 6) == hex_
    assert hexgrid.distance(ORIGIN, hexgrid.rotate(hex_, k)) == hexgrid.distance(ORIGIN, hex_)
    assert hexgrid.rotate_facing(d, k) == (d + k) % 6


@FAST
@given(hexes, facings, st.integers(1, 20))
def test_direction_to_straight_lines_and_wedges(a, d, n):
    far = a + Hex(hexgrid.DIRECTIONS[d].q * n, hexgrid.DIRECTIONS[d].r * n)
    assert hexgrid.direction_to(a, far) == d


@FAST
@given(hexes, hexes)
def test_direction_to_points_the_bow_at_the_target(a, b):
    if a == b:
        with pytest.raises(ValueError, match="itself"):
            hexgrid.direction_to(a, b)
        return
    assert BOW in hexgrid.aspects(a, hexgrid.direction_to(a, b), b)


def test_direction_to_gives_a_boundary_hex_to_the_clockwise_wedge():
    assert hexgrid.direction_to(ORIGIN, Hex(1, -2)) == 1  # between N and NE


@pytest.mark.rule("SG-FACE-04", "SG-FACE-05")
def test_aspects_of_a_ship_facing_north():
    aspects = hexgrid.aspects
    assert aspects(ORIGIN, 0, Hex(0, -3)) == {BOW}
    assert aspects(ORIGIN, 0, Hex(0, 2)) == {STERN}
    assert aspects(ORIGIN, 0, Hex(1, -1)) == {STARBOARD}  # the NE neighbour is 60 degrees off the bow
    assert aspects(ORIGIN, 0, Hex(1, 0)) == {STARBOARD}
    assert aspects(ORIGIN, 0, Hex(-1, 0)) == {PORT}
    assert aspects(ORIGIN, 0, Hex(-3, 1)) == {PORT}  # abeam to port
    # Exactly on a dividing line (30 degrees either side of bow and stern): both aspects.
    assert aspects(ORIGIN, 0, Hex(1, -2)) == {BOW, STARBOARD}
    assert aspects(ORIGIN, 0, Hex(-1, -1)) == {BOW, PORT}
    assert aspects(ORIGIN, 0, Hex(1, 1)) == {STERN, STARBOARD}
    assert aspects(ORIGIN, 0, Hex(-1, 2)) == {STERN, PORT}
    assert aspects(ORIGIN, 0, ORIGIN) == hexgrid.ALL_ASPECTS


@pytest.mark.rule("SG-FACE-05")
def test_bow_wedge_is_sixty_degrees_and_broadsides_one_twenty():
    inside = dict.fromkeys(Aspect, 0)
    for h in hexgrid.ring(ORIGIN, 6):
        for aspect in hexgrid.aspects(ORIGIN, 0, h):
            inside[aspect] += 1
    # 36 hexes on the ring; each 60-degree wedge holds 6 plus the boundary hex at its far edge.
    assert inside[BOW] == inside[STERN] == 7
    assert inside[PORT] == inside[STARBOARD] == 6 * 2 + 1


@FAST
@given(hexes, facings, hexes, st.integers(0, 5))
def test_aspects_turn_with_the_ship(ship, facing, target, k):
    turned = hexgrid.rotate(target, k, ship)
    assert hexgrid.aspects(ship, facing + k, turned) == hexgrid.aspects(ship, facing, target)


@FAST
@given(hexes, facings, hexes)
def test_every_other_hex_is_in_one_aspect_or_two_neighbouring_ones(ship, facing, target):
    found = hexgrid.aspects(ship, facing, target)
    if ship == target:
        return
    assert 1 <= len(found) <= 2
    assert {BOW, STERN} not in (found,)
    assert {PORT, STARBOARD} not in (found,)


@pytest.mark.rule("SG-MOV-06")
def test_relative_positions_in_one_hex_follow_the_worked_example():
    same_facing = hexgrid.relative_positions(2, 2)
    assert (PORT, STARBOARD) in same_facing  # each in the other's broadside
    assert (BOW, STERN) in same_facing
    assert (STERN, BOW) in same_facing
    assert (BOW, BOW) not in same_facing  # would need them to face each other
    assert (BOW, BOW) in hexgrid.relative_positions(2, 5)


def passable_box(h: Hex) -> bool:
    return -5 <= h.q <= 5 and -5 <= h.r <= 5


def test_find_path_goes_straight_on_open_ground():
    path = hexgrid.find_path(ORIGIN, Hex(3, 0), cost=lambda a, b: 1.0, passable=passable_box)
    assert path is not None
    assert path[0] == ORIGIN
    assert path[-1] == Hex(3, 0)
    assert len(path) == 4


def test_find_path_goes_round_a_wall_and_prefers_cheap_ground():
    wall = {Hex(1, r) for r in range(-5, 4)}
    path = hexgrid.find_path(
        ORIGIN, Hex(2, 0), cost=lambda a, b: 1.0, passable=lambda h: passable_box(h) and h not in wall
    )
    assert path is not None
    assert not wall & set(path)
    assert all(hexgrid.distance(p, q) == 1 for p, q in itertools.pairwise(path))
    swamp = {Hex(1, 0), Hex(2, 0)}
    cheap = hexgrid.find_path(ORIGIN, Hex(3, -1), cost=lambda a, b: 9.0 if b in swamp else 1.0, passable=passable_box)
    assert cheap is not None
    assert not swamp & set(cheap)
    assert len(cheap) == 4


def test_find_path_gives_up_when_the_goal_is_cut_off():
    assert hexgrid.find_path(ORIGIN, Hex(9, 9), cost=lambda a, b: 1.0, passable=passable_box) is None
    ringed = set(hexgrid.ring(ORIGIN, 1))
    assert (
        hexgrid.find_path(
            ORIGIN, Hex(3, 0), cost=lambda a, b: 1.0, passable=lambda h: h not in ringed, max_expansions=500
        )
        is None
    )


def test_hex_json():
    assert Hex.from_json(Hex(3, -2).to_json()) == Hex(3, -2)
    with pytest.raises(ValueError, match="axial"):
        Hex.from_json([1, "2"])
