"""Captains at sea for the daily tick's tests and benchmark: many players, each with a ship under way and a
standing plan, made in bulk (a few inserts, not the services' per-captain work)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User
from battles.engine.hexgrid import Hex, distance, from_odd_q, neighbour
from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, ShipStatus
from galleons.record import ShipRecord, ship_record_from_class
from strategic_map.mapdata import mars_map
from strategic_map.models import CampaignMapRules, Voyage

# Open sky in the Neutral Northeast (no city, no other territory): A, then B and C eastwards of it.
HOME = from_odd_q(11, 2)
EAST = 2  # hexgrid direction (1, 0)
PARHOON = (7, 8)


def hexes_east(start: Hex, count: int) -> list[Hex]:
    hexes = [start]
    for _ in range(count):
        hexes.append(neighbour(hexes[-1], EAST))
    return hexes


def back_and_forth(start: Hex, days: int, *, step: int = 2) -> list[dict[str, Any]]:
    """A plan of ``days`` move days: ``step`` hexes east, then back, and so on (she stays in the same sky)."""
    out = hexes_east(start, step)
    back = out[::-1]
    plan = []
    for day in range(days):
        leg = out if day % 2 == 0 else back
        plan.append({"kind": "move", "path": [h.to_json() for h in leg[1:]]})
    return plan


def quiet_seas(campaign: Campaign, number: int = 0, *, patrol: int | None = None) -> None:
    """Every territory that rolls rolls against ``number`` (0: the die is rolled and logged, and never hits);
    British territory keeps no numbers."""
    patrol = number if patrol is None else patrol
    numbers = {
        name: {"move_through": number, "patrol": patrol}
        for name, territory in mars_map().territories.items()
        if territory.move_through is not None
    }
    CampaignMapRules.objects.update_or_create(campaign=campaign, defaults={"territory_numbers": numbers})


def ship_record(class_id: str, name: str, **changes: Any) -> dict[str, Any]:
    record = ship_record_from_class(class_id, name=name).to_json()
    record.update(changes)
    return record


def fleet(
    campaign: Campaign,
    count: int,
    *,
    class_id: str = "fleetfoot",
    plan: Sequence[dict[str, Any]] | None = None,
    start: Hex = HOME,
    prefix: str = "",
    coal_days: int | None = None,
    holding_every: int = 0,
    steam_every: int = 0,
) -> list[Voyage]:
    """``count`` captains of different players, each at sea in a ship of ``class_id`` at ``start`` with ``plan``
    (default: three days back and forth). ``holding_every``/``steam_every``: every n-th captain has no orders /
    sails a steam ship (an Aphid with ``coal_days`` or 30), so that fleets of any size mix the same kinds."""
    prefix = prefix or f"{campaign.slug}-"
    plan = list(plan) if plan is not None else back_and_forth(start, 3)
    users = User.objects.bulk_create([User(username=f"{prefix}player{i:04d}", password="!") for i in range(count)])
    captains = Captain.objects.bulk_create(
        [
            Captain(
                campaign=campaign, player=user, name=f"{prefix}Captain {i:04d}", status=CaptainStatus.AT_SEA, city=""
            )
            for i, user in enumerate(users)
        ]
    )
    records = {kind: ship_record(kind, "record") for kind in {class_id, "aphid"}}
    ships = []
    for i, captain in enumerate(captains):
        steam = steam_every and i % steam_every == 1 % steam_every
        kind = "aphid" if steam else class_id
        record = dict(records[kind], name=f"{prefix}Ship {i:04d}")
        ships.append(
            CampaignShip(
                campaign=campaign,
                captain=captain,
                name=record["name"],
                class_id=kind,
                record=record,
                original_price=10_000,
                original_crew=ShipRecord.from_json(records[kind]).men_alive,
                coal_days=(coal_days if coal_days is not None else 30) if record["propulsion"] == "steam" else None,
                status=ShipStatus.AT_SEA,
                city="",
            )
        )
    ships = CampaignShip.objects.bulk_create(ships)
    voyages = [
        Voyage(
            campaign=campaign,
            captain=captain,
            ship=ship,
            start_city="Parhoon",
            started_day=campaign.day,
            q=start.q,
            r=start.r,
            plan=[] if holding_every and i % holding_every == 0 else plan,
        )
        for i, (captain, ship) in enumerate(zip(captains, ships, strict=True))
    ]
    return Voyage.objects.bulk_create(voyages)


def adjacent_chain(path: Sequence[Sequence[int]], start: Sequence[int]) -> bool:
    previous = Hex(start[0], start[1])
    for step in path:
        here = Hex(step[0], step[1])
        if distance(previous, here) != 1:
            return False
        previous = here
    return True
