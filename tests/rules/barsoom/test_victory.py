"""A scenario's story victory conditions (battles/rules/barsoom/goals.py, victory.py; docs/barsoom.md section 10):
read and checked at set-up, a bad one refused with a ValueError that says why; an escape over the named edge by a
plotted card, a ship lost and a fleet broken each end the battle for the side the scenario names, played through
the engine; goals met at once for different sides draw. The rules text has no victory conditions: the clauses cited
are those the conditions read (BR-DED-04 for the map's edge, BR-DMG-12 and BR-LAND-04 for a ship lost)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine.frozen import evolve
from battles.engine.state import BattleState
from battles.rules.barsoom import ai, cards, movement, setup, victory
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.goals import Goal
from battles.rules.barsoom.kinds import AHEAD, PLOT_CARDS
from battles.rules.barsoom.ruleset import BARSOOM
from tests.rules.barsoom.test_turn import play, scenario, ship

RUNNER = ship("Red One", "red", 28, 10, facing=2)  # two hexes short of the east edge of a 30-column map, heading SE
HUNTER = ship("Blue One", "blue", 5, 10, facing=1)
ESCAPE = {"when": "escapes", "ship": "Red One", "edge": "east", "wins": "red"}
LOST = {"when": "lost", "ship": "Red One", "wins": "blue"}


def story(*goals: dict[str, Any], ships: tuple[dict[str, Any], ...] = (RUNNER, HUNTER)) -> dict[str, Any]:
    return {**scenario(*ships), "victory": list(goals)}


def ahead_for_red(state: BattleState[Battle], request: Any) -> Any:
    if request.kind == PLOT_CARDS and request.ships == ("Red One",):
        return {"cards": [AHEAD, "Stop", "Stop"], "ram": False}
    return request.default


def test_the_goals_are_read_at_setup_and_kept_with_the_battle():
    _, battle = setup.battle(story(ESCAPE, LOST))
    assert battle.goals == (Goal("escapes", "red", ship="Red One", edge="east"), Goal("lost", "blue", ship="Red One"))
    assert Battle.from_json(battle.to_json()).goals == battle.goals
    assert battle.next_turn().goals == battle.goals
    _, plain = setup.battle(scenario(RUNNER, HUNTER))
    assert plain.goals == ()


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({**ESCAPE, "when": "sinks"}, "'when' is 'sinks'"),
        ({**ESCAPE, "wins": "green"}, "no side of the scenario"),
        ({**ESCAPE, "ship": "Nobody"}, "no ship of the scenario"),
        ({**ESCAPE, "edge": "up"}, "the edge 'up'"),
        ({"when": "broken", "side": "green", "fighting": 1, "wins": "red"}, "a side of the scenario"),
        ({"when": "broken", "side": "blue", "fighting": -1, "wins": "red"}, "a side of the scenario"),
        ({"ship": "Red One", "wins": "red"}, "victory condition 1"),
        ("escape", "victory condition 1"),
    ],
)
def test_a_bad_goal_is_refused_at_setup_with_a_clear_error(bad, says):
    with pytest.raises(ValueError, match="victory condition 1") as refused:
        setup.battle(story(bad))
    assert says in str(refused.value)


@pytest.mark.rule("BR-DED-04")
def test_a_plotted_escape_over_the_named_edge_wins_for_its_side():
    state, _ = play(story(ESCAPE), ahead_for_red)
    assert state.over
    assert state.turn == 1
    assert state.winner == "red"
    assert state.result == "Red One escapes over the east edge of the map"
    assert BARSOOM.outcome(state, state).ships[0].fate == "escaped"


def test_an_escape_over_another_edge_is_no_win():
    state, _ = play(story({**ESCAPE, "edge": "west"}), ahead_for_red)
    assert state.over
    assert state.turn == 1
    assert state.winner == "blue"  # she left the battle, and the plain rule judges the rest
    assert "alone have ships in the fight" in state.result


@pytest.mark.rule("BR-DMG-12")
def test_a_ship_lost_wins_for_the_side_named_and_an_escaped_ship_is_not_lost():
    def wrecked(battle: Battle) -> Battle:
        entry = battle.of("Red One")
        return battle.with_aboard("Red One", condition=evolve(entry.condition, wrecked=True))

    second = ship("Red Two", "red", 3, 3)
    state, _ = play(story(LOST, ships=(RUNNER, second, HUNTER)), change=wrecked)
    assert (state.over, state.winner, state.result) == (True, "blue", "Red One is lost")
    state, _ = play(story(LOST, ships=(RUNNER, second, HUNTER)), ahead_for_red, until_turn=2)
    assert not state.over  # off the map by her own card: out of the battle, not lost


@pytest.mark.rule("BR-LAND-04")
def test_lost_reads_crashed_and_taken_and_broken_counts_the_ships_in_the_fight():
    _, battle = setup.battle(story(LOST, ships=(RUNNER, ship("Red Two", "red", 3, 3), HUNTER)))
    able = dict.fromkeys(("Red One", "Red Two", "Blue One"), True)
    assert victory.reached(battle, able) == ()
    crashed = battle.with_board(battle.board.with_ships([replace(battle.ship("Red One"), level=0, crashed=True)]))
    assert victory.reached(crashed, {**able, "Red One": False}) == battle.goals
    taken = battle.with_board(battle.board.with_ships([replace(battle.ship("Red One"), side="blue")]))
    assert victory.reached(taken, able) == battle.goals
    broken = Goal("broken", "blue", side="red", fighting=1)
    fleet = replace(battle, goals=(broken,))
    assert victory.reached(fleet, able) == ()
    assert victory.reached(fleet, {**able, "Red Two": False}) == (broken,)
    said = "with one ship or none left in the fight, Red break off the action"
    assert victory.verdict(fleet, (broken,)) == ("blue", said)


def test_goals_met_at_once_for_different_sides_draw():
    _, battle = setup.battle(story(ESCAPE))
    both = (Goal("broken", "blue", side="red", fighting=0), Goal("broken", "red", side="blue", fighting=0))
    winner, reason = victory.verdict(replace(battle, side_names={"red": "Red", "blue": "Blue"}), both)
    assert winner is None
    assert reason.endswith("at once")
    assert "Red break off" in reason
    assert "Blue break off" in reason


def test_every_example_scenario_sets_up_with_its_goals():
    for example in BARSOOM.example_scenarios():
        _, battle = setup.battle(example)
        assert len(battle.goals) == len(example.get("victory", []))


def test_the_ai_never_flies_a_runner_off_the_wrong_edge() -> None:
    """Three hexes from the west edge and heading for it, with her escape in the east: over the west edge she is out of
    the battle and lost, worse than any place on the map however far from her own edge (docs/barsoom.md section 10,
    the AI once scored it above staying 26 hexes short)."""
    wrong_way = ship("Red One", "red", 3, 10, facing=5)
    _, battle = setup.battle(story(ESCAPE, LOST, ships=(wrong_way, HUNTER)))
    plotted = ai.plot(battle, "Red One")
    assert isinstance(plotted, dict)
    after = battle.board
    for value in plotted["cards"]:
        card, turns = cards.played(value)
        after = movement.execute(after, "Red One", card, turn=turns).board
    assert after.ship_named("Red One").in_play
