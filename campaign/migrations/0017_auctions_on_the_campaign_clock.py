"""Auctions close on the campaign clock (issue 18): every open auction gets the campaign day at whose tick it closes,
the first tick at or after its old real-time deadline, and the campaign's ``auction_hours`` goes."""

import math
from datetime import timedelta

from django.db import migrations
from django.utils import timezone


def closing_days(apps, schema_editor):
    Auction = apps.get_model("campaign", "Auction")
    now = timezone.now()
    for auction in Auction.objects.filter(status="open", closes_on_day__isnull=True).select_related("campaign"):
        campaign = auction.campaign
        step = timedelta(hours=max(campaign.hours_per_day, 1))
        next_tick = campaign.next_tick_at or now + step
        # The tick of day campaign.day + 1 comes at next_tick, each later one a campaign day after it.
        late = max(auction.closes_at - next_tick, timedelta(0))
        auction.closes_on_day = campaign.day + 1 + math.ceil(late / step)
        auction.closes_at = next_tick + step * (auction.closes_on_day - campaign.day - 1)
        auction.save(update_fields=["closes_on_day", "closes_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0016_campaign_clock"),
    ]

    operations = [
        migrations.RunPython(closing_days, migrations.RunPython.noop),
        migrations.RemoveField(model_name="campaign", name="auction_hours"),
    ]
