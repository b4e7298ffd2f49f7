"""The daily tick (strategic_map.tick): every ship at sea sails her day once, rolls one logged encounter die for
the hex she ends in, and a day ticks once however often it is run."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.engine.hexgrid import Hex, from_odd_q, neighbour
from campaign.dice import die_for
from campaign.models import Campaign, CampaignRoll, CampaignShip, ChronicleEntry, ChronicleKind, ShipStatus
from strategic_map import calendar, tick
from strategic_map.map_rules import territory_numbers
from strategic_map.mapdata import mars_map
from strategic_map.models import (
    CampaignDay,
    CampaignMapRules,
    DayKind,
    OrderExtension,
    Voyage,
    VoyageDay,
    VoyageStatus,
)
from strategic_map.tick_tasks import campaign_tick_task, tick_due_campaigns
from tests.factories import CampaignFactory, UserFactory
from tests.strategic_map.tick_fleet import HOME, PARHOON, back_and_forth, fleet, hexes_east, quiet_seas, ship_record

pytestmark = pytest.mark.django_db

A, B, C = hexes_east(HOME, 2)


@pytest.fixture
def campaign() -> Campaign:
    found = CampaignFactory(slug="syrtis")
    quiet_seas(found)
    return found


def one_ship(campaign: Campaign, *, plan: list, **kwargs) -> Voyage:
    [voyage] = fleet(campaign, 1, plan=plan, prefix=kwargs.pop("prefix", "") or f"{campaign.slug}-one-", **kwargs)
    return voyage


def days_of(voyage: Voyage) -> list[VoyageDay]:
    return list(VoyageDay.objects.filter(voyage=voyage).order_by("day"))


def rolls(campaign: Campaign) -> list[CampaignRoll]:
    return list(CampaignRoll.objects.filter(campaign=campaign).order_by("seq"))


# --- every ship once a day -----------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-01", "SGC-ENC-05")
def test_every_ship_at_sea_sails_each_day_exactly_once(campaign, settings):
    settings.TICK_CHUNK_SIZE = 7  # several chunks a day
    voyages = fleet(campaign, 30, plan=back_and_forth(HOME, 3), holding_every=5)

    assert tick.campaign_tick(campaign_id=campaign.pk, days=2) == [1, 2]

    campaign.refresh_from_db()
    assert campaign.day == 2
    for voyage in voyages:
        voyage.refresh_from_db()
        assert [day.day for day in days_of(voyage)] == [1, 2]
        if voyage.plan or days_of(voyage)[0].kind == DayKind.MOVE:
            # Out two hexes east and back again: home, with the third day still to sail.
            assert (voyage.q, voyage.r) == (A.q, A.r)
            assert voyage.plan == back_and_forth(HOME, 3)[2:]
    assert VoyageDay.objects.filter(campaign=campaign, day=1).count() == 30
    # One die a ship a day, every one logged for the day it was rolled for.
    assert CampaignRoll.objects.filter(campaign=campaign, day=1).count() == 30
    assert CampaignRoll.objects.filter(campaign=campaign, day=2).count() == 30
    for number in (1, 2):
        tocked = CampaignDay.objects.get(campaign=campaign, day=number)
        assert tocked.finished_at is not None
        assert tocked.ships_moved == 30
        assert tocked.encounters == 0


@pytest.mark.rule("SGC-MOVE-01")
def test_a_day_ticked_twice_ticks_once(campaign):
    voyages = fleet(campaign, 5)
    assert tick.campaign_tick(campaign_id=campaign.pk, through_day=1) == [1]
    before = (VoyageDay.objects.count(), CampaignRoll.objects.count(), ChronicleEntry.objects.count())
    moved = [(v.q, v.r, v.plan) for v in Voyage.objects.order_by("pk")]

    assert tick.campaign_tick(campaign_id=campaign.pk, through_day=1) == []
    assert campaign_tick_task(campaign.pk, 1) == []  # the task queued for day 1, delivered again

    assert (VoyageDay.objects.count(), CampaignRoll.objects.count(), ChronicleEntry.objects.count()) == before
    assert [(v.q, v.r, v.plan) for v in Voyage.objects.order_by("pk")] == moved
    assert Campaign.objects.get(pk=campaign.pk).day == 1
    assert CampaignDay.objects.filter(campaign=campaign).count() == 1
    assert len(voyages) == 5


def test_a_day_half_ticked_is_finished_not_redone(campaign):
    """What a killed worker leaves: the day opened and some chunks committed. The re-run sails the rest."""
    voyages = fleet(campaign, 10)
    assert tick.campaign_day_open(campaign_id=campaign.pk, day=1) is not None
    numbers = territory_numbers(campaign)
    assert tick.voyages_sail_chunk(campaign_id=campaign.pk, day=1, numbers=numbers, size=4) == 4
    assert VoyageDay.objects.filter(day=1).count() == 4
    first_dice = [(r.seq, r.result, r.purpose) for r in rolls(campaign)]

    assert tick.campaign_tick(campaign_id=campaign.pk) == [1]

    assert sorted(VoyageDay.objects.filter(day=1).values_list("voyage_id", flat=True)) == [v.pk for v in voyages]
    assert [(r.seq, r.result, r.purpose) for r in rolls(campaign)][:4] == first_dice
    assert [r.seq for r in rolls(campaign)] == list(range(1, 11))
    assert CampaignDay.objects.get(campaign=campaign, day=1).ships_moved == 10


def test_a_ship_that_sets_out_during_the_tick_sails_the_day_before_it_closes(campaign):
    fleet(campaign, 3, prefix="early-")
    tick.campaign_day_open(campaign_id=campaign.pk, day=1)
    numbers = territory_numbers(campaign)
    while tick.voyages_sail_chunk(campaign_id=campaign.pk, day=1, numbers=numbers):
        pass
    [late] = fleet(campaign, 1, prefix="late-")

    assert tick.campaign_day_close(campaign_id=campaign.pk, day=1) is None  # not while she waits
    assert tick.campaign_tick(campaign_id=campaign.pk) == [1]

    assert [day.day for day in days_of(late)] == [1]
    assert VoyageDay.objects.filter(day=1).count() == 4
    assert tick.campaign_day_close(campaign_id=campaign.pk, day=1) is False


def test_a_rerun_after_a_rollback_rolls_the_same_dice(campaign):
    """A worker killed mid-chunk commits nothing of it; the next run takes the same voyages in the same order and
    the dice come from the seed and the roll's number: the same dice, not fresh ones."""
    fleet(campaign, 12)

    class WorkerKilled(Exception):
        pass

    lost: list[tuple[int, int, str]] = []

    def day_then_killed() -> None:
        with transaction.atomic():
            tick.campaign_tick(campaign_id=campaign.pk)
            lost.extend((r.seq, r.result, r.purpose) for r in rolls(campaign))
            raise WorkerKilled

    with pytest.raises(WorkerKilled):
        day_then_killed()
    assert not CampaignRoll.objects.exists()
    assert not VoyageDay.objects.exists()

    tick.campaign_tick(campaign_id=campaign.pk)

    assert [(r.seq, r.result, r.purpose) for r in rolls(campaign)] == lost
    assert len(lost) == 12


# --- the dice ------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-ENC-05", "SGC-ENC-03")
def test_each_die_is_logged_with_a_purpose_naming_the_ship_and_the_day(campaign):
    voyages = fleet(campaign, 3)
    tick.campaign_tick(campaign_id=campaign.pk)
    for voyage in voyages:
        [day] = days_of(voyage)
        roll = day.encounter_roll
        assert roll is not None
        assert roll.captain_id == voyage.captain_id
        assert roll.day == 1
        assert roll.result == die_for(campaign.seed, roll.seq, 6)
        assert roll.purpose.startswith("Encounter die, day 1: ")
        assert f"the {voyage.ship.name} (Captain {voyage.captain.name})" in roll.purpose
        assert "moving through Neutral Northeast" in roll.purpose
        assert day.encounter_number == 0
        assert day.territory == "Neutral Northeast"


@pytest.mark.rule("SGC-ENC-03", "SGC-ENC-04", "SGC-MOVE-11")
def test_moving_ships_roll_the_move_through_number_and_staying_ships_the_patrol_number(campaign):
    # Move-through 0 and no patrol number: only a ship that moved rolls. Then the other way round.
    quiet_seas(campaign, 0, patrol=None)
    CampaignMapRules.objects.filter(campaign=campaign).update(
        territory_numbers={"Neutral Northeast": {"move_through": 0, "patrol": None}}
    )
    mover = one_ship(campaign, plan=back_and_forth(HOME, 1), prefix="m-")
    patroller = one_ship(campaign, plan=[{"kind": "patrol"}, {"kind": "patrol"}], prefix="p-")
    holder = one_ship(campaign, plan=[], prefix="h-")
    tick.campaign_tick(campaign_id=campaign.pk)
    assert days_of(mover)[0].encounter_roll is not None
    assert days_of(patroller)[0].encounter_roll is None
    assert days_of(holder)[0].encounter_roll is None

    CampaignMapRules.objects.filter(campaign=campaign).update(
        territory_numbers={"Neutral Northeast": {"move_through": None, "patrol": 0}}
    )
    mover.refresh_from_db()
    mover.plan = back_and_forth(HOME, 1)
    mover.save()
    tick.campaign_tick(campaign_id=campaign.pk)
    assert days_of(mover)[1].encounter_roll is None
    assert days_of(patroller)[1].kind == DayKind.PATROL
    assert days_of(patroller)[1].encounter_roll is not None
    assert "patrolling Neutral Northeast" in days_of(patroller)[1].encounter_roll.purpose
    assert days_of(holder)[1].kind == DayKind.HOLD
    assert days_of(holder)[1].encounter_roll is not None


@pytest.mark.rule("SGC-ENC-06")
def test_the_die_is_for_the_territory_of_the_hex_she_ends_the_day_in(campaign):
    atlas = mars_map()
    start = from_odd_q(9, 5)  # Astusapes, next to the Neutral Northeast
    end = neighbour(start, 2)
    assert atlas.hex_at(start.q, start.r).territory == "Astusapes"
    assert atlas.hex_at(end.q, end.r).territory == "Neutral Northeast"
    CampaignMapRules.objects.filter(campaign=campaign).update(
        territory_numbers={"Astusapes": {"move_through": None, "patrol": None}}
    )
    voyage = one_ship(campaign, plan=[{"kind": "move", "path": [end.to_json()]}], start=start)

    tick.campaign_tick(campaign_id=campaign.pk)

    [day] = days_of(voyage)
    assert day.territory == "Neutral Northeast"
    assert day.encounter_roll is not None
    assert (day.from_q, day.from_r, day.to_q, day.to_r) == (start.q, start.r, end.q, end.r)


@pytest.mark.rule("SGC-ENC-02")
def test_no_numbers_no_roll_in_british_territory(campaign):
    start = Hex(*PARHOON)
    out = [h for h in (neighbour(start, d) for d in range(6)) if mars_map().hex_at(h.q, h.r).territory == "British"]
    voyage = one_ship(campaign, plan=[{"kind": "move", "path": [out[0].to_json()]}, {"kind": "patrol"}], start=start)

    tick.campaign_tick(campaign_id=campaign.pk)

    [day] = days_of(voyage)
    assert day.territory == "British"
    assert day.encounter_number is None
    assert day.encounter_roll is None
    assert not CampaignRoll.objects.exists()


# --- holding, coal, becalmed --------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-11")
def test_a_captain_without_orders_holds_position_and_the_chronicle_notes_it_without_saying_where(campaign):
    voyage = one_ship(campaign, plan=[])

    tick.campaign_tick(campaign_id=campaign.pk, days=2)

    first, second = days_of(voyage)
    assert first.kind == second.kind == DayKind.HOLD
    assert (first.to_q, first.to_r) == (HOME.q, HOME.r) == (second.to_q, second.to_r)
    assert first.encounter_roll is not None
    assert "patrolling" in first.encounter_roll.purpose
    notes = list(ChronicleEntry.objects.filter(campaign=campaign, kind=ChronicleKind.ORDERS_MISSED).order_by("day"))
    assert [note.day for note in notes] == [1, 2]
    assert notes[0].captain_id == voyage.captain_id
    assert voyage.captain.name in notes[0].text
    where = mars_map().hex_at(HOME.q, HOME.r)
    for note in notes:
        for secret in (where.label, where.territory, str(HOME.q), str(HOME.r), "Northeast"):
            assert secret not in note.text


@pytest.mark.rule("SGC-MOVE-14")
def test_a_steam_ship_burns_a_day_of_coal_a_day_and_cannot_move_with_empty_bunkers(campaign):
    voyage = one_ship(campaign, plan=back_and_forth(HOME, 3), class_id="aphid", coal_days=1)
    assert voyage.ship.coal_days == 1

    tick.campaign_tick(campaign_id=campaign.pk, days=2)

    first, second = days_of(voyage)
    assert (first.kind, first.coal_burned) == (DayKind.MOVE, 1)
    assert (second.kind, second.coal_burned) == (DayKind.BECALMED, 0)
    assert "bunkers are empty" in second.note
    assert second.encounter_roll is not None  # one die a day even becalmed: she stays in the hex, patrolling
    voyage.refresh_from_db()
    assert voyage.ship.coal_days == 0
    assert (voyage.q, voyage.r) == (C.q, C.r)  # where the first day took her
    assert voyage.plan == back_and_forth(HOME, 3)[1:]  # the orders wait until she can sail


def test_a_steam_ship_holding_burns_coal_and_a_kite_burns_none(campaign):
    steamer = one_ship(campaign, plan=[], class_id="aphid", coal_days=5, prefix="s-")
    kite = one_ship(campaign, plan=[{"kind": "patrol"}], class_id="swiftwood", prefix="k-")
    tick.campaign_tick(campaign_id=campaign.pk)
    assert CampaignShip.objects.get(pk=steamer.ship_id).coal_days == 4
    assert days_of(kite)[0].coal_burned == 0
    assert CampaignShip.objects.get(pk=kite.ship_id).coal_days is None


def test_a_ship_with_no_speed_left_is_becalmed_and_keeps_her_orders(campaign):
    record = ship_record("fleetfoot", "Hulk")
    record["criticals"]["screw_mast_hits"] = 9
    voyage = one_ship(campaign, plan=back_and_forth(HOME, 2))
    CampaignShip.objects.filter(pk=voyage.ship_id).update(record=record)

    tick.campaign_tick(campaign_id=campaign.pk)

    [day] = days_of(voyage)
    assert day.kind == DayKind.BECALMED
    assert "no speed left" in day.note
    assert (day.to_q, day.to_r) == (HOME.q, HOME.r)
    voyage.refresh_from_db()
    assert voyage.plan == back_and_forth(HOME, 2)


def test_a_ship_in_battle_does_not_sail_or_roll(campaign):
    voyage = one_ship(campaign, plan=back_and_forth(HOME, 2))
    CampaignShip.objects.filter(pk=voyage.ship_id).update(status=ShipStatus.IN_BATTLE)

    tick.campaign_tick(campaign_id=campaign.pk)

    [day] = days_of(voyage)
    assert day.kind == DayKind.BECALMED
    assert day.encounter_roll is None
    voyage.refresh_from_db()
    assert (voyage.q, voyage.r, voyage.plan) == (HOME.q, HOME.r, back_and_forth(HOME, 2))


@pytest.mark.parametrize(
    "path",
    [
        [C.to_json()],  # two hexes away: not next to her
        [B.to_json(), [40, 40]],  # off the map
        [],
        "north",
    ],
)
def test_orders_that_cannot_be_followed_leave_her_where_she_is_and_are_dropped(campaign, path):
    voyage = one_ship(campaign, plan=[{"kind": "move", "path": path}, {"kind": "patrol"}])

    tick.campaign_tick(campaign_id=campaign.pk)

    [day] = days_of(voyage)
    assert day.kind == DayKind.BECALMED
    assert "could not follow" in day.note
    voyage.refresh_from_db()
    assert (voyage.q, voyage.r, voyage.plan) == (HOME.q, HOME.r, [])


def test_a_prize_in_tow_goes_where_her_tower_goes(campaign):
    tower = one_ship(campaign, plan=back_and_forth(HOME, 2), prefix="t-")
    prize = one_ship(campaign, plan=[{"kind": "patrol"}], prefix="p-")
    CampaignShip.objects.filter(pk=prize.ship_id).update(towed_by=tower.ship_id, status=ShipStatus.PRIZE)

    tick.campaign_tick(campaign_id=campaign.pk)

    [towed_day] = days_of(prize)
    assert towed_day.kind == DayKind.MOVE
    assert towed_day.path == [B.to_json(), C.to_json()]
    assert towed_day.encounter_roll is None  # the tow meets what her tower meets
    assert "In tow of the" in towed_day.note
    prize.refresh_from_db()
    assert (prize.q, prize.r, prize.plan) == (C.q, C.r, [])
    assert CampaignRoll.objects.count() == 1


def test_a_voyage_ended_is_not_sailed(campaign):
    voyage = one_ship(campaign, plan=back_and_forth(HOME, 2))
    Voyage.objects.filter(pk=voyage.pk).update(status=VoyageStatus.ARRIVED)
    assert tick.campaign_tick(campaign_id=campaign.pk) == [1]
    assert not VoyageDay.objects.exists()
    assert CampaignDay.objects.get(campaign=campaign, day=1).ships_moved == 0


# --- arrival and encounters: the other parts' services, called for real ----------------------------------------


def test_a_ship_whose_orders_end_in_a_friendly_city_arrives(campaign, django_capture_on_commit_callbacks):
    start = Hex(*PARHOON)
    outside = neighbour(start, 0)
    voyage = one_ship(campaign, plan=[{"kind": "move", "path": [start.to_json()]}], start=outside)

    with django_capture_on_commit_callbacks(execute=True):
        tick.campaign_tick(campaign_id=campaign.pk)

    voyage.refresh_from_db()
    assert voyage.status == VoyageStatus.ARRIVED
    assert voyage.end_city.casefold() == "parhoon"


@pytest.mark.rule("SGC-ENC-03")
def test_a_die_within_the_number_is_an_encounter(campaign):
    quiet_seas(campaign, 6)  # every die hits
    voyages = fleet(campaign, 3)

    tick.campaign_tick(campaign_id=campaign.pk)

    assert CampaignDay.objects.get(campaign=campaign, day=1).encounters >= 1
    for voyage in voyages:
        assert days_of(voyage)[0].encounter_id is not None


# --- bounded queries -----------------------------------------------------------------------------------------


def statements(captured: list[dict]) -> int:
    """The queries run. SQLite splits a bulk insert or update into batches of its 999 parameters, so there one
    statement of 200 rows is several queries: those batches count once (PostgreSQL sends each as one)."""
    count, previous = 0, ""
    for query in captured:
        sql = query["sql"]
        head = sql[: sql.find("(")] if sql.startswith(("INSERT", "UPDATE")) else ""
        batch = connection.vendor == "sqlite" and head and head == previous
        count += 0 if batch else 1
        previous = head
    return count


def queries_for_a_day(captains: int, *, slug: str, settings, size: int = 200) -> int:
    settings.TICK_CHUNK_SIZE = size
    campaign = CampaignFactory(slug=slug)
    quiet_seas(campaign)
    # The same mix at any size: every tenth captain without orders, every tenth a steam ship burning coal.
    fleet(campaign, captains, holding_every=10, steam_every=10)
    with CaptureQueriesContext(connection) as queries:
        assert tick.campaign_tick(campaign_id=campaign.pk) == [1]
    assert VoyageDay.objects.filter(campaign=campaign, day=1).count() == captains
    assert ChronicleEntry.objects.filter(campaign=campaign, kind=ChronicleKind.ORDERS_MISSED).count() == captains // 10
    return statements(queries.captured_queries)


def test_the_tick_takes_the_same_queries_for_10_captains_as_for_200(settings):
    ten = queries_for_a_day(10, slug="ten", settings=settings)
    two_hundred = queries_for_a_day(200, slug="two-hundred", settings=settings)
    assert ten == two_hundred
    assert two_hundred < 40


def test_the_tick_s_queries_grow_with_its_chunks_not_its_captains(settings):
    one_chunk = queries_for_a_day(200, slug="one-chunk", settings=settings, size=200)
    two_chunks = queries_for_a_day(200, slug="two-chunks", settings=settings, size=100)
    four_chunks = queries_for_a_day(200, slug="four-chunks", settings=settings, size=50)
    per_chunk = two_chunks - one_chunk
    assert 0 < per_chunk < 20
    assert four_chunks - one_chunk == 3 * per_chunk


# --- the schedule: beat, the task, the command ---------------------------------------------------------------


def test_the_beat_ticks_the_campaigns_that_are_due_and_no_other(settings):
    now = timezone.now()
    due = CampaignFactory(slug="due", next_tick_at=now - timedelta(minutes=1), hours_per_day=24)
    later = CampaignFactory(slug="later", next_tick_at=now + timedelta(hours=1))
    paused = CampaignFactory(slug="paused", next_tick_at=now - timedelta(minutes=1), paused=True)
    unscheduled = CampaignFactory(slug="unscheduled")
    extended = CampaignFactory(slug="extended", next_tick_at=now - timedelta(minutes=1))
    OrderExtension.objects.create(
        campaign=extended, day=1, until=now + timedelta(hours=2), reason="A late letter", granted_by=UserFactory()
    )
    for campaign in (due, later, paused, unscheduled, extended):
        quiet_seas(campaign)
        fleet(campaign, 2)

    assert tick_due_campaigns() == 1  # eager here: the queued tick runs at once
    assert tick_due_campaigns() == 0  # the next minute: nothing due

    days = {c.slug: c.day for c in Campaign.objects.all()}
    assert days == {"due": 1, "later": 0, "paused": 0, "unscheduled": 0, "extended": 0}
    due.refresh_from_db()
    assert due.next_tick_at is not None
    assert timedelta(hours=23) < due.next_tick_at - now < timedelta(hours=25)
    assert calendar.campaigns_due(now + timedelta(hours=3)) == [later, extended]


def test_the_next_tick_is_a_day_after_the_last_on_the_campaign_s_cadence():
    now = timezone.now()
    campaign = Campaign(hours_per_day=6, next_tick_at=now - timedelta(minutes=5))
    assert tick._next_tick(campaign, now) == campaign.next_tick_at + timedelta(hours=6)
    # The umpire ran the day early: the next day keeps the calendar's slot, however many he runs by hand.
    campaign.next_tick_at = now + timedelta(hours=2)
    assert tick._next_tick(campaign, now) == now + timedelta(hours=2)
    # Unscheduled: a day from now.
    campaign.next_tick_at = None
    assert tick._next_tick(campaign, now) == now + timedelta(hours=6)
    # Far behind (paused for two days): the next slot still to come, not a burst of days.
    campaign.next_tick_at = now - timedelta(hours=49)
    assert tick._next_tick(campaign, now) == now - timedelta(hours=49) + timedelta(hours=54)


def test_the_command_ticks_the_days_asked_and_says_what_it_did(campaign):
    fleet(campaign, 4, holding_every=2)
    out = StringIO()

    call_command("campaign_tick", "syrtis", "--days", "2", stdout=out)

    campaign.refresh_from_db()
    assert campaign.day == 2
    text = out.getvalue()
    assert "day 1: 4 ship(s) sailed, 0 encounter(s)" in text
    assert "day 2: 4 ship(s) sailed" in text
    assert "is at day 2" in text


def test_the_command_refuses_an_unknown_campaign_and_a_bad_number_of_days(campaign):
    with pytest.raises(CommandError, match="no campaign"):
        call_command("campaign_tick", "nowhere")
    with pytest.raises(CommandError, match="--days"):
        call_command("campaign_tick", "syrtis", "--days", "0")


def test_queueing_the_umpire_s_tick_runs_it_once_even_if_queued_twice(campaign, django_capture_on_commit_callbacks):
    fleet(campaign, 3)
    with django_capture_on_commit_callbacks(execute=True):
        tick.campaign_tick_queue(campaign=campaign)
        tick.campaign_tick_queue(campaign=campaign)
    campaign.refresh_from_db()
    assert campaign.day == 1
    assert VoyageDay.objects.count() == 3


def seed_rolling_sixes(count: int) -> str:
    """A campaign seed whose first ``count`` dice are all sixes: the reference numbers roll, and nothing is met."""
    for n in range(100_000):
        seed = f"{n:064x}"
        if all(die_for(seed, seq, 6) == 6 for seq in range(1, count + 1)):
            return seed
    raise AssertionError("no such seed")


@pytest.mark.rule("SGC-ENC-07")
def test_astusapes_highlands_moving_meets_on_two_or_less_patrolling_on_five_or_less():
    """The rules' worked example (2/5) through the tick, on the reference map's numbers."""
    campaign = CampaignFactory(slug="astusapes", seed=seed_rolling_sixes(2))
    inside, south = from_odd_q(6, 4), neighbour(from_odd_q(6, 4), 3)
    assert mars_map().hex_at(inside.q, inside.r).territory == "Astusapes"
    assert mars_map().hex_at(south.q, south.r).territory == "Astusapes"
    mover = one_ship(campaign, plan=[{"kind": "move", "path": [south.to_json()]}], start=inside)
    patroller = one_ship(campaign, plan=[{"kind": "patrol"}], start=inside, prefix="p-")

    tick.campaign_tick(campaign_id=campaign.pk)

    [moved] = days_of(mover)
    [patrolled] = days_of(patroller)
    assert (moved.kind, moved.encounter_number) == (DayKind.MOVE, 2)
    assert (patrolled.kind, patrolled.encounter_number) == (DayKind.PATROL, 5)
    assert "an encounter on 2 or less" in moved.encounter_roll.purpose
    assert "an encounter on 5 or less" in patrolled.encounter_roll.purpose
    assert [moved.encounter_roll.result, patrolled.encounter_roll.result] == [6, 6]
