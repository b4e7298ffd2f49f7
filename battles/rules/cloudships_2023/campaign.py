"""The Cloudships campaign bridge (battles/engine/bridge.py): a campaign's encounter as a Cloudships scenario, and a
ship's Cloudships outcome back onto her campaign record, the Sky Galleons record (``galleons.record``).

In: each campaign ship is the control panel converted from her record (conversion.py), her crew losses already in
it (the parties are counted from the men alive), with the damage she carries (``Carried``, setup.carried): her SG
hull hits as boxes crossed, band by band, rounded down (``crossed_in``); her destroyed guns and items lost, her
ordnance used spent; her screw or mast hits Motive Power Hits. A ship drawn from the tables is a fresh panel of her
class with her crew's quality (a High Martian crew flies, as scenario_bridge.py fits them). Merchants and prizes in
tow run for the edge; prizes are noncombatants; the last side flying wins; a draw at the round limit.

Out (``campaign_record``): what the battle did, the difference between her panel at the end and the damage she
came in with, laid on the record she came in with, so nothing she had is healed and a ship the battle left alone
comes back unchanged: the hull boxes crossed in a band are worth its SG boxes in proportion, rounded to the
nearest (a half up), a band's box crossed fills its SG rows (``hull_rows_after``); guns lost are destroyed, one-shot
systems spent are fired (``guns_after``); boarding parties lost are their share of the fighting men
(``crew_after``); Motive Power Hits are screw or mast hits. Figures in data/campaign.json; docs/cloudships.md,
"The campaign bridge".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from battles.engine import hexgrid
from battles.engine.bridge import Encounter, EncounterShip, EncounterSide
from battles.engine.events import JSON, JSONObject
from battles.engine.jsonread import DataFile, read_object
from battles.engine.outcome import ShipOutcome
from battles.rules.cloudships_2023 import company, conversion, panels, setup, victory
from battles.rules.cloudships_2023.board import Ship, band_height
from battles.rules.cloudships_2023.conversion import GUN_SOURCE, Source
from battles.rules.cloudships_2023.kinds import RUN
from battles.rules.cloudships_2023.panels import ControlPanel
from battles.rules.cloudships_2023.scenario_bridge import HIGH_MARTIAN_PARTIES_A_FLIGHT
from galleons.record import HullRow, ShipRecord, ship_record_from_class

KEY = "cloudships_2023"  # the ruleset's key (ruleset.py imports this module)
TABLES = DataFile(Path(__file__).resolve().parent / "data" / "campaign.json")
CREW_QUALITIES = ("green", "trained", "crack")
DEFAULT_QUALITY = "trained"


def _scenario(key: str) -> Any:
    return TABLES.get("scenario", key)


def _ordnance(key: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = TABLES.get("ordnance", key)
    return found


# --- the damage she carries in ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Carried:
    """What a campaign ship brings into the battle on her panel (setup.carried): boxes crossed, guns lost and
    spent (panel numbers), permanent criticals."""

    crossed: int = 0
    guns_lost: tuple[int, ...] = ()
    spent: tuple[int, ...] = ()
    criticals: tuple[str, ...] = ()

    def to_json(self) -> JSONObject:
        found: JSONObject = {
            "crossed": self.crossed,
            "guns_lost": list(self.guns_lost),
            "spent": list(self.spent),
            "criticals": list(self.criticals),
        }
        return {key: value for key, value in found.items() if value}


@dataclass(frozen=True)
class Band:
    """Her SG hull rows folding into one band (conversion.band_of), and their boxes and hits: one row of her
    damage track (conversion.damage_track)."""

    rows: tuple[int, ...]
    boxes: int
    hits: int


def bands(record: ShipRecord) -> tuple[Band, ...]:
    """Her SG hull rows by band, top first: the rows of her panel's track, in the same order."""
    found: dict[str, list[int]] = {}
    for index, row in enumerate(record.hull_rows):
        found.setdefault(conversion.band_of(row.altitude), []).append(index)
    rows = record.hull_rows
    return tuple(
        Band(tuple(indexes), sum(rows[n].boxes for n in indexes), sum(rows[n].hits for n in indexes))
        for indexes in found.values()
    )


def through_hulls(row: Sequence[str], hulls: int) -> int:
    """The boxes of a track row up to and including its ``hulls``-th Hull box (none for 0)."""
    seen = 0
    for count, box in enumerate(row):
        if seen == hulls:
            return count
        seen += box == panels.HULL
    return len(row)


def crossed_in(record: ShipRecord, panel: ControlPanel) -> int:
    """Her SG hull hits as boxes crossed (CM-DMG-01): a band whose SG rows are all hit is crossed whole, its band
    box too (her ceiling comes down, CM-DMG-07/08, as SG's does, SG-DMG-14); in the band below, the share of its
    Hull boxes her hits there are of its SG boxes, rounded down, with the system boxes between them. SG fills the
    highest row first (SG-DMG-13), so the rows below are whole. Never Ground: a ship that far gone is no ship."""
    crossed = 0
    for band, row in zip(bands(record), panel.track, strict=True):
        if band.hits >= band.boxes:
            crossed += len(row)
            continue
        crossed += through_hulls(row, band.hits * row.count(panels.HULL) // band.boxes)
        break
    return min(crossed, panel.track_length - 1)


def sources(record: ShipRecord) -> dict[int, Source]:
    return {gun.number: source for gun, source in conversion.sourced_guns(record)}


def _torpedoes(record: ShipRecord) -> tuple[bool, bool]:
    """Whether she carries Smutts torpedoes as items, and whether one is still stowed."""
    torpedo = _ordnance("torpedo")
    items = record.items_of(str(torpedo["item"]))
    return bool(items), any(item.state == torpedo["ready"] for item in items)


def carried_in(record: ShipRecord, panel: ControlPanel) -> Carried:
    """The damage her record brings onto her panel (docs/cloudships.md, "The campaign bridge")."""
    lost: list[int] = []
    spent: list[int] = []
    carries, stowed = _torpedoes(record)
    lost_states, spent_states = _ordnance("lost_states"), _ordnance("spent_states")
    for number, (kind, ident) in sources(record).items():
        if kind == GUN_SOURCE:
            gun = record.gun(ident)
            if gun.destroyed:
                lost.append(number)
            elif _launcher(gun.weapon_id) and carries and not stowed:
                spent.append(number)
            continue
        item = record.item(ident)
        if item.state in lost_states.get(item.weapon_id, ()):
            lost.append(number)
        elif item.state in spent_states.get(item.weapon_id, ()):
            spent.append(number)
    motive = str(TABLES.get("criticals", "motive_power_hit"))
    criticals = (motive,) * record.criticals.screw_mast_hits
    return Carried(crossed_in(record, panel), tuple(lost), tuple(spent), criticals)


def _launcher(weapon_id: str) -> bool:
    return weapon_id in conversion.TABLES.texts("guns", "smutts_launchers")


# --- the scenario -----------------------------------------------------------------------------------------------


def quality(word: str, otherwise: str = DEFAULT_QUALITY) -> str:
    """The campaign's word for a crew as a record's crew quality; an unknown one (a High Martian's) is ``otherwise``."""
    word = word.strip().casefold()
    return word if word in CREW_QUALITIES else otherwise


def record_panel(record: ShipRecord, crew_quality: str = "") -> ControlPanel:
    """Her panel: the conversion of her record with the campaign's crew quality (a Crack crew is Superior)."""
    return conversion.panel_from_record(replace(record, crew_quality=quality(crew_quality, record.crew_quality)))


def drawn_record(class_id: str, name: str, crew_quality: str) -> ShipRecord:
    return ship_record_from_class(class_id, name=name, crew_quality=quality(crew_quality))


def drawn_panel(ship: EncounterShip) -> ControlPanel:
    """A ship drawn from the tables: a fresh panel of her class; a High Martian crew flies, a flight for every two
    boarding parties, rounded up (scenario_bridge.py, CM-FLY-01)."""
    panel = conversion.panel_from_record(drawn_record(str(ship.class_id), ship.name, ship.crew_quality))
    if not ship.high_martian:
        return panel
    return replace(panel, flying_martians=math.ceil(panel.boarding_parties / HIGH_MARTIAN_PARTIES_A_FLIGHT))


def _entry(ship: EncounterShip, side: str) -> dict[str, Any]:
    if ship.record is None:
        record = drawn_record(str(ship.class_id), ship.name, ship.crew_quality)
        panel, damage = drawn_panel(ship), Carried()
    else:
        record = ShipRecord.from_json(read_object(ship.record))
        panel = record_panel(record, ship.crew_quality)
        damage = carried_in(record, panel)
    cruising = str(_scenario("cruising_band"))
    here = hexgrid.from_odd_q(*ship.position)
    ceiling = setup.carried(Ship.fresh(ship.name, side, panel, here, ship.facing, cruising), damage.to_json()).ceiling
    entry: dict[str, Any] = {
        "name": ship.name,
        "side": side,
        "panel": panel.to_json(),
        "hex": list(ship.position),
        "facing": ship.facing,
        # Medium, or her ceiling if her damage brought it lower (DESIGN.md 4.3, CM-ALT-01).
        "band": cruising if band_height(cruising) <= band_height(ceiling) else ceiling,
        # her men, so the outcome counts what her parties lost as crew_after kills them (company.py)
        "company": company.of_record(record).to_json(),
    }
    if damage.to_json():
        entry["damage"] = damage.to_json()
    return entry


def _side(side: EncounterSide) -> dict[str, Any]:
    tuning = {} if side.player else dict(TABLES.get("ai", "by_category").get(side.category, {}))
    running = TABLES.texts("ai", "running_roles")
    tuning[RUN] = [ship.name for ship in side.ships if ship.role in running]
    return {"key": side.key, "name": side.name, "ai": tuning}


def scenario_document(encounter: Encounter) -> dict[str, Any]:
    """The encounter as a Cloudships scenario (setup.py), its ships where the campaign placed them."""
    quiet = TABLES.texts("ai", "noncombatant_roles")
    return {
        "slug": encounter.slug,
        "title": encounter.title,
        "source": "Red Captain campaign encounter (SGC-ENC-15..21)",
        "clauses": ["SGC-ENC-19", "SGC-ENC-21"],
        "description": f"{encounter.description} The last side with a fighting ship flying wins.",
        "cols": _scenario("cols"),
        "rows": _scenario("rows"),
        "rounds": _scenario("rounds"),
        "dropped": [f"the wind ({encounter.wind}): Cloudships has none"],
        "sides": [_side(side) for side in encounter.sides],
        "ships": [_entry(ship, side.key) for side in encounter.sides for ship in side.ships],
        "victory": {
            "kind": victory.LAST_SIDE_FLYING,
            "round_limit_winner": None,
            victory.NONCOMBATANTS: [ship.name for side in encounter.sides for ship in side.ships if ship.role in quiet],
        },
    }


# --- back onto her record ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowCrossed:
    hulls: int  # Hull boxes crossed in the row
    done: bool  # the whole row, its band box too


def rows_crossed(panel: ControlPanel, crossed: int) -> tuple[RowCrossed, ...]:
    found, left = [], crossed
    for row in panel.track:
        found.append(RowCrossed(row[: max(left, 0)].count(panels.HULL), left >= len(row)))
        left -= len(row)
    return tuple(found)


def sg_boxes(hulls: int, band: Band, row_hulls: int) -> int:
    """``hulls`` Hull boxes of a track row as her SG boxes of its band, in proportion, a half rounded up."""
    return (2 * hulls * band.boxes + row_hulls) // (2 * row_hulls)


def hull_rows_after(record: ShipRecord, panel: ControlPanel, start: int, end: int) -> tuple[HullRow, ...]:
    """Her SG hull rows with the boxes crossed from ``start`` to ``end`` added: a band's box crossed fills its SG
    rows; otherwise the SG worth of the band's Hull boxes at the end less at the start, highest row first
    (SG-DMG-13), never more than a row holds."""
    rows = list(record.hull_rows)
    was, now = rows_crossed(panel, start), rows_crossed(panel, end)
    for band, row, before, after in zip(bands(record), panel.track, was, now, strict=True):
        hulls = row.count(panels.HULL)
        more = (
            band.boxes
            if after.done and not before.done
            else sg_boxes(after.hulls, band, hulls) - sg_boxes(before.hulls, band, hulls)
        )
        for index in band.rows:
            taken = min(max(more, 0), rows[index].left)
            rows[index] = replace(rows[index], hits=rows[index].hits + taken)
            more -= taken
    return tuple(rows)


def _lose(record: ShipRecord, source: Source) -> ShipRecord:
    kind, ident = source
    if kind == GUN_SOURCE:
        return record.with_gun(replace(record.gun(ident), destroyed=True))
    item = record.item(ident)
    state = _ordnance("lost_to").get(item.weapon_id)
    return record.with_items(replace(item, state=str(state))) if state else record


def _spend(record: ShipRecord, source: Source) -> ShipRecord:
    kind, ident = source
    if kind == GUN_SOURCE:  # a Smutts launcher: the first torpedo stowed is launched
        torpedo = _ordnance("torpedo")
        stowed = record.items_of(str(torpedo["item"]), states=(str(torpedo["ready"]),))
        return record.with_items(replace(stowed[0], state=str(torpedo["spent_to"]))) if stowed else record
    item = record.item(ident)
    state = _ordnance("spent_to").get(item.weapon_id)
    return record.with_items(replace(item, state=str(state))) if state else record


def guns_after(record: ShipRecord, final: Ship, start: Carried) -> ShipRecord:
    """Guns and systems lost in the battle destroyed; one-shot systems fired spent (CM-FIRE-12, CM-DMG-06)."""
    found = sources(record)
    for number in final.guns_lost:
        if number not in start.guns_lost:
            record = _lose(record, found[number])
    for number in final.spent:
        if number not in start.spent and number not in final.guns_lost:
            record = _spend(record, found[number])
    return record


def crew_after(record: ShipRecord, final: Ship) -> ShipRecord:
    """Her boarding parties lost (CM-AP-07, CM-BRD-11, CM-DMG-10) as men killed, from the posts in
    campaign.json's order: company.py's count, the outcome's ``crew_lost``."""
    crew = record.crew
    for post, men in company.of_record(record).killed(final.panel.boarding_parties, final.parties).items():
        crew = crew.with_count(post, crew.count(post) - men)
    return replace(record, crew=crew)


def criticals_after(record: ShipRecord, final: Ship, start: Carried) -> ShipRecord:
    motive = str(TABLES.get("criticals", "motive_power_hit"))
    more = final.criticals.count(motive) - start.criticals.count(motive)
    if more <= 0:
        return record
    return replace(record, criticals=replace(record.criticals, screw_mast_hits=record.criticals.screw_mast_hits + more))


def _sg_record(before: JSON) -> ShipRecord | None:
    """Her campaign record before the battle, if ``before`` is one (a prize just taken has her battle entry)."""
    if isinstance(before, dict) and "hull_rows" in before:
        return ShipRecord.from_json(before)
    return None


def campaign_record(ship: ShipOutcome, before: JSON, crew_quality: str = "") -> ShipRecord | None:
    """Her campaign record after the battle: the record she came in with (a fresh one of her class for a ship new
    to the campaign: a prize taken), with what the battle did laid on it. None when the outcome keeps no record."""
    if ship.record is None:
        return None
    final = Ship.from_json(read_object(ship.record))
    was = _sg_record(before)
    if was is None:
        if ship.class_id is None:
            return None
        was = drawn_record(ship.class_id, ship.name, crew_quality)
    start = carried_in(was, final.panel)
    record = replace(was, hull_rows=hull_rows_after(was, final.panel, start.crossed, final.crossed))
    record = criticals_after(crew_after(guns_after(record, final, start), final), final, start)
    return replace(record, name=ship.name, crew_quality=quality(crew_quality, record.crew_quality))


class CloudshipsBridge:
    """The campaign bridge of Cloudships of Mars: the campaign's Sky Galleons ship as a control panel and back."""

    ruleset = KEY

    def scenario(self, encounter: Encounter) -> JSONObject:
        document: JSONObject = scenario_document(encounter)
        return document

    def record_after(self, ship: ShipOutcome, before: JSON, *, crew_quality: str = "") -> JSON:
        record = campaign_record(ship, before, crew_quality)
        return None if record is None else record.to_json()


BRIDGE = CloudshipsBridge()
