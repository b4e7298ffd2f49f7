"""The daily tick's benchmark: one campaign day for 1,000 captains at sea, each in her own ship with a standing
plan (nine in ten sailing two hexes, one in ten without orders holding position, one in ten a steam ship burning
coal), every encounter die rolled and logged. The first benchmark sets the territories' numbers to 0 so that
none hits (the sailing alone); the second gives every territory a move-through number of 2, so a third of the
ships meet something and the day also rolls the encounter table, draws the ships met and sails pairs together
(the battles open afterwards, each in its own task once the day has committed: not part of the day's time).

`make bench` reports the time per day; extra_info gives the queries one day takes (SQLite splits bulk
statements into batches of 999 parameters, so it counts a few more than PostgreSQL for the same work).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, CampaignRoll
from strategic_map.models import Encounter, VoyageDay
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


ENCOUNTER_NUMBER = 2  # out of six: a third of the fleet meets something each day


@pytest.mark.django_db
def test_bench_campaign_tick_1000_captains_with_encounters(benchmark):
    # Each round is the first day of a fresh fleet: ships that met something wait for their battle, so later days
    # of the same fleet would have fewer ships sailing and fewer encounters.
    fleets = iter(range(ROUNDS + 1))

    def fresh_fleet() -> tuple[tuple[int], dict[str, object]]:
        campaign = CampaignFactory(slug=f"bench-tick-met-{next(fleets)}")
        quiet_seas(campaign, ENCOUNTER_NUMBER)
        fleet(campaign, CAPTAINS, plan=back_and_forth(HOME, 3), holding_every=10, steam_every=10)
        return (campaign.pk,), {}

    def one_day(campaign_id: int) -> list[int]:
        return campaign_tick(campaign_id=campaign_id)

    benchmark.pedantic(one_day, setup=fresh_fleet, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    (campaign_id,), _ = fresh_fleet()
    with CaptureQueriesContext(connection) as queries:
        assert one_day(campaign_id) == [1]

    met = Encounter.objects.filter(campaign_id=campaign_id).count()
    # A third of a thousand, give or take the dice (and ships ending in the same hex meeting one encounter).
    assert 200 < met < 450, met
    benchmark.extra_info["captains"] = CAPTAINS
    benchmark.extra_info["encounters"] = met
    benchmark.extra_info["queries_per_day"] = len(queries)
    benchmark.extra_info["database"] = connection.vendor
    print(  # the closing note quotes it
        f"\ncampaign_tick with encounters, {CAPTAINS} captains at sea on {connection.vendor}: "
        f"{benchmark.stats.stats.mean:.3f} s a day, {met} encounters, {len(queries)} queries a day"
    )
