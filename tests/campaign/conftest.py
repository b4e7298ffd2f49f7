"""Throwaway tactical rulesets for the campaign's choice of battle rules: the reference duel under two other keys,
one with a campaign bridge (it may fight a campaign's encounters) and one without (standalone battles only).
Registered for a test and taken out after it. The bridged one adds two options of its own beside the duel's (a
listed one and an open whole number), so the form's every kind of option field is tested."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from battles.engine import ruleset
from battles.engine.ruleset import OptionSpec
from battles.rules.duel.ruleset import Duel


class DuelBridge:
    """A bridge in name only: the campaign's choice reads whether a ruleset has one, never what it does."""

    ruleset = "bridged_duel"


class BridgedDuel(Duel):
    key = "bridged_duel"
    title = "Bridged duel (tests only)"
    options = (
        *Duel.options,
        OptionSpec(
            "gunnery", "steady", "how the crews lay their guns", choices=("steady", "wild"), clause="DUEL-GUN-01"
        ),
        # An open whole number (no choices): the form's number field, and the ruleset's own type check.
        OptionSpec("powder", 12, "broadsides of powder each ship carries", clause="DUEL-GUN-02"),
    )
    campaign_bridge = DuelBridge()


class StandaloneDuel(Duel):
    key = "standalone_duel"
    title = "Standalone duel (tests only)"


@pytest.fixture
def duel_rulesets() -> Iterator[dict[str, Duel]]:
    rulesets = {"bridged": BridgedDuel(), "standalone": StandaloneDuel()}
    for rs in rulesets.values():
        ruleset.register(rs)
    yield rulesets
    for rs in rulesets.values():
        ruleset.unregister(rs.key, rs.version)
