"""A scenario's story victory conditions (docs/barsoom.md section 10): goals that end the battle before one side has
no ship left able to fight. The text has none (it is a ship game for a host's figures); a scenario's story gives
them, as data, each naming the side it wins for:

- ``{"when": "escapes", "ship": S, "edge": "north"|"south"|"east"|"west", "wins": W}``: ship S leaves the map over
  that edge by a card her captain plotted (a forced move never takes her off, section 5), not taken;
- ``{"when": "lost", "ship": S, "wins": W}``: ship S is out of the fight other than by leaving the map: a wreck,
  crashed, stranded, no one left aboard, or taken by boarders;
- ``{"when": "broken", "side": D, "fighting": N, "wins": W}``: side D has N or fewer ships able to fight (a fleet
  that breaks off the action).

The goals are judged wherever the battle's end is (phases/turn.py): a goal met ends the battle, won by its side;
goals met at the same moment for different sides draw it. Pure: a battle in, the goals met out.
"""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine import hexgrid
from battles.engine.words import mid_sentence
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.goals import BROKEN, ESCAPES, LOST, Goal


def edge_crossed(board: Board, ship: Ship) -> str | None:
    """The edge a ship off the map went over (her hex is the first one off it), None while on the map."""
    col, row = hexgrid.to_odd_q(ship.hex)
    if col < 0:
        return "west"
    if col >= board.cols:
        return "east"
    if row < 0:
        return "north"
    if row >= board.rows:
        return "south"
    return None


def escaped(battle: Battle, name: str) -> bool:
    """Off the map by her own card, whole and her own side's: a wreck that broke up on another is off the map too."""
    ship, entry = battle.ship(name), battle.of(name)
    return ship.left_map and not entry.condition.wrecked and ship.side == entry.first_side


def met(battle: Battle, goal: Goal, able: Mapping[str, bool]) -> bool:
    """Is the goal met? ``able``: each ship's able to fight (orders.able_to_fight), read once for all the goals."""
    if goal.when == BROKEN:
        return sum(1 for ship in battle.ships_of(goal.side) if able[ship.name]) <= goal.fighting
    if goal.when == ESCAPES:
        return escaped(battle, goal.ship) and edge_crossed(battle.board, battle.ship(goal.ship)) == goal.edge
    taken = battle.ship(goal.ship).side != battle.of(goal.ship).first_side
    return taken or (not able[goal.ship] and not battle.ship(goal.ship).left_map)


def reason(battle: Battle, goal: Goal) -> str:
    """The battle's end in words (the outcome's reason): never the turn limit's wording."""
    if goal.when == ESCAPES:
        return f"{goal.ship} escapes over the {goal.edge} edge of the map"
    if goal.when == LOST:
        return f"{goal.ship} is lost"
    side = mid_sentence(battle.side_names.get(goal.side, goal.side))
    ships = {0: "no ship", 1: "one ship or none"}.get(goal.fighting, f"{goal.fighting} ships or fewer")
    return f"with {ships} left in the fight, {side} break off the action"


def reached(battle: Battle, able: Mapping[str, bool]) -> tuple[Goal, ...]:
    """The battle's goals met now, in the scenario's order (none: the battle goes on)."""
    return tuple(goal for goal in battle.goals if met(battle, goal, able))


def verdict(battle: Battle, goals: tuple[Goal, ...]) -> tuple[str | None, str]:
    """The winner and the reason when ``goals`` are met at one moment: the side they all win for, or a draw when
    they name different sides (two fleets broken by the same broadside)."""
    winners = {goal.wins for goal in goals}
    if len(winners) == 1:
        return goals[0].wins, reason(battle, goals[0])
    return None, "; ".join(reason(battle, goal) for goal in goals) + ", at once"
