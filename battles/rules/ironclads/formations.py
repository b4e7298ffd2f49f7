"""Formations (Appendix D, optional: IC-FORM-01..16) on hexes (docs/ironclads.md "Movement", "Formations"). Pure.

Squadrons of one to four ships keep line abreast or line astern. At the start of each Movement Phase (IC-FORM-04)
the test line is drawn between the squadron's two end ships (through the turn point marker for a line astern in a
turn); a ship whose hex it crosses is in formation, any other gets a red marker (IC-FORM-11). On hexes the line is
the hexes either of two centre-to-centre lines passes through, nudged a hair to each side (the widest area, as the
zone of fire draws it), standing in for "any point of one casting to any point of the other".

What a player must do, made machine-checkable (``judge``), on the board at her move:

- out of formation (a red marker): steer back as quickly as possible (IC-FORM-12): her order must end her no
  farther from the nearest hex of her squadron's test line (drawn between the other ships of the squadron) than any
  other legal order of hers would;
- ordered to break off (IC-FORM-14/15): away from the enemy as quickly as possible: an order that takes her off the
  map, or, when none does, one that ends her as far from the nearest enemy as any legal order would;
- any enemy within 25 cm (6 hexes, 24 cm) when her move begins: free, whatever the above (IC-FORM-16);
- in formation, or in no squadron: free (IC-FORM-13).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_list, read_object, read_str
from battles.rules.ironclads import movement, scale
from battles.rules.ironclads.board import Board, Ship
from battles.rules.ironclads.movement import Move, Order

LINE_ABREAST, LINE_ASTERN = "line abreast", "line astern"
FORMATIONS: Final = (LINE_ABREAST, LINE_ASTERN)
MOST_SHIPS: Final = 4  # IC-FORM-02
EVASION_HEXES: Final = scale.CLOSE_HEXES  # "within 25 cm": 6 hexes is 24 cm, 7 is 28 (IC-FORM-16)
NUDGE: Final = 1e-6

FREE, REJOIN, WITHDRAW = "free", "rejoin", "withdraw"  # what a ship owes her formation this move


@dataclass(frozen=True, slots=True)
class Squadron:
    """A squadron: its ships in line order (in line astern, the leader first), its formation, the turn point marker
    (line astern, while the line turns: the hex the leader began her turn in, IC-FORM-07) and the red markers."""

    name: str
    ships: tuple[str, ...]
    formation: str = LINE_ASTERN
    turn_point: Hex | None = None
    red: frozenset[str] = frozenset()

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "ships": list(self.ships),
            "formation": self.formation,
            "turn_point": None if self.turn_point is None else list[JSON](self.turn_point.to_json()),
            "red": list[JSON](sorted(self.red)),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Squadron:
        point = data.get("turn_point")
        made = squadron(
            read_str(data["name"]),
            [read_str(s) for s in read_list(data["ships"])],
            read_str(data.get("formation", LINE_ASTERN)),
        )
        red = frozenset(read_str(s) for s in read_list(data.get("red", [])))
        return evolve(made, turn_point=None if point is None else Hex.from_json(point), red=red)


def squadron(name: str, ships: Iterable[str], formation: str = LINE_ASTERN) -> Squadron:
    """A squadron of one to four ships (IC-FORM-02) in line abreast or line astern (IC-FORM-06)."""
    listed = tuple(ships)
    if not 1 <= len(listed) <= MOST_SHIPS or len(set(listed)) != len(listed):
        raise ValueError(f"{name}: a squadron is one to {MOST_SHIPS} different ships, not {listed}")
    if formation not in FORMATIONS:
        raise ValueError(f"{name}: the formations are {' and '.join(FORMATIONS)}, not {formation!r}")
    return Squadron(name, listed, formation)


@dataclass(frozen=True, slots=True)
class Formations:
    """Every squadron, and the ships ordered to break off (IC-FORM-14). Optional (IC-FORM-01): a battle without
    formations has none, and every ship is free."""

    squadrons: tuple[Squadron, ...] = ()
    breaking_off: frozenset[str] = frozenset()

    def of(self, name: str) -> Squadron | None:
        return next((s for s in self.squadrons if name in s.ships), None)

    def to_json(self) -> JSONObject:
        return {
            "squadrons": [s.to_json() for s in self.squadrons],
            "breaking_off": list[JSON](sorted(self.breaking_off)),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Formations:
        return cls(
            tuple(Squadron.from_json(read_object(s)) for s in read_list(data.get("squadrons", []))),
            frozenset(read_str(s) for s in read_list(data.get("breaking_off", []))),
        )


def members(unit: Squadron, board: Board, *, leaving: str | None = None) -> tuple[Ship, ...]:
    """The squadron's ships still afloat, in line order (all but ``leaving``)."""
    return tuple(board.ship(n) for n in unit.ships if n != leaving and board.ship(n).afloat)


def end_ships(unit: Squadron, ships: tuple[Ship, ...]) -> tuple[Ship, Ship] | None:
    """The two end ships (IC-FORM-08): in line astern the leader and the last of the line; in line abreast the two
    farthest apart (the first such pair in line order). None for a squadron of one."""
    if len(ships) < 2:
        return None
    if unit.formation == LINE_ASTERN:
        return ships[0], ships[-1]
    pairs = list(itertools.combinations(ships, 2))
    return max(pairs, key=lambda pair: hexgrid.distance(pair[0].hex, pair[1].hex))


def drawn(a: Hex, b: Hex) -> frozenset[Hex]:
    """The hexes a straight line between two hex centres passes through, nudged to either side (both kept, so a line
    running along a hexside takes the hexes on both sides of it)."""
    steps = hexgrid.distance(a, b)
    if steps == 0:
        return frozenset({a})
    found: set[Hex] = set()
    for nudge in (NUDGE, -NUDGE):
        aq, ar, bq, br = a.q + nudge, a.r + 2 * nudge, b.q + nudge, b.r + 2 * nudge
        found.update(
            hexgrid.cube_round(aq + (bq - aq) * i / steps, ar + (br - ar) * i / steps) for i in range(steps + 1)
        )
    return frozenset(found)


def formation_line(unit: Squadron, ships: tuple[Ship, ...]) -> frozenset[Hex]:
    """The hexes of the test line (IC-FORM-09/10), via the turn point marker for a line astern in a turn."""
    ends = end_ships(unit, ships)
    if ends is None:
        return frozenset(s.hex for s in ships)
    first, last = ends[0].hex, ends[1].hex
    if unit.formation == LINE_ASTERN and unit.turn_point is not None:
        return drawn(first, unit.turn_point) | drawn(unit.turn_point, last)
    return drawn(first, last)


def in_formation(unit: Squadron, board: Board) -> frozenset[str]:
    """Who of the squadron is in formation (IC-FORM-03/05/08/09): all of a squadron of one; the end ships; each
    ship whose hex the test line crosses. Only the squadron's own ships count: nothing else on the map blocks it."""
    ships = members(unit, board)
    ends = end_ships(unit, ships)
    if ends is None:
        return frozenset(s.name for s in ships)
    line = formation_line(unit, ships)
    return frozenset(s.name for s in ships if s in ends or s.hex in line)


def check(formations: Formations, board: Board) -> Formations:
    """At the start of the Movement Phase, before anyone moves (IC-FORM-04): ships no longer afloat leave their
    squadrons, and the red markers go on the ships out of formation and off those back in it (IC-FORM-11)."""
    squadrons = []
    for unit in formations.squadrons:
        kept = evolve(unit, ships=tuple(n for n in unit.ships if board.ship(n).afloat))
        placed = in_formation(kept, board)
        squadrons.append(evolve(kept, red=frozenset(n for n in kept.ships if n not in placed)))
    return evolve(formations, squadrons=tuple(s for s in squadrons if s.ships))


def break_off(formations: Formations, name: str) -> Formations:
    """She is ordered to break off, announced just before she moves (IC-FORM-14): out of her squadron, a single
    independent ship (so in formation by default), bound for the map's edge."""
    squadrons = tuple(
        evolve(s, ships=tuple(n for n in s.ships if n != name), red=s.red - {name}) for s in formations.squadrons
    )
    return Formations(tuple(s for s in squadrons if s.ships), formations.breaking_off | {name})


def after_move(formations: Formations, move: Move) -> Formations:
    """The turn point marker (IC-FORM-07): placed where a line astern's leader began her turn; taken up when the last
    ship of the line has turned there."""
    unit = formations.of(move.name)
    if unit is None or unit.formation != LINE_ASTERN or move.turned_in is None:
        return formations
    line = [s.name for s in members(unit, move.board)]
    if move.name not in line:
        return formations
    if line[0] == move.name:
        placed = evolve(unit, turn_point=move.turned_in)
    elif line[-1] == move.name and move.turned_in == unit.turn_point:
        placed = evolve(unit, turn_point=None)
    else:
        return formations
    return evolve(formations, squadrons=tuple(placed if s is unit else s for s in formations.squadrons))


def enemies(board: Board, ship: Ship) -> tuple[Ship, ...]:
    return tuple(s for s in board.afloat if s.side != ship.side)


def evasive(board: Board, name: str) -> bool:
    """An enemy within 25 cm as her move begins (IC-FORM-16)."""
    ship = board.ship(name)
    return any(hexgrid.distance(ship.hex, e.hex) <= EVASION_HEXES for e in enemies(board, ship))


def duty(formations: Formations, board: Board, name: str) -> str:
    """What she owes her formation this move: FREE, REJOIN (a red marker) or WITHDRAW (breaking off)."""
    if evasive(board, name):
        return FREE
    if name in formations.breaking_off:
        return WITHDRAW
    unit = formations.of(name)
    return REJOIN if unit is not None and name in unit.red else FREE


def allowed(formations: Formations, board: Board, name: str) -> tuple[Order, ...]:
    """The legal orders (movement.judge) her formation duty leaves her, for validation and the AI."""
    legal = [o for o in movement.orders(board, name) if movement.judge(board, name, o) is None]
    owed = duty(formations, board, name)
    if owed == FREE or not legal:
        return tuple(legal)
    score = _rejoin_score(formations, board, name) if owed == REJOIN else _withdraw_score(board, name)
    scored = [(score(movement.execute(board, name, o)), o) for o in legal]
    best = min(s for s, _ in scored)
    return tuple(o for s, o in scored if s == best)


def judge(formations: Formations, board: Board, name: str, order: Order) -> Rejection | None:
    """Why a legal order breaks her formation duty (IC-FORM-12, IC-FORM-15); None when it keeps it. Judge the order
    with movement.judge first: this adds only the formation's demands."""
    owed = duty(formations, board, name)
    if owed == FREE or order in allowed(formations, board, name):
        return None
    if owed == REJOIN:
        return Rejection("IC-FORM-12", "out of formation, she must steer back towards her squadron as fast as she can")
    return Rejection("IC-FORM-15", "breaking off, she must head away from the enemy as fast as she can")


def _rejoin_score(formations: Formations, board: Board, name: str) -> Callable[[Move], float]:
    """Hexes from her end hex to the nearest hex of the line the rest of her squadron draws (smaller is better)."""
    unit = formations.of(name)
    assert unit is not None
    others = members(unit, board, leaving=name)
    line = formation_line(unit, others) if others else frozenset({board.ship(name).hex})

    def score(move: Move) -> float:
        end = move.board.ship(name)
        return float("inf") if not end.afloat else min(hexgrid.distance(end.hex, h) for h in line)

    return score


def _withdraw_score(board: Board, name: str) -> Callable[[Move], float]:
    """Off the map is best; else the farther from the nearest enemy the better (negated: smaller is better)."""
    foes = enemies(board, board.ship(name))

    def score(move: Move) -> float:
        end = move.board.ship(name)
        if end.broken_off:
            return float("-inf")
        return -min((hexgrid.distance(end.hex, e.hex) for e in foes), default=0)

    return score
