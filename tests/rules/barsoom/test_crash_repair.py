"""A crashed ship is "a wreck until repaired" (BR-LAND-04): with the battle's option (on for new battles) the crash is
a repairable result her repair crew mends with three 6s like any other (BR-REP-03), and mended she has landed and may
plot and take off again. A battle stored before the option keeps a crash for good, as it was played. Her own parties
away give up when she is taken (docs/barsoom.md section 9)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.events import DECISION_REQUESTED
from battles.engine.frozen import evolve
from battles.rules.barsoom import damage
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.crew import Boarders, RepairCrew
from battles.rules.barsoom.damage import Harm
from battles.rules.barsoom.kinds import BOARDING_FIGHT, CRASH_REPAIRABLE, PLOT_CARDS, REPAIRS, SHIP_MOVED, SHIP_TAKEN
from tests.rules.barsoom.test_turn import _orders, play, scenario, ship

FLEET = (
    ship("Red One", "red", 3, 3),
    ship("Red Two", "red", 6, 3),
    ship("Blue One", "blue", 25, 16, facing=4),
)


def crashed_with_a_repair_crew(battle: Battle) -> Battle:
    """Red One lies crashed on the ground, her repair crew at work with two 6s saved: one more mends the crash."""
    down = replace(battle.ship("Red One"), level=0, crashed=True)
    entry = battle.of("Red One")
    condition = damage.crashed(entry.condition)
    crew = evolve(entry.crew, men=entry.crew.men - 10, repair=RepairCrew(10, 2))
    return battle.with_board(battle.board.with_ships([down])).with_aboard("Red One", condition=condition, crew=crew)


@pytest.mark.rule("BR-LAND-04")
@pytest.mark.rule("BR-REP-03")
def test_a_crashed_ship_is_repaired_back_to_landed_and_plots_again() -> None:
    state, log = play(scenario(*FLEET), _orders({"Red One": "repair"}), until_turn=4, change=crashed_with_a_repair_crew)
    mends = [e for e in log if e.kind == REPAIRS and "the crash" in e.data["mended"]]
    assert mends, "ten repairers and two 6s saved mend the crash within three turns"
    mended_on = mends[0].turn
    ship = state.board.ship("Red One")
    assert (ship.crashed, ship.landed, ship.level) == (False, True, 0)
    assert not any(h.row == damage.CRASHED for h in state.board.of("Red One").condition.harms)
    plots = [
        e.turn
        for e in log
        if e.kind == DECISION_REQUESTED
        and e.data["request"]["kind"] == PLOT_CARDS
        and e.data["request"]["ships"] == ["Red One"]
    ]
    assert plots
    assert min(plots) == mended_on + 1  # crashed she plots nothing; landed she plots the next turn


@pytest.mark.rule("BR-LAND-04")
def test_a_stored_battle_keeps_a_crash_for_good() -> None:
    """Without the option (a stored battle has no such key; off here) a crash adds no repairable result."""
    adrift = ship("Red One", "red", 3, 3, level=1, crew={"men": 10, "helm": 0})  # helmless: out of control
    sc = scenario(adrift, *FLEET[1:])
    _, on = play(sc, until_turn=3)
    _, off = play(sc, until_turn=3, options={CRASH_REPAIRABLE: False})
    crash_on = [e for e in on if e.kind == SHIP_MOVED and e.data["outcome"] == "crashed"]
    crash_off = [e for e in off if e.kind == SHIP_MOVED and e.data["outcome"] == "crashed"]
    assert crash_on, "out of control at level 1, her forced Descend crashes her"
    assert crash_off
    assert {h["row"] for h in crash_on[0].data["conditions"]["Red One"]["harms"]} == {damage.CRASHED}
    assert "conditions" not in crash_off[0].data  # the event spelled as a stored log has it


def test_a_wreck_keeps_no_crash_to_repair() -> None:
    assert damage.crashed(damage.Condition(wrecked=True)).harms == ()
    assert damage.crashed(damage.crashed(damage.Condition())).harms == (Harm(damage.CRASHED),)
    assert damage.harm_words(Harm(damage.CRASHED)) == "the crash"


@pytest.mark.rule("BR-GRAP-01")
def test_a_taken_ships_own_parties_away_give_up_with_her() -> None:
    """Blue One is boarded and taken while a party of hers is away aboard Red Two: the party gives up with her (the
    crew record keeps no side for a party away, so it cannot fight on for a ship now her captors')."""
    alongside = (
        ship("Red One", "red", 10, 10),
        ship("Blue One", "blue", 11, 10, facing=4, crew={"men": 2, "helm": 1}),
        ship("Red Two", "red", 20, 10),
    )

    def away(battle: Battle) -> Battle:
        entry = battle.of("Blue One")
        return battle.with_aboard("Blue One", crew=evolve(entry.crew, away=(Boarders("Red Two", 3),)))

    state, log = play(scenario(*alongside), _orders({"Red One": "board"}), until_turn=3, change=away)
    taken = next(e for e in log if e.kind == SHIP_TAKEN)
    assert taken.data["ship"] == "Blue One"
    assert state.board.of("Blue One").crew.away == ()
    assert state.board.ship("Blue One").side == "red"
    fights_on_red_two = [e for e in log if e.kind == BOARDING_FIGHT and e.data["ship"] == "Red Two"]
    assert fights_on_red_two == []  # the party was whole when she struck, and no one fights on for blue there
    assert taken.data["crews"]["Blue One"]["away"] == []
