"""The hex adaptation keeps the text's proportions (docs/ironclads.md "Hex play"; IC-MOV-01, IC-ZOF-03,
IC-FIRE-09..11, IC-SAVE-03..05, IC-SAVE-10)."""

from __future__ import annotations

import pytest

from battles.rules.ironclads import scale


@pytest.mark.parametrize("hexes", range(1, 30))
def test_every_hex_range_falls_in_the_band_of_a_distance_within_half_a_hex(hexes: int) -> None:
    cm = scale.to_cm(hexes)
    nearby = {scale.text_band(cm + d) for d in (-2, -1, 0, 1, 2) if cm + d > 0}
    assert scale.band(hexes) in nearby


@pytest.mark.rule("IC-SAVE-10")
def test_the_bands_edges_ic_fire_09_to_11_ic_save_10() -> None:
    assert [scale.text_band(cm) for cm in (24, 25, 50, 51, 100, 101)] == [
        "close",
        "middle",
        "middle",
        "long",
        "long",
        None,
    ]
    assert [scale.band(h) for h in (1, 6, 7, 12, 13, 25, 26)] == [
        "close",
        "close",
        "middle",
        "middle",
        "long",
        "long",
        None,
    ]


@pytest.mark.rule("IC-MOV-01")
@pytest.mark.parametrize("speed", range(0, 21))
def test_over_any_run_of_turns_a_ship_stays_within_half_a_hex_of_the_text_ic_mov_01(speed: int) -> None:
    carry, hexes = scale.FRESH_CARRY_CM, 0
    for turn in range(1, 13):
        moved, carry = scale.hexes_moved(carry, speed)
        hexes += moved
        assert abs(scale.to_cm(hexes) - speed * turn) <= scale.CM_PER_HEX / 2
