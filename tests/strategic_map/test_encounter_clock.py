"""An encounter's battle on the campaign clock (strategic_map.encounter_clock, issue 18): opened with a window of
campaign days and a deadline per turn; at the start of the window's last day the tick has the AI captains fight it
out for every side, carries the result back and sails the ship that same day; a re-run does nothing twice; the
player is told when; the desk shows it; no ship stays in battle longer than her window."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from battles import services as battle_services
from battles.models import BattleStatus, Controller
from campaign.models import AuditEntry, Campaign, CampaignShip, Membership, Notification, Role, ShipStatus
from strategic_map import encounter_clock, tick
from strategic_map.models import CampaignDay, DayKind, Encounter, EncounterStatus, VoyageDay
from tests.strategic_map.test_encounters import DAY, at_sea, club, draw, ship, with_seed  # noqa: F401 (fixtures)
from tests.strategic_map.tick_fleet import fleet, quiet_seas

pytestmark = pytest.mark.django_db

PATROLS = [{"kind": "patrol"}] * 10
# The campaign's dice for one High Martian Pirate, a Small Bird (tests/strategic_map/test_encounters.py).
HIGH_MARTIAN = [(6, 1), (2, 2), (6, 6), (6, 3), (6, 2), (6, 1)]


def fixed_battle_dice(monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    """The battle's dice from a fixed seed (as tests/battles does), so the AI's fight comes out the same."""
    monkeypatch.setattr(battle_services.dice, "new_seed", lambda: hashlib.sha256(label.encode()).digest())


def on_the_calendar(campaign: Campaign, *, day: int, days: int = 1) -> Campaign:
    """The campaign at ``day`` (ticked), its next day due in ten hours, battles given ``days`` campaign days."""
    campaign.day = day
    campaign.next_tick_at = timezone.now() + timedelta(hours=10)
    campaign.encounter_battle_days = days
    campaign.save()
    quiet_seas(campaign)  # the tick's own dice never hit: only the encounter made here is fought
    return campaign


@pytest.fixture
def met(club, draw, monkeypatch) -> dict[str, Any]:  # noqa: F811
    """The Gull patrols Neutral West and met an encounter on day DAY; her battle is open, waiting for Alice."""
    fixed_battle_dice(monkeypatch, "clock-5")  # the AI brings her through the fight
    campaign = on_the_calendar(club["campaign"], day=DAY)
    with_seed(campaign, HIGH_MARTIAN)
    gull = ship(campaign, club["jack"], "clearsight", "Gull", crew_quality="crack")
    day = at_sea(campaign, gull)
    day.voyage.plan = PATROLS
    day.voyage.save(update_fields=["plan"])
    (encounter,) = draw(campaign, [day])
    return {**club, "encounter": encounter, "gull": gull, "voyage": day.voyage}


@pytest.mark.rule("SGC-ENC-19", "SGC-ENC-20")
def test_the_battle_opens_with_its_window_a_deadline_per_turn_and_the_player_is_told_when_the_ai_takes_over(met):
    encounter, campaign = met["encounter"], met["campaign"]
    battle = encounter.battle
    assert encounter.window_ends_day == DAY + 1
    # The window's real minutes (1 day of 24 hours) over the 8 expected turns.
    assert battle.turn_minutes == 24 * 60 // 8
    # The window ends at the next tick (the tick of day DAY + 1), as the calendar has it.
    assert battle.hand_over_at == campaign.next_tick_at
    assert battle.deadline is not None
    assert battle.deadline <= battle.hand_over_at
    assert battle.sides.get(key="captain").controller == Controller.PLAYER
    told = Notification.objects.get(user=met["alice"], dedupe_key=f"encounter-battle:{battle.pk}")
    assert (
        f"If the battle is not over by the end of day {DAY + 1} (about {battle.hand_over_at:%a %d %b %H:%M} UTC), "
        "the AI captains will fight it out for both sides." in told.body
    )
    assert not Notification.objects.filter(user=met["bob"], body__contains="AI captains").exists()


@pytest.mark.rule("SGC-ENC-19")
def test_the_window_end_hands_over_finishes_the_battle_and_the_ship_sails_the_same_day(met):
    encounter, gull, voyage = met["encounter"], met["gull"], met["voyage"]
    gull.refresh_from_db()
    assert gull.status == ShipStatus.IN_BATTLE

    assert tick.campaign_tick(campaign_id=met["campaign"].pk) == [DAY + 1]

    encounter.refresh_from_db()
    battle = encounter.battle
    assert battle.status == BattleStatus.FINISHED
    assert {side.controller for side in battle.sides.all()} == {Controller.AI}
    assert battle.sides.get(key="captain").user == met["alice"]  # she keeps her side's view
    assert (encounter.status, encounter.applied_at is not None) == (EncounterStatus.RESOLVED, True)
    audit = AuditEntry.objects.get(campaign=met["campaign"], action=encounter_clock.HAND_OVER_ACTION)
    assert f"window ended on day {DAY + 1}" in audit.reason
    assert audit.data["sides"] == ["captain"]
    gull.refresh_from_db()
    assert gull.status == ShipStatus.AT_SEA, "pick a seed where the Gull comes through the fight"
    # She sailed her day DAY + 1 on the orders she kept: a patrol, not a day in battle.
    today = VoyageDay.objects.get(voyage=voyage, day=DAY + 1)
    assert today.kind == DayKind.PATROL
    assert today.encounter_roll is not None
    voyage.refresh_from_db()
    assert voyage.plan == PATROLS[1:]


@pytest.mark.rule("SGC-ENC-19")
def test_a_day_rerun_after_a_killed_worker_closes_each_window_once(met):
    campaign, encounter = met["campaign"], met["encounter"]
    # The worker opened the day and closed the window, then died before the ships sailed.
    assert tick.campaign_day_open(campaign_id=campaign.pk, day=DAY + 1) is not None
    assert encounter_clock.encounter_windows_close(campaign=campaign, day=DAY + 1) == 1
    events = encounter.battle.events.count()

    assert encounter_clock.encounter_windows_close(campaign=campaign, day=DAY + 1) == 0
    assert tick.campaign_tick(campaign_id=campaign.pk) == [DAY + 1]

    assert encounter.battle.events.count() == events
    assert AuditEntry.objects.filter(action=encounter_clock.HAND_OVER_ACTION).count() == 1
    assert VoyageDay.objects.filter(voyage=met["voyage"], day=DAY + 1, kind=DayKind.PATROL).count() == 1


@pytest.mark.rule("SGC-ENC-19")
def test_before_its_window_ends_the_battle_is_left_to_the_players(club, draw, monkeypatch):  # noqa: F811
    fixed_battle_dice(monkeypatch, "clock-1")
    campaign = on_the_calendar(club["campaign"], day=DAY, days=2)
    gull = ship(campaign, club["jack"], "clearsight", "Gull", crew_quality="crack")
    day = at_sea(campaign, gull)
    (encounter,) = draw(campaign, [day])
    assert encounter.window_ends_day == DAY + 2
    assert encounter.battle.hand_over_at == campaign.next_tick_at + timedelta(hours=24)
    assert encounter.battle.turn_minutes == 2 * 24 * 60 // 8

    assert tick.campaign_tick(campaign_id=campaign.pk) == [DAY + 1]
    encounter.battle.refresh_from_db()
    assert not encounter.battle.is_finished
    assert VoyageDay.objects.get(voyage=day.voyage, day=DAY + 1).note == "She did not sail: in battle."

    assert tick.campaign_tick(campaign_id=campaign.pk) == [DAY + 2]
    encounter.battle.refresh_from_db()
    assert encounter.battle.is_finished


def test_the_desk_shows_the_open_encounter_battle_and_its_window_and_hides_it_when_finished(client, met):
    battle = met["encounter"].battle
    client.force_login(met["umpire"])
    desk = reverse("campaign_desk", kwargs={"slug": met["campaign"].slug})
    page = client.get(desk).content.decode()
    row = page.split(f'data-desk-clock="{battle.pk}"')[1].split("</tr>")[0]
    assert reverse("battle_detail", args=[battle.pk]) in row
    assert "Captain Jack Fairweather" in row
    assert f"<td>{DAY}</td>" in row
    assert f"day {DAY + 1}" in row
    assert f"<td>{battle.turn}</td>" in row
    assert f"<td>Jack Fairweather ({met['alice'].public_name})</td>" in row  # the side awaited, with its player

    tick.campaign_tick(campaign_id=met["campaign"].pk)
    assert f'data-desk-clock="{battle.pk}"' not in client.get(desk).content.decode()


def test_a_third_player_never_hears_of_the_battle_or_its_window(client, met):
    battle = met["encounter"].battle
    client.force_login(met["carol"])
    assert client.get(reverse("battle_detail", args=[battle.pk])).status_code == 404
    assert client.get(reverse("api_battle_detail", kwargs={"battle_id": battle.pk})).status_code == 404
    assert not Notification.objects.filter(user=met["carol"]).exists()
    tick.campaign_tick(campaign_id=met["campaign"].pk)
    assert not Notification.objects.filter(user=met["carol"]).exists()


@pytest.mark.rule("SGC-ENC-19", "SGC-MOVE-01")
@pytest.mark.parametrize("window", [1, 2])
def test_a_campaign_of_days_with_encounters_never_keeps_a_ship_in_battle_longer_than_her_window(
    club,  # noqa: F811
    django_capture_on_commit_callbacks,
    monkeypatch,
    window,
):
    fixed_battle_dice(monkeypatch, f"clock-fleet-{window}")
    campaign = on_the_calendar(club["campaign"], day=0, days=window)
    Campaign.objects.filter(pk=campaign.pk).update(seed="c10c" * 16)  # the same days every run
    quiet_seas(campaign, 3)  # an encounter on 1-3: half the days at sea
    voyages = fleet(campaign, 4, plan=PATROLS, start=at_sea_hex())
    Membership.objects.bulk_create(
        [Membership(campaign=campaign, user=v.captain.player, role=Role.PLAYER) for v in voyages]
    )
    days = 6
    for _ in range(days):
        with django_capture_on_commit_callbacks(execute=True):  # the battles open after the day commits
            (today,) = tick.campaign_tick(campaign_id=campaign.pk)
        for voyage in voyages:
            ship_now = CampaignShip.objects.get(pk=voyage.ship_id)
            if ship_now.status != ShipStatus.IN_BATTLE:
                continue
            (encounter,) = Encounter.objects.filter(voyages=voyage, status=EncounterStatus.BATTLE)
            assert encounter.window_ends_day == encounter.day + window
            assert today < encounter.window_ends_day, f"{ship_now.name} still in battle on day {today}"
    assert CampaignDay.objects.get(campaign=campaign, day=days).encounters >= 0
    met = Encounter.objects.filter(campaign=campaign)
    assert met.count() >= 3, "the dice met too few encounters to test anything"
    # Every battle whose window has ended is over and carried back; the ships in them sailed on.
    for encounter in met.filter(day__lte=days - window):
        assert encounter.battle.status == BattleStatus.FINISHED
        assert encounter.applied_at is not None
    # A ship met in battle sat out no more than her window's days.
    idle = VoyageDay.objects.filter(campaign=campaign, note="She did not sail: in battle.")
    for voyage in voyages:
        assert idle.filter(voyage=voyage).count() <= (window - 1) * met.filter(voyages=voyage).count()


def at_sea_hex():
    from battles.engine.hexgrid import Hex

    return Hex(5, 3)  # open sky in Neutral West (the encounter tests' hex)
