"""A finished encounter battle's result carried back into the campaign (strategic_map.arrival.encounter_result_apply):
through the battles app's signal, once; damage and casualties kept; prizes taken in tow; ships and captains lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from battles import services
from battles.engine.outcome import ShipOutcome
from battles.models import BattleMode, BattleShip
from battles.services import SideControl
from campaign import ledger
from campaign.models import (
    Auction,
    CampaignShip,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    LedgerEntry,
    LotKind,
    ShipStatus,
)
from galleons.record import ShipRecord
from strategic_map import arrival, arrival_tasks
from strategic_map.models import Encounter, EncounterShip, EncounterStatus, EpicTrek, VoyageStatus
from tests.infra.test_celery_worker import wait_for
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.arrival_fixtures import SEA, battle_of, fates

# The fixtures of a campaign at sea and its encounters (kept out of a shared conftest: other parts have their own).
table = arrival_fixtures.table
fight = arrival_fixtures.fight

pytestmark = pytest.mark.django_db

PIRATE = ("Pirate Ship", "clearsight", "Black Wing", "Trained")
PRIZE_IN_TOW = ("Prize Ship in Tow", "warm_winds", "Golden Dawn", "")
MERCHANT = ("Enemy Merchantman", "warm_winds", "Golden Dawn", "Green")


def test_the_battles_end_carries_the_result_back_once_with_damage_losses_a_prize_and_a_wreck(fight, table):
    # Seed "arrival-116" (arrival_fixtures.BOARDING): the Gull sends the pirate down and boards and takes the
    # prize she was towing, and is knocked about doing it.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed=arrival_fixtures.BOARDING)
    assert fates(encounter) == {"Black Wing": "crashed", "Golden Dawn": "captured", "Gull": "fighting"}, (
        "the engine changed: pick a seed where the Gull boards the Golden Dawn (arrival_fixtures.BOARDING)"
    )
    result = {s["name"]: s for s in battle_of(encounter).result.data["ships"]}

    # The signal queued the apply when the result was stored: it has run, once.
    assert encounter.applied_at is not None
    assert encounter.status == EncounterStatus.RESOLVED
    assert arrival.encounter_result_apply(encounter_id=encounter.pk) is False
    assert arrival_tasks.encounter_results_sweep() == 0

    # Her damage and casualties are the battle's.
    record = ShipRecord.from_json(table.gull.record)
    assert record.hull_hits == result["Gull"]["hull"]["hits"] > 0
    assert record.position is None
    assert record.boarding is None
    assert table.voyage.losses == result["Gull"]["crew"]["lost"] > 0
    assert table.voyage.took_prize is True
    assert (table.gull.status, table.jack.status) == (ShipStatus.AT_SEA, CaptainStatus.AT_SEA)

    # The ship she took is in her tow with the cargo she carried; the wreck is no prize.
    prize = CampaignShip.objects.get(status=ShipStatus.PRIZE)
    assert prize.name == "Golden Dawn"
    assert (prize.towed_by_id, prize.captured_by_id, prize.captain_id) == (table.gull.pk, table.jack.pk, None)
    assert EncounterShip.objects.get(encounter=encounter, name="Golden Dawn").campaign_ship_id == prize.pk
    assert EncounterShip.objects.get(encounter=encounter, name="Black Wing").campaign_ship_id is None
    assert (prize.original_price, prize.cargo_tons) == (112_600, 390)
    assert ShipRecord.from_json(prize.record).hull_hits == result["Golden Dawn"]["hull"]["hits"]

    # Applied twice (a task run again, the sweep): nothing doubles.
    assert arrival.encounter_result_apply(encounter_id=encounter.pk) is False
    table.refresh()
    assert table.voyage.losses == result["Gull"]["crew"]["lost"]
    assert CampaignShip.objects.filter(status=ShipStatus.PRIZE).count() == 1

    # The public chronicle counts the prize and the wreck, never the place or the names.
    action = ChronicleEntry.objects.get(kind=ChronicleKind.ACTION)
    assert action.text == "Captain Jack fought an action; took a prize; sent an enemy down."
    assert ChronicleEntry.objects.filter(text__icontains="Northeast").count() == 0


@pytest.mark.rule("SGC-ETYPE-14", "SGC-ETYPE-12")
def test_a_merchant_that_strikes_becomes_a_prize_in_tow_with_her_cargo(fight, table):
    encounter = fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")

    assert fates(encounter)["Golden Dawn"] == "struck"
    prize = CampaignShip.objects.get(name="Golden Dawn")
    assert (prize.status, prize.towed_by_id, prize.captured_by_id) == (ShipStatus.PRIZE, table.gull.pk, table.jack.pk)
    # Tonnage 1,950 x the campaign's cargo fraction (a fifth), rounded.
    assert prize.cargo_tons == 390
    assert (prize.class_id, prize.crew_quality) == ("warm_winds", "green")


@pytest.mark.rule("SGC-START-13")
def test_a_martian_merchant_is_taken_home_by_the_red_captains_martian_built_ship(fight, table):
    # The Gull is Parhoon-built and crewed under British officers (DESIGN.md section 8): a Martian prize is hers
    # to take; the engine's struck merchant is made a prize whatever her make.
    encounter = fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")

    prize = CampaignShip.objects.get(name="Golden Dawn")
    assert "Merchant" in ShipRecord.from_json(prize.record).nation
    assert table.gull.yard == "martian"
    assert prize.towed_by_id == table.gull.pk
    assert encounter.status == EncounterStatus.RESOLVED


@pytest.mark.rule("SGC-START-01")
def test_only_legitimate_prey_is_taken_a_neutral_that_strikes_is_let_go(fight, table):
    neutral = ("Neutral trader", "warm_winds", "Golden Dawn", "Green")
    encounter = fight([neutral], result="A neutral trader", surrender="traders", enemy_side="traders")

    assert fates(encounter)["Golden Dawn"] == "struck"
    assert encounter.applied_at is not None
    assert not CampaignShip.objects.filter(name="Golden Dawn").exists()
    assert table.voyage.took_prize is False
    assert EncounterShip.objects.get(encounter=encounter).campaign_ship is None


@pytest.mark.rule("SGC-MONEY-05")
def test_sinking_an_enemy_pays_nothing_only_the_prize_counts(fight, table):
    before = LedgerEntry.objects.filter(captain=table.jack).count()
    # Seed "arrival-27" (re-picked for issue 18's engine): the pirate is shot down; the prize she towed strikes.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed="arrival-27")
    assert fates(encounter) == {"Black Wing": "crashed", "Golden Dawn": "struck", "Gull": "fighting"}, (
        "the engine changed: pick a seed where the pirate goes down and the prize strikes"
    )

    assert LedgerEntry.objects.filter(captain=table.jack).count() == before
    assert not CampaignShip.objects.filter(name="Black Wing").exists()
    assert EncounterShip.objects.get(encounter=encounter, name="Black Wing").campaign_ship is None
    assert list(CampaignShip.objects.filter(status=ShipStatus.PRIZE).values_list("name", flat=True)) == ["Golden Dawn"]
    assert ChronicleEntry.objects.get(kind=ChronicleKind.ACTION).text == (
        "Captain Jack fought an action; took a prize; sent an enemy down."
    )
    ledger.check(table.jack)


def test_a_ship_shot_down_with_her_captain_is_lost_and_so_is_he_and_the_prize_she_towed(fight, table):
    # A prize she had in tow, kept out of the fight (a scenario without her), is lost with her.
    earlier = arrival_fixtures.prize_in_tow(table)
    # Seed "arrival-0": the pirates bring the Gull down; her captain goes down with her.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed="arrival-0")
    assert fates(encounter)["Gull"] == "crashed", "the engine changed: pick a seed where the Gull is shot down"

    assert table.gull.status == ShipStatus.LOST
    assert (table.voyage.status, table.voyage.ended_day) == (VoyageStatus.LOST, encounter.day)
    assert table.jack.status == CaptainStatus.LOST
    assert not EpicTrek.objects.exists()
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.SHIP_LOST, text__contains="Gull").exists()
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.CAPTAIN_LOST, captain=table.jack).exists()
    assert not CampaignShip.objects.filter(status=ShipStatus.PRIZE).exists()
    earlier.refresh_from_db()
    assert (earlier.status, earlier.towed_by_id) == (ShipStatus.LOST, None)


def test_a_captain_killed_aboard_a_ship_that_fights_on_is_lost_and_she_sails_home_without_him(fight, table):
    # Seed "arrival-15": the turn limit comes with the Gull still fighting and Captain Jack among her dead.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed="arrival-15")
    captains = {c["ship"]: c["fate"] for c in battle_of(encounter).result.data["captains"]}
    assert (fates(encounter)["Gull"], captains["Gull"]) == ("fighting", "killed"), (
        "the engine changed: pick a seed where the Gull fights on without her captain"
    )

    assert table.jack.status == CaptainStatus.LOST
    assert table.gull.status == ShipStatus.AT_SEA
    assert table.voyage.status == VoyageStatus.UNDER_WAY
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=4)
    table.refresh()
    assert table.gull.status == ShipStatus.IN_PORT
    assert table.jack.status == CaptainStatus.LOST  # not brought back to life ashore
    homecoming = ChronicleEntry.objects.get(kind=ChronicleKind.VOYAGE_ENDED).text
    assert homecoming.startswith("The Gull comes home")


def test_a_prize_already_in_tow_comes_through_the_action_still_in_tow(fight, table):
    earlier = arrival_fixtures.prize_in_tow(table)
    encounter = fight(
        [MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians", in_tow=[earlier]
    )

    assert fates(encounter)["Fair Wind"] in ("fighting", "landed")
    earlier.refresh_from_db()
    assert (earlier.status, earlier.towed_by_id) == (ShipStatus.PRIZE, table.gull.pk)
    assert set(CampaignShip.objects.filter(towed_by=table.gull).values_list("name", flat=True)) == {
        "Fair Wind",
        "Golden Dawn",
    }
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=4)
    assert CampaignShip.objects.filter(towed_by=table.gull).count() == 0
    assert set(Auction.objects.filter(lot=LotKind.SHIP).values_list("ship__name", flat=True)) == {
        "Fair Wind",
        "Golden Dawn",
    }


@pytest.mark.rule("SGC-TREK-01")
def test_a_captain_who_strikes_to_the_pirates_is_put_over_the_side_and_walks_home(fight, table):
    encounter = fight([PIRATE], result="Pirate Ship", surrender="british")
    assert fates(encounter)["Gull"] == "struck"

    table.refresh()
    assert table.gull.status == ShipStatus.LOST
    assert table.voyage.status == VoyageStatus.LOST
    trek = EpicTrek.objects.get(captain=table.jack)
    assert (trek.cause, trek.q, trek.r, trek.encounter_id) == ("over_the_side", SEA[0], SEA[1], encounter.pk)
    # Put over the side with the men taken with him: the Gull's company, none lost in a surrender.
    gull = next(s for s in battle_of(encounter).result.data["ships"] if s["name"] == "Gull")
    assert trek.party_start == gull["crew"]["prisoners"] == gull["crew"]["at_start"]
    assert table.jack.status == CaptainStatus.TREKKING
    # Applied again (the sweep): one trek.
    assert arrival.encounter_result_apply(encounter_id=encounter.pk) is False
    assert EpicTrek.objects.filter(captain=table.jack).count() == 1


def test_the_sweep_applies_an_encounter_whose_message_was_lost(fight, table, django_capture_on_commit_callbacks):
    encounter = fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")
    # As if the apply task's message had been lost: the encounter is still waiting.
    Encounter.objects.filter(pk=encounter.pk).update(applied_at=None, status=EncounterStatus.BATTLE)
    CampaignShip.objects.filter(status=ShipStatus.PRIZE).delete()

    assert arrival.encounters_finished_unapplied() == [encounter.pk]
    assert arrival_tasks.encounter_results_sweep() == 1
    assert arrival_tasks.encounter_results_sweep() == 0
    assert CampaignShip.objects.filter(status=ShipStatus.PRIZE).count() == 1


def test_an_unfinished_battle_has_nothing_to_apply(table, django_capture_on_commit_callbacks: Any):
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(
            campaign=table.campaign,
            created_by=table.umpire,
            scenario_slug="john-bulls-tyranny",
            sides={"irish": SideControl("player", table.alice)},
        )
    encounter = Encounter.objects.create(
        campaign=table.campaign, day=2, q=0, r=0, territory="Neutral Northeast", result="Pirate Ship", battle=battle
    )

    assert arrival.encounter_result_apply(encounter_id=encounter.pk) is False
    assert arrival.encounter_result_apply(encounter_id=999_999) is False
    encounter.refresh_from_db()
    assert encounter.applied_at is None


def test_a_struck_ship_with_no_winner_is_taken_by_the_other_side_still_in_the_fight():
    def ship(name: str, side: str, fate: str) -> ShipOutcome:
        return ShipOutcome(name=name, side_at_start=side, side_at_end=side, fate=fate)

    entries = {
        "Gull": ship("Gull", "british", "fighting"),
        "Golden Dawn": ship("Golden Dawn", "pirates", "struck"),
        "Black Wing": ship("Black Wing", "pirates", "fighting"),
    }
    standing = arrival._standing(entries, {"british"}, None)  # the turn limit: nobody won
    assert standing.taker(entries["Golden Dawn"]) == "british"
    assert standing.taker(entries["Black Wing"]) is None
    # Her own side won: she hoists her colours again.
    assert arrival._standing(entries, {"british"}, "pirates").taker(entries["Golden Dawn"]) is None
    # Nobody of another side left in the fight: nobody takes her.
    alone = {"Golden Dawn": entries["Golden Dawn"], "Black Wing": entries["Black Wing"]}
    assert arrival._standing(alone, {"british"}, None).taker(entries["Golden Dawn"]) is None


def test_the_beat_sweeps_unapplied_encounters_every_few_minutes():
    entry = settings.CELERY_BEAT_SCHEDULE["encounter-results-sweep"]
    assert (entry["task"], entry["schedule"]) == ("strategic_map.encounter_results_sweep", 300.0)
    assert arrival_tasks.encounter_results_sweep.acks_late
    assert arrival_tasks.encounter_result_apply_task.acks_late


@pytest.mark.redis
@pytest.mark.postgres
def test_on_a_real_worker_the_battles_end_carries_the_result_back(live_celery_worker, table, monkeypatch):
    monkeypatch.setattr(services.dice, "new_seed", lambda: arrival_fixtures.fixed_seed(arrival_fixtures.BOARDING))
    with transaction.atomic():  # the encounter is linked before the worker sees the battle
        encounter = Encounter.objects.create(
            campaign=table.campaign, day=2, q=SEA[0], r=SEA[1], territory="Neutral Northeast", result="Pirate Ship"
        )
        encounter.voyages.add(table.voyage)
        for category, class_id, name, quality in (PIRATE, PRIZE_IN_TOW):
            EncounterShip.objects.create(
                encounter=encounter, category=category, class_id=class_id, name=name, crew_quality=quality
            )
        doc = arrival_fixtures.scenario([("Black Wing", "Clearsight"), ("Golden Dawn", "Warm Winds")])
        battle = services.battle_create(
            campaign=table.campaign, created_by=table.umpire, scenario=doc, mode=BattleMode.AUTO
        )
        BattleShip.objects.filter(battle=battle, name="Gull").update(campaign_ship=table.gull)
        encounter.battle = battle
        encounter.save(update_fields=["battle"])

    wait_for(
        lambda: Encounter.objects.get(pk=encounter.pk).applied_at is not None, "the worker to apply the result", 120
    )

    assert "strategic_map.encounter_result_apply" in live_celery_worker.log()
    assert CampaignShip.objects.filter(status=ShipStatus.PRIZE, towed_by=table.gull).get().name == "Golden Dawn"
    table.refresh()
    assert table.voyage.took_prize is True
