"""Sky Ships of Barsoom (sky-ships-of-barsoom.txt, 2016; clauses BR-* in docs/rules/CHECKLIST.md), on hexes.

Ships are ponderous moving terrain: each turn a ship plots three Movement Cards from her own deck, the sides reveal
them one at a time in turn (BR-SEQ-01..03), and damage is rolled on a d10 table. The text measures inches and
turns of 45 degrees; ``scale.py`` states the hex adaptation and docs/barsoom.md records every decision.

Not registered yet: the pure rules (scale, ship classes and the fleet, the card deck, movement, damage, crews) are
wired into the ruleset object ``ruleset.BARSOOM`` (docs/barsoom.md section 9), which the lead registers here once the
app's suites pass on it, as docs/rulesets.md describes:

    from battles.engine.ruleset import register
    from battles.rules.barsoom.ruleset import BARSOOM

    register(BARSOOM)
"""
