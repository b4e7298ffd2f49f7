"""Write a campaign as a versioned JSON document (campaign_transfer/document.py):

    python manage.py export_campaign SLUG [--output FILE]

The document holds the campaign's secrets (seeds, every order): it is the umpire's backup, never a player's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign
from campaign_transfer.document import export_campaign


class Command(BaseCommand):
    help = "Export a campaign to a versioned JSON document (stdout, or --output FILE)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", help="write to this file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['slug']!r}")
        text = json.dumps(export_campaign(campaign), indent=1, sort_keys=True, ensure_ascii=False)
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"wrote {campaign.name} to {options['output']}")
        else:
            self.stdout.write(text)
