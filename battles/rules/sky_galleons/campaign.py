"""The Sky Galleons campaign bridge (battles/engine/bridge.py): a campaign's encounter as a Sky Galleons scenario,
and a ship's battle outcome back onto the campaign's record.

The campaign's record is the Sky Galleons record itself (``galleons.record``), so nothing is converted: a
campaign ship enters with her record (damage, crew, spent ordnance carry over) and leaves with her final one,
cleaned of what only the battle keeps. The set-up is DESIGN.md 4.3's (SGC-ENC-21): every ship at Medium, or her
ceiling if damage has brought it lower; prizes in tow are noncombatants (SG-SCN-17); the last side with a ship in
the fight wins (SG-SCN-06).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battles.engine.bridge import MERCHANT, PRIZE, Encounter, EncounterShip, EncounterSide
from battles.engine.events import JSON, JSONObject
from battles.engine.jsonread import read_int, read_object
from battles.engine.outcome import ShipOutcome
from battles.rules.sky_galleons.close_action import PartyError, all_home
from galleons.record import NO_PARTY, ShipRecord, altitude_level

SCENARIO_FORMAT = "red-captain/sky-galleons-scenario"
CRUISING_ALTITUDE = "M"
TURN_LIMIT = 40
# The scenario's role (scenario format): merchants and prizes run, the rest fight.
BATTLE_ROLE = {MERCHANT: "merchant", PRIZE: "merchant"}
WARSHIP = "warship"
# The AI's tuning per category (scenario format's sides[].ai): the High Martians as in Hearts of Oak (they
# board), pirates keep the prizes they take; warships and merchants the AI's defaults.
AI_BY_CATEGORY: dict[str, dict[str, Any]] = {
    "High Martian Pirate": {"board": True, "caution": 0.0, "flee_hull": 0.95, "flee_crew": 0.15, "prizes": "keep"},
    "Pirate Ship": {"prizes": "keep"},
    "Cloud Captain": {"prizes": "keep"},
}
PLAYER_AI: dict[str, Any] = {"prizes": "keep"}
HIGH_MARTIAN_ARMS = "bow"  # the kings' marines' bows (SG-SAF-05), as in Hearts of Oak
# Away in these, her men come back aboard as deckhands when the battle is over (results.json crew).
BACK_ABOARD = ("prize_crews", "guards")


def _altitude(record: ShipRecord) -> str:
    """Medium, or her ceiling when damage has brought it lower (DESIGN.md 4.3)."""
    ceiling = record.max_altitude
    if ceiling is not None and altitude_level(ceiling) < altitude_level(CRUISING_ALTITUDE):
        return ceiling
    return CRUISING_ALTITUDE


def _record_entry(ship: EncounterShip) -> dict[str, Any]:
    """A campaign ship: she enters with her record."""
    record = ShipRecord.from_json(read_object(ship.record))
    return {
        "name": ship.name,
        "record": ship.record,
        "position": list(ship.position),
        "facing": ship.facing,
        "altitude": _altitude(record),
        "role": BATTLE_ROLE.get(ship.role, WARSHIP),
    }


def _drawn_entry(ship: EncounterShip) -> dict[str, Any]:
    """A ship drawn from the tables: a fresh ship of her class with her crew's quality."""
    entry: dict[str, Any] = {
        "name": ship.name,
        "class": ship.class_id,
        "crew_quality": ship.crew_quality,
        "position": list(ship.position),
        "facing": ship.facing,
        "altitude": CRUISING_ALTITUDE,
        "role": BATTLE_ROLE.get(ship.role, WARSHIP),
    }
    if ship.high_martian:
        entry.update(high_martian=True, boarding_quality=ship.boarding_quality, marine_arms=HIGH_MARTIAN_ARMS)
    elif ship.boarding_quality and ship.boarding_quality != ship.crew_quality:
        entry["boarding_quality"] = ship.boarding_quality
    return entry


def _side(side: EncounterSide) -> dict[str, Any]:
    ai = PLAYER_AI if side.player else AI_BY_CATEGORY.get(side.category, {})
    ships = [_drawn_entry(ship) if ship.record is None else _record_entry(ship) for ship in side.ships]
    return {"id": side.key, "name": side.name, "ai": dict(ai), "ships": ships}


def scenario_document(encounter: Encounter) -> dict[str, Any]:
    """The scenario (docs/scenarios.md) of an encounter, its ships placed where the campaign put them."""
    prizes = [ship.name for side in encounter.sides for ship in side.ships if ship.role == PRIZE]
    return {
        "format": SCENARIO_FORMAT,
        "version": 1,
        "slug": encounter.slug,
        "title": encounter.title,
        "source": "Red Captain campaign encounter (SGC-ENC-15..21)",
        "clauses": ["SGC-ENC-19", "SGC-ENC-21"],
        "description": f"{encounter.description} The last side with a ship in the fight wins.",
        "wind": encounter.wind,
        "turn_limit": TURN_LIMIT,
        "crew_quality": "trained",
        "setup": {"kind": "fixed", "note": "Rolled by the campaign (DESIGN.md 4.3): sighting distance 2D6+4."},
        "special_rules": [{"rule": "noncombatant", "ship": name} for name in prizes],
        "victory": {"kind": "last_flying", "turn_limit_winner": None},
        "options": {},
        "sides": [_side(side) for side in encounter.sides],
    }


def campaign_record(ship: ShipOutcome, before: JSON, crew_quality: str = "") -> ShipRecord | None:
    """Her final battle record as the campaign keeps it: damage, lost guns, criticals, casualties and spent
    ordnance stay; the battle's passing positions go; her men in prize crews and guarding prisoners come back
    aboard as deckhands (their posts are not kept, results.json crew). ``before``: her campaign record before
    the battle (None: her final record stands for it)."""
    if ship.record is None:
        return None
    final = ShipRecord.from_json(read_object(ship.record))
    try:
        record = all_home(final)
    except PartyError:
        record = replace(final, party=NO_PARTY, boarders=NO_PARTY)
    was = ShipRecord.from_json(read_object(before)) if before else final
    away = read_object(ship.detail.get("away") or {})
    back = sum(read_int(away.get(where, 0)) for where in BACK_ABOARD)
    crew = replace(record.crew, deckhands=record.crew.deckhands + back) if back else record.crew
    return replace(
        record,
        name=ship.name,
        side=was.side,
        crew_quality=crew_quality or record.crew_quality,
        crew=crew,
        boarding=None,
        grappled_with=(),
        position=was.position,
        facing=was.facing,
        altitude=was.altitude if record.afloat else record.altitude,
        status=was.status,
        marines_fired=None,
        shotguns_spent=None,
        agility_speed=None,
    )


class SkyGalleonsBridge:
    """The campaign bridge of Sky Galleons: the campaign's ship is this ruleset's ship."""

    ruleset = "sky_galleons"

    def scenario(self, encounter: Encounter) -> JSONObject:
        return scenario_document(encounter)

    def record_after(self, ship: ShipOutcome, before: JSON, *, crew_quality: str = "") -> JSON:
        record = campaign_record(ship, before, crew_quality)
        return None if record is None else record.to_json()


BRIDGE = SkyGalleonsBridge()
