"""The Sky Galleons board: plain immutable data, changed only by the folds of fold.py, and the read-only
questions every module asks of it (whose ship, in the fight, which side moves, the declared aspects in a
shared hex); the AI reads it through these as the rules do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property

from battles.engine.events import JSON, Event
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.state import BattleState
from battles.rules.sky_galleons import maps
from battles.rules.sky_galleons.flying import FlyingParty
from battles.rules.sky_galleons.kinds import GRAPPLE, RAM, SETUP
from battles.rules.sky_galleons.movement import Terrain
from battles.rules.sky_galleons.ordnance import Torpedo
from battles.rules.sky_galleons.prizes import Prize
from galleons.record import ShipRecord


@dataclass(frozen=True)
class Answer:
    side: str
    kind: str
    choice: JSON


@dataclass(frozen=True)
class Board:
    scenario: str
    title: str
    terrain: Terrain
    ships: tuple[ShipRecord, ...]
    roles: Mapping[str, str]
    side_order: tuple[str, ...]
    side_names: Mapping[str, str]
    ai: Mapping[str, Mapping[str, JSON]]
    turn_limit: int
    setup_kind: str
    min_distance: int
    victory: str
    crew_at_start: Mapping[str, int]
    wind_rule: int | str | None = None
    wind: int | None = None
    stage: str = SETUP
    asking: str = ""  # the ship (or "A|B" pair) the open one-at-a-time decision is about
    order: tuple[str, ...] = ()  # this turn's movement order
    phase_no: int = 0  # 1..len(side_order) within the turn
    out: Mapping[str, str] = field(default_factory=dict)
    moved: Mapping[str, int] = field(default_factory=dict)  # hexes moved this turn
    last_moved: Mapping[str, int] = field(default_factory=dict)  # hexes moved last turn
    moves_done: tuple[str, ...] = ()  # ships that have moved in this phase
    same_hex: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # "A|B" -> (A's aspect of B, B's of A)
    placing: tuple[str, ...] = ()  # the set-up order of the ships (SG-SCN-04)
    placed: tuple[str, ...] = ()
    decided: tuple[Answer, ...] = ()
    # Close action (Part II): ships each side declared would ram or grapple this turn, attempts made,
    # movement points ships spent avoiding this turn, the move waiting on the target's avoidance, the
    # boarders declared crossing this phase (ship -> [target, men]), and prizes taken (ship -> captor side).
    rammers: Mapping[str, int] = field(default_factory=dict)
    ram_attempts: Mapping[str, int] = field(default_factory=dict)
    avoiding: Mapping[str, int] = field(default_factory=dict)
    held_move: JSON = None
    crossing: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    captured: Mapping[str, str] = field(default_factory=dict)
    # Each kite's movement die, rolled at the start of its side's movement phase (SG-KITE-02/04).
    kite_dice: Mapping[str, int] = field(default_factory=dict)
    # Tows: the towed ship -> (its tower, the turn the cable was rigged); it tows from the next turn (SG-TOW-03).
    tows: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    # Prizes taken: the ship -> who took her, whose she was, the captor's order for her (SG-BRD-21..24).
    prizes: Mapping[str, Prize] = field(default_factory=dict)
    # Exotic ordnance (ordnance_play): Smutts torpedoes in flight; the side a bombardment victory names.
    torpedoes: tuple[Torpedo, ...] = ()
    victory_side: str = ""
    # Flying parties on the map or aboard a ship they boarded (flying.py, SG-HM-02..06, SG-THR-01).
    flyers: tuple[FlyingParty, ...] = ()
    # Secret answers' sealed keys (request id -> those keys), folded from the side's own decision event and
    # merged back into ``decided`` when the batch closes (SG-MG-06, SG-SIG-05).
    sealed: Mapping[str, JSON] = field(default_factory=dict)
    # Portable machineguns trained in secret: "ship|gun" -> (aspect, turn trained) (portable_guns, SG-MG-06).
    trained: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    # Plotted movement (plotting, SG-ERR-24/25): this turn's plots, and each plotted move carried out -> (MP
    # spent, the most the ship may spend in its own Movement Phase).
    plots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    plotted: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # Collision avoidance (avoidance, SG-ERR-04/05): the ships asked before a held move goes ahead; movement
    # points spent avoiding after a ship had moved, owed by next turn (owing) and owed this turn (owed).
    avoiders: tuple[str, ...] = ()
    owing: Mapping[str, int] = field(default_factory=dict)
    owed: Mapping[str, int] = field(default_factory=dict)
    # The scenario's set-up, special rules and victory with their parameters (scenario.Scenario.rules_json),
    # and what those rules keep track of (special_rules, victory): key -> JSON, changed by "mark" events.
    scenario_rules: Mapping[str, JSON] = field(default_factory=dict)
    marks: Mapping[str, JSON] = field(default_factory=dict)
    # Each side's standing orders (standing.py), folded from its own "standing orders" event: the engine's board
    # holds every side's, a side's view only its own.
    standing: Mapping[str, JSON] = field(default_factory=dict)
    # The moving side's moves, written all at once and carried out one ship after another in this order
    # (movement_phase.go_on); kept to that side until each is made.
    written: tuple[tuple[str, JSON], ...] = ()

    def tower_of(self, name: str) -> str | None:
        return self.tows[name][0] if name in self.tows else None

    def towing(self, tower: str) -> str | None:
        """The ship ``tower`` has in tow, if any."""
        return next((towed for towed, (t, _) in self.tows.items() if t == tower), None)

    def ally(self, side: str, other: ShipRecord) -> bool:
        """A ship of the side, or a prize it has taken."""
        return other.side == side or self.captured.get(other.name) == side

    @cached_property
    def by_name(self) -> dict[str, ShipRecord]:
        return {ship.name: ship for ship in self.ships}

    def ship(self, name: str) -> ShipRecord:
        return self.by_name[name]

    def in_fight(self, ship: ShipRecord) -> bool:
        return ship.afloat and ship.name not in self.out and ship.position is not None

    def fighting(self, side: str | None = None) -> list[ShipRecord]:
        """The ships in the fight; ground batteries, mines and target hexes are ``emplacements``."""
        return [s for s in self.ships if self.in_fight(s) and s.emplacement is None and side in (None, s.side)]

    def emplacements(self, side: str | None = None) -> list[ShipRecord]:
        """The ground still standing: batteries, mines and city or fortress hexes (ordnance_play)."""
        return [s for s in self.ships if self.in_fight(s) and s.emplacement is not None and side in (None, s.side)]

    def sides_fighting(self) -> list[str]:
        return [side for side in self.side_order if self.fighting(side)]

    @property
    def moving(self) -> str | None:
        return self.order[self.phase_no - 1] if self.order and 1 <= self.phase_no <= len(self.order) else None

    def with_ship(self, record: ShipRecord) -> Board:
        return self.evolve(ships=tuple(record if s.name == record.name else s for s in self.ships))

    def evolve(self, **changes: object) -> Board:
        """The board with ``changes``: what ``dataclasses.replace`` gives, at a fraction of its cost (it passes
        all fifty fields through ``__init__``, and the folds make a new board for most events). The board has
        no ``__post_init__`` to re-run; ``by_name``, worked out from ``ships`` alone, is kept while they are."""
        if not changes.keys() <= _BOARD_FIELDS:
            raise TypeError(f"Board has no field {sorted(changes.keys() - _BOARD_FIELDS)}")
        new = object.__new__(Board)
        values = new.__dict__
        values.update(self.__dict__)
        values.update(changes)
        if "ships" in changes:
            values.pop("by_name", None)
        return new

    def relative(self, firer: str, target: str) -> tuple[str, str] | None:
        """The declared (firer's aspect of target, target's aspect of firer) in a shared hex, if any."""
        if f"{firer}|{target}" in self.same_hex:
            return self.same_hex[f"{firer}|{target}"]
        if f"{target}|{firer}" in self.same_hex:
            mine, theirs = self.same_hex[f"{target}|{firer}"]
            return theirs, mine
        return None


_BOARD_FIELDS = frozenset(f.name for f in fields(Board))
# Board.evolve copies a board's cached properties along with its fields: by_name, true while the ships are the
# same, is its only one. Another would need its own line there.
assert {name for name, value in vars(Board).items() if isinstance(value, cached_property)} == {"by_name"}


def pair_key(a: str, b: str) -> str:
    return f"{a}|{b}"


def move_parts(choice: JSON) -> tuple[list[str], tuple[str, str] | None]:
    """A move decision's steps, and its ram or grapple attempt if any: a plain list of steps, or
    ``{"steps": [...], "ram": target}`` / ``{"steps": [...], "grapple": target}``."""
    if isinstance(choice, list):
        return [str(t) for t in choice], None
    data = read_object(choice)
    steps = [str(t) for t in read_list(data["steps"])]
    for kind in (RAM, GRAPPLE):
        if kind in data:
            return steps, (kind, str(data[kind]))
    return steps, None


def party_of(record: ShipRecord) -> dict[str, JSON]:
    """A boarding party a captain would form: one officer (a marine officer before a sea officer) and
    half the deckhands, and the marines (SG-BRD-01, SG-CREW-01, SG-MAR-02)."""
    crew = record.crew
    leader = crew.party_leader
    men: dict[str, JSON] = {} if leader is None else {leader: 1}
    if crew.deckhands // 2:
        men["deckhands"] = crew.deckhands // 2
    if crew.marines:
        men["marines"] = crew.marines
    return men


# --- the board as JSON (the engine stores it; board_from_json(board_to_json(b)) == b) ---


def board_to_json(board: Board) -> JSON:
    return {
        "scenario": board.scenario,
        "title": board.title,
        "terrain": {
            "cols": board.terrain.cols,
            "rows": board.terrain.rows,
            "heights": [[h.q, h.r, level] for h, level in sorted(board.terrain.heights.items())],
            "zones": maps.zones_to_json(board.terrain),
        },
        "ships": [ship.to_json() for ship in board.ships],
        "roles": dict(board.roles),
        "side_order": list(board.side_order),
        "side_names": dict(board.side_names),
        "ai": {k: dict(v) for k, v in board.ai.items()},
        "turn_limit": board.turn_limit,
        "setup_kind": board.setup_kind,
        "min_distance": board.min_distance,
        "victory": board.victory,
        "crew_at_start": dict(board.crew_at_start),
        "wind_rule": board.wind_rule,
        "wind": board.wind,
        "stage": board.stage,
        "asking": board.asking,
        "order": list(board.order),
        "phase_no": board.phase_no,
        "out": dict(board.out),
        "moved": dict(board.moved),
        "last_moved": dict(board.last_moved),
        "moves_done": list(board.moves_done),
        "same_hex": {k: list(v) for k, v in board.same_hex.items()},
        "placing": list(board.placing),
        "placed": list(board.placed),
        "decided": [{"side": a.side, "kind": a.kind, "choice": a.choice} for a in board.decided],
        "rammers": dict(board.rammers),
        "ram_attempts": dict(board.ram_attempts),
        "avoiding": dict(board.avoiding),
        "held_move": board.held_move,
        "crossing": {k: [t, n] for k, (t, n) in board.crossing.items()},
        "captured": dict(board.captured),
        "kite_dice": dict(board.kite_dice),
        "tows": {k: [t, n] for k, (t, n) in board.tows.items()},
        "prizes": {k: v.to_json() for k, v in board.prizes.items()},
        "torpedoes": [t.to_json() for t in board.torpedoes],
        "victory_side": board.victory_side,
        **({"flyers": [party.to_json() for party in board.flyers]} if board.flyers else {}),
        "sealed": dict(board.sealed),
        "trained": {k: [a, n] for k, (a, n) in board.trained.items()},
        "plots": {k: list(v) for k, v in board.plots.items()},
        "plotted": {k: [mp, cap] for k, (mp, cap) in board.plotted.items()},
        "avoiders": list(board.avoiders),
        "owing": dict(board.owing),
        "owed": dict(board.owed),
        "scenario_rules": dict(board.scenario_rules),
        "marks": dict(board.marks),
        **({"standing": dict(board.standing)} if board.standing else {}),
        **({"written": [[name, move] for name, move in board.written]} if board.written else {}),
    }


def board_from_json(data: JSON) -> Board:
    d = read_object(data)
    terrain = read_object(d["terrain"])
    return Board(
        scenario=str(d["scenario"]),
        title=str(d["title"]),
        terrain=Terrain(
            cols=read_int(terrain["cols"]),
            rows=read_int(terrain["rows"]),
            heights={Hex(read_int(q), read_int(r)): str(level) for q, r, level in read_triples(terrain["heights"])},
            zones=maps.zones_from_json(terrain.get("zones", {})),
        ),
        ships=tuple(ShipRecord.from_json(s) for s in read_list(d["ships"])),
        roles={str(k): str(v) for k, v in read_object(d["roles"]).items()},
        side_order=tuple(str(s) for s in read_list(d["side_order"])),
        side_names={str(k): str(v) for k, v in read_object(d["side_names"]).items()},
        ai={str(k): dict(read_object(v)) for k, v in read_object(d["ai"]).items()},
        turn_limit=read_int(d["turn_limit"]),
        setup_kind=str(d["setup_kind"]),
        min_distance=read_int(d["min_distance"]),
        victory=str(d["victory"]),
        crew_at_start={str(k): read_int(v) for k, v in read_object(d["crew_at_start"]).items()},
        wind_rule=read_wind_rule(d["wind_rule"]),
        wind=None if d["wind"] is None else read_int(d["wind"]),
        stage=str(d["stage"]),
        asking=str(d["asking"]),
        order=tuple(str(s) for s in read_list(d["order"])),
        phase_no=read_int(d["phase_no"]),
        out={str(k): str(v) for k, v in read_object(d["out"]).items()},
        moved={str(k): read_int(v) for k, v in read_object(d["moved"]).items()},
        last_moved={str(k): read_int(v) for k, v in read_object(d["last_moved"]).items()},
        moves_done=tuple(str(s) for s in read_list(d["moves_done"])),
        same_hex={str(k): read_aspects(v) for k, v in read_object(d["same_hex"]).items()},
        placing=tuple(str(s) for s in read_list(d["placing"])),
        placed=tuple(str(s) for s in read_list(d["placed"])),
        decided=tuple(read_answer(a) for a in read_list(d["decided"])),
        rammers=read_counts(d["rammers"]),
        ram_attempts=read_counts(d["ram_attempts"]),
        avoiding=read_counts(d["avoiding"]),
        held_move=d["held_move"],
        crossing={str(k): read_pair_of(v) for k, v in read_object(d["crossing"]).items()},
        captured={str(k): str(v) for k, v in read_object(d["captured"]).items()},
        kite_dice=read_counts(d["kite_dice"]),
        tows={str(k): read_pair_of(v) for k, v in read_object(d["tows"]).items()},
        prizes={str(k): Prize.from_json(v) for k, v in read_object(d.get("prizes", {})).items()},
        torpedoes=tuple(Torpedo.from_json(t) for t in _list(d.get("torpedoes", []))),
        victory_side=str(d.get("victory_side", "")),
        flyers=tuple(FlyingParty.from_json(p) for p in read_list(d.get("flyers", []))),
        sealed=dict(read_object(d.get("sealed", {}))),
        trained={str(k): read_pair_of(v) for k, v in read_object(d.get("trained", {})).items()},
        plots={str(k): tuple(str(t) for t in read_list(v)) for k, v in read_object(d.get("plots", {})).items()},
        plotted={str(k): read_pair_ints(v) for k, v in read_object(d.get("plotted", {})).items()},
        avoiders=tuple(str(s) for s in read_list(d.get("avoiders", []))),
        owing=read_counts(d.get("owing", {})),
        owed=read_counts(d.get("owed", {})),
        scenario_rules=read_object(d.get("scenario_rules", {})),
        marks=read_object(d.get("marks", {})),
        standing=read_object(d.get("standing", {})),
        written=tuple((str(read_list(w)[0]), read_list(w)[1]) for w in read_list(d.get("written", []))),
    )


def read_aspects(value: JSON) -> tuple[str, str]:
    mine, theirs = read_list(value)
    return str(mine), str(theirs)


def read_answer(value: JSON) -> Answer:
    data = read_object(value)
    return Answer(str(data["side"]), str(data["kind"]), data["choice"])


def read_pair_ints(value: JSON) -> tuple[int, int]:
    items = read_list(value)
    if len(items) != 2:
        raise ValueError("expected [col, row]")
    return read_int(items[0]), read_int(items[1])


def read_triples(value: JSON) -> list[tuple[JSON, JSON, JSON]]:
    return [(t[0], t[1], t[2]) for t in (read_list(v) for v in read_list(value))]


def read_counts(value: JSON) -> dict[str, int]:
    return {str(k): read_int(v) for k, v in read_object(value).items()}


def read_pair_of(value: JSON) -> tuple[str, int]:
    target, men = read_list(value)
    return str(target), read_int(men)


def read_wind_rule(value: JSON) -> int | str | None:
    if value is None or isinstance(value, int | str):
        return value
    raise ValueError(f"wind rule {value!r}")


# A fold: the board after one event (fold.py's table holds one per event kind; pure, it never re-runs a rule).
# It reads the state, not the board alone, because a secret answer's sealed keys come from its request.
Fold = Callable[[BattleState[Board], Event], Board]


def _list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []
