"""The Cloudships AI captain (ai.py, tactics.py): its answers always legal, every state of its battles keeping the
invariants, the same seed the same battle, clearly better than random play, and a few behaviours: it fires every
gun that can, closes to short range, keeps off the map's edge, rams when the odds are good; a withdrawing side
flies off the map."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, hexgrid, policies, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import ai, firing, manoeuvre, panels, tactics, validate
from battles.rules.cloudships_2023.board import Board, MoveOrder
from battles.rules.cloudships_2023.kinds import (
    FATE,
    FIRE_ORDERS,
    LEFT,
    MOVE,
    MOVE_DECISION,
    REALLY_LOW_BAND,
    RETURN_FIRE,
    TURN_CARD,
    TURN_IT,
    UMPIRE_TURNS_CARDS,
)
from battles.rules.cloudships_2023.phases.turn import status_of
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023 import fire_kit
from tests.rules.cloudships_2023.battle_kit import SCENARIO, at_stage, changed, mid_round, new

# Two like squadrons face to face, an Aphid and a Locust a side, near enough to fight at once: an even battle.
EVEN: dict[str, Any] = {
    "slug": "even",
    "title": "Even",
    "cols": 24,
    "rows": 18,
    "rounds": 12,
    "sides": [{"key": "red", "name": "Red"}, {"key": "blue", "name": "Blue"}],
    "ships": [
        {"name": "Red Aphid", "side": "red", "class": "aphid", "hex": [7, 7], "facing": 2, "band": "Medium"},
        {"name": "Red Locust", "side": "red", "class": "locust", "hex": [7, 10], "facing": 2, "band": "Medium"},
        {"name": "Blue Aphid", "side": "blue", "class": "aphid", "hex": [16, 10], "facing": 5, "band": "Medium"},
        {"name": "Blue Locust", "side": "blue", "class": "locust", "hex": [16, 7], "facing": 5, "band": "Medium"},
    ],
}
MATCH = 8  # battles against random play, half in each seat
FLOOR = 0.75


class Checked:
    """The captain's own proposal, checked legal before it is given (``Captain.choose`` would hide a mistake
    behind the default), and its fire orders checked to fire every gun that can."""

    def __init__(self, captain: ai.Captain) -> None:
        self.captain = captain
        self.name = captain.name
        self.asked: list[str] = []

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        choice = self.captain.propose(ruleset, state, request)
        assert request.allows(choice), (request.kind, choice)
        assert ruleset.validate(state, request, choice) is None, (request.kind, choice)
        if request.kind in (FIRE_ORDERS, RETURN_FIRE):
            assert fires_every_gun(state.board, request, choice)
        if request.kind == TURN_CARD:
            assert choice == TURN_IT
        self.asked.append(request.kind)
        return choice


def fires_every_gun(board: Board, request: DecisionRequest, choice: JSON) -> bool:
    firer = board.ship_named(validate.firer_of(request))
    able = {shot.gun for shot in firing.legal_shots(board, firer, validate.targets_for(board, request))}
    shots = validate.read_shots(choice)
    return shots is not None and {shot.gun for shot in shots} == able


def play(scenario: Any, seed: bytes, chosen: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    initial = resolver.new_battle(CLOUDSHIPS, scenario, seed_commitment=dice.commitment(seed), options=options)
    return initial, policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen)


def captains(seed: bytes, sides: tuple[str, ...]) -> dict[str, Checked]:
    return {side: Checked(ai.Captain(seed + side.encode(), f"captain {side}")) for side in sides}


@pytest.mark.parametrize(
    ("scenario", "options"),
    [(EVEN, {}), (EVEN, {UMPIRE_TURNS_CARDS: True, REALLY_LOW_BAND: True}), (SCENARIO, {})],
)
def test_the_captains_answers_are_legal_and_every_state_of_their_battles_keeps_the_invariants(scenario, options):
    seed = b"ai-legal"
    sides = tuple(side["key"] for side in scenario["sides"])
    chosen = captains(seed, sides)
    initial, done = play(scenario, seed, dict(chosen), options)
    assert done.state.over
    asked = [kind for policy in chosen.values() for kind in policy.asked]
    assert MOVE_DECISION in asked
    assert FIRE_ORDERS in asked
    if options.get(UMPIRE_TURNS_CARDS):
        assert TURN_CARD in asked
    current = initial
    for event in done.events:
        current = resolver.apply_event(CLOUDSHIPS, current, event)
        assert CLOUDSHIPS.check_invariants(current) == [], event.kind
    assert not [e for e in done.events if e.kind == FATE and e.data["status"] == LEFT]  # none flew off the map


def test_the_same_seed_plays_the_same_battle_byte_for_byte():
    def log(seed: bytes) -> list[Any]:
        initial = resolver.new_battle(CLOUDSHIPS, EVEN, seed_commitment=dice.commitment(seed))
        chosen = {side: CLOUDSHIPS.ai_policy(seed + side.encode(), side) for side in initial.sides}
        return [e.to_json() for e in policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=chosen).events]

    first = log(b"ai-same")
    assert first == log(b"ai-same")
    assert first != log(b"ai-other")


def test_the_captain_beats_random_play_clearly():
    """MATCH battles of the even scenario, the captain in each seat against random legal play: he wins at least
    FLOOR of them (a draw is no win). benchmarks/cloudships_ai.py plays a longer match."""
    wins = 0
    for run in range(MATCH):
        seed = f"ai-match {run}".encode()
        sides = tuple(side["key"] for side in EVEN["sides"])
        mine = sides[run % 2]
        chosen: dict[str, Any] = {
            side: CLOUDSHIPS.ai_policy(seed + side.encode(), side)
            if side == mine
            else policies.RandomPolicy(seed + side.encode(), f"random {side}")
            for side in sides
        }
        _, done = play(EVEN, seed, chosen)
        wins += done.state.winner == mine
    assert wins >= FLOOR * MATCH, f"{wins} of {MATCH}"


# --- behaviours ---------------------------------------------------------------------------------------------------

MIDDLE = hexgrid.from_odd_q(12, 9)


def moving(board: Board, name: str, **status: Any) -> BattleState[Board]:
    """Step 2 of ``name``'s turn on ``board`` (her card up), her status checked (``status`` overrides)."""
    state = new(b"ai-move", scenario=EVEN)
    ship = board.ship_named(name)
    checked = replace(status_of(ship), **status)
    return at_stage(state, MOVE, replace(board, status=checked, active=name))


def arena(**places: tuple[hexgrid.Hex, int, str]) -> Board:
    """The even battle's board with only the named ships in the fight, each put at (hex, facing, band)."""
    board = mid_round(new(b"ai-move", scenario=EVEN), active=None)
    for ship in board.ships:
        if ship.name in places:
            hex_, facing, band = places[ship.name]
            board = changed(board, ship.name, hex=hex_, facing=facing, band=band)
        else:
            board = changed(board, ship.name, status=LEFT)
    return board


def disarmed(board: Board, name: str) -> Board:
    return changed(board, name, guns_lost=tuple(gun.number for gun in board.ship_named(name).panel.guns))


def move_request(state: BattleState[Board], name: str) -> DecisionRequest:
    asked = resolver.resolve(CLOUDSHIPS, state, b"ai-move").state
    return next(r for r in asked.pending() if r.kind == MOVE_DECISION and r.ships == (name,))


def chosen_end(state: BattleState[Board], name: str, seed: bytes = b"ai") -> tuple[manoeuvre.Step, MoveOrder]:
    request = move_request(state, name)
    choice = ai.Captain(seed).choose(CLOUDSHIPS, state, request)
    order = MoveOrder.from_json(choice)
    steps = manoeuvre.trace(validate.mover_of(state, name), order.steps)
    return steps[-1], order


def away(start: hexgrid.Hex, direction: int, hexes: int) -> hexgrid.Hex:
    for _ in range(hexes):
        start = hexgrid.neighbour(start, direction)
    return start


def test_the_captain_closes_to_short_range():
    """Far from the enemy, she ends her move nearer, as near as her points allow."""
    board = arena(**{"Red Aphid": (MIDDLE, 0, panels.MEDIUM), "Blue Aphid": (away(MIDDLE, 0, 12), 3, panels.MEDIUM)})
    state = moving(board, "Red Aphid")
    end, _ = chosen_end(state, "Red Aphid")
    enemy = board.ship_named("Blue Aphid").hex
    assert hexgrid.distance(end.hex, enemy) <= 12 - 4  # Aphid: 6 MP; a turn or two to bring guns to bear


def test_the_captain_turns_her_guns_on_a_ship_in_reach_and_keeps_her_band():
    board = arena(**{"Red Aphid": (MIDDLE, 0, panels.MEDIUM), "Blue Locust": (away(MIDDLE, 2, 2), 0, panels.MEDIUM)})
    state = moving(board, "Red Aphid")
    end, _ = chosen_end(state, "Red Aphid")
    target = board.ship_named("Blue Locust")
    placed = replace(board.ship_named("Red Aphid"), hex=end.hex, facing=end.facing, band=end.band)
    assert abs(firing.climb(end.band, target.band)) <= 1  # her band, or the one above (her range the shorter)
    bearing = tactics.bearing(tactics.ready_guns(placed), (end.hex, end.facing, end.band), target)
    main = [band for gun, band in bearing if gun.kind == panels.MAIN]
    assert main == [firing.SHORT] * 3  # every main gun bears, at short range


def test_the_captain_keeps_off_the_map_edge():
    """A ship two hexes from the edge, heading for it: she turns away, with room ahead for a full move."""
    edge = hexgrid.from_odd_q(12, 1)
    board = arena(**{"Red Aphid": (edge, 0, panels.MEDIUM)})
    state = moving(board, "Red Aphid")
    end, _ = chosen_end(state, "Red Aphid")
    assert board.on_map(end.hex)
    assert not end.ends
    assert tactics.room_ahead(board, end.hex, end.facing, 6) == 6


def test_a_steamer_rams_a_kite_in_reach_when_her_ram_pays():
    """The Aphid (steam, +1) against a kite in her band a few hexes ahead, both disarmed: the ram is all she has,
    and she has nothing to fear where it leaves her."""
    board = arena(**{"Red Aphid": (MIDDLE, 0, panels.MEDIUM), "Blue Aphid": (away(MIDDLE, 0, 3), 0, panels.MEDIUM)})
    kite = replace(board.ship_named("Blue Aphid").panel, motive=panels.KITE, movement=None)
    board = disarmed(disarmed(changed(board, "Blue Aphid", panel=kite), "Blue Aphid"), "Red Aphid")
    end, order = chosen_end(moving(board, "Red Aphid"), "Red Aphid")
    assert order.ram == "Blue Aphid"
    assert (end.hex, end.band) == (away(MIDDLE, 0, 3), panels.MEDIUM)


def test_the_courses_reach_every_end_the_rules_plans_reach():
    """tactics.courses against manoeuvre.every_plan unbounded: the same ends, each course legal as traced."""
    cases = [
        ("Red Aphid", panels.MEDIUM, {"movement": 4}),
        ("Red Aphid", panels.LOW, {"movement": 4}),
        ("Red Aphid", panels.HIGH, {"movement": 4}),
        ("Red Aphid", panels.MEDIUM, {"movement": 3, "no_direction_change": True}),
        ("Red Aphid", panels.MEDIUM, {"movement": 3, "no_altitude_change": True}),
        ("Red Aphid", panels.MEDIUM, {"movement": 3, "whole_movement": True}),
    ]
    for name, band, status in cases:
        board = arena(**{name: (MIDDLE, 0, band)})
        state = moving(board, name, **status)
        move = validate.mover_of(state, name)
        every = {_end(steps, move) for _, steps in manoeuvre.every_plan(move, most=100_000)}
        found = tactics.courses(move)
        assert {_end(course.steps, move) for course in found} == every
        for course in found:
            assert validate.move_problem(state, name, list[JSON](course.plan)) is None
    low_ceiling = changed(arena(**{"Red Aphid": (MIDDLE, 0, panels.LOW)}), "Red Aphid", crossed=17)
    assert low_ceiling.ship_named("Red Aphid").ceiling == panels.LOW  # her Low box crossed (CM-DMG-08)
    for options in ({}, {REALLY_LOW_BAND: True}):
        state = moving(low_ceiling, "Red Aphid", movement=3)
        state = state.evolve(options={**state.options, **options})
        move = validate.mover_of(state, "Red Aphid")
        every = {_end(steps, move) for _, steps in manoeuvre.every_plan(move, most=100_000)}
        assert {_end(course.steps, move) for course in tactics.courses(move)} == every
    for motive in (panels.SCREW_GALLEY, panels.KITE):
        board = arena(**{"Red Locust": (MIDDLE, 0, panels.MEDIUM)})
        panel = replace(board.ship_named("Red Locust").panel, motive=motive)
        board = changed(board, "Red Locust", panel=panel)
        state = moving(board, "Red Locust", movement=4, kite_roll=6 if motive == panels.KITE else None)
        move = validate.mover_of(state, "Red Locust")
        every = {_end(steps, move) for _, steps in manoeuvre.every_plan(move, most=100_000)}
        assert {_end(course.steps, move) for course in tactics.courses(move)} == every


def _end(steps: Any, move: manoeuvre.Mover) -> tuple[Any, ...]:
    if not steps:
        return move.ship.hex, move.ship.facing, move.ship.band, ""
    return steps[-1].hex, steps[-1].facing, steps[-1].band, steps[-1].ends


def test_a_withdrawing_side_flies_off_the_map_and_a_surrendered_one_takes_the_defaults():
    edge = hexgrid.from_odd_q(12, 2)
    board = arena(**{"Red Aphid": (edge, 3, panels.MEDIUM)})
    state = moving(board, "Red Aphid")
    request = move_request(state, "Red Aphid")
    order = MoveOrder.from_json(CLOUDSHIPS.leaving_policy(b"s", "red", "withdraw").choose(CLOUDSHIPS, state, request))
    assert manoeuvre.trace(validate.mover_of(state, "Red Aphid"), order.steps)[-1].ends == manoeuvre.LEFT_MAP
    surrendered = CLOUDSHIPS.leaving_policy(b"s", "red", "surrender").choose(CLOUDSHIPS, state, request)
    assert surrendered == request.default


def test_every_gun_fires_at_the_target_its_shot_is_worth_most_on_the_ship_nearer_her_crash():
    """The Locust fresh and the Hullcutter nearly done, both two hexes off the Aphid's bow: every gun at the
    Hullcutter, a point on her worth more than one on the Locust."""
    board = fire_kit.duel(2)
    board = changed(board, "Hullcutter", hex=fire_kit.away(2), facing=fire_kit.SOUTH, band=panels.LOW, crossed=40)
    state = fire_kit.start(board).state
    request = fire_kit.request_of(state, FIRE_ORDERS, "Aphid")
    orders = validate.read_shots(ai.Captain(b"ai").choose(CLOUDSHIPS, state, request))
    assert orders is not None
    able = {
        shot.gun
        for shot in firing.legal_shots(
            state.board, state.board.ship_named("Aphid"), validate.targets_for(state.board, request)
        )
    }
    assert {shot.gun for shot in orders} == able
    assert {shot.target for shot in orders} == {"Hullcutter"}
