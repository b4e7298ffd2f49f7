"""The daily tick on a real Celery worker (Redis broker, PostgreSQL): the worker is killed with SIGKILL in the
middle of a day, after some chunks committed and inside another; the next worker finishes the day, and every
captain at sea has sailed it exactly once, with the dice the first worker would have rolled."""

from __future__ import annotations

import pytest

from campaign.dice import die_for
from campaign.models import Campaign, CampaignRoll, CampaignShip, ChronicleEntry, ChronicleKind
from strategic_map.models import CampaignDay, DayKind, VoyageDay
from strategic_map.tick_tasks import campaign_tick_task
from tests.factories import CampaignFactory
from tests.infra.test_celery_worker import wait_for
from tests.strategic_map.tick_fleet import HOME, fleet, hexes_east, quiet_seas

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

CAPTAINS = 80
CHUNK = 10


@pytest.fixture
def slow_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's tick: chunks of ten voyages, each held open 0.7 s before it commits (a test-only setting),
    so that the kill lands mid-tick. Set before the worker process starts: it reads them from its environment."""
    monkeypatch.setenv("TICK_CHUNK_SIZE", str(CHUNK))
    monkeypatch.setenv("TICK_TEST_CHUNK_PAUSE_MS", "700")


@pytest.fixture
def tick_worker(slow_chunks, live_celery_worker):
    return live_celery_worker


def days_done(campaign: Campaign) -> int:
    return VoyageDay.objects.filter(campaign=campaign, day=1).count()


def test_a_worker_killed_mid_tick_leaves_every_captain_advanced_exactly_once(tick_worker, monkeypatch):
    campaign = CampaignFactory(slug="killed-mid-tick")
    quiet_seas(campaign)  # every die rolled and logged, none an encounter
    voyages = fleet(campaign, CAPTAINS, holding_every=10, steam_every=10)

    campaign_tick_task.delay(campaign.pk, 1)
    wait_for(lambda: days_done(campaign) >= 3 * CHUNK, "the worker to commit three chunks of the day", 90)
    tick_worker.kill()

    # Whole chunks only: the one the worker was in died with it, dice and all.
    done = days_done(campaign)
    assert 3 * CHUNK <= done < CAPTAINS
    assert done % CHUNK == 0
    assert CampaignRoll.objects.filter(campaign=campaign).count() == done
    assert Campaign.objects.get(pk=campaign.pk).day == 0
    assert CampaignDay.objects.get(campaign=campaign, day=1).finished_at is None
    committed = dict(VoyageDay.objects.filter(campaign=campaign, day=1).values_list("voyage_id", "encounter_roll_id"))

    monkeypatch.setenv("TICK_TEST_CHUNK_PAUSE_MS", "50")
    tick_worker.restart()  # the unacknowledged message comes back to the new worker
    wait_for(lambda: Campaign.objects.get(pk=campaign.pk).day == 1, "the next worker to finish the day", 120)

    # Every captain sailed the day once: one VoyageDay each, nobody twice, nobody left out.
    rows = list(VoyageDay.objects.filter(campaign=campaign).select_related("encounter_roll").order_by("voyage_id"))
    assert [row.voyage_id for row in rows] == sorted(v.pk for v in voyages)
    assert {row.day for row in rows} == {1}
    tocked = CampaignDay.objects.get(campaign=campaign, day=1)
    assert tocked.finished_at is not None
    assert tocked.ships_moved == CAPTAINS
    assert CampaignDay.objects.filter(campaign=campaign).count() == 1
    # One die a captain, numbered without a gap, each the seed's die for its number, in the voyages' order: the
    # rolls the killed worker lost were rolled again as the same dice.
    dice = list(CampaignRoll.objects.filter(campaign=campaign).order_by("seq"))
    assert [roll.seq for roll in dice] == list(range(1, CAPTAINS + 1))
    assert all(roll.result == die_for(campaign.seed, roll.seq, 6) for roll in dice)
    assert [row.encounter_roll.seq for row in rows] == list(range(1, CAPTAINS + 1))
    for row in rows:
        assert row.encounter_roll.day == 1
        assert f"Captain {row.encounter_roll.captain.name}" in row.encounter_roll.purpose
        if row.voyage_id in committed:
            assert row.encounter_roll_id == committed[row.voyage_id]
    # The day's effects once each: moved two hexes (not four), one day of coal burned, one note per missed order.
    two_east = hexes_east(HOME, 2)[2]
    movers = [row for row in rows if row.kind == DayKind.MOVE]
    assert len(movers) == CAPTAINS - CAPTAINS // 10
    assert all((row.to_q, row.to_r) == (two_east.q, two_east.r) for row in movers)
    assert sum(row.kind == DayKind.HOLD for row in rows) == CAPTAINS // 10
    notes = ChronicleEntry.objects.filter(campaign=campaign, kind=ChronicleKind.ORDERS_MISSED)
    assert notes.count() == CAPTAINS // 10
    steamers = CampaignShip.objects.filter(campaign=campaign, class_id="aphid")
    assert steamers.count() == CAPTAINS // 10
    assert set(steamers.values_list("coal_days", flat=True)) == {29}
    assert "strategic_map.campaign_tick" in tick_worker.log()
