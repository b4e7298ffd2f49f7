"""High Martians, flying parties and Throckmorton conveyors (Sky Galleons Part II), as pure functions.

High Martians board a ship in their hex at their altitude without a grapple (SG-HM-01) and form flying
parties: men who leave their ship on their own wings, placed in its hex at its altitude, move two hexes a
turn in any direction (climbing a level costs both movement points, descending one level 1 MP), and board
the ship whose hex and altitude they end in (SG-HM-02..05). Only small arms, shrapnel and grape may fire
at them (SG-HM-06, SG-SHR-06). They are Green but for boarding actions, where the scenario makes them
Trained or Crack (SG-HM-07); a High Martian screw galley's turnscrews are slaves who do nothing else
(SG-HM-08). British Throckmorton conveyors make a flying party of their men by the same rules (SG-THR-01),
no more than one conveyor per hull size taking off from a ship in a turn (SG-ERR-13).

The ruleset keeps the parties on its board (:class:`FlyingParty`), asks a ``fly`` decision for each in its
side's movement phase, and folds the ``flying party`` and ``party moved`` events with :func:`fold`. Fire
at a party, and a party's own small arms, go through ``combat`` with the party as a stand-in record
(:func:`stand_in`: its hex, its altitude, no armor, its men at posts of their rank), so the rules of fire
are the ship rules; a party's boarders go through ``close_action.boarding_round`` the same way
(:func:`boarding_stand_in`). The numbers and the readings of what the text leaves open are in
``data/flying.json``; the main ones:

* A party moves once a turn, after its side's ships; it never flies into land higher than itself nor off
  the map; at the land's height it is landed (on top of a kraag) and takes off by moving or climbing.
* Ending in a ship's hex at her altitude it may board her: an enemy in the fight is boarded (it needs an
  officer or petty officer) and the men fight in the phase's boarding action; its own ship takes its men
  back to their posts, another friendly ship into her crew. Beaten back, recalled, or on a ship going
  down, it takes wing again where the ship is.
* Only ships keep a side in the fight; parties stay in play when their ship is gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import DataFile, read_list, read_object, read_opt_int, read_opt_str, read_str
from battles.engine.words import possessive
from battles.rules.sky_galleons import close_action, combat
from battles.rules.sky_galleons.close_action import PartyError
from battles.rules.sky_galleons.combat import MARINES, CombatRules, FireSolution, Happening, Roller, _Log
from battles.rules.sky_galleons.datafiles import DATA_DIR
from battles.rules.sky_galleons.movement import CLIMB, DESCEND, PlanError, Terrain
from galleons.record import (
    NO_PARTY,
    PARTY_RANKS,
    Crew,
    Criticals,
    HullRow,
    Moment,
    Party,
    ShipRecord,
    altitude_level,
    altitude_levels,
    marine_arms_known,
    table,
    tint,
    tstrs,
)

FLYING_TABLES = DataFile(DATA_DIR / "flying.json")
fint = FLYING_TABLES.whole
fstrs = FLYING_TABLES.texts

# The decision a flying party's side answers in its movement phase, and the events the fold reads.
FLY = "fly"
PARTY_EVENT = "flying party"
MOVED_EVENT = "party moved"
EVENTS = (PARTY_EVENT, MOVED_EVENT)
# Initiative orders: flying parties formed, and parties aboard an enemy recalled into the air.
FORM_ORDER = "flying_parties"
RECALL_ORDER = "recall_flyers"
ORDER_KEYS = (FORM_ORDER, RECALL_ORDER)


def directions() -> tuple[str, ...]:
    """The compass steps, hexsides 0-5 of the flat-top map, north first, clockwise (hexgrid)."""
    return fstrs("movement", "directions")


# --- the party -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlyingParty:
    """One flying party on the board: its men by rank (and the posts they left on ``home``, SG-BRD-04), where
    it is, and what it did this turn.

    ``arms`` is the small arm its marines carry (bows in the Great Raid); ``crew_quality`` the quality its
    fire is made with (High Martians: Green, SG-HM-07) and ``boarding_quality`` the one it fights boarding
    actions with. ``conveyors``: British Throckmorton conveyors, one a man, which come back aboard with
    their men (SG-THR-01). ``aboard`` is the enemy ship its men have boarded (then ``position`` is where it
    boarded her, not used until it takes wing). ``formed`` is the turn it was formed, ``flown`` the
    movement phase (Moment.index) it last moved in, ``descended`` the turn it last went down a level,
    ``fired`` the turn its marines last fired, ``officer_check`` the phase of its officer casualty check."""

    name: str
    side: str
    men: Party
    position: Hex
    altitude: str
    home: str | None = None
    arms: str = "musket"
    crew_quality: str = "green"
    boarding_quality: str = "trained"
    conveyors: bool = False
    aboard: str | None = None
    formed: int | None = None
    flown: int | None = None
    descended: int | None = None
    fired: int | None = None
    officer_check: int | None = None

    KEYS = (
        "name",
        "side",
        "men",
        "position",
        "altitude",
        "home",
        "arms",
        "crew_quality",
        "boarding_quality",
        "conveyors",
        "aboard",
        "formed",
        "flown",
        "descended",
        "fired",
        "officer_check",
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "side": self.side,
            "men": self.men.to_json(),
            "position": self.position.to_json(),
            "altitude": self.altitude,
            "home": self.home,
            "arms": self.arms,
            "crew_quality": self.crew_quality,
            "boarding_quality": self.boarding_quality,
            "conveyors": self.conveyors,
            "aboard": self.aboard,
            "formed": self.formed,
            "flown": self.flown,
            "descended": self.descended,
            "fired": self.fired,
            "officer_check": self.officer_check,
        }

    @classmethod
    def from_json(cls, value: Any) -> FlyingParty:
        data = read_object(value)
        if set(data) != set(cls.KEYS):
            raise ValueError(f"flying party: keys must be {sorted(cls.KEYS)}, not {sorted(data)}")
        conveyors = data["conveyors"]
        if not isinstance(conveyors, bool):
            raise ValueError(f"flying party: conveyors is true or false, not {conveyors!r}")
        qualities = tstrs("ship_record", "crew_qualities")
        if data["crew_quality"] not in qualities or data["boarding_quality"] not in qualities:
            raise ValueError(f"flying party: qualities are {', '.join(qualities)}")
        return cls(
            name=read_str(data["name"]),
            side=read_str(data["side"]),
            men=Party.from_json(data["men"]),
            position=Hex.from_json(data["position"]),
            altitude=_altitude(read_str(data["altitude"])),
            home=read_opt_str(data["home"]),
            arms=read_str(data["arms"]),
            crew_quality=read_str(data["crew_quality"]),
            boarding_quality=read_str(data["boarding_quality"]),
            conveyors=conveyors,
            aboard=read_opt_str(data["aboard"]),
            formed=read_opt_int(data["formed"]),
            flown=read_opt_int(data["flown"]),
            descended=read_opt_int(data["descended"]),
            fired=read_opt_int(data["fired"]),
            officer_check=read_opt_int(data["officer_check"]),
        )


def _altitude(value: str) -> str:
    if value not in altitude_levels():
        raise ValueError(f"altitude {value!r} is not one of {list(altitude_levels())}")
    return value


def is_landed(party: FlyingParty, terrain: Terrain) -> bool:
    """On the land of its hex (the ground, or the top of a kraag)."""
    return party.aboard is None and party.altitude == terrain.ground(party.position)


# --- reading the board's parties -----------------------------------------------------------------------


def find(flyers: Iterable[FlyingParty], name: str) -> FlyingParty | None:
    return next((party for party in flyers if party.name == name), None)


def in_the_air(flyers: Iterable[FlyingParty], side: str | None = None) -> list[FlyingParty]:
    """Parties flying or landed (not aboard a ship), of one side or all."""
    return [p for p in flyers if p.aboard is None and (side is None or p.side == side)]


def next_to_fly(flyers: Iterable[FlyingParty], side: str, now: Moment) -> FlyingParty | None:
    """The side's next party to move in this movement phase (SG-HM-03), in board order."""
    return next((p for p in in_the_air(flyers, side) if p.flown != now.index), None)


def aboard(flyers: Iterable[FlyingParty], ship: str) -> list[FlyingParty]:
    """The parties whose men are aboard ``ship`` as boarders."""
    return [p for p in flyers if p.aboard == ship]


def boarded(flyers: Iterable[FlyingParty], side: str) -> set[str]:
    """The ships the side's parties are aboard."""
    return {p.aboard for p in flyers if p.side == side and p.aboard is not None}


def men_out(flyers: Iterable[FlyingParty], ship: str) -> int:
    """Men of ``ship`` away in its flying parties: not lost (the outcome's crew lost)."""
    return sum(p.men.men for p in flyers if p.home == ship)


def officers_out(flyers: Iterable[FlyingParty], ship: str) -> int:
    """Officers of ``ship`` away in its flying parties: alive, so not all lost (SG-CREW-03)."""
    return sum(p.men.officers for p in flyers if p.home == ship)


def fold(flyers: tuple[FlyingParty, ...], kind: str, data: Mapping[str, JSON], turn: int) -> tuple[FlyingParty, ...]:
    """The board's parties after a ``flying party`` event (the whole party, or null: it is gone) or a ``party
    moved`` event (one step of its move)."""
    name = read_str(data["party"])
    if kind == MOVED_EVENT:
        moved = []
        for party in flyers:
            if party.name == name:
                party = replace(party, position=Hex.from_json(data["hex"]), altitude=read_str(data["altitude"]))
                if data["step"] == DESCEND:
                    party = replace(party, descended=turn)
            moved.append(party)
        return tuple(moved)
    record = data["record"]
    if record is None:
        return tuple(p for p in flyers if p.name != name)
    new = FlyingParty.from_json(record)
    if find(flyers, name) is None:
        return (*flyers, new)
    return tuple(new if p.name == name else p for p in flyers)


def problems(flyers: Sequence[FlyingParty], ships: Mapping[str, ShipRecord], terrain: Terrain) -> list[str]:
    """What is wrong with the board's parties (the ruleset's check_invariants)."""
    found: list[str] = []
    names = [p.name for p in flyers]
    if len(set(names)) != len(names) or set(names) & set(ships):
        found.append("flying party names must be unique, and no ship's")
    for party in flyers:
        if party.men.men <= 0 or any(party.men.count(rank) < 0 for rank in PARTY_RANKS):
            found.append(f"{party.name}: a flying party with no men left must be gone")
        if not terrain.on_map(party.position):
            found.append(f"{party.name} is off the map")
        if party.aboard is None and altitude_level(party.altitude) < altitude_level(terrain.ground(party.position)):
            found.append(f"{party.name} is inside the ground at {party.altitude}")
        if party.aboard is not None and party.aboard not in ships:
            found.append(f"{party.name} is aboard {party.aboard}, which is not in the battle")
    return found


# --- forming a flying party (Initiative Phase) ---------------------------------------------------------


def can_form(record: ShipRecord) -> bool:
    """High Martians, or a ship with Throckmorton conveyors aboard (SG-HM-02, SG-THR-01)."""
    return record.high_martian or (record.conveyors or 0) > 0


def turnscrews(record: ShipRecord) -> tuple[str, ...]:
    """What an order might call a ship's maneuvering crew."""
    return ("maneuver", record.crew.maneuver_kind)


def turnscrews_problem(records: Mapping[str, ShipRecord], choice: Mapping[str, JSON]) -> Rejection | None:
    """A High Martian screw galley's slave turnscrews do nothing but turn the crankshaft: no party, flying
    party or gun crew takes them (SG-HM-08)."""
    for key in ("parties", FORM_ORDER):
        orders = choice.get(key)
        for order in orders if isinstance(orders, list) else []:
            men = order.get("men") if isinstance(order, dict) else None
            if not isinstance(order, dict) or not isinstance(men, dict):
                continue
            record = records.get(str(order.get("ship")))
            if record is not None and record.high_martian and set(men) & set(turnscrews(record)):
                return Rejection(
                    "SG-HM-08", f"{possessive(record.name)} turnscrews are slaves: they leave the crankshaft for nobody"
                )
    changes = choice.get("crew", [])
    for change in changes if isinstance(changes, list) else []:
        if not isinstance(change, dict):
            continue
        record = records.get(str(change.get("ship")))
        if record is not None and record.high_martian and str(change.get("from", "")) in turnscrews(record):
            return Rejection("SG-HM-08", f"{possessive(record.name)} turnscrews are slaves: they man no gun")
    return None


def party_name(flyers: Iterable[FlyingParty], ship: str, turn: int) -> str:
    """'<ship> flyers <turn>-<n>': the n-th party the ship formed this turn."""
    taken = {p.name for p in flyers}
    n = 1
    while f"{ship} flyers {turn}-{n}" in taken:
        n += 1
    return f"{ship} flyers {turn}-{n}"


def launched(flyers: Iterable[FlyingParty], ship: str, turn: int) -> int:
    """Throckmorton conveyors that took off from ``ship`` this turn (SG-ERR-13)."""
    return sum(p.men.men for p in flyers if p.home == ship and p.formed == turn and p.conveyors)


def form(
    record: ShipRecord, men: Mapping[str, int], *, name: str, turn: int, launched: int = 0, errata: bool = True
) -> tuple[ShipRecord, FlyingParty]:
    """Form a flying party from the posts named, as a boarding party is formed (SG-HM-02, SG-BRD-01/02,
    SG-CREW-01): its men leave their posts, and the party is put in the ship's hex at her altitude. Men
    without wings need a Throckmorton conveyor each (SG-THR-01), and with the errata no more than one a
    hull size take off in a turn, counting the ``launched`` already (SG-ERR-13). Raises PartyError."""
    if record.high_martian and set(men) & set(turnscrews(record)):
        raise PartyError(
            "SG-HM-08", f"{possessive(record.name)} turnscrews are slaves: they leave the crankshaft for nobody"
        )
    if not can_form(record):
        raise PartyError(
            "SG-HM-02", f"{record.name} has neither High Martians nor Throckmorton conveyors to form a flying party"
        )
    if record.position is None:
        raise PartyError("SG-HM-02", f"{record.name} is not on the map")
    formed = close_action.form_party(replace(record, party=NO_PARTY), men)
    flyers = formed.party
    conveyors = record.conveyors
    if not record.high_martian:
        conveyors = (record.conveyors or 0) - flyers.men
        if conveyors < 0:
            raise PartyError(
                "SG-THR-01", f"{flyers.men} men need {flyers.men} conveyors; {record.name} has {record.conveyors or 0}"
            )
        most = record.hull_size * fint("formation", "errata_conveyors_per_hull_size")
        if errata and launched + flyers.men > most:
            raise PartyError(
                "SG-ERR-13",
                f"no more than {most} conveyors take off from {record.name} (hull size {record.hull_size}) in a "
                f"turn; {launched} already have",
            )
    changed = replace(formed, party=record.party, conveyors=conveyors)
    party = FlyingParty(
        name=name,
        side=record.side,
        men=flyers,
        position=record.position,
        altitude=record.altitude,
        home=record.name,
        arms=combat.marine_arms(record),
        crew_quality=record.crew_quality,
        boarding_quality=record.boarders_quality,
        conveyors=not record.high_martian,
        formed=turn,
    )
    return changed, party


def party_of(record: ShipRecord) -> dict[str, int]:
    """A flying party a captain would send: an officer (a marine officer first) and the marines, or half the
    deckhands when there are none; with conveyors no more men than conveyors and the hull size allow."""
    crew = record.crew
    leader = next((post for post in ("marine_officers", "officers", "captain") if crew.count(post)), None)
    room = crew.total if record.high_martian else min(record.conveyors or 0, record.hull_size)
    if leader is None or room < 1:
        return {}
    men = {leader: 1}
    if min(crew.marines, room - 1) > 0:
        men["marines"] = min(crew.marines, room - 1)
    elif min(crew.deckhands // 2, room - 1) > 0:
        men["deckhands"] = min(crew.deckhands // 2, room - 1)
    return men


# --- moving ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlightStep:
    """One step of a party's move: where it is after it, and what it cost."""

    token: str
    hex: Hex
    altitude: str
    cost: int
    clauses: tuple[str, ...]


def flight_parts(choice: JSON) -> tuple[list[str], str | None]:
    """A ``fly`` answer's steps and the ship it boards, if any: a list of steps, or ``{"steps": [...],
    "board": ship}``."""
    if isinstance(choice, list):
        return [str(t) for t in choice], None
    data = read_object(choice)
    board = data.get("board")
    return [str(t) for t in read_list(data["steps"])], None if board is None else str(board)


def trace(party: FlyingParty, steps: Sequence[str], *, terrain: Terrain, turn: int) -> list[FlightStep]:
    """Walk a party's plan: any direction, 2 MP, a climb for both, a descent 1 MP and one level a turn
    (SG-HM-03/04); never into land above it, below the land, or off the map. Raises PlanError."""
    if party.aboard is not None:
        raise PlanError("SG-HM-05", f"{party.name} is aboard {party.aboard}: recall it before it flies")
    allowance = fint("movement", "allowance")
    ceiling = altitude_level(str(table_of("movement", "ceiling")))
    spent, where, altitude = 0, party.position, party.altitude
    down = party.descended == turn
    found: list[FlightStep] = []
    for token in steps:
        if token in directions():
            cost, clauses = fint("movement", "hex_cost"), ("SG-HM-03",)
            where = hexgrid.neighbour(where, directions().index(token))
            if not terrain.on_map(where):
                raise PlanError("SG-HM-03", "a flying party stays on the map")
            if altitude_level(terrain.ground(where)) > altitude_level(altitude):
                raise PlanError("SG-ALT-02", f"the land of {list(hexgrid.to_odd_q(where))} rises above {altitude}")
        elif token == CLIMB:
            cost, clauses = fint("movement", "climb_cost"), ("SG-HM-04",)
            if altitude_level(altitude) >= ceiling:
                raise PlanError("SG-HM-04", f"a flying party flies no higher than {altitude_levels()[ceiling]}")
            altitude = altitude_levels()[altitude_level(altitude) + 1]
        elif token == DESCEND:
            cost, clauses = fint("movement", "descend_cost"), ("SG-HM-04",)
            if down:
                per = fint("movement", "descent_levels_per_turn")
                raise PlanError("SG-HM-04", f"a flying party descends no more than {per} level a turn")
            if altitude_level(altitude) <= altitude_level(terrain.ground(where)):
                raise PlanError("SG-ALT-02", f"{party.name} is on the land already")
            altitude, down = altitude_levels()[altitude_level(altitude) - 1], True
        else:
            raise PlanError("SG-HM-03", f"a flying party's steps are {', '.join(directions())}, climb and descend")
        spent += cost
        if spent > allowance:
            clause = "SG-HM-04" if CLIMB in steps else "SG-HM-03"
            raise PlanError(clause, f"a flying party has {allowance} movement points (a climb costs both)")
        found.append(FlightStep(token, where, altitude, cost, clauses))
    return found


def table_of(*path: str) -> Any:
    return FLYING_TABLES.get(*path)


def end_of(party: FlyingParty, path: Sequence[FlightStep]) -> tuple[Hex, str]:
    return (path[-1].hex, path[-1].altitude) if path else (party.position, party.altitude)


def can_board(party: FlyingParty) -> bool:
    """Boarders need an officer or a petty officer; without one they go home (SG-BRD-17)."""
    return party.men.leaders > 0


def flight_problem(
    party: FlyingParty, choice: JSON, *, terrain: Terrain, turn: int, ships: Mapping[str, ShipRecord]
) -> Rejection | None:
    """Is ``choice`` a legal move for the party (SG-HM-03..05)? ``ships`` are the ships in the fight."""
    shape = (
        f'a flight is a list of steps ({", ".join(directions())}, climb, descend), or {{"steps": [...], "board": ship}}'
    )
    steps = choice.get("steps") if isinstance(choice, dict) else choice
    if isinstance(choice, dict) and (set(choice) - {"steps", "board"} or not isinstance(choice.get("board", ""), str)):
        return Rejection("SG-HM-03", shape)
    if not isinstance(steps, list) or not all(isinstance(t, str) for t in steps):
        return Rejection("SG-HM-03", shape)
    try:
        path = trace(party, [str(t) for t in steps], terrain=terrain, turn=turn)
    except PlanError as error:
        return Rejection(error.clause, error.reason)
    target = flight_parts(choice)[1]
    if target is None:
        return None
    ship = ships.get(target)
    if ship is None:
        return Rejection("SG-HM-05", f"{target} is not a ship in the fight")
    if end_of(party, path) != (ship.position, ship.altitude):
        return Rejection("SG-HM-05", f"to board {target}, end the move in her hex at her altitude")
    if ship.side != party.side and not can_board(party):
        return Rejection("SG-BRD-17", f"{party.name} has no officer or petty officer left to lead a boarding")
    return None


def flight_candidates(
    party: FlyingParty, *, terrain: Terrain, turn: int, ships: Mapping[str, ShipRecord]
) -> list[JSON]:
    """Legal moves for an AI: staying, and one plan to each spot within reach (1 or 2 hexes, a climb, a
    descent, a hex and a descent), each with the boardings open there."""
    ways = directions()
    plans: list[list[str]] = [[], [CLIMB], [DESCEND]]
    plans += [[d] for d in ways] + [[d, DESCEND] for d in ways] + [[DESCEND, d] for d in ways]
    plans += [[a, b] for a in ways for b in ways]
    seen: set[tuple[Hex, str]] = set()
    found: list[JSON] = []
    for plan in plans:
        try:
            path = trace(party, plan, terrain=terrain, turn=turn)
        except PlanError:
            continue
        end = end_of(party, path)
        if end in seen and plan:
            continue
        seen.add(end)
        found.append(list[JSON](plan))
        for ship in ships.values():
            choice: JSON = {"steps": list[JSON](plan), "board": ship.name}
            if (ship.position, ship.altitude) == end and flight_problem(
                party, choice, terrain=terrain, turn=turn, ships=ships
            ) is None:
                found.append(choice)
    return found


# --- landing on a ship ----------------------------------------------------------------------------------


def rejoin(record: ShipRecord, party: FlyingParty) -> ShipRecord:
    """The party's men come aboard a ship of their side: on their own ship they go back to their posts
    (SG-BRD-04); on another they join her crew by rank (officers, petty officers, seamen as deckhands,
    marines). Conveyors come aboard with them (SG-THR-01)."""
    if party.home == record.name:
        back = close_action.disband_party(replace(record, party=party.men, boarders=NO_PARTY, boarding=None))
        back = replace(back, party=record.party, boarders=record.boarders, boarding=record.boarding)
    else:
        crew, men = record.crew, party.men
        crew = replace(
            crew,
            officers=crew.officers + men.officers,
            petty_officers=crew.petty_officers + men.petty_officers,
            deckhands=crew.deckhands + men.seamen,
            marines=crew.marines + men.marines,
        )
        back = replace(record, crew=crew)
    if party.conveyors:
        back = replace(back, conveyors=(back.conveyors or 0) + party.men.men)
    return back


def land(party: FlyingParty, ship: ShipRecord) -> tuple[FlyingParty | None, ShipRecord, list[Happening]]:
    """A party ending its move on a ship boards her (SG-HM-05): an enemy as boarders, a friend as crew (the
    party is then gone)."""
    men = party.men.men
    if ship.side == party.side:
        home = party.home == ship.name
        what = f"{party.name}: {men} men land on {ship.name}" + (" and go back to their posts" if home else "")
        outcome = "home" if home else "join her crew"
        return None, rejoin(ship, party), [combat.note(what, ship=party.name, clauses=["SG-HM-05"], outcome=outcome)]
    what = f"{party.name}: {men} men board {ship.name} from the air"
    clauses = ["SG-HM-05"] + (["SG-THR-01"] if party.conveyors else [])
    note = combat.note(what, ship=party.name, clauses=clauses, outcome="boarders aboard")
    return replace(party, aboard=ship.name), ship, [note]


def take_wing(party: FlyingParty, ship: ShipRecord, terrain: Terrain) -> FlyingParty:
    """The party leaves the ship it is aboard, in her hex at her altitude (on the land, if she is lower)."""
    assert ship.position is not None
    ground = terrain.ground(ship.position)
    altitude = ship.altitude if altitude_level(ship.altitude) >= altitude_level(ground) else ground
    return replace(party, aboard=None, position=ship.position, altitude=altitude)


# --- the party as the combat rules see it -----------------------------------------------------------------


def stand_in(party: FlyingParty) -> ShipRecord:
    """The party as a record for the fire rules: its hex and altitude, no armor and no facing to speak of
    (every aspect of a firer's holds it), its men at posts of their rank (seamen as deckhands), its marines
    firing its arms. The errata's five marines per hull size is deck space: it does not bind men in the
    air, so the stand-in's hull size holds them all."""
    men = party.men
    crew = Crew(
        captain=0,
        officers=men.officers,
        helmsman=0,
        trimsman=0,
        signalman=0,
        petty_officers=men.petty_officers,
        deckhands=men.seamen,
        marine_officers=0,
        marines=men.marines,
        maneuver_kind=str(table("ship_record", "maneuver_kinds")["screw_galley"]),
        maneuver_rows=(),
    )
    per_hull = tint("small_arms", "errata_marines_per_hull_size")
    return ShipRecord(
        name=party.name,
        class_id=None,
        class_name="flying party",
        nation="",
        side=party.side,
        propulsion="screw_galley",
        hull_material="wood",
        hull_size=max(1, -(-men.men // per_hull)),
        engine_size=None,
        ram=False,
        armor=0,
        speed=fint("movement", "allowance"),
        crew_quality=party.crew_quality,
        hull_rows=(HullRow(party.altitude, 1),),
        guns=(),
        crew=crew,
        casualty_order=tstrs("casualty_order", "default"),
        fire=0,
        criticals=Criticals(officer_check_phase=party.officer_check),
        altitude=party.altitude,
        facing=0,
        position=party.position,
        status="flying",
        marine_arms=party.arms,
        marines_fired=party.fired,
        boarding_quality=party.boarding_quality,
    )


def from_stand_in(party: FlyingParty, record: ShipRecord) -> FlyingParty | None:
    """The party after the fire rules changed its stand-in; None when nobody is left."""
    crew = record.crew
    men = Party(crew.officers, crew.petty_officers, crew.deckhands, crew.marines, party.men.posts)
    if men.men == 0:
        return None
    return replace(party, men=men, fired=record.marines_fired, officer_check=record.criticals.officer_check_phase)


def boarding_stand_in(party: FlyingParty) -> ShipRecord:
    """The party aboard a ship as a boarding attacker: its men as the stand-in's boarders, fighting with its
    boarding quality (SG-HM-07); nobody left at home to defend."""
    assert party.aboard is not None
    record = stand_in(party)
    nobody = replace(record.crew, officers=0, petty_officers=0, deckhands=0, marines=0)
    return replace(record, crew=nobody, party=NO_PARTY, boarders=replace(party.men, posts=()), boarding=party.aboard)


def after_boarding(party: FlyingParty, fought: ShipRecord, ship: ShipRecord, terrain: Terrain) -> FlyingParty | None:
    """The party after a round of boarding combat fought as ``fought`` (its stand-in): still aboard, beaten
    back into the air in the ship's hex (SG-BRD-17), or gone."""
    posts = party.men.posts
    if fought.boarders.men:
        return replace(party, men=replace(fought.boarders, posts=posts))
    if fought.party.men:
        return take_wing(replace(party, men=replace(fought.party, posts=posts)), ship, terrain)
    return None


# --- fire at and from flying parties (SG-HM-06, SG-SHR-06) ----------------------------------------------------


Mark = ShipRecord | FlyingParty


def _as_record(mark: Mark) -> ShipRecord:
    return mark if isinstance(mark, ShipRecord) else stand_in(mark)


def _refuse(firer: Mark, gun_id: str, target: Mark, clause: str, reason: str) -> FireSolution:
    return FireSolution(firer.name, gun_id, target.name, False, clause, reason)


def small_arm(firer: ShipRecord, gun_id: str) -> bool:
    """Marines, or a gun that attacks only as small arms ("P")."""
    return gun_id == MARINES or firer.gun(gun_id).weapon.personnel_only


def solution(
    firer: Mark,
    gun_id: str,
    target: Mark,
    *,
    now: Moment,
    rules: CombatRules,
    ammunition: str = "shell",
    rate: str = "normal",
) -> FireSolution:
    """A shot by or at a flying party, on the fire rules with the party's stand-in: only small arms, shrapnel
    and grape at a party (SG-HM-06, SG-SHR-06), and a party fires its marines' small arms only."""
    shooter = _as_record(firer)
    if gun_id not in combat.firing_ids(shooter):
        return _refuse(firer, gun_id, target, "SG-FIRE-02", f"{firer.name} has no {gun_id} to fire")
    if isinstance(firer, FlyingParty) and (firer.aboard is not None or gun_id != MARINES):
        return _refuse(
            firer, gun_id, target, "SG-HM-06", "a flying party in the air fires its small arms, nothing else"
        )
    if isinstance(target, FlyingParty):
        if target.aboard is not None:
            return _refuse(firer, gun_id, target, "SG-HM-06", f"{target.name} is aboard {target.aboard}, boarding her")
        if ammunition == str(table("shrapnel_and_grape", "default_ammunition")) and not small_arm(shooter, gun_id):
            return _refuse(
                firer, gun_id, target, "SG-HM-06", "only small arms, shrapnel and grape fire at a flying party"
            )
    return combat.fire_solution(
        shooter, gun_id, _as_record(target), now=now, rules=rules, ammunition=ammunition, rate=rate
    )


def solutions(firer: Mark, targets: Iterable[Mark], *, now: Moment, rules: CombatRules) -> list[FireSolution]:
    """Every shot ``firer`` may make now at ``targets`` where a flying party is one end of it: small arms as
    they are, a gun with each of its shrapnel or grape."""
    shooter = _as_record(firer)
    found = []
    for gun_id in combat.firing_ids(shooter):
        if small_arm(shooter, gun_id):
            kinds: tuple[str, ...] = (str(table("shrapnel_and_grape", "default_ammunition")),)
        else:
            kinds = combat.ammunition_for(shooter.gun(gun_id))[1:]
        for target in targets:
            if isinstance(firer, ShipRecord) and isinstance(target, ShipRecord):
                continue
            for kind in kinds:
                shot = solution(firer, gun_id, target, now=now, rules=rules, ammunition=kind)
                if shot.allowed:
                    found.append(shot)
    return found


@dataclass(frozen=True)
class Volley:
    """What a shot by or at a flying party did: the changed ships, the changed parties (None: gone), and
    its rolls and notes."""

    ships: Mapping[str, ShipRecord]
    parties: Mapping[str, FlyingParty | None]
    happened: list[Happening]


def resolve(
    firer: Mark,
    target: Mark | None,
    shot: FireSolution,
    *,
    ships: Mapping[str, ShipRecord],
    now: Moment,
    roller: Roller,
    rules: CombatRules,
) -> Volley:
    """Fire a shot found at declaration (simultaneous fire): a party's small arms at a ship go as a ship's
    marines; small arms at a party roll hits and the party's saves (SG-HM-06); shrapnel or grape at a party
    roll to hit as usual, each hit costing the gun's whole damage value in men, each saved as from small
    arms (SG-SHR-06). ``target`` None: the party fell earlier in the volley."""
    shooter = _as_record(firer)
    parties: dict[str, FlyingParty | None] = {}
    changed: dict[str, ShipRecord] = {}

    def keep_firer(record: ShipRecord) -> None:
        if isinstance(firer, FlyingParty):
            parties[firer.name] = from_stand_in(firer, record)
        else:
            changed[firer.name] = record

    if isinstance(target, ShipRecord):
        records, happened = combat.resolve_fire(
            {**ships, shooter.name: shooter}, shot, now=now, roller=roller, rules=rules
        )
        keep_firer(records[shooter.name])
        changed.update({n: r for n, r in records.items() if n in ships and n != shooter.name and r != ships[n]})
        return Volley(changed, parties, happened)
    if target is None:
        keep_firer(combat.fire_gun_marked(shooter, shot.gun_id, now))
        what = f"{shot.firer} {shot.shooter}: {shot.target} has already fallen"
        return Volley(changed, parties, [combat.note(what, ship=shot.target, clauses=["SG-HM-06"], outcome="no shot")])
    mark = stand_in(target)
    if shot.small_arms:
        records, happened = combat.resolve_fire(
            {shooter.name: shooter, mark.name: mark}, shot, now=now, roller=roller, rules=rules
        )
    else:
        records, happened = _shrapnel(shooter, mark, shot, now=now, roller=roller, rules=rules)
    keep_firer(records[shooter.name])
    parties[target.name] = from_stand_in(target, records[mark.name])
    if parties[target.name] is None:
        happened.append(
            combat.note(f"{target.name} is wiped out", ship=target.name, clauses=["SG-HM-06"], outcome="gone")
        )
    return Volley(changed, parties, happened)


def _shrapnel(
    shooter: ShipRecord, mark: ShipRecord, shot: FireSolution, *, now: Moment, roller: Roller, rules: CombatRules
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Shrapnel or grape at a party: the usual to-hit roll, every hit a Crew hit of the whole damage value,
    then a small arms saving throw for each man hit (SG-SHR-06, SG-SHR-05)."""
    records = {shooter.name: combat.fire_gun_marked(shooter, shot.gun_id, now), mark.name: mark}
    hits, happened = combat.roll_to_hit(records, shot, roller=roller)
    divisor = tint("shrapnel_and_grape", "crew_hit_divisor")
    men = len(hits) * -(-shot.damage_value // divisor)
    if not men:
        return records, happened
    log = _Log(roller)
    modifiers = combat.save_modifiers(shooter, bowmen=False)
    modifier = sum(modifiers.values())
    number = combat.save_number(mark, rules)
    saves = log.roll(
        f"saving throws: {mark.name} against {men} men hit by {shot.ammunition}",
        ship=mark.name,
        clauses=["SG-SHR-06", "SG-SAF-13", "SG-SAF-14"] + (["SG-ERR-11"] if rules.errata else []),
        count=men,
        modifiers=modifiers,
        needed=f"{number} or less each",
        judge=lambda faces, _total: (
            f"saved:{sum(1 for f in faces if combat.save_made(f, modifier, number, rules))},"
            f"casualties:{sum(1 for f in faces if not combat.save_made(f, modifier, number, rules))}"
        ),
    )
    lost = sum(1 for face in saves if not combat.save_made(face, modifier, number, rules))
    happened += log.happened
    if lost:
        hurt, more = combat.crew_casualties(
            mark, lost, now=now, roller=roller, source=f"{shot.ammunition} from {shot.firer} {shot.shooter}"
        )
        records[mark.name] = hurt
        happened += more
    return records, happened


# --- scenario parties --------------------------------------------------------------------------------------


SCENARIO_KEYS = ("name", "men", "position", "altitude", "landed", "arms", "quality", "crew_quality", "conveyors")


def scenario_party(
    data: Mapping[str, Any], *, side: str, position: Hex, terrain: Terrain, default_quality: str
) -> FlyingParty:
    """A flying party a scenario starts on the map (docs/scenarios.md): High Martians (Green, boarding as
    ``quality``, SG-HM-07) unless ``conveyors`` makes them British conveyor men of ``crew_quality``. ``men``
    is a number (one officer, the rest marines with the party's arms) or the men by rank. Raises
    ValueError."""
    unknown = sorted(set(data) - set(SCENARIO_KEYS))
    if unknown:
        raise ValueError(f"unknown keys {unknown}; allowed {sorted(SCENARIO_KEYS)}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("a flying party needs a name")
    men = _scenario_men(data.get("men"))
    ground = terrain.ground(position)
    landed = data.get("landed", False)
    if not isinstance(landed, bool):
        raise ValueError("landed is true or false")
    altitude = _altitude(str(data.get("altitude", ground if landed else "M")))
    if landed and altitude != ground:
        raise ValueError(f"landed at {altitude}, but the land there is at {ground}")
    if not landed and altitude_level(altitude) <= altitude_level(ground):
        raise ValueError(f"flying at {altitude}, inside the land (at {ground}): say landed")
    arms = data.get("arms", str(table("small_arms", "marine_arms", "martian")))
    if arms not in marine_arms_known():
        raise ValueError(f"arms {arms!r} is not one of {list(marine_arms_known())}")
    conveyors = data.get("conveyors", False)
    if not isinstance(conveyors, bool):
        raise ValueError("conveyors is true or false")
    qualities = tstrs("ship_record", "crew_qualities")
    boarding = data.get("quality", str(table_of("boarding", "default_quality")))
    allowed = qualities if conveyors else fstrs("boarding", "qualities")
    if boarding not in allowed:
        raise ValueError(f"quality (in boarding actions) is one of {list(allowed)}, not {boarding!r} (SG-HM-07)")
    crew_quality = data.get("crew_quality", default_quality if conveyors else "green")
    if crew_quality not in qualities or (not conveyors and crew_quality != "green"):
        raise ValueError("High Martians are Green but in boarding actions (SG-HM-07)")
    return FlyingParty(
        name=name,
        side=side,
        men=men,
        position=position,
        altitude=altitude,
        home=None,
        arms=str(arms),
        crew_quality=str(crew_quality),
        boarding_quality=str(boarding),
        conveyors=conveyors,
    )


def _scenario_men(value: Any) -> Party:
    if type(value) is int and value >= 1:
        return Party(officers=1, marines=value - 1)
    if isinstance(value, dict) and value and set(value) <= set(PARTY_RANKS):
        if not all(type(n) is int and n >= 0 for n in value.values()):
            raise ValueError("men by rank are whole numbers")
        counts = {rank: int(value.get(rank, 0)) for rank in PARTY_RANKS}
        party = Party(counts["officers"], counts["petty_officers"], counts["seamen"], counts["marines"])
        if party.men:
            return party
    raise ValueError(f"men is a number, or the men by rank ({', '.join(PARTY_RANKS)})")


def equip(record: ShipRecord, data: Mapping[str, Any]) -> ShipRecord:
    """A scenario ship's High Martian crew and conveyors: ``high_martian`` makes the crew Green, boarding as
    ``boarding_quality`` (Trained unless Crack is given, SG-HM-07); ``throckmorton_conveyors`` puts that
    many conveyors aboard (SG-THR-01); ``marine_arms`` arms her marines (bows for the kings' marines,
    SG-SAF-05). Raises ValueError."""
    high = data.get("high_martian", False)
    if not isinstance(high, bool):
        raise ValueError("high_martian is true or false")
    conveyors = data.get("throckmorton_conveyors")
    if conveyors is not None and (type(conveyors) is not int or conveyors < 0):
        raise ValueError("throckmorton_conveyors is a whole number")
    boarding = data.get("boarding_quality")
    if high:
        if data.get("crew_quality", "green") != "green":
            raise ValueError("High Martians are Green but in boarding actions: give boarding_quality (SG-HM-07)")
        boarding = boarding if boarding is not None else str(table_of("boarding", "default_quality"))
        if boarding not in fstrs("boarding", "qualities"):
            raise ValueError(f"High Martians board as {' or '.join(fstrs('boarding', 'qualities'))} (SG-HM-07)")
    elif boarding is not None and boarding not in tstrs("ship_record", "crew_qualities"):
        raise ValueError(f"boarding_quality {boarding!r} is not a crew quality")
    arms = data.get("marine_arms")
    if arms is not None and arms not in marine_arms_known():
        raise ValueError(f"marine_arms {arms!r} is not one of {list(marine_arms_known())}")
    return replace(
        record,
        high_martian=high,
        crew_quality="green" if high else record.crew_quality,
        boarding_quality=None if boarding is None else str(boarding),
        conveyors=conveyors,
        marine_arms=None if arms is None else str(arms),
    )


# --- High Martian ships alongside (SG-HM-01) ----------------------------------------------------------------


def alongside(ship: ShipRecord, others: Iterable[ShipRecord]) -> list[str]:
    """The enemy ships a High Martian ship may board without a grapple: in her hex at her altitude."""
    if not ship.high_martian or ship.position is None:
        return []
    return [
        other.name
        for other in others
        if other.side != ship.side and other.position == ship.position and other.altitude == ship.altitude
    ]


# --- what the ruleset asks of flying parties in the Initiative Phase -----------------------------------------


def orders_problem(
    records: dict[str, ShipRecord],
    flyers: Sequence[FlyingParty],
    side: str,
    choice: Mapping[str, JSON],
    *,
    ships: Mapping[str, ShipRecord],
    terrain: Terrain,
    now: Moment,
    errata: bool,
    boarded: Iterable[str] = (),
) -> Rejection | None:
    """The Initiative Phase's flying party orders, checked on the copies ``records`` of the side's ships in
    the fight (after their boarding parties): parties formed (SG-HM-02, SG-THR-01, SG-ERR-13) with a boarding
    party's restrictions (SG-BRD-01/19, SG-CREW-01, SG-CRIT-37; ``boarded``: ships with enemy boarders
    aboard), and parties aboard a ship recalled into the air."""
    formed = list(flyers)
    for order in read_list(choice.get(FORM_ORDER, [])):
        if not isinstance(order, dict) or set(order) != {"ship", "men"} or not isinstance(order["men"], dict):
            return Rejection("SG-HM-02", 'a flying party is {"ship": name, "men": {"officers": 1, ...}}')
        name = str(order["ship"])
        if name not in records:
            return Rejection("SG-HM-02", f"{name} is not one of your ships in the fight: {sorted(records)}")
        record = records[name]
        if record.stunned(now):
            return Rejection("SG-CRIT-37", f"{possessive(name)} crew is stunned: no crew changes")
        if record.crew.officers_aboard == 0 and name in set(boarded):
            return Rejection("SG-BRD-19", f"{name} has no officer left to send men away from her defenders")
        men = {str(k): v for k, v in order["men"].items() if type(v) is int}
        if len(men) != len(order["men"]):
            return Rejection("SG-HM-02", "men are whole numbers")
        try:
            records[name], party = form(
                record,
                men,
                name=party_name(formed, name, now.turn),
                turn=now.turn,
                launched=launched(formed, name, now.turn),
                errata=errata,
            )
        except PartyError as error:
            return Rejection(error.clause, error.reason)
        formed.append(party)
    recalled: set[str] = set()
    for name in read_list(choice.get(RECALL_ORDER, [])):
        up = find(flyers, str(name))
        if up is None or up.side != side or up.aboard is None or str(name) in recalled:
            return Rejection("SG-BRD-17", f"{name} is not a flying party of yours aboard a ship")
        where = ships[up.aboard].position
        if where is None or not terrain.on_map(where):
            return Rejection("SG-BRD-17", f"{name} is aboard {up.aboard}, who has left the battle")
        recalled.add(str(name))
    return None


def order_candidates(ship: ShipRecord, flyers: Iterable[FlyingParty], own: Sequence[str]) -> list[dict[str, JSON]]:
    """Orders for an AI or random play: a flying party from the ship; recalling each of the side's parties
    aboard a ship (with the side's first ship ``own[0]`` for those whose own ship is gone)."""
    found: list[dict[str, JSON]] = []
    men = party_of(ship)
    if can_form(ship) and men:
        found.append({FORM_ORDER: [{"ship": ship.name, "men": dict[str, JSON](men)}]})
    for party in flyers:
        if party.side != ship.side or party.aboard is None:
            continue
        if party.home == ship.name or (party.home not in own and own[:1] == [ship.name]):
            found.append({RECALL_ORDER: [party.name]})
    return found


# --- what the ruleset asks of flying parties in the fire phase -------------------------------------------------


def fire_solutions(
    side: str,
    fighting: Sequence[ShipRecord],
    flyers: Sequence[FlyingParty],
    *,
    shielded: Iterable[str],
    now: Moment,
    rules: CombatRules,
) -> list[FireSolution]:
    """The side's shots where a flying party is one end: its ships' small arms, shrapnel and grape at enemy
    parties in the air (SG-HM-06, SG-SHR-06), its own parties' small arms at enemy ships (not the
    ``shielded`` ones, with the side's boarders aboard, SG-ERR-06) and parties."""
    if not flyers:
        return []
    foes = [p for p in in_the_air(flyers) if p.side != side]
    barred = set(shielded)
    ships = [t for t in fighting if t.side != side and t.name not in barred]
    found: list[FireSolution] = []
    for ship in fighting:
        if ship.side == side:
            found += solutions(ship, foes, now=now, rules=rules)
    for party in in_the_air(flyers, side):
        found += solutions(party, [*ships, *foes], now=now, rules=rules)
    return found


def shot_ends(
    ships: Mapping[str, ShipRecord], flyers: Sequence[FlyingParty], shot: Mapping[str, JSON]
) -> tuple[Mark | None, Mark | None]:
    """The firer and the target a fire declaration names, ships or flying parties (None: neither)."""
    firer, target = str(shot["ship"]), str(shot["target"])
    return ships.get(firer) or find(flyers, firer), ships.get(target) or find(flyers, target)


def shot_solution(
    firer: Mark, target: Mark, shot: Mapping[str, JSON], *, now: Moment, rules: CombatRules
) -> FireSolution:
    return solution(
        firer,
        str(shot["gun"]),
        target,
        now=now,
        rules=rules,
        ammunition=str(shot.get("ammunition", "shell")),
        rate=str(shot.get("rate", "normal")),
    )


def shot_problem(
    side: str,
    shot: Mapping[str, JSON],
    *,
    ships: Mapping[str, ShipRecord],
    fighting: Iterable[str],
    flyers: Sequence[FlyingParty],
    used: set[tuple[str, str]],
    shielded: Iterable[str],
    now: Moment,
    rules: CombatRules,
) -> Rejection | None:
    """A declared shot by or at a flying party (SG-HM-06, SG-SHR-06): its own firer (a ship in the
    ``fighting`` or a party), an enemy target, each gun once, not at a ship ``shielded`` by the side's
    boarders (SG-ERR-06), and a solution the fire rules allow."""
    firer, target = shot_ends(ships, flyers, shot)
    in_fight = set(fighting)
    name, gun, mark = str(shot["ship"]), str(shot["gun"]), str(shot["target"])
    if firer is None or firer.side != side or (isinstance(firer, ShipRecord) and firer.name not in in_fight):
        return Rejection("SG-SEQ-05", f"{name} is not one of your ships or flying parties in the fight")
    if target is None or target.side == side or (isinstance(target, ShipRecord) and target.name not in in_fight):
        return Rejection("SG-FIRE-04", f"{mark} is not an enemy ship or flying party")
    if (name, gun) in used:
        return Rejection("SG-FIRE-04", f"{name} {gun} fires once, at one target")
    used.add((name, gun))
    if isinstance(target, ShipRecord) and mark in set(shielded):
        return Rejection("SG-ERR-06", f"your boarders are aboard {mark}: no ship fires at her")
    found = shot_solution(firer, target, shot, now=now, rules=rules)
    return None if found.allowed else Rejection(found.clause, found.describe)


def outcome(party: FlyingParty) -> dict[str, JSON]:
    """A party for the battle's outcome: its men, where it is, and the ship it came from."""
    col, row = hexgrid.to_odd_q(party.position)
    return {
        "name": party.name,
        "side": party.side,
        "home": party.home,
        "men": party.men.men,
        "aboard": party.aboard,
        "hex": [col, row],
        "altitude": party.altitude,
    }
