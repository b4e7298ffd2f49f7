"""The campaign bridge: how a tactical ruleset plays a campaign's encounters (optional per ruleset).

The Red Captain campaign keeps its ships as Sky Galleons ship records (the ``galleons`` package, the campaign's
canonical ship). A ruleset that can fight a campaign's encounters gives a bridge: the encounter as one of its
scenarios, and each ship's battle outcome written back onto the campaign's record. A ruleset without a bridge
(``Ruleset.campaign_bridge`` is None) is offered for standalone battles only.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class CampaignBridge(Protocol):
    """Filled in by the ruleset packages that can play a campaign's encounters (docs/rulesets.md)."""

    ruleset: str
