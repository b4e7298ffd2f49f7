"""manage.py rate_ironclad: Appendix A as a tool (docs/ironclads.md, "Data Cards and Appendix A").

    python manage.py rate_ironclad particulars.json     a ship's particulars (data/README.md): her card and working
    python manage.py rate_ironclad --ship GLOIRE        a ship of the fleet list, with her sources
    python manage.py rate_ironclad --fleet-report       every ship of the fleet list, a line each

The ruleset's Django face: it lives in the ruleset's package (settings install a ruleset package that has a
``management`` folder), reads files and prints; the rating is the pure appendix_a.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.rules.ironclads import fleet
from battles.rules.ironclads.appendix_a import rate
from battles.rules.ironclads.card_text import fleet_report, rating_text
from battles.rules.ironclads.particulars import ParticularsError, from_json


class Command(BaseCommand):
    help = "Rate an ironclad by Appendix A: her Data Card and the working, from her particulars or the fleet list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a JSON file of a ship's particulars")
        parser.add_argument("--ship", help="a ship of the fleet list, by name")
        parser.add_argument("--fleet-report", action="store_true", help="every ship of the fleet list, a line each")

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = [bool(options["file"]), bool(options["ship"]), bool(options["fleet_report"])]
        if sum(chosen) != 1:
            raise CommandError("give one of: a particulars FILE.json, --ship NAME, --fleet-report")
        if options["fleet_report"]:
            self.stdout.write(fleet_report(fleet.fleet()))
            return
        if options["ship"]:
            try:
                entry = fleet.find(options["ship"])
            except KeyError as error:
                raise CommandError(str(error.args[0])) from error
            said = "; ".join(s.title + (f" <{s.url}>" if s.url else "") for s in entry.sources)
            self.stdout.write(rating_text(entry.rating(), sources=f"Sources: {said}\nNote: {entry.note}"))
            return
        path = Path(options["file"])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"{path}: cannot read it as JSON ({error})") from error
        if not isinstance(data, dict):
            raise CommandError(f"{path}: expected a JSON object of a ship's particulars (see the data README)")
        try:
            self.stdout.write(rating_text(rate(from_json(data))))
        except ParticularsError as error:
            raise CommandError(f"{path}: {error.field}: {error.message}") from error
