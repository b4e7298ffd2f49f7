"""Writes for the strategic map app.

`reference_data_load` mirrors the pure reference data (the map, the ship catalog, the weapons) into the
reference tables. It is idempotent and set-based: one read per table, then bulk inserts and bulk updates
for whatever differs, so the number of queries does not grow with the number of hexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from django.db import models, transaction

from battles.models import ShipClass, WeaponType
from galleons import catalog
from strategic_map import mapdata
from strategic_map.models import City, MapHex, Territory

RowModel = TypeVar("RowModel", bound=models.Model)

# Rows per INSERT/UPDATE statement: well under every backend's limit on query parameters.
BATCH_SIZE = 100


def _upsert(
    model: type[RowModel],
    *,
    key: str,
    rows: Mapping[str, Mapping[str, Any]],
    label: str,
) -> dict[str, int]:
    """Make the table hold `rows` (natural key -> field values): insert the new, update the changed.

    Rows in the table but no longer in the data are left alone (other tables may point at them) and
    counted as stale. Returns the counts, each prefixed with `label`.
    """
    existing = {getattr(obj, key): obj for obj in model._default_manager.all()}
    to_create: list[RowModel] = []
    to_update: list[RowModel] = []
    changed_fields: set[str] = set()
    for natural_key, values in rows.items():
        obj = existing.get(natural_key)
        if obj is None:
            to_create.append(model(**{key: natural_key}, **values))
            continue
        changed = {name for name, value in values.items() if getattr(obj, name) != value}
        if changed:
            for name in changed:
                setattr(obj, name, values[name])
            to_update.append(obj)
            changed_fields |= changed
    model._default_manager.bulk_create(to_create, batch_size=BATCH_SIZE)
    if to_update:
        model._default_manager.bulk_update(to_update, sorted(changed_fields), batch_size=BATCH_SIZE)
    return {
        f"{label}_created": len(to_create),
        f"{label}_updated": len(to_update),
        f"{label}_unchanged": len(rows) - len(to_create) - len(to_update),
        f"{label}_stale": len(existing.keys() - rows.keys()),
    }


def _territory_rows(mars: mapdata.MarsMap) -> dict[str, dict[str, Any]]:
    return {
        territory.name: {
            "move_through": territory.move_through,
            "patrol": territory.patrol,
            "note": territory.note or "",
            "provenance": territory.provenance.status,
            "provenance_note": territory.provenance.note,
        }
        for territory in mars.territories.values()
    }


def _hex_rows(mars: mapdata.MarsMap, territory_ids: Mapping[str, int]) -> dict[str, dict[str, Any]]:
    provenance = mars.provenance["hexes"]
    return {
        h.label: {
            "col": h.col,
            "row": h.row,
            "q": h.q,
            "r": h.r,
            "terrain": h.terrain,
            "base_terrain": h.base_terrain,
            "region": h.region or "",
            "territory_id": territory_ids[h.territory],
            "allegiance": h.allegiance,
            "allegiance_reason": h.allegiance_reason,
            "british": h.british,
            "city_name": h.city or "",
            "site_name": h.site or "",
            "canal_type": h.canal_type or "",
            "canal_ids": list(h.canal_ids),
            "provenance": provenance.status,
            "provenance_note": provenance.note,
        }
        for h in mars.hexes
    }


def _city_rows(mars: mapdata.MarsMap, hex_ids: Mapping[str, int]) -> dict[str, dict[str, Any]]:
    provenance = mars.provenance["cities"]
    start = mars.provenance["start_city"]
    return {
        city.name: {
            "hex_id": hex_ids[city.label],
            "owner": city.owner,
            "role": city.role,
            "optional": city.optional,
            "is_start_city": city.is_start_city,
            "has_martian_yard": city.has_martian_yard,
            "provenance": provenance.status,
            # The start city's position is invented, but its part in the campaign is the rules'.
            "provenance_note": f"{provenance.note} {start.note}" if city.is_start_city else provenance.note,
        }
        for city in mars.cities
    }


def _ship_class_rows() -> dict[str, dict[str, Any]]:
    return {
        ship.id: {
            "name": ship.name,
            "category": ship.category,
            "data_status": ship.data_status,
            "confidence": ship.confidence,
            "yard_type": ship.yard_type or "",
            "tonnage": ship.tonnage,
            "price": ship.price,
            "hull_size": ship.hull_size,
            "speed": "" if ship.speed is None else str(ship.speed),
            "max_altitude": ship.max_altitude or "",
            "spec": dict(ship.raw),
            "provenance": dict(ship.raw.get("provenance") or {}),
        }
        for ship in catalog.ship_classes()
    }


def _weapon_rows() -> dict[str, dict[str, Any]]:
    return {
        weapon.id: {
            "name": weapon.name,
            "category": weapon.category,
            "cost": weapon.cost_pounds,
            "spec": dict(weapon.raw),
            "provenance": {
                "data_status": weapon.data_status,
                "authoritative_source": weapon.authoritative_source,
                "source_lines": dict(weapon.source_lines),
                "differences": list(weapon.raw.get("sgom_vs_consolidated_differences") or ()),
            },
            "authoritative_source": weapon.authoritative_source,
        }
        for weapon in catalog.weapons()
    }


@transaction.atomic
def reference_data_load() -> dict[str, int]:
    """Load the map, the ship catalog and the weapons into the reference tables; counts per table."""
    mars = mapdata.mars_map()
    counts = _upsert(Territory, key="name", rows=_territory_rows(mars), label="territories")
    # Ids after the insert: re-read rather than rely on the backend returning them from bulk_create.
    territory_ids = dict(Territory.objects.values_list("name", "id"))
    counts |= _upsert(MapHex, key="label", rows=_hex_rows(mars, territory_ids), label="hexes")
    hex_ids = dict(MapHex.objects.values_list("label", "id"))
    counts |= _upsert(City, key="name", rows=_city_rows(mars, hex_ids), label="cities")
    counts |= _upsert(ShipClass, key="slug", rows=_ship_class_rows(), label="ship_classes")
    counts |= _upsert(WeaponType, key="slug", rows=_weapon_rows(), label="weapon_types")
    return counts
