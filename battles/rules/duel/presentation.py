"""What the duel shows its players: its events in words, its map (counters with facing and hull and speed
badges, the wind, a selected ship's broadside reach) and its own record sheet (a hull row, the two broadsides
with their arcs), all read from the board view a side may see. Fields a side may not see come blank (None)
and are left out, never written as "None"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.presentation import (
    LOST,
    UNKNOWN,
    WHOLE,
    Badge,
    Block,
    Box,
    Counter,
    Fact,
    Item,
    MapView,
    Overlay,
    RecordSheet,
    Row,
    Section,
    counter_labels,
    hex_of,
    pieces_of,
    wind_from,
)
from battles.engine.telling import COMPASS, Names, Teller, facing_name, hex_name, plural
from battles.engine.words import possessive
from battles.rules.duel.kinds import HIT, INITIATIVE, MOVED, PLACED, SUNK, WIND

SCALE = "One hex is a cable; a turn is a minute of the duel (the reference game's own scale)."
# A broadside's arc on the sheet's glyph: name, from and to in degrees clockwise from the bow, bearing.
PORT_ARC: list[JSON] = ["port", 210, 330, True]
STARBOARD_ARC: list[JSON] = ["starboard", 30, 150, True]
SHEET_NOTE = "Duel (reference ruleset): a ship sinks when her last hull box is crossed off."

# --- the log in words -------------------------------------------------------------------------------------


def hull_boxes(count: Any) -> str:
    if type(count) is not int:
        return "some hull boxes"
    return f"{count} hull box" if count == 1 else f"{count} hull boxes"


def _wind(e: Mapping[str, Any], n: Names) -> str:
    return f"The wind blows from the {COMPASS[int(e['direction']) % 6]}"


def _placed(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} takes station in {hex_name(e['hex'])}, {facing_name(e['facing'])}"


def _initiative(e: Mapping[str, Any], n: Names) -> str:
    return f"{n.side(e['first'])} wins the initiative and moves first"


def _moved(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} moves to {hex_name(e['hex'])}, {facing_name(e['facing'])}"


def _hit(e: Mapping[str, Any], n: Names) -> str:
    by = f"{possessive(e['by'])} broadside hits {e['ship']}" if e.get("by") else f"{e['ship']} is hit"
    return f"{by}: {hull_boxes(e['boxes'])} crossed off"


def _sunk(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} has no hull left and sinks"


TELLERS: dict[str, Teller] = {
    WIND: _wind,
    PLACED: _placed,
    INITIATIVE: _initiative,
    MOVED: _moved,
    HIT: _hit,
    SUNK: _sunk,
}

# --- the map ----------------------------------------------------------------------------------------------


def _int(value: JSON) -> int | None:
    return value if type(value) is int else None


def side_names(view: JSON) -> dict[str, str]:
    names = view.get("side_names") if isinstance(view, Mapping) else None
    return {str(k): str(v) for k, v in names.items()} if isinstance(names, Mapping) else {}


def _counter(piece: Mapping[str, JSON], label: str, sides: Mapping[str, str], selected: JSON) -> Counter | None:
    hex_ = hex_of(piece.get("hex"))
    if hex_ is None:
        return None
    name, side = str(piece.get("name")), str(piece.get("side", ""))
    hull, speed, facing = _int(piece.get("hull")), _int(piece.get("speed")), _int(piece.get("facing"))
    col, row = hexgrid.to_odd_q(hex_)
    badges = []  # the renderer draws the first on the counter; the title names them all
    if hull is not None:
        badges.append(Badge(f"H{hull}", f"{hull_boxes(hull)} left"))
    if speed is not None:
        badges.append(Badge(f"S{speed}", f"speed {speed}"))
    words = [name, sides.get(side, side), f"hex [{col}, {row}]", facing_name(facing), *(b.title for b in badges)]
    return Counter(
        key=name,
        hex=hex_,
        label=label,
        side=side,
        side_name=sides.get(side, side),
        title=", ".join(w for w in words if w),
        facing=facing,
        badges=tuple(badges),
        state="sunk" if hull == 0 else "",
        selected=name == selected,
    )


def _reach(piece: Mapping[str, JSON], long_range: int, cols: int, rows: int) -> Overlay | None:
    """The hexes a selected ship's broadsides reach (DUEL-FIRE-03)."""
    hex_, facing = hex_of(piece.get("hex")), _int(piece.get("facing"))
    if hex_ is None or facing is None:
        return None
    abeam = {hexgrid.Aspect.PORT, hexgrid.Aspect.STARBOARD}
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    reached = tuple(
        h
        for h in hexgrid.within(hex_, long_range)
        if h != hex_ and h in on_map and hexgrid.aspects(hex_, facing, h) & abeam
    )
    return Overlay("reach", reached, f"Where {possessive(piece.get('name'))} broadsides reach")


def map_view(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    board: Mapping[str, JSON] = view if isinstance(view, Mapping) else {}
    cols, rows = _int(board.get("cols")) or 1, _int(board.get("rows")) or 1
    long_range = _int(board.get("long_range")) or 0
    pieces = pieces_of(view)
    sides = side_names(view)
    selected = (focus or {}).get("selected")
    labels = counter_labels([str(p.get("name")) for p in pieces])
    counters = [c for p in pieces if (c := _counter(p, labels[str(p.get("name"))], sides, selected)) is not None]
    chosen = next((p for p in pieces if p.get("name") == selected), None)
    reach = _reach(chosen, long_range, cols, rows) if chosen is not None else None
    return MapView(
        title=str(board.get("title") or "The duel"),
        cols=cols,
        rows=rows,
        counters=tuple(counters),
        wind=wind_from(board.get("wind")),
        scale=SCALE,
        overlays=(reach,) if reach is not None else (),
        off_map=tuple(str(p.get("name")) for p in pieces if hex_of(p.get("hex")) is None),
        sides=tuple(dict.fromkeys(str(p.get("side", "")) for p in pieces)),
        piece_word="ship",
        look="duel",
    )


# --- the record sheet -------------------------------------------------------------------------------------


def _hull_row(piece: Mapping[str, JSON], start: Mapping[str, JSON] | None) -> Row:
    top = _int(piece.get("hull_max")) or 0
    now = _int(piece.get("hull"))
    before = _int(start.get("hull")) if start is not None else None
    lost_before = top - before if before is not None else 0  # boxes lost before the battle began
    boxes = tuple(Box(UNKNOWN if now is None else (WHOLE if n < now else LOST)) for n in range(top))
    if now is None:
        said = "not known"
    else:
        since = max(0, (before if before is not None else top) - now)
        said = f"{now} of {top} left" + (f", {since} lost in this battle" if since else "")
        said += f" ({lost_before} lost before it)" if lost_before else ""
    return Row("Hull", "Hull boxes", boxes, f"Hull: {said}", look="hull")


def _broadsides(long_range: int) -> tuple[Item, ...]:
    reach = f"reaches {plural(long_range, 'hex')} abeam"
    return (
        Item("port", "Port broadside", reach, "Fires to port", values={"aspects": [PORT_ARC]}),
        Item(
            "starboard",
            "Starboard broadside",
            reach,
            "Fires to starboard",
            values={"aspects": [["starboard", 30, 150, True]]},
        ),
    )


def record_sheet(view: JSON, piece: str, *, start: JSON = None, turn: int | None = None) -> RecordSheet | None:
    long_range = (_int(view.get("long_range")) if isinstance(view, Mapping) else None) or 0
    found = next((p for p in pieces_of(view) if str(p.get("name")) == piece), None)
    if found is None:
        return None
    sides = side_names(view)
    side = str(found.get("side", ""))
    hex_, facing, speed = hex_of(found.get("hex")), _int(found.get("facing")), _int(found.get("speed"))
    where = hexgrid.to_odd_q(hex_) if isinstance(hex_, Hex) else None
    facts = [
        Fact("Hex", f"[{where[0]}, {where[1]}]" if where else "not known", known=where is not None),
        Fact("Facing", COMPASS[facing % 6] if facing is not None else "not known", known=facing is not None),
    ]
    if turn is not None:
        facts.append(Fact("Turn", str(turn)))
    hull = _hull_row(found, start if isinstance(start, Mapping) else None)
    sunk = _int(found.get("hull")) == 0
    return RecordSheet(
        key=piece,
        title=piece,
        subtitle=sides.get(side, side) + (" (sunk)" if sunk else ""),
        look="duel",
        badges=(Fact("Speed", str(speed) if speed is not None else "?", known=speed is not None, look="speed"),),
        facts=tuple(facts),
        sections=(
            Section("hull", "Hull", (Block(rows=(hull,)),), look="hull", summary=hull.summary),
            Section("guns", "Broadsides", (Block(items=_broadsides(long_range)),), look="guns"),
        ),
        notes=(SHEET_NOTE,),
    )
