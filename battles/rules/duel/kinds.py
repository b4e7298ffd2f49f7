"""The duel's words for its log and its decisions: event kinds, decision kinds, phases and movement steps.

Kept apart so the phases, the fold, the narrator and the forms name them from one place.
"""

from __future__ import annotations

# Event kinds (the engine's own kinds, such as a roll or a turn, come with every ruleset).
WIND = "wind"
PLACED = "placed"
INITIATIVE = "initiative"
MOVED = "moved"
HIT = "hit"
SUNK = "sunk"
KINDS = (WIND, PLACED, INITIATIVE, MOVED, HIT, SUNK)

# Decision kinds.
PLACE = "place ship"
PLOT = "plot movement"
FIRE = "fire"

# Phases, in the order a turn goes through them (set-up comes once, before the first turn).
SETUP, DEPLOY, INITIATIVE_PHASE, PLOT_PHASE, MOVE_PHASE, FIRE_PHASE = (
    "setup",
    "deployment",
    "initiative",
    "plot",
    "move",
    "fire",
)

# Movement steps: one hex ahead, or a turn of one hexside to port or starboard.
AHEAD, PORT, STARBOARD = "ahead", "port", "starboard"
STEPS = (AHEAD, PORT, STARBOARD)
