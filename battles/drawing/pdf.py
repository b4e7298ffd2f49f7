"""A printable record sheet of any ruleset: the same :class:`~battles.engine.presentation.RecordSheet` the page
draws, laid out on A4 pages with fpdf2 (pure Python, no system libraries).

From the top down: the enclosure (its figures framed by their look: a square for "hull-size", a hexagon for
"armor" or "hexagon", a circle for "speed", plain text otherwise; the title and subtitle), the notes and facts,
then each section (the wide ones first) with its blocks: subheadings, rows of boxes, facts, items with their
aspects and crew circles, notes. Crossed boxes are crossed; unknown ones are dashed with a "?", never drawn as
zero. Boxes and arcs given a colour (engine/presentation.py COLOURS) are printed in it; a "lamps" row is round.

fpdf2's built-in fonts cover Latin-1 only; any other character in a name is written by its closest Latin-1
spelling (accents dropped) or "?", so a sheet always prints.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence

from fpdf import FPDF

from battles.drawing.record_sheet import arc_colour, aspects
from battles.engine.presentation import (
    EMPTY,
    HEXAGON,
    LAMPS,
    LOST,
    UNKNOWN,
    WHOLE,
    Block,
    Box,
    Fact,
    Item,
    RecordSheet,
    Row,
    Section,
)

MARGIN = 12.0  # mm
BOX = 4.2  # a hull or crew box, mm
GAP = 0.8
LABEL_W = 16.0
INK = (42, 30, 20)
RUST = (138, 52, 18)
MUTED = (94, 75, 59)
SHADE = (232, 214, 168)
# The colours a box or an arc may be printed in (engine/presentation.py COLOURS), as the page's style sheet has them.
PALETTE = {"green": (46, 133, 64), "amber": (217, 142, 4), "red": (192, 40, 28), "blue": (31, 95, 168)}


def pale(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """``colour`` mixed with white paper: ``amount`` of the colour."""
    r, g, b = colour
    return (round(255 - (255 - r) * amount), round(250 - (250 - g) * amount), round(240 - (240 - b) * amount))


# Letters and marks with no Latin-1 spelling and no accent to drop.
SPELLED = str.maketrans(
    {
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": "...",
        "\u0141": "L",  # L with stroke
        "\u0142": "l",
        "\u0110": "D",  # D with stroke
        "\u0111": "d",
        "\u0152": "OE",
        "\u0153": "oe",
        "\u0131": "i",  # dotless i
    }
)


def latin1(text: str) -> str:
    """Text the built-in PDF fonts can write: Latin-1 as it is, other letters without their accents, "?" for
    the rest."""
    out = []
    for char in text.translate(SPELLED):
        try:
            char.encode("latin-1")
            out.append(char)
        except UnicodeEncodeError:
            plain = unicodedata.normalize("NFKD", char).encode("latin-1", "ignore").decode("latin-1")
            out.append(plain or "?")
    return "".join(out)


class SheetPDF(FPDF):
    def need(self, height: float) -> None:
        """Start a new page unless ``height`` mm still fit on this one."""
        if self.get_y() + height > self.h - MARGIN:
            self.add_page()

    def heading(self, text: str) -> None:
        self.need(12)
        self.ln(2)
        self.set_font("helvetica", "B", 10)
        self.set_text_color(*INK)
        self.cell(0, 5, latin1(text.upper()), new_x="LMARGIN", new_y="NEXT")
        self.set_draw_color(*INK)
        self.set_line_width(0.3)
        self.line(MARGIN, self.get_y(), self.w - MARGIN, self.get_y())
        self.ln(1.5)

    def subheading(self, text: str) -> None:
        self.need(10)
        self.set_font("helvetica", "B", 8)
        self.set_text_color(*MUTED)
        self.cell(0, 4.5, latin1(text.upper()), new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(*INK)

    def para(self, text: str, *, bold: str = "", size: float = 9, italic: bool = False) -> None:
        self.need(6)
        self.set_text_color(*INK)
        if bold:
            self.set_font("helvetica", "B", size)
            self.write(4.2, latin1(bold + " "))
        self.set_font("helvetica", "I" if italic else "", size)
        self.write(4.2, latin1(text))
        self.ln(4.4)


def sheet_pdf(sheets: Sequence[RecordSheet]) -> bytes:
    """One page (or more) per sheet, as PDF bytes."""
    pdf = SheetPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(False)
    pdf.set_creator("Red Captain")
    pdf.set_title(latin1(", ".join(s.title for s in sheets) + " - record sheet"))
    for sheet in sheets:
        pdf.add_page()
        _draw(pdf, sheet)
    return bytes(pdf.output())


def _draw(pdf: SheetPDF, sheet: RecordSheet) -> None:
    _enclosure(pdf, sheet)
    for note in sheet.notes:
        pdf.para(note, italic=True, size=8.5)
    if sheet.facts:
        pdf.para("   ".join(f"{fact.label}: {fact.value}" for fact in sheet.facts), size=8.5)
    for section in [s for s in sheet.sections if s.wide] + [s for s in sheet.sections if not s.wide]:
        _section(pdf, section)


def _section(pdf: SheetPDF, section: Section) -> None:
    pdf.heading(f"{section.title} ({section.summary})" if section.summary else section.title)
    for block in section.blocks:
        _block(pdf, block)


def _block(pdf: SheetPDF, block: Block) -> None:
    if block.heading:
        pdf.subheading(block.heading)
    for row in block.rows:
        _row(pdf, row, marked=row.look == "ceiling", gone=row.look == "gone")
    if block.look and block.facts:  # a list: one paragraph
        pdf.para("; ".join(f"{fact.label}: {fact.value}" for fact in block.facts), size=8.5)
    elif block.facts:
        for fact in block.facts:
            pdf.para(fact.value, bold=f"{fact.label}:")
    for item in block.items:
        _item(pdf, item)
    for note in block.notes:
        pdf.para(note, italic=True, size=8)
    if block.empty and not (block.rows or block.facts or block.items or block.notes):
        pdf.para(block.empty)


def _enclosure(pdf: SheetPDF, sheet: RecordSheet) -> None:
    x, y, w, h = MARGIN, pdf.get_y(), pdf.w - 2 * MARGIN, 22.0
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.6)
    pdf.rect(x, y, w, h)
    # The lead figure (hull size) in a square, lower left of the enclosure as on the form.
    left = x + 3.0
    for figure in sheet.lead:
        _figure(pdf, figure, left + 5, y + h / 2, y, h)
        left += 14.0
    pdf.set_text_color(*INK)
    pdf.set_font("times", "B", 18)
    pdf.text(left, y + 9, latin1(sheet.title))
    pdf.set_font("helvetica", "", 9)
    pdf.set_text_color(*MUTED)
    pdf.text(left, y + 15, latin1(sheet.subtitle.replace(" · ", " - ")))
    pdf.set_text_color(*INK)
    # The other figures from the right: the last (speed) rightmost.
    right = x + w - 11
    for figure in reversed(sheet.badges):
        _figure(pdf, figure, right, y + h / 2, y, h)
        right -= 19.0
    pdf.set_y(y + h + 2)


def _figure(pdf: SheetPDF, figure: Fact, cx: float, cy: float, top: float, height: float) -> None:
    """One of the enclosure's figures, framed by its look."""
    if figure.look == "hull-size":
        pdf.set_line_width(0.5)
        pdf.rect(cx - 5, top + height - 13, 10, 10)
        _centred(pdf, cx, top + height - 8, figure.value, 13, bold=True)
    elif figure.look in ("armor", HEXAGON):
        _hexagon(pdf, cx, cy, 6.0 if figure.look == "armor" else 7.5, figure.value)
        if figure.aside:
            pdf.set_text_color(*MUTED)
            _centred(pdf, cx, cy + 9.5, figure.aside, 6.5)
            pdf.set_text_color(*INK)
    elif figure.look == "speed":
        pdf.set_line_width(0.6)
        pdf.circle(cx, cy, 8.0)
        _centred(pdf, cx, cy - (1.5 if figure.aside else 0), figure.value, 15, bold=True)
        if figure.aside:
            pdf.set_text_color(*RUST)
            _centred(pdf, cx, cy + 4.5, figure.aside, 6.5)
            pdf.set_text_color(*INK)
    else:
        _centred(pdf, cx, cy - 2, figure.value, 12, bold=True)
        pdf.set_text_color(*MUTED)
        _centred(pdf, cx, cy + 3.5, figure.label, 6)
        if figure.aside:
            pdf.set_text_color(*RUST)
            _centred(pdf, cx, cy + 6.5, figure.aside, 6.5)
        pdf.set_text_color(*INK)


def _centred(pdf: SheetPDF, x: float, y: float, text: str, size: float, *, bold: bool = False) -> None:
    """Text centred on (x, y)."""
    pdf.set_font("helvetica", "B" if bold else "", size)
    text = latin1(text)
    pdf.text(x - pdf.get_string_width(text) / 2, y + size * 0.3527 * 0.35, text)


def _hexagon(pdf: SheetPDF, cx: float, cy: float, r: float, text: str, *, size: float = 12) -> None:
    points = [(cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)]
    pdf.set_fill_color(*INK)
    pdf.polygon(points, style="F")
    pdf.set_text_color(255, 250, 240)
    _centred(pdf, cx, cy, text, size, bold=True)
    pdf.set_text_color(*INK)


def _box(pdf: SheetPDF, x: float, y: float, box: Box, *, lamp: bool = False) -> None:
    pdf.set_line_width(0.3)
    pdf.set_draw_color(*INK)
    colour = PALETTE.get(box.colour)
    if colour is not None and box.state != UNKNOWN:
        _coloured_box(pdf, x, y, box, colour, lamp=lamp)
        return
    if box.state == UNKNOWN:
        pdf.set_dash_pattern(dash=0.6, gap=0.5)
        pdf.rect(x, y, BOX, BOX)
        pdf.set_dash_pattern()
        pdf.set_text_color(*MUTED)
        _centred(pdf, x + BOX / 2, y + BOX / 2, box.label or "?", 6.5, bold=True)
        pdf.set_text_color(*INK)
        return
    if box.state == LOST:
        pdf.set_fill_color(*SHADE)
        pdf.rect(x, y, BOX, BOX, style="DF")
    else:
        pdf.rect(x, y, BOX, BOX)
    if box.state == EMPTY:
        # A box not on this piece's form (a Data Card's boxes beyond her stats): struck through once, as printed.
        pdf.set_draw_color(*MUTED)
        pdf.line(x + 0.5, y + BOX / 2, x + BOX - 0.5, y + BOX / 2)
        pdf.set_draw_color(*INK)
    if box.label:
        pdf.set_text_color(*(MUTED if box.state in (LOST, EMPTY) else INK))
        _centred(pdf, x + BOX / 2, y + BOX / 2, box.label, 6.5, bold=True)
        pdf.set_text_color(*INK)
    if box.state == LOST:
        pdf.set_draw_color(*RUST)
        pdf.set_line_width(0.45)
        pdf.line(x + 0.5, y + 0.5, x + BOX - 0.5, y + BOX - 0.5)
        pdf.line(x + BOX - 0.5, y + 0.5, x + 0.5, y + BOX - 0.5)
        pdf.set_draw_color(*INK)


def _coloured_box(pdf: SheetPDF, x: float, y: float, box: Box, colour: tuple[int, int, int], *, lamp: bool) -> None:
    """A box printed in colour: filled when whole (a lamp lit), pale when empty (a lamp dark) or crossed."""
    pdf.set_draw_color(*colour)
    pdf.set_line_width(0.4)
    pdf.set_fill_color(*(colour if box.state == WHOLE else pale(colour, 0.15 if box.state == EMPTY else 0.3)))
    if lamp:
        pdf.circle(x + BOX / 2, y + BOX / 2, BOX / 2, style="DF")
    else:
        pdf.rect(x, y, BOX, BOX, style="DF")
    if box.label:
        pdf.set_text_color(*((255, 255, 255) if box.state == WHOLE else MUTED))
        _centred(pdf, x + BOX / 2, y + BOX / 2, box.label, 6.5, bold=True)
    if box.state == LOST:
        pdf.set_draw_color(*RUST)
        pdf.set_line_width(0.45)
        pdf.line(x + 0.5, y + 0.5, x + BOX - 0.5, y + BOX - 0.5)
        pdf.line(x + BOX - 0.5, y + 0.5, x + 0.5, y + BOX - 0.5)
    pdf.set_draw_color(*INK)
    pdf.set_text_color(*INK)


def _lamps(pdf: SheetPDF, row: Row) -> None:
    """A row of lamps: round, the label after them."""
    pdf.need(BOX + GAP + 1)
    y0 = pdf.get_y()
    x = MARGIN
    for box in row.boxes:
        _box(pdf, x, y0, box, lamp=True)
        x += BOX + GAP * 2
    pdf.set_font("helvetica", "B", 8)
    pdf.text(x + 1.5, y0 + BOX - 0.9, latin1(row.label))
    pdf.set_y(y0 + BOX + GAP + 0.6)


def _row(pdf: SheetPDF, row: Row, *, marked: bool = False, gone: bool = False) -> None:
    if row.look == LAMPS:
        _lamps(pdf, row)
        return
    per_line = max(int((pdf.w - 2 * MARGIN - LABEL_W) // (BOX + GAP)), 1)
    lines = max(math.ceil(len(row.boxes) / per_line), 1)
    pdf.need(lines * (BOX + GAP) + 1)
    y0 = pdf.get_y()
    pdf.set_font("helvetica", "B", 8)
    pdf.set_text_color(*(MUTED if gone or not row.known else INK))
    pdf.text(MARGIN, y0 + BOX - 0.9, latin1(row.label + (" <" if marked else "")))
    pdf.set_text_color(*INK)
    for n, box in enumerate(row.boxes):
        line, col = divmod(n, per_line)
        _box(pdf, MARGIN + LABEL_W + col * (BOX + GAP), y0 + line * (BOX + GAP), box)
    pdf.set_y(y0 + lines * (BOX + GAP) + 0.6)


def _item(pdf: SheetPDF, gun: Item) -> None:
    pdf.need(17)
    y = pdf.get_y()
    x = MARGIN
    # The aspects the gun fires into, as wedges round a hull pointing up.
    cx, cy, r = x + 4, y + 3.5, 3.5
    pdf.set_line_width(0.15)
    fill = PALETTE.get(arc_colour(gun), RUST)
    for _, first, last, on in aspects(gun):
        steps = [first + (last - first) * i / 8 for i in range(9)]
        points = [(cx, cy)] + [(cx + r * math.sin(math.radians(a)), cy - r * math.cos(math.radians(a))) for a in steps]
        if on:
            pdf.set_fill_color(*fill)
            pdf.polygon(points, style="DF")
        else:
            pdf.polygon(points, style="D")
    pdf.set_fill_color(*INK)
    pdf.polygon(
        [(cx, cy - 2.4), (cx + 1, cy - 1), (cx + 1, cy + 1.8), (cx, cy + 2.6), (cx - 1, cy + 1.8), (cx - 1, cy - 1)],
        style="F",
    )
    # The gun box with its type, and a box drawn round an armored gun (SG-ARM-10).
    pdf.set_font("helvetica", "B", 9)
    label = latin1(f"{gun.key}  {gun.name}")
    width = pdf.get_string_width(label) + 4
    bx = x + 10
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.35)
    pdf.rect(bx, y + 1, width, 5)
    pdf.set_text_color(*(MUTED if gun.state == "destroyed" else INK))
    pdf.text(bx + 2, y + 4.8, label)
    if gun.state == "destroyed":
        pdf.line(bx + 1, y + 3.5, bx + width - 1, y + 3.5)
    pdf.set_text_color(*INK)
    # Crew circles: filled for a man at the gun, crossed where nobody is, dashed where it is not known.
    px = bx + width + 2.5
    for circle in gun.circles:
        pdf.set_line_width(0.3)
        if circle.state == UNKNOWN:
            pdf.set_dash_pattern(dash=0.5, gap=0.4)
            pdf.circle(px + 1.6, y + 3.5, 1.6)
            pdf.set_dash_pattern()
        elif circle.state == EMPTY:
            pdf.circle(px + 1.6, y + 3.5, 1.6)
            pdf.set_draw_color(*RUST)
            pdf.line(px + 0.5, y + 4.6, px + 2.7, y + 2.4)
            pdf.set_draw_color(*INK)
        else:
            pdf.set_fill_color(*INK)
            pdf.circle(px + 1.6, y + 3.5, 1.6, style="DF")
        px += 4.0
    armor = gun.values.get("armor")
    if armor is not None:
        _hexagon(pdf, px + 3.5, y + 3.5, 2.8, str(armor), size=7.5)
        px += 7.5
    end = px + 1
    marks = gun.values.get("marks")
    if isinstance(marks, list) and "armored" in marks:
        pdf.set_line_width(0.5)
        pdf.rect(bx - 1.2, y, end - bx + 1.2, 7)
    pdf.set_font("helvetica", "", 7.5)
    pdf.set_text_color(*MUTED)
    detail = gun.detail.replace(" · ", " - ")
    if gun.state:
        detail += f" - {gun.state.upper()}"
    detail = latin1(detail)
    if end + 2 + pdf.get_string_width(detail) <= pdf.w - MARGIN:
        pdf.text(end + 2, y + 4.6, detail)
        pdf.set_y(y + 8)
    else:  # too long beside the gun: the line below it
        pdf.set_xy(bx, y + 7.5)
        pdf.multi_cell(pdf.w - MARGIN - bx, 3.5, detail, new_x="LMARGIN", new_y="NEXT")
        pdf.set_y(pdf.get_y() + 1.5)
    pdf.set_text_color(*INK)
