"""A ship's move as pure functions: the steps of a plan, what they cost, whether the ship may take them, and the
path they trace (CM-MOV-02..17, CM-PT-01..09, CM-ALT-01/02, the lights of docs/cloudships.md section 4).

A move is a plan, a list of steps in the order they are taken::

    ["ahead", "starboard", "climb ahead", "power port", "descend"]

* ``ahead``: 1 MP, one hex forward (CM-MOV-03).
* ``climb ahead``: 2 MP, one hex forward and one band up (CM-MOV-07); ``descend ahead``: 1 MP, one hex forward
  and one band down, the drop free (CM-MOV-09).
* ``port`` / ``starboard``: the free turn of one hexside, taken straight after a step that entered a hex, one a
  hex (CM-MOV-03/04, CM-MOV-08/09, CM-PT-07/08). A kite turns once a move, twice on a 6, both the same way
  (CM-MOV-14..17).
* ``power port`` / ``power starboard``: 1 MP, a turn anywhere, as often as the points allow; steam ships only
  (CM-PT-01..06, CM-PT-09).
* ``climb`` / ``descend``: 1 MP, one band up or down in the hex she is in (CM-MOV-05/10); only a steamer turns
  there, by power turns (CM-MOV-06/11).

What is decided where the text is silent (docs/cloudships.md section 6): a ship never goes down to Ground of her
own will (the text knows Ground only as a crash, CM-ALT-02); a hex ahead off the map takes her out of the battle
and ends her move; a lit Bridge Hit light makes her spend every point (unless she leaves the map); bands change
as often as the points allow. Rams and collisions need dice: the move phase meets them on the traced path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, Ship, TurnStatus

AHEAD, CLIMB_AHEAD, DESCEND_AHEAD = "ahead", "climb ahead", "descend ahead"
PORT, STARBOARD = "port", "starboard"
POWER_PORT, POWER_STARBOARD = "power port", "power starboard"
CLIMB, DESCEND = "climb", "descend"
STEPS = (AHEAD, PORT, STARBOARD, POWER_PORT, POWER_STARBOARD, CLIMB, DESCEND, CLIMB_AHEAD, DESCEND_AHEAD)
HEX_STEPS = (AHEAD, CLIMB_AHEAD, DESCEND_AHEAD)  # the steps that enter a hex (and so give a free turn)
FREE_TURNS = {PORT: -1, STARBOARD: 1}
POWER_TURNS = {POWER_PORT: -1, POWER_STARBOARD: 1}
BAND_CHANGE = {CLIMB: 1, CLIMB_AHEAD: 1, DESCEND: -1, DESCEND_AHEAD: -1}
COST = {
    AHEAD: 1,  # CM-MOV-03
    PORT: 0,
    STARBOARD: 0,
    POWER_PORT: 1,  # CM-PT-02
    POWER_STARBOARD: 1,
    CLIMB: 1,  # CM-MOV-05
    DESCEND: 1,  # CM-MOV-10
    CLIMB_AHEAD: 2,  # CM-MOV-07: the hex forward included
    DESCEND_AHEAD: 1,  # CM-MOV-09: no extra cost
}
CLAUSES = {
    AHEAD: ("CM-MOV-03",),
    POWER_PORT: ("CM-PT-02",),
    POWER_STARBOARD: ("CM-PT-02",),
    CLIMB: ("CM-MOV-05",),
    DESCEND: ("CM-MOV-10",),
    CLIMB_AHEAD: ("CM-MOV-07",),
    DESCEND_AHEAD: ("CM-MOV-09",),
}
LEFT_MAP = "left the map"  # how a move can end early: a hex ahead off the map
MOST_PLANS = 400  # candidates: one plan for each place a move can end, at most this many


class PlanError(ValueError):
    """An illegal plan; ``clause`` names the rule it breaks."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


class Step(NamedTuple):
    """One step of a traced plan: where the ship is after it, what it cost, and ``ends`` if the move ends there
    (she left the map: ``hex`` is the hex off the map she flew into)."""

    number: int
    token: str
    hex: Hex
    facing: int
    band: str
    cost: int
    ends: str = ""
    clauses: tuple[str, ...] = ()

    @property
    def enters_hex(self) -> bool:
        return self.token in HEX_STEPS and not self.ends

    @property
    def changes_band(self) -> bool:
        return self.token in BAND_CHANGE


@dataclass(frozen=True)
class Mover:
    """What the rules need of the ship and her turn: her motive, where she starts, the bands she may fly in (the
    optional Really Low among them or not, CM-ALT-06), her greatest altitude, and her status this turn."""

    ship: Ship
    status: TurnStatus
    bands: tuple[str, ...]
    on_map: Callable[[Hex], bool]

    @property
    def name(self) -> str:
        return self.ship.name

    @property
    def motive(self) -> str:
        return self.ship.panel.motive

    @property
    def kite_turns(self) -> int:
        """A kite's facing changes this move: one, two when her die showed a 6 (CM-MOV-15/16)."""
        return 2 if self.status.kite_roll == 6 else 1


def mover(board: Board, ship: Ship, status: TurnStatus, *, really_low: bool = False) -> Mover:
    bands = panels.BANDS_WITH_REALLY_LOW if really_low else panels.BANDS
    return Mover(ship=ship, status=status, bands=bands, on_map=board.on_map)


class Way(NamedTuple):
    """Where a traced move has got to: hex, facing, band, the points spent, the hexes entered, whether the last
    step entered a hex (its free turn is owed), and a kite's turns so far (their hexsides, +1 or -1). A named
    tuple, not a dataclass: the move's search makes one for every step it tries, and ``_replace`` costs a third
    of ``dataclasses.replace``."""

    hex: Hex
    facing: int
    band: str
    spent: int = 0
    hexes: int = 0
    turn_owed: bool = False
    kite_turns: tuple[int, ...] = ()
    in_place: str = ""  # the last band change made without moving (climb or descend), until she moves on
    ended: str = ""
    sail_turns: int = 0  # mixed power: free turns made in the sail's points (one at most, CM-MOV-22)


def start(move: Mover) -> Way:
    return Way(move.ship.hex, move.ship.facing, move.ship.band)


def trace(move: Mover, plan: Sequence[str]) -> list[Step]:
    """Check a plan against the rules and the ship's state and trace it; raises PlanError naming the clause."""
    way, steps = start(move), []
    for number, token in enumerate(plan):
        way, step = take(move, way, token, number)
        steps.append(step)
    check_whole(move, way)
    return steps


def take(move: Mover, way: Way, token: str, number: int) -> tuple[Way, Step]:
    """One step from ``way``: the way after it and the step traced, or PlanError."""
    if token not in STEPS:
        raise PlanError("CM-SEQ-06", f"step {number + 1}: {token!r} is no step; a step is one of {', '.join(STEPS)}")
    if way.ended:
        raise PlanError("CM-SEQ-06", f"step {number + 1}: {move.name} has {way.ended}; her move is over")
    cost = COST[token]
    if way.spent + cost > move.status.movement:
        clause = "CM-MOV-12" if move.motive == panels.KITE else "CM-SEQ-06"
        raise PlanError(
            clause, f"step {number + 1}: {move.name} would spend {way.spent + cost} of her {move.status.movement} MP"
        )
    if token in FREE_TURNS:
        after, clauses = _free_turn(move, way, token, number)
    elif token in POWER_TURNS:
        after, clauses = _power_turn(move, way, token, number)
    else:
        after, clauses = way, CLAUSES[token]
        if token in BAND_CHANGE:
            after = _change_band(move, after, token, number)
        after = after._replace(turn_owed=False, in_place=token if token in (CLIMB, DESCEND) else "")
        if token in HEX_STEPS:
            after = _enter(move, after)
    after = after._replace(spent=way.spent + cost)
    return after, Step(number, token, after.hex, after.facing, after.band, cost, after.ended, clauses)


def _enter(move: Mover, way: Way) -> Way:
    """A hex forward; off the map the ship is out of the battle and her move ends (docs/cloudships.md)."""
    hex_ = hexgrid.neighbour(way.hex, way.facing)
    if not move.on_map(hex_):
        return way._replace(hex=hex_, ended=LEFT_MAP)
    return way._replace(hex=hex_, hexes=way.hexes + 1, turn_owed=True)


def _free_turn(move: Mover, way: Way, token: str, number: int) -> tuple[Way, tuple[str, ...]]:
    """The free turn straight after a hex entered (CM-MOV-03/04); a kite's limits (CM-MOV-14..17)."""
    _may_turn(move, number)
    kite = move.motive == panels.KITE
    if not way.turn_owed:
        if kite and way.hexes == 0:
            raise PlanError("CM-MOV-14", f"step {number + 1}: a kite that has not moved may not turn")
        if way.in_place:
            clause = "CM-MOV-06" if way.in_place == CLIMB else "CM-MOV-11"
            raise PlanError(clause, f"step {number + 1}: only a steamer turns as she changes band in place, by power")
        clause = "CM-PT-07" if move.motive == panels.SCREW_GALLEY else "CM-MOV-04"
        raise PlanError(clause, f"step {number + 1}: the free turn comes straight after a hex entered, one a hex")
    side = FREE_TURNS[token]
    clauses: tuple[str, ...] = ("CM-MOV-03", "CM-MOV-04")
    if kite:
        if len(way.kite_turns) >= move.kite_turns:
            clause = "CM-MOV-15" if move.kite_turns == 1 else "CM-MOV-16"
            raise PlanError(clause, f"step {number + 1}: {move.name} has had her {move.kite_turns} turns this move")
        if way.kite_turns and way.kite_turns[0] != side:
            raise PlanError("CM-MOV-17", f"step {number + 1}: a kite's two turns are both to the same side")
        clauses = ("CM-MOV-15", "CM-MOV-16", "CM-MOV-17") if move.kite_turns == 2 else ("CM-MOV-15",)
    elif move.motive == panels.SCREW_GALLEY:
        clauses = ("CM-PT-07",)
    if _under_sail(move, way.spent):
        clauses = _sail_turn(move, way, number)
        way = way._replace(sail_turns=way.sail_turns + 1)
    facing = hexgrid.rotate_facing(way.facing, side)
    return way._replace(facing=facing, turn_owed=False, kite_turns=(*way.kite_turns, side) if kite else ()), clauses


def _power_turn(move: Mover, way: Way, token: str, number: int) -> tuple[Way, tuple[str, ...]]:
    """A paid turn, anywhere, as often as the points allow: steam ships only (CM-PT-01..06, CM-PT-09)."""
    _may_turn(move, number)
    if move.motive == panels.SCREW_GALLEY:
        raise PlanError("CM-PT-06", f"step {number + 1}: a screw galley may not power turn")
    if move.motive == panels.KITE:
        raise PlanError("CM-PT-09", f"step {number + 1}: a kite may not power turn")
    if _under_sail(move, way.spent + COST[token]):
        raise PlanError("CM-MOV-22", f"step {number + 1}: no power turn with the points the sail adds")
    facing = hexgrid.rotate_facing(way.facing, POWER_TURNS[token])
    return way._replace(facing=facing, turn_owed=False), ("CM-PT-02", "CM-PT-03", "CM-PT-05")


def _under_sail(move: Mover, spent: int) -> bool:
    """Has a mixed-power ship, having spent ``spent`` points, begun on the points her sail adds? Her engines'
    points are spent first, the sail's last (CM-MOV-19..22; docs/cloudships.md section 6)."""
    return move.status.sail > 0 and spent > move.status.steam


def _sail_turn(move: Mover, way: Way, number: int) -> tuple[str, ...]:
    """One hexside turn, once, in the sail's points (CM-MOV-22)."""
    if way.sail_turns:
        raise PlanError("CM-MOV-22", f"step {number + 1}: {move.name} turns once only with the sail's points")
    return ("CM-MOV-22",)


def _may_turn(move: Mover, number: int) -> None:
    if move.status.no_direction_change:
        raise PlanError("CM-LIGHT-02", f"step {number + 1}: {possessive(move.name)} No Direction Change light is lit")


def _change_band(move: Mover, way: Way, token: str, number: int) -> Way:
    """A band up or down: never above her greatest altitude, never down to Ground by choice (CM-ALT-01/02,
    CM-DMG-07/08); not while her No Altitude Change light is lit (CM-LIGHT-02/03)."""
    if move.status.no_altitude_change:
        raise PlanError("CM-LIGHT-03", f"step {number + 1}: {possessive(move.name)} No Altitude Change light is lit")
    height = move.bands.index(way.band) + BAND_CHANGE[token]
    if height >= len(move.bands):
        raise PlanError("CM-ALT-01", f"step {number + 1}: {panels.HIGH} is the highest band")
    band = move.bands[height]
    if band == panels.GROUND:
        raise PlanError("CM-ALT-02", f"step {number + 1}: a ship goes down to Ground only by crashing")
    ceiling = move.ship.ceiling
    if move.bands.index(band) > move.bands.index(ceiling):
        raise PlanError(_ceiling_clause(move.ship), f"step {number + 1}: {move.name} can fly no higher than {ceiling}")
    return way._replace(band=band)


def _ceiling_clause(ship: Ship) -> str:
    """Why she can climb no higher: a Low or Medium box crossed (CM-DMG-07/08), or her panel's altitude."""
    if ship.ceiling == ship.panel.ceiling:
        return "CM-SEQ-01"
    return "CM-DMG-08" if ship.ceiling == panels.LOW else "CM-DMG-07"


def check_whole(move: Mover, way: Way) -> None:
    """A lit Bridge Hit light: every point spent, unless the move ended off the map (docs/cloudships.md)."""
    if move.status.whole_movement and not way.ended and way.spent < move.status.movement:
        raise PlanError(
            "CM-LIGHT-08",
            f"{possessive(move.name)} Bridge Hit light is lit: "
            f"she spends all {move.status.movement} MP (spent {way.spent})",
        )


def cost(plan: Sequence[str]) -> int:
    return sum(COST.get(token, 0) for token in plan)


# --- every short plan, for the default move and the candidates -------------------------------------------------


def every_plan(move: Mover, *, most: int | None = MOST_PLANS) -> list[tuple[list[str], list[Step]]]:
    """One legal plan with its path for every end a move can reach (hex, facing, band, or off the map), cheapest
    first, at most ``most`` (None: all). Not every legal plan (a steamer's are thousands), but every end.

    The ways are grown a pile for each number of points spent (a free turn stays on its pile), and a way is dropped
    when the same place, heading, band and owed turn was reached for no more points: from there it can do nothing
    the cheaper way cannot (the band changed in place only names a refusal's clause). So each is grown once. With a
    lit Bridge Hit every point must be spent: then the points are part of the key. The AI's courses
    (tactics.courses) are these, unbounded."""
    whole = move.status.whole_movement
    first = start(move)
    reached: set[tuple[object, ...]] = {_reached(first, whole)}
    found: list[tuple[list[str], list[Step]]] = []
    ends: set[tuple[Hex, int, str, str]] = set()
    piles: list[list[tuple[list[str], list[Step], Way]]] = [[] for _ in range(move.status.movement + 1)]
    piles[0].append(([], [], first))
    for pile in piles:
        for plan, steps, way in pile:  # the pile grows as it is read: free turns cost nothing
            end = (way.hex, way.facing, way.band, way.ended)
            if end not in ends and _whole_ok(move, way):
                if most is not None and len(found) >= most:
                    return found
                ends.add(end)
                found.append((plan, steps))
            for token in _worth_trying(move, way):
                try:
                    after, step = take(move, way, token, len(plan))
                except PlanError:
                    continue
                key = _reached(after, whole)
                if key not in reached:
                    reached.add(key)
                    piles[after.spent].append(([*plan, token], [*steps, step], after))
    return found


def _reached(way: Way, whole: bool) -> tuple[object, ...]:
    key = (way.hex, way.facing, way.band, way.turn_owed, way.kite_turns, way.sail_turns, way.ended)
    return (*key, way.spent) if whole else key


def _worth_trying(move: Mover, way: Way) -> list[str]:
    """The steps worth trying from ``way``: those the rules would refuse out of hand are left out (a refusal is an
    exception, dear in a search this wide): free turns with none owed, power turns but for a steamer free to turn,
    band changes with the light lit, down to Ground or above her ceiling (CM-ALT-01/02, CM-DMG-07/08). ``take``
    judges the rest."""
    if way.ended:
        return []
    left = move.status.movement - way.spent
    tokens = [token for token in STEPS if COST[token] <= left]
    if not way.turn_owed:
        tokens = [token for token in tokens if token not in FREE_TURNS]
    if move.motive not in panels.STEAMERS or move.status.no_direction_change:
        tokens = [token for token in tokens if token not in POWER_TURNS]
    height = move.bands.index(way.band)
    ways = {0}
    if not move.status.no_altitude_change:
        ways |= {1} if height < move.bands.index(move.ship.ceiling) else set()
        ways |= {-1} if height > 1 else set()  # Ground is band 0: the lowest a ship flies in is band 1
    return [token for token in tokens if BAND_CHANGE.get(token, 0) in ways]


def _whole_ok(move: Mover, way: Way) -> bool:
    try:
        check_whole(move, way)
    except PlanError:
        return False
    return True
