"""A Sky Galleons ship's record sheet as data, laid out like the rule book's ship record form, from the
record JSON a side may see.

:func:`record_sheet` turns a record (``ShipRecord.to_json`` as the ruleset's ``board_view`` gives it) into a
:class:`ShipSheet` of rows of boxes and plain facts; :func:`sheet_data` writes that as the engine's
:class:`~battles.engine.presentation.RecordSheet` (sections, blocks, rows of boxes), which the app's HTML and
PDF renderers draw for every ruleset, the ship record's look kept by its ``look`` keys.

What the form holds (the rules' ship status sheet, SG-DMG-11/12/20, SG-CREW-05, SG-ARM-09..11): the movement
allowance in a circle, the hull size in a square and the armor in a hexagon; the hull hit boxes in one row per
altitude, the highest first, hits crossed off from the top row (SG-DMG-13/14); each gun with its firing
aspects and its crew circles, a box round an armored one (SG-FIRE-02/03, SG-ARM-10/11); the crew boxes of the
bridge (C captain, O officers, H helmsman, T trimsman, S signalman), the deck (P petty officers, deckhands),
the maneuvering crew in rows (engineers, turncranks or topmen, SGD-MCH-01..06) and the marines; the fire
aboard, the critical damage, the exotic ordnance and, with the Agility rules, the Endurance track.

Crossed boxes need the ship as she began: a record counts the men alive, not the boxes printed. ``start`` is
her record at the start of the battle; without one a catalog ship's fresh record stands in, and failing that
the men now aboard are all the boxes there are. A box is ``whole`` (a man at his post, a hull box unhit),
``lost`` (crossed off: a hit, a man dead, away or moved) or ``unknown``. An enemy ship as seen has her crew
counts and gun crews blanked (``null``): those are drawn unknown, never as zero, and the sheet says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.presentation import EMPTY, LOST, UNKNOWN, WHOLE, Block, Box, Fact, Item, RecordSheet, Row, Section
from galleons import catalog
from galleons.record import Gun, Moment, ShipRecord, ship_record_from_class, table

PROPULSION = {"steam": "Steam", "screw_galley": "Screw galley", "kite": "Kite"}
MANEUVER_CREW = {"engineers": "Engineers", "turncranks": "Turncranks", "topmen": "Topmen"}
OUT_WORDS = {
    "struck": "Colours struck",
    "captured": "Captured",
    "crashed": "Crashed",
    "crash-landed": "Crash-landed",
    "escaped": "Left the map",
}
POST_WORDS = {
    "captain": "captain",
    "officers": "officers",
    "helmsman": "helmsman",
    "trimsman": "trimsman",
    "signalman": "signalman",
    "petty_officers": "petty officers",
    "deckhands": "deckhands",
    "marine_officers": "marine officers",
    "marines": "marines",
    "gunners": "gunners",
    "maneuver": "maneuvering crew",
}


# --- what the sheet is made of ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wedge:
    aspect: str
    d: str
    on: bool


@dataclass(frozen=True)
class GunLine:
    """One gun as the deck plan shows it: type, mount, aspects, crew circles, armor box and state."""

    id: str
    name: str
    mount: str
    arcs: tuple[str, ...]
    wedges: tuple[Wedge, ...]
    circles: tuple[Box, ...]
    armored: bool
    armor: int | None
    state: str
    figures: str
    summary: str


@dataclass(frozen=True)
class ShipSheet:
    name: str
    class_name: str
    nation: str
    side: str
    side_name: str
    # The side's own ship (the whole record) or another side's as seen across the sky.
    whole: bool
    speed: str
    speed_now: str | None
    hull_size: int
    armor: int
    facts: tuple[Fact, ...]
    hull: tuple[Row, ...]
    hull_summary: str
    bridge: Row
    deck: tuple[Row, ...]
    maneuver_kind: str
    maneuver: tuple[Row, ...]
    marines: tuple[Row, ...]
    guns: tuple[GunLine, ...]
    fire: Fact
    criticals: tuple[Fact, ...]
    ordnance: tuple[Fact, ...]
    endurance: Row | None
    parties: tuple[Fact, ...]
    casualty_order: str | None
    notes: tuple[str, ...]

    @property
    def hull_hits(self) -> int:
        return sum(row.lost for row in self.hull)


# --- building the sheet -------------------------------------------------------------------------------------


def record_sheet(
    ship: Mapping[str, Any],
    *,
    start: Mapping[str, Any] | None = None,
    board: Mapping[str, Any] | None = None,
    turn: int | None = None,
    status: str | None = None,
) -> ShipSheet:
    """The sheet for one ship record as a side sees it.

    ``start`` is the same ship as that side saw her at the start of the battle (for the boxes crossed off);
    ``board`` the board JSON she is on (side names, why she is out of the fight, a prize's captor); ``turn``
    the turn now (which guns are loaded). ``status`` is her state in words off the battle board (a campaign
    ship's: in port, at sea, lost): it replaces the battle's ("Flying"), and the battle's hex, altitude and
    facing, which mean nothing off the board, are left out.
    """
    board = board or {}
    crew: Mapping[str, Any] = ship.get("crew") or {}
    whole = crew.get("captain") is not None
    start = start if start is not None else _catalog_start(ship, whole)
    start_crew: Mapping[str, Any] = (start or {}).get("crew") or {}
    side = str(ship.get("side", ""))
    side_name = str(board.get("side_names", {}).get(side, side))
    notes = _notes(whole, start)

    hull = _hull(ship.get("hull_rows") or [])
    hits = sum(row.lost for row in hull)
    boxes = sum(len(row.boxes) for row in hull)
    bridge, deck, marines = _crew_rows(crew, start_crew)
    kind = str(crew.get("maneuver_kind") or "")
    return ShipSheet(
        name=str(ship.get("name", "")),
        class_name=str(ship.get("class_name") or ""),
        nation=str(ship.get("nation") or ""),
        side=side,
        side_name=side_name,
        whole=whole,
        speed=str(ship.get("speed")),
        speed_now=_speed_now(ship) if whole else None,
        hull_size=int(ship.get("hull_size") or 0),
        armor=int(ship.get("armor") or 0),
        facts=_facts(ship, board, hull, status),
        hull=hull,
        hull_summary=f"{hits} of {boxes} hull boxes hit",
        bridge=bridge,
        deck=deck,
        maneuver_kind=MANEUVER_CREW.get(kind, kind.capitalize() or "Maneuvering crew"),
        maneuver=_maneuver(crew, MANEUVER_CREW.get(kind, "Maneuvering crew")),
        marines=marines,
        guns=tuple(_gun(gun, turn, ship) for gun in ship.get("guns") or []),
        fire=_fire(ship.get("fire")),
        criticals=_criticals(ship.get("criticals") or {}, board, turn),
        ordnance=_ordnance(ship.get("ordnance") or []),
        endurance=_endurance(ship),
        parties=_parties(ship),
        casualty_order=_casualty_order(ship.get("casualty_order")),
        notes=tuple(notes),
    )


def _notes(whole: bool, start: Mapping[str, Any] | None) -> list[str]:
    """What the sheet cannot show: another side's crew and orders, or the crew she began with."""
    notes: list[str] = []
    if not whole:
        notes.append("As seen from another ship: her crew at their posts and her standing orders are not known.")
    if start is None and whole:
        notes.append("Her crew as she began is not known here: the boxes are the men aboard now.")
    return notes


def _crew_rows(crew: Mapping[str, Any], start_crew: Mapping[str, Any]) -> tuple[Row, tuple[Row, Row], tuple[Row, Row]]:
    """The bridge, the deck (petty officers, deckhands) and the marines, as rows of boxes."""
    bridge = _crew_row(
        "Bridge",
        "Bridge crew",
        [
            ("C", "captain", crew, start_crew),
            ("O", "officers", crew, start_crew),
            ("H", "helmsman", crew, start_crew),
            ("T", "trimsman", crew, start_crew),
            ("S", "signalman", crew, start_crew),
        ],
    )
    deck = (
        _crew_row("P", "Petty officers", [("P", "petty_officers", crew, start_crew)]),
        _crew_row("Deck", "Deckhands", [("", "deckhands", crew, start_crew)]),
    )
    marines = (
        _crew_row("O", "Marine officers", [("O", "marine_officers", crew, start_crew)]),
        _crew_row("M", "Marines", [("", "marines", crew, start_crew)]),
    )
    return bridge, deck, marines


def _catalog_start(ship: Mapping[str, Any], whole: bool) -> Mapping[str, Any] | None:
    """A catalog ship's fresh record, standing in for her start when none is given: only for a record seen
    whole (an enemy's complement is hers to know)."""
    class_id = ship.get("class_id")
    if not whole or not isinstance(class_id, str):
        return None
    try:
        return ship_record_from_class(class_id, name=str(ship.get("name", ""))).to_json()
    except (KeyError, ValueError):
        return None


def _hull(rows: Sequence[Mapping[str, Any]]) -> tuple[Row, ...]:
    """Hull boxes, one row per altitude, highest first; the top row not yet full is the ceiling now."""
    ceiling = next((i for i, row in enumerate(rows) if int(row["hits"]) < int(row["boxes"])), None)
    drawn = []
    for i, row in enumerate(rows):
        boxes, hits = int(row["boxes"]), int(row["hits"])
        look = "gone" if hits >= boxes else ("ceiling" if i == ceiling else "")
        drawn.append(
            Row(
                label=str(row["altitude"]),
                title=_altitude(row["altitude"]),
                boxes=tuple(Box(LOST if n < hits else WHOLE) for n in range(boxes)),
                summary=f"{_altitude(row['altitude'])}: {hits} of {boxes} hit",
                look=look,
            )
        )
    return tuple(drawn)


def _crew_row(label: str, title: str, posts: Sequence[tuple[str, str, Mapping[str, Any], Mapping[str, Any]]]) -> Row:
    boxes: list[Box] = []
    words: list[str] = []
    for box_label, post, crew, start in posts:
        now, began = crew.get(post), start.get(post)
        if now is None:
            # Blanked in this side's view: as many boxes as the start shows if that is known, else one "?" for
            # the row (a box per post would claim posts she may not have).
            if isinstance(began, int):
                boxes += [Box(UNKNOWN, box_label)] * began
            elif not any(box.state == UNKNOWN and not box.label for box in boxes):
                boxes.append(Box(UNKNOWN))
            words.append(f"{POST_WORDS[post]} not known")
            continue
        printed = max(int(now), int(began) if isinstance(began, int) else 0)
        boxes += [Box(WHOLE, box_label)] * int(now) + [Box(LOST, box_label)] * (printed - int(now))
        if printed:
            words.append(f"{POST_WORDS[post]} {now} of {printed}")
    return Row(label, title, tuple(boxes), "; ".join(words) or "none")


def _maneuver(crew: Mapping[str, Any], title: str) -> tuple[Row, ...]:
    """The maneuvering crew rows, top row first; casualties fill from the top (SGD-MCH-04/06, SG-CREW-12)."""
    rows = [int(n) for n in crew.get("maneuver_rows") or []]
    lost = crew.get("maneuver_lost")
    drawn = []
    left = int(lost) if isinstance(lost, int) else 0
    for n, boxes in enumerate(rows, start=1):
        if not isinstance(lost, int):
            drawn.append(Row(str(n), title, (Box(UNKNOWN),) * boxes, f"{title}, row {n}: losses not known"))
            continue
        hit = min(left, boxes)
        left -= hit
        look = "gone" if hit >= boxes else ""
        drawn.append(
            Row(
                str(n),
                title,
                tuple(Box(LOST if i < hit else WHOLE) for i in range(boxes)),
                f"{title}, row {n}: {hit} of {boxes} lost",
                look,
            )
        )
    return tuple(drawn)


# Aspect wedges for the small arc glyph (24 x 24, bow up): degrees clockwise from the bow (DESIGN.md "Firing
# aspects"; hexgrid.aspects divides at 30 degrees either side of the bow and of the stern).
WEDGE_SPANS = {"bow": (-30, 30), "starboard": (30, 150), "stern": (150, 210), "port": (210, 330)}


def _wedge(start: int, end: int) -> str:
    def point(angle: int) -> str:
        a = math.radians(angle)
        return f"{12 + 11 * math.sin(a):.2f} {12 - 11 * math.cos(a):.2f}"

    return f"M12 12L{point(start)}A11 11 0 0 1 {point(end)}Z"


WEDGES = {aspect: _wedge(*span) for aspect, span in WEDGE_SPANS.items()}


def _gun(gun: Mapping[str, Any], turn: int | None, ship: Mapping[str, Any]) -> GunLine:
    weapon = _weapon(gun.get("weapon"))
    name = weapon.name if weapon else str(gun.get("weapon"))
    arcs = tuple(str(a) for a in gun.get("arcs") or [])
    crew, manned = int(gun.get("crew") or 0), gun.get("manned")
    destroyed, jammed = bool(gun.get("destroyed")), bool(gun.get("jammed"))
    if manned is None:
        circles = (Box(UNKNOWN),) * crew
        crew_words = f"crew of {crew}, men at the gun not known"
    else:
        circles = tuple(Box(WHOLE if n < int(manned) else EMPTY) for n in range(crew))
        crew_words = f"{manned} of {crew} crew at the gun"
    state = _gun_state(gun, turn, destroyed, jammed)
    armor = gun.get("armor")
    summary = f"Gun {gun.get('id')}: {name}, {gun.get('mount')}, fires {', '.join(arcs) or 'nowhere'}; {crew_words}"
    summary += f"; armor {armor}" if isinstance(armor, int) else "; unarmored"
    summary += f"; {state}" if state else ""
    return GunLine(
        id=str(gun.get("id")),
        name=name,
        mount=str(gun.get("mount") or ""),
        arcs=arcs,
        wedges=tuple(Wedge(aspect, d, aspect in arcs) for aspect, d in WEDGES.items()),
        circles=circles,
        armored=isinstance(armor, int),
        armor=armor if isinstance(armor, int) else None,
        state=state,
        figures=_figures(weapon),
        summary=summary,
    )


def _gun_state(gun: Mapping[str, Any], turn: int | None, destroyed: bool, jammed: bool) -> str:
    if destroyed:
        return "destroyed"
    if jammed:
        return "jammed"
    if gun.get("manned") == 0:
        return "unmanned"
    fired = gun.get("last_fired")
    if not isinstance(fired, int):
        return ""
    # Whether it is loaded again needs the crew at the gun (SG-FIRE-06, SG-CREW-10/11): only a whole record.
    if turn is not None and isinstance(gun.get("manned"), int):
        try:
            loaded = Gun.from_json(dict(gun)).ready(turn)
        except (KeyError, ValueError):
            loaded = None
        if loaded is not None:
            return f"fired turn {fired}, " + ("ready" if loaded else "reloading")
    return f"fired turn {fired}"


def _weapon(weapon_id: Any) -> catalog.Weapon | None:
    try:
        return catalog.weapon(str(weapon_id))
    except (KeyError, ValueError):
        return None


def _figures(weapon: catalog.Weapon | None) -> str:
    """The gun's table line: rate of fire, range and penetration (close/long) and damage value."""
    if weapon is None:
        return ""
    parts = []
    rof = weapon.rate_of_fire
    if rof is not None:
        if rof.dice:
            parts.append(f"ROF {rof.dice}")
        elif rof.reload_turns is not None:
            parts.append(f"ROF ({rof.reload_turns})")
        elif rof.normal is not None:
            parts.append(f"ROF {rof.normal}" + (f"/{rof.maximum}" if rof.maximum else ""))
        elif rof.shots is not None:
            parts.append(f"ROF {rof.shots}")
    if weapon.range_hexes is not None:
        parts.append(f"range {_band(weapon.range_hexes.close)}/{_band(weapon.range_hexes.long)}")
    if weapon.penetration is not None:
        parts.append(f"pen {_band(weapon.penetration.close)}/{_band(weapon.penetration.long)}")
    if weapon.damage_value is not None:
        parts.append(f"DV {weapon.damage_value}")
    return " · ".join(parts)


def _band(value: int | None) -> str:
    return "\u2013" if value is None else str(value)  # an en dash, as the tables print a missing band


def _altitude(code: Any) -> str:
    names: Mapping[str, str] = table("altitude", "names")
    return names.get(str(code), str(code))


def _facts(
    ship: Mapping[str, Any], board: Mapping[str, Any], hull: Sequence[Row], off_board: str | None = None
) -> tuple[Fact, ...]:
    facts = [
        Fact("Propulsion", PROPULSION.get(str(ship.get("propulsion")), str(ship.get("propulsion")))),
        Fact("Hull", f"{str(ship.get('hull_material', '')).capitalize()}, size {ship.get('hull_size')}"),
        Fact("Crew", str(ship.get("crew_quality") or "").capitalize()),
    ]
    if ship.get("ram"):
        facts.append(Fact("Ram", "Yes"))
    if ship.get("engine_size") is not None:
        facts.append(Fact("Engine", f"size {ship['engine_size']}"))
    ceiling = next((row.title for row in hull if row.look != "gone"), None)
    facts.append(Fact("Ceiling now", ceiling or "none: every hull box is hit"))
    if off_board is not None:
        facts.append(Fact("Status", off_board))
    else:
        facts += _on_board(ship, board)
    if ship.get("emplacement"):
        facts.append(Fact("Ground target", str(ship["emplacement"]).capitalize()))
    if ship.get("high_martian"):
        facts.append(Fact("Crew", "High Martian"))
    if ship.get("marine_arms"):
        facts.append(Fact("Marines' arms", str(ship["marine_arms"]).replace("_", " ")))
    if ship.get("grappled_with"):
        facts.append(Fact("Grappled with", ", ".join(str(n) for n in ship["grappled_with"])))
    return tuple(facts)


def _on_board(ship: Mapping[str, Any], board: Mapping[str, Any]) -> list[Fact]:
    """Her state in the battle: flying, struck, taken...; her hex, altitude and facing."""
    out = board.get("out", {}).get(ship.get("name"))
    status = OUT_WORDS.get(str(out), str(out).capitalize()) if out else str(ship.get("status") or "").capitalize()
    captor = board.get("captured", {}).get(ship.get("name"))
    if captor:
        status += f" (taken by {board.get('side_names', {}).get(captor, captor)})"
    facts = [Fact("Status", status)]
    position = ship.get("position")
    if isinstance(position, list) and len(position) == 2:
        col, row = hexgrid.to_odd_q(Hex(int(position[0]), int(position[1])))
        facts.append(Fact("Hex", f"{col},{row}"))
        facts.append(Fact("Altitude", _altitude(ship.get("altitude"))))
        if not ship.get("emplacement"):
            facts.append(Fact("Facing", hexgrid.direction_name(int(ship.get("facing") or 0))))
    return facts


def _speed_now(ship: Mapping[str, Any]) -> str | None:
    """The movement allowance left after crew losses and damage (SG-CREW-12..14, SG-CRIT-26..30); a kite's
    depends on its movement die, rolled each turn (SG-KITE-02)."""
    if ship.get("speed") == "K":
        return None
    try:
        return str(ShipRecord.from_json(dict(ship)).effective_speed())
    except (KeyError, TypeError, ValueError):
        return None


def _fire(level: Any) -> Fact:
    if level is None:
        return Fact("Fire", "not known", known=False)
    return Fact("Fire", f"burning, level {level}" if level else "none")


def _criticals(c: Mapping[str, Any], board: Mapping[str, Any], turn: int | None) -> tuple[Fact, ...]:
    """The critical damage that lasts (SG-CRIT-*), each as the sheet would note it; with the turn known, a
    bridge hit's locked helm and a loss of trim's stunning only while they last (SG-CRIT-16/37)."""
    now = None
    if turn is not None:
        phases = max(len(board.get("side_order") or ()), 1)  # as SkyGalleons.now reads the board
        now = Moment(max(turn, 1), min(max(int(board.get("phase_no") or 1), 1), phases), phases).index
    facts = []
    if c.get("rudder_jam"):
        facts.append(Fact("Rudder jammed", f"free it by beating {c['rudder_jam']} (SG-CRIT-39)"))
    if c.get("lifters_jam"):
        facts.append(Fact("Lifters jammed", f"free them by beating {c['lifters_jam']} (SG-CRIT-39)"))
    if c.get("screw_mast_hits"):
        facts.append(Fact("Screw or mast hits", str(c["screw_mast_hits"])))
    if c.get("boiler_blown"):
        facts.append(Fact("Boiler", "blown"))
    elif c.get("boiler_loss"):
        facts.append(Fact("Boiler", f"speed -{c['boiler_loss']}, recovering 1 a turn"))
    if c.get("jury_rigged"):
        facts.append(Fact("Jury-rigged", "speed 1"))
    locked = c.get("helm_locked_turn")
    if isinstance(locked, int) and (turn is None or locked == turn):
        facts.append(Fact("Bridge hit", f"no change of course or altitude in turn {locked}"))
    through = c.get("stunned_through")
    if c.get("stunned_from") is not None and isinstance(through, int) and (now is None or now <= through):
        facts.append(Fact("Loss of trim", f"stunned, movement phases {c['stunned_from']} to {through}"))
    return tuple(facts)


def _ordnance(items: Sequence[Mapping[str, Any]]) -> tuple[Fact, ...]:
    """The exotic ordnance items (SG-HALE-07, SG-LF-06, SG-SMT-09...), those of a kind in the same state
    together: "T2, T3 Smutts Aerial Torpedo: stowed"."""
    groups: dict[tuple[str, str], list[str]] = {}
    for item in items:
        weapon = _weapon(item.get("weapon"))
        detail = str(item.get("state"))
        if item.get("aspect"):
            detail += f" ({item['aspect']}, {item.get('angle')})"
        if item.get("since") is not None:
            detail += f", turn {item['since']}"
        groups.setdefault((weapon.name if weapon else str(item.get("weapon")), detail), []).append(str(item.get("id")))
    return tuple(Fact(f"{', '.join(ids)} {name}", detail) for (name, detail), ids in groups.items())


def _endurance(ship: Mapping[str, Any]) -> Row | None:
    """The Endurance track (AG-END-01..05): boxes used for days travelled and lost to coal bunker hits."""
    if "endurance" not in ship:
        return None
    total = ship["endurance"]
    if total is None:
        return Row("End.", "Endurance", (Box(UNKNOWN),), "Endurance not known")
    used, coal = int(ship.get("endurance_used") or 0), int(ship.get("coal_lost") or 0)
    boxes = [Box(LOST, "") for _ in range(used)] + [Box(LOST, "C") for _ in range(coal)]
    boxes += [Box(WHOLE)] * max(int(total) - used - coal, 0)
    return Row("End.", "Endurance", tuple(boxes), f"Endurance {total}: {used} used, {coal} lost to coal bunker hits")


def _party_words(party: Mapping[str, Any]) -> str | None:
    ranks = ("officers", "petty_officers", "seamen", "marines")
    if any(party.get(rank) is None for rank in ranks):
        return None
    singular = {"officers": "officer", "petty_officers": "petty officer", "seamen": "seaman", "marines": "marine"}
    counts = [
        f"{party[rank]} {singular[rank] if party[rank] == 1 else rank.replace('_', ' ')}"
        for rank in ranks
        if party.get(rank)
    ]
    return ", ".join(counts) or "none"


def _parties(ship: Mapping[str, Any]) -> tuple[Fact, ...]:
    """The boarding party formed at home and the boarders across (SG-BRD-01/05)."""
    facts = []
    home = _party_words(ship.get("party") or {})
    if home is None:
        facts.append(Fact("Boarding party", "not known", known=False))
    elif home != "none":
        facts.append(Fact("Boarding party", home))
    across = _party_words(ship.get("boarders") or {})
    if across is None:
        facts.append(Fact("Boarders across", "not known", known=False))
    elif across != "none":
        facts.append(Fact(f"Boarders aboard {ship.get('boarding')}", across))
    return tuple(facts)


def _casualty_order(order: Any) -> str | None:
    if not isinstance(order, list):
        return None
    return ", ".join(POST_WORDS.get(str(p), str(p).replace("gun:", "gun ")) for p in order)


# --- the sheet as the engine's data ------------------------------------------------------------------------


def ship_sheet(
    view: Any, name: str, *, start: Any = None, turn: int | None = None, status: str | None = None
) -> RecordSheet | None:
    """The sheet of the ship ``name`` on a board view (None if the view does not show her), as data."""
    board: Mapping[str, Any] = view if isinstance(view, Mapping) else {}
    ship = next((s for s in board.get("ships") or [] if isinstance(s, Mapping) and s.get("name") == name), None)
    if ship is None:
        return None
    begun = start if isinstance(start, Mapping) else None
    return sheet_data(record_sheet(ship, start=begun, board=board, turn=turn, status=status))


def sheet_data(sheet: ShipSheet) -> RecordSheet:
    """The ship record form as the engine's RecordSheet: the enclosure's figures, the guns across the top,
    then hull, crew, and fire and criticals side by side."""
    what = f"{sheet.class_name} class · " if sheet.class_name and sheet.class_name != sheet.name else ""
    return RecordSheet(
        key=sheet.name,
        title=sheet.name,
        subtitle=what + sheet.nation + (f" · {sheet.side_name}" if sheet.side_name else ""),
        look="ship-record",
        whole=sheet.whole,
        lead=(Fact("Hull size", str(sheet.hull_size), look="hull-size"),),
        badges=(
            Fact("Armor", str(sheet.armor), look="armor"),
            Fact("Movement allowance", sheet.speed, look="speed", aside=_speed_aside(sheet)),
        ),
        facts=sheet.facts,
        sections=(_guns(sheet), _hull_section(sheet), _crew(sheet), _damage(sheet)),
        notes=sheet.notes,
    )


def _speed_aside(sheet: ShipSheet) -> str:
    return f"now {sheet.speed_now}" if sheet.speed_now is not None and sheet.speed_now != sheet.speed else ""


def _guns(sheet: ShipSheet) -> Section:
    items = tuple(
        Item(
            key=gun.id,
            name=gun.name,
            detail=f"{gun.mount} · {', '.join(gun.arcs)}" + (f" · {gun.figures}" if gun.figures else ""),
            summary=gun.summary,
            circles=gun.circles,
            state=gun.state,
            values={
                "aspects": [[w.aspect, *WEDGE_SPANS[w.aspect], w.on] for w in gun.wedges],
                "armor": gun.armor,
                "marks": [m for m, on in (("armored", gun.armored), (gun.state, gun.state in GUN_MARKS)) if on],
                "mount": gun.mount,
                "arcs": list(gun.arcs),
                "figures": gun.figures,
            },
        )
        for gun in sheet.guns
    )
    return Section("guns", "Guns", (Block(items=items, empty="No guns."),), look="guns", wide=True)


# A gun's states drawn in its own style as well as in words.
GUN_MARKS = ("destroyed", "jammed")


def _hull_section(sheet: ShipSheet) -> Section:
    return Section("hull", "Hull hits", (Block(rows=sheet.hull),), look="hull", summary=sheet.hull_summary)


def _crew(sheet: ShipSheet) -> Section:
    said = (Fact("Casualties taken from", sheet.casualty_order),) if sheet.casualty_order else ()
    blocks = (
        Block("Bridge", rows=(sheet.bridge,)),
        Block("Deck", rows=sheet.deck),
        Block(f"Maneuver: {sheet.maneuver_kind}", rows=sheet.maneuver, empty="None."),
        Block("Marines", rows=sheet.marines),
        Block(facts=sheet.parties + said),
    )
    return Section("crew", "Crew", blocks, look="crew")


def _damage(sheet: ShipSheet) -> Section:
    fire = replace(sheet.fire, look="fire") if sheet.fire.value != "none" else sheet.fire
    blocks = [
        Block(facts=(fire,)),
        Block(facts=sheet.criticals, empty="No critical damage.", empty_look="fact"),
    ]
    if sheet.endurance is not None:
        blocks.append(Block("Endurance", rows=(sheet.endurance,)))
    if sheet.ordnance:
        blocks.append(Block("Ordnance", facts=sheet.ordnance, look="ordnance"))
    if not sheet.whole:
        blocks.append(Block(notes=("Ordnance still stowed aboard her is not seen.",)))
    return Section("damage", "Fire and criticals", tuple(blocks), look="damage")
