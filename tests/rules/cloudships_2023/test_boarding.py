"""Step 2b, grappling and boarding (CM-BRD-*, CM-PG-*, CM-FLY-22..28, CM-ALT-04/05): the decision asked after
the move, the grapple and the power grapnel, rounds of boarding and their losses, the action carried on, repelled
or cast off, surrender and prizes, the drop when the grapples go, and who may fire at whom."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import events, hexgrid, policies, resolver, state
from battles.engine.events import JSON, ROLL, Event
from battles.engine.resolver import Context
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import boarding, crew, firing, panels
from battles.rules.cloudships_2023.board import Board, Grapple, Ship
from battles.rules.cloudships_2023.kinds import (
    ATTACKERS,
    BOARD,
    BOARD_DECISION,
    BOARDING,
    BOARDING_FOUGHT,
    CAST_OFF,
    DEFENDERS,
    DROPPED,
    FATE,
    FIRE,
    GRAPPLE,
    GRAPPLE_TRIED,
    GRAPPLED,
    GRAPPLES_CUT,
    LOSSES_DECISION,
    LOSSES_TAKEN,
    MOVE,
    MOVE_DECISION,
    MOVE_HELD,
    NOTHING,
    STRUCK,
    TIE,
)
from battles.rules.cloudships_2023.phases.damage import cross_boxes
from battles.rules.cloudships_2023.phases.turn import status_of
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import at_stage, changed, mid_round, new, of_kind, resolve

MIDDLE = hexgrid.from_odd_q(15, 11)


def aboard(attacker: str = "Aphid", defender: str = "Locust", *, seed: bytes = b"cm-seed", **ships: Any) -> Any:
    """The state at step 2b of ``attacker``'s turn, ``defender`` in her hex and band (the middle of the map, at
    Medium). ``ships`` maps a ship's name to the changes made to her (a dict)."""
    st = new(seed)
    board = mid_round(st, active=attacker)
    for name in (attacker, defender):
        board = changed(board, name, hex=MIDDLE, band=panels.MEDIUM)
    for name, changes in ships.items():
        board = changed(board, name, **changes)
    return at_stage(st, BOARDING, board)


def locked(st: BattleState[Board], attacker: str = "Aphid", defender: str = "Locust") -> BattleState[Board]:
    """``st`` with ``attacker`` already grappled to ``defender``, a boarding action under way."""
    board = st.board
    board = changed(board, attacker, grappled=(defender,))
    board = changed(board, defender, grappled=(attacker,))
    return st.evolve(board=replace(board, grapples=(Grapple(attacker, defender),)))


def answer(asked: resolver.Accepted[Board], choice: JSON, seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    request = asked.state.pending()[0]
    done = resolver.submit(CLOUDSHIPS, asked.state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert isinstance(done, resolver.Accepted), done
    return done


def ordered(st: BattleState[Board], choice: JSON, seed: bytes = b"cm-seed") -> resolver.Accepted[Board]:
    """Ask the boarding decision at ``st`` and answer it; the losses, if asked, get their defaults."""
    asked = resolve(st, seed)
    assert asked.state.pending()[0].kind == BOARD_DECISION
    done = answer(asked, choice, seed)
    while done.state.pending() and done.state.pending()[0].kind == LOSSES_DECISION:
        done = resolver.Accepted(done.state, [*done.events, *answer(done, done.state.pending()[0].default).events])
    return done


def seeds(stem: str, most: int = 200) -> Iterator[bytes]:
    return (b"%s-%d" % (stem.encode(), n) for n in range(most))


def first_seed(make: Callable[[bytes], Any], choice: JSON, wanted: Callable[[resolver.Accepted[Board]], bool]) -> Any:
    """The first seed whose resolution of ``make(seed)`` answered with ``choice`` gives what ``wanted`` says."""
    for seed in seeds("find"):
        done = ordered(make(seed), choice, seed)
        if wanted(done):
            return done
    raise AssertionError("no seed gave it")


def rolls(done: resolver.Accepted[Board], word: str) -> list[dict[str, Any]]:
    return [e.data for e in done.events if e.kind == ROLL and word in e.data["purpose"]]


def ship(done: resolver.Accepted[Board], name: str) -> Ship:
    return done.state.board.ship_named(name)


# --- the decision, and where it comes in the turn ------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-01")
def test_after_her_move_a_ship_may_grapple_an_enemy_in_her_hex_and_band_and_leave_well_alone_by_default():
    asked = resolve(aboard())
    request = asked.state.pending()[0]
    assert (request.kind, request.side, request.rule) == (BOARD_DECISION, "british", "CM-BRD-01")
    assert request.options == (NOTHING, {GRAPPLE: "Locust"})
    assert request.default == NOTHING
    left = answer(asked, NOTHING)
    assert not of_kind(left.events, GRAPPLE_TRIED)
    assert left.state.phase != BOARDING


@pytest.mark.rule("CM-BRD-01")
def test_no_decision_for_a_ship_at_another_band_or_a_friend_in_her_hex():
    higher = resolve(aboard(Locust={"band": panels.HIGH}))
    assert all(r.kind != BOARD_DECISION for r in higher.state.pending())
    friend = resolve(aboard("Aphid", "Reliant"))
    assert all(r.kind != BOARD_DECISION for r in friend.state.pending())


@pytest.mark.rule("CM-BRD-01", "CM-SEQ-06")
def test_grappling_comes_after_the_move_and_before_fire_at_the_hex_where_her_move_ends():
    st = new()
    board = changed(mid_round(st, active="Aphid"), "Aphid", hex=MIDDLE, facing=0, band=panels.MEDIUM)
    board = changed(board, "Locust", hex=hexgrid.neighbour(MIDDLE, 0), band=panels.MEDIUM)
    st = at_stage(st, MOVE, replace(board, status=status_of(board.ship_named("Aphid"))))
    asked = resolve(st)
    assert asked.state.pending()[0].kind == MOVE_DECISION
    moved = answer(asked, ["ahead"])
    assert moved.state.phase == BOARDING
    assert moved.state.pending()[0].kind == BOARD_DECISION
    grappled = answer(moved, {GRAPPLE: "Locust"})
    phases = [e.phase for e in grappled.events if e.kind in (GRAPPLE_TRIED, BOARDING_FOUGHT)]
    assert set(phases) == {BOARDING}
    assert FIRE in [e.phase for e in grappled.events]


# --- the grapple and the power grapnel -------------------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-02", "CM-BRD-03", "CM-BRD-04", "CM-BRD-05", "CM-BRD-06")
def test_the_grapple_is_a_die_plus_boarding_value_each_and_holds_only_on_the_higher_score():
    seen = set()
    for seed in seeds("grapple", 80):
        done = ordered(aboard(seed=seed), {GRAPPLE: "Locust"}, seed)
        thrown = [e.data for e in of_kind(done.events, GRAPPLE_TRIED)]
        dice = rolls(done, "(CM-BRD-03)")
        aphid, locust = aboard().board.ship_named("Aphid"), aboard().board.ship_named("Locust")
        assert [r["modifiers"] for r in dice[:2]] == [boarding.value_parts(aphid), boarding.value_parts(locust)]
        first = thrown[0]
        mine, theirs = first["scores"]
        assert first["held"] == (mine > theirs)
        if mine == theirs:
            assert "CM-BRD-06" in first["clauses"]
        held = thrown[-1]["held"]
        assert bool(of_kind(done.events, GRAPPLED)) == held
        assert bool(of_kind(done.events, BOARDING_FOUGHT)) == held  # no boarding without the lines (CM-BRD-02)
        seen.add("tie" if mine == theirs else "held" if held else "cut")
        if len(seen) == 3:
            break
    assert seen == {"tie", "held", "cut"}


@pytest.mark.rule("CM-PG-01", "CM-PG-02")
def test_a_power_grapnel_tries_once_more_after_lines_are_cut_with_no_bonus_and_none_without_it():
    def with_grapnel(seed: bytes) -> Any:
        return aboard(seed=seed, Aphid={"grapnel": True})

    def first_cut(done: resolver.Accepted[Board]) -> bool:
        return not of_kind(done.events, GRAPPLE_TRIED)[0].data["held"]

    done = first_seed(with_grapnel, {GRAPPLE: "Locust"}, first_cut)
    thrown = [e.data for e in of_kind(done.events, GRAPPLE_TRIED)]
    assert [t["grapnel"] for t in thrown] == [False, True]
    dice = rolls(done, "(CM-BRD-03)")
    assert dice[0]["modifiers"] == dice[2]["modifiers"]  # the grapnel adds nothing to the roll
    plain = first_seed(lambda seed: aboard(seed=seed), {GRAPPLE: "Locust"}, first_cut)
    assert len(of_kind(plain.events, GRAPPLE_TRIED)) == 1


# --- a round of boarding ---------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-07", "CM-BRD-11", "CM-BRD-12", "CM-BRD-13", "CM-BRD-14", "CM-BRD-15")
def test_a_round_the_lower_loses_the_difference_the_higher_a_dies_worth_and_a_tie_one_each():
    seen = set()
    for seed in seeds("round", 120):
        st = locked(aboard(seed=seed, Aphid={"parties": 1}, Locust={"parties": 1}))
        done = ordered(st, {BOARD: "Locust"}, seed)
        fought = of_kind(done.events, BOARDING_FOUGHT)[0].data
        ours, theirs = fought["scores"]
        assert fought["winner"] == boarding.winner(ours, theirs)
        if fought["winner"] == TIE:
            assert fought["losses"] == {"Aphid": 1, "Locust": 1}
        else:
            high, low = ("Aphid", "Locust") if fought["winner"] == ATTACKERS else ("Locust", "Aphid")
            own = rolls(done, "own losses")[0]
            assert fought["losses"] == {low: abs(ours - theirs), high: crew.winners_loss(own["dice"][0])}
        seen.add(fought["winner"])
        if len(seen) == 3:
            break
    assert seen == {ATTACKERS, DEFENDERS, TIE}


@pytest.mark.rule("CM-BRD-08", "CM-BRD-09", "CM-BRD-10", "CM-SUP-06")
def test_golden_boarding_value_parties_anti_personnel_guns_whatever_their_arc_and_a_superior_crew_plus_one():
    st = aboard()
    aphid = st.board.ship_named("Aphid")  # 1 party, 2 Nordenfelts
    assert boarding.value_parts(aphid) == {"boarding parties": 1, "anti-personnel guns": 2}
    assert boarding.boarding_value(aphid) == aphid.panel.hexagon == 3
    superior = replace(aphid, panel=replace(aphid.panel, superior=True))
    assert boarding.value_parts(superior)["superior crew"] == 1
    assert boarding.boarding_value(superior) == 4  # +1 to boarding attempts, counted once (CM-SUP-06 = CM-BRD-09)
    nordenfelt = next(g.number for g in aphid.panel.guns if g.kind == panels.ANTI_PERSONNEL)
    assert boarding.boarding_value(replace(aphid, guns_lost=(nordenfelt,))) == 2  # losses off the hexagon
    done = ordered(aboard(Aphid={"panel": superior.panel}), {GRAPPLE: "Locust"})
    assert rolls(done, "throws grapples")[0]["modifiers"]["superior crew"] == 1


@pytest.mark.rule("CM-FLY-22", "CM-FLY-23", "CM-FLY-24")
def test_golden_a_boarding_party_of_4_and_two_flights_aboard_is_a_boarding_value_of_8():
    bare = aboard().board.ship_named("Locust")
    panel = replace(bare.panel, boarding_parties=4, flying_martians=2, guns=(), superior=False)
    ship_ = Ship.fresh("Swarm", "martians", panel, MIDDLE, 0, panels.MEDIUM)
    assert boarding.value_parts(ship_) == {"boarding parties": 4, "flights aboard": 4}
    assert boarding.boarding_value(ship_) == panel.hexagon == 8


@pytest.mark.rule("CM-BRD-11", "CM-BRD-16", "CM-FLY-25")
def test_golden_the_ways_to_lose_parties_first_by_default_flights_at_two_then_marked_off_never_a_gun():
    bare = aboard().board.ship_named("Aphid")  # 2 Nordenfelts
    two_and_two = replace(bare, parties=2, flights=2)
    ways = boarding.ways_to_lose(two_and_two, 3)
    assert [(w.parties, w.flights, w.marked) for w in ways] == [(2, 1, 0), (1, 1, 0), (0, 2, 0)]
    assert boarding.ways_to_lose(replace(bare, parties=2), 2) == [boarding.Losses("Aphid", 2, 0, 0)]
    # no party or flight left: the points come off what is left of the value (the Nordenfelts' 2), no gun lost
    assert boarding.ways_to_lose(replace(bare, parties=1), 3) == [boarding.Losses("Aphid", 1, 0, 2)]
    assert boarding.ways_to_lose(replace(bare, parties=1), 9) == [boarding.Losses("Aphid", 1, 0, 2)]


@pytest.mark.rule("CM-FLY-25", "CM-BRD-11")
def test_a_captain_with_parties_and_flights_aboard_chooses_which_his_losses_take():
    def rich(seed: bytes) -> Any:
        return locked(aboard(seed=seed, Locust={"parties": 1, "flights": 1}, Aphid={"parties": 1}))

    for seed in seeds("choose", 100):
        asked = answer(resolve(rich(seed), seed), {BOARD: "Locust"}, seed)
        pending = [r for r in asked.state.pending() if r.kind == LOSSES_DECISION]
        if pending and pending[0].ships == ("Locust",):
            break
    else:
        raise AssertionError("no seed asked the Locust")
    request = pending[0]
    assert request.side == "martians"
    options = list(request.options or ())
    assert request.default == options[0]
    assert options[0]["parties"] == 1  # parties first by default
    flights_first = next(o for o in options if o["flights"] == 1)
    done = answer(asked, flights_first, seed)
    taken = [e.data for e in of_kind(done.events, LOSSES_TAKEN) if e.data["ship"] == "Locust"]
    assert taken[0]["flights"] == 1
    assert ship(done, "Locust").flights == 0


@pytest.mark.rule("CM-BRD-16", "CM-PG-04")
def test_losses_come_off_parties_never_guns_and_the_power_grapnel_goes_with_the_first_party_lost():
    done = ordered(locked(aboard(Aphid={"grapnel": True, "parties": 1})), {BOARD: "Locust"})
    taken = {e.data["ship"]: e.data for e in of_kind(done.events, LOSSES_TAKEN)}
    aphid = ship(done, "Aphid")
    assert taken["Aphid"]["parties"] == 1
    assert (aphid.parties, aphid.grapnel, aphid.guns_lost) == (0, False, ())


# --- carried on, repelled, cast off -----------------------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-17", "CM-BRD-18")
def test_the_ships_stay_grappled_after_a_win_or_tie_for_the_attackers_and_the_boarders_are_repelled_otherwise():
    seen = set()
    for seed in seeds("repel", 150):
        big = {"parties": 6}
        done = ordered(locked(aboard(seed=seed, Aphid=big, Locust=big)), {BOARD: "Locust"}, seed)
        won = of_kind(done.events, BOARDING_FOUGHT)[0].data["winner"]
        if ship(done, "Locust").status == STRUCK or ship(done, "Aphid").status == STRUCK:
            continue
        board = done.state.board
        if won == DEFENDERS:
            assert of_kind(done.events, GRAPPLES_CUT)[0].data["why"].endswith("(CM-BRD-18)")
            assert (ship(done, "Aphid").grappled, ship(done, "Locust").grappled, board.grapples) == ((), (), ())
        else:
            assert board.grapples == (Grapple("Aphid", "Locust"),)
            assert ship(done, "Locust").grappled == ("Aphid",)
        seen.add(won)
        if len(seen) == 3:
            break
    assert seen == {ATTACKERS, DEFENDERS, TIE}


@pytest.mark.rule("CM-BRD-17", "CM-BRD-18")
def test_in_the_attackers_next_turn_she_holds_her_hex_and_boards_on_by_default_or_casts_off():
    st = locked(aboard())
    asked = resolve(st)
    request = asked.state.pending()[0]
    assert request.options == ({BOARD: "Locust"}, {CAST_OFF: "Locust"})
    assert request.default == {BOARD: "Locust"}
    cast = answer(asked, {CAST_OFF: "Locust"})
    assert not of_kind(cast.events, BOARDING_FOUGHT)
    assert cast.state.board.grapples == ()
    moving = at_stage(new(), MOVE, changed(locked(aboard()).board, "Aphid", hex=MIDDLE))
    moving = moving.evolve(board=replace(moving.board, status=status_of(moving.board.ship_named("Aphid"))))
    held = resolve(moving)
    assert of_kind(held.events, MOVE_HELD)
    assert held.state.pending()[0].kind == BOARD_DECISION


@pytest.mark.rule("CM-BRD-19")
def test_repelled_boarders_may_grapple_again():
    def sturdy(seed: bytes) -> Any:
        return locked(aboard(seed=seed, Aphid={"parties": 6}, Locust={"parties": 6}))

    done = first_seed(sturdy, {BOARD: "Locust"}, lambda d: bool(of_kind(d.events, GRAPPLES_CUT)))
    assert boarding.choices(done.state.board, "Aphid") == [NOTHING, {GRAPPLE: "Locust"}]


@pytest.mark.rule("CM-BRD-02")
def test_a_ship_only_boarded_is_not_asked_she_fights_in_her_attackers_turn():
    st = locked(aboard("Locust", "Aphid"), attacker="Aphid", defender="Locust")
    assert boarding.choices(st.board, "Locust") == []
    assert all(r.kind != BOARD_DECISION for r in resolve(st).state.pending())


# --- surrender and prizes -------------------------------------------------------------------------------------------


@pytest.mark.rule("CM-BRD-20", "CM-BRD-21")
def test_a_defender_at_boarding_value_0_strikes_and_is_the_attackers_prize():
    weak = {"parties": 1, "guns_lost": tuple(g.number for g in aboard().board.ship_named("Locust").panel.guns)}
    done = ordered(locked(aboard(Aphid={"parties": 6}, Locust=weak)), {BOARD: "Locust"})  # 8 against 1
    locust = ship(done, "Locust")
    assert ship(done, "Aphid").flying
    assert (locust.status, locust.taken_by) == (STRUCK, "Aphid")
    fate = of_kind(done.events, FATE)[0].data
    assert (fate["status"], fate["taken_by"]) == (STRUCK, "Aphid")
    assert done.state.board.grapples == ()
    assert not ship(done, "Aphid").grappled
    assert "Locust" not in done.state.board.cards_left()
    told = CLOUDSHIPS.outcome(done.state, done.state).ship("Locust")
    assert told is not None
    assert (told.fate, told.side_at_end, told.captured_by, told.detail) == (
        "captured",
        "british",
        "british",
        {"taken_by": "Aphid"},
    )
    assert Ship.from_json(told.record) == locust  # her panel and damage: the bridge brings her home from it


@pytest.mark.rule("CM-BRD-20")
def test_an_attacker_at_0_strikes_too_the_defenders_prize_and_two_at_0_are_no_ones():
    no_guns = {
        name: {"parties": 1, "guns_lost": tuple(g.number for g in aboard().board.ship_named(name).panel.guns)}
        for name in ("Aphid", "Locust")
    }
    done = ordered(locked(aboard(**no_guns)), {BOARD: "Locust"})  # 1 each: whoever loses, both reach 0
    struck = {s.name: s.taken_by for s in done.state.board.ships if s.status == STRUCK}
    assert struck == {"Aphid": "", "Locust": ""}
    assert {s.fate for s in CLOUDSHIPS.outcome(done.state, done.state).ships if s.name in struck} == {"struck"}
    only_aphid_weak = {"Aphid": no_guns["Aphid"], "Locust": {"parties": 6}}
    lost = first_seed(
        lambda seed: locked(aboard(seed=seed, **only_aphid_weak)),
        {BOARD: "Locust"},
        lambda d: ship(d, "Aphid").status == STRUCK,
    )
    assert ship(lost, "Aphid").taken_by == "Locust"


# --- altitude while grappled ------------------------------------------------------------------------------------------


LOWERED = (panels.HULL, panels.LOW, panels.HULL, panels.HULL, panels.GROUND)


@pytest.mark.rule("CM-ALT-04", "CM-ALT-05")
def test_a_ship_held_above_her_ceiling_drops_to_it_the_moment_the_grapples_are_cast_off():
    st = locked(aboard())
    locust = st.board.ship_named("Locust")
    low = replace(locust.panel, track=(LOWERED,))
    st = st.evolve(board=changed(st.board, "Locust", panel=low, crossed=2))
    assert st.board.ship_named("Locust").ceiling == panels.LOW  # held at Medium by the grapples
    done = answer(resolve(st), {CAST_OFF: "Locust"})
    dropped = of_kind(done.events, DROPPED)[0].data
    assert (dropped["ship"], dropped["band"], dropped["from"]) == ("Locust", panels.LOW, panels.MEDIUM)
    assert "CM-ALT-05" in dropped["why"]
    assert CLOUDSHIPS.check_invariants(done.state) == []


@pytest.mark.rule("CM-ALT-05")
def test_a_held_ship_drops_when_the_ship_holding_her_crashes():
    st = locked(aboard())
    locust = st.board.ship_named("Locust")
    st = st.evolve(board=changed(st.board, "Locust", panel=replace(locust.panel, track=(LOWERED,)), crossed=2))
    aphid = st.board.ship_named("Aphid")
    st = st.evolve(board=changed(st.board, "Aphid", crossed=aphid.panel.track_length - 1))
    ctx = Context(CLOUDSHIPS, st, b"cm-seed")
    cross_boxes(ctx, "Aphid", 1)
    kinds = [e.kind for e in ctx.events]
    assert kinds[-2:] == [DROPPED, FATE]  # she drops as the crash lets her go: never free above her ceiling
    assert ctx.state.board.ship_named("Locust").band == panels.LOW


# --- fire while locked: the fire step's own rule (firing.refusal; test_fire covers the volley) ---------------------


@pytest.mark.rule("CM-BRD-22")
def test_ships_locked_by_a_real_boarding_action_fire_only_at_each_other():
    board = locked(aboard()).board
    aphid, locust, reliant = (board.ship_named(name) for name in ("Aphid", "Locust", "Reliant"))
    gun = aphid.working_guns()[0]
    refused = firing.refusal(board, aphid, gun, board.ship_named("Skylord"))
    assert refused is not None
    assert refused.clause == "CM-BRD-22"
    assert (firing.refusal(board, aphid, gun, locust) or firing.Refusal("", "")).clause != "CM-BRD-22"
    outside = firing.refusal(board, reliant, reliant.working_guns()[0], locust)
    assert outside is None or outside.clause != "CM-BRD-22"  # a ship outside the action fires where she likes


# --- whole battles ---------------------------------------------------------------------------------------------------


CLOSE = {
    "title": "Close quarters",
    "cols": 12,
    "rows": 12,
    "rounds": 4,
    "sides": [{"key": "british", "name": "British"}, {"key": "martians", "name": "Martians"}],
    "ships": [
        {"name": "Aphid", "side": "british", "class": "aphid", "hex": [5, 5], "facing": 0, "band": "Medium"},
        {"name": "Reliant", "side": "british", "class": "reliant", "hex": [6, 6], "facing": 0, "band": "Medium"},
        {"name": "Locust", "side": "martians", "class": "locust", "hex": [5, 5], "facing": 3, "band": "Medium"},
        {"name": "Hullcutter", "side": "martians", "class": "hullcutter", "hex": [6, 6], "facing": 3, "band": "Medium"},
    ],
}


class HoldStation:
    """A random captain who never moves unless a lit Bridge Hit makes him (CM-LIGHT-08: then the default move):
    the ships stay where they started, in each other's hexes."""

    name = "hold station"

    def __init__(self, seed: bytes) -> None:
        self.random = policies.RandomPolicy(seed)

    def choose(self, ruleset: Any, state_: BattleState[Board], request: Any) -> JSON:
        if request.kind != MOVE_DECISION:
            return self.random.choose(ruleset, state_, request)
        return [] if ruleset.validate(state_, request, []) is None else request.default


def random_battle(seed: bytes) -> tuple[BattleState[Board], list[Event], BattleState[Board]]:
    initial = new(seed, scenario=CLOSE)
    players = {side: HoldStation(seed + side.encode()) for side in initial.sides}
    done = policies.auto_play(CLOUDSHIPS, initial, seed=seed, policies=players)
    return initial, done.events, done.state


def test_random_battles_at_close_quarters_board_replay_byte_for_byte_and_keep_the_invariants():
    kinds: set[str] = set()
    for n in range(3):
        seed = b"close-%d" % n
        initial, log, final = random_battle(seed)
        kinds |= {e.kind for e in log}
        text = events.events_to_json(log)
        rebuilt = resolver.replay(CLOUDSHIPS, initial, events.events_from_json(text))
        assert state.state_to_json(CLOUDSHIPS, rebuilt) == state.state_to_json(CLOUDSHIPS, final)
        current = initial
        for event in log:
            current = resolver.apply_event(CLOUDSHIPS, current, event)
            back = state.state_from_json(CLOUDSHIPS, state.state_to_json(CLOUDSHIPS, current))
            assert back.board == current.board
            assert CLOUDSHIPS.check_invariants(current) == [], event.kind
    assert {GRAPPLE_TRIED, GRAPPLED, BOARDING_FOUGHT, LOSSES_TAKEN} <= kinds


# --- the answer schema ---------------------------------------------------------------------------------------------


def test_the_boarding_schema_speaks_the_captains_words():
    asked = resolve(aboard())
    request = asked.state.pending()[0]
    schema = CLOUDSHIPS.answer_schema(asked.state, request).to_json()
    labels = [o["label"] for o in schema["root"]["options"]]
    assert labels == ["Leave well alone", "Grapple and board Locust"]
    assert schema["clause"] == "CM-BRD-01"


@pytest.mark.rule("CM-PG-03")
def test_the_power_grapnel_is_no_gun_a_gun_box_never_takes_it():
    st = aboard(Locust={"grapnel": True})
    locust = st.board.ship_named("Locust")
    boxes = len(locust.panel.guns) + 1  # one more Gun box than she has guns
    guns_only = replace(locust.panel, track=((panels.GUN,) * boxes + (panels.GROUND,),), power_grapnel=True)
    st = st.evolve(board=changed(st.board, "Locust", panel=guns_only))
    ctx = Context(CLOUDSHIPS, st, b"cm-seed")
    cross_boxes(ctx, "Locust", boxes)
    after = ctx.state.board.ship_named("Locust")
    assert after.grapnel
    assert set(after.guns_lost) == {gun.number for gun in locust.panel.guns}  # every gun, and the grapnel kept


@pytest.mark.rule("CM-ALT-04", "CM-ALT-03")
def test_a_grappled_ship_that_loses_her_band_holds_it_and_a_free_one_drops_at_once():
    for grappled, band in ((True, panels.MEDIUM), (False, panels.LOW)):
        st = locked(aboard()) if grappled else aboard()
        locust = st.board.ship_named("Locust")
        st = st.evolve(board=changed(st.board, "Locust", panel=replace(locust.panel, track=(LOWERED,))))
        ctx = Context(CLOUDSHIPS, st, b"cm-seed")
        cross_boxes(ctx, "Locust", 2)
        assert ctx.state.board.ship_named("Locust").band == band
        assert CLOUDSHIPS.check_invariants(ctx.state) == []
