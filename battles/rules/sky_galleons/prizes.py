"""What a captor does with a prize (SG-BRD-21..24), as pure functions over ship records.

A ship taken by boarders (SG-BRD-13/18, SG-CREW-03) leaves the fight as her captor's prize. From then on the
board keeps a :class:`Prize` for her: who took her, whose she was, the captor's order for her and how far
it has gone, and the man guarding her prisoners. The ruleset asks this module at capture, for the
Initiative Phase's ``prizes`` orders, and at the start of the captor's movement phases:

* taken: one boarder is detailed for good to guard the prisoners, a marine if there is one (SG-BRD-22);
  she is held by the boarders aboard ("hold", SG-BRD-21);
* "crew": the captor side's boarders aboard become her company and she rejoins the fight on the captor's
  side (SG-BRD-21), if their nation may man her (SG-BRD-23: Martians man Martian vessels, Earthmen Earth
  ones);
* "scuttle" (or "abandon", the same act): all the boarders but one officer withdraw in the captor's next
  movement phase, and in the one after the officer comes home, a 1 on a die losing him with her, and she
  crashes (SG-BRD-21/24);
* "hold": she stays as she is; a tow is the tow order (SG-TOW-01).

The numbers and the readings where the text is silent are in ``data/prizes.json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from battles.engine.jsonread import DataFile, read_int, read_list, read_object, read_opt_str, read_str
from battles.engine.words import possessive
from battles.rules.sky_galleons.close_action import all_home
from battles.rules.sky_galleons.combat import Happening, Roller, _Log, marine_arms, note
from battles.rules.sky_galleons.datafiles import DATA_DIR
from galleons import catalog
from galleons.record import NO_PARTY, Party, ShipRecord, assign_relief, men_at_posts, table, tstrs

PRIZES_FILE = DATA_DIR / "prizes.json"
PRIZES = DataFile(PRIZES_FILE)

HOLD, CREW, SCUTTLE = "hold", "crew", "scuttle"
# How far a scuttling has gone: ordered, the boarders but one officer withdrawn, done.
ORDERED, WITHDRAWN, SCUTTLED = 0, 1, 2
MARTIAN, EARTH = "martian", "earth"


@dataclass(frozen=True, slots=True)
class Prize:
    """A prize on the board: the side that took her, the side she fought for first, the captor's order and
    its stage, the guard of her prisoners (his rank and ship), the ships that gave her prize crew and how
    many, and how many of her own men were alive when she was crewed (now prisoners), with the posts they held
    (her record then takes her prize crew: the battle result reads her own men from here, results.py)."""

    captor: str
    owner: str
    order: str = HOLD
    stage: int = ORDERED
    guard: str | None = None
    guard_ship: str | None = None
    crew_from: tuple[tuple[str, int], ...] = ()
    prisoners: int = 0
    prisoner_posts: tuple[tuple[str, int], ...] = ()

    @property
    def status(self) -> str:
        """held, crewed, scuttling or scuttled."""
        if self.order == CREW:
            return "crewed"
        if self.order == SCUTTLE:
            return "scuttled" if self.stage == SCUTTLED else "scuttling"
        return "held"

    def men_from(self, ship: str) -> int:
        """Men of ``ship`` in her prize crew or guarding her prisoners."""
        guard = 1 if self.guard is not None and self.guard_ship == ship else 0
        return guard + sum(men for name, men in self.crew_from if name == ship)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "captor": self.captor,
            "owner": self.owner,
            "order": self.order,
            "stage": self.stage,
            "guard": self.guard,
            "guard_ship": self.guard_ship,
            "crew_from": [[name, men] for name, men in self.crew_from],
            "prisoners": self.prisoners,
        }
        if self.prisoner_posts:  # written only once she is crewed
            data["prisoner_posts"] = [[post, men] for post, men in self.prisoner_posts]
        return data

    @classmethod
    def from_json(cls, value: Any) -> Prize:
        data = read_object(value)
        order = read_str(data["order"])
        if order not in (HOLD, CREW, SCUTTLE):
            raise ValueError(f"a prize's order is hold, crew or scuttle, not {order!r}")
        return cls(
            captor=read_str(data["captor"]),
            owner=read_str(data["owner"]),
            order=order,
            stage=read_int(data["stage"]),
            guard=read_opt_str(data["guard"]),
            guard_ship=read_opt_str(data["guard_ship"]),
            crew_from=tuple(
                (read_str(n), read_int(m)) for n, m in (read_list(p) for p in read_list(data["crew_from"]))
            ),
            prisoners=read_int(data["prisoners"]),
            prisoner_posts=tuple(
                (read_str(p), read_int(m)) for p, m in (read_list(e) for e in read_list(data.get("prisoner_posts", [])))
            ),
        )


def order_word(order: Any) -> str | None:
    """hold, crew or scuttle for an order as a player writes it ("abandon" is scuttling); None if unknown."""
    names: Mapping[str, str] = PRIZES.get("orders", "names")
    return names.get(order) if isinstance(order, str) else None


def aboard(ships: Sequence[ShipRecord], prize: str, side: str) -> list[ShipRecord]:
    """The side's ships with boarders aboard the prize, by name."""
    return sorted((s for s in ships if s.side == side and s.boarding == prize and s.boarders.men), key=lambda s: s.name)


def _party(ships: Sequence[ShipRecord]) -> Party:
    total = NO_PARTY
    for ship in ships:
        total = total.plus(ship.boarders)
    return total


# --- taken: the guard (SG-BRD-21/22) --------------------------------------------------------------------


def taken(
    record: ShipRecord, captor: str, boarders: Sequence[ShipRecord], before: Prize | None = None
) -> tuple[Prize, dict[str, ShipRecord], list[Happening]]:
    """She is taken: one boarder guards her prisoners for good, a marine if there is one (SG-BRD-22). Returns
    the prize, the boarders' ships changed, and the note. A ship taken again keeps her first owner."""
    owner = before.owner if before is not None else record.side
    for rank in PRIZES.texts("guard", "ranks_in_order"):
        ship = next((s for s in boarders if s.boarders.count(rank)), None)
        if ship is None:
            continue
        left = ship.boarders.with_count(rank, ship.boarders.count(rank) - 1)
        changed = replace(ship, boarders=left, boarding=ship.boarding if left.men else None)
        what = f"one of {possessive(ship.name)} boarders ({rank}) guards {possessive(record.name)} prisoners"
        happened = [note(what, ship=ship.name, clauses=["SG-BRD-22"], outcome="guard detailed")]
        return Prize(captor, owner, guard=rank, guard_ship=ship.name), {ship.name: changed}, happened
    return Prize(captor, owner), {}, []


# --- nationality (SG-BRD-23) ----------------------------------------------------------------------------


def _words(nation: str, words: Sequence[str]) -> bool:
    text = nation.casefold()
    return any(word in text for word in words)


def _martian_words() -> tuple[str, ...]:
    return tuple(str(w) for w in table("small_arms", "marine_arms", "martian_nation_words"))


def vessel_kind(record: ShipRecord) -> str:
    """A Martian vessel is Martian-built and flies as a kite or a screw galley; any other is an Earth one."""
    if record.class_id is not None:
        yard = catalog.ship_class(record.class_id).yard_type or ""
    else:
        yard = MARTIAN if _words(record.nation, _martian_words()) else ""
    martian = yard in PRIZES.texts("nationality", "martian_yards")
    return MARTIAN if martian and record.propulsion in PRIZES.texts("nationality", "martian_propulsion") else EARTH


def crew_kind(record: ShipRecord) -> str:
    """Whose men a ship's crew are: by the nation it names, else by how the ship is built."""
    if _words(record.nation, _martian_words()):
        return MARTIAN
    if _words(record.nation, PRIZES.texts("nationality", "earth_nation_words")):
        return EARTH
    return vessel_kind(record)


def may_man(crew: ShipRecord, record: ShipRecord, prize: Prize) -> bool:
    """May the men of ``crew`` man the prize (SG-BRD-23)? Always a ship of their own side they recapture."""
    if prize.owner == crew.side:
        return True
    allowed: Mapping[str, Sequence[str]] = PRIZES.get("nationality", "crews_may_man")
    return vessel_kind(record) in allowed[crew_kind(crew)]


# --- the orders (validation) -----------------------------------------------------------------------------


def order_problem(
    name: str, order: Any, *, side: str, prize: Prize | None, record: ShipRecord | None, boarders: Sequence[ShipRecord]
) -> tuple[str, str] | None:
    """(clause, reason) if the side may not give this order for this prize now; ``boarders`` are the side's
    ships with boarders aboard her, after the orders carried out before this one."""
    word = order_word(order)
    if word is None:
        return "SG-BRD-21", f"a prize is ordered {', '.join(PRIZES.get('orders', 'names'))}, not {order!r}"
    if prize is None or record is None or prize.captor != side:
        return "SG-BRD-21", f"{name} is not a prize of yours"
    if not record.afloat or prize.order != HOLD:
        return "SG-BRD-21", f"{name} is {prize.status if record.afloat else 'lost'}: she takes no other order"
    officers = _party(boarders).officers
    if word == CREW:
        if not officers:
            return "SG-BRD-21", f"no officer of yours is aboard {name} to command her prize crew"
        if not may_man(boarders[0], record, prize):
            kind = crew_kind(boarders[0])
            return "SG-BRD-23", f"{kind.capitalize()} crews may not man a {vessel_kind(record)} vessel like {name}"
    if word == SCUTTLE and not officers:
        return "SG-BRD-24", f"an officer must stay aboard {name} to scuttle her"
    return None


def orders_problem(
    orders: Any,
    *,
    side: str,
    prizes: Mapping[str, Prize],
    ships: Mapping[str, ShipRecord],
    records: Mapping[str, ShipRecord],
) -> tuple[str, str] | None:
    """The whole ``prizes`` order, ``{"<prize>": "crew" | "hold" | "scuttle" | "abandon"}``; ``records`` are
    the side's own ships as the orders before this one left them."""
    if not isinstance(orders, dict):
        return "SG-BRD-21", 'prizes are {"<prize>": "crew" | "hold" | "scuttle" | "abandon"}'
    own = list(records.values())
    for name, order in orders.items():
        problem = order_problem(
            str(name),
            order,
            side=side,
            prize=prizes.get(str(name)),
            record=ships.get(str(name)),
            boarders=aboard(own, str(name), side),
        )
        if problem is not None:
            return problem
    return None


# --- crewing her (SG-BRD-21) ---------------------------------------------------------------------------


def _relieve(record: ShipRecord) -> ShipRecord:
    """An empty helm or trim station relieved by the first free petty officer, officer or captain."""
    for station, manned in (("helm", record.helm_manned), ("trim", record.trim_manned)):
        if manned:
            continue
        for rank in tstrs("stations", "relief_ranks"):
            try:
                record = assign_relief(record, station, rank)
                break
            except ValueError:
                continue
    return record


def crewed(record: ShipRecord, boarders: Sequence[ShipRecord], prize: Prize) -> tuple[Prize, dict[str, ShipRecord]]:
    """The captor side's boarders aboard her become her company and she fights for the captor's side. Returns
    the prize and every changed record (hers and the boarders' ships)."""
    men = _party(boarders)
    first = boarders[0]
    crew = record.crew
    captain = min(men.officers, 1)
    helmsman = min(men.petty_officers, 1)
    trimsman = min(men.petty_officers - helmsman, 1)
    cranks = sum(crew.maneuver_rows)
    cranking = min(men.seamen, cranks)
    company = replace(
        crew,
        captain=captain,
        officers=men.officers - captain,
        helmsman=helmsman,
        trimsman=trimsman,
        signalman=0,
        petty_officers=men.petty_officers - helmsman - trimsman,
        deckhands=men.seamen - cranking,
        marine_officers=0,
        marines=men.marines,
        maneuver_lost=cranks - cranking,
        helm_relief=None,
        trim_relief=None,
    )
    ship = replace(
        record,
        side=prize.captor,
        crew=company,
        guns=tuple(replace(gun, manned=0) for gun in record.guns),
        crew_quality=first.crew_quality,
        marine_arms=marine_arms(first),
        marines_fired=None,
        party=NO_PARTY,
        boarders=NO_PARTY,
        boarding=None,
        shotguns_spent=None,
    )
    changed = {s.name: replace(s, boarders=NO_PARTY, boarding=None, shotguns_spent=None) for s in boarders}
    changed[record.name] = _relieve(ship)
    crew_from = tuple((s.name, s.boarders.men) for s in boarders)
    held = tuple((post, men) for post, men in men_at_posts(all_home(record)).items() if men)
    return replace(prize, order=CREW, crew_from=crew_from, prisoners=record.men_alive, prisoner_posts=held), changed


def would_move(record: ShipRecord, boarders: Sequence[ShipRecord], prize: Prize) -> bool:
    """Would she make way with this prize crew (the AI's test before crewing her)?"""
    ship = crewed(record, boarders, prize)[1][record.name]
    return ship.effective_speed(6 if ship.is_kite else None) > 0


# --- scuttling her (SG-BRD-24) ---------------------------------------------------------------------------


def _stayer(boarders: Sequence[ShipRecord]) -> str | None:
    """The ship whose officer stays aboard to scuttle her: the first with an officer, else with a leader."""
    found = next((s for s in boarders if s.boarders.officers), None) or next(
        (s for s in boarders if s.boarders.leaders), None
    )
    return None if found is None else found.name


def withdraw(
    record: ShipRecord, boarders: Sequence[ShipRecord], prize: Prize, guard_ship: ShipRecord | None
) -> tuple[Prize, dict[str, ShipRecord], list[Happening]]:
    """The captor's next movement phase: every boarder aboard her goes home but one officer, and the guard
    with them (SG-BRD-24)."""
    stayer = _stayer(boarders)
    changed: dict[str, ShipRecord] = {}
    for ship in boarders:
        party = ship.boarders
        if ship.name == stayer:
            rank = "officers" if party.officers else "petty_officers"
            one = NO_PARTY.with_count(rank, 1)
            home = replace(ship, boarders=party.with_count(rank, party.count(rank) - 1))
            changed[ship.name] = replace(_home(home), boarders=one, boarding=record.name)
        else:
            changed[ship.name] = _home(ship)
    if prize.guard is not None and guard_ship is not None and guard_ship.afloat:
        ship = changed.get(guard_ship.name, guard_ship)
        changed[ship.name] = replace(ship, party=ship.party.with_count(prize.guard, ship.party.count(prize.guard) + 1))
    what = f"the boarders leave {record.name}" + (f", but for one of {possessive(stayer)} officers" if stayer else "")
    happened = [note(what, ship=record.name, clauses=["SG-BRD-24"], outcome="withdrawn")]
    return replace(prize, stage=WITHDRAWN, guard=None, guard_ship=None), changed, happened


def _home(ship: ShipRecord) -> ShipRecord:
    if not ship.boarders.men:
        return replace(ship, boarders=NO_PARTY, boarding=None)
    return replace(ship, party=ship.party.plus(ship.boarders), boarders=NO_PARTY, boarding=None)


def scuttle(
    record: ShipRecord, boarders: Sequence[ShipRecord], prize: Prize, *, roller: Roller
) -> tuple[Prize, dict[str, ShipRecord], list[Happening]]:
    """The following movement phase: the officer comes home, or on a 1 is lost with her, and she crashes."""
    log = _Log(roller)
    changed: dict[str, ShipRecord] = {}
    lost_on = PRIZES.whole("scuttle", "officer_lost_on")
    for ship in boarders:
        (face,) = log.roll(
            f"scuttling {record.name}: does {possessive(ship.name)} officer get off her",
            ship=ship.name,
            clauses=["SG-BRD-24"],
            needed=f"{lost_on}: lost with her",
            judge=lambda faces, _total: "lost with her" if faces[0] == lost_on else "back aboard",
        )
        changed[ship.name] = replace(ship, boarders=NO_PARTY, boarding=None) if face == lost_on else _home(ship)
    changed[record.name] = replace(record, status="crashed")
    log.note(
        f"{possessive(record.name)} trim vanes are crippled", ship=record.name, clauses=["SG-BRD-24"], outcome="crashes"
    )
    return replace(prize, stage=SCUTTLED), changed, log.happened


# --- the outcome --------------------------------------------------------------------------------------------


def men_away(prizes: Mapping[str, Prize], ship: str) -> int:
    """Men of ``ship`` aboard prizes as guards or prize crew: alive, though not aboard her."""
    return sum(prize.men_from(ship) for prize in prizes.values())


def tow_problem(name: str, orders: Any, prizes: Mapping[str, Prize]) -> tuple[str, str] | None:
    """A prize being crewed or scuttled, now or by these orders, is not taken in tow."""
    ordered = order_word(orders.get(name)) if isinstance(orders, dict) else None
    prize = prizes.get(name)
    if ordered in (CREW, SCUTTLE) or (prize is not None and prize.order != HOLD):
        return "SG-BRD-21", f"{name} is being crewed or scuttled: she is not taken in tow"
    return None
