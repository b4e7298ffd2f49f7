"""Sky Ships of Barsoom (sky-ships-of-barsoom.txt, 2016; clauses BR-* in docs/rules/CHECKLIST.md), on hexes.

Ships are ponderous moving terrain: each turn a ship plots three Movement Cards from her own deck, the sides reveal
them one at a time in turn (BR-SEQ-01..03), and damage is rolled on a d10 table. The text measures inches and
turns of 45 degrees; ``scale.py`` states the hex adaptation and docs/barsoom.md records every decision.

Registered here (ruleset.py says what it is); the pieces issue 23 still asks for are listed in docs/barsoom.md
section 9.
"""

from battles.engine.ruleset import register
from battles.rules.barsoom.ruleset import BARSOOM

register(BARSOOM)
