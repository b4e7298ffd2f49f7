"""Duel (reference ruleset): our own two-ship game on a hex map, registered here (ruleset.py says what it is)."""

from battles.engine.ruleset import register
from battles.rules.duel.ruleset import DUEL

register(DUEL)
