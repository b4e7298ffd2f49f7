"""Ironclads 1850-1890 in the app's words: the phases of a Game Turn, the decisions and the events (docs/ironclads.md
"The turn, in the app"). One place to name them: the phases, the fold, the forms and the narrator import them here."""

from __future__ import annotations

from typing import Final

# --- phases, in the order of a Game Turn (IC-SEQ-06) -----------------------------------------------------------
SETUP = "setup"  # before the first turn: the sea state (IC-SEA-01..03, IC-SEQ-05)
INITIATIVE = "initiative"  # 1, IC-INIT-01/02
MOVEMENT = "movement"  # 2, one ship at a time (IC-SEQ-07)
FIRING = "firing"  # 3, fire noted then resolved (IC-SEQ-08)
END = "end"  # 4, sinking and the end of the game (IC-SEQ-09, IC-END)

# --- decisions ---------------------------------------------------------------------------------------------------
ORDER_OF_MOVING = "order of moving"  # the order a side moves its ships this Movement Phase, once (IC-SEQ-07)
MOVE_ORDER = "move order"  # the chosen ship's speed and path (IC-SPD-08, IC-MOV-01..04)
FIRE_ORDERS = "fire orders"  # a target or hold for each arc and turret (IC-FIRE-01..03), every ship at once
DAMAGE_ALLOCATION = "damage allocation"  # a track for each C and H on her Hits line (IC-DMG-02..13)
SEALED_ORDER: Final = "ships"  # the order of moving's key, kept from the other side (its answer is sealed)

# --- events ------------------------------------------------------------------------------------------------------
SEA_STATE = "sea state"  # IC-SEA-01/02: the two dice and what they made
INITIATIVE_WON = "initiative"  # IC-INIT: the rounds rolled and the side that has it
FORMATIONS_CHECKED = "formations checked"  # IC-FORM-04/11: red markers set and cleared
SHIP_CHOSEN = "ship chosen"  # the next ship of a side to move, by its order of moving, is named
SHIP_MOVED = "ship moved"  # a move done: the ships it changed, whole (movement.execute)
SHIP_SUNK = "ship sunk"  # IC-END-01
SALVO_FIRED = "salvo fired"  # a salvo's dice and saves: the C and H it notes on the target (IC-FIRE, IC-SAVE)
HITS_NOTED = "hits noted"  # step A over: every ship's Hits line (IC-SEQ-08, IC-SAVE-07)
CRITICALS_ROLLED = "criticals rolled"  # each C's 1D3 (IC-DMG-04)
DAMAGE_RESOLVED = "damage resolved"  # her allocation crossed off (IC-DMG-02..14)
PROBLEM = "problem"  # her 2D6 on the problems table and what it did (IC-PROB-01..10)

# --- the Firing Phase's steps (Battle.fire_step) ---------------------------------------------------------------
FIRE_ORDERED, FIRE_DAMAGE = "orders", "damage"  # step A: fire orders out; step B: hits noted, damage to allocate

# --- the battle's options (ruleset.py) ---------------------------------------------------------------------------
FORMATIONS_OPTION: Final = "formations"  # Appendix D, optional (IC-FORM-01)
