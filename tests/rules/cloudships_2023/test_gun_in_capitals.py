"""The GUN-in-capitals variant (CM-GUN-03..05; docs/cloudships.md section 7): agreed before the battle (an option),
a Gun box printed GUN lets the firer choose which of his victim's guns bearing on him she loses; his fire orders
name them (``hit_first``). A lower-case Gun box, or no agreement, keeps the die."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import ai, answers, panels, validate
from battles.rules.cloudships_2023.board import Board, DamageDue
from battles.rules.cloudships_2023.kinds import (
    DAMAGE,
    FIRE,
    FIRE_ORDERS,
    GUN_IN_CAPITALS,
    GUN_LOST,
    HIT_FIRST,
    TURN_ENDED,
)
from battles.rules.cloudships_2023.presentation import narration
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, new, of_kind, ship
from tests.rules.cloudships_2023.fire_kit import duel, give, request_of, start

SEEDS = (b"g1", b"g2", b"g3", b"g4", b"g5")


def agreed(state: BattleState[Board], on: bool = True) -> BattleState[Board]:
    return state.evolve(options={**state.options, GUN_IN_CAPITALS: on})


def gun_box_due(box: str, wanted: tuple[int, ...], by: str = "Aphid") -> Board:
    """The Aphid and the Locust bow to bow two hexes apart; the Locust owes a point that crosses ``box``; the
    Aphid's orders named ``wanted`` to be hit first."""
    board = duel(2)
    locust = ship(board, "Locust")
    board = changed(board, "Locust", panel=replace(locust.panel, track=((box, panels.HULL, panels.GROUND),)))
    return replace(board, due=(DamageDue("Locust", 1, by),), hit_first=(("Aphid", "Locust", wanted),))


def marked(board: Board, seed: bytes, *, on: bool = True) -> Any:
    return resolver.resolve(CLOUDSHIPS, agreed(at_stage(new(seed, umpire=True), DAMAGE, board), on), seed)


def bearing_and_not(board: Board) -> tuple[list[int], list[int]]:
    locust, aphid = ship(board, "Locust"), ship(board, "Aphid")
    bearing = [gun.number for gun in locust.guns_bearing_on(aphid.hex)]
    return bearing, [gun.number for gun in locust.panel.guns if gun.number not in bearing]


def picks(events: Any) -> list[Any]:
    return [e for e in events if e.kind == "roll" and "guns is hit" in e.data["purpose"]]


@pytest.mark.rule("CM-GUN-03")
def test_a_gun_box_in_capitals_takes_the_gun_the_firer_named_first_among_those_bearing_on_him():
    bearing, hidden = bearing_and_not(duel(2))
    assert len(bearing) > 1
    assert hidden
    wanted = (hidden[0], bearing[-1], bearing[0])  # the first named is out of his arc: the next one is taken
    for seed in SEEDS:
        done = marked(gun_box_due(panels.GUN_CHOSEN, wanted), seed)
        lost = of_kind(done.events, GUN_LOST)
        assert [e.data["gun"] for e in lost] == [bearing[-1]]
        assert lost[0].data["chosen_by"] == "Aphid"
        assert not picks(done.events)  # no die
        assert "Aphid's choice" in narration.TELLERS[GUN_LOST](lost[0].data, narration.names_for({}, {}))


@pytest.mark.rule("CM-GUN-04", "CM-GUN-01")
def test_a_lower_case_gun_box_keeps_the_die_whatever_the_firer_named():
    bearing, _ = bearing_and_not(duel(2))
    seen = set()
    for seed in SEEDS:
        done = marked(gun_box_due(panels.GUN, (bearing[0],)), seed)
        assert len(picks(done.events)) == 1
        seen |= {e.data["gun"] for e in of_kind(done.events, GUN_LOST)}
    assert seen <= set(bearing)
    assert len(seen) > 1  # not always the one named


@pytest.mark.rule("CM-GUN-05", "CM-GUN-03")
def test_without_the_option_agreed_a_gun_box_in_capitals_is_rolled_for_and_hit_first_is_refused():
    bearing, _ = bearing_and_not(duel(2))
    done = marked(gun_box_due(panels.GUN_CHOSEN, (bearing[0],)), b"g1", on=False)
    assert len(picks(done.events)) == 1
    assert "chosen_by" not in of_kind(done.events, GUN_LOST)[0].data
    nobody = marked(gun_box_due(panels.GUN_CHOSEN, (bearing[0],), by=""), b"g1")  # a fire: no firer to choose
    assert len(picks(nobody.events)) == 1
    asked = start(duel(2))
    aphid_gun = validate.read_shots(
        validate.fire_candidates(asked.state.board, request_of(asked.state, FIRE_ORDERS))[1]
    )
    assert aphid_gun
    orders = {"shots": [aphid_gun[0].to_json()], HIT_FIRST: {"Locust": [bearing[0]]}}
    request = request_of(asked.state, FIRE_ORDERS)
    assert clause_of(asked.state, request, orders) == "CM-GUN-05"
    assert clause_of(agreed(asked.state), request, orders) is None
    assert clause_of(agreed(asked.state), request, {**orders, HIT_FIRST: {"Locust": [99]}}) == "CM-GUN-03"
    assert clause_of(agreed(asked.state), request, {**orders, HIT_FIRST: {"Aphid": [1]}}) == "CM-GUN-03"


def clause_of(state: BattleState[Board], request: DecisionRequest, choice: Any) -> str | None:
    found = CLOUDSHIPS.validate(state, request, choice)
    return None if found is None else found.clause


@pytest.mark.rule("CM-GUN-03")
def test_the_guns_named_are_kept_until_the_turn_ends_and_the_form_and_the_ai_name_them():
    bearing, _ = bearing_and_not(duel(2))
    asked = resolver.resolve(CLOUDSHIPS, agreed(at_stage(new(umpire=True), FIRE, duel(2))), b"cm-seed")
    request = request_of(asked.state, FIRE_ORDERS)
    orders = ai.Captain(b"ai").choose(CLOUDSHIPS, asked.state, request)
    assert isinstance(orders, dict)
    assert HIT_FIRST in orders
    assert clause_of(asked.state, request, orders) is None
    schema = answers.fire_schema(asked.state, request).to_json()
    assert HIT_FIRST in str(schema)
    mine = {"shots": orders["shots"], HIT_FIRST: {"Locust": [bearing[0]]}}
    done = give(asked.state, FIRE_ORDERS, mine)
    assert done.state.board.hit_first[0] == ("Aphid", "Locust", (bearing[0],))
    assert Board.from_json(done.state.board.to_json()) == done.state.board
    while not of_kind(done.events, TURN_ENDED):
        request = done.state.pending()[0]
        done = give(done.state, request.kind, request.default, name=request.ships[0] if request.ships else None)
    assert done.state.board.hit_first == ()
    assert "hit_first" not in new().board.to_json()
