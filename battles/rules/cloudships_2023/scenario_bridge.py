"""The seven Sky Galleons scenarios as Cloudships of Mars scenarios: the stated conversion (docs/cloudships.md
section 12). Ruleset packages never import each other, so the Sky Galleons scenario files are read as data (their
path); the translations are written once into ``scenarios/`` (``python -m
battles.rules.cloudships_2023.scenario_bridge``) and a test keeps the files equal to what :func:`translate` gives.

What carries over, and how:

- the forces: every ship of every side, by name, her catalog class turned into its control panel as
  data/panels.json holds it (conversion.py); a Crack crew is a Superior crew (CM-SUP, conversion.superior), the
  panel then written out whole; a High Martian crew flies (SG-HM-01/02): her ship carries a flight of Flying
  Martians for every two boarding parties, rounded up; a side's flying parties (the Great Raid's warbands) go
  aboard its ships as flights too, one flight a party, dealt round the ships in order (CM-FLY-01: the scenario
  fits the flights);
- the map: its size (a ``base`` map's, read from its file); its terrain, zones and cities are left out (Cloudships
  has no ground but the Ground band);
- positions and facings as they are (the same odd-q hexes, 0 north clockwise); altitudes folded into bands
  (conversion.band_of: VH and H High, M Medium, L and VL Low), never above the ship's ceiling; a landed ship
  starts at Low, the lowest band a ship flies in (CM-ALT-01);
- the sides and their names, in the same order, and a side's AI ``caution`` (the same weight in both captains);
- the turn limit as the round limit (an SG turn and a CM round each move every ship once);
- the victory conditions as the Cloudships kinds of victory.py: ``last_flying`` and ``last_in_the_air`` the last
  side flying; ``escape`` and ``withdraw_at_half`` their own kinds; ``seize_and_carry_off`` ``capture`` (the prize
  striking to the ship's side's boarders is the seizure: Cloudships carries no passenger across); ``bombardment``
  and ``rescue``, whose ground targets and landing party Cloudships has not, the last side flying: the defenders
  beaten, the city or the kraag lies open; the turn limit's winner stays the round limit's winner;
- left out, each named in the scenario's ``dropped``: ground batteries, tether mines on the ground, the neutral
  zone, reinforcements, the landing party, the crack-crew choice's marines' arms, wind, AI hints but caution;
  where leaving the defences out made the battle one-sided, ships of the scenario's own classes stand in for
  them (``STAND_INS``, each with its reason), named in ``stand_ins``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battles.rules.cloudships_2023 import conversion, panels
from battles.rules.cloudships_2023.panels import ControlPanel
from battles.rules.cloudships_2023.victory import CAPTURE, ESCAPE, LAST_SIDE_FLYING, WITHDRAW_AT_HALF
from galleons import catalog

PACKAGE_DIR = Path(__file__).resolve().parent
# Beside the package's own scenarios: the app offers them all (ruleset.example_scenarios reads scenarios/*.json).
SCENARIOS_DIR = PACKAGE_DIR / "scenarios"
SKY_GALLEONS = PACKAGE_DIR.parent / "sky_galleons"  # read as data only: the import contract
SG_SCENARIOS = SKY_GALLEONS / "scenarios"
SG_MAPS = SKY_GALLEONS / "maps"
SLUGS = (  # the book's order, Scenario 1 to 7
    "thieves-fall-out",
    "john-bulls-tyranny",
    "diplomatic-incident",
    "slash-and-run",
    "hearts-of-oak",
    "the-great-raid",
    "pitched-battle",
)
PREFIX = "sg-"  # a translated scenario's slug and file: the Sky Galleons slug after it
VICTORY = {  # SG victory kind -> the Cloudships kind and the parameters it keeps
    "last_flying": (LAST_SIDE_FLYING, ()),
    "last_in_the_air": (LAST_SIDE_FLYING, ()),
    "escape": (ESCAPE, ("ship", "pursuer")),
    "seize_and_carry_off": (CAPTURE, ("ship", "prize")),
    "withdraw_at_half": (WITHDRAW_AT_HALF, ("flagship",)),
    "bombardment": (LAST_SIDE_FLYING, ()),
    "rescue": (LAST_SIDE_FLYING, ()),
}
DROPPED_KEYS = {  # what a side or the scenario may hold that Cloudships has no piece for
    "batteries": "ground batteries",
    "tether_mines": "tether mines on the ground",
    "ground_targets": "ground targets (the bombardment is read as the defenders beaten)",
}
LANDED_BAND = panels.LOW
AI_TUNING = ("caution",)  # a side's SG AI hints the Cloudships captain reads the same way
HIGH_MARTIAN_PARTIES_A_FLIGHT = 2
ROUND_LIMITS: dict[str, int] = {}  # slug -> a round limit other than the SG turn limit, each with its reason
# Ground defences Cloudships has no piece for, stood in for by ships of the scenario's own reinforcement classes,
# landed where the defences stood (entries as the SG scenario writes its ships). Slash and Run: the six batteries
# (four rod guns, two lob guns) and four tether bombs of Shastapsh are seven guns in an Endtime and a Bloodrunner,
# the first two ships SG-SCN-24 sends; without them one Reliant beat the three defenders in 198 of 200 battles.
# The Great Raid: each of the kraag's four armored Rogue batteries is a Small Bird, the kraag's own galley, landed
# where the battery stood (the ten mines stay out); without them the two gunboats beat the two galleys in 200 of
# 200 (docs/cloudships.md section 12).
STAND_INS: dict[str, dict[str, list[dict[str, Any]]]] = {
    "slash-and-run": {
        "martians": [
            {"name": "Endtime 3", "class": "Endtime", "position": [18, 11], "facing": 5, "landed": True},
            {"name": "Bloodrunner 2", "class": "Bloodrunner", "position": [19, 11], "facing": 0, "landed": True},
        ]
    },
    "the-great-raid": {
        "high_martians": [
            {"name": f"Rogue {n} (Small Bird)", "class": "Small Bird", "position": at, "facing": 0, "landed": True}
            for n, at in ((1, [15, 10]), (2, [16, 11]), (3, [15, 12]), (4, [14, 12]))
        ]
    },
}


def sg_scenario(slug: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SG_SCENARIOS / f"{slug}.json").read_text(encoding="utf-8"))
    return data


def map_size(sg: Mapping[str, Any]) -> tuple[int, int]:
    found = sg.get("map", {})
    if "base" in found:
        found = json.loads((SG_MAPS / f"{found['base']}.json").read_text(encoding="utf-8"))
    return int(found.get("cols", 30)), int(found.get("rows", 22))


def panel_of(class_name: str) -> ControlPanel:
    class_id = catalog.ship_class(class_name).id
    return next(panel for panel in conversion.stored_panels() if panel.class_id == class_id)


def crack_ship(sg: Mapping[str, Any]) -> str | None:
    """The ship the crack-crew choice falls on by default (SG-SCN-44/45)."""
    return next((str(rule["default"]) for rule in _rules(sg) if rule.get("rule") == "crack_crew_choice"), None)


def _rules(sg: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [rule for rule in sg.get("special_rules", []) if isinstance(rule, dict)]


def superior(sg: Mapping[str, Any], side: Mapping[str, Any], ship: Mapping[str, Any]) -> bool:
    """A Crack crew, the ship's own, her side's or the scenario's (a High Martian crew is Green: SG-HM-07)."""
    if ship.get("name") == crack_ship(sg):
        return True
    quality = ship.get("crew_quality") or side.get("crew_quality") or sg.get("crew_quality", "trained")
    return bool(quality in conversion.TABLES.texts("crew_quality", "superior"))


def band_of_level(level: str) -> str:
    return conversion.band_of(level)


def band_for(ship: Mapping[str, Any], panel: ControlPanel) -> str:
    if ship.get("landed"):
        return LANDED_BAND
    band = band_of_level(str(ship.get("altitude", "M")))
    bands = panels.BANDS
    return band if bands.index(band) <= bands.index(panel.ceiling) else panel.ceiling


def high_martian_flights(side: Mapping[str, Any], ship: Mapping[str, Any], panel: ControlPanel) -> int:
    """A High Martian crew flies (SG-HM-01/02): one flight of Flying Martians for every two of her boarding
    parties, rounded up, fitted by the scenario (CM-FLY-01)."""
    if not ship.get("high_martian", side.get("high_martian", False)):
        return 0
    return -(-panel.boarding_parties // HIGH_MARTIAN_PARTIES_A_FLIGHT)


def ship_entries(sg: Mapping[str, Any], side: Mapping[str, Any]) -> list[dict[str, Any]]:
    ships = [*side["ships"], *STAND_INS.get(str(sg["slug"]), {}).get(str(side["id"]), [])]
    flights = [high_martian_flights(side, ship, panel_of(str(ship["class"]))) for ship in ships]
    for number, _ in enumerate(side.get("flying_parties", [])):
        flights[number % len(ships)] += 1
    entries = []
    for ship, aboard in zip(ships, flights, strict=True):
        panel = panel_of(str(ship["class"]))
        entry: dict[str, Any] = {"name": ship["name"], "side": side["id"]}
        if superior(sg, side, ship) or aboard:
            changed = {**panel.to_json(), "superior": superior(sg, side, ship), "flying_martians": aboard}
            entry["panel"] = changed
        else:
            entry["class"] = panel.class_id
        col, row = ship["position"]
        entry.update({"hex": [col, row], "facing": int(ship.get("facing", 0)), "band": band_for(ship, panel)})
        entries.append(entry)
    return entries


def side_entry(side: Mapping[str, Any]) -> dict[str, Any]:
    """The side's key and name, and the AI tuning both captains read alike: ``caution``, how much the enemy's
    guns weigh against her own (0.5 by default in both: SG's ai_reading.CAUTION, CM's tactics.CAUTION)."""
    entry: dict[str, Any] = {"key": side["id"], "name": side["name"]}
    tuning = {key: side["ai"][key] for key in AI_TUNING if key in side.get("ai", {})}
    if tuning:
        entry["ai"] = tuning
    return entry


def victory_of(sg: Mapping[str, Any]) -> dict[str, Any]:
    found = sg.get("victory", {})
    kind, keys = VICTORY[str(found.get("kind", "last_flying"))]
    return {"kind": kind, **{key: found[key] for key in keys}, "round_limit_winner": found.get("turn_limit_winner")}


def dropped(sg: Mapping[str, Any]) -> list[str]:
    """What the translation leaves out, in words."""
    found = [f"special rule {rule if isinstance(rule, str) else rule['rule']}" for rule in sg.get("special_rules", [])]
    for side in sg["sides"]:
        found += [f"{side['id']}: {words}" for key, words in DROPPED_KEYS.items() if side.get(key)]
    if sg.get("map", {}).get("base") or sg.get("map", {}).get("terrain"):
        found.append("the map's terrain, zones and cities")
    if sg.get("wind") is not None:
        found.append("the wind")
    return found


def translate(sg: Mapping[str, Any]) -> dict[str, Any]:
    """A Sky Galleons scenario (its JSON) as a Cloudships scenario (setup.py reads it)."""
    cols, rows = map_size(sg)
    slug = str(sg["slug"])
    return {
        "slug": PREFIX + slug,
        "title": f"{sg['title']} (from Sky Galleons)",
        "source": f"{sg['source']}, translated by scenario_bridge.py (docs/cloudships.md section 12)",
        "description": sg.get("description", ""),
        "cols": cols,
        "rows": rows,
        "rounds": ROUND_LIMITS.get(slug, int(sg.get("turn_limit", 40))),
        "sides": [side_entry(side) for side in sg["sides"]],
        "ships": [entry for side in sg["sides"] for entry in ship_entries(sg, side)],
        "victory": victory_of(sg),
        "dropped": dropped(sg),
        "stand_ins": [str(ship["name"]) for ships in STAND_INS.get(slug, {}).values() for ship in ships],
    }


def translated_json(slug: str) -> str:
    return json.dumps(translate(sg_scenario(slug)), indent=1) + "\n"


def path_for(slug: str) -> Path:
    return SCENARIOS_DIR / f"{PREFIX}{slug}.json"


def write(slugs: Sequence[str] = SLUGS) -> None:
    for slug in slugs:
        path_for(slug).write_text(translated_json(slug), encoding="utf-8")


if __name__ == "__main__":
    write()
