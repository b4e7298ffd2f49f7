"""An encounter's row lock, in campaign.locks' order: the campaign first (it numbers the dice), then the encounter.
Shared by the services that open an encounter's battle, close its window and carry its result back."""

from __future__ import annotations

from campaign import locks
from campaign.models import Campaign
from strategic_map.models import Encounter


def encounter_locked(encounter_id: int) -> tuple[Campaign | None, Encounter | None]:
    """The encounter's campaign and the encounter (with its battle), both locked; (None, None) for no encounter."""
    campaign = locks.campaign_of(Encounter, encounter_id)
    if campaign is None:
        return None, None
    encounter = (
        Encounter.objects.select_for_update(no_key=True, of=("self",))
        .select_related("battle")
        .filter(pk=encounter_id)
        .first()
    )
    return campaign, encounter
