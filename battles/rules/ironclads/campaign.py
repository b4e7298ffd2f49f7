"""The campaign bridge: None, by decision (docs/ironclads.md "The campaign"). Ironclads 1850-1890 fights at sea on
Earth with steam warships rated from their real particulars; the campaign's ships are Martian aerial craft. Nothing
of a campaign ship (lift, altitude, hull boxes by deck, named guns on a gun deck of the air) has a place on a Data
Card, and a naval action has no place on the campaign's map of Mars, so the ruleset is offered for standalone
battles."""

from __future__ import annotations

from battles.engine.bridge import CampaignBridge

CAMPAIGN_BRIDGE: CampaignBridge | None = None
