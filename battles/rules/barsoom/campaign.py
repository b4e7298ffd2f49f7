"""The campaign bridge: None, by decision (docs/barsoom.md section 11). Sky Ships of Barsoom is offered for
standalone battles: its ships are terrain for a figure game, whose hulls the text makes all but indestructible (only
two 10s in one turn wreck one, BR-DMG-12), so a campaign ship would come back from a Barsoom battle with her guns,
her men and her way lost but no hull box the campaign's repair bills and prize values are built on, and her
gun-by-gun record would go in as three weapon classes and come back as a guess."""

from __future__ import annotations

from battles.engine.bridge import CampaignBridge

CAMPAIGN_BRIDGE: CampaignBridge | None = None
