"""The Sky Galleons board: plain immutable data, changed only by the folds of fold.py, and the read-only
questions every module asks of it (whose ship, in the fight, which side moves, the declared aspects in a
shared hex); the AI reads it through these as the rules do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from battles.engine.events import JSON
from battles.engine.jsonread import read_list, read_object
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
        return replace(self, ships=tuple(record if s.name == record.name else s for s in self.ships))

    def relative(self, firer: str, target: str) -> tuple[str, str] | None:
        """The declared (firer's aspect of target, target's aspect of firer) in a shared hex, if any."""
        if f"{firer}|{target}" in self.same_hex:
            return self.same_hex[f"{firer}|{target}"]
        if f"{target}|{firer}" in self.same_hex:
            mine, theirs = self.same_hex[f"{target}|{firer}"]
            return theirs, mine
        return None


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
