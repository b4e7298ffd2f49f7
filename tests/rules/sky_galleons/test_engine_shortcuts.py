"""The rules engine's shortcuts (issue 21) give what the long way gives: a board or record evolved as
dataclasses.replace would, a ship event's record parsed as a whole, and a gun skipped as idle or out of reach
only where its fire solution is refused. Checked on every state of a played Pitched Battle, AI on both sides."""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache
from typing import Any

import pytest

from battles.engine import resolver, simulate
from battles.engine.events import events_from_json, events_to_json, plain
from battles.engine.frozen import evolve
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    combat,
    movement,
    ordnance,
    ordnance_play,
    portable_guns,
    queries,
    scenario,
    special_rules,
    validate,
)
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from galleons import record as record_module
from galleons.record import ShipRecord, altitude_levels, record_problems


@cache
def battle(slug: str = "pitched-battle") -> simulate.Simulation:
    """The fingerprint seed's battle, played live (its events carry what the live folds take: Event.source)."""
    return simulate.simulate(SKY_GALLEONS, scenario.load_data(slug), seed=simulate.seed_for(19))


@cache
def states(slug: str = "pitched-battle") -> tuple[BattleState[Board], ...]:
    """Every state of the fingerprint seed's battle, one per event."""
    played = battle(slug)
    found, state = [played.initial], played.initial
    for event in played.events:
        state = resolver.apply_event(SKY_GALLEONS, state, event)
        found.append(state)
    return tuple(found)


def test_a_board_evolves_as_replace_would_and_keeps_by_name_only_for_the_same_ships():
    board = states()[-1].board
    assert board.by_name  # cached
    same = board.evolve(stage="x")
    assert same == dataclasses.replace(board, stage="x")
    assert same.__dict__["by_name"] is board.by_name
    record = dataclasses.replace(board.ships[0], fire=board.ships[0].fire + 1)
    moved = board.with_ship(record)
    assert "by_name" not in moved.__dict__
    assert moved.ship(record.name) == record
    with pytest.raises(TypeError):
        board.evolve(nonsense=1)


def test_a_record_evolves_as_replace_would():
    record = states()[-1].board.ships[0]
    assert record.evolve(facing=2, fire=1) == dataclasses.replace(record, facing=2, fire=1)
    with pytest.raises(TypeError):
        record.evolve(nonsense=1)


def test_a_record_parsed_like_another_is_the_record_parsed_alone():
    """Every ship event of the battle: the fold's parse (lending the replaced record's parts) is the plain parse."""
    before = states()[0]
    for after in states()[1:]:
        for old, new in zip(before.board.ships, after.board.ships, strict=False):
            if old is not new and old.name == new.name:
                data = plain(new.to_json())
                assert ShipRecord.from_json(data, like=old) == ShipRecord.from_json(data) == new
        before = after


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_a_gun_is_skipped_only_where_its_solution_is_refused(slug: str):
    """combat.gun_idle and combat.out_of_reach, which the shot finding asks first (validate, ordnance_play's ground
    solutions), never hide a shot: at ships, or at the ground."""
    skipped = 0
    for state in states(slug)[:: max(1, len(states(slug)) // 150)]:
        board, now, rules = state.board, queries.now(state), queries.rules(state)
        if state.turn < 1:
            continue
        for firer in board.fighting():
            for gun in combat.firing_ids(firer):
                for target in [*board.fighting(), *board.emplacements()]:
                    if target.side == firer.side:
                        continue
                    idle = combat.gun_idle(firer, gun, now=now, rules=rules)
                    far = combat.out_of_reach(firer, gun, target, rules=rules)
                    if idle or far:
                        skipped += 1
                        solution = combat.fire_solution(
                            firer, gun, target, now=now, rules=rules, same_hex=board.relative(firer.name, target.name)
                        )
                        assert not solution.allowed, (state.seq, firer.name, gun, target.name)
    assert skipped


def exactly(value: Any) -> Any:
    """``value`` with every object's keys in their order and every scalar's exact type: equal for equal JSON
    spelt alike (True and 1, a str subclass and a str, {"a", "b"} and {"b", "a"} all tell apart)."""
    if isinstance(value, dict):
        return [type(value), [(key, exactly(item)) for key, item in value.items()]]
    if isinstance(value, list | tuple):
        return [type(value), [exactly(item) for item in value]]
    return [type(value), value]


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_a_ship_event_keeps_the_plain_json_of_the_record_its_fold_takes(slug: str):
    """basics.commit's ``ship`` event: its data kept uncopied is what plain would copy, to the order of the keys,
    and the record its fold takes (Event.source) is the record that data parses to."""
    ships = [event for event in battle(slug).events if event.kind == "ship"]
    assert ships
    for event in ships:
        assert type(event.source) is ShipRecord, event.seq
        assert exactly(event.data) == exactly(plain(dict(event.data))), event.seq
        assert ShipRecord.from_json(event.data["record"]) == event.source, event.seq


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_the_log_read_back_folds_to_the_live_states(slug: str):
    """The log as stored (JSON, no Event.source) folds to the live battle's state after every event."""
    played = battle(slug)
    logged = events_from_json(events_to_json(played.events))
    assert all(event.source is None for event in logged)
    state, live = played.initial, states(slug)
    for n, event in enumerate(logged, start=1):
        state = resolver.apply_event(SKY_GALLEONS, state, event)
        assert state == live[n], event.seq
    assert state == played.final


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_the_kept_answers_are_what_asking_afresh_gives(slug: str):
    """queries.allowance, queries.trace, queries.rules and ordnance_play.fire_solution keep their last few answers
    (battles.engine.memo): asked on every third state of a battle in turn, each answer is the one worked out afresh, so
    no answer outlives what it depends on."""
    traced = solved = 0
    for state in states(slug)[::3]:
        board, rules = state.board, queries.rules(state)
        assert rules == queries.combat_rules(state.options)
        now = queries.now(state)
        for ship in board.fighting():
            try:
                fresh = special_rules.held_still(board, ship, queries._allowance(state, ship, plotted=True))
            except ValueError:  # a kite before the wind is known: refused each time it is asked
                with pytest.raises(ValueError, match="is a kite"):
                    queries.allowance(state, ship)
                continue
            allowed = queries.allowance(state, ship)
            assert allowed == fresh, (state.seq, ship.name)
            plans = ([movement.AHEAD], [movement.PORT, movement.AHEAD])
            for plan, allows in itertools.product(plans, (allowed, dataclasses.replace(allowed, speed=0))):
                try:
                    path = movement.trace(ship, plan, allowed=allows, terrain=board.terrain)
                except movement.PlanError:
                    with pytest.raises(movement.PlanError):
                        queries.trace(ship, plan, allowed=allows, terrain=board.terrain)
                    continue
                assert queries.trace(ship, plan, allowed=allows, terrain=board.terrain) == path
                traced += 1
            for target in board.fighting():
                for gun in combat.firing_ids(ship)[:2] if target.side != ship.side else ():
                    args = {"now": now, "rules": rules, "same_hex": board.relative(ship.name, target.name)}
                    kept = ordnance_play.fire_solution(ship, gun, target, **args)
                    assert kept == ordnance_play._fire_solution(
                        ship, gun, target, ammunition="shell", rate="normal", **args
                    )
                    solved += 1
    assert traced
    assert solved


@pytest.mark.parametrize(
    ("slug", "options"), [("pitched-battle", {}), ("thieves-fall-out", {"standing_orders": True, "advanced": True})]
)
def test_every_event_keeps_what_plain_would_copy(slug: str, options: dict[str, Any]):
    """Data the engine keeps uncopied (a ship event's record, a step moved, an answer's choice, a standing order) is as
    plain would spell it, to the order of the keys and the type of each value: live events are the log read back."""
    played = simulate.simulate(SKY_GALLEONS, scenario.load_data(slug), seed=simulate.seed_for(19), options=options)
    kinds = {event.kind for event in played.events}
    assert {"ship", "decision", "moved"} <= kinds
    for event in played.events:
        assert exactly(event.data) == exactly(plain(dict(event.data))), event.seq
    if options:
        assert any(event.data.get("standing") for event in played.events)


@pytest.mark.parametrize(
    ("slug", "options"),
    [
        ("pitched-battle", {}),
        ("slash-and-run", {}),
        ("thieves-fall-out", {"standing_orders": True, "advanced": True}),
        ("hearts-of-oak", {"agility": True, "agility_gm_ratings": True}),
    ],
)
def test_every_record_a_ship_event_folds_live_passes_the_record_check(slug: str, options: dict[str, Any]):
    """The live fold takes a ship event's record as the rules built it (Event.source) without check_record, which the
    parse of a logged record runs: every record the rules build in these battles passes it, as the parse would."""
    played = simulate.simulate(SKY_GALLEONS, scenario.load_data(slug), seed=simulate.seed_for(19), options=options)
    records = [event.source for event in played.events if event.kind == "ship"]
    assert records
    for record in records:
        assert isinstance(record, ShipRecord)
        assert record_problems(record) == [], record.name


def test_a_record_plain_json_is_plain_to_json_and_fresh_for_each_changed_part():
    """ShipRecord.plain_json keeps each part's sorted JSON for the very same part: a record's JSON is what plain
    copies of to_json (to the order of the keys), and a changed part's JSON is built for it, never an old one's."""
    record = states()[-1].board.ships[0]
    first = record.plain_json()
    assert exactly(first) == exactly(plain(record.to_json()))
    again = record.plain_json()
    assert again is not first
    assert again["guns"] is not first["guns"]
    assert again["crew"] is first["crew"]  # a part's JSON is kept for the same part
    gun = record.guns[0]
    changed = record.with_gun(dataclasses.replace(gun, manned=gun.manned - 1, last_fired=99))
    after = changed.plain_json()
    assert exactly(after) == exactly(plain(changed.to_json()))
    assert after["guns"][0]["last_fired"] == 99
    assert after["guns"][0] is not first["guns"][0]
    assert after["guns"][1:] == first["guns"][1:]
    assert after["guns"][1] is first["guns"][1]
    record_module._PLAIN_PARTS.clear()  # emptied (as when it fills): built again, the same JSON
    assert exactly(record.plain_json()) == exactly(first)


def _contacts(board: Board, mover: str, before: ShipRecord, after: ShipRecord) -> list[Any]:
    ships = {**board.by_name, mover: after}
    found = ordnance.device_contacts(ships, mover, before, after)
    return [*found, *ordnance_play.ground_contacts(board, mover, before, after)]


def _devices_set(board: Board, live: bool) -> Board:
    """The board with every mine and drogue aboard live (mines raised, drogues lowered) or stowed away."""
    for ship in board.ships:
        items = tuple(
            dataclasses.replace(item, state="lowered" if (item.weapon_id == ordnance.DROGUE) == live else "raised")
            if item.weapon_id in (*ordnance.MINES, ordnance.DROGUE)
            else item
            for item in ship.ordnance
        )
        board = board.with_ship(ship.evolve(ordnance=items))
    return board


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_steps_meet_devices_only_where_a_mine_is_raised_or_a_drogue_lowered(slug: str):
    """ordnance_play.after_step looks for contacts only where some ship has live devices (ordnance.live_devices).
    Every ship stepped onto every other ship's hex, at every height: no contact with the devices stowed, and some
    with them live."""

    def met(board: Board) -> int:
        fighting = [ship for ship in board.ships if ship.position is not None and ship.afloat]
        found = 0
        for mover, other in itertools.permutations(fighting, 2):
            for altitude in altitude_levels()[1:]:
                after = mover.evolve(position=other.position, altitude=altitude)
                found += len(_contacts(board, mover.name, mover, after))
        return found

    board = states(slug)[len(states(slug)) // 3].board  # the armed ships still in the fight
    stowed, live = _devices_set(board, live=False), _devices_set(board, live=True)
    assert not any(map(ordnance.live_devices, stowed.ships))
    assert met(stowed) == 0
    assert any(map(ordnance.live_devices, live.ships))
    assert met(live) > 0


@pytest.mark.parametrize("slug", ["pitched-battle", "slash-and-run"])
def test_a_sides_shots_are_every_allowed_solution_found_the_long_way(slug: str):
    """validate.solutions skips idle guns and targets beyond reach (each target's distance found once a ship) before
    working out a solution: on a sample of states, its shots at ships are every gun's allowed solution at every enemy
    ship, in the same order, and can_fire says whether there is any."""
    found = 0
    for state in states(slug)[:: max(1, len(states(slug)) // 60)]:
        if state.turn < 1:
            continue
        board, now, rules = state.board, queries.now(state), queries.rules(state)
        for side in board.side_order:
            targets = [
                t for t in board.fighting() if t.side != side and not queries.friends_aboard(state, side, t.name)
            ]
            long_way = []
            for firer in board.fighting(side):
                firer = portable_guns.trained_record(firer, board.trained)
                for gun in combat.firing_ids(firer):
                    for target in targets:
                        same_hex = board.relative(firer.name, target.name)
                        solution = combat.fire_solution(firer, gun, target, now=now, rules=rules, same_hex=same_hex)
                        if (
                            solution.allowed
                            and special_rules.shot_problem(board, firer, target) is None
                            and validate.sight_blocked(state, solution) is None
                        ):
                            long_way.append(solution)
            at_ships = [s for s in validate.solutions(state, side) if s.target in {t.name for t in targets}]
            assert at_ships[: len(long_way)] == long_way, (state.seq, side)
            assert validate.can_fire(state, side) == bool(validate.solutions(state, side))
            found += len(long_way)
    assert found


def test_a_record_and_its_parts_evolve_as_replace_would():
    """The rules change records and their parts with battles.engine.frozen.evolve: the copy replace makes."""
    record = states()[-1].board.ships[0]
    parts = [record, *record.hull_rows, *record.guns, record.crew, record.criticals, record.party, *record.ordnance]
    for part in parts:
        field = dataclasses.fields(part)[-1].name
        value = getattr(part, field)
        assert evolve(part, **{field: value}) == dataclasses.replace(part, **{field: value}) == part
    assert evolve(record, facing=3, fire=2) == dataclasses.replace(record, facing=3, fire=2)
