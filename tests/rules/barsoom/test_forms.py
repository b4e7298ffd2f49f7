"""The forms the stand-in first left out (docs/barsoom.md section 9, "Decisions"): a Turn card played as no turn
(BR-MOV-05), a side's own order of reveal (BR-SEQ-03), jumps ordered across to an enemy (BR-GRAP-03/04), one measure
of distance between ships and one throwing range, and the owner's own plotted cards on her record sheet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from battles.engine import answers, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.frozen import evolve
from battles.engine.state import BattleState, redact
from battles.rules.barsoom import ai, boarding, orders, weapons
from battles.rules.barsoom.answers import crew_label
from battles.rules.barsoom.battle import Battle, Plot
from battles.rules.barsoom.damage import Harm
from battles.rules.barsoom.kinds import (
    BOARDERS_JUMPED,
    CARD_REVEALED,
    CREW_ORDERS,
    JUMP_ACROSS,
    PLOT_CARDS,
    SHIP_MOVED,
)
from battles.rules.barsoom.presentation import TELLERS, record_sheet
from battles.rules.barsoom.ruleset import BARSOOM
from tests.rules.barsoom.test_turn import APART, SEED, Chooser, play, scenario, ship

TWO_A_SIDE = (*APART, ship("Red Two", "red", 3, 6), ship("Blue Two", "blue", 25, 13, facing=4))


def plotting(plots: Mapping[str, JSON]) -> Chooser:
    """Answer each named ship's plot with the given answer, every other decision with its default."""

    def choose(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == PLOT_CARDS and request.ships[0] in plots:
            return plots[request.ships[0]]
        return request.default

    return choose


def judged(state: BattleState[Battle], name: str, choice: JSON) -> str | None:
    request = next(r for r in state.pending() if r.ships == (name,))
    refused = resolver.check_decision(BARSOOM, state, side=request.side, request_id=request.id, choice=choice)
    return refused.clause if isinstance(refused, Rejection) else None


def plot_schema(state: BattleState[Battle], name: str) -> answers.AnswerSchema:
    request = next(r for r in state.pending() if r.ships == (name,))
    return BARSOOM.answer_schema(redact(state, request.side), request)


# --- a Turn card played as no turn (BR-MOV-05) ----------------------------------------------------------------------


@pytest.mark.rule("BR-MOV-05")
def test_a_turn_card_held_is_revealed_as_the_card_and_turns_her_not_at_all() -> None:
    held = {"Red One": {"cards": ["Ahead", "Turn right (held)", "Ahead"], "ram": False}}
    state, log = play(scenario(*APART), plotting(held), until_turn=2)
    revealed = [e.data for e in log if e.kind == CARD_REVEALED and e.data["ship"] == "Red One"]
    assert [r["card"] for r in revealed] == ["Ahead", "Turn right", "Ahead"]
    assert [r.get("held", False) for r in revealed] == [False, True, False]
    moved = [e.data for e in log if e.kind == SHIP_MOVED and e.data["ship"] == "Red One" and e.turn == 1]
    assert moved[1]["outcome"] == "held her course"
    assert state.board.ship("Red One").facing == 1  # as she began
    told = TELLERS[CARD_REVEALED](revealed[1], None)  # type: ignore[arg-type]
    assert told == "Red One reveals card 2: Turn right, held: no turn."
    # and a plain Turn card still turns her: every plot stored before reads as it did
    _, turned = play(scenario(*APART), plotting({"Red One": {"cards": ["Ahead", "Turn right", "Ahead"]}}), until_turn=2)
    assert not any(e.data.get("held") for e in turned if e.kind == CARD_REVEALED)


@pytest.mark.rule("BR-MOV-05")
@pytest.mark.rule("BR-MOV-10")
@pytest.mark.rule("BR-CARD-09")
def test_a_turn_card_held_is_still_the_turn_card_played_for_every_restriction_and_the_deck() -> None:
    state, _ = play(scenario(*APART), until_turn=1)
    assert judged(state, "Red One", {"cards": ["Ahead", "Turn left (held)", "Ahead"], "ram": False}) is None
    # a Turn, held or not, only straight after an Ahead or Reverse
    assert judged(state, "Red One", {"cards": ["Stop", "Turn left (held)", "Ahead"], "ram": False}) == "BR-MOV-10"
    assert judged(state, "Red One", {"cards": ["Ahead", "Turn right", "Turn right (held)"], "ram": False}) == (
        "BR-MOV-10"  # one Turn after each Ahead for a cruiser, held or not
    )
    assert judged(state, "Red One", {"cards": ["Ahead (held)", "Stop", "Stop"], "ram": False}) == "BR-MOV-01"
    # a small craft with one Turn right left in her deck: a held one is still the card she has not got
    scout = ship("Red One", "red", 3, 3, fleet="scout flier")

    def one_turn_right(battle: Battle) -> Battle:
        entry = battle.of("Red One")
        return battle.with_aboard("Red One", condition=evolve(entry.condition, harms=(Harm(5, ("Turn right",)),)))

    small, _ = play(scenario(scout, APART[1]), until_turn=1, change=one_turn_right)
    assert judged(small, "Red One", {"cards": ["Ahead", "Turn right", "Turn left (held)"], "ram": False}) is None
    assert judged(small, "Red One", {"cards": ["Ahead", "Turn right", "Turn right (held)"], "ram": False}) == (
        "BR-CARD-10"
    )


@pytest.mark.rule("BR-MOV-05")
def test_the_plot_form_offers_each_turn_card_held_and_spells_it_back() -> None:
    state, _ = play(scenario(*APART), until_turn=1)
    schema = plot_schema(state, "Red One")
    card = schema.to_json()["root"]["fields"][0]["items"][0]
    values = [option["value"] for option in card["options"]]
    assert values.index("Turn right (held)") == values.index("Turn right") + 1
    assert "Turn left (held)" in values
    answer: JSON = {"cards": ["Ahead", "Turn left (held)", "Ahead"], "ram": False}
    assert answers.assemble(schema, answers.disassemble(schema, answer)) == answer


@pytest.mark.rule("BR-MOV-05")
def test_the_ai_holds_a_turn_card_where_turning_would_spoil_her_standing() -> None:
    state, _ = play(scenario(*APART), until_turn=1)
    battle = state.board
    aims = ai.Aims(battle, "Red One")
    tried: dict[tuple[str, ...], Any] = {(): (battle.board, 0)}
    places: dict[Any, int] = {}

    def score(cards: tuple[str, ...]) -> int:
        board, penalty = ai._after(tried, aims, cards)
        return ai._standing(board, aims, battle, penalty, places)

    held_some = False
    for cards in orders.legal_plots(battle, "Red One"):
        kept = ai._held_where_it_pays(tried, aims, battle, places, (score(cards), cards))
        held_some |= kept != cards
        assert score(kept) >= score(cards)
        for slot in range(len(cards)):
            assert score(orders.held(kept, slot)) <= score(kept)
    assert held_some  # somewhere a held Turn card does better, so the test can fail


# --- a side's own order of reveal (BR-SEQ-03) ------------------------------------------------------------------------


def _reveals(log: list[Any], side_ships: tuple[str, ...]) -> list[str]:
    return [e.data["ship"] for e in log if e.turn == 1 and e.kind == CARD_REVEALED and e.data["ship"] in side_ships]


@pytest.mark.rule("BR-SEQ-03")
def test_a_side_brings_its_ships_in_the_order_it_chooses_else_the_scenarios() -> None:
    reds = ("Red One", "Red Two")
    _, as_listed = play(scenario(*TWO_A_SIDE), until_turn=2)
    assert _reveals(as_listed, reds)[:2] == ["Red One", "Red Two"]
    chosen = {"Red Two": {"cards": ["Stop", "Stop", "Stop"], "ram": False, "place": 1}}
    _, log = play(scenario(*TWO_A_SIDE), plotting(chosen), until_turn=2)
    assert _reveals(log, reds) == ["Red Two", "Red One"] * 3
    # the sides still alternate ship by ship, card by card
    order = next(e for e in log if e.kind == "initiative").data["order"]
    sides = [e.data["ship"].split()[0].lower() for e in log if e.turn == 1 and e.kind == CARD_REVEALED]
    assert sides == [order[0], order[1]] * 6
    # both named first: the scenario's order settles it
    both = {name: {"cards": ["Stop", "Stop", "Stop"], "ram": False, "place": 1} for name in reds}
    _, tied = play(scenario(*TWO_A_SIDE), plotting(both), until_turn=2)
    assert _reveals(tied, reds)[:2] == ["Red One", "Red Two"]


@pytest.mark.rule("BR-SEQ-03")
def test_a_place_outside_her_sides_ships_is_refused_under_br_seq_03() -> None:
    state, _ = play(scenario(*TWO_A_SIDE), until_turn=1)
    stops = ["Stop", "Stop", "Stop"]
    assert judged(state, "Red Two", {"cards": stops, "ram": False, "place": 2}) is None
    assert judged(state, "Red Two", {"cards": stops, "ram": False, "place": 3}) == "BR-SEQ-03"
    assert judged(state, "Red Two", {"cards": stops, "ram": False, "place": 0}) == "BR-SEQ-03"
    assert judged(state, "Red Two", {"cards": stops, "ram": False, "place": True}) == "BR-SEQ-03"
    assert judged(state, "Red Two", {"cards": stops, "ram": False, "place": "1"}) == "BR-SEQ-03"
    lone, _ = play(scenario(*APART), until_turn=1)
    assert judged(lone, "Red One", {"cards": stops, "ram": False, "place": 2}) == "BR-SEQ-03"


@pytest.mark.rule("BR-SEQ-03")
def test_the_place_field_is_offered_only_to_a_side_of_several_ships_and_spells_back() -> None:
    state, _ = play(scenario(*TWO_A_SIDE), until_turn=1)
    schema = plot_schema(state, "Red Two")
    fields = {f["key"]: f for f in schema.to_json()["root"]["fields"]}
    assert [o["value"] for o in fields["place"]["options"]] == [None, 1, 2]
    assert fields["place"]["default"] is None
    for answer in ({"cards": ["Stop"] * 3, "ram": False}, {"cards": ["Stop"] * 3, "ram": False, "place": 1}):
        assert answers.assemble(schema, answers.disassemble(schema, answer)) == answer
    lone, _ = play(scenario(*APART), until_turn=1)
    assert "place" not in {f["key"] for f in plot_schema(lone, "Red One").to_json()["root"]["fields"]}


@pytest.mark.rule("BR-SEQ-03")
@pytest.mark.rule("BR-MOV-02")
def test_the_place_stays_with_the_plot_and_never_shows_to_the_other_side() -> None:
    chosen = {"Red Two": {"cards": ["Ahead", "Stop", "Stop"], "ram": False, "place": 1}}
    state, _ = play(scenario(*TWO_A_SIDE), plotting(chosen), until_turn=1)
    while any(r.side == "red" for r in state.pending()):
        request = next(r for r in state.pending() if r.side == "red")
        choice = plotting(chosen)(state, request)
        accepted = resolver.submit(BARSOOM, state, side="red", request_id=request.id, choice=choice, seed=SEED)
        assert isinstance(accepted, resolver.Accepted)
        state = accepted.state
    assert state.board.plots["Red Two"].place == 1
    assert BARSOOM.board_view(state, "red")["plots"]["Red Two"]["place"] == 1
    assert BARSOOM.board_view(state, "blue")["plots"]["Red Two"] == {"cards": [], "hidden": 3}
    # a plot with no place is stored as it always was
    assert Plot(("Stop",)).to_json() == {"cards": ["Stop"], "ram": False, "ignored": None, "forced": False}
    assert Plot.from_json(Plot(("Stop",), place=2).to_json()).place == 2


# --- jumps (BR-GRAP-03/04) -------------------------------------------------------------------------------------------

# Two hexes apart at one level: too far to cross freely, near enough for a die of inches (4 inches: a 4 to 6).
GAP = (ship("Red One", "red", 10, 10), ship("Blue One", "blue", 12, 10, facing=4, crew={"men": 2, "helm": 1}))


def _crew(order: str) -> Chooser:
    def choose(state: BattleState[Battle], request: DecisionRequest) -> JSON:
        if request.kind == CREW_ORDERS and request.ships[0] == "Red One":
            return next(o for o in request.options or () if isinstance(o, dict) and o["order"] == order)
        return request.default

    return choose


@pytest.mark.rule("BR-GRAP-03")
def test_a_jump_is_offered_where_no_way_across_reaches_but_a_die_could() -> None:
    state, _ = play(scenario(*GAP), until_turn=1)
    battle = state.board
    assert orders.crossing(battle, "Red One", "Blue One") == boarding.JUMP
    offered = orders.crew_orders(battle, "Red One")
    assert {"order": JUMP_ACROSS, "ship": "Blue One"} in offered
    assert not any(o["order"] == "board" for o in offered)
    alongside = play(scenario(ship("Red One", "red", 10, 10), ship("Blue One", "blue", 11, 10)), until_turn=1)[0]
    assert not any(o["order"] == JUMP_ACROSS for o in orders.crew_orders(alongside.board, "Red One"))
    far = play(scenario(ship("Red One", "red", 10, 10), ship("Blue One", "blue", 14, 10)), until_turn=1)[0]
    assert not any(o["order"] == JUMP_ACROSS for o in orders.crew_orders(far.board, "Red One"))
    assert crew_label({"order": JUMP_ACROSS, "ship": "Blue One"}) == "Jump to Blue One"


@pytest.mark.rule("BR-GRAP-03")
@pytest.mark.rule("BR-GRAP-04")
def test_jumpers_roll_a_die_of_inches_each_those_short_fall_and_those_across_fight() -> None:
    _, log = play(scenario(*GAP), _crew(JUMP_ACROSS), until_turn=2)
    jumped = next(e for e in log if e.kind == BOARDERS_JUMPED)
    rolled = next(e for e in log if e.kind == "roll" and e.data["purpose"] == "Jumpers: Red One")
    faces = rolled.data["dice"]
    assert jumped.data["men"] == len(faces) == 19
    assert jumped.data["across"] == sum(1 for face in faces if face >= 4)
    assert jumped.data["fell"] == jumped.data["lost"] == sum(1 for face in faces if face < 4)
    assert jumped.data["landed_hard"] == 0
    after = next(e for e in log if e.seq > jumped.seq and e.kind == "boarding fight")
    assert after.data["boarders"] == jumped.data["across"]
    told = TELLERS[BOARDERS_JUMPED](jumped.data, None)  # type: ignore[arg-type]
    assert told.startswith("19 men of Red One's crew jump for Blue One: ")


@pytest.mark.rule("BR-GRAP-04")
def test_a_jump_down_onto_a_ship_directly_below_lands_hard_rather_than_falls() -> None:
    stacked = (ship("Red One", "red", 10, 10, level=5), ship("Blue One", "blue", 10, 10, level=2, facing=4))
    _, log = play(scenario(*stacked), _crew(JUMP_ACROSS), until_turn=2)
    jumped = next(e for e in log if e.kind == BOARDERS_JUMPED)
    assert jumped.data["fell"] == 0
    faces = next(e for e in log if e.kind == "roll" and e.data["purpose"] == "Jumpers: Red One").data["dice"]
    assert jumped.data["landed_hard"] == sum(1 for face in faces if face < 6)  # a 6-inch drop
    wounds = next(e for e in log if e.kind == "roll" and e.data["purpose"] == "Landing hard: Red One").data["dice"]
    assert jumped.data["lost"] == sum(1 for face in wounds if face >= 5)


@pytest.mark.rule("BR-GRAP-03")
def test_the_ai_jumps_when_the_men_a_jump_should_carry_outnumber_the_deck_by_half_again() -> None:
    state, _ = play(scenario(*GAP), until_turn=1)
    battle = state.board
    assert ai.jumpers_across(battle, "Red One", "Blue One") == 19 * 3 / 6
    options: list[JSON] = list(orders.crew_orders(battle, "Red One"))
    assert ai.crew_order(battle, "Red One", options, {"order": "stand by"}) == {
        "order": JUMP_ACROSS,
        "ship": "Blue One",
    }
    crowded = play(scenario(GAP[0], ship("Blue One", "blue", 12, 10, facing=4)), until_turn=1)[0].board
    options = list(orders.crew_orders(crowded, "Red One"))
    assert ai.crew_order(crowded, "Red One", options, {"order": "stand by"})["order"] != JUMP_ACROSS  # type: ignore[index]


# --- one measure of distance between ships, one throwing range -------------------------------------------------------


@pytest.mark.rule("BR-GRAP-03")
@pytest.mark.rule("BR-GRAP-05")
@pytest.mark.rule("BR-WPN-04")
def test_the_gap_between_ships_is_the_range_a_gun_would_measure() -> None:
    for hexes in range(12):
        for rise in range(-6, 7):
            assert boarding.apart(hexes, rise) == weapons.range_between(hexes, rise), (hexes, rise)
    assert boarding.apart(4, 2) == 4  # 4.47 hexes; "the longer and half the shorter" made it 5
    assert boarding.apart(2, 2) == 3  # 2.83: within a grapnel's throw
    assert boarding.within_throw(2, 2)
    assert not boarding.within_throw(4, 2)


# --- the owner's own plotted cards on her record sheet ---------------------------------------------------------------


def _plot_items(view: JSON, name: str) -> list[tuple[str, str]]:
    sheet = record_sheet(view, name)
    assert sheet is not None
    section = next(s for s in sheet.sections if s.key == "plot")
    return [(item.name, item.summary) for block in section.blocks for item in block.items]


@pytest.mark.rule("BR-MOV-02")
def test_her_record_sheet_shows_the_owner_her_plotted_cards_and_the_other_side_none() -> None:
    chosen = {"Red One": {"cards": ["Ahead", "Turn right (held)", "Ahead"], "ram": False}}
    state, _ = play(scenario(*APART), until_turn=1)
    request = next(r for r in state.pending() if r.side == "red")
    accepted = resolver.submit(BARSOOM, state, side="red", request_id=request.id, choice=chosen["Red One"], seed=SEED)
    assert isinstance(accepted, resolver.Accepted)
    state = accepted.state  # Red has plotted, Blue has not
    mine = _plot_items(BARSOOM.board_view(state, "red"), "Red One")
    assert mine == [("Ahead", "plotted"), ("Turn right, held", "plotted"), ("Ahead", "plotted")]
    assert _plot_items(BARSOOM.board_view(state, "blue"), "Red One") == []
    blue_sheet = record_sheet(BARSOOM.board_view(state, "blue"), "Red One")
    assert blue_sheet is not None
    assert "Ahead" not in repr(next(s for s in blue_sheet.sections if s.key == "plot"))
