"""Regions of a rendered page, cut out by their ids, as HTMX out-of-band swaps.

The battle page's changes view renders the page as a reload would and sends back only the regions that move (the
status line, the decisions, the map, the log): cut from the same render, a region can never drift from what the
page itself shows, whoever rearranges the page around those ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html.parser import HTMLParser


class _Cutter(HTMLParser):
    """Finds where each wanted element starts and ends in the text (its outer HTML), by its id attribute."""

    def __init__(self, text: str, wanted: Iterable[str]) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.wanted = set(wanted)
        self.found: dict[str, tuple[int, int]] = {}
        self._lines = [0]
        for number, char in enumerate(text):
            if char == "\n":
                self._lines.append(number + 1)
        self._open: tuple[str, str, int] | None = None  # (id, tag, start) of the region being read
        self._depth = 0

    def _here(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._open is not None:
            self._depth += tag == self._open[1]
            return
        ident = dict(attrs).get("id")
        if ident in self.wanted and ident not in self.found:
            self._open = (ident, tag, self._here())
            self._depth = 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ident = dict(attrs).get("id")
        if self._open is None and ident in self.wanted and ident not in self.found:
            start = self._here()
            self.found[ident] = (start, self.text.index(">", start) + 1)

    def handle_endtag(self, tag: str) -> None:
        if self._open is None or tag != self._open[1]:
            return
        self._depth -= 1
        if self._depth == 0:
            ident, _, start = self._open
            self.found[ident] = (start, self.text.index(">", self._here()) + 1)
            self._open = None


def cut(text: str, ids: Iterable[str]) -> dict[str, str]:
    """The outer HTML of each element of ``text`` with one of these ids (the first of each); missing ids are left
    out, and so is one inside another region (it goes with that one)."""
    cutter = _Cutter(text, ids)
    cutter.feed(text)
    cutter.close()
    return {ident: text[start:end] for ident, (start, end) in cutter.found.items()}


def out_of_band(text: str, ids: Sequence[str]) -> str:
    """The regions with these ids as out-of-band swaps, each replacing the element of the same id on the page; a
    region the fresh page no longer has (the decisions once the battle is over) is deleted from the page."""
    regions = cut(text, ids)
    parts = []
    for ident in ids:
        region = regions.get(ident)
        if region is None:
            parts.append(f'<div id="{ident}" hx-swap-oob="delete"></div>')
            continue
        tag_end = next(i for i, char in enumerate(region) if i > 0 and (char.isspace() or char in ">/"))
        parts.append(f'{region[:tag_end]} hx-swap-oob="true"{region[tag_end:]}')
    return "\n".join(parts)
