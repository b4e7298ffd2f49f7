"""The board of a Sky Ships of Barsoom battle, as far as movement needs it: the map and the ships on it, each with
her hex, facing, altitude level, her vessel (class, speed, guns, crew), the ships she is grappled with, and her
state on the ground or in the air. Frozen; every move makes a new board (movement.py).

What damage and crews keep (cards discarded, fires, crew points) lives in their own small types (damage.py,
crew.py) until the ruleset's full board embeds them beside these ships.

Hexes are axial (battles.engine.hexgrid); a scenario speaks the map's ``[column, row]`` (odd-q). Facing 0 is north,
then clockwise. Level 0 is the ground (scale.GROUND): a ship there has landed or crashed, never flies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from battles.engine import hexgrid
from battles.engine.events import JSON, JSONObject
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.rules.barsoom import scale
from battles.rules.barsoom.kinds import AHEAD, DESCEND, REVERSE, STOP
from battles.rules.barsoom.ships import ShipClass, Vessel


class Way(NamedTuple):
    """A ship's way this turn, for what the rules count: the Aheads since she last stopped or reversed, the
    Reverses since she last stopped or went ahead (the moves "leading up to" a collision or ram, BR-COL-02,
    BR-RAM-02), and the Descends in an unbroken row just before now (a crash's or a landing's, BR-LAND-03)."""

    aheads: int = 0
    reverses: int = 0
    descends: int = 0

    def after(self, card: str) -> Way:
        """Her way after a card. An Ahead ends a run of Reverses and the reverse; a Stop ends both. A Turn or an
        Ascend does not stop her (she keeps her way through it) but breaks a row of Descends."""
        if card == AHEAD:
            return Way(self.aheads + 1, 0, 0)
        if card == REVERSE:
            return Way(0, self.reverses + 1, 0)
        if card == STOP:
            return STILL
        if card == DESCEND:
            return self._replace(descends=self.descends + 1)
        return self._replace(descends=0)

    @property
    def run(self) -> int:
        """The moves in a row in her direction of travel: what a collision or a ram counts."""
        return self.aheads or self.reverses

    def to_json(self) -> JSONObject:
        return {"aheads": self.aheads, "reverses": self.reverses, "descends": self.descends}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Way:
        return cls(read_int(data["aheads"]), read_int(data["reverses"]), read_int(data["descends"]))


STILL = Way()


@dataclass(frozen=True)
class Ship:
    """One ship. ``grappled``: the ships she is grappled with (BR-GRAP-05); ``landed``: on the ground by choice
    (BR-LAND-01); ``crashed``: on the ground by a crash, a wreck that cannot move until repaired (BR-LAND-02/04);
    ``stranded``: on the ground and unable to Ascend (BR-DMG-06); ``out_of_control``: her options are random
    (BR-OOC-01/02); ``left_map``: she flew off the map and is out of the battle."""

    name: str
    side: str
    vessel: Vessel
    hex: Hex
    facing: int
    level: int
    grappled: tuple[str, ...] = ()
    landed: bool = False
    crashed: bool = False
    stranded: bool = False
    out_of_control: bool = False
    left_map: bool = False
    way: Way = STILL

    @property
    def ship_class(self) -> ShipClass:
        return self.vessel.ship_class

    @property
    def speed(self) -> int:
        """Hexes an Ahead or Reverse moves her (BR-MOV-03/04)."""
        return self.vessel.speed

    @property
    def size(self) -> int:
        return self.ship_class.size

    @property
    def on_ground(self) -> bool:
        return self.level == scale.GROUND

    @property
    def in_play(self) -> bool:
        return not self.left_map

    @property
    def heading(self) -> int | None:
        """The hex direction she is travelling this turn: her bow's after Aheads, her stern's after a Reverse;
        None when she has not moved since her last Stop (so no collision with her is head-on)."""
        if self.way.aheads:
            return self.facing
        if self.way.reverses:
            return (self.facing + 3) % 6
        return None

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "side": self.side,
            "vessel": self.vessel.to_json(),
            "hex": list[JSON](self.hex.to_json()),
            "facing": self.facing,
            "level": self.level,
            "grappled": list(self.grappled),
            "landed": self.landed,
            "crashed": self.crashed,
            "stranded": self.stranded,
            "out_of_control": self.out_of_control,
            "left_map": self.left_map,
            "way": self.way.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ship:
        return cls(
            name=read_str(data["name"]),
            side=read_str(data["side"]),
            vessel=Vessel.from_json(read_object(data["vessel"])),
            hex=Hex.from_json(data["hex"]),
            facing=read_int(data["facing"]) % 6,
            level=read_int(data["level"]),
            grappled=tuple(read_str(name) for name in read_list(data["grappled"])),
            landed=read_bool(data["landed"]),
            crashed=read_bool(data["crashed"]),
            stranded=read_bool(data["stranded"]),
            out_of_control=read_bool(data["out_of_control"]),
            left_map=read_bool(data["left_map"]),
            way=Way.from_json(read_object(data["way"])),
        )


@dataclass(frozen=True)
class Board:
    """The map (``cols`` x ``rows``, odd-q), its ceiling (scale.CEILING unless the scenario sets it lower) and the
    ships, in a fixed order."""

    cols: int
    rows: int
    ships: tuple[Ship, ...]
    ceiling: int = scale.CEILING

    def ship_named(self, name: str) -> Ship:
        for ship in self.ships:
            if ship.name == name:
                return ship
        raise KeyError(f"no ship {name!r} on the board")

    def with_ships(self, changed: Iterable[Ship]) -> Board:
        by_name = {ship.name: ship for ship in changed}
        return replace(self, ships=tuple(by_name.get(ship.name, ship) for ship in self.ships))

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def ship_at(self, hex_: Hex, level: int, *, besides: Iterable[str] = ()) -> Ship | None:
        """The ship in this hex at this level (at most one: ships at one level never share a hex), leaving out
        ``besides``."""
        left_out = set(besides)
        for ship in self.ships:
            if ship.in_play and ship.hex == hex_ and ship.level == level and ship.name not in left_out:
                return ship
        return None

    def problems(self) -> list[str]:
        """What must hold on every board, in words (empty: all holds): levels from the ground to the ceiling, one
        ship to a hex and level, the ground for landed and crashed ships and for no others, grapples naming ships
        on the board."""
        found: list[str] = []
        names = [ship.name for ship in self.ships]
        if len(set(names)) != len(names):
            found.append("two ships share a name")
        seen: dict[tuple[Hex, int], str] = {}
        for ship in self.ships:
            if not scale.GROUND <= ship.level <= self.ceiling:
                found.append(f"{ship.name} is at level {ship.level}, outside 0 to {self.ceiling}")
            if ship.on_ground != (ship.landed or ship.crashed):
                found.append(f"{ship.name} is at level {ship.level}, landed {ship.landed}, crashed {ship.crashed}")
            if ship.landed and ship.crashed:
                found.append(f"{ship.name} has both landed and crashed")
            if ship.stranded and not ship.on_ground:
                found.append(f"{ship.name} is stranded in the air")
            unknown = [name for name in ship.grappled if name not in names or name == ship.name]
            if unknown:
                found.append(f"{ship.name} is grappled with {unknown}, not ships of the board")
            if ship.in_play:
                place = (ship.hex, ship.level)
                if place in seen:
                    found.append(f"{ship.name} and {seen[place]} share a hex at level {ship.level}")
                seen[place] = ship.name
        return found

    def new_turn(self) -> Board:
        """A new turn: every ship's way counted afresh (the plot is judged alone, docs/barsoom.md section 4)."""
        return replace(self, ships=tuple(replace(ship, way=STILL) for ship in self.ships))

    def to_json(self) -> JSONObject:
        return {
            "cols": self.cols,
            "rows": self.rows,
            "ceiling": self.ceiling,
            "ships": [ship.to_json() for ship in self.ships],
        }

    @classmethod
    def from_json(cls, data: JSON) -> Board:
        board = read_object(data)
        return cls(
            cols=read_int(board["cols"]),
            rows=read_int(board["rows"]),
            ceiling=read_int(board["ceiling"]),
            ships=tuple(Ship.from_json(read_object(ship)) for ship in read_list(board["ships"])),
        )
