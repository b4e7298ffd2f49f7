"""Appendix A on a page: the ruleset's ``card_designer`` (battles/engine/card_designer.py). The form asks for the
particulars ``particulars.from_json`` reads; a gun list is written as the text writes guns, one a line. A field the
rules cannot read is refused on that field. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from battles.engine.answers import Field, Group, Many, One, Option, Text
from battles.engine.card_designer import DesignedCard, DesignRefused
from battles.engine.events import JSON
from battles.rules.ironclads.appendix_a import rate
from battles.rules.ironclads.cards import ARCS, TURRETS
from battles.rules.ironclads.particulars import ParticularsError, from_json
from battles.rules.ironclads.record_sheet import ARC_WORDS, record_sheet

SHIP, ARMOUR, GUNS = "The ship", "Armour", "Guns (one gun mounting a line: 18 x 6.4 in rifled)"
GUN_HINT: Final = "one a line: count x calibre in and/or shot lb, smoothbore or rifled (unknown: smoothbore)"


def key(name: str) -> str:
    """A form key for a particulars field: "forward turret bears" -> "forward_turret_bears"."""
    return name.replace(" ", "_")


def _text(name: str, label: str, section: str, hint: str = "", *, lines: bool = False) -> Text:
    """A field of words; ``lines``: a list, one entry a line (a gun list), longer than a figure."""
    return Text(key=key(name), label=label, section=section, hint=hint, max_length=1000 if lines else 100)


def _fields() -> tuple[Field, ...]:
    ship: list[Field] = [
        _text("name", "Name", SHIP),
        _text("nation", "Nation", SHIP),
        _text("years", "Years", SHIP, hint="in service, e.g. 1859-1879"),
        _text("sisters", "Sister ships", SHIP, hint="names, separated by commas"),
        _text(
            "displacement_tons", "Displacement (tons)", SHIP, hint="Hull: a stat per 1,000 tons or part (IC-CARD-28)"
        ),
        _text("speed_knots", "Maximum speed (knots)", SHIP, hint="Propulsion: a stat a knot, rounded up (IC-CARD-27)"),
        One(
            key="monitor",
            label="A monitor (very low freeboard)",
            section=SHIP,
            options=(Option(True, "yes"), Option(False, "no")),
            default=False,
            hint="Hull doubled, still at most 12 (IC-CARD-29)",
        ),
        _text("belt_iron_in", "Belt iron (in)", ARMOUR, hint="0 or blank: no iron armour (IC-CARD-12)"),
        _text(
            "wood_backing_in",
            "Wood backing (in)",
            ARMOUR,
            hint="inches, 'unknown' when there but of unknown thickness (6 in, IC-CARD-14), blank for none",
        ),
    ]
    arcs = [_text(arc, f"{ARC_WORDS[arc]} arc", GUNS, hint=GUN_HINT, lines=True) for arc in ARCS]
    turrets: list[Field] = []
    for turret in TURRETS:
        turrets.append(_text(turret, turret.capitalize(), GUNS, hint=GUN_HINT, lines=True))
        turrets.append(
            Many(
                key=key(f"{turret} bears"),
                label=f"{turret.capitalize()} bears into",
                section=GUNS,
                options=tuple(Option(arc, ARC_WORDS[arc]) for arc in ARCS),
                default=ARCS,
            )
        )
    return (*ship, *arcs, *turrets)


class AppendixA:
    """The designer: particulars in, the Data Card and Appendix A's working out."""

    title = "Appendix A: a ship's Data Card"
    about = (
        "A ship's Data Card from her particulars as the reference books give them: the guns that fire into each arc "
        "and those in each turret, her belt, speed and displacement. The working is shown as the text's worked "
        "examples show it."
    )

    def fields(self) -> Group:
        return Group(key="particulars", label="Particulars", fields=_fields())

    def design(self, values: Mapping[str, JSON]) -> DesignedCard | DesignRefused:
        data: dict[str, Any] = {
            name: values.get(key(name))
            for name in ("name", "nation", "years", "displacement_tons", "speed_knots", "belt_iron_in")
        }
        data = {k: v for k, v in data.items() if v not in (None, "")}
        data["sisters"] = str(values.get("sisters") or "")
        data["wood_backing_in"] = values.get("wood_backing_in")
        data["monitor"] = values.get("monitor") is True
        data["arcs"] = {arc: values.get(key(arc)) or "" for arc in ARCS}
        turrets: dict[str, Any] = {}
        for turret in TURRETS:
            bears = values.get(key(f"{turret} bears"))
            turrets[turret] = {
                "guns": values.get(key(turret)) or "",
                "bears": bears if bears is not None else list(ARCS),
            }
        data["turrets"] = turrets
        try:
            rating = rate(from_json(data))
        except ParticularsError as error:
            return DesignRefused(key(error.field), error.message[:1].upper() + error.message[1:] + ".")
        return DesignedCard(record_sheet(rating.card), rating.lines())


CARD_DESIGNER: Final = AppendixA()
