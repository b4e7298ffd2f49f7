"""Sky Ships of Barsoom in its own words: the Movement Cards, the ship classes, and why a ship owes damage.

One place to name them: the deck, the movement rules, the narrator and the forms import them from here.
"""

from __future__ import annotations

# --- the Movement Cards (BR-CARD-01..08), in the order the text lists them ------------------------------------
AHEAD = "Ahead"
REVERSE = "Reverse"
TURN_RIGHT = "Turn right"
TURN_LEFT = "Turn left"
STOP = "Stop"
DESCEND = "Descend"
ASCEND = "Ascend"
EXTRA_ASCEND = "Extra Ascend"  # small craft only (BR-CARD-08)
CARDS = (AHEAD, REVERSE, TURN_RIGHT, TURN_LEFT, STOP, DESCEND, ASCEND, EXTRA_ASCEND)
TURNS = (TURN_RIGHT, TURN_LEFT)
ASCENDS = (ASCEND, EXTRA_ASCEND)  # both raise the ship a level; the one-Ascend restriction counts both
MOVES = (AHEAD, REVERSE)  # the cards that carry a ship across the map (and may bring her into contact)
# The hexside a Turn card turns her by: right is clockwise, as the engine's facings are numbered.
TURN_SIDE = {TURN_RIGHT: 1, TURN_LEFT: -1}
# Options that cancel each other when grappled ships of equal size play them against each other (BR-GRAP-09).
OPPOSITES = {
    AHEAD: REVERSE,
    REVERSE: AHEAD,
    TURN_RIGHT: TURN_LEFT,
    TURN_LEFT: TURN_RIGHT,
    ASCEND: DESCEND,
    EXTRA_ASCEND: DESCEND,
    DESCEND: ASCEND,
}

# --- the ship classes (BR-CLS-01), largest first --------------------------------------------------------------
CAPITAL = "capital"
MEDIUM = "medium"
SMALL = "small"
CLASSES = (CAPITAL, MEDIUM, SMALL)

# --- why a ship owes rolls on the Damage table (movement.DamageOwed.reason) -----------------------------------
COLLISION = "collision"  # BR-COL-02/03
RAMMING = "ramming"  # the rammer's rolls (BR-RAM-02/03)
RAMMED = "rammed"  # the rammed ship's roll (BR-RAM-04)
CRASH = "crash"  # BR-LAND-02/03
HARD_LANDING = "hard landing"  # a landing after more Descends than her class takes safely (BR-CLS-03)
RESTRICTION_IGNORED = "restriction ignored"  # the optional rule (BR-OPT-02)

# --- what a card did (movement.Moved.outcome) -----------------------------------------------------------------
MOVED = "moved"  # she went as the card says
TURNED = "turned"
HELD_COURSE = "held her course"  # a Turn card played as no turn ("up to 45 degrees", BR-MOV-05)
STOPPED = "stopped"
CLIMBED = "climbed"
DESCENDED = "descended"
LANDED = "landed"  # BR-LAND-01 (a hard landing too: landed, with damage owed)
CRASHED = "crashed"  # BR-LAND-02
COLLIDED = "collided"  # unintended contact (BR-COL-01)
RAMMED_SHIP = "rammed"  # intended bow or stern contact (BR-RAM-01)
BLOCKED = "blocked"  # a ship at the level she would climb or descend into, in her hex: she stays, in contact
LEFT_MAP = "left the map"  # out of the battle
HELD = "held"  # the card could do nothing (a wreck, on the ground, at the ceiling, stranded, anchored)
FOLLOWS = "follows"  # a grappled smaller ship: her card is not executed, she follows the larger (BR-GRAP-10)
COUNTERED = "countered"  # grappled ships of equal size played opposite options: both cancel (BR-GRAP-09)
