"""The optional line of sight rule (battles/rules/sky_galleons/sightlines.py) and its use in the ruleset.

Flat-top axial hexes; a firer at (0, 0). The worked examples are in golden/test_line_of_sight_examples.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from battles.engine import dice, hexgrid, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import FIRE, FIRST, MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.sightlines import (
    GRAZE,
    MISSES,
    THROUGH,
    Obstacle,
    along_hexside,
    blocked_by,
    bottom_half_crossed,
    crossed_hexsides,
    passage,
    touched,
)

ORIGIN = Hex(0, 0)


def at(name: str, hex_: Hex, altitude: str = "M") -> Obstacle:
    return Obstacle(name, hex_, altitude)


# --- the hex geometry ----------------------------------------------------------------------------------


def test_a_line_straight_down_a_column_crosses_opposite_hexsides() -> None:
    assert crossed_hexsides(ORIGIN, Hex(0, 4), Hex(0, 2)) == {0, 3}  # in by the north side, out by the south
    assert touched(ORIGIN, Hex(0, 4)) == {Hex(0, 1): THROUGH, Hex(0, 2): THROUGH, Hex(0, 3): THROUGH}
    assert passage(ORIGIN, Hex(0, 4), Hex(1, 1)) == MISSES


@pytest.mark.rule("SG-LOS-02", "SG-LOS-03")
def test_a_line_along_a_hexside_touches_both_hexes_sharing_it_as_adjacent_hexsides() -> None:
    # (0,0) to (2,2) runs along the hexside between (1,0) and (0,1), through the far corners of (1,1), then
    # along the hexside between (2,1) and (1,2).
    assert along_hexside(ORIGIN, Hex(2, 2), Hex(1, 0)) == 4  # (1,0)'s south-west side
    assert along_hexside(ORIGIN, Hex(2, 2), Hex(0, 1)) == 1  # (0,1)'s north-east side: the same hexside
    assert hexgrid.neighbour(Hex(1, 0), 4) == Hex(0, 1)
    assert touched(ORIGIN, Hex(2, 2)) == {
        Hex(1, 0): GRAZE,
        Hex(0, 1): GRAZE,
        Hex(1, 1): THROUGH,
        Hex(2, 1): GRAZE,
        Hex(1, 2): GRAZE,
    }
    firer, target = at("A", ORIGIN), at("B", Hex(2, 2))
    assert blocked_by(firer, target, [at("one side", Hex(1, 0))]) is None
    assert blocked_by(firer, target, [at("other side", Hex(0, 1))]) is None
    both = blocked_by(firer, target, [at("one side", Hex(1, 0)), at("other side", Hex(0, 1))])
    assert both is not None
    assert both.clause == "SG-LOS-03"
    through = blocked_by(firer, target, [at("middle", Hex(1, 1))])
    assert through is not None
    assert through.clause == "SG-LOS-02"


@pytest.mark.rule("SG-LOS-02")
def test_a_line_through_a_hex_corner_is_settled_by_the_nudge_the_same_way_every_time() -> None:
    # (0,0) to (1,4) passes exactly through the corner where (0,1), (1,1) and (0,2) meet: the nudge (the
    # one hexgrid.line uses) takes it just past that corner on (1,1)'s side.
    found = touched(ORIGIN, Hex(1, 4))
    assert found == {
        Hex(0, 1): THROUGH,
        Hex(0, 2): GRAZE,
        Hex(1, 1): GRAZE,
        Hex(1, 2): THROUGH,
        Hex(1, 3): THROUGH,
    }
    assert touched(ORIGIN, Hex(1, 4)) == found
    # Reversed, the same line meets the same hexes.
    assert set(touched(Hex(1, 4), ORIGIN)) == set(found)


@pytest.mark.rule("SG-LOS-02")
def test_ships_beside_the_line_or_in_the_end_hexes_never_block() -> None:
    firer, target = at("A", ORIGIN), at("B", Hex(0, 4))
    assert blocked_by(firer, target, [at("beside", Hex(1, 1)), at("beside too", Hex(-1, 3))]) is None
    assert blocked_by(firer, target, [at("with A", ORIGIN), at("with B", Hex(0, 4))]) is None
    assert blocked_by(firer, at("B", ORIGIN), [at("C", Hex(0, 1))]) is None  # same hex: nothing between
    assert blocked_by(firer, at("B", Hex(0, 1)), [at("C", Hex(1, 0))]) is None  # adjacent: nothing between


@pytest.mark.rule("SG-LOS-02", "SG-LOS-06")
def test_with_firer_and_target_level_a_ship_at_another_altitude_never_blocks() -> None:
    firer, target = at("A", ORIGIN), at("B", Hex(0, 4))
    assert blocked_by(firer, target, [at("above", Hex(0, 2), "H"), at("below", Hex(0, 1), "L")]) is None


# --- the altitude gauge -------------------------------------------------------------------------------


@pytest.mark.rule("SG-LOS-08")
def test_only_the_inside_of_the_bottom_half_of_a_box_counts() -> None:
    # Low (2) to High (4) over 4 columns: the line rises half a level a column.
    assert bottom_half_crossed(4, "L", "H", 2, "M")  # 2.75..3.25 against M's bottom half 2.5..3
    assert not bottom_half_crossed(4, "L", "H", 3, "M")  # 3.25..3.75: the top half only
    assert bottom_half_crossed(4, "L", "H", 3, "H")  # 3.25..3.75 against H's bottom half 3.5..4
    # Low (2) to Medium (3) over 2 columns: across column 1 the line runs 2.25..2.75, inside M's bottom half
    # only if it rises past 2.5: it does.
    assert bottom_half_crossed(2, "L", "M", 1, "M")
    # Very Low (1) to Medium (3) over 4 columns: across column 1, 1.25..1.75; Low's bottom half is 1.5..2.
    assert bottom_half_crossed(4, "VL", "M", 1, "L")
    # A line touching only the bottom edge of a box: column 0's box at Low seen from VL to M over 2 columns
    # runs 1..1.5 over the first half column, and Low's bottom half starts at 1.5.
    assert not bottom_half_crossed(2, "VL", "M", 0, "L")
    # Level, along the middle of the row: never inside a bottom half (the same-altitude rule decides).
    assert not bottom_half_crossed(4, "M", "M", 2, "M")


@pytest.mark.rule("SG-LOS-06")
def test_at_different_altitudes_a_ship_must_also_stand_across_two_nonadjacent_hexsides() -> None:
    # A at Low on (0,0), B at High on (1,5), six hexes apart: the line rises a third of a level a column and
    # runs 2.83..3.17 across column 3, through the bottom half of a Medium box there. Hexes 3 and 4 of the
    # numbered example are both three hexes from A, and the line only clips their corners.
    firer, target = at("A", ORIGIN, "L"), at("B", Hex(1, 5), "H")
    assert bottom_half_crossed(6, "L", "H", 3, "M")
    assert blocked_by(firer, target, [at("in 3", Hex(0, 3))]) is None
    together = blocked_by(firer, target, [at("in 3", Hex(0, 3)), at("in 4", Hex(1, 2))])
    assert together is not None
    assert together.clause == "SG-LOS-03"
    assert blocked_by(firer, target, [at("in 2", Hex(0, 2), "L"), at("in 5", Hex(1, 3), "VH")]) is None


@pytest.mark.rule("SG-LOS-01")
def test_lob_guns_fire_over_intervening_ships() -> None:
    firer, target = at("A", ORIGIN), at("B", Hex(0, 3))
    assert blocked_by(firer, target, [at("C", Hex(0, 1))]) is not None
    assert blocked_by(firer, target, [at("C", Hex(0, 1))], lob_gun=True) is None


# --- in a battle --------------------------------------------------------------------------------------

State = BattleState[Board]


def ship(name: str, cls: str, pos: tuple[int, int], facing: int = 0, altitude: str = "M") -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(pos), "facing": facing, "altitude": altitude}


def begin(options: Mapping[str, Any], blocker_side: str) -> State:
    """The Hullcutter Reaver (side a) at (6, 8) facing north; the Sky Runner Runner (side b) at (6, 5), three
    hexes straight ahead; a Sky Runner half way, at (6, 6), on the side given."""
    blocker = ship("Between", "Sky Runner", (6, 6), facing=2)
    a = [ship("Reaver", "Hullcutter", (6, 8))] + ([blocker] if blocker_side == "a" else [])
    b = [ship("Runner", "Sky Runner", (6, 5), facing=3)] + ([blocker] if blocker_side == "b" else [])
    data = {
        "slug": "sight-test",
        "title": "Sight test",
        "map": {"cols": 16, "rows": 12},
        "turn_limit": 3,
        "sides": [{"id": "a", "ships": a}, {"id": "b", "ships": b}],
    }
    seed = b"sight"
    initial = resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed), options=dict(options))
    state = resolver.resolve(RS, initial, seed).state
    while True:
        request = state.pending()[0]
        if request.kind == FIRE and request.side == "a":
            return state
        choice: Any = request.default
        if request.kind == FIRST:
            choice = "a"
        elif request.kind in (MOVE, ORDERS):
            choice = [] if request.kind == MOVE else request.default
        outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert not isinstance(outcome, Rejection), outcome
        state = outcome.state


def fire_request(state: State) -> DecisionRequest:
    return next(r for r in state.pending() if r.kind == FIRE and r.side == "a")


def targets(state: State, gun: str) -> set[str]:
    return {s.target for s in RS.solutions(state, "a") if s.firer == "Reaver" and s.gun_id == gun}


ROGUE, LOB = "1", "3"


@pytest.mark.rule("SG-LOS-01")
@pytest.mark.parametrize("blocker_side", ["a", "b"])
def test_the_basic_rules_never_block_fire(blocker_side: str) -> None:
    state = begin({}, blocker_side)
    assert "Runner" in targets(state, ROGUE)
    shot = {"shots": [{"ship": "Reaver", "gun": ROGUE, "target": "Runner"}]}
    assert RS.validate(state, fire_request(state), shot) is None


@pytest.mark.rule("SG-LOS-01", "SG-LOS-02")
@pytest.mark.parametrize("blocker_side", ["a", "b"])
def test_with_line_of_sight_a_ship_between_friend_or_foe_blocks_the_shot(blocker_side: str) -> None:
    state = begin({"line_of_sight": True}, blocker_side)
    assert "Runner" not in targets(state, ROGUE)
    assert "Runner" in targets(state, LOB)  # the lob gun fires over her
    shot = {"shots": [{"ship": "Reaver", "gun": ROGUE, "target": "Runner"}]}
    rejection = RS.validate(state, fire_request(state), shot)
    assert rejection is not None
    assert rejection.clause == "SG-LOS-02"
    assert "Between" in rejection.reason
    if blocker_side == "b":
        assert "Between" in targets(state, ROGUE)  # the ship in the way can itself be shot at
