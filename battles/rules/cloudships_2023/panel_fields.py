"""A control panel as the fields an umpire edits before the battle (issue 22; docs/cloudships.md section 2, "An
umpire's edits"): the answer schema's field kinds (``battles.engine.answers``), each defaulting to the panel's own
figure, with the bounds below. ``figures`` is what the fields spell left alone; ``panel_edits.py`` reads an edit
back into a panel and judges it.

The bounds are generous round the catalog's figures (docs/cloudships.md gives each one's reason); where the text
fixes a figure the bound is the text's (an anti-personnel gun's 4 to 6 dice, CM-AP-01).
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine.answers import Field, Group, Many, Number, One, Option, Repeat, Text
from battles.engine.events import JSON, JSONObject
from battles.rules.cloudships_2023 import conversion, panels
from battles.rules.cloudships_2023.panels import ControlPanel, Gun


@dataclass(frozen=True)
class Bound:
    """A figure's least and greatest value, the clause it answers and why (said on the form beside the field)."""

    low: int
    high: int
    clause: str
    why: str

    @property
    def words(self) -> str:
        return f"{self.low} to {self.high}"


MOVEMENT = Bound(1, 10, "CM-MOV-01", "normally 3 to 6; the catalog's run from 2 to 8")
RAM = Bound(1, 10, "CM-RAM-05", "the catalog's run from 1 to 7")
PARTIES = Bound(1, 12, "CM-BRD-10", "every ship has one; the catalog's most is 7")
CREW_STEP = Bound(
    1,
    10,
    "CM-AP-07",
    "the crew chart: 2 hits shrugged off, then a party lost every so many hits; the catalog's run from 1 to 5",
)
FLIGHTS = Bound(0, 6, "CM-FLY-01", "a flight is worth 2 when boarding (CM-FLY-23)")
HULL_BOXES = Bound(1, 60, "CM-DMG-01", "the catalog's rows run from 1 to 40 hull boxes")
MAIN_DICE = Bound(1, 6, "CM-FIRE-01", "the catalog's main guns roll 1 to 3")
AP_DICE = Bound(4, 6, "CM-AP-01", "anti-personnel guns roll 4, 5 or 6 dice")
DAMAGE = Bound(1, 20, "CM-FIRE-10", "the catalog's run from 1 to 17")
SHORT_RANGE = Bound(0, 15, "CM-FIRE-04", "hexes; no more than the long range")
LONG_RANGE = Bound(1, 15, "CM-FIRE-04", "hexes; the catalog's longest is 12")
TRACK = f"Damage track: hull boxes a row from the ceiling down, {HULL_BOXES.words}; 0 above the ceiling"
MOST_GUNS = 30  # the catalog's most is 26 (CM-GUN-06: every system counts)

# The bands a track row can stand for, top first (CM-ALT-01); a row a band from the ceiling down to Low.
TRACK_BANDS = (panels.HIGH, panels.MEDIUM, panels.LOW)
# The guns an umpire may add: the ones whose figures are all on the form (the exotics need their own rules' data).
ADDED_KINDS = (panels.MAIN, panels.ANTI_PERSONNEL)
YES_NO = (Option(True, "yes"), Option(False, "no"))
ARCS = tuple(Option(aspect, aspect) for aspect in panels.ASPECTS)
NEW_GUN = {"short_range": 2, "long_range": 4, "dice": 1, "damage": 3}


def bands_down(ceiling: str) -> tuple[str, ...]:
    """The bands of the track's rows for a ceiling, top row first."""
    return TRACK_BANDS[TRACK_BANDS.index(ceiling) :]


def hulls_of(panel: ControlPanel) -> dict[str, int]:
    """Each track row's hull boxes, by the band the row stands for."""
    rows = (row.count(panels.HULL) for row in panel.track)
    return dict(zip(bands_down(panel.ceiling), rows, strict=False))


def crew_step(panel: ControlPanel) -> int:
    """The hits a boarding party costs on the crew chart after those shrugged off (conversion.crew_chart)."""
    first = panel.crew_chart[0] if panel.crew_chart else 0
    return max(first - conversion.TABLES.whole("crew_chart", "shrugged_off"), CREW_STEP.low)


def positions() -> tuple[str, ...]:
    return tuple(conversion.TABLES.texts("positions", "order"))


def gun_label(gun: Gun) -> str:
    return f"Gun {gun.number}: {gun.name}, {gun.position}"


def _number(
    key: str, label: str, bound: Bound, default: int | None, *, optional: bool = False, hint: str = ""
) -> Number:
    told = f"{bound.words}; {bound.why}" + (f". {hint}" if hint else "")
    low = 0 if optional else bound.low
    return Number(
        key=key,
        label=label,
        low=low,
        high=bound.high,
        default=default or 0,
        optional=optional,
        hint=told,
        clause=bound.clause,
    )


def _yes_no(key: str, label: str, default: bool, clause: str) -> One:
    return One(key=key, label=label, options=YES_NO, default=default, widget="checkbox", clause=clause)


def _arcs(default: tuple[str, ...], *, low: int = 1) -> Many:
    return Many(key="arcs", label="Arcs", options=ARCS, default=default, low=low, clause="CM-FIRE-02")


def fields_of(panel: ControlPanel) -> Group:
    """The panel's figures as fields, under the headings the form shows them."""
    ship = "The ship"
    scalars: list[Field] = [
        One(
            key="motive",
            label="Motive power",
            options=tuple(Option(m, m) for m in panels.MOTIVE),
            default=panel.motive,
            widget="select",
            clause="CM-MOV-12",
            section=ship,
        ),
        _number("movement", "Movement", MOVEMENT, panel.movement, optional=True, hint="0 for a kite, which rolls 1d6"),
        One(
            key="ceiling",
            label="Ceiling",
            options=tuple(Option(b, b) for b in reversed(TRACK_BANDS)),
            default=panel.ceiling,
            widget="select",
            clause="CM-ALT-01",
        ),
        _number("ram", "Ram value", RAM, panel.ram),
        _number("boarding_parties", "Boarding parties", PARTIES, panel.boarding_parties),
        _number("crew_step", "Crew chart: hits a party", CREW_STEP, crew_step(panel)),
        _number("flying_martians", "Flights of Flying Martians", FLIGHTS, panel.flying_martians),
        _yes_no("superior", "Superior crew", panel.superior, "CM-SUP-01"),
        _yes_no("power_grapnel", "Power grapnel", panel.power_grapnel, "CM-PG-03"),
        _yes_no("vulnerable_magazine", "Vulnerable magazine", panel.vulnerable_magazine, "CM-MAG-06"),
    ]
    hulls = hulls_of(panel)
    rows = tuple(
        Number(
            key=band,
            label=f"{band} row",
            low=0,
            high=HULL_BOXES.high,
            default=hulls.get(band, 0),
            hint=f"hull boxes, {HULL_BOXES.words} from the ceiling down; 0 above it",
            clause=HULL_BOXES.clause,
        )
        for band in TRACK_BANDS
    )
    track = Group(key="hulls", label="Damage track", fields=rows, section=TRACK)
    guns = Repeat(key="guns", label="Guns", items=tuple(_gun_fields(i, gun) for i, gun in enumerate(panel.guns)))
    return Group(key="panel", label=panel.name, fields=(*scalars, track, guns, _new_gun_fields()), section=ship)


def _gun_fields(index: int, gun: Gun) -> Group:
    fields: list[Field] = []
    if gun.kind in ADDED_KINDS:
        dice = AP_DICE if gun.kind == panels.ANTI_PERSONNEL else MAIN_DICE
        fields.append(_number("dice", "Dice", dice, gun.dice))
        if gun.kind == panels.MAIN:
            fields.append(_number("damage", "Damage", DAMAGE, gun.damage))
        no_short = gun.short_range is None
        fields.append(
            _number(
                "short_range",
                "Short range",
                SHORT_RANGE,
                gun.short_range,
                optional=no_short,
                hint="0: none" if no_short else "",
            )
        )
        fields.append(_number("long_range", "Long range", LONG_RANGE, gun.long_range))
        fields.append(_arcs(gun.arcs))
    elif gun.kind == panels.ROCKETS:
        fields.append(_arcs(gun.arcs))
        angle = tuple(Option(a, f"fires {a}") for a in panels.ANGLES)
        fields.append(
            One(
                key="angle",
                label="Fitted to fire",
                options=angle,
                default=gun.angle,
                widget="select",
                clause="CM-RKT-01",
            )
        )
    fields.append(_yes_no("remove", "Take this gun off", False, "CM-GUN-06"))
    return Group(
        key=str(index), label=gun.name, fields=tuple(fields), fixed={"number": gun.number}, section=gun_label(gun)
    )


def _new_gun_fields() -> Group:
    kinds = (Option(None, "No new gun"), *(Option(kind, f"A {kind} gun") for kind in ADDED_KINDS))
    new = "A new gun"
    fields: tuple[Field, ...] = (
        One(key="kind", label="Kind", options=kinds, default=None, widget="select", clause="CM-GUN-06"),
        Text(key="name", label="Name", optional=True, max_length=60, hint="blank: named by its kind"),
        One(
            key="position",
            label="Position",
            options=tuple(Option(p, p) for p in positions()),
            default="bow",
            widget="select",
            clause="CM-GUN-01",
        ),
        _arcs((), low=0),
        _number("short_range", "Short range", SHORT_RANGE, NEW_GUN["short_range"]),
        _number("long_range", "Long range", LONG_RANGE, NEW_GUN["long_range"]),
        Number(
            key="dice",
            label="Dice",
            low=1,
            high=6,
            default=NEW_GUN["dice"],
            hint=f"main {MAIN_DICE.words}, anti-personnel {AP_DICE.words} (CM-AP-01)",
            clause="CM-FIRE-01",
        ),
        _number("damage", "Damage (main gun)", DAMAGE, NEW_GUN["damage"]),
    )
    return Group(key="new_gun", label=new, fields=fields, optional=True, needs="kind", section=new)


def figures(panel: ControlPanel) -> JSONObject:
    """What the fields spell when the umpire changes nothing (``panel_edits.edited`` gives the panel back); an
    optional figure that is None (a kite's movement, a gun's missing short range) is left out, as the form leaves
    it out."""
    guns: list[JSON] = [_gun_figures(gun) for gun in panel.guns]
    hulls = hulls_of(panel)
    found: JSONObject = {
        "motive": panel.motive,
        "movement": panel.movement,
        "ceiling": panel.ceiling,
        "ram": panel.ram,
        "boarding_parties": panel.boarding_parties,
        "crew_step": crew_step(panel),
        "flying_martians": panel.flying_martians,
        "superior": panel.superior,
        "power_grapnel": panel.power_grapnel,
        "vulnerable_magazine": panel.vulnerable_magazine,
        "hulls": {band: hulls.get(band, 0) for band in TRACK_BANDS},
        "guns": guns,
    }
    return _without_none(found, "movement")


def _gun_figures(gun: Gun) -> JSONObject:
    found: JSONObject = {"number": gun.number, "remove": False}
    if gun.kind in ADDED_KINDS:
        found.update(dice=gun.dice, short_range=gun.short_range, long_range=gun.long_range, arcs=list(gun.arcs))
        if gun.kind == panels.MAIN:
            found["damage"] = gun.damage
    elif gun.kind == panels.ROCKETS:
        found.update(arcs=list(gun.arcs), angle=gun.angle)
    return _without_none(found, "short_range")


def _without_none(found: JSONObject, key: str) -> JSONObject:
    return {k: v for k, v in found.items() if k != key or v is not None}
