"""Sky Galleons' words for what happens: the decisions a side is asked, why a ship is out of the fight, and
the stages of the sequence of play (SG-SEQ-01..12), in one place every module of the ruleset can read.
"""

from __future__ import annotations

KEY = "sky_galleons"  # the ruleset's key in the registry (the AI answers for this game only)

# A kite's movement die before it is rolled (the AI's planning, a ram's avoidance): an even die.
KITE_DIE_EXPECTED = 4

# Decision kinds
PLACE = "place ship"
ORDERS = "initiative orders"
FIRST = "first player"
MOVE = "move"
POSITION = "relative position"
FIRE = "fire"
AVOID = "avoid"
BOARD = "board"
# Initiative orders kept from the other sides for good (the engine's sealed keys): portable machineguns'
# aspects (SG-MG-06) and signals (SG-SIG-05).
SEALED_ORDERS = ("train", "signal", "standing")  # and standing orders (standing.py)
AVOID_COLLISION = "avoid collision"  # each ship a move will run into is asked (avoidance.py, SG-ERR-04)
PLOT = "plot movement"  # each side plots its ships' moves in secret (plotting.py, SG-ERR-24)
CREW_CHOICE = "crack crew"  # SG-SCN-44: the side picks its ship with the Crack crew
REINFORCE = "reinforcement"  # SG-SCN-24: the side picks its new ship and where it lands

# A move's close-action attempt (SG-RAM-01, SG-BRD-02)
RAM, GRAPPLE = "ram", "grapple"

# Why a ship is out of the fight
CRASHED = "crashed"
CRASH_LANDED = "crash-landed"
ESCAPED = "escaped"
STRUCK = "struck"
CAPTURED = "captured"

# The stages of the sequence of play (board.stage)
SETUP, PLACEMENT, UPKEEP, ORDERS_STAGE, FIRST_STAGE = "setup", "placement", "upkeep", "orders", "first player"
PHASE_START, MOVING, POSITIONS, FIRING, PHASE_END = "phase start", "moving", "positions", "fire", "phase end"
AVOIDING, BOARDING = "avoiding", "boarding"
FLYING = "flying"  # the moving side's flying parties move, one at a time (flying.py, SG-HM-03)
COLLIDING = "collision avoidance"  # the battle waits on the ships asked to avoid (avoidance.py)
PLOTTED = "plotted moves"  # plotted moves carried out (plotting.py)
CREW_STAGE, REINFORCING = "crew choice", "reinforcing"
