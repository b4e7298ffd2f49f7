"""The Cloudships of Mars battle map as data (a MapView): each ship a counter with her facing and her band's
badge, her Fired markers and lit lights as coloured tags beside it, the ship whose card is up ringed, a wreck
crossed; and, for a selected ship, her guns' arcs of fire by range band (CM-FIRE-02..04) with the enemies she may
fire at now and the score each shot needs (CM-FIRE-07/08, CM-AP-02/03).

Built from the board view a side may see (the app's SVG renderer draws it). The arcs: every map hex within a
working gun's long range lying in one of its aspects (``hexgrid.aspects``: bow and stern 60 degrees, the
broadsides 120), short or long; a shot up at a higher band counts one more a band (CM-FIRE-03), which the target
marks say, not the shading. A ship that flew off the map is not drawn on it (``off_map``).
"""

from __future__ import annotations

from collections.abc import Mapping

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.presentation import (
    Badge,
    Counter,
    MapView,
    Overlay,
    ShipOverlays,
    TargetMark,
    counter_labels,
    generic_map,
)
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import firing, gunnery, kinds, panels
from battles.rules.cloudships_2023.board import Board, Ship, Shot
from battles.rules.cloudships_2023.panels import Gun

SCALE = "A hex for each point of movement; a round is every ship's card turned once."
# A ship at the optional Really Low band is shown as at the table: two markers in the Low band (CM-ALT-07).
BAND_CODES = {panels.HIGH: "H", panels.MEDIUM: "M", panels.LOW: "L", panels.REALLY_LOW: "LL", panels.GROUND: "G"}
BAND_TITLES = {panels.REALLY_LOW: "at Really Low: two markers in the Low band"}
# The lights' short names on a counter's tags, coloured amber or red as lit.
LIGHT_CODES = {
    panels.NO_ALTITUDE_CHANGE: "Alt",
    panels.NO_DIRECTION_CHANGE: "Dir",
    panels.BRIDGE_HIT: "Br",
    panels.FIRE: "Fire",
}
STATES = {kinds.CRASHED: "crashed", kinds.SUNK: "crashed", kinds.STRUCK: "struck"}


def read_board(view: JSON) -> Board | None:
    try:
        return Board.from_json(view)
    except (KeyError, TypeError, ValueError):
        return None


def map_view(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    """The map of a Cloudships board view. ``focus``: ``selected`` (a ship's name) rings her counter and shades
    her guns' arcs; with ``gun`` (a gun number) only that gun's."""
    board = read_board(view)
    if board is None:
        return generic_map(view, focus)
    focus = focus or {}
    selected = focus.get("selected")
    drawn = [ship for ship in board.ships if ship.status != kinds.LEFT and board.on_map(ship.hex)]
    labels = counter_labels([ship.name for ship in drawn])
    chosen = next((ship for ship in drawn if ship.name == selected), None)
    gun = focus.get("gun")
    return MapView(
        title=board.title or "Battle map",
        cols=board.cols,
        rows=board.rows,
        counters=(
            *(_counter(board, ship, labels[ship.name], ship.name == selected) for ship in drawn),
            *flight_counters(board),
        ),
        scale=SCALE,
        overlays=_arcs(board, chosen, gun if type(gun) is int else None) if chosen is not None else (),
        off_map=tuple(ship.name for ship in board.ships if ship not in drawn),
        sides=tuple(board.side_names) or tuple(dict.fromkeys(ship.side for ship in board.ships)),
        piece_word="ship",
        look="cloudships",
    )


def _badges(ship: Ship) -> tuple[Badge, ...]:
    """Her band first (drawn on the counter), then her Fired markers and every lit light (tags beside it)."""
    band = Badge(BAND_CODES.get(ship.band, ship.band), BAND_TITLES.get(ship.band, f"at {ship.band}"))
    fired = (Badge(f"F{len(ship.fired)}", f"{len(ship.fired)} Fired markers"),) if ship.fired else ()
    lights = tuple(
        Badge(LIGHT_CODES.get(light, light), f"{light} light {colour}", colour=colour)
        for light, colour in ship.lights
        if colour != panels.GREEN
    )
    return (band, *fired, *lights)


def _counter(board: Board, ship: Ship, label: str, selected: bool) -> Counter:
    side = board.side_names.get(ship.side, ship.side)
    col, row = hexgrid.to_odd_q(ship.hex)
    badges = _badges(ship)
    state = STATES.get(ship.status, "")
    marks = tuple(
        mark for mark, on in (("active", board.active == ship.name), ("burning", ship.lit(panels.FIRE))) if on
    )
    words = [ship.name, f"{ship.panel.name} class", side, f"hex {col},{row}"]
    words += [f"facing {hexgrid.direction_name(ship.facing)}", *(b.title for b in badges)]
    if board.active == ship.name:
        words.append("her card is up")
    if state:
        words.append(state)
    return Counter(
        key=ship.name,
        hex=ship.hex,
        label=label,
        side=ship.side,
        side_name=side,
        title=", ".join(words),
        facing=ship.facing,
        badges=badges,
        state=state,
        marks=marks,
        selected=selected,
        data={"altitude": BAND_CODES.get(ship.band, ship.band)},
    )


# --- Flying Martians deployed (the flights slice: CM-FLY-03/04) ---------------------------------------------------


def flight_counters(board: Board) -> tuple[Counter, ...]:
    """Each flight on the table a small square counter of its mother ship's side, labelled F and its number, with
    its band's badge; it faces nowhere, turning at will (CM-FLY-11)."""
    found = []
    for flight in board.martians.out:
        if not board.on_map(flight.hex):
            continue
        mother = board.ship_named(flight.ship)
        side = board.side_names.get(mother.side, mother.side)
        col, row = hexgrid.to_odd_q(flight.hex)
        name = f"{possessive(flight.ship)} flight {flight.number}"
        band = Badge(BAND_CODES.get(flight.band, flight.band), BAND_TITLES.get(flight.band, f"at {flight.band}"))
        found.append(
            Counter(
                key=f"{flight.ship}/flight {flight.number}",
                hex=flight.hex,
                label=f"F{flight.number}",
                side=mother.side,
                side_name=side,
                title=f"{name} of Flying Martians, {side}, hex {col},{row}, {band.title}",
                badges=(band,),
                shape="square",
                data={"altitude": band.text, "mother": flight.ship},
            )
        )
    return tuple(found)


# --- a ship's arcs and targets -----------------------------------------------------------------------------------


def _ranged(ship: Ship, only: int | None) -> list[Gun]:
    """Her working guns that fire by range (main and anti-personnel), or the one asked for."""
    return [gun for gun in ship.working_guns() if gun.long_range is not None and (only is None or gun.number == only)]


def _arcs(board: Board, ship: Ship, only: int | None = None) -> tuple[Overlay, ...]:
    """The hexes her guns reach, short and long, each hex in the best band any gun gives it."""
    bands: dict[Hex, str] = {}
    on_map = [h for h in hexgrid.rectangle_odd_q(board.cols, board.rows) if h != ship.hex]
    for gun in _ranged(ship, only):
        for hex_ in on_map:
            distance = hexgrid.distance(ship.hex, hex_)
            if gun.long_range is None or distance > gun.long_range or bands.get(hex_) == firing.SHORT:
                continue
            if {str(a) for a in hexgrid.aspects(ship.hex, ship.facing, hex_)} & set(gun.arcs):
                short = gun.short_range is not None and distance <= gun.short_range
                bands[hex_] = firing.SHORT if short else firing.LONG
    whose = f"{possessive(ship.name)} gun {only}" if only is not None else f"{possessive(ship.name)} guns"
    return tuple(
        Overlay(
            f"arc--{'close' if band == firing.SHORT else 'long'}",
            tuple(sorted(h for h, b in bands.items() if b == band)),
            f"{whose}: {band} range",
        )
        for band in (firing.SHORT, firing.LONG)
        if any(b == band for b in bands.values())
    )


def _targets(board: Board, ship: Ship) -> tuple[TargetMark, ...]:
    """The enemies her guns may fire at now, each with the best score any of them needs."""
    marks = []
    for target in firing.enemies(board, ship):
        shots = firing.legal_shots(board, ship, (target,))
        if not shots:
            continue
        told = [_shot_words(board, shot) for shot in shots]
        best = min(score for score, _ in told)
        label = "auto" if best == 0 else ("6" if best >= 6 else f"{best}+")
        marks.append(TargetMark(target.name, target.hex, label, f"{target.name}: " + "; ".join(w for _, w in told)))
    return tuple(marks)


def _shot_words(board: Board, shot: Shot) -> tuple[int, str]:
    """The score a shot needs (0: no roll to hit) and the shot in words."""
    firer = board.ship_named(shot.ship)
    gun = firer.gun(shot.gun)
    aim = firing.aim(board, shot)
    if aim.band is None:
        return 0, f"{gun.name} ({gun.number}), no roll to hit, damage {gun.roll}"
    needed = gunnery.score_to_hit(gun.kind, short=aim.band == firing.SHORT, superior=firer.panel.superior)
    return needed, f"{gun.name} ({gun.number}) at {aim.band} range {aim.range}, {needed}+"


def ship_overlays(view: JSON) -> tuple[ShipOverlays, ...]:
    """For each ship flying on the map: her guns' arcs and the enemies in reach with the score needed."""
    board = read_board(view)
    if board is None:
        return ()
    return tuple(
        ShipOverlays(ship.name, _arcs(board, ship), _targets(board, ship), f"Arcs of {ship.name}")
        for ship in board.flying()
        if board.on_map(ship.hex)
    )
