"""Restore a campaign from an export_campaign document (campaign_transfer/document.py):

    python manage.py import_campaign FILE [--slug NEW-SLUG]

Meant for another database, or after the original is gone: a copy beside the original needs a new slug, and is
refused if its invitation links or notifications clash with the original's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign_transfer.document import ImportRefused, import_campaign


class Command(BaseCommand):
    help = "Import a campaign from a JSON document written by export_campaign."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", default="", help="import under this address instead of the document's")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{path} is not JSON: {error}") from error
        try:
            campaign = import_campaign(document, slug=options["slug"])
        except ImportRefused as error:
            raise CommandError(f"cannot import {path}: {error}") from error
        self.stdout.write(f"imported {campaign.name} as {campaign.slug}")
