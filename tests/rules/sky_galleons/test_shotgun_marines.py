"""Shotgun marines in boarding actions (SG-CG-16..19, close_action.py): a second attack die in the first round
of a boarding action, reloaded when the action ends; the lever-action shotgun attacks twice every round."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from battles.rules.sky_galleons import close_action
from battles.rules.sky_galleons.close_action import boarding_round
from battles.rules.sky_galleons.kinds import ORDERS
from battles.rules.sky_galleons.scenario import ScenarioError, parse
from galleons.record import Party, ShipRecord, ship_record_from_class
from tests.rules.sky_galleons.test_boarding_battle import begin, drive, orders, rolls, scenario, ship


class Misses:
    """A roller whose every die shows 1 (nobody is killed, so no casualty die): it only counts the dice."""

    def __init__(self) -> None:
        self.rolls: list[tuple[str, int]] = []

    def __call__(self, purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
        self.rolls.append((purpose, count))
        return (1,) * count

    def dice(self, words: str) -> int:
        return sum(count for purpose, count in self.rolls if words in purpose)


def boarder(arms: str | None = "shotgun", **changes: Any) -> ShipRecord:
    ship = ship_record_from_class("Endtime", name="Boarder")
    return replace(ship, marine_arms=arms, boarders=Party(officers=1, marines=4), boarding="Prize", **changes)


def prize(arms: str | None = None) -> ShipRecord:
    ship = ship_record_from_class("Sky Runner", name="Prize")
    return replace(ship, marine_arms=arms, crew=replace(ship.crew, deckhands=2, marines=3))


def round_of(attacker: ShipRecord, defender: ShipRecord) -> tuple[Mapping[str, ShipRecord], Misses]:
    roller = Misses()
    fought = boarding_round([attacker], defender, roller=roller)
    return fought.records, roller


@pytest.mark.rule("SG-CG-17")
def test_shotgun_marines_attack_twice_in_the_first_round_then_once() -> None:
    records, first = round_of(boarder(), prize())
    # The officer and four marines roll 5 dice, and the four shotgun marines 4 more.
    assert first.dice("attacker Boarder's 5 officers and marines") == 5
    assert first.dice("Boarder's 4 shotgun marines' second attacks") == 4
    assert records["Boarder"].shotguns_spent == "Prize"
    records, second = round_of(records["Boarder"], records["Prize"])
    assert second.dice("second attacks") == 0
    # Marines with rifles attack once from the start.
    _, rifles = round_of(boarder(arms=None), prize())
    assert rifles.dice("second attacks") == 0


@pytest.mark.rule("SG-CG-17")
def test_defending_shotgun_marines_fire_their_double_too() -> None:
    records, first = round_of(boarder(arms=None), prize(arms="shotgun"))
    assert first.dice("defender Prize's 3 shotgun marines' second attacks") == 3
    assert records["Prize"].shotguns_spent == "Prize"
    _, second = round_of(records["Boarder"], records["Prize"])
    assert second.dice("second attacks") == 0


@pytest.mark.rule("SG-CG-19")
def test_a_lever_action_shotgun_attacks_twice_every_round() -> None:
    records, first = round_of(boarder(arms="lever_action_shotgun"), prize())
    assert first.dice("second attacks") == 4
    _, second = round_of(records["Boarder"], records["Prize"])
    assert second.dice("second attacks") == 4


@pytest.mark.rule("SG-CG-18")
def test_shotguns_are_reloaded_when_the_boarding_action_ends() -> None:
    records, _ = round_of(boarder(), prize(arms="shotgun"))
    attacker, defender = records["Boarder"], records["Prize"]
    assert (attacker.shotguns_spent, defender.shotguns_spent) == ("Prize", "Prize")
    # The boarders withdraw (a recall or a retreat): the attackers reload at once...
    home = close_action.bring_home(attacker)
    assert home.shotguns_spent is None
    # ...and the defenders once no enemy boarder is left aboard (at the next movement phase).
    assert close_action.reload_shotguns(defender, boarded=True) == defender
    assert close_action.reload_shotguns(defender, boarded=False).shotguns_spent is None
    # Back across, a new action: the double attack again.
    again, roller = round_of(replace(home, boarders=Party(officers=1, marines=4), boarding="Prize"), prize())
    assert roller.dice("second attacks") == 4
    assert again["Boarder"].shotguns_spent == "Prize"


@pytest.mark.rule("SG-CG-18")
def test_an_action_won_or_lost_reloads_every_shotgun_in_it() -> None:
    # The defenders are all down in the first round: the ship is taken and the action is over.
    lone = prize(arms="shotgun")
    lone = replace(lone, crew=replace(lone.crew, deckhands=0, marines=1, petty_officers=0))
    fought = boarding_round([boarder()], lone, roller=lambda purpose, count, sides, **_: (6,) * count)
    assert fought.taken
    assert all(record.shotguns_spent is None for record in fought.records.values())
    # An attacker whose boarders are no longer aboard the ship it fought on reloads too.
    gone = replace(boarder(), boarders=Party(), boarding=None, shotguns_spent="Prize")
    assert close_action.reload_shotguns(gone, boarded=False).shotguns_spent is None


@pytest.mark.rule("SG-CG-17", "SG-CG-18")
def test_the_spent_shotguns_ride_on_the_record() -> None:
    spent = replace(boarder(), shotguns_spent="Prize")
    data = json.loads(json.dumps(spent.to_json()))
    assert data["shotguns_spent"] == "Prize"
    assert ShipRecord.from_json(data) == spent
    assert "shotguns_spent" not in boarder().to_json()


# --- in battle --------------------------------------------------------------------------------------------------


def shotgun_battle(seed: bytes) -> Any:
    """The Reaver's shotgun marines are aboard the Runner, whose own marines carry shotguns too."""
    reaver = {**ship("Reaver", "Hullcutter", (6, 5)), "marine_arms": "shotgun"}
    runner = {**ship("Runner", "Sky Runner", (6, 5)), "marine_arms": "shotgun"}
    state = begin(scenario([reaver], [runner, ship("Far", "Sky Runner", (14, 2))], turns=6), seed)
    board = state.board
    a = replace(
        board.ship("Reaver"),
        grappled_with=("Runner",),
        boarders=Party(officers=2, petty_officers=2, marines=6),
        boarding="Runner",
    )
    b = board.ship("Runner")
    b = replace(b, grappled_with=("Reaver",), crew=replace(b.crew, marines=4, deckhands=4))
    return replace(state, board=board.with_ship(a).with_ship(b))


@pytest.mark.rule("SG-CG-17", "SG-CG-18")
def test_in_battle_the_double_attack_comes_once_an_action_and_again_after_a_recall() -> None:
    seed = b"shotgun-battle"
    state = shotgun_battle(seed)
    assert state.board.ship("Reaver").marine_arms == "shotgun"
    state, events, _ = drive(state, orders(), seed, lambda s, r: s.turn == 2 and r.kind == ORDERS)
    doubles = rolls(events, "shotgun marines' second attacks")
    assert {str(e.data["purpose"]).split("'s ")[0].split()[-1] for e in doubles} == {"Reaver", "Runner"}
    assert len(doubles) == 2  # the first round only, for each side
    assert state.board.ship("Reaver").shotguns_spent == "Runner"
    assert state.board.ship("Runner").shotguns_spent == "Runner"
    recall = {"a": {"recall": ["Reaver"]}}
    state, events, _ = drive(
        state, lambda s, r: orders(extra=recall if s.turn == 2 else {})(s, r), seed, lambda s, r: s.turn == 3
    )
    assert state.board.ship("Reaver").shotguns_spent is None  # withdrawn: reloaded at once
    # The Runner's marines reload at the next movement phase, no boarder being left aboard her.
    notes = [n for e in events if e.kind == "effects" for n in e.data["notes"]]
    assert any(n["what"] == "Runner's shotgun marines reload" and n["clauses"] == ["SG-CG-18"] for n in notes)
    assert state.board.ship("Runner").shotguns_spent is None


@pytest.mark.rule("SG-CG-16")
def test_a_scenario_arms_the_marines() -> None:
    with pytest.raises(ScenarioError, match="marine_arms"):
        parse(scenario([{**ship("A", "Hullcutter", (2, 2)), "marine_arms": "pike"}], [ship("B", "Sky Runner", (9, 9))]))
