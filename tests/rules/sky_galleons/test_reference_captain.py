"""The yardstick of issue 21 stays true: the reference captain (benchmarks/reference_captain, the AI as it stood
when the issue began) plays Thieves Fall Out on the fingerprints' seed exactly as the AI did then, and the match
that sets the live captain against it seats the live one in every seat (benchmarks/ai_match.py)."""

from __future__ import annotations

import hashlib

from battles.engine import dice, policies, resolver, simulate
from battles.engine.events import canonical
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from benchmarks import ai_match
from benchmarks.reference_captain import reference_policy

# tests/rules/sky_galleons/fingerprints.json's "thieves-fall-out / default" as recorded when issue 21 began (107e6ba)
THIEVES_LOG = "20faa23c1992993f4c60ac4ab791b6ae5143cec89611eec4b95c00e340b74a6d"


def test_the_reference_captain_plays_as_the_ai_did_when_the_issue_began() -> None:
    seed = simulate.seed_for(19)
    initial = resolver.new_battle(
        SKY_GALLEONS, scenario.load_data("thieves-fall-out"), seed_commitment=dice.commitment(seed)
    )
    chosen = {side: reference_policy(SKY_GALLEONS, seed, side) for side in initial.sides}
    played = policies.auto_play(SKY_GALLEONS, initial, seed=seed, policies=chosen, max_decisions=simulate.MAX_DECISIONS)
    log = "\n".join(canonical(event.to_json()) for event in played.events)
    assert hashlib.sha256(log.encode()).hexdigest() == THIEVES_LOG


def test_the_match_plays_each_seed_in_every_seat_and_scores_a_draw_half() -> None:
    played = [ai_match.play(("john-bulls-tyranny", 21, 0, seat)) for seat in (0, 1)]
    assert {p["live"] for p in played} == {"british", "irish"}
    for battle in played:
        expected = 0.5 if battle["winner"] is None else float(battle["winner"] == battle["live"])
        assert battle["score"] == expected
    # The live captain still decides as the reference does: one seed, one battle, whoever sits where.
    assert played[0]["winner"] == played[1]["winner"]
    assert sum(p["score"] for p in played) == 1.0
