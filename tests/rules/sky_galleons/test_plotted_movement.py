"""Plotted movement, the errata's optional variant (SG-ERR-24/25): battles/rules/sky_galleons/plotting.py and
the ruleset's "plot movement" decision.

Side a: the Sky Runner Runner (speed 4) at (4, 8) and the Hullcutter Reaver (speed 3) at (8, 8); side b: the
Sky Runner Other at (12, 2). All face north at Medium. Side a moves first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine.decisions import DecisionRequest
from battles.engine.hexgrid import from_odd_q
from battles.engine.state import redact
from battles.rules.sky_galleons import queries
from battles.rules.sky_galleons.kinds import FIRST, MOVE, ORDERS, PLOT
from battles.rules.sky_galleons.movement import Allowance
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from tests.rules.sky_galleons.battle_harness import State, at, calm, drive, kinds, refused, scenario, ship, start

OPTIONS = {"plotted_movement": True}


def battle(seed: bytes, options: dict[str, Any] | None = None, extra: list[dict[str, Any]] | None = None) -> State:
    a = [ship("Runner", "Sky Runner", (4, 8)), ship("Reaver", "Hullcutter", (8, 8)), *(extra or [])]
    b = [ship("Other", "Sky Runner", (12, 2))]
    return start(scenario(a, b), seed, OPTIONS if options is None else options)[1]


def plotting_with(plots: dict[str, list[str]], moves: dict[str, list[str]] | None = None) -> Any:
    """Side a plots ``plots`` and, in its own phase, moves ``moves``; side b plots and moves nothing."""

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == PLOT:
            return {"plots": plots if request.side == "a" else {}}
        if request.kind == MOVE and moves and request.ships[0] in moves:
            return moves[request.ships[0]]
        return calm()(state, request)

    return decide


def test_the_plotted_share_is_half_the_allowance_rounded_up() -> None:
    assert [queries.share(n) for n in range(7)] == [0, 1, 1, 2, 2, 3, 3]
    full = Allowance(speed=5, course=True, altitude=True, held_speed=None, stunned=False)
    assert queries.plot_allowance(full).speed == 3
    assert queries.allowance_after_plot(full, 3, 3).speed == 2  # what is left of the turn
    assert queries.allowance_after_plot(full, 1, 1).speed == 1  # no more than was plotted
    assert queries.allowance_after_plot(full, 2, 0).speed == 0  # stopped by a collision
    held = Allowance(speed=5, course=False, altitude=True, held_speed=3, stunned=False)
    assert queries.plot_allowance(held).held_speed == 2
    assert queries.allowance_after_plot(held, 2, 2).held_speed == 1


@pytest.mark.rule("SG-ERR-24")
def test_both_sides_plot_in_secret_with_their_initiative_orders() -> None:
    state = battle(b"plot")
    requests = state.pending()
    assert sorted((r.side, r.kind) for r in requests) == [("a", ORDERS), ("a", PLOT), ("b", ORDERS), ("b", PLOT)]
    plot = next(r for r in requests if r.kind == PLOT and r.side == "a")
    assert (plot.secret, plot.rule, plot.ships) == (True, "SG-ERR-24", ("Runner", "Reaver"))
    assert RS.validate(state, plot, {"plots": {"Runner": ["ahead", "ahead"], "Reaver": ["ahead", "ahead"]}}) is None
    # Half rounded up: the Runner (speed 4) plots 2 MP, the Reaver (speed 3) 2 as well; no more.
    assert refused(state, plot, {"plots": {"Runner": ["ahead", "ahead", "ahead"]}}).clause == "SG-ERR-24"
    assert refused(state, plot, {"plots": {"Reaver": ["ahead", "ahead", "ahead"]}}).clause == "SG-ERR-24"
    assert refused(state, plot, {"plots": {"Other": ["ahead"]}}).clause == "SG-ERR-24"  # not ours
    assert refused(state, plot, {"plots": {"Runner": {"steps": ["ahead"], "ram": "Other"}}}).clause == "SG-ERR-24"
    assert refused(state, plot, {"plots": {"Runner": ["port"]}}).clause == "SG-MOV-02"  # the usual rules hold
    # Answered, a plot stays with its side until every side has plotted and given its orders.
    state, events, _ = drive(state, plotting_with({"Runner": ["ahead"]}), b"plot", at(FIRST))
    own = [e for e in kinds(events, "decision") if e.data["decision"] == PLOT]
    assert {e.visibility for e in own} == {"side:a", "side:b"}


@pytest.mark.rule("SG-ERR-24")
def test_kites_and_grappled_ships_do_not_plot() -> None:
    state = battle(b"kite", extra=[ship("Kite", "Swiftwood", (6, 10))])
    plot = next(r for r in state.pending("a") if r.kind == PLOT)
    assert "Kite" not in plot.ships
    assert refused(state, plot, {"plots": {"Kite": ["ahead"]}}).clause == "SG-ERR-24"
    board = state.board
    runner, other = board.ship("Runner"), board.ship("Other")
    held = board.with_ship(replace(runner, grappled_with=("Other",))).with_ship(
        replace(other, grappled_with=("Runner",))
    )
    assert refused(replace(state, board=held), plot, {"plots": {"Runner": ["ahead"]}}).clause == "SG-ERR-24"


@pytest.mark.rule("SG-ERR-25")
def test_the_plotted_moves_are_made_after_the_initiative_before_any_movement_phase() -> None:
    seed = b"plotted"
    state, events, request = drive(
        battle(seed), plotting_with({"Runner": ["ahead", "ahead"], "Reaver": ["ahead"]}), seed, at(MOVE, "a")
    )
    assert request is not None
    order = [e.kind for e in events if e.kind in ("initiative", "movement order", "plotted move", "phase")]
    assert order.index("initiative") < order.index("plotted move")
    plotted = kinds(events, "plotted move")
    assert [(e.data["ship"], e.data["mp"], e.data["cap"]) for e in plotted] == [
        ("Runner", 2, 2),
        ("Reaver", 1, 1),
        ("Other", 0, 0),
    ]
    assert all(e.phase == "plotted movement" for e in plotted)
    assert state.board.ship("Runner").position == from_odd_q(4, 6)
    # In its own phase the Runner may move no more than it plotted (2, of its 4); the Reaver, having plotted
    # less than half, only 1 more, and the Other, plotting nothing, not at all.
    allowances = {n: RS.allowance(state, state.board.ship(n)).speed for n in ("Runner", "Reaver", "Other")}
    assert allowances == {"Runner": 2, "Reaver": 1, "Other": 0}
    assert refused(state, request, ["ahead", "ahead", "ahead"]).clause == "SG-MOV-01"
    assert RS.validate(state, request, ["ahead", "ahead"]) is None


@pytest.mark.rule("SG-ERR-25", "SG-COL-04")
def test_a_ship_stopped_by_a_collision_in_its_plotted_move_moves_no_more_that_turn() -> None:
    for n in range(40):
        seed = f"plot-crash-{n}".encode()
        state = battle(seed, extra=[ship("Sitting", "Sky Runner", (4, 7), facing=2)])

        def decide(state: State, request: DecisionRequest) -> Any:
            if request.kind == PLOT:
                return {"plots": {"Runner": ["ahead", "ahead"]} if request.side == "a" else {}}
            return False if request.kind == "avoid collision" else calm()(state, request)

        state, events, _ = drive(state, decide, seed, at(MOVE, "a"))
        if not kinds(events, "collision"):
            continue
        runner = kinds(events, "plotted move")[0]
        assert (runner.data["ship"], runner.data["mp"], runner.data["cap"]) == ("Runner", 1, 0)
        assert "SG-COL-04" in runner.data["clauses"]
        assert RS.allowance(state, state.board.ship("Runner")).speed == 0
        return
    pytest.fail("no seed gave a collision")


@pytest.mark.rule("SG-ERR-24", "SG-ERR-25")
def test_the_captain_plots_legal_moves_and_plays_on() -> None:
    state = battle(b"captain")
    plot = next(r for r in state.pending("a") if r.kind == PLOT)
    answer = Captain(b"captain").choose(RS, redact(state, "a"), plot)
    assert isinstance(answer, dict)
    assert RS.validate(state, plot, answer) is None
    assert any(answer["plots"].values())  # it moves
    for candidate in RS.candidates(state, plot):
        assert RS.validate(state, plot, candidate) is None


@pytest.mark.rule("SG-ERR-24", "SG-ERR-01")
def test_without_the_variant_nobody_plots() -> None:
    state = battle(b"basic", options={})
    assert sorted(r.kind for r in state.pending()) == [ORDERS, ORDERS]


@pytest.mark.rule("SG-ERR-25", "SG-ERR-04")
def test_a_ship_avoiding_a_plotted_move_still_makes_its_own_plot_and_pays_from_its_own_phase() -> None:
    seed = b"plot-avoid"
    a = [ship("Runner", "Sky Runner", (4, 8))]
    b = [ship("Other", "Sky Runner", (4, 6), facing=2)]
    state = start(scenario(a, b), seed, OPTIONS)[1]

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == PLOT:
            return {"plots": {"Runner" if request.side == "a" else "Other": ["ahead", "ahead"]}}
        return True if request.kind == "avoid collision" else calm()(state, request)

    state, events, _ = drive(state, decide, seed, at(MOVE, "b"))
    assert kinds(events, "avoiding")[0].data["ship"] == "Other"
    other = [e for e in kinds(events, "plotted move") if e.data["ship"] == "Other"]
    collided = [e for e in kinds(events, "collision") if e.data["ship"] == "Runner"]
    assert other[0].data["mp"] == 2  # its plot, as written
    assert RS.allowance(state, state.board.ship("Other")).speed == 0  # 4 - 2 plotted - 2 avoiding
    assert collided or RS.allowance(state, state.board.ship("Runner")).speed == 2
