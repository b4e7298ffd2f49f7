"""The daily tick's benchmark: one campaign day for 1,000 captains at sea, each in her own ship with a standing
plan (nine in ten sailing two hexes, one in ten without orders holding position, one in ten a steam ship burning
coal), every encounter die rolled and logged (the territories' numbers set to 0 so that none hits: the
encounter draw is another part's work).

`make bench` reports the time per day; extra_info gives the queries one day takes (SQLite splits bulk
statements into batches of 999 parameters, so it counts a few more than PostgreSQL for the same work).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, CampaignRoll
from strategic_map.models import VoyageDay
from strategic_map.tick import campaign_tick
from tests.factories import CampaignFactory
from tests.strategic_map.tick_fleet import HOME, back_and_forth, fleet, quiet_seas

CAPTAINS = 1_000
ROUNDS = 3


@pytest.mark.django_db
def test_bench_campaign_tick_1000_captains_at_sea(benchmark):
    campaign = CampaignFactory(slug="bench-tick")
    quiet_seas(campaign)
    fleet(campaign, CAPTAINS, plan=back_and_forth(HOME, ROUNDS + 2), holding_every=10, steam_every=10)

    def one_day() -> list[int]:
        return campaign_tick(campaign_id=campaign.pk)

    benchmark.pedantic(one_day, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    with CaptureQueriesContext(connection) as queries:
        assert one_day() == [ROUNDS + 1]

    assert Campaign.objects.get(pk=campaign.pk).day == ROUNDS + 1
    assert VoyageDay.objects.filter(campaign=campaign).count() == CAPTAINS * (ROUNDS + 1)
    assert CampaignRoll.objects.filter(campaign=campaign).count() == CAPTAINS * (ROUNDS + 1)
    benchmark.extra_info["captains"] = CAPTAINS
    benchmark.extra_info["chunk_size"] = settings.TICK_CHUNK_SIZE
    benchmark.extra_info["queries_per_day"] = len(queries)
    benchmark.extra_info["database"] = connection.vendor
    benchmark.extra_info["captains_per_second"] = round(CAPTAINS / benchmark.stats.stats.mean)
    print(  # the closing note quotes it
        f"\ncampaign_tick, {CAPTAINS} captains at sea on {connection.vendor}: "
        f"{benchmark.stats.stats.mean:.3f} s a day, {len(queries)} queries a day"
    )
