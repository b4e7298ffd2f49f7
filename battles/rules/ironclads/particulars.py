"""A ship's particulars, as Appendix A reads them from the reference books (IC-CARD-02): who she is, her displacement,
speed and belt, and the guns that fire into each arc or sit in each turret. Pure and immutable.

Particulars come as JSON (a file for ``manage.py rate_ironclad``, an entry of ``data/fleet.json``, the designer page's
fields). A gun is written as the text writes one: ``"18 x 6.4 in rifled"``, ``"2 x 150 lb smoothbore"``, ``"1 x 8 in
150 lb rifled (Parrott)"``: the count, a calibre in inches and/or a weight of shot in lb, the bore (smoothbore, rifled
or unknown; unknown when not said) and a name in brackets. Anything that cannot be read is a ``ParticularsError``
naming the field it came from, so a form can say it on that field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from battles.rules.ironclads.cards import ARCS, PORT, STARBOARD, TURRETS

SMOOTHBORE, RIFLED, UNKNOWN_BORE = "smoothbore", "rifled", "unknown"
BORES: Final = (SMOOTHBORE, RIFLED, UNKNOWN_BORE)
UNKNOWN_WOOD: Final = "unknown"  # wood backing known to be there, its thickness not (IC-CARD-14)
BROADSIDE: Final = "broadside"  # in particulars: guns firing into each broadside, port and starboard alike

_GUN = re.compile(r"^\s*(\d+)\s*[x\u00d7]\s*(.*?)\s*(?:\(([^()]*)\))?\s*$", re.IGNORECASE)
_CALIBRE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:in\b|inch(?:es)?\b|\")", re.IGNORECASE)
_SHOT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:lbs?\b|pdr\b|-?pounders?\b)", re.IGNORECASE)
_BORE = re.compile(r"\b(smoothbore|rifled|unknown)\b", re.IGNORECASE)


class ParticularsError(ValueError):
    """Particulars that cannot be rated: ``field`` names where (a JSON key or a form field), ``message`` why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def figure(value: Fraction) -> str:
    """A Fraction of tenths or hundredths as a plain decimal: 13, 12.6, 4.75."""
    if value.denominator == 1:
        return f"{value.numerator:,}" if abs(value) >= 10000 else str(value.numerator)
    return f"{float(value):.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class Gun:
    """``count`` guns alike: a calibre in inches and/or a weight of shot in lb (at least one), the bore, a name."""

    count: int
    calibre_in: Fraction | None = None
    shot_lb: Fraction | None = None
    bore: str = UNKNOWN_BORE
    name: str = ""

    def __str__(self) -> str:
        parts = [f"{self.count} x"]
        if self.calibre_in is not None:
            parts.append(f"{figure(self.calibre_in)} in")
        if self.shot_lb is not None:
            parts.append(f"{figure(self.shot_lb)} lb")
        if self.bore != UNKNOWN_BORE:
            parts.append(self.bore)
        if self.name:
            parts.append(f"({self.name})")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Turret:
    """One of the card's three turrets: her guns and the arcs she may bear into (agreed before the game,
    IC-CARD-02, IC-ARC-08)."""

    name: str
    guns: tuple[Gun, ...]
    bears: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Particulars:
    """What Appendix A needs of a ship. ``belt_iron_in`` 0: no iron armour (IC-CARD-12); ``wood_backing_in`` the
    inches of wood behind it, ``UNKNOWN_WOOD`` where its thickness cannot be found (IC-CARD-14), None for none.
    ``arcs``: for each fixed arc, every gun that can fire into it (IC-CARD-16), so a pivot gun is listed in each arc
    it bears into."""

    name: str
    displacement_tons: int
    speed_knots: Fraction
    belt_iron_in: Fraction = Fraction(0)
    wood_backing_in: Fraction | str | None = None
    monitor: bool = False
    arcs: tuple[tuple[str, tuple[Gun, ...]], ...] = ()
    turrets: tuple[Turret, ...] = ()
    nation: str = ""
    years: str = ""
    sisters: tuple[str, ...] = ()

    def guns(self, arc: str) -> tuple[Gun, ...]:
        return dict(self.arcs).get(arc, ())


def read_gun(text: str, field: str) -> Gun:
    """A gun in the text's own words: ``"18 x 6.4 in rifled (RML)"`` (IC-CARD-03)."""
    found = _GUN.match(text)
    if not found:
        raise ParticularsError(field, f"cannot read {text!r}: write a gun as '18 x 6.4 in rifled' or '2 x 150 lb'")
    count, body, name = int(found.group(1)), found.group(2), (found.group(3) or "").strip()
    calibre, shot, bore = _CALIBRE.search(body), _SHOT.search(body), _BORE.search(body)
    rest = body
    for part in (calibre, shot, bore):
        if part:
            rest = rest.replace(part.group(0), " ", 1)
    if rest.strip(" ,;"):
        raise ParticularsError(field, f"cannot read {rest.strip()!r} in {text!r}")
    if not calibre and not shot:
        raise ParticularsError(field, f"{text!r} gives neither a calibre in inches nor a weight of shot in lb")
    if count < 1:
        raise ParticularsError(field, f"{text!r}: a gun mounting has at least one gun")
    return Gun(
        count=count,
        calibre_in=Fraction(calibre.group(1)) if calibre else None,
        shot_lb=Fraction(shot.group(1)) if shot else None,
        bore=bore.group(1).lower() if bore else UNKNOWN_BORE,
        name=name,
    )


def read_guns(value: Any, field: str) -> tuple[Gun, ...]:
    """A list of guns (or one line of them separated by ';' or new lines, as a form posts them)."""
    if value is None or value == "":
        return ()
    lines = re.split(r"[;\n]", value) if isinstance(value, str) else value
    if not isinstance(lines, list):
        raise ParticularsError(field, "expected a list of guns")
    guns = []
    for line in lines:
        if not isinstance(line, str):
            raise ParticularsError(field, f"a gun is written as text, not {line!r}")
        if line.strip():
            guns.append(read_gun(line, field))
    return tuple(guns)


def read_figure(value: Any, field: str, *, low: Fraction = Fraction(0)) -> Fraction:
    """A figure (a whole number, a decimal, or its text) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ParticularsError(field, f"expected a number, not {value!r}")
    try:
        found = Fraction(str(value).strip().replace(",", ""))
    except (ValueError, ZeroDivisionError):
        raise ParticularsError(field, f"expected a number, not {value!r}") from None
    if found < low:
        raise ParticularsError(field, f"must be at least {figure(low)}, not {figure(found)}")
    return found


def _text(data: Mapping[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ParticularsError(key, f"expected text, not {value!r}")
    return value.strip()


def _wood(value: Any) -> Fraction | str | None:
    if value is None or value == "" or value == "none":
        return None
    if isinstance(value, str) and value.strip().lower() == UNKNOWN_WOOD:
        return UNKNOWN_WOOD
    return read_figure(value, "wood_backing_in")


def _arcs(data: Mapping[str, Any]) -> tuple[tuple[str, tuple[Gun, ...]], ...]:
    given = data.get("arcs") or {}
    if not isinstance(given, Mapping):
        raise ParticularsError("arcs", "expected an object of arcs")
    unknown = set(given) - {*ARCS, BROADSIDE}
    if unknown:
        raise ParticularsError("arcs", f"no such arc {sorted(unknown)}; the arcs are {', '.join((*ARCS, BROADSIDE))}")
    both = read_guns(given.get(BROADSIDE), BROADSIDE)
    arcs = []
    for arc in ARCS:
        guns = read_guns(given.get(arc), arc)
        if arc in (PORT, STARBOARD):
            guns = both + guns
        if guns:
            arcs.append((arc, guns))
    return tuple(arcs)


def _turrets(data: Mapping[str, Any]) -> tuple[Turret, ...]:
    given = data.get("turrets") or {}
    if not isinstance(given, Mapping):
        raise ParticularsError("turrets", "expected an object of turrets")
    unknown = set(given) - set(TURRETS)
    if unknown:
        raise ParticularsError("turrets", f"no such turret {sorted(unknown)}; the turrets are {', '.join(TURRETS)}")
    turrets = []
    for name in TURRETS:
        entry = given.get(name)
        if entry is None:
            continue
        if not isinstance(entry, Mapping):
            raise ParticularsError(name, "expected an object with its guns and the arcs it bears into")
        guns = read_guns(entry.get("guns"), name)
        bears_given = entry.get("bears", list(ARCS))
        if not isinstance(bears_given, list) or not all(isinstance(a, str) for a in bears_given):
            raise ParticularsError(f"{name} bears", "expected a list of arcs")
        wrong = set(bears_given) - set(ARCS)
        if wrong:
            raise ParticularsError(f"{name} bears", f"no such arc {sorted(wrong)}; the arcs are {', '.join(ARCS)}")
        if guns and not bears_given:
            raise ParticularsError(f"{name} bears", "a turret with guns bears into at least one arc (IC-CARD-02)")
        if guns:
            turrets.append(Turret(name, guns, tuple(a for a in ARCS if a in bears_given)))
    return tuple(turrets)


def from_json(data: Mapping[str, Any]) -> Particulars:
    """Particulars from their JSON (``data/fleet.json``'s entries, a command's file): see ``data/README.md``."""
    name = _text(data, "name")
    if not name:
        raise ParticularsError("name", "a ship has a name")
    if "displacement_tons" not in data:
        raise ParticularsError("displacement_tons", "her displacement in tons is needed for her Hull (IC-CARD-28)")
    if "speed_knots" not in data:
        raise ParticularsError("speed_knots", "her maximum speed in knots is needed for her Propulsion (IC-CARD-27)")
    tons = read_figure(data["displacement_tons"], "displacement_tons", low=Fraction(1))
    if tons.denominator != 1:
        raise ParticularsError("displacement_tons", f"expected whole tons, not {figure(tons)}")
    sisters = data.get("sisters") or []
    if isinstance(sisters, str):
        sisters = [s for s in (part.strip() for part in sisters.split(",")) if s]
    if not isinstance(sisters, list) or not all(isinstance(s, str) for s in sisters):
        raise ParticularsError("sisters", "expected a list of names")
    monitor = data.get("monitor", False)
    if not isinstance(monitor, bool):
        raise ParticularsError("monitor", f"expected true or false, not {monitor!r}")
    return Particulars(
        name=name,
        nation=_text(data, "nation"),
        years=_text(data, "years"),
        sisters=tuple(sisters),
        displacement_tons=tons.numerator,
        speed_knots=read_figure(data["speed_knots"], "speed_knots"),
        belt_iron_in=read_figure(data.get("belt_iron_in") or 0, "belt_iron_in"),
        wood_backing_in=_wood(data.get("wood_backing_in")),
        monitor=monitor,
        arcs=_arcs(data),
        turrets=_turrets(data),
    )


__all__ = [
    "BORES",
    "BROADSIDE",
    "RIFLED",
    "SMOOTHBORE",
    "UNKNOWN_BORE",
    "UNKNOWN_WOOD",
    "Gun",
    "Particulars",
    "ParticularsError",
    "Turret",
    "figure",
    "from_json",
    "read_figure",
    "read_gun",
    "read_guns",
]
