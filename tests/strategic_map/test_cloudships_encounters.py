"""An encounter battle fought under Cloudships of Mars (the campaign's battle rules): opened through its campaign
bridge (battles/rules/cloudships_2023/campaign.py), the player's damaged ship entering as her control panel with her
damage, her prize in tow a noncombatant; fought out by the AI; its outcome written back onto the campaign's Sky
Galleons records by arrival.py through the same bridge."""

from __future__ import annotations

import pytest

from battles import engine_io
from battles.models import BattleStatus
from campaign.models import Campaign, CampaignShip, ShipStatus
from galleons.record import HullRow, ShipRecord, check_record
from strategic_map.models import EncounterStatus
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
