"""manage.py load_reference_data: mirror the map, the ship catalog and the weapons into the database."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from strategic_map.services import reference_data_load

TABLES = ("territories", "hexes", "cities", "ship_classes", "weapon_types")


class Command(BaseCommand):
    help = "Load the reference data (map, ship classes, weapons) into the reference tables. Safe to re-run."

    def handle(self, *args: Any, **options: Any) -> None:
        counts = reference_data_load()
        for table in TABLES:
            line = (
                f"{table}: {counts[f'{table}_created']} created, {counts[f'{table}_updated']} updated, "
                f"{counts[f'{table}_unchanged']} unchanged"
            )
            stale = counts[f"{table}_stale"]
            if stale:
                self.stdout.write(self.style.WARNING(f"{line}, {stale} stale (no longer in the data; kept)"))
            else:
                self.stdout.write(line)
