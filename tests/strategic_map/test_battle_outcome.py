"""What the campaign reads of an encounter battle: the typed outcome stored with its result (battles/engine/outcome.py,
the Sky Galleons one from battles/rules/sky_galleons/outcome.py), never the ruleset's own report or board. The
boarding capture of arrival_fixtures.BOARDING, read through battles.engine_io.battle_outcome."""

from __future__ import annotations

import pytest

from battles import engine_io
from battles.engine import outcome as words
from battles.models import BattleResult
from galleons.record import ShipRecord
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.arrival_fixtures import battle_of
from tests.strategic_map.test_arrival import PIRATE, PRIZE_IN_TOW

pytestmark = pytest.mark.django_db

table = arrival_fixtures.table
fight = arrival_fixtures.fight


@pytest.mark.rule("SG-BRD-13", "SG-BRD-22", "SGC-MONEY-08")
def test_the_boarding_capture_is_read_from_the_stored_outcome(fight, table):
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed=arrival_fixtures.BOARDING)
    battle = battle_of(encounter)
    stored = BattleResult.objects.get(battle=battle).data
    assert stored[BattleResult.OUTCOME_KEY]["format"] == words.FORMAT
    found = engine_io.battle_outcome(battle)
    assert found is not None
    assert found.ruleset == "sky_galleons"
    report = {entry["name"]: entry for entry in stored["ships"]}

    dawn, gull, wing = found.ship("Golden Dawn"), found.ship("Gull"), found.ship("Black Wing")
    assert dawn is not None
    assert gull is not None
    assert wing is not None
    assert (dawn.fate, dawn.captured_by, dawn.side_at_end) == (words.CAPTURED, "british", "british")
    assert (dawn.prize_guard, dawn.prisoners, dawn.captain) == ("Gull", 25, words.CAPTURED)
    assert wing.fate == words.CRASHED
    # The Gull's figures are the result's: nine men lost, men away (one of them guarding the prisoners).
    assert (gull.fate, gull.crew_lost, gull.detail["away"]["guards"]) == (words.FIGHTING, 9, 1)
    assert gull.detail["away"] == report["Gull"]["crew"]["away"]
    assert gull.crew_away == sum(report["Gull"]["crew"]["away"].values())
    assert gull.crew_lost == report["Gull"]["crew"]["lost"]
    assert gull.crew_at_start == report["Gull"]["crew"]["at_start"]
    # Her record at the end is the battle's, in the campaign's record format.
    assert ShipRecord.from_json(gull.record).hull_hits == report["Gull"]["hull"]["hits"]
    # The outcome stored is the one the ruleset gives of the battle's first and last states.
    assert found == engine_io.rules_of(battle).outcome(engine_io.initial_state(battle), engine_io.current_state(battle))


def test_a_ruleset_without_a_campaign_bridge_cannot_fight_an_encounter(monkeypatch):
    class Standalone:
        campaign_bridge = None

    monkeypatch.setattr(engine_io, "ruleset_for", lambda key, version=None: Standalone())
    with pytest.raises(engine_io.NoCampaignBridge, match="'duel' cannot fight a campaign's encounters"):
        engine_io.campaign_bridge("duel")
