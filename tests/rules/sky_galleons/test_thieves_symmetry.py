"""Thieves Fall Out treats its three captains alike (issue 18): the same start, and an AI whose choices between
rivals alike do not lean on a side's id or a ship's name. The 1,000-battle check of the win shares is in
benchmarks/test_bench_scenarios.py (make bench)."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from battles.engine import dice, hexgrid, resolver
from battles.engine.state import BattleState
from battles.rules.sky_galleons import ai_reading, scenario
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SLUG = "thieves-fall-out"


def thieves() -> dict[str, Any]:
    return copy.deepcopy(scenario.load_data(SLUG))


def initial(data: dict[str, Any]) -> BattleState[Board]:
    return resolver.new_battle(SKY_GALLEONS, data, seed_commitment=dice.commitment(b"alike"))


@pytest.mark.rule("SG-SCN-02", "SG-SCN-04")
def test_every_captain_starts_as_the_others_do_turned_a_third_round_the_middle():
    """The default set-up (what the AI places) is one position turned by a third of a turn about a hex for each
    captain in side order: each as far from his rivals, each bow on the middle, none nearer an edge pair."""
    board = initial(thieves()).board
    ships = [next(s for s in board.ships if s.side == side) for side in board.side_order]
    spots = [s.position for s in ships if s.position is not None]
    assert len(spots) == len(ships)
    for a, b in itertools.combinations(spots, 2):
        assert hexgrid.distance(a, b) == hexgrid.distance(spots[0], spots[1])
    first = ships[0]
    assert first.position is not None
    centres = [
        c
        for c in board.terrain.hexes()
        if all(hexgrid.rotate(first.position, 2 * i, c) == ships[i].position for i in range(len(ships)))
    ]
    assert len(centres) == 1
    for i, record in enumerate(ships):
        assert record.facing == hexgrid.rotate_facing(first.facing, 2 * i)
    assert len({s.altitude for s in ships}) == 1


def _rename(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    for side, name in zip(data["sides"], names, strict=True):
        side["ships"][0]["name"] = name
    return data


@pytest.mark.parametrize(
    "names",
    [
        ["Belle Etoile", "Red Kestrel", "Shistomik Wolf"],  # the scenario's own
        ["Zephyr", "Mistral", "Aquilon"],  # the other way round in the alphabet
        ["Mistral", "Zephyr", "Aquilon"],
    ],
)
@pytest.mark.rule("SG-SCN-05")
def test_between_rivals_alike_each_captain_goes_for_the_next_round_the_table_whatever_the_names(names):
    """At the start every rival is as near and as strong; the AI then picks the side seated next after its
    own (the turn order's round, SG-SCN-05), so each captain is hunted by one rival, never two by the
    alphabet's first name."""
    board = initial(_rename(thieves(), names)).board
    order = list(board.side_order)
    chosen = {}
    for record in board.ships:
        target = ai_reading.ship_target(board, record)
        assert target is not None
        chosen[record.side] = target.side
        assert ai_reading.side_target(board, record.side) == target.name
    assert chosen == {side: order[(i + 1) % len(order)] for i, side in enumerate(order)}
    assert sorted(chosen.values()) == sorted(order)  # each hunted once
