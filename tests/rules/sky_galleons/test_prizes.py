"""What a captor does with a prize (SG-BRD-21..24, prizes.py): the guard of her prisoners, crewing her (and who
may), scuttling her, holding or towing her; the orders, their checks, the outcome and the AI's use of them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import policies, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.rules.sky_galleons import prizes
from battles.rules.sky_galleons.ai_orders import close_orders, prize_orders
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import FixedDice
from battles.rules.sky_galleons.kinds import CAPTURED, MOVE, ORDERS
from battles.rules.sky_galleons.prizes import Prize
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import Party, ShipRecord, ship_record_from_class
from tests.rules.sky_galleons.test_boarding_battle import (
    at,
    begin,
    drive,
    kinds,
    orders,
    refused,
    rolls,
    scenario,
    ship,
)

State = BattleState[Board]

BOARDERS = Party(officers=2, petty_officers=1, seamen=6, marines=4)


def taken_prize(
    seed: bytes, *, captor: str = "Hullcutter", prey: str = "Sky Runner", ai: dict[str, Any] | None = None
) -> State:
    """The captor's boarders are aboard the prey, grappled to her; she has no officer left, so she surrenders
    to them at the start of turn 2 (SG-CREW-03); her consort sails on far off. Stopped at turn 2's orders."""
    data = scenario(
        [ship("Reaver", captor, (6, 5))], [ship("Runner", prey, (6, 5)), ship("Far", "Sky Runner", (14, 2))], turns=8
    )
    if ai is not None:
        data["sides"][0]["ai"] = ai
    state = begin(data, seed)
    board = state.board
    reaver = replace(board.ship("Reaver"), grappled_with=("Runner",), boarders=BOARDERS, boarding="Runner")
    runner = board.ship("Runner")
    crew = replace(runner.crew, captain=0, officers=0, marine_officers=0, deckhands=0, marines=0, petty_officers=0)
    runner = replace(runner, grappled_with=("Reaver",), crew=crew)
    board = board.with_ship(reaver).with_ship(runner)
    # The boarders are set across on top of her crew: they were of her company when the battle began.
    board = replace(board, crew_at_start={**board.crew_at_start, "Reaver": reaver.men_alive})
    state = replace(state, board=board)
    state, _, request = drive(state, orders(), seed, lambda s, r: s.turn == 2 and r.kind == ORDERS and r.side == "a")
    assert request is not None
    assert state.board.out.get("Runner") == CAPTURED
    return state


def orders_request(state: State, side: str = "a") -> DecisionRequest:
    return next(r for r in state.pending() if r.kind == ORDERS and r.side == side)


def with_prizes(order: dict[str, Any], until: Any, seed: bytes, state: State) -> tuple[State, list[Any], Any]:
    extra = {"a": {"prizes": order}}
    return drive(state, lambda s, r: orders(extra=extra if s.turn == 2 else {})(s, r), seed, until)


# --- taken: the guard (SG-BRD-21/22) -------------------------------------------------------------------------


@pytest.mark.rule("SG-BRD-21", "SG-BRD-22")
def test_a_taken_ship_is_held_by_her_boarders_and_a_marine_guards_her_prisoners() -> None:
    state = taken_prize(b"prize-taken")
    prize = state.board.prizes["Runner"]
    assert (prize.captor, prize.owner, prize.order, prize.status) == ("a", "b", "hold", "held")
    assert (prize.guard, prize.guard_ship) == ("marines", "Reaver")
    reaver = state.board.ship("Reaver")
    assert reaver.boarding == "Runner"
    assert reaver.boarders.marines == BOARDERS.marines - 1  # the guard is no longer a boarder
    outcome = RS.tally(state)
    runner = next(s for s in outcome["ships"] if s["name"] == "Runner")
    assert (runner["fate"], runner["prize"], runner["captured_by"]) == (CAPTURED, "held", "a")
    reaver_out = next(s for s in outcome["ships"] if s["name"] == "Reaver")
    assert reaver_out["crew_lost"] == state.board.crew_at_start["Reaver"] - reaver.men_alive - 1  # the guard lives


@pytest.mark.rule("SG-BRD-22")
def test_the_guard_is_a_marine_if_one_is_available_else_the_next_rank() -> None:
    prey = ship_record_from_class("Sky Runner", name="Runner", side="b")
    reaver = ship_record_from_class("Hullcutter", name="Reaver", side="a")
    for party, rank in (
        (Party(officers=1, seamen=2, marines=1), "marines"),
        (Party(officers=1, petty_officers=1, seamen=2), "seamen"),
        (Party(officers=1, petty_officers=1), "petty_officers"),
        (Party(officers=1), "officers"),
    ):
        boarders = replace(reaver, boarders=party, boarding="Runner")
        prize, changed, _ = prizes.taken(prey, "a", [boarders])
        assert prize.guard == rank
        assert changed["Reaver"].boarders.men == party.men - 1
    alone = prizes.taken(prey, "a", [replace(reaver, boarders=Party(officers=1), boarding="Runner")])[1]["Reaver"]
    assert alone.boarding is None  # the only boarder stands guard


# --- the orders and their checks ----------------------------------------------------------------------------


@pytest.mark.rule("SG-BRD-21")
def test_prize_orders_are_checked() -> None:
    seed = b"prize-orders"
    state = taken_prize(seed)
    request = orders_request(state)
    base = {"crew": [], "strike": []}
    assert RS.validate(state, request, {**base, "prizes": {"Runner": "hold"}}) is None
    assert RS.validate(state, request, {**base, "prizes": {"Runner": "abandon"}}) is None
    assert refused(state, request, {**base, "prizes": {"Runner": "sell"}}, seed).clause == "SG-BRD-21"
    assert refused(state, request, {**base, "prizes": {"Far": "crew"}}, seed).clause == "SG-BRD-21"
    assert refused(state, request, {**base, "prizes": ["Runner"]}, seed).clause == "SG-BRD-21"
    # Crewing or scuttling her takes the boarders: not both with a recall of them.
    recalled = {**base, "recall": ["Reaver"], "prizes": {"Runner": "crew"}}
    assert refused(state, request, recalled, seed).clause == "SG-BRD-21"
    recalled = {**base, "recall": ["Reaver"], "prizes": {"Runner": "scuttle"}}
    assert refused(state, request, recalled, seed).clause == "SG-BRD-24"
    # A prize being crewed or scuttled is not taken in tow.
    towed = {**base, "prizes": {"Runner": "scuttle"}, "tow": [["Reaver", "Runner"]]}
    assert refused(state, request, towed, seed).clause == "SG-BRD-21"
    assert RS.validate(state, request, {**base, "tow": [["Reaver", "Runner"]]}) is None
    # The other side has no say over her.
    other = orders_request(state, "b") if any(r.side == "b" for r in state.pending()) else None
    if other is not None:
        assert RS.validate(state, other, {**base, "prizes": {"Runner": "crew"}}) is not None
    # The candidates offer both and every one is legal.
    offered = [c for c in RS.candidates(state, request) if isinstance(c, dict) and "prizes" in c]
    assert [c["prizes"] for c in offered] == [{"Runner": "crew"}, {"Runner": "scuttle"}]


# --- crewing her (SG-BRD-21/23) ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-BRD-21")
def test_a_crewed_prize_fights_for_her_captor_with_the_boarders_as_her_company() -> None:
    seed = b"prize-crew"
    state = taken_prize(seed)
    start = state
    state, events, request = with_prizes({"Runner": "crew"}, at(MOVE, "a"), seed, state)
    assert request is not None
    runner = state.board.ship("Runner")
    assert runner.side == "a"
    assert "Runner" not in state.board.out
    assert state.board.prizes["Runner"].status == "crewed"
    assert "Runner" in {s.name for s in state.board.fighting("a")}
    # Her company: an officer captains her, the other officer stays an officer; the petty officer takes the
    # helm and an officer relieves the trim station; six seamen at her twelve turncranks; three marines.
    crew = runner.crew
    assert (crew.captain, crew.officers, crew.helmsman, crew.trimsman, crew.trim_relief) == (1, 1, 1, 0, "officer")
    assert (crew.maneuver, crew.deckhands, crew.marines, crew.signalman) == (6, 0, 3, 0)
    assert all(gun.manned == 0 for gun in runner.guns)
    assert runner.crew_quality == state.board.ship("Reaver").crew_quality
    # Half her turncranks: two of her four rows of three are empty, speed 4 - 2.
    assert RS.speed(runner, state.board) == 2
    reaver = state.board.ship("Reaver")
    assert (reaver.boarders.men, reaver.boarding, reaver.grappled_with) == (0, None, ())
    assert runner.grappled_with == ()  # her prize crew casts off
    assert kinds(events, "prize")[-1].data["rejoins"] is True
    # She is asked to move with the rest of her new side.
    moved = drive(state, orders(), seed, lambda s, r: r.kind == MOVE and r.ships[0] == "Runner")[2]
    assert moved is not None
    assert moved.side == "a"
    # The outcome: still her first owner's ship, captured; her prize crew are her captors' men, alive.
    outcome = RS.tally(state)
    entry = next(s for s in outcome["ships"] if s["name"] == "Runner")
    assert (entry["side"], entry["fate"], entry["prize"], entry["prize_fate"]) == ("b", CAPTURED, "crewed", "fighting")
    assert outcome["sides"]["a"]["prizes_crewed"] == 1
    assert outcome["sides"]["a"]["prizes"] == 1
    reaver_out = next(s for s in outcome["ships"] if s["name"] == "Reaver")
    start_reaver = start.board.ship("Reaver")
    assert reaver_out["crew_lost"] == state.board.crew_at_start["Reaver"] - start_reaver.men_alive - 1
    # The fold replays to the same board.
    replayed = resolver.replay(RS, start, events)
    assert RS.board_to_json(replayed.board) == RS.board_to_json(state.board)


@pytest.mark.rule("SG-BRD-23")
def test_martian_crews_man_martian_vessels_and_earthmen_earth_ones() -> None:
    def rec(cls: str, side: str = "x") -> ShipRecord:
        return ship_record_from_class(cls, name=cls, side=side)

    held = Prize(captor="x", owner="y")
    # Martian crews: Martian kites and galleys, not British steamers.
    assert prizes.may_man(rec("Hullcutter"), rec("Sky Runner"), held)
    assert prizes.may_man(rec("Hullcutter"), rec("Whisperdeath"), held)
    assert not prizes.may_man(rec("Hullcutter"), rec("Aphid (original)"), held)
    # British crews: British ships and hostile European ones, not Martian vessels.
    assert prizes.may_man(rec("Aphid (original)"), rec("Dauntless"), held)
    assert prizes.may_man(rec("Aphid (original)"), rec("Hamburg"), held)
    assert prizes.may_man(rec("Aphid (original)"), rec("Gloire"), held)
    assert not prizes.may_man(rec("Aphid (original)"), rec("Sky Runner"), held)
    # The steam-refitted kites are Earth ships; a recapture is always manned.
    assert prizes.vessel_kind(rec("Ranger")) == prizes.vessel_kind(rec("Mikasa")) == prizes.EARTH
    assert prizes.crew_kind(rec("Fenian Ram")) == prizes.EARTH
    assert prizes.vessel_kind(rec("Fenian Ram")) == prizes.MARTIAN
    assert prizes.may_man(rec("Fenian Ram", "y"), rec("Fenian Ram"), held)


@pytest.mark.rule("SG-BRD-23")
def test_a_british_boarding_party_may_not_crew_a_martian_prize() -> None:
    seed = b"prize-british"
    state = taken_prize(seed, captor="Dauntless")
    request = orders_request(state)
    rejection = refused(state, request, {"crew": [], "strike": [], "prizes": {"Runner": "crew"}}, seed)
    assert rejection.clause == "SG-BRD-23"
    assert RS.validate(state, request, {"crew": [], "strike": [], "prizes": {"Runner": "scuttle"}}) is None


# --- scuttling her (SG-BRD-24) ---------------------------------------------------------------------------------


@pytest.mark.rule("SG-BRD-21", "SG-BRD-24")
def test_scuttling_withdraws_all_but_one_officer_then_she_crashes() -> None:
    seed = b"prize-scuttle"
    state = taken_prize(seed)
    reaver_before = state.board.ship("Reaver")
    state, events, _ = with_prizes({"Runner": "abandon"}, lambda s, r: s.turn == 3 and r.kind == ORDERS, seed, state)
    assert state.board.prizes["Runner"].status == "scuttling"
    reaver = state.board.ship("Reaver")
    assert reaver.boarders == Party(officers=1)
    assert reaver.boarding == "Runner"
    # The rest are home in the party, the guard with them.
    assert reaver.party.men == reaver_before.party.men + reaver_before.boarders.men - 1 + 1
    assert state.board.ship("Runner").afloat
    assert not rolls(events, "scuttling")
    state, events, _ = drive(state, orders(), seed, lambda s, r: s.turn == 4 and r.kind == ORDERS)
    runner = state.board.ship("Runner")
    assert not runner.afloat
    assert state.board.prizes["Runner"].status == "scuttled"
    (roll,) = rolls(events, "scuttling Runner")
    reaver = state.board.ship("Reaver")
    assert reaver.boarding is None
    assert reaver.party.officers == reaver_before.boarders.officers - (1 if roll.data["dice"] == [1] else 0)
    assert runner.grappled_with == ()
    outcome = RS.tally(state)
    assert outcome["sides"]["a"]["prizes_scuttled"] == 1
    assert next(s for s in outcome["ships"] if s["name"] == "Runner")["prize"] == "scuttled"


@pytest.mark.rule("SG-BRD-24")
@pytest.mark.parametrize(("face", "home"), [(1, 0), (2, 1), (6, 1)])
def test_on_a_one_the_scuttling_officer_goes_down_with_her(face: int, home: int) -> None:
    runner = ship_record_from_class("Sky Runner", name="Runner", side="b")
    reaver = replace(
        ship_record_from_class("Hullcutter", name="Reaver", side="a"), boarders=Party(officers=1), boarding="Runner"
    )
    prize = Prize("a", "b", prizes.SCUTTLE, prizes.WITHDRAWN)
    done, changed, happened = prizes.scuttle(runner, [reaver], prize, roller=FixedDice(face))
    assert done.status == "scuttled"
    assert changed["Runner"].status == "crashed"
    assert changed["Reaver"].party.officers == reaver.party.officers + home
    assert changed["Reaver"].boarders.men == 0
    assert happened[0]["clauses"] == ["SG-BRD-24"]


@pytest.mark.rule("SG-BRD-24")
def test_withdrawing_keeps_an_officer_aboard_and_brings_the_guard_home() -> None:
    runner = ship_record_from_class("Sky Runner", name="Runner", side="b")
    base = ship_record_from_class("Hullcutter", name="Reaver", side="a")
    reaver = replace(base, boarders=Party(officers=2, seamen=3, marines=2), boarding="Runner")
    prize = Prize("a", "b", prizes.SCUTTLE, guard="marines", guard_ship="Reaver")
    done, changed, _ = prizes.withdraw(runner, [reaver], prize, reaver)
    assert (done.stage, done.guard) == (prizes.WITHDRAWN, None)
    home = changed["Reaver"]
    assert home.boarders == Party(officers=1)
    assert (home.party.officers, home.party.seamen, home.party.marines) == (1, 3, 3)  # the guard is home too


# --- the AI (pirates keep, warships scuttle what they cannot keep) ------------------------------------------------


@pytest.mark.rule("SG-BRD-21")
def test_the_captain_crews_a_prize_his_men_may_man() -> None:
    state = taken_prize(b"prize-ai-crew")
    assert prize_orders(state, "a") == {"Runner": "crew"}
    request = orders_request(state)
    answer = Captain(b"ai").propose(RS, state, request)
    assert isinstance(answer, dict)
    assert answer["prizes"] == {"Runner": "crew"}
    assert "tow" not in answer
    assert RS.validate(state, request, answer) is None


@pytest.mark.rule("SG-BRD-21", "SG-BRD-23", "SG-BRD-24")
def test_a_warship_scuttles_what_she_cannot_keep_and_a_privateer_tows_it() -> None:
    warship = taken_prize(b"prize-ai-warship", captor="Dauntless")
    request = orders_request(warship)
    answer = close_orders(warship, request)
    assert answer.get("prizes") == {"Runner": "scuttle"}
    assert "tow" not in answer
    privateer = taken_prize(b"prize-ai-privateer", captor="Dauntless", ai={"prizes": "keep"})
    request = orders_request(privateer)
    answer = close_orders(privateer, request)
    assert "prizes" not in answer
    assert answer.get("tow") == [["Reaver", "Runner"]]
    assert RS.validate(privateer, request, {"crew": [], "strike": [], **answer}) is None


class Unguarded:
    """The Captain's own answers, unchecked: an illegal one would make auto_play raise."""

    def __init__(self, seed: bytes) -> None:
        self.captain = Captain(seed)
        self.name = self.captain.name

    def choose(self, ruleset: Any, state: BattleState[Any], request: DecisionRequest) -> Any:
        return self.captain.propose(ruleset, state, request)


@pytest.mark.rule("SG-BRD-21")
@pytest.mark.parametrize(("captor", "keep"), [("Hullcutter", True), ("Hullcutter", False), ("Dauntless", False)])
def test_captains_play_a_battle_with_prizes_legally_to_the_end(captor: str, keep: bool) -> None:
    seed = f"prize-play-{captor}-{keep}".encode()
    state = taken_prize(seed, captor=captor, ai={"prizes": "keep"} if keep else {})
    played = policies.auto_play(RS, state, seed=seed, policies={s: Unguarded(seed + s.encode()) for s in state.sides})
    assert played.state.over
    assert not RS.check_invariants(played.state)
    expected = "crewed" if captor == "Hullcutter" else "scuttled"
    assert played.state.board.prizes["Runner"].status == expected
