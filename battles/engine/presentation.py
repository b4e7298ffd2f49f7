"""What a ruleset shows the players, as data: names, the log in words, the map and the record sheets.

The app draws these and knows no ruleset: one SVG renderer draws any :class:`MapView`, one HTML and one PDF
renderer draw any :class:`RecordSheet`. A ruleset keeps its own look through ``look`` keys (a sheet's, a
section's, a row's), which the renderers turn into style classes and layouts; a look they do not know is
drawn plainly. Everything here is built from what one side may see (the ruleset's ``board_view``), so what a
side may not know is never in the drawing to begin with; ``None`` in a value means "not known", never zero.

The :class:`Presentation` protocol is the part of the Ruleset protocol that says these things;
``BaseRuleset`` gives each member a generic default (battles/engine/ruleset.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.state import BattleState
from battles.engine.telling import COMPASS, ENGINE_DETAIL, ENGINE_TELLERS, Names, tell

# The colours a box, a badge or an arc may be printed in, which every renderer knows (a ruleset's form prints
# some things in colour: blue squares, green, amber and red lamps, red arcs). Anything else is drawn in ink.
COLOURS = ("green", "amber", "red", "blue")

# --- the map -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Terrain:
    """Hexes drawn alike: land of one height, a named zone (a city, a fortress). ``kind`` says which layer
    ("height" under "zone"); ``look`` the style within it."""

    kind: str
    look: str
    hexes: tuple[Hex, ...]
    title: str


@dataclass(frozen=True)
class Badge:
    """A short text on a counter (an altitude code, a speed) and what it means in words; ``colour`` one of
    :data:`COLOURS` for a marker printed in colour (a lamp lit amber). The first badge is drawn at the counter's
    lower right, any others as small tags down its left side."""

    text: str
    title: str = ""
    colour: str = ""


@dataclass(frozen=True)
class Counter:
    """One piece on the map. ``facing``: hexgrid's numbering (0 north, clockwise), None for a piece that
    faces nowhere (a battery, a city). ``state``: how it rests ("" afloat; "struck", "crashed", "landed"...),
    drawn as a mark as well as a colour. ``marks``: style words for the renderer ("burning", "selected").
    ``shape``: "round" or "square". ``data``: extra facts for a page's script (``data-*`` attributes)."""

    key: str
    hex: Hex
    label: str
    side: str
    side_name: str
    title: str
    facing: int | None = None
    badges: tuple[Badge, ...] = ()
    state: str = ""
    marks: tuple[str, ...] = ()
    shape: str = "round"
    selected: bool = False
    data: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Wind:
    """The wind blows from ``direction`` (hexgrid's numbering)."""

    direction: int
    label: str
    title: str


@dataclass(frozen=True)
class Ray:
    """A straight line from a hex's centre: ``bearing`` in degrees clockwise from north, ``reach`` in hexes."""

    origin: Hex
    bearing: float
    reach: float


@dataclass(frozen=True)
class Overlay:
    """Hexes shaded or outlined over the map on request (a gun's arcs, its range rings), with edge lines."""

    look: str
    hexes: tuple[Hex, ...]
    title: str
    outline: bool = False
    rays: tuple[Ray, ...] = ()


@dataclass(frozen=True)
class MapView:
    """A battle map as data: a rectangle of ``cols`` by ``rows`` hexes (odd-q, flat-top, as hexgrid counts
    them), its terrain, the pieces on it, the wind, and overlays asked for. ``off_map``: pieces in the battle
    but not on the map. ``scale``: what a hex and a turn stand for, in words. ``sides``: the sides in order
    (a renderer colours them by it); ``piece_word``: what a piece is called ("ship")."""

    title: str
    cols: int
    rows: int
    terrain: tuple[Terrain, ...] = ()
    counters: tuple[Counter, ...] = ()
    wind: Wind | None = None
    scale: str = ""
    overlays: tuple[Overlay, ...] = ()
    off_map: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    piece_word: str = "piece"
    look: str = ""


@dataclass(frozen=True)
class TargetMark:
    """An enemy piece the selected one may fire at from where both stand, with what a shot needs in the
    ruleset's own words (``label``: "4+"; ``title``: which gun, at what range, with which modifiers)."""

    target: str
    hex: Hex
    label: str
    title: str
    look: str = ""


@dataclass(frozen=True)
class ShipOverlays:
    """What a page shows when one piece is selected: its guns' arcs shaded by range band and its range rings
    (``overlays``), and the enemies in arc and range with the number each shot needs (``targets``)."""

    ship: str
    overlays: tuple[Overlay, ...] = ()
    targets: tuple[TargetMark, ...] = ()
    title: str = ""


# --- record sheets -------------------------------------------------------------------------------------

WHOLE, LOST, UNKNOWN = "whole", "lost", "unknown"
# A crew circle with nobody at it (dead, moved, never supplied); a lamp not lit.
EMPTY = "empty"

# A row whose look is LAMPS draws its boxes as round lamps, its label after them: a whole box is a lamp lit, an
# empty one a lamp dark.
LAMPS = "lamps"
# A figure of a sheet's enclosure framed in a hexagon (also "hull-size": a square; "speed": a circle).
HEXAGON = "hexagon"


@dataclass(frozen=True)
class Box:
    """One box of a row: ``whole``, ``lost`` (crossed off), ``empty`` or ``unknown``; a letter in it; ``colour``
    one of :data:`COLOURS` where the form prints it in colour ("" in ink). An ``empty`` box in colour is a lamp not
    lit; in ink it is a box not on this piece's form (a Data Card's boxes beyond her stats), drawn struck through."""

    state: str
    label: str = ""
    colour: str = ""


@dataclass(frozen=True)
class Row:
    """A row of boxes with its label (an altitude, a crew post), a summary in words, and its look ("gone",
    "ceiling"...)."""

    label: str
    title: str
    boxes: tuple[Box, ...]
    summary: str
    look: str = ""

    @property
    def known(self) -> bool:
        return all(box.state != UNKNOWN for box in self.boxes)

    @property
    def lost(self) -> int:
        return sum(1 for box in self.boxes if box.state == LOST)


@dataclass(frozen=True)
class Fact:
    """A plain fact on the sheet: a label and its value in words (``known`` False: drawn as unknown); an
    ``aside`` drawn small beside the value (a speed now, below the speed printed)."""

    label: str
    value: str
    known: bool = True
    look: str = ""
    aside: str = ""


@dataclass(frozen=True)
class Item:
    """A line of a list (a gun): its key, name, crew circles, detail and summary in words, its state, and
    ``values`` a look may draw (``aspects``: [name, from, to, on] in degrees clockwise from the bow;
    ``arc_colour``: one of :data:`COLOURS` for the aspects it fires into; ``marks``: style words; ``armor``...)."""

    key: str
    name: str
    detail: str
    summary: str
    circles: tuple[Box, ...] = ()
    state: str = ""
    values: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Block:
    """Part of a section, drawn in this order: a subheading, rows of boxes, facts, items, notes; ``empty``
    is said when it holds none of these, in the style ``empty_look`` names. ``look``: set, the facts are drawn
    as a list in that style."""

    heading: str = ""
    rows: tuple[Row, ...] = ()
    facts: tuple[Fact, ...] = ()
    items: tuple[Item, ...] = ()
    notes: tuple[str, ...] = ()
    empty: str = ""
    look: str = ""
    empty_look: str = "none"


@dataclass(frozen=True)
class Section:
    """One part of a sheet with its heading and a summary beside it; ``wide`` sections span the sheet above
    the others. ``look`` names the ruleset's style for it ("hull", "crew", "guns"...)."""

    key: str
    title: str
    blocks: tuple[Block, ...] = ()
    look: str = ""
    summary: str = ""
    wide: bool = False

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(row for block in self.blocks for row in block.rows)


@dataclass(frozen=True)
class RecordSheet:
    """One piece's record sheet as a side sees it: its title and subtitle, ``lead`` figures before the title
    and ``badges`` after it (hull size, armor, speed: each Fact's look says how it is framed), facts, sections,
    notes. ``whole``: the side's own piece, all of it; otherwise as seen."""

    key: str
    title: str
    subtitle: str = ""
    look: str = ""
    whole: bool = True
    lead: tuple[Fact, ...] = ()
    badges: tuple[Fact, ...] = ()
    facts: tuple[Fact, ...] = ()
    sections: tuple[Section, ...] = ()
    notes: tuple[str, ...] = ()

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


# --- the protocol --------------------------------------------------------------------------------------


@runtime_checkable
class Presentation(Protocol):
    """The presentation part of a ruleset. ``view`` is the board JSON one side may see (``board_view``)."""

    def side_name(self, state: BattleState[Any], side: str) -> str: ...

    def piece_name(self, state: BattleState[Any], piece: str) -> str: ...

    def names(self, view: JSON, sides: Mapping[str, str]) -> Names: ...

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None: ...

    def is_detail(self, event: Mapping[str, Any]) -> bool: ...

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView: ...

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None: ...

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]: ...


# --- the generic defaults ------------------------------------------------------------------------------


def counter_labels(names: Sequence[str]) -> dict[str, str]:
    """Short labels for counters: a numbered piece by initial and number ("Hullcutter 2" -> "H2"), another by
    its first two letters ("Triumph" -> "Tr"); lengthened where two pieces on the board would share one."""

    def short(name: str, extra: int) -> str:
        words = name.split()
        if len(words) > 1 and words[-1].isdigit():
            return words[0][: 1 + extra] + words[-1]
        return name.replace(" ", "")[: 2 + extra]

    labels: dict[str, str] = {}
    for name in names:
        extra = 0
        while True:
            label = short(name, extra)
            clash = any(short(other, extra) == label for other in names if other != name)
            if not clash or extra >= len(name):
                break
            extra += 1
        labels[name] = label
    return labels


def wind_from(direction: JSON) -> Wind | None:
    """The wind blowing from a hexside (hexgrid's numbering), in words; None for no wind."""
    if type(direction) is not int:
        return None
    name = hexgrid.direction_name(direction)
    return Wind(
        direction=direction % 6,
        label=f"Wind from {name}",
        title=f"Wind from the {COMPASS[direction % 6]}, blowing {COMPASS[(direction + 3) % 6]}",
    )


def pieces_of(view: JSON) -> list[Mapping[str, JSON]]:
    """The pieces of a board view as the generic defaults find them: its ``ships`` or ``pieces`` list."""
    if not isinstance(view, Mapping):
        return []
    found = view.get("ships", view.get("pieces"))
    return [p for p in found if isinstance(p, Mapping)] if isinstance(found, list) else []


def hex_of(value: JSON) -> Hex | None:
    """An axial ``[q, r]`` of a board view as a Hex; None for anything else (a piece not placed)."""
    if isinstance(value, list) and len(value) == 2:
        q, r = value
        if type(q) is int and type(r) is int:
            return Hex(q, r)
    return None


def _piece_hex(piece: Mapping[str, JSON]) -> Hex | None:
    return hex_of(piece.get("hex", piece.get("position")))


def _size(view: Mapping[str, JSON], placed: Sequence[Hex]) -> tuple[int, int]:
    for source in (view, view.get("terrain")):
        cols, rows = (source.get("cols"), source.get("rows")) if isinstance(source, Mapping) else (None, None)
        if type(cols) is int and type(rows) is int:
            return cols, rows
    spots = [hexgrid.to_odd_q(h) for h in placed]
    return max((c for c, _ in spots), default=0) + 1, max((r for _, r in spots), default=0) + 1


def _side_names(view: JSON) -> Mapping[str, str]:
    names = view.get("side_names") if isinstance(view, Mapping) else None
    return {str(k): str(v) for k, v in names.items()} if isinstance(names, Mapping) else {}


def generic_map(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    """A map from any board view holding ``cols``/``rows`` and pieces with a ``name``, ``side``, ``hex`` (or
    ``position``) and perhaps a ``facing`` and an ``altitude``; the wind from a ``wind`` direction."""
    board: Mapping[str, JSON] = view if isinstance(view, Mapping) else {}
    pieces = pieces_of(view)
    cols, rows = _size(board, [h for h in (_piece_hex(p) for p in pieces) if h is not None])
    on_map = set(hexgrid.rectangle_odd_q(cols, rows))
    sides = _side_names(view)
    selected = (focus or {}).get("selected")
    drawn = [p for p in pieces if _piece_hex(p) in on_map]
    labels = counter_labels([str(p.get("name")) for p in drawn])
    counters = []
    for piece in drawn:
        name, side, hex_ = str(piece.get("name")), str(piece.get("side", "")), _piece_hex(piece)
        assert hex_ is not None
        facing = piece.get("facing")
        col, row = hexgrid.to_odd_q(hex_)
        words = [name, sides.get(side, side), f"hex {col},{row}"]
        if type(facing) is int:
            words.append(f"facing {COMPASS[facing % 6]}")
        altitude = piece.get("altitude")
        badges = (Badge(str(altitude), f"altitude {altitude}"),) if altitude is not None else ()
        counters.append(
            Counter(
                key=name,
                hex=hex_,
                label=labels[name],
                side=side,
                side_name=sides.get(side, side),
                title=", ".join(words),
                facing=facing % 6 if type(facing) is int else None,
                badges=badges,
                selected=name == selected,
            )
        )
    return MapView(
        title=str(board.get("title") or "Battle map"),
        cols=cols,
        rows=rows,
        counters=tuple(counters),
        wind=wind_from(board.get("wind")),
        off_map=tuple(str(p.get("name")) for p in pieces if p not in drawn),
        sides=tuple(dict.fromkeys(str(p.get("side", "")) for p in pieces)),
    )


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


def generic_sheet(piece: Mapping[str, JSON], sides: Mapping[str, str]) -> RecordSheet:
    """A plain sheet for one piece: a row of boxes for each count ``x`` with its ``x_max`` (the boxes beyond
    ``x`` crossed off), its other plain values as facts."""
    rows, facts = [], []
    skip = {"name", "side", "hex", "position", "facing"}
    for key, value in piece.items():
        top = piece.get(f"{key}_max")
        if type(top) is int and (value is None or type(value) is int):
            now = value if isinstance(value, int) else None
            boxes = tuple(Box(UNKNOWN if now is None else (WHOLE if n < now else LOST)) for n in range(top))
            said = "not known" if now is None else f"{top - now} of {top} lost"
            rows.append(Row(_words(key), _words(key), boxes, f"{_words(key)}: {said}"))
        elif key not in skip and not key.endswith("_max") and isinstance(value, str | int | float | bool):
            facts.append(Fact(_words(key), str(value)))
    side = str(piece.get("side", ""))
    section = Section("record", "Record", (Block(rows=tuple(rows), empty="Nothing to cross off."),))
    return RecordSheet(
        key=str(piece.get("name")),
        title=str(piece.get("name")),
        subtitle=sides.get(side, side),
        facts=tuple(facts),
        sections=(section,),
    )


class GenericPresentation:
    """The generic defaults of the presentation protocol (``BaseRuleset`` inherits them): the engine's own
    events told and every other kind left to the app's plain line, the map and plain sheets from the board
    view's pieces. A ruleset overrides what it can say better."""

    def names(self, view: JSON, sides: Mapping[str, str]) -> Names:
        return Names(dict(sides), {})

    def narrate(self, event: Mapping[str, Any], names: Names) -> str | None:
        """The event in words, or None where this ruleset has nothing to say (the app writes a plain line)."""
        return tell(ENGINE_TELLERS, event, names)

    def is_detail(self, event: Mapping[str, Any]) -> bool:
        """Bookkeeping a reader may skip (the page folds these lines away)."""
        return str(event.get("kind")) in ENGINE_DETAIL

    def map_view(self, view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
        """The map a side sees, from its board view. ``focus`` asks for overlays (a ruleset's own keys, such
        as a selected piece)."""
        return generic_map(view, focus)

    def record_sheet(
        self, view: JSON, piece: str, *, start: JSON = None, turn: int | None = None, status: str | None = None
    ) -> RecordSheet | None:
        """The sheet of one piece on the board view (None for a piece not on it). ``start``: the piece as
        that side saw it at the start of the battle, for boxes crossed off since; ``turn``: the turn now;
        ``status``: her state in words off the battle board (a campaign's ship in port), where the battle's
        own state means nothing."""
        found = next((p for p in pieces_of(view) if str(p.get("name")) == piece), None)
        return generic_sheet(found, _side_names(view)) if found is not None else None

    def ship_overlays(self, view: JSON, *, options: Mapping[str, JSON], turn: int) -> tuple[ShipOverlays, ...]:
        """Per piece on the board view, what to show when it is selected: its arcs, range bands and rings, and
        the enemies it may fire at with the number needed. Built from ``view`` alone (what the viewer may see),
        the battle's ``options`` and the ``turn`` (public to every side), so a side is never shown reach or
        odds computed from what it may not know. The generic default: nothing (a ruleset without guns)."""
        return ()
