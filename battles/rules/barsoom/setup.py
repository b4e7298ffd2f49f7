"""A battle's board from a scenario: the map, the sides and each ship by fleet entry or by class, with her hex,
facing, level and crew (docs/barsoom.md section 9). No dice here: the bombs a ship carries are rolled at the start
of the first ``advance`` (phases/turn.py), so the log holds them.

A scenario's ship: ``{"name", "side", "fleet": a fleet-list name | "class": capital/medium/small, "hex": [column,
row], "facing": 0-5, "level": 1-ceiling, "crew": {"men", "helm"} (optional), "guns": {"heavy", "medium", "light"}
(optional, a class ship's guns), "weapons": {"heavy": a weapon's name, ...} (optional)}``. A scenario's
``"victory"`` (optional) lists its story goals (goals.py, victory.py), checked here against its sides and ships.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.jsonread import DataFile, read_int, read_list, read_object, read_str
from battles.rules.barsoom import crew, goals, scale, ships
from battles.rules.barsoom.battle import Aboard, Battle, Gun
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.crew import Crew
from battles.rules.barsoom.damage import Condition
from battles.rules.barsoom.ships import Guns, Vessel

ARMAMENT = DataFile(Path(__file__).resolve().parent / "data" / "armament.json")


def battle(scenario: Mapping[str, JSON]) -> tuple[tuple[str, ...], Battle]:
    """The sides in the scenario's order and the board before any die is cast."""
    sides = [read_object(s) for s in read_list(scenario["sides"])]
    keys = tuple(read_str(s["key"]) for s in sides)
    placed: list[Ship] = []
    aboard: dict[str, Aboard] = {}
    for item in read_list(scenario["ships"]):
        entry = read_object(item)
        ship, carried = _ship(entry)
        if ship.side not in keys:
            raise ValueError(f"{ship.name}: no side {ship.side!r} in the scenario")
        placed.append(ship)
        aboard[ship.name] = carried
    board = Board(
        cols=read_int(scenario["cols"]),
        rows=read_int(scenario["rows"]),
        ships=tuple(placed),
        ceiling=read_int(scenario.get("ceiling", scale.CEILING)),
    )
    problems = board.problems()
    if problems:
        raise ValueError(f"the scenario's board: {'; '.join(problems)}")
    made = Battle(
        board=board,
        aboard=aboard,
        turns=read_int(scenario["turns"]),
        title=read_str(scenario.get("title", "")),
        side_names={read_str(s["key"]): read_str(s.get("name", s["key"])) for s in sides},
        goals=goals.goals(read_list(scenario.get("victory", [])), keys, (ship.name for ship in placed)),
    )
    return keys, made


def _vessel(entry: Mapping[str, Any]) -> Vessel:
    """Her fleet-list entry, or a plain ship of her class: the class's speed, the guns the scenario gives, the
    class's complement and bombs."""
    if "fleet" in entry:
        return ships.vessel(read_str(entry["fleet"]))
    ship_class = ships.classes()[read_str(entry["class"])]
    complement = crew.complement(ship_class.key)
    return Vessel(
        name=ship_class.name,
        ship_class=ship_class,
        speed_inches=ship_class.speed_inches,
        guns=Guns.from_json(read_object(entry.get("guns", {"heavy": 0, "medium": 0, "light": 0}))),
        crew=complement.aboard,
        bombs=ship_class.bombs,
    )


def _crew(entry: Mapping[str, Any], vessel: Vessel) -> Crew:
    """The scenario's men, else her fleet entry's crew with her class's helmsmen among them (the fleet list's
    number is everyone aboard, crew.py's complement says how many of a class steer)."""
    if "crew" in entry:
        given = read_object(entry["crew"])
        return Crew(men=read_int(given["men"]), helm=read_int(given["helm"]))
    helm = min(vessel.crew, crew.complement(vessel.ship_class.key).helm)
    return Crew(men=vessel.crew - helm, helm=helm)


def _guns(entry: Mapping[str, Any], vessel: Vessel) -> tuple[Gun, ...]:
    """One Gun a gun of the vessel's counts, each the weapon its class stands for (data/armament.json) unless the
    scenario names another."""
    named = read_object(entry.get("weapons", {}))
    counts = vessel.guns.to_json()
    found: list[Gun] = []
    for weapon_class in ships.WEAPON_CLASSES:
        weapon = read_str(named.get(weapon_class, ARMAMENT.get(weapon_class)))
        found += [Gun(f"{weapon_class} {n + 1}", weapon) for n in range(read_int(counts[weapon_class]))]
    return tuple(found)


def _ship(entry: Mapping[str, Any]) -> tuple[Ship, Aboard]:
    vessel = _vessel(entry)
    col, row = (read_int(v) for v in read_list(entry["hex"]))
    name, side = read_str(entry["name"]), read_str(entry["side"])
    level = read_int(entry["level"])
    ship = Ship(
        name=name,
        side=side,
        vessel=vessel,
        hex=hexgrid.from_odd_q(col, row),
        facing=read_int(entry["facing"]) % 6,
        level=level,
        landed=level == scale.GROUND,
    )
    men = _crew(entry, vessel)
    carried = Aboard(
        condition=Condition(small_craft=vessel.ship_class.extra_ascend),
        crew=men,
        guns=_guns(entry, vessel),
        bombs=vessel.bombs.fixed,  # a die's bombs are rolled when the battle opens (phases/turn.py)
        first_side=side,
        crew_at_start=men.aboard,
    )
    return ship, carried
