"""What a Cloudships battle tells the campaign of a ship's men and her captain (outcome.py over company.py;
docs/cloudships.md section 14): her men at the start and lost, in men, the same figures the bridge kills on her
record; her men taken with her; her captain's fate by hers.

Cloudships counts no men and has no captain figure, so these are decided: her company is the record she came in
with (a ship drawn from the tables, or a scenario's ship of a catalog class: her class's complement); the men her
lost boarding parties stand for are the men lost; none is ever away. Her captain is aboard all the battle and
shares her fate: flying or off the map, aboard; struck or taken by boarders, captured (he and her men alive go over
the side, SGC-TREK-01); her track run out to Ground, she came down band by band and crash-landed, her men alive,
and he may trek home; destroyed outright, he and every man aboard went down with her."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine import outcome
from battles.engine.outcome import ShipOutcome
from battles.rules.cloudships_2023 import campaign, company
from battles.rules.cloudships_2023.board import Ship
from galleons.record import ship_record_from_class
from tests.rules.cloudships_2023.test_campaign_bridge import (
    after,
    battered_reliant,
    encounter,
    entry_of,
    started,
    with_ship,
)

DAUNTLESS = "Dauntless"  # a Reliant: 61 men, 55 fighting men in seamen (18 marines count two), six parties


def men(entry: ShipOutcome) -> tuple[int, int, int, int, str | None]:
    return entry.crew_at_start, entry.crew_lost, entry.crew_away, entry.prisoners, entry.captain


@pytest.mark.rule("CM-DMG-10", "CM-AP-07", "SGC-EXP-02")
def test_her_men_lost_are_the_men_her_record_loses() -> None:
    record = ship_record_from_class("reliant", name=DAUNTLESS)
    state = started(campaign.scenario_document(encounter(record)))
    assert state.board.ship_named(DAUNTLESS).company == company.of_record(record)
    assert men(entry_of(state, DAUNTLESS)) == (61, 0, 0, 0, outcome.ABOARD)
    # Two of six parties: 2 x 55 / 6 = 18.3 seamen, 18: her 12 deckhands and 3 marines (two each), 15 men.
    hurt = with_ship(state, DAUNTLESS, parties=4)
    assert men(entry_of(hurt, DAUNTLESS)) == (61, 15, 0, 0, outcome.ABOARD)
    assert record.men_alive - after(hurt, DAUNTLESS, record).men_alive == 15
    # Every party: all 55 seamen, 12 deckhands, 18 marines (36) and 3 petty officers (4 seamen owed, 3 to give).
    assert entry_of(with_ship(state, DAUNTLESS, parties=0), DAUNTLESS).crew_lost == 12 + 18 + 3
    assert record.men_alive - after(with_ship(state, DAUNTLESS, parties=0), DAUNTLESS, record).men_alive == 33


@pytest.mark.rule("CM-DMG-10", "SGC-EXP-02")
def test_a_crew_already_short_counts_from_the_men_she_has() -> None:
    record = battered_reliant()
    short = replace(record, crew=record.crew.with_count("deckhands", 6))  # six deckhands lost on an earlier day
    state = started(campaign.scenario_document(encounter(short)))
    # 55 men, 49 fighting: five parties. One lost: 49 / 5 = 9.8 seamen, 10: six deckhands and two marines, 8 men.
    assert state.board.ship_named(DAUNTLESS).panel.boarding_parties == 5
    hurt = with_ship(state, DAUNTLESS, parties=4)
    assert men(entry_of(hurt, DAUNTLESS)) == (55, 8, 0, 0, outcome.ABOARD)
    assert short.men_alive - after(hurt, DAUNTLESS, short).men_alive == 8


@pytest.mark.rule("CM-DMG-10", "SGC-MONEY-08")
def test_a_ship_drawn_from_the_tables_is_her_class_complement() -> None:
    state = started(campaign.scenario_document(encounter(battered_reliant())))
    # A Swiftwood: 29 men, 23 fighting (3 deckhands, 9 marines and their officer, at two); three parties and the
    # High Martians' flights (not men: not counted).
    wing = with_ship(state, "Black Wing", parties=0, status="struck", taken_by=DAUNTLESS)
    entry = entry_of(wing, "Black Wing")
    # Every party: 3 deckhands and the 9 marines (21 seamen; no petty officer for the last 2): 12 lost, 17 taken.
    assert (entry.fate, *men(entry)) == (outcome.CAPTURED, 29, 12, 0, 17, outcome.CAPTURED)
    prize = after(wing, "Black Wing", None)  # her record as the campaign takes her, a fresh one of her class
    assert ship_record_from_class("swiftwood", name="Black Wing").men_alive - prize.men_alive == 12


@pytest.mark.rule("CM-ALT-02", "CM-BRD-20", "CM-BRD-21", "SG-SCN-17", "SGC-TREK-01")
def test_her_captain_shares_her_fate() -> None:
    state = started(campaign.scenario_document(encounter(battered_reliant())))
    track = state.board.ship_named(DAUNTLESS).panel.track_length
    cases = {
        "flying": ({}, outcome.FIGHTING, (61, 0, 0, 0, outcome.ABOARD)),
        "off the map": ({"status": "left"}, outcome.ESCAPED, (61, 0, 0, 0, outcome.ABOARD)),
        # Down to Ground with two parties lost: 15 killed, 46 alive with him to walk home.
        "crashed": (
            {"status": "crashed", "crossed": track, "parties": 4},
            outcome.CRASH_LANDED,
            (61, 15, 0, 0, outcome.CRASH_LANDED),
        ),
        # Destroyed outright: the 46 left aboard go down with her, and he with them.
        "sunk": ({"status": "sunk", "parties": 4}, outcome.CRASHED, (61, 61, 0, 0, outcome.KILLED)),
        "struck": ({"status": "struck", "parties": 0}, outcome.STRUCK, (61, 33, 0, 28, outcome.CAPTURED)),
        "taken": (
            {"status": "struck", "parties": 0, "taken_by": "Black Wing"},
            outcome.CAPTURED,
            (61, 33, 0, 28, outcome.CAPTURED),
        ),
    }
    for what, (changes, fate, figures) in cases.items():
        entry = entry_of(with_ship(state, DAUNTLESS, **changes), DAUNTLESS)
        assert (entry.fate, men(entry)) == (fate, figures), what
    # A prize in tow still flying when the enemy has won has hove to: struck, her men and master taken.
    lost = replace(state, over=True, winner="encountered")
    fair_wind = entry_of(lost, "Fair Wind")
    assert (fair_wind.fate, *men(fair_wind)) == (outcome.STRUCK, 46, 0, 0, 46, outcome.CAPTURED)


def test_a_ship_without_a_company_counts_her_class_or_nothing() -> None:
    state = started(campaign.scenario_document(encounter(battered_reliant())))
    ship = state.board.ship_named(DAUNTLESS)
    # A scenario's ship of a catalog class (no company in her entry): her class's complement.
    plain = with_ship(state, DAUNTLESS, company=None, parties=4)
    assert men(entry_of(plain, DAUNTLESS)) == (61, 15, 0, 0, outcome.ABOARD)
    # A panel of no class: her men are not known, nor her captain.
    unknown = with_ship(state, DAUNTLESS, company=None, panel=replace(ship.panel, class_id=None))
    assert men(entry_of(unknown, DAUNTLESS)) == (0, 0, 0, 0, None)


def test_the_company_rides_in_the_ships_state_only_when_she_has_one() -> None:
    state = started(campaign.scenario_document(encounter(battered_reliant())))
    ship = state.board.ship_named(DAUNTLESS)
    assert ship.company is not None
    assert Ship.from_json(ship.to_json()) == ship
    # A battle of ships without (every scenario's but the campaign's) keeps the state it always had.
    bare = replace(ship, company=None)
    assert "company" not in bare.to_json()
    assert Ship.from_json(bare.to_json()) == bare
    assert company.Company.from_json(ship.company.to_json()) == ship.company
