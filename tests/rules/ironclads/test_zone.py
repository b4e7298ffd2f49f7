"""The Zone of Fire and the range on hexes (IC-ZOF-01..04)."""

from __future__ import annotations

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import scale, zone

FIRER = Hex(0, 0)


def _dense(a: Hex, b: Hex, shift: tuple[float, float]) -> set[Hex]:
    """The hexes a line passes through, sampled finely: what the zone must match."""
    steps = 2000
    return {
        hexgrid.cube_round(a.q + shift[0] + (b.q - a.q) * i / steps, a.r + shift[1] + (b.r - a.r) * i / steps)
        for i in range(steps + 1)
    }


@pytest.mark.rule("IC-ZOF-01")
def test_the_zone_is_every_hex_either_nudged_line_passes_through_ends_excluded_ic_zof_01() -> None:
    for target in hexgrid.within(FIRER, 8):
        if target == FIRER:
            continue
        expected = (_dense(FIRER, target, (1e-6, 2e-6)) | _dense(FIRER, target, (-1e-6, -2e-6))) - {FIRER, target}
        assert zone.zone_of_fire(FIRER, target) == expected, target


@pytest.mark.rule("IC-ZOF-01")
def test_a_line_along_hexsides_takes_the_hexes_on_both_sides_the_widest_area_ic_zof_01() -> None:
    # From (0,0) to (2,-1) the centre line runs along the side between (1,-1) and (1,0).
    assert zone.zone_of_fire(FIRER, Hex(2, -1)) == {Hex(1, -1), Hex(1, 0)}
    # Straight through centres: one hex wide.
    assert zone.zone_of_fire(FIRER, Hex(0, -4)) == {Hex(0, -1), Hex(0, -2), Hex(0, -3)}
    assert zone.zone_of_fire(FIRER, Hex(0, -1)) == frozenset()  # neighbours: nothing between


@pytest.mark.rule("IC-ZOF-02")
def test_any_ship_or_land_in_the_zone_blocks_fire_friend_or_foe_ic_zof_02() -> None:
    target = Hex(4, -2)
    assert zone.clear(FIRER, target, [])
    assert zone.clear(FIRER, target, [Hex(0, 3), Hex(5, -5)])  # elsewhere on the map
    assert not zone.clear(FIRER, target, [Hex(1, 0)])  # a hex on one side of the hexside line
    assert not zone.clear(FIRER, target, [Hex(1, -1)])  # and one on the other
    assert zone.blocking(FIRER, target, [Hex(3, -1), Hex(9, 9), Hex(2, -1)]) == (Hex(2, -1), Hex(3, -1))
    assert zone.clear(FIRER, target, [FIRER, target])  # the two ships themselves do not block


@pytest.mark.rule("IC-ZOF-04")
def test_range_is_the_hex_distance_at_4_cm_a_hex_measured_across_anything_ic_zof_04() -> None:
    target = Hex(5, -2)
    assert zone.range_hexes(FIRER, target) == 5
    assert zone.range_cm(FIRER, target) == 20
    assert zone.range_band(FIRER, target) == scale.CLOSE
    assert zone.range_band(FIRER, Hex(0, -8)) == scale.MIDDLE  # 32 cm, the golden salvo's 33 cm


@pytest.mark.parametrize(("hexes", "band"), [(6, "close"), (7, "middle"), (12, "middle"), (13, "long"), (25, "long")])
@pytest.mark.rule("IC-FIRE-09", "IC-FIRE-10", "IC-FIRE-11")
def test_the_bands_by_hex_range_ic_fire_09_to_11(hexes: int, band: str) -> None:
    assert zone.range_band(FIRER, Hex(0, -hexes)) == band


@pytest.mark.rule("IC-ZOF-03")
def test_beyond_100_cm_no_gun_reaches_ic_zof_03() -> None:
    assert zone.range_band(FIRER, Hex(25, 0)) == scale.LONG  # 100 cm
    assert zone.range_band(FIRER, Hex(26, 0)) is None  # 104 cm


def test_no_zone_to_her_own_hex() -> None:
    with pytest.raises(ValueError, match="own hex"):
        zone.zone_of_fire(FIRER, FIRER)
