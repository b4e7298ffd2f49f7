"""Sky Galleons exotic ordnance (Part II and Cloudships & Gunboats), as pure functions over ship records.

Hale rocket batteries (SG-HALE, SG-CG-58..65), Martian liquid fire and spike droppers (SG-LF, SG-CG-66..74),
bomb racks with their reloading and drogues used as bombs (SG-CG-75..77, SG-ERR-17..23), tether mines and
drogue torpedoes (SG-TM, SG-DT, SG-CG-34..49, SG-ERR-14..16), Smutts dischargers and their torpedoes
(SG-SMT, SG-CG-25..33), the power grapnel (SG-PG, SG-CG-20..24), and ground targets: bombardment hexes
(SG-BOMB) and ground batteries (SG-GB).

Like ``combat.py``, every function takes the records it changes and a ``Roller`` for its dice and returns the
new records and the happenings (one per roll or effect); the ruleset decides when each is called. The state
lives on the records: a ship's ``ordnance`` items (``record.Ordnance``: a battery fired, a rack dropped or
being reloaded, mines raised, drogues lowered, torpedoes aboard) and a ground target's ``emplacement``. A
Smutts torpedo in flight is a :class:`Torpedo`, which the ruleset keeps on its board. Hits are resolved by
``combat.py`` (hit location, armor, criticals), hits on ordnance aboard and on ground targets included; what
ordnance counts as a gun or a magazine, and the weapon kinds, are in ``ordnance_stores.py`` below both.

The numbers and the readings chosen where the text is silent, garbled or in conflict are in
``galleons/data/ordnance.json``; the weapons' own figures (Pen, DV, range, crew) in ``galleons/data/weapons.json``. The
readings that shape this module most:

* Cloudships & Gunboats governs (SG-CG-01): a Smutts torpedo strikes with a ram's chance (SG-CG-28), a
  drogue on a 6 (SG-CG-46/47, resolving SG-DT-09). The errata follow ``CombatRules.errata``: several mines
  or drogues go off together as one hit of summed damage values (SG-ERR-14/16), a drogue may be dropped as a
  bomb (SG-ERR-17), and moving ships may be bombed (SG-ERR-18/19 over SG-CG-75).
* Drops (liquid fire, spikes, bombs) happen in the dropper's own move, in a hex it enters or leaves holding a
  lower ship, resolved as it leaves that hex (the hexside it leaves by gives liquid fire its +1) or where
  its move ends.
* Mines and drogues go off on contact as the ships move: :func:`device_contacts` says which contacts one
  step of a move makes, :func:`spring_devices` resolves them.
* Hale batteries and liquid fire racks count as one gun per kind for Gun hits, each spike hopper as a gun;
  loaded batteries, unused racks, torpedoes aboard, mines not raised and drogues not lowered are magazines
  (ordnance_stores.py).

Private pieces of ``combat.py`` (``_Log`` and the hit, casualty, fire and trim steps) are imported so that a
hit from ordnance is resolved exactly as a gun's, in the same log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine import hexgrid
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from battles.rules.sky_galleons import close_action
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FireRefused,
    FireSolution,
    Happening,
    Judgement,
    Roller,
    Shot,
    _altitude_limit,
    _apply_hit,
    _armored,
    _effective_range,
    _Log,
    _lose_trim,
    _mark_hull_hits,
    _max_shots,
    _restricted_arc_holds,
    _roll_to_hit,
    _score_points,
    _start_fire,
    _take_casualties,
    fire_gun_marked,
    fire_solution,
    penetration_at,
    range_band,
    sight_lines,
    to_hit_modifiers,
)
from battles.rules.sky_galleons.movement import Terrain, collision_modifiers

# The weapon kinds and what counts as a gun or a magazine live below combat (ordnance_stores.py); they are
# re-exported here because they are this module's words and its users name them through it.
from battles.rules.sky_galleons.ordnance_stores import BOMB_LOAD as BOMB_LOAD
from battles.rules.sky_galleons.ordnance_stores import BOMB_RACK as BOMB_RACK
from battles.rules.sky_galleons.ordnance_stores import DROGUE as DROGUE
from battles.rules.sky_galleons.ordnance_stores import GONE as GONE
from battles.rules.sky_galleons.ordnance_stores import HALE as HALE
from battles.rules.sky_galleons.ordnance_stores import LIQUID_FIRE as LIQUID_FIRE
from battles.rules.sky_galleons.ordnance_stores import MINE_GROUP as MINE_GROUP
from battles.rules.sky_galleons.ordnance_stores import MINES as MINES
from battles.rules.sky_galleons.ordnance_stores import SMUTTS_TORPEDO as SMUTTS_TORPEDO
from battles.rules.sky_galleons.ordnance_stores import SPIKES as SPIKES
from battles.rules.sky_galleons.ordnance_stores import gun_hit_targets as gun_hit_targets
from battles.rules.sky_galleons.ordnance_stores import magazine_targets as magazine_targets
from battles.rules.sky_galleons.ordnance_stores import (
    weapon_damage_value,
    weapon_penetration,
)
from galleons import catalog, design
from galleons.record import (
    Crew,
    Criticals,
    Gun,
    HullRow,
    Moment,
    Ordnance,
    ShipRecord,
    altitude_level,
    altitude_levels,
    oint,
    ostrs,
    surface,
    table,
    tint,
    tstrs,
)

# What a ship may drop on a lower one during its move.
DROPS = (LIQUID_FIRE, SPIKES, BOMB_RACK, DROGUE)
ALL_ASPECTS = tuple(aspect.value for aspect in hexgrid.Aspect)


class OrdnanceError(ValueError):
    """An order for ordnance the rules forbid; ``clause`` names the rule."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


# --- small readers ---------------------------------------------------------------------------------------


def _level(record: ShipRecord) -> int:
    return altitude_level(record.altitude)


def is_grapnel(gun: Gun) -> bool:
    return gun.weapon_id == "power_grapnel"


def is_discharger(gun: Gun) -> bool:
    return gun.weapon_id in ostrs("smutts", "dischargers")


def is_vessel(record: ShipRecord) -> bool:
    """A ship, not a ground target: mines, drogues, torpedoes and grapnels meet only vessels."""
    return record.emplacement is None


def reloading_racks(record: ShipRecord) -> int:
    return len(record.items_of(BOMB_RACK, states=("reloading",)))


def free_deckhands(record: ShipRecord) -> int:
    """Deckhands not busy reloading bomb racks (SG-CG-77 reading): who fires a Hale battery (SG-HALE-09)."""
    return max(record.crew.deckhands - reloading_racks(record) * oint("bombs", "reload_deckhands"), 0)


# --- Initiative Phase: mines, drogues, bomb reloading, battery aim ---------------------------------------


def _live_state(weapon_id: str) -> str:
    return "lowered" if weapon_id == DROGUE else "raised"


def _safe_state(weapon_id: str) -> str:
    return "raised" if weapon_id == DROGUE else "lowered"


def _declare(record: ShipRecord, weapons: Sequence[str], live: bool, *, now: Moment, clause: str) -> ShipRecord:
    aboard = record.items_of(*weapons, states=("raised", "lowered"))
    if not aboard:
        raise OrdnanceError(clause, f"{record.name} has none aboard")
    changed = []
    for item in aboard:
        state = _live_state(item.weapon_id) if live else _safe_state(item.weapon_id)
        if item.state != state:
            changed.append(evolve(item, state=state, since=now.turn))
    return record.with_items(*changed)


def declare_mines(record: ShipRecord, raised: bool, *, now: Moment) -> tuple[ShipRecord, list[Happening]]:
    """Initiative Phase: raise (live, a level above the ship) or lower (harmless) all the ship's tether mines
    aboard for this turn (SG-TM-03/06, SG-CG-34/37). Raises :class:`OrdnanceError` with none aboard."""
    log = _Log(_no_dice)
    record = _declare(record, MINES, raised, now=now, clause="SG-TM-03")
    log.note(
        f"{possessive(record.name)} tether mines are {'raised' if raised else 'lowered'} this turn",
        ship=record.name,
        clauses=["SG-TM-03", "SG-CG-34"] + (["SG-TM-04", "SG-TM-06"] if raised else []),
        outcome="raised" if raised else "lowered",
    )
    return record, log.happened


def declare_drogues(record: ShipRecord, lowered: bool, *, now: Moment) -> tuple[ShipRecord, list[Happening]]:
    """Initiative Phase: lower (live, a level below the ship) or raise (harmless) all the ship's drogue
    torpedoes aboard for this turn (SG-DT-02/04, SG-CG-44/45). Raises :class:`OrdnanceError` with none."""
    log = _Log(_no_dice)
    record = _declare(record, (DROGUE,), lowered, now=now, clause="SG-DT-02")
    log.note(
        f"{possessive(record.name)} drogue torpedoes are {'lowered' if lowered else 'raised'} this turn",
        ship=record.name,
        clauses=["SG-DT-02", "SG-CG-44"] + (["SG-DT-03", "SG-DT-04"] if lowered else []),
        outcome="lowered" if lowered else "raised",
    )
    return record, log.happened


@dataclass(frozen=True, slots=True)
class Limits:
    """What live mines and drogues do to a ship's movement: the most hexes it may move this turn (None: no
    limit), the allowance it loses, and whether it may avoid a ram or a torpedo (SG-TM-04, SG-DT-03)."""

    max_hexes: int | None = None
    allowance_lost: int = 0
    may_avoid: bool = True
    clauses: tuple[str, ...] = ()


def movement_limits(record: ShipRecord) -> Limits:
    """Raised mines: at most 3 hexes a turn and no avoiding (SG-TM-04, SG-CG-35); lowered drogues: 1 off the
    movement allowance (SG-DT-03, SG-CG-45). Cutting the mines loose lifts their limits (SG-TM-05)."""
    mines = bool(record.items_of(*MINES, states=("raised",)))
    drogues = bool(record.items_of(DROGUE, states=("lowered",)))
    clauses = (("SG-TM-04", "SG-CG-35") if mines else ()) + (("SG-DT-03", "SG-CG-45") if drogues else ())
    return Limits(
        max_hexes=oint("tether_mines", "max_hexes_per_turn") if mines else None,
        allowance_lost=oint("drogue_torpedoes", "allowance_lost") if drogues else 0,
        may_avoid=not mines,
        clauses=clauses,
    )


def start_bomb_reload(record: ShipRecord, rack_id: str, *, now: Moment) -> tuple[ShipRecord, list[Happening]]:
    """Initiative Phase: four free deckhands start reloading an empty rack from a spare load, which is used at
    once; the rack drops again five turns later (SG-CG-77). Raises :class:`OrdnanceError`."""
    rack = _own_item(record, rack_id, BOMB_RACK, "SG-CG-77")
    if rack.state != "empty":
        raise OrdnanceError("SG-CG-77", f"{possessive(record.name)} rack {rack_id} is {rack.state}, not empty")
    spares = record.items_of(BOMB_LOAD, states=("spare",))
    if not spares:
        raise OrdnanceError("SG-CG-77", f"{record.name} has no spare bomb load")
    needed = oint("bombs", "reload_deckhands")
    if free_deckhands(record) < needed:
        raise OrdnanceError("SG-CG-77", f"{record.name} has {free_deckhands(record)} free deckhands, not {needed}")
    record = record.with_items(
        evolve(rack, state="reloading", since=now.turn), evolve(spares[0], state="used", since=now.turn)
    )
    log = _Log(_no_dice)
    log.note(
        f"{needed} of {possessive(record.name)} deckhands reload rack {rack_id} from load {spares[0].id}",
        ship=record.name,
        clauses=["SG-CG-77"],
        outcome=f"loaded on turn {now.turn + oint('bombs', 'reload_turns')}",
    )
    return record, log.happened


def advance_reloads(record: ShipRecord, *, now: Moment) -> tuple[ShipRecord, list[Happening]]:
    """Start of a turn: racks whose five turns of reloading are done are loaded; then, if the ship lacks four
    deckhands for each rack still being reloaded, this turn does not count for them (SG-CG-77 reading)."""
    log = _Log(_no_dice)
    turns = oint("bombs", "reload_turns")
    done = [r for r in record.items_of(BOMB_RACK, states=("reloading",)) if now.turn - (r.since or 0) >= turns]
    for rack in done:
        record = record.with_items(evolve(rack, state="loaded", since=now.turn))
        log.note(
            f"{possessive(record.name)} rack {rack.id} is loaded",
            ship=record.name,
            clauses=["SG-CG-77"],
            outcome="loaded",
        )
    busy = record.items_of(BOMB_RACK, states=("reloading",))
    if busy and record.crew.deckhands < len(busy) * oint("bombs", "reload_deckhands"):
        record = record.with_items(*(evolve(r, since=(r.since or now.turn) + 1) for r in busy))
        log.note(
            f"too few deckhands on {record.name} to go on reloading: this turn does not count",
            ship=record.name,
            clauses=["SG-CG-77"],
            outcome="stalled",
        )
    return record, log.happened


def aim_battery(record: ShipRecord, battery_id: str, aspect: str, angle: str) -> ShipRecord:
    """Before the battle: face a Hale battery into ``aspect``, angled "up" or "down" (SG-HALE-02/07)."""
    battery = _own_item(record, battery_id, HALE, "SG-HALE-07")
    if aspect not in ALL_ASPECTS or angle not in ostrs("hale_rockets", "angles"):
        raise OrdnanceError("SG-HALE-02", f"a battery faces one of {ALL_ASPECTS}, angled up or down")
    return record.with_items(evolve(battery, aspect=aspect, angle=angle))


def _own_item(record: ShipRecord, item_id: str, weapon: str, clause: str) -> Ordnance:
    try:
        item = record.item(item_id)
    except KeyError as error:
        raise OrdnanceError(clause, str(error)) from None
    if item.weapon_id != weapon:
        raise OrdnanceError(
            clause, f"{possessive(record.name)} {item_id} is a {item.name}, not a {catalog.weapon(weapon).name}"
        )
    return item


def _no_dice(purpose: str, count: int, sides: int, **_described: Any) -> tuple[int, ...]:
    raise AssertionError(f"{purpose}: this step rolls no dice")


def _at_least(on: int, yes: str, no: str) -> Judgement:
    """A one-die judge: ``yes`` when the natural die is ``on`` or more."""
    return lambda faces, _total: yes if faces[0] >= on else no


def _at_most(limit: int, yes: str, no: str) -> Judgement:
    """A one-die judge: ``yes`` when the natural die is ``limit`` or less (modifiers already taken off it)."""
    return lambda faces, _total: yes if faces[0] <= limit else no


# --- mines and drogues on contact ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contact:
    """A ship meeting another's live mines or drogues: ``sure``, or it goes off on ``on`` or more."""

    victim: str
    owner: str
    device: str  # MINE_GROUP or DROGUE
    sure: bool
    on: int
    clauses: tuple[str, ...]


def _device_spots(record: ShipRecord) -> dict[str, tuple[Hex, int]]:
    """Where a ship's live devices hang: raised mines a level above it, lowered drogues a level below."""
    spots: dict[str, tuple[Hex, int]] = {}
    if record.position is None or not record.afloat or not record.ordnance:  # no items: no devices (asked each step)
        return spots
    if record.items_of(*MINES, states=("raised",)):
        spots[MINE_GROUP] = (record.position, _level(record) + oint("tether_mines", "levels_above_owner"))
    if record.items_of(DROGUE, states=("lowered",)):
        spots[DROGUE] = (record.position, _level(record) - oint("drogue_torpedoes", "levels_below_owner"))
    return spots


def _at(record: ShipRecord, spot: tuple[Hex, int]) -> bool:
    return record.afloat and record.position == spot[0] and _level(record) == spot[1]


def live_devices(record: ShipRecord) -> bool:
    """Has the ship (or a minefield) tether mines raised or drogue torpedoes lowered, wherever it is? Where no
    ship has, no step makes a contact (device_contacts, ordnance_play.ground_contacts: each one a raised mine or a
    lowered drogue, as _device_spots hangs them). Asked after each step of a move."""
    return any(
        (item.state == "raised" and item.weapon_id in MINES) or (item.state == "lowered" and item.weapon_id == DROGUE)
        for item in record.ordnance
    )


def device_contacts(
    ships: Mapping[str, ShipRecord], mover: str, before: ShipRecord, after: ShipRecord
) -> list[Contact]:
    """The contacts one step of ``mover``'s move makes: ``before`` and ``after`` are its record either side
    of the step (a hex entered, a level climbed or dropped); the other ships are read from ``ships``.

    Arriving at another ship's live mines is certain (SG-TM-07, SG-CG-38), at its drogue on a 6 (SG-DT-05,
    SG-CG-46); bringing one's own devices onto a ship (by entering its hex or changing altitude) strikes it on
    a 6 (SG-TM-08, SG-DT-06, SG-CG-39/47). Leaving a hex makes no contact (SG-TM-09, SG-CG-40)."""
    found: list[Contact] = []
    drogue_on = oint("drogue_torpedoes", "contact_on")
    for other in ships.values():
        if other.name == mover or not is_vessel(other):
            continue
        for device, spot in _device_spots(other).items():
            if _at(after, spot) and not _at(before, spot):
                mine = device == MINE_GROUP
                clauses = ("SG-TM-07", "SG-CG-38") if mine else ("SG-DT-05", "SG-DT-09", "SG-CG-46")
                found.append(Contact(mover, other.name, device, mine, 0 if mine else drogue_on, clauses))
    was = _device_spots(before)
    for device, spot in _device_spots(after).items():
        if was.get(device) == spot:
            continue
        mine = device == MINE_GROUP
        on = oint("tether_mines", "owner_brings_them_on") if mine else drogue_on
        clauses = ("SG-TM-08", "SG-CG-39") if mine else ("SG-DT-06", "SG-DT-09", "SG-CG-47")
        for other in sorted(ships.values(), key=lambda s: s.name):
            if other.name != mover and is_vessel(other) and _at(other, spot):
                found.append(Contact(other.name, mover, device, False, on, clauses))
    return found


def _device_items(owner: ShipRecord, device: str) -> tuple[Ordnance, ...]:
    if device == MINE_GROUP:
        return owner.items_of(*MINES, states=("raised",))
    return owner.items_of(DROGUE, states=("lowered",))


def spring_devices(
    ships: Mapping[str, ShipRecord],
    contacts: Sequence[Contact],
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> tuple[dict[str, ShipRecord], list[Happening], list[str]]:
    """Resolve contacts in order: the certain ones go off, the others on their die; the third result names
    the ships a device went off on (a mover among them ends its move there, the reading in ordnance.json).

    With the errata one roll serves all the owner's live devices of the kind and they go off together, one
    hit of their summed damage values (SG-ERR-14/16); without, one goes off. The hit is located as usual,
    Pen 0, and then costs the ship a loss of trim against its damage value (SG-TM-11, SG-DT-07, SG-CG-42/48)."""
    rules = rules or CombatRules()
    log = _Log(roller)
    result = dict(ships)
    struck: list[str] = []
    for contact in contacts:
        owner, victim = result[contact.owner], result[contact.victim]
        live = _device_items(owner, contact.device)
        if not live or not owner.afloat or not victim.afloat:
            continue
        what = "tether mines" if contact.device == MINE_GROUP else "drogue torpedo"
        if not contact.sure:
            on = contact.on
            (face,) = log.roll(
                f"{contact.victim} and {possessive(contact.owner)} {what}: do they go off",
                ship=contact.victim,
                clauses=contact.clauses,
                needed=f"{on}+",
                judge=_at_least(on, "goes off", "clear"),
            )
            if face < on:
                continue
        going = live if rules.errata else live[:1]
        result[contact.owner] = owner.with_items(*(evolve(i, state="detonated", since=now.turn) for i in going))
        result[contact.victim] = _detonate_on(
            result[contact.victim], going, now=now, log=log, rules=rules, source=f"{possessive(contact.owner)} {what}"
        )
        struck.append(contact.victim)
    return result, log.happened, struck


def _detonate_on(
    victim: ShipRecord, items: Sequence[Ordnance], *, now: Moment, log: _Log, rules: CombatRules, source: str
) -> ShipRecord:
    """Devices going off against a ship as one hit: summed damage value, Pen 0, then a loss of trim."""
    value = sum(weapon_damage_value(item.weapon_id) for item in items)
    clauses = ["SG-TM-11", "SG-CG-42"] if items[0].weapon_id in MINES else ["SG-DT-07", "SG-CG-48"]
    if len(items) > 1:
        clauses.append("SG-ERR-14" if items[0].weapon_id in MINES else "SG-ERR-16")
    log.note(
        f"{len(items)} of {source} go off against {victim.name}: one hit, damage value {value}",
        ship=victim.name,
        clauses=clauses,
        outcome=f"damage value {value}",
    )
    victim = _apply_hit(victim, Shot(value, 0, source=source), now=now, log=log, rules=rules)
    if victim.afloat:
        victim = _lose_trim(victim, value, now=now, log=log, rules=rules, cause=source)
    return victim


def cut_mines(
    ships: Mapping[str, ShipRecord], owner: str, *, now: Moment, roller: Roller, rules: CombatRules | None = None
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Cut the raised mines loose, at any time: they are lost, the speed and avoidance limits go (SG-TM-05,
    SG-CG-36), and each mine in turn rolls against every ship in the hex higher than the owner, lowest first,
    going off on the first 6 (SG-TM-10, SG-CG-41, SG-ERR-15). Raises :class:`OrdnanceError` with none raised."""
    rules = rules or CombatRules()
    log = _Log(roller)
    result = dict(ships)
    record = result[owner]
    raised = record.items_of(*MINES, states=("raised",))
    if not raised:
        raise OrdnanceError("SG-TM-05", f"{owner} has no tether mines raised to cut loose")
    result[owner] = record.with_items(*(evolve(i, state="cut", since=now.turn) for i in raised))
    log.note(f"{owner} cuts its tether mines loose", ship=owner, clauses=["SG-TM-05", "SG-CG-36"], outcome="cut")
    on = oint("tether_mines", "released_hit_on")
    for mine in raised:
        above = sorted(
            (
                s
                for s in result.values()
                if s.name != owner
                and is_vessel(s)
                and s.afloat
                and s.position == record.position
                and _level(s) > _level(record)
            ),
            key=lambda s: (_level(s), s.name),
        )
        for ship in above:
            (face,) = log.roll(
                f"{possessive(owner)} released mine {mine.id} against {ship.name}",
                ship=ship.name,
                clauses=["SG-TM-10", "SG-CG-41", "SG-ERR-15"],
                needed=f"{on}+",
                judge=lambda faces, _total: "goes off" if faces[0] >= on else "clear",
            )
            if face >= on:
                result[owner] = result[owner].with_items(evolve(mine, state="detonated", since=now.turn))
                result[ship.name] = _detonate_on(
                    result[ship.name],
                    [mine],
                    now=now,
                    log=log,
                    rules=rules,
                    source=f"{possessive(owner)} released mine",
                )
                break
    return result, log.happened


# --- Hale rocket batteries ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RocketSolution:
    """Whether one Hale battery may fire at one target now (SG-HALE-01..09); refusals name their clause."""

    firer: str
    battery: str
    target: str
    allowed: bool
    clause: str = ""
    reason: str = ""
    distance: int | None = None
    altitude_difference: int = 0
    incoming: tuple[str, ...] = ALL_ASPECTS

    @property
    def describe(self) -> str:
        if not self.allowed:
            return f"{self.firer} battery {self.battery} may not fire at {self.target}: {self.reason} ({self.clause})"
        where = f"{self.distance} hexes, {self.altitude_difference:+d} levels"
        return f"{self.firer} Hale battery {self.battery} vs {self.target}, {where}"


def rocket_solution(
    firer: ShipRecord,
    battery_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    same_hex: tuple[str, str] | None = None,
) -> RocketSolution:
    """May this battery fire its salvo at ``target`` now? Loaded, a free deckhand to fire it, an up battery at
    a higher target or a down one at a lower, no farther in hexes than the levels between them nor than its
    range (4), and in its aspect unless in the firer's own hex (SG-HALE-02..06/09, SG-CG-58..61/63)."""

    def refuse(clause: str, reason: str) -> RocketSolution:
        return RocketSolution(firer.name, battery_id, target.name, False, clause, reason)

    try:
        battery = _own_item(firer, battery_id, HALE, "SG-HALE-07")
    except OrdnanceError as error:
        return refuse(error.clause, error.reason)
    if battery.state != "loaded":
        clause = "SG-HALE-09" if battery.state == "fired" else "SG-HALE-10"
        return refuse(clause, f"the battery is {battery.state}: it fires once and is not reloaded")
    if not firer.afloat or not target.afloat:
        return refuse("SG-DMG-16", "a crashed ship neither fires nor is fired at")
    if firer.name == target.name:
        return refuse("SG-FIRE-04", "rockets fire at an enemy, not their own ship")
    if firer.stunned(now):
        return refuse("SG-CRIT-37", "the crew is still stunned by the loss of trim")
    if free_deckhands(firer) < oint("hale_rockets", "crew_per_battery"):
        return refuse("SG-HALE-09", "no deckhand free to fire the battery")
    aspects, incoming = sight_lines(firer, target, same_hex)
    assert firer.position is not None  # sight_lines checked both
    assert target.position is not None
    distance = hexgrid.distance(firer.position, target.position)
    difference = _level(target) - _level(firer)
    if difference == 0 or (battery.angle == "up") != (difference > 0):
        return refuse("SG-HALE-02", f"the battery is angled {battery.angle}; the target is {difference:+d} levels")
    if distance > 0 and battery.aspect not in aspects:
        return refuse("SG-HALE-02", f"the battery faces {battery.aspect}; the target is {'/'.join(aspects)}")
    if distance > abs(difference):
        return refuse("SG-HALE-03", f"{distance} hexes away but only {abs(difference)} levels apart")
    ranges = catalog.weapon(HALE).range_hexes
    longest = ranges.long if ranges is not None and ranges.long is not None else 0
    if distance > longest:
        return refuse("SG-HALE-05", f"{distance} hexes is beyond the rockets' {longest}")
    return RocketSolution(firer.name, battery_id, target.name, True, "", "", distance, difference, incoming)


def rocket_crew_problem(record: ShipRecord, batteries: int) -> str | None:
    """A fire declaration's problem: each battery fired in one fire step needs its own free deckhand
    (SG-HALE-09, SG-CG-63 reading). None when there are hands enough."""
    hands = free_deckhands(record)
    if batteries > hands:
        return f"SG-HALE-09: {record.name} fires {batteries} Hale batteries with {hands} free deckhands"
    return None


def fire_rockets(
    ships: Mapping[str, ShipRecord],
    solution: RocketSolution,
    *,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """The salvo: the battery is spent, 1d6 rockets hit, each Pen 0 / DV 1 and located as usual (SG-HALE-01/08,
    SG-CG-62, SG-CG-94). A rocket hit on a bombardment hex scores 1 point (SG-BOMB-02). Raises FireRefused."""
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    rules = rules or CombatRules()
    log = _Log(roller)
    result = dict(ships)
    firer = result[solution.firer]
    result[firer.name] = firer.with_items(evolve(firer.item(solution.battery), state="fired", since=now.turn))
    if not result[solution.target].afloat:
        log.note(
            f"{solution.target} has already fallen", ship=solution.target, clauses=["SG-DMG-16"], outcome="no shot"
        )
        return result, log.happened
    sides = oint("hale_rockets", "hits_die_sides")
    (hits,) = log.roll(
        f"rockets: {solution.describe}",
        ship=solution.target,
        clauses=["SG-HALE-01", "SG-HALE-08", "SG-CG-62"],
        sides=sides,
        needed=f"1d{sides} rockets hit",
        judge=lambda faces, _total: f"{faces[0]} hits",
    )
    shot = Shot(
        weapon_damage_value(HALE),
        weapon_penetration(HALE),
        incoming=solution.incoming,
        from_below=solution.altitude_difference > 0,
        source=f"{solution.firer} Hale battery {solution.battery}",
    )
    for _ in range(hits):
        result[solution.target] = _apply_hit(result[solution.target], shot, now=now, log=log, rules=rules)
    return result, log.happened


# --- drops: liquid fire, spikes, bombs, drogues as bombs ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class DropSolution:
    """Whether ``dropper`` may drop ``count`` of ``weapon`` on ``target`` below it now, and which items."""

    dropper: str
    target: str
    weapon: str
    allowed: bool
    clause: str = ""
    reason: str = ""
    items: tuple[str, ...] = ()
    levels: int = 0
    target_mp: int = 0


_DROP_CLAUSE = {LIQUID_FIRE: "SG-LF-06", SPIKES: "SG-CG-73", BOMB_RACK: "SG-CG-76", DROGUE: "SG-ERR-17"}


def drop_solution(
    dropper: ShipRecord,
    target: ShipRecord,
    weapon: str,
    *,
    count: int = 1,
    target_mp: int = 0,
    rules: CombatRules | None = None,
) -> DropSolution:
    """May ``dropper`` drop ``count`` racks (hoppers, drogues) of ``weapon`` on ``target`` now? The target is
    lower and in the dropper's hex (SG-LF-01, SG-CG-66); racks unused (SG-LF-06, SG-CG-70/73), bomb racks
    loaded; bombs only on a target that spent no movement points in its last move unless the errata let them
    fall on a moving one (SG-CG-75, SG-ERR-18/19); drogues only with the errata (SG-ERR-17).

    ``target_mp`` is the movement points the target most recently expended (the ruleset's count)."""
    rules = rules or CombatRules()

    def refuse(clause: str, reason: str) -> DropSolution:
        return DropSolution(dropper.name, target.name, weapon, False, clause, reason)

    if weapon not in DROPS:
        return refuse("SG-LF-01", f"{weapon} is not dropped; drops are {', '.join(DROPS)}")
    if weapon == DROGUE and not rules.errata:
        return refuse("SG-ERR-17", "drogues are dropped as bombs only under the errata")
    states = ("raised", "lowered") if weapon == DROGUE else ("loaded",)
    ready = dropper.items_of(weapon, states=states)
    if count < 1 or len(ready) < count:
        return refuse(_DROP_CLAUSE[weapon], f"{dropper.name} has {len(ready)} {weapon} ready, not {count}")
    if not dropper.afloat or not target.afloat:
        return refuse("SG-DMG-16", "a crashed ship neither drops nor is dropped on")
    if dropper.name == target.name:
        return refuse("SG-FIRE-04", "a ship drops on an enemy, not itself")
    if dropper.position is None or dropper.position != target.position:
        return refuse("SG-LF-01", f"{target.name} is not in {possessive(dropper.name)} hex")
    levels = _level(dropper) - _level(target)
    if levels <= 0:
        return refuse("SG-LF-01", f"{target.name} is not below {dropper.name}")
    if weapon == BOMB_RACK and target_mp > 0 and not rules.errata:
        return refuse("SG-CG-75", f"{target.name} is moving ({target_mp} MP): bombs fall only on stationary targets")
    return DropSolution(
        dropper.name,
        target.name,
        weapon,
        True,
        items=tuple(i.id for i in ready[:count]),
        levels=levels,
        target_mp=target_mp if weapon in (BOMB_RACK, DROGUE) and rules.errata else 0,
    )


def drop(
    ships: Mapping[str, ShipRecord],
    solution: DropSolution,
    *,
    exits_across: int | None,
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Drop on the target as the dropper leaves its hex across hexside ``exits_across`` (a direction 0-5), or
    where the dropper's move ends in it (None). One die per rack, less the levels between them:

    * liquid fire: +1 leaving across the target's bow hexside; the result is the level of fire started, 0 or
      less nothing (SG-LF-02..05, SG-CG-66..69); on a bombardment hex, that many points (SG-BOMB-03);
    * spikes: as liquid fire, the result crew killed (SG-CG-72, SG-ERR-21);
    * bombs: less the target's last movement points under the errata; the result is hits of Pen 1 / DV 2,
      each located as usual (SG-CG-76, SG-ERR-19/20);
    * a drogue: as a bomb, any result above 0 one hit at Pen 0 / DV 10 (SG-ERR-17).

    Each rack used is spent (a bomb rack is left empty). Raises FireRefused for a refused solution."""
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    rules = rules or CombatRules()
    log = _Log(roller)
    result = dict(ships)
    weapon = solution.weapon
    dropper = result[solution.dropper]
    spent = {LIQUID_FIRE: "dropped", SPIKES: "dropped", BOMB_RACK: "empty", DROGUE: "released"}[weapon]
    result[dropper.name] = dropper.with_items(
        *(evolve(dropper.item(i), state=spent, since=now.turn) for i in solution.items)
    )
    section = "liquid_fire" if weapon in (LIQUID_FIRE, SPIKES) else "bombs"
    mods = _drop_modifiers(solution, result[solution.target], exits_across, section)
    clauses = {
        LIQUID_FIRE: ["SG-LF-01", "SG-LF-02", "SG-LF-03", "SG-LF-04", "SG-CG-66", "SG-CG-67", "SG-CG-68"],
        SPIKES: ["SG-CG-72", "SG-ERR-21"],
        BOMB_RACK: ["SG-CG-76", "SG-ERR-19"],
        DROGUE: ["SG-ERR-17"],
    }[weapon]
    sides = oint(section, "die_sides")
    name = catalog.weapon(weapon).name
    for item_id in solution.items:
        faces = log.roll(
            f"{solution.dropper} drops {name} {item_id} on {solution.target}",
            ship=solution.target,
            clauses=clauses,
            sides=sides,
            modifiers=mods,
            needed="more than 0",
            judge=lambda _faces, total: f"{max(total, 0)}",
        )
        total = faces[0] + sum(mods.values())
        result[solution.target] = _dropped(
            result[solution.target], weapon, total, solution, now=now, log=log, rules=rules
        )
    return result, log.happened


def _drop_modifiers(
    solution: DropSolution, target: ShipRecord, exits_across: int | None, section: str
) -> dict[str, int]:
    """The drop die's modifiers: the levels between them, leaving across the target's bow for liquid fire and
    spikes, the target's movement points for bombs under the errata (SG-LF-03/04, SG-CG-67/68, SG-ERR-19)."""
    mods: dict[str, int] = {}
    mods[f"{solution.levels} levels below"] = solution.levels * oint(section, "per_level_of_difference")
    if solution.weapon in (LIQUID_FIRE, SPIKES) and exits_across is not None and exits_across == target.facing:
        mods["leaving across its bow"] = oint("liquid_fire", "leaving_across_target_bow")
    if solution.target_mp:
        mods[f"moving ({solution.target_mp} MP)"] = solution.target_mp * oint("bombs", "per_target_movement_point")
    return mods


def _dropped(
    target: ShipRecord, weapon: str, total: int, solution: DropSolution, *, now: Moment, log: _Log, rules: CombatRules
) -> ShipRecord:
    if not target.afloat:
        return target
    if total <= oint("liquid_fire", "no_effect_at_most"):
        clauses = ["SG-LF-05", "SG-CG-69"] if weapon in (LIQUID_FIRE, SPIKES) else ["SG-CG-76", "SG-ERR-19"]
        log.note(f"the drop on {target.name} has no effect", ship=target.name, clauses=clauses, outcome="no effect")
        return target
    source = f"{possessive(solution.dropper)} {catalog.weapon(weapon).name}"
    if weapon == LIQUID_FIRE:
        if target.emplacement in ("city", "fortress"):
            return _score_points(target, total, log, clauses=["SG-BOMB-03"])
        return _start_fire(target, total, log, clauses=["SG-LF-02", "SG-CG-69", *_battery_fire_clauses(target)])
    if weapon == SPIKES:
        if target.emplacement in ("city", "fortress"):
            log.note(
                f"spikes do no damage to {target.name}", ship=target.name, clauses=["SG-CG-72"], outcome="no points"
            )
            return target
        men = total
        if target.emplacement == "battery":  # its crew behind its armor (SG-GB-04), against Pen 0
            men = _armored(log, target, Shot(total, 0, source=source), target.armor, "battery crew")
        return _take_casualties(target, men, now=now, log=log, source=source)
    if weapon == DROGUE:
        return _apply_hit(
            target,
            Shot(weapon_damage_value(DROGUE), weapon_penetration(DROGUE), source=source),
            now=now,
            log=log,
            rules=rules,
        )
    shot = Shot(weapon_damage_value(BOMB_LOAD), weapon_penetration(BOMB_LOAD), source=source)
    for _ in range(total):
        target = _apply_hit(target, shot, now=now, log=log, rules=rules)
    return target


# --- Smutts dischargers and torpedoes ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Torpedo:
    """A Smutts torpedo in flight (SG-SMT-03): where it is, its heading and altitude, and how many of its
    runs (6 hexes each, 5 in all) it has made. The ruleset keeps these on its board."""

    id: str
    owner: str
    side: str
    hex: Hex
    facing: int
    altitude: str
    launched: int
    runs: int = 0

    KEYS = ("id", "owner", "side", "hex", "facing", "altitude", "launched", "runs")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "owner": self.owner,
            "side": self.side,
            "hex": self.hex.to_json(),
            "facing": self.facing,
            "altitude": self.altitude,
            "launched": self.launched,
            "runs": self.runs,
        }

    @classmethod
    def from_json(cls, data: Any) -> Torpedo:
        if not isinstance(data, Mapping) or set(data) != set(cls.KEYS):
            raise ValueError(f"a torpedo is an object with exactly {', '.join(cls.KEYS)}")
        ints = [data[k] for k in ("facing", "launched", "runs")]
        if any(type(v) is not int or v < 0 for v in ints) or data["facing"] > 5:
            raise ValueError("a torpedo's facing is 0-5 and its turns whole numbers")
        if data["altitude"] not in altitude_levels():
            raise ValueError(f"unknown altitude {data['altitude']!r}")
        return cls(
            id=str(data["id"]),
            owner=str(data["owner"]),
            side=str(data["side"]),
            hex=Hex.from_json(data["hex"]),
            facing=int(data["facing"]),
            altitude=str(data["altitude"]),
            launched=int(data["launched"]),
            runs=int(data["runs"]),
        )


def launch_problem(firer: ShipRecord, gun_id: str, *, now: Moment) -> tuple[str, str] | None:
    """Why the Smutts discharger ``gun_id`` may not launch now, as (clause, reason), or None: it must be a
    whole discharger with men at it, reloaded (ROF (1)), a torpedo aboard and the crew not stunned
    (SG-SMT-02/09, SG-CG-32, SG-FIRE-05)."""
    try:
        gun = firer.gun(gun_id)
    except KeyError as error:
        return "SG-SMT-02", str(error)
    if not is_discharger(gun):
        return "SG-SMT-02", f"gun {gun_id} ({gun.name}) is no Smutts discharger"
    if not firer.afloat or firer.position is None:
        return "SG-DMG-16", f"{firer.name} is not flying"
    if gun.destroyed:
        return "SG-SMT-10", "the discharger is destroyed"
    if gun.manned == 0:
        return "SG-CREW-10", "nobody is left at the discharger"
    if firer.stunned(now):
        return "SG-CRIT-37", "the crew is still stunned by the loss of trim"
    if gun.last_fired == now.turn:
        return "SG-SEQ-06", "the discharger has already launched this turn"
    if not gun.ready(now.turn):
        return "SG-FIRE-05", "the discharger is still reloading"
    if not firer.items_of(SMUTTS_TORPEDO, states=("stowed",)):
        return "SG-SMT-09", "no Smutts torpedo left aboard"
    return None


def launch_torpedo(firer: ShipRecord, gun_id: str, *, now: Moment) -> tuple[ShipRecord, Torpedo, list[Happening]]:
    """Launch a torpedo straight ahead from the firer's hex, at its altitude (SG-SMT-02/03, SG-CG-25/27): the
    discharger reloads, one torpedo leaves the deck. Its first run is :func:`run_torpedo`'s. Raises
    FireRefused when :func:`launch_problem` finds one."""
    problem = launch_problem(firer, gun_id, now=now)
    if problem is not None:
        raise FireRefused(*problem)
    item = firer.items_of(SMUTTS_TORPEDO, states=("stowed",))[0]
    firer = fire_gun_marked(firer, gun_id, now).with_items(evolve(item, state="launched", since=now.turn))
    assert firer.position is not None  # launch_problem checked
    torpedo = Torpedo(
        f"{firer.name}/{item.id}", firer.name, firer.side, firer.position, firer.facing, firer.altitude, now.turn
    )
    log = _Log(_no_dice)
    log.note(
        f"{firer.name} launches Smutts torpedo {item.id} dead ahead at {firer.altitude}",
        ship=firer.name,
        clauses=["SG-SMT-02", "SG-SMT-03", "SG-CG-25", "SG-CG-27"],
        outcome="launched",
    )
    return firer, torpedo, log.happened


def torpedo_path(torpedo: Torpedo, terrain: Terrain) -> tuple[list[Hex], str]:
    """The hexes of the torpedo's next run, 6 straight ahead (SG-SMT-03), and why it ends early: "" (it
    does not), "leaves the map" or "meets the land" (the hex of land as high as it flies is not entered)."""
    hexes: list[Hex] = []
    here = torpedo.hex
    level = altitude_level(torpedo.altitude)
    for _ in range(oint("smutts", "hexes_per_turn")):
        here = hexgrid.neighbour(here, torpedo.facing)
        if not terrain.on_map(here):
            return hexes, "leaves the map"
        if altitude_level(terrain.ground(here)) >= level:
            return hexes, "meets the land"
        hexes.append(here)
    return hexes, ""


def _threatened(ships: Mapping[str, ShipRecord], altitude: str, hex_: Hex) -> list[str]:
    """Vessels in the hex at the torpedo's altitude or one level lower (SG-SMT-04, SG-CG-28)."""
    level = altitude_level(altitude)
    low = level - oint("smutts", "levels_below_reached")
    return sorted(
        s.name for s in ships.values() if is_vessel(s) and s.afloat and s.position == hex_ and low <= _level(s) <= level
    )


def torpedo_threats(ships: Mapping[str, ShipRecord], torpedo: Torpedo, terrain: Terrain) -> list[str]:
    """The ships the torpedo's next run may strike, in the order it reaches them: the ships whose sides are
    asked whether they avoid before :func:`run_torpedo` (SG-SMT-05, SG-CG-28)."""
    found: list[str] = []
    for hex_ in torpedo_path(torpedo, terrain)[0]:
        found += [n for n in _threatened(ships, torpedo.altitude, hex_) if n not in found]
    return found


def may_avoid(record: ShipRecord, *, now: Moment) -> tuple[bool, str]:
    """Whether a ship may try to avoid a torpedo as it would a ram (SG-SMT-05): not stunned, not stopped by
    damage, no mines raised (SG-TM-04); with the clause that forbids it."""
    if record.stunned(now):
        return False, "SG-CRIT-37"
    if close_action.immobilized(record):
        return False, "SG-RAM-09"
    if not movement_limits(record).may_avoid:
        return False, "SG-TM-04"
    return True, "SG-SMT-05"


@dataclass(frozen=True, slots=True)
class TorpedoRun:
    """What one run of a torpedo did: the records, the torpedo still running (None once it went off, left
    the map or ran its course), the happenings, and the ships whose avoidance was used (they pay its MP)."""

    records: dict[str, ShipRecord]
    torpedo: Torpedo | None
    happened: list[Happening]
    avoided: tuple[str, ...] = ()
    struck: str | None = None


def run_torpedo(
    ships: Mapping[str, ShipRecord],
    torpedo: Torpedo,
    *,
    terrain: Terrain,
    avoiding: Mapping[str, int],
    now: Moment,
    roller: Roller,
    rules: CombatRules | None = None,
) -> TorpedoRun:
    """One run of 6 hexes (SG-SMT-03). In each hex entered the ships at its altitude or one level lower are
    tried in an order picked by die until one is struck (SG-SMT-04/06, SG-CG-29): 1d6 at most 4, plus the
    movement points of a ship in ``avoiding`` (and its crew quality, as for a ram), sure against a ship
    stopped by damage (SG-SMT-05, SG-CG-28). Where an avoiding ship shares hex and altitude with another
    threatened ship, the two make the collision check of a ship turning in a shared hex; colliding, they
    lose the avoidance (SG-SMT-07, SG-CG-30). A strike is a Pen 1 / DV 12 hit and a loss of trim against 12
    (SG-SMT-01/08, SG-CG-31). After its fifth run it goes off harmlessly (SG-SMT-03, SG-CG-27)."""
    rules = rules or CombatRules()
    log = _Log(roller)
    result = dict(ships)
    used: list[str] = []
    hexes, end = torpedo_path(torpedo, terrain)
    came_from = torpedo.hex
    for hex_ in hexes:
        threatened = _threatened(result, torpedo.altitude, hex_)
        lost = _evasion_collisions(result, threatened, avoiding, log, now=now, rules=rules)
        left = list(threatened)
        while left:
            name = log.pick(
                "which ship in the torpedo's hex is tried first", left, ship=left[0], clauses=["SG-SMT-06", "SG-CG-29"]
            )
            left.remove(name)
            victim = result[name]
            if not victim.afloat:
                continue
            mp = 0 if name in lost else avoiding.get(name, 0)
            if name in avoiding:
                used.append(name)
            if not _torpedo_finds(victim, torpedo, mp, log):
                continue
            result[name] = _torpedo_strike(result[name], torpedo, came_from, now=now, log=log, rules=rules)
            return TorpedoRun(result, None, log.happened, tuple(used), name)
        came_from = hex_
    return TorpedoRun(result, _torpedo_runs_on(torpedo, hexes, end, log), log.happened, tuple(used))


def _torpedo_finds(victim: ShipRecord, torpedo: Torpedo, mp: int, log: _Log) -> bool:
    """Does the torpedo strike this ship? Sure against one stopped by damage; else 1d6 at most 4 plus the
    avoiding ship's movement points and crew quality, as for a ram (SG-SMT-04/05, SG-CG-28)."""
    name = victim.name
    if close_action.immobilized(victim):
        log.note(f"{name} cannot get out of the way", ship=name, clauses=["SG-RAM-09", "SG-CG-28"], outcome="struck")
        return True
    at_most = close_action.cint("ram", "succeeds_at_most")
    mods: dict[str, int] = {}
    if mp:
        mods[f"{name} avoiding ({mp} MP)"] = mp
        quality = int(close_action.close_tables()["ram"]["crew_quality"][victim.crew_quality])
        if quality:
            mods[f"{victim.crew_quality} crew avoiding"] = quality
    total_mod = sum(mods.values())
    (face,) = log.roll(
        f"Smutts torpedo {torpedo.id} at {name}",
        ship=name,
        clauses=["SG-SMT-04", "SG-CG-28"] + (["SG-SMT-05"] if mp else []),
        modifiers=mods,
        needed=f"{at_most} or less",
        judge=_at_most(at_most - total_mod, "struck", "misses"),
    )
    return face + total_mod <= at_most


def _torpedo_runs_on(torpedo: Torpedo, hexes: Sequence[Hex], end: str, log: _Log) -> Torpedo | None:
    """The torpedo after a run that struck nothing: gone if it left the map or ended its path (``end``), gone
    off harmlessly after its last run (SG-SMT-03, SG-CG-27), else where it stopped, one run older."""
    if end:
        log.note(
            f"Smutts torpedo {torpedo.id} {end} and is gone", ship=torpedo.owner, clauses=["SG-SMT-03"], outcome=end
        )
        return None
    moved = evolve(torpedo, hex=hexes[-1] if hexes else torpedo.hex, runs=torpedo.runs + 1)
    if moved.runs >= oint("smutts", "turns_running"):
        log.note(
            f"Smutts torpedo {torpedo.id} has run its course and goes off harmlessly",
            ship=torpedo.owner,
            clauses=["SG-SMT-03", "SG-CG-27"],
            outcome="self-destructs",
        )
        return None
    return moved


def _torpedo_strike(
    victim: ShipRecord, torpedo: Torpedo, came_from: Hex, *, now: Moment, log: _Log, rules: CombatRules
) -> ShipRecord:
    assert victim.position is not None
    incoming = tuple(a.value for a in hexgrid.Aspect if a in hexgrid.aspects(victim.position, victim.facing, came_from))
    value = weapon_damage_value(SMUTTS_TORPEDO)
    log.note(
        f"Smutts torpedo {torpedo.id} strikes {victim.name} and detonates",
        ship=victim.name,
        clauses=["SG-SMT-01", "SG-SMT-08", "SG-CG-31"],
        outcome=f"damage value {value}",
    )
    shot = Shot(value, weapon_penetration(SMUTTS_TORPEDO), incoming=incoming, source=f"Smutts torpedo {torpedo.id}")
    victim = _apply_hit(victim, shot, now=now, log=log, rules=rules)
    if victim.afloat:
        victim = _lose_trim(victim, value, now=now, log=log, rules=rules, cause="Smutts torpedo")
    return victim


def _evasion_collisions(
    ships: dict[str, ShipRecord],
    threatened: Sequence[str],
    avoiding: Mapping[str, int],
    log: _Log,
    *,
    now: Moment,
    rules: CombatRules,
) -> set[str]:
    """SG-SMT-07 / SG-CG-30: two threatened ships sharing hex and altitude, one avoiding, check a collision
    as a ship turning in a shared hex (SG-COL-01/03); a collision does its damage (SG-COL-06/07) and may cost
    the smaller its trim (SG-COL-08), and both lose the avoidance. Returns the ships that collided."""
    lost: set[str] = set()
    on = tint("collision", "collides_on_at_most")
    for index, a in enumerate(threatened):
        for b in threatened[index + 1 :]:
            first, second = ships[a], ships[b]
            if first.altitude != second.altitude or not (a in avoiding or b in avoiding) or {a, b} & lost:
                continue
            mods = collision_modifiers(entered_from=None, other_facing=second.facing, turned_in_hex=True)
            total_mod = sum(mods.values())
            (face,) = log.roll(
                f"{a} and {b} dodge the torpedo in one hex: do they collide",
                ship=a,
                clauses=["SG-SMT-07", "SG-CG-30", "SG-COL-01", "SG-COL-03"],
                modifiers=mods,
                needed=f"{on} or less",
                judge=_at_most(on - total_mod, "collision", "clear"),
            )
            if face + total_mod > on:
                continue
            lost |= {a, b}
            for victim, other in ((a, b), (b, a)):
                ships[victim] = _collision_damage(ships[victim], ships[other].hull_size, log)
            x, y = ships[a], ships[b]
            difference = abs(x.hull_size - y.hull_size) // 2
            smaller = x if x.hull_size < y.hull_size else y
            if difference >= 1 and smaller.afloat:
                (trim,) = log.roll(
                    f"collision: does the smaller {smaller.name} lose trim",
                    ship=smaller.name,
                    clauses=["SG-COL-08"],
                    needed=f"{difference} or less",
                    judge=_at_most(difference, "loss of trim", "keeps trim"),
                )
                if trim <= difference:
                    ships[smaller.name] = _lose_trim(
                        smaller, difference, now=now, log=log, rules=rules, cause="collision"
                    )
    return lost


def _collision_damage(record: ShipRecord, other_hull: int, log: _Log) -> ShipRecord:
    """SG-COL-06/07: a hull hit on 1d6 at most the other's hull size; above 6, one sure and a roll for the rest."""
    if not record.afloat:
        return record
    big = tint("collision", "big_hull_over")
    sure = 1 if other_hull > big else 0
    against = other_hull - big if other_hull > big else other_hull
    (face,) = log.roll(
        f"collision damage to {record.name} (other hull size {other_hull})",
        ship=record.name,
        clauses=["SG-COL-06", "SG-COL-07"] if sure else ["SG-COL-06"],
        needed=f"{against} or less",
        judge=lambda faces, _total: "hull hit" if faces[0] <= against else "no damage",
    )
    hits = sure + (1 if face <= against else 0)
    return _mark_hull_hits(record, hits, log, clauses=("SG-COL-06",)) if hits else record


# --- the power grapnel ------------------------------------------------------------------------------------


def _refuse(firer: ShipRecord, gun_id: str, target: ShipRecord, clause: str, reason: str) -> FireSolution:
    return FireSolution(firer.name, gun_id, target.name, False, clause, reason)


def grapnel_solution(
    firer: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules | None = None,
    same_hex: tuple[str, str] | None = None,
) -> FireSolution:
    """May the power grapnel ``gun_id`` fire at ``target`` now? As a gun (SG-PG-01, SG-CG-20): its aspects,
    men at it (none of its own, SG-PG-03), its reload (2) (SG-PG-02), the altitude limit and range added for a
    higher target, range 0/1 (SG-PG-04, SG-CG-21); only vessels are grappled (SG-PG-05)."""
    rules = rules or CombatRules()
    gun = firer.gun(gun_id)
    refused = _grapnel_not_ready(firer, gun, target, now=now)
    if refused is not None:
        return refused
    aspects, incoming = sight_lines(firer, target, same_hex)
    if not set(aspects) & set(gun.arcs):
        return _refuse(firer, gun_id, target, "SG-FIRE-02", f"the target is in the {'/'.join(aspects)} aspect")
    if rules.restricted_arcs and not _restricted_arc_holds(gun, firer, target):
        return _refuse(firer, gun_id, target, "SG-ARC-01", f"the target is outside the {gun.mount} mount's arc")
    assert firer.position is not None
    assert target.position is not None
    distance = hexgrid.distance(firer.position, target.position)
    difference = _level(target) - _level(firer)
    refused = _altitude_limit(firer, gun_id, target, distance, difference)
    if refused is not None:
        return refused
    effective = _effective_range(distance, difference)
    band = range_band(gun, effective)
    if band is None:
        return _refuse(firer, gun_id, target, "SG-PG-04", f"range {effective}: the grapnel reaches 1 hex")
    return FireSolution(
        firer=firer.name,
        gun_id=gun_id,
        target=target.name,
        allowed=True,
        distance=distance,
        altitude_difference=difference,
        effective_range=effective,
        band=band,
        shots=1,
        needed=tint("to_hit", band),
        modifiers=to_hit_modifiers(firer, target),
        aspects=aspects,
        incoming=incoming,
        weapon=gun.weapon_id,
    )


def _grapnel_not_ready(firer: ShipRecord, gun: Gun, target: ShipRecord, *, now: Moment) -> FireSolution | None:
    """The refusals before aim and range, in the order the checks are made: no grapnel, a crashed ship, no
    vessel to grapple, the grapnel destroyed, unmanned, the crew stunned, already fired, reloading (SG-PG-01..07)."""
    gun_id = gun.id
    if not is_grapnel(gun):
        return _refuse(firer, gun_id, target, "SG-PG-01", f"gun {gun_id} ({gun.name}) is no power grapnel")
    if not firer.afloat or not target.afloat:
        return _refuse(firer, gun_id, target, "SG-DMG-16", "a crashed ship neither fires nor is fired at")
    if firer.name == target.name or not is_vessel(target):
        return _refuse(firer, gun_id, target, "SG-PG-05", "a grapnel grapples another vessel")
    if gun.destroyed:
        return _refuse(firer, gun_id, target, "SG-PG-07", "the grapnel is destroyed")
    if gun.manned == 0:
        return _refuse(firer, gun_id, target, "SG-PG-03", "nobody mans the grapnel: move deckhands or gunners to it")
    if firer.stunned(now):
        return _refuse(firer, gun_id, target, "SG-CRIT-37", "the crew is still stunned by the loss of trim")
    if gun.last_fired == now.turn:
        return _refuse(firer, gun_id, target, "SG-SEQ-06", "the grapnel has already fired this turn")
    if not gun.ready(now.turn):
        return _refuse(firer, gun_id, target, "SG-PG-02", "the grapnel is still being reloaded")
    return None


def fire_grapnel(
    ships: Mapping[str, ShipRecord], solution: FireSolution, *, now: Moment, roller: Roller
) -> tuple[dict[str, ShipRecord], list[Happening]]:
    """Fire the grapnel: on a hit the two vessels are grappled (SG-PG-05, SG-CG-21); at long range the
    smaller by hull size is pulled into the larger's hex and to its altitude, a die deciding between equals
    (SG-PG-06, SG-CG-22). A stray hit on a ship beside the target grapples that ship (SG-FIRE-11)."""
    if not solution.allowed:
        raise FireRefused(solution.clause, solution.reason)
    log = _Log(roller)
    result = dict(ships)
    firer = solution.firer
    result[firer] = fire_gun_marked(result[firer], solution.gun_id, now)
    if not result[solution.target].afloat:
        log.note(
            f"{solution.target} has already fallen", ship=solution.target, clauses=["SG-DMG-16"], outcome="no shot"
        )
        return result, log.happened
    hits, _faces = _roll_to_hit(log, result, solution)
    for name in hits[:1]:
        a, b = result[firer], result[name]
        result[firer] = evolve(a, grappled_with=(*a.grappled_with, name)) if name not in a.grappled_with else a
        result[name] = evolve(b, grappled_with=(*b.grappled_with, firer)) if firer not in b.grappled_with else b
        log.note(
            f"{possessive(firer)} grapnel takes hold of {name}",
            ship=name,
            clauses=["SG-PG-05", "SG-CG-21"],
            outcome="grappled",
        )
        if solution.band != "long":
            continue
        a, b = result[firer], result[name]
        if a.hull_size == b.hull_size:
            pulled = log.pick(
                f"{firer} and {name} are the same size: which is hauled in",
                [firer, name],
                ship=name,
                clauses=["SG-PG-06"],
            )
        else:
            pulled = firer if a.hull_size < b.hull_size else name
        anchor = result[name if pulled == firer else firer]
        result[pulled] = evolve(result[pulled], position=anchor.position, altitude=anchor.altitude)
        log.note(
            f"{pulled} is hauled alongside {anchor.name}",
            ship=pulled,
            clauses=["SG-PG-06", "SG-CG-22"],
            outcome=f"moved to {possessive(anchor.name)} hex at {anchor.altitude}",
        )
    return result, log.happened


# --- ground targets: bombardment hexes and ground batteries --------------------------------------------


def _emplacement(
    name: str,
    kind: str,
    *,
    position: Hex,
    boxes: int,
    guns: tuple[Gun, ...],
    crew: Crew,
    armor: int,
    side: str,
    altitude: str | None,
    crew_quality: str,
) -> ShipRecord:
    maneuver_kind = str(table("ship_record", "maneuver_kinds")["steam"])
    return ShipRecord(
        name=name,
        class_id=None,
        class_name=kind,
        nation="",
        side=side,
        propulsion="steam",
        hull_material="steel",
        hull_size=1,
        engine_size=None,
        ram=False,
        armor=armor,
        speed=0,
        crew_quality=crew_quality,
        hull_rows=(HullRow(surface(), boxes),),
        guns=guns,
        crew=evolve(crew, maneuver_kind=maneuver_kind),
        casualty_order=tstrs("casualty_order", "default"),
        fire=0,
        criticals=Criticals(),
        altitude=altitude or surface(),
        facing=0,
        position=position,
        status="landed",
        emplacement=kind,
    )


def _no_crew() -> Crew:
    return Crew(0, 0, 0, 0, 0, 0, 0, 0, 0, "", (0,))


def ground_target(
    name: str, *, kind: str, position: Hex, points: int, side: str = "", altitude: str | None = None
) -> ShipRecord:
    """A city or fortress hex to bombard: its one row holds the ``points`` of damage the scenario asks for
    (SG-BOMB-01); each point scored checks a box, and with all checked it is destroyed."""
    if kind not in ("city", "fortress") or points < 1:
        raise ValueError("a bombardment target is a 'city' or 'fortress' hex needing at least 1 damage point")
    return _emplacement(
        name,
        kind,
        position=position,
        boxes=points,
        guns=(),
        crew=_no_crew(),
        armor=0,
        side=side,
        altitude=altitude,
        crew_quality="trained",
    )


def ground_battery(
    name: str,
    *,
    guns: Sequence[str],
    armor: int,
    position: Hex,
    side: str = "",
    altitude: str | None = None,
    crew_quality: str = "trained",
) -> ShipRecord:
    """A ground battery: its guns (weapon ids) all round with full crews, both behind its ``armor`` (SG-GB-04),
    and an officer commanding. It never moves; its one hull row takes nothing (SG-GB-03)."""
    built = tuple(
        Gun(
            id=str(number),
            weapon_id=catalog.weapon(weapon).id,
            mount="battery",
            arcs=design.ASPECTS,
            crew=catalog.weapon(weapon).crew,
            manned=catalog.weapon(weapon).crew,
            armor=armor or None,
        )
        for number, weapon in enumerate(guns, start=1)
    )
    crew = evolve(_no_crew(), captain=1)
    return _emplacement(
        name,
        "battery",
        position=position,
        boxes=1,
        guns=built,
        crew=crew,
        armor=armor,
        side=side,
        altitude=altitude,
        crew_quality=crew_quality,
    )


def in_action(battery: ShipRecord) -> bool:
    """A ground battery fires while not destroyed and not burning (SG-GB-06/07)."""
    return battery.afloat and battery.fire == 0


def battery_fire_solution(
    battery: ShipRecord,
    gun_id: str,
    target: ShipRecord,
    *,
    now: Moment,
    rules: CombatRules | None = None,
    ammunition: str = "shell",
    rate: str = "normal",
) -> FireSolution:
    """A ground battery's fire: out of action while burning (SG-GB-07); mounted for high-angle fire, so a
    higher target may be engaged whatever the levels between (SG-GB-01/02), the range still growing a hex a
    level; otherwise as combat.fire_solution."""
    rules = rules or CombatRules()
    if battery.emplacement != "battery":
        raise ValueError(f"{battery.name} is no ground battery")
    if battery.fire > 0:
        return _refuse(battery, gun_id, target, "SG-GB-07", "the battery is on fire and out of action")
    solution = fire_solution(battery, gun_id, target, now=now, rules=rules, ammunition=ammunition, rate=rate)
    difference = _level(target) - _level(battery)
    if solution.allowed or solution.clause != "SG-FIRE-13" or difference <= 0:
        return solution
    gun = battery.gun(gun_id)
    assert battery.position is not None
    assert target.position is not None
    distance = hexgrid.distance(battery.position, target.position)
    effective = _effective_range(distance, difference)
    band = range_band(gun, effective)
    if band is None:
        return _refuse(battery, gun_id, target, "SG-GB-02", f"range {effective} (with the height) is beyond the gun")
    if ammunition != "shell" and band not in table("shrapnel_and_grape", "ammunition", ammunition, "bands"):
        return _refuse(battery, gun_id, target, "SG-SHR-01", f"{ammunition} may not be fired at {band} range")
    aspects, incoming = sight_lines(battery, target)
    modifiers = to_hit_modifiers(battery, target)
    if ammunition != "shell":
        modifiers[ammunition] = tint("shrapnel_and_grape", "to_hit_modifier")
    rate_now = gun.rate
    assert rate_now is not None  # fire_solution refused anything without a rate before the altitude limit
    shots = _max_shots(gun) if rate == "max" else None
    return FireSolution(
        firer=battery.name,
        gun_id=gun_id,
        target=target.name,
        allowed=True,
        distance=distance,
        altitude_difference=difference,
        effective_range=effective,
        band=band,
        shots=shots or rate_now.shots,
        needed=tint("to_hit", band),
        modifiers=modifiers,
        penetration=penetration_at(gun, band, rules),
        damage_value=gun.damage_value or 0,
        aspects=aspects,
        incoming=incoming,
        weapon=gun.weapon_id,
        ammunition=ammunition,
        rate=rate,
    )


def _battery_fire_clauses(target: ShipRecord) -> list[str]:
    return ["SG-GB-07"] if target.emplacement == "battery" else []


def emplacement_turn(record: ShipRecord) -> tuple[ShipRecord, list[Happening]]:
    """Start of a turn for a ground battery, instead of combat.begin_turn: its fire falls a level instead of
    growing; out, the battery is back in action (SG-GB-07)."""
    log = _Log(_no_dice)
    if record.emplacement is None:
        raise ValueError(f"{record.name} is a vessel: use combat.begin_turn")
    if record.fire > 0 and record.afloat:
        level = max(record.fire - oint("ground", "battery_fire_falls_per_turn"), 0)
        record = evolve(record, fire=level)
        log.note(
            f"the fire at {record.name} dies down",
            ship=record.name,
            clauses=["SG-GB-07"],
            outcome=f"fire {level}" if level else "out: back in action",
        )
    return record, log.happened


def bombardment_points(record: ShipRecord) -> tuple[int, int]:
    """(points scored, points the scenario asks for) on a bombardment hex (SG-BOMB-01)."""
    return record.hull_hits, record.hull_boxes


# --- fitting ----------------------------------------------------------------------------------------------


def fitting_problems(record: ShipRecord) -> list[str]:
    """What a record's exotic fit breaks, for the ruleset's set-up checks: a Smutts discharger only on a
    steam-powered ship (SG-SMT-02, SG-CG-25; British yards only is the design rater's SGD-ARMT-15), and no
    torpedoes without one."""
    problems: list[str] = []
    dischargers = [g for g in record.guns if is_discharger(g)]
    if dischargers and not record.is_steam:
        problems.append(f"{record.name}: a Smutts discharger is fitted only to steam-powered ships (SG-SMT-02)")
    if record.items_of(SMUTTS_TORPEDO) and not dischargers:
        problems.append(f"{record.name} carries Smutts torpedoes and no discharger to launch them (SG-SMT-09)")
    return problems
