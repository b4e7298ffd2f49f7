"""The hex adaptation of Sky Ships of Barsoom (docs/barsoom.md section 2): inches to hexes, heights to levels, the
text's 45-degree turns to hexsides. Pure; every other module reads its figures from here.

The text measures with a ruler: speeds of 4, 6 and 8 inches a move (BR-CLS-02/05/06), En Garde! range bands at
18, 36 and 54 inches (BR-WPN-04..07), weapon reaches of 72, 60 and 48 inches (BR-WPN-12/16/18), and crossing over
within 3 inches lengthwise or heightwise (BR-GRAP-02). On the map one hex is 2 inches, so every even figure the
text gives is a whole number of hexes and every speed, band edge and reach converts exactly. The only odd figures
(3 inches to cross over, a jump's D6 inches) fall on a half hex; a half is rounded down, so hex play never lets a
ship or a figure reach farther than the text does. A hex distance ``d`` stands for ``2 * d`` inches.

Height: whole levels from the ground (0) up to a stated ceiling (6), one level standing for 2 inches of height, as
a hex does for length, so "3 inches heightwise" is one level and a gun's 45-degree elevation (BR-WPN-02) reaches
one level up or down for every hex away.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

from battles.rules.barsoom.kinds import CAPITAL, MEDIUM, SMALL

INCHES_PER_HEX: Final = 2
INCHES_PER_LEVEL: Final = 2  # one level of height is as far as one hex of length (section 2)
GROUND: Final = 0  # level 0 is the ground: a ship there has landed or crashed (BR-LAND-01/02)
CEILING: Final = 6  # the highest level a ship flies at: a stated stand-in; a scenario may set it lower
TURN_DEGREES: Final = 60  # a Turn card turns one hexside (the text's "up to 45 degrees", BR-MOV-05)
TEXT_TURN_DEGREES: Final = 45

# The class speeds, in inches a move (BR-CLS-02/05/06); the fleet list may give a ship her own (BR-CLS-12).
CLASS_SPEED_INCHES: Final = {CAPITAL: 4, MEDIUM: 6, SMALL: 8}

# En Garde! range bands (BR-WPN-04..07): the last inch of each band. The text leaves 18, 36 and 54 themselves
# unassigned; each goes to the nearer, kinder band ("under 18" includes 18), so a band edge falls on a whole hex.
TEXT_BAND_EDGES_INCHES: Final = (18, 36, 54)
BAND_EDGES_HEXES: Final = (9, 18, 27)  # 9 hexes = 18 inches: the first band is 0-9 hexes, then 10-18, 19-27, 28+

# Weapon reach (BR-WPN-12/16/18), by weapon class.
HEAVY, MEDIUM_WEAPON, LIGHT = "heavy", "medium", "light"
TEXT_REACH_INCHES: Final = {HEAVY: 72, MEDIUM_WEAPON: 60, LIGHT: 48}
REACH_HEXES: Final = {HEAVY: 36, MEDIUM_WEAPON: 30, LIGHT: 24}

# Crossing over to another ship (BR-GRAP-02): the text's 3 inches, a half hex rounded down.
TEXT_CROSSING_INCHES: Final = 3
CROSSING_HEXES: Final = 1
CROSSING_LEVELS: Final = 1


def to_hexes(inches: int | Fraction) -> int:
    """A distance in inches as whole hexes: the nearest, a half rounded down (never farther than the text)."""
    if inches < 0:
        raise ValueError(f"a distance is never negative: {inches}")
    return math.ceil(Fraction(inches) / INCHES_PER_HEX - Fraction(1, 2))


def to_inches(hexes: int) -> int:
    """What a hex distance stands for on the text's table."""
    return hexes * INCHES_PER_HEX


def to_levels(inches: int | Fraction) -> int:
    """A height in inches as whole levels, rounded as distances are."""
    if inches < 0:
        raise ValueError(f"a height is never negative: {inches}")
    return math.ceil(Fraction(inches) / INCHES_PER_LEVEL - Fraction(1, 2))


def speed_hexes(speed_inches: int) -> int:
    """Hexes a ship moves for one Ahead or Reverse (BR-MOV-03/04). A speed must be a whole number of hexes: a
    half-hex speed would round away a quarter of a small speed, so the fleet list keeps to even inches."""
    if speed_inches <= 0 or speed_inches % INCHES_PER_HEX:
        raise ValueError(f"a speed is a positive, even number of inches (whole hexes), not {speed_inches}")
    return speed_inches // INCHES_PER_HEX


def text_band(inches: int | Fraction) -> int:
    """The text's range band for a distance in inches: 0 (+0), 1 (-1), 2 (-2) or 3 (-3) (BR-WPN-04..07)."""
    return sum(1 for edge in TEXT_BAND_EDGES_INCHES if inches > edge)


def band(hexes: int) -> int:
    """The range band of a hex distance: 0 up to 9 hexes, 1 up to 18, 2 up to 27, 3 beyond. The modifier each
    band gives is the weapons' business (weapons.py)."""
    return sum(1 for edge in BAND_EDGES_HEXES if hexes > edge)


def in_reach(hexes: int, weapon_class: str) -> bool:
    return hexes <= REACH_HEXES[weapon_class]


def range_3d(hexes: int, levels: int) -> int:
    """The range between ships ``hexes`` apart on the map and ``levels`` apart in height: the straight line, a
    level counted as a hex, to the nearest whole hex (a half rounded down, as above). Never off by more than half
    a hex of what the hexes and levels stand for."""
    square = hexes * hexes + levels * levels
    root = math.isqrt(square)
    # sqrt(square) is nearer root + 1 exactly when square > (root + 1/2)^2 = root^2 + root + 1/4
    return root + 1 if square - root * root > root else root


def within_elevation(hexes: int, levels: int) -> bool:
    """Can a fixed gun bear on a target ``levels`` above or below, ``hexes`` away? Guns elevate and depress 45
    degrees (BR-WPN-02): one level for every hex. Straight down is a bomb's, not a gun's (BR-BOMB-03)."""
    return abs(levels) <= hexes


def turn_error_degrees(text_turns: int) -> int:
    """How far ``text_turns`` full hexside turns differ from the text's 45-degree ones: the cost of the six-sided
    grid, stated so the docs' table can be tested."""
    return text_turns * (TURN_DEGREES - TEXT_TURN_DEGREES)
