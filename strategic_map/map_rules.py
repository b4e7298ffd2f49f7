"""A campaign's effective map numbers: the reference map with the umpire's edits on top (CampaignMapRules).

The territory encounter numbers and the epic trek table are designed stand-ins (SGC-MAP-03, SGC-TREK-11) that a
club may change per campaign; everything that rolls for encounters or treks reads them through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from campaign.models import Campaign
from strategic_map import mapdata
from strategic_map.models import CampaignMapRules


@dataclass(frozen=True, slots=True)
class EncounterNumbers:
    """SGC-ENC-02: an encounter on 1D6 <= move_through (moved that day) or <= patrol (patrolled); None: no roll."""

    move_through: int | None
    patrol: int | None

    def number_for(self, *, patrolling: bool) -> int | None:
        return self.patrol if patrolling else self.move_through


def _overrides(campaign: Campaign) -> CampaignMapRules | None:
    # Read through the reverse one-to-one once; a campaign without edits has no row.
    try:
        return campaign.map_rules
    except CampaignMapRules.DoesNotExist:
        return None


def territory_numbers(campaign: Campaign) -> Mapping[str, EncounterNumbers]:
    """Territory name -> its encounter numbers in this campaign."""
    mars = mapdata.mars_map()
    edits: Mapping[str, Any] = {}
    rules = _overrides(campaign)
    if rules is not None:
        edits = rules.territory_numbers or {}
    numbers: dict[str, EncounterNumbers] = {}
    for name, territory in mars.territories.items():
        edit = edits.get(name)
        if isinstance(edit, Mapping):
            numbers[name] = EncounterNumbers(edit.get("move_through"), edit.get("patrol"))
        else:
            numbers[name] = EncounterNumbers(territory.move_through, territory.patrol)
    return MappingProxyType(numbers)


def trek_table(campaign: Campaign) -> mapdata.EpicTrekTable:
    """The epic trek table in this campaign: the umpire's whole table if he edited it, else the reference."""
    mars = mapdata.mars_map()
    rules = _overrides(campaign)
    if rules is None or not rules.trek_table:
        return mars.epic_trek_table
    reference = mars.epic_trek_table
    table = {
        allegiance: MappingProxyType({row: tuple(str(code) for code in codes) for row, codes in rows.items()})
        for allegiance, rows in rules.trek_table.items()
    }
    return mapdata.EpicTrekTable(
        die=reference.die,
        row_selection=reference.row_selection,
        codes=reference.codes,
        table=MappingProxyType(table),
        provenance=reference.provenance,
    )
