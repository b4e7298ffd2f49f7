"""The campaign bridge: None. Sky Ships of Barsoom fights standalone battles until a bridge converts the campaign's
ships (galleons) into Barsoom's classes, stated and tested (docs/rulesets.md section 6)."""

from __future__ import annotations

from battles.engine.bridge import CampaignBridge

CAMPAIGN_BRIDGE: CampaignBridge | None = None
