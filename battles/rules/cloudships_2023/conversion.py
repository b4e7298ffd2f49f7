"""From the campaign's Sky Galleons ship to a Cloudships of Mars control panel (DESIGN.md 3b: other rulesets
convert from the canonical ship, stated and tested).

The input is a ``galleons.record.ShipRecord`` as built (a catalog class through ``ship_record_from_class``, or
a design through ``ship_record_from_design``), so catalog ships and captains' own designs convert alike. Each
rule is one function below, saying which CM clause it serves and which SG figure it reads; its figures are in
``data/conversion.json`` and its reasons in docs/cloudships.md. A record's battle damage is not read: carrying
damage between the two games is the campaign bridge's business, a later step.

``data/panels.json`` holds the panel of every catalog class with figures; it is what :func:`catalog_panels`
gives (a test keeps the two equal). Rewrite it with
``python -m battles.rules.cloudships_2023.conversion``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.engine.jsonread import DataFile
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.panels import ControlPanel, Gun
from galleons import catalog
from galleons.catalog import Weapon
from galleons.record import Ordnance, ShipRecord, ship_record_from_class

DATA_DIR = Path(__file__).resolve().parent / "data"
TABLES = DataFile(DATA_DIR / "conversion.json")
PANELS_FILE = DATA_DIR / "panels.json"


# --- the ship -------------------------------------------------------------------------------------------


def band_of(sg_level: str) -> str:
    """The CM band an SG altitude level folds into: Very High and High are High, Low and Very Low are Low
    (CM-ALT-01: four bands, Ground among them; SG has five flying levels)."""
    return read_str_map("bands", "from_sg_level")[sg_level]


def ceiling(record: ShipRecord) -> str:
    """The highest band the ship can fly at: the band of her top SG hull row (SG-DMG-11, SGD-ALT)."""
    return band_of(record.hull_rows[0].altitude)


def motive(record: ShipRecord) -> str:
    """Steam ship, screw galley or kite: the SG propulsion, which CM's movement rules turn on (CM-PT-01/06/09,
    CM-MOV-12)."""
    return read_str_map("motive", "from_sg_propulsion")[record.propulsion]


def movement(record: ShipRecord) -> int | None:
    """The SG speed as the CM movement value (CM-MOV-01: usually 3 to 6; the catalog's speeds are 2 to 8, most
    3 to 6, and both games move a hex a point); None for a kite, which rolls (CM-MOV-12)."""
    return record.speed if isinstance(record.speed, int) else None


def superior(record: ShipRecord) -> bool:
    """A Crack SG crew is a Superior crew (CM-SUP-01..07); Trained and Green are ordinary."""
    return record.crew_quality in TABLES.texts("crew_quality", "superior")


def ram_value(hull_size: int, fitted: bool) -> int:
    """Ram value (CM-RAM-05, CM-COL-03): with a ram, half the hull size rounded up, the hull hits an SG ram deals
    (SG-RAM-11/15); without, one plus one per full six of hull size beyond six, the SG collision damage
    (SG-COL-06/07)."""
    if fitted:
        return math.ceil(hull_size / TABLES.whole("ram", "fitted_divisor"))
    step = TABLES.whole("ram", "unfitted_step")
    return 1 + max(hull_size - step, 0) // step


def fighting_men(record: ShipRecord) -> int:
    """The men who fight a boarding action, in seamen: deckhands and extra petty officers, and the marines on
    deck (at most five per hull size, SG-ERR-03) counting double, as a marine kills on 5-6 where a seaman needs
    a 6 (SG-BRD-12/14)."""
    crew = record.crew
    on_deck = min(
        crew.marines + crew.marine_officers,
        TABLES.whole("boarding", "marines_on_deck_per_hull_size") * record.hull_size,
    )
    return crew.deckhands + crew.petty_officers + TABLES.whole("boarding", "marine_worth") * on_deck


def boarding_parties(record: ShipRecord) -> int:
    """Boarding parties, the panel's blue squares (CM-DMG-10, CM-REP-04): one per ten fighting men, a part
    party counting, and never fewer than one."""
    parties = math.ceil(fighting_men(record) / TABLES.whole("boarding", "men_per_party"))
    return max(parties, TABLES.whole("boarding", "least_parties"))


def power_grapnel(record: ShipRecord) -> bool:
    """A power grapnel is a panel fitting, not a gun (CM-PG-03)."""
    return any(gun.weapon_id in TABLES.texts("guns", "not_guns") for gun in record.guns)


# --- guns -----------------------------------------------------------------------------------------------


def is_anti_personnel(weapon: Weapon) -> bool:
    """Machineguns (Nordenfelts, Gatlings, Maxims, the mitrailleuse) and the Martian sweeper are CM's
    anti-personnel weapons (CM-AP-01; the text counts Gatlings among them, CM-BRD-16)."""
    return weapon.category in TABLES.texts("guns", "anti_personnel_categories") or weapon.personnel_only


def main_gun_damage(weapon: Weapon) -> int:
    """Points per hit (CM-FIRE-10): SG damage value plus SG close penetration, the long one where the gun has
    no close range. CM has no armor roll, so hitting power folds both in; it gives the text's own figures, 4
    for a 4-inch short and 1 a shell for a 1-pdr (CM-MAG-03/04)."""
    damage = weapon.damage_value if isinstance(weapon.damage_value, int) else 0
    bands = weapon.penetration
    pierce = 0 if bands is None else (bands.close if bands.close is not None else bands.long or 0)
    return damage + pierce


def main_gun_dice(weapon: Weapon) -> int:
    """Dice a turn (CM-FIRE-06): the SG shots a turn; one for a gun that fires and then reloads, as every CM gun
    fires once a turn (CM-FIRE-01)."""
    rate = weapon.rate_of_fire
    return rate.shots if rate is not None and rate.shots is not None else 1


def anti_personnel_dice(weapon: Weapon) -> int:
    """Dice a turn (CM-AP-01: 4, 5 or 6): the SG rate, its maximum for a jam-prone machinegun (CM has no jams),
    held within 4 to 6. A Nordenfelt rolls 5 (CM-MAG-05, CM-FLY-13)."""
    rate = weapon.rate_of_fire
    shots = 0 if rate is None else rate.shots or rate.maximum or rate.normal or 0
    least, most = (
        TABLES.whole("guns", "anti_personnel_dice", "least"),
        TABLES.whole("guns", "anti_personnel_dice", "most"),
    )
    return min(max(shots, least), most)


def position_of(mount: str) -> str:
    """Where on the ship an SG mount sits, in the words of the panel's clockwise numbering (CM-GUN-01)."""
    return read_str_map("positions", "from_mount")[mount]


def _range(weapon: Weapon) -> tuple[int | None, int | None]:
    bands = weapon.range_hexes
    return (None, None) if bands is None else (bands.close, bands.long)


def gun_from_record(weapon_id: str, mount: str, arcs: Sequence[str]) -> Gun | None:
    """A record's gun on the panel, or None for a fitting that is no gun (the power grapnel, CM-PG-03).

    Main guns keep the SG ranges in hexes (CM-FIRE-04); anti-personnel guns score crew hits, no damage
    (CM-AP-06); a Smutts discharger is the torpedo launcher (CM-SMT-08, 1d6+2)."""
    if weapon_id in TABLES.texts("guns", "not_guns"):
        return None
    weapon = catalog.weapon(weapon_id)
    place, arc = position_of(mount), tuple(arcs)
    if weapon_id in TABLES.texts("guns", "smutts_launchers"):
        roll = str(TABLES.get("ordnance", "smutts_roll"))
        return Gun(0, weapon.name, panels.SMUTTS, place, arc, None, None, 1, None, roll, None, weapon_id)
    short, long = _range(weapon)
    if is_anti_personnel(weapon):
        return Gun(
            0,
            weapon.name,
            panels.ANTI_PERSONNEL,
            place,
            arc,
            short,
            long,
            anti_personnel_dice(weapon),
            None,
            None,
            None,
            weapon_id,
        )
    return Gun(
        0,
        weapon.name,
        panels.MAIN,
        place,
        arc,
        short,
        long,
        main_gun_dice(weapon),
        main_gun_damage(weapon),
        None,
        None,
        weapon_id,
    )


def gun_from_ordnance(item: Ordnance) -> Gun | None:
    """An exotic item as a gun system (CM-GUN-06), or None for what CM cannot fire: a spare bomb load or
    Smutts torpedo (one-shot weapons are never reloaded, CM-BOMB-05, CM-SMT-11) or an empty rack.

    A Hale battery is a rocket battery keeping its side and angle (CM-RKT-01); a liquid fire rack or spike
    dropper counts as bombs, CM's nearest system (dropped on the hex below, 1d6, CM-BOMB-01/02)."""
    kinds: Mapping[str, Any] = TABLES.get("ordnance", "kinds")
    kind = kinds.get(item.weapon_id)
    if kind is None or kind.get("only_state", item.state) != item.state:
        return None
    name = catalog.weapon(item.weapon_id).name
    side = item.aspect
    place, arcs = (side, (side,)) if side is not None else (position_of("amidships"), ())
    return Gun(
        0, name, str(kind["kind"]), place, arcs, None, None, 1, None, str(kind["roll"]), item.angle, item.weapon_id
    )


def number_guns(guns: Sequence[Gun]) -> tuple[Gun, ...]:
    """Number the guns from the bow going clockwise, 1, 2, 3... (CM-GUN-01); a position's guns keep their
    order, the record's guns before its ordnance."""
    order = TABLES.texts("positions", "order")
    ranked = sorted(enumerate(guns), key=lambda pair: (order.index(pair[1].position), pair[0]))
    return tuple(_numbered(gun, number) for number, (_, gun) in enumerate(ranked, start=1))


def _numbered(gun: Gun, number: int) -> Gun:
    return Gun(number, *(getattr(gun, key) for key in Gun.KEYS[1:]))


def panel_guns(record: ShipRecord) -> tuple[Gun, ...]:
    """Every gun system aboard, numbered (CM-GUN-01/06)."""
    return tuple(gun for gun, _ in sourced_guns(record))


# Where a panel's gun comes from on the record: one of her guns (by id) or an ordnance item (by id).
GUN_SOURCE, ITEM_SOURCE = "gun", "item"
Source = tuple[str, str]


def sourced_guns(record: ShipRecord) -> tuple[tuple[Gun, Source], ...]:
    """Every gun system aboard, numbered (CM-GUN-01/06), each with the record's gun or item it stands for: the
    campaign bridge (campaign.py) carries damage across by it."""
    found: list[tuple[Gun, Source]] = []
    for gun in record.guns:
        made = gun_from_record(gun.weapon_id, gun.mount, gun.arcs)
        if made is not None:
            found.append((made, (GUN_SOURCE, gun.id)))
    for item in record.ordnance:
        made = gun_from_ordnance(item)
        if made is not None:
            found.append((made, (ITEM_SOURCE, item.id)))
    numbered = number_guns([gun for gun, _ in found])
    order = TABLES.texts("positions", "order")
    ranked = sorted(range(len(found)), key=lambda n: (order.index(found[n][0].position), n))
    return tuple((gun, found[n][1]) for gun, n in zip(numbered, ranked, strict=True))


# --- the damage track -----------------------------------------------------------------------------------


def hull_boxes(record: ShipRecord) -> dict[str, int]:
    """Hull boxes per band, ceiling first: the SG hull boxes of the levels folding into it (SG-DMG-11) plus the
    armor value, as CM makes no armor roll (CM-DMG-02)."""
    boxes: dict[str, int] = {}
    for row in record.hull_rows:
        band = band_of(row.altitude)
        boxes[band] = boxes.get(band, record.armor) + row.boxes
    return boxes


def track_row(hulls: int, band_below: str, cycle: Sequence[str], start: int) -> tuple[str, ...]:
    """One row: a system box after every second hull box, taken from ``cycle`` at ``start`` on, and the band
    below's box at the end (CM-DMG-01/07/08)."""
    per = TABLES.whole("track", "hull_boxes_per_system_box")
    row: list[str] = []
    for n in range(1, hulls + 1):
        row.append(panels.HULL)
        if n % per == 0:
            row.append(cycle[(start + n // per - 1) % len(cycle)])
    return (*row, band_below)


def damage_track(record: ShipRecord) -> tuple[tuple[str, ...], ...]:
    """The track, top row first: one row per band from the ceiling down to Low; the last row ends in Ground, the
    crash (CM-DMG-01/02, CM-ALT-02). The system boxes carry their cycle on from row to row."""
    return track_of(hull_boxes(record))


def track_of(hulls_by_band: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """The track of rows with so many hull boxes, by band from the ceiling down (an umpire's edit reads it too)."""
    cycle = TABLES.texts("track", "system_cycle")
    per = TABLES.whole("track", "hull_boxes_per_system_box")
    rows, start = [], 0
    for band, hulls in hulls_by_band.items():
        below = panels.BANDS[panels.BANDS.index(band) - 1]
        rows.append(track_row(hulls, below, cycle, start))
        start += hulls // per
    return tuple(rows)


# --- the charts -----------------------------------------------------------------------------------------


def crew_chart(parties: int, men: int) -> tuple[int, ...]:
    """The anti-personnel chart (CM-AP-07): the hits that cost the first, second... boarding party. Two hits are
    shrugged off, as a flight shrugs them off (CM-FLY-15); then a party per step, one hit per twenty men
    aboard, rounded up."""
    off = TABLES.whole("crew_chart", "shrugged_off")
    step = max(math.ceil(men / TABLES.whole("crew_chart", "men_per_step")), 1)
    return tuple(off + lost * step for lost in range(1, parties + 1))


def critical_chart(kinds: Collection[str]) -> tuple[str, ...]:
    """The two-dice critical chart, rolls 2 to 12 (CM-DMG-11): SG's table in CM's words; each special system
    fitted (rockets, bombs, torpedoes, mines, drogues) takes its own point (CM-MAG-07, CM-BOMB-04, CM-SMT-10,
    CM-TM-11, CM-DT-06) in place of a duplicated entry."""
    chart: dict[str, str] = dict(read_str_map("criticals", "chart"))
    names = read_str_map("criticals", "special_names")
    specials = [names[kind] for kind in panels.GUN_KINDS if kind in kinds and kind in names]
    for point, name in zip(TABLES.texts("criticals", "special_points"), specials, strict=False):
        chart[point] = name
    return tuple(chart[str(roll)] for roll in range(2, 13))


# --- the panel ------------------------------------------------------------------------------------------


def panel_from_record(record: ShipRecord) -> ControlPanel:
    """The control panel of a Sky Galleons ship as built (CM-SEQ-01)."""
    guns = panel_guns(record)
    parties = boarding_parties(record)
    return ControlPanel(
        name=record.class_name,
        class_id=record.class_id,
        motive=motive(record),
        movement=movement(record),
        ceiling=ceiling(record),
        boarding_parties=parties,
        flying_martians=0,
        power_grapnel=power_grapnel(record),
        superior=superior(record),
        ram=ram_value(record.hull_size, record.ram),
        guns=guns,
        track=damage_track(record),
        crew_chart=crew_chart(parties, record.men_alive),
        criticals=critical_chart({gun.kind for gun in guns}),
        vulnerable_magazine=False,
        lights=panels.all_green(),
    )


def catalog_panels() -> tuple[ControlPanel, ...]:
    """The panel of every catalog class with figures, in catalog order (a name-only class has none)."""
    return tuple(
        panel_from_record(ship_record_from_class(ship, name=ship.name))
        for ship in catalog.ship_classes()
        if ship.crew is not None and ship.max_altitude is not None and ship.speed is not None
    )


def panels_json() -> str:
    """``data/panels.json`` as it should read."""
    return json.dumps({"panels": [panel.to_json() for panel in catalog_panels()]}, indent=1) + "\n"


def stored_panels() -> tuple[ControlPanel, ...]:
    """The panels as ``data/panels.json`` holds them."""
    data = json.loads(PANELS_FILE.read_text(encoding="utf-8"))
    return tuple(ControlPanel.from_json(panel) for panel in data["panels"])


def read_str_map(*path: str) -> Mapping[str, str]:
    value = TABLES.get(*path)
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise TypeError(f"conversion.json {'/'.join(path)}: expected a map of text")
    return value


if __name__ == "__main__":
    PANELS_FILE.write_text(panels_json(), encoding="utf-8")
