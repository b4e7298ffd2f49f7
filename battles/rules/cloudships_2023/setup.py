"""Setting a battle up from a scenario (data, scenarios/*.json): the map's size, the round limit, the sides and
their names and AI tuning (``ai``), the victory conditions (victory.py), each ship placed from her panel: a
catalog class's (data/panels.json, by ``class``) or one given whole (``panel``), at a hex (the map's ``[column,
row]``), a facing (0 north, clockwise) and a band no higher than her ceiling (CM-ALT-01)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.rules.cloudships_2023 import conversion, panels, victory
from battles.rules.cloudships_2023.board import Board, Ship, band_height
from battles.rules.cloudships_2023.company import Company
from battles.rules.cloudships_2023.kinds import DEFAULT_ROUNDS
from battles.rules.cloudships_2023.panels import ControlPanel


@cache
def catalog() -> Mapping[str, ControlPanel]:
    """The stored panel of every catalog class, by class id."""
    return {panel.class_id: panel for panel in conversion.stored_panels() if panel.class_id is not None}


def panel_for(entry: Mapping[str, Any]) -> ControlPanel:
    if "panel" in entry:
        return ControlPanel.from_json(entry["panel"])
    class_id = read_str(entry["class"])
    if class_id not in catalog():
        raise ValueError(f"no control panel for the class {class_id!r}")
    return catalog()[class_id]


def place(entry: Mapping[str, Any]) -> Ship:
    panel = panel_for(entry)
    band = read_str(entry.get("band", panels.MEDIUM))
    col, row = read_list(entry["hex"])
    ship = carried(
        Ship.fresh(
            name=read_str(entry["name"]),
            side=read_str(entry["side"]),
            panel=panel,
            hex_=hexgrid.from_odd_q(read_int(col), read_int(row)),
            facing=read_int(entry.get("facing", 0)),
            band=band,
        ),
        read_object(entry.get("damage", {})),
    )
    if "company" in entry:  # her men, from the campaign's record (campaign.py): the outcome counts them
        ship = replace(ship, company=Company.from_json(read_object(entry["company"])))
    if band not in panels.BANDS[1:] or band_height(band) > band_height(ship.ceiling):
        raise ValueError(f"{ship.name}: starts at {band!r}, a band between Low and her ceiling {ship.ceiling}")
    return ship


DAMAGE_KEYS = ("crossed", "guns_lost", "spent", "criticals")


def carried(ship: Ship, damage: Mapping[str, JSON]) -> Ship:
    """The damage she brings into the battle (a campaign's ship: campaign.py): boxes already crossed on her track
    (short of Ground), guns already lost or spent, permanent criticals; nothing for a ship as built."""
    if not damage:
        return ship
    unknown = sorted(set(damage) - set(DAMAGE_KEYS))
    if unknown:
        raise ValueError(f"{ship.name}: her damage carried in is {', '.join(DAMAGE_KEYS)}, not {', '.join(unknown)}")
    crossed = read_int(damage.get("crossed", 0))
    if not 0 <= crossed < ship.panel.track_length:
        raise ValueError(f"{ship.name}: {crossed} boxes crossed of her {ship.panel.track_length} (Ground is a crash)")
    numbers = {gun.number for gun in ship.panel.guns}
    lost, spent = _numbers(damage.get("guns_lost", [])), _numbers(damage.get("spent", []))
    if not set(lost) | set(spent) <= numbers:
        raise ValueError(f"{ship.name}: guns lost {list(lost)} or spent {list(spent)} are not her guns")
    criticals = tuple(read_str(item) for item in read_list(damage.get("criticals", [])))
    if not set(criticals) <= set(ship.panel.criticals):
        raise ValueError(f"{ship.name}: criticals {list(criticals)} are not on her chart")
    return replace(ship, crossed=crossed, guns_lost=lost, spent=spent, criticals=criticals)


def _numbers(value: JSON) -> tuple[int, ...]:
    found = tuple(read_int(item) for item in read_list(value))
    if len(set(found)) != len(found):
        raise ValueError(f"a gun named twice in {list(found)}")
    return found


def victory_of(scenario: Mapping[str, JSON], ships: tuple[Ship, ...]) -> dict[str, JSON]:
    """The scenario's victory conditions (victory.py), checked: a kind known, its ships in the battle."""
    found = dict(read_object(scenario.get("victory", {})))
    kind = read_str(found.get("kind", victory.LAST_SIDE_FLYING))
    if kind not in victory.KINDS:
        raise ValueError(f"the victory kinds are {', '.join(victory.KINDS)}, not {kind!r}")
    names = {ship.name for ship in ships}
    for key in victory.PARAMETERS[kind]:
        if read_str(found.get(key, "")) not in names:
            raise ValueError(f"the {kind} victory names no ship of the battle as its {key}")
    if not {read_str(name) for name in read_list(found.get(victory.NONCOMBATANTS, []))} <= names:
        raise ValueError("the victory's noncombatants are not all ships of the battle")
    return found


def board_from_scenario(scenario: Mapping[str, JSON]) -> Board:
    sides = [read_object(side) for side in read_list(scenario["sides"])]
    ships = tuple(place(read_object(entry)) for entry in read_list(scenario["ships"]))
    names = [ship.name for ship in ships]
    if len(set(names)) != len(names):
        raise ValueError("every ship in a battle needs a name of her own: the deck has a card for each")
    board = Board(
        title=read_str(scenario.get("title", "")),
        cols=read_int(scenario.get("cols", 30)),
        rows=read_int(scenario.get("rows", 22)),
        rounds=read_int(scenario.get("rounds", DEFAULT_ROUNDS)),
        ships=ships,
        side_names={read_str(side["key"]): read_str(side.get("name", side["key"])) for side in sides},
        victory=victory_of(scenario, ships),
        captains={read_str(side["key"]): read_object(side["ai"]) for side in sides if "ai" in side},
    )
    strays = sorted({ship.side for ship in ships} - set(board.side_names))
    if strays:
        raise ValueError(f"ships on sides the scenario does not list: {', '.join(strays)}")
    if not all(board.on_map(ship.hex) for ship in ships):
        raise ValueError("every ship starts on the map")
    return board
