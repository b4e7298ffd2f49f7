"""Cloudships of Mars, 2023 edition v3 (cloudships-of-mars-2023.txt; clauses CM-* in docs/rules/CHECKLIST.md).

A card-activated, fast-play game in which every ship is a control panel (CM-SEQ-01): guns with arcs, ranges,
dice and damage, movement, ceiling, boarding value, ram value, a damage track and status lights. The text
describes the panels but holds none, so this package designs them from the campaign's Sky Galleons ship
(``galleons``), stated and tested in ``conversion.py``; docs/cloudships.md records every decision. Registered here
(ruleset.py says what it is).
"""

from battles.engine.ruleset import register
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS

register(CLOUDSHIPS)
