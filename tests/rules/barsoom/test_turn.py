"""The Barsoom turn in the app (docs/barsoom.md section 9), phase by phase, on small scenarios played through the
engine with chosen answers: the order of a turn, initiative and its roll-offs, the order of reveal, damage at once,
fires at the end of the Ship Phase, the optional rule, out of control, reloads, grapples and boarding, repairs, and
the end of the battle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event
from battles.engine.frozen import evolve
from battles.engine.state import BattleState
from battles.rules.barsoom import cards, orders
from battles.rules.barsoom.ai import Captain, fire_worth
from battles.rules.barsoom.answers import fire_label
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.damage import Harm
from battles.rules.barsoom.kinds import (
    CARD_REVEALED,
    CREW_ORDERS,
    DAMAGED,
    DED_ROLLED,
    FIRE_ORDERS,
    GUN_FIRED,
    INITIATIVE_WON,
    OUT_OF_CONTROL,
    PLOT_CARDS,
    REPAIRS,
    SHIP_MOVED,
    SHIP_TAKEN,
)
from battles.rules.barsoom.phases.damage import ded, fall
from battles.rules.barsoom.ruleset import BARSOOM

Chooser = Callable[[BattleState[Battle], DecisionRequest], JSON]
SEED = b"turn"


def scenario(*ships: Mapping[str, Any], turns: int = 4) -> dict[str, Any]:
    return {
        "title": "test",
        "turns": turns,
        "cols": 30,
        "rows": 20,
        "sides": [{"key": "red", "name": "Red"}, {"key": "blue", "name": "Blue"}],
        "ships": list(ships),
    }


def ship(name: str, side: str, col: int, row: int, facing: int = 1, **more: Any) -> dict[str, Any]:
    return {
        "name": name,
        "side": side,
        "fleet": "Heliumite cruiser",
        "hex": [col, row],
        "facing": facing,
        "level": 3,
        **more,
    }


APART = (ship("Red One", "red", 3, 3), ship("Blue One", "blue", 25, 16, facing=4))


def defaults(state: BattleState[Battle], request: DecisionRequest) -> JSON:
    return request.default


def play(
    sc: Mapping[str, Any],
    choose: Chooser = defaults,
    *,
    until_turn: int = 99,
    seed: bytes = SEED,
    options: Mapping[str, JSON] | None = None,
    change: Callable[[Battle], Battle] | None = None,
) -> tuple[BattleState[Battle], list[Event]]:
    """Play ``sc`` answering each decision with ``choose``, until the battle ends or a decision of turn
    ``until_turn`` is asked; ``change`` alters the board before the first die is cast."""
    state = resolver.new_battle(BARSOOM, sc, seed_commitment=dice.commitment(seed), options=options)
    if change is not None:
        state = state.evolve(board=change(state.board))
    accepted = resolver.resolve(BARSOOM, state, seed)
    state, log = accepted.state, list(accepted.events)
    while not state.over and state.turn < until_turn:
        request = state.pending()[0]
        outcome = resolver.submit(
            BARSOOM, state, side=request.side, request_id=request.id, choice=choose(state, request), seed=seed
        )
        assert isinstance(outcome, resolver.Accepted), outcome
        state, log = outcome.state, log + outcome.events
    return state, log


def kinds_in_turn(log: list[Event], turn: int) -> list[Event]:
    return [e for e in log if e.turn == turn]


@pytest.mark.rule("BR-SEQ-01")
@pytest.mark.rule("BR-SEQ-04")
def test_a_turn_is_the_ship_phase_then_the_figures_phases() -> None:
    """Initiative and the secret plots open the turn, the cards are executed in the Ship Phase, and only then do
    the ships fire and the crews act (the figures' phases, here the stand-in's fire and crew steps)."""
    _, log = play(scenario(*APART), until_turn=3)
    phases = [e.phase for e in kinds_in_turn(log, 1) if e.kind == "phase"]
    assert phases == ["initiative", "plot", "ship", "orders", "fire", "crew", "end of turn"]
    reveals = [e.seq for e in log if e.turn == 1 and e.kind == CARD_REVEALED]
    fire = next(e.seq for e in log if e.turn == 1 and e.phase == "fire")
    assert reveals
    assert max(reveals) < fire


@pytest.mark.rule("BR-SEQ-02")
def test_initiative_ties_are_rolled_again_by_the_tied_sides_until_one_leads() -> None:
    tied_once = None
    for n in range(60):
        _, log = play(scenario(*APART), until_turn=1, seed=f"tie-{n}".encode())
        won = next(e for e in log if e.kind == INITIATIVE_WON)
        if len(won.data["rounds"]) > 1:
            tied_once = won
            break
    assert tied_once is not None, "no tie in 60 seeds"
    rounds = tied_once.data["rounds"]
    assert len(set(rounds[0].values())) == 1  # both sides rolled the same
    assert set(rounds[-1]) == {"red", "blue"}
    assert rounds[-1][tied_once.data["order"][0]] > rounds[-1][tied_once.data["order"][1]]
    assert tuple(tied_once.data["order"]) == cards.initiative(rounds)


@pytest.mark.rule("BR-SEQ-03")
def test_cards_are_revealed_one_at_a_time_the_sides_alternating_from_the_initiative_winner() -> None:
    two_a_side = (*APART, ship("Red Two", "red", 3, 6), ship("Blue Two", "blue", 25, 13, facing=4))
    _, log = play(scenario(*two_a_side), until_turn=2)
    order = next(e for e in log if e.kind == INITIATIVE_WON).data["order"]
    revealed = [(e.data["ship"], e.data["slot"]) for e in log if e.turn == 1 and e.kind == CARD_REVEALED]
    sides = {"Red One": "red", "Red Two": "red", "Blue One": "blue", "Blue Two": "blue"}
    assert len(revealed) == 12
    assert [sides[name] for name, _ in revealed] == [order[0], order[1]] * 6
    assert [slot for _, slot in revealed] == [0] * 4 + [1] * 4 + [2] * 4
    # each reveal is followed by its move before the next card is shown
    kinds = [e.kind for e in log if e.turn == 1 and e.kind in (CARD_REVEALED, SHIP_MOVED)]
    assert kinds == [CARD_REVEALED, SHIP_MOVED] * 12


@pytest.mark.rule("BR-DMG-02")
@pytest.mark.rule("BR-COL-02")
def test_damage_a_card_owes_is_rolled_and_applied_before_the_next_card() -> None:
    """Two cruisers a hex apart, one plotting Ahead into the other: the collision's rolls come straight after it."""
    close = (ship("Red One", "red", 10, 10, facing=0), ship("Blue One", "blue", 10, 8, facing=3))

    def ahead(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == PLOT_CARDS and request.ships[0] == "Red One":
            return {"cards": ["Ahead", "Stop", "Stop"], "ram": False}
        return request.default

    _, log = play(scenario(*close), ahead, until_turn=2)
    turn_one = kinds_in_turn(log, 1)
    hit = next(n for n, e in enumerate(turn_one) if e.kind == SHIP_MOVED and e.data["outcome"] == "collided")
    owed = turn_one[hit].data["owed"]
    assert {o["ship"] for o in owed} == {"Red One", "Blue One"}
    after = turn_one[hit + 1 :]
    next_card = next(n for n, e in enumerate(after) if e.kind == CARD_REVEALED)
    rolled = [e for e in after[:next_card] if e.kind == DAMAGED and e.data["reason"] == "collision"]
    assert len(rolled) == sum(o["rolls"] for o in owed)


def _burning(battle: Battle) -> Battle:
    entry = battle.of("Red One")
    return battle.with_aboard("Red One", condition=evolve(entry.condition, harms=(Harm(9),)))


@pytest.mark.rule("BR-DMG-11")
def test_a_fire_rolls_on_the_damage_table_at_the_end_of_the_ship_phase() -> None:
    _, log = play(scenario(*APART), until_turn=2, change=_burning)
    turn_one = kinds_in_turn(log, 1)
    burning = [n for n, e in enumerate(turn_one) if e.kind == DAMAGED and e.data["reason"] == "fire aboard"]
    last_card = max(n for n, e in enumerate(turn_one) if e.kind == SHIP_MOVED and not e.data["forced"])
    assert burning
    assert min(burning) > last_card
    assert all(turn_one[n].phase == "ship" for n in burning)


@pytest.mark.rule("BR-OPT-01")
@pytest.mark.rule("BR-OPT-02")
def test_the_optional_rule_takes_one_broken_restriction_and_rolls_after_that_card() -> None:
    two_turns = {"cards": ["Ahead", "Turn right", "Turn right"], "ram": False}
    state, _ = play(scenario(*APART), until_turn=1)
    request = next(r for r in state.pending() if r.kind == PLOT_CARDS)
    refused = resolver.check_decision(BARSOOM, state, side=request.side, request_id=request.id, choice=two_turns)
    assert isinstance(refused, Rejection)
    assert refused.clause == "BR-MOV-10"

    def breaking(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        return two_turns if request.kind == PLOT_CARDS and request.ships[0] == "Red One" else request.default

    _, log = play(scenario(*APART), breaking, until_turn=2, options={"ignore_one_restriction": True})
    turn_one = kinds_in_turn(log, 1)
    third = next(
        n
        for n, e in enumerate(turn_one)
        if e.kind == CARD_REVEALED and (e.data["ship"], e.data["slot"]) == ("Red One", 2)
    )
    assert turn_one[third + 1].kind == SHIP_MOVED
    owed = next(e for e in turn_one[third + 2 :] if e.kind == DAMAGED)
    assert owed.data["reason"] == "restriction ignored"
    assert owed.data["clause"] == "BR-OPT-02"
    assert not [e for e in turn_one[:third] if e.kind == DAMAGED and e.data["reason"] == "restriction ignored"]


@pytest.mark.rule("BR-OOC-01")
@pytest.mark.rule("BR-OOC-02")
def test_a_ship_with_no_helmsman_draws_her_options_at_random_then_descends_and_mans_the_helm() -> None:
    helmless = ship("Red One", "red", 10, 10, crew={"men": 6, "helm": 0})
    state, log = play(scenario(helmless, APART[1]), until_turn=2)
    turn_one = kinds_in_turn(log, 1)
    assert not [
        e
        for e in turn_one
        if e.kind == "decision_requested"
        and e.data["request"]["ships"] == ["Red One"]
        and e.data["request"]["kind"] == PLOT_CARDS
    ]
    drawn = next(e for e in turn_one if e.kind == OUT_OF_CONTROL)
    assert len(drawn.data["cards"]) == 2
    moves = [e for e in turn_one if e.kind == SHIP_MOVED and e.data["ship"] == "Red One" and e.data["forced"]]
    assert [m.data["card"] for m in moves][:3] == [*drawn.data["cards"], "Descend"]
    assert state.board.of("Red One").crew.helm == 1  # a man to the helm at the end of the turn
    assert any(r.kind == PLOT_CARDS and r.ships == ("Red One",) for r in state.pending())


@pytest.mark.rule("BR-WPN-11")
def test_a_heavy_gun_spends_the_next_turn_reloading() -> None:
    near = (ship("Red One", "red", 10, 10), ship("Blue One", "blue", 14, 10, facing=4))

    def fire_on_hull(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == FIRE_ORDERS and request.ships[0] == "Red One":
            return next(
                (o for o in request.options or () if isinstance(o, dict) and o.get("at") == "hull"), request.default
            )
        return request.default

    _, log = play(scenario(*near), fire_on_hull, until_turn=3)
    heavy = [e for e in log if e.kind == GUN_FIRED and e.data["ship"] == "Red One" and e.data["gun"] == "heavy 1"]
    assert heavy[0].turn == 1
    assert heavy[0].data["ready_on"] == 3
    assert all(e.turn != 2 for e in heavy)


def _orders(crew: Mapping[str, str]) -> Chooser:
    def choose(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == CREW_ORDERS and request.ships[0] in crew:
            wanted = crew[request.ships[0]]
            return next(
                (o for o in request.options or () if isinstance(o, dict) and o["order"] == wanted), request.default
            )
        return request.default

    return choose


@pytest.mark.rule("BR-GRAP-01")
@pytest.mark.rule("BR-GRAP-05")
def test_boarders_cross_to_a_ship_alongside_and_take_her_when_her_deck_is_beaten() -> None:
    """A full crew alongside a ship with two men on deck: the boarders cross, win the fight and she strikes."""
    alongside = (
        ship("Red One", "red", 10, 10),
        ship("Blue One", "blue", 11, 10, facing=4, crew={"men": 2, "helm": 1}),
    )
    state, log = play(scenario(*alongside), _orders({"Red One": "board"}), until_turn=3)
    taken = [e for e in log if e.kind == SHIP_TAKEN]
    assert taken
    assert state.board.ship("Blue One").side == "red"
    assert state.over
    assert state.winner == "red"
    assert BARSOOM.outcome(state, state).ship("Blue One").fate == "captured"


@pytest.mark.rule("BR-REP-03")
@pytest.mark.rule("BR-REP-07")
def test_repairers_roll_each_turn_and_mend_a_fire_first() -> None:
    _, log = play(scenario(*APART), _orders({"Red One": "repair"}), until_turn=5, change=_burning)
    repairs = [e for e in log if e.kind == REPAIRS and e.data["ship"] == "Red One"]
    assert [e.turn for e in repairs] == [1, 2, 3, 4]  # her repair crew rolls every turn
    mended = [m for e in repairs for m in e.data["mended"]]
    assert mended[0] == "fire"  # the fire first, though the older harm came later in this seed's luck
    burning = [e.turn for e in log if e.kind == DAMAGED and e.data["reason"] == "fire aboard"]
    assert max(burning) <= next(e.turn for e in repairs if e.data["mended"])


@pytest.mark.rule("BR-DMG-12")
def test_a_side_whose_only_ship_is_a_wreck_has_lost() -> None:
    def wrecked(battle: Battle) -> Battle:
        entry = battle.of("Blue One")
        return battle.with_aboard("Blue One", condition=evolve(entry.condition, wrecked=True))

    state, _ = play(scenario(*APART), change=wrecked)
    assert state.over
    assert state.turn == 1
    assert state.winner == "red"


def test_the_turn_limit_ends_the_battle_and_the_stronger_side_holds_the_sky() -> None:
    state, _ = play(scenario(*APART, turns=2))
    assert state.over
    assert state.turn == 2
    assert state.winner is None  # one ship a side still in the fight
    assert "turns are played" in state.result


@pytest.mark.rule("BR-MOV-01")
@pytest.mark.rule("BR-CARD-10")
def test_a_plot_is_refused_naming_its_clause() -> None:
    def no_reverse(battle: Battle) -> Battle:
        entry = battle.of("Red One")
        return battle.with_aboard("Red One", condition=evolve(entry.condition, harms=(Harm(3, ("Reverse",)),)))

    state, _ = play(scenario(*APART), until_turn=1, change=no_reverse)
    request = next(r for r in state.pending() if r.ships == ("Red One",))

    def judged(choice: JSON) -> str | None:
        refused = resolver.check_decision(BARSOOM, state, side=request.side, request_id=request.id, choice=choice)
        return refused.clause if isinstance(refused, Rejection) else None

    assert judged({"cards": ["Ahead", "Stop"], "ram": False}) == "BR-MOV-01"
    assert judged({"cards": ["Stop", "Stop", "Reverse"], "ram": False}) == "BR-CARD-10"
    assert judged({"cards": ["Ahead", "Stop", "Ahead"], "ram": "yes"}) == "BR-RAM-01"
    assert judged({"cards": ["Ahead", "Turn left", "Ahead"], "ram": True}) is None


@pytest.mark.rule("BR-RAM-02")
@pytest.mark.rule("BR-RAM-04")
def test_a_declared_ram_rolls_the_rammers_and_the_rammed_ships_damage_at_once() -> None:
    close = (ship("Red One", "red", 10, 10, facing=0), ship("Blue One", "blue", 10, 8, facing=3))

    def ram(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == PLOT_CARDS and request.ships[0] == "Red One":
            return {"cards": ["Ahead", "Stop", "Stop"], "ram": True}
        return request.default

    _, log = play(scenario(*close), ram, until_turn=2)
    turn_one = kinds_in_turn(log, 1)
    revealed = next(e for e in turn_one if e.kind == CARD_REVEALED and e.data["ship"] == "Red One")
    assert revealed.data["ram"] is True
    n = next(n for n, e in enumerate(turn_one) if e.kind == SHIP_MOVED and e.data["outcome"] == "rammed")
    reasons = [(e.data["ship"], e.data["reason"], e.data["modifier"]) for e in turn_one[n:] if e.kind == DAMAGED]
    assert ("Red One", "ramming", -2) in reasons
    assert ("Blue One", "rammed", 2) in reasons


def _context(sc: Mapping[str, Any], change: Callable[[Battle], Battle] | None = None) -> resolver.Context[Battle]:
    state, _ = play(sc, until_turn=1)
    if change is not None:
        state = state.evolve(board=change(state.board))
    return resolver.Context(BARSOOM, state, SEED)


@pytest.mark.rule("BR-DED-03")
@pytest.mark.rule("BR-DED-04")
def test_a_damage_effect_die_makes_its_move_at_once_as_a_forced_move() -> None:
    ctx = _context(scenario(*APART))
    ded(ctx, "Red One")
    rolled, moved = ctx.events[-2:]
    assert rolled.kind == DED_ROLLED
    assert moved.kind == SHIP_MOVED
    assert moved.data["card"] == rolled.data["move"]
    assert moved.data["forced"] is True
    assert moved.data["ram"] is False


@pytest.mark.rule("BR-DMG-12")
def test_a_wreck_falls_to_the_ground_at_once_and_her_grapples_part() -> None:
    def grappled(battle: Battle) -> Battle:
        red = battle.ship("Red One")
        return battle.with_board(battle.board.with_ships([evolve(red, grappled=("Blue One",))]))

    ctx = _context(scenario(ship("Red One", "red", 10, 10), ship("Blue One", "blue", 11, 10, facing=4)), grappled)
    fall(ctx, "Red One")
    wreck = ctx.board.ship("Red One")
    assert (wreck.level, wreck.crashed, wreck.grappled) == (0, True, ())
    assert BARSOOM.check_invariants(ctx.state) == []


NEAR = (ship("Red One", "red", 10, 10), ship("Blue One", "blue", 14, 10, facing=4))


def _red_fire_on_turn_one(pick: Callable[[list[JSON]], JSON], seen: dict[str, Any]) -> Chooser:
    def choose(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == FIRE_ORDERS and request.ships[0] == "Red One" and state.turn == 1:
            seen["options"], seen["state"] = list(request.options or ()), state
            return pick(seen["options"])
        return request.default

    return choose


@pytest.mark.rule("BR-WPN-17")
def test_the_guns_her_first_target_leaves_idle_fire_on_a_second() -> None:
    """A cruiser's light guns cannot harm a cruiser's hull: ordered on her hull and then her crew, the heavy and
    medium guns fire on the hull and the six Gardners on the crew, in that order (docs/barsoom.md section 9)."""
    split = {"target": "Blue One", "at": "hull", "then": {"target": "Blue One", "at": "crew"}}
    seen: dict[str, Any] = {}
    _, log = play(scenario(*NEAR), _red_fire_on_turn_one(lambda _: split, seen), until_turn=2)
    fired = [(e.data["gun"], e.data["at"]) for e in log if e.kind == GUN_FIRED and e.data["ship"] == "Red One"]
    heavy_and_medium = [(f"heavy {n}", "hull") for n in (1, 2)] + [(f"medium {n}", "hull") for n in (1, 2, 3, 4)]
    assert fired[:12] == heavy_and_medium + [(f"light {n}", "crew") for n in range(1, 7)]
    # Offered only where it puts an idle gun to work: on her crew first, every gun that bears already fires.
    assert seen["options"] == [
        {"target": None},
        {"target": "Blue One", "at": "hull"},
        {"target": "Blue One", "at": "crew"},
        split,
    ]
    assert fire_label(split) == "Fire on Blue One; the guns left on Blue One's crew"


def test_the_ai_sets_the_guns_a_hull_leaves_idle_on_her_crew() -> None:
    seen: dict[str, Any] = {}
    play(scenario(*NEAR), _red_fire_on_turn_one(lambda options: options[0], seen), until_turn=2)
    battle, turn = seen["state"].board, seen["state"].turn
    hull, _, split = seen["options"][1:]
    assert fire_worth(battle, "Red One", split, turn) > fire_worth(battle, "Red One", hull, turn) > 0
    request = next(r for r in seen["state"].pending() if r.kind == FIRE_ORDERS and r.ships == ("Red One",))
    assert Captain(SEED, "red").choose(BARSOOM, seen["state"], request) == split


def test_a_single_fire_order_fires_as_it_always_did() -> None:
    """A stored order with no second target fires every gun that bears on it and leaves the rest idle."""
    seen: dict[str, Any] = {}
    hull = {"target": "Blue One", "at": "hull"}
    _, log = play(scenario(*NEAR), _red_fire_on_turn_one(lambda _: hull, seen), until_turn=2)
    fired = [e.data["gun"] for e in log if e.kind == GUN_FIRED and e.data["ship"] == "Red One" and e.turn == 1]
    assert fired == ["heavy 1", "heavy 2", "medium 1", "medium 2", "medium 3", "medium 4"]


def test_the_second_target_still_fires_when_the_first_has_left_the_map() -> None:
    two = (*NEAR, ship("Blue Two", "blue", 14, 12, facing=4))
    seen: dict[str, Any] = {}
    play(scenario(*two), _red_fire_on_turn_one(lambda options: options[0], seen), until_turn=2)
    battle, turn = seen["state"].board, seen["state"].turn
    split = {"target": "Blue One", "at": "hull", "then": {"target": "Blue Two", "at": "crew"}}
    assert split in seen["options"]
    firing = orders.guns_for(battle, "Red One", split, turn)
    assert {(mark, aim) for _, mark, aim in firing} == {("Blue One", "hull"), ("Blue Two", "crew")}
    gone = replace(battle, board=battle.board.with_ships([replace(battle.ship("Blue One"), left_map=True)]))
    left = orders.guns_for(gone, "Red One", split, turn)
    assert [(gun.key, mark, aim) for gun, mark, aim in left] == [
        (gun.key, "Blue Two", "crew") for gun in battle.of("Red One").guns_left()
    ]
