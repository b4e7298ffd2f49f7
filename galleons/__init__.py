"""The campaign's ship: the Sky Galleons ship catalog, design rater (SGD-*) and ship record, with their tables.

Pure Python (the engine's hex grid and JSON readers only). The yard, auctions, voyage rules, the strategic
map and the Sky Galleons tactical ruleset all import it from here; other rulesets' campaign bridges convert
from it. docs/galleons.md says why it lives apart from ``battles/rules``.
"""
