"""The typed battle outcome (battles/engine/outcome.py): it survives JSON, says its format, refuses the unreadable."""

import json

import pytest

from battles.engine import outcome
from battles.engine.outcome import BattleOutcome, OutcomeFormatError, ShipOutcome

TAKEN = ShipOutcome(
    name="Swift",
    side_at_start="blue",
    side_at_end="red",
    fate=outcome.CAPTURED,
    captured_by="red",
    class_id="sloop",
    crew_at_start=20,
    crew_lost=7,
    crew_away=2,
    prisoners=11,
    captain=outcome.CAPTURED,
    towed_by="Hawk",
    prize_crew={"Hawk": 4},
    prize_guard="Kite",
    record={"name": "Swift", "hull": [1, 2]},
    detail={"crew": {"away": {"prize_crews": 2}}},
)
BATTLE = BattleOutcome(
    ruleset="duel",
    version="1",
    winner="red",
    reason="blue has no ship in the fight",
    turns=4,
    over=True,
    ships=(TAKEN, ShipOutcome(name="Hawk", side_at_start="red", side_at_end="red", fate=outcome.FIGHTING)),
)


def test_an_outcome_goes_to_json_and_back_unchanged():
    written = json.loads(json.dumps(BATTLE.to_json()))
    assert written["format"] == outcome.FORMAT == 1
    assert BattleOutcome.from_json(written) == BATTLE
    assert BATTLE.ship("Swift") == TAKEN
    assert BATTLE.ship("Nobody") is None


def test_a_newer_format_is_refused():
    newer = {**BATTLE.to_json(), "format": outcome.FORMAT + 1}
    with pytest.raises(OutcomeFormatError, match="format 2"):
        BattleOutcome.from_json(newer)


def test_fates_are_the_campaigns_words():
    with pytest.raises(OutcomeFormatError, match="no fate 'sunk'"):
        ShipOutcome(name="Swift", side_at_start="blue", side_at_end="blue", fate="sunk")
    with pytest.raises(OutcomeFormatError, match="captain's fate"):
        ShipOutcome(name="Swift", side_at_start="blue", side_at_end="blue", fate=outcome.FIGHTING, captain="drowned")
