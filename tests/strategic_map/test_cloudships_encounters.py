"""An encounter battle fought under Cloudships of Mars (the campaign's battle rules): opened through its campaign
bridge (battles/rules/cloudships_2023/campaign.py), the player's damaged ship entering as her control panel with her
damage, her prize in tow a noncombatant; fought out by the AI; its outcome written back onto the campaign's Sky
Galleons records by arrival.py through the same bridge."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.utils import timezone

from battles import engine_io
from battles import services as battle_services
from battles.models import Battle, BattleResult, BattleStatus
from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, ShipStatus, VoyageExperience
from galleons.record import HullRow, ShipRecord, check_record
from strategic_map import arrival
from strategic_map.models import Encounter, EncounterStatus, EpicTrek, Voyage, VoyageStatus
from tests.strategic_map.test_encounters import at_sea, club, draw, fight_it_out, ship, with_seed

pytestmark = pytest.mark.django_db

__all__ = ["club", "draw"]  # the fixtures, used by name
CLOUDSHIPS = "cloudships_2023"


@pytest.mark.rule("SGC-ENC-19", "SGC-ENC-21", "SGC-ETYPE-14")
def test_an_encounter_is_fought_under_cloudships_and_comes_home_onto_the_records(
    club, draw, django_capture_on_commit_callbacks
):
    campaign, jack = club["campaign"], club["jack"]
    Campaign.objects.filter(pk=campaign.pk).update(tactical_ruleset=CLOUDSHIPS)
    campaign.tactical_ruleset = CLOUDSHIPS
    with_seed(campaign, [(6, 5), (5, 3)])  # Neutral Northeast 5: Cloud Captain with Prize Ship in tow; an Endtime
    gull = ship(campaign, jack, "swiftwood", "Gull", crew_quality="crack")
    record = ShipRecord.from_json(gull.record)
    hits = {0: 3, 1: 3, 2: 1}  # her Very High and High rows shot away, a Medium box
    rows = tuple(HullRow(row.altitude, row.boxes, hits.get(n, 0)) for n, row in enumerate(record.hull_rows))
    before = ShipRecord.from_json(gull.record).evolve(hull_rows=rows)
    CampaignShip.objects.filter(pk=gull.pk).update(record=before.to_json(), crew_quality="crack")
    gull.refresh_from_db()
    taken = ship(campaign, None, "warm_winds", "Warm Winds", status=ShipStatus.PRIZE, captured_by=jack, towed_by=gull)

    (encounter,) = draw(campaign, [at_sea(campaign, gull, territory="Neutral Northeast")])

    battle = encounter.battle
    assert battle.ruleset_key == CLOUDSHIPS
    document = battle.scenario
    ours = {entry["name"]: entry for entry in document["ships"] if entry["side"] == "captain"}
    # Her High band gone: she enters at Medium with its row crossed, the crack crew Superior.
    assert ours["Gull"]["band"] == "Medium"
    assert ours["Gull"]["damage"]["crossed"] == 10 + 1
    assert ours["Gull"]["panel"]["superior"] is True
    assert document["victory"]["noncombatants"] == ["Warm Winds", "Warm Winds 2"]
    assert {side["key"]: side["ai"]["run"] for side in document["sides"]} == {
        "captain": ["Warm Winds"],
        "encountered": ["Warm Winds 2"],
    }

    fight_it_out(battle, django_capture_on_commit_callbacks)

    assert battle.status == BattleStatus.FINISHED
    encounter.refresh_from_db()
    assert encounter.status == EncounterStatus.RESOLVED
    outcome = engine_io.battle_outcome(battle)
    assert outcome is not None
    bridge = engine_io.campaign_bridge(CLOUDSHIPS)
    gull.refresh_from_db()
    after = ShipRecord.from_json(gull.record)  # a Sky Galleons record again, never a panel
    check_record(after)
    entry = outcome.ship("Gull")
    assert entry is not None
    assert gull.record == bridge.record_after(entry, before.to_json(), crew_quality="crack")
    assert all(row.hits >= was.hits for row, was in zip(after.hull_rows, before.hull_rows, strict=True))
    taken.refresh_from_db()
    check_record(ShipRecord.from_json(taken.record))
    for prize in CampaignShip.objects.filter(campaign=campaign, captured_by=jack).exclude(pk=taken.pk):
        check_record(ShipRecord.from_json(prize.record))  # a prize taken comes home as a record of her class


def ended_with(battle: Battle, gull: dict[str, Any], winner: str | None) -> None:
    """The battle over, ended as the test says: the Gull's end laid on the board it began with, the result and the
    typed outcome stored as the battle app stores them (services.battle_result_data: the Cloudships outcome of the
    first and last states), the battle finished. The AI's play cannot be made to crash her; the outcome is the
    ruleset's all the same, and the campaign reads nothing else."""
    rules = engine_io.rules_of(battle)
    initial = engine_io.initial_state(battle)
    board = initial.board
    final = replace(initial, over=True, winner=winner, board=board.with_ship(replace(board.ship_named("Gull"), **gull)))
    data = battle_services.battle_result_data(rules, initial, final)
    BattleResult.objects.update_or_create(battle=battle, defaults={"data": data})
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.FINISHED, finished_at=timezone.now())
    battle.refresh_from_db()


def gull_at_sea(club: dict[str, Any], draw: Any) -> tuple[CampaignShip, Encounter]:
    """Jack's Swiftwood the Gull (29 men, 23 fighting men in seamen: three boarding parties) meets a Cloud Captain
    under Cloudships."""
    campaign = club["campaign"]
    Campaign.objects.filter(pk=campaign.pk).update(tactical_ruleset=CLOUDSHIPS)
    campaign.tactical_ruleset = CLOUDSHIPS
    with_seed(campaign, [(6, 5), (5, 3)])  # Neutral Northeast 5: Cloud Captain with Prize Ship in tow; an Endtime
    gull = ship(campaign, club["jack"], "swiftwood", "Gull", crew_quality="trained", original_crew=29)
    CampaignShip.objects.filter(pk=gull.pk).update(crew_quality="trained")  # the helper sets the record's only
    gull.refresh_from_db()
    (encounter,) = draw(campaign, [at_sea(campaign, gull, territory="Neutral Northeast")])
    assert encounter.battle.ruleset_key == CLOUDSHIPS
    return gull, encounter


@pytest.mark.rule("SGC-TREK-01", "SGC-TREK-02", "CM-ALT-02", "CM-DMG-10")
def test_a_cloudships_ship_that_crashes_sends_her_captain_on_an_epic_trek(club, draw):
    gull, encounter = gull_at_sea(club, draw)
    battle = encounter.battle
    track = engine_io.initial_state(battle).board.ship_named("Gull").panel.track_length
    # Her track run out to Ground, one of her three parties lost on the way down: 23 / 3 = 7.7 seamen, 8: her 3
    # deckhands and 3 marines (two each), 6 men.
    ended_with(battle, {"status": "crashed", "band": "Ground", "crossed": track, "parties": 2}, "encountered")
    entry = engine_io.battle_outcome(battle).ship("Gull")
    assert (entry.fate, entry.captain, entry.crew_at_start, entry.crew_lost) == ("crash-landed", "crash-landed", 29, 6)

    assert arrival.encounter_result_apply(encounter_id=encounter.pk)

    gull.refresh_from_db()
    jack = Captain.objects.get(pk=club["jack"].pk)
    voyage = Voyage.objects.get(ship=gull)
    assert (gull.status, voyage.status, voyage.losses) == (ShipStatus.LOST, VoyageStatus.LOST, 6)
    # He crash-landed with every man still alive: 29 less the 6 lost, himself among them (SGC-TREK-02, designed).
    trek = EpicTrek.objects.get(captain=jack)
    assert (jack.status, trek.cause, trek.party_start) == (CaptainStatus.TREKKING, "crash_landing", 23)
    assert ShipRecord.from_json(gull.record).men_alive == 23


@pytest.mark.rule("SGC-EXP-02", "SGC-EXP-11", "CM-DMG-10", "CM-AP-07")
def test_the_men_a_cloudships_battle_cost_her_count_in_her_crews_experience(club, draw):
    gull, encounter = gull_at_sea(club, draw)
    # Two of her three parties lost, she fights on: 2 x 23 / 3 = 15.3 seamen, 15: 3 deckhands and 6 marines, 9 men.
    ended_with(encounter.battle, {"parties": 1}, None)
    assert arrival.encounter_result_apply(encounter_id=encounter.pk)
    voyage = Voyage.objects.get(ship=gull)
    assert (voyage.status, voyage.losses) == (VoyageStatus.UNDER_WAY, 9)
    gull.refresh_from_db()
    assert gull.status == ShipStatus.AT_SEA
    assert ShipRecord.from_json(gull.record).men_alive == 29 - 9

    arrival.voyage_arrive(voyage_id=voyage.pk, city="Parhoon", day=5)

    # Home without a prize, a Trained crew that lost 9 men, twice the threshold of 29 // 6 = 4: it falls back to
    # Green on a die of 1 or 2 (SGC-EXP-11).
    check = VoyageExperience.objects.get(ship=gull)
    assert (check.losses, check.threshold, check.quality_before) == (9, 4, "trained")
    assert check.roll is not None
    assert check.quality_after == ("green" if check.roll.result <= 2 else "trained")
