"""Where a scenario's sides start: set-up areas, entry from a map edge, fixed altitudes and landed starts.

A side's ``setup`` object in a scenario (docs/scenarios.md) says where its ships may be placed:

* ``area``: ``"anywhere"`` (the default), a zone of the map (``"centre"``, ``"city"``, ``"fortress"``...)
  or ``"edge"``: the side enters from a map edge.
* ``edge`` (with ``"area": "edge"``): ``"any"`` (the default) or one of ``north``, ``east``, ``south``,
  ``west``; ``part``: ``"whole"`` (the default) or ``"middle"``, the middle third of the edge (SG-SCN-16).
* ``altitude``: every ship of the side starts at this altitude (SG-SCN-10, SG-SCN-46).
* ``landed``: every ship starts landed, on the land of its hex, at that land's height (SG-SCN-23/36).
* ``clause``: the checklist clause a set-up outside these bounds breaks (default SG-SCN-04).

Entering from an edge (a reading: the text says only "enter from a map edge"): the entering ships are set
up on the hexes of their edge (corners excluded: a corner is on two edges), facing onto the map, at the
side's altitude; they move on from there in the first turn as any ship would. All the ships of a side
enter by one edge: the first one placed chooses it, and it is kept as the side's entry edge (a ``mark``,
used by the exit rules, SG-SCN-16). With the scenario's ``setup.opposite_edges`` the second side to place
must use the edge opposite the first side's (SG-SCN-29, SG-SCN-46).

Landed starts: a landed ship sits on the land at its height with status ``landed`` (SG-ALT-11); it takes
off by climbing, 2 MP a level (SG-ALT-05), before it may move ahead (movement.trace).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import maps
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import ShipRecord, altitude_levels

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board

SIDE_KEYS = ("area", "edge", "part", "altitude", "landed", "clause", "note")
AREAS_BUILT_IN = ("anywhere", "edge")
PARTS = ("whole", "middle")
DEFAULT_CLAUSE = "SG-SCN-04"


def entry_key(side: str) -> str:
    """The mark holding the edge a side entered by."""
    return f"entry {side}"


def parse_side_setup(data: Any, where: str, terrain: Terrain) -> dict[str, JSON]:
    """Check a side's ``setup`` object and return it with every key filled in. Raises ValueError."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValueError(f"{where}: must be an object")
    extra = sorted(set(data) - set(SIDE_KEYS))
    if extra:
        raise ValueError(f"{where}: unknown keys {extra}; allowed {sorted(SIDE_KEYS)}")
    area = data.get("area", "anywhere")
    if area not in AREAS_BUILT_IN:
        maps.zone(terrain, str(area))  # a MapError (ValueError) names the zones there are
    edge = data.get("edge", "any")
    part = data.get("part", "whole")
    if area != "edge" and ("edge" in data or "part" in data):
        raise ValueError(f'{where}: edge and part go with "area": "edge"')
    if edge != "any" and edge not in maps.EDGES:
        raise ValueError(f"{where}: edge is 'any' or one of {list(maps.EDGES)}, not {edge!r}")
    if part not in PARTS:
        raise ValueError(f"{where}: part is one of {list(PARTS)}, not {part!r}")
    altitude = data.get("altitude")
    if altitude is not None and altitude not in altitude_levels():
        raise ValueError(f"{where}: altitude {altitude!r} is not one of {list(altitude_levels())}")
    landed = data.get("landed", False)
    if type(landed) is not bool or (landed and altitude is not None):
        raise ValueError(f"{where}: landed is true or false; a landed side takes the height of its land")
    clause = data.get("clause", DEFAULT_CLAUSE)
    if not isinstance(clause, str):
        raise ValueError(f"{where}: clause is a checklist clause id")
    return {
        "area": str(area),
        "edge": str(edge),
        "part": str(part),
        "altitude": altitude,
        "landed": landed,
        "clause": clause,
    }


def spot_problem(
    terrain: Terrain,
    setup: Mapping[str, JSON],
    hex_: Hex,
    facing: int,
    altitude: str,
    *,
    edges: tuple[str, ...],
) -> str | None:
    """Why a ship of a side with this ``setup`` may not start at the spot; None if it may. ``edges`` are the
    edges the side may still enter by."""
    area = str(setup.get("area", "anywhere"))
    if area == "edge":
        edge = maps.edge_of(terrain, hex_)
        if edge is None:
            return f"the side enters from a map edge: set up on an edge hex (not a corner), one of {list(edges)}"
        if edge not in edges:
            return f"the side enters from the {' or '.join(edges)} edge, not the {edge}"
        if setup.get("part") == "middle" and hex_ not in maps.middle_of_edge(terrain, edge):
            return f"the side enters from the middle third of the {edge} edge"
        if not maps.inward(terrain, hex_, facing):
            return "an entering ship faces onto the map"
    elif area != "anywhere" and hex_ not in maps.zone(terrain, area):
        return f"the side sets up in the {area}"
    ground = terrain.ground(hex_)
    if setup.get("landed"):
        if altitude != ground:
            return f"the side starts landed: on the land there, at {ground}"
    elif setup.get("altitude") is not None and altitude != setup["altitude"]:
        return f"the side starts at {setup['altitude']}"
    return None


def starts_landed(setup: Mapping[str, JSON]) -> bool:
    return bool(setup.get("landed"))


# --- in a battle ---------------------------------------------------------------------------------------


def side_setup(board: Board, side: str) -> Mapping[str, JSON]:
    sides = board.scenario_rules.get("sides")
    found = sides.get(side) if isinstance(sides, dict) else None
    return found if isinstance(found, dict) else {}


def entry_edge(board: Board, side: str) -> str | None:
    edge = board.marks.get(entry_key(side))
    return str(edge) if isinstance(edge, str) else None


def allowed_edges(board: Board, side: str) -> tuple[str, ...]:
    """The edges a side entering from the map edge may still use: the one it chose, the one the scenario
    names, or, with opposite edges, the one opposite the other side's entry."""
    chosen = entry_edge(board, side)
    if chosen is not None:
        return (chosen,)
    named = side_setup(board, side).get("edge", "any")
    if named != "any":
        return (str(named),)
    if board.scenario_rules.get("opposite_edges"):
        for other in board.side_order:
            theirs = entry_edge(board, other)
            if other != side and theirs is not None:
                return (maps.OPPOSITE[theirs],)
    return maps.EDGES


def placement_problem(board: Board, record: ShipRecord, hex_: Hex, facing: int, altitude: str) -> Rejection | None:
    setup = side_setup(board, record.side)
    why = spot_problem(board.terrain, setup, hex_, facing, altitude, edges=allowed_edges(board, record.side))
    return None if why is None else Rejection(str(setup.get("clause", DEFAULT_CLAUSE)), why)


def lands_at(board: Board, record: ShipRecord, hex_: Hex, altitude: str) -> bool:
    """A landed start: the spot is the land's own height and the side starts landed."""
    return starts_landed(side_setup(board, record.side)) and altitude == board.terrain.ground(hex_)


def entry_marks(board: Board, record: ShipRecord, hex_: Hex) -> dict[str, JSON]:
    """The entry edge to remember once a side's first ship is set up on an edge."""
    if side_setup(board, record.side).get("area") != "edge" or entry_edge(board, record.side) is not None:
        return {}
    edge = maps.edge_of(board.terrain, hex_)
    return {} if edge is None else {entry_key(record.side): edge}


def fixed_entry_marks(board: Board) -> dict[str, JSON]:
    """For a fixed set-up: each entering side's edge, from where the scenario put its first ship."""
    marks: dict[str, JSON] = {}
    for side in board.side_order:
        first = next((s for s in board.ships if s.side == side and s.position is not None), None)
        if first is not None and first.position is not None:
            marks.update(entry_marks(board, first, first.position))
    return marks


def default_spot(board: Board, record: ShipRecord) -> JSON | None:
    """A legal set-up near the scenario's position: the same spot, or, when the side must now enter by
    another edge, the same place along that edge, facing onto the map. None: the ruleset searches."""
    assert record.position is not None
    setup = side_setup(board, record.side)
    altitude = record.altitude
    candidates: list[tuple[Hex, int]] = [(record.position, record.facing)]
    edge = maps.edge_of(board.terrain, record.position)
    if setup.get("area") == "edge" and edge is not None:
        for target in allowed_edges(board, record.side):
            if target != edge:
                candidates += _along(board.terrain, record.position, record.facing, edge, target)
    for hex_, facing in candidates:
        at = board.terrain.ground(hex_) if starts_landed(setup) else altitude
        if placement_problem(board, record, hex_, facing, at) is None:
            col, row = hexgrid.to_odd_q(hex_)
            return {"hex": [col, row], "facing": facing, "altitude": at}
    return None


def spot_on_edge(board: Board, record: ShipRecord, target: str, heading: int) -> JSON | None:
    """A legal set-up for an entering ship on the edge ``target``: the same place along it as the scenario's
    position is along its own edge, facing onto the map as near ``heading`` as may be. None if there is none."""
    assert record.position is not None
    edge = maps.edge_of(board.terrain, record.position)
    if edge is None:
        return None
    spot = record.position if edge == target else _along(board.terrain, record.position, 0, edge, target)[0][0]
    turns = sorted(maps.INWARD[target], key=lambda f: (min((f - heading) % 6, (heading - f) % 6), f))
    for facing in turns:
        if placement_problem(board, record, spot, facing, record.altitude) is None:
            col, row = hexgrid.to_odd_q(spot)
            return {"hex": [col, row], "facing": facing, "altitude": record.altitude}
    return None


def _along(terrain: Terrain, hex_: Hex, facing: int, edge: str, target: str) -> list[tuple[Hex, int]]:
    """The spot the same share of the way along ``target`` as ``hex_`` is along ``edge``, mirrored."""
    here = sorted(maps.edge_hexes(terrain, edge), key=hexgrid.to_odd_q)
    there = sorted(maps.edge_hexes(terrain, target), key=hexgrid.to_odd_q)
    share = here.index(hex_) / max(len(here) - 1, 1)
    spot = there[round(share * (len(there) - 1))]
    mirrored = (6 - facing) % 6 if {edge, target} == {"east", "west"} else (3 - facing) % 6
    facings = [mirrored, *maps.INWARD[target]]
    return [(spot, f) for f in facings]
