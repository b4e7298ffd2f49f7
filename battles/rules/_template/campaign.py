"""The campaign bridge (battles/engine/bridge.py): None, standalone battles only. A ruleset that can fight the
campaign's encounters gives an object here that turns an encounter into one of its scenarios and writes each
ship's outcome back onto the campaign's ship record (galleons), and documents how it converts."""

from __future__ import annotations

from battles.engine.bridge import CampaignBridge

CAMPAIGN_BRIDGE: CampaignBridge | None = None
