"""The Agility rules for Sky Galleons (agility-rules.txt, AG-*): an option set layered on the basic rules.

Pure functions over ship records and fire solutions, with the numbers in ``data/agility.json`` (each entry
names its clauses and the reading chosen where the text is silent or garbled). What each rule gives back:

* Agility against traverse (AG-AGI, AG-TRV): :func:`agility_rating` from speed and hull size,
  :func:`traverse` per weapon (designed stand-ins for the lost Updated Gun List), :func:`agility_modifier`
  the -1/+1 for the to-hit roll. The speed is the record's ``agility_speed`` (hexes moved in the ship's
  latest move), written by :func:`after_move`.
* Raking fire (AG-RAKE): :func:`is_raking`, -1 to hit, and a second hit when the first goes through.
* Extreme range (AG-EXT): :func:`extreme_range_of`, the two-roll procedure and the scatter table
  (:func:`scatter_distance`, :func:`extreme_range_hits`).
* Long range penetration (AG-LRP): :func:`single_penetration`, :func:`armor_doubled`,
  :func:`long_range_armor`.
* Endurance and coal bunker hits (AG-END): the track on the record (:func:`with_endurance`,
  :func:`travel`, :func:`endurance_left`) and :func:`coal_bunker_check`.
* Ramming speed (AG-RSP): :func:`ramming_speed_hits`, the same shape as ``close_action.ram_hits``.
* Heated shot (AG-HEAT): :func:`check_heated_shot`, :func:`heated_shot_hit` and the fortress furnace
  (:class:`Furnace`, :func:`stoke`, :func:`heated_shot_ready`).

The fire rules reach combat as an object: :class:`AgilityFireModel` subclasses combat's ``FireModel`` (the
basic procedure's changeable steps) and overrides only the steps they change, each rule a switch on it, all
off by default: ``agility`` (and ``gm_ratings`` for the GM's ratings above +3), ``raking_fire``,
``extreme_range``, ``long_range_penetration`` and ``coal_bunker_hits``. :func:`fire_model` chooses the model
once from the battle's options; the ruleset hands it to combat as ``CombatRules.model``. This module builds on
combat, never the reverse. Ramming speed, heated shot and the endurance track are for the ruleset and the
campaign to call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from battles.engine import hexgrid
from battles.engine.jsonread import DataFile
from battles.engine.words import possessive
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FireModel,
    FireRefused,
    FireSolution,
    Happening,
    Roller,
    Shot,
    _apply_hit,
    _Log,
)
from battles.rules.sky_galleons.datafiles import DATA_DIR
from battles.rules.sky_galleons.movement import Step
from galleons import catalog, design
from galleons.record import Gun, Moment, ShipRecord, altitude_level, fire_rate, table

AGILITY_FILE = DATA_DIR / "agility.json"


AGILITY_TABLES = DataFile(AGILITY_FILE)


def agility_tables() -> Mapping[str, Any]:
    """agility.json, parsed once. Read-only by convention."""
    return AGILITY_TABLES.data


atable = AGILITY_TABLES.get
aint = AGILITY_TABLES.whole
aints = AGILITY_TABLES.wholes
astrs = AGILITY_TABLES.texts


# The band of a shot beyond long range, within the gun's extreme range (AG-EXT-03).
EXTREME: str = str(atable("extreme_range", "band"))
# The band extreme range shots are rolled as (AG-EXT-04) and count as for every other purpose.
ROLLED_AS: str = str(atable("extreme_range", "rolls_as_band"))


def _shell() -> str:
    return str(table("shrapnel_and_grape", "default_ammunition"))


def _long(band: str | None) -> bool:
    """Long range for the agility rules: long or extreme (AG-TRV-03, AG-END-06, AG-LRP-02 readings)."""
    return band in (ROLLED_AS, EXTREME)


# --- agility rating (AG-AGI) ---------------------------------------------------------------------------


def agility_rating(speed: int, size: int, *, extended: bool = False) -> int:
    """A ship's agility from its speed and size rating (hull size): +1..+3 for speed above 1x/2x/3x the
    size, -1..-3 for size above 6x/12x/24x the speed, else 0; stopped, the rating for speed 1 less 1
    (AG-AGI-02..05, AG-AGI-11..14). ``extended``: the GM's +4..+6 (AG-AGI-06..09)."""
    if size < 1:
        raise ValueError(f"a size rating is 1 or more, not {size}")
    if speed <= 0:
        stopped = agility_rating(aint("agility", "stationary_counts_as_speed"), size, extended=extended)
        return stopped + aint("agility", "stationary_adjustment")
    steps = aints("agility", "positive_speed_above_size_times")
    if extended:
        steps += aints("agility", "gm_extension_speed_above_size_times")
    positive = sum(1 for times in steps if speed > times * size)
    if positive:
        return aint("agility", "base") + positive
    negative = sum(1 for times in aints("agility", "negative_size_above_speed_times") if size > times * speed)
    return aint("agility", "base") - negative


def agility_speed(record: ShipRecord) -> int:
    """The speed the rating is figured from (AG-AGI-01): hexes moved in the latest move; a landed ship 0;
    before its first move, its allowance as things stand (a kite on the expected die)."""
    if record.status == "landed":
        return 0
    if record.agility_speed is not None:
        return record.agility_speed
    if record.is_kite:
        return record.effective_speed(aint("agility", "kite_die_before_moving"))
    return record.effective_speed()


def ship_agility(record: ShipRecord, *, extended: bool = False) -> int:
    """The record's agility rating now (AG-AGI-01, AG-AGI-15: the size rating is the hull size)."""
    return agility_rating(agility_speed(record), record.hull_size, extended=extended)


def hexes_moved(steps: Sequence[Step]) -> int:
    """Hexes entered in a traced move: the speed for the agility rating (the reading in agility.json)."""
    return sum(1 for step in steps if step.enters_hex)


def after_move(record: ShipRecord, hexes: int) -> ShipRecord:
    """The record after its move of ``hexes`` hexes: its agility speed from now on (AG-AGI-01)."""
    if hexes < 0:
        raise ValueError(f"a ship moves 0 or more hexes, not {hexes}")
    return replace(record, agility_speed=hexes)


# --- traverse (AG-TRV) ---------------------------------------------------------------------------------


def derived_traverse(weapon_id: str) -> int:
    """The stand-in rule for a traverse rating: the weapon's weight band, +1 for a rapid-fire gun (AG-TRV-02;
    the derivation in agility.json)."""
    weapon = catalog.weapon(weapon_id)
    rule: Mapping[str, Any] = atable("traverse", "derivation")
    value = int(rule["heavier"])
    for most, band in rule["weight_bands_tons_at_most"]:
        if weapon.weight_tons <= most:
            value = int(band)
            break
    rate = fire_rate(weapon)
    if rate is not None and rate.reload_turns == 0 and rate.shots >= int(rule["rapid_fire_shots_at_least"]):
        value += int(rule["rapid_fire_bonus"])
    return value


def traverse(weapon_id: str, band: str | None = None) -> int:
    """A weapon's traverse (the stand-in list, else the stand-in rule), 1 higher at long or extreme range
    (AG-TRV-02/03)."""
    listed: Mapping[str, int] = atable("traverse", "weapons")
    weapon_id = catalog.weapon(weapon_id).id
    value = listed[weapon_id] if weapon_id in listed else derived_traverse(weapon_id)
    return value + (aint("traverse", "long_range_bonus") if _long(band) else 0)


def agility_modifier(agility: int, weapon_traverse: int) -> int:
    """The to-hit modifier: -1 against positive agility above the traverse, +1 against negative agility
    below it, else 0; never more than 1 either way (AG-TRV-04..09)."""
    if agility > 0 and weapon_traverse < agility:
        return aint("traverse", "penalty_against_positive_agility")
    if agility < 0 and weapon_traverse > agility:
        return aint("traverse", "bonus_against_negative_agility")
    return 0


# --- raking fire (AG-RAKE) -----------------------------------------------------------------------------


def is_raking(solution: FireSolution) -> bool:
    """The firer is in the target's bow or stern aspect, wholly (AG-RAKE-01; boundaries in agility.json).
    Only gun shots that roll a hit location rake: not small arms, not a lob gun."""
    if not solution.allowed or solution.small_arms or solution.lob_gun or not solution.incoming:
        return False
    return set(solution.incoming) <= set(astrs("raking_fire", "aspects"))


def _went_through(happened: Sequence[Happening], ship: str) -> bool:
    """The hit met no armor it failed to penetrate and had an effect for its ammunition (AG-RAKE-04/05):
    ``combat`` logs every reduction by armor (SG-ARM-03) and every ammunition no-effect (SG-SHR-03)."""
    for happening in happened:
        if happening["ship"] == ship and {"SG-ARM-03", "SG-SHR-03"} & set(happening["clauses"]):
            return False
    return True


# --- long range penetration (AG-LRP) -------------------------------------------------------------------


def single_penetration(gun: Gun) -> int:
    """The gun's one penetration rating at every range: its close figure, else its long one (AG-LRP-01)."""
    pen = gun.weapon.penetration
    if pen is None:
        return 0
    value = pen.close if pen.close is not None else pen.long
    return value or 0


def armor_doubled(band: str | None, shooter: ShipRecord, victim: ShipRecord) -> bool:
    """Armor counts double at long (and extreme) range, unless the ship hit is lower than the firer
    (AG-LRP-02/04)."""
    return _long(band) and altitude_level(victim.altitude) >= altitude_level(shooter.altitude)


def long_range_armor(armor: int) -> int:
    """An armor value doubled for a long range shot; 0 counts as half of 1, so it doubles to 1 (AG-LRP-02/03)."""
    if armor <= 0:
        return aint("long_range_penetration", "zero_armor_doubled")
    return armor * aint("long_range_penetration", "armor_multiplier")


# --- extreme range (AG-EXT) ----------------------------------------------------------------------------


def extreme_range_of(weapon_id: str) -> int | None:
    """The weapon's extreme range in hexes (the designed stand-in list), None without one (AG-EXT-01)."""
    listed: Mapping[str, int] = atable("extreme_range", "weapons")
    found = listed.get(catalog.weapon(weapon_id).id)
    return None if found is None else int(found)


def within_extreme_range(gun: Gun, effective_range: int) -> bool:
    """Beyond the gun's long range and no more than its extreme range (AG-EXT-03)."""
    extreme = extreme_range_of(gun.weapon_id)
    ranges = gun.weapon.range_hexes
    if extreme is None or ranges is None or ranges.long is None:
        return False
    return ranges.long < effective_range <= extreme


def mean_damage_per_turn(weapon_id: str) -> Fraction:
    """Damage value x shots a turn, spread over the turns of reloading: what the extreme range rule offsets
    (AG-EXT-02). 0 for a weapon with no damage value or no rate of fire."""
    weapon = catalog.weapon(weapon_id)
    rate = fire_rate(weapon)
    if rate is None or not isinstance(weapon.damage_value, int):
        return Fraction(0)
    return Fraction(weapon.damage_value * rate.shots, 1 + rate.reload_turns)


def scatter_distance(face: int, crew_quality: str) -> int:
    """The Distance Table: hexes from the target's hex for 1d6 moved by Crack +1 / Green -1, a modified roll
    off the table reading as its nearest row (AG-EXT-07..14)."""
    rows: Mapping[str, int] = atable("extreme_range", "distance_table")
    modified = face + aint("extreme_range", "crew_modifiers", crew_quality)
    lowest, highest = min(int(key) for key in rows), max(int(key) for key in rows)
    return int(rows[str(min(max(modified, lowest), highest))])


def _farthest_scatter() -> int:
    return max(int(value) for value in atable("extreme_range", "distance_table").values())


def _at_altitude(ships: Mapping[str, ShipRecord], hex_: hexgrid.Hex, altitude: str, exclude: set[str]) -> list[str]:
    return [
        ship.name
        for ship in ships.values()
        if ship.name not in exclude and ship.afloat and ship.position == hex_ and ship.altitude == altitude
    ]


def _roll_against(log: _Log, solution: FireSolution, ship: str, purpose: str, clauses: Sequence[str]) -> bool:
    modifier = sum(solution.modifiers.values())
    (face,) = log.roll(
        purpose,
        ship=ship,
        clauses=clauses,
        modifiers=solution.modifiers,
        needed=f"{solution.needed}+",
        judge=lambda faces, _total: "hit" if faces[0] + modifier >= solution.needed else "miss",
    )
    return face + modifier >= solution.needed


def _first_hit_among(log: _Log, solution: FireSolution, candidates: list[str], where: str) -> str | None:
    """Ships taken in random order, one pick at a time, each rolled against until one is hit (AG-EXT-06/16)."""
    left = list(candidates)
    while left:
        ship = log.pick(
            f"which ship {where} the shell is rolled against next", left, ship=solution.target, clauses=["AG-EXT-06"]
        )
        if _roll_against(log, solution, ship, f"extreme range shell {where}: does it hit {ship}", ["AG-EXT-06"]):
            return ship
        left.remove(ship)
    return None


def _landing_hex(log: _Log, target: ShipRecord, distance: int) -> hexgrid.Hex:
    """A hex of the ring ``distance`` around the target's: a d6 for the side, a die for the hex along it
    (AG-EXT-15)."""
    centre = target.position
    if centre is None:
        raise ValueError(f"{target.name} is not on the map")
    ring = hexgrid.ring(centre, distance)
    sides = len(ring) // distance
    (side,) = log.roll(
        f"which side of the {distance}-hex ring round {target.name} the shell falls on",
        ship=target.name,
        clauses=["AG-EXT-15"],
        sides=sides,
        needed=f"1-{sides}",
        judge=lambda faces, _total: f"side {faces[0]}",
    )
    along = 1
    if distance > 1:
        (along,) = log.roll(
            "which hex along that side the shell falls in",
            ship=target.name,
            clauses=["AG-EXT-15"],
            sides=distance,
            needed=f"1-{distance}",
            judge=lambda faces, _total: f"hex {faces[0]}",
        )
    return ring[(side - 1) * distance + along - 1]


def _extreme_shot(log: _Log, ships: Mapping[str, ShipRecord], solution: FireSolution) -> tuple[str | None, int]:
    """One shell at extreme range: the ship it hits (or None) and the face of its first roll (AG-EXT-04..17)."""
    target = ships[solution.target]
    shooter = ships[solution.firer]
    modifier = sum(solution.modifiers.values())
    (first,) = log.roll(
        f"extreme range: does the shell land in {possessive(target.name)} hex ({solution.describe})",
        ship=target.name,
        clauses=[*solution.clauses],
        modifiers=solution.modifiers,
        needed=f"{solution.needed}+",
        judge=lambda faces, _total: "in the hex" if faces[0] + modifier >= solution.needed else "off",
    )
    if target.position is None:
        raise ValueError(f"{target.name} is not on the map")
    if first + modifier >= solution.needed:
        if _roll_against(log, solution, target.name, f"extreme range: does the shell hit {target.name}", ["AG-EXT-05"]):
            return target.name, first
        mates = _at_altitude(ships, target.position, target.altitude, {target.name, shooter.name})
        return _first_hit_among(log, solution, mates, f"in {possessive(target.name)} hex"), first
    within = {
        ship.name
        for ship in ships.values()
        if ship.name not in (target.name, shooter.name)
        and ship.afloat
        and ship.altitude == target.altitude
        and ship.position is not None
        and hexgrid.distance(ship.position, target.position) <= _farthest_scatter()
    }
    if not within:
        log.note(
            f"the shell misses {possessive(target.name)} hex and no other ship is near enough to be hit",
            ship=target.name,
            clauses=["AG-EXT-17"],
            outcome="miss",
        )
        return None, first
    quality = shooter.crew_quality
    crew = aint("extreme_range", "crew_modifiers", quality)
    (face,) = log.roll(
        f"extreme range: how far from {possessive(target.name)} hex the shell falls",
        ship=target.name,
        clauses=["AG-EXT-07", "AG-EXT-14"],
        modifiers={f"{quality} crew": crew} if crew else {},
        needed="table",
        judge=lambda faces, _total: f"{scatter_distance(faces[0], quality)} hexes",
    )
    distance = scatter_distance(face, quality)
    landing = _landing_hex(log, target, distance)
    log.note(
        f"the shell falls {distance} hexes from {target.name}, in hex {landing.q},{landing.r}",
        ship=target.name,
        clauses=["AG-EXT-15"],
        outcome=f"{landing.q},{landing.r}",
    )
    there = _at_altitude(ships, landing, target.altitude, {shooter.name})
    return _first_hit_among(log, solution, there, f"in hex {landing.q},{landing.r}"), first


def extreme_range_hits(
    log: _Log, ships: Mapping[str, ShipRecord], solution: FireSolution
) -> tuple[list[str], tuple[int, ...]]:
    """The ships hit by a gun firing at extreme range, shot by shot, and the faces of the first rolls (for
    ``combat``'s jam check): the shell lands in the target's hex or scatters, then hits the target or a ship
    where it falls (AG-EXT-04..17)."""
    hits: list[str] = []
    faces: list[int] = []
    for _ in range(solution.shots):
        hit, face = _extreme_shot(log, ships, solution)
        faces.append(face)
        if hit is not None:
            hits.append(hit)
    return hits, tuple(faces)


# --- the Agility fire model (combat's FireModel, overridden where the rules differ) ---------------------


def _refuse(solution: FireSolution, clause: str, reason: str) -> FireSolution:
    return FireSolution(solution.firer, solution.gun_id, solution.target, False, clause, reason)


@dataclass(frozen=True)
class AgilityFireModel(FireModel):
    """The basic fire procedure with the Agility fire rules in play, each optional on its own: agility
    against traverse (``gm_ratings``: the GM's ratings above +3), raking fire, extreme range, long range
    penetration, coal bunker hits (AG-AGI, AG-TRV, AG-RAKE, AG-EXT, AG-LRP, AG-END). It overrides the
    steps they change: firing past long range, the solution, the to-hit roll of an extreme range shell, and
    each hit. :func:`fire_model` chooses it from the battle's options."""

    agility: bool = False
    gm_ratings: bool = False
    raking_fire: bool = False
    extreme_range: bool = False
    long_range_penetration: bool = False
    coal_bunker_hits: bool = False

    @property
    def in_play(self) -> bool:
        """Does any of its rules change fire? (The GM's ratings alone change nothing without agility.)"""
        return any(
            (self.agility, self.raking_fire, self.extreme_range, self.long_range_penetration, self.coal_bunker_hits)
        )

    def beyond_long_range(self, gun: Gun, effective_range: int) -> bool:
        """Within the gun's extreme range, under the optional rule (AG-EXT-03)."""
        return self.extreme_range and within_extreme_range(gun, effective_range)

    def adjust_solution(
        self, solution: FireSolution, target: ShipRecord, gun: Gun, *, beyond_long: bool
    ) -> FireSolution:
        """The extreme band (rolled as long range), the agility-against-traverse and raking to-hit modifiers,
        the single penetration rating (AG-EXT-03/04, AG-TRV-01..09, AG-RAKE-01/02, AG-LRP-01)."""
        if not solution.allowed or not (self.agility or self.raking_fire or self.long_range_penetration or beyond_long):
            return solution
        modifiers = dict(solution.modifiers)
        clauses = list(solution.extra_clauses)
        changes: dict[str, Any] = {}
        if beyond_long:
            if solution.ammunition != _shell():
                return _refuse(
                    solution, "AG-EXT-03", f"only shell is fired at extreme range, not {solution.ammunition}"
                )
            changes["band"] = EXTREME
            clauses += ["AG-EXT-03", "AG-EXT-04"]
        band = changes.get("band", solution.band)
        # A lob gun hits on a natural 6 whatever the modifiers (SG-LOB-02).
        if self.agility and not solution.lob_gun:
            clauses += self._traverse_modifier(modifiers, target, gun, band)
        if self.raking_fire and is_raking(solution):
            modifiers["raking fire"] = aint("raking_fire", "to_hit")
            clauses += ["AG-RAKE-01", "AG-RAKE-02"]
        if self.long_range_penetration and not solution.small_arms:
            changes["penetration"] = single_penetration(gun)
            clauses.append("AG-LRP-01")
        return replace(solution, modifiers=modifiers, extra_clauses=tuple(clauses), **changes)

    def _traverse_modifier(
        self, modifiers: dict[str, int], target: ShipRecord, gun: Gun, band: str | None
    ) -> list[str]:
        """Add the target's agility against the gun's traverse to ``modifiers``; the clauses (AG-TRV-03..05)."""
        rating = ship_agility(target, extended=self.gm_ratings)
        weapon_traverse = traverse(gun.weapon_id, band)
        modifier = agility_modifier(rating, weapon_traverse)
        if not modifier:
            return []
        modifiers[f"agility {rating:+d} vs traverse {weapon_traverse:+d}"] = modifier
        return ["AG-TRV-04" if modifier < 0 else "AG-TRV-05"] + (["AG-TRV-03"] if _long(band) else [])

    def roll_to_hit(
        self,
        log: _Log,
        ships: Mapping[str, ShipRecord],
        solution: FireSolution,
        aimed: Mapping[str, ShipRecord] | None,
    ) -> tuple[list[str], tuple[int, ...]]:
        """An extreme range shell lands or scatters first (AG-EXT-04..17); any other shot as the basic rules."""
        if solution.band == EXTREME:
            return extreme_range_hits(log, ships, solution)
        return super().roll_to_hit(log, ships, solution, aimed)

    def resolve_hit(
        self,
        victim: ShipRecord,
        shot: Shot,
        solution: FireSolution,
        shooter: ShipRecord,
        *,
        now: Moment,
        log: _Log,
        rules: CombatRules,
        stood: ShipRecord,
    ) -> ShipRecord:
        """Armor doubled at long range (AG-LRP-02..04), the raking shot's second hit when the first goes
        through (AG-RAKE-03..05), the coal bunker check after each hull hit (AG-END-03..10); the hit itself
        is the basic rules'."""
        if not (self.raking_fire or self.long_range_penetration or self.coal_bunker_hits):
            return super().resolve_hit(victim, shot, solution, shooter, now=now, log=log, rules=rules, stood=stood)
        if self.long_range_penetration and armor_doubled(solution.band, shooter, stood):
            shot = replace(shot, armor_counted=long_range_armor)
        record, happened = self._one_hit(victim, shot, solution, now=now, log=log, rules=rules)
        if not (self.raking_fire and victim.name == solution.target and is_raking(solution)) or not record.afloat:
            return record
        if not _went_through(happened, record.name):
            log.note(
                f"raking fire: armor stops the shot in {record.name}, no second hit",
                ship=record.name,
                clauses=["AG-RAKE-05"],
                outcome="no second hit",
            )
            return record
        for _ in range(aint("raking_fire", "extra_hits")):
            log.note(
                f"raking fire: the shot carries on through {record.name}, a second hit",
                ship=record.name,
                clauses=["AG-RAKE-03", "AG-RAKE-04"],
                outcome="second hit",
            )
            record, _happened = self._one_hit(record, shot, solution, now=now, log=log, rules=rules)
        return record

    def _one_hit(
        self, victim: ShipRecord, shot: Shot, solution: FireSolution, *, now: Moment, log: _Log, rules: CombatRules
    ) -> tuple[ShipRecord, list[Happening]]:
        """The basic rules' hit, then the coal bunker check; the record and what the hit itself logged."""
        mark = len(log.happened)
        record = _apply_hit(victim, shot, now=now, log=log, rules=rules)
        happened = log.happened[mark:]
        if self.coal_bunker_hits:
            record = _coal_bunker(record, happened, solution, shot, log)
        return record, happened


def fire_model(options: Mapping[str, object]) -> FireModel:
    """The battle's fire model, chosen once from its options: the Agility model while any of its fire rules
    is on, else the basic rules' (the ruleset's options ``agility``, ``agility_gm_ratings``, ``raking_fire``,
    ``extreme_range``, ``long_range_penetration``, ``coal_bunker_hits``)."""
    model = AgilityFireModel(
        agility=bool(options["agility"]),
        gm_ratings=bool(options["agility_gm_ratings"]),
        raking_fire=bool(options["raking_fire"]),
        extreme_range=bool(options["extreme_range"]),
        long_range_penetration=bool(options["long_range_penetration"]),
        coal_bunker_hits=bool(options["coal_bunker_hits"]),
    )
    return model if model.in_play else FireModel()


# --- endurance and coal bunker hits (AG-END) -----------------------------------------------------------


def endurance_days_of(record: ShipRecord) -> int | None:
    """The days of endurance of the record's catalog class, as the design rater gives them (SGD-BUNK-02);
    None for a ship that is not steam or whose class is not in the catalog."""
    if not record.is_steam or record.class_id is None:
        return None
    return design.rate_design(design.design_from_catalog(catalog.ship_class(record.class_id))).endurance_days


def with_endurance(record: ShipRecord, days: int) -> ShipRecord:
    """The record with a fresh Endurance track of one box per day (AG-END-01); steam ships only."""
    if not record.is_steam:
        raise ValueError(f"AG-END-01: only steam ships keep an Endurance track, not {record.name}")
    if days < 0:
        raise ValueError(f"a ship has 0 or more days of endurance, not {days}")
    return replace(record, endurance=days * aint("endurance", "boxes_per_day"), endurance_used=None, coal_lost=None)


def endurance_left(record: ShipRecord) -> int | None:
    """Boxes left on the Endurance track: boxes less those used travelling and lost to bunker hits; None
    without a track (AG-END-01)."""
    if record.endurance is None:
        return None
    return record.endurance - (record.endurance_used or 0) - (record.coal_lost or 0)


def travel(record: ShipRecord, days: int = 1) -> ShipRecord:
    """Cross off a box for each day the ship travels (AG-END-02). Raises ValueError without a track or with
    too few boxes left (the campaign decides what running dry means)."""
    left = endurance_left(record)
    if left is None:
        raise ValueError(f"AG-END-01: {record.name} keeps no Endurance track")
    boxes = days * aint("endurance", "boxes_per_day_travelled")
    if days < 0 or boxes > left:
        raise ValueError(f"AG-END-02: {record.name} has {left} endurance boxes left, not {boxes}")
    return replace(record, endurance_used=(record.endurance_used or 0) + boxes)


def _hull_hit_scored(happened: Sequence[Happening], ship: str) -> bool:
    """A Hull location hit checked at least one box: ``combat`` notes it with SG-DMG-05 (a magazine's hull
    hits are noted under SG-CRIT-11 instead)."""
    return any(h["ship"] == ship and "SG-DMG-05" in h["clauses"] for h in happened)


def _second_roll_empty_at_most(left: int, boxes: int, proportional: bool) -> int:
    """The highest second roll that finds an empty bunker section (AG-END-08; AG-END-10's variant)."""
    sides = aint("coal_bunker", "die_sides")
    if not proportional:
        return aint("coal_bunker", "second_roll_empty_at_most")
    full = Fraction(sides * left, boxes)
    chance = int(full + Fraction(1, 2))  # to the nearest whole, halves up
    return sides - chance


def _coal_bunker(
    after: ShipRecord,
    happened: Sequence[Happening],
    solution: FireSolution,
    shot: Shot,
    log: _Log,
    *,
    proportional: bool | None = None,
) -> ShipRecord:
    if not _hull_hit_scored(happened, after.name):
        return after
    return _bunker_check(
        after,
        solution.damage_value,
        long_range=_long(solution.band),
        from_below=shot.from_below,
        log=log,
        proportional=proportional,
    )


def _bunker_check(
    record: ShipRecord, damage_value: int, *, long_range: bool, from_below: bool, log: _Log, proportional: bool | None
) -> ShipRecord:
    left = endurance_left(record)
    boxes = record.endurance
    if not record.is_steam or left is None or boxes is None or left <= 0 or not record.afloat:
        return record
    if damage_value < record.hull_size:
        return record
    exposed = long_range or from_below
    on = aint("coal_bunker", "hit_on_long_range_or_from_below" if exposed else "hit_on")
    clauses = ["AG-END-03", "AG-END-04", "AG-END-05"] + (["AG-END-06"] if exposed else [])
    (face,) = log.roll(
        f"coal bunker: does the hull hit on {record.name} rupture it (damage value {damage_value}, hull size "
        f"{record.hull_size})",
        ship=record.name,
        clauses=clauses,
        sides=aint("coal_bunker", "die_sides"),
        needed=f"{on}+",
        judge=lambda faces, _total: "bunker hit" if faces[0] >= on else "no bunker hit",
    )
    if face < on:
        return record
    numerator, denominator = aints("coal_bunker", "second_roll_when_left_at_most_fraction")
    if left * denominator <= boxes * numerator:
        if proportional is None:
            proportional = bool(atable("coal_bunker", "proportional_second_roll_default"))
        empty = _second_roll_empty_at_most(left, boxes, proportional)
        (second,) = log.roll(
            f"coal bunker: {left} of {boxes} endurance boxes left on {record.name}: is the part hit full",
            ship=record.name,
            clauses=["AG-END-07", "AG-END-08", "AG-END-09"] + (["AG-END-10"] if proportional else []),
            sides=aint("coal_bunker", "die_sides"),
            needed=f"{empty + 1}+",
            judge=lambda faces, _total: "full" if faces[0] > empty else "empty",
        )
        if second <= empty:
            return record
    lost = aint("coal_bunker", "endurance_lost")
    record = replace(record, coal_lost=(record.coal_lost or 0) + lost)
    log.note(
        f"the coal bunker of {record.name} is holed: {lost} endurance lost",
        ship=record.name,
        clauses=["AG-END-05"],
        outcome=f"endurance left {endurance_left(record)}",
    )
    return record


def coal_bunker_check(
    record: ShipRecord,
    damage_value: int,
    *,
    roller: Roller,
    long_range: bool = False,
    from_below: bool = False,
    proportional: bool | None = None,
) -> tuple[ShipRecord, list[Happening]]:
    """After a hull hit on a steam ship by a weapon of ``damage_value``: 1d6, a 6 (4+ at long range or from
    below) loses an endurance box; with half or less left a second 1d6 of 1-3 finds the bunker part empty
    (AG-END-03..10). :class:`AgilityFireModel` makes the same check after each hit under ``coal_bunker_hits``."""
    log = _Log(roller)
    after = _bunker_check(
        record, damage_value, long_range=long_range, from_below=from_below, log=log, proportional=proportional
    )
    return after, log.happened


# --- ramming speed (AG-RSP) ----------------------------------------------------------------------------


def ramming_speed_hits(rammer: ShipRecord, speed: int) -> tuple[int, bool]:
    """A fitted ram's hull hits at ramming speed: speed / 6 x hull size to the nearest half; the whole hits,
    and whether an odd half hit is rolled for as in SG-RAM-11 (AG-RSP-01..04). Same shape as
    ``close_action.ram_hits``, which it replaces when the rule is on."""
    halves_per = aint("ramming_speed", "rounding_fraction_denominator")
    exact = Fraction(max(speed, 0) * rammer.hull_size * halves_per, aint("ramming_speed", "speed_divisor"))
    halves = int(exact + Fraction(1, 2))  # nearest half; never a tie (agility.json)
    return halves // halves_per, halves % halves_per != 0


# --- heated shot (AG-HEAT) -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Furnace:
    """A fortress's shot furnace (AG-HEAT-08..14): whether its lighting is ordered, the 6s rolled so far
    (1: lit, smoke showing) and the turn it reached full blast."""

    ordered: bool = False
    sixes: int = 0
    full_blast_turn: int | None = None

    KEYS = ("ordered", "sixes", "full_blast_turn")

    def to_json(self) -> dict[str, Any]:
        return {"ordered": self.ordered, "sixes": self.sixes, "full_blast_turn": self.full_blast_turn}

    @classmethod
    def from_json(cls, data: Any) -> Furnace:
        if not isinstance(data, Mapping) or set(data) != set(cls.KEYS):
            raise ValueError(f"furnace: expected exactly the keys {list(cls.KEYS)}, got {data!r}")
        ordered, sixes, turn = data["ordered"], data["sixes"], data["full_blast_turn"]
        if not isinstance(ordered, bool) or type(sixes) is not int or sixes < 0:
            raise ValueError(f"furnace: bad ordered/sixes {ordered!r}/{sixes!r}")
        if turn is not None and (type(turn) is not int or turn < 0):
            raise ValueError(f"furnace: bad full_blast_turn {turn!r}")
        return cls(ordered, sixes, turn)


COLD = Furnace()


def forewarned_furnace(state: str) -> Furnace:
    """A fortress warned of battle: "full_blast" (ready from the first turn) or "lit" (one 6 counted)
    (AG-HEAT-13/14)."""
    if state == "full_blast":
        return Furnace(ordered=True, sixes=0, full_blast_turn=0)
    if state == "lit":
        return Furnace(ordered=True, sixes=aint("heated_shot", "furnace", "forewarned_lit_sixes"))
    raise ValueError(f"a forewarned furnace is 'lit' or 'full_blast', not {state!r}")


def order_lit(furnace: Furnace) -> Furnace:
    """The commander orders the furnaces lit, once an enemy is sighted (AG-HEAT-08)."""
    return replace(furnace, ordered=True)


def stoke(
    furnace: Furnace, crew_quality: str, *, turn: int, roller: Roller, fortress: str = "the fortress"
) -> tuple[Furnace, list[Happening]]:
    """The turn's furnace roll: each 6 counts; the first lights it, the second (a Green crew's third) brings
    full blast (AG-HEAT-09..11). No roll before the order or once at full blast."""
    log = _Log(roller)
    if not furnace.ordered or furnace.full_blast_turn is not None:
        return furnace, []
    six = aint("heated_shot", "furnace", "six")
    needed = aint("heated_shot", "furnace", "sixes_to_full_blast", crew_quality)
    (face,) = log.roll(
        f"{possessive(fortress)} furnaces: {furnace.sixes} of {needed} sixes so far",
        ship=fortress,
        clauses=["AG-HEAT-09", "AG-HEAT-10"] + (["AG-HEAT-11"] if crew_quality == "green" else []),
        sides=aint("heated_shot", "furnace", "die_sides"),
        needed=f"{six}",
        judge=lambda faces, _total: "a six" if faces[0] >= six else "no change",
    )
    if face < six:
        return furnace, log.happened
    sixes = furnace.sixes + 1
    blast = turn if sixes >= needed else None
    log.note(
        f"{possessive(fortress)} furnaces: "
        + ("at full blast" if blast is not None else "lit, smoke from the chimneys"),
        ship=fortress,
        clauses=["AG-HEAT-10"] if blast is not None else ["AG-HEAT-09"],
        outcome="full blast" if blast is not None else "lit",
    )
    return replace(furnace, sixes=sixes, full_blast_turn=blast), log.happened


def heated_shot_ready(furnace: Furnace, crew_quality: str, turn: int) -> bool:
    """Heated shot may be fired from the turn after full blast, a Crack crew on the same turn (AG-HEAT-10/12)."""
    if furnace.full_blast_turn is None:
        return False
    same_turn = bool(atable("heated_shot", "furnace", "fires_on_the_turn_of_the_last_six", crew_quality))
    return turn > furnace.full_blast_turn or (same_turn and turn == furnace.full_blast_turn)


def check_heated_shot(firer: ShipRecord, gun_id: str, ammunition: str, furnace: Furnace, *, turn: int) -> None:
    """Raise FireRefused unless this gun may fire heated shot now: a fortress (the record's emplacement) with
    its furnace at full blast, a gun firing solid roundshot, not grape (AG-HEAT-01, AG-HEAT-10..12)."""
    if firer.emplacement not in astrs("heated_shot", "emplacements_with_furnace"):
        kind = "ship" if firer.emplacement is None else firer.emplacement
        raise FireRefused("AG-HEAT-01", f"{firer.name} is a {kind}: it has no room for a shot furnace")
    weapon = firer.gun(gun_id).weapon
    if weapon.id not in astrs("heated_shot", "roundshot_weapons"):
        raise FireRefused("AG-HEAT-01", f"{weapon.name} does not fire solid roundshot")
    if ammunition != _shell():
        raise FireRefused("AG-HEAT-01", f"{ammunition} is never heated")
    if not heated_shot_ready(furnace, firer.crew_quality, turn):
        raise FireRefused("AG-HEAT-10", "the furnaces are not at full blast")


def heated_shot_hit(
    before: ShipRecord, after: ShipRecord, damage_value: int, *, roller: Roller
) -> tuple[ShipRecord, list[Happening]]:
    """After a heated shot hit (``before`` and ``after`` the hit): on a wooden ship or a kite 1d6 at or below
    the damage value, or a fire scored by the hit, adds a level to the fire; on another metal hull only a
    hit that scored a fire rolls, and success adds the level (AG-HEAT-02..07)."""
    log = _Log(roller)
    if not after.afloat:
        return after, []
    fire_hit = after.fire > before.fire
    wooden = after.is_kite or after.hull_material in astrs("heated_shot", "wooden_hull_materials")
    levels = aint("heated_shot", "fire_levels_added")
    if not wooden and not fire_hit:
        log.note(
            f"heated shot: {possessive(after.name)} metal hull does not catch without a fire hit",
            ship=after.name,
            clauses=["AG-HEAT-06"],
            outcome="no effect",
        )
        return after, log.happened
    if wooden and fire_hit:
        log.note(
            f"heated shot: the fire hit on {after.name} burns hotter",
            ship=after.name,
            clauses=["AG-HEAT-04", "AG-HEAT-05"],
            outcome=f"fire {after.fire + levels}",
        )
        return replace(after, fire=after.fire + levels), log.happened
    (face,) = log.roll(
        f"heated shot: does {after.name} catch fire (damage value {damage_value})",
        ship=after.name,
        clauses=["AG-HEAT-02", "AG-HEAT-03"] if wooden else ["AG-HEAT-06", "AG-HEAT-07"],
        sides=aint("heated_shot", "die_sides"),
        needed=f"{damage_value} or less",
        judge=lambda faces, _total: "fire" if faces[0] <= damage_value else "no effect",
    )
    if face > damage_value:
        return after, log.happened
    return replace(after, fire=after.fire + levels), log.happened
