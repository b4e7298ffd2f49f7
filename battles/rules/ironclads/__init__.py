"""Ironclads 1850-1890 (Trevor Raymond, version 3), on hexes: docs/ironclads.md.

Ships steam one at a time, the side without the Initiative first (IC-SEQ-07), each setting her speed and her path;
the Data Card is her record. ``scale.py`` states the hex adaptation; ``ruleset.py`` says what the app plays, and
docs/ironclads.md "The turn, in the app" what is wired and what is left.
"""

from battles.engine.ruleset import register
from battles.rules.ironclads.ruleset import IRONCLADS

register(IRONCLADS)
