"""The campaign bridge: how a tactical ruleset plays a campaign's encounters (optional per ruleset).

The Red Captain campaign keeps its ships as Sky Galleons ship records (the ``galleons`` package, the campaign's
canonical ship). A ruleset that can fight a campaign's encounters gives a bridge: the encounter as one of its
scenarios, and each ship's battle outcome written back onto the campaign's record. A ruleset without a bridge
(``Ruleset.campaign_bridge`` is None) is offered for standalone battles only.

Pure, like the rest of the engine: the campaign describes an encounter in the typed words below and hands ship
records over as JSON in the campaign's record format (``galleons.record.ShipRecord.to_json``), so neither the
engine nor a ruleset reads a campaign model, and the campaign reads no ruleset's scenario or board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from battles.engine.events import JSON, JSONObject
from battles.engine.outcome import ShipOutcome

# A ship's part in the encounter (the campaign's words, SGC-ENC-15..21): raiders and escorts fight, merchants and
# prizes in tow run and are noncombatants.
RAIDER, ESCORT, MERCHANT, PRIZE = "raider", "escort", "merchant", "prize"
ROLES = (RAIDER, ESCORT, MERCHANT, PRIZE)


class EncounterError(ValueError):
    """An encounter a bridge cannot make a scenario of."""


@dataclass(frozen=True)
class EncounterShip:
    """One ship of an encounter. A campaign ship comes with her ``record`` (the campaign's record JSON: damage,
    crew and spent ordnance carry over); a ship drawn from the encounter tables with her catalog ``class_id``
    and her crew's quality words (``boarding_quality`` where her boarders differ; ``high_martian`` for a High
    Martian crew). ``position`` is odd-q offset on the tactical map; ``towed_by`` the index of her tower in her
    own side's list."""

    name: str
    role: str
    position: tuple[int, int]
    facing: int
    record: JSON = None
    class_id: str | None = None
    crew_quality: str = ""
    boarding_quality: str = ""
    high_martian: bool = False
    towed_by: int | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise EncounterError(f"{self.name}: no role {self.role!r} (one of {', '.join(ROLES)})")
        if (self.record is None) == (self.class_id is None):
            raise EncounterError(f"{self.name}: give her campaign record or her class, one of the two")


@dataclass(frozen=True)
class EncounterSide:
    """One side: its key and name, its ships in line order, ``player`` for the campaign's captains' side, and
    ``category`` the encounter table's category of its lead ship (the AI's temper: pirates keep their prizes)."""

    key: str
    name: str
    ships: tuple[EncounterShip, ...]
    player: bool = False
    category: str = ""


@dataclass(frozen=True)
class Encounter:
    """An encounter at sea as the campaign sets it up (SGC-ENC-19..21): its sides, the wind (1 = north,
    clockwise, as the campaign rolls it), the sighting distance in hexes, and the words for its title and
    description. ``slug`` names the scenario."""

    slug: str
    title: str
    description: str
    sides: tuple[EncounterSide, ...]
    wind: int
    distance: int

    def ship_names(self) -> list[str]:
        return [ship.name for side in self.sides for ship in side.ships]


@runtime_checkable
class CampaignBridge(Protocol):
    """Filled in by the ruleset packages that can play a campaign's encounters (docs/rulesets.md)."""

    ruleset: str

    def scenario(self, encounter: Encounter) -> JSONObject:
        """The encounter as a scenario document of this ruleset (the one ``battle_create`` opens)."""
        ...

    def record_after(self, ship: ShipOutcome, before: JSON, *, crew_quality: str = "") -> JSON:
        """Her campaign record after the battle (JSON in the campaign's record format), from her outcome and
        her campaign record before it (None for a ship new to the campaign: a prize taken); None when the
        outcome carries no record to keep. ``crew_quality``: the campaign's word for her crew, if it keeps one."""
        ...
