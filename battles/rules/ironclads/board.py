"""The board of an Ironclads battle as movement needs it (docs/ironclads.md "Hex play"): the map, the sea state and
each ship's place, her Data Card beside it. Frozen; every move makes a new board (movement.py).

The map is a flat-top odd-q rectangle of ``cols`` x ``rows`` hexes, as the other rulesets' maps; hexes are axial
(battles.engine.hexgrid) everywhere inside, and ``from_offsets`` reads a scenario's ``[column, row]``. Land (islands,
reefs) is a set of hexes. Facing 0 is north, then clockwise. A ship fills her hex: it is her base and her casting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.rules.ironclads import cards, scale, speed
from battles.rules.ironclads.cards import DataCard
from battles.rules.ironclads.speed import Setting

MAJOR_STEERING = 2  # a second "steering problems" roll: no turn at all (IC-PROB-03)


@dataclass(frozen=True, slots=True)
class Ship:
    """One ship on the map.

    ``speed``/``astern``: her current speed (IC-SPD-03, IC-MOV-08); ``carry``: the cm of her allowance not yet spent
    on a whole hex ("Hex play"); ``moved``: chosen and moved this Movement Phase (IC-SEQ-07); ``turned``: she has
    made this Game Turn's one turn (IC-MOV-04); ``steering``: 0, 1 steering problems (IC-PROB-02), 2 major
    (IC-PROB-03); ``smokestacks``: wrecked (IC-PROB-04); ``bridge_turn``: the Game Turn her bridge hit holds her
    (the turn after the hit, IC-PROB-07), 0 for none; ``collided``: in a collision this turn, so no fire (IC-COL-08);
    ``broken_off``: she left the map (IC-MOV-07); ``sunk``: no Hull left (IC-END-01)."""

    name: str
    side: str
    card: DataCard
    hex: Hex
    facing: int
    speed: int = 0
    astern: bool = False
    carry: int = scale.FRESH_CARRY_CM
    moved: bool = False
    turned: bool = False
    steering: int = 0
    smokestacks: bool = False
    bridge_turn: int = 0
    collided: bool = False
    broken_off: bool = False
    sunk: bool = False

    @property
    def afloat(self) -> bool:
        """On the map: neither broken off nor sunk."""
        return not (self.broken_off or self.sunk)

    @property
    def setting(self) -> Setting:
        return Setting(self.speed, self.astern)

    @property
    def maximum(self) -> int:
        return speed.maximum(self.card)

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "side": self.side,
            "card": cards.to_json(self.card),
            "hex": list[JSON](self.hex.to_json()),
            "facing": self.facing,
            "speed": self.speed,
            "astern": self.astern,
            "carry": self.carry,
            "moved": self.moved,
            "turned": self.turned,
            "steering": self.steering,
            "smokestacks": self.smokestacks,
            "bridge_turn": self.bridge_turn,
            "collided": self.collided,
            "broken_off": self.broken_off,
            "sunk": self.sunk,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ship:
        steering = read_int(data.get("steering", 0))
        carry = read_int(data.get("carry", scale.FRESH_CARRY_CM))
        if not 0 <= steering <= MAJOR_STEERING or not 0 <= carry < scale.CM_PER_HEX:
            raise ValueError(f"steering problems are 0-2 and a carry 0-3 cm: {steering}, {carry}")
        return cls(
            name=read_str(data["name"]),
            side=read_str(data["side"]),
            card=cards.from_json(read_object(data["card"])),
            hex=Hex.from_json(data["hex"]),
            facing=read_int(data["facing"]) % 6,
            speed=read_int(data.get("speed", 0)),
            astern=read_bool(data.get("astern", False)),
            carry=carry,
            moved=read_bool(data.get("moved", False)),
            turned=read_bool(data.get("turned", False)),
            steering=steering,
            smokestacks=read_bool(data.get("smokestacks", False)),
            bridge_turn=read_int(data.get("bridge_turn", 0)),
            collided=read_bool(data.get("collided", False)),
            broken_off=read_bool(data.get("broken_off", False)),
            sunk=read_bool(data.get("sunk", False)),
        )


@dataclass(frozen=True, slots=True)
class Board:
    """The map, the sea state (IC-SEA-01..03: rolled once, fixed for the game), the Game Turn and the ships."""

    cols: int
    rows: int
    ships: tuple[Ship, ...]
    land: frozenset[Hex] = frozenset()
    rough: bool = False
    turn: int = 1

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def ship(self, name: str) -> Ship:
        for ship in self.ships:
            if ship.name == name:
                return ship
        raise KeyError(f"no ship {name!r} on the board")

    @property
    def afloat(self) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.afloat)

    def occupant(self, hex_: Hex) -> Ship | None:
        """The ship afloat in a hex (a ship fills her hex: there is never more than one)."""
        for ship in self.ships:
            if ship.hex == hex_ and ship.afloat:
                return ship
        return None

    def bridge_holds(self, ship: Ship) -> bool:
        """Her bridge was hit last turn: this turn no chosen speed change and no turn (IC-PROB-07)."""
        return ship.bridge_turn == self.turn

    def with_ship(self, ship: Ship) -> Board:
        """The board with ``ship`` (by name) in place of the old record."""
        return evolve(self, ships=tuple(ship if s.name == ship.name else s for s in self.ships))

    def next_turn(self) -> Board:
        """A new Game Turn: nobody has moved or turned, and last turn's collisions no longer stop fire (IC-COL-09)."""
        fresh = tuple(evolve(s, moved=False, turned=False, collided=False) for s in self.ships)
        return evolve(self, ships=fresh, turn=self.turn + 1)

    def to_json(self) -> JSONObject:
        return {
            "cols": self.cols,
            "rows": self.rows,
            "land": [list[JSON](h.to_json()) for h in sorted(self.land)],
            "rough": self.rough,
            "turn": self.turn,
            "ships": [s.to_json() for s in self.ships],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Board:
        return make(
            read_int(data["cols"]),
            read_int(data["rows"]),
            [Ship.from_json(read_object(s)) for s in read_list(data["ships"])],
            land=[Hex.from_json(h) for h in read_list(data.get("land", []))],
            rough=read_bool(data.get("rough", False)),
            turn=read_int(data.get("turn", 1)),
        )


def make(
    cols: int, rows: int, ships: Iterable[Ship], *, land: Iterable[Hex] = (), rough: bool = False, turn: int = 1
) -> Board:
    """A board, checked: every ship afloat and every land hex on the map, no two afloat ships or a ship and land in
    one hex, names unique. A board that cannot be is a ValueError."""
    board = Board(cols, rows, tuple(ships), frozenset(land), rough, turn)
    names = [s.name for s in board.ships]
    if len(set(names)) != len(names):
        raise ValueError(f"two ships share a name: {names}")
    off = [h for h in board.land if not board.on_map(h)] + [s.hex for s in board.afloat if not board.on_map(s.hex)]
    if off:
        raise ValueError(f"off the map: {off}")
    held = [s.hex for s in board.afloat]
    if len(set(held)) != len(held) or set(held) & board.land:
        raise ValueError("a ship fills her hex: no two ships, nor a ship and land, share one")
    return board


def rough_sea(first: int, second: int) -> bool:
    """The sea state from one D6 per side, rolled before play (IC-SEA-01/02): rough only on a double 1."""
    return first == second == 1


def from_offsets(hexes: Iterable[tuple[int, int]]) -> list[Hex]:
    """A scenario's ``[column, row]`` hexes (odd-q) as axial hexes."""
    return [hexgrid.from_odd_q(col, row) for col, row in hexes]
