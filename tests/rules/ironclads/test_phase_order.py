"""Where the battle's phases meet: every ship's damage and problems are resolved in the Firing Phase before the End
Phase begins (IC-PROB-09); and one counter is one ship, filling one hex (IC-SEQ-01, docs/ironclads.md "Hex play")."""

from __future__ import annotations

import pytest

from battles.engine import simulate
from battles.rules.ironclads import setup
from battles.rules.ironclads.kinds import DAMAGE_RESOLVED, END, FIRING, PROBLEM
from battles.rules.ironclads.ruleset import IRONCLADS
from tests.rules.ironclads.test_turn import scenario, ship


def _close_fight() -> dict[str, object]:
    """Two wooden ships broadside to broadside at close range: hits, damage and problems every turn."""
    card = {"stats": {"port": 12, "starboard": 12, "armour": 0, "propulsion": 4, "hull": 12}}
    return scenario(
        {**ship("Alpha", "north", 5, 5, facing=0), "card": card, "speed": 0},
        {**ship("Charlie", "south", 7, 5, facing=0), "card": card, "speed": 0},
        turns=4,
    )


@pytest.mark.rule("IC-PROB-09")
def test_every_ships_damage_and_problems_are_resolved_before_the_end_phase_begins() -> None:
    checked = 0
    for n in range(6):
        log = simulate.simulate(IRONCLADS, _close_fight(), seed=simulate.seed_for(7, n)).events
        for turn in {e.turn for e in log}:
            events = [e for e in log if e.turn == turn]
            resolved = [i for i, e in enumerate(events) if e.kind in (DAMAGE_RESOLVED, PROBLEM)]
            # the turn's own End Phase (the next turn's "turn" event is written as the End Phase rolls over)
            ended = [i for i, e in enumerate(events) if e.phase == END and e.kind != "turn"]
            if resolved and ended:
                assert max(resolved) < min(ended)
                assert all(events[i].phase == FIRING for i in resolved)
                checked += 1
    assert checked  # the fights did come to damage and to the End Phase


@pytest.mark.rule("IC-SEQ-01")
def test_one_counter_is_one_ship_filling_one_hex() -> None:
    with pytest.raises(ValueError, match="hex"):
        setup.battle(
            scenario(ship("Alpha", "north", 5, 5), ship("Bravo", "north", 5, 5), ship("Charlie", "south", 9, 9))
        )
    _, battle = setup.battle(scenario(ship("Alpha", "north", 5, 5), ship("Charlie", "south", 9, 9)))
    assert len({s.hex for s in battle.board.ships}) == len(battle.board.ships) == 2
