"""Encounters on campaign (SGC-ENC, SGC-ENCT, SGC-ETYPE): owned by the encounters work. INTERFACE ONLY for now."""

from __future__ import annotations

from collections.abc import Sequence

from campaign.models import Campaign
from strategic_map.models import Encounter, VoyageDay


def encounters_draw(*, campaign: Campaign, day: int, hits: Sequence[VoyageDay]) -> list[Encounter]:
    """For the voyage days of ``day`` whose encounter die hit: roll the territory's table, draw the ships met
    from the category pools with their crews, create Encounter and EncounterShip rows, link the VoyageDays,
    mark the ships and captains in battle, and queue the battle's opening after commit. A bounded number of
    queries whatever len(hits) is. Called by the tick inside its transaction."""
    raise NotImplementedError("encounters_draw")
