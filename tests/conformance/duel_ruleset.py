"""A deliberately small, genuine ruleset for the conformance suite: two ships duel on a hex map.

Turn: initiative (each side 1d6, ties re-rolled, higher moves first); both sides plot their movement
secretly at once; plots are carried out in initiative order; then each side in order decides whether to
fire its broadside; shots are resolved together (1d6 to hit, then 1d6 on the damage table); a ship with no
hull boxes left sinks. The battle ends when a ship sinks or the scenario's turn limit is reached.

Its clauses are its own (DUEL-...), named in rejections the way a real ruleset names its checklist IDs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from battles.engine import hexgrid
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.dice import at_least, table
from battles.engine.events import DECISIONS, JSON, TURN, Event
from battles.engine.hexgrid import Aspect, Hex
from battles.engine.resolver import Context
from battles.engine.ruleset import BaseRuleset, OptionSpec, Setup
from battles.engine.state import BattleState

STEPS = ("ahead", "port", "starboard")
PLOT = "plot movement"
FIRE = "fire"


@dataclass(frozen=True)
class Ship:
    name: str
    side: str
    hex: Hex
    facing: int
    speed: int
    hull: int
    hull_max: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "side": self.side,
            "hex": self.hex.to_json(),
            "facing": self.facing,
            "speed": self.speed,
            "hull": self.hull,
            "hull_max": self.hull_max,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ship:
        return cls(
            name=str(data["name"]),
            side=str(data["side"]),
            hex=Hex.from_json(data["hex"]),
            facing=int(data["facing"]),
            speed=int(data["speed"]),
            hull=int(data["hull"]),
            hull_max=int(data.get("hull_max", data["hull"])),
        )


@dataclass(frozen=True)
class Board:
    cols: int
    rows: int
    turns: int
    ships: tuple[Ship, ...]
    wind: int | None = None
    first: str | None = None
    plots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shots: Mapping[str, bool] = field(default_factory=dict)

    def ship_of(self, side: str) -> Ship:
        return next(s for s in self.ships if s.side == side)

    def enemy_of(self, side: str) -> Ship:
        return next(s for s in self.ships if s.side != side)

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def order(self) -> tuple[str, str]:
        assert self.first is not None
        second = next(s.side for s in self.ships if s.side != self.first)
        return self.first, second

    def with_ship(self, ship: Ship) -> Board:
        return replace(self, ships=tuple(ship if s.name == ship.name else s for s in self.ships))


def follow(ship: Ship, steps: Sequence[str]) -> list[tuple[Hex, int]]:
    """Where a plot takes a ship: its hex and facing after each step."""
    hex_, facing, path = ship.hex, ship.facing, []
    for step in steps:
        if step == "ahead":
            hex_ = hexgrid.neighbour(hex_, facing)
        else:
            facing = hexgrid.rotate_facing(facing, -1 if step == "port" else 1)
        path.append((hex_, facing))
    return path


class Duel(BaseRuleset[Board]):
    key = "duel"
    version = "1"
    title = "Test duel (conformance suite only)"
    options = (
        OptionSpec("secret_plots", True, "both sides plot movement in secret", choices=(True, False)),
        OptionSpec("long_range", 4, "longest range a broadside reaches, in hexes"),
    )
    tables: Mapping[str, JSON] = {
        "to_hit": {"close": 4, "long": 6},
        "close_range": 2,
        "damage": [[1, 3, 1], [4, 6, 2]],  # die low, die high, hull boxes lost
    }

    # --- set-up and serialisation ---

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[Board]:
        ships_data = scenario["ships"]
        assert isinstance(ships_data, list)
        ships = tuple(Ship.from_json(s) for s in ships_data if isinstance(s, dict))
        if len(ships) != 2 or ships[0].side == ships[1].side:
            raise ValueError("a duel is two ships of two sides")
        board = Board(
            cols=_int(scenario["cols"]), rows=_int(scenario["rows"]), turns=_int(scenario["turns"]), ships=ships
        )
        if not all(board.on_map(s.hex) for s in ships):
            raise ValueError("ships must start on the map")
        return Setup(sides=tuple(s.side for s in ships), board=board)

    def board_to_json(self, board: Board) -> JSON:
        return {
            "cols": board.cols,
            "rows": board.rows,
            "turns": board.turns,
            "ships": [s.to_json() for s in board.ships],
            "wind": board.wind,
            "first": board.first,
            "plots": {k: list(v) for k, v in board.plots.items()},
            "shots": dict(board.shots),
        }

    def board_from_json(self, data: JSON) -> Board:
        assert isinstance(data, dict)
        plots = data["plots"]
        shots = data["shots"]
        ships = data["ships"]
        assert isinstance(plots, dict)
        assert isinstance(shots, dict)
        assert isinstance(ships, list)
        return Board(
            cols=_int(data["cols"]),
            rows=_int(data["rows"]),
            turns=_int(data["turns"]),
            ships=tuple(Ship.from_json(s) for s in ships if isinstance(s, dict)),
            wind=None if data["wind"] is None else _int(data["wind"]),
            first=None if data["first"] is None else str(data["first"]),
            plots={k: tuple(str(s) for s in v) for k, v in plots.items() if isinstance(v, list)},
            shots={k: bool(v) for k, v in shots.items()},
        )

    # --- the sequence of play ---

    def advance(self, ctx: Context[Board]) -> None:
        phase = ctx.state.phase
        if phase == "setup":
            wind = ctx.roll("wind: the hexside it blows from (DUEL-SET-01)")
            ctx.emit("wind", {"direction": wind.total - 1})
            ctx.begin_turn(1)
            ctx.begin_phase("initiative")
        elif phase == "initiative":
            self._initiative(ctx)
        elif phase == "plot":
            self._move(ctx)
        elif phase == "fire":
            self._fire(ctx)

    def _initiative(self, ctx: Context[Board]) -> None:
        a, b = ctx.state.sides
        while True:  # DUEL-SEQ-01: ties are rolled again
            roll_a = ctx.roll(f"initiative: {a}", ships=[ctx.board.ship_of(a).name])
            roll_b = ctx.roll(f"initiative: {b}", ships=[ctx.board.ship_of(b).name])
            if roll_a.total != roll_b.total:
                break
        ctx.emit("initiative", {"first": a if roll_a.total > roll_b.total else b})
        ctx.begin_phase("plot")
        for side in ctx.board.order():
            ship = ctx.board.ship_of(side)
            ctx.request(
                side,
                PLOT,
                rule="DUEL-MOV-01",
                default=[],
                secret=bool(ctx.option("secret_plots")),
                prompt=f"plot up to {ship.speed} steps for {ship.name}",
                ships=[ship.name],
            )

    def _move(self, ctx: Context[Board]) -> None:
        ctx.begin_phase("move")
        for side in ctx.board.order():  # DUEL-SEQ-02: plots are carried out in initiative order
            ship = ctx.board.ship_of(side)
            for hex_, facing in follow(ship, ctx.board.plots[side]):
                ctx.emit("moved", {"ship": ship.name, "hex": hex_.to_json(), "facing": facing}, ships=[ship.name])
        ctx.begin_phase("fire")

    def _fire(self, ctx: Context[Board]) -> None:
        board = ctx.board
        for side in board.order():  # DUEL-FIRE-01: fire decisions in initiative order
            if side not in board.shots:
                ship, enemy = board.ship_of(side), board.enemy_of(side)
                options = [{"fire": False}]
                if self.can_fire(ctx.state, ship, enemy):
                    options.append({"fire": True})
                ctx.request(side, FIRE, rule="DUEL-FIRE-01", options=options, ships=[ship.name, enemy.name])
                return
        for side in board.order():  # DUEL-FIRE-02: shots are resolved together, then ships sink
            if board.shots[side]:
                self._shoot(ctx, board.ship_of(side), board.enemy_of(side))
        sunk = [s for s in ctx.board.ships if s.hull == 0]
        for ship in sunk:
            ctx.emit("sunk", {"ship": ship.name}, ships=[ship.name])
        if sunk:
            survivors = [s.side for s in ctx.board.ships if s.hull > 0]
            ctx.end_battle(survivors[0] if survivors else None, "sunk")  # DUEL-END-01
        elif ctx.state.turn >= ctx.board.turns:
            ctx.end_battle(None, "turn limit")  # DUEL-END-02
        else:
            ctx.begin_turn()
            ctx.begin_phase("initiative")

    def _shoot(self, ctx: Context[Board], ship: Ship, enemy: Ship) -> None:
        hits = ctx.tables["to_hit"]
        assert isinstance(hits, dict)
        close = hexgrid.distance(ship.hex, enemy.hex) <= _int(ctx.tables["close_range"])
        needed = _int(hits["close" if close else "long"])
        names = [ship.name, enemy.name]
        shot = ctx.roll(f"to hit: {ship.name} vs {enemy.name}", needed=at_least(needed, "hit", "miss"), ships=names)
        if shot.outcome != "hit":
            return
        bands = ctx.tables["damage"]
        assert isinstance(bands, list)
        damage_table = table("damage table", [(_int(lo), _int(hi), str(n)) for lo, hi, n in _rows(bands)])
        damage = ctx.roll(f"damage to {enemy.name}", needed=damage_table, ships=names)
        boxes = min(int(damage.outcome), ctx.board.ship_of(enemy.side).hull)  # DUEL-DMG-01: none below 0
        ctx.emit("hit", {"ship": enemy.name, "boxes": boxes}, ships=[enemy.name])

    def can_fire(self, state: BattleState[Board], ship: Ship, enemy: Ship) -> bool:
        """DUEL-FIRE-03: broadside only, up to the long range option."""
        in_range = hexgrid.distance(ship.hex, enemy.hex) <= _int(state.options["long_range"])
        broadside = hexgrid.aspects(ship.hex, ship.facing, enemy.hex) & {Aspect.PORT, Aspect.STARBOARD}
        return in_range and bool(broadside)

    # --- the fold ---

    def apply(self, state: BattleState[Board], event: Event) -> Board:
        board, data = state.board, event.data
        if event.kind == TURN:
            return replace(board, first=None, plots={}, shots={})
        if event.kind == "wind":
            return replace(board, wind=_int(data["direction"]))
        if event.kind == "initiative":
            return replace(board, first=str(data["first"]))
        if event.kind == "moved":
            ship = next(s for s in board.ships if s.name == data["ship"])
            return board.with_ship(replace(ship, hex=Hex.from_json(data["hex"]), facing=_int(data["facing"])))
        if event.kind == "hit":
            ship = next(s for s in board.ships if s.name == data["ship"])
            return board.with_ship(replace(ship, hull=ship.hull - _int(data["boxes"])))
        if event.kind == DECISIONS:
            return self._take_answers(board, data["answers"])
        return board

    def _take_answers(self, board: Board, answers: JSON) -> Board:
        assert isinstance(answers, dict)
        plots, shots = dict(board.plots), dict(board.shots)
        for answer in answers.values():
            assert isinstance(answer, dict)
            side, choice = str(answer["side"]), answer["choice"]
            if answer["decision"] == PLOT and isinstance(choice, list):
                plots[side] = tuple(str(step) for step in choice)
            elif answer["decision"] == FIRE and isinstance(choice, dict):
                shots[side] = bool(choice["fire"])
        return replace(board, plots=plots, shots=shots)

    # --- decisions ---

    def validate(self, state: BattleState[Board], request: DecisionRequest, choice: JSON) -> Rejection | None:
        if request.kind != PLOT:
            return None
        ship = state.board.ship_of(request.side)
        if not isinstance(choice, list) or not all(isinstance(step, str) for step in choice):
            return Rejection("DUEL-MOV-01", "a plot is a list of steps")
        steps = [str(step) for step in choice]
        unknown = sorted(set(steps) - set(STEPS))
        if unknown:
            return Rejection("DUEL-MOV-02", f"unknown steps {unknown}; a step is one of {list(STEPS)}")
        if len(steps) > ship.speed:
            return Rejection("DUEL-MOV-03", f"{ship.name} has speed {ship.speed}, the plot has {len(steps)} steps")
        if not all(state.board.on_map(h) for h, _ in follow(ship, steps)):
            return Rejection("DUEL-MOV-04", f"{ship.name} would leave the map")
        return None

    def candidates(self, state: BattleState[Board], request: DecisionRequest) -> Sequence[JSON]:
        if request.kind != PLOT:
            return super().candidates(state, request)
        speed = state.board.ship_of(request.side).speed
        plots: list[JSON] = []
        for length in range(speed + 1):
            for steps in itertools.product(STEPS, repeat=length):
                plot: JSON = list(steps)
                if self.validate(state, request, plot) is None:
                    plots.append(plot)
        return plots

    # --- conformance ---

    def check_invariants(self, state: BattleState[Board]) -> list[str]:
        problems = []
        for ship in state.board.ships:
            if not 0 <= ship.hull <= ship.hull_max:
                problems.append(f"{ship.name}: hull {ship.hull} outside 0..{ship.hull_max}")
            if not state.board.on_map(ship.hex):
                problems.append(f"{ship.name}: off the map at {ship.hex}")
            if ship.facing not in range(6):
                problems.append(f"{ship.name}: facing {ship.facing}")
        if not state.over and any(s.hull == 0 for s in state.board.ships) and state.phase != "fire":
            problems.append("a sunk ship but the battle goes on")
        if state.turn > state.board.turns:
            problems.append(f"turn {state.turn} past the limit {state.board.turns}")
        return problems

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return [
            {
                "cols": 10,
                "rows": 8,
                "turns": 8,
                "ships": [
                    {"name": "Aphid", "side": "red", "hex": [2, 2], "facing": 2, "speed": 3, "hull": 4},
                    {"name": "Swiftwood", "side": "blue", "hex": [7, -1], "facing": 5, "speed": 2, "hull": 5},
                ],
            },
            {  # cramped: the ships start alongside, so fire and sinking come quickly
                "cols": 4,
                "rows": 4,
                "turns": 12,
                "ships": [
                    {"name": "Aphid", "side": "red", "hex": [1, 1], "facing": 0, "speed": 2, "hull": 2},
                    {"name": "Swiftwood", "side": "blue", "hex": [2, 0], "facing": 0, "speed": 2, "hull": 2},
                ],
            },
        ]


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _rows(rows: list[JSON]) -> list[tuple[Any, Any, Any]]:
    return [(row[0], row[1], row[2]) for row in rows if isinstance(row, list) and len(row) == 3]


DUEL = Duel()
