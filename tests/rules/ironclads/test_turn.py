"""The Game Turn in the app (docs/ironclads.md "The turn, in the app"): the scenario's set-up, the sea state rolled
once before play, the Initiative, the Movement Phase one ship at a time, the End Phase and the end of the battle;
the move order as answered and judged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from battles.engine import dice, hexgrid, policies, resolver
from battles.engine.decisions import Rejection
from battles.engine.state import BattleState
from battles.rules.ironclads import orders, outcome, setup
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import (
    DAMAGE_ALLOCATION,
    DAMAGE_RESOLVED,
    FIRE_ORDERS,
    FORMATIONS_CHECKED,
    HITS_NOTED,
    INITIATIVE_WON,
    MOVE_ORDER,
    ORDER_OF_MOVING,
    SALVO_FIRED,
    SEA_STATE,
    SHIP_MOVED,
    SHIP_SUNK,
)
from battles.rules.ironclads.phases.turn import at_the_limit
from battles.rules.ironclads.ruleset import IRONCLADS

CARD = {"stats": {"port": 3, "starboard": 3, "armour": 2, "propulsion": 8, "hull": 4}}


def ship(name: str, side: str, col: int, row: int, facing: int = 0, **card: Any) -> dict[str, Any]:
    data = copy.deepcopy(CARD)
    data.update(card)
    return {"name": name, "side": side, "hex": [col, row], "facing": facing, "speed": 4, "card": data}


def scenario(*ships: dict[str, Any], turns: int = 3, **more: Any) -> dict[str, Any]:
    return {
        "slug": "test",
        "title": "A test",
        "turns": turns,
        "cols": 20,
        "rows": 20,
        "sides": [{"key": "north", "name": "The North"}, {"key": "south", "name": "The South"}],
        "ships": list(ships),
        **more,
    }


TWO_AGAINST_ONE = scenario(
    ship("Alpha", "north", 5, 5, 2),
    ship("Bravo", "north", 5, 8, 2),
    ship("Charlie", "south", 14, 6, 5),
)


def start(scene: dict[str, Any], seed: bytes, **options: Any) -> BattleState[Battle]:
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed), options=options)
    return resolver.resolve(IRONCLADS, initial, seed).state


def play(scene: dict[str, Any], seed: bytes, **options: Any) -> Any:
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed), options=options)
    chosen = {side: policies.RandomPolicy(seed + side.encode()) for side in initial.sides}
    return policies.auto_play(IRONCLADS, initial, seed=seed, policies=chosen, max_decisions=2000)


def kinds(log: Any, kind: str) -> list[Any]:
    return [e for e in log if e.kind == kind]


@pytest.mark.rule("IC-SEQ-04")
@pytest.mark.rule("IC-SEQ-03")
def test_the_scenario_places_the_fleets_each_ship_with_her_data_card() -> None:
    _, battle = setup.battle(TWO_AGAINST_ONE)
    alpha = battle.ship("Alpha")
    assert (hexgrid.to_odd_q(alpha.hex), alpha.facing, alpha.speed) == ((5, 5), 2, 4)
    assert alpha.card.left("port") == 3
    assert alpha.card.left("hull") == 4
    assert battle.formations is None
    crowded = scenario(ship("Alpha", "north", 5, 5), ship("Bravo", "south", 5, 5))
    with pytest.raises(ValueError, match="fills her hex"):
        setup.battle(crowded)
    with pytest.raises(ValueError, match="no side"):
        setup.battle(scenario(ship("Alpha", "east", 5, 5), ship("Bravo", "south", 9, 9)))
    too_fast = scenario(ship("Alpha", "north", 5, 5), ship("Bravo", "south", 9, 9))
    too_fast["ships"][0]["speed"] = 9  # above her Propulsion
    with pytest.raises(ValueError, match="not hers to start at"):
        setup.battle(too_fast)


@pytest.mark.rule("IC-SEQ-05")
@pytest.mark.rule("IC-SEA-01")
@pytest.mark.rule("IC-SEA-02")
@pytest.mark.rule("IC-SEA-03")
def test_the_sea_is_rolled_once_before_play_rough_only_on_a_double_one() -> None:
    seen = {True: 0, False: 0}
    for n in range(200):
        state = start(TWO_AGAINST_ONE, f"sea-{n}".encode())
        events = _log(TWO_AGAINST_ONE, f"sea-{n}".encode())
        first_turn = next(i for i, e in enumerate(events) if e.kind == "turn")
        sea = [e for e in events[:first_turn] if e.kind == SEA_STATE]
        rolls = [e for e in events[:first_turn] if e.kind == "roll"]
        assert len(sea) == 1
        assert len(rolls) == 2
        faces = [r.data["dice"][0] for r in rolls]
        assert sea[0].data["rough"] == (faces == [1, 1])
        assert state.board.board.rough == sea[0].data["rough"]
        seen[sea[0].data["rough"]] += 1
        if seen[True] and n > 40:
            break
    assert seen[True]
    assert seen[False]
    rough = next(n for n in range(200) if start(TWO_AGAINST_ONE, f"sea-{n}".encode()).board.board.rough)
    played = play(TWO_AGAINST_ONE, f"sea-{rough}".encode())
    assert len(kinds(played.events, SEA_STATE)) == 1  # fixed for the game: never rolled again
    assert played.state.board.board.rough


def _log(scene: dict[str, Any], seed: bytes) -> list[Any]:
    initial = resolver.new_battle(IRONCLADS, scene, seed_commitment=dice.commitment(seed))
    return resolver.resolve(IRONCLADS, initial, seed).events


@pytest.mark.rule("IC-INIT-01")
@pytest.mark.rule("IC-INIT-02")
def test_the_lowest_die_has_the_initiative_and_a_tie_is_rolled_again() -> None:
    tied = 0
    for n in range(60):
        for event in kinds(_log(TWO_AGAINST_ONE, f"init-{n}".encode()), INITIATIVE_WON):
            *ties, last = event.data["rounds"]
            low = min(last.values())
            assert [s for s, face in last.items() if face == low] == [event.data["side"]]
            for round_ in ties:
                lowest = min(round_.values())
                assert sum(1 for face in round_.values() if face == lowest) > 1
            tied += bool(ties)
    assert tied


@pytest.mark.rule("IC-SEQ-07")
def test_the_side_without_the_initiative_moves_first_then_alternately_and_the_rest_in_turn() -> None:
    for n in range(6):
        played = play(TWO_AGAINST_ONE, f"order-{n}".encode())
        moved: list[str] = []
        holder, checked = "", 0
        for event in played.events:
            if event.kind == INITIATIVE_WON:
                holder, moved = event.data["side"], []
            if event.kind == SHIP_MOVED:
                moved.append(event.data["side"])
                if len(moved) == 3:  # both Northern ships and the Southern one, all afloat
                    assert moved[0] != holder
                    assert moved[0] != moved[1]
                    checked += 1
        assert checked
    asked = [e for e in play(TWO_AGAINST_ONE, b"order-0").events if e.kind == "decision_requested"]
    choosing = [e.data["request"] for e in asked if e.data["request"]["kind"] == ORDER_OF_MOVING]
    assert choosing
    assert all(r["side"] == "north" and set(r["ships"]) == {"Alpha", "Bravo"} for r in choosing)


@pytest.mark.rule("IC-SEQ-06")
def test_each_game_turn_runs_its_four_phases_in_order() -> None:
    played = play(TWO_AGAINST_ONE, b"phases")
    by_turn: dict[int, list[str]] = {}
    for event in played.events:
        if event.kind == "phase":
            by_turn.setdefault(event.turn, []).append(event.phase)
    for turn, phases in by_turn.items():
        assert phases[:4] == ["initiative", "movement", "firing", "end"][: len(phases)], turn


def sinking(hull_lost: dict[str, int]) -> dict[str, Any]:
    return scenario(
        ship("Alpha", "north", 3, 3, lost={"hull": hull_lost.get("Alpha", 0)}),
        ship("Charlie", "south", 15, 15, lost={"hull": hull_lost.get("Charlie", 0)}),
    )


@pytest.mark.rule("IC-END-01")
@pytest.mark.rule("IC-END-02")
@pytest.mark.rule("IC-SEQ-09")
def test_a_ship_with_no_hull_left_sinks_in_the_end_phase_and_her_side_with_no_ship_left_loses() -> None:
    played = play(sinking({"Charlie": 4}), b"sink")
    sunk = kinds(played.events, SHIP_SUNK)
    assert [e.data["ship"] for e in sunk] == ["Charlie"]
    assert sunk[0].phase == "end"
    assert sunk[0].turn == 1
    assert played.state.winner == "north"
    assert played.state.board.ship("Charlie").sunk
    made = outcome.outcome(played.state, played.state)
    assert {s.name: s.fate for s in made.ships} == {"Alpha": "fighting", "Charlie": "crashed"}


@pytest.mark.rule("IC-END-03")
def test_both_sides_gone_at_once_is_a_loss_for_both() -> None:
    played = play(sinking({"Alpha": 4, "Charlie": 4}), b"both")
    assert played.state.over
    assert played.state.winner is None
    assert "loss for both" in played.state.result


@pytest.mark.rule("IC-END-04")
@pytest.mark.rule("IC-END-05")
def test_the_battle_plays_on_turn_after_turn_to_the_scenarios_limit_which_decides_by_what_is_left() -> None:
    played = play(scenario(ship("Alpha", "north", 3, 3), ship("Charlie", "south", 16, 16), turns=2), b"on")
    assert played.state.turn == 2
    assert played.state.over
    _, battle = setup.battle(TWO_AGAINST_ONE)
    assert at_the_limit(battle, ("north", "south"))[0] == "north"  # two ships to one
    _, even = setup.battle(scenario(ship("Alpha", "north", 3, 3), ship("Charlie", "south", 9, 9, lost={"hull": 2})))
    assert at_the_limit(even, ("north", "south"))[0] == "north"  # more of her strength left
    _, level = setup.battle(scenario(ship("Alpha", "north", 3, 3), ship("Charlie", "south", 9, 9)))
    assert at_the_limit(level, ("north", "south"))[0] is None


@pytest.mark.rule("IC-MOV-07")
def test_a_ship_that_breaks_off_is_gone_and_has_escaped() -> None:
    scene = scenario(ship("Alpha", "north", 10, 0, 0), ship("Charlie", "south", 10, 15, 0), turns=4)
    state: Any = start(scene, b"edge")
    while not state.over:
        request = state.pending()[0]
        if request.kind == MOVE_ORDER and request.ships[0] == "Alpha":
            choice: Any = {"ship": "Alpha", "steps": ["ahead"]}
        else:
            choice = request.default
        state = resolver.submit(IRONCLADS, state, side=request.side, request_id=request.id, choice=choice, seed=b"edge")
        assert not isinstance(state, Rejection)
        state = state.state
    assert state.board.ship("Alpha").broken_off
    assert state.winner == "south"
    assert outcome.fate(state.board.ship("Alpha")) == "escaped"


@pytest.mark.rule("IC-SPD-08")
@pytest.mark.rule("IC-MOV-02")
def test_a_move_order_is_judged_naming_the_clause_it_breaks() -> None:
    scene = scenario(ship("Alpha", "north", 5, 5, 2), ship("Charlie", "south", 14, 14, 5))
    state = start(scene, b"judge")
    request = state.pending()[0]
    name, side = request.ships[0], request.side

    def refused(choice: Any) -> str | None:
        outcome_ = resolver.check_decision(IRONCLADS, state, side=side, request_id=request.id, choice=choice)
        return None if outcome_ is None else outcome_.clause

    other = "Charlie" if name == "Alpha" else "Alpha"
    assert refused({"ship": other, "steps": ["ahead"]}) == "IC-SEQ-07"
    assert refused({"ship": name, "steps": ["speed 5", "speed 4", "ahead"]}) == "IC-SPD-08"
    assert refused({"ship": name, "steps": ["full ahead"]}) == "IC-MOV-03"
    assert refused({"ship": name, "steps": ["ahead", "ahead", "ahead"]}) == "IC-MOV-02"  # 4 cm + 2: one hex
    assert refused({"ship": name, "steps": ["speed 7", "ahead", "ahead"]}) == "IC-SPD-05"
    assert refused({"ship": name, "steps": ["ahead"]}) is None  # as she goes: her speed 4 held
    assert refused({"ship": name, "steps": ["port", "speed 5", "ahead"]}) is None  # the speed at any step
    battle = state.board
    assert orders.as_she_goes(battle, name).speed == 4


@pytest.mark.rule("IC-SPD-08")
def test_the_move_form_offers_only_steps_that_can_still_end_in_a_legal_order() -> None:
    scene = scenario(ship("Alpha", "north", 5, 5, 2), ship("Charlie", "south", 14, 14, 5))
    state = start(scene, b"form")
    request = state.pending()[0]
    empty = IRONCLADS.answer_schema(state, request, partial=[])
    path = empty.root.fields[0]  # type: ignore[attr-defined]
    assert empty.layout == "move"
    assert path.key == "steps"
    accepted = set(path.progress.accepted)
    assert {"ahead", "port", "starboard", "speed 5", "speed 3", "speed 2"} <= accepted
    assert "astern" not in accepted
    assert "go astern" not in accepted
    assert path.progress.complete is False  # at 4 (+2 carried) she must make a hex
    built = IRONCLADS.answer_schema(state, request, partial=["port"])
    progress = built.root.fields[0].progress  # type: ignore[attr-defined]
    assert not progress.complete
    assert "ahead" in progress.accepted
    assert "port" not in progress.accepted
    done = IRONCLADS.answer_schema(state, request, partial=["port", "speed 5", "ahead"])
    progress = done.root.fields[0].progress  # type: ignore[attr-defined]
    assert progress.complete
    assert progress.budget == 1
    assert "ends in hex" in progress.outcome


@pytest.mark.rule("IC-FORM-01")
@pytest.mark.rule("IC-FORM-04")
def test_with_appendix_d_the_squadrons_are_checked_as_each_movement_phase_begins() -> None:
    scene = copy.deepcopy(TWO_AGAINST_ONE)
    scene["squadrons"] = [{"name": "First", "ships": ["Alpha", "Bravo"], "formation": "line abreast"}]
    without = play(scene, b"form")
    assert not kinds(without.events, FORMATIONS_CHECKED)
    assert without.state.board.formations is None
    played = play(scene, b"form", formations=True)
    checked = kinds(played.events, FORMATIONS_CHECKED)
    assert checked
    assert all(e.phase == "movement" for e in checked)
    assert len(checked) == played.state.turn


@pytest.mark.rule("IC-SEQ-08")
def test_both_sides_fire_and_note_hits_before_any_is_resolved_and_orders_stay_secret_until_all_are_given() -> None:
    played = play(IRONCLADS.example_scenarios()[0], b"fire-1")
    by_turn: dict[int, list[str]] = {}
    for event in played.events:
        if event.kind in (SALVO_FIRED, HITS_NOTED, DAMAGE_RESOLVED):
            by_turn.setdefault(event.turn, []).append(event.kind)
    assert any(SALVO_FIRED in kinds_ for kinds_ in by_turn.values())
    for kinds_ in by_turn.values():
        noted = kinds_.index(HITS_NOTED)
        assert all(k == SALVO_FIRED for k in kinds_[:noted])
        assert all(k == DAMAGE_RESOLVED for k in kinds_[noted + 1 :])
    asked = {e.data["request"]["id"]: e.data["request"] for e in played.events if e.kind == "decision_requested"}
    fire = [r for r in asked.values() if r["kind"] == FIRE_ORDERS]
    assert fire
    assert all(r["secret"] for r in fire)


@pytest.mark.rule("IC-DMG-02")
def test_a_damaged_ship_is_asked_one_allocation_judged_by_the_damage_rules() -> None:
    for n in range(30):
        seed = f"alloc-{n}".encode()
        state: Any = start(IRONCLADS.example_scenarios()[0], seed)
        while not state.over and state.pending()[0].kind != DAMAGE_ALLOCATION:
            request = state.pending()[0]
            choice = IRONCLADS.ai_policy(seed, request.side).choose(IRONCLADS, state, request)
            state = resolver.submit(
                IRONCLADS, state, side=request.side, request_id=request.id, choice=choice, seed=seed
            )
            state = state.state
        if state.over:
            continue
        request = state.pending()[0]
        name = request.ships[0]
        default = request.default
        assert (
            resolver.check_decision(IRONCLADS, state, side=request.side, request_id=request.id, choice=default) is None
        )
        short = {**default, "hits": default["hits"][:-1]} if default["hits"] else {**default, "criticals": []}
        refused = resolver.check_decision(IRONCLADS, state, side=request.side, request_id=request.id, choice=short)
        assert refused is not None
        assert refused.clause.startswith("IC-DMG-")
        assert name in state.board.noted
        return
    pytest.fail("no allocation asked in 30 battles")


@pytest.mark.rule("IC-SEQ-03")
def test_a_scenario_ship_may_be_a_fleet_list_entry_rated_by_appendix_a() -> None:
    gloire = {"name": "Gloire", "side": "north", "hex": [3, 3], "facing": 2, "speed": 0, "fleet": "GLOIRE"}
    _, battle = setup.battle(scenario(gloire, ship("Charlie", "south", 12, 12)))
    assert battle.ship("Gloire").card.name == "GLOIRE"
    sheet = IRONCLADS.record_sheet(battle.to_json(), "Gloire")
    assert sheet is not None
    with pytest.raises(ValueError, match="fleet list"):
        setup.battle(scenario({**gloire, "fleet": "NO SUCH SHIP"}, ship("Charlie", "south", 12, 12)))


@pytest.mark.rule("IC-DMG-05")
def test_the_default_allocation_stays_legal_where_the_biggest_critical_first_would_empty_a_smaller_ones_track() -> None:
    """Found by random play: three Cs of 2, 3 and 3 on a ship with a centre turret of 2 and one hull stat left. The
    3s placed first take both tracks, so the 2, crossed off first, would go on an empty track while she still has
    stats; the default then crosses them off in order."""
    from battles.rules.ironclads import cards, damage

    card = cards.card("Wreck", {"centre turret": 2, "hull": 1})
    noted = damage.Noted(criticals=(("port", "starboard"), ("port", "rear"), ("forward", "starboard")))
    noted = damage.Noted(criticals=noted.criticals, hits=(("port", "starboard"),))
    demands = (2, 3, 3)
    made = damage.default_allocation(card, noted, demands)
    assert damage.refusals(card, noted, demands, made) == ()
    assert made.criticals[0] in ("centre turret", "hull")  # the first C goes on a track she still has


def test_the_move_form_says_the_plan_in_words_and_counts_hexes() -> None:
    """The battle page's move builder (seen in the browser): the plan as a captain says it, the allowance in hexes
    (not movement points), and a plan short of it refused in plain words (IC-MOV-02)."""
    from battles.rules.ironclads.answers import plan_words
    from battles.rules.ironclads.movement import AHEAD, STARBOARD1
    from battles.rules.ironclads.speed import Setting

    said = plan_words(Setting(6), (STARBOARD1, AHEAD, AHEAD), as_she_goes=False)
    assert said == "speed 6 ahead: a hexside to starboard, then 2 hexes ahead"
    assert plan_words(Setting(5), (), as_she_goes=True) == "speed 5 ahead (as she goes)"
    state = start(scenario(ship("Alpha", "north", 5, 5, 2), ship("Charlie", "south", 14, 14, 5)), b"form")
    progress = IRONCLADS.answer_schema(state, state.pending()[0], partial=[]).root.fields[0].progress  # type: ignore[attr-defined]
    assert progress.unit == ("hex", "hexes")
    assert progress.words == "speed 4 ahead (as she goes)"
    assert progress.problem == "at speed 4 ahead she must move 1 hex, no more and no less"
