"""The hex adaptation of Ironclads 1850-1890 (docs/ironclads.md, "Hex play"): centimetres to hexes. Pure; every other
module reads its figures from here.

The text measures with a ruler in centimetres: a ship moves 1 cm per point of current speed (IC-MOV-01), guns reach
100 cm (IC-ZOF-03) in three bands split at 25 and 50 cm (IC-FIRE-09..11, IC-SAVE-03..05). On the map one hex is 4 cm
and a ship fills one hex (her base and her casting). A hex distance ``d`` stands for ``4 * d`` cm, centre to centre,
so every band edge the text gives lies within half a hex (2 cm) of a hex's edge.
"""

from __future__ import annotations

from typing import Final

CM_PER_HEX: Final = 4
CLOSE, MIDDLE, LONG = "close", "middle", "long"

# The text's band edges in cm; 25 and 50 themselves fall in the middle band, as the main text has it (IC-SAVE-10).
TEXT_CLOSE_UNDER_CM: Final = 25
TEXT_MIDDLE_UP_TO_CM: Final = 50
TEXT_REACH_CM: Final = 100

CLOSE_HEXES: Final = 6  # 4-24 cm: under 25 cm
MIDDLE_HEXES: Final = 12  # 28-48 cm: 25 to 50 cm
REACH_HEXES: Final = 25  # 52-100 cm: over 50 cm, up to the guns' reach

FRESH_CARRY_CM: Final = CM_PER_HEX // 2  # a new ship's unspent cm: she moves the nearest whole number of hexes


def to_cm(hexes: int) -> int:
    """What a hex distance stands for on the text's table."""
    return hexes * CM_PER_HEX


def text_band(cm: float) -> str | None:
    """The text's band for a range in cm, or None beyond the guns' reach."""
    if cm > TEXT_REACH_CM:
        return None
    if cm < TEXT_CLOSE_UNDER_CM:
        return CLOSE
    return MIDDLE if cm <= TEXT_MIDDLE_UP_TO_CM else LONG


def band(hexes: int) -> str | None:
    """The band of a hex range (the hex distance between the two ships), or None beyond reach."""
    if hexes < 1:
        raise ValueError(f"two ships are at least a hex apart, not {hexes}")
    if hexes > REACH_HEXES:
        return None
    if hexes <= CLOSE_HEXES:
        return CLOSE
    return MIDDLE if hexes <= MIDDLE_HEXES else LONG


def hexes_moved(carry_cm: int, speed: int) -> tuple[int, int]:
    """Whole hexes a ship moves this turn at ``speed`` cm, and the cm she carries to the next (docs "Hex play")."""
    if speed < 0 or not 0 <= carry_cm < CM_PER_HEX:
        raise ValueError(f"a speed is never negative and a carry is 0-{CM_PER_HEX - 1} cm: {speed}, {carry_cm}")
    return divmod(carry_cm + speed, CM_PER_HEX)
