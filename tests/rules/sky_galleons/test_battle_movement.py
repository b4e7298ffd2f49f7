"""Movement through the ruleset (battles/rules/sky_galleons/ruleset.py): collisions, relative positions in a
shared hex, and moves that end on the land, driven with resolver.new_battle / resolve / submit.

The dice come from the seed, so every dice-driven test plays the same small battle under many seeds, checks
the rule on every roll it sees, and checks that each branch (collision and clear, hit and no damage...) was
actually seen, so that no test can pass without exercising the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from battles.engine import hexgrid, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import Event
from battles.engine.hexgrid import Aspect, Hex
from battles.engine.state import BattleState
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import HullRow, altitude_levels

SEEDS = tuple(f"battle-movement-{n}".encode() for n in range(200))
FEW_SEEDS = SEEDS[:20]

# Offset [col, row] hexes on a 12 x 12 map. Column 5 is odd: "ahead" at facing 0 (north) is one row up.
START = (5, 5)
TWO_AHEAD = (5, 3)  # two hexes north of START: a ship there is entered on the second "ahead"

CHECK = "collision check"
STERN_OR_BOW = "entered across bow or stern hexside"
TURNED = "turned in the shared hex"


# --- building and playing a small battle ----------------------------------------------------------------


def ship(name: str, cls: str, at: tuple[int, int], facing: int = 0, altitude: str = "M") -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude}


def scenario(
    side_a: Sequence[dict[str, Any]],
    side_b: Sequence[dict[str, Any]],
    terrain: Sequence[dict[str, Any]] = (),
    turns: int = 1,
) -> dict[str, Any]:
    return {
        "slug": "movement-test",
        "title": "Movement test",
        "map": {"cols": 12, "rows": 12, "terrain": list(terrain)},
        "turn_limit": turns,
        "sides": [{"id": "a", "ships": list(side_a)}, {"id": "b", "ships": list(side_b)}],
    }


_initial_states: dict[str, BattleState[Board]] = {}


def initial(data: dict[str, Any]) -> BattleState[Board]:
    """The battle before its first roll; no seed commitment, so one state serves every seed."""
    key = repr(data)
    if key not in _initial_states:
        _initial_states[key] = resolver.new_battle(RS, data, seed_commitment="")
    return _initial_states[key]


def end_of_first_phase(request: DecisionRequest) -> bool:
    """Stop once side a (which moves first) has moved and declared: at the fire or at b's move."""
    return request.kind == "fire" or (request.kind == "move" and request.side == "b")


@dataclass(frozen=True)
class Played:
    state: BattleState[Board]
    events: tuple[Event, ...]
    stopped_at: DecisionRequest | None

    def kinds(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def checks(self) -> list[Event]:
        return [e for e in self.kinds("roll") if str(e.data["purpose"]).startswith(CHECK)]

    def rolls_for(self, words: str) -> list[Event]:
        return [e for e in self.kinds("roll") if words in str(e.data["purpose"])]

    def moved(self, name: str) -> list[Event]:
        return [e for e in self.kinds("moved") if e.data["ship"] == name]

    def after(self, event: Event) -> list[Event]:
        return [e for e in self.events if e.seq > event.seq]

    def hull_hits(self, name: str) -> int:
        return self.state.board.ship(name).hull_hits


def answer(
    request: DecisionRequest,
    plans: Mapping[str, Sequence[str]],
    positions: Mapping[str, Sequence[str]],
    turn: int = 1,
) -> Any:
    """Side a moves first, ships follow ``plans`` ("A", or "A@2" for turn 2; else they stay), nobody fires,
    positions as told or the first option."""
    if request.kind == "first player":
        return "a"
    if request.kind == "move":
        name = request.ships[0]
        return list(plans.get(f"{name}@{turn}", plans.get(name, [])))
    if request.kind == "fire":
        return {"shots": []}
    if request.kind == "relative position" and "|".join(request.ships) in positions:
        return list(positions["|".join(request.ships)])
    return request.default


_first_moves: dict[int, tuple[BattleState[Board], BattleState[Board], tuple[Event, ...]]] = {}


def first_move(start: BattleState[Board]) -> tuple[BattleState[Board], tuple[Event, ...]]:
    """The battle at its first movement decision (or its end). The initiative is played once, with one seed:
    every seed then plays on from the same first move, so the seeds vary only the dice of the movement."""
    if id(start) not in _first_moves:
        outcome = resolver.resolve(RS, start, SEEDS[0])
        state, events = outcome.state, list(outcome.events)
        while not state.over and state.pending()[0].kind != "move":
            request = state.pending()[0]
            accepted = resolver.submit(
                RS, state, side=request.side, request_id=request.id, choice=answer(request, {}, {}), seed=SEEDS[0]
            )
            assert isinstance(accepted, resolver.Accepted), accepted
            state, events = accepted.state, events + accepted.events
        _first_moves[id(start)] = (start, state, tuple(events))  # keeps ``start`` alive, so its id stays its own
    _, state, events = _first_moves[id(start)]
    return state, events


def play(
    start: BattleState[Board],
    seed: bytes,
    plans: Mapping[str, Sequence[str]],
    *,
    stop: Callable[[DecisionRequest], bool] = end_of_first_phase,
    positions: Mapping[str, Sequence[str]] | None = None,
    each_state: Callable[[BattleState[Board]], None] | None = None,
) -> Played:
    """Play from the first movement decision until ``stop`` says so (or the battle ends); ``each_state``
    sees the state at every decision and at the end."""
    state, before = first_move(start)
    events = list(before)
    while not state.over:
        if each_state is not None:
            each_state(state)
        request = state.pending()[0]
        if stop(request):
            return Played(state, tuple(events), request)
        choice = answer(request, plans, positions or {}, state.turn)
        accepted = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert isinstance(accepted, resolver.Accepted), accepted
        state, events = accepted.state, events + accepted.events
    if each_state is not None:
        each_state(state)
    return Played(state, tuple(events), None)


def check_judged_by_the_rule(roll: Event) -> str:
    """A collision check is 1d6 plus its modifiers and collides on 2 or less (SG-COL-01)."""
    data = roll.data
    assert data["needed"] == "2 or less"
    assert data["total"] == sum(data["dice"]) + sum(data["modifiers"].values())
    expected = "collision" if data["total"] <= 2 else "clear"
    assert data["outcome"] == expected, data
    return expected


def collision_events_match(played: Played) -> None:
    """A "collision" event follows exactly the checks that came out "collision"."""
    collided = [c for c in played.checks() if c.data["outcome"] == "collision"]
    assert len(played.kinds("collision")) == len(collided)


# --- the collision check --------------------------------------------------------------------------------


@pytest.mark.rule("SG-COL-01", "SG-COL-02", "SG-COL-03")
@pytest.mark.parametrize(
    ("other_facing", "plan", "modifiers"),
    [
        pytest.param(0, ["ahead", "ahead"], {STERN_OR_BOW: 1}, id="across-the-stern"),
        pytest.param(3, ["ahead", "ahead"], {STERN_OR_BOW: 1}, id="across-the-bow"),
        pytest.param(1, ["ahead", "ahead"], {}, id="across-a-broadside-1"),
        pytest.param(2, ["ahead", "ahead"], {}, id="across-a-broadside-2"),
        pytest.param(1, ["ahead", "ahead", "starboard"], {TURNED: -2}, id="turning-in-the-hex"),
        pytest.param(3, ["ahead", "ahead", "port"], {STERN_OR_BOW: 1, TURNED: -2}, id="bow-and-turn"),
        pytest.param(2, ["ahead", "ahead", "starboard", "ahead"], {TURNED: -2}, id="turn-then-move-on"),
    ],
)
def test_entering_an_occupied_hex_rolls_for_collision(
    other_facing: int, plan: list[str], modifiers: dict[str, int]
) -> None:
    # The mover comes in from the south (facing north); the other ship's facing decides whether that is
    # across its bow or stern hexside (+1), and a turn in the shared hex before moving on is -2.
    start = initial(
        scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", TWO_AHEAD, facing=other_facing)])
    )
    seen = set()
    for seed in SEEDS:
        played = play(start, seed, {"A": plan})
        (check,) = played.checks()
        assert check.data["modifiers"] == modifiers
        assert check.data["purpose"] == "collision check: A entering B's hex"
        seen.add(check_judged_by_the_rule(check))
        collision_events_match(played)
        # The check is made on entering the second hex, not before.
        entering = played.moved("A")[1]
        assert entering.data["hex"] == hexgrid.from_odd_q(*TWO_AHEAD).to_json()
        assert entering.seq < check.seq
    assert seen == {"collision", "clear"}


@pytest.mark.rule("SG-COL-01")
def test_passing_empty_hexes_never_rolls() -> None:
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", (9, 9))]))
    for seed in FEW_SEEDS:
        played = play(start, seed, {"A": ["ahead", "starboard", "ahead", "ahead", "ahead"]})
        assert played.checks() == []
        assert len(played.moved("A")) == 5


@pytest.mark.rule("SG-COL-04", "SG-COL-01")
def test_a_collision_stops_the_mover_at_once() -> None:
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", TWO_AHEAD, facing=2)]))
    plan = ["ahead", "ahead", "starboard", "ahead", "ahead"]
    shared = hexgrid.from_odd_q(*TWO_AHEAD)
    seen = set()
    for seed in SEEDS:
        played = play(start, seed, {"A": plan})
        (check,) = played.checks()
        outcome = check_judged_by_the_rule(check)
        seen.add(outcome)
        later_moves = [e for e in played.after(check) if e.kind == "moved" and e.data["ship"] == "A"]
        (done,) = [e for e in played.kinds("move done") if e.data["ship"] == "A"]
        a = played.state.board.ship("A")
        if outcome == "collision":
            # Not even the turn it planned in the hex: it stays where it hit, as it came in.
            assert later_moves == []
            assert (a.position, a.facing, done.data["hexes"]) == (shared, 0, 2)
        else:
            assert [e.data["step"] for e in later_moves] == ["starboard", "ahead", "ahead"]
            assert (a.facing, done.data["hexes"]) == (1, 4)
    assert seen == {"collision", "clear"}


# --- collision damage -----------------------------------------------------------------------------------


@cache
def collisions(a_class: str, b_class: str) -> tuple[Played, ...]:
    """The first-phase plays, over all seeds, where A ran into B (entering across B's stern)."""
    start = initial(scenario([ship("A", a_class, START)], [ship("B", b_class, TWO_AHEAD)]))
    found = []
    for seed in SEEDS:
        played = play(start, seed, {"A": ["ahead", "ahead"]})
        if played.kinds("collision"):
            found.append(played)
    assert len(found) >= 10, "too few collisions to judge the rule"
    return tuple(found)


def damage_rolls(played: Played) -> dict[str, Event]:
    rolls = played.rolls_for("collision damage to")
    by_ship = {str(r.data["purpose"]).split()[3]: r for r in rolls}
    assert len(rolls) == len(by_ship) == 2, "each player in a collision rolls once"
    return by_ship


HULL = {"Sky Runner": 3, "aphid": 2, "Macefield": 8, "Reliant": 12}


@pytest.mark.rule("SG-COL-06", "SG-COL-12", "SG-COL-05")
@pytest.mark.parametrize(("a_class", "b_class"), [("Sky Runner", "aphid"), ("Sky Runner", "Sky Runner")])
def test_collision_damage_is_a_hull_hit_on_a_roll_up_to_the_other_hull_size(a_class: str, b_class: str) -> None:
    # Each side rolls 1d6: at most the OTHER ship's hull size, and his own ship takes a hull hit. The chart's
    # "less than" loses to the text's "equal or less" (DESIGN.md section 8): a roll equal to it still hits.
    outcomes: set[tuple[str, str]] = set()
    equal_seen = False
    for played in collisions(a_class, b_class):
        rolls = damage_rolls(played)
        # Hull size is the record's figure (SG-COL-05).
        assert (played.state.board.ship("A").hull_size, played.state.board.ship("B").hull_size) == (
            HULL[a_class],
            HULL[b_class],
        )
        for victim, other_class in (("A", b_class), ("B", a_class)):
            roll = rolls[victim]
            other_hull = HULL[other_class]
            assert f"other hull size {other_hull}" in roll.data["purpose"]
            assert roll.data["needed"] == f"{other_hull} or less"
            (die,) = roll.data["dice"]
            hit = die <= other_hull
            assert roll.data["outcome"] == ("hull hit" if hit else "no damage")
            assert played.hull_hits(victim) == (1 if hit else 0)
            outcomes.add((victim, roll.data["outcome"]))
            equal_seen = equal_seen or die == other_hull
    assert outcomes == {(v, o) for v in "AB" for o in ("hull hit", "no damage")}
    assert equal_seen


@pytest.mark.rule("SG-COL-07", "SG-COL-06", "SG-COL-12")
@pytest.mark.parametrize("big", ["Macefield", "Reliant"])
def test_a_hull_over_six_hits_once_for_sure_and_maybe_twice(big: str) -> None:
    over = HULL[big] - 6
    seen_hits = set()
    for played in collisions("Sky Runner", big):
        rolls = damage_rolls(played)
        # The small ship against the big hull: one hit sure, a second on a roll up to hull size - 6.
        (die,) = rolls["A"].data["dice"]
        assert rolls["A"].data["needed"] == f"{over} or less"
        assert played.hull_hits("A") == 1 + (1 if die <= over else 0)
        seen_hits.add(played.hull_hits("A"))
        # The big ship against the small hull (3): the plain rule.
        (die,) = rolls["B"].data["dice"]
        assert played.hull_hits("B") == (1 if die <= HULL["Sky Runner"] else 0)
    # A hull of 12 is 6 over: the second hit is sure too.
    assert seen_hits == ({2} if over >= 6 else {1, 2})


@pytest.mark.rule("SG-COL-08", "SG-COL-13")
@pytest.mark.parametrize("big", ["Macefield", "Reliant"])
def test_the_smaller_ship_may_lose_trim(big: str) -> None:
    # The smaller ship rolls 1d6 and loses trim on at most half the hull-size difference, rounded down; the
    # text's "equal or less" wins over the chart's "less than" (DESIGN.md section 8).
    half = (HULL[big] - HULL["Sky Runner"]) // 2
    outcomes = set()
    equal_seen = False
    for played in collisions("Sky Runner", big):
        (trim,) = played.rolls_for("lose trim")
        assert "smaller A" in trim.data["purpose"]
        assert trim.data["needed"] == f"{half} or less"
        (die,) = trim.data["dice"]
        lost = die <= half
        assert trim.data["outcome"] == ("loss of trim" if lost else "keeps trim")
        # The damage rolls come first.
        assert all(r.seq < trim.seq for r in played.rolls_for("collision damage to"))
        # A loss of trim is then played out: the recovery roll follows; keeping trim, nothing follows.
        recovery = [r for r in played.after(trim) if r.kind == "roll" and "recovers trim" in str(r.data["purpose"])]
        assert bool(recovery) == lost
        outcomes.add(trim.data["outcome"])
        equal_seen = equal_seen or die == half
    assert outcomes == {"loss of trim", "keeps trim"}
    assert equal_seen


@pytest.mark.rule("SG-COL-08")
@pytest.mark.parametrize(("a_class", "b_class"), [("Sky Runner", "Sky Runner"), ("Sky Runner", "aphid")])
def test_no_trim_roll_unless_half_the_difference_is_at_least_one(a_class: str, b_class: str) -> None:
    # Equal hulls: no smaller ship. Hulls 3 and 2: half of 1 rounds down to 0, which no die can make.
    for played in collisions(a_class, b_class):
        assert played.rolls_for("trim") == []


# --- altitude and collisions ----------------------------------------------------------------------------


@pytest.mark.rule("SG-COL-10")
@pytest.mark.parametrize("plan", [["ahead", "ahead"], ["ahead", "ahead", "starboard", "ahead"]])
def test_ships_at_different_altitudes_never_collide(plan: list[str]) -> None:
    start = initial(scenario([ship("A", "Sky Runner", START, altitude="L")], [ship("B", "Sky Runner", TWO_AHEAD)]))
    for seed in FEW_SEEDS:
        played = play(start, seed, {"A": plan})
        assert played.checks() == []
        assert played.kinds("collision") == []
        assert [e.data["step"] for e in played.moved("A")] == plan
        # Not in the same place either: nobody declares a relative position.
        assert played.stopped_at is not None
        assert played.stopped_at.kind != "relative position"
        asked = [e.data["request"]["kind"] for e in played.events if e.kind == "decision_requested"]
        assert "relative position" not in asked


@pytest.mark.rule("SG-COL-11", "SG-COL-02", "SG-COL-03", "SG-COL-01")
@pytest.mark.parametrize(
    ("altitude", "plan", "modifiers"),
    [
        pytest.param("L", ["ahead", "ahead", "climb"], {}, id="climb-into-it"),
        pytest.param("H", ["ahead", "ahead", "descend"], {}, id="drop-into-it"),
        pytest.param("L", ["ahead", "ahead", "climb", "starboard"], {TURNED: -2}, id="climb-and-turn"),
    ],
)
def test_changing_altitude_to_a_ships_level_in_its_hex_rolls(
    altitude: str, plan: list[str], modifiers: dict[str, int]
) -> None:
    # The hexside was crossed at another level, so no bow/stern +1; a turn in the hex is still -2.
    start = initial(scenario([ship("A", "Sky Runner", START, altitude=altitude)], [ship("B", "Sky Runner", TWO_AHEAD)]))
    seen = set()
    for seed in SEEDS:
        played = play(start, seed, {"A": plan})
        (check,) = played.checks()
        assert check.data["modifiers"] == modifiers
        seen.add(check_judged_by_the_rule(check))
        collision_events_match(played)
        # The roll comes with the change of level, not on entering the hex.
        change = next(e for e in played.moved("A") if e.data["step"] in ("climb", "descend"))
        assert change.data["altitude"] == "M"
        assert change.seq < check.seq
        assert all(e.seq < change.seq for e in played.moved("A") if e.data["step"] == "ahead")
    assert seen == {"collision", "clear"}


# --- ships that begin a phase together ------------------------------------------------------------------


@pytest.mark.rule("SG-COL-09", "SG-COL-04", "SG-COL-06")
@pytest.mark.parametrize(
    ("cls", "plan", "modifiers"),
    [
        pytest.param("Sky Runner", ["ahead", "ahead"], {}, id="straight-out"),
        pytest.param("aphid", ["power starboard", "ahead", "ahead"], {TURNED: -2}, id="power-turn-then-out"),
    ],
)
def test_leaving_a_hex_shared_at_the_start_of_the_phase_rolls_again(
    cls: str, plan: list[str], modifiers: dict[str, int]
) -> None:
    start = initial(scenario([ship("A", cls, START)], [ship("B", "Sky Runner", START, facing=2)]))
    home = hexgrid.from_odd_q(*START)
    seen = set()
    for seed in SEEDS:
        played = play(start, seed, {"A": plan})
        (check,) = played.checks()
        assert check.data["purpose"] == "collision check: A leaving B's hex"
        assert check.data["modifiers"] == modifiers
        outcome = check_judged_by_the_rule(check)
        seen.add(outcome)
        collision_events_match(played)
        hexes_entered = [e for e in played.moved("A") if e.data["step"] == "ahead"]
        if outcome == "collision":
            # It stays in the hex for the rest of its move, and both roll for damage again.
            assert hexes_entered == []
            assert played.state.board.ship("A").position == home
            assert len(played.rolls_for("collision damage to")) == 2
        else:
            assert len(hexes_entered) == 2
            assert hexes_entered[0].seq > check.seq
            assert played.rolls_for("collision damage to") == []
    assert seen == {"collision", "clear"}


@pytest.mark.rule("SG-COL-09")
def test_ships_that_met_last_phase_roll_when_one_leaves() -> None:
    # A ends phase 1 in B's hex (whether they collided or not); in phase 2 B moves out and must roll.
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "aphid", TWO_AHEAD, facing=1)]))
    seen = set()
    for seed in SEEDS:
        played = play(start, seed, {"A": ["ahead", "ahead"], "B": ["ahead", "ahead"]}, stop=lambda r: False)
        leaving = [c for c in played.checks() if "leaving" in str(c.data["purpose"])]
        (check,) = leaving
        assert check.data["purpose"] == "collision check: B leaving A's hex"
        assert check.turn == 1
        assert check.phase.startswith("movement 2")
        seen.add(check_judged_by_the_rule(check))
        b_hexes = [e for e in played.moved("B") if e.data["step"] == "ahead"]
        assert len(b_hexes) == (0 if check.data["outcome"] == "collision" else 2)
    assert seen == {"collision", "clear"}


@pytest.mark.rule("SG-COL-09", "SG-COL-10")
def test_no_leaving_check_once_the_ships_are_at_different_altitudes() -> None:
    # A and B begin together at Medium; A drops (free) to Low in the hex, then moves out.
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", START, facing=2)]))
    for seed in FEW_SEEDS:
        played = play(start, seed, {"A": ["descend", "ahead", "ahead"]})
        for check in played.checks():
            before = [e for e in played.moved("A") if e.seq < check.seq]
            a_altitude = before[-1].data["altitude"] if before else "M"
            assert a_altitude == "M", f"{check.data['purpose']} rolled with A at {a_altitude} and B at M"
        assert played.kinds("collision") == []


@pytest.mark.rule("SG-COL-09")
def test_only_ships_that_began_the_phase_together_roll_to_leave() -> None:
    # A1 enters A2's hex this phase (and rolls for it); A2, which did not begin the phase with A1, moves out.
    start = initial(
        scenario(
            [ship("A1", "Sky Runner", (5, 6)), ship("A2", "Sky Runner", START)],
            [ship("B", "Sky Runner", (1, 1))],
        )
    )
    for seed in FEW_SEEDS:
        played = play(start, seed, {"A1": ["ahead"], "A2": ["ahead"]})
        entering = [c for c in played.checks() if "entering" in str(c.data["purpose"])]
        assert len(entering) == 1
        if entering[0].data["outcome"] == "clear":
            assert [c for c in played.checks() if "leaving" in str(c.data["purpose"])] == []


# --- relative position in a shared hex ------------------------------------------------------------------


def position_request(other_facing: int, seed: bytes = SEEDS[0]) -> tuple[Played, DecisionRequest]:
    """A (facing north) ends its move in B's hex; the battle stops at the declaration."""
    start = initial(
        scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", TWO_AHEAD, facing=other_facing)])
    )
    played = play(start, seed, {"A": ["ahead", "ahead"]}, stop=lambda r: r.kind == "relative position")
    assert played.stopped_at is not None
    assert played.stopped_at.kind == "relative position"
    return played, played.stopped_at


def as_pairs(options: Sequence[Any]) -> set[tuple[str, str]]:
    return {(str(mine), str(theirs)) for mine, theirs in options}


ALL_PAIRS = [(str(mine), str(theirs)) for mine in Aspect for theirs in Aspect]


@pytest.mark.rule("SG-MOV-05", "SG-MOV-06")
@pytest.mark.parametrize("other_facing", range(6))
def test_the_mover_declares_from_the_possible_relative_positions(other_facing: int) -> None:
    _, request = position_request(other_facing)
    # The player who moved declares where his ship sits: [the enemy in my aspect, I in his aspect].
    assert request.side == "a"
    assert request.ships == ("A", "B")
    assert request.rule == "SG-MOV-06"
    possible = {(str(m), str(t)) for m, t in hexgrid.relative_positions(0, other_facing)}
    assert request.options is not None
    assert as_pairs(request.options) == possible
    assert len(request.options) == len(possible)
    assert possible < set(ALL_PAIRS)


@pytest.mark.rule("SG-MOV-06")
@pytest.mark.parametrize("other_facing", [0, 1, 3])
def test_an_impossible_relative_position_is_rejected(other_facing: int) -> None:
    played, request = position_request(other_facing)
    possible = {(str(m), str(t)) for m, t in hexgrid.relative_positions(0, other_facing)}
    impossible = [pair for pair in ALL_PAIRS if pair not in possible]
    assert impossible
    for pair in impossible:
        refused = resolver.submit(RS, played.state, side="a", request_id=request.id, choice=list(pair), seed=SEEDS[0])
        assert isinstance(refused, Rejection), pair
        assert refused.clause == "SG-MOV-06"
    for pair in sorted(possible):
        accepted = resolver.submit(RS, played.state, side="a", request_id=request.id, choice=list(pair), seed=SEEDS[0])
        assert isinstance(accepted, resolver.Accepted), pair
        (declared,) = [e for e in accepted.events if e.kind == "relative position"]
        assert declared.data["pair"] == "A|B"
        assert declared.data["aspects"] == list(pair)


@pytest.mark.rule("SG-MOV-06", "SG-MOV-05")
def test_golden_same_facing_broadside_or_astern_but_never_bow_to_bow() -> None:
    """Worked example (SG-MOV-06): with equal facings the declaration may put the ships abeam of each other or
    one astern of the other; mutual bow aspect is impossible unless the facings are opposed."""
    played, request = position_request(other_facing=0)
    board = played.state.board
    assert board.ship("A").facing == board.ship("B").facing == 0
    for pair in (["port", "starboard"], ["starboard", "port"], ["bow", "stern"], ["stern", "bow"]):
        accepted = resolver.submit(RS, played.state, side="a", request_id=request.id, choice=pair, seed=SEEDS[0])
        assert isinstance(accepted, resolver.Accepted), pair
        # The declaration holds for both ships, each seen from its own side.
        assert accepted.state.board.relative("A", "B") == tuple(pair)
        assert accepted.state.board.relative("B", "A") == tuple(reversed(pair))
    refused = resolver.submit(RS, played.state, side="a", request_id=request.id, choice=["bow", "bow"], seed=SEEDS[0])
    assert isinstance(refused, Rejection)
    assert refused.clause == "SG-MOV-06"
    # Ships facing each other may be bow to bow.
    _, head_on = position_request(other_facing=3)
    assert head_on.options is not None
    assert ("bow", "bow") in as_pairs(head_on.options)


@pytest.mark.rule("SG-MOV-05")
def test_the_side_that_moved_last_declares_again() -> None:
    # A ends in B's hex and side a declares; in phase 2 the steam B turns in place, so side b declares anew
    # for its new facing. Had B not moved, nothing more would be asked.
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "aphid", TWO_AHEAD, facing=2)]))
    turned = play(start, SEEDS[0], {"A": ["ahead", "ahead"], "B": ["power starboard"]}, stop=lambda r: False)
    requests = [
        DecisionRequest.from_json(e.data["request"])
        for e in turned.events
        if e.kind == "decision_requested" and e.data["request"]["kind"] == "relative position"
    ]
    assert [(r.side, r.ships) for r in requests] == [("a", ("A", "B")), ("b", ("B", "A"))]
    assert requests[1].options is not None
    assert as_pairs(requests[1].options) == {(str(m), str(t)) for m, t in hexgrid.relative_positions(3, 0)}
    stayed = play(start, SEEDS[0], {"A": ["ahead", "ahead"], "B": []}, stop=lambda r: False)
    asked = [
        e for e in stayed.events if e.kind == "decision_requested" and e.data["request"]["kind"] == "relative position"
    ]
    assert len(asked) == 1


# --- plans through the ruleset --------------------------------------------------------------------------


def first_move_request(a: dict[str, Any]) -> tuple[BattleState[Board], DecisionRequest]:
    start = initial(scenario([a], [ship("B", "Sky Runner", (10, 10))]))
    played = play(start, SEEDS[0], {}, stop=lambda r: r.kind == "move")
    assert played.stopped_at is not None
    return played.state, played.stopped_at


@pytest.mark.rule("SG-MOV-01", "SG-MOV-04", "SG-FACE-02", "SG-ALT-03")
@pytest.mark.parametrize(
    ("plan", "clause"),
    [
        (["ahead"] * 5, "SG-MOV-01"),  # a Sky Runner's allowance is 4
        (["power port", "ahead"], "SG-MOV-04"),  # a screw galley cannot power turn
        (["starboard", "ahead"], "SG-MOV-02"),  # the first hex is the one ahead: no turn before it
        (["climb", "climb"], "SG-ALT-03"),  # Medium to above High, its ceiling
        ("ahead", "SG-MOV-01"),  # not a list of steps
    ],
)
def test_illegal_plans_are_rejected_naming_the_clause(plan: Any, clause: str) -> None:
    state, request = first_move_request(ship("A", "Sky Runner", START))
    refused = resolver.submit(RS, state, side="a", request_id=request.id, choice=plan, seed=SEEDS[0])
    assert isinstance(refused, Rejection)
    assert refused.clause == clause


@pytest.mark.rule("SG-MOV-01", "SG-MOV-02", "SG-FACE-02", "SG-FACE-03")
def test_a_legal_plan_is_carried_out_step_by_step() -> None:
    state, request = first_move_request(ship("A", "Sky Runner", START, facing=1))
    plan = ["ahead", "starboard", "ahead", "ahead", "port", "ahead"]
    accepted = resolver.submit(RS, state, side="a", request_id=request.id, choice=plan, seed=SEEDS[0])
    assert isinstance(accepted, resolver.Accepted)
    moved = [e for e in accepted.events if e.kind == "moved"]
    assert [e.data["step"] for e in moved] == plan
    home = hexgrid.from_odd_q(*START)
    first = Hex.from_json(moved[0].data["hex"])
    assert first == hexgrid.neighbour(home, 1)  # straight ahead of the bow
    assert [e.data["facing"] for e in moved] == [1, 2, 2, 2, 1, 1]
    assert sum(int(e.data["cost"]) for e in moved) == 4
    a = accepted.state.board.ship("A")
    assert a.facing == 1
    assert a.position == Hex.from_json(moved[-1].data["hex"])


@pytest.mark.rule("SG-CREW-08", "SG-CRIT-37", "SG-MOV-01")
def test_a_stunned_helmless_ship_is_asked_for_no_move() -> None:
    # Nobody at A's helm (it would hold last turn's 2 hexes) and its crew stunned: the move asked of it
    # must default to staying put, the only legal plan.
    start = initial(scenario([ship("A", "Sky Runner", START)], [ship("B", "Sky Runner", (10, 10))]))
    a = start.board.ship("A")
    a = replace(
        a,
        crew=replace(a.crew, helmsman=0),
        criticals=replace(a.criticals, stunned_from=1, stunned_through=2),
    )
    # "moved" becomes last turn's hexes when turn 1 begins.
    board = replace(start.board.with_ship(a), moved={"A": 2})
    played = play(replace(start, board=board), SEEDS[0], {}, stop=lambda r: r.kind == "move")
    request = played.stopped_at
    assert request is not None
    assert request.ships == ("A",)
    assert played.state.board.last_moved == {"A": 2}
    assert request.default == []
    refused = resolver.submit(RS, played.state, side="a", request_id=request.id, choice=["ahead"] * 2, seed=SEEDS[0])
    assert isinstance(refused, Rejection)
    assert refused.clause == "SG-CRIT-37"
    assert isinstance(
        resolver.submit(RS, played.state, side="a", request_id=request.id, choice=[], seed=SEEDS[0]),
        resolver.Accepted,
    )


# --- landing and crashing through the ruleset -----------------------------------------------------------


@pytest.mark.rule("SG-ALT-11")
def test_a_gentle_drop_to_the_ground_lands() -> None:
    state, request = first_move_request(ship("A", "Sky Runner", START, altitude="VL"))
    accepted = resolver.submit(RS, state, side="a", request_id=request.id, choice=["ahead", "descend"], seed=SEEDS[0])
    assert isinstance(accepted, resolver.Accepted)
    assert [e.data["clauses"] for e in accepted.events if e.kind == "landed"] == [["SG-ALT-04", "SG-ALT-11"]]
    a = accepted.state.board.ship("A")
    assert (a.status, a.altitude) == ("landed", "G")
    assert "A" not in accepted.state.board.out


def crash_land() -> resolver.Accepted[Board]:
    """A Sky Runner at Very Low moves two hexes and drops to the ground: a crash landing (SG-ALT-12)."""
    state, request = first_move_request(ship("A", "Sky Runner", START, altitude="VL"))
    accepted = resolver.submit(
        RS, state, side="a", request_id=request.id, choice=["ahead", "ahead", "descend"], seed=SEEDS[0]
    )
    assert isinstance(accepted, resolver.Accepted)
    return accepted


@pytest.mark.rule("SG-ALT-11")
def test_every_state_of_a_landing_keeps_the_invariants() -> None:
    state, request = first_move_request(ship("A", "Sky Runner", START, altitude="VL"))
    accepted = resolver.submit(RS, state, side="a", request_id=request.id, choice=["descend"], seed=SEEDS[0])
    assert isinstance(accepted, resolver.Accepted)
    assert accepted.state.board.ship("A").status == "landed"
    for event in accepted.events:
        state = resolver.apply_event(RS, state, event)
        assert RS.check_invariants(state) == [], f"after event {event.seq} ({event.kind})"


@pytest.mark.rule("SG-ALT-12")
def test_a_crash_landing_takes_the_ship_out_of_play() -> None:
    accepted = crash_land()
    (out,) = [e for e in accepted.events if e.kind == "out"]
    assert out.data["ship"] == "A"
    a = accepted.state.board.ship("A")
    assert (a.status, a.altitude) == ("crashed", "G")
    assert "A" in accepted.state.board.out
    assert accepted.state.over  # side a has nothing left in the fight
    assert accepted.state.winner == "b"


@pytest.mark.rule("SG-ALT-12")
def test_a_crash_landing_is_recorded_as_one_the_crew_safe() -> None:
    accepted = crash_land()
    (out,) = [e for e in accepted.events if e.kind == "out"]
    assert out.data["reason"] == "crash-landed"
    assert "SG-ALT-12" in out.data["clauses"]
    assert accepted.state.board.out["A"] == "crash-landed"
    fates = {s["name"]: s["fate"] for s in RS.tally(accepted.state)["ships"]}
    assert fates["A"] == "crash-landed"


@pytest.mark.rule("SG-ALT-13", "SG-ALT-14", "SG-ALT-02")
@pytest.mark.parametrize(("plan", "ends"), [(["ahead"], "landed"), (["ahead", "ahead"], "crashed")])
def test_flying_into_high_land(plan: list[str], ends: str) -> None:
    cliff = (5, 5 - len(plan))  # the last hex of the plan
    data = scenario(
        [ship("A", "Sky Runner", START, altitude="L")],
        [ship("B", "Sky Runner", (10, 10))],
        terrain=[{"hex": list(cliff), "height": "M"}],
    )
    played = play(initial(data), SEEDS[0], {}, stop=lambda r: r.kind == "move")
    assert played.stopped_at is not None
    accepted = resolver.submit(RS, played.state, side="a", request_id=played.stopped_at.id, choice=plan, seed=SEEDS[0])
    assert isinstance(accepted, resolver.Accepted)
    a = accepted.state.board.ship("A")
    assert a.position == hexgrid.from_odd_q(*cliff)
    if ends == "landed":
        assert a.status == "landed"
        assert [e.data["clauses"] for e in accepted.events if e.kind == "landed"]
    else:
        assert a.status == "crashed"
        assert accepted.state.board.out["A"] == "crashed"


@pytest.mark.rule("SG-ALT-13", "SG-ALT-02", "SG-ALT-05")
@pytest.mark.parametrize("height", ["L", "M"])
def test_a_ship_landed_on_high_land_takes_off_again(height: str) -> None:
    # Turn 1: A at Low flies one hex onto land of ``height`` and lands on it. Turn 2: it climbs a level,
    # which clears the land. Turn 3: it flies on. The state at every decision keeps the ruleset's
    # invariants (no ship flying inside the ground).
    cliff = (5, 4)
    data = scenario(
        [ship("A", "Sky Runner", START, altitude="L")],
        [ship("B", "Sky Runner", (10, 10))],
        terrain=[{"hex": list(cliff), "height": height}],
        turns=3,
    )
    start = initial(data)
    plans = {"A@1": ["ahead"], "A@2": ["climb"], "A@3": ["ahead"]}
    problems: list[str] = []
    played = play(
        start, SEEDS[0], plans, stop=lambda r: False, each_state=lambda s: problems.extend(RS.check_invariants(s))
    )
    assert problems == []
    landed = [e for e in played.events if e.kind == "landed"]
    assert len(landed) == 1
    a_moves = [(e.turn, e.data["step"], e.data["altitude"]) for e in played.moved("A")]
    above = altitude_levels()[altitude_levels().index(height) + 1]
    assert a_moves == [(1, "ahead", height), (2, "climb", above), (3, "ahead", above)]
    assert played.state.board.ship("A").status == "flying"


@pytest.mark.rule("SG-ALT-10", "SG-ALT-02")
def test_a_forced_drop_onto_the_land_crashes_at_the_start_of_the_move() -> None:
    # A Sky Runner at Medium over a hill reaching Low, its High and Medium rows full: it must drop to Low,
    # an involuntary drop onto the land.
    data = scenario(
        [ship("A", "Sky Runner", START)],
        [ship("B", "Sky Runner", (10, 10))],
        terrain=[{"hex": list(START), "height": "L"}],
    )
    start = initial(data)
    a = start.board.ship("A")
    rows = tuple(HullRow(r.altitude, r.boxes, r.boxes if r.altitude in ("H", "M") else 0) for r in a.hull_rows)
    damaged = replace(start, board=start.board.with_ship(replace(a, hull_rows=rows)))
    played = play(damaged, SEEDS[0], {}, stop=lambda r: r.kind == "move")
    (drop,) = played.kinds("forced drop")
    assert drop.data["altitude"] == "L"
    (out,) = played.kinds("out")
    assert (out.data["ship"], out.data["reason"]) == ("A", "crashed")
    assert "SG-ALT-10" in out.data["clauses"]
