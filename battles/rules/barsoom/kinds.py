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
LEFT_MAP = "left the map"  # out of the battle, by a card her captain plotted
AT_THE_EDGE = "stopped at the map's edge"  # a forced move held by the table's edge: she stays on the map, way spent
HELD = "held"  # the card could do nothing (a wreck, on the ground, at the ceiling, stranded, anchored)
FOLLOWS = "follows"  # a grappled smaller ship: her card is not executed, she follows the larger (BR-GRAP-10)
COUNTERED = "countered"  # grappled ships of equal size played opposite options: both cancel (BR-GRAP-09)

# --- the turn in the app: phases, decisions and events (docs/barsoom.md section 9) ------------------------------
# Phases, in the order of a turn. The battle waits for the sides at PLOT (the secret plots) and ORDERS (fire and crew).
SETUP = "setup"
INITIATIVE = "initiative"  # BR-SEQ-02
PLOT = "plot"  # BR-MOV-01/02: every ship's cards, in secret
SHIP_PHASE = "ship"  # BR-SEQ-01/03: the cards revealed and executed, damage owed rolled, fires
ORDERS = "orders"  # the figures' phases (BR-SEQ-04), in the stand-in: each ship's fire and crew orders
FIRE = "fire"  # BR-WPN-03
CREW = "crew"  # grapples, boarders, the boarding fights, repairs (the stand-in, section 8)
END_OF_TURN = "end of turn"

# The optional rule's switch, a battle option (BR-OPT-01).
IGNORE_ONE = "ignore_one_restriction"

# Decision kinds.
PLOT_CARDS = "plot cards"
FIRE_ORDERS = "fire orders"
CREW_ORDERS = "crew orders"

# Event kinds.
FITTED_OUT = "fitted out"  # her bombs rolled at set-up (BR-CLS-04/05/11)
INITIATIVE_WON = "initiative"  # the order of the sides this turn
OUT_OF_CONTROL = "out of control"  # her random options drawn (BR-OOC-02)
CARD_REVEALED = "card revealed"  # one plotted card shown to all (BR-SEQ-03)
SHIP_MOVED = "ship moved"  # a card, a DED's move or a forced descent executed (movement.py)
DAMAGED = "damaged"  # one Damage-table roll applied (BR-DMG-02)
DED_ROLLED = "damage effect"  # a Damage Effect Die's face (BR-DED)
WRECK_FELL = "wreck fell"  # the second 10 of a turn (BR-DMG-12)
GUN_FIRED = "gun fired"  # a gun's shots and where they went (BR-HIT)
BOMB_DROPPED = "bomb dropped"  # BR-BOMB-03/04
MEN_LOST = "men lost"  # fire at crew, a boarding fight
GRAPPLE_THROWN = "grapples thrown"  # BR-GRAP-05/06
GRAPPLE_CUT = "grapples cut"
BOARDERS_CROSSED = "boarders crossed"  # BR-GRAP-01/02/11
BOARDING_FIGHT = "boarding fight"  # a round of the stand-in melee
SHIP_TAKEN = "ship taken"
REPAIRS = "repairs"  # BR-REP-03/04: the repair crew's dice and what they mended
CREW_POSTED = "crew posted"  # men to the helm or the repairs, or back on deck

# Why a ship owes Damage-table rolls beyond movement's (owed.DamageOwed.reason and the damage phase's).
HIT = "hit"  # a gun's or a bomb's hit (BR-HIT-04..06)
BURNING = "fire aboard"  # BR-DMG-11
ROLLED_AGAIN = "rolled again"  # row 2 on the ground (BR-DMG-04)

# What a ship is aimed at, and the crew orders (the stand-in's, docs/barsoom.md section 9).
AT_HULL, AT_CREW, AT_BOMB = "hull", "crew", "bomb"
THEN = "then"  # a fire order's second target: the guns the first leaves idle fire on it (docs section 9)
STAND_BY, TO_REPAIRS, GRAPPLE, CUT, BOARD = "stand by", "repair", "grapple", "cut", "board"

# --- the forms the stand-in first left out (docs/barsoom.md section 9, "Decisions") -----------------------------
# A Turn card played as no turn ("up to 45 degrees", BR-MOV-05): plotted as its own value beside the card's, so a
# plot of plain card names (every stored answer before these) still reads as it always did.
HELD_MARK = " (held)"
TURN_RIGHT_HELD = TURN_RIGHT + HELD_MARK
TURN_LEFT_HELD = TURN_LEFT + HELD_MARK
HELD_TURNS = {TURN_RIGHT_HELD: TURN_RIGHT, TURN_LEFT_HELD: TURN_LEFT}
# A side's own order of reveal (BR-SEQ-03): each plot may carry her place among her side's ships this turn.
PLACE = "place"
# A jump across to another ship (BR-GRAP-03/04): the crew order, and the event of the men who jumped.
JUMP_ACROSS = "jump"
BOARDERS_JUMPED = "boarders jumped"
# The glyph each Movement Card shows as a card tile on the plot form and the record sheet (answers.GLYPHS, the shared
# kit's vocabulary): a straight arrow for Ahead and Reverse, a curved one for the turns, a climb or a dive, a bar.
CARD_GLYPHS = {
    AHEAD: "ahead",
    REVERSE: "reverse",
    TURN_RIGHT: "turn-right",
    TURN_LEFT: "turn-left",
    STOP: "stop",
    DESCEND: "descend",
    ASCEND: "ascend",
    EXTRA_ASCEND: "ascend",
}

# Row 8's weapon, the owner's choice (BR-DMG-10): a battle option (absent from battles stored before it, which keep
# the automatic choice of her least gun), the phase the owners choose in after the Ship Phase, the decision, and the
# event that marks where the fire step waits for them.
OWNER_CHOOSES_GUN = "owner_chooses_gun_lost"
GUNS_LOST = "guns lost"
GUN_LOST = "gun lost"
FIRE_WAITS = "fire waits"

# A crashed ship may be repaired back (BR-LAND-04: "a wreck until repaired"): a battle option, absent from battles
# stored before it, in which a crash stays for good as it was played.
CRASH_REPAIRABLE = "crashed_ship_repairable"
