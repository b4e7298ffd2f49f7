"""manage.py rate_design FILE.json | --class NAME | --catalog-report: the ship design rater (SGD-*)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from galleons import catalog, design

PROJECT_DIR = Path(__file__).resolve().parents[3]
REPORT_PATH = PROJECT_DIR / "docs" / "catalog-rating-report.md"


class Command(BaseCommand):
    help = (
        "Rate a ship design (JSON file) or a catalog class with the design rules: tonnage, lift value, "
        "ceiling, speed, endurance, crew, price and rule violations. --catalog-report writes "
        "docs/catalog-rating-report.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a design as JSON (see galleons/design.py)")
        parser.add_argument("--class", dest="ship_class", help="a catalog class name or id (any case)")
        parser.add_argument(
            "--catalog-report",
            action="store_true",
            help="rate every catalog class and write the Markdown report",
        )
        parser.add_argument("--output", help=f"where --catalog-report writes (default {REPORT_PATH})")

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = [bool(options["file"]), bool(options["ship_class"]), bool(options["catalog_report"])]
        if sum(chosen) != 1:
            raise CommandError("give exactly one of FILE.json, --class NAME or --catalog-report")
        if options["catalog_report"]:
            self._catalog_report(options["output"])
        elif options["ship_class"]:
            self._print(self._rate_class(options["ship_class"]))
        else:
            self._print(self._rate_file(options["file"]))

    def _print(self, payload: dict[str, Any]) -> None:
        self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False))

    def _rate_file(self, name: str) -> dict[str, Any]:
        path = Path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {name}: {error.strerror or error}") from error
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"{name} is not valid JSON: {error}") from error
        try:
            return design.rate_design_json(data)
        except design.DesignInputError as error:
            raise CommandError(f"{name} is not a valid design: " + "; ".join(error.problems)) from error

    def _rate_class(self, name: str) -> dict[str, Any]:
        try:
            ship = catalog.ship_class(name)
        except catalog.UnknownShipClass as error:
            raise CommandError(str(error)) from error
        try:
            comparison = design.compare_with_catalog(ship)
        except ValueError as error:
            raise CommandError(str(error)) from error
        return {**comparison.to_json(), "rating": comparison.rating.to_json()}

    def _catalog_report(self, output: str | None) -> None:
        path = Path(output) if output else REPORT_PATH
        text = design.catalog_report_markdown()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror or error}") from error
        comparisons = design.catalog_comparisons()
        stated = [c for c in comparisons if c.has_stated_figures]
        exact = [c for c in stated if c.reproduces_stated_figures]
        self.stdout.write(
            f"wrote {path}: {len(comparisons)} classes rated; of {len(stated)} with stated figures, "
            f"{len(exact)} reproduce them exactly"
        )
