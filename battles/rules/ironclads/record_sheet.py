"""The Data Card as the app's record sheet, drawn as the text draws it (IC-CARD-01, Appendix E; IC-SPD-06): each track a
row of boxes numbered 01..NN; her stats whole (bold), boxes beyond her stats struck through (never hers: the kit's
uncoloured ``EMPTY`` box), stats lost crossed off from the right; each turret's arcs as Fwd/Port/Starboard/Rear with
the ones she bears into marked (as the app's aspect glyph: the turret's four quadrants, IC-ARC-06); the Current Speed
and Hits lines as space to write in, filled when a battle gives them. Pure: built from the card alone."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.events import JSON
from battles.engine.presentation import EMPTY, LOST, WHOLE, Block, Box, Fact, Item, RecordSheet, Row, Section
from battles.engine.words import and_list
from battles.rules.ironclads.cards import (
    ARCS,
    ARMOUR,
    FORWARD,
    HULL,
    PORT,
    PROPULSION,
    REAR,
    STARBOARD,
    TURRETS,
    DataCard,
    Track,
)

LABELS = {
    FORWARD: "Forward Arc",
    PORT: "Port Broadside Arc",
    STARBOARD: "Starb Broadside Arc",
    REAR: "Rear Arc",
    "forward turret": "Forward Turret",
    "centre turret": "Centre Turret",
    "rear turret": "Rear Turret",
    ARMOUR: "Armour",
    PROPULSION: "Propulsion",
    HULL: "Hull",
}
ARC_WORDS = {FORWARD: "Fwd", PORT: "Port", STARBOARD: "Starboard", REAR: "Rear"}
# A turret's four quadrants, degrees clockwise from the bow (IC-ARC-06): the glyph's wedges.
QUADRANTS: dict[str, tuple[int, int]] = {FORWARD: (-45, 45), STARBOARD: (45, 135), REAR: (135, 225), PORT: (225, 315)}
LOOK = "data-card"


def boxes(track: Track) -> tuple[Box, ...]:
    """01..NN: whole up to what is left, crossed off from there to her stats, struck through beyond them."""
    return tuple(
        Box(WHOLE if n < track.left else LOST if n < track.stats else EMPTY, f"{n + 1:02d}") for n in range(track.boxes)
    )


def row(track: Track) -> Row:
    label = LABELS[track.name]
    if not track.stats:
        said = f"{label}: none"
    elif track.lost:
        said = f"{label}: {track.left} of {track.stats} left ({track.lost} crossed off)"
    else:
        said = f"{label}: {track.stats} of {track.boxes}"
    return Row(label, label, boxes(track), said, "gone" if track.stats and not track.left else "")


def turret_arcs(data_card: DataCard, turret: str) -> Item:
    """Fwd/Port/Starboard/Rear with the arcs she bears into marked (IC-ARC-08)."""
    bears = data_card.bears(turret)
    written = "/".join(ARC_WORDS[a].upper() if a in bears else ARC_WORDS[a] for a in ARCS)
    summary = f"bears {and_list([ARC_WORDS[a] for a in bears])}" if bears else "no guns"
    aspects: list[JSON] = [[ARC_WORDS[a], QUADRANTS[a][0], QUADRANTS[a][1], a in bears] for a in ARCS]
    # The label is the item's key (drawn boxed); no name beside it, which would say the turret twice.
    return Item(key=LABELS[turret], name="", detail=written, summary=summary, values={"aspects": aspects})


def record_sheet(
    data_card: DataCard,
    *,
    current_speeds: Sequence[int] = (),
    hits: str = "",
    notes: Sequence[str] = (),
    key: str = "",
) -> RecordSheet:
    """Her card as a sheet. ``current_speeds``: the speeds set so far, the last one now (earlier ones shown beside
    it, as the text crosses them off); ``hits``: the H and C noted this turn; both blank lines on a fresh card."""
    guns = Block(rows=tuple(row(data_card.track(t)) for t in (*ARCS, *TURRETS)))
    # Only the turrets she has: the three blank arcs lines of a ship without turrets say nothing (her rows of
    # boxes above still show every turret's track, struck through).
    hers = tuple(turret_arcs(data_card, t) for t in TURRETS if data_card.track(t).stats)
    turrets = Block(heading="Turret arcs", items=hers) if hers else None
    hull = Block(rows=tuple(row(data_card.track(t)) for t in (ARMOUR, PROPULSION, HULL)))
    speed = Fact(
        "Current Speed",
        str(current_speeds[-1]) if current_speeds else "",
        aside=" ".join(f"was {s}" for s in current_speeds[:-1]),
    )
    lines = Block(facts=(speed, Fact("Hits", hits), Fact("Notes", "; ".join(notes))), look=LOOK)
    left = {t: data_card.left(t) for t in (ARMOUR, PROPULSION, HULL)}
    subtitle = ", ".join(part for part in (data_card.nation, data_card.years) if part)
    facts = [Fact("Sister Ships", ", ".join(data_card.sisters) or "none")]
    facts.append(Fact("Type", data_card.kind + (", a monitor" if data_card.monitor else "")))
    return RecordSheet(
        key=key or data_card.name,
        title=f"Name: {data_card.name}",
        subtitle=subtitle,
        look=LOOK,
        facts=tuple(facts),
        sections=(
            Section("guns", "Guns", (guns, turrets) if turrets else (guns,), look=LOOK, wide=True),
            Section(
                "ship",
                "Armour, Propulsion, Hull",
                (hull, lines),
                look=LOOK,
                wide=True,
                summary=f"Armour {left[ARMOUR]}, Propulsion {left[PROPULSION]}, Hull {left[HULL]}",
            ),
        ),
    )
