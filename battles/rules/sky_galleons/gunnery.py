"""What each Sky Galleons ship's guns reach, for the battle page to show when she is selected (the protocol's
``ship_overlays``): her guns' arcs shaded by range band, the rings where the bands end, and the enemy ships she
may fire at now with the die each shot needs.

Everything is read from the board view the viewer may see (``visibility.board_view``). An enemy record there
has its hidden values blanked (each gun's ``manned``, the crew counts, the casualty order, the party at home);
:func:`seen_record` reads it with stand-ins that change no arc, range or to-hit number (each gun taken as
manned, no men counted), so nothing drawn is computed from what the viewer may not know.

The arcs: each gun still whole that rolls to hit, on its aspects (SG-FIRE-02, SG-FACE-04/05), a portable gun
on the aspect its own side trained it (SG-MG-06: the view keeps only the side's own), a lob gun all round under
the advanced rules (SG-LOB-02); each map hex in the best band any of her guns reaches it at: close or long
(SG-FIRE-07/08) and, under the Agility rules' extreme range, extreme (AG-EXT-03) as the battle's fire model
allows. Ranges are counted at her own altitude: a target higher counts further (SG-FIRE-15), which its number
says. The restricted arcs option (SG-ARC) narrows a mount's arc against a given target: the targets honour it,
the shading keeps the aspects.

The targets: ``combat.fire_solution`` of each of her guns at each enemy ship in the fight, as the fire step
would judge it now (arc, range, altitude, reloading, already fired, the to-hit modifiers and the fire model's,
Agility's included), less a shot the optional line of sight blocks (SG-LOS); the number is the best of her
guns', the die face a shot needs: the solution's ``needed`` less its modifiers (SG-FIRE-09/10, as
``combat._roll_to_hit`` judges each face).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.presentation import Overlay, ShipOverlays, TargetMark
from battles.engine.words import and_list, possessive
from battles.rules.sky_galleons import combat, portable_guns, queries, sightlines
from battles.rules.sky_galleons.agility import EXTREME
from battles.rules.sky_galleons.combat import CombatRules, FireSolution
from galleons import catalog
from galleons.record import CREW_COUNTS, PARTY_RANKS, Gun, Moment, ShipRecord

# The bands from the nearest out, and how the map names them.
BANDS: tuple[str, ...] = ("close", "long", EXTREME)
BAND_WORDS: Mapping[str, str] = {"close": "close range", "long": "long range", EXTREME: "extreme range"}
DIE_FACES = 6
ALL_ASPECTS = frozenset(a.value for a in hexgrid.Aspect)
# Why a ship is not on the map to be drawn (the board's ``out``); map_view leaves her off too.
GONE = "escaped"


@dataclass(frozen=True)
class Position:
    """What the overlays need of the board view: the map, the ships seen on it, the moment, the rules."""

    on_map: frozenset[Hex]
    ships: Mapping[str, ShipRecord]
    out: Mapping[str, str]
    same_hex: Mapping[str, Sequence[str]]
    now: Moment
    rules: CombatRules
    line_of_sight: bool


def ship_overlays(view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
    """Per ship on the map of the board view, her guns' reach and targets (see the module's docstring)."""
    board: Mapping[str, Any] = view if isinstance(view, Mapping) else {}
    terrain = board.get("terrain") or {}
    if not isinstance(terrain, Mapping) or "cols" not in terrain:
        return ()
    on_map = frozenset(hexgrid.rectangle_odd_q(int(terrain["cols"]), int(terrain["rows"])))
    trained = _trained(board.get("trained"))
    ships = {}
    for data in board.get("ships") or []:
        record = seen_record(data) if isinstance(data, Mapping) else None
        if record is not None and record.position in on_map and (board.get("out") or {}).get(record.name) != GONE:
            ships[record.name] = portable_guns.trained_record(record, trained)
    phases = max(len(board.get("side_order") or ()), 1)
    position = Position(
        on_map=on_map,
        ships=ships,
        out=dict(board.get("out") or {}),
        same_hex=dict(board.get("same_hex") or {}),
        now=Moment(max(turn, 1), min(max(int(board.get("phase_no") or 1), 1), phases), phases),
        rules=queries.combat_rules(options),
        line_of_sight=bool(options.get("line_of_sight")),
    )
    return tuple(_overlays_of(record, position) for record in ships.values() if _fights(record, position))


def seen_record(data: Mapping[str, Any]) -> ShipRecord | None:
    """A ship of the board view as a record, her blanked values given stand-ins that change no arc, range or
    to-hit number: each gun manned by its crew, no men counted where the count is hidden, no casualty order.
    None for a ship the view does not place (or cannot be read)."""
    if data.get("position") is None:
        return None
    seen = dict(data)
    guns = data.get("guns") or []
    seen["guns"] = [{**g, "manned": g.get("crew") or 0} if g.get("manned") is None else g for g in guns]
    crew = dict(data.get("crew") or {})
    for post in (*CREW_COUNTS, "maneuver_lost"):
        if crew.get(post, 0) is None:
            crew[post] = 0
    seen["crew"] = crew
    for key in ("party", "boarders"):
        party = dict(data.get(key) or {})
        for rank in PARTY_RANKS:
            if party.get(rank, 0) is None:
                party[rank] = 0
        if party.get("posts") is None:
            party["posts"] = []
        seen[key] = party
    if seen.get("casualty_order") is None:
        seen["casualty_order"] = []
    try:
        return ShipRecord.from_json(seen)
    except (KeyError, TypeError, ValueError):
        return None


def _trained(value: Any) -> dict[str, tuple[str, int]]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): (str(v[0]), int(v[1])) for k, v in value.items() if isinstance(v, list | tuple) and len(v) == 2}


def _fights(record: ShipRecord, position: Position) -> bool:
    """In the fight and a ship, not a battery or a target hex (Board.fighting)."""
    return record.afloat and record.name not in position.out and record.emplacement is None


def _overlays_of(record: ShipRecord, position: Position) -> ShipOverlays:
    guns = [g for g in record.guns if _rolls(g)]
    bands = _bands(record, guns, position)
    layers = tuple(
        Overlay(f"arc--{band}", tuple(sorted(hexes)), _band_title(record, band, bearing))
        for band, (hexes, bearing) in bands.items()
        if hexes
    )
    targets = tuple(mark for enemy in position.ships.values() if (mark := _target(record, enemy, position)))
    name = possessive(record.name)
    return ShipOverlays(
        ship=record.name,
        overlays=layers + _rings(record, guns, position),
        targets=targets,
        title=f"{name} arcs and range bands" + (f"; {len(targets)} in reach" if targets else "; nothing in reach"),
    )


def _rolls(gun: Gun) -> bool:
    """A gun that may ever fire and roll to hit: whole, with a rate of fire and a range (SG-DMG-08, SG-CG-94)."""
    return not gun.destroyed and gun.rate is not None and gun.weapon.range_hexes is not None


def _reach(gun: Gun, rules: CombatRules) -> int:
    """The furthest a gun fires, in hexes: its long range, or the fire model's leave beyond it (AG-EXT-03)."""
    ranges = gun.weapon.range_hexes
    assert ranges is not None  # _rolls let only ranged guns through
    furthest = max(r for r in (ranges.close, ranges.long, 0) if r is not None)
    while rules.model.beyond_long_range(gun, furthest + 1):
        furthest += 1
    return furthest


def _band(gun: Gun, distance: int, rules: CombatRules) -> str | None:
    band = combat.range_band(gun, distance)
    if band is None and rules.model.beyond_long_range(gun, distance):
        return EXTREME
    return band


def _arcs(gun: Gun, rules: CombatRules) -> frozenset[str]:
    if rules.lob_guns and combat.is_lob_gun(gun):
        return ALL_ASPECTS  # a lob gun fires all round (SG-LOB-02)
    return frozenset(gun.arcs)


def _bands(
    record: ShipRecord, guns: Sequence[Gun], position: Position
) -> dict[str, tuple[set[Hex], dict[str, set[str]]]]:
    """Each band's hexes (the best band any gun reaches the hex at) and, per band, the guns and aspects that
    reach there."""
    origin = record.position
    assert origin is not None
    found: dict[str, tuple[set[Hex], dict[str, set[str]]]] = {band: (set(), {}) for band in BANDS}
    reaches = {gun.id: _reach(gun, position.rules) for gun in guns}
    arcs = {gun.id: _arcs(gun, position.rules) for gun in guns}
    for hex_ in hexgrid.within(origin, max(reaches.values(), default=0)):
        if hex_ == origin or hex_ not in position.on_map:
            continue
        distance = hexgrid.distance(origin, hex_)
        held = {a.value for a in hexgrid.aspects(origin, record.facing, hex_)}
        best: int | None = None
        for gun in guns:
            band = _band(gun, distance, position.rules) if held & arcs[gun.id] else None
            if band is None:
                continue
            found[band][1].setdefault(_gun_name(gun), set()).update(held & arcs[gun.id])
            best = min(BANDS.index(band), best if best is not None else len(BANDS))
        if best is not None:
            found[BANDS[best]][0].add(hex_)
    return found


def _gun_name(gun: Gun) -> str:
    return f"gun {gun.id} ({gun.weapon.name})"


def _band_title(record: ShipRecord, band: str, bearing: Mapping[str, set[str]]) -> str:
    guns = "; ".join(f"{name}: {', '.join(sorted(aspects))}" for name, aspects in sorted(bearing.items()))
    return f"{record.name}, {BAND_WORDS.get(band, band)} at her altitude: {guns}"


def _rings(record: ShipRecord, guns: Sequence[Gun], position: Position) -> tuple[Overlay, ...]:
    """The hexes where each band of her guns ends, one ring per distance (the guns sharing it named)."""
    origin = record.position
    assert origin is not None
    ends: dict[tuple[str, int], list[str]] = {}
    for gun in guns:
        ranges = gun.weapon.range_hexes
        assert ranges is not None
        for band, reach in (("close", ranges.close), ("long", ranges.long)):
            if reach:
                ends.setdefault((band, reach), []).append(_gun_name(gun))
        furthest = _reach(gun, position.rules)
        if ranges.long is not None and furthest > ranges.long:
            ends.setdefault((EXTREME, furthest), []).append(_gun_name(gun))
    return tuple(
        Overlay(
            f"ring--{band}",
            tuple(h for h in hexgrid.ring(origin, reach) if h in position.on_map),
            f"{record.name}: {BAND_WORDS.get(band, band)} ends at {reach} {'hex' if reach == 1 else 'hexes'} "
            f"({and_list(names)})",
            outline=True,
        )
        for (band, reach), names in sorted(ends.items(), key=lambda item: item[0][1])
    )


# --- the targets --------------------------------------------------------------------------------------------


def _target(record: ShipRecord, enemy: ShipRecord, position: Position) -> TargetMark | None:
    """The enemy in arc and range of one of her guns now, with the best number a shot needs; None if none."""
    if enemy.side == record.side or not _fights(enemy, position) or _friends_aboard(record.side, enemy, position):
        return None
    solutions = [s for s in _solutions(record, enemy, position) if s.allowed and not _blocked(s, position)]
    if not solutions:
        return None
    best = min(solutions, key=face_needed)
    assert enemy.position is not None
    said = "; ".join(_shot_words(s) for s in sorted(solutions, key=face_needed))
    return TargetMark(
        target=enemy.name,
        hex=enemy.position,
        label=die_words(face_needed(best)),
        title=f"{enemy.name} in reach of {possessive(record.name)} {said}",
        look="target",
    )


def _solutions(record: ShipRecord, enemy: ShipRecord, position: Position) -> list[FireSolution]:
    same_hex = _relative(position.same_hex, record.name, enemy.name)
    return [
        combat.fire_solution(record, gun.id, enemy, now=position.now, rules=position.rules, same_hex=same_hex)
        for gun in record.guns
    ]


def _relative(same_hex: Mapping[str, Sequence[str]], firer: str, target: str) -> tuple[str, str] | None:
    """The aspects declared for two ships sharing a hex (Board.relative, SG-MOV-05)."""
    mine = same_hex.get(f"{firer}|{target}")
    if mine is not None and len(mine) == 2:
        return str(mine[0]), str(mine[1])
    theirs = same_hex.get(f"{target}|{firer}")
    if theirs is not None and len(theirs) == 2:
        return str(theirs[1]), str(theirs[0])
    return None


def _friends_aboard(side: str, enemy: ShipRecord, position: Position) -> bool:
    """The errata: no ship fires at a ship with friendly boarders aboard (SG-ERR-06, queries.friends_aboard)."""
    return position.rules.errata and any(
        s.side == side and s.boarding == enemy.name and s.boarders.men and s.afloat for s in position.ships.values()
    )


def _blocked(solution: FireSolution, position: Position) -> bool:
    """The optional line of sight: ships between firer and target block the shot (SG-LOS-01..08)."""
    if not position.line_of_sight:
        return False
    others = [
        sightlines.obstacle(s)
        for s in position.ships.values()
        if s.afloat and s.emplacement is None and position.out.get(s.name) not in ("escaped", "crashed", "crash-landed")
    ]
    firer, target = (sightlines.obstacle(position.ships[n]) for n in (solution.firer, solution.target))
    return sightlines.blocked_by(firer, target, others, lob_gun=solution.lob_gun) is not None


def face_needed(solution: FireSolution) -> int:
    """The die face a shot of the solution needs: ``needed`` less the modifiers, as each face is judged."""
    return solution.needed - sum(solution.modifiers.values())


def die_words(face: int) -> str:
    """A face needed on the die in the table's words: "4+", "any" (every roll hits), "none" (no roll does)."""
    if face <= 1:
        return "any"
    if face > DIE_FACES:
        return "none"
    return f"{face}+"


def _shot_words(solution: FireSolution) -> str:
    try:
        weapon = catalog.weapon(solution.weapon).name
    except (KeyError, ValueError):
        weapon = solution.weapon
    terms = [f"{solution.band} range {solution.effective_range}"]
    terms += [f"{name} {value:+d}" for name, value in solution.modifiers.items()]
    return f"gun {solution.gun_id} ({weapon}): {die_words(face_needed(solution))} to hit ({', '.join(terms)})"
