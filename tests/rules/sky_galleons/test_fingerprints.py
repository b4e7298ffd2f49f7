"""Sky Galleons' behaviour held fixed while its code moves (issue 19): every scenario, auto-resolved on a fixed
seed with the AI captains on every side, under the default options and under the option sets that switch whole
rule families (Agility; the advanced and optional fire rules; plotted movement; standing orders), gives the same
event log and the same final board, byte for byte, as the recorded fingerprints in fingerprints.json.

A change that alters a battle on purpose (a rule fixed) records new fingerprints with

    python -m tests.rules.sky_galleons.test_fingerprints --write

and says so in its commit; a refactor must leave the file alone.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from battles.engine import simulate
from battles.engine.events import canonical
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

RECORDED = Path(__file__).with_name("fingerprints.json")
SCENARIOS = (
    "thieves-fall-out",
    "john-bulls-tyranny",
    "diplomatic-incident",
    "slash-and-run",
    "hearts-of-oak",
    "the-great-raid",
    "pitched-battle",
)
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "agility": {"agility": True, "agility_gm_ratings": True},
    "advanced fire": {
        "advanced": True,
        "raking_fire": True,
        "extreme_range": True,
        "long_range_penetration": True,
        "restricted_arcs": True,
        "coal_bunker_hits": True,
        "ramming_speed": True,
        "officer_led_boarding": True,
    },
    "plotted": {"plotted_movement": True, "signals": True, "line_of_sight": True},
    "standing orders": {"standing_orders": True},
}
# Which option sets each scenario is fingerprinted under: every scenario plain; the small ones under each family.
CASES = [(slug, "default") for slug in SCENARIOS] + [
    (slug, name)
    for slug in ("thieves-fall-out", "john-bulls-tyranny", "hearts-of-oak")
    for name in OPTION_SETS
    if name != "default"
]
SEED_NUMBER = 19  # simulate.seed_for(19, 0): the battle's dice


def fingerprint(slug: str, options: str) -> dict[str, Any]:
    """The battle's event log and final board, hashed, with its length and how it ended (so a changed
    fingerprint shows at once whether the battle came out differently or only its record changed)."""
    played = simulate.simulate(
        SKY_GALLEONS, scenario.load_data(slug), seed=simulate.seed_for(SEED_NUMBER), options=OPTION_SETS[options]
    )
    log = "\n".join(canonical(event.to_json()) for event in played.events)
    board = canonical(SKY_GALLEONS.board_to_json(played.final.board))
    return {
        "events": len(played.events),
        "log": hashlib.sha256(log.encode()).hexdigest(),
        "board": hashlib.sha256(board.encode()).hexdigest(),
        "winner": played.outcome["winner"],
        "turns": played.outcome["turns"],
    }


def key(slug: str, options: str) -> str:
    return f"{slug} / {options}"


@pytest.mark.parametrize(("slug", "options"), CASES, ids=[key(*case) for case in CASES])
def test_the_event_log_is_the_recorded_one(slug: str, options: str) -> None:
    recorded = json.loads(RECORDED.read_text())
    assert fingerprint(slug, options) == recorded[key(slug, options)]


def test_every_case_is_recorded_and_nothing_else() -> None:
    assert set(json.loads(RECORDED.read_text())) == {key(*case) for case in CASES}


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    RECORDED.write_text(json.dumps({key(*case): fingerprint(*case) for case in CASES}, indent=1) + "\n")
    print(f"wrote {len(CASES)} fingerprints to {RECORDED}")
