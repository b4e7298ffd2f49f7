"""The AI captain with exotic ordnance (ordnance_play's AI and its hooks in tactics.py): a raid on a city with
ground batteries, mines on the ground and aboard, drogues, liquid fire, bombs, Hale rockets and a Smutts
discharger played to the end legally and replayed exactly; and the rules of thumb one by one."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from battles.engine import dice, events, policies, resolver
from battles.engine import state as states
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.rules.sky_galleons import ordnance, ordnance_play
from battles.rules.sky_galleons.ai_fire import fire_orders
from battles.rules.sky_galleons.ai_orders import initiative_orders
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import AVOID, FIRE, MOVE, ORDERS
from battles.rules.sky_galleons.ordnance import BOMB_RACK, LIQUID_FIRE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain

State = BattleState[Board]

# Slash and Run in small: the British raid a Martian city guarded by galleys, kites, ground batteries and mines.
RAID: dict[str, Any] = {
    "slug": "raid-test",
    "title": "A raid on a city",
    "map": {"cols": 22, "rows": 16, "terrain": [{"hex": [16, 3], "height": "L", "kind": "kraag"}]},
    "turn_limit": 12,
    "victory": {"kind": "bombardment", "side": "british"},
    "sides": [
        {
            "id": "british",
            "ships": [
                {"name": "Triumph", "class": "Triumph", "position": [3, 8], "facing": 1, "altitude": "M"},
                {"name": "Eagle", "class": "Eagle", "position": [3, 4], "facing": 1, "altitude": "H"},
                {"name": "Gloire", "class": "Gloire", "position": [3, 12], "facing": 1, "tether_mines": 2},
            ],
        },
        {
            "id": "martians",
            "ships": [
                {"name": "Skyfire", "class": "Skyfire", "position": [15, 8], "facing": 4},
                {"name": "Whisper", "class": "Whisperdeath", "position": [15, 5], "facing": 4, "altitude": "H"},
                {"name": "Endtime", "class": "Endtime", "position": [17, 9], "facing": 4, "landed": True},
            ],
            "batteries": [
                {"name": "Rod One", "gun": "Rod Gun", "position": [16, 7], "armor": 2},
                {"name": "Lobber", "gun": "Lob Gun", "position": [16, 10]},
                {"name": "Kraag", "guns": ["Rogue", "Rogue"], "position": [16, 3], "armor": 2},
            ],
            "tether_mines": [{"position": [14, 8], "count": 3}, {"position": [16, 3], "count": 2}],
            "ground_targets": [{"name": "Shastapsh", "hexes": [[17, 8], [17, 9], [18, 8]], "points": 12}],
        },
    ],
}


RAID_SEEDS = [b"raid-1", b"raid-9"]  # among them every use of the ordnance shows (raid-9: the torpedo, since issue 18)


@cache
def raid(seed: bytes, random: bool = False) -> tuple[State, resolver.Accepted[Board]]:
    """The raid played once per seed (the tests share the battles)."""
    return play(RAID, seed, random)


def play(data: dict[str, Any], seed: bytes, random: bool = False) -> tuple[State, resolver.Accepted[Board]]:
    initial = resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed))
    chosen: dict[str, policies.Policy] = {
        side: policies.RandomPolicy(seed + side.encode()) if random else Captain(seed + side.encode(), side)
        for side in initial.sides
    }
    return initial, policies.auto_play(RS, initial, seed=seed, policies=chosen, max_decisions=5000)


def replays_exactly(initial: State, outcome: resolver.Accepted[Board], every: int = 20) -> None:
    """Event by event, as the conformance suite folds: invariants hold, the state round-trips through JSON
    (checked every ``every`` events, which is what takes the time), and the replay ends byte for byte where
    the battle did."""
    log = events.events_from_json(events.events_to_json(outcome.events))
    current = initial
    for event in log:
        current = resolver.apply_event(RS, current, event)
        assert RS.check_invariants(current) == [], (event.seq, event.kind)
        if event.seq % every == 0 or event.kind in ("torpedo", "drop", "rockets"):
            text = states.state_to_json(RS, current)
            assert states.state_to_json(RS, states.state_from_json(RS, text)) == text
    assert states.state_to_json(RS, current) == states.state_to_json(RS, outcome.state)


@pytest.mark.parametrize("seed", RAID_SEEDS)
def test_captains_play_a_raid_with_batteries_mines_and_torpedoes_to_the_end_and_it_replays(seed: bytes) -> None:
    initial, outcome = raid(seed)
    assert outcome.state.over
    assert outcome.state.winner in ("british", "martians")
    replays_exactly(initial, outcome)
    kinds = {e.kind for e in outcome.events}
    assert "fire" in kinds
    fired_by_batteries = [
        e for e in outcome.events if e.kind == "fire" and e.data["ship"] in ("Rod One", "Lobber", "Kraag")
    ]
    assert fired_by_batteries, "the ground batteries fire"
    result = RS.tally(outcome.state)
    assert {g["kind"] for g in result["ground"]} == {"battery", "minefield", "city"}


def test_the_raid_played_by_captains_uses_the_ordnance() -> None:
    """Over a few seeds the captains make drops on the city, fire Hale salvoes, launch a torpedo, raise mines
    and lower drogues, and cut mines loose to avoid a ram."""
    seen: set[str] = set()
    for seed in RAID_SEEDS:
        _, outcome = raid(seed)
        seen |= {e.kind for e in outcome.events}
        notes = [n["what"] for e in outcome.events if e.kind == "effects" for n in e.data["notes"]]
        if any("tether mines are raised" in w for w in notes):
            seen.add("mines raised")
        if any("drogue torpedoes are lowered" in w for w in notes):
            seen.add("drogues lowered")
        if any("cuts its tether mines loose" in w for w in notes):
            seen.add("mines cut")
    assert {"drop", "rockets", "launch", "torpedo run", "mines raised", "drogues lowered", "mines cut"} <= seen


@pytest.mark.parametrize("seed", [b"random-raid-1", b"random-raid-2"])
def test_random_play_of_the_raid_is_legal_and_replays(seed: bytes) -> None:
    initial, outcome = raid(seed, random=True)
    assert outcome.state.over
    replays_exactly(initial, outcome)


# --- the rules of thumb --------------------------------------------------------------------------------------


def begin(data: dict[str, Any], seed: bytes) -> State:
    initial = resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed))
    return resolver.resolve(RS, initial, seed).state


def small(a: list[dict[str, Any]], b: list[dict[str, Any]], **side_b: Any) -> dict[str, Any]:
    return {
        "slug": "ai-ordnance",
        "title": "AI ordnance",
        "map": {"cols": 20, "rows": 16},
        "turn_limit": 6,
        "sides": [{"id": "a", "ships": a}, {"id": "b", "ships": b, **side_b}],
    }


def ship(
    name: str, cls: str, at: tuple[int, int], facing: int = 0, altitude: str = "M", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude, **extra}


def advance(state: State, seed: bytes, kind: str, side: str) -> tuple[State, DecisionRequest]:
    """Every decision answered with its default until ``side`` is asked a ``kind`` decision."""
    while not any(r.kind == kind and r.side == side for r in state.pending()):
        request = state.pending()[0]
        outcome = resolver.submit(
            RS, state, side=request.side, request_id=request.id, choice=request.default, seed=seed
        )
        assert isinstance(outcome, resolver.Accepted)
        state = outcome.state
    return state, request_for(state, kind, side)


def request_for(state: State, kind: str, side: str) -> DecisionRequest:
    return next(r for r in state.pending() if r.kind == kind and r.side == side)


def test_a_ship_with_mines_raises_them_with_an_enemy_near_and_reloads_its_empty_racks() -> None:
    data = small([ship("Eagle", "Eagle", (8, 10), altitude="H")], [ship("Sled", "Skyfire", (8, 8))])
    state = begin(data, b"ai-orders")
    eagle = state.board.ship("Eagle")
    state = replace(state, board=state.board.with_ship(eagle.with_items(replace(eagle.item("B1"), state="empty"))))
    orders_b = initiative_orders(state, request_for(state, ORDERS, "b"))
    assert orders_b["mines"] == [{"ship": "Sled", "raised": True}]
    far = begin(small([ship("Eagle", "Eagle", (1, 15), altitude="H")], [ship("Sled", "Skyfire", (18, 1))]), b"ai-far")
    assert "mines" not in initiative_orders(far, request_for(far, ORDERS, "b"))
    eagle = far.board.ship("Eagle")
    far = replace(far, board=far.board.with_ship(eagle.with_items(replace(eagle.item("B1"), state="empty"))))
    orders_a = initiative_orders(far, request_for(far, ORDERS, "a"))
    assert orders_a["reload"] == [{"ship": "Eagle", "rack": "B1"}]


def test_a_ship_cuts_its_mines_loose_to_avoid_a_ram_and_always_dodges_a_torpedo() -> None:
    captain = Captain(b"ai", "b")
    ram = DecisionRequest(
        "r", "b", AVOID, "", "SG-RAM-05", False, (False, ordnance_play.CUT_AND_AVOID), ships=("Sled", "Reaver")
    )
    state = begin(small([ship("Reaver", "Hullcutter", (8, 9))], [ship("Sled", "Skyfire", (8, 7))]), b"ai-avoid")
    assert captain.propose(RS, state, ram) == ordnance_play.CUT_AND_AVOID  # the rammer has a ram: avoid
    options = ({"ship": "Sled", "avoid": False}, {"ship": "Sled", "avoid": True})
    torpedo = DecisionRequest(
        "t", "b", ordnance_play.AVOID_TORPEDO, "", "SG-SMT-05", options[0], options, ships=("Sled", "T")
    )
    assert captain.propose(RS, state, torpedo) == options[1]


def test_ground_batteries_fire_at_the_best_target_and_only_a_bombarding_side_shells_a_city() -> None:
    city = {"ground_targets": [{"name": "Town", "hexes": [[8, 12]], "points": 10}]}
    battery = {"batteries": [{"name": "Rod One", "gun": "Rod Gun", "position": [9, 12]}]}
    data = small(
        [ship("Reliant", "Reliant", (8, 9), altitude="L")], [ship("Gull", "Endtime", (18, 1))], **city, **battery
    )
    state = begin(data, b"ai-city")
    shots = fire_orders(state, "b")["shots"]  # type: ignore[index]
    assert shots
    assert all(s["ship"] == "Rod One" and s["target"] == "Reliant" for s in shots)
    british = fire_orders(state, "a")["shots"]  # type: ignore[index]
    assert all(s.get("target") != "Town" for s in british)  # type: ignore[union-attr]
    bombard = {**data, "victory": {"kind": "bombardment", "side": "a"}}
    state = begin(bombard, b"ai-city")
    british = fire_orders(state, "a")["shots"]  # type: ignore[index]
    assert any(s.get("target") == "Town" for s in british)  # type: ignore[union-attr]


def test_a_bomber_drops_on_the_city_it_must_bombard_as_it_passes_over() -> None:
    city = {"ground_targets": [{"name": "Town", "hexes": [[8, 7]], "points": 10}]}
    data = small([ship("Eagle", "Eagle", (8, 9), altitude="L")], [ship("Gull", "Endtime", (18, 1))], **city)
    data["victory"] = {"kind": "bombardment", "side": "a"}
    state = begin(data, b"ai-bomber")
    while not (state.pending()[0].kind == MOVE and state.pending()[0].side == "a"):
        request = state.pending()[0]
        outcome = resolver.submit(
            RS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"ai-bomber"
        )
        assert isinstance(outcome, resolver.Accepted)
        state = outcome.state
    request = state.pending()[0]
    choice = Captain(b"ai-bomber", "a").propose(RS, state, request)
    assert isinstance(choice, dict)
    assert {"target": "Town", "weapon": BOMB_RACK} in choice["drops"]
    assert RS.validate(state, request, choice) is None


def test_a_captain_keeps_clear_of_raised_mines() -> None:
    mines = {"tether_mines": [{"position": [8, 7], "count": 3}]}
    data = small(
        [ship("Dart", "Dauntless (original design)", (8, 9), altitude="VL")],
        [ship("Gull", "Endtime", (8, 3), altitude="VL")],
        **mines,
    )
    state = begin(data, b"ai-mines")
    spots = ordnance_play.device_spots(state.board, "Dart")
    assert spots  # the mines float at Low over (8, 7)
    while not (state.pending()[0].kind == MOVE and state.pending()[0].side == "a"):
        request = state.pending()[0]
        outcome = resolver.submit(
            RS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"ai-mines"
        )
        assert isinstance(outcome, resolver.Accepted)
        state = outcome.state
    request = state.pending()[0]
    choice = Captain(b"ai-mines", "a").propose(RS, state, request)
    steps = choice["steps"] if isinstance(choice, dict) else choice
    record = state.board.ship("Dart")
    path = RS.traced_moves(state, record)
    traced = next(s for p, s in path if p == steps)
    entered = {(s.hex, ordnance.altitude_level(s.altitude)) for s in traced if s.enters_hex or s.changes_altitude}
    assert not entered & set(spots)


def test_a_smutts_torpedo_is_launched_at_an_enemy_ahead_and_not_through_a_friend() -> None:
    data = small([ship("Triumph", "Triumph", (8, 14))], [ship("Gull", "Endtime", (8, 9))])
    state = begin(data, b"ai-launch")
    assert {"ship": "Triumph", "gun": "9", "launch": True} in ordnance_play.ai_special_shots(state, "a")
    data = small(
        [ship("Triumph", "Triumph", (8, 14)), ship("Dart", "Dauntless (original design)", (8, 12))],
        [ship("Gull", "Endtime", (8, 9))],
    )
    state = begin(data, b"ai-launch")
    assert not [s for s in ordnance_play.ai_special_shots(state, "a") if isinstance(s, dict) and s.get("launch")]


def test_every_fire_answer_of_the_captain_with_rockets_is_legal() -> None:
    data = small([ship("Reliant", "Reliant", (8, 9), altitude="H")], [ship("Gull", "Endtime", (7, 8))])
    state = begin(data, b"ai-rockets")
    while not any(r.kind == FIRE for r in state.pending()):
        request = state.pending()[0]
        outcome = resolver.submit(
            RS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"ai-rockets"
        )
        assert isinstance(outcome, resolver.Accepted)
        state = outcome.state
    request = request_for(state, FIRE, "a")
    choice = Captain(b"ai-rockets", "a").propose(RS, state, request)
    assert RS.validate(state, request, choice) is None
    assert any("battery" in s for s in choice["shots"])  # type: ignore[index, operator]
    assert LIQUID_FIRE not in str(choice)
