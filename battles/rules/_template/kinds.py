"""The ruleset's own words: event kinds, decision kinds, phases. Name them here once; the phases, the fold,
the narrator and the answer schemas import them."""

from __future__ import annotations

# Event kinds (the engine's own, such as a roll, a turn or a phase, come with every ruleset).
SCORED = "scored"

# Decision kinds.
STANCE = "stance"
STANCES = ("bold", "careful")

# Phases.
SETUP, ORDERS, RESOLVE = "setup", "orders", "resolve"
