"""Exotic ordnance as the ruleset plays it (ordnance_play.py): scenarios with ground batteries, mines and target
hexes; the Initiative Phase orders for mines, drogues and bomb reloads; mines and drogues set off as ships move;
drops declared with a move; Hale salvoes, Smutts launches and torpedo runs, grapnel shots; ground batteries
firing and fired at; the bombardment victory. Each test drives a real battle from a small scenario with
scripted decisions; the pure rules are tested in test_ordnance.py.

Columns run east, rows south (odd-q offset [col, row]); a ship facing 0 moves north, one row a hex up its
column. Altitudes G, VL, L, M, H, VH are levels 0-5.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, policies, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import Event
from battles.engine.state import BattleState
from battles.rules.sky_galleons import ordnance, ordnance_play, scenario
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import AVOID, FIRE, FIRST, MOVE, ORDERS, POSITION
from battles.rules.sky_galleons.ordnance import BOMB_RACK, DROGUE, HALE, LIQUID_FIRE, SPIKES
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import Criticals, ShipRecord, build_ordnance
from tests.rules.sky_galleons.battle_harness import drive, submit

State = BattleState[Board]
Decide = Callable[[State, DecisionRequest], Any]


# --- driving a battle ---------------------------------------------------------------------------------------


def ship(
    name: str, cls: str, at: tuple[int, int], facing: int = 0, altitude: str = "M", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude, **extra}


def battle(
    a: Sequence[dict[str, Any]],
    b: Sequence[dict[str, Any]],
    *,
    turns: int = 4,
    b_ground: Mapping[str, Any] | None = None,
    a_ground: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    size: tuple[int, int] = (20, 16),
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "slug": "ordnance-test",
        "title": "Ordnance test",
        "map": {"cols": size[0], "rows": size[1], "terrain": list(terrain)},
        "turn_limit": turns,
        "sides": [
            {"id": "a", "ships": list(a), **(a_ground or {})},
            {"id": "b", "ships": list(b), **(b_ground or {})},
        ],
    }
    if victory is not None:
        data["victory"] = dict(victory)
    return data


def begin(data: Mapping[str, Any], seed: bytes, options: Mapping[str, Any] | None = None) -> State:
    initial = resolver.new_battle(RS, dict(data), seed_commitment=dice.commitment(seed), options=options)
    return resolver.resolve(RS, initial, seed).state


def refused(state: State, request: DecisionRequest, choice: Any) -> Rejection:
    problem = RS.validate(state, request, choice)
    assert problem is not None, f"expected {choice} to be refused"
    return problem


def script(
    orders: Mapping[str, Any] | None = None,
    moves: Mapping[str, Any] | None = None,
    fire: Mapping[str, Any] | None = None,
    first: str = "a",
) -> Decide:
    """Orders per side, moves by ship and fire declarations by side, for turn 1 unless keyed (name, turn);
    a fire declaration is made once, at the first fire step it can be; side ``first`` moves first; nothing
    else moves or fires."""
    fired: set[Any] = set()

    def pick(table: Mapping[Any, Any] | None, key: str, turn: int) -> Any:
        if not table:
            return None
        if (key, turn) in table:
            return table[(key, turn)]
        return table.get(key) if turn == 1 else None

    def decide(state: State, request: DecisionRequest) -> Any:
        turn = state.turn
        if request.kind == ORDERS:
            return {"crew": [], "strike": [], **(pick(orders, request.side, turn) or {})}
        if request.kind == FIRST:
            return first if first in (request.options or ()) else None
        if request.kind == MOVE:
            return pick(moves, request.ships[0], turn) or []
        if request.kind == FIRE:
            key = (request.side, turn) if fire and (request.side, turn) in fire else request.side
            if key in fired or pick(fire, request.side, turn) is None:
                return {"shots": []}
            fired.add(key)
            return pick(fire, request.side, turn)
        if request.kind == POSITION:
            return None
        return None

    return decide


def at(kind: str, side: str | None = None, turn: int | None = None) -> Callable[[State, DecisionRequest], bool]:
    return lambda state, request: (
        request.kind == kind and (side is None or request.side == side) and (turn is None or state.turn == turn)
    )


def kinds(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def rolls(events: Sequence[Event], words: str) -> list[Event]:
    return [e for e in events if e.kind == "roll" and words in str(e.data["purpose"])]


def notes(events: Sequence[Event], words: str) -> list[dict[str, Any]]:
    return [n for e in kinds(events, "effects") for n in e.data["notes"] if words in str(n["what"])]


def fire_request(side: str) -> DecisionRequest:
    """A fire declaration to check answers against, where the battle asks none."""
    return DecisionRequest("check", side, FIRE, "", "SG-SEQ-05", {"shots": []})


def equip(state: State, name: str, *exotics: tuple[str, int], **changes: Any) -> State:
    """The ship with these exotics instead of its own (and any other record changes), for a test."""
    record = state.board.ship(name)
    if exotics:
        record = replace(record, ordnance=build_ordnance(list(exotics)))
    return replace(state, board=state.board.with_ship(replace(record, **changes)))


def item_states(record: ShipRecord, *weapons: str) -> list[str]:
    return [i.state for i in record.items_of(*weapons)]


AHEAD = "ahead"


# --- set-up: the scenario's ground and the ships' ordnance ---------------------------------------------------

RAID_GROUND: dict[str, Any] = {
    "batteries": [
        {"name": "Rod One", "gun": "Rod Gun", "position": [12, 4]},
        {"name": "Kraag Guns", "guns": ["Rogue", "Rogue"], "position": [14, 3], "armor": 2, "crew_quality": "green"},
    ],
    "tether_mines": [{"position": [14, 3], "count": 10}, {"name": "Bombs", "position": [12, 6], "kind": "british"}],
    "ground_targets": [{"name": "Shastapsh", "hexes": [[13, 7], [14, 7]], "points": 15}],
}
KRAAG = [{"hex": [14, 3], "height": "H"}]


@pytest.mark.rule("SG-BOMB-01", "SG-GB-01", "SG-GB-04", "SG-TM-06", "SG-HALE-07", "SG-CLS-02", "SG-CG-83")
def test_a_scenario_sets_batteries_mines_and_target_hexes_on_the_ground_and_ships_keep_their_ordnance() -> None:
    data = battle(
        [ship("Reliant", "Reliant", (2, 8))],
        [ship("Gull", "Endtime", (13, 7), landed=True), ship("Sled", "Skyfire", (10, 8), tether_mines=2)],
        b_ground=RAID_GROUND,
        terrain=KRAAG,
    )
    board = begin(data, b"setup").board
    rod, kraag = board.ship("Rod One"), board.ship("Kraag Guns")
    assert (rod.emplacement, rod.altitude, rod.status, rod.armor, rod.side) == ("battery", "G", "landed", 0, "b")
    # on top of the kraag, at its height; both guns behind the armor, all round (SG-GB-01/04)
    assert (kraag.altitude, kraag.armor, kraag.crew_quality) == ("H", 2, "green")
    assert [(g.weapon_id, g.armor, len(g.arcs)) for g in kraag.guns] == [("rogue", 2, 4), ("rogue", 2, 4)]
    mines = board.ship("mines b 14,3")
    assert (mines.emplacement, mines.altitude, item_states(mines, *ordnance.MINES)) == (
        "minefield",
        "H",
        ["raised"] * 10,
    )
    assert board.ship("Bombs").items_of("tether_mine_british")
    city = [board.ship("Shastapsh (13,7)"), board.ship("Shastapsh (14,7)")]
    assert [(c.emplacement, c.hull_boxes, c.hull_hits) for c in city] == [("city", 15, 0), ("city", 15, 0)]
    # a ship landed in the city sits on its ground; the Skyfire carries two mines more than its class
    assert (board.ship("Gull").status, board.ship("Gull").altitude) == ("landed", "G")
    assert [i.id for i in board.ship("Sled").items_of(*ordnance.MINES)] == ["M1", "M2", "M3", "M4", "M5"]
    # the Reliant's Hale batteries come laid out port and starboard, down then up
    assert [(i.aspect, i.angle) for i in board.ship("Reliant").items_of(HALE)][:4] == [
        ("port", "down"),
        ("starboard", "down"),
        ("port", "up"),
        ("starboard", "up"),
    ]
    # the ground is neither fighting nor moving; it is on the board all the same
    assert [s.name for s in board.fighting("b")] == ["Gull", "Sled"]
    assert len(board.emplacements("b")) == 6


@pytest.mark.rule("SG-SMT-02", "SG-SMT-09")
@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"b_ship": {"tether_mines": {"count": 2, "kind": "venusian"}}}, "'martian' or 'british'"),
        ({"batteries": [{"name": "X", "gun": "Tether Mine (Martian)", "position": [12, 4]}]}, "not a gun"),
        ({"batteries": [{"name": "X", "position": [12, 4]}]}, "'gun' or a list of 'guns'"),
        ({"ground_targets": [{"name": "X", "kind": "village", "hexes": [[1, 1]], "points": 3}]}, "kind is one of"),
        ({"tether_mines": [{"position": [40, 1]}]}, "off the"),
        ({"victory": {"kind": "bombardment", "side": "b"}}, "needs a city or fortress hex of another side"),
        ({"victory": {"kind": "bombardment", "side": "c"}}, "victory.side: .c. is not a side"),
        ({"b_ship": {"landed": "yes"}}, "landed is true or false"),
        ({"name_clash": True}, "two ships are called"),
    ],
)
def test_the_loader_refuses_a_bad_ground_or_fit(change: dict[str, Any], words: str) -> None:
    b_ship = ship("Gull", "Endtime", (13, 7), **change.pop("b_ship", {}))
    ground = {k: v for k, v in change.items() if k in ("batteries", "tether_mines", "ground_targets")}
    if change.get("name_clash"):
        ground = {"batteries": [{"name": "Gull", "gun": "Rod Gun", "position": [12, 4]}]}
    data = battle([ship("Reliant", "Reliant", (2, 8))], [b_ship], b_ground=ground, victory=change.get("victory"))
    with pytest.raises(scenario.ScenarioError, match=words):
        scenario.parse(data)


@pytest.mark.rule("SG-SMT-02", "SG-SMT-09")
def test_a_smutts_fit_the_rules_forbid_is_refused_at_set_up() -> None:
    """The loader's fitting check (ordnance_play.fit_ship, called for every scenario ship): no catalog class
    breaks it, so the records are made to."""
    found = scenario.parse(battle([ship("T", "Triumph", (2, 8))], [ship("S", "Sky Runner", (13, 7))]))
    triumph, galley = found.ships
    assert ordnance_play.fit_ship(triumph, {}, found.terrain) == triumph
    discharger = next(g for g in triumph.guns if ordnance.is_discharger(g))
    with pytest.raises(ValueError, match="SG-SMT-09"):  # torpedoes and nothing to launch them
        ordnance_play.fit_ship(replace(triumph, guns=()), {}, found.terrain)
    with pytest.raises(ValueError, match="SG-SMT-02"):  # a discharger on a screw galley
        ordnance_play.fit_ship(replace(galley, guns=(*galley.guns, replace(discharger, id="9"))), {}, found.terrain)


# --- the Initiative Phase: mines, drogues, bomb reloads ------------------------------------------------------

RAISE = {"b": {"mines": [{"ship": "Sled", "raised": True}]}}


@pytest.mark.rule("SG-TM-03", "SG-TM-04", "SG-TM-06", "SG-CG-34", "SG-CG-35", "SG-CG-37")
def test_mines_raised_in_the_orders_stay_raised_and_hold_the_move_to_three_hexes() -> None:
    data = battle([ship("Dart", "Dauntless (original design)", (2, 12))], [ship("Sled", "Skyfire", (10, 12))])
    seed = b"mines-raised"
    state = begin(data, seed)
    prompts = {r.side: r.prompt for r in state.pending() if r.kind == ORDERS}
    assert "tether mines raised or lowered" in prompts["b"]
    assert "mines" not in prompts["a"]
    state, events, request = drive(state, script(orders=RAISE, first="b"), seed, at(MOVE, "b"))
    assert notes(events, "tether mines are raised")
    assert item_states(state.board.ship("Sled"), *ordnance.MINES) == ["raised"] * 3
    assert request is not None
    # a Skyfire has speed 3 anyway: give it 5 to see the mines hold it to 3 hexes
    state = equip(state, "Sled", speed=5)
    assert RS.allowance(state, state.board.ship("Sled")).speed == 5
    assert refused(state, request, [AHEAD] * 4).clause == "SG-TM-04"
    assert RS.validate(state, request, [AHEAD] * 3) is None
    assert all(plan.count(AHEAD) <= 3 for plan, _ in RS.traced_moves(state, state.board.ship("Sled")))
    # next turn, no new declaration: still raised; lowered, the limit goes
    state, _, request = drive(state, script(first="b"), seed, at(MOVE, "b", turn=2))
    assert item_states(state.board.ship("Sled"), *ordnance.MINES) == ["raised"] * 3
    lower = {("b", 3): {"mines": [{"ship": "Sled", "raised": False}]}}
    state, events, request = drive(state, script(orders=lower, first="b"), seed, at(MOVE, "b", turn=3))
    assert notes(events, "tether mines are lowered")
    assert request is not None
    state = equip(state, "Sled", speed=5)
    assert RS.validate(state, request, [AHEAD] * 4) is None


@pytest.mark.rule("SG-TM-03", "SG-DT-02", "SG-CG-77", "SG-TM-05")
@pytest.mark.parametrize(
    ("orders", "clause"),
    [
        ({"mines": [{"ship": "Dart", "raised": True}]}, "SG-TM-03"),
        ({"mines": [{"ship": "Sled", "raised": "yes"}]}, "SG-TM-03"),
        ({"mines": [{"ship": "Sled", "raised": True}, {"ship": "Sled", "raised": False}]}, "SG-TM-03"),
        ({"mines": [{"ship": "Gull", "raised": True}]}, "SG-TM-03"),
        ({"drogues": [{"ship": "Sled", "lowered": True}]}, "SG-DT-02"),
        ({"reload": [{"ship": "Sled", "rack": "B1"}]}, "SG-CG-77"),
        ({"cut_mines": ["Sled"]}, "SG-TM-05"),
        ({"cut_mines": "Sled"}, "SG-SEQ-02"),
    ],
)
def test_ordnance_orders_the_ship_cannot_carry_out_are_refused(orders: dict[str, Any], clause: str) -> None:
    data = battle(
        [ship("Gull", "Endtime", (2, 12))],
        [ship("Sled", "Skyfire", (10, 12)), ship("Dart", "Aphid (original)", (12, 12))],
    )
    state = begin(data, b"refused-orders")
    request = next(r for r in state.pending() if r.kind == ORDERS and r.side == "b")
    assert refused(state, request, {"crew": [], "strike": [], **orders}).clause == clause


@pytest.mark.rule("SG-DT-02", "SG-DT-03", "SG-DT-04", "SG-CG-44", "SG-CG-45")
def test_lowered_drogues_cost_a_movement_point_until_raised_again() -> None:
    data = battle([ship("Gloire", "Gloire", (2, 12))], [ship("Gull", "Endtime", (10, 12))])
    seed = b"drogues"
    state = begin(data, seed)
    before = RS.allowance(state, state.board.ship("Gloire")).speed
    lower = {"a": {"drogues": [{"ship": "Gloire", "lowered": True}]}}
    state, events, request = drive(state, script(orders=lower), seed, at(MOVE, "a"))
    assert notes(events, "drogue torpedoes are lowered")
    assert item_states(state.board.ship("Gloire"), DROGUE) == ["lowered"] * 4
    assert RS.allowance(state, state.board.ship("Gloire")).speed == before - 1
    assert request is not None
    assert RS.validate(state, request, [AHEAD] * before) is not None
    raise_ = {("a", 2): {"drogues": [{"ship": "Gloire", "lowered": False}]}}
    state, _, _ = drive(state, script(orders=raise_), seed, at(MOVE, "a", turn=2))
    assert RS.allowance(state, state.board.ship("Gloire")).speed == before


@pytest.mark.rule("SG-CG-77")
def test_an_empty_rack_reloaded_in_the_orders_drops_again_five_turns_later() -> None:
    data = battle([ship("Eagle", "Eagle", (2, 12), altitude="H")], [ship("Gull", "Endtime", (16, 12))], turns=8)
    seed = b"reload"
    state = begin(data, seed)
    eagle = state.board.ship("Eagle")
    state = equip(state, "Eagle", ordnance=eagle.with_items(replace(eagle.item("B1"), state="empty")).ordnance)
    reload = {"a": {"reload": [{"ship": "Eagle", "rack": "B1"}]}}
    state, events, _ = drive(state, script(orders=reload), seed, at(MOVE, "a"))
    assert notes(events, "reload rack B1")
    eagle = state.board.ship("Eagle")
    assert (eagle.item("B1").state, eagle.item("L1").state, eagle.item("L2").state) == ("reloading", "used", "spare")
    # the reloaders are busy: none of the four deckhands is free for the Hale batteries
    assert ordnance.free_deckhands(eagle) == 0
    state, events, _ = drive(state, script(), seed, at(ORDERS, "a", turn=5))
    assert state.board.ship("Eagle").item("B1").state == "reloading"
    state, events, _ = drive(state, script(), seed, at(ORDERS, "a", turn=6))
    assert state.board.ship("Eagle").item("B1").state == "loaded"
    assert notes(events, "rack B1 is loaded")


# --- mines and drogues going off as ships move --------------------------------------------------------------

DART = "Dauntless (original design)"


@pytest.mark.rule("SG-TM-02", "SG-TM-06", "SG-TM-07", "SG-TM-11", "SG-CG-38", "SG-CG-42", "SG-ERR-14")
@pytest.mark.parametrize(("errata", "value"), [(True, 12), (False, 4)])
def test_a_ship_arriving_at_raised_mines_sets_them_off_and_ends_its_move_there(errata: bool, value: int) -> None:
    data = battle([ship("Dart", DART, (8, 9), altitude="H")], [ship("Sled", "Skyfire", (8, 6))])
    seed = b"arrive-at-mines"
    state = begin(data, seed, {"errata": errata})
    moves = {"Dart": [AHEAD] * 4}
    state, events, _ = drive(state, script(orders=RAISE, moves=moves), seed, at(MOVE, "b"))
    went = notes(events, "go off against Dart")
    assert len(went) == 1
    assert f"damage value {value}" in went[0]["what"]
    assert "SG-TM-07" not in went[0]["clauses"]  # the contact note carries the hit's clauses
    assert not rolls(events, "do they go off")  # arriving at them is certain
    assert [e.data["hexes"] for e in kinds(events, "move done") if e.data["ship"] == "Dart"] == [3]
    assert state.board.ship("Dart").position == state.board.ship("Sled").position
    gone = item_states(state.board.ship("Sled"), *ordnance.MINES)
    assert gone.count("detonated") == (3 if errata else 1)
    # the hit is located as usual, then the loss of trim against its damage value (SG-TM-11)
    assert rolls(events, "hit location on Dart")
    assert notes(events, "loses trim") or rolls(events, "trim")


@pytest.mark.rule("SG-TM-08", "SG-TM-09", "SG-CG-39", "SG-CG-40")
def test_mines_brought_onto_a_ship_go_off_on_a_6_and_a_ship_leaving_them_is_safe() -> None:
    data = battle(
        [ship("Dart", DART, (8, 5), altitude="H"), ship("Aphid", "Aphid (original)", (9, 7), altitude="H")],
        [ship("Sled", "Skyfire", (9, 8))],
    )
    seed = b"bring-mines"
    state = begin(data, seed)
    moves = {"Sled": [AHEAD], "Aphid": [AHEAD, AHEAD]}
    state, events, _ = drive(state, script(orders=RAISE, moves=moves, first="b"), seed, at(FIRE))
    checks = rolls(events, "Aphid and Sled's tether mines")
    assert len(checks) == 1
    assert checks[0].data["needed"] == "6+"
    # the Aphid began its move in the mines' hex and at their level: it leaves without a check (SG-TM-09)
    assert not rolls(events, "Dart and Sled's")
    assert len(checks) == 1


@pytest.mark.rule(
    "SG-DT-01",
    "SG-DT-04",
    "SG-DT-05",
    "SG-DT-06",
    "SG-DT-07",
    "SG-DT-09",
    "SG-CG-46",
    "SG-CG-47",
    "SG-CG-48",
    "SG-ERR-16",
)
def test_a_ship_meeting_a_lowered_drogue_sets_it_off_on_a_6() -> None:
    data = battle([ship("Gloire", "Gloire", (8, 6))], [ship("Runner", "Sky Runner", (8, 9), altitude="L")])
    lower = {"a": {"drogues": [{"ship": "Gloire", "lowered": True}]}}
    found = []
    for n in range(12):
        seed = f"drogue-{n}".encode()
        state = begin(data, seed)
        decide = script(orders=lower, moves={"Runner": [AHEAD] * 4}, first="b")
        state, events, _ = drive(state, decide, seed, at(FIRE))
        (check,) = rolls(events, "Runner and Gloire's drogue torpedo")
        assert check.data["needed"] == "6+"
        found.append(check.data["dice"][0] == 6)
        went = notes(events, "go off against Runner")
        assert bool(went) == (check.data["dice"][0] == 6)
        if went:
            assert "damage value 40" in went[0]["what"]  # the errata: all four lowered go off together, DV 10 each
            break
    assert any(found), "no seed set the drogue off"


@pytest.mark.rule("SG-TM-07", "SG-TM-01", "SG-CG-38")
def test_mines_tethered_on_the_ground_go_off_on_a_ship_arriving_above_them() -> None:
    data = battle(
        [ship("Dart", DART, (14, 6), altitude="VH")],
        [ship("Gull", "Endtime", (2, 12))],
        b_ground=RAID_GROUND,
        terrain=KRAAG,
    )
    seed = b"kraag-mines"
    state = begin(data, seed, {"errata": False})
    state, events, _ = drive(state, script(moves={"Dart": [AHEAD] * 4}), seed, at(FIRE))
    (went,) = notes(events, "go off against Dart")
    assert "mines b 14,3" in went["what"]
    assert state.board.ship("Dart").position == state.board.ship("Kraag Guns").position  # stopped over the kraag
    mines = state.board.ship("mines b 14,3")
    assert item_states(mines, *ordnance.MINES).count("detonated") == 1
    # mines are no target (SG-TM-12)
    state, _, request = drive(state, script(), seed, at(FIRE, "a"))
    assert request is not None
    guns = [s for s in RS.solutions(state, "a") if s.target.startswith("mines")]
    assert not guns
    assert refused(state, request, {"shots": [{"ship": "Dart", "gun": "1", "target": "mines b 14,3"}]}).clause


# --- drops declared with the move ----------------------------------------------------------------------------


def dropper_over(
    target: dict[str, Any],
    exotics: Sequence[tuple[str, int]],
    seed: bytes,
    *,
    options: Mapping[str, Any] | None = None,
    ground: Mapping[str, Any] | None = None,
) -> tuple[State, DecisionRequest]:
    """Side b's Sky Runner at High (8, 9) facing north, carrying ``exotics``, asked for its move; side a's
    ``target`` (with its ``ground``) has moved first, its "move" if it has one."""
    move = target.pop("move", None)
    data = battle([target], [ship("Runner", "Sky Runner", (8, 9), altitude="H")], a_ground=ground)
    state = begin(data, seed, options)
    state = equip(state, "Runner", *exotics)
    moves = {target["name"]: move} if move else None
    state, _, request = drive(state, script(moves=moves), seed, at(MOVE, "b"))
    assert request is not None
    return state, request


def drop_move(steps: int, *drops: dict[str, Any]) -> dict[str, Any]:
    return {"steps": [AHEAD] * steps, "drops": list(drops)}


@pytest.mark.rule(
    "SG-LF-01", "SG-LF-02", "SG-LF-03", "SG-LF-04", "SG-LF-05", "SG-CG-66", "SG-CG-67", "SG-CG-68", "SG-CG-69"
)
@pytest.mark.parametrize(("steps", "bow"), [(3, True), (2, False)])
def test_liquid_fire_dropped_passing_over_a_lower_ship_starts_a_fire(steps: int, bow: bool) -> None:
    seed = b"liquid-fire"
    state, request = dropper_over(ship("Dart", DART, (8, 7), altitude="L"), [(LIQUID_FIRE, 2)], seed)
    fire = {"target": "Dart", "weapon": LIQUID_FIRE}
    state, events = submit(state, request, drop_move(steps, fire), seed)
    (drop,) = kinds(events, "drop")
    assert drop.data["items"] == ["F1"]
    (rolled,) = rolls(events, "drops Martian Liquid Fire")
    expected = {"2 levels below": -2, **({"leaving across its bow": 1} if bow else {})}
    assert rolled.data["modifiers"] == expected
    level = max(rolled.data["total"], 0)
    assert state.board.ship("Dart").fire == level
    if level == 0:
        assert notes(events, "has no effect")
    assert item_states(state.board.ship("Runner"), LIQUID_FIRE) == ["dropped", "loaded"]


@pytest.mark.rule("SG-LF-01", "SG-LF-06", "SG-CG-70")
def test_a_drop_needs_a_lower_target_on_the_path_and_each_rack_drops_once() -> None:
    seed = b"drop-refusals"
    state, request = dropper_over(ship("Dart", DART, (8, 7), altitude="L"), [(LIQUID_FIRE, 1)], seed)
    fire = {"target": "Dart", "weapon": LIQUID_FIRE}
    assert refused(state, request, drop_move(1, fire)).clause == "SG-LF-01"  # never over it
    assert refused(state, request, drop_move(0, fire)).clause == "SG-LF-01"  # a ship that moves drops
    assert refused(state, request, drop_move(3, {**fire, "count": 2})).clause == "SG-LF-06"  # one rack aboard
    assert refused(state, request, drop_move(3, {"target": "Dart", "weapon": "anvil"})).clause == "SG-LF-01"
    assert refused(state, request, drop_move(3, {"target": "Runner", "weapon": LIQUID_FIRE})).clause == "SG-LF-01"
    assert refused(state, request, {"steps": [AHEAD, "climb"], "drops": [fire]}).clause != "SG-LF-01"
    higher, request_h = dropper_over(ship("Dart", DART, (8, 7), altitude="VH"), [(LIQUID_FIRE, 1)], seed)
    assert refused(higher, request_h, drop_move(3, fire)).clause == "SG-LF-01"  # not below the dropper
    state, _ = submit(state, request, drop_move(3, fire), seed)
    assert item_states(state.board.ship("Runner"), LIQUID_FIRE) == ["dropped"]
    state, _, request = drive(state, script(), seed, at(MOVE, "b", turn=2))
    assert request is not None
    assert refused(state, request, drop_move(1, fire)).clause in ("SG-LF-06", "SG-LF-01")


@pytest.mark.rule("SG-CG-72", "SG-CG-73", "SG-ERR-21", "SG-ERR-22")
def test_spikes_dropped_like_liquid_fire_kill_crew() -> None:
    seed = b"spikes"
    state, request = dropper_over(ship("Dart", DART, (8, 7), altitude="M"), [(SPIKES, 1)], seed)
    crew = state.board.ship("Dart").men_alive
    state, events = submit(state, request, drop_move(3, {"target": "Dart", "weapon": SPIKES}), seed)
    (rolled,) = rolls(events, "drops Spike Dropper")
    assert rolled.data["modifiers"] == {"1 levels below": -1, "leaving across its bow": 1}
    assert crew - state.board.ship("Dart").men_alive == max(rolled.data["total"], 0)


@pytest.mark.rule("SG-CG-75", "SG-CG-76", "SG-ERR-18", "SG-ERR-19", "SG-ERR-20")
def test_bombs_fall_on_a_moving_ship_only_under_the_errata_less_its_movement() -> None:
    seed = b"bombs"
    target = ship("Dart", DART, (8, 5), facing=3, altitude="M", move=[AHEAD, AHEAD])  # it comes south to (8, 7)
    state, request = dropper_over(dict(target), [(BOMB_RACK, 2), ("bomb_load", 2)], seed, options={"errata": False})
    bomb = {"target": "Dart", "weapon": BOMB_RACK}
    assert refused(state, request, drop_move(3, bomb)).clause == "SG-CG-75"
    state, request = dropper_over(dict(target), [(BOMB_RACK, 2), ("bomb_load", 2)], seed)
    hull = state.board.ship("Dart").hull_hits
    state, events = submit(state, request, drop_move(3, {**bomb, "count": 2}), seed)
    dropped = rolls(events, "drops Bomb Rack")
    assert len(dropped) == 2
    assert all(r.data["modifiers"] == {"1 levels below": -1, "moving (2 MP)": -2} for r in dropped)
    hits = sum(max(r.data["total"], 0) for r in dropped)
    assert len(rolls(events, "hit location on Dart")) >= hits
    assert item_states(state.board.ship("Runner"), BOMB_RACK) == ["empty", "empty"]
    assert state.board.ship("Dart").hull_hits >= hull


@pytest.mark.rule("SG-ERR-17")
def test_a_drogue_is_dropped_as_a_bomb_only_under_the_errata() -> None:
    seed = b"drogue-bomb"
    target = ship("Dart", DART, (8, 7), altitude="M")
    state, request = dropper_over(dict(target), [(DROGUE, 1)], seed, options={"errata": False})
    assert refused(state, request, drop_move(3, {"target": "Dart", "weapon": DROGUE})).clause == "SG-ERR-17"
    state, request = dropper_over(dict(target), [(DROGUE, 1)], seed)
    state, events = submit(state, request, drop_move(3, {"target": "Dart", "weapon": DROGUE}), seed)
    assert rolls(events, "drops Drogue Torpedo")
    assert item_states(state.board.ship("Runner"), DROGUE) == ["released"]


@pytest.mark.rule("SG-BOMB-03", "SG-BOMB-01", "SG-CG-76")
def test_liquid_fire_and_bombs_on_a_city_hex_score_damage_points() -> None:
    seed = b"bomb-the-city"
    city = {"ground_targets": [{"name": "Town", "hexes": [[8, 7]], "points": 30}]}
    state, request = dropper_over(
        ship("Dart", DART, (2, 12)), [(LIQUID_FIRE, 1), (BOMB_RACK, 1), ("bomb_load", 1)], seed, ground=city
    )
    drops = [{"target": "Town", "weapon": LIQUID_FIRE}, {"target": "Town", "weapon": BOMB_RACK}]
    state, events = submit(state, request, drop_move(3, *drops), seed)
    fire, bombs = rolls(events, "drops Martian Liquid Fire")[0], rolls(events, "drops Bomb Rack")[0]
    assert fire.data["modifiers"] == {"4 levels below": -4}  # no bow to a city; H over the ground
    points = max(fire.data["total"], 0) + 2 * max(bombs.data["total"], 0)
    assert ordnance.bombardment_points(state.board.ship("Town")) == (points, 30)


# --- fire: Hale salvoes -----------------------------------------------------------------------------------------


def salvo(battery: str, target: str = "Gull", firer: str = "Reliant") -> dict[str, Any]:
    return {"ship": firer, "battery": battery, "target": target}


def rockets_at(target_at: tuple[int, int], altitude: str, seed: bytes) -> tuple[State, DecisionRequest]:
    """The Reliant at High (8, 9) facing north (H1 port down, H2 starboard down, H3 port up, H4 starboard
    up...), the Endtime Gull at ``target_at``; side a asked to declare fire."""
    data = battle(
        [ship("Reliant", "Reliant", (8, 9), altitude="H")], [ship("Gull", "Endtime", target_at, altitude=altitude)]
    )
    state = begin(data, seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "a"))
    assert request is not None
    return state, request


@pytest.mark.rule(
    "SG-HALE-01", "SG-HALE-08", "SG-HALE-09", "SG-CG-62", "SG-CG-94", "SG-HALE-02", "SG-HALE-03", "SG-CG-58"
)
def test_a_hale_salvo_hits_with_the_die_once_and_only_as_its_battery_is_aimed() -> None:
    seed = b"hale"
    state, request = rockets_at((7, 8), "M", seed)  # port, one level below, one hex away
    assert RS.validate(state, request, {"shots": [salvo("H1")]}) is None
    assert refused(state, request, {"shots": [salvo("H2")]}).clause == "SG-HALE-02"  # faces starboard
    assert refused(state, request, {"shots": [salvo("H3")]}).clause == "SG-HALE-02"  # angled up
    assert refused(state, request, {"shots": [salvo("H1"), salvo("H1")]}).clause == "SG-FIRE-04"
    assert refused(state, request, {"shots": [{"ship": "Reliant", "battery": "H1"}]}).clause == "SG-SEQ-05"
    assert refused(state, request, {"shots": [salvo("H9")]}).clause == "SG-HALE-07"
    state, events, _ = drive(state, script(fire={"a": {"shots": [salvo("H1")]}}), seed, at(MOVE, turn=2))
    (fired,) = kinds(events, "rockets")
    assert fired.data["battery"] == "H1"
    (rolled,) = rolls(events, "rockets: Reliant Hale battery H1")
    assert len(rolls(events, "hit location on Gull")) == rolled.data["dice"][0]
    assert state.board.ship("Reliant").item("H1").state == "fired"
    state, _, request = drive(state, script(), seed, at(FIRE, "a", turn=2))
    assert request is not None
    assert refused(state, request, {"shots": [salvo("H1")]}).clause == "SG-HALE-09"  # fired once, not reloaded


@pytest.mark.rule("SG-HALE-03", "SG-HALE-04", "SG-HALE-05", "SG-HALE-06", "SG-CG-59", "SG-CG-60", "SG-CG-61")
def test_rockets_reach_no_more_hexes_than_levels_nor_past_four_and_any_aspect_in_their_own_hex() -> None:
    seed = b"hale-reach"
    state, request = rockets_at((7, 7), "M", seed)  # two hexes off to port, one level down
    assert refused(state, request, {"shots": [salvo("H1")]}).clause == "SG-HALE-03"
    state, request = rockets_at((7, 7), "L", seed)  # two levels down: a target 2 hexes away may be engaged
    assert RS.validate(state, request, {"shots": [salvo("H1")]}) is None
    state, request = rockets_at((8, 9), "M", seed)  # in the Reliant's own hex: any aspect, angled down
    assert RS.validate(state, request, {"shots": [salvo("H2")]}) is None
    assert refused(state, request, {"shots": [salvo("H3")]}).clause == "SG-HALE-02"
    far = {"batteries": [{"name": "Far", "gun": "Rod Gun", "position": [3, 9]}]}  # five hexes off, five levels down
    data = battle([ship("Locust", "Locust", (8, 9), altitude="VH")], [ship("Gull", "Endtime", (9, 9))], b_ground=far)
    state = begin(data, seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "a"))
    assert request is not None
    locust = state.board.ship("Locust")
    down_port = next(b.id for b in locust.items_of(HALE) if (b.aspect, b.angle) == ("port", "down"))
    assert refused(state, request, {"shots": [salvo(down_port, "Far", "Locust")]}).clause == "SG-HALE-05"


@pytest.mark.rule("SG-HALE-09", "SG-CG-63")
def test_each_battery_fired_in_one_fire_step_needs_a_free_deckhand() -> None:
    seed = b"hale-hands"
    state, request = rockets_at((8, 9), "M", seed)
    reliant = state.board.ship("Reliant")
    state = equip(state, "Reliant", crew=replace(reliant.crew, deckhands=1))
    assert RS.validate(state, request, {"shots": [salvo("H1")]}) is None
    assert refused(state, request, {"shots": [salvo("H1"), salvo("H2")]}).clause == "SG-HALE-09"


# --- fire: Smutts launches and torpedo runs ------------------------------------------------------------------

LAUNCH = {"a": {"shots": [{"ship": "Triumph", "gun": "9", "launch": True}]}}
AVOID_TORPEDO = ordnance_play.AVOID_TORPEDO


def torpedo_at(
    b: Sequence[dict[str, Any]], seed: bytes, **extra: Any
) -> tuple[State, list[Event], DecisionRequest | None]:
    """The Triumph (discharger gun 9) at Medium (8, 14) facing north launches in the first fire step; side b's
    ships are asked whether they avoid."""
    data = battle([ship("Triumph", "Triumph", (8, 14))], b, **extra)
    state = begin(data, seed)
    assert ordnance.is_discharger(state.board.ship("Triumph").gun("9"))
    return drive(state, script(fire=LAUNCH), seed, at(AVOID_TORPEDO))


@pytest.mark.rule("SG-SMT-02", "SG-SMT-03", "SG-SMT-04", "SG-SMT-05", "SG-CG-25", "SG-CG-27", "SG-CG-28")
def test_a_launched_torpedo_runs_six_hexes_at_once_and_the_ship_in_its_path_may_avoid_it() -> None:
    seed = b"torpedo"
    state, events, _request = torpedo_at(
        [ship("Gull", "Endtime", (8, 10)), ship("Low", "Sky Runner", (8, 11), altitude="L")], seed
    )
    assert kinds(events, "launch")
    (torpedo,) = state.board.torpedoes
    assert (torpedo.owner, torpedo.hex, torpedo.facing, torpedo.altitude, torpedo.runs) == (
        "Triumph",
        state.board.ship("Triumph").position,
        0,
        "M",
        0,
    )
    assert item_states(state.board.ship("Triumph"), "smutts_torpedo").count("launched") == 1
    # both threatened: the Gull at its altitude, the Sky Runner one level lower (SG-SMT-04)
    asked = {r.ships[0]: r for r in state.pending()}
    assert set(asked) == {"Gull", "Low"}
    assert asked["Gull"].options == ({"ship": "Gull", "avoid": False}, {"ship": "Gull", "avoid": True})
    state, events = submit(state, asked["Low"], {"ship": "Low", "avoid": False}, seed)
    state, events = submit(state, asked["Gull"], {"ship": "Gull", "avoid": True}, seed)
    (ran,) = kinds(events, "torpedo run")
    tries = rolls(events, "Smutts torpedo Triumph/T1 at")
    assert tries
    assert tries[0].data["needed"] == "4 or less"
    if "Low" in tries[0].data["purpose"]:  # the Sky Runner is met first, one hex nearer
        assert tries[0].data["modifiers"] == {}
    gull = [t for t in tries if "at Gull" in t.data["purpose"]]
    if gull:
        assert gull[0].data["modifiers"] == {"Gull avoiding (2 MP)": 2}
        assert state.board.avoiding["Gull"] == 2  # it paid for the avoidance: the torpedo reached it
    if ran.data["struck"] is None:
        (left,) = state.board.torpedoes
        assert (left.runs, hexgrid_col_row(left.hex)) == (1, (8, 8))


def hexgrid_col_row(hex_: Any) -> tuple[int, int]:
    from battles.engine import hexgrid

    col, row = hexgrid.to_odd_q(hex_)
    return col, row


@pytest.mark.rule("SG-SMT-01", "SG-SMT-08", "SG-CG-31", "SG-SMT-03")
def test_a_torpedo_strike_is_a_dv_12_hit_and_a_loss_of_trim() -> None:
    for n in range(20):
        seed = f"torpedo-strike-{n}".encode()
        state, _, request = torpedo_at([ship("Gull", "Endtime", (8, 10))], seed)
        assert request is not None
        state, events = submit(state, request, {"ship": "Gull", "avoid": False}, seed)
        (ran,) = kinds(events, "torpedo run")
        if ran.data["struck"] == "Gull":
            break
    else:
        pytest.fail("no seed gave a strike")
    assert notes(events, "strikes Gull and detonates")[0]["outcome"] == "damage value 12"
    assert rolls(events, "hit location on Gull")
    assert notes(events, "loses trim") or rolls(events, "trim")
    assert state.board.torpedoes == ()  # it went off


@pytest.mark.rule("SG-SMT-03", "SG-CG-27")
def test_a_torpedo_runs_again_each_turn_before_the_first_move_and_goes_off_after_five_runs() -> None:
    seed = b"torpedo-course"
    data = battle([ship("Triumph", "Triumph", (8, 33))], [ship("Gull", "Endtime", (1, 1))], turns=7, size=(20, 35))
    state = begin(data, seed)
    state, events, _ = drive(state, script(fire={("a", 1): LAUNCH["a"]}), seed, at(ORDERS, turn=6))
    runs = kinds(events, "torpedo run")
    assert [e.turn for e in runs] == [1, 2, 3, 4, 5]
    for run in runs[1:]:  # after the first player is chosen, before the turn's first move
        turn = [e for e in events if e.turn == run.turn]
        order = next(i for i, e in enumerate(turn) if e.kind == "movement order")
        first_move = next(
            i for i, e in enumerate(turn) if e.kind == "decision_requested" and e.data["request"]["kind"] == "move"
        )
        assert order < turn.index(run) < first_move
    assert notes(events, "has run its course and goes off harmlessly")
    assert state.board.torpedoes == ()


@pytest.mark.rule("SG-SMT-06", "SG-SMT-07", "SG-CG-29", "SG-CG-30")
def test_two_ships_dodging_in_one_hex_are_tried_in_an_order_by_die_and_may_collide() -> None:
    seed = b"torpedo-pair"
    state, _, _ = torpedo_at([ship("Gull", "Endtime", (8, 10)), ship("Tern", "Endtime", (8, 10))], seed)
    for request in list(state.pending()):
        state, events = submit(state, request, {"ship": request.ships[0], "avoid": True}, seed)
    assert rolls(events, "Gull and Tern dodge the torpedo in one hex")
    assert rolls(events, "which ship in the torpedo's hex is tried first")


@pytest.mark.rule("SG-SMT-09", "SG-CG-32", "SG-CG-26", "SG-SMT-02")
def test_the_discharger_launches_once_a_turn_while_torpedoes_last_and_not_at_a_target() -> None:
    seed = b"discharger"
    data = battle([ship("Triumph", "Triumph", (8, 14))], [ship("Gull", "Endtime", (2, 2))])
    state = begin(data, seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "a"))
    assert request is not None
    launch = LAUNCH["a"]
    assert RS.validate(state, request, launch) is None
    assert refused(state, request, {"shots": [{"ship": "Triumph", "gun": "9", "target": "Gull"}]}).clause == "SG-SMT-02"
    assert refused(state, request, {"shots": [{"ship": "Triumph", "gun": "9", "launch": False}]}).clause == "SG-SMT-02"
    triumph = state.board.ship("Triumph")
    improved = replace(triumph.gun("9"), weapon_id="smutts_discharger_improved")
    better = equip(state, "Triumph", guns=tuple(improved if g.id == "9" else g for g in triumph.guns))
    assert RS.validate(better, request, launch) is None  # the improved discharger launches the same (SG-CG-26)
    spent = tuple(replace(i, state="launched") if i.weapon_id == "smutts_torpedo" else i for i in triumph.ordnance)
    assert refused(equip(state, "Triumph", ordnance=spent), request, launch).clause == "SG-SMT-09"
    state, _, _ = drive(state, script(fire={("a", 1): launch}), seed, at(MOVE, turn=2))
    assert refused(state, request, launch).clause == "SG-FIRE-05"  # ROF (1): a turn of reloading
    assert not ordnance_play.special_ready(state, "a")  # so side a is not asked to fire for it
    state, _, _ = drive(state, script(), seed, at(MOVE, turn=3))
    assert RS.validate(state, request, launch) is None


# --- fire: the power grapnel --------------------------------------------------------------------------------

GRAPNEL = {"ship": "Swift", "gun": "5", "target": "Gull"}
CREW_GRAPNEL = {"crew": [{"ship": "Swift", "gun": "5", "men": 2, "from": "deckhands"}]}


def grapnel_battle(seed: bytes, gull_at: tuple[int, int] = (8, 8)) -> dict[str, Any]:
    data = battle([ship("Swift", "Swiftwood", (8, 9))], [ship("Gull", "Endtime", gull_at)], turns=6)
    data["wind"] = 3
    return data


@pytest.mark.rule(
    "SG-PG-01", "SG-PG-03", "SG-PG-04", "SG-PG-05", "SG-PG-06", "SG-CG-20", "SG-CG-21", "SG-CG-22", "SG-CG-24"
)
def test_a_manned_grapnel_grapples_at_a_hex_and_hauls_the_smaller_ship_alongside() -> None:
    seed = b"grapnel"
    state = begin(grapnel_battle(seed), seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "a"))
    assert request is not None
    assert refused(state, request, {"shots": [GRAPNEL]}).clause == "SG-PG-03"  # no crew of its own
    far = begin(grapnel_battle(seed, (8, 7)), seed)
    far, _, far_request = drive(far, script(orders={"a": CREW_GRAPNEL}), seed, at(FIRE, "a"))
    assert far_request is not None
    assert refused(far, far_request, {"shots": [GRAPNEL]}).clause == "SG-PG-04"  # two hexes: out of reach
    for n in range(20):
        seed = f"grapnel-{n}".encode()
        state = begin(grapnel_battle(seed), seed)
        state, events, _ = drive(
            state, script(orders={"a": CREW_GRAPNEL}, fire={"a": {"shots": [GRAPNEL]}}), seed, at(MOVE, turn=2)
        )
        if notes(events, "grapnel takes hold of Gull"):
            break
    else:
        pytest.fail("no seed gave a grapnel hit")
    swift, gull = state.board.ship("Swift"), state.board.ship("Gull")
    assert swift.grappled_with == ("Gull",)
    assert gull.grappled_with == ("Swift",)
    assert (swift.position, swift.altitude) == (gull.position, gull.altitude)  # the smaller is hauled in
    assert notes(events, "is hauled alongside Gull")
    assert RS.check_invariants(state) == []


@pytest.mark.rule("SG-PG-02", "SG-CG-23", "SG-PG-07")
def test_the_grapnel_reloads_two_turns_between_shots() -> None:
    seed = b"grapnel-reload"
    state = begin(grapnel_battle(seed), seed)
    state, _, request = drive(state, script(orders={"a": CREW_GRAPNEL}), seed, at(FIRE, "a"))
    assert request is not None
    state, _, _ = drive(state, script(fire={"a": {"shots": [GRAPNEL]}}), seed, at(MOVE, turn=2))
    swift = state.board.ship("Swift")
    assert (swift.gun("5").last_fired, swift.grappled_with) == (1, ())  # this seed's shot missed
    for turn, ready in ((2, False), (3, False), (4, True)):
        state, _, _ = drive(state, script(), seed, at(MOVE, turn=turn))
        problem = RS.validate(state, request, {"shots": [GRAPNEL]})
        assert (problem is None) == ready, (turn, problem)
        if not ready:
            assert problem is not None
            assert problem.clause == "SG-PG-02"
    assert ordnance.magazine_targets(state.board.ship("Swift")) == []  # the grapnel has no magazine (SG-PG-07)


# --- ground batteries and bombardment ----------------------------------------------------------------------

ROD = {"batteries": [{"name": "Rod One", "gun": "Rod Gun", "position": [8, 12], "armor": 2}]}
FAR_GULL = ship("Gull", "Endtime", (18, 1))


@pytest.mark.rule("SG-GB-01", "SG-GB-02")
@pytest.mark.parametrize(("altitude", "clause"), [("H", None), ("VH", "SG-GB-02")])
def test_a_ground_battery_fires_high_angle_at_a_higher_ship_within_its_gun_s_range(
    altitude: str, clause: str | None
) -> None:
    seed = b"battery-fires"
    data = battle([ship("Dart", DART, (8, 10), altitude=altitude)], [FAR_GULL], b_ground=ROD)
    state = begin(data, seed)
    state, _, _ = drive(state, script(), seed, at(MOVE, "b"))
    request = fire_request("b")  # at Very High nothing fires: side b is not asked, but may be checked
    shot = {"ship": "Rod One", "gun": "1", "target": "Dart"}
    # two hexes off and four levels up: beyond a ship's altitude limit, not a battery's (range 2 + 4 = 6)
    problem = RS.validate(state, request, {"shots": [shot]})
    assert (problem.clause if problem else None) == clause
    solutions = [s for s in RS.solutions(state, "b") if s.firer == "Rod One"]
    assert bool(solutions) == (clause is None)
    if clause is None:
        assert solutions[0].effective_range == 6
        state, events, _ = drive(state, script(fire={"b": {"shots": [shot]}}), seed, at(MOVE, turn=2))
        assert [e.data["ship"] for e in kinds(events, "fire")] == ["Rod One"]


def shell_the_battery(seed: bytes) -> tuple[State, list[Event]]:
    """The Reliant at Low (8, 8), four hexes north of the Rod One (armor 2), fires its three guns that bear at
    it in the first two fire steps of side a."""
    data = battle([ship("Reliant", "Reliant", (8, 8), altitude="L")], [FAR_GULL], b_ground=ROD, turns=3)
    state = begin(data, seed)
    solutions = [s for s in RS.solutions(state, "a") if s.target == "Rod One"]
    assert len(solutions) == 3
    volley = {"shots": [{"ship": "Reliant", "gun": s.gun_id, "target": "Rod One"} for s in solutions]}
    return drive(state, script(fire={("a", 1): volley, ("a", 2): volley}), seed, at(ORDERS, turn=3))[:2]


@pytest.mark.rule("SG-GB-03", "SG-GB-05", "SG-GB-06", "SG-BOMB-02")
def test_a_battery_is_fired_on_as_a_ship_but_hull_hits_and_most_criticals_do_nothing() -> None:
    # the seeds are chosen for what they show: hull hits, a Rudder critical, a Magazine critical
    state, events = shell_the_battery(b"shell-the-battery-0")
    assert len(notes(events, "a Hull hit on Rod One has no effect")) == 2
    assert state.board.ship("Rod One").hull_hits == 0
    state, events = shell_the_battery(b"shell-the-battery-1")
    assert [r.data["outcome"] for r in rolls(events, "critical hit on Rod One")] == ["rudder"]
    assert notes(events, "rudder means nothing to a ground battery")
    assert state.board.ship("Rod One").criticals == Criticals()
    state, events = shell_the_battery(b"shell-the-battery-3")
    assert notes(events, "Rod One's magazine explodes: the battery is destroyed")
    assert state.board.out["Rod One"] == "crashed"
    assert not state.board.emplacements("b")


@pytest.mark.rule("SG-CG-15", "SG-GB-01")
def test_an_old_earth_smoothbore_in_a_battery_fires_as_a_gun_with_its_table_figures() -> None:
    seed = b"smoothbore"
    old_tom = {"batteries": [{"name": "Old Tom", "gun": '10" SB', "position": [8, 12]}]}
    data = battle([ship("Dart", DART, (8, 10), altitude="VL")], [FAR_GULL], b_ground=old_tom)  # range 2 + 1
    state = begin(data, seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "b"))
    assert request is not None
    (solution,) = [s for s in RS.solutions(state, "b") if s.firer == "Old Tom"]
    assert (solution.weapon, solution.band, solution.damage_value, solution.penetration) == ("sb_10in", "close", 4, 2)
    shot = {"ship": "Old Tom", "gun": "1", "target": "Dart"}
    state, events, _ = drive(state, script(fire={"b": {"shots": [shot]}}), seed, at(MOVE, turn=2))
    assert rolls(events, "to hit: Old Tom gun 1 vs Dart")


@pytest.mark.rule("SG-GB-07")
def test_a_burning_battery_is_out_of_action_until_its_fire_dies_down_a_level_a_turn() -> None:
    seed = b"battery-burns"
    data = battle([ship("Dart", DART, (8, 10), altitude="H")], [FAR_GULL], b_ground=ROD, turns=5)
    state = begin(data, seed)
    state, _, request = drive(state, script(), seed, at(FIRE, "b"))
    assert request is not None
    state = equip(state, "Rod One", fire=2)
    assert refused(state, request, {"shots": [{"ship": "Rod One", "gun": "1", "target": "Dart"}]}).clause == "SG-GB-07"
    state, events, _ = drive(state, script(), seed, at(MOVE, turn=2))
    assert state.board.ship("Rod One").fire == 1
    assert notes(events, "the fire at Rod One dies down")
    state, events, _ = drive(state, script(), seed, at(MOVE, turn=3))
    assert state.board.ship("Rod One").fire == 0
    assert notes(events, "the fire at Rod One dies down")[0]["outcome"] == "out: back in action"
    assert any(s.firer == "Rod One" for s in RS.solutions(state, "b"))


CITY = {"ground_targets": [{"name": "Town", "hexes": [[8, 12], [9, 12]], "points": 3}]}
BOMBARD = {"kind": "bombardment", "side": "a"}


def shell_the_town(seed: bytes, turns: int = 6) -> tuple[State, list[Event]]:
    data = battle(
        [ship("Reliant", "Reliant", (8, 9), altitude="L")], [FAR_GULL], b_ground=CITY, victory=BOMBARD, turns=turns
    )
    state = begin(data, seed)

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == FIRE and request.side == "a":
            guns = [s for s in RS.solutions(state, "a") if s.target.startswith("Town")]
            return {
                "shots": [
                    {"ship": s.firer, "gun": s.gun_id, "target": s.target} for s in {s.gun_id: s for s in guns}.values()
                ]
            }
        return script()(state, request)

    state, events, _ = drive(state, decide, seed, lambda _s, _r: False)
    return state, events


@pytest.mark.rule("SG-BOMB-01", "SG-BOMB-02", "SG-SCN-25")
def test_hexes_fired_at_take_each_hit_s_damage_value_and_the_bombardment_wins_when_all_are_done() -> None:
    state, events = shell_the_town(b"shell-the-town")
    assert state.over
    assert (state.winner, state.result) == ("a", "every target hex bombarded (2)")
    town = [state.board.ship("Town (8,12)"), state.board.ship("Town (9,12)")]
    assert all(not t.afloat for t in town)
    assert all(state.board.out[t.name] == "crashed" for t in town)
    hits = list(notes(events, "damage points on Town"))
    assert hits
    assert all("SG-BOMB-01" in n["clauses"] for n in hits)
    outcome = RS.tally(state)
    assert [g["name"] for g in outcome["ground"]] == ["Town (8,12)", "Town (9,12)"]
    assert all(g["points"] >= g["needed"] == 3 and g["fate"] == "destroyed" for g in outcome["ground"])
    assert [s["name"] for s in outcome["ships"]] == ["Reliant", "Gull"]
    assert RS.check_invariants(state) == []


@pytest.mark.rule("SG-SCN-25")
def test_a_bombardment_left_undone_at_the_turn_limit_is_lost() -> None:
    state, _ = shell_the_town(b"shell-the-town", turns=1)
    assert (state.winner, state.result) == ("b", "turn limit 1 reached")
    data = battle([ship("Reliant", "Reliant", (8, 9), altitude="L")], [FAR_GULL], b_ground=CITY, victory=BOMBARD)
    state = begin(data, b"struck")
    state, _, _ = drive(state, script(orders={"a": {"strike": ["Reliant"]}}), b"struck", lambda _s, _r: False)
    assert (state.winner, state.result) == ("b", "the bombardment failed: no ship left to carry it on")


# --- cutting mines loose -----------------------------------------------------------------------------------


@pytest.mark.rule("SG-TM-04", "SG-TM-05", "SG-CG-35", "SG-CG-36", "SG-RAM-05")
def test_a_ship_with_mines_raised_may_avoid_a_ram_only_by_cutting_them_loose() -> None:
    seed = b"cut-and-avoid"
    data = battle([ship("Reaver", "Hullcutter", (8, 9))], [ship("Sled", "Skyfire", (8, 7))])
    state = begin(data, seed)
    orders = {"a": {"ram": 1}, **RAISE}
    ram = {"steps": [AHEAD, AHEAD], "ram": "Sled"}
    state, _, request = drive(state, script(orders=orders, moves={"Reaver": ram}), seed, at(AVOID))
    assert request is not None
    assert request.options == (False, ordnance_play.CUT_AND_AVOID)
    assert refused_option(state, request, True)
    state, events = submit(state, request, ordnance_play.CUT_AND_AVOID, seed)
    assert notes(events, "Sled cuts its tether mines loose")
    assert item_states(state.board.ship("Sled"), *ordnance.MINES) == ["cut"] * 3
    (avoiding,) = kinds(events, "avoiding")
    assert avoiding.data == {"ship": "Sled", "mp": 2, "clauses": ["SG-RAM-05"]}
    (ram_roll,) = rolls(events, "ram: Reaver at Sled")
    assert ram_roll.data["modifiers"]
    # without mines the answer is the plain one
    plain = begin(data, seed)
    plain, _, request = drive(plain, script(orders={"a": {"ram": 1}}, moves={"Reaver": ram}), seed, at(AVOID))
    assert request is not None
    assert request.options == (False, True)


def refused_option(state: State, request: DecisionRequest, choice: Any) -> bool:
    outcome = resolver.check_decision(RS, state, side=request.side, request_id=request.id, choice=choice)
    return outcome is not None


@pytest.mark.rule("SG-TM-05", "SG-TM-10", "SG-CG-36", "SG-CG-41", "SG-ERR-15")
def test_mines_cut_loose_roll_a_6_against_each_ship_above_the_owner_in_its_hex() -> None:
    seed = b"cut-loose"
    data = battle(
        [ship("Dart", DART, (8, 7), altitude="H"), ship("Aphid", "Aphid (original)", (8, 7), altitude="VH")],
        [ship("Sled", "Skyfire", (8, 7))],
    )
    state = begin(data, seed)
    cut = {"b": {"mines": [{"ship": "Sled", "raised": True}], "cut_mines": ["Sled"]}}
    state, events, _ = drive(state, script(orders=cut), seed, at(MOVE))
    assert notes(events, "Sled cuts its tether mines loose")
    released = rolls(events, "Sled's released mine M")
    assert [r.data["purpose"] for r in released][:1] == ["Sled's released mine M1 against Dart"]
    assert all(r.data["needed"] == "6+" for r in released)
    # each mine tries the lowest ship above first, then the next, until one goes off (this seed: M1 a 6)
    assert released[0].data["outcome"] == "goes off"
    assert notes(events, "of Sled's released mine go off against Dart")
    assert all("against Aphid" in r.data["purpose"] for r in released[1:])
    assert all(s in ("cut", "detonated") for s in item_states(state.board.ship("Sled"), *ordnance.MINES))
    assert ordnance.movement_limits(state.board.ship("Sled")).max_hexes is None


# --- ordnance hit by gunfire in battle -----------------------------------------------------------------------

HIT_BY_GUNS = [
    pytest.param("Triumph", (), "Hale Rocket Battery", "is destroyed", id="hale-gun-hit"),
    pytest.param("Triumph", (), "magazine: T's H", "go up", id="hale-magazine"),
    pytest.param("Triumph", (), "magazine: T's T1", "go up", id="smutts-magazine"),
    pytest.param("Whisperdeath", (), "Liquid Fire (rack)", "is destroyed", id="liquid-fire-gun-hit"),
    pytest.param("Skyfire", (), "magazine: T's M1", "go up", id="mines-magazine"),
    pytest.param("Whisperdeath", (), "magazine: T's D", "go up", id="drogues-magazine"),
    pytest.param("Whisperdeath", ((LIQUID_FIRE, 2), (SPIKES, 3)), "Spike Dropper", "is destroyed", id="spikes-gun-hit"),
    pytest.param(
        "Whisperdeath", ((LIQUID_FIRE, 2), (SPIKES, 3)), "magazine: T's F", "go up", id="liquid-fire-magazine"
    ),
]


@pytest.mark.rule(
    "SG-HALE-10",
    "SG-HALE-11",
    "SG-CG-64",
    "SG-CG-65",
    "SG-SMT-10",
    "SG-CG-33",
    "SG-LF-07",
    "SG-LF-08",
    "SG-CG-71",
    "SG-TM-12",
    "SG-CG-43",
    "SG-DT-08",
    "SG-CG-49",
    "SG-CG-74",
    "SG-ERR-23",
)
@pytest.mark.parametrize(("cls", "exotics", "words", "outcome"), HIT_BY_GUNS)
def test_ordnance_aboard_is_hit_as_a_gun_or_goes_up_as_a_magazine_under_fire(
    cls: str, exotics: Sequence[tuple[str, int]], words: str, outcome: str
) -> None:
    """A Thunderer and a Reliant shell the ship T (captains on both sides) until its ordnance is hit: the
    first seed that shows it is kept (a Gun hit on ordnance is common; a Magazine critical rare: since a kite's
    allowance is fixed at her roll, issue 18, the Whisperdeath's drogues first go up at seed 40)."""
    for n in range(60):
        seed = f"hook-{cls}-{n}".encode() if not exotics else f"hook-spikes-{n}".encode()
        data = battle(
            [ship("Big", "Thunderer", (5, 7)), ship("Big2", "Reliant", (7, 7))],
            [ship("T", cls, (6, 4), facing=3)],
            turns=12,
            size=(12, 12),
        )
        initial = resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed))
        if exotics:
            initial = equip(initial, "T", *exotics, (DROGUE, 2))
        out = policies.auto_play(RS, initial, seed=seed, policies={s: Captain(seed + s.encode(), s) for s in "ab"})
        found = [note for note in notes(out.events, words) if note["ship"] == "T" and outcome in note["what"]]
        if found:
            break
    else:
        pytest.fail(f"no battle showed {words}")
    gone = {i.id for i in out.state.board.ship("T").ordnance if i.state in ordnance.GONE}
    assert any(item in found[0]["what"] for item in gone)


@pytest.mark.rule("SG-DT-03", "SG-CREW-08")
def test_a_helmless_kite_with_drogues_lowered_holds_her_course_only_as_far_as_her_heading_allows() -> None:
    """Pitched Battle, simulation 1 run 50: a Whisperdeath with nobody at the helm and her drogues lowered,
    beating, once had a held course longer than her beating allowance, so no move was legal."""
    from battles.engine import simulate
    from battles.rules.sky_galleons import scenario as scenarios

    played = simulate.simulate(RS, scenarios.load_data("pitched-battle"), seed=simulate.seed_for(1, 50))
    assert played.final.over
