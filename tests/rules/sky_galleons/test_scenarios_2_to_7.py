"""Scenarios 2, 3, 5 and 7 as data, their set-up, special rules and victory conditions in battles with scripted
decisions (SG-SCN-07..47), the groundwork of Scenarios 4 and 6 (landed starts, reinforcements, the landing
party: SG-SCN-23/24/37..41), the map files and the AI playing each scenario to the end.

Dice are seeded: a test either checks what the logged rolls did, or uses a seed that gives the case it needs
and says so."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, hexgrid, resolver, simulate
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    ai_moves,
    ai_orders,
    ai_reading,
    close_action,
    combat,
    flying,
    maps,
    scenario,
    scenario_ai,
    special_rules,
    tactics,
    validate,
    victory,
)
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import AVOID, BOARD, CREW_CHOICE, FIRE, MOVE, ORDERS, PLACE, POSITION, REINFORCE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import ShipRecord, altitude_level, ship_record_from_class
from tests.rules.sky_galleons.battle_harness import calm

State = BattleState[Board]
Decide = Callable[[State, DecisionRequest], Any]


# --- driving a battle ------------------------------------------------------------------------------------


def begin(data: Mapping[str, Any], seed: bytes, options: Mapping[str, Any] | None = None) -> State:
    initial = resolver.new_battle(RS, dict(data), seed_commitment=dice.commitment(seed), options=options)
    return resolver.resolve(RS, initial, seed).state


def submit(state: State, request: DecisionRequest, choice: Any, seed: bytes) -> tuple[State, list[Event]]:
    outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert not isinstance(outcome, Rejection), outcome
    return outcome.state, list(outcome.events)


def refused(state: State, request: DecisionRequest, choice: Any, seed: bytes) -> Rejection:
    outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert isinstance(outcome, Rejection), f"expected {choice!r} to be refused"
    return outcome


def drive(
    state: State, decide: Decide, seed: bytes, until: Callable[[State, DecisionRequest], bool] | None = None
) -> tuple[State, list[Event], DecisionRequest | None]:
    """Answer with ``decide`` (None: the default) until ``until`` holds for the next decision or the end."""
    events: list[Event] = []
    while not state.over:
        request = state.pending()[0]
        if until is not None and until(state, request):
            return state, events, request
        choice = decide(state, request)
        state, more = submit(state, request, request.default if choice is None else choice, seed)
        events += more
    return state, events, None


def at(kind: str, side: str | None = None, ship: str | None = None) -> Callable[[State, DecisionRequest], bool]:
    def check(_state: State, request: DecisionRequest) -> bool:
        return request.kind == kind and side in (None, request.side) and ship in (None, *request.ships)

    return check


def still(first: str = "", orders: Mapping[str, Mapping[str, Any]] | None = None) -> Decide:
    """Nobody moves, fires or avoids; ``first`` moves first; ``orders`` extra initiative orders per side."""
    return calm(orders, first)


def ship(
    name: str, cls: str, at_: tuple[int, int], facing: int = 0, altitude: str = "M", **more: Any
) -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at_), "facing": facing, "altitude": altitude, **more}


def hex_(col: int, row: int) -> hexgrid.Hex:
    return hexgrid.from_odd_q(col, row)


def odd_q(h: hexgrid.Hex | None) -> tuple[int, int]:
    assert h is not None
    return hexgrid.to_odd_q(h)


def fixed(slug: str, **changes: Any) -> dict[str, Any]:
    """A shipped scenario with a fixed set-up (the file's positions), for scripted battles."""
    data = copy.deepcopy(scenario.load_data(slug))
    data["setup"] = {"kind": "fixed"}
    data.update(changes)
    return data


def results(events: list[Event]) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == "result"]


def with_record(state: State, record: ShipRecord) -> State:
    """The state with one record changed: a position set up for a test of a check made on it."""
    return state.evolve(board=state.board.with_ship(record))


# --- maps and the loader ---------------------------------------------------------------------------------


def test_the_map_files_load_with_their_zones_and_edges():
    canal = maps.build_terrain({"base": "canal"})
    highland = maps.build_terrain({"base": "highland"})
    assert (canal.cols, canal.rows) == (highland.cols, highland.rows) == (30, 22)
    assert canal.heights == {}  # canal country: every hex at ground level
    island = maps.zone(canal, "island")
    assert len(island) == 7
    assert hex_(19, 10) in island
    city = maps.zone(canal, "city")
    assert island < city
    assert not city & maps.zone(canal, "canal")
    assert maps.zone(canal, "centre") == frozenset(hexgrid.within(hex_(13, 11), 1))
    assert maps.zone(highland, "centre") == maps.centre(highland)  # not named: the middle hex and its ring
    west = maps.zone(canal, "west")
    assert hex_(0, 10) in west
    assert hex_(0, 0) not in west
    assert maps.edge_of(canal, hex_(0, 10)) == "west"
    assert maps.edge_of(canal, hex_(5, 5)) is None
    assert maps.middle_of_edge(canal, "west") < west
    with pytest.raises(maps.MapError, match="no zone 'moat'"):
        maps.zone(canal, "moat")
    with pytest.raises(maps.MapError, match="no map"):
        maps.build_terrain({"base": "lunar"})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"special_rules": ["cannibals"]}, "not played yet"),
        ({"special_rules": [{"rule": "neutral_zone", "zone": "moat"}]}, "no zone 'moat'"),
        ({"special_rules": [{"rule": "neutral_zone"}]}, "needs 'zone'"),
        ({"special_rules": [{"rule": "neutral_zone", "zone": "island", "when": "always"}]}, "takes"),
        ({"special_rules": [{"rule": "exit_edge", "side": "british", "edge": "up"}]}, "not a edge"),
        ({"victory": {"kind": "escape", "ship": "Nobody", "pursuer": "Aphid"}}, "not a ship"),
        ({"victory": {"kind": "glory"}}, "victory.kind"),
        ({"victory": {"kind": "last_flying", "turn_limit_winner": "martians"}}, "not a side"),
        ({"setup": {"kind": "placement", "order": ["irish"]}}, "name every side once"),
    ],
)
def test_the_loader_refuses_special_rules_and_victories_it_cannot_play(change, words):
    data = copy.deepcopy(scenario.load_data("john-bulls-tyranny"))
    data.update(change)
    with pytest.raises(scenario.ScenarioError, match=words):
        scenario.parse(data)


def test_the_loader_checks_each_side_s_set_up():
    data = copy.deepcopy(scenario.load_data("diplomatic-incident"))
    data["sides"][1]["ships"][1]["position"] = [0, 2]  # the west edge, but not its middle third
    with pytest.raises(scenario.ScenarioError, match="middle third"):
        scenario.parse(data)
    data = copy.deepcopy(scenario.load_data("pitched-battle"))
    data["sides"][1]["ships"][0].update(position=[12, 0], facing=3)  # one ship on the north edge
    with pytest.raises(scenario.ScenarioError, match="enters from the north edge, not the east"):
        scenario.parse(data)  # a side enters by one edge
    for n, entry in enumerate(data["sides"][1]["ships"]):
        entry.update(position=[3 + 2 * n, 0], facing=3)  # all of them: not opposite the British west
    with pytest.raises(scenario.ScenarioError, match="opposite edges"):
        scenario.parse(data)
    data = copy.deepcopy(scenario.load_data("pitched-battle"))
    data["sides"][0]["ships"][0]["altitude"] = "M"
    with pytest.raises(scenario.ScenarioError, match="starts at H"):
        scenario.parse(data)


def test_every_new_scenario_is_in_the_library_the_conformance_tests_play():
    slugs = {str(s["slug"]) for s in RS.example_scenarios()}
    assert {"john-bulls-tyranny", "diplomatic-incident", "hearts-of-oak", "pitched-battle"} <= slugs


# --- Scenario 2: John Bull's Tyranny ---------------------------------------------------------------------

S2 = "john-bulls-tyranny"


@pytest.mark.rule("SG-SCN-07", "SG-SCN-08", "SG-SCN-09")
def test_s2_the_fenian_ram_against_an_aphid_over_open_ground_both_trained():
    found = scenario.load(S2)
    assert found.terrain.heights == {}  # all the land at ground level
    assert not any(r.get("zone") for r in found.rules)  # no rule names the city: it is not present
    irish, british = found.sides
    assert [s.record.class_name for s in irish.ships] == ["Fenian Ram"]
    assert [s.record.class_name for s in british.ships] == ["Aphid (original)"]
    assert {r.crew_quality for r in found.ships} == {"trained"}


@pytest.mark.rule("SG-SCN-10")
def test_s2_the_irish_set_up_first_in_the_middle_the_british_more_than_5_hexes_away_all_at_medium():
    seed = b"s2 set-up"
    state = begin(scenario.load_data(S2), seed)
    [request] = state.pending()
    assert (request.kind, request.side) == (PLACE, "irish")  # no roll: the Irish set up first
    assert refused(state, request, {"hex": [3, 3], "facing": 0, "altitude": "M"}, seed).clause == "SG-SCN-10"
    assert refused(state, request, {"hex": [13, 11], "facing": 0, "altitude": "H"}, seed).clause == "SG-SCN-10"
    state, _ = submit(state, request, {"hex": [13, 11], "facing": 0, "altitude": "M"}, seed)
    [request] = state.pending()
    assert request.side == "british"
    five = (18, 11)
    assert hexgrid.distance(hex_(*five), hex_(13, 11)) == 5
    assert refused(state, request, {"hex": list(five), "facing": 0, "altitude": "M"}, seed).clause == "SG-SCN-04"
    assert refused(state, request, {"hex": [19, 11], "facing": 0, "altitude": "H"}, seed).clause == "SG-SCN-10"
    state, _ = submit(state, request, {"hex": [19, 11], "facing": 0, "altitude": "M"}, seed)  # 6 away: fine
    assert state.pending()[0].kind == ORDERS


@pytest.mark.rule("SG-SCN-11")
def test_s2_the_irish_marines_fire_modern_rifles():
    found = scenario.load(S2)
    ram = next(r for r in found.ships if r.name == "Fenian Ram")
    aphid = next(r for r in found.ships if r.name == "Aphid")
    assert combat.marine_arms(ram) == "modern_rifle"
    ram = replace(ram, position=hex_(10, 10))
    aphid = replace(aphid, position=hex_(11, 10))
    from galleons.record import Moment

    solution = combat.fire_solution(
        ram, combat.MARINES, aphid, now=Moment(1, 1, 2), rules=combat.CombatRules(small_arms=True)
    )
    assert solution.allowed
    assert solution.weapon == "modern_rifle"


def s2_at_the_edge(pursuer_class: str = "Aphid", turns: int = 3) -> dict[str, Any]:
    """The Fenian Ram one hex from the west edge, facing off it; the pursuer far to the east."""
    data = fixed(S2, turn_limit=turns)
    data["sides"][0]["ships"][0].update(position=[0, 11], facing=4)
    data["sides"][1]["ships"][0].update({"class": pursuer_class, "position": [25, 11], "facing": 5})
    data["sides"][0]["setup"] = {"altitude": "M"}
    return data


@pytest.mark.rule("SG-SCN-12")
def test_s2_the_irish_may_not_leave_the_map_while_the_aphid_can_pursue():
    seed = b"s2 exit"
    state, _, move = drive(begin(s2_at_the_edge(), seed), still("irish"), seed, at(MOVE, "irish"))
    assert move is not None
    rejection = refused(state, move, ["ahead"], seed)
    assert rejection.clause == "SG-SCN-12"
    assert "cannot pursue" in rejection.reason
    # The AI's candidates never offer it either.
    assert ["ahead"] not in RS.candidates(state, move)


@pytest.mark.rule("SG-SCN-12")
def test_s2_a_slower_pursuer_is_crippled_and_the_irish_escape_and_win():
    seed = b"s2 escape"
    # A Small Bird (speed 2) cannot keep up with the Ram (speed 4): the exit is open and leaving wins.
    state, _, move = drive(begin(s2_at_the_edge("Small Bird"), seed), still("irish"), seed, at(MOVE, "irish"))
    assert move is not None
    state, events = submit(state, move, ["ahead"], seed)
    assert state.over
    assert state.winner == "irish"
    assert results(events)[0]["clauses"] == ["SG-SCN-12"]


@pytest.mark.rule("SG-SCN-12")
def test_s2_crippled_means_out_of_the_fight_slower_or_without_a_gun():
    state = begin(fixed(S2), b"s2 crippled")
    board = state.board
    ram, aphid = board.ship("Fenian Ram"), board.ship("Aphid")
    assert not special_rules.crippled(board, "Aphid", ram)  # speed 6 against 4, five guns
    gunless = replace(aphid, guns=tuple(replace(g, destroyed=True) for g in aphid.guns))
    assert special_rules.crippled(board.with_ship(gunless), "Aphid", ram)
    slow = replace(aphid, criticals=replace(aphid.criticals, screw_mast_hits=3))
    assert special_rules.speed(slow) < special_rules.speed(ram)
    assert special_rules.crippled(board.with_ship(slow), "Aphid", ram)
    struck = replace(board, out={**board.out, "Aphid": "struck"})
    assert special_rules.crippled(struck, "Aphid", ram)


@pytest.mark.rule("SG-SCN-12")
def test_s2_the_british_win_when_the_ram_strikes_and_nobody_wins_at_the_turn_limit():
    seed = b"s2 ends"
    strike = still("irish", {"irish": {"strike": ["Fenian Ram"]}})
    state, events, _ = drive(begin(fixed(S2), seed), strike, seed)
    assert state.winner == "british"
    assert results(events)[0]["clauses"] == ["SG-SCN-12"]
    state, events, _ = drive(begin(fixed(S2, turn_limit=1), seed), still("irish"), seed)
    assert state.over
    assert state.winner is None
    assert "turn limit" in str(results(events)[0]["reason"])


# --- Scenario 3: Diplomatic Incident ---------------------------------------------------------------------

S3 = "diplomatic-incident"
KITE = "Passenger Kite"


def s3(
    hamburg: tuple[int, int], kite: tuple[int, int], *, wind: int = 3, turns: int = 6, **more: Any
) -> dict[str, Any]:
    """Scenario 3 set up where a test wants it: the Hamburg and the kite placed, the Dauntlesses far off in the
    south-west corner, anyone anywhere; the British leave by the east edge."""
    data = fixed(S3, wind=wind, turn_limit=turns)
    data["sides"][0]["setup"] = {}
    data["sides"][1]["setup"] = {}
    data["sides"][0]["ships"][0].update(position=list(hamburg), facing=more.get("hamburg_facing", 0))
    kite_ship, dauntless, daring = data["sides"][1]["ships"]
    kite_ship.update(position=list(kite), facing=more.get("kite_facing", 1))
    dauntless.update(position=[1, 20], facing=0)
    daring.update(position=[2, 20], facing=0)
    data["special_rules"] = [
        {"rule": "neutral_zone", "zone": "island"},
        {"rule": "noncombatant", "ship": KITE},
        {"rule": "exit_edge", "side": "british", "edge": "east"},
    ]
    return data


@pytest.mark.rule("SG-SCN-13", "SG-SCN-14", "SG-SCN-15")
def test_s3_the_canal_map_with_its_neutral_island_city_and_the_forces_trained():
    found = scenario.load(S3)
    assert maps.zone(found.terrain, "island") < maps.zone(found.terrain, "city")
    assert {"rule": "neutral_zone", "zone": "island"} in found.rules
    germans, british = found.sides
    assert [s.record.class_name for s in germans.ships] == ["Hamburg"]
    assert sorted(s.record.class_name for s in british.ships) == [
        "Dauntless (original design)",
        "Dauntless (original design)",
        "Warm Winds",
    ]
    kite = next(s for s in british.ships if s.record.name == KITE)
    assert kite.record.is_kite
    assert kite.role == "merchant"
    assert not kite.record.guns
    assert {r.crew_quality for r in found.ships} == {"trained"}


@pytest.mark.rule("SG-SCN-13")
def test_s3_no_ship_flies_over_the_island_but_the_city_on_the_banks_is_open():
    seed = b"s3 neutral moves"
    island = maps.zone(maps.build_terrain({"base": "canal"}), "island")
    start = hex_(17, 10)  # in the canal ring round the island
    into = next(f for f in range(6) if hexgrid.neighbour(start, f) in island)
    state = begin(s3(odd_q(start), (5, 5), hamburg_facing=into), seed)
    state, _, move = drive(state, still("germans"), seed, at(MOVE, "germans"))
    assert move is not None
    rejection = refused(state, move, ["ahead"], seed)
    assert rejection.clause == "SG-SCN-13"
    assert all(not (isinstance(c, list) and c[:1] == ["ahead"]) for c in RS.candidates(state, move))
    banks = maps.zone(state.board.terrain, "city") - island  # the city's quarters on the banks
    bank = next(f for f in range(6) if hexgrid.neighbour(start, f) in banks)
    state = begin(s3(odd_q(start), (5, 5), hamburg_facing=bank), seed)
    state, _, move = drive(state, still("germans"), seed, at(MOVE, "germans"))
    assert move is not None
    assert RS.validate(state, move, ["ahead"]) is None


@pytest.mark.rule("SG-SCN-13", "SG-SCN-18")
def test_s3_no_shot_crosses_the_island_and_nothing_else_restricts_fire():
    seed = b"s3 neutral fire"
    data = s3((16, 10), (16, 6))
    data["sides"][1]["ships"][1].update(position=[22, 10], facing=5)  # Dauntless across the island
    state, _, fire = drive(begin(data, seed), still("germans"), seed, at(FIRE, "germans"))
    assert fire is not None
    hamburg, dauntless, _kite = (state.board.ship(n) for n in ("Hamburg", "Dauntless", KITE))
    assert special_rules.line_hexes(hamburg.position, dauntless.position) & maps.zone(state.board.terrain, "island")
    now, rules = RS.now(state), RS.rules(state)
    across = [
        g.id for g in hamburg.guns if combat.fire_solution(hamburg, g.id, dauntless, now=now, rules=rules).allowed
    ]
    assert across, "a gun of the Hamburg bears on the Dauntless (but for the city)"
    rejection = refused(state, fire, {"shots": [{"ship": "Hamburg", "gun": across[0], "target": "Dauntless"}]}, seed)
    assert rejection.clause == "SG-SCN-13"
    assert not [s for s in RS.solutions(state, "germans") if s.target == "Dauntless"]
    # The kite, a neutral merchantman's passengers aboard, is a fair target: no rule but the city's holds fire.
    at_kite = [s for s in RS.solutions(state, "germans") if s.target == KITE]
    assert at_kite
    shot = {"ship": "Hamburg", "gun": at_kite[0].gun_id, "target": KITE}
    assert RS.validate(state, fire, {"shots": [shot]}) is None


def test_a_line_along_a_hexside_grazes_both_hexes():
    a, b = hexgrid.Hex(0, 0), hexgrid.Hex(2, -1)  # the line between them runs along a hexside
    assert len(special_rules.line_hexes(a, b)) == 4  # both ends and both hexes it grazes
    assert hexgrid.Hex(1, -1) in special_rules.line_hexes(a, b)
    assert hexgrid.Hex(1, 0) in special_rules.line_hexes(a, b)


@pytest.mark.rule("SG-SCN-16")
def test_s3_the_german_sets_up_in_the_centre_the_british_enter_from_the_middle_of_an_edge():
    seed = b"s3 set-up"
    state = begin(scenario.load_data(S3), seed)
    [request] = state.pending()
    assert (request.kind, request.side) == (PLACE, "germans")
    assert refused(state, request, {"hex": [3, 3], "facing": 0, "altitude": "M"}, seed).clause == "SG-SCN-16"
    state, _ = submit(state, request, {"hex": [13, 11], "facing": 0, "altitude": "M"}, seed)
    [request] = state.pending()
    assert request.side == "british"
    for bad in (
        {"hex": [0, 2], "facing": 1, "altitude": "M"},  # the west edge, but not its middle third
        {"hex": [0, 10], "facing": 5, "altitude": "M"},  # facing off the map
        {"hex": [5, 10], "facing": 1, "altitude": "M"},  # not on an edge
    ):
        assert refused(state, request, bad, seed).clause == "SG-SCN-16"
    state, _events = submit(state, request, {"hex": [0, 10], "facing": 1, "altitude": "M"}, seed)
    assert state.board.marks["entry british"] == "west"
    [request] = state.pending()
    rejection = refused(state, request, {"hex": [14, 0], "facing": 3, "altitude": "M"}, seed)
    assert "west edge" in rejection.reason  # the whole side enters by one edge
    # ... and leaves only by the opposite one.
    rule = special_rules.rules(state.board, "exit_edge")[0]
    assert special_rules.exit_edge(state.board, rule) == "east"
    kite = state.board.ship(KITE)
    assert special_rules.exit_problem(state.board, kite, hexgrid.from_odd_q(10, -1)) is not None
    assert special_rules.exit_problem(state.board, kite, hexgrid.from_odd_q(30, 10)) is None


@pytest.mark.rule("SG-SCN-16", "SG-SCN-19")
def test_s3_the_kite_leaves_only_by_the_far_edge_and_getting_away_wins_for_the_british():
    seed = b"s3 kite away"
    data = s3((5, 5), (29, 10), kite_facing=1)  # wind from the south: facing north-east she runs
    state, _, move = drive(begin(data, seed), still("british"), seed, at(MOVE, "british", KITE))
    assert move is not None
    state, events = submit(state, move, ["ahead"], seed)  # off the east edge
    assert state.board.out[KITE] == "escaped"
    state, more, _ = drive(state, still("british"), seed)  # decided at the end of the phase
    events += more
    assert state.over
    assert state.winner == "british"
    assert results(events)[0]["clauses"] == ["SG-SCN-19"]
    data = s3((5, 5), (10, 0), kite_facing=0)  # at the north edge, facing off it
    state, _, move = drive(begin(data, seed), still("british"), seed, at(MOVE, "british", KITE))
    assert move is not None
    assert refused(state, move, ["ahead"], seed).clause == "SG-SCN-16"


def hit_the_kite(state: State, request: DecisionRequest) -> Any:
    """The Germans move first and fire every gun they can at the kite; the British do nothing."""
    if request.kind == FIRE and request.side == "germans":
        shots = [{"ship": s.firer, "gun": s.gun_id, "target": s.target} for s in RS.solutions(state, "germans")]
        return {"shots": [s for s in shots if s["target"] == KITE]}
    return still("germans")(state, request)


@pytest.mark.rule("SG-SCN-17")
def test_s3_once_hit_the_kite_heaves_to_for_good_and_strikes_nobody():
    seed = b"s3 hove to"
    state = begin(s3((10, 10), (10, 8), kite_facing=1, turns=10), seed)
    state, events, _ = drive(state, hit_the_kite, seed, lambda s, _r: special_rules.hove_to(s.board, KITE))
    marks = [e for e in events if e.kind == "mark" and e.data["key"] == f"hove to {KITE}"]
    assert marks
    assert marks[0].data["clauses"] == ["SG-SCN-17"]
    assert special_rules.damaged(state.board, state.board.ship(KITE))
    state, _, move = drive(state, still("germans"), seed, at(MOVE, "british", KITE))
    assert move is not None
    for plan in (["ahead"], ["climb"], ["tack port"]):
        assert refused(state, move, plan, seed).clause == "SG-SCN-17"
    assert RS.candidates(state, move) == [[]]
    state, _ = submit(state, move, [], seed)
    state, _, orders = drive(state, still("germans"), seed, at(ORDERS, "british"))
    assert orders is not None
    assert refused(state, orders, {"crew": [], "strike": [KITE]}, seed).clause == "SG-SCN-17"
    party = {"crew": [], "strike": [], "parties": [{"ship": KITE, "men": {"officers": 1, "deckhands": 4}}]}
    assert refused(state, orders, party, seed).clause == "SG-SCN-17"


@pytest.mark.rule("SG-SCN-17")
def test_s3_the_kite_rams_and_grapples_nobody():
    seed = b"s3 no ram"
    state = begin(s3((10, 10), (10, 10), kite_facing=1), seed)
    declare = still("british", {"british": {"ram": 1}})
    state, _, move = drive(state, declare, seed, at(MOVE, "british", KITE))
    assert move is not None
    rejection = refused(state, move, {"steps": [], "grapple": "Hamburg"}, seed)
    assert rejection.clause == "SG-SCN-17"
    assert all(not isinstance(c, dict) for c in RS.candidates(state, move))


@pytest.mark.rule("SG-SCN-17", "SG-GRAP-05")
def test_s3_the_kite_grappled_casts_nobody_off():
    seed = b"s3 no cut"
    state = begin(s3((0, 12), (0, 12), kite_facing=1), seed)
    kite = state.board.ship(KITE)
    hit = replace(kite, hull_rows=(replace(kite.hull_rows[0], hits=1), *kite.hull_rows[1:]), grappled_with=("Hamburg",))
    state = with_record(with_record(state, hit), replace(state.board.ship("Hamburg"), grappled_with=(KITE,)))
    state, _, orders = drive(state, still("germans"), seed, at(ORDERS, "british"))
    assert orders is not None
    assert refused(state, orders, {"crew": [], "strike": [], "cut": [[KITE, "Hamburg"]]}, seed).clause == "SG-SCN-17"
    answer = tactics.Captain(b"s3 ai").propose(RS, state, orders)
    assert isinstance(answer, dict)
    assert "cut" not in answer


S3_PARTY = {"ship": "Hamburg", "men": {"marine_officers": 1, "marines": 18}}


def seize(state: State, request: DecisionRequest) -> Any:
    """The Germans, in the kite's hex, grapple her, send their marines across and, once she is held, bring
    them home, cast off and leave by the west edge; the British do nothing."""
    board = state.board
    hamburg = board.ship("Hamburg")
    prize = victory.prize_state(board, KITE)
    if request.kind == ORDERS and request.side == "germans":
        if prize.get("held") and hamburg.boarding == KITE:
            return {"crew": [], "strike": [], "recall": ["Hamburg"], "cut": [["Hamburg", KITE]]}
        if not hamburg.party.men and not hamburg.boarders.men and not prize.get("held"):
            return {"crew": [], "strike": [], "parties": [S3_PARTY], "ram": 1}
        return {"crew": [], "strike": [], "ram": 0 if hamburg.grappled_with else 1}
    if request.kind == MOVE and request.side == "germans":
        if prize.get("aboard"):  # turn to face north-west, off the west edge, and go
            return ["power port"] * ((hamburg.facing - 5) % 6) + ["ahead"]
        if not hamburg.grappled_with and KITE not in board.captured:
            return {"steps": [], "grapple": KITE}
        return []
    if request.kind == POSITION:
        beam = [o for o in request.options or () if not {"bow", "stern"} & set(o)]
        return beam[0] if beam else None
    if request.kind == BOARD:
        options = RS.boarding_options(state, request.side)
        return {"boardings": [{"ship": s, "target": t, "men": n} for s, ts in options.items() for t, n in ts.items()]}
    return still("germans")(state, request)


@pytest.mark.rule("SG-SCN-17", "SG-SCN-19")
def test_s3_the_germans_board_the_kite_hold_her_a_full_turn_bring_roemer_home_and_win_by_leaving():
    # The seed gives the grapple at the second try (3 lines, any 5 or 6).
    seed = b"s3 seize 1"
    state = begin(s3((0, 12), (0, 12), hamburg_facing=0, kite_facing=1, turns=8), seed)
    state, events, _ = drive(state, seize, seed)
    kinds = [e.kind for e in events]
    assert "grappled" in kinds
    assert "boarding action" not in kinds  # she offers no resistance: taken without a fight
    taken = next(e for e in events if e.kind == "captured")
    assert taken.data["ship"] == KITE
    assert taken.data["by"] == "germans"
    assert taken.data["clauses"] == ["SG-SCN-17"]
    prize = [e for e in events if e.kind == "mark" and e.data["key"] == f"prize {KITE}"]
    boarded = next(e for e in prize if e.data["value"].get("boarded") is not None)
    held = next(e for e in prize if e.data["value"].get("held"))
    aboard = next(e for e in prize if e.data["value"].get("aboard"))
    assert held.turn == boarded.turn + 2  # the turn of the boarding, then one full turn, then held
    assert aboard.turn == held.turn  # recalled in that turn's orders
    assert state.over
    assert state.winner == "germans"
    assert state.board.out["Hamburg"] == "escaped"
    assert results(events)[0]["clauses"] == ["SG-SCN-19"]


@pytest.mark.rule("SG-SCN-19")
def test_s3_a_british_ship_alongside_the_prize_disputes_her_and_the_hold_starts_again():
    seed = b"s3 disputed"
    state = begin(s3((0, 12), (0, 12), kite_facing=1), seed)
    board = state.board
    hamburg = replace(
        board.ship("Hamburg"),
        boarders=replace(board.ship("Hamburg").boarders, marines=10, officers=1),
        boarding=KITE,
        grappled_with=(KITE,),
    )
    kite = replace(board.ship(KITE), grappled_with=("Hamburg",))
    board = replace(board.with_ship(hamburg).with_ship(kite), captured={KITE: "germans"}, out={KITE: "captured"})
    board = replace(board, marks={f"prize {KITE}": {"boarded": 1, "held": None, "aboard": None}})
    [mark] = victory.seize_marks(board, 3, initiative=True)  # two turns on, undisputed: held
    assert mark.value["held"] == "Hamburg"
    daring = replace(board.ship("Daring"), position=kite.position, altitude=kite.altitude)
    [mark] = victory.seize_marks(board.with_ship(daring), 3, initiative=True)
    assert mark.value["held"] is None
    assert mark.value["boarded"] == 3


@pytest.mark.rule("SG-SCN-19")
def test_s3_once_roemer_is_aboard_the_hamburg_the_kite_may_go_down_without_him():
    seed = b"s3 kite lost after"
    state = begin(s3((0, 12), (0, 12), kite_facing=1), seed)
    board = state.board
    wreck = replace(board.ship(KITE), status="crashed")
    held = {"boarded": 1, "held": "Hamburg", "aboard": None}
    board = replace(board.with_ship(wreck), captured={KITE: "germans"}, out={KITE: "crashed"})
    found = victory.check(replace(board, marks={f"prize {KITE}": held}))
    assert found is not None  # still aboard her: he is lost with her
    assert (found.winner, found.clauses) == ("british", ("SG-SCN-19",))
    home = replace(board, marks={f"prize {KITE}": {**held, "aboard": "Hamburg"}})
    assert victory.check(home) is None  # he is aboard the Hamburg: she has still to get away
    found = victory.check(replace(home, out={**home.out, "Hamburg": "escaped"}))
    assert found is not None
    assert found.winner == "germans"
    found = victory.check(replace(home, out={**home.out, "Hamburg": "struck"}))
    assert found is not None
    assert found.winner == "british"


@pytest.mark.rule("SG-SCN-19")
def test_s3_the_british_win_when_the_hamburg_strikes_or_time_runs_out():
    seed = b"s3 british"
    strike = still("germans", {"germans": {"strike": ["Hamburg"]}})
    state, events, _ = drive(begin(s3((5, 5), (10, 15)), seed), strike, seed)
    assert state.winner == "british"
    assert "no ship left" in str(results(events)[0]["reason"])
    state, events, _ = drive(begin(s3((5, 5), (10, 15), turns=1), seed), still("germans"), seed)
    assert state.winner == "british"
    assert "turn limit" in str(results(events)[0]["reason"])


@pytest.mark.rule("SG-SCN-17")
def test_s3_a_kite_that_has_surrendered_does_not_avoid_the_grapple():
    seed = b"s3 no avoid"
    state = begin(s3((0, 12), (0, 12), kite_facing=1), seed)
    kite = state.board.ship(KITE)
    hit = replace(kite, hull_rows=(replace(kite.hull_rows[0], hits=1), *kite.hull_rows[1:]))
    state = with_record(state, hit)  # she has been hit: hove to
    declare = still("germans", {"germans": {"ram": 1}})
    state, _, move = drive(state, declare, seed, at(MOVE, "germans"))
    assert move is not None
    state, events = submit(state, move, {"steps": [], "grapple": KITE}, seed)
    assert not [r for r in state.pending() if r.kind == AVOID]
    assert any(e.kind == "roll" and "grapple" in str(e.data["purpose"]) for e in events)


# --- Scenario 5: Hearts of Oak ---------------------------------------------------------------------------

S5 = "hearts-of-oak"


@pytest.mark.rule("SG-SCN-26")
def test_s5_the_highland_map_rises_by_contours_to_high_with_the_fortress_ignored():
    found = scenario.load(S5)
    terrain = found.terrain
    levels = set(terrain.heights.values())
    assert levels == {"VL", "L", "M", "H"}  # each outline one level up
    top = maps.zone(terrain, "fortress")
    assert {terrain.ground(h) for h in top} == {"H"}  # the highest ground is at High
    beside = {n for h in top for n in hexgrid.neighbours(h)} - top
    assert {terrain.ground(h) for h in beside} == {"M"}  # the hexes next to the top are at Medium
    assert not found.rules  # no rule names the fortress: it is ignored
    assert all(terrain.ground(h) == "G" for h in maps.zone(terrain, "west") | maps.zone(terrain, "east"))


@pytest.mark.rule("SG-SCN-27", "SG-SCN-28", "SG-SCN-30")
def test_s5_a_crack_thunderer_against_four_high_martian_galleys_green_but_trained_for_boarding_with_bows():
    found = scenario.load(S5)
    british, martians = found.sides
    assert [(s.record.class_name, s.record.crew_quality) for s in british.ships] == [("Thunderer", "crack")]
    assert sorted(s.record.class_name for s in martians.ships) == ["Glory Sled"] * 2 + ["Small Bird"] * 2
    for entry in martians.ships:
        record = entry.record
        assert (record.crew_quality, record.boarding_quality) == ("green", "trained")
        assert combat.marine_arms(record) == "bow"


@pytest.mark.rule("SG-SCN-28")
def test_a_crew_s_boarding_quality_rolls_its_boarding_dice():
    galley = ship_record_from_class("Glory Sled", name="Sled", crew_quality="green", side="m")
    galley = close_action.send_across(
        close_action.form_party(galley, {"marine_officers": 1, "marines": 18}), "Thunderer", 19
    )[0]
    thunderer = ship_record_from_class("Thunderer", name="Thunderer", side="b")
    rolls: list[str] = []

    def roll(purpose: str, count: int, sides: int, *, needed: str, **_: Any) -> tuple[int, ...]:
        rolls.append(needed)
        return (1,) * count

    needs: dict[str, list[str]] = {}
    for quality in ("trained", "crack"):
        rolls.clear()
        close_action.boarding_round([replace(galley, boarding_quality=quality)], thunderer, roller=roll)
        needs[quality] = [n for n in rolls if "kills" in n]
    assert needs["trained"][0].startswith("each die 5+")  # officers and marines, Green or Trained alike
    assert needs["crack"][0].startswith("each die 4+")  # boarding as Crack: +1 a die (SG-CQ-09)


@pytest.mark.rule("SG-SCN-29")
def test_s5_each_side_enters_by_the_edge_opposite_the_other():
    seed = b"s5 set-up"
    state = begin(scenario.load_data(S5), seed)
    first = state.pending()[0]
    assert first.kind == PLACE
    other = "high_martians" if first.side == "british" else "british"
    spot = {"hex": [14, 0], "facing": 3, "altitude": "M"}  # the north edge
    state, _ = submit(state, first, spot, seed)
    while state.pending()[0].side == first.side:
        request = state.pending()[0]
        col = 2 + 3 * len(state.board.placed)
        state, _ = submit(state, request, {"hex": [col, 0], "facing": 3, "altitude": "M"}, seed)
    request = state.pending()[0]
    assert request.side == other
    rejection = refused(state, request, {"hex": [0, 10], "facing": 1, "altitude": "M"}, seed)
    assert rejection.clause == "SG-SCN-29"
    assert "south" in rejection.reason
    assert RS.validate(state, request, {"hex": [12, 21], "facing": 0, "altitude": "M"}) is None
    assert RS.validate(state, request, request.default) is None  # the default is moved to the right edge


def last_in_the_air() -> dict[str, Any]:
    return {
        "slug": "in-the-air",
        "title": "Last in the air",
        "map": {"cols": 12, "rows": 10},
        "turn_limit": 2,
        "victory": {"kind": "last_in_the_air"},
        "sides": [
            {"id": "a", "ships": [ship("Low", "Sky Runner", (2, 5), altitude="VL")]},
            {"id": "b", "ships": [ship("High", "Sky Runner", (9, 5), altitude="M")]},
        ],
    }


@pytest.mark.rule("SG-SCN-31")
def test_s5_a_side_whose_last_ship_has_landed_has_no_ship_in_the_air_and_loses():
    seed = b"s5 landed"

    def land(state: State, request: DecisionRequest) -> Any:
        if request.kind == MOVE and request.side == "a":
            return ["descend"]  # one level, no hex moved: she lands (SG-ALT-11)
        return still("a")(state, request)

    state, events, _ = drive(begin(last_in_the_air(), seed), land, seed)
    assert state.board.ship("Low").status == "landed"
    assert state.board.in_fight(state.board.ship("Low"))  # landed, still in the fight, but not in the air
    assert state.winner == "b"
    assert results(events)[0]["clauses"] == ["SG-SCN-31"]
    state, events, _ = drive(begin(last_in_the_air(), seed), still("a"), seed)
    assert state.over
    assert state.winner is None


# --- Scenario 7: Pitched Battle --------------------------------------------------------------------------

S7 = "pitched-battle"


@pytest.mark.rule("SG-SCN-42", "SG-SCN-43")
def test_s7_the_canal_map_without_its_city_and_the_two_fleets():
    found = scenario.load(S7)
    assert found.terrain.heights == {}
    assert not any(r.get("zone") for r in found.rules)
    british, oenotrians = found.sides
    assert sorted(s.record.class_name for s in british.ships) == [
        "Aphid (original)",
        "Dauntless (original design)",
        "Triumph",
    ]
    classes = sorted(s.record.class_name for s in oenotrians.ships)
    assert classes == ["Clearsight"] * 2 + ["Hullcutter"] * 3 + ["Swiftwood"] + ["Whisperdeath"] * 2


@pytest.mark.rule("SG-SCN-44", "SG-SCN-45")
def test_s7_the_oenotrians_choose_their_crack_ship_whose_marines_carry_rifles_the_rest_muskets():
    seed = b"s7 crack"
    state = begin(scenario.load_data(S7), seed)
    [request] = state.pending()
    assert (request.kind, request.side) == (CREW_CHOICE, "oenotrians")
    assert set(request.options or ()) == {s.name for s in state.board.ships if s.side == "oenotrians"}
    assert refused(state, request, "Triumph", seed)  # not one of theirs
    state, _events = submit(state, request, "Swiftwood", seed)
    board = state.board
    for record in board.ships:
        if record.side == "british":
            assert record.crew_quality == "crack"
        elif record.name == "Swiftwood":
            assert (record.crew_quality, combat.marine_arms(record)) == ("crack", "modern_rifle")
        else:
            assert (record.crew_quality, combat.marine_arms(record)) == ("trained", "musket")
    assert board.marks["crack crew oenotrians"] == "Swiftwood"
    assert state.pending()[0].kind == PLACE  # then the sides set up


@pytest.mark.rule("SG-SCN-46")
def test_s7_both_fleets_enter_at_high_by_opposite_edges():
    seed = b"s7 set-up"
    state = begin(scenario.load_data(S7), seed)
    state, _ = submit(state, state.pending()[0], state.pending()[0].default, seed)  # the crack crew
    request = state.pending()[0]
    assert request.kind == PLACE
    spot = request.default
    assert isinstance(spot, dict)
    assert spot["altitude"] == "H"
    assert refused(state, request, {**spot, "altitude": "M"}, seed).clause == "SG-SCN-46"
    state, _, _ = drive(state, still(), seed, at(ORDERS))
    entries = {state.board.marks["entry british"], state.board.marks["entry oenotrians"]}
    assert entries == {"east", "west"}
    assert {s.altitude for s in state.board.ships} == {"H"}


def s7_board(out: Mapping[str, str]) -> Board:
    board = begin(fixed(S7), b"s7 board").board
    return replace(board, out=dict(out))


@pytest.mark.rule("SG-SCN-47")
def test_s7_the_first_side_to_lose_half_its_ships_withdraws_and_the_triumph_decides_for_the_british():
    assert victory.check(s7_board({"Aphid": "crashed"})) is None  # 1 of 3
    lost = victory.check(s7_board({"Aphid": "crashed", "Dauntless": "struck"}))  # 2 of 3: half or more
    assert lost is not None
    assert lost.winner == "oenotrians"
    assert lost.clauses == ("SG-SCN-47",)
    three = {"Clearsight 1": "crashed", "Clearsight 2": "escaped", "Swiftwood": "captured"}
    assert victory.check(s7_board(three)) is None  # 3 of 8
    broken = victory.check(s7_board({**three, "Hullcutter 1": "struck"}))  # 4 of 8
    assert broken is not None
    assert broken.winner == "british"
    both = victory.check(s7_board({**three, "Hullcutter 1": "struck", "Aphid": "crashed", "Dauntless": "crashed"}))
    assert both is not None
    assert both.winner is None
    flagship = victory.check(s7_board({**three, "Hullcutter 1": "struck", "Triumph": "crashed"}))
    assert flagship is not None
    assert flagship.winner == "oenotrians"


@pytest.mark.rule("SG-SCN-47")
def test_s7_in_a_battle_the_british_striking_two_ships_withdraw_and_lose():
    seed = b"s7 strike"
    data = fixed(S7)
    data["special_rules"] = []
    strike = still("british", {"british": {"strike": ["Aphid", "Dauntless"]}})
    state, events, _ = drive(begin(data, seed), strike, seed)
    assert state.winner == "oenotrians"
    assert "withdraws" in str(results(events)[0]["reason"])


# --- Scenario 4 groundwork: landed starts and reinforcements ---------------------------------------------


def garrison(*, every: int = 2, turns: int = 5, reliant_at: tuple[int, int] = (29, 3), **setup: Any) -> dict[str, Any]:
    """An Endtime landed in the canal city and a Reliant far off; reinforcements for the Martians."""
    return {
        "slug": "garrison",
        "title": "Garrison",
        "map": {"base": "canal"},
        "turn_limit": turns,
        "setup": setup or {"kind": "fixed"},
        "special_rules": [
            {
                "rule": "reinforcements",
                "side": "martians",
                "watch": "british",
                "zone": "city",
                "every": every,
                "classes": ["Endtime", "Bloodrunner"],
                "arrive": "city",
            }
        ],
        "sides": [
            {
                "id": "martians",
                "setup": {"area": "city", "landed": True, "clause": "SG-SCN-23"},
                "ships": [{"name": "Endtime", "class": "Endtime", "position": [16, 11], "facing": 1}],
            },
            {"id": "british", "ships": [ship("Reliant", "Reliant", reliant_at, facing=3)]},
        ],
    }


@pytest.mark.rule("SG-SCN-23")
def test_a_landed_start_sits_on_the_land_and_must_climb_before_it_moves():
    found = scenario.parse(garrison())
    endtime = found.ships[0]
    assert (endtime.status, endtime.altitude) == ("landed", "G")
    seed = b"landed"
    state, _, move = drive(begin(garrison(), seed), still("martians"), seed, at(MOVE, "martians"))
    assert move is not None
    assert refused(state, move, ["ahead"], seed).clause == "SG-ALT-11"
    state, _ = submit(state, move, ["climb", "ahead"], seed)  # 2 MP a level, then a hex: speed 3
    endtime = state.board.ship("Endtime")
    assert (endtime.status, endtime.altitude) == ("flying", "VL")


@pytest.mark.rule("SG-SCN-23")
def test_a_side_that_starts_landed_is_set_up_in_its_area_on_the_land():
    seed = b"landed set-up"
    state = begin(garrison(kind="placement", order=["martians", "british"]), seed)
    [request] = state.pending()
    assert request.side == "martians"
    assert refused(state, request, {"hex": [3, 3], "facing": 0, "altitude": "G"}, seed).clause == "SG-SCN-23"
    assert refused(state, request, {"hex": [16, 11], "facing": 0, "altitude": "M"}, seed).clause == "SG-SCN-23"
    state, _ = submit(state, request, {"hex": [16, 12], "facing": 0, "altitude": "G"}, seed)
    assert state.board.ship("Endtime").status == "landed"


def reinforcement_at(hex_: tuple[int, int]) -> Decide:
    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == REINFORCE:
            return {"class": "Bloodrunner", "hex": list(hex_), "facing": 2}
        return still()(state, request)

    return decide


@pytest.mark.rule("SG-SCN-24")
def test_every_so_many_turns_with_no_british_ship_over_the_city_the_martians_get_another_ship():
    seed = b"reinforcements"
    state = begin(garrison(every=2), seed)
    assert state.board.wind is not None  # a Bloodrunner kite may join: the wind is rolled
    state, events, request = drive(state, still(), seed, at(REINFORCE))
    assert request is not None
    assert request.side == "martians"
    assert state.turn == 3  # turns 1 and 2 ended with no British ship over the city
    counts = [e.data["value"] for e in events if e.kind == "mark" and str(e.data["key"]).startswith("turns without")]
    assert counts == [1, 2]
    for bad in (
        {"class": "Skylord", "hex": [16, 11], "facing": 0},  # not one of the classes
        {"class": "Endtime", "hex": [3, 3], "facing": 0},  # outside the city
        {"class": "Endtime", "hex": [16, 11], "facing": 0},  # the garrison's own hex
    ):
        assert refused(state, request, bad, seed).clause == "SG-SCN-24"
    state, events = submit(state, request, {"class": "Bloodrunner", "hex": [16, 12], "facing": 2}, seed)
    joined = next(e for e in events if e.kind == "reinforcement")
    new = state.board.ship("Bloodrunner 1")
    assert joined.data["clauses"] == ["SG-SCN-24"]
    assert (new.side, new.status, odd_q(new.position), new.altitude) == ("martians", "landed", (16, 12), "G")
    assert state.board.crew_at_start["Bloodrunner 1"] == new.crew_aboard
    state, _, _ = drive(state, reinforcement_at((22, 11)), seed)
    assert {s.name for s in state.board.ships} >= {"Bloodrunner 1", "Bloodrunner 2"}  # turns 3 and 4: another
    assert [o["name"] for o in RS.tally(state)["ships"]].count("Bloodrunner 2") == 1


@pytest.mark.rule("SG-SCN-24")
def test_a_turn_with_a_british_ship_over_the_city_does_not_count():
    seed = b"over the city"
    _state, events, _ = drive(begin(garrison(every=2, reliant_at=(19, 7)), seed), still(), seed)
    assert not [e for e in events if e.kind == "mark" and str(e.data["key"]).startswith("turns without")]
    assert not [e for e in events if e.kind == "reinforcement"]


# --- Scenario 6 groundwork: the landing party ------------------------------------------------------------

DANGER = "Dauntless class — HMS Danger (forced draught refit)"


def raid(*, away: int = 2, turns: int = 20) -> dict[str, Any]:
    """A small kraag by the west edge, its top at High; the Danger landed beside it at Medium; the Sandflea
    aloft; a Small Bird far off."""
    return {
        "slug": "raid",
        "title": "Raid",
        "map": {
            "cols": 14,
            "rows": 12,
            "terrain": [
                {"hexes": [{"within": [2, 5], "radius": 2}], "height": "M", "kind": "kraag shoulder"},
                {"hexes": [{"within": [2, 5], "radius": 1}], "height": "H", "kind": "kraag top"},
            ],
            "zones": {"fortress": [{"within": [2, 5], "radius": 1}]},
        },
        "turn_limit": turns,
        "special_rules": [{"rule": "landing_party", "side": "british", "zone": "fortress", "away_turns": away}],
        "victory": {"kind": "rescue", "side": "british", "turn_limit_winner": "martians"},
        "sides": [
            {
                "id": "british",
                "ships": [
                    {"name": "Danger", "class": DANGER, "position": [0, 5], "facing": 5, "landed": True},
                    ship("Sandflea", "Aphid", (8, 2), altitude="H"),
                ],
            },
            {"id": "martians", "ships": [ship("Small Bird", "Small Bird", (13, 11), altitude="VH")]},
        ],
    }


@pytest.mark.rule("SG-SCN-37")
def test_the_landing_party_is_ten_men_an_officer_and_every_surviving_marine_made_up_with_seamen():
    danger = ship_record_from_class(DANGER, name="Danger")
    assert special_rules.landing_party_composition(danger, 10) == {"officers": 1, "marines": 8, "deckhands": 1}
    hurt = replace(danger, crew=danger.crew.with_count("marines", 6))
    assert special_rules.landing_party_composition(hurt, 10) == {"officers": 1, "marines": 6, "deckhands": 3}
    dauntless = ship_record_from_class("Dauntless", name="Dauntless")  # a marine officer and 11 marines
    with pytest.raises(ValueError, match="more than 10"):
        special_rules.landing_party_composition(dauntless, 10)
    leaderless = replace(danger, crew=replace(danger.crew, captain=0, officers=0))
    with pytest.raises(ValueError, match="no officer"):
        special_rules.landing_party_composition(leaderless, 10)
    no_guns = replace(hurt, crew=hurt.crew.with_count("deckhands", 2), guns=())
    with pytest.raises(ValueError, match="seamen"):
        special_rules.landing_party_composition(no_guns, 10)


@pytest.mark.rule("SG-SCN-37")
def test_gun_crews_are_seamen_who_make_up_the_landing_party_and_go_back_to_their_guns():
    danger = ship_record_from_class(DANGER, name="Danger")
    short = replace(danger, crew=danger.crew.with_count("marines", 6).with_count("deckhands", 2))
    party = special_rules.landing_party_composition(short, 10)
    # Two deckhands, then a gunner of a light 3-pounder: the 4-inch guns and the machineguns stay manned.
    light = next(g for g in short.guns if g.weapon_id == "3pdr_hrc")
    assert party == {"officers": 1, "marines": 6, "deckhands": 2, f"gun:{light.id}": 1}
    ashore = special_rules.drop_party(short, party)
    assert ashore.gun(light.id).manned == 0
    assert ashore.men_alive == short.men_alive - 10
    back = special_rules.survivors_by_post(party, 10)
    assert special_rules.pick_up_party(ashore, back) == short
    wrecked = ashore.with_gun(replace(ashore.gun(light.id), destroyed=True))
    aboard = special_rules.pick_up_party(wrecked, back)
    assert aboard.gun(light.id).manned == 0  # no gun to go back to: he is a deckhand
    assert aboard.crew.deckhands == 3


def rescue_run(state: State, request: DecisionRequest) -> Any:
    """The Danger stays landed until the party is back aboard, then climbs and leaves by the west edge."""
    party = special_rules.party_state(state.board, "british")
    if request.kind == MOVE and request.side == "british" and "Danger" in request.ships:
        if party["state"] == "rescued":
            danger = state.board.ship("Danger")
            return ["climb", "ahead"] if danger.status == "landed" else ["ahead"]
        return []
    return still("british")(state, request)


@pytest.mark.rule("SG-SCN-38", "SG-SCN-39", "SG-SCN-40", "SG-SCN-41")
def test_the_landing_party_goes_ashore_comes_back_is_picked_up_and_carried_off_for_the_win():
    seed = b"the great raid 2"  # the party comes back on the second roll
    state = begin(raid(), seed)
    danger = state.board.ship("Danger")
    assert (danger.status, danger.altitude) == ("landed", "M")  # beside the kraag top, on the land at Medium
    aboard = danger.men_alive
    state, events, _ = drive(state, rescue_run, seed)
    marks = [e for e in events if e.kind == "mark" and e.data["key"] == "landing party british"]
    went, back, picked = (next(e for e in marks if e.data["value"]["state"] == s) for s in ("away", "back", "rescued"))
    assert went.turn == 2  # landed at the start of turn 1, a complete turn stationary: ashore at turn 2
    assert went.data["value"]["men"] == 10
    returns = [e for e in events if e.kind == "roll" and e.data["purpose"] == "landing party: does it come back"]
    assert returns[0].turn == went.turn + 2  # gone at least ``away_turns`` (2 in this test)
    assert all(r.data["dice"] != [6] for r in returns[:-1])
    assert returns[-1].data["dice"] == [6]
    assert [r.turn for r in returns] == list(range(returns[0].turn, back.turn + 1))  # one roll a turn
    survivors = next(e for e in events if e.kind == "roll" and e.data["purpose"] == "landing party: the men left")
    assert back.data["value"]["men"] == survivors.data["dice"][0]
    assert picked.turn == back.turn + 1  # a complete turn beside her party: they come aboard
    assert state.over
    assert state.winner == "british"
    assert state.board.out["Danger"] == "escaped"
    assert results(events)[0]["clauses"] == ["SG-SCN-41"]
    assert state.board.ship("Danger").men_alive == aboard - 10 + survivors.data["dice"][0]


def warband_beside_the_party(state: State) -> tuple[list[int], str]:
    """A shoulder hex next to the Danger's (at Medium, off the kraag top) for a warband, and its step back."""
    board = state.board
    landed_at = board.ship("Danger").position
    assert landed_at is not None
    top = maps.zone(board.terrain, "fortress")
    for facing in range(6):
        there = hexgrid.neighbour(landed_at, facing)
        if board.terrain.on_map(there) and there not in top and board.terrain.ground(there) == "M":
            back = flying.directions()[(facing + 3) % 6]
            return list(hexgrid.to_odd_q(there)), back
    raise AssertionError("no shoulder hex next to the Danger")


@pytest.mark.rule("SG-SCN-40", "SG-SCN-41")
def test_a_warband_that_comes_down_on_the_returned_party_overwhelms_it_and_the_martians_win():
    seed = b"the great raid 2"  # as the rescue above: the party comes back on the second roll
    data = raid()
    spot, step = warband_beside_the_party(begin(data, seed))
    data["sides"][1] |= {"high_martian": True, "boarding_quality": "trained"}
    data["sides"][1]["flying_parties"] = [{"name": "Warband", "men": 10, "position": spot, "landed": True}]
    state = begin(data, seed)
    moves: list[int] = []

    def wait_then_swoop(state: State, request: DecisionRequest) -> Any:
        if request.kind == flying.FLY:
            if special_rules.party_state(state.board, "british")["state"] != "back":
                return []  # a warband in the hex while the party is in the dungeon finds nobody
            moves.append(state.turn)
            return [step]
        return still("british")(state, request)

    state, events, _ = drive(state, wait_then_swoop, seed)
    party_marks = [e for e in events if e.kind == "mark" and e.data["key"] == "landing party british"]
    assert [e.data["value"]["state"] for e in party_marks] == ["away", "back", "lost"]
    lost = party_marks[-1]
    assert lost.data["clauses"] == ["SG-SCN-40"]
    assert lost.turn == moves[0]  # on its first move onto them: before the Danger's complete turn is up
    assert state.winner == "martians"
    assert results(events)[0]["reason"] == "the landing party is overwhelmed"


@pytest.mark.rule("SG-SCN-40")
def test_a_warband_over_the_party_but_not_down_on_it_overwhelms_nobody():
    seed = b"the great raid 2"
    data = raid()
    spot, step = warband_beside_the_party(begin(data, seed))
    data["sides"][1] |= {"high_martian": True, "boarding_quality": "trained"}
    data["sides"][1]["flying_parties"] = [{"name": "Warband", "men": 10, "position": spot, "altitude": "H"}]
    state = begin(data, seed)

    def hover(state: State, request: DecisionRequest) -> Any:
        if request.kind == flying.FLY:
            party = flying.find(state.board.flyers, "Warband")
            assert party is not None
            return [step] if party.position != state.board.ship("Danger").position else []  # stays a level up
        return rescue_run(state, request)

    state, events, _ = drive(state, hover, seed)
    marks = [e.data["value"]["state"] for e in events if e.kind == "mark" and e.data["key"] == "landing party british"]
    assert "lost" not in marks
    assert state.winner == "british"


@pytest.mark.rule("SG-SCN-40")
def test_a_flyer_who_does_not_outnumber_the_survivors_overwhelms_nobody():
    seed = b"the great raid 2"
    data = raid()
    spot, step = warband_beside_the_party(begin(data, seed))
    data["sides"][1] |= {"high_martian": True, "boarding_quality": "trained"}
    data["sides"][1]["flying_parties"] = [{"name": "Scout", "men": 1, "position": spot, "landed": True}]
    landed: list[int] = []

    def one_man_swoop(state: State, request: DecisionRequest) -> Any:
        if request.kind == flying.FLY:
            if special_rules.party_state(state.board, "british")["state"] != "back":
                return []
            landed.append(state.turn)
            return [step]  # down on the party's hex (the Danger's), at the land's height
        return rescue_run(state, request)

    state, events, _ = drive(begin(data, seed), one_man_swoop, seed)
    party_marks = [e for e in events if e.kind == "mark" and e.data["key"] == "landing party british"]
    assert [e.data["value"]["state"] for e in party_marks] == ["away", "back", "rescued"]
    assert landed == [party_marks[1].turn]  # he came down among them, one man against one survivor or more
    scout = flying.find(state.board.flyers, "Scout")
    assert scout is not None
    assert scout.position.to_json() == party_marks[1].data["value"]["hex"]
    assert state.winner == "british"


@pytest.mark.rule("SG-HM-03", "SG-SCN-40")
def test_warbands_fly_on_when_their_galleys_are_gone_and_the_raid_goes_on():
    seed = b"the great raid 2"
    data = raid()
    spot, step = warband_beside_the_party(begin(data, seed))
    data["sides"][1] |= {"high_martian": True, "boarding_quality": "trained"}
    data["sides"][1]["flying_parties"] = [{"name": "Warband", "men": 10, "position": spot, "landed": True}]
    struck = still("british", {"martians": {"strike": ["Small Bird"]}})
    flown: list[int] = []

    def swoop(state: State, request: DecisionRequest) -> Any:
        if request.kind == flying.FLY:
            flown.append(state.turn)
            return [step] if special_rules.party_state(state.board, "british")["state"] == "back" else []
        return struck(state, request)

    state, events, _ = drive(begin(data, seed), swoop, seed)
    gone = next(e for e in events if e.kind == "out" and e.data["ship"] == "Small Bird")
    assert not state.board.fighting("martians")
    assert [t for t in flown if t > gone.turn]  # the warband still has its movement phase
    assert state.winner == "martians"
    assert results(events)[0]["reason"] == "the landing party is overwhelmed"


@pytest.mark.rule("SG-SCN-40", "SG-HM-03")
def test_the_ai_garrison_holds_the_kraag_top_then_comes_down_on_the_returned_party():
    seed = b"the great raid 2"
    data = raid()
    board = begin(data, seed).board
    top = maps.zone(board.terrain, "fortress")
    landed_at = board.ship("Danger").position
    assert landed_at is not None
    post = next(h for h in sorted(top, key=lambda h: h.to_json()) if hexgrid.distance(h, landed_at) == 1)
    data["sides"][1] |= {"high_martian": True, "boarding_quality": "trained", "ai": {"garrison": "fortress"}}
    warband = {"name": "Warband", "men": 10, "position": list(hexgrid.to_odd_q(post)), "landed": True}
    data["sides"][1]["flying_parties"] = [warband]
    captain = tactics.Captain(seed)
    posts: list[tuple[str, hexgrid.Hex]] = []

    def garrison(state: State, request: DecisionRequest) -> Any:
        if request.side == "martians":
            party = flying.find(state.board.flyers, "Warband")
            if party is not None:
                posts.append((special_rules.party_state(state.board, "british")["state"], party.position))
            return captain.choose(RS, state, request)
        return still("british")(state, request)

    state, events, _ = drive(begin(data, seed), garrison, seed)
    # While the party is in the dungeon the warband keeps to the kraag: no flight to its galley far off.
    reach = scenario_ai.GARRISON_REACH
    assert all(min(hexgrid.distance(at, h) for h in top) <= reach for _, at in posts)
    assert any(party_state == "back" for party_state, _ in posts)
    marks = [e.data["value"]["state"] for e in events if e.kind == "mark" and e.data["key"] == "landing party british"]
    assert marks == ["away", "back", "lost"]
    assert state.winner == "martians"


def ceiling_down_to(record: ShipRecord, height: str) -> ShipRecord:
    """Every hull row above ``height`` checked off: her ceiling falls to it (SG-DMG-14)."""
    level = altitude_level(height)
    rows = tuple(replace(r, hits=r.boxes) if altitude_level(r.altitude) > level else r for r in record.hull_rows)
    return replace(record, hull_rows=rows)


@pytest.mark.rule("SG-SCN-38", "SG-SCN-40", "SG-DMG-14", "SG-ALT-11")
def test_the_ai_sends_to_fetch_the_party_only_a_ship_that_can_climb_off_the_land_again():
    data = raid()
    data["sides"][0]["ai"] = {"careful": True}
    board = begin(data, b"the fetch").board
    danger = board.ship("Danger")
    assert danger.position is not None
    back = {"state": "back", "ship": "Danger", "hex": danger.position.to_json(), "men": 3}
    board = replace(board, marks={**board.marks, special_rules.party_key("british"): back})
    # Sound, the Danger is the nearer ship (she is on the party's hex) and fetches it; the Sandflea keeps clear.
    assert scenario_ai.landing_goal(board, board.ship("Danger")) == danger.position
    assert scenario_ai.landing_goal(board, board.ship("Sandflea")) is None
    # Her Very High and High rows gone, landed at Medium she could never climb off: the Sandflea goes.
    hurt = board.with_ship(ceiling_down_to(danger, "M"))
    assert not scenario_ai.can_climb_off(hurt.ship("Danger"), "M")
    assert scenario_ai.landing_goal(hurt, hurt.ship("Danger")) is None
    assert scenario_ai.landing_goal(hurt, hurt.ship("Sandflea")) == danger.position
    # Neither can climb off: nobody lands to sit there with the survivors.
    both = hurt.with_ship(ceiling_down_to(hurt.ship("Sandflea"), "M"))
    assert scenario_ai.landing_goal(both, both.ship("Sandflea")) is None


@pytest.mark.rule("SG-SCN-37", "SG-SCN-38", "SG-DMG-14")
def test_the_ai_lands_the_party_from_no_ship_that_could_not_climb_off_the_land_again():
    data = raid()
    data["sides"][0]["ai"] = {"careful": True}
    data["sides"][0]["ships"][0] = ship("Danger", DANGER, (6, 2), altitude="H")
    board = begin(data, b"the landing").board
    late = scenario_ai.GALLEYS_FIRST_UNTIL  # the galleys are not waited for
    assert scenario_ai.landing_goal(board, board.ship("Danger"), late) is not None
    hurt = board.with_ship(ceiling_down_to(board.ship("Danger"), "M"))
    assert scenario_ai.landing_goal(hurt, hurt.ship("Danger"), late) is None


@pytest.mark.rule("SG-SCN-38", "SG-SCN-39")
def test_the_careful_ai_lands_the_party_once_the_galleys_are_down_or_the_time_runs_short():
    data = raid()
    data["sides"][0]["ai"] = {"careful": True}
    data["sides"][0]["ships"][0] = ship("Danger", DANGER, (6, 2), altitude="H")
    board = begin(data, b"the galleys first").board
    danger = board.ship("Danger")
    early, late = 1, scenario_ai.GALLEYS_FIRST_UNTIL
    assert scenario_ai.landing_goal(board, danger, early) is None  # the Small Bird still flies
    assert scenario_ai.landing_goal(board, danger, late) is not None  # no time left to wait for her
    downed = replace(board, out={**board.out, "Small Bird": "crashed"})
    assert scenario_ai.landing_goal(downed, danger, early) is not None


@pytest.mark.rule("SG-SCN-41")
def test_the_martians_win_if_the_party_never_gets_home():
    seed = b"no rescue"
    state, events, _ = drive(begin(raid(away=30, turns=3), seed), still("british"), seed)
    assert state.winner == "martians"
    strike = still("british", {"british": {"strike": ["Danger", "Sandflea"]}})
    state, events, _ = drive(begin(raid(), seed), strike, seed)
    assert state.winner == "martians"
    assert "no ship left" in str(results(events)[0]["reason"])


# --- the AI plays each scenario to its end ---------------------------------------------------------------


@functools.cache
def ai_battle(slug: str, run: int) -> simulate.Simulation:
    """Run ``run`` of simulation 1 of a scenario (``simulate_battle --seed 1``), played once for the tests that
    read it. Simulations are immutable, so sharing one hides nothing."""
    return simulate.simulate(RS, scenario.load_data(slug), seed=simulate.seed_for(1, run))


@pytest.mark.parametrize("slug", [S2, S3, S5, S7])
def test_the_ai_plays_each_scenario_to_the_end_and_the_log_replays_it(slug):
    played = ai_battle(slug, 0)  # run 0 of Scenarios 2 and 3 is also one of the AI battles below
    assert played.final.over
    assert played.outcome["winner"] in (None, *played.final.board.side_order)
    rebuilt = resolver.replay(RS, played.initial, played.events)
    assert state_json(rebuilt) == state_json(played.final)
    assert RS.check_invariants(played.final) == []


def state_json(state: State) -> str:
    from battles.engine.state import state_to_json

    return state_to_json(RS, state)


@pytest.mark.rule("SG-SCN-12")
def test_the_irish_ai_cripples_the_aphid_then_runs():
    found = []
    for run in range(12):
        played = ai_battle(S2, run)
        if played.outcome["winner"] == "irish":
            found.append(played)
    assert found, "in a dozen battles the Irish get away at least once"
    for played in found:
        assert played.final.board.out["Fenian Ram"] == "escaped"


@pytest.mark.rule("SG-SCN-17", "SG-SCN-19")
def test_the_german_ai_stops_the_kite_boards_her_and_carries_roemer_off():
    wins = 0
    for run in range(8):
        played = ai_battle(S3, run)
        kinds = [e.kind for e in played.events]
        if played.outcome["winner"] == "germans":
            wins += 1
            assert "captured" in kinds
            assert victory.prize_state(played.final.board, KITE)["aboard"] == "Hamburg"
            assert played.final.board.out["Hamburg"] == "escaped"
    assert wins, "in eight battles the Germans pull it off at least once"


def german_orders(state: State) -> dict[str, Any]:
    request = next(r for r in state.pending() if r.kind == ORDERS and r.side == "germans")
    answer = tactics.Captain(b"s3 ai").propose(RS, state, request)
    assert isinstance(answer, dict)
    assert RS.validate(state, request, answer) is None
    return answer


def short_handed(record: ShipRecord) -> ShipRecord:
    """Every gun one man short: deckhands wanted at all of them."""
    for gun in record.guns:
        record = record.with_gun(replace(gun, manned=gun.crew - 1))
    return record


def kite_taken(seed: bytes = b"s3 seize 1") -> State:
    """Scenario 3 with the kite boarded by the Hamburg's marines (the scripted seizure), at the Germans'
    next orders."""
    state = begin(s3((0, 12), (0, 12), hamburg_facing=0, kite_facing=1, turns=8), seed)
    state, _, request = drive(state, seize, seed, lambda s, r: KITE in s.board.captured and r.kind == ORDERS)
    assert request is not None
    return state


@pytest.mark.rule("SG-GRAP-02", "SG-SCN-19")
def test_the_german_ai_keeps_its_deckhands_for_the_grapnels_until_the_kite_is_taken():
    seed = b"s3 grapnels"
    state, _, _ = drive(begin(s3((5, 12), (3, 12), kite_facing=1), seed), still(), seed, at(ORDERS, "germans"))
    state = with_record(state, short_handed(state.board.ship("Hamburg")))
    assert not [c for c in german_orders(state)["crew"] if c.get("from") == "deckhands"]
    state = kite_taken()
    state = with_record(state, short_handed(state.board.ship("Hamburg")))
    assert [c for c in german_orders(state)["crew"] if c.get("from") == "deckhands"]


@pytest.mark.rule("SG-BRD-24", "SG-SCN-19")
def test_the_german_ai_holds_the_kite_and_never_scuttles_her():
    state = kite_taken()
    assert state.board.prizes[KITE].captor == "germans"
    assert ai_orders.prize_orders(state, "germans") == {}
    assert "prizes" not in german_orders(state)


@pytest.mark.rule("SG-BRD-01", "SG-BRD-04")
def test_the_german_party_forms_only_for_the_turn_it_closes_with_the_kite():
    seed = b"s3 party"
    state, _, _ = drive(begin(s3((5, 12), (3, 12), kite_facing=1), seed), still(), seed, at(ORDERS, "germans"))
    hamburg = state.board.ship("Hamburg")
    crew = replace(hamburg.crew, marines=0, marine_officers=1)
    formed = replace(hamburg, crew=crew, party=replace(hamburg.party, officers=1, marines=18))
    state = with_record(state, formed)
    assert not special_rules.hove_to(state.board, KITE)  # she still runs: no grapple this turn
    assert german_orders(state).get("disband") == ["Hamburg"]
    kite = state.board.ship(KITE)
    state = with_record(state, replace(kite, hull_rows=(replace(kite.hull_rows[0], hits=1), *kite.hull_rows[1:])))
    assert special_rules.hove_to(state.board, KITE)
    orders = german_orders(state)
    assert "disband" not in orders
    assert orders.get("ram") == 1


@pytest.mark.rule("SG-BRD-01", "SG-BRD-03", "SG-SCN-17")
def test_the_german_party_for_the_kite_is_a_prize_party_the_other_marines_stay_at_their_posts():
    seed = b"s3 prize party"
    state, _, _ = drive(begin(s3((5, 12), (3, 12), kite_facing=1), seed), still(), seed, at(ORDERS, "germans"))
    kite = state.board.ship(KITE)
    state = with_record(state, replace(kite, hull_rows=(replace(kite.hull_rows[0], hits=1), *kite.hull_rows[1:])))
    [party] = german_orders(state)["parties"]
    assert party["men"] == {"marine_officers": 1, "marines": 5}


@pytest.mark.rule("SG-GRAP-05", "SG-SCN-19")
def test_the_hamburg_holding_the_kite_casts_off_a_british_ship_grappled_alongside():
    state = kite_taken()
    hamburg, dauntless = state.board.ship("Hamburg"), state.board.ship("Dauntless")
    state = with_record(state, replace(hamburg, grappled_with=(*hamburg.grappled_with, "Dauntless")))
    alongside = replace(dauntless, position=hamburg.position, altitude=hamburg.altitude, grappled_with=("Hamburg",))
    state = with_record(state, alongside)
    assert ["Hamburg", "Dauntless"] in german_orders(state)["cut"]
    assert ["Hamburg", KITE] not in german_orders(state)["cut"]  # her boarders hold the kite


@pytest.mark.rule("SG-SCN-19", "SG-GRAP-01")
def test_the_british_go_for_the_hamburg_alongside_the_kite_when_their_boarders_outweigh_hers():
    state = kite_taken()  # the Hamburg's marines are across, her defenders few
    hamburg = state.board.ship("Hamburg")
    near = hexgrid.neighbour(hamburg.position, 2)
    dauntless = replace(state.board.ship("Dauntless"), position=near, altitude=hamburg.altitude)
    state = with_record(state, dauntless)
    assert ai_reading.prize_for(state, dauntless) == hamburg  # grappled with the kite, and still fair game
    unguarded = state.evolve(board=replace(state.board, ai={**state.board.ai, "british": {}}))
    assert ai_reading.prize_for(unguarded, dauntless) is None  # a ship grappled already is left alone
    home = replace(hamburg, crew=replace(hamburg.crew, marines=18))  # her marines at home: too many
    assert ai_reading.prize_for(with_record(state, home), dauntless) is None


def escort_scores(state: State, name: str) -> dict[tuple[hexgrid.Hex, str], float]:
    """The British captain's best score for ending ``name``'s move at each hex and height."""
    record = state.board.ship(name)
    traced = RS.traced_moves(state, record)
    best: dict[tuple[hexgrid.Hex, str], float] = {}
    for (score, _plan), (_p, steps) in zip(ai_moves.score_moves(state, record, traced), traced, strict=True):
        end = (steps[-1].hex, steps[-1].altitude) if steps else (record.position, record.altitude)
        best[end] = max(best.get(end, -1e9), score)
    return best


@pytest.mark.rule("SG-SCN-19", "SG-SCN-17")
def test_the_nearest_british_escort_weighs_coming_alongside_the_kite_held_by_german_boarders():
    seed = b"s3 seize 1"
    state = begin(s3((12, 14), (12, 14), hamburg_facing=0, kite_facing=1, turns=8), seed)  # mid-map, clear
    state, _, move = drive(state, seize, seed, lambda s, r: KITE in s.board.captured and at(MOVE, "british")(s, r))
    assert move is not None
    kite = state.board.ship(KITE)
    assert victory.prize_state(state.board, KITE)["held"] is None  # the hold is still to be made
    near = hexgrid.neighbour(hexgrid.neighbour(kite.position, 2), 2)  # two hexes off, at her height
    state = with_record(state, replace(state.board.ship("Dauntless"), position=near, altitude=kite.altitude, facing=5))
    beside = (kite.position, kite.altitude)
    guarded = escort_scores(state, "Dauntless")
    unguarded = escort_scores(
        state.evolve(board=replace(state.board, ai={**state.board.ai, "british": {}})), "Dauntless"
    )
    assert beside in guarded
    # Beside her the escort disputes the hold: that spot, and only that one, is worth more to a guarding side.
    assert guarded[beside] - unguarded[beside] == pytest.approx(scenario_ai.GUARD_ALONGSIDE)
    assert all(guarded[end] == pytest.approx(unguarded[end]) for end in guarded if end != beside)
    # One escort keeps station by her, the nearest; the Daring, far off, fights.
    assert scenario_ai.alongside_guarded(state.board, state.board.ship("Daring"), *beside) == 0.0
    # Once the hold is made and Roemer taken, sitting beside her gains nothing: the Hamburg is the quarry.
    marks = {**state.board.marks, f"prize {KITE}": {"boarded": 1, "held": "Hamburg", "aboard": None}}
    held = state.evolve(board=replace(state.board, marks=marks))
    assert scenario_ai.alongside_guarded(held.board, held.board.ship("Dauntless"), *beside) == 0.0


@pytest.mark.rule("SG-SCN-16", "SG-KITE-01")
@pytest.mark.parametrize(("wind", "entry", "kite_facing"), [(1, "east", 4), (4, "west", 1), (0, "north", 3)])
def test_the_british_ai_enters_where_the_kite_runs_downwind_to_the_far_edge(wind, entry, kite_facing):
    seed = b"s3 entry"
    data = copy.deepcopy(scenario.load_data(S3))
    data["wind"] = wind  # the hexside it blows from: the run is toward the opposite one

    def captain_places(state: State, request: DecisionRequest) -> Any:
        return tactics.Captain(b"s3 ai").choose(RS, state, request)

    state, _, move = drive(begin(data, seed), captain_places, seed, lambda _s, r: r.kind != PLACE)
    assert move is not None
    board = state.board
    assert board.marks["entry british"] == entry
    assert special_rules.exit_edges(board, "british") == (maps.OPPOSITE[entry],)
    assert board.ship(KITE).facing == kite_facing
    for name in ("Passenger Kite", "Dauntless", "Daring"):
        assert maps.edge_of(board.terrain, board.ship(name).position) == entry
    assert odd_q(board.ship("Hamburg").position) == (13, 11)  # the Germans keep the scenario's set-up


@pytest.mark.rule("SG-CREW-03", "SG-SCN-19")
def test_the_hamburg_holding_the_kite_does_not_strike_though_her_guns_are_silent():
    state = kite_taken()
    hamburg = state.board.ship("Hamburg")
    for gun in hamburg.guns:
        hamburg = hamburg.with_gun(replace(gun, manned=0))
    hamburg = replace(hamburg, crew=replace(hamburg.crew, deckhands=0))
    state = with_record(state, hamburg)
    assert not ai_reading.armed(hamburg)
    for name, spot in (("Dauntless", (0, 11)), ("Daring", (1, 12))):  # both gunboats on her
        state = with_record(state, replace(state.board.ship(name), position=hex_(*spot)))
    assert not ai_reading.beaten(state.board, hamburg)
    assert german_orders(state)["strike"] == []


# --- engine fixes found by the new maps and scenarios ----------------------------------------------------


def test_a_kite_avoiding_with_nobody_at_the_helm_holds_no_more_than_her_heading_allows():
    seed = b"kite helm"
    data = fixed(S7)
    data["special_rules"] = []
    state = begin(data, seed)
    kite = state.board.ship("Whisperdeath 2")
    kite = replace(kite, crew=replace(kite.crew, helmsman=0))
    board = replace(
        state.board.with_ship(kite),
        avoiding={kite.name: 3},
        last_moved={kite.name: 5},
        kite_dice={kite.name: 5},
        wind=3,
    )
    state = state.evolve(board=board)
    allowed = RS.allowance(state, kite)
    assert allowed.held_speed is not None
    assert allowed.sail is not None
    assert allowed.held_speed <= allowed.sail.on(kite.facing)
    assert validate.move_problem(state, kite, RS.default_move(state, kite)) is None


def test_a_landed_ship_with_nobody_at_the_helm_stays_on_the_ground():
    seed = b"landed helm"
    state = begin(garrison(), seed)
    endtime = state.board.ship("Endtime")
    endtime = replace(endtime, crew=replace(endtime.crew, helmsman=0))
    state = state.evolve(board=replace(state.board.with_ship(endtime), last_moved={"Endtime": 1}))
    assert RS.default_move(state, endtime) == []
    assert validate.move_problem(state, endtime, []) is None


def test_a_forced_drop_onto_the_land_crashes_the_ship_in_the_same_event():
    seed = b"forced drop"
    data = {
        "slug": "drop",
        "title": "Drop",
        "map": {"cols": 10, "rows": 8, "terrain": [{"hex": [3, 3], "height": "L"}]},
        "turn_limit": 2,
        "sides": [
            {"id": "a", "ships": [ship("Sinking", "Sky Runner", (3, 3), altitude="M")]},
            {"id": "b", "ships": [ship("Other", "Sky Runner", (8, 6))]},
        ],
    }
    initial = resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed))
    state = resolver.resolve(RS, initial, seed).state
    sinking = state.board.ship("Sinking")
    rows = tuple(replace(r, hits=r.boxes) if r.altitude in ("H", "M") else r for r in sinking.hull_rows)
    start = state.evolve(board=state.board.with_ship(replace(sinking, hull_rows=rows)))  # ceiling L over land at L
    state, events, _ = drive(start, still("a"), seed, at(MOVE, "a"))
    drop = next(e for e in events if e.kind == "forced drop")
    assert drop.data["crashed"] is True
    assert state.board.out["Sinking"] == "crashed"
    current = start
    for event in events:  # no state on the way has her flying inside the ground
        current = resolver.apply_event(RS, current, event)
        assert not [p for p in RS.check_invariants(current) if "inside the ground" in p]


def test_a_ship_a_rule_drops_to_the_height_of_the_land_under_her_has_crashed():
    from battles.rules.sky_galleons.phases.basics import into_the_land as _into_the_land

    terrain = maps.build_terrain({"base": "highland"})
    galley = ship_record_from_class("Glory Sled", name="Sled", position=hex_(15, 7), altitude="VL")
    assert terrain.ground(hex_(15, 7)) == "VL"  # the kraag's foothills
    crashed = _into_the_land(terrain, galley)  # a loss of trim dropped her to VL over land at VL
    assert (crashed.status, crashed.altitude, crashed.afloat) == ("crashed", "VL", False)
    higher = replace(galley, altitude="L")
    assert _into_the_land(terrain, higher) is higher
