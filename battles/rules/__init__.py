"""Rulesets, one package each. Pure Python, no Django."""
