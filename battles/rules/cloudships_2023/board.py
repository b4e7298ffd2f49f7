"""The board of a Cloudships of Mars battle: the ships in it, this round's deck, whose turn it is and the damage
waiting to be marked. Frozen; the fold (fold.py) makes a new board for every event.

A ship is her control panel as built (panels.py) plus what the battle has done to her: where she is (hex, facing,
band), the boxes crossed on her damage track, her lights, the Fired markers, the guns lost or spent, her boarding
parties and flights, grapples, permanent criticals and her fate. What the track alone decides (the greatest altitude
left, the speed lost) is read from the boxes crossed, not kept twice.

The round is the engine's turn and the stage its phase (kinds.py). The deck keeps this round's cards and those
turned: the cards still to come are the rest, in no order at all. The next card is drawn from them by a logged
die only when it is turned (phases/deck.py), so the order of the undrawn cards exists nowhere: not in the
state, not in the log, not in what an AI reads.

Hexes are axial (battles.engine.hexgrid); a scenario speaks the map's ``[column, row]`` (odd-q).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON, JSONObject
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list, read_object, read_opt_int, read_str
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.company import Company
from battles.rules.cloudships_2023.kinds import FATES, FLYING
from battles.rules.cloudships_2023.panels import BANDS_WITH_REALLY_LOW, GREEN, ControlPanel, Gun

Lights = tuple[tuple[str, str], ...]


def band_height(band: str) -> int:
    """A band's place from the ground up, the optional Really Low counted (CM-ALT-01/06): comparisons only."""
    return BANDS_WITH_REALLY_LOW.index(band)


@dataclass(frozen=True)
class Ship:
    """One ship in the battle. ``fired``: gun numbers with a Fired marker (CM-SEQ-10); ``guns_lost``: guns
    marked hit (CM-DMG-06); ``spent``: one-shot weapons fired (CM-FIRE-12); ``parties`` and ``flights``: the
    boarding parties (blue squares) and Flying Martian flights aboard still fit to fight; ``grapnel``: the power
    grapnel still aboard (CM-PG-04); ``grappled``: the ships she is grappled with (CM-BRD-02); ``criticals``:
    permanent criticals taken (CM-LIGHT-07); ``pending``: criticals taken in the current ship's turn, lit amber
    at its step 5 (CM-SEQ-12)."""

    name: str
    side: str
    panel: ControlPanel
    hex: Hex
    facing: int
    band: str
    crossed: int = 0
    lights: Lights = field(default_factory=panels.all_green)
    fired: tuple[int, ...] = ()
    guns_lost: tuple[int, ...] = ()
    spent: tuple[int, ...] = ()
    parties: int = 0
    flights: int = 0
    grapnel: bool = False
    grappled: tuple[str, ...] = ()
    criticals: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    status: str = FLYING
    # the boarding slice: boarding value marked off once no party or flight is left to lose (CM-BRD-16, section 7),
    # and the ship whose boarders took her, if she struck to them: a prize (CM-BRD-20/21)
    marked: int = 0
    taken_by: str = ""
    # her men as the campaign counts them (company.py), for the outcome; None for a ship that came in without
    # (a scenario's ship): nothing in the battle reads it
    company: Company | None = None

    @classmethod
    def fresh(cls, name: str, side: str, panel: ControlPanel, hex_: Hex, facing: int, band: str) -> Ship:
        """A ship as she comes into the battle: her panel's parties, flights and grapnel, every light green."""
        return cls(
            name=name,
            side=side,
            panel=panel,
            hex=hex_,
            facing=facing % 6,
            band=band,
            parties=panel.boarding_parties,
            flights=panel.flying_martians,
            grapnel=panel.power_grapnel,
        )

    # --- what the track and the lights say ---

    @property
    def flying(self) -> bool:
        return self.status == FLYING

    def boxes(self) -> tuple[str, ...]:
        """The damage track read as one line, top row first, each row left to right (CM-DMG-01)."""
        return tuple(chain.from_iterable(self.panel.track))

    def crossed_boxes(self) -> tuple[str, ...]:
        return self.boxes()[: self.crossed]

    def next_box(self) -> str | None:
        """The box the next point of damage crosses; None once the track is done."""
        boxes = self.boxes()
        return boxes[self.crossed] if self.crossed < len(boxes) else None

    @property
    def ceiling(self) -> str:
        """The greatest altitude left: the panel's, lowered by every Medium or Low box crossed (CM-DMG-07/08)."""
        lowered = [box for box in self.crossed_boxes() if box in (panels.MEDIUM, panels.LOW)]
        return min([self.panel.ceiling, *lowered], key=band_height)

    @property
    def speed_lost(self) -> int:
        """Speed boxes crossed: each takes one off the greatest speed (CM-DMG-09)."""
        return self.crossed_boxes().count(panels.SPEED)

    def light(self, name: str) -> str:
        return dict(self.lights)[name]

    def lit(self, name: str) -> bool:
        """Is this light amber or red? Both stop the system alike (CM-LIGHT-02/05)."""
        return self.light(name) != GREEN

    def with_lights(self, changes: Mapping[str, str]) -> Ship:
        return replace(self, lights=tuple((light, changes.get(light, colour)) for light, colour in self.lights))

    def gun(self, number: int) -> Gun:
        return next(gun for gun in self.panel.guns if gun.number == number)

    def working_guns(self) -> tuple[Gun, ...]:
        """Guns not marked hit (a one-shot weapon fired is spent, but still a gun a hit can find: CM-GUN-06)."""
        return tuple(gun for gun in self.panel.guns if gun.number not in self.guns_lost)

    def guns_bearing_on(self, other: Hex) -> tuple[Gun, ...]:
        """Working guns whose arcs hold ``other`` (CM-FIRE-02): the guns a Gun box may pick (CM-DMG-04/05). A
        system with no arc (bomb racks, tether mines, drogues slung amidships) has no side to hide it: it counts
        as a gun to be destroyed whoever fired (CM-BOMB-03, CM-TM-11, CM-DT-06; docs/cloudships.md section 10)."""
        seen = {str(aspect) for aspect in hexgrid.aspects(self.hex, self.facing, other)}
        return tuple(gun for gun in self.working_guns() if seen & set(gun.arcs) or not gun.arcs)

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "side": self.side,
            "panel": self.panel.to_json(),
            "hex": list[JSON](self.hex.to_json()),
            "facing": self.facing,
            "band": self.band,
            "crossed": self.crossed,
            "lights": dict(self.lights),
            "fired": list(self.fired),
            "guns_lost": list(self.guns_lost),
            "spent": list(self.spent),
            "parties": self.parties,
            "flights": self.flights,
            "grapnel": self.grapnel,
            "grappled": list(self.grappled),
            "criticals": list(self.criticals),
            "pending": list(self.pending),
            "status": self.status,
            "marked": self.marked,  # the boarding slice
            "taken_by": self.taken_by,
            # only when she has one, so a battle of ships without keeps the states it always had
            **({} if self.company is None else {"company": self.company.to_json()}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ship:
        lights = read_object(data["lights"])
        status = read_str(data["status"])
        if status not in FATES:
            raise ValueError(f"a ship's status is one of {', '.join(FATES)}, not {status!r}")
        return cls(
            name=read_str(data["name"]),
            side=read_str(data["side"]),
            panel=ControlPanel.from_json(data["panel"]),
            hex=Hex.from_json(data["hex"]),
            facing=read_int(data["facing"]),
            band=_band(data["band"]),
            crossed=read_int(data["crossed"]),
            lights=tuple((light, read_str(lights[light])) for light in panels.LIGHTS),
            fired=_ints(data["fired"]),
            guns_lost=_ints(data["guns_lost"]),
            spent=_ints(data["spent"]),
            parties=read_int(data["parties"]),
            flights=read_int(data["flights"]),
            grapnel=bool(data["grapnel"]),
            grappled=_strs(data["grappled"]),
            criticals=_strs(data["criticals"]),
            pending=_strs(data["pending"]),
            status=status,
            marked=read_int(data.get("marked", 0)),  # the boarding slice
            taken_by=read_str(data.get("taken_by", "")),
            company=Company.from_json(read_object(data["company"])) if "company" in data else None,
        )


@dataclass(frozen=True)
class Deck:
    """This round's cards, one per ship in the battle when it was made (CM-SEQ-03), in the board's ship order,
    and the cards turned so far, in the order they were turned. The rest are face down, in no order."""

    cards: tuple[str, ...] = ()
    turned: tuple[str, ...] = ()

    def to_json(self) -> JSONObject:
        return {"cards": list(self.cards), "turned": list(self.turned)}

    @classmethod
    def from_json(cls, data: JSON) -> Deck:
        deck = read_object(data)
        return cls(cards=_strs(deck["cards"]), turned=_strs(deck["turned"]))


@dataclass(frozen=True)
class TurnStatus:
    """Step 1's reading of the active ship (CM-SEQ-05): her movement allowance this turn (a kite's roll, less
    what damage took, CM-MOV-12, CM-DMG-09), the kite's die (a 6 gives two facing changes, CM-MOV-16), and the
    limits her lit lights set (CM-LIGHT-02/05; docs/cloudships.md section 4). ``sail``: of the movement, the
    points a mixed-power ship's sail roll added, her last points (CM-MOV-19..22; docs/cloudships.md section 6)."""

    ship: str
    movement: int
    kite_roll: int | None = None
    no_altitude_change: bool = False
    no_direction_change: bool = False
    whole_movement: bool = False
    sail: int = 0  # mixed power (CM-MOV-19..22)

    @property
    def steam(self) -> int:
        """The points her engines give: all but the sail's (CM-MOV-18)."""
        return self.movement - self.sail

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "ship": self.ship,
            "movement": self.movement,
            "kite_roll": self.kite_roll,
            "no_altitude_change": self.no_altitude_change,
            "no_direction_change": self.no_direction_change,
            "whole_movement": self.whole_movement,
        }
        return {**data, "sail": self.sail} if self.sail else data  # mixed power only

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnStatus:
        return cls(
            ship=read_str(data["ship"]),
            movement=read_int(data["movement"]),
            kite_roll=read_opt_int(data["kite_roll"]),
            no_altitude_change=bool(data["no_altitude_change"]),
            no_direction_change=bool(data["no_direction_change"]),
            whole_movement=bool(data["whole_movement"]),
            sail=read_int(data.get("sail", 0)),
        )


@dataclass(frozen=True)
class DamageDue:
    """Points scored on ``ship`` by ``by`` (a ship's name, or "" for no firer), to be marked at step 4 in the
    order scored (CM-SEQ-09/11): fire is simultaneous, so nothing is crossed until every die is rolled.
    ``crew``: anti-personnel hits, one firing ship's total on this target, read on the target's crew chart at
    step 4 (CM-AP-06..09); such an entry has no points. ``critical``: criticals rolled after the points are
    crossed, a torpedo's, mine's or drogue's natural 6 (CM-SMT-09, CM-TM-10, CM-DT-05; the ordnance slice)."""

    ship: str
    points: int
    by: str = ""
    crew: int = 0
    critical: int = 0

    def to_json(self) -> JSONObject:
        data: JSONObject = {"ship": self.ship, "points": self.points, "by": self.by, "crew": self.crew}
        return {**data, "critical": self.critical} if self.critical else data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DamageDue:
        crew, critical = read_int(data.get("crew", 0)), read_int(data.get("critical", 0))
        ship, points, by = read_str(data["ship"]), read_int(data["points"]), read_str(data["by"])
        return cls(ship=ship, points=points, by=by, crew=crew, critical=critical)


# --- fire (step 3): the orders given, kept on the board until the dice are rolled (CM-SEQ-07..09) ------------


@dataclass(frozen=True)
class Shot:
    """One gun ordered to fire: ``ship``'s gun number ``gun`` at ``target``."""

    ship: str
    gun: int
    target: str

    def to_json(self) -> JSONObject:
        return {"ship": self.ship, "gun": self.gun, "target": self.target}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Shot:
        return cls(ship=read_str(data["ship"]), gun=read_int(data["gun"]), target=read_str(data["target"]))


@dataclass(frozen=True)
class Volley:
    """Step 3 as decided so far: the active ship's ``shots``; ``answered`` once the ships she fired on have given
    their return fire (CM-SEQ-08), ``returned`` (all of it at her). Rolled at once when complete (CM-SEQ-09)."""

    shots: tuple[Shot, ...] = ()
    answered: bool = False
    returned: tuple[Shot, ...] = ()

    def targets(self) -> tuple[str, ...]:
        """The ships fired on, in the order first named."""
        return tuple(dict.fromkeys(shot.target for shot in self.shots))

    def to_json(self) -> JSONObject:
        return {
            "shots": [shot.to_json() for shot in self.shots],
            "answered": self.answered,
            "returned": [shot.to_json() for shot in self.returned],
        }

    @classmethod
    def from_json(cls, data: JSON) -> Volley | None:
        if data is None:
            return None
        volley = read_object(data)
        return cls(
            shots=_shots(volley["shots"]),
            answered=bool(volley["answered"]),
            returned=_shots(volley["returned"]),
        )


def _shots(value: Any) -> tuple[Shot, ...]:
    return tuple(Shot.from_json(read_object(shot)) for shot in read_list(value))


# --- the battle -------------------------------------------------------------------------------------------------


# --- the move written (the movement slice) -----------------------------------------------------------------------


@dataclass(frozen=True)
class MoveOrder:
    """The active captain's answer to the move decision: the plan of steps (manoeuvre.py) and the ship she means
    to ram on the way, if any (CM-RAM-01). Spelled as the plain list of steps, or ``{"steps": [...], "ram":
    name}``."""

    steps: tuple[str, ...] = ()
    ram: str | None = None

    def to_json(self) -> JSON:
        if self.ram is None:
            return list[JSON](self.steps)
        return {"steps": list[JSON](self.steps), "ram": self.ram}

    @classmethod
    def from_json(cls, data: JSON) -> MoveOrder:
        """The order an answer spells; ValueError or TypeError if it spells none."""
        if isinstance(data, list):
            return cls(steps=_strs(data))
        order = read_object(data)
        if set(order) != {"steps", "ram"}:
            raise ValueError('a move is a list of steps, or {"steps": [...], "ram": ship}')
        return cls(steps=_strs(order["steps"]), ram=read_str(order["ram"]))


# --- exotic ordnance (the ordnance slice: CM-SMT, CM-TM, CM-DT) ------------------------------------------------


@dataclass(frozen=True)
class Torpedo:
    """A Smutts torpedo in flight: ``ship``'s launcher ``gun``, where it is, the way it flies and at what band (a
    straight line, level, CM-SMT-01), and the turns of movement it has flown (two at most, CM-SMT-07)."""

    ship: str
    gun: int
    hex: Hex
    facing: int
    band: str
    flights: int = 0

    def to_json(self) -> JSONObject:
        return {
            "ship": self.ship,
            "gun": self.gun,
            "hex": list[JSON](self.hex.to_json()),
            "facing": self.facing,
            "band": self.band,
            "flights": self.flights,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Torpedo:
        return cls(
            ship=read_str(data["ship"]),
            gun=read_int(data["gun"]),
            hex=Hex.from_json(data["hex"]),
            facing=read_int(data["facing"]),
            band=_band(data["band"]),
            flights=read_int(data["flights"]),
        )


@dataclass(frozen=True)
class OrdnanceOrders:
    """The active captain's answer at the start of her turn: the tether mines and drogues she lets out or winches
    in (CM-TM-01/02, CM-DT-01) and the Smutts torpedoes she launches (CM-SMT-01), by gun number."""

    let_out: tuple[int, ...] = ()
    winch_in: tuple[int, ...] = ()
    launch: tuple[int, ...] = ()

    KEYS = ("let_out", "winch_in", "launch")

    def to_json(self) -> JSONObject:
        """Only the orders given: an empty list is left out, as the form's optional choices leave it (the answer
        schema spells every candidate back to itself), so nothing at all is ``{}``."""
        given = {"let_out": self.let_out, "winch_in": self.winch_in, "launch": self.launch}
        return {key: list(guns) for key, guns in given.items() if guns}

    @classmethod
    def from_json(cls, data: JSON) -> OrdnanceOrders:
        """The orders an answer spells (any of the three keys, each a list of gun numbers); ValueError or
        TypeError if it spells none."""
        orders = read_object(data)
        if not set(orders) <= set(cls.KEYS):
            raise ValueError(f"the orders are {{{', '.join(cls.KEYS)}}}, each a list of gun numbers")
        return cls(*(_ints(orders.get(key, [])) for key in cls.KEYS))


@dataclass(frozen=True)
class Ordnance:
    """The exotic ordnance at large: ``out``, the (ship, gun) of every tether mine and drogue on its cable;
    ``torpedoes`` in flight; the start-of-turn ``orders`` answered and not yet carried out; ``readied``, the
    ship and round whose start of turn is done (the move is asked next)."""

    out: tuple[tuple[str, int], ...] = ()
    torpedoes: tuple[Torpedo, ...] = ()
    orders: OrdnanceOrders | None = None
    readied: tuple[str, int] | None = None

    def cables(self, ship: str) -> tuple[int, ...]:
        """The guns ``ship`` has out on their cables, in the order let out."""
        return tuple(gun for name, gun in self.out if name == ship)

    def to_json(self) -> JSONObject:
        return {
            "out": [[name, gun] for name, gun in self.out],
            "torpedoes": [torpedo.to_json() for torpedo in self.torpedoes],
            "orders": None if self.orders is None else self.orders.to_json(),
            "readied": None if self.readied is None else [self.readied[0], self.readied[1]],
        }

    @classmethod
    def from_json(cls, data: JSON) -> Ordnance:
        if data is None:
            return cls()
        ordnance = read_object(data)
        orders, readied = ordnance["orders"], ordnance["readied"]
        return cls(
            out=tuple(_cable(item) for item in read_list(ordnance["out"])),
            torpedoes=tuple(Torpedo.from_json(read_object(t)) for t in read_list(ordnance["torpedoes"])),
            orders=None if orders is None else OrdnanceOrders.from_json(orders),
            readied=None if readied is None else _cable(readied),
        )


def _cable(value: Any) -> tuple[str, int]:
    name, number = read_list(value)
    return read_str(name), read_int(number)


@dataclass(frozen=True)
class Board:
    """The battle: the map's size, the round limit, the ships (in the scenario's order), the sides' names, this
    round's deck, the ship whose card is up (``active``), her step-1 ``status``, the ``due`` damage and step 3's
    ``volley`` of orders."""

    title: str
    cols: int
    rows: int
    rounds: int
    ships: tuple[Ship, ...]
    side_names: Mapping[str, str] = field(default_factory=dict)
    deck: Deck = Deck()
    active: str | None = None
    status: TurnStatus | None = None
    due: tuple[DamageDue, ...] = ()
    move: MoveOrder | None = None  # the movement slice: the active ship's move, answered and not yet made
    volley: Volley | None = None  # step 3's orders, until rolled (the fire slice)
    # the boarding slice: the boarding actions under way, the active captain's answer not yet carried out, and a
    # round of boarding fought whose losses are still owed
    grapples: tuple[Grapple, ...] = ()
    boarding: JSON = None
    fight: BoardingRound | None = None
    flight_hits: tuple[tuple[str, int], ...] | None = None  # step 4: Boarding Party boxes a captain gives flights

    ordnance: Ordnance = Ordnance()  # mines and drogues out, torpedoes in flight (the ordnance slice)
    # the GUN option (CM-GUN-03): (firer, target, her guns he wants hit first) from this turn's fire orders
    hit_first: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    martians: Martians = field(default_factory=lambda: Martians())  # deployed flights (the flights slice)
    # the scenario's victory conditions as written (victory.py reads them; empty: the last side flying wins)
    victory: Mapping[str, JSON] = field(default_factory=dict)
    # each side's tuning for the AI captain from the scenario (``sides[].ai``: tactics.py reads ``caution``)
    captains: Mapping[str, JSON] = field(default_factory=dict)

    def ship_named(self, name: str) -> Ship:
        return next(ship for ship in self.ships if ship.name == name)

    def with_ship(self, ship: Ship) -> Board:
        return replace(self, ships=tuple(ship if s.name == ship.name else s for s in self.ships))

    def flying(self) -> tuple[Ship, ...]:
        return tuple(ship for ship in self.ships if ship.flying)

    def sides_flying(self) -> tuple[str, ...]:
        """The sides with a ship still flying, in the board's order."""
        return tuple(dict.fromkeys(ship.side for ship in self.flying()))

    def cards_left(self) -> tuple[str, ...]:
        """The cards still face down: this round's cards not yet turned, less any ship out of the fight since the
        deck was made (docs/cloudships.md section 3). In the board's ship order, which says nothing of the draw."""
        return tuple(card for card in self.deck.cards if card not in self.deck.turned and self.ship_named(card).flying)

    def on_map(self, hex_: Hex) -> bool:
        col, row = hexgrid.to_odd_q(hex_)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def to_json(self) -> JSONObject:
        return {
            "title": self.title,
            "cols": self.cols,
            "rows": self.rows,
            "rounds": self.rounds,
            "ships": [ship.to_json() for ship in self.ships],
            "side_names": dict(self.side_names),
            "deck": self.deck.to_json(),
            "active": self.active,
            "status": None if self.status is None else self.status.to_json(),
            "due": [due.to_json() for due in self.due],
            "move": None if self.move is None else self.move.to_json(),
            "volley": None if self.volley is None else self.volley.to_json(),
            **boarding_json(self),
            "ordnance": self.ordnance.to_json(),
            **hit_first_json(self),
            **martians_json(self),
            "victory": dict(self.victory),
            "captains": dict(self.captains),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Board:
        board = read_object(data)
        active, status, move = board["active"], board["status"], board.get("move")
        return cls(
            title=read_str(board["title"]),
            cols=read_int(board["cols"]),
            rows=read_int(board["rows"]),
            rounds=read_int(board["rounds"]),
            ships=tuple(Ship.from_json(read_object(ship)) for ship in read_list(board["ships"])),
            side_names={key: read_str(name) for key, name in read_object(board["side_names"]).items()},
            deck=Deck.from_json(board["deck"]),
            active=None if active is None else read_str(active),
            status=None if status is None else TurnStatus.from_json(read_object(status)),
            due=tuple(DamageDue.from_json(read_object(due)) for due in read_list(board["due"])),
            move=None if move is None else MoveOrder.from_json(move),
            volley=Volley.from_json(board["volley"]),
            **boarding_fields(board),
            ordnance=Ordnance.from_json(board.get("ordnance")),
            hit_first=hit_first_fields(board.get("hit_first")),
            martians=Martians.from_json(board.get("martians")),
            victory=read_object(board.get("victory", {})),
            captains=read_object(board.get("captains", {})),
        )


def _band(value: Any) -> str:
    band = read_str(value)
    if band not in BANDS_WITH_REALLY_LOW:
        raise ValueError(f"a band is one of {', '.join(BANDS_WITH_REALLY_LOW)}, not {band!r}")
    return band


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(read_int(item) for item in read_list(value))


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(read_str(item) for item in read_list(value))


# --- grappling and boarding (the boarding slice) ------------------------------------------------------------------


@dataclass(frozen=True)
class Grapple:
    """A boarding action: ``attacker`` has grappled ``defender`` (CM-BRD-02/04). It lasts, a round of boarding in
    each of the attacker's turns (CM-BRD-17), until the boarders are repelled or cast off (CM-BRD-18) or either
    ship is out of the fight. Both ships also name each other in ``Ship.grappled``."""

    attacker: str
    defender: str

    def to_json(self) -> JSONObject:
        return {"attacker": self.attacker, "defender": self.defender}

    @classmethod
    def from_json(cls, data: JSON) -> Grapple:
        grapple = read_object(data)
        return cls(attacker=read_str(grapple["attacker"]), defender=read_str(grapple["defender"]))


@dataclass(frozen=True)
class BoardingRound:
    """A round of boarding fought (CM-BRD-07..15): who won (attackers, defenders or a tie), the boarding value
    each ship owes, and the way each captain asked has chosen to take it (``splits``: ship -> the answer)."""

    attacker: str
    defender: str
    winner: str
    losses: tuple[tuple[str, int], ...]
    splits: tuple[tuple[str, JSON], ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "winner": self.winner,
            "losses": dict(self.losses),
            "splits": dict(self.splits),
        }

    @classmethod
    def from_json(cls, data: JSON) -> BoardingRound:
        fight = read_object(data)
        return cls(
            attacker=read_str(fight["attacker"]),
            defender=read_str(fight["defender"]),
            winner=read_str(fight["winner"]),
            losses=tuple((ship, read_int(points)) for ship, points in read_object(fight["losses"]).items()),
            splits=tuple(read_object(fight["splits"]).items()),
        )


def boarding_json(board: Board) -> JSONObject:
    return {
        "grapples": [grapple.to_json() for grapple in board.grapples],
        "boarding": board.boarding,
        "fight": None if board.fight is None else board.fight.to_json(),
        "flight_hits": None if board.flight_hits is None else dict(board.flight_hits),
    }


def boarding_fields(board: Mapping[str, Any]) -> dict[str, Any]:
    """The boarding slice's part of a board read from JSON (absent from boards written before it)."""
    fight, hits = board.get("fight"), board.get("flight_hits")
    return {
        "flight_hits": None if hits is None else tuple((n, read_int(k)) for n, k in read_object(hits).items()),
        "grapples": tuple(Grapple.from_json(grapple) for grapple in read_list(board.get("grapples", []))),
        "boarding": board.get("boarding"),
        "fight": None if fight is None else BoardingRound.from_json(fight),
    }


# --- the GUN option: the guns a firer wants his victim to lose first (CM-GUN-03..05) -----------------------------


def hit_first_json(board: Board) -> JSONObject:
    """Written only when a captain named any, so a battle without the option keeps its board as it was."""
    if not board.hit_first:
        return {}
    return {"hit_first": [[firer, target, list(guns)] for firer, target, guns in board.hit_first]}


def hit_first_fields(value: Any) -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    out = []
    for item in read_list(value if value is not None else []):
        firer, target, guns = read_list(item)
        out.append((read_str(firer), read_str(target), _ints(guns)))
    return tuple(out)


def wanted_first(board: Board, firer: str, target: str) -> tuple[int, ...]:
    """The guns of ``target`` that ``firer`` named to be hit first this turn, in his order."""
    return tuple(n for f, t, guns in board.hit_first if (f, t) == (firer, target) for n in guns)


# --- Flying Martians deployed on the table (the flights slice: CM-FLY-02..21, flights.py, phases/flights.py) ------


@dataclass(frozen=True)
class Flight:
    """A flight of Flying Martians deployed from ``ship`` (its mother ship), her flight ``number`` (1, 2...): a
    piece of its own on the table, where it is (CM-FLY-03/04)."""

    ship: str
    number: int
    hex: Hex
    band: str

    @property
    def key(self) -> tuple[str, int]:
        return self.ship, self.number

    def to_json(self) -> JSONObject:
        hex_: JSON = list[JSON](self.hex.to_json())
        return {"ship": self.ship, "number": self.number, "hex": hex_, "band": self.band}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Flight:
        number, hex_ = read_int(data["number"]), Hex.from_json(data["hex"])
        return cls(ship=read_str(data["ship"]), number=number, hex=hex_, band=_band(data["band"]))


@dataclass(frozen=True)
class FlightOrders:
    """The mother captain's answer at the start of her turn: how many flights to deploy (CM-FLY-04), each
    deployed flight's path (flights.py steps; CM-FLY-06..12) and the flights to redock (CM-FLY-20)."""

    deploy: int = 0
    fly: tuple[tuple[int, tuple[str, ...]], ...] = ()
    redock: tuple[int, ...] = ()

    def to_json(self) -> JSONObject:
        paths: JSONObject = {str(number): list[JSON](path) for number, path in self.fly}
        return {"deploy": self.deploy, "fly": paths, "redock": list(self.redock)}

    @classmethod
    def from_json(cls, data: JSON) -> FlightOrders:
        """The orders an answer spells; ValueError or TypeError if it spells none."""
        orders = read_object(data)
        if not set(orders) <= {"deploy", "fly", "redock"}:
            raise ValueError('the orders are {"deploy": n, "fly": {flight: [steps]}, "redock": [flight]}')
        paths = read_object(orders.get("fly", {}))
        fly = tuple((int(number), _strs(path)) for number, path in paths.items())
        return cls(deploy=read_int(orders.get("deploy", 0)), fly=fly, redock=_ints(orders.get("redock", [])))


@dataclass(frozen=True)
class FlightShot:
    """In fire orders: a flight attacking ``target`` as one Nordenfelt (CM-FLY-13), ``number`` a deployed flight
    of the firer, 0 a flight aboard her (CM-FLY-27); or, ``gun`` set, the firer's anti-personnel gun at the
    deployed flight ``flight`` (mother ship, number: CM-FLY-14/18)."""

    ship: str
    number: int = 0
    target: str = ""
    gun: int = 0
    flight: tuple[str, int] = ("", 0)

    def to_json(self) -> JSONObject:
        if self.gun:
            return {"ship": self.ship, "gun": self.gun, "flight": [self.flight[0], self.flight[1]]}
        return {"ship": self.ship, "flight": self.number, "target": self.target}


@dataclass(frozen=True)
class Martians:
    """The flights deployed (``out``); the start-of-turn ``orders`` answered, not yet carried out; ``flown``, the
    ship and round whose flights have had their start of turn; this turn's flight ``shots`` until rolled; and the
    flights aboard that have fired as anti-personnel guns this round (``fired``: a ship's name a flight)."""

    out: tuple[Flight, ...] = ()
    orders: FlightOrders | None = None
    flown: tuple[str, int] | None = None
    shots: tuple[FlightShot, ...] = ()
    fired: tuple[str, ...] = ()

    def of(self, ship: str) -> tuple[Flight, ...]:
        return tuple(flight for flight in self.out if flight.ship == ship)

    def flight(self, key: tuple[str, int]) -> Flight | None:
        return next((flight for flight in self.out if flight.key == key), None)

    def to_json(self) -> JSONObject:
        return {
            "out": [flight.to_json() for flight in self.out],
            "orders": None if self.orders is None else self.orders.to_json(),
            "flown": None if self.flown is None else [self.flown[0], self.flown[1]],
            "shots": [shot.to_json() for shot in self.shots],
            "fired": list(self.fired),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Martians:
        if data is None:
            return cls()
        martians = read_object(data)
        orders, flown = martians["orders"], martians["flown"]
        return cls(
            out=tuple(Flight.from_json(read_object(item)) for item in read_list(martians["out"])),
            orders=None if orders is None else FlightOrders.from_json(orders),
            flown=None if flown is None else _cable(flown),
            shots=tuple(flight_shot(item) for item in read_list(martians["shots"])),
            fired=_strs(martians["fired"]),
        )


def flight_shot(value: JSON) -> FlightShot:
    """A flight's attack or a gun's shot at a flight, as fire orders spell it; ValueError or TypeError if not."""
    shot = read_object(value)
    if set(shot) == {"ship", "gun", "flight"}:
        mother, number = read_list(shot["flight"])
        flight = (read_str(mother), read_int(number))
        return FlightShot(read_str(shot["ship"]), gun=read_int(shot["gun"]), flight=flight)
    if set(shot) == {"ship", "flight", "target"}:
        return FlightShot(read_str(shot["ship"]), number=read_int(shot["flight"]), target=read_str(shot["target"]))
    raise ValueError('a flight\'s shot is {"ship", "flight", "target"}, one at a flight {"ship", "gun", "flight"}')


def martians_json(board: Board) -> JSONObject:
    """Written only once flights have been in play, so a battle without them keeps its board as it was."""
    return {} if board.martians == Martians() else {"martians": board.martians.to_json()}
