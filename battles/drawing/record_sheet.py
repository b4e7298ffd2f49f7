"""Any ruleset's record sheet as HTML: the ruleset says what is on it as data (a
:class:`~battles.engine.presentation.RecordSheet`: sections of blocks, rows of boxes, facts, items), and the
templates ``battles/_record_sheet.html`` and its parts draw it; ``battles/drawing/pdf.py`` draws the same data
for print, so the page and the print agree.

Nothing here knows a ruleset. Its look is kept by its ``look`` keys, which become style classes (``sheet--``,
``sheet__section--``, ``sheet-row--``, ``sheet__fact--``) and frames for the enclosure's figures (a square, a
hexagon, a circle, by the figure's look; "hexagon" frames any figure in one). A box's ``colour`` becomes a
style class too (``box--blue``), and a row whose look is "lamps" draws its boxes as round lamps. An item's
aspects (``values["aspects"]``: name, from, to, on, in degrees clockwise from the bow) are drawn as wedges of a
small glyph round a hull pointing up, in its ``values["arc_colour"]`` where it names one. A block whose items all
carry a ``values["glyph"]`` (answers.GLYPHS) is drawn as a row of card tiles, the look of the plot form's cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from battles.engine.answers import GLYPHS
from battles.engine.presentation import (
    COLOURS,
    EMPTY,
    LOST,
    UNKNOWN,
    WHOLE,
    Block,
    Box,
    Item,
    RecordSheet,
    Row,
    Section,
)

__all__ = ["EMPTY", "LOST", "UNKNOWN", "WHOLE", "Box", "RecordSheet", "Row", "Section", "render_record_sheet"]


@dataclass(frozen=True)
class Wedge:
    aspect: str
    d: str
    on: bool


@dataclass(frozen=True)
class ItemLine:
    """An item as the template writes it: its style modifiers, the aspect glyph's wedges, and its figures."""

    item: Item
    css: str
    wedges: tuple[Wedge, ...]
    armor: str | None
    arc_colour: str = ""
    glyph: str = ""  # one of answers.GLYPHS: the item is a card, drawn as a card tile


def wedge(start: float, end: float) -> str:
    """A wedge of the 24 x 24 glyph's circle between two bearings (degrees clockwise from the bow, up)."""

    def point(angle: float) -> str:
        a = math.radians(angle)
        return f"{12 + 11 * math.sin(a):.2f} {12 - 11 * math.cos(a):.2f}"

    return f"M12 12L{point(start)}A11 11 0 0 1 {point(end)}Z"


def aspects(item: Item) -> list[tuple[str, float, float, bool]]:
    """An item's aspects: (name, from, to, on), from its ``values``; none where it gives none."""
    found = item.values.get("aspects")
    rows = found if isinstance(found, list) else []
    return [
        (str(a[0]), float(a[1]), float(a[2]), bool(a[3]))
        for a in rows
        if isinstance(a, list) and len(a) == 4 and isinstance(a[1], int | float) and isinstance(a[2], int | float)
    ]


def item_line(item: Item) -> ItemLine:
    marks = item.values.get("marks")
    css = " ".join(f"sheet-gun--{m}" for m in (marks if isinstance(marks, list) else []))
    armor = item.values.get("armor")
    return ItemLine(
        item=item,
        css=css,
        wedges=tuple(Wedge(name, wedge(start, end), on) for name, start, end, on in aspects(item)),
        armor=None if armor is None else str(armor),
        arc_colour=arc_colour(item),
        glyph=glyph if isinstance(glyph := item.values.get("glyph"), str) and glyph in GLYPHS else "",
    )


def arc_colour(item: Item) -> str:
    """The colour an item's aspects are printed in (one of COLOURS), "" for the renderer's own."""
    colour = item.values.get("arc_colour")
    return colour if isinstance(colour, str) and colour in COLOURS else ""


@dataclass(frozen=True)
class BlockView:
    block: Block
    items: tuple[ItemLine, ...]

    @property
    def tiles(self) -> bool:
        """Every item a card with a glyph: the block is drawn as a row of card tiles, as the plot form draws them."""
        return bool(self.items) and all(line.glyph for line in self.items)

    @property
    def empty(self) -> bool:
        b = self.block
        return not (b.rows or b.facts or b.items or b.notes)


@dataclass(frozen=True)
class SectionView:
    section: Section
    blocks: tuple[BlockView, ...]


def _sections(sections: Sequence[Section]) -> tuple[SectionView, ...]:
    return tuple(
        SectionView(s, tuple(BlockView(b, tuple(item_line(i) for i in b.items)) for b in s.blocks)) for s in sections
    )


def render_record_sheet(sheet: RecordSheet) -> SafeString:
    """The sheet as HTML to put in a page."""
    context = {
        "sheet": sheet,
        "wide": _sections([s for s in sheet.sections if s.wide]),
        "sections": _sections([s for s in sheet.sections if not s.wide]),
    }
    return SafeString(render_to_string("battles/_record_sheet.html", context))
