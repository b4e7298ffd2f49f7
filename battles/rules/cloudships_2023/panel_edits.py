"""Umpires edit a scenario's control panels before the battle (issue 22: "umpires can edit a panel"; the engine's
``ShipEditor``, battles/engine/ship_editor.py; docs/cloudships.md section 2, "An umpire's edits").

Each ship of the scenario is offered with her panel's figures as fields (panel_fields.py). An edit is read back
into a panel and judged: every figure within its bound (a refusal names the clause and the bound), a kite with no
movement of her own (CM-MOV-12), track rows only from the ceiling down (CM-DMG-01), a short range within the long
one (CM-FIRE-04), at least one arc for a gun that has arcs (CM-FIRE-02). What the form does not show is kept; what
follows from what it shows is rebuilt by the conversion's own rules, and only when that figure changed:

- the damage track, from the hull boxes a row (``conversion.track_of``: a system box after every second hull box,
  the band below at each row's end), when the ceiling or a row's hull boxes change;
- the crew chart (CM-AP-07: two hits shrugged off, then a party every so many hits), when the parties or the hits a
  party change;
- the guns' numbers, bow first clockwise (CM-GUN-01), when a gun is taken off or added;
- the critical chart, when the specials aboard (rockets, bombs, torpedoes, mines) change (CM-DMG-11).

A changed ship is written into the scenario with her panel whole (``"panel"``, read by ``setup.panel_for``), so
the battle's stored scenario is the battle; the scenario is then set up as a battle to be sure it is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject
from battles.engine.jsonread import read_int, read_list, read_object, read_opt_int, read_opt_str, read_str
from battles.engine.ship_editor import EditableShip, EditedScenario
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import conversion, panels, setup
from battles.rules.cloudships_2023.panel_fields import (
    ADDED_KINDS,
    AP_DICE,
    CREW_STEP,
    DAMAGE,
    FLIGHTS,
    HULL_BOXES,
    LONG_RANGE,
    MAIN_DICE,
    MOST_GUNS,
    MOVEMENT,
    PARTIES,
    RAM,
    SHORT_RANGE,
    TRACK_BANDS,
    Bound,
    bands_down,
    crew_step,
    fields_of,
    hulls_of,
    positions,
)
from battles.rules.cloudships_2023.panels import ControlPanel, Gun

WHOLE = "CM-SEQ-01"  # each ship has a control panel: the clause of an edit that spells none


class Refused(Exception):
    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.rejection = Rejection(clause, reason)


def within(value: Any, bound: Bound, what: str) -> int:
    number = read_opt_int(value)
    if number is None or not bound.low <= number <= bound.high:
        given = "nothing" if number is None else str(number)
        raise Refused(bound.clause, f"{what} is {bound.words} ({bound.why}), not {given}")
    return number


def _yes(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected yes or no, got {value!r}")
    return value


def edited(panel: ControlPanel, answer: JSON) -> ControlPanel | Rejection:
    """The panel the umpire's fields spell (``panel_fields.figures`` spells ``panel`` itself), or why not."""
    try:
        return _edited(panel, read_object(answer))
    except Refused as refused:
        return refused.rejection
    except (TypeError, ValueError, KeyError) as error:
        return Rejection(WHOLE, f"the edit does not spell a control panel ({error})")


def _edited(panel: ControlPanel, data: Mapping[str, Any]) -> ControlPanel:
    motive = read_str(data["motive"])
    if motive not in panels.MOTIVE:
        raise Refused("CM-MOV-12", f"the motive power is one of {', '.join(panels.MOTIVE)}, not {motive!r}")
    movement = read_opt_int(data.get("movement"))
    if motive == panels.KITE:
        if movement:
            raise Refused("CM-MOV-12", "a kite rolls her movement each turn (1d6): leave her movement at 0")
        movement = None
    else:
        movement = within(movement, MOVEMENT, f"a {motive} ship's movement")
    ceiling = read_str(data["ceiling"])
    if ceiling not in TRACK_BANDS:
        raise Refused("CM-ALT-01", f"the ceiling is one of {', '.join(TRACK_BANDS)}, not {ceiling!r}")
    parties = within(data["boarding_parties"], PARTIES, "boarding parties")
    step = within(data["crew_step"], CREW_STEP, "the anti-personnel hits a party")
    guns = _guns(panel, read_list(data["guns"]), data.get("new_gun"))
    return ControlPanel(
        name=panel.name,
        class_id=panel.class_id,
        motive=motive,
        movement=movement,
        ceiling=ceiling,
        boarding_parties=parties,
        flying_martians=within(data["flying_martians"], FLIGHTS, "flights of Flying Martians"),
        power_grapnel=_yes(data["power_grapnel"]),
        superior=_yes(data["superior"]),
        ram=within(data["ram"], RAM, "the ram value"),
        guns=guns,
        track=_track(panel, ceiling, read_object(data["hulls"])),
        crew_chart=_crew_chart(panel, parties, step),
        criticals=_criticals(panel, guns),
        vulnerable_magazine=_yes(data["vulnerable_magazine"]),
        lights=panel.lights,
    )


def _track(panel: ControlPanel, ceiling: str, hulls: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    rows = bands_down(ceiling)
    counts: dict[str, int] = {}
    for band in TRACK_BANDS:
        if band in rows:
            counts[band] = within(hulls.get(band), HULL_BOXES, f"the {band} row's hull boxes")
        elif read_int(hulls.get(band, 0)):
            raise Refused("CM-DMG-01", f"her ceiling is {ceiling}, so the track has no {band} row: leave it at 0")
    if ceiling == panel.ceiling and counts == hulls_of(panel):
        return panel.track
    return conversion.track_of(counts)


def _crew_chart(panel: ControlPanel, parties: int, step: int) -> tuple[int, ...]:
    if (parties, step) == (panel.boarding_parties, crew_step(panel)):
        return panel.crew_chart
    off = conversion.TABLES.whole("crew_chart", "shrugged_off")
    return tuple(off + lost * step for lost in range(1, parties + 1))


def _specials(guns: tuple[Gun, ...]) -> set[str]:
    return {gun.kind for gun in guns} & panels.ONE_SHOT_KINDS


def _criticals(panel: ControlPanel, guns: tuple[Gun, ...]) -> tuple[str, ...]:
    if _specials(guns) == _specials(panel.guns):
        return panel.criticals
    return conversion.critical_chart({gun.kind for gun in guns})


# --- the guns ---------------------------------------------------------------------------------------------------


def _guns(panel: ControlPanel, items: list[Any], new: Any) -> tuple[Gun, ...]:
    if len(items) != len(panel.guns):
        raise Refused("CM-GUN-01", f"the form has {len(items)} guns and her panel {len(panel.guns)}: load it again")
    kept = []
    for gun, item in zip(panel.guns, items, strict=True):
        found = read_object(item)
        if read_int(found["number"]) != gun.number:
            raise Refused("CM-GUN-01", f"gun {gun.number} is not where the form has it: load it again")
        if not _yes(found.get("remove", False)):
            kept.append(_gun(gun, found))
    added = None if new is None else _new_gun(read_object(new))
    if added is None and len(kept) == len(panel.guns):
        return tuple(kept)
    every = [*kept, *([added] if added else [])]
    if len(every) > MOST_GUNS:
        raise Refused("CM-GUN-06", f"a panel carries at most {MOST_GUNS} gun systems")
    return conversion.number_guns(every)


def _gun(gun: Gun, found: Mapping[str, Any]) -> Gun:
    what = f"gun {gun.number} ({gun.name})"
    if gun.kind in ADDED_KINDS:
        return replace(
            gun, **_fire(gun.kind, found, what, short_optional=gun.short_range is None), arcs=_arcs(gun, found, what)
        )
    if gun.kind == panels.ROCKETS:
        angle = read_str(found["angle"])
        if angle not in panels.ANGLES:
            raise Refused("CM-RKT-01", f"{what} is fitted to fire up or down, not {angle!r}")
        return replace(gun, arcs=_arcs(gun, found, what), angle=angle)
    return gun


def _fire(kind: str, found: Mapping[str, Any], what: str, *, short_optional: bool = False) -> dict[str, Any]:
    """A main or anti-personnel gun's dice, damage and ranges (CM-FIRE-01/04/10, CM-AP-01)."""
    dice = within(found["dice"], AP_DICE if kind == panels.ANTI_PERSONNEL else MAIN_DICE, f"{possessive(what)} dice")
    damage = within(found["damage"], DAMAGE, f"{possessive(what)} damage") if kind == panels.MAIN else None
    long = within(found["long_range"], LONG_RANGE, f"{possessive(what)} long range")
    short = read_opt_int(found.get("short_range"))
    if short is not None or not short_optional:
        short = within(short, SHORT_RANGE, f"{possessive(what)} short range")
        if short > long:
            raise Refused("CM-FIRE-04", f"{possessive(what)} short range ({short}) is beyond its long range ({long})")
    return {"dice": dice, "damage": damage, "short_range": short, "long_range": long}


def _arcs(gun: Gun | None, found: Mapping[str, Any], what: str) -> tuple[str, ...]:
    """The arcs ticked, those the gun had first in their order (so an untouched gun is the same gun)."""
    ticked = [read_str(arc) for arc in read_list(found["arcs"])]
    strays = [arc for arc in ticked if arc not in panels.ASPECTS]
    if strays:
        among = ", ".join(panels.ASPECTS)
        raise Refused("CM-FIRE-02", f"{possessive(what)} arcs are among {among}, not {', '.join(strays)}")
    if not ticked:
        raise Refused("CM-FIRE-02", f"{what} needs at least one arc to fire in")
    had = gun.arcs if gun is not None else ()
    return (
        *(arc for arc in had if arc in ticked),
        *(arc for arc in panels.ASPECTS if arc in ticked and arc not in had),
    )


def _new_gun(found: Mapping[str, Any]) -> Gun:
    kind = read_str(found["kind"])
    if kind not in ADDED_KINDS:
        raise Refused("CM-GUN-06", f"a new gun is a main or an anti-personnel gun, not {kind!r}")
    position = read_str(found["position"])
    if position not in positions():
        raise Refused("CM-GUN-01", f"a gun's position is one of {', '.join(positions())}, not {position!r}")
    name = (read_opt_str(found.get("name")) or "").strip()[:60] or f"{kind.capitalize()} gun"
    fire = _fire(kind, found, "the new gun")
    arcs = _arcs(None, found, "the new gun")
    return Gun(
        0,
        name,
        kind,
        position,
        arcs,
        fire["short_range"],
        fire["long_range"],
        fire["dice"],
        fire["damage"],
        None,
        None,
        "umpire",
    )


# --- the scenario -----------------------------------------------------------------------------------------------


class PanelEditor:
    """The ruleset's ``ship_editor``: each ship of a scenario with her panel's fields, and the edits applied."""

    def editable_ships(self, scenario: Mapping[str, JSON]) -> tuple[EditableShip, ...]:
        try:
            sides = {
                read_str(s["key"]): read_str(s.get("name", s["key"]))
                for s in map(read_object, read_list(scenario["sides"]))
            }
            entries = [read_object(entry) for entry in read_list(scenario["ships"])]
        except (TypeError, ValueError, KeyError):
            return ()  # a scenario that cannot be read offers nothing to edit (starting it says why)
        found = []
        for entry in entries:
            try:
                name, panel = read_str(entry["name"]), setup.panel_for(entry)
            except (TypeError, ValueError, KeyError):
                continue
            side = sides.get(str(entry.get("side")), str(entry.get("side")))
            label = f"{name} ({side})" if panel.name == name else f"{name}, {panel.name} class ({side})"
            found.append(EditableShip(name, label, summary(panel), fields_of(panel)))
        return tuple(found)

    def edit(self, scenario: Mapping[str, JSON], edits: Mapping[str, JSON]) -> EditedScenario | Rejection:
        try:
            entries = [read_object(entry) for entry in read_list(scenario["ships"])]
        except (TypeError, ValueError, KeyError) as error:
            return Rejection(WHOLE, f"the scenario's ships cannot be read ({error})")
        where = {str(entry.get("name")): n for n, entry in enumerate(entries)}
        changed = []
        for name, answer in edits.items():
            if name not in where:
                return Rejection(WHOLE, f"there is no ship {name!r} in this scenario")
            entry = entries[where[name]]
            try:
                panel = setup.panel_for(entry)
            except (TypeError, ValueError, KeyError) as error:
                return Rejection(WHOLE, f"{name}: her panel cannot be read ({error})")
            result = edited(panel, answer)
            if isinstance(result, Rejection):
                return Rejection(result.clause, f"{name}: {result.reason}")
            if result != panel:
                entries[where[name]] = {**{k: v for k, v in entry.items() if k != "class"}, "panel": result.to_json()}
                changed.append(name)
        new: JSONObject = {**scenario, "ships": list[JSON](entries)}
        try:
            setup.board_from_scenario(new)
        except (TypeError, ValueError, KeyError) as error:
            return Rejection(WHOLE, f"the edited scenario cannot be played: {error}")
        order = [name for name in where if name in changed]
        return EditedScenario(new, tuple(order))


def summary(panel: ControlPanel) -> str:
    """A panel in one line: what the umpire reads before opening it."""
    movement = "d6 (kite)" if panel.movement is None else str(panel.movement)
    guns = len(panel.guns)
    return (
        f"movement {movement} · ceiling {panel.ceiling} · boarding {panel.hexagon} · ram {panel.ram} · "
        f"{guns} gun{'s' if guns != 1 else ''} · {panel.track_length} boxes"
    )


PANEL_EDITOR = PanelEditor()
