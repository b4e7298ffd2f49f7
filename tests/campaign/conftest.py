"""Throwaway tactical rulesets for the campaign's choice of battle rules: the conformance suite's duel under two
other keys, one with a campaign bridge (it may fight a campaign's encounters) and one without (standalone battles
only). Registered for a test and taken out after it."""

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
