"""Fire within a fire step is simultaneous (SG-SEQ-05, SG-FIRE-01; the text is silent, the decision is in
combat-tables.json "simultaneous_fire" and docs/engine.md): every shot is aimed from the ships as they stood
when the step began, so its modifiers, range, altitudes and the ships beside its target are those of the
start; the damage of each shot falls on the records as the step's earlier shots left them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import Rejection
from battles.engine.events import Event
from battles.engine.hexgrid import ORIGIN, Hex
from battles.engine.state import BattleState
from battles.rules.sky_galleons import combat
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import FixedDice, fire_solution, resolve_fire
from battles.rules.sky_galleons.kinds import FIRE, FIRST, MOVE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from galleons.record import Moment, ShipRecord, ship_record_from_class

NOW = Moment(2, 1)
AHEAD_2 = Hex(0, -2)
ROGUE = "1"  # the Swiftwood's rogue, forward pivot: 3+ to hit at 2 hexes
HULL = 1


def ship(name: str, *, at: Hex = ORIGIN, altitude: str = "M") -> ShipRecord:
    return ship_record_from_class("Swiftwood", name=name, position=at, facing=0, altitude=altitude)


def fleet(*records: ShipRecord) -> dict[str, ShipRecord]:
    return {record.name: record for record in records}


# --- one shot against the step's start -------------------------------------------------------------------


@pytest.mark.rule("SG-SEQ-05", "SG-FIRE-01", "SG-FIRE-11")
def test_a_missed_shot_may_hit_the_ship_beside_the_target_at_the_start_of_the_step() -> None:
    """The target lost trim to an earlier shot of the step and dropped a level; the shot aimed at her where
    she was misses, and its second roll is at the ship that was beside her then, still at that level."""
    firer, target, beside = ship("Firer"), ship("T", at=AHEAD_2), ship("Beside", at=AHEAD_2)
    at_start = fleet(firer, target, beside)
    solution = fire_solution(firer, ROGUE, target, now=NOW)
    now = fleet(firer, replace(target, altitude="L"), beside)  # what the step's earlier shot left
    rolls = FixedDice(1, 6, HULL, 6, 6, 6, 6)  # a miss, a stray hit, Hull; the rest for whatever follows
    ships, happened = resolve_fire(now, solution, now=NOW, roller=rolls, aimed=at_start)
    purposes = [str(h["purpose"]) for h in happened if "purpose" in h]
    assert any(p.startswith("missed shot, second roll") for p in purposes)
    assert ships["Beside"] != beside  # the stray shot hit her
    assert ships["T"] == now["T"]


@pytest.mark.rule("SG-SEQ-05", "SG-FIRE-01", "SG-CRIT-19", "SG-FIRE-17")
def test_a_shot_keeps_the_modifiers_of_the_start_of_the_step() -> None:
    """A firer set burning and dropped a level by the step's earlier shots fires with no modifier: at the
    start of the step she was neither."""
    firer, target = ship("Firer"), ship("T", at=AHEAD_2)
    solution = fire_solution(firer, ROGUE, target, now=NOW)
    assert solution.modifiers == {}
    hit_hard = replace(firer, fire=2, altitude="L")
    assert fire_solution(hit_hard, ROGUE, target, now=NOW).modifiers != {}  # what she would have now
    rolls = FixedDice(3, HULL, 6, 6, 6, 6)
    ships, happened = resolve_fire(fleet(hit_hard, target), solution, now=NOW, roller=rolls)
    to_hit = next(h for h in happened if str(h.get("purpose", "")).startswith("to hit"))
    assert (to_hit["modifiers"], to_hit["outcome"]) == ({}, "hit")
    assert ships["T"].hull_hits > 0


# --- two ships firing at each other in one step ------------------------------------------------------------

SEED = b"simultaneous-8"  # red's first shot blows blue's magazine: her gun 1 is lost and she crashes


def duel() -> dict[str, Any]:
    """Two Sky Runners two hexes apart, both facing north: their broadsides bear on each other."""
    return {
        "slug": "simultaneous-fire",
        "title": "simultaneous fire",
        "map": {"cols": 24, "rows": 16},
        "turn_limit": 4,
        "sides": [
            {
                "id": side,
                "ships": [{"name": f"{side} galley", "class": "Sky Runner", "position": [col, 8], "facing": 0}],
            }
            for side, col in (("red", 6), ("blue", 8))
        ],
    }


def answer(state: BattleState[Board], choices: dict[str, Any]) -> tuple[BattleState[Board], list[Event]]:
    events: list[Event] = []
    for request in list(state.pending()):
        choice = choices.get(request.kind, request.default)
        if callable(choice):
            choice = choice(state, request)
        outcome = resolver.submit(
            SKY_GALLEONS, state, side=request.side, request_id=request.id, choice=choice, seed=SEED
        )
        assert not isinstance(outcome, Rejection), outcome
        state, events = outcome.state, events + list(outcome.events)
    return state, events


def every_gun(state: BattleState[Board], request: Any) -> dict[str, Any]:
    shots = {(s.firer, s.gun_id): s for s in SKY_GALLEONS.solutions(state, request.side)}
    return {"shots": [{"ship": s.firer, "gun": s.gun_id, "target": s.target} for s in shots.values()]}


@pytest.mark.rule("SG-SEQ-05", "SG-FIRE-01", "SG-DMG-16", "SG-CRIT-10")
def test_a_ship_crippled_and_destroyed_in_the_step_still_fires_as_she_stood_at_its_start() -> None:
    initial = resolver.new_battle(SKY_GALLEONS, duel(), seed_commitment=dice.commitment(SEED))
    state = resolver.resolve(SKY_GALLEONS, initial, SEED).state
    blue = state.board.ship("blue galley")  # one hull box left: a magazine going up finishes her
    rows = [replace(row, hits=row.boxes) for row in blue.hull_rows[:-1]]
    rows.append(replace(blue.hull_rows[-1], hits=blue.hull_rows[-1].boxes - 1))
    state = state.evolve(board=state.board.with_ship(replace(blue, hull_rows=tuple(rows))))
    state, _ = answer(state, {})
    state, _ = answer(state, {FIRST: "red"})
    log: list[Event] = []
    at_start: BattleState[Board] | None = None
    while state.board.phase_no == 1 and not state.over:
        if any(r.kind == FIRE for r in state.pending()):
            at_start = state
        state, more = answer(state, {FIRE: every_gun, MOVE: []})
        log += more
    assert at_start is not None
    blue_then, red_then = at_start.board.ship("blue galley"), at_start.board.ship("red galley")
    blue_shots = sorted(s.gun_id for s in SKY_GALLEONS.solutions(at_start, "blue"))
    assert blue_shots == ["1", "2"]

    kinds = [e.kind for e in log]
    destroyed = next(i for i, e in enumerate(log) if e.kind == "out" and e.data["ship"] == "blue galley")
    blue_fire = [i for i, e in enumerate(log) if e.kind == "fire" and e.data["ship"] == "blue galley"]
    # Red moved, so red's shots came first; they lost blue her gun 1 and crashed her before blue's shots.
    assert [log[i].data["gun"] for i in blue_fire] == ["1", "2"]
    assert destroyed < blue_fire[0]
    blue_after = state.board.ship("blue galley")
    assert not blue_after.afloat
    assert blue_after.gun("1").destroyed
    assert not combat.fire_solution(blue_after, "1", red_then, now=SKY_GALLEONS.now(at_start)).allowed
    # Yet both her shots were rolled, with the modifiers of her state at the start of the step.
    rolls = [e.data for e in log if e.kind == "roll" and str(e.data["purpose"]).startswith("to hit: blue galley")]
    assert [str(r["purpose"]).split(" vs ")[0] for r in rolls] == [
        "to hit: blue galley gun 1",
        "to hit: blue galley gun 2",
    ]
    assert [r["modifiers"] for r in rolls] == [combat.to_hit_modifiers(blue_then, red_then)] * 2
    assert "battle_ended" in kinds[blue_fire[-1] :]  # the battle ends after the step, not in it
