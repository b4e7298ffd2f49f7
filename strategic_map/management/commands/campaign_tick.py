"""manage.py campaign_tick SLUG [--days N]: run a campaign's next days now, in this process."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign
from strategic_map.models import CampaignDay
from strategic_map.tick import campaign_tick


class Command(BaseCommand):
    help = (
        "Tick a campaign's next day (or --days N days) now: every ship at sea sails her day and rolls her "
        "encounter die. Safe to re-run: a day already ticked is not ticked again, a half-ticked one is finished."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The campaign's slug.")
        parser.add_argument("--days", type=int, default=1, help="How many days to tick (default 1).")

    def handle(self, *args: Any, **options: Any) -> None:
        days: int = options["days"]
        if days < 1:
            raise CommandError("--days must be 1 or more.")
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {options['slug']!r}.")
        if campaign.paused:
            self.stdout.write(self.style.WARNING(f"{campaign.name} is paused; ticking it anyway, as asked."))
        ticked = campaign_tick(campaign_id=campaign.pk, days=days)
        for day in CampaignDay.objects.filter(campaign=campaign, day__in=ticked).order_by("day"):
            self.stdout.write(
                f"{campaign.name}, day {day.day}: {day.ships_moved} ship(s) sailed, {day.encounters} encounter(s)."
            )
        campaign.refresh_from_db()
        if not ticked:
            self.stdout.write(f"{campaign.name}: no day ticked (the campaign is at day {campaign.day}).")
        when = f"{campaign.next_tick_at:%Y-%m-%d %H:%M} UTC" if campaign.next_tick_at else "not scheduled"
        self.stdout.write(self.style.SUCCESS(f"{campaign.name} is at day {campaign.day}; the next tick: {when}."))
