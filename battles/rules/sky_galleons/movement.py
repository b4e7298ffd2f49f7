"""Sky Galleons movement as pure functions: movement plans, their cost and legality, and the path they trace
(SG-FACE-01..03, SG-MOV-01..04, SG-ALT-03..14, SG-CREW-08/09, SG-CRIT-16/37/38/42).

A ship's move is one plan, a list of steps in the order they are taken::

    ["ahead", "starboard", "ahead", "climb", "port", "descend"]

* ``ahead``: 1 MP, one hex straight ahead (SG-MOV-02/03, SG-FACE-02); off the map edge the ship leaves the
  battle and its move ends.
* ``port`` / ``starboard``: one hexside turn, free, but only straight after a paid step (``ahead``,
  ``climb`` or a paid ``descend``), and once per paid step (SG-MOV-02, SG-ALT-09).
* ``power port`` / ``power starboard``: 1 MP, turn in place; steam ships only (SG-MOV-04).
* ``climb``: 2 MP a level (SG-ALT-05), never above the ship's ceiling (SG-ALT-03); a ship whose speed is
  down to 1 may climb one level instead of moving (SG-ALT-08).
* ``descend``: the first level in a turn is free and gives no turn, each further level 1 MP (SG-ALT-04/06,
  SG-ALT-09). To the surface it lands if the ship drops only that level and moves at most 1 hex this turn,
  else it crash-lands (SG-ALT-11/12). Entering a hex whose land is as high as the ship lands it at speed 1,
  on the land's height, and crashes it faster (SG-ALT-13/14).

What a ship may do depends on its record: nobody at the helm, no change of course or speed (it holds last
turn's speed straight ahead, SG-CREW-08); a jammed rudder or a bridge hit, no change of course (SG-CRIT-38,
SG-CRIT-16); jammed lifters, nobody trimming or a bridge hit, no voluntary change of altitude (SG-CRIT-42,
SG-CREW-09); a crew stunned by a loss of trim, no move at all (SG-CRIT-37).

Collisions need dice, so the ruleset checks them as it walks the path this module traces (``Step``).

Kites sail (SG-WIND-03, SG-KITE-01..08). The wind is the hexside it blows *from* (DESIGN.md "Wind": die - 1,
0 = north, clockwise). ``point_of_sail`` names a facing against it, counting hexsides clockwise from the
wind's: 0 into the wind, 1 and 5 beating, 2, 3 and 4 running (combat-tables.json movement/kite). The ruleset
rolls one die per kite at the start of its movement phase and passes it, with the wind, to ``allowance``;
the readings chosen:

* Allowance fixed at the roll: the die gives an allowance running (1 + die) and one beating (die halved,
  up), less mast hits and topmen (``ShipRecord.effective_speed``). The heading she faces when the die is
  rolled, at the start of her move, picks one of them for the whole phase (``Sail.allowance``): a kite
  rolled on a beat keeps the beat's allowance when she bears away downwind, one rolled on a run keeps the
  run's when she hauls onto a beat (issue 18). A kite found facing into the wind (placed so) can only get
  out by a tack onto a run, so she has the running allowance (SG-KITE-02/04/05, SG-KITE-07).
* Into the wind: no step may leave a kite facing directly into the wind, and it never moves ahead facing
  it. A kite found facing it (placed so) may climb or drop, or tack out, but not move ahead (SG-KITE-05).
* ``tack port`` / ``tack starboard``: a 2-hexside turn, free, anywhere in the move (it needs no hex moved
  first), that crosses the wind (from one beat to the other) or turns out of it; one tack a phase, and with
  it no other turn that phase (SG-KITE-07). Other turns: one hexside per hex moved, like any ship
  (SG-KITE-06); a kite's free climbs and drops give no turn.
* ``climb`` / ``descend``: free for a kite, one level a turn in all; ``trace`` is told the levels the
  kite has already changed of its own will this turn (forced drops, SG-DMG-15, do not count) (SG-KITE-08).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Literal, NamedTuple

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from galleons.record import (
    Moment,
    ShipRecord,
    altitude_level,
    altitude_levels,
    surface,
    table,
    tint,
)

AHEAD = "ahead"
PORT = "port"
STARBOARD = "starboard"
POWER_PORT = "power port"
POWER_STARBOARD = "power starboard"
CLIMB = "climb"
DESCEND = "descend"
STEPS = (AHEAD, PORT, STARBOARD, POWER_PORT, POWER_STARBOARD, CLIMB, DESCEND)
TACK_PORT = "tack port"
TACK_STARBOARD = "tack starboard"
TACKS = (TACK_PORT, TACK_STARBOARD)
KITE_STEPS = TACKS  # the steps only a kite may take, besides STEPS (SG-KITE-07)

# Hexsides turned, positive = clockwise (starboard). A tack's two hexsides are movement/kite/tack_hexsides.
TURNS = {PORT: -1, STARBOARD: 1, POWER_PORT: -1, POWER_STARBOARD: 1, TACK_PORT: -2, TACK_STARBOARD: 2}

# A kite's point of sail: its facing against the wind (SG-KITE-01/02/04/05).
RUN: Final = "run"
BEAT: Final = "beat"
INTO_THE_WIND: Final = "into the wind"
PointOfSail = Literal["run", "beat", "into the wind"]

# How a move can end early: the ship left the map, landed, crash-landed or crashed.
LEFT_MAP = "left the map"
LANDED = "landed"
CRASH_LANDED = "crash-landed"
CRASHED = "crashed"


class PlanError(ValueError):
    """An illegal movement plan; ``clause`` names the rule it breaks."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


@dataclass(frozen=True)
class Terrain:
    """The battle map: its size in odd-q columns and rows, and the hexes whose land rises above the ground
    (mountains, cliffs, fortresses) with the altitude their top reaches (SG-ALT-02)."""

    cols: int
    rows: int
    heights: Mapping[Hex, str] = field(default_factory=dict)
    # Named areas of the map (the city, its island, the fortress...) that scenario rules name (maps.py).
    zones: Mapping[str, frozenset[Hex]] = field(default_factory=dict)

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def ground(self, hex_: Hex) -> str:
        height = self.heights.get(hex_)  # the surface looked up only where the land does not rise
        return surface() if height is None else height

    def hexes(self) -> list[Hex]:
        return list(hexgrid.rectangle_odd_q(self.cols, self.rows))


class Step(NamedTuple):
    """One step of a traced plan: where the ship is after it, what it cost, and how the move ends if it does.

    A named tuple rather than a frozen dataclass: the AI traces some 25,000 steps a Pitched Battle, and a frozen
    dataclass's __init__ sets its eight fields one by one through object.__setattr__, three times the cost of
    making the tuple (issue 21). Immutable and compared field by field all the same. ``number``: the step's
    place in the plan, from 0 (not ``index``, which a tuple has as a method)."""

    number: int
    token: str
    hex: Hex
    facing: int
    altitude: str
    cost: int
    ends: str = ""  # one of LEFT_MAP, LANDED, CRASH_LANDED, CRASHED, or "" while the move goes on
    clauses: tuple[str, ...] = ()

    @property
    def enters_hex(self) -> bool:
        return self.token == AHEAD and self.ends != LEFT_MAP

    @property
    def changes_altitude(self) -> bool:
        return self.token in (CLIMB, DESCEND)

    @property
    def turns(self) -> bool:
        return self.token in TURNS


@dataclass(frozen=True)
class Allowance:
    """What the ship may spend this turn and which kinds of change its state allows."""

    speed: int
    course: bool
    altitude: bool
    held_speed: int | None  # nobody at the helm: exactly this many hexes straight ahead (SG-CREW-08)
    stunned: bool
    sail: Sail | None = None  # a kite's sailing this phase; None for other ships


@cache
def _points_of_sail() -> tuple[PointOfSail, ...]:
    """The point of sail for each hexside counted clockwise from the wind's, 0-5 (movement/kite)."""
    found: dict[int, PointOfSail] = {}
    for sail in (RUN, BEAT, INTO_THE_WIND):
        for offset in table("movement", "kite", "points_of_sail", sail):
            if type(offset) is not int or offset not in range(6) or offset in found:
                raise ValueError(f"combat-tables.json movement/kite/points_of_sail/{sail}: bad hexside {offset!r}")
            found[offset] = sail
    if len(found) != 6:
        raise ValueError("combat-tables.json movement/kite/points_of_sail: every hexside 0-5 needs a point of sail")
    return tuple(found[offset] for offset in range(6))


def point_of_sail(facing: int, wind: int) -> PointOfSail:
    """How a kite facing ``facing`` sails in a wind blowing from hexside ``wind`` (both 0-5, clockwise from
    north): ``"into the wind"`` facing the wind's hexside, ``"beat"`` facing one of the two beside it,
    ``"run"`` facing one of the three downwind hexsides (SG-KITE-01/02/04/05)."""
    if facing not in range(6) or wind not in range(6):
        raise ValueError(f"a facing and a wind are hexsides 0-5, not {facing!r} and {wind!r}")
    return _points_of_sail()[(facing - wind) % 6]


@dataclass(frozen=True)
class Sail:
    """A kite's sailing in one movement phase: the wind (the hexside it blows from), the movement die rolled
    at the start of the phase, and the allowance that die gives running and beating, after mast hits and
    topmen lost (SG-KITE-02..04, SG-CRIT-29, SGD-MCH-05)."""

    wind: int
    die: int
    run: int
    beat: int
    facing: int  # her heading when the die was rolled, at the start of her move

    def on(self, facing: int) -> int:
        """The allowance a heading gives: running, beating, or 0 into the wind (SG-KITE-02/04/05)."""
        sail = point_of_sail(facing, self.wind)
        return self.run if sail == RUN else self.beat if sail == BEAT else 0

    @property
    def allowance(self) -> int:
        """The MP she may spend this phase, on every heading: the one her heading gave when the die was
        rolled; in irons, the run her tack out gives (a tack out of the wind ends on a run)."""
        return self.beat if point_of_sail(self.facing, self.wind) == BEAT else self.run


def kite_sail(record: ShipRecord, *, kite_die: int, wind: int) -> Sail:
    """A kite's allowances for the die rolled at the start of its movement phase (SG-KITE-02..04)."""
    if not record.is_kite:
        raise ValueError(f"{record.name} is no kite: it has no movement die")
    if kite_die not in range(1, 7) or wind not in range(6):
        raise ValueError(f"a kite's movement die is 1-6 and the wind a hexside 0-5, not {kite_die!r} and {wind!r}")
    return Sail(
        wind=wind,
        die=kite_die,
        run=record.effective_speed(kite_die, with_wind=True),
        beat=record.effective_speed(kite_die, with_wind=False),
        facing=record.facing,
    )


def allowance(
    record: ShipRecord,
    *,
    now: Moment,
    speed: int | None = None,
    last_hexes: int,
    kite_die: int | None = None,
    wind: int | None = None,
) -> Allowance:
    """The ship's movement allowance and freedoms in this movement phase (SG-MOV-01, SG-CREW-08/09...).

    ``speed`` defaults to the record's effective speed. A kite takes no ``speed``: it needs ``kite_die``,
    the die rolled for it at the start of this movement phase, and ``wind``, the hexside the wind blows from
    (SG-KITE-02/04). Its ``speed`` is then what its heading now (at the start of its move) allows, on every
    heading this phase (``Sail.allowance``), and ``sail`` keeps the die's allowances. Other ships ignore
    ``wind``.
    """
    sail: Sail | None = None
    if record.is_kite:
        if speed is not None:
            raise ValueError(f"{record.name} is a kite: its allowance comes from its movement die, not a speed")
        if kite_die is None or wind is None:
            raise ValueError(f"{record.name} is a kite: its allowance needs its movement die and the wind")
        sail = kite_sail(record, kite_die=kite_die, wind=wind)
        speed, heading = sail.allowance, sail.on(record.facing)
    else:
        if kite_die is not None:
            raise ValueError(f"{record.name} is no kite: it has no movement die")
        speed = record.effective_speed() if speed is None else speed
        heading = speed
    stunned = record.stunned(now)
    # Nobody at the helm holds last turn's speed, unless a stunned crew holds the ship still (SG-CRIT-37);
    # a kite no faster than its heading allows.
    held = None if record.helm_manned else 0 if stunned else min(last_hexes, heading)
    return Allowance(
        speed=speed,
        course=record.can_change_course(now),
        altitude=record.can_change_altitude(now),
        held_speed=held,
        stunned=stunned,
        sail=sail,
    )


def step_kinds(record: ShipRecord) -> tuple[str, ...]:
    """The step tokens a plan for this ship may name: a kite may also tack (SG-KITE-07)."""
    return STEPS + KITE_STEPS if record.is_kite else STEPS


def step_cost(token: str, *, first_drop: bool, kite: bool = False) -> int:
    """What one step costs in movement points (SG-MOV-02..04, SG-ALT-04..06); turns come free. A kite tacks
    and changes altitude free (SG-KITE-07/08)."""
    if token in TACKS:
        return tint("movement", "kite", "tack_cost")
    if kite and token in (CLIMB, DESCEND):
        return tint("movement", "kite", "altitude_change_cost")
    if token == AHEAD:
        return tint("movement", "cost", "ahead")
    if token in (POWER_PORT, POWER_STARBOARD):
        return tint("movement", "cost", "power_turn")
    if token == CLIMB:
        return tint("movement", "cost", "climb_level")
    if token == DESCEND:
        return tint("movement", "cost", "descend_first_level" if first_drop else "descend_further_level")
    return 0


def plan_cost(plan: Sequence[str], *, kite: bool = False) -> int:
    """The movement points a plan spends, before the speed-1 climb exception (SG-MOV-01..04, SG-ALT-04..06);
    ``kite``: a kite's plan (SG-KITE-07/08)."""
    cost, dropped = 0, False
    for token in plan:
        cost += step_cost(token, first_drop=not dropped, kite=kite)
        dropped = dropped or token == DESCEND
    return cost


def trace(
    record: ShipRecord,
    plan: Sequence[str],
    *,
    allowed: Allowance,
    terrain: Terrain,
    levels_changed_this_turn: int = 0,
) -> list[Step]:
    """Check a plan against the rules and the ship's state and trace it; raises PlanError naming the clause.

    Collisions are not traced here (they need dice); every other way a move can end is. A kite's
    ``allowed`` carries its ``sail`` (see ``allowance``); ``levels_changed_this_turn`` is the altitude levels
    it has already changed of its own will this turn (SG-KITE-08); other ships ignore it.
    """
    _check_plan(record, plan, allowed, terrain, levels_changed_this_turn)
    assert record.position is not None  # _check_plan refuses a ship not flying
    steps: list[Step] = []
    way = _Way(record.position, record.facing, altitude_level(record.altitude))
    whole = _Whole(plan.count(AHEAD), plan.count(DESCEND))
    for index, token in enumerate(plan):
        if steps and steps[-1].ends:
            raise PlanError("SG-MOV-01", f"the move ends at step {index} ({steps[-1].ends}); nothing can follow")
        steps.append(_step(record, way, token, index, allowed.sail, terrain, whole))
    return steps


@dataclass(frozen=True)
class _Whole:
    """What a step's tracing needs of the plan as a whole: the hexes it moves (a hex of land met at speed 1
    is landed on, faster crashed into, SG-ALT-13/14) and the levels it drops (a gentle landing, SG-ALT-11)."""

    hexes_moved: int
    levels_dropped: int


def _step(
    record: ShipRecord, way: _Way, token: str, index: int, sail: Sail | None, terrain: Terrain, whole: _Whole
) -> Step:
    """Trace one step of a plan from ``way`` (which it moves on), raising PlanError as ``trace`` does."""
    cost = 0
    clauses: tuple[str, ...] = ()
    ends = ""
    if token in (PORT, STARBOARD):
        clauses = _turn(way, token, index, sail)
    elif token in TACKS:
        cost, clauses = _tack(record, way, token, index, sail, terrain)
    elif token in (POWER_PORT, POWER_STARBOARD):
        cost, clauses = _power_turn(record, way, token)
    elif token == AHEAD:
        cost, clauses, ends = _ahead(record, way, index, sail, terrain, whole.hexes_moved)
    elif token == CLIMB:
        cost, clauses = _climb(record, way, sail)
    elif token == DESCEND:
        gentle = whole.levels_dropped == 1 and whole.hexes_moved <= 1
        cost, clauses, ends = _descend(record, way, sail, terrain, gentle=gentle)
    if sail is not None and token in TURNS and point_of_sail(way.facing, sail.wind) == INTO_THE_WIND:
        raise PlanError("SG-KITE-05", f"step {index + 1}: {record.name} would face directly into the wind")
    way.spent += cost
    return Step(index, token, way.hex_, way.facing, altitude_levels()[way.level], cost, ends, clauses)


def trace_turning(
    record: ShipRecord, prefix: Sequence[str], hexes: int, max_turns: int, *, allowed: Allowance, terrain: Terrain
) -> list[tuple[list[str], list[Step]]]:
    """Every legal plan ``prefix`` + a path of ``hexes`` hexes ahead with up to ``max_turns`` one-hexside turns
    after hexes moved, traced: the plans ``trace`` accepts, in the order of ``turning_paths``, with the steps it
    gives them. The AI weighs hundreds of such plans a move; they share their first steps, so each is traced
    from its parent's end rather than from the start (and the plan as a whole checked once, with a straight
    plan standing for the rest: its cost, hexes, drops and climbs are theirs; only its turns differ)."""
    found: list[list[tuple[list[str], list[Step]]]] = [[] for _ in range(hexes + 1)]
    _tree(record, prefix, [depth == hexes for depth in range(hexes + 1)], hexes, max_turns, allowed, terrain, found)
    return found[hexes]


def trace_turning_upto(
    record: ShipRecord, prefix: Sequence[str], most: int, max_turns: int, *, allowed: Allowance, terrain: Terrain
) -> list[tuple[list[str], list[Step]]]:
    """``trace_turning`` for every number of hexes from 0 to ``most``, in that order, as one list. A plan's
    hexes matter to its steps only while they are at most one (a landing rather than a crash, SG-ALT-11/13),
    so from two hexes on every length is a depth of one tree, traced once."""
    found = [
        trace_turning(record, prefix, hexes, max_turns, allowed=allowed, terrain=terrain)
        for hexes in range(min(most, 1) + 1)
    ]
    if most >= 2:
        deeper: list[list[tuple[list[str], list[Step]]]] = [[] for _ in range(most + 1)]
        _tree(record, prefix, [depth >= 2 for depth in range(most + 1)], 2, max_turns, allowed, terrain, deeper)
        found += deeper[2:]
    return [traced for by_hexes in found for traced in by_hexes]


def _tree(
    record: ShipRecord,
    prefix: Sequence[str],
    lengths: list[bool],
    hexes_moved: int,
    max_turns: int,
    allowed: Allowance,
    terrain: Terrain,
    found: list[list[tuple[list[str], list[Step]]]],
) -> None:
    """The plans ``prefix`` + turning paths of each length ``lengths`` asks for (by depth) into ``found``, each
    length whose straight plan the whole-plan checks refuse left out; ``hexes_moved`` is the hexes the steps are
    traced for (see ``trace_turning_upto``)."""
    valid = [
        wanted and _whole_plan_allowed(record, [*prefix, *[AHEAD] * depth], allowed, terrain)
        for depth, wanted in enumerate(lengths)
    ]
    longest = max((depth for depth, ok in enumerate(valid) if ok), default=-1)
    if longest < 0:
        return
    assert record.position is not None  # _check_plan refuses a ship not flying
    # A turn in the body is refused where a straight plan is not: course held or not free, a kite's tack.
    may_turn = allowed.course and _held_course(record, allowed, terrain) is None
    may_turn = may_turn and not (record.is_kite and any(token in TACKS for token in prefix))
    whole = _Whole(hexes_moved, prefix.count(DESCEND))
    way = _Way(record.position, record.facing, altitude_level(record.altitude))
    steps: list[Step] = []
    try:
        for index, token in enumerate(prefix):
            if steps and steps[-1].ends:
                return  # the move ended inside the prefix: nothing can follow (SG-MOV-01)
            steps.append(_step(record, way, token, index, allowed.sail, terrain, whole))
    except PlanError:
        return
    grow = _Growth(record, allowed.sail, terrain, whole, valid, longest, found)
    grow.node(list(prefix), steps, way, 0, max_turns if may_turn else 0)


def _whole_plan_allowed(record: ShipRecord, plan: list[str], allowed: Allowance, terrain: Terrain) -> bool:
    try:
        _check_plan(record, plan, allowed, terrain, 0)
    except PlanError:
        return False
    return True


@dataclass(frozen=True)
class _Growth:
    """One tree of turning paths being traced: what every node shares."""

    record: ShipRecord
    sail: Sail | None
    terrain: Terrain
    whole: _Whole
    valid: list[bool]
    longest: int
    found: list[list[tuple[list[str], list[Step]]]]

    def node(self, plan: list[str], steps: list[Step], way: _Way, depth: int, turns_left: int) -> None:
        """A plan of ``depth`` hexes, kept where that length is valid, then its children depth first in
        turning_paths' order: ahead, ahead and port, ahead and starboard."""
        if self.valid[depth]:
            self.found[depth].append((plan, steps))
        if depth == self.longest or (steps and steps[-1].ends):
            return
        ahead_way = _Way(way.hex_, way.facing, way.level, way.turn_granted, way.free_drop, way.spent)
        try:
            ahead = _step(self.record, ahead_way, AHEAD, len(plan), self.sail, self.terrain, self.whole)
        except PlanError:
            return
        plan_ahead, steps_ahead = [*plan, AHEAD], [*steps, ahead]
        self.node(plan_ahead, steps_ahead, ahead_way, depth + 1, turns_left)
        if turns_left == 0 or ahead.ends:
            return
        for turn in (PORT, STARBOARD):
            turned_way = _Way(
                ahead_way.hex_,
                ahead_way.facing,
                ahead_way.level,
                ahead_way.turn_granted,
                ahead_way.free_drop,
                ahead_way.spent,
            )
            try:
                turned = _step(self.record, turned_way, turn, len(plan_ahead), self.sail, self.terrain, self.whole)
            except PlanError:
                continue
            self.node([*plan_ahead, turn], [*steps_ahead, turned], turned_way, depth + 1, turns_left - 1)


def turning_paths(hexes: int, max_turns: int) -> list[list[str]]:
    """Every path of ``hexes`` hexes ahead with up to ``max_turns`` one-hexside turns after moves."""
    paths: list[list[str]] = [[]]
    for _ in range(hexes):
        grown = []
        for path in paths:
            grown.append([*path, AHEAD])
            if sum(1 for t in path if t in (PORT, STARBOARD)) < max_turns:
                grown.append([*path, AHEAD, PORT])
                grown.append([*path, AHEAD, STARBOARD])
        paths = grown
    return paths


@dataclass
class _Way:
    """Where a traced move has got to: the hex, facing and altitude level after the steps so far, whether
    the last step gave a turn, whether the free first level dropped is still to come (SG-ALT-04), and the
    movement points spent."""

    hex_: Hex
    facing: int
    level: int
    turn_granted: bool = False
    free_drop: bool = True
    spent: int = 0


def _check_plan(
    record: ShipRecord, plan: Sequence[str], allowed: Allowance, terrain: Terrain, levels_changed_this_turn: int
) -> None:
    """The checks on a plan as a whole, before its steps are traced: a flying ship, known steps, tacks for
    kites only, a kite's sailing, a stunned crew, and the points spent (SG-MOV-02, SG-KITE-07, SG-CRIT-37)."""
    if record.position is None or record.status == "crashed":
        raise PlanError("SG-DMG-16", f"{record.name} is not flying")
    kinds = step_kinds(record)
    unknown = [token for token in plan if token not in STEPS + KITE_STEPS]
    if unknown:
        raise PlanError("SG-MOV-02", f"unknown steps {unknown}; a step is one of {list(kinds)}")
    if not record.is_kite and any(token in TACKS for token in plan):
        raise PlanError("SG-KITE-07", f"only kites tack; {record.name} is {record.propulsion}")
    sail = allowed.sail
    if record.is_kite:
        if sail is None:
            raise ValueError(f"{record.name} is a kite: its allowance needs its movement die and the wind")
        _check_sailing(record, plan, levels_changed_this_turn)
    if allowed.stunned and plan:
        raise PlanError("SG-CRIT-37", f"{possessive(record.name)} crew is stunned by a loss of trim: it cannot move")
    _check_spending(record, plan, allowed, _held_course(record, allowed, terrain))


def _turn(way: _Way, token: str, index: int, sail: Sail | None) -> tuple[str, ...]:
    """A free turn of one hexside, owed to the hex moved or level paid for before it (SG-MOV-02, SG-ALT-09;
    a kite's, to a hex moved, SG-KITE-06)."""
    if not way.turn_granted:
        if sail is not None:
            raise PlanError("SG-KITE-06", f"step {index + 1}: a kite turns one hexside after each hex moved")
        raise PlanError("SG-MOV-02", f"step {index + 1}: a turn follows a hex moved or a level paid for, one turn each")
    way.turn_granted = False
    way.facing = hexgrid.rotate_facing(way.facing, TURNS[token])
    return ("SG-KITE-06",) if sail is not None else ("SG-MOV-02", "SG-ALT-09")


def _tack(
    record: ShipRecord, way: _Way, token: str, index: int, sail: Sail | None, terrain: Terrain
) -> tuple[int, tuple[str, ...]]:
    """A kite's tack: across the wind or out of it, never from the ground (SG-KITE-07, SG-ALT-11)."""
    assert sail is not None  # only kites get here
    if way.level <= _ground_level(terrain, way.hex_):
        raise PlanError("SG-ALT-11", f"{record.name} is on the ground: it climbs before it tacks")
    side = 1 if TURNS[token] > 0 else -1
    if sail.wind not in (way.facing, hexgrid.rotate_facing(way.facing, side)):
        raise PlanError(
            "SG-KITE-07",
            f"step {index + 1}: a tack crosses the wind or turns out of it; facing {way.facing} in a wind "
            f"from {sail.wind}, {token} does neither",
        )
    cost, way.turn_granted = step_cost(token, first_drop=way.free_drop, kite=True), False
    way.facing = hexgrid.rotate_facing(way.facing, TURNS[token])
    return cost, ("SG-KITE-07",)


def _power_turn(record: ShipRecord, way: _Way, token: str) -> tuple[int, tuple[str, ...]]:
    """A steam ship's paid power turn, never while landed (SG-MOV-04, SG-ALT-11)."""
    if not record.is_steam:
        raise PlanError("SG-MOV-04", f"only steam ships power turn; {record.name} is {record.propulsion}")
    if record.status == "landed":
        raise PlanError("SG-ALT-11", f"{record.name} has landed: it climbs before it turns")
    cost, way.turn_granted = step_cost(token, first_drop=way.free_drop), False
    way.facing = hexgrid.rotate_facing(way.facing, TURNS[token])
    return cost, ("SG-MOV-04",)


def _ahead(
    record: ShipRecord, way: _Way, index: int, sail: Sail | None, terrain: Terrain, hexes_moved: int
) -> tuple[int, tuple[str, ...], str]:
    """A hex ahead: it gives a turn, and may take the ship off the map or into land as high as she is
    (SG-MOV-02/03, SG-FACE-02, SG-ALT-13/14; a kite's, within her sailing allowance, SG-KITE-02/04/05)."""
    if way.level <= _ground_level(terrain, way.hex_):
        raise PlanError("SG-ALT-11", f"{record.name} is on the ground: it climbs before it moves")
    clauses: tuple[str, ...] = ()
    ends = ""
    cost, way.turn_granted = step_cost(AHEAD, first_drop=way.free_drop), True
    if sail is not None:
        clauses = _sail_ahead(record, sail, way.facing, way.spent + cost, index)
    way.hex_ = hexgrid.neighbour(way.hex_, way.facing)
    clauses += ("SG-MOV-02", "SG-MOV-03", "SG-FACE-02")
    if not terrain.on_map(way.hex_):
        ends = LEFT_MAP
    elif _ground_level(terrain, way.hex_) >= way.level:
        # Land as high as the ship: it lands at speed 1, crashes faster (SG-ALT-13/14). A ship that
        # lands sits on the land, at its height, as one landed by descending does: else it would
        # be inside a cliff, and a climb of one level would leave it flying inside the ground.
        ends = LANDED if hexes_moved <= 1 else CRASHED
        clauses += ("SG-ALT-13",) if ends == LANDED else ("SG-ALT-14",)
        if ends == LANDED:
            way.level = _ground_level(terrain, way.hex_)
    return cost, clauses, ends


def _climb(record: ShipRecord, way: _Way, sail: Sail | None) -> tuple[int, tuple[str, ...]]:
    """A level climbed, never above the ceiling (SG-ALT-03/05/09; a kite's, SG-KITE-08)."""
    ceiling = record.max_altitude
    if ceiling is None or way.level + 1 > altitude_level(ceiling):
        raise PlanError("SG-ALT-03", f"{record.name} cannot climb above its ceiling {ceiling}")
    cost = step_cost(CLIMB, first_drop=way.free_drop, kite=sail is not None)
    # A paid level gives a turn (SG-ALT-09); a kite's free level neither gives one nor takes away the
    # one its last hex gave (SG-KITE-06/08).
    way.turn_granted = way.turn_granted if sail is not None else True
    way.level += 1
    return cost, ("SG-KITE-08",) if sail is not None else ("SG-ALT-05", "SG-ALT-09")


def _descend(
    record: ShipRecord, way: _Way, sail: Sail | None, terrain: Terrain, *, gentle: bool
) -> tuple[int, tuple[str, ...], str]:
    """A level dropped: the first free, a paid one giving a turn (SG-ALT-04/06/09; a kite's, SG-KITE-08);
    reaching the ground it lands, ``gentle`` (one level dropped, at most one hex moved), or crash-lands
    (SG-ALT-11/12)."""
    if way.level <= _ground_level(terrain, way.hex_):
        raise PlanError("SG-ALT-01", f"{record.name} is already on the ground")
    clauses: tuple[str, ...]
    ends = ""
    cost = step_cost(DESCEND, first_drop=way.free_drop, kite=sail is not None)
    if sail is not None:
        clauses = ("SG-KITE-08",)
    elif way.free_drop:
        way.free_drop, way.turn_granted = False, False
        clauses = ("SG-ALT-04",)
    else:
        way.turn_granted = True
        clauses = ("SG-ALT-06", "SG-ALT-09")
    way.level -= 1
    if way.level <= _ground_level(terrain, way.hex_):
        ends = LANDED if gentle else CRASH_LANDED
        clauses += ("SG-ALT-11",) if gentle else ("SG-ALT-12",)
    return cost, clauses, ends


def _sail_ahead(record: ShipRecord, sail: Sail, facing: int, spent: int, index: int) -> tuple[str, ...]:
    """A kite moves a hex only off the wind, and within the allowance the die gave on her heading at the
    start of the move, whatever heading she moves on now (SG-KITE-02/04/05)."""
    if point_of_sail(facing, sail.wind) == INTO_THE_WIND:
        raise PlanError("SG-KITE-05", f"step {index + 1}: {record.name} cannot move directly into the wind")
    beating = point_of_sail(sail.facing, sail.wind) == BEAT  # else running, or in irons and tacking onto a run
    clause = "SG-KITE-04" if beating else "SG-KITE-02"
    if spent > sail.allowance:
        raise PlanError(
            clause,
            f"step {index + 1}: {record.name} would have spent {spent} MP; her die was rolled "
            f"{'beating' if beating else 'running'}, so her allowance is {sail.allowance} this phase",
        )
    return (clause,)


def _check_sailing(record: ShipRecord, plan: Sequence[str], levels_changed: int) -> None:
    """One tack a phase and no other turn with it (SG-KITE-07); one level of altitude a turn (SG-KITE-08)."""
    tacks = sum(token in TACKS for token in plan)
    if tacks > 1:
        raise PlanError("SG-KITE-07", f"{record.name} tacks once a movement phase at most")
    if tacks and any(token in TURNS and token not in TACKS for token in plan):
        raise PlanError("SG-KITE-07", f"{record.name} tacks: it makes no other turn this movement phase")
    levels = sum(token in (CLIMB, DESCEND) for token in plan)
    left = max(tint("movement", "kite", "voluntary_levels_per_turn") - levels_changed, 0)
    if levels > left:
        raise PlanError(
            "SG-KITE-08",
            f"{record.name} changes altitude {tint('movement', 'kite', 'voluntary_levels_per_turn')} level a turn "
            f"of its own will; {left} left this turn",
        )


def _ground_level(terrain: Terrain, hex_: Hex) -> int:
    return altitude_level(terrain.ground(hex_)) if terrain.on_map(hex_) else altitude_level(surface())


def _check_spending(record: ShipRecord, plan: Sequence[str], allowed: Allowance, held: list[str] | None) -> None:
    """Movement points, course, speed and altitude freedoms (SG-MOV-01, SG-ALT-08, SG-CREW-08/09...)."""
    cost = plan_cost(plan, kite=record.is_kite)
    # A kite's climb is free: the speed-1 exception is for paid climbs.
    speed_one = allowed.speed == 1 and CLIMB in plan and not record.is_kite
    if speed_one and any(token in (AHEAD, POWER_PORT, POWER_STARBOARD) for token in plan):
        raise PlanError("SG-ALT-08", "at speed 1 the ship climbs one level instead of moving, not as well")
    speed_one_climb = speed_one and plan.count(CLIMB) == 1 and cost == step_cost(CLIMB, first_drop=True)
    # A kite's spending is checked hex by hex against the allowance fixed at her roll (``_sail_ahead``).
    if cost > allowed.speed and not speed_one_climb and allowed.sail is None:
        raise PlanError(
            "SG-MOV-01", f"the plan costs {cost} MP; {possessive(record.name)} movement allowance is {allowed.speed}"
        )
    if not allowed.course and any(token in TURNS for token in plan):
        if not record.helm_manned:
            clause = "SG-CREW-08"
        else:
            clause = "SG-CRIT-38" if record.criticals.rudder_jam else "SG-CRIT-16"
        raise PlanError(clause, f"{record.name} cannot change course this turn")
    if not allowed.altitude and any(token in (CLIMB, DESCEND) for token in plan):
        if record.criticals.lifters_jam:
            clause = "SG-CRIT-42"
        elif not record.trim_manned:
            clause = "SG-CREW-09"
        else:
            clause = "SG-CRIT-16"
        raise PlanError(clause, f"{record.name} cannot change altitude of its own will this turn")
    if held is not None and list(plan) != held:
        raise PlanError(
            "SG-CREW-08",
            f"nobody at {possessive(record.name)} helm: it holds its course and speed, "
            f"{len(held)} hexes straight ahead",
        )


def _held_course(record: ShipRecord, allowed: Allowance, terrain: Terrain) -> list[str] | None:
    """With nobody at the helm the ship runs straight on at last turn's speed (SG-CREW-08), until the move
    ends on the way: over the map edge or into land as high as the ship. A landed ship stays on the ground."""
    if allowed.held_speed is None or record.position is None:
        return None
    hex_, level = record.position, altitude_level(record.altitude)
    if level <= _ground_level(terrain, hex_):
        return []  # landed: nobody at the helm to take her up, she stays on the ground
    for step in range(allowed.held_speed):
        hex_ = hexgrid.neighbour(hex_, record.facing)
        if not terrain.on_map(hex_) or _ground_level(terrain, hex_) >= level:
            return [AHEAD] * (step + 1)
    return [AHEAD] * allowed.held_speed


def forced_drop(record: ShipRecord, terrain: Terrain) -> tuple[str, str]:
    """A ship above its ceiling drops, free, at the start of its move (SG-DMG-15); down to the land below it
    that is an involuntary drop, a crash (SG-ALT-10). Returns (new altitude, "" or CRASHED)."""
    if record.must_drop == 0 or record.position is None:
        return record.altitude, ""
    level = altitude_level(record.altitude) - record.must_drop
    if level <= _ground_level(terrain, record.position):
        return altitude_levels()[max(level, 0)], CRASHED
    return altitude_levels()[level], ""


def collision_modifiers(*, entered_from: int | None, other_facing: int, turned_in_hex: bool) -> dict[str, int]:
    """The collision check's modifiers (SG-COL-02/03). ``entered_from`` is the direction from the shared hex
    back to the hex the mover came from (None when it did not cross a hexside: altitude, departure)."""
    mods: dict[str, int] = {}
    if entered_from is not None and entered_from in (other_facing, hexgrid.rotate_facing(other_facing, 3)):
        mods["entered across bow or stern hexside"] = 1
    if turned_in_hex:
        mods["turned in the shared hex"] = -2
    return mods


def turns_in_hex(plan: Sequence[str], start: int) -> bool:
    """Does the plan turn in the hex it is in at step ``start``, before it next moves on (SG-COL-03)?"""
    for token in plan[start:]:
        if token == AHEAD:
            return False
        if token in TURNS:
            return True
    return False
