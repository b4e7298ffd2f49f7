"""How a ship of the campaign's model sails where the campaign's voyage rules and the tactical rules read the same
rule: a towing ship's allowance (SG-TOW-04..08, which the voyage rules apply to a day's sailing, SGC-MOVE-13) and a
class's own campaign cruising speed (the boarding launch's tiring crew, SG-CLS-05).

The figures are data: the tow's divisor in ``combat-tables.json`` ("towing"), the cruising speed in the class's
``class_rules`` entry in ``ship-catalog.json`` (battles/rules/sky_galleons/class_rules.py says what the tactical
rules do with the rest of that entry).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.jsonread import read_int, read_object
from galleons import catalog
from galleons.catalog import ShipClass
from galleons.record import ShipRecord, tint

TIRING_CREW = "tiring_crew"


def class_rule_entry(ship: ShipRecord | ShipClass, kind: str) -> Mapping[str, Any] | None:
    """The catalog's entry for one class rule of a class, or of a record built from one (None for a designed
    ship, or a class without that rule)."""
    class_id = ship.id if isinstance(ship, ShipClass) else ship.class_id
    if class_id is None:
        return None
    for entry in catalog.ship_class(class_id).raw.get("class_rules") or ():
        found = read_object(entry)
        if found.get("rule") == kind:
            return found
    return None


def campaign_cruising_hexes_per_day(ship: ShipRecord | ShipClass) -> int | None:
    """A launch's cruising speed on the campaign map (SG-CLS-05); None when the class states none."""
    found = class_rule_entry(ship, TIRING_CREW)
    return None if found is None else read_int(found["campaign_cruising_hexes_per_day"])


def halved(value: int) -> int:
    """Halved, rounded up: a tow's allowance or a towing kite's die (SG-TOW-04/05)."""
    return -(-max(value, 0) // tint("towing", "speed_divisor"))


def tow_speed(speed: int, tower_hull: int, towed_hull: int) -> int:
    """A towing ship's allowance: halved, rounded up, then less the towed hull size over its own, rounded
    down (SG-TOW-04/06/07). The formula governs where the text's second example disagrees (SG-TOW-08)."""
    return max(halved(speed) - towed_hull // max(tower_hull, 1), 0)
