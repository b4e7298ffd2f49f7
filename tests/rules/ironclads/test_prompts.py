"""How often a side sits down to answer in a Game Turn (docs/ironclads.md "The turn, in the app"): one order of moving
a side (IC-SEQ-07), secret and sealed, then one move order a ship, all fire orders at once (IC-SEQ-08) and all
allocations at once (IC-DMG-02); a ship with only one legal order is moved without a prompt. Windows are counted as
the engine counts them (battles.engine.windows: every decision open to a side at one moment is one submission)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from battles.engine import dice, policies, resolver, windows
from battles.engine.state import BattleState
from battles.rules.ironclads import orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import (
    DAMAGE_ALLOCATION,
    FIRE_ORDERS,
    MOVE_ORDER,
    ORDER_OF_MOVING,
    SHIP_CHOSEN,
    SHIP_MOVED,
)
from battles.rules.ironclads.ruleset import IRONCLADS

CARD = {"stats": {"forward": 2, "port": 4, "starboard": 4, "armour": 3, "propulsion": 8, "hull": 5}}


def ship(name: str, side: str, col: int, row: int, facing: int, speed: int = 4) -> dict[str, Any]:
    return {
        "name": name,
        "side": side,
        "hex": [col, row],
        "facing": facing,
        "speed": speed,
        "card": copy.deepcopy(CARD),
    }


def squadrons(per_side: int, turns: int = 6) -> dict[str, Any]:
    """Two lines of ``per_side`` ships closing across a 30 by 24 map."""
    north = [ship(f"North {n + 1}", "north", 5, 4 + 3 * n, 2) for n in range(per_side)]
    south = [ship(f"South {n + 1}", "south", 22, 5 + 3 * n, 5) for n in range(per_side)]
    return {
        "slug": "lines",
        "title": "Two lines",
        "turns": turns,
        "cols": 30,
        "rows": 24,
        "sides": [{"key": "north", "name": "The North"}, {"key": "south", "name": "The South"}],
        "ships": north + south,
    }


def fought(scene: dict[str, Any], seed: bytes, *, ai: bool = True) -> Any:
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed))
    chosen = {
        side: IRONCLADS.ai_policy(seed, side) if ai else policies.RandomPolicy(seed + side.encode())
        for side in initial.sides
    }
    return policies.auto_play(IRONCLADS, initial, seed=seed, policies=chosen, max_decisions=5000)


def start(scene: dict[str, Any], seed: bytes) -> BattleState[Battle]:
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed))
    return resolver.resolve(IRONCLADS, initial, seed).state


def asked(events: Any) -> list[tuple[int, dict[str, Any]]]:
    return [(e.turn, e.data["request"]) for e in events if e.kind == "decision_requested"]


@pytest.mark.rule("IC-SEQ-07")
@pytest.mark.parametrize("seed", [b"windows-1", b"windows-2"])
def test_a_side_of_three_sits_down_once_for_its_order_then_once_a_ship_then_once_to_fire_and_once_for_damage(
    seed: bytes,
) -> None:
    """The brief's defect: a side asked per ship which ship moves next as well as her order. Now at most one window
    for the order of moving, one a ship's move, one for every fire order and one for every allocation."""
    played = fought(squadrons(3), seed)
    counted = windows.windows(played.events)
    assert counted
    for (turn, side), count in counted.items():
        afloat_at_start = 3  # nobody sinks before the End Phase; a ship gone off the map only lowers the count
        assert count <= 1 + afloat_at_start + 1 + 1, (turn, side, count)
    by_kind: Counter[tuple[int, str, str]] = Counter((t, r["side"], r["kind"]) for t, r in asked(played.events))
    assert all(n == 1 for (_, _, kind), n in by_kind.items() if kind == ORDER_OF_MOVING)
    assert not [r for _, r in asked(played.events) if r["kind"] == "ship to move"]


@pytest.mark.rule("IC-SEQ-08")
@pytest.mark.rule("IC-DMG-02")
def test_every_fire_order_and_every_allocation_of_a_side_are_asked_together_one_window_each() -> None:
    """The engine batches the requests open at one moment: one form, "All N decisions go together"."""
    played = fought(squadrons(3), b"batches")
    open_together: dict[str, set[str]] = {}
    batches: list[list[dict[str, Any]]] = [[]]
    for event in played.events:
        if event.kind == "decision_requested":
            batches[-1].append(event.data["request"])
        elif event.kind == "decisions":
            batches.append([])
    for kind in (FIRE_ORDERS, DAMAGE_ALLOCATION):
        holding = [b for b in batches if any(r["kind"] == kind for r in b)]
        assert holding, kind
        for batch in holding:
            assert all(r["kind"] == kind for r in batch)  # nothing else in that window
            for r in batch:
                open_together.setdefault(f"{kind}:{r['side']}", set()).add(r["ships"][0])
    assert any(len(ships) > 1 for ships in open_together.values())


@pytest.mark.rule("IC-SEQ-07")
def test_the_order_of_moving_is_asked_of_both_sides_at_once_kept_from_the_other_and_followed() -> None:
    state = start(squadrons(3), b"order")
    pending = state.pending()
    assert sorted(r.side for r in pending) == ["north", "south"]
    assert all(r.kind == ORDER_OF_MOVING and r.secret for r in pending)
    north = next(r for r in pending if r.side == "north")
    assert north.default == {"ships": ["North 1", "North 2", "North 3"]}  # the scenario's order by default
    wanted = {"north": ["North 3", "North 1", "North 2"], "south": ["South 2", "South 3", "South 1"]}
    events: list[Any] = []
    for request in pending:
        done = resolver.submit(
            IRONCLADS,
            state,
            side=request.side,
            request_id=request.id,
            choice={"ships": wanted[request.side]},
            seed=b"order",
        )
        assert not isinstance(done, resolver.Rejection)
        state, events = done.state, events + done.events
    revealed = next(e for e in events if e.kind == "decisions")
    assert all(a["choice"] == {} for a in revealed.data["answers"].values())  # sealed: the names stay with each side
    view = IRONCLADS.board_view(state, "north")
    assert isinstance(view, dict)
    assert view["sailing"] == {"north": wanted["north"]}
    while not state.over and state.turn == 1 and state.pending() and state.pending()[0].kind == MOVE_ORDER:
        request = state.pending()[0]
        done = resolver.submit(
            IRONCLADS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"order"
        )
        assert not isinstance(done, resolver.Rejection)
        state, events = done.state, events + done.events
    moved = [e.data for e in events if e.kind == SHIP_MOVED]
    for side, names in wanted.items():
        assert [m["ship"] for m in moved if m["side"] == side] == names


@pytest.mark.rule("IC-SEQ-07")
def test_an_order_of_moving_names_each_waiting_ship_once() -> None:
    state = start(squadrons(3), b"junk")
    request = next(r for r in state.pending() if r.side == "north")

    def refused(choice: Any) -> str | None:
        found = resolver.check_decision(IRONCLADS, state, side="north", request_id=request.id, choice=choice)
        return None if found is None else found.clause

    assert refused({"ships": ["North 2", "North 1", "North 3"]}) is None
    assert refused({"ships": ["North 1", "North 1", "North 3"]}) == "IC-SEQ-07"
    assert refused({"ships": ["North 1", "North 2"]}) == "IC-SEQ-07"
    assert refused({"ships": ["North 1", "North 2", "South 1"]}) == "IC-SEQ-07"
    assert refused(["North 1", "North 2", "North 3"]) == "IC-SEQ-07"
    schema = IRONCLADS.answer_schema(state, request)
    assert schema.layout == "orders"
    assert [item.default for item in schema.root.fields[0].items] == ["North 1", "North 2", "North 3"]  # type: ignore[attr-defined]


@pytest.mark.rule("IC-SEQ-07")
def test_a_side_with_one_ship_is_asked_no_order_and_a_ship_with_one_legal_order_is_not_asked() -> None:
    duel = squadrons(1)
    state = start(duel, b"one")
    assert [r.kind for r in state.pending()] == [MOVE_ORDER]
    # A ship whose only legal order is to go on as she goes: stopped, with wrecked engines she may not get under way.
    stuck = squadrons(1)
    stuck["ships"][0]["speed"] = 0
    stuck["ships"][0]["card"]["lost"] = {"propulsion": 8}
    played = fought(stuck, b"stuck", ai=False)
    chosen = [e for e in played.events if e.kind == SHIP_CHOSEN and e.data["ship"] == "North 1"]
    assert chosen
    asked_of_her = [r for _, r in asked(played.events) if r["kind"] == MOVE_ORDER and r["ships"] == ["North 1"]]
    assert not asked_of_her
    assert len(orders.legal_orders(start(stuck, b"stuck").board, "North 1")) == 1


@pytest.mark.rule("IC-FORM-14")
@pytest.mark.rule("IC-FORM-15")
def test_a_break_off_is_announced_in_the_move_order_itself_and_binds_her_to_head_away() -> None:
    """Appendix D: a ship of a squadron may be ordered to break off just before she moves. No prompt of its own: the
    move order's first step may be ``break off``; her path is then judged as one heading away (IC-FORM-15)."""
    scene = squadrons(2)
    scene["squadrons"] = [{"name": "First", "ships": ["North 1", "North 2"], "formation": "line astern"}]
    initial = resolver.new_battle(
        IRONCLADS, scene, seed_commitment=dice.commitment(b"brk"), options={"formations": True}
    )
    state = resolver.resolve(IRONCLADS, initial, b"brk").state
    while state.pending()[0].kind != MOVE_ORDER or state.pending()[0].side != "north":
        request = state.pending()[0]
        done = resolver.submit(
            IRONCLADS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"brk"
        )
        assert not isinstance(done, resolver.Rejection)
        state = done.state
    request = state.pending()[0]
    name = request.ships[0]
    schema = IRONCLADS.answer_schema(state, request, partial=[])
    assert orders.BREAK_OFF in schema.root.fields[0].progress.accepted  # type: ignore[attr-defined]
    battle = state.board
    heading_away = orders.legal_orders(orders.as_ordered(battle, name, [orders.BREAK_OFF]), name)
    towards = [o for o in orders.legal_orders(battle, name) if o not in heading_away]
    assert towards

    def refused(choice: Any) -> str | None:
        found = resolver.check_decision(IRONCLADS, state, side="north", request_id=request.id, choice=choice)
        return None if found is None else found.clause

    assert refused(orders.answer(name, towards[0], breaking_off=True)) == "IC-FORM-15"
    chosen = orders.answer(name, heading_away[0], breaking_off=True)
    assert refused(chosen) is None
    done = resolver.submit(IRONCLADS, state, side="north", request_id=request.id, choice=chosen, seed=b"brk")
    assert not isinstance(done, resolver.Rejection)
    formations = done.state.board.formations
    assert formations is not None
    assert name in formations.breaking_off
    assert formations.of(name) is None
    moved = [e for e in done.events if e.kind == SHIP_MOVED]
    assert moved[0].data["breaks_off"] is True
    plain = start(squadrons(2), b"brk")
    first = next(r for r in plain.pending() if r.kind == ORDER_OF_MOVING)
    assert first  # without Appendix D nobody may break off
    assert orders.judge_break_off(plain.board, "North 1", [orders.BREAK_OFF]) is not None
    assert orders.judge_break_off(plain.board, "North 1", [orders.BREAK_OFF]).clause == "IC-FORM-14"  # type: ignore[union-attr]
