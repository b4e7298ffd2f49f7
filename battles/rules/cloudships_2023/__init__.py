"""Cloudships of Mars, 2023 edition v3 (cloudships-of-mars-2023.txt; clauses CM-* in docs/rules/CHECKLIST.md).

A card-activated, fast-play game in which every ship is a control panel (CM-SEQ-01): guns with arcs, ranges,
dice and damage, movement, ceiling, boarding value, ram value, a damage track and status lights. The text
describes the panels but holds none, so this package designs them from the campaign's Sky Galleons ship
(``galleons``), stated and tested in ``conversion.py``; docs/cloudships.md records every decision.

Not registered yet: the battle runs (ruleset.py: the board, the rounds of cards, a ship's five steps, the end of
the round), but its ships neither move nor fire until the movement and fire slices fill in phases/movement.py and
phases/fire.py; an incomplete ruleset must not reach the app or the conformance suite.
"""
