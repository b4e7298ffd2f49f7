"""What the AI captain (tactics.Captain) needs to play toward a scenario's own goals, read from the side's
``ai`` hints and the scenario's rules.

Hints a side's ``ai`` object may give, besides tactics' tuning numbers:

* ``"run_when_free": true``: the side's ships run for the map edge as soon as the exit rules let them
  leave (SG-SCN-12: the Irish cripple the Aphid, then run).
* ``"seize": ship``: the side is out to take that enemy ship by boarding and carry off what she holds
  (SG-SCN-19): its ships go for her first, fire at her until she heaves to (SG-SCN-17) and then spare her,
  grapple and board her, hold her, call the boarders home once the hold is complete, cast off and run.
  The prize is never taken in tow: she must not leave the map.

A side whose ships may leave only by one edge (special_rules ``exit_edge``) runs for that edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import maps, special_rules, victory
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.record import ShipRecord

if TYPE_CHECKING:
    from battles.rules.sky_galleons.ruleset import Board


def hints(board: Board, side: str) -> Mapping[str, JSON]:
    return board.ai.get(side, {})


def prize(board: Board, side: str) -> str | None:
    """The enemy ship the side is out to seize, while she is still to be taken."""
    name = hints(board, side).get("seize")
    if not isinstance(name, str) or name not in board.by_name or not board.in_fight(board.ship(name)):
        return None
    return name


def spare(board: Board, side: str, target: str) -> bool:
    """Hold fire on the prize once she has heaved to: she is wanted whole."""
    return target == prize(board, side) and special_rules.hove_to(board, target)


def carrying_off(board: Board, record: ShipRecord) -> bool:
    """This ship has what the side came for aboard: it runs for the edge."""
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or board.ship(str(rule["ship"])).side != record.side:
        return False
    return victory.prize_state(board, str(rule["prize"])).get("aboard") == record.name


def runs_now(board: Board, record: ShipRecord) -> bool:
    """The scenario wants this ship gone: free to escape (``run_when_free``), or carrying its prize off."""
    free = bool(special_rules.rules(board, "exit_after_crippling")) and special_rules.may_exit(board, record)
    return (bool(hints(board, record.side).get("run_when_free")) and free) or carrying_off(board, record)


def seize_orders(board: Board, side: str) -> dict[str, list[JSON]]:
    """Call the boarders home once the prize is held (SG-SCN-19), and cast off once they are home."""
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or board.ship(str(rule["ship"])).side != side:
        return {}
    name = str(rule["prize"])
    state = victory.prize_state(board, name)
    recall: list[JSON] = []
    cut: list[JSON] = []
    for record in board.fighting(side):
        if state.get("held") == record.name and record.boarding == name and record.boarders.men:
            recall.append(record.name)
            cut.append([record.name, name])
        elif state.get("aboard") == record.name and name in record.grappled_with:
            cut.append([record.name, name])
    orders: dict[str, list[JSON]] = {}
    if recall:
        orders["recall"] = recall
    if cut:
        orders["cut"] = cut
    return orders


def may_tow(board: Board, side: str, name: str) -> bool:
    """A seizing side never tows its prize: she must not leave the map."""
    rule = victory.victory(board)
    return not (rule["kind"] == "seize_and_carry_off" and rule.get("prize") == name)


def exit_edges(board: Board, side: str) -> tuple[str, ...]:
    return special_rules.exit_edges(board, side) or maps.EDGES


def edge_distance(terrain: Terrain, hex_: Hex, edges: tuple[str, ...] = maps.EDGES) -> int:
    """Hexes to move to leave the map by the nearest of ``edges`` (1 on the edge row or column)."""
    col, row = hexgrid.to_odd_q(hex_)
    reach = {"west": col + 1, "east": terrain.cols - col, "north": row + 1, "south": terrain.rows - row}
    return min(reach[edge] for edge in edges)


def leaves_by(terrain: Terrain, hex_: Hex, facing: int, edges: tuple[str, ...]) -> bool:
    """Holding this course, the ship would leave by one of ``edges``."""
    while terrain.on_map(hex_):
        hex_ = hexgrid.neighbour(hex_, facing)
    return maps.edge_left_by(terrain, hex_) in edges
