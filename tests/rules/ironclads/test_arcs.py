"""Gun arcs on hexes (IC-ARC-01..10): fixed arcs partly in, turret quadrants, which tracks bear."""

from __future__ import annotations

import math

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import arcs, cards
from battles.rules.ironclads.cards import (
    ARMOUR,
    CENTRE_TURRET,
    FORWARD,
    FORWARD_TURRET,
    HULL,
    PORT,
    PROPULSION,
    REAR,
    REAR_TURRET,
    STARBOARD,
)

SHIP = Hex(3, -2)  # anywhere: nothing depends on where she is
DISC = [h for h in hexgrid.within(SHIP, 10) if h != SHIP]

# Drawn for a ship facing 0 (north), as offsets from her hex: (fixed arcs, turret quadrant).
DRAWN: dict[Hex, tuple[tuple[str, ...], str]] = {
    Hex(0, -1): ((FORWARD, PORT, STARBOARD), FORWARD),  # the very next hex ahead lies across both lines
    Hex(0, -2): ((FORWARD,), FORWARD),
    Hex(0, -9): ((FORWARD,), FORWARD),
    Hex(0, 1): ((PORT, STARBOARD, REAR), REAR),
    Hex(0, 3): ((REAR,), REAR),
    Hex(1, -1): ((STARBOARD,), FORWARD),  # 60 degrees: partly in the forward quadrant
    Hex(1, 0): ((STARBOARD,), REAR),  # 120 degrees: partly in the rear quadrant
    Hex(2, -1): ((STARBOARD,), STARBOARD),  # abeam: wholly in the starboard quadrant
    Hex(-2, 1): ((PORT,), PORT),
    Hex(1, -2): ((FORWARD, STARBOARD), FORWARD),  # 30 degrees, near: straddles the forward line
    Hex(1, -4): ((FORWARD, STARBOARD), FORWARD),  # 13.9 degrees, spans 7.9 either side: straddles
    Hex(1, -6): ((FORWARD,), FORWARD),  # 8.9 degrees, spans 5.1: wholly forward
    Hex(2, -4): ((STARBOARD,), FORWARD),  # 30 degrees, farther: clear of the forward line
    Hex(-1, -1): ((FORWARD, PORT), FORWARD),
    Hex(-1, 2): ((PORT, REAR), REAR),
    Hex(4, -4): ((STARBOARD,), STARBOARD),  # 60 degrees but narrow at 4 hexes: wholly past the diagonal
    Hex(4, 0): ((STARBOARD,), STARBOARD),  # 120 degrees, likewise
    Hex(4, -2): ((STARBOARD,), STARBOARD),
    Hex(5, -4): ((STARBOARD,), STARBOARD),  # 70.9 degrees, spans 6.6: wholly in the broadside quadrant
}


def _placed(offset: Hex, facing: int) -> Hex:
    """The drawn offset turned with her to ``facing``."""
    return SHIP + hexgrid.rotate(offset, facing)


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.rule("IC-ARC-01", "IC-ARC-03", "IC-ARC-05", "IC-ARC-06")
def test_the_drawn_arcs_turn_with_her_for_every_facing_ic_arc_01_03_05_06(facing: int) -> None:
    for offset, (fixed, quadrant) in DRAWN.items():
        target = _placed(offset, facing)
        assert arcs.fixed_arcs(SHIP, facing, target) == fixed, offset
        assert arcs.turret_arc(SHIP, facing, target) == quadrant, offset


@pytest.mark.rule("IC-ARC-02", "IC-ARC-03", "IC-ARC-10")
def test_the_arc_device_is_15_degrees_and_partly_in_widens_by_half_a_hex_ic_arc_02_ic_arc_10() -> None:
    assert arcs.ARC_DEVICE_DEGREES == 15
    assert arcs.half_width(SHIP, SHIP + Hex(0, -1)) == pytest.approx(math.degrees(math.atan(0.5)))
    assert arcs.half_width(SHIP, SHIP + Hex(0, -4)) == pytest.approx(math.degrees(math.atan(0.125)))
    # Dead ahead along the line of her bow, from 2 hexes on only the forward arc holds the target.
    for n in range(2, 26):
        assert arcs.fixed_arcs(SHIP, 0, SHIP + Hex(0, -n)) == (FORWARD,)
        assert arcs.fixed_arcs(SHIP, 0, SHIP + Hex(0, n)) == (REAR,)
    for facing in range(6):
        for target in DISC:
            b, w = arcs.bearing(SHIP, facing, target), arcs.half_width(SHIP, target)
            assert (FORWARD in arcs.fixed_arcs(SHIP, facing, target)) == (abs(b) - w < 15)
            assert (REAR in arcs.fixed_arcs(SHIP, facing, target)) == (abs(b) + w > 165)


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.rule("IC-ARC-01", "IC-ARC-05")
def test_port_and_starboard_mirror_each_other_ic_arc_01_ic_arc_05(facing: int) -> None:
    for target in DISC:
        mirrored = arcs.mirror(SHIP, facing, target)
        assert arcs.bearing(SHIP, facing, mirrored) == pytest.approx(
            -arcs.bearing(SHIP, facing, target) if abs(arcs.bearing(SHIP, facing, target)) != 180 else 180
        )
        assert set(arcs.fixed_arcs(SHIP, facing, mirrored)) == {
            arcs.SIDES[a] for a in arcs.fixed_arcs(SHIP, facing, target)
        }
        assert arcs.turret_arc(SHIP, facing, mirrored) == arcs.SIDES[arcs.turret_arc(SHIP, facing, target)]


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.rule("IC-ARC-01", "IC-ARC-05")
def test_forward_and_rear_mirror_each_other(facing: int) -> None:
    fore_aft = {FORWARD: REAR, REAR: FORWARD, PORT: PORT, STARBOARD: STARBOARD}
    for target in DISC:
        # A half turn then the port-starboard mirror reflects across her beam.
        behind = arcs.mirror(SHIP, facing, hexgrid.rotate(target, 3, SHIP))
        assert set(arcs.fixed_arcs(SHIP, facing, behind)) == {
            fore_aft[a] for a in arcs.fixed_arcs(SHIP, facing, target)
        }
        assert arcs.turret_arc(SHIP, facing, behind) == fore_aft[arcs.turret_arc(SHIP, facing, target)]


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.rule("IC-ARC-04", "IC-ARC-03")
def test_a_hex_straddling_a_line_is_in_both_arcs_and_only_the_next_hex_ahead_or_astern_in_three_ic_arc_04(
    facing: int,
) -> None:
    for target in DISC:
        found = arcs.fixed_arcs(SHIP, facing, target)
        assert found, target  # the four arcs cover the sea all round
        if len(found) == 3:
            assert hexgrid.distance(SHIP, target) == 1
            assert target in (hexgrid.neighbour(SHIP, facing), hexgrid.neighbour(SHIP, facing + 3))
        else:
            assert len(found) <= 2
    straddling = _placed(Hex(1, -2), facing)
    gloire = cards.card("GLOIRE", {FORWARD: 2, PORT: 13, STARBOARD: 13, ARMOUR: 7, PROPULSION: 13, HULL: 6})
    # IC-ARC-04 decision: each arc's guns may fire at a hex in both.
    assert arcs.bearing_tracks(gloire, SHIP, facing, straddling) == (FORWARD, STARBOARD)


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.rule("IC-ARC-06", "IC-ARC-05")
def test_every_hex_is_in_one_turret_quadrant_broadsides_only_wholly_ic_arc_06(facing: int) -> None:
    for target in DISC:
        quadrant = arcs.turret_arc(SHIP, facing, target)
        b, w = arcs.bearing(SHIP, facing, target), arcs.half_width(SHIP, target)
        if quadrant in (PORT, STARBOARD):
            assert abs(b) - w >= 45  # wholly inside
            assert abs(b) + w <= 135
        elif quadrant == FORWARD:
            assert abs(b) - w < 45  # partly is enough
        else:
            assert abs(b) + w > 135


@pytest.mark.rule("IC-ARC-07")
def test_only_the_arc_the_target_is_in_fires_ic_arc_07() -> None:
    colbert = cards.card("COLBERT", {PORT: 5, STARBOARD: 5, REAR: 1, ARMOUR: 7, PROPULSION: 14, HULL: 9})
    assert arcs.bearing_tracks(colbert, SHIP, 0, SHIP + Hex(-4, 2)) == (PORT,)
    assert arcs.bearing_tracks(colbert, SHIP, 0, SHIP + Hex(4, -2)) == (STARBOARD,)
    assert arcs.bearing_tracks(colbert, SHIP, 0, SHIP + Hex(0, 5)) == (REAR,)
    assert arcs.bearing_tracks(colbert, SHIP, 3, SHIP + Hex(0, 5)) == (FORWARD,)  # turned about: her bow


@pytest.mark.rule("IC-ARC-08", "IC-ARC-09")
def test_turrets_fire_only_into_their_agreed_arcs_ic_arc_08_ic_arc_09() -> None:
    ship = cards.card(
        "TURRETS",
        {FORWARD_TURRET: 4, CENTRE_TURRET: 3, REAR_TURRET: 3, ARMOUR: 5, PROPULSION: 6, HULL: 12},
        turret_arcs={
            FORWARD_TURRET: (FORWARD, PORT, STARBOARD),  # a blind spot astern
            CENTRE_TURRET: (PORT, STARBOARD),  # the broadsides only
            REAR_TURRET: (FORWARD, PORT, STARBOARD, REAR),  # all round
        },
    )
    ahead, abeam, astern = SHIP + Hex(0, -6), SHIP + Hex(6, -3), SHIP + Hex(0, 6)
    assert arcs.bearing_tracks(ship, SHIP, 0, ahead) == (FORWARD, FORWARD_TURRET, REAR_TURRET)
    assert arcs.bearing_tracks(ship, SHIP, 0, abeam) == (STARBOARD, FORWARD_TURRET, CENTRE_TURRET, REAR_TURRET)
    assert arcs.bearing_tracks(ship, SHIP, 0, astern) == (REAR, REAR_TURRET)
    # The next hex 60 degrees off the bow is partly in the forward quadrant, not wholly in the broadside.
    assert CENTRE_TURRET not in arcs.bearing_tracks(ship, SHIP, 0, SHIP + Hex(1, -1))
    assert CENTRE_TURRET in arcs.bearing_tracks(ship, SHIP, 0, SHIP + Hex(4, -4))
    # ARMINIUS: two turrets agreed for the broadsides only (IC-CARD-37).
    arminius = cards.card(
        "ARMINIUS",
        {FORWARD_TURRET: 2, REAR_TURRET: 2, ARMOUR: 5, PROPULSION: 12, HULL: 2},
        turret_arcs={FORWARD_TURRET: (PORT, STARBOARD), REAR_TURRET: (PORT, STARBOARD)},
    )
    assert arcs.bearing_tracks(arminius, SHIP, 0, SHIP + Hex(-6, 3)) == (PORT, FORWARD_TURRET, REAR_TURRET)
    assert arcs.bearing_tracks(arminius, SHIP, 0, ahead) == (FORWARD,)  # an empty arc: the salvo refuses it


@pytest.mark.rule("IC-DMG-13")
def test_a_hit_keeps_the_targets_arc_that_holds_the_firer_ic_dmg_13() -> None:
    # She faces north; the firer lies off her port beam, so his hits are fired into her port arc.
    assert arcs.fired_into(SHIP, 0, SHIP + Hex(-5, 2)) == (PORT,)
    assert arcs.fired_into(SHIP, 2, SHIP + Hex(-5, 2)) == (STARBOARD,)  # turned about: her other side
    assert arcs.fired_into(SHIP, 0, SHIP + Hex(-1, -1)) == (FORWARD, PORT)  # astride a line: both


def test_no_bearing_on_her_own_hex() -> None:
    with pytest.raises(ValueError, match="own hex"):
        arcs.fixed_arcs(SHIP, 0, SHIP)
