"""The Sky Galleons campaign bridge (campaign.py): a campaign's encounter as a scenario this ruleset plays, and a
ship's outcome written back onto her campaign record (DESIGN.md 4.3, SGC-ENC-19..21, results.json crew)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import bridge, dice, resolver
from battles.engine.bridge import CampaignBridge, Encounter, EncounterError, EncounterShip, EncounterSide
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import HullRow, ShipRecord, ship_record_from_class
from tests.rules.sky_galleons.test_results import boarded


def gull_record() -> ShipRecord:
    """Captain Jack's Swiftwood, her rows down to Medium shot away: her ceiling is Low now."""
    record = ship_record_from_class("swiftwood", name="Gull")
    rows = tuple(
        HullRow(row.altitude, row.boxes, row.boxes if row.altitude in ("VH", "H", "M") else 0)
        for row in record.hull_rows
    )
    return replace(record, hull_rows=rows)


def encounter() -> Encounter:
    gull = gull_record()
    prize = ship_record_from_class("warm_winds", name="Fair Wind", crew_quality="green")
    ours = (
        EncounterShip("Gull", bridge.RAIDER, (2, 5), 1, record=gull.to_json()),
        EncounterShip("Fair Wind", bridge.PRIZE, (1, 5), 1, record=prize.to_json(), towed_by=0),
    )
    theirs = (
        EncounterShip(
            "Black Wing",
            bridge.RAIDER,
            (12, 5),
            4,
            class_id="warm_winds",
            crew_quality="green",
            boarding_quality="crack",
            high_martian=True,
        ),
        EncounterShip("Golden Dawn", bridge.MERCHANT, (13, 6), 1, class_id="clearsight", crew_quality="trained"),
    )
    return Encounter(
        slug="encounter-7",
        title="High Martian Pirate (Neutral Northeast, day 2)",
        description="Jack meets a High Martian Pirate in Neutral Northeast, day 2. The ships sighted each other 10 "
        "hexes apart.",
        sides=(
            EncounterSide("captain", "Jack", ours, player=True),
            EncounterSide("encountered", "High Martian Pirate", theirs, category="High Martian Pirate"),
        ),
        wind=3,
        distance=10,
    )


@pytest.mark.rule("SGC-ENC-19", "SGC-ENC-21", "SG-SCN-17")
def test_an_encounter_becomes_a_scenario_the_ruleset_plays() -> None:
    assert isinstance(RS.campaign_bridge, CampaignBridge)
    document = RS.campaign_bridge.scenario(encounter())
    assert (document["slug"], document["wind"], document["turn_limit"]) == ("encounter-7", 3, 40)
    assert str(document["description"]).endswith("10 hexes apart. The last side with a ship in the fight wins.")
    assert document["special_rules"] == [{"rule": "noncombatant", "ship": "Fair Wind"}]
    ours, theirs = document["sides"]
    assert ours["ai"] == {"prizes": "keep"}
    assert theirs["ai"]["board"] is True  # the High Martians board
    gull, fair_wind = ours["ships"]
    # Her damage brought her ceiling below Medium: she comes in at it; the prize cruises at Medium.
    assert (gull["altitude"], gull["role"], gull["position"]) == ("L", "warship", [2, 5])
    assert (fair_wind["altitude"], fair_wind["role"]) == ("M", "merchant")
    assert ShipRecord.from_json(gull["record"]) == gull_record()
    black_wing, golden_dawn = theirs["ships"]
    assert black_wing == {
        "name": "Black Wing",
        "class": "warm_winds",
        "crew_quality": "green",
        "position": [12, 5],
        "facing": 4,
        "altitude": "M",
        "role": "warship",
        "high_martian": True,
        "boarding_quality": "crack",
        "marine_arms": "bow",
    }
    assert "boarding_quality" not in golden_dawn
    assert golden_dawn["role"] == "merchant"
    # The ruleset sets a battle up from it.
    state = resolver.new_battle(RS, document, seed_commitment=dice.commitment(b"bridge"))
    assert {ship.name for ship in state.board.ships} == set(encounter().ship_names())


def test_an_encounter_ship_is_a_campaign_ship_or_a_drawn_one_in_a_known_role() -> None:
    with pytest.raises(EncounterError, match="record or her class"):
        EncounterShip("Gull", bridge.RAIDER, (1, 1), 0)
    with pytest.raises(EncounterError, match="no role"):
        EncounterShip("Gull", "flagship", (1, 1), 0, class_id="swiftwood")


@pytest.mark.rule("SG-BRD-04", "SG-BRD-22", "SGC-MONEY-08")
def test_her_record_after_brings_her_boarders_home_and_her_guard_back_aboard_as_a_deckhand() -> None:
    initial, state = boarded(b"results-taken")
    found = RS.outcome(initial, state)
    reaver = found.ship("Reaver")
    assert reaver is not None
    before = replace(initial.board.ship("Reaver"), position=None, facing=0, altitude="M")
    assert RS.campaign_bridge is not None
    after = ShipRecord.from_json(RS.campaign_bridge.record_after(reaver, before.to_json(), crew_quality="crack"))
    # Nine men away: eight boarders home at their posts, the marine guarding the prisoners back as a deckhand.
    assert after.men_alive == initial.board.ship("Reaver").men_alive
    assert after.crew.marines == before.crew.marines - 1
    assert after.crew.deckhands == before.crew.deckhands + 1
    assert (after.boarders.men, after.party.men, after.boarding, after.grappled_with) == (0, 0, None, ())
    # The battle's passing positions go: she is where the campaign had her.
    assert (after.position, after.facing, after.altitude, after.crew_quality) == (None, 0, "M", "crack")


def test_a_prize_taken_keeps_her_final_record_with_the_campaigns_crew_quality() -> None:
    initial, state = boarded(b"results-taken")
    runner = RS.outcome(initial, state).ship("Runner")
    assert runner is not None
    assert RS.campaign_bridge is not None
    after = ShipRecord.from_json(
        RS.campaign_bridge.record_after(replace(runner, detail={}), runner.record, crew_quality="green")
    )
    final = state.board.ship("Runner")
    assert (after.name, after.men_alive, after.hull_hits, after.crew_quality) == (
        "Runner",
        final.men_alive,
        final.hull_hits,
        "green",
    )
    assert RS.campaign_bridge.record_after(replace(runner, record=None), None) is None
