"""The duel's campaign bridge: none. The reference ruleset fights standalone battles only, so a campaign is
never offered it for its encounters (``Duel.campaign_bridge`` is None; battles/engine/bridge.py). A ruleset that
can fight a campaign's encounters gives a bridge object here: the encounter as one of its scenarios, and each
ship's outcome written back onto the campaign's ship record (docs/rulesets.md)."""

from __future__ import annotations

from battles.engine.bridge import CampaignBridge

CAMPAIGN_BRIDGE: CampaignBridge | None = None
