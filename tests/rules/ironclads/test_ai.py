"""The AI captain and the map's reach (docs/ironclads.md "The AI captain"): both see where guns bear by the same rules
as the fire orders (arcs.py, zone.py, the range bands), so the map marks exactly the targets the fire orders offer
and the AI weighs only guns that could really fire; collisions are taken only when IC-COL-01 leaves no choice, or
forced on an enemy who cannot steer clear, and only where the equal losses (IC-COL-04..06) hurt him more."""

from __future__ import annotations

import pytest

from battles.engine import dice, hexgrid, resolver
from battles.engine.hexgrid import Hex
from battles.rules.ironclads import ai, cards, gunnery, movement, orders, reach
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import ARMOUR, HULL, PORT, PROPULSION, STARBOARD
from battles.rules.ironclads.movement import Collision
from battles.rules.ironclads.ruleset import IRONCLADS
from tests.rules.ironclads.boards import CENTRE, board_of, ship
from tests.rules.ironclads.test_prompts import fought, squadrons


def battle_of(*ships: Ship, land: tuple[Hex, ...] = ()) -> Battle:
    return Battle(board=board_of(*ships, land=land), turns=10, side_names={"Union": "Union", "CSA": "Confederacy"})


def marks(battle: Battle) -> dict[str, set[str]]:
    drawn = reach.ship_overlays(battle.view(None))
    return {o.ship: {t.target for t in o.targets} for o in drawn}


def offered(battle: Battle) -> dict[str, set[str]]:
    return {s.name: {t for able in gunnery.targets(battle, s.name).values() for t in able} for s in battle.board.afloat}


@pytest.mark.rule("IC-ZOF-02")
@pytest.mark.rule("IC-ARC-07")
def test_the_map_marks_exactly_the_targets_the_fire_orders_offer_a_ship_between_blocking() -> None:
    """A friend between her and the enemy blocks her fire (IC-ZOF-02): the map no longer marks him, as the old
    estimate (no Zone of Fire) did, and the hex behind the friend is not shaded."""
    east = hexgrid.DIRECTIONS[1]
    her = ship("Monitor", CENTRE, facing=0)  # her starboard broadside looks east-ish
    friend = ship("Minnesota", CENTRE + east + east, facing=0)
    enemy = ship("Virginia", CENTRE + east + east + east + east, facing=3, side="CSA")
    battle = battle_of(her, friend, enemy)
    assert marks(battle) == offered(battle)
    assert "Virginia" not in marks(battle)["Monitor"]
    clear = battle_of(her, enemy)
    assert marks(clear)["Monitor"] == {"Virginia"} == offered(clear)["Monitor"]
    shaded = {
        h
        for o in reach.ship_overlays(battle.view(None))
        if o.ship == "Monitor"
        for ov in o.overlays
        if not ov.outline
        for h in ov.hexes
    }
    assert enemy.hex not in shaded
    assert CENTRE + east in shaded


@pytest.mark.rule("IC-ZOF-01")
@pytest.mark.rule("IC-ARC-04")
@pytest.mark.parametrize("seed", [b"reach-1", b"reach-2"])
def test_through_a_whole_battle_the_map_and_the_fire_orders_agree_at_every_move(seed: bytes) -> None:
    played = fought(squadrons(3, turns=4), seed, ai=False)
    folded = resolver.new_battle(IRONCLADS, squadrons(3, turns=4), seed_commitment=dice.commitment(seed))
    compared = 0
    for event in played.events:
        folded = resolver.apply_event(IRONCLADS, folded, event)
        if event.kind == "ship moved":
            assert marks(folded.board) == offered(folded.board)
            compared += 1
    assert compared >= 6


@pytest.mark.rule("IC-FIRE-01")
def test_the_ais_firepower_counts_only_guns_the_fire_orders_would_let_fire() -> None:
    east = hexgrid.DIRECTIONS[1]
    her = ship("Monitor", CENTRE, facing=0)
    enemy = ship("Virginia", CENTRE + east + east + east + east, facing=3, side="CSA")
    open_sea = battle_of(her, enemy)
    assert ai.firepower(open_sea.board, her, [enemy]) > 0
    assert gunnery.targets(open_sea, "Monitor")
    blocked = battle_of(her, ship("Minnesota", CENTRE + east + east, facing=0), enemy)
    assert ai.firepower(blocked.board, her, [enemy]) == 0
    assert not gunnery.targets(blocked, "Monitor")
    ahead = ship("Virginia", hexgrid.neighbour(hexgrid.neighbour(CENTRE, 0), 0), facing=3, side="CSA")
    bow_on = battle_of(her, ahead)  # no forward guns: nothing bears dead ahead beyond the broadsides' widening
    assert (ai.firepower(bow_on.board, her, [ahead]) > 0) == bool(gunnery.targets(bow_on, "Monitor"))


@pytest.mark.rule("IC-COL-01")
def test_the_ai_never_rams_when_it_can_steer_clear_even_where_the_ram_would_sink_him() -> None:
    ahead = hexgrid.neighbour(CENTRE, 0)
    weak = cards.card("Weak", {PORT: 1, STARBOARD: 1, ARMOUR: 1, PROPULSION: 4, HULL: 1})
    her = ship("Monitor", CENTRE, facing=0, speed=4)
    victim = Ship("Victim", "CSA", weak, ahead, 3)
    battle = battle_of(her, victim)
    ramming = [o for o in movement.orders(battle.board, "Monitor") if movement.collides(battle.board, "Monitor", o)]
    assert ramming  # straight on she would ram him, and it would sink him
    chosen = ai.best_order(battle, "Monitor")
    assert not movement.collides(battle.board, "Monitor", chosen)


@pytest.mark.rule("IC-COL-04")
@pytest.mark.rule("IC-COL-05")
@pytest.mark.rule("IC-COL-06")
def test_an_unavoidable_collision_is_weighed_by_the_equal_losses() -> None:
    big = ship("Monitor", CENTRE)
    small = Ship("Teaser", "CSA", cards.card("Teaser", {PORT: 1, ARMOUR: 1, PROPULSION: 4, HULL: 2}), Hex(0, 0), 0)
    fatal = Collision("Teaser", small.hex, *movement.collision_losses(9))  # 2 Hull: sinks her, not the Monitor
    assert ai.ram_worth(big, small, fatal) == 100.0
    assert ai.ram_worth(small, big, fatal) == -100.0
    glancing = Collision("Teaser", small.hex, *movement.collision_losses(2))
    assert ai.ram_worth(big, small, glancing) > 0 > ai.ram_worth(small, big, glancing)
    board = board_of(big, evolve_hex(small, hexgrid.neighbour(CENTRE, 0)))
    assert ai.collision_worth(board, "Monitor", glancing) > ai.collision_worth(board, "Teaser", glancing)
    assert ai.collision_worth(board, "Monitor", Collision(None, CENTRE, 2, 1)) < ai.collision_worth(
        board, "Monitor", glancing
    )


def evolve_hex(s: Ship, at: Hex) -> Ship:
    from battles.engine.frozen import evolve

    return evolve(s, hex=at)


@pytest.mark.rule("IC-COL-01")
@pytest.mark.rule("IC-COL-02")
def test_she_may_end_where_an_enemy_still_to_move_can_only_collide_with_her_when_it_pays() -> None:
    """The enemy, at 4 with 2 cm carried, must make one hex (IC-MOV-02); land on four of the five hexes he can turn
    to, so the one left is his only way clear. A move of hers that ends in it leaves him no clear order: by IC-COL-01
    he collides, by his speed, and picks her over the land (both lose alike, only he loses on land)."""
    gap = Hex(10, 4)
    facing = 0
    enemy_at = hexgrid.neighbour(gap, facing + 3)
    land = tuple(hexgrid.neighbour(enemy_at, facing + turn) for turn in (-2, -1, 1, 2))
    weak = cards.card("Teaser", {PORT: 2, STARBOARD: 2, ARMOUR: 1, PROPULSION: 4, HULL: 3})
    teaser = Ship("Teaser", "CSA", weak, enemy_at, facing, 4)
    her = ship("Monitor", hexgrid.neighbour(gap, 1), facing=4, speed=4)  # one hex north-west takes her into the gap
    battle = battle_of(her, teaser, land=land)
    assert not all(movement.collides(battle.board, "Teaser", o) for o in movement.orders(battle.board, "Teaser"))
    blocking = [
        m
        for o in orders.legal_orders(battle, "Monitor")
        if (m := movement.execute(battle.board, "Monitor", o)).board.ship("Monitor").hex == gap
    ]
    assert blocking
    elsewhere = [
        m
        for o in orders.legal_orders(battle, "Monitor")
        if (m := movement.execute(battle.board, "Monitor", o)).board.ship("Monitor").hex != gap
    ]
    assert ai.forced_ram_worth(battle, "Monitor", blocking[0]) > 0
    assert all(ai.forced_ram_worth(battle, "Monitor", m) == 0 for m in elsewhere)
    after = blocking[0].board
    assert all(movement.collides(after, "Teaser", o) for o in movement.orders(after, "Teaser"))


def test_an_ai_battle_of_ten_ships_and_ten_turns_ends() -> None:
    """Ten ships, ten turns: the AI plays it out (its speed is measured in `make bench`, not asserted here)."""
    played = fought(squadrons(5, turns=10), b"fast")
    assert played.state.over


@pytest.mark.rule("IC-COL-01")
def test_the_legal_moves_remembered_are_the_moves_executed_afresh_and_never_another_boards() -> None:
    """orders.legal_moves remembers the last battle asked: its answer is each legal order executed on that board, and
    a battle with one ship moved (a new object, equal in every other way) is asked afresh."""
    east = hexgrid.DIRECTIONS[1]
    her = ship("Monitor", CENTRE, facing=0, speed=4)
    first = battle_of(her, ship("Virginia", CENTRE + east + east, facing=3, side="CSA"))
    remembered = orders.legal_moves(first, "Monitor")
    assert orders.legal_moves(first, "Monitor") is remembered
    assert remembered == tuple(
        (o, movement.execute(first.board, "Monitor", o)) for o in orders.legal_orders(first, "Monitor")
    )
    in_the_way = battle_of(her, ship("Virginia", hexgrid.neighbour(CENTRE, 0), facing=3, side="CSA"))
    fresh = orders.legal_moves(in_the_way, "Monitor")
    assert all(move.collision is None for _, move in fresh)  # steering clear of the Virginia dead ahead (IC-COL-01)
    assert {o for o, _ in fresh} != {o for o, _ in remembered}


def test_a_choices_gunnery_worked_once_a_place_weighs_every_order_as_worked_afresh() -> None:
    """ai.Guns: within one choice only her place differs between her orders' boards, so each place's gunnery is
    worked once; every order weighs exactly what it weighs worked on its own."""
    east, south_east = hexgrid.DIRECTIONS[1], hexgrid.DIRECTIONS[2]
    her = ship("Monitor", CENTRE, facing=0, speed=4)
    enemies = (
        ship("Virginia", CENTRE + east + east + east + east, facing=3, side="CSA"),
        ship("Teaser", CENTRE + south_east + south_east + south_east, facing=5, side="CSA"),
    )
    battle = battle_of(her, *enemies)
    guns = ai.Guns()
    moves = orders.legal_moves(battle, "Monitor")
    shared = [ai.worth(battle, "Monitor", move, guns) for _, move in moves]
    assert shared == [ai.worth(battle, "Monitor", move) for _, move in moves]
    assert len(guns.hers) < len(moves)  # places shared between orders
    assert len(guns.his) < len(guns.hers)  # his guns at her ask her hex, not her heading
