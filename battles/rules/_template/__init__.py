"""The skeleton a new ruleset package is copied from (docs/rulesets.md walks through it).

``discover()`` skips packages whose name starts with "_", so this one is never registered by the app. A copy
renames the package, sets the ruleset's key, version and title (ruleset.py), and registers it here, on import:

    from battles.engine.ruleset import register
    from battles.rules.<name>.ruleset import RULESET

    register(RULESET)

As it stands the skeleton is a complete, tiny game (each turn both sides choose a stance and roll; the higher
roll scores; the most points after the scenario's turns wins), so a copy runs from its first minute and the
conformance suite can play it while its real rules replace the example's, room by room.
"""
