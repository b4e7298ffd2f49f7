"""Golden tests: the two worked examples of the optional line of sight rule (SG-LOS-04, SG-LOS-07).

Both diagrams are lost (SG-LOS-05, SG-LOS-08); these are the designed stand-ins (sightlines.py,
data/optional-rules.json ``line_of_sight``), each built so that the rule book's sentences about it hold.

The hex diagram (SG-LOS-04/05). Flat-top axial hexes, A at (0, 0) firing at B at (1, 5), six hexes away: the
line runs down A's column, drifts across to B's column half way, and runs down B's column::

    A (0,0)
    1 (0,1)
    2 (0,2)
    3 (0,3) | 4 (1,2)     the line crosses the hexside 3 and 4 share, clipping a corner of each
              5 (1,3)
              6 (1,4)
              B (1,5)

The altitude gauge (SG-LOS-07/08). A at Low and B at High four hexes apart in one column (B at (0, 4));
position 1 is a ship at Medium two hexes from A, position 2 a ship at Medium three hexes from A. The line
from the centre of A's box (column 0, Low's row) to B's (column 4, High's row) rises half a level a column:
across column 2 it runs from 2.75 to 3.25 levels, through the bottom half of a Medium box (2.5 to 3); across
column 3 from 3.25 to 3.75, through the top half only.
"""

from __future__ import annotations

import pytest

from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons.sightlines import GRAZE, THROUGH, Obstacle, blocked_by, touched

A, B = Hex(0, 0), Hex(1, 5)
NUMBERED = {1: Hex(0, 1), 2: Hex(0, 2), 3: Hex(0, 3), 4: Hex(1, 2), 5: Hex(1, 3), 6: Hex(1, 4)}


def firing(at: Hex = A, target: Hex = B, altitude: str = "M", target_altitude: str = "M") -> tuple[Obstacle, Obstacle]:
    return Obstacle("A", at, altitude), Obstacle("B", target, target_altitude)


def in_hexes(*numbers: int) -> list[Obstacle]:
    return [Obstacle(f"ship in {n}", NUMBERED[n], "M") for n in numbers]


@pytest.mark.rule("SG-LOS-04", "SG-LOS-05")
def test_the_numbered_hexes_are_the_six_the_line_meets() -> None:
    assert touched(A, B) == {
        NUMBERED[1]: THROUGH,
        NUMBERED[2]: THROUGH,
        NUMBERED[3]: GRAZE,
        NUMBERED[4]: GRAZE,
        NUMBERED[5]: THROUGH,
        NUMBERED[6]: THROUGH,
    }


@pytest.mark.rule("SG-LOS-04", "SG-LOS-02")
@pytest.mark.parametrize("number", [1, 2, 5, 6])
def test_a_ship_in_hex_1_2_5_or_6_blocks(number: int) -> None:
    blocked = blocked_by(*firing(), in_hexes(number))
    assert blocked is not None
    assert (blocked.clause, blocked.ships) == ("SG-LOS-02", (f"ship in {number}",))


@pytest.mark.rule("SG-LOS-04", "SG-LOS-02")
@pytest.mark.parametrize("number", [3, 4])
def test_one_ship_in_hex_3_or_4_does_not_block(number: int) -> None:
    assert blocked_by(*firing(), in_hexes(number)) is None


@pytest.mark.rule("SG-LOS-04", "SG-LOS-03")
def test_ships_in_both_3_and_4_block() -> None:
    blocked = blocked_by(*firing(), in_hexes(3, 4))
    assert blocked is not None
    assert blocked.clause == "SG-LOS-03"
    assert set(blocked.ships) == {"ship in 3", "ship in 4"}


GAUGE_B = Hex(0, 4)
POSITION_1 = Obstacle("position 1", Hex(0, 2), "M")
POSITION_2 = Obstacle("position 2", Hex(0, 3), "M")


@pytest.mark.rule("SG-LOS-07", "SG-LOS-06", "SG-LOS-08")
def test_a_ship_at_position_1_blocks_the_fire_between_a_and_b() -> None:
    blocked = blocked_by(*firing(A, GAUGE_B, "L", "H"), [POSITION_1])
    assert blocked is not None
    assert (blocked.clause, blocked.ships) == ("SG-LOS-06", ("position 1",))
    # Either way: B firing down at A crosses the same box the same way.
    assert blocked_by(Obstacle("B", GAUGE_B, "H"), Obstacle("A", A, "L"), [POSITION_1]) == blocked


@pytest.mark.rule("SG-LOS-07", "SG-LOS-06", "SG-LOS-08")
def test_a_ship_at_position_2_does_not() -> None:
    assert blocked_by(*firing(A, GAUGE_B, "L", "H"), [POSITION_2]) is None
    assert blocked_by(Obstacle("B", GAUGE_B, "H"), Obstacle("A", A, "L"), [POSITION_2]) is None
