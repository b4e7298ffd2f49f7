"""movement.trace_turning, the AI's way of tracing hundreds of plans a move, against movement.trace itself.

The tree tracer must accept exactly the plans ``trace`` accepts, in ``turning_paths`` order, with the very steps
``trace`` gives them (SG-MOV-01..04, SG-ALT-03..14, SG-CREW-08, SG-KITE-02..08): every ship kind (a galleon, a
steamer with power turns, a kite), every facing, altitudes from the ground to the ceiling, next to the map edge
and to land as high as the ship, with the helm held, the course or altitude locked, and stunned.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from battles.engine import hexgrid
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.movement import (
    CLIMB,
    DESCEND,
    POWER_PORT,
    POWER_STARBOARD,
    TACK_PORT,
    TACK_STARBOARD,
    Allowance,
    PlanError,
    Terrain,
)
from galleons.record import ShipRecord, ship_record_from_class

# A small map with a ridge and a peak, so that plans leave the map, land and crash.
TERRAIN = Terrain(
    9,
    8,
    heights={
        hexgrid.from_odd_q(4, 3): "M",
        hexgrid.from_odd_q(5, 3): "L",
        hexgrid.from_odd_q(4, 4): "VL",
        hexgrid.from_odd_q(2, 5): "H",
    },
)
SPOTS = [hexgrid.from_odd_q(col, row) for col, row in ((4, 2), (1, 1), (0, 4), (3, 4), (7, 6), (5, 5))]
PREFIXES = [
    [],
    [CLIMB],
    [DESCEND],
    [DESCEND, DESCEND],
    [POWER_PORT],
    [POWER_STARBOARD],
    [CLIMB, POWER_PORT],
    [TACK_PORT],
    [TACK_STARBOARD],
]


def by_trace(
    record: ShipRecord, prefix: list[str], hexes: int, turns: int, allowed: Allowance
) -> list[tuple[list[str], list[movement.Step]]]:
    found = []
    for body in movement.turning_paths(hexes, turns):
        try:
            found.append((prefix + body, movement.trace(record, prefix + body, allowed=allowed, terrain=TERRAIN)))
        except PlanError:
            continue
    return found


def allowances(record: ShipRecord) -> list[Allowance]:
    sail = movement.kite_sail(record, kite_die=4, wind=1) if record.is_kite else None
    free = Allowance(speed=4, course=True, altitude=True, held_speed=None, stunned=False, sail=sail)
    return [
        free,
        replace(free, speed=1),
        replace(free, course=False),
        replace(free, altitude=False),
        replace(free, held_speed=3),
        replace(free, stunned=True),
    ]


@pytest.mark.rule("SG-MOV-01", "SG-MOV-02", "SG-ALT-13", "SG-ALT-14", "SG-CREW-08", "SG-KITE-07")
@pytest.mark.parametrize("cls", ["Sky Runner", "Dauntless", "Swiftwood"])
def test_the_tree_tracer_gives_what_trace_gives_plan_for_plan(cls: str) -> None:
    compared = 0
    for at, facing, altitude in itertools.product(SPOTS, (0, 1, 3), ("VL", "M", "H")):
        record = ship_record_from_class(cls, name="Mover", position=at, facing=facing, altitude=altitude)
        for allowed, prefix in itertools.product(allowances(record), PREFIXES):
            for hexes, turns in ((0, 2), (1, 2), (4, 2)):
                expected = by_trace(record, prefix, hexes, turns, allowed)
                got = movement.trace_turning(record, prefix, hexes, turns, allowed=allowed, terrain=TERRAIN)
                assert got == expected, (cls, at, facing, altitude, allowed, prefix, hexes, turns)
                compared += len(expected)
    assert compared > 1000  # the cases above do accept plans, and many


@pytest.mark.rule("SG-MOV-01", "SG-ALT-11", "SG-ALT-13", "SG-ALT-14")
@pytest.mark.parametrize("cls", ["Sky Runner", "Dauntless", "Swiftwood"])
def test_every_length_at_once_gives_each_length_in_turn(cls: str) -> None:
    """trace_turning_upto, one tree for every length from two hexes on, against trace_turning length by length."""
    for at, facing, altitude in itertools.product(SPOTS, (0, 2, 4), ("VL", "M")):
        record = ship_record_from_class(cls, name="Mover", position=at, facing=facing, altitude=altitude)
        for allowed, prefix in itertools.product(allowances(record), PREFIXES):
            expected = [
                traced
                for hexes in range(5)
                for traced in movement.trace_turning(record, prefix, hexes, 2, allowed=allowed, terrain=TERRAIN)
            ]
            got = movement.trace_turning_upto(record, prefix, 4, 2, allowed=allowed, terrain=TERRAIN)
            assert got == expected, (cls, at, facing, altitude, allowed, prefix)


def test_turning_paths_are_every_placement_of_up_to_the_turns() -> None:
    assert movement.turning_paths(0, 2) == [[]]
    assert movement.turning_paths(1, 1) == [["ahead"], ["ahead", "port"], ["ahead", "starboard"]]
    assert len(movement.turning_paths(3, 2)) == 1 + 2 * 3 + 4 * 3  # no turn, one of 3 places, two of 3 pairs
