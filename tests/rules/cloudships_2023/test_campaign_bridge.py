"""The Cloudships campaign bridge (campaign.py): a campaign's encounter as a Cloudships scenario, the damage a
campaign ship carries onto her control panel, and her outcome written back onto her Sky Galleons record
(docs/cloudships.md, "The campaign bridge"; SGC-ENC-19..21)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import bridge, dice, outcome, policies, resolver
from battles.engine.bridge import CampaignBridge, Encounter, EncounterShip, EncounterSide
from battles.engine.outcome import ShipOutcome
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import ai, campaign, conversion
from battles.rules.cloudships_2023.board import Board
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS as RS
from galleons.record import Criticals, HullRow, ShipRecord, check_record, ship_record_from_class

MOTIVE = "Motive Power Hit"


def hit(record: ShipRecord, *hits: int) -> ShipRecord:
    """Her hull rows with these hits, top row first."""
    counts = (*hits, *(0,) * (len(record.hull_rows) - len(hits)))
    rows = tuple(HullRow(row.altitude, row.boxes, n) for row, n in zip(record.hull_rows, counts, strict=True))
    return replace(record, hull_rows=rows)


def battered_reliant() -> ShipRecord:
    """A Reliant home from a hard voyage: her High rows shot away and five boxes of Medium, her 6-inch gun 2
    destroyed, Hale battery H1 destroyed and H4 fired, a screw hit."""
    record = hit(ship_record_from_class("reliant", name="Dauntless"), 12, 5)
    record = record.with_gun(replace(record.gun("2"), destroyed=True))
    record = record.with_items(replace(record.item("H1"), state="destroyed"), replace(record.item("H4"), state="fired"))
    return replace(record, criticals=replace(record.criticals, screw_mast_hits=1))


def encounter(ours: ShipRecord) -> Encounter:
    prize = ship_record_from_class("warm_winds", name="Fair Wind", crew_quality="green")
    mine = (
        EncounterShip(ours.name, bridge.RAIDER, (10, 11), 1, record=ours.to_json(), crew_quality="crack"),
        EncounterShip("Fair Wind", bridge.PRIZE, (9, 11), 1, record=prize.to_json(), towed_by=0),
    )
    theirs = (
        EncounterShip("Black Wing", bridge.RAIDER, (20, 11), 5, class_id="swiftwood", crew_quality="green",
                      boarding_quality="crack", high_martian=True),
        EncounterShip("Golden Dawn", bridge.MERCHANT, (21, 12), 1, class_id="clearsight", crew_quality="trained"),
    )  # fmt: skip
    return Encounter(
        slug="encounter-7",
        title="High Martian Pirate (Neutral Northeast, day 2)",
        description="Jack meets a High Martian Pirate in Neutral Northeast, day 2. The ships sighted each other 10 "
        "hexes apart.",
        sides=(
            EncounterSide("captain", "Jack", mine, player=True),
            EncounterSide("encountered", "High Martian Pirate", theirs, category="High Martian Pirate"),
        ),
        wind=3,
        distance=10,
    )


def started(document: dict[str, Any], seed: bytes = b"bridge") -> BattleState[Board]:
    return resolver.new_battle(RS, document, seed_commitment=dice.commitment(seed))


def entry_of(state: BattleState[Board], name: str) -> ShipOutcome:
    found = RS.outcome(state, state).ship(name)
    assert found is not None
    return found


def after(state: BattleState[Board], name: str, before: ShipRecord | None, quality: str = "") -> ShipRecord:
    assert RS.campaign_bridge is not None
    record = RS.campaign_bridge.record_after(
        entry_of(state, name), None if before is None else before.to_json(), crew_quality=quality
    )
    found = ShipRecord.from_json(record)
    check_record(found)
    return found


def with_ship(state: BattleState[Board], name: str, **changes: Any) -> BattleState[Board]:
    board = state.board
    return replace(state, board=board.with_ship(replace(board.ship_named(name), **changes)))


@pytest.mark.rule("SGC-ENC-19", "SGC-ENC-21", "SG-SCN-17", "CM-ALT-01")
def test_an_encounter_becomes_a_scenario_the_ruleset_plays_to_its_end() -> None:
    assert isinstance(RS.campaign_bridge, CampaignBridge)
    assert (RS.campaign_bridge, RS.campaign_bridge.ruleset) == (campaign.BRIDGE, RS.key)
    assert RS.campaign_bridge.scenario(encounter(battered_reliant())) == campaign.scenario_document(
        encounter(battered_reliant())
    )
    document = campaign.scenario_document(encounter(battered_reliant()))
    assert (document["slug"], document["cols"], document["rows"], document["rounds"]) == ("encounter-7", 30, 22, 12)
    assert str(document["description"]).endswith("10 hexes apart. The last side with a fighting ship flying wins.")
    assert document["victory"] == {
        "kind": "last_side_flying",
        "round_limit_winner": None,
        "noncombatants": ["Fair Wind"],
    }
    ours, theirs = document["sides"]
    # Merchants and prizes run; the High Martians ignore the danger and close to board.
    assert (ours["ai"], theirs["ai"]) == ({"run": ["Fair Wind"]}, {"caution": 0.0, "run": ["Golden Dawn"]})
    state = started(document)
    board = state.board
    dauntless, fair_wind = board.ship_named("Dauntless"), board.ship_named("Fair Wind")
    # Her High rows gone, her ceiling is Medium: she enters there, the campaign's crack crew Superior.
    assert (dauntless.band, dauntless.ceiling, dauntless.panel.superior) == ("Medium", "Medium", True)
    assert (fair_wind.band, fair_wind.crossed, fair_wind.panel.superior) == ("Medium", 0, False)
    black_wing = board.ship_named("Black Wing")
    assert black_wing.panel == replace(
        conversion.panel_from_record(ship_record_from_class("swiftwood", name="Black Wing", crew_quality="green")),
        flying_martians=2,  # a High Martian crew: a flight for every two of her three parties, rounded up
    )
    assert (black_wing.flights, black_wing.band, board.ship_named("Golden Dawn").panel.class_id) == (
        2,
        "Medium",
        "clearsight",
    )
    # Played by the AI captains, it ends, every state sound.
    captains = {side: ai.Captain(b"bridge" + side.encode(), side) for side in state.sides}
    end = policies.auto_play(RS, state, seed=b"bridge", policies=captains).state
    assert end.over
    assert RS.check_invariants(end) == []
    for ship in RS.outcome(state, end).ships:  # every outcome comes home as a record the campaign reads
        check_record(ShipRecord.from_json(RS.campaign_bridge.record_after(ship, None)))


@pytest.mark.rule("CM-DMG-01", "CM-DMG-07", "CM-DMG-06", "CM-FIRE-12", "CM-LIGHT-07", "SG-DMG-13")
def test_the_damage_she_carries_is_on_her_panel() -> None:
    record = battered_reliant()
    panel = campaign.record_panel(record)
    # High: 12 SG boxes + 3 armor = 15 Hull boxes, 23 boxes with its band box, all crossed (her 12 High hits);
    # Medium: 5 of 12 SG hits are 6.25 of its 15 Hull boxes, 6 rounded down, and the two system boxes between.
    assert campaign.carried_in(record, panel) == campaign.Carried(
        crossed=23 + 8, guns_lost=(2, 12), spent=(6,), criticals=(MOTIVE,)
    )
    state = started(campaign.scenario_document(encounter(record)))
    dauntless = state.board.ship_named("Dauntless")
    assert (dauntless.crossed, dauntless.guns_lost, dauntless.spent, dauntless.criticals) == (
        31,
        (2, 12),
        (6,),
        (MOTIVE,),
    )
    assert dauntless.speed_lost == 2  # the Speed boxes crossed slow her, as the track says (CM-DMG-09)
    # Medium gone too and three Low hits: she comes in at Low, her ceiling.
    low = hit(record, 12, 12, 3)
    assert campaign.carried_in(low, panel).crossed == 23 + 23 + 4
    assert started(campaign.scenario_document(encounter(low))).board.ship_named("Dauntless").band == "Low"


def test_a_ship_the_battle_left_alone_comes_back_unchanged() -> None:
    for record in (
        ship_record_from_class("reliant", name="Dauntless"),
        battered_reliant(),
        hit(battered_reliant(), 12, 12, 3),
    ):
        state = started(campaign.scenario_document(encounter(record)))
        assert after(state, "Dauntless", record).to_json() == record.to_json()
        # A single hit is carried in (a Hull box at least: armor makes the rows longer) and kept as it was.
        light = hit(record, 1) if record.hull_hits == 0 else record
        state = started(campaign.scenario_document(encounter(light)))
        assert after(state, "Dauntless", light).hull_rows == light.hull_rows


@pytest.mark.rule("CM-DMG-01", "CM-DMG-06", "CM-FIRE-12", "CM-AP-07", "CM-LIGHT-07", "SG-DMG-13")
def test_her_damage_losses_and_ordnance_spent_come_back_onto_her_record() -> None:
    record = ship_record_from_class("reliant", name="Dauntless")
    state = started(campaign.scenario_document(encounter(record)))
    # Ten boxes crossed (seven of them Hull), the 5-inch gun 1 and Hale battery 5 hit, batteries 7 and 13 fired,
    # two of her six parties lost, a Motive Power Hit.
    state = with_ship(state, "Dauntless", crossed=10, guns_lost=(1, 5), spent=(7, 13), parties=4, criticals=(MOTIVE,))
    found = after(state, "Dauntless", record)
    # 7 of the High row's 15 Hull boxes are 7 x 12 / 15 = 5.6 of its 12 SG boxes: 6.
    assert [row.hits for row in found.hull_rows] == [6, 0, 0, 0]
    assert [gun.id for gun in found.guns if gun.destroyed] == ["3"]  # panel gun 1 is her 5-inch gun 3
    assert {item.id: item.state for item in found.ordnance if item.state != "loaded"} == {
        "H2": "destroyed",
        "H6": "fired",
        "H3": "fired",
    }
    # Two parties of six are 2 x 55 / 6 = 18.3 of her 55 fighting men: 18, her 12 deckhands and 3 marines.
    assert (found.crew.deckhands, found.crew.marines, found.men_alive) == (0, 15, record.men_alive - 15)
    assert found.criticals == Criticals(screw_mast_hits=1)
    # On a ship already damaged, only what this battle did is added.
    battered = battered_reliant()
    state = started(campaign.scenario_document(encounter(battered)))
    state = with_ship(state, "Dauntless", crossed=31 + 2, guns_lost=(2, 12, 9), criticals=(MOTIVE, MOTIVE))
    found = after(state, "Dauntless", battered)
    # Medium: 6 -> 7 Hull boxes crossed, worth 5 -> 6 SG boxes (5.6): one more hit.
    assert [row.hits for row in found.hull_rows] == [12, 6, 0, 0]
    assert [gun.id for gun in found.guns if gun.destroyed] == ["1", "2"]
    assert found.criticals.screw_mast_hits == 2


@pytest.mark.rule("CM-ALT-02")
def test_a_ship_that_crashed_comes_back_with_every_hull_box_hit() -> None:
    record = battered_reliant()
    state = started(campaign.scenario_document(encounter(record)))
    state = with_ship(
        state, "Dauntless", crossed=state.board.ship_named("Dauntless").panel.track_length, status="crashed"
    )
    # Down band by band to Ground, her men alive: the campaign's crash landing (docs/cloudships.md section 14).
    assert entry_of(state, "Dauntless").fate == outcome.CRASH_LANDED
    found = after(state, "Dauntless", record)
    assert found.hull_hits == found.hull_boxes


@pytest.mark.rule("CM-BRD-21", "SG-SCN-17", "SGC-MONEY-08")
def test_a_prize_taken_comes_home_as_a_record_of_her_class_with_her_damage() -> None:
    state = started(campaign.scenario_document(encounter(battered_reliant())))
    # The Dauntless's boarders took the Golden Dawn, four boxes crossed (three Hull), her party lost.
    state = with_ship(state, "Golden Dawn", taken_by="Dauntless", status="struck", crossed=4, parties=0)
    entry = entry_of(state, "Golden Dawn")
    assert (entry.fate, entry.captured_by, entry.class_id) == (outcome.CAPTURED, "captain", "clearsight")
    # arrival.py keeps her battle entry as her record until the bridge writes the campaign's one.
    assert RS.campaign_bridge is not None
    prize = ShipRecord.from_json(RS.campaign_bridge.record_after(entry, entry.record, crew_quality="trained"))
    fresh = ship_record_from_class("clearsight", name="Golden Dawn")
    # High row: 2 Hull boxes of 2 crossed with its band box (4 boxes): both SG High boxes; Medium untouched.
    assert [row.hits for row in prize.hull_rows] == [2, 0, 0, 0]
    assert (prize.name, prize.crew_quality, prize.crew.deckhands) == ("Golden Dawn", "trained", 0)
    assert prize.men_alive == fresh.men_alive - fresh.crew.deckhands
    # A prize in tow of the losing side, still flying at the end, has hove to: struck, the winner's to take.
    won = replace(state, over=True, winner="captain")
    assert entry_of(won, "Fair Wind").fate == outcome.FIGHTING  # the winner's own
    lost = replace(state, over=True, winner="encountered")
    assert entry_of(lost, "Fair Wind").fate == outcome.STRUCK
    assert entry_of(lost, "Black Wing").fate == outcome.FIGHTING
