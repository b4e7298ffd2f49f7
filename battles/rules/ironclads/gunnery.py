"""What each ship may fire at and what her fire orders and damage allocation may be, read off the battle (docs/
ironclads.md "The turn, in the app"): her sight of each enemy (salvo.sight: arcs, range, Zone of Fire), the targets
each gun track bears on, her orders judged (salvo.plan), the Hits line and the allocation judged (damage.refusals).
The fire phase, the validator, the forms and the AI all ask here.

A fire orders answer: ``{"ship": name, "targets": {track: a target's name, or null to hold}}``, a key for each of
her gun tracks that bears on an enemy this turn (IC-FIRE-01..03: a track fires at one target or none). A damage
allocation: ``{"ship": name, "criticals": [a track for each C, in the order of their 1D3s], "hits": [a track for each
H, in the order noted]}`` (IC-DMG-02..13)."""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject
from battles.rules.ironclads import damage, problems, salvo
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.cards import GUN_TRACKS
from battles.rules.ironclads.damage import Allocation
from battles.rules.ironclads.salvo import Plan, Sight

Orders = Mapping[str, str | None]


def sights(battle: Battle, name: str) -> dict[str, Sight]:
    """Her view of every enemy afloat, nearest first; every other ship afloat and the land may block (IC-ZOF-02)."""
    ship = battle.ship(name)
    board = battle.board
    obstacles = {s.hex for s in board.afloat if s.name != name} | set(board.land)
    enemies = sorted((s for s in board.afloat if s.side != ship.side), key=lambda e: hexgrid.distance(ship.hex, e.hex))
    return {
        e.name: salvo.sight(ship.card, ship.hex, ship.facing, e.name, e.card, e.hex, e.facing, obstacles - {e.hex})
        for e in enemies
    }


def targets(battle: Battle, name: str) -> dict[str, tuple[str, ...]]:
    """Each gun track of hers with stats left and the enemies it may fire at, nearest first; only tracks with one."""
    ship = battle.ship(name)
    if not ship.afloat or ship.collided:  # IC-COL-08: a ship in a collision this turn fires nothing
        return {}
    seen = sights(battle, name)
    found: dict[str, tuple[str, ...]] = {}
    for track in GUN_TRACKS:
        if not ship.card.left(track):
            continue
        able = tuple(t for t, s in seen.items() if track in s.tracks and s.band is not None and s.clear)
        if able:
            found[track] = able
    return found


def on_fire(battle: Battle, name: str) -> bool:
    return problems.on_fire(battle.board.turn, battle.fires.get(name, 0))


def default_orders(battle: Battle, name: str) -> dict[str, str | None]:
    """Fire at will: each track at the nearest enemy it bears on."""
    return {track: able[0] for track, able in targets(battle, name).items()}


def fire_answer(name: str, orders: Orders) -> JSONObject:
    return {"ship": name, "targets": dict[str, JSON](orders)}


def read_fire_answer(choice: JSON) -> tuple[str, dict[str, str | None]] | Rejection:
    if not isinstance(choice, dict) or set(choice) != {"ship", "targets"} or not isinstance(choice["ship"], str):
        return Rejection("IC-FIRE-01", 'fire orders are {"ship": her name, "targets": {arc or turret: target}}')
    given = choice["targets"]
    if not isinstance(given, dict) or not all(v is None or isinstance(v, str) for v in given.values()):
        return Rejection("IC-FIRE-03", "each arc or turret fires at one target, or holds its fire")
    return choice["ship"], {str(k): None if v is None else str(v) for k, v in given.items()}


def plan_of(battle: Battle, name: str, orders: Orders) -> Plan:
    ship = battle.ship(name)
    firing = {track: target for track, target in orders.items() if target is not None}
    return salvo.plan(
        ship.card,
        firing,
        sights(battle, name),
        rough=battle.board.rough,
        on_fire=on_fire(battle, name),
        has_collided=ship.collided,
    )


def judge_orders(battle: Battle, name: str, orders: Orders) -> Rejection | None:
    unknown = [track for track in orders if track not in GUN_TRACKS]
    if unknown:
        return Rejection("IC-FIRE-01", f"no gun track {unknown[0]!r}: the arcs and turrets are {', '.join(GUN_TRACKS)}")
    refused = plan_of(battle, name, orders).refusals
    return Rejection(refused[0].clause, refused[0].reason) if refused else None


# --- damage --------------------------------------------------------------------------------------------------


def default_allocation(battle: Battle, name: str) -> Allocation:
    """The owner's allocation made for her (the AI's and the deadline's): damage.default_allocation."""
    card, noted, demands = battle.ship(name).card, battle.noted[name], battle.demands.get(name, ())
    return damage.default_allocation(card, noted, demands)


def allocation_answer(name: str, allocation: Allocation) -> JSONObject:
    return {"ship": name, "criticals": list[JSON](allocation.criticals), "hits": list[JSON](allocation.hits)}


def read_allocation(choice: JSON) -> tuple[str, Allocation] | Rejection:
    if (
        not isinstance(choice, dict)
        or set(choice) != {"ship", "criticals", "hits"}
        or not isinstance(choice["ship"], str)
        or not isinstance(choice["criticals"], list)
        or not isinstance(choice["hits"], list)
        or not all(isinstance(t, str) for t in [*choice["criticals"], *choice["hits"]])
    ):
        return Rejection("IC-DMG-02", 'an allocation is {"ship", "criticals": [tracks], "hits": [tracks]}')
    tracks = (tuple(str(t) for t in choice["criticals"]), tuple(str(t) for t in choice["hits"]))
    return choice["ship"], Allocation(*tracks)


def judge_allocation(battle: Battle, name: str, allocation: Allocation) -> Rejection | None:
    noted, demands = battle.noted.get(name), battle.demands.get(name, ())
    if noted is None:
        return Rejection("IC-DMG-02", f"{name} has nothing on her Hits line")
    if len(allocation.criticals) != len(noted.criticals) or len(allocation.hits) != len(noted.hits):
        return Rejection("IC-DMG-02", f"a track for each of her {noted.line}, no more and no less")
    refused = damage.refusals(battle.ship(name).card, noted, demands, allocation)
    return Rejection(refused[0].clause, refused[0].reason) if refused else None
