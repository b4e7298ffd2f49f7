"""Ticks racing on PostgreSQL: the beat and the umpire's button (or a message handed out twice) run the same day
at once. Their chunks queue on the campaign's row lock; every captain sails the day once, the day closes once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from campaign.models import Campaign, CampaignRoll
from strategic_map import tick
from strategic_map.models import CampaignDay, VoyageDay
from tests.factories import CampaignFactory
from tests.strategic_map.tick_fleet import fleet, quiet_seas

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 4
CAPTAINS = 40


def test_ticks_racing_for_the_same_day_sail_every_captain_once(settings):
    settings.TICK_CHUNK_SIZE = 5
    campaign = CampaignFactory(slug="race")
    quiet_seas(campaign)
    voyages = fleet(campaign, CAPTAINS, holding_every=10, steam_every=10)
    start = threading.Barrier(RACERS)

    def run(_: int) -> list[int]:
        start.wait()
        try:
            return tick.campaign_tick(campaign_id=campaign.pk, through_day=1)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        outcomes = list(pool.map(run, range(RACERS)))

    assert sorted(outcomes) == [[]] * (RACERS - 1) + [[1]]  # one racer closed the day, the others found it done
    assert Campaign.objects.get(pk=campaign.pk).day == 1
    sailed = list(VoyageDay.objects.filter(campaign=campaign).values_list("voyage_id", "day"))
    assert sorted(sailed) == sorted((voyage.pk, 1) for voyage in voyages)
    assert list(CampaignRoll.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True)) == list(
        range(1, CAPTAINS + 1)
    )
    assert CampaignDay.objects.get(campaign=campaign, day=1).ships_moved == CAPTAINS
